//! Misère quotients of heap games (Plambeck and Siegel).
//!
//! **Definition** (Plambeck, *Taming the wild in impartial combinatorial games*, INTEGERS 5
//! (2005) G05; Plambeck and Siegel, *Misère quotients for impartial games*, JCTA 115 (2008)).
//! Let `A` be the set of all sums of heaps `0..=N` of a game. Two sums `G`, `H` are
//! *indistinguishable* when `G + X` and `H + X` have the same misère outcome for every `X` in
//! `A`. The classes form a commutative monoid, the *misère quotient* `Q`; the classes of
//! misère P-positions form its *P-portion*. The misère outcome of a sum of heaps is read off
//! the product of the heaps' elements — one table look-up per heap.
//!
//! **Algorithm** (after Siegel's MisereSolver: the quotient is built heap by heap, and every
//! candidate is proved before it is accepted).
//! 1. *Candidate.* For heap `n`, first try each element `x` of the quotient of heaps `0..n`
//!    as heap `n`'s element (a conservative extension). Otherwise build a larger monoid: the
//!    old quotient times a cyclic monoid `⟨t | t^(i+p) = t^i⟩` for heap `n` (and, when a
//!    proof fails, for the heaps of the failing sum, whose old identifications were too
//!    coarse; repeated failures at the same sum lengthen the cycles), and mark its P-portion by
//!    visiting each element first through its lexicographically least sum (largest heap most
//!    significant: every option of a sum is lexicographically smaller, so its element is
//!    already marked).
//! 2. *Reduction.* The coarsest congruence separating P from N (Moore's partition refinement
//!    over the heap generators: `x ~ y` iff `xz ∈ P ⇔ yz ∈ P` for every `z`). It marks every
//!    sum as the candidate does, so it is proved iff the candidate is; it is the quotient
//!    itself once proved, and the next candidate starts from it when not.
//! 3. *Proof* (`Proof`: the finite form of "a sum is P iff it has a move and no move to
//!    P"). No sum marked P may have an option marked P: a check over every element `y` and
//!    heap `h`. Every non-empty sum marked N must have an option marked P: for each element
//!    `x`, the intersection over all sums `G` with element `x` of the set of `z` for which a
//!    move in `G` reaches P in `G + Z` (`Z` of element `z`) is the greatest fixed point of a
//!    monotone system with one set per element, found by iterating down from the full sets;
//!    `x` passes iff the identity is in its set. Both checks are exact, so a failure names a
//!    sum whose marking is wrong (a shortest one, by a breadth-first search over pairs of elements), which step 1
//!    refines at. Time and memory grow with the square of the order and the number of heaps,
//!    never with the number of sums (an earlier proof searched the states `(x, S)` of sums,
//!    `S` the set of its options' elements, and needed millions of them for Dawson's Kayles
//!    at heap 25).
//!
//! Every quotient returned has passed step 3, so the answers it gives are proved; how quickly
//! the candidates are found is heuristic. Impartial misère quotients other than the trivial
//! one have even order (Plambeck–Siegel 2008, Theorem 6.2), which the tests check.

use crate::control::Control;
use crate::error::GameError;
use crate::misere::search::MisereSearch;
use crate::value::Outcome;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeMap;

/// The default limit on the order of a quotient (`--max-order`).
pub const DEFAULT_MAX_ORDER: usize = 2000;

/// The largest candidate monoid built.
const MAX_CANDIDATE: u64 = 4_000_000;
/// How many candidate monoids one heap may try before the computation gives up.
const MAX_ATTEMPTS: usize = 64;

/// A misère quotient of the heaps `0..=to` of a heap game, as data.
///
/// Elements are numbered `0..order`, the identity (the empty sum) first, then in the order
/// of their normal-form words in the generators.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MisereQuotient {
    /// The largest heap covered.
    pub to: u64,
    /// `K`, the number of elements.
    pub order: usize,
    /// The `K × K` multiplication table: `product[x][y]` is the element of `x · y`.
    pub product: Vec<Vec<u32>>,
    /// The index of the identity, the class of the empty sum (always 0).
    pub identity: u32,
    /// The elements whose sums are misère P-positions, ascending.
    pub p_portion: Vec<u32>,
    /// The element of heap `n`, for `n = 0..=to`.
    pub heaps: Vec<u32>,
    /// The generators: the heaps whose elements the earlier heaps do not generate.
    pub generators: Vec<QuotientGenerator>,
    /// Each element as its normal-form word in the generators (`1`, `a`, `ab^2`).
    pub words: Vec<String>,
    /// The defining relations between the generators (`a^2 = 1`, `b^3 = b`).
    pub relations: Vec<String>,
}

/// One generator of a quotient's presentation.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct QuotientGenerator {
    /// Its name in words and relations: `a`, `b`, …
    pub name: String,
    /// The heap it is the element of.
    pub heap: u64,
}

impl MisereQuotient {
    /// Whether element `element` is in the P-portion.
    pub fn is_p(&self, element: u32) -> bool {
        self.p_portion.binary_search(&element).is_ok()
    }

