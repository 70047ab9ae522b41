//! The proof that a marked monoid gives every sum of heaps its misère outcome, and the
//! shortest sum it fails at when it does not.

use super::*;

/// Sets of elements of a table, one row of `words` 64-bit words per element.
#[derive(Clone, Debug)]
pub(super) struct Rows {
    pub(super) words: usize,
    bits: Vec<u64>,
}

impl Rows {
    fn new(rows: usize, order: usize, full: bool) -> Rows {
        let words = order.div_ceil(64);
        let mut bits = vec![if full { u64::MAX } else { 0 }; rows * words];
        if full && !order.is_multiple_of(64) {
            let last = (1u64 << (order % 64)) - 1;
            for row in 0..rows {
                bits[row * words + words - 1] = last;
            }
        }
        Rows { words, bits }
    }

    fn row(&self, row: usize) -> &[u64] {
        &self.bits[row * self.words..(row + 1) * self.words]
    }

    fn row_mut(&mut self, row: usize) -> &mut [u64] {
        &mut self.bits[row * self.words..(row + 1) * self.words]
    }

    fn contains(&self, row: usize, element: u32) -> bool {
        self.bits[row * self.words + element as usize / 64] >> (element % 64) & 1 == 1
    }

    fn insert(&mut self, row: usize, element: u32) {
        self.bits[row * self.words + element as usize / 64] |= 1 << (element % 64);
    }
}

/// The proof that a marked monoid gives every sum of heaps its misère outcome.
///
/// For a sum `G`, let `f(G)` be the set of elements `z` such that some option of `G` (a move in
/// `G` itself), times `z`, is marked P: in `G + Z` with `Z`'s element `z`, a move in `G` reaches
/// a marked P-position. Adding a heap `h` (element `h`, options' elements `T_h`) to `G`
/// (element `y`) gives `f(G + h) = {z : hz ∈ f(G)} ∪ {z : y·t·z ∈ P for some t ∈ T_h}`.
/// `reach[x]` is the intersection of `f(G)` over every non-empty sum `G` with element `x`; it is
/// the greatest solution of `reach[y·h] ⊆ {z : hz ∈ reach[y]} ∪ {z : ytz ∈ P, t ∈ T_h}` for
/// every `y` and heap `h` (with `f(∅) = ∅`): every solution is contained in each `f(G)` by
/// induction on `G`, and the intersections are a solution since union distributes over
/// intersection. So the marking is right for every sum iff
/// - (a) no sum marked P has an option marked P: `yh ∈ P ⇒ yt ∉ P` for every element `y` of
///   a sum, heap `h` and `t ∈ T_h`;
/// - (b) every non-empty sum marked N has an option marked P: `1 ∈ reach[x]` for every `x ∉ P`
///   that a non-empty sum reaches;
/// - (c) the empty sum (no move: a misère N-position) is marked N.
///
/// By induction over the game tree, (a)–(c) make the marking the true misère outcome of every
/// sum. The greatest solution is found by iterating from the full sets downwards; the cost
/// grows with the square of the order and the number of heaps, never with the number of sums.
#[derive(Clone, Debug)]
pub(super) struct Proof {
    /// `reach[x]`, for the elements a non-empty sum reaches (other rows unused).
    pub(super) reach: Rows,
    /// Whether a non-empty sum reaches each element.
    pub(super) reached: Vec<bool>,
}

/// Why a marking failed its proof.
pub(super) enum Refuted {
    /// This sum's marking contradicts the misère rule (given its options' markings).
    At(Sum),
    /// Some sum's does (the check started from an earlier proof, which names none).
    Somewhere,
}

/// What one step of the fixed-point iteration uses: the table and the heaps as generators.
struct Marked<'a> {
    table: &'a Table,
    generators: &'a [Generator],
    /// `p_after[e]`: the elements `z` with `e·z ∈ P`.
    p_after: Rows,
}

