//! The lexicographically least sum a candidate marks wrongly: the sum Siegel's recalibration
//! works on (A. Siegel, MisereSolver; Plambeck and Siegel, JCTA 115 (2008), §7).
//!
//! Sums are ordered lexicographically by their multiplicities, the largest heap most
//! significant; every option of a sum is smaller than the sum. A candidate's marking gives
//! each element the outcome of its lexicographically least sum, so every sum below the least
//! failure is marked right; freeing the heaps of that failure makes it the least sum of a new
//! element, whose marking then follows the misère rule from its (smaller, rightly marked)
//! options. That is why the failure must be the least one: a shortest failure may share its
//! element with a smaller sum whatever is freed.
//!
//! This search only finds failures; [`super::proof::prove`] is what proves a candidate.

use super::*;

/// A sum as multiplicities of the generators (index = generator), compared from the last
/// generator (the largest heap) down.
type Word = Vec<u32>;

fn word_cmp(a: &Word, b: &Word) -> std::cmp::Ordering {
    a.iter().rev().cmp(b.iter().rev())
}

/// A set of elements, ascending without repeats: a sum's options' elements are a few dozen
/// of the thousands a large candidate has, so a list is far smaller than a bit set (and the
/// search keeps millions of them).
type Set = Vec<u32>;

/// `small ⊆ large`, both ascending.
fn is_subset(small: &Set, large: &Set) -> bool {
    if small.len() > large.len() {
        return false;
    }
    let mut rest = large.iter();
    small.iter().all(|x| rest.by_ref().any(|y| y == x))
}

/// The bytes one kept set takes: its elements and its `Vec`.
fn bytes_of(set: &Set) -> usize {
    set.len() * std::mem::size_of::<u32>() + std::mem::size_of::<Set>()
}

/// What the search over a candidate's sums found.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    /// The lexicographically least sum marked against the misère rule, heap ↦ multiplicity.
    Fails(Sum),
    /// No sum is marked against the rule: Siegel's verification, complete.
    Holds,
    /// The sets the search keeps outgrew its share of the memory limit (or it was
    /// cancelled) before it decided.
    Undecided,
}

/// Siegel's verification of `table`'s marking of the sums of the heaps `generators`, which also
/// names the lexicographically least sum marked against the misère rule when there is one.
/// No sum marked P has an option marked P iff no `L(y) + h` does (see `least_p_failure`); for
/// sums marked N, the search visits sums in increasing order and skips a sum whose element and
/// options' elements include those of a smaller sum already visited: whatever is added to it,
/// the smaller sum plus the same has the same element and fewer options' elements, so it would
/// fail first. The sets of options' elements kept for each element are an antichain, so the
/// search ends. It has no bound on the sums it visits (as in MisereSolver) but keeps its sets
/// within a quarter of `control`'s memory limit, giving up past it.
pub(super) fn least_failure(table: &Table, generators: &[Generator], control: &Control) -> Verdict {
    let p_failure = least_p_failure(table, generators);
    let mut search = NSearch {
        table,
        generators,
        minimal: vec![Vec::new(); table.order],
        bound: p_failure.clone(),
        visited: 0,
        kept_bytes: 0,
        max_bytes: usize::try_from(control.memory_limit() / 4).unwrap_or(usize::MAX),
        control,
        found: None,
        gave_up: false,
    };
    let mut word = vec![0; generators.len()];
    search.level(generators.len(), &mut word, 0, &Set::new());
    if search.gave_up {
        return Verdict::Undecided;
    }
    let Some(failure) = search.found.or(p_failure) else {
        return Verdict::Holds;
    };
    let mut sum = Sum::new();
    for (generator, &count) in generators.iter().zip(&failure) {
        if count > 0 {
            *sum.entry(generator.heap).or_insert(0) += count;
        }
    }
    Verdict::Fails(sum)
}

/// Each element's lexicographically least sum, by visiting sums in increasing order and not
/// extending a sum whose element was reached before (nor is any sum containing it least).
fn least_words(table: &Table, generators: &[Generator]) -> Vec<Option<Word>> {
    let mut least: Vec<Option<Word>> = vec![None; table.order];
    least[0] = Some(vec![0; generators.len()]);
    let mut visited: Vec<(u32, Word)> = vec![(0, vec![0; generators.len()])];
    for (index, generator) in generators.iter().enumerate() {
        let mut frontier = visited.clone();
        while !frontier.is_empty() {
            let mut next_frontier = Vec::new();
            for (element, word) in &frontier {
                let next = table.mul(*element, generator.element);
                if least[next as usize].is_none() {
                    let mut next_word = word.clone();
                    next_word[index] += 1;
                    least[next as usize] = Some(next_word.clone());
                    next_frontier.push((next, next_word));
                }
            }
            visited.extend(next_frontier.iter().cloned());
            frontier = next_frontier;
        }
    }
    least
}

