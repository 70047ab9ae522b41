//! The candidates: conservative extensions, larger monoids when none serves, their
//! lexicographic marking, and their reduction.

use super::*;

/// Tries each element of `quotient` as the element of `heap` (whose options have the elements
/// `targets`); the first whose marking is proved, with its proof.
pub(super) fn conservative_extension(
    quotient: &Table,
    proof: &Proof,
    generators: &mut Vec<Generator>,
    heap: u64,
    targets: &[u32],
    control: &Control,
) -> Result<Option<(u32, Proof)>, GameError> {
    let is_p = |x: u32| quotient.p[x as usize];
    let heap_is_p = should_be_p(targets, is_p);
    for candidate in 0..quotient.order as u32 {
        if is_p(candidate) != heap_is_p {
            continue;
        }
        if generators.iter().any(|known| known.element == candidate && known.targets == targets) {
            return Ok(Some((candidate, proof.clone()))); // the heap acts exactly like an earlier one
        }
        // Quick necessary check: no move from P to P through the new heap alone, from any
        // element the old heaps reach.
        let p_to_p = (0..quotient.order as u32)
            .filter(|&y| y == 0 || proof.reached[y as usize])
            .any(|y| is_p(quotient.mul(y, candidate)) && targets.iter().any(|&target| is_p(quotient.mul(y, target))));
        if p_to_p {
            continue;
        }
        generators.push(Generator { element: candidate, targets: targets.to_vec(), heap });
        match prove(quotient, generators, Some(proof), control)? {
            Ok(extended) => return Ok(Some((candidate, extended))),
            Err(_) => {
                generators.pop();
            }
        }
    }
    Ok(None)
}

/// A candidate monoid: the old quotient times cyclic monoids `⟨t | t^(i+p) = t^i⟩`, one per
/// freed heap. An element is `base + order · (mixed-radix exponents)`.
struct Candidate<'a> {
    base: &'a Table,
    /// `(index i, period p)` of each cyclic factor.
    cyclic: Vec<(u32, u32)>,
    size: u64,
}

impl Candidate<'_> {
    fn mul(&self, x: u32, y: u32) -> u32 {
        let order = self.base.order as u32;
        let base = self.base.mul(x % order, y % order);
        let (mut x_rest, mut y_rest) = (x / order, y / order);
        let mut result = 0u32;
        let mut stride = 1u32;
        for &(index, period) in &self.cyclic {
            let radix = index + period;
            let sum = x_rest % radix + y_rest % radix;
            let exponent = if sum < radix { sum } else { index + (sum - index) % period };
            result += exponent * stride;
            stride *= radix;
            x_rest /= radix;
            y_rest /= radix;
        }
        base + order * result
    }
}

/// The quotient of heaps `0..=heap` when no element of the old quotient serves for `heap`
/// (Siegel's iterative construction, as in his MisereSolver).
///
/// The first candidate is the old quotient times `⟨t | t⁴ = t²⟩` for the new heap. While a
/// candidate fails its proof at a sum `w`, it is *recalibrated*: for subsets of the heaps of
/// `w`, smallest first, each heap of the subset is freed from its old element and given a
/// cyclic factor `⟨t | t^(i+p) = t^i⟩` of its own, `i` the larger of its old element's index
/// and its multiplicity in `w` less one, `p = max(2, 2⌊(i − 4)/2⌋)`; the first subset whose
/// marked, reduced candidate gives `w` the other outcome is the next candidate. Every candidate
/// is marked from its lexicographically least sums and reduced before its proof, and only a
/// proved one is returned, so how the subsets are chosen affects speed, never the answer.
pub(super) fn expand(
    quotient: &Table,
    options: &[Vec<Vec<u64>>],
    limit: Order,
    task: &crate::progress::Task,
) -> Result<Table, GameError> {
    let Order { heap, control, .. } = limit;
    let mut trial = candidate(quotient, &BTreeMap::from([(heap, (2, 2))]), options, limit)?.ok_or_else(|| {
        GameError::Unsupported(format!(
            "the first misère quotient candidate for heap {heap} has more than {MAX_CANDIDATE} elements"
        ))
    })?;
    for _ in 0..MAX_ATTEMPTS {
        task.advance(1);
        if control.cancelled() {
            return Err(interrupted());
        }
        let generators = generators_of(options, heap as usize + 1, |h| trial.heaps[h as usize], |x, y| trial.mul(x, y));
        // The least failure when Siegel's search finds one; otherwise the fixed-point proof
        // decides (and names a shortest failure if there is one). When both complete they are
        // two independent proofs, and must agree.
        let verdict = least_failure(&trial, &generators, control);
        let failure = match verdict {
            Verdict::Fails(sum) => sum,
            Verdict::Holds | Verdict::Undecided => match prove(&trial, &generators, None, control)? {
                Ok(_) => return Ok(trial),
                Err(_) if verdict == Verdict::Holds => {
                    return Err(GameError::Unsupported(format!(
                        "internal error: the two proofs of the misère quotient candidate for heap {heap} disagree"
                    )));
                }
                Err(Refuted::At(sum)) => sum,
                Err(Refuted::Somewhere) => unreachable!("a proof from scratch names the failing sum"),
            },
        };
        trial = recalibrate(&trial, &failure, options, limit)?;
    }
    Err(GameError::Unsupported(format!(
        "no verified misère quotient found for heap {heap} within {MAX_ATTEMPTS} candidates; try a smaller --to"
    )))
}