impl Marked<'_> {
    /// The elements reached by non-empty sums, each with the (element, generator) it was
    /// first reached from (`u32::MAX`: from the empty sum), breadth first (short sums first).
    fn reachable(&self) -> (Vec<bool>, Vec<(u32, usize)>) {
        let order = self.table.order;
        let mut reached = vec![false; order];
        let mut parent = vec![(u32::MAX, 0); order];
        let mut queue: Vec<u32> = Vec::new();
        let mut visit = |from: u32, x: u32, generator: usize, queue: &mut Vec<u32>| {
            if !reached[x as usize] {
                reached[x as usize] = true;
                parent[x as usize] = (from, generator);
                queue.push(x);
            }
        };
        for (index, generator) in self.generators.iter().enumerate() {
            visit(u32::MAX, generator.element, index, &mut queue);
        }
        let mut next = 0;
        while next < queue.len() {
            let y = queue[next];
            for (index, generator) in self.generators.iter().enumerate() {
                visit(y, self.table.mul(y, generator.element), index, &mut queue);
            }
            next += 1;
        }
        (reached, parent)
    }

    /// A non-empty sum reaching `x` (its shortest, by the breadth-first parents), plus `extra`.
    fn sum_reaching(&self, parent: &[(u32, usize)], mut x: u32, extra: Option<u64>) -> Sum {
        let mut sum = Sum::new();
        if let Some(heap) = extra {
            *sum.entry(heap).or_insert(0) += 1;
        }
        while x != u32::MAX {
            let (from, generator) = parent[x as usize];
            *sum.entry(self.generators[generator].heap).or_insert(0) += 1;
            x = from;
        }
        sum
    }

    /// `{z : y·t·z ∈ P for some t ∈ T_h}` into `out`.
    fn option_reach(&self, y: u32, generator: &Generator, out: &mut [u64]) {
        out.fill(0);
        for &target in &generator.targets {
            let row = self.p_after.row(self.table.mul(y, target) as usize);
            out.iter_mut().zip(row).for_each(|(word, bits)| *word |= bits);
        }
    }

    /// `{z : h·z ∈ set}` or-ed into `out`.
    fn or_preimage(&self, set: &[u64], generator: &Generator, out: &mut [u64]) {
        let order = self.table.order;
        // Row `h` of the table: h·z for every z, read in order.
        let products = &self.table.table[generator.element as usize * order..][..order];
        for (word, chunk) in out.iter_mut().zip(products.chunks(64)) {
            let mut bits = 0u64;
            for (bit, &hz) in chunk.iter().enumerate() {
                bits |= (set[hz as usize / 64] >> (hz % 64) & 1) << bit;
            }
            *word |= bits;
        }
    }
}

