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
//! **Algorithm** (Siegel's iterative construction, as in his MisereSolver (CGSuite): the
//! quotient is built heap by heap, and every candidate is proved before it is accepted).
//! 1. *Candidate.* For heap `n`, first try each element `x` of the quotient of heaps `0..n`
//!    as heap `n`'s element (a conservative extension). Otherwise the first candidate is the
//!    old quotient times a cyclic monoid `⟨t | t⁴ = t²⟩` for heap `n`; every candidate's
//!    P-portion is marked by visiting each element first through its lexicographically least
//!    sum (largest heap most significant: every option of a sum is lexicographically smaller,
//!    so its element is already marked).
//! 2. *Reduction.* The coarsest congruence separating P from N (Moore's partition refinement
//!    over the heap generators: `x ~ y` iff `xz ∈ P ⇔ yz ∈ P` for every `z`). It marks every
//!    sum as the candidate does, so it is proved iff the candidate is.
//! 3. *Least failure* (`failure`). The lexicographically least sum the candidate marks
//!    against the misère rule: the least `L(y) + h` marked P with an option marked P, and a
//!    depth-first search in increasing order for a sum marked N with no option marked P,
//!    skipping a sum whose element and set of options' elements contain those of a smaller
//!    sum visited.
//! 4. *Recalibration.* For subsets of the failing sum's heaps, fewest first, free each heap of
//!    the subset from its element and give it a cyclic factor of its own (index: the larger of
//!    its old element's index and its multiplicity less one; period 2, or about the index for
//!    long tails); the first subset whose marked, reduced candidate gives the failing sum the
//!    other outcome is the next candidate, and step 3 runs again. The failure must be the
//!    least one: every smaller sum is then marked right, and a freed heap makes the failure
//!    the least sum of a new element, marked from its options.
//! 5. *Proof* (`Proof`: the finite form of "a sum is P iff it has a move and no move to
//!    P"), when step 3 finds no failure. No sum marked P may have an option marked P: a check
//!    over every element `y` and heap `h`. Every non-empty sum marked N must have an option
//!    marked P: for each element `x`, the intersection over all sums `G` with element `x` of
//!    the set of `z` for which a move in `G` reaches P in `G + Z` (`Z` of element `z`) is the
//!    greatest fixed point of a monotone system with one set per element, found by iterating
//!    down from the full sets; `x` passes iff the identity is in its set. Both checks are
//!    exact; time and memory grow with the square of the order and the number of heaps,
//!    never with the number of sums. When step 3's search completes without a failure, it is
//!    itself a proof (Siegel's verification: a sum skipped fails only after the smaller sum
//!    that made it skipped), and the two must agree, or the run stops with an internal error.
//!    When it gives up (its sets past a quarter of the memory limit), the fixed point decides
//!    alone and names a shortest failing sum for step 4.
//!
//! Every quotient returned has passed step 5, so the answers it gives are proved; how quickly
//! the candidates are found is heuristic. Impartial misère quotients other than the trivial
//! one have even order (Plambeck–Siegel 2008, Theorem 6.2), which the tests check.

use crate::control::Control;
use crate::error::GameError;
use crate::misere::search::MisereSearch;
use crate::value::Outcome;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeMap;

mod construct;
mod failure;
mod present;
mod proof;
#[cfg(test)]
mod tests;

use construct::{Order, conservative_extension, expand};
use failure::{Verdict, least_failure};
use present::present;
use proof::{Proof, Refuted, prove};

/// The limit on the order of a quotient where a fixed one is wanted: the misère sums' outcome
/// ([`crate::misere::Limits`]) tries a quotient this large before exhaustive search.
pub const DEFAULT_MAX_ORDER: usize = 2000;

/// The bytes each pair of elements costs a quotient: its multiplication table (a `u32` per
/// product) is held twice, by the construction and by the presented quotient.
const BYTES_PER_PRODUCT: u128 = 8;

/// The largest order whose multiplication tables fit in `memory_limit` bytes: the limit of
/// `grundy quotient` without `--max-order`, so that memory, not a fixed order, decides how far a
/// quotient may grow (Dawson's Kayles, octal 0.106 and 0.642 pass order 2000 within seconds).
///
/// ```
/// use grundy::misere::quotient::max_order_for_memory;
/// assert_eq!(max_order_for_memory(8 * 2000 * 2000), 2000);
/// assert_eq!(max_order_for_memory(1 << 30), 11585); // 1 GiB
/// assert_eq!(max_order_for_memory(0), 0);
/// ```
pub fn max_order_for_memory(memory_limit: u128) -> usize {
    usize::try_from((memory_limit / BYTES_PER_PRODUCT).isqrt()).unwrap_or(usize::MAX)
}

/// The largest candidate monoid built.
const MAX_CANDIDATE: u64 = 4_000_000;
/// Once a recalibration has met a candidate past `--max-order`, how many candidates' elements
/// it still builds looking for one within it before it stops with that candidate's order.
/// Freeing more heaps rarely shrinks a candidate, and a least failure over eight heaps has 255
/// subsets: Grundy's game at heap 29 built them all, up to a second and a half each, to stop
/// anyway.
const MAX_BUILT_AFTER_REFUSAL: u64 = MAX_CANDIDATE;
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