    /// The element of a sum of heaps (each at most [`MisereQuotient::to`]), or `None` when a
    /// heap is past the quotient. Time linear in the number of heaps.
    pub fn element_of(&self, heaps: &[u64]) -> Option<u32> {
        let mut element = self.identity;
        for &heap in heaps {
            let heap_element = *self.heaps.get(usize::try_from(heap).ok()?)?;
            element = self.product[element as usize][heap_element as usize];
        }
        Some(element)
    }

    /// The misère outcome of a sum of heaps, or `None` when a heap is past the quotient.
    pub fn outcome(&self, heaps: &[u64]) -> Option<Outcome> {
        self.element_of(heaps).map(|element| if self.is_p(element) { Outcome::P } else { Outcome::N })
    }

    /// Every misère winning move of a sum of heaps: `(index of the heap, the heaps it becomes)`,
    /// from the heaps' options `heap_options` (the same game the quotient was built for). `None`
    /// when a heap is past the quotient. Time linear in the number of heaps and options.
    pub fn winning_moves(
        &self,
        heaps: &[u64],
        heap_options: &dyn Fn(u64) -> Vec<Vec<u64>>,
    ) -> Option<Vec<(usize, Vec<u64>)>> {
        let elements: Vec<u32> = heaps.iter().map(|&heap| self.element_of(&[heap])).collect::<Option<_>>()?;
        let multiply = |x: u32, y: u32| self.product[x as usize][y as usize];
        // others[i]: the product of every heap but heap i, from prefix and suffix products.
        let mut suffix = vec![self.identity; heaps.len() + 1];
        for index in (0..heaps.len()).rev() {
            suffix[index] = multiply(elements[index], suffix[index + 1]);
        }
        let mut moves = Vec::new();
        let mut prefix = self.identity;
        for (index, &heap) in heaps.iter().enumerate() {
            let others = multiply(prefix, suffix[index + 1]);
            for option in heap_options(heap) {
                let element =
                    option.iter().try_fold(others, |x, &part| Some(multiply(x, self.element_of(&[part])?)))?;
                if self.is_p(element) {
                    moves.push((index, option));
                }
            }
            prefix = multiply(prefix, elements[index]);
        }
        Some(moves)
    }

    /// The pretending function: each heap's element as its word, heap 0 first.
    pub fn pretending_function(&self) -> Vec<&str> {
        self.heaps.iter().map(|&element| self.words[element as usize].as_str()).collect()
    }

    /// Compares the quotient's outcomes with exhaustive misère search ([`MisereSearch`]) on
    /// `sums` pseudo-random sums (from `seed`) of at most `max_counters` counters in all, each
    /// heap at most [`MisereQuotient::to`]. The first disagreement stops the check; a sum whose
    /// search needs more than `max_positions` positions is skipped and counted.
    ///
    /// # Errors
    /// An error of the options closure.
    pub fn check_against_search(
        &self,
        heap_options: &dyn Fn(u64) -> Vec<Vec<u64>>,
        sums: usize,
        max_counters: u64,
        seed: u64,
        control: &Control,
    ) -> Result<SearchCheck, GameError> {
        let options = |heap: &u64| Ok(heap_options(*heap));
        let mut search = MisereSearch::new(options, 2_000_000, control);
        let mut check = SearchCheck::default();
        let mut state = seed | 1;
        let mut random = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..sums {
            let mut sum = Vec::new();
            let mut counters = 0;
            for _ in 0..1 + random() % 5 {
                let heap = random() % (self.to.min(max_counters) + 1);
                if counters + heap <= max_counters {
                    sum.push(heap);
                    counters += heap;
                }
            }
            let expected = self.outcome(&sum).expect("heaps within the quotient");
            match search.outcome(&sum) {
                Ok(found) if found == expected => check.agreed += 1,
                Ok(found) => {
                    check.disagreement = Some(Disagreement { sum, quotient: expected, search: found });
                    break;
                }
                Err(GameError::Unsupported(_)) => {
                    check.skipped += 1;
                    search = MisereSearch::new(options, 2_000_000, control);
                }
                Err(error) => return Err(error),
            }
        }
        check.positions = search.positions();
        Ok(check)
    }

    /// The presentation as text: generators, relations, the P-portion and each heap's element.
    pub fn presentation(&self) -> String {
        let names: Vec<String> =
            self.generators.iter().map(|generator| format!("{} = heap {}", generator.name, generator.heap)).collect();
        let p: Vec<&str> = self.p_portion.iter().map(|&x| self.words[x as usize].as_str()).collect();
        format!(
            "order {}\ngenerators: {}\nrelations: {}\nP-portion: {{{}}}",
            self.order,
            if names.is_empty() { "none".to_owned() } else { names.join(", ") },
            if self.relations.is_empty() { "none".to_owned() } else { self.relations.join(", ") },
            p.join(", ")
        )
    }
}

/// What [`MisereQuotient::check_against_search`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SearchCheck {
    /// Sums on which the quotient and the search agree.
    pub agreed: usize,
    /// Sums whose search needed too many positions.
    pub skipped: usize,
    /// Positions the search examined (the last search, when one was restarted).
    pub positions: usize,
    /// A sum on which they disagree (a bug: every quotient returned is proved).
    pub disagreement: Option<Disagreement>,
}