/// The next candidate after `trial` failed its proof at `failure`: the first subset of the
/// failing sum's heaps (fewest heaps first) whose freeing gives `failure` the other outcome.
fn recalibrate(trial: &Table, failure: &Sum, options: &[Vec<Vec<u64>>], limit: Order) -> Result<Table, GameError> {
    let element_of = |table: &Table, sum: &Sum| {
        sum.iter().fold(0, |x, (&heap, &count)| (0..count).fold(x, |x, _| table.mul(x, table.heaps[heap as usize])))
    };
    let should_be_p = !trial.p[element_of(trial, failure) as usize];
    let involved: Vec<u64> = failure.keys().copied().filter(|&heap| !options[heap as usize].is_empty()).collect();
    let mut refused = None;
    // The elements of the candidates built since one was refused for its order.
    let mut built_since_refused = 0u64;
    for size in 1..=involved.len() {
        for subset in subsets(&involved, size) {
            if limit.control.cancelled() {
                return Err(interrupted());
            }
            if built_since_refused > MAX_BUILT_AFTER_REFUSAL
                && let Some(error) = refused
            {
                return Err(error);
            }
            let freed: BTreeMap<u64, (u32, u32)> = subset
                .iter()
                .map(|&heap| {
                    let index = index_of(trial, trial.heaps[heap as usize]).max(failure[&heap].saturating_sub(1));
                    // Siegel's choice: period 2 for short tails, about the index for long ones.
                    let period = (2 * ((i64::from(index) - 4) / 2)).max(2) as u32;
                    (heap, (index, period))
                })
                .collect();
            let elements = candidate_size(trial, &freed);
            if refused.is_some() && elements <= MAX_CANDIDATE {
                built_since_refused += elements;
            }
            match candidate(trial, &freed, options, limit) {
                Ok(Some(next)) if next.p[element_of(&next, failure) as usize] == should_be_p => return Ok(next),
                Ok(_) => {}
                // A subset whose candidate is past --max-order: a larger subset may still do.
                // The message kept is the first such (fewest heaps freed): the one a user
                // raising --max-order would meet first.
                Err(error @ GameError::Unsupported(_)) => {
                    refused.get_or_insert(error);
                }
                Err(error) => return Err(error),
            }
        }
    }
    Err(refused.unwrap_or_else(|| {
        GameError::Unsupported(format!(
            "no recalibration of the misère quotient candidate for heap {} fixes the failing sum {}",
            limit.heap,
            failure.iter().map(|(heap, count)| format!("{heap}x{count}")).collect::<Vec<_>>().join(" + ")
        ))
    }))
}

/// The subsets of `items` of `size` elements, in lexicographic order of positions.
fn subsets(items: &[u64], size: usize) -> Vec<Vec<u64>> {
    if size == 0 {
        return vec![Vec::new()];
    }
    (0..items.len())
        .rev()
        .skip(size - 1)
        .rev()
        .flat_map(|first| {
            subsets(&items[first + 1..], size - 1).into_iter().map(move |mut rest| {
                rest.insert(0, items[first]);
                rest
            })
        })
        .collect()
}

/// The index of `x` in `table`: the least `i` with `x^i = x^(i+p)` for some `p > 0`.
fn index_of(table: &Table, x: u32) -> u32 {
    let mut first_seen: FxHashMap<u32, u32> = FxHashMap::default();
    let mut power = 0u32;
    for exponent in 0.. {
        if let Some(&index) = first_seen.get(&power) {
            return index;
        }
        first_seen.insert(power, exponent);
        power = table.mul(power, x);
    }
    unreachable!("a finite monoid's powers repeat")
}