/// The least sum marked P with an option marked P: `L(y) + h` over the elements `y` (least
/// sum `L(y)`) and heaps `h` with `y·h ∈ P` and `y·t ∈ P` for some option `t` of `h` (adding
/// the same heap keeps the order, so `L(y) + h` is the least such sum for its `y` and `h`).
fn least_p_failure(table: &Table, generators: &[Generator]) -> Option<Word> {
    let least = least_words(table, generators);
    let mut best: Option<Word> = None;
    for (y, word) in least.iter().enumerate() {
        let Some(word) = word else { continue };
        for (index, generator) in generators.iter().enumerate() {
            let y = y as u32;
            if table.p[table.mul(y, generator.element) as usize]
                && generator.targets.iter().any(|&target| table.p[table.mul(y, target) as usize])
            {
                let mut failure = word.clone();
                failure[index] += 1;
                if best.as_ref().is_none_or(|best| word_cmp(&failure, best).is_lt()) {
                    best = Some(failure);
                }
            }
        }
    }
    best
}

/// The depth-first search for the least sum marked N with no option marked P.
struct NSearch<'a> {
    table: &'a Table,
    generators: &'a [Generator],
    /// For each element, the minimal option-element sets of the sums visited with it.
    minimal: Vec<Vec<Set>>,
    /// Sums from this one on are not searched (the least P-failure).
    bound: Option<Word>,
    visited: usize,
    /// The bytes the sets in `minimal` take, and the most they may.
    kept_bytes: usize,
    max_bytes: usize,
    control: &'a Control,
    found: Option<Word>,
    gave_up: bool,
}

impl NSearch<'_> {
    fn done(&self) -> bool {
        self.found.is_some() || self.gave_up
    }

    /// Visits, in increasing order, the sums that agree with `word` on generators `level..`
    /// (the lower ones still zero); `element` and `options` are `word`'s.
    fn level(&mut self, level: usize, word: &mut Word, element: u32, options: &Set) {
        if level == 0 {
            let failing = !self.table.p[element as usize]
                && !options.is_empty()
                && options.iter().all(|&target| !self.table.p[target as usize]);
            if failing {
                self.found = Some(word.clone());
            }
            return;
        }
        let index = level - 1;
        // Multiplicity 0 first: those sums are the smaller ones.
        self.level(index, word, element, options);
        let generator = &self.generators[index];
        let (mut element, mut options) = (element, options.clone());
        let start = word[index];
        while !self.done() {
            word[index] += 1;
            if self.bound.as_ref().is_some_and(|bound| word_cmp(word, bound).is_ge()) {
                break; // every later sum is larger still
            }
            self.visited += 1;
            if self.kept_bytes > self.max_bytes || (self.visited.is_multiple_of(4096) && self.control.cancelled()) {
                self.gave_up = true;
                break;
            }
            let mut next: Set = options.iter().map(|&target| self.table.mul(target, generator.element)).collect();
            next.extend(generator.targets.iter().map(|&target| self.table.mul(element, target)));
            next.sort_unstable();
            next.dedup();
            element = self.table.mul(element, generator.element);
            options = next;
            if !self.record(element, &options) {
                break; // this sum and every larger multiple are preceded by a smaller sum's
            }
            self.level(index, word, element, &options);
        }
        word[index] = start;
    }

    /// Keeps `options` among `element`'s minimal sets; false when a set already there is
    /// contained in it.
    fn record(&mut self, element: u32, options: &Set) -> bool {
        let minimal = &mut self.minimal[element as usize];
        if minimal.iter().any(|set| is_subset(set, options)) {
            return false;
        }
        let kept_bytes = &mut self.kept_bytes;
        minimal.retain(|set| {
            let superseded = is_subset(options, set);
            if superseded {
                *kept_bytes -= bytes_of(set);
            }
            !superseded
        });
        *kept_bytes += bytes_of(options);
        minimal.push(options.clone());
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_compare_from_the_largest_heap() {
        assert!(word_cmp(&vec![5, 0], &vec![0, 1]).is_lt());
        assert!(word_cmp(&vec![0, 1], &vec![1, 1]).is_lt());
        assert!(word_cmp(&vec![1, 1], &vec![1, 1]).is_eq());
    }

    #[test]
    fn subsets_of_ascending_lists() {
        let (set, larger) = (vec![3, 70], vec![3, 5, 70]);
        assert!(is_subset(&set, &larger) && !is_subset(&larger, &set));
        assert!(is_subset(&vec![], &set) && is_subset(&set, &set));
        assert!(!is_subset(&vec![3, 71], &larger) && !is_subset(&vec![2, 3], &larger));
    }
}