/// A sum whose outcome by the quotient differs from exhaustive search.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Disagreement {
    /// The heaps.
    pub sum: Vec<u64>,
    /// The outcome the quotient gives.
    pub quotient: Outcome,
    /// The outcome exhaustive search gives.
    pub search: Outcome,
}

/// Why a quotient computation stopped before its last heap.
#[derive(Debug)]
pub enum QuotientStop {
    /// The control's cancel flag was set ([`Control::cancel`], Ctrl-C in the CLI).
    Cancelled,
    /// A limit was reached: the order limit, the memory limit or the candidates' bounds.
    Limit(GameError),
}

/// A quotient computation's result: the quotient of every heap it got through, and why it
/// stopped early, if it did.
#[derive(Debug)]
pub struct QuotientRun {
    /// The proved quotient of heaps `0..=quotient.to`.
    pub quotient: MisereQuotient,
    /// `None` when `quotient.to` is the heap asked for.
    pub stopped: Option<QuotientStop>,
}

/// The misère quotient of the sums of heaps `0..=to` of the heap game whose options are
/// `heap_options` (each option: the heaps left, all smaller than the heap moved in).
///
/// # Errors
/// [`GameError::Unsupported`] when the quotient passes `max_order` elements (naming the heap
/// where it did), when an option is not made of smaller heaps, when the candidates grow past
/// the built-in bounds, or when the computation is cancelled; [`GameError::TooLarge`] past the
/// memory limit. [`misere_quotient_run`] keeps what was proved before such a stop.
///
/// ```
/// use grundy::misere::quotient::misere_quotient;
/// use grundy::Outcome;
/// // Nim heaps 0, 1, 2: the quotient ⟨a, b | a² = 1, b³ = b⟩ of order 6, P-portion {a, b²}.
/// let nim = |heap: u64| (0..heap).map(|smaller| vec![smaller]).collect::<Vec<_>>();
/// let quotient = misere_quotient(&nim, 2, 2000, &grundy::control::Control::default()).unwrap();
/// assert_eq!(quotient.order, 6);
/// assert_eq!(quotient.relations, ["a^2 = 1", "b^3 = b"]);
/// assert_eq!(quotient.outcome(&[1, 1, 1]), Some(Outcome::P));
/// assert_eq!(quotient.outcome(&[2, 2]), Some(Outcome::P));
/// assert_eq!(quotient.outcome(&[2, 1]), Some(Outcome::N));
/// ```
pub fn misere_quotient(
    heap_options: &dyn Fn(u64) -> Vec<Vec<u64>>,
    to: u64,
    max_order: usize,
    control: &Control,
) -> Result<MisereQuotient, GameError> {
    let run = misere_quotient_run(heap_options, to, max_order, control)?;
    match run.stopped {
        None => Ok(run.quotient),
        Some(QuotientStop::Limit(error)) => Err(error),
        Some(QuotientStop::Cancelled) => Err(interrupted()),
    }
}

/// [`misere_quotient`], keeping the quotient of the heaps done when a limit or the cancel flag
/// stops it: that quotient is proved, as every quotient returned.
///
/// # Errors
/// [`GameError::Unsupported`] when an option is not made of smaller heaps.
pub fn misere_quotient_run(
    heap_options: &dyn Fn(u64) -> Vec<Vec<u64>>,
    to: u64,
    max_order: usize,
    control: &Control,
) -> Result<QuotientRun, GameError> {
    let mut options: Vec<Vec<Vec<u64>>> = Vec::new();
    let mut quotient = Table::trivial();
    let mut generators: Vec<Generator> = Vec::new();
    let mut proof = proved(&quotient, &generators, 0, control)?;
    // Heaps take longer and longer as the quotient grows: the count of heaps done, and no
    // estimate of the time left (a linear one would be wrong by far).
    let task = control.task(&format!("the misère quotient up to heap {to}, heaps and candidates tried"), 0);
    let stopped = |quotient: &Table, heap: u64, error: GameError| {
        let reason = if control.cancelled() { QuotientStop::Cancelled } else { QuotientStop::Limit(error) };
        QuotientRun { quotient: present(quotient, heap - 1), stopped: Some(reason) }
    };
    for heap in 0..=to {
        task.advance(1);
        if heap > 0 && control.cancelled() {
            return Ok(stopped(&quotient, heap, interrupted()));
        }
        let heap_options = heap_options(heap);
        if let Some(bad) = heap_options.iter().flatten().find(|&&part| part >= heap) {
            return Err(GameError::Unsupported(format!(
                "heap {heap} has an option containing heap {bad}: misère quotients need options made of smaller heaps"
            )));
        }
        options.push(heap_options);
        if options[heap as usize].is_empty() {
            quotient.heaps.push(0); // no move: the empty game, the identity
            continue;
        }
        let targets =
            option_elements(&options[heap as usize], |part| quotient.heaps[part as usize], |x, y| quotient.mul(x, y));
        match conservative_extension(&quotient, &proof, &mut generators, heap, &targets, control) {
            Ok(Some((element, extended))) => {
                quotient.heaps.push(element);
                proof = extended;
                continue;
            }
            Ok(None) => {}
            Err(error) => return Ok(stopped(&quotient, heap, error)),
        }
        let expanded = expand(&quotient, &options, Order { heap, max_order, control }, &task).and_then(|table| {
            let generators =
                generators_of(&options, heap as usize + 1, |h| table.heaps[h as usize], |x, y| table.mul(x, y));
            let proof = proved(&table, &generators, heap, control)?;
            Ok((table, generators, proof))
        });
        match expanded {
            Ok((table, expanded_generators, expanded_proof)) => {
                quotient = table;
                generators = expanded_generators;
                proof = expanded_proof;
            }
            Err(error) => return Ok(stopped(&quotient, heap, error)),
        }
    }
    Ok(QuotientRun { quotient: present(&quotient, to), stopped: None })
}