/// Proves (or refutes) that `table`'s marking gives every sum of the heaps `generators` its
/// misère outcome ([`Proof`]). `start`, a proof for a subset of these heaps, is a valid start
/// for the iteration (more sums only shrink the intersections) and makes it quicker; a
/// failure found from it names no sum.
pub(super) fn prove(
    table: &Table,
    generators: &[Generator],
    start: Option<&Proof>,
    control: &Control,
) -> Result<Result<Proof, Refuted>, GameError> {
    let order = table.order;
    // p_after and reach: a bit a pair of elements each.
    control.check_memory(|| format!("proving a misère quotient of order {order}"), (order as u128 + 1).pow(2), 1)?;
    let mut p_after = Rows::new(order, order, false);
    for e in 0..order as u32 {
        for z in 0..order as u32 {
            if table.p[table.mul(e, z) as usize] {
                p_after.insert(e as usize, z);
            }
        }
    }
    let marked = Marked { table, generators, p_after };
    let (reached, parent) = marked.reachable();
    // (c) The empty sum.
    if table.p[0] {
        return Ok(Err(Refuted::At(Sum::new())));
    }
    // (a) No move from P to P; the sources are the empty sum (None) and every element reached.
    let sources: Vec<Option<u32>> =
        std::iter::once(None).chain((0..order as u32).filter(|&x| reached[x as usize]).map(Some)).collect();
    for &source in &sources {
        let y = source.unwrap_or(0);
        for generator in generators {
            if table.p[table.mul(y, generator.element) as usize]
                && generator.targets.iter().any(|&target| table.p[table.mul(y, target) as usize])
            {
                let sum = match source {
                    None => Sum::from([(generator.heap, 1)]),
                    Some(y) => marked.sum_reaching(&parent, y, Some(generator.heap)),
                };
                return Ok(Err(Refuted::At(sum)));
            }
        }
    }
    // (b) The greatest solution, iterating down from the start.
    let mut reach = match start {
        Some(proof) => {
            let mut reach = Rows::new(order, order, true);
            for x in 0..order {
                if proof.reached.get(x) == Some(&true) && proof.reach.words == reach.words {
                    reach.row_mut(x).copy_from_slice(proof.reach.row(x));
                }
            }
            reach
        }
        None => Rows::new(order, order, true),
    };
    let words = reach.words;
    let mut term = vec![0u64; words];
    loop {
        if control.cancelled() {
            return Err(interrupted());
        }
        // Each new intersection is used at once: the sets only shrink, stay above the greatest
        // solution, and a pass that changes nothing is a solution, hence the greatest.
        let mut changed = false;
        for &source in &sources {
            let y = source.unwrap_or(0);
            for generator in generators {
                marked.option_reach(y, generator, &mut term);
                if let Some(y) = source {
                    marked.or_preimage(reach.row(y as usize), generator, &mut term);
                }
                let x = table.mul(y, generator.element) as usize;
                for (word, bits) in reach.row_mut(x).iter_mut().zip(&term) {
                    changed |= *word & !bits != 0;
                    *word &= bits;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let proof = Proof { reach, reached };
    let Some(failing) = (0..order as u32)
        .find(|&x| proof.reached[x as usize] && !table.p[x as usize] && !proof.reach.contains(x as usize, 0))
    else {
        return Ok(Ok(proof));
    };
    if start.is_some() {
        return Ok(Err(Refuted::Somewhere));
    }
    let sum =
        witness(&marked, &sources, failing, control)?.unwrap_or_else(|| marked.sum_reaching(&parent, failing, None));
    Ok(Err(Refuted::At(sum)))
}

/// A shortest sum with element `x` and no option marked P, by breadth-first search over pairs
/// `(x, z)` meaning "a sum of element `x` none of whose own moves reaches P in company `z`":
/// `(y·h, z)` follows from `(y, hz)` when no option of `h`, times `y·z`, is in P, and from the
/// empty sum (no moves at all) when no option of `h`, times `z`, is. The refinement frees the
/// heaps of this sum: the shorter, the smaller the next candidate. `None` if there is none (the
/// caller then names a sum reaching `x`; the proof found one, so this does not happen).
fn witness(marked: &Marked, sources: &[Option<u32>], x: u32, control: &Control) -> Result<Option<Sum>, GameError> {
    let (table, order) = (marked.table, marked.table.order);
    control.check_memory(
        || format!("naming a failing sum in a quotient of order {order}"),
        (order as u128).pow(2),
        8,
    )?;
    // predecessors[x]: every (source, generator) with source · generator = x.
    let mut predecessors: Vec<Vec<(Option<u32>, usize)>> = vec![Vec::new(); order];
    for &source in sources {
        for (index, generator) in marked.generators.iter().enumerate() {
            predecessors[table.mul(source.unwrap_or(0), generator.element) as usize].push((source, index));
        }
    }
    const UNSEEN: (u32, u32) = (u32::MAX, u32::MAX);
    // parent[node]: (the node it was reached from, the generator added); node = x·order + z.
    let mut parent = vec![UNSEEN; order * order];
    let start = x as usize * order;
    parent[start] = (start as u32, u32::MAX);
    let mut queue = std::collections::VecDeque::from([start]);
    let mut term = vec![0u64; order.div_ceil(64)];
    while let Some(node) = queue.pop_front() {
        let (x, z) = (node / order, (node % order) as u32);
        for &(source, index) in &predecessors[x] {
            let generator = &marked.generators[index];
            marked.option_reach(source.unwrap_or(0), generator, &mut term);
            if term[z as usize / 64] >> (z % 64) & 1 == 1 {
                continue;
            }
            let mut sum = Sum::from([(generator.heap, 1)]);
            let next = source.map(|y| y as usize * order + table.mul(generator.element, z) as usize);
            match next {
                Some(next) if parent[next] == UNSEEN => {
                    parent[next] = (node as u32, index as u32);
                    queue.push_back(next);
                    continue;
                }
                Some(_) => continue,
                None => {}
            }
            // Back from `node` to the start: the heaps added on the way.
            let mut at = node;
            while at != start {
                let (from, added) = parent[at];
                *sum.entry(marked.generators[added as usize].heap).or_insert(0) += 1;
                at = from as usize;
            }
            return Ok(Some(sum));
        }
    }
    Ok(None)
}