/// The number of elements of [`candidate`]'s monoid before it is marked and reduced.
fn candidate_size(base: &Table, freed: &BTreeMap<u64, (u32, u32)>) -> u64 {
    freed.values().fold(base.order as u64, |size, &(index, period)| size * u64::from(index + period))
}

/// `base` times a cyclic factor `⟨t | t^(i+p) = t^i⟩` for each heap of `freed` (heap ↦ its
/// `(i, p)`; that heap's element is the factor's `t`, every other heap keeps its element of
/// `base`), marked and reduced; `None` when it would have more than [`MAX_CANDIDATE`] elements.
fn candidate(
    base: &Table,
    freed: &BTreeMap<u64, (u32, u32)>,
    options: &[Vec<Vec<u64>>],
    limit: Order,
) -> Result<Option<Table>, GameError> {
    let Order { heap, control, .. } = limit;
    let cyclic: Vec<(u32, u32)> = freed.values().copied().collect();
    let size = candidate_size(base, freed);
    if size > MAX_CANDIDATE {
        return Ok(None);
    }
    let candidate = Candidate { base, cyclic, size };
    let mut strides = BTreeMap::new();
    let mut stride = base.order as u64;
    for (&freed_heap, &(index, period)) in freed {
        strides.insert(freed_heap, stride as u32);
        stride *= u64::from(index + period);
    }
    let element = |h: u64| strides.get(&h).copied().unwrap_or_else(|| base.heaps[h as usize]);
    let mul = |x, y| candidate.mul(x, y);
    let generators = generators_of(options, heap as usize + 1, element, mul);
    let (elements, marks) = mark_p_portion(&candidate, &generators, control);
    if control.cancelled() {
        return Err(interrupted()); // the marking stopped part way
    }
    let is_p = |x: u32| marks[x as usize] == Mark::P;
    // Reduce before the proof: the reduction marks every sum as the candidate does, so one is
    // proved iff the other is, and the reduced table is the small one.
    let mut reduced = reduce(&elements, &generators, mul, is_p, limit)?;
    reduced.heaps = (0..=heap).map(|h| reduced.heaps[element(h) as usize]).collect();
    Ok(Some(reduced))
}

/// What the lexicographic pass has decided about a candidate's element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    Unseen,
    N,
    P,
}

/// Marks the P-portion of the submonoid the generators span, visiting each element through
/// its lexicographically least sum. Returns the elements in that order and the marks.
fn mark_p_portion(candidate: &Candidate, generators: &[Generator], control: &Control) -> (Vec<u32>, Vec<Mark>) {
    let mul = |x, y| candidate.mul(x, y);
    let mut marks = vec![Mark::Unseen; candidate.size as usize];
    marks[0] = Mark::N; // the empty sum: no move, a misère win for the player to move
    let mut visited: Vec<(u32, Vec<u32>)> = vec![(0, Vec::new())];
    for generator in generators {
        if control.cancelled() {
            break; // the caller sees the flag and drops the partial marking
        }
        // Sums with this generator come after every sum of earlier generators alone; by the
        // number of copies, then by the rest in its own order.
        let mut frontier = visited.clone();
        loop {
            let mut next_frontier = Vec::new();
            for state in &frontier {
                let next = step(state, generator, mul);
                if marks[next.0 as usize] != Mark::Unseen {
                    continue; // not lexicographically least, nor is any multiple of it
                }
                let p = should_be_p(&next.1, |x| marks[x as usize] == Mark::P);
                marks[next.0 as usize] = if p { Mark::P } else { Mark::N };
                next_frontier.push(next);
            }
            if next_frontier.is_empty() {
                break;
            }
            visited.extend(next_frontier.iter().cloned());
            frontier = next_frontier;
        }
    }
    (visited.into_iter().map(|(element, _)| element).collect(), marks)
}

/// The limit a reduced candidate's order is held to, and what to say when it passes it.
#[derive(Clone, Copy)]
pub(super) struct Order<'c> {
    /// The heap being added.
    pub(super) heap: u64,
    /// `--max-order`.
    pub(super) max_order: usize,
    /// The memory limit the tables are held to, and the cancel flag.
    pub(super) control: &'c Control,
}

impl Order<'_> {
    /// Refuses an order past the limit, before its `order × order` table is built: a failed
    /// candidate of 0.6 reduced to order 101,920 once asked for 41 GB at once.
    fn check(self, order: usize) -> Result<(), GameError> {
        let Order { heap, max_order, control } = self;
        if order > max_order {
            // The candidate is reduced before its proof: it may be the quotient or a step to it.
            return Err(GameError::Unsupported(format!(
                "the misère quotient (or a candidate for it) reaches order {order} at heap {heap}, past the limit of {max_order} (raise --max-order or lower --to)"
            )));
        }
        control.check_memory(
            || format!("the multiplication table of a misère quotient of order {order}"),
            (order as u128).pow(2),
            std::mem::size_of::<u32>() as u128,
        )
    }
}