/// The proof of a quotient the construction has already checked (an internal error if not).
fn proved(table: &Table, generators: &[Generator], heap: u64, control: &Control) -> Result<Proof, GameError> {
    prove(table, generators, None, control)?.map_err(|_| {
        GameError::Unsupported(format!("internal error: the reduced misère quotient at heap {heap} failed its proof"))
    })
}

fn interrupted() -> GameError {
    GameError::Unsupported("the misère quotient computation was interrupted".to_owned())
}

/// A finite commutative monoid as a multiplication table with identity 0, a P-portion, and
/// the element of each heap so far.
#[derive(Clone, Debug)]
struct Table {
    order: usize,
    table: Vec<u32>,
    p: Vec<bool>,
    heaps: Vec<u32>,
}

impl Table {
    /// The quotient of the empty sum alone: one element, an N-position.
    fn trivial() -> Table {
        Table { order: 1, table: vec![0], p: vec![false], heaps: Vec::new() }
    }

    fn mul(&self, x: u32, y: u32) -> u32 {
        self.table[x as usize * self.order + y as usize]
    }
}

/// The elements of a heap's options, given each heap's element and the product.
fn option_elements(options: &[Vec<u64>], element: impl Fn(u64) -> u32, mul: impl Fn(u32, u32) -> u32) -> Vec<u32> {
    let mut targets: Vec<u32> =
        options.iter().map(|option| option.iter().fold(0, |x, &part| mul(x, element(part)))).collect();
    targets.sort_unstable();
    targets.dedup();
    targets
}

/// A heap as the verification sees it: its element, its options' elements, and the first heap
/// with exactly these (to name failing sums).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Generator {
    element: u32,
    targets: Vec<u32>,
    heap: u64,
}

/// The distinct (element, options) pairs among `generators`, first occurrences kept, in order.
fn dedup_generators(generators: impl Iterator<Item = Generator>) -> Vec<Generator> {
    let mut seen = FxHashSet::default();
    generators.filter(|generator| seen.insert((generator.element, generator.targets.clone()))).collect()
}

/// The generators of every heap with options, for a monoid given by `element` and `mul`.
fn generators_of(
    options: &[Vec<Vec<u64>>],
    heaps: usize,
    element: impl Fn(u64) -> u32 + Copy,
    mul: impl Fn(u32, u32) -> u32 + Copy,
) -> Vec<Generator> {
    dedup_generators((0..heaps).filter(|&heap| !options[heap].is_empty()).map(|heap| Generator {
        element: element(heap as u64),
        targets: option_elements(&options[heap], element, mul),
        heap: heap as u64,
    }))
}

/// A sum of heaps, heap → multiplicity: a sum whose marking contradicts the misère rule.
type Sum = BTreeMap<u64, u32>;

/// `(x, S)` plus one heap: `(x·h, S·h ∪ x·T_h)`.
fn step(state: &(u32, Vec<u32>), generator: &Generator, mul: impl Fn(u32, u32) -> u32) -> (u32, Vec<u32>) {
    let (element, targets) = state;
    let mut next: Vec<u32> = targets.iter().map(|&target| mul(target, generator.element)).collect();
    next.extend(generator.targets.iter().map(|&target| mul(*element, target)));
    next.sort_unstable();
    next.dedup();
    (mul(*element, generator.element), next)
}

/// The misère rule: a sum is P iff it has a move and every move is to an N-position.
fn should_be_p(targets: &[u32], is_p: impl Fn(u32) -> bool) -> bool {
    !targets.is_empty() && targets.iter().all(|&target| !is_p(target))
}

/// Sets of elements of a table, one row of `words` 64-bit words per element.
#[derive(Clone, Debug)]
struct Rows {
    words: usize,
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
struct Proof {
    /// `reach[x]`, for the elements a non-empty sum reaches (other rows unused).
    reach: Rows,
    /// Whether a non-empty sum reaches each element.
    reached: Vec<bool>,
}

/// Why a marking failed its proof.
enum Refuted {
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
fn prove(
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

/// Tries each element of `quotient` as the element of `heap` (whose options have the elements
/// `targets`); the first whose marking is proved, with its proof.
fn conservative_extension(
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

/// The quotient of heaps `0..=heap` when no element of the old quotient serves for `heap`.
///
/// The first candidate is the old quotient times a cyclic monoid for the new heap. When a
/// candidate fails its verification, the next one starts from that candidate reduced (so the
/// candidates stay small) and frees the heaps of the failing sum: each gets a cyclic factor
/// of its own, long enough for its multiplicity in that sum (Siegel's recalibration, in
/// spirit). Repeated failures on the same heaps lengthen the cyclic factors.
fn expand(
    quotient: &Table,
    options: &[Vec<Vec<u64>>],
    limit: Order,
    task: &crate::progress::Task,
) -> Result<Table, GameError> {
    let Order { heap, control, .. } = limit;
    let mut base = quotient.clone();
    // The heaps given a cyclic factor of their own, with its (index, period).
    let mut freed: BTreeMap<u64, (u32, u32)> = BTreeMap::from([(heap, (2, 2))]);
    let mut growth = 0;
    let mut last_failure: Option<BTreeMap<u64, u32>> = None;
    for _ in 0..MAX_ATTEMPTS {
        task.advance(1);
        if control.cancelled() {
            return Err(interrupted());
        }
        let cyclic: Vec<(u32, u32)> = freed.values().copied().collect();
        let size = cyclic.iter().fold(base.order as u64, |size, &(index, period)| size * u64::from(index + period));
        if size > MAX_CANDIDATE {
            break;
        }
        let candidate = Candidate { base: &base, cyclic, size };
        let mut strides = BTreeMap::new();
        let mut stride = base.order as u64;
        for (&freed_heap, &(index, period)) in &freed {
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
        // Reduce first: the reduction marks every sum as the candidate does, so one is proved
        // iff the other is, and the reduced table is the small one.
        let mut reduced = reduce(&elements, &generators, mul, is_p, limit)?;
        reduced.heaps = (0..=heap).map(|h| reduced.heaps[element(h) as usize]).collect();
        let reduced_generators =
            generators_of(options, heap as usize + 1, |h| reduced.heaps[h as usize], |x, y| reduced.mul(x, y));
        let failure = match prove(&reduced, &reduced_generators, None, control)? {
            Ok(_) => return Ok(reduced),
            Err(Refuted::At(sum)) => sum,
            Err(Refuted::Somewhere) => unreachable!("a proof from scratch names the failing sum"),
        };
        if last_failure.as_ref() == Some(&failure) {
            growth += 1;
        }
        freed = failure
            .iter()
            .filter(|&(&sum_heap, _)| !options[sum_heap as usize].is_empty())
            .map(|(&sum_heap, &count)| (sum_heap, (count.max(1) + 1 + growth, 2 << growth)))
            .collect();
        last_failure = Some(failure);
        drop(candidate);
        base = reduced;
    }
    Err(GameError::Unsupported(format!(
        "no verified misère quotient found for heap {heap} within {MAX_ATTEMPTS} candidates of at most {MAX_CANDIDATE} elements; try a smaller --to"
    )))
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
struct Order<'c> {
    /// The heap being added.
    heap: u64,
    /// `--max-order`.
    max_order: usize,
    /// The memory limit the tables are held to, and the cancel flag.
    control: &'c Control,
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
    let position: FxHashMap<u32, usize> = elements.iter().enumerate().map(|(index, &x)| (x, index)).collect();
    let successors: Vec<Vec<usize>> = elements
        .iter()
        .map(|&x| generators.iter().map(|generator| position[&mul(x, generator.element)]).collect())
        .collect();
    let mut class: Vec<u32> = elements.iter().map(|&x| u32::from(is_p(x))).collect();
    let mut classes = 0;
    loop {
        let mut numbering: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
        let refined: Vec<u32> = (0..elements.len())
            .map(|index| {
                let mut signature = vec![class[index]];
                signature.extend(successors[index].iter().map(|&next| class[next]));
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
    let mut renumber: FxHashMap<u32, u32> = FxHashMap::default();
    let mut representatives = Vec::new();
    for (index, &c) in class.iter().enumerate() {
        renumber.entry(c).or_insert_with(|| {
            representatives.push(elements[index]);
            (representatives.len() - 1) as u32
        });
    }
    let class_of = |x: u32| renumber[&class[position[&x]]];
    let order = representatives.len();
    limit.check(order)?;
    let mut table = vec![0u32; order * order];
    for (i, &x) in representatives.iter().enumerate() {
        for (j, &y) in representatives.iter().enumerate() {
            table[i * order + j] = class_of(mul(x, y));
        }
    }
    let p = representatives.iter().map(|&x| is_p(x)).collect();
    // heaps[x] for every candidate element x visited (others stay 0 and are never read).
    let largest = elements.iter().copied().max().unwrap_or(0) as usize;
    let mut heaps = vec![0u32; largest + 1];
    for &x in elements {
        heaps[x as usize] = class_of(x);
    }
    Ok(Table { order, table, p, heaps })
}

/// The final quotient with its presentation: generators, normal-form words, relations.
fn present(quotient: &Table, to: u64) -> MisereQuotient {
    let order = quotient.order;
    // Generators: heaps whose element the earlier heaps do not generate.
    let mut generated: FxHashSet<u32> = FxHashSet::from_iter([0]);
    let mut generator_elements: Vec<u32> = Vec::new();
    let mut generators = Vec::new();
    for (heap, &element) in quotient.heaps.iter().enumerate() {
        if generated.contains(&element) {
            continue;
        }
        generators.push(QuotientGenerator { name: generator_name(generators.len()), heap: heap as u64 });
        generator_elements.push(element);
        let mut queue: Vec<u32> = generated.iter().copied().collect();
        while let Some(x) = queue.pop() {
            for &g in &generator_elements {
                let product = quotient.mul(x, g);
                if generated.insert(product) {
                    queue.push(product);
                }
            }
        }
    }
    // Normal forms: the first word (by degree, then lexicographically) reaching each element.
    let count = generator_elements.len();
    let mut normal_form: Vec<Option<Vec<u32>>> = vec![None; order];
    normal_form[0] = Some(vec![0; count]);
    let mut discovery = vec![0u32];
    let mut layer = vec![vec![0u32; count]];
    while !layer.is_empty() {
        let mut next_layer: Vec<Vec<u32>> = Vec::new();
        for word in &layer {
            let element = word_element(quotient, &generator_elements, word);
            let _ = element;
            for g in 0..count {
                let mut longer = word.clone();
                longer[g] += 1;
                let x = word_element(quotient, &generator_elements, &longer);
                if normal_form[x as usize].is_none() {
                    normal_form[x as usize] = Some(longer.clone());
                    discovery.push(x);
                    next_layer.push(longer);
                }
            }
        }
        next_layer.sort_by(|a, b| b.cmp(a));
        layer = next_layer;
    }
    // Renumber elements by discovery; identity first.
    let mut new_index = vec![0u32; order];
    for (index, &x) in discovery.iter().enumerate() {
        new_index[x as usize] = index as u32;
    }
    let reachable = discovery.len();
    let mut product = vec![vec![0u32; reachable]; reachable];
    for (i, &x) in discovery.iter().enumerate() {
        for (j, &y) in discovery.iter().enumerate() {
            product[i][j] = new_index[quotient.mul(x, y) as usize];
        }
    }
    let names: Vec<String> = generators.iter().map(|generator| generator.name.clone()).collect();
    let words: Vec<String> =
        discovery.iter().map(|&x| format_word(&names, normal_form[x as usize].as_ref().expect("reached"))).collect();
    let is_normal = |word: &[u32]| {
        let x = word_element(quotient, &generator_elements, word);
        normal_form[x as usize].as_deref() == Some(word)
    };
    let mut relations = Vec::new();
    let mut seen: FxHashSet<Vec<u32>> = FxHashSet::default();
    for &x in &discovery {
        let word = normal_form[x as usize].clone().expect("reached");
        for g in 0..count {
            let mut longer = word.clone();
            longer[g] += 1;
            if is_normal(&longer) || !seen.insert(longer.clone()) {
                continue;
            }
            // Only minimal non-normal words: every word one generator shorter is normal.
            let minimal = (0..count).filter(|&h| longer[h] > 0).all(|h| {
                let mut shorter = longer.clone();
                shorter[h] -= 1;
                is_normal(&shorter)
            });
            if minimal {
                let target = word_element(quotient, &generator_elements, &longer);
                relations.push((
                    longer.clone(),
                    format!(
                        "{} = {}",
                        format_word(&names, &longer),
                        format_word(&names, normal_form[target as usize].as_ref().expect("reached"))
                    ),
                ));
            }
        }
    }
    relations.sort_by(|a, b| a.0.iter().sum::<u32>().cmp(&b.0.iter().sum::<u32>()).then_with(|| b.0.cmp(&a.0)));
    let mut p_portion: Vec<u32> =
        discovery.iter().enumerate().filter(|&(_, &x)| quotient.p[x as usize]).map(|(index, _)| index as u32).collect();
    p_portion.sort_unstable();
    MisereQuotient {
        to,
        order: reachable,
        product,
        identity: 0,
        p_portion,
        heaps: quotient.heaps.iter().map(|&x| new_index[x as usize]).collect(),
        generators,
        words,
        relations: relations.into_iter().map(|(_, text)| text).collect(),
    }
}

fn word_element(quotient: &Table, generators: &[u32], word: &[u32]) -> u32 {
    let mut x = 0;
    for (g, &count) in word.iter().enumerate() {
        for _ in 0..count {
            x = quotient.mul(x, generators[g]);
        }
    }
    x
}

/// `a`, `b`, …, `z`, then `a1`, `b1`, …
fn generator_name(index: usize) -> String {
    let letter = (b'a' + (index % 26) as u8) as char;
    if index < 26 { letter.to_string() } else { format!("{letter}{}", index / 26) }
}

/// A word as `ab^2c`; the empty word is `1`.
fn format_word(names: &[String], word: &[u32]) -> String {
    let mut text = String::new();
    for (name, &count) in names.iter().zip(word) {
        match count {
            0 => {}
            1 => text.push_str(name),
            _ => text.push_str(&format!("{name}^{count}")),
        }
    }
    if text.is_empty() { "1".to_owned() } else { text }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::HeapGame;
    use crate::heap::grundys_game::GrundysGame;
    use crate::heap::nim::Nim;
    use crate::heap::octal::{CodeBase, OctalGame};
    use crate::heap::subtraction::SubtractionGame;
    use crate::misere::search::MisereSearch;
    use proptest::prelude::*;
    use std::sync::OnceLock;

    fn octal(code: &str) -> Box<dyn HeapGame> {
        Box::new(OctalGame::parse(code, CodeBase::Octal).unwrap())
    }

    /// A game of the cross-checks: its name, rules, and the largest heap its quotient covers.
    type TestGame = (&'static str, Box<dyn HeapGame>, u64);

    /// The games of the cross-checks.
    fn games() -> &'static Vec<TestGame> {
        static GAMES: OnceLock<Vec<TestGame>> = OnceLock::new();
        GAMES.get_or_init(|| {
            vec![
                ("nim", Box::new(Nim) as Box<dyn HeapGame>, 6),
                ("kayles", octal("0.77"), 40),
                ("dawson", octal("0.07"), 18),
                ("0.75", octal("0.75"), 40),
                ("0.137", octal("0.137"), 20),
                ("sub:1,2", Box::new(SubtractionGame::new(vec![1, 2]).unwrap()), 20),
                ("sub:2,3,7", Box::new(SubtractionGame::new(vec![2, 3, 7]).unwrap()), 25),
                ("grundys-game", Box::new(GrundysGame::new()), 16),
            ]
        })
    }

    fn quotients() -> &'static Vec<MisereQuotient> {
        static QUOTIENTS: OnceLock<Vec<MisereQuotient>> = OnceLock::new();
        QUOTIENTS.get_or_init(|| {
            games()
                .iter()
                .map(|(name, game, to)| {
                    misere_quotient(&|heap| game.heap_options(heap), *to, DEFAULT_MAX_ORDER, &Control::default())
                        .unwrap_or_else(|error| panic!("{name}: {error}"))
                })
                .collect()
        })
    }

    fn search_options(game: &dyn HeapGame) -> impl Fn(&u64) -> Result<Vec<Vec<u64>>, GameError> + '_ {
        move |heap: &u64| Ok(game.heap_options(*heap))
    }

    /// 0.75's quotient is R8 = ⟨a, b, c | a² = 1, b³ = b, bc = ab, c² = b²⟩ with P-portion
    /// {a, b²}, heap 1 ↦ a, 2 ↦ b, 5 ↦ c (Plambeck, *Taming the wild in impartial
    /// combinatorial games*, INTEGERS 5 (2005) G05, §6; Plambeck–Siegel, JCTA 2008, the
    /// quotient R8).
    #[test]
    fn octal_075_is_r8() {
        let quotient = &quotients()[3];
        assert_eq!(quotient.order, 8);
        let generators: Vec<u64> = quotient.generators.iter().map(|generator| generator.heap).collect();
        assert_eq!(generators, [1, 2, 5]);
        let mut relations = quotient.relations.clone();
        relations.sort();
        assert_eq!(relations, ["a^2 = 1", "b^3 = b", "bc = ab", "c^2 = b^2"]);
        let p: Vec<&str> = quotient.p_portion.iter().map(|&x| quotient.words[x as usize].as_str()).collect();
        assert_eq!(p, ["a", "b^2"]);
    }

    /// Misère Nim on heaps 0, 1, 2: ⟨a, b | a² = 1, b³ = b⟩, order 6 (Plambeck–Siegel 2008,
    /// the quotient of *2's closure: the tame quotient T2).
    #[test]
    fn nim_heaps_to_two() {
        let quotient =
            misere_quotient(&|heap| Nim.heap_options(heap), 2, DEFAULT_MAX_ORDER, &Control::default()).unwrap();
        assert_eq!(quotient.order, 6);
        assert_eq!(quotient.relations, ["a^2 = 1", "b^3 = b"]);
        assert_eq!(quotient.p_portion.len(), 2);
    }

    /// The proof accepts the quotient and refutes it with any one element's mark flipped,
    /// naming a sum that exhaustive search judges differently from the flipped marking or
    /// whose options' marks contradict it.
    #[test]
    fn the_proof_refutes_every_wrong_marking() {
        let (_, game, to) = &games()[3]; // 0.75, order 8
        let quotient = &quotients()[3];
        let order = quotient.order;
        let options: Vec<Vec<Vec<u64>>> = (0..=*to).map(|heap| game.heap_options(heap)).collect();
        let table = Table {
            order,
            table: quotient.product.iter().flatten().copied().collect(),
            p: (0..order as u32).map(|x| quotient.is_p(x)).collect(),
            heaps: quotient.heaps.clone(),
        };
        let generators = generators_of(&options, options.len(), |h| table.heaps[h as usize], |x, y| table.mul(x, y));
        assert!(prove(&table, &generators, None, &Control::default()).unwrap().is_ok());
        let mut search = MisereSearch::new(search_options(game.as_ref()), 5_000_000, &Control::default());
        for flipped in 0..order {
            let mut wrong = table.clone();
            wrong.p[flipped] = !wrong.p[flipped];
            let Err(Refuted::At(sum)) = prove(&wrong, &generators, None, &Control::default()).unwrap() else {
                panic!("element {flipped} flipped was not refuted");
            };
            let heaps: Vec<u64> =
                sum.iter().flat_map(|(&heap, &count)| std::iter::repeat_n(heap, count as usize)).collect();
            let element = heaps.iter().fold(0, |x, &heap| wrong.mul(x, wrong.heaps[heap as usize]));
            let claimed = if wrong.p[element as usize] { Outcome::P } else { Outcome::N };
            let options_marked_p = heaps.iter().enumerate().any(|(index, &heap)| {
                let others = heaps.iter().enumerate().filter(|&(other, _)| other != index);
                let rest = others.fold(0, |x, (_, &h)| wrong.mul(x, wrong.heaps[h as usize]));
                options[heap as usize].iter().any(|option| {
                    let x = option.iter().fold(rest, |x, &part| wrong.mul(x, wrong.heaps[part as usize]));
                    wrong.p[x as usize]
                })
            });
            let rule = if !heaps.is_empty() && !options_marked_p { Outcome::P } else { Outcome::N };
            assert!(
                claimed != rule || claimed != search.outcome(&heaps).unwrap(),
                "element {flipped}: the sum {heaps:?} named is consistent and right"
            );
        }
    }

    #[test]
    fn every_quotient_is_an_even_commutative_monoid() {
        for (quotient, (name, _, _)) in quotients().iter().zip(games()) {
            let order = quotient.order;
            assert!(order > 1 && order % 2 == 0, "{name}: order {order}");
            let product = &quotient.product;
            for x in 0..order {
                assert_eq!(product[0][x] as usize, x, "{name}: identity");
                for y in 0..order {
                    assert_eq!(product[x][y], product[y][x], "{name}: commutative");
                    for z in 0..order {
                        let left = product[product[x][y] as usize][z];
                        let right = product[x][product[y][z] as usize];
                        assert_eq!(left, right, "{name}: associative at {x} {y} {z}");
                    }
                }
            }
            assert_eq!(quotient.heaps.len() as u64, quotient.to + 1);
            assert!(!quotient.is_p(quotient.identity), "{name}: the empty sum is a misère N-position");
        }
    }

    #[test]
    fn the_order_limit_stops_with_a_clear_error() {
        let kayles = OctalGame::kayles();
        let error =
            misere_quotient(&|heap| kayles.heap_options(heap), 40, 10, &Control::default()).unwrap_err().to_string();
        assert!(error.contains("past the limit of 10") && error.contains("heap"), "{error}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// Random octal codes of up to three digits: every quotient returned (or, when a limit
        /// stops the run, the quotient of the heaps done) predicts exhaustive search.
        #[test]
        fn random_octal_quotients_match_exhaustive_search(
            digits in prop::collection::vec(0u8..8, 1..4),
            to in 3u64..14,
            seed in any::<u64>(),
        ) {
            let code: String = digits.iter().map(|digit| char::from(b'0' + digit)).collect();
            let game = OctalGame::parse(&format!("0.{code}"), CodeBase::Octal).unwrap();
            let options = |heap: u64| game.heap_options(heap);
            let run = misere_quotient_run(&options, to, 300, &Control::default()).unwrap();
            let quotient = &run.quotient;
            prop_assert!(quotient.order.is_multiple_of(2) || quotient.order == 1, "order {}", quotient.order);
            let check = quotient.check_against_search(&options, 40, 22, seed, &Control::default()).unwrap();
            prop_assert_eq!(check.disagreement, None, "0.{}", code);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// The quotient's outcome and winning moves agree with exhaustive misère search.
        #[test]
        fn quotient_matches_exhaustive_search(game_index in 0usize..8, seeds in prop::collection::vec(0u64..1000, 0..5)) {
            let (_, game, to) = &games()[game_index];
            let quotient = &quotients()[game_index];
            // Keep the exhaustive search small: at most 32 counters in all.
            let mut heaps = Vec::new();
            let mut total = 0;
            for seed in seeds {
                let heap = seed % (to + 1);
                if total + heap <= 32 {
                    heaps.push(heap);
                    total += heap;
                }
            }
            let mut search = MisereSearch::new(search_options(game.as_ref()), 5_000_000, &Control::default());
            prop_assert_eq!(quotient.outcome(&heaps).unwrap(), search.outcome(&heaps).unwrap(), "{:?}", heaps);
            if heaps.len() <= 3 {
                let expected: Vec<(usize, Vec<u64>)> = search
                    .winning_moves(&heaps)
                    .unwrap()
                    .into_iter()
                    .map(|found| (found.component, found.replacement))
                    .collect();
                prop_assert_eq!(quotient.winning_moves(&heaps, &|heap| game.heap_options(heap)).unwrap(), expected);
            }
        }
    }
}