/// The coarsest congruence of a candidate that keeps P apart from N (Moore's
/// partition refinement over the generators), as a quotient table. `heaps` is indexed by the
/// candidate's elements (the caller maps heaps through it).
///
/// # Errors
/// An order past `limit` or a table past the memory limit.
fn reduce(
    elements: &[u32],
    generators: &[Generator],
    mul: impl Fn(u32, u32) -> u32,
    is_p: impl Fn(u32) -> bool,
    limit: Order,
) -> Result<Table, GameError> {
    // The successor lists and the refinement's signatures: a few words an element a generator.
    limit.control.check_memory(
        || format!("reducing a misère quotient candidate of {} elements", elements.len()),
        elements.len() as u128 * (generators.len() as u128 + 2),
        3 * std::mem::size_of::<usize>() as u128,
    )?;
    // Elements are a candidate's numbers, below its size: a dense index, not a hash map.
    let largest = elements.iter().copied().max().unwrap_or(0) as usize;
    let mut position = vec![u32::MAX; largest + 1];
    for (index, &x) in elements.iter().enumerate() {
        position[x as usize] = index as u32;
    }
    let successors: Vec<Vec<u32>> = elements
        .iter()
        .map(|&x| generators.iter().map(|generator| position[mul(x, generator.element) as usize]).collect())
        .collect();
    let mut class: Vec<u32> = elements.iter().map(|&x| u32::from(is_p(x))).collect();
    let mut classes = 0;
    loop {
        let mut numbering: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
        let refined: Vec<u32> = (0..elements.len())
            .map(|index| {
                let mut signature = vec![class[index]];
                signature.extend(successors[index].iter().map(|&next| class[next as usize]));
                let fresh = numbering.len() as u32;
                *numbering.entry(signature).or_insert(fresh)
            })
            .collect();
        let count = numbering.len();
        class = refined;
        if count == classes {
            break;
        }
        classes = count;
    }
    // Renumber so that the identity (element 0, visited first) is class 0, then by first visit.
    let mut renumber = vec![u32::MAX; classes];
    let mut representatives = Vec::new(); // the index in `elements` of each class's first
    for (index, &c) in class.iter().enumerate() {
        if renumber[c as usize] == u32::MAX {
            renumber[c as usize] = representatives.len() as u32;
            representatives.push(index);
        }
    }
    let order = representatives.len();
    limit.check(order)?;
    // Each class times each generator, and a breadth-first tree of such steps from the
    // identity to every class (the generators generate): then row `i` of the table follows the
    // tree, `i·(k·g) = (i·k)·g`, a look-up an entry instead of a product and two hash look-ups.
    let action: Vec<Vec<u32>> = representatives
        .iter()
        .map(|&index| successors[index].iter().map(|&next| renumber[class[next as usize] as usize]).collect())
        .collect();
    let mut steps: Vec<(u32, usize, u32)> = Vec::with_capacity(order); // (class, generator, parent)
    let mut reached = vec![false; order];
    reached[0] = true;
    let mut frontier = vec![0u32];
    while !frontier.is_empty() {
        let mut next_frontier = Vec::new();
        for &parent in &frontier {
            for (generator, &child) in action[parent as usize].iter().enumerate() {
                if !reached[child as usize] {
                    reached[child as usize] = true;
                    steps.push((child, generator, parent));
                    next_frontier.push(child);
                }
            }
        }
        frontier = next_frontier;
    }
    debug_assert_eq!(steps.len() + 1, order, "the generators reach every class");
    let mut table = limit
        .control
        .try_table(order * order, 0u32, || format!("the multiplication table of a misère quotient of order {order}"))?;
    for (i, row) in table.chunks_exact_mut(order).enumerate() {
        row[0] = i as u32;
        for &(child, generator, parent) in &steps {
            row[child as usize] = action[row[parent as usize] as usize][generator];
        }
    }
    let p = representatives.iter().map(|&index| is_p(elements[index])).collect();
    // heaps[x] for every candidate element x visited (others stay 0 and are never read).
    let mut heaps = vec![0u32; largest + 1];
    for (index, &x) in elements.iter().enumerate() {
        heaps[x as usize] = renumber[class[index] as usize];
    }
    Ok(Table { order, table, p, heaps })
}
