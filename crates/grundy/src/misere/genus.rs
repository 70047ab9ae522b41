//! Conway's genus of heap games, and tameness.
//!
//! **Definition** (*On Numbers and Games* ch. 12; *Winning Ways* ch. 13). The genus of a game
//! `G` is `g^(γ0 γ1 γ2 …)`, where `g` is its normal-play Grundy value and `γn` the misère
//! Grundy value of `G + 2 + 2 + …` (`n` nim-heaps of size 2); the misère Grundy value of a
//! position without moves is 1, otherwise the mex of its options'. So `G` is a misère
//! P-position iff `γ0 = 0`. The superscripts are eventually periodic; they are written until
//! they start to repeat, one period included: `0^120` is the empty game, `1^031` a heap of
//! one, `2^20` a heap of two.
//!
//! **Computation from the options.** `G + 2·n` moves either in `G`, or turns one of its 2s
//! into a 0 (value `γ(n−1)`) or a 1; adding a 1 flips the last bit of a misère Grundy value
//! (`G⁻(X + 1) = G⁻(X) ⊕ 1`). Hence `γ0 = mex(γ0 of options)` (1 when there is none) and
//! `γn = mex({γn of options} ∪ {γ(n−1), γ(n−1) ⊕ 1})` for `n ≥ 1`. Once the options' columns
//! are periodic, `γn` is a function of `n` modulo their period and of `γ(n−1)`, so a repeated
//! state proves the period: no superscript is guessed. The tests check this rule against
//! exhaustive misère search on `G + 2 + … + 2`.
//!
//! **Tame games.** A genus is *tame* when it is `0^120`, `1^031` or `a^(a, a⊕2)` for any
//! `a` — the genera of misère Nim positions. A heap is tame when its genus is tame and all its
//! options are sums of tame heaps (ONAG ch. 12, "tame games"). Sums of tame games are tame and
//! add like misère Nim: the normal values xor, and the sum is of the small kind (`0^120`,
//! `1^031`) iff every part is. Such a sum is a misère P-position iff it is small with value 1
//! or not small with value 0 (Bouton's rule, with "every heap at most 1" read as "small").

use crate::error::GameError;
use crate::nimber::mex;
use crate::value::Outcome;
use rustc_hash::FxHashMap;
use std::fmt;

/// A genus `g^(γ0 γ1 …)`: the superscripts are `misere[..]`, periodic with `period` from
/// `period_start` on (canonical: the shortest period and the earliest start).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Genus {
    /// `g`: the normal-play Grundy value.
    pub normal: u64,
    /// `γ0 … γ(period_start + period − 1)`.
    pub misere: Vec<u64>,
    /// Where the superscripts start to repeat.
    pub period_start: usize,
    /// How often they repeat (2 for every game met so far).
    pub period: usize,
}

impl Genus {
    /// The genus of the empty game (and of any position without moves): `0^120`.
    pub fn terminal() -> Genus {
        Genus::tame(0, true)
    }

    /// The tame genus of normal value `normal`: `0^120` / `1^031` when `small` (only for
    /// values 0 and 1), `a^(a, a⊕2)` otherwise.
    pub fn tame(normal: u64, small: bool) -> Genus {
        if small {
            Genus { normal, misere: vec![normal ^ 1, normal ^ 2, normal], period_start: 1, period: 2 }
        } else {
            Genus { normal, misere: vec![normal, normal ^ 2], period_start: 0, period: 2 }
        }
    }

    /// `γn`, for any `n`.
    ///
    /// ```
    /// use grundy::misere::genus::Genus;
    /// let empty = Genus::terminal();
    /// assert_eq!(empty.to_string(), "0^120");
    /// assert_eq!((0..6).map(|n| empty.gamma(n)).collect::<Vec<_>>(), [1, 2, 0, 2, 0, 2]);
    /// ```
    pub fn gamma(&self, n: usize) -> u64 {
        if n < self.misere.len() {
            self.misere[n]
        } else {
            self.misere[self.period_start + (n - self.period_start) % self.period]
        }
    }

    /// The misère outcome of a game of this genus: P iff `γ0 = 0`.
    pub fn misere_outcome(&self) -> Outcome {
        if self.misere[0] == 0 { Outcome::P } else { Outcome::N }
    }

    /// Whether the genus is one of the tame genera `0^120`, `1^031`, `a^(a, a⊕2)`; the flag
    /// says whether it is of the small kind (`0^120`, `1^031`).
    pub fn tame_kind(&self) -> Option<bool> {
        if *self == Genus::tame(self.normal, false) {
            Some(false)
        } else if self.normal <= 1 && *self == Genus::tame(self.normal, true) {
            Some(true)
        } else {
            None
        }
    }

    /// The genus of a game whose options have the genera `options` (the rule in the module
    /// documentation).
    ///
    /// ```
    /// use grundy::misere::genus::Genus;
    /// let one = Genus::from_options(&[Genus::terminal()]);
    /// assert_eq!(one.to_string(), "1^031");
    /// let two = Genus::from_options(&[Genus::terminal(), one]);
    /// assert_eq!(two.to_string(), "2^20");
    /// ```
    pub fn from_options(options: &[Genus]) -> Genus {
        if options.is_empty() {
            return Genus::terminal();
        }
        let normal = mex(options.iter().map(|option| option.normal));
        let first = mex(options.iter().map(|option| option.misere[0]));
        let column_period = options.iter().fold(1, |period, option| lcm(period, option.period));
        let periodic_from = options.iter().map(|option| option.period_start).max().unwrap_or(0).max(1);
        let mut misere = vec![first];
        let mut seen: FxHashMap<(usize, u64), usize> = FxHashMap::default();
        let mut n = 1;
        loop {
            let previous = misere[n - 1];
            if n >= periodic_from {
                let state = (n % column_period, previous);
                if let Some(&earlier) = seen.get(&state) {
                    // γ from earlier − 1 on repeats with period n − earlier.
                    misere.truncate(n - 1);
                    let genus = Genus { normal, misere, period_start: earlier - 1, period: n - earlier };
                    return genus.canonical();
                }
                seen.insert(state, n);
            }
            let value = mex(options.iter().map(|option| option.gamma(n)).chain([previous, previous ^ 1]));
            misere.push(value);
            n += 1;
        }
    }

    /// The shortest period and earliest start describing the same superscripts.
    fn canonical(mut self) -> Genus {
        let length = self.period_start + self.period;
        let whole: Vec<u64> = (0..length + self.period).map(|n| self.gamma(n)).collect();
        for candidate in 1..=self.period {
            if self.period.is_multiple_of(candidate)
                && (self.period_start..self.period_start + self.period)
                    .all(|n| whole[n] == whole[self.period_start + (n - self.period_start) % candidate])
            {
                self.period = candidate;
                break;
            }
        }
        while self.period_start > 0 && whole[self.period_start - 1] == whole[self.period_start - 1 + self.period] {
            self.period_start -= 1;
        }
        self.misere = whole[..self.period_start + self.period].to_vec();
        self
    }
}

fn lcm(a: usize, b: usize) -> usize {
    a / num_integer::gcd(a, b) * b
}

impl fmt::Display for Genus {
    /// `0^120`; with a superscript of two digits or more, `10^(10,8)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.misere.iter().all(|&value| value < 10) {
            let digits: String = self.misere.iter().map(u64::to_string).collect();
            write!(f, "{}^{digits}", self.normal)
        } else {
            let list: Vec<String> = self.misere.iter().map(u64::to_string).collect();
            write!(f, "{}^({})", self.normal, list.join(","))
        }
    }
}

/// One heap's genus and whether the heap is tame.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct HeapGenus {
    /// The heap size.
    pub heap: u64,
    /// Its genus.
    pub genus: Genus,
    /// Whether the heap is tame (its genus is tame and its options are sums of tame heaps).
    pub tame: bool,
}

/// The genera of heaps `0..=to` of a heap game, computed heap by heap.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GenusTable {
    /// One entry per heap, from heap 0.
    pub heaps: Vec<HeapGenus>,
    /// The positions (sums containing a wild heap) whose genus needed a search of their own.
    pub positions_searched: usize,
}

impl GenusTable {
    /// Whether every heap in the table is tame.
    pub fn all_tame(&self) -> bool {
        self.heaps.iter().all(|entry| entry.tame)
    }

    /// The misère outcome of a sum of heaps from the table, when every heap in it is tame
    /// (`None` otherwise, or for a heap past the table): the tame addition rule.
    ///
    /// ```
    /// use grundy::misere::genus::genus_table;
    /// use grundy::Outcome;
    /// let nim = |heap: u64| (0..heap).map(|smaller| vec![smaller]).collect::<Vec<_>>();
    /// let table = genus_table(&nim, 6, 1000).unwrap();
    /// assert!(table.all_tame());
    /// assert_eq!(table.tame_outcome(&[1, 1, 1]), Some(Outcome::P));
    /// assert_eq!(table.tame_outcome(&[3, 4, 5]), Some(Outcome::N));
    /// ```
    pub fn tame_outcome(&self, heaps: &[u64]) -> Option<Outcome> {
        let mut normal = 0;
        let mut small = true;
        for &heap in heaps {
            let entry = self.heaps.get(usize::try_from(heap).ok()?)?;
            if !entry.tame {
                return None;
            }
            normal ^= entry.genus.normal;
            small &= entry.genus.tame_kind()?;
        }
        Some(tame_sum_outcome(normal, small))
    }
}

/// Bouton's rule for a sum of tame games: `normal` is the xor of the parts' normal values,
/// `small` whether every part is of the small kind (`0^120`, `1^031`).
pub fn tame_sum_outcome(normal: u64, small: bool) -> Outcome {
    let p = if small { normal == 1 } else { normal == 0 };
    if p { Outcome::P } else { Outcome::N }
}

/// The genus of every heap `0..=to` of the heap game whose options are `heap_options` (each
/// option: the heaps left, all smaller than the heap moved in), and which heaps are tame.
///
/// The genus of an option made of tame heaps follows from the tame addition rule; an option
/// with a wild heap in it is evaluated by its own options, with a memo over sorted sums, at
/// most `max_positions` of them.
///
/// # Errors
/// [`GameError::Unsupported`] when an option is not made of smaller heaps, or when wild
/// heaps need more than `max_positions` sums.
///
/// ```
/// use grundy::misere::genus::genus_table;
/// // Dawson's Kayles (0.07): take two adjacent pins, possibly splitting the row.
/// let dawson = |row: u64| {
///     let mut options = Vec::new();
///     for left in 0..=row.saturating_sub(2) {
///         if row >= 2 {
///             options.push([left, row - 2 - left].into_iter().filter(|&part| part > 0).collect());
///         }
///     }
///     options
/// };
/// let table = genus_table(&dawson, 4, 10_000).unwrap();
/// let genera: Vec<String> = table.heaps.iter().map(|entry| entry.genus.to_string()).collect();
/// assert_eq!(genera, ["0^120", "0^120", "1^031", "1^031", "2^20"]);
/// ```
pub fn genus_table(
    heap_options: &dyn Fn(u64) -> Vec<Vec<u64>>,
    to: u64,
    max_positions: usize,
) -> Result<GenusTable, GameError> {
    let mut builder = Builder { heaps: Vec::new(), options: Vec::new(), memo: FxHashMap::default(), max_positions };
    for heap in 0..=to {
        let raw = heap_options(heap);
        if let Some(bad) = raw.iter().flatten().find(|&&part| part >= heap) {
            return Err(GameError::Unsupported(format!(
                "heap {heap} has an option containing heap {bad}: genus tables need options made of smaller heaps"
            )));
        }
        let options: Vec<Vec<u64>> = raw.iter().map(|option| builder.normalize(option)).collect();
        let mut genera = Vec::with_capacity(options.len());
        let mut options_tame = true;
        for sum in &options {
            options_tame &= sum.iter().all(|&part| builder.heaps[part as usize].tame);
            genera.push(builder.genus_of_sum(sum.clone())?);
        }
        let genus = Genus::from_options(&genera);
        let tame = options_tame && genus.tame_kind().is_some();
        builder.options.push(options);
        builder.heaps.push(HeapGenus { heap, genus, tame });
    }
    let positions_searched = builder.memo.len();
    Ok(GenusTable { heaps: builder.heaps, positions_searched })
}

struct Builder {
    heaps: Vec<HeapGenus>,
    /// Each heap's options, normalized.
    options: Vec<Vec<Vec<u64>>>,
    /// Genera of sums with a wild heap, keyed by the sorted sum.
    memo: FxHashMap<Vec<u64>, Genus>,
    max_positions: usize,
}

impl Builder {
    /// The sum sorted, without heaps that have no options (they are the empty game).
    fn normalize(&self, sum: &[u64]) -> Vec<u64> {
        let mut kept: Vec<u64> = sum.iter().copied().filter(|&part| !self.options[part as usize].is_empty()).collect();
        kept.sort_unstable();
        kept
    }

    /// The genus of a normalized sum when it needs no search: empty, one heap, all tame, or
    /// already in the memo.
    fn known(&self, sum: &[u64]) -> Option<Genus> {
        match sum {
            [] => return Some(Genus::terminal()),
            [heap] => return Some(self.heaps[*heap as usize].genus.clone()),
            _ => {}
        }
        let mut normal = 0;
        let mut small = true;
        let mut tame = true;
        for &part in sum {
            let entry = &self.heaps[part as usize];
            normal ^= entry.genus.normal;
            match (entry.tame, entry.genus.tame_kind()) {
                (true, Some(kind)) => small &= kind,
                _ => tame = false,
            }
        }
        if tame { Some(Genus::tame(normal, small)) } else { self.memo.get(sum).cloned() }
    }

    /// The options of a normalized sum, each normalized.
    fn children(&self, sum: &[u64]) -> Vec<Vec<u64>> {
        let mut children = Vec::new();
        for index in 0..sum.len() {
            if index > 0 && sum[index] == sum[index - 1] {
                continue;
            }
            for option in &self.options[sum[index] as usize] {
                let mut child: Vec<u64> = sum[..index].iter().chain(&sum[index + 1..]).copied().collect();
                child.extend(option);
                child.sort_unstable();
                children.push(child);
            }
        }
        children
    }

    /// The genus of a normalized sum: by the rules when it is known, else by an explicit-stack
    /// post-order search over the sums with a wild heap below it.
    fn genus_of_sum(&mut self, root: Vec<u64>) -> Result<Genus, GameError> {
        if let Some(genus) = self.known(&root) {
            return Ok(genus);
        }
        let children = self.children(&root);
        let mut stack = vec![(root.clone(), children)];
        while let Some((sum, children)) = stack.last() {
            if let Some(pending) = children.iter().find(|child| self.known(child).is_none()) {
                if self.memo.len() + stack.len() >= self.max_positions {
                    return Err(GameError::Unsupported(format!(
                        "the genus of a sum of wild heaps needed more than {} positions (raise --max-positions or lower --to)",
                        self.max_positions
                    )));
                }
                let pending = pending.clone();
                let grandchildren = self.children(&pending);
                stack.push((pending, grandchildren));
                continue;
            }
            let genera: Vec<Genus> =
                children.iter().map(|child| self.known(child).expect("every child is known")).collect();
            let genus = Genus::from_options(&genera);
            let sum = sum.clone();
            stack.pop();
            self.memo.insert(sum, genus);
        }
        Ok(self.memo[&root].clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::HeapGame;
    use crate::heap::nim::Nim;
    use crate::heap::octal::{CodeBase, OctalGame};
    use crate::heap::subtraction::SubtractionGame;
    use crate::misere::search::MisereSearch;
    use proptest::prelude::*;

    fn games() -> Vec<(&'static str, Box<dyn HeapGame>)> {
        let octal = |code| Box::new(OctalGame::parse(code, CodeBase::Octal).unwrap()) as Box<dyn HeapGame>;
        vec![
            ("nim", Box::new(Nim)),
            ("kayles", octal("0.77")),
            ("dawson", octal("0.07")),
            ("0.75", octal("0.75")),
            ("0.137", octal("0.137")),
            ("sub:1,2", Box::new(SubtractionGame::new(vec![1, 2]).unwrap())),
            ("sub:2,3,7", Box::new(SubtractionGame::new(vec![2, 3, 7]).unwrap())),
        ]
    }

    /// A component of `heap + 2 + … + 2`: a heap of the game (`false`) or a nim-heap (`true`).
    type Part = (bool, u64);

    /// The misère Grundy value of a sum by the definition: 1 without moves, else the mex.
    fn misere_value(game: &dyn HeapGame, sum: Vec<Part>, memo: &mut FxHashMap<Vec<Part>, u64>) -> u64 {
        let mut sum: Vec<Part> = sum.into_iter().filter(|&(_, size)| size > 0).collect();
        sum.sort_unstable();
        if let Some(&value) = memo.get(&sum) {
            return value;
        }
        let mut values = Vec::new();
        for index in 0..sum.len() {
            let (nim, size) = sum[index];
            let options: Vec<Vec<Part>> = if nim {
                (0..size).map(|smaller| vec![(true, smaller)]).collect()
            } else {
                game.heap_options(size)
                    .into_iter()
                    .map(|option| option.into_iter().map(|h| (false, h)).collect())
                    .collect()
            };
            for option in options {
                let mut child = sum.clone();
                child.remove(index);
                child.extend(option);
                values.push(misere_value(game, child, memo));
            }
        }
        let value = if values.is_empty() { 1 } else { mex(values) };
        memo.insert(sum, value);
        value
    }

    /// Every heap's genus superscripts are the misère Grundy values of the heap plus 0, 1, 2, 3
    /// nim-heaps of size 2, by exhaustive search.
    #[test]
    fn genus_rule_matches_the_definition() {
        for (name, game) in games() {
            let table = genus_table(&|heap| game.heap_options(heap), 12, 1_000_000).unwrap();
            let mut memo = FxHashMap::default();
            for entry in &table.heaps {
                for twos in 0..4 {
                    let mut sum = vec![(false, entry.heap)];
                    sum.extend(std::iter::repeat_n((true, 2), twos));
                    let expected = misere_value(game.as_ref(), sum, &mut memo);
                    assert_eq!(
                        entry.genus.gamma(twos),
                        expected,
                        "{name} heap {}: γ{twos} of {}",
                        entry.heap,
                        entry.genus
                    );
                }
            }
        }
    }

    #[test]
    fn nim_heaps_have_the_tame_genera() {
        let table = genus_table(&|heap| Nim.heap_options(heap), 7, 1000).unwrap();
        let genera: Vec<String> = table.heaps.iter().map(|entry| entry.genus.to_string()).collect();
        assert_eq!(genera, ["0^120", "1^031", "2^20", "3^31", "4^46", "5^57", "6^64", "7^75"]);
        assert!(table.all_tame());
        assert_eq!(table.positions_searched, 0);
    }

    #[test]
    fn wild_heaps_are_found() {
        // 0.75 is wild: its quotient R8 is not a tame quotient (Plambeck 2005).
        let game = OctalGame::parse("0.75", CodeBase::Octal).unwrap();
        let table = genus_table(&|heap| game.heap_options(heap), 12, 100_000).unwrap();
        assert!(!table.all_tame());
        let error = genus_table(&|heap| if heap == 0 { vec![] } else { vec![vec![heap]] }, 3, 10).unwrap_err();
        assert!(error.to_string().contains("smaller heaps"), "{error}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1500))]
        /// Outcomes of sums of tame heaps by the genus agree with exhaustive misère search.
        #[test]
        fn tame_outcomes_match_exhaustive_search(game_index in 0usize..7, seeds in prop::collection::vec(0u64..1000, 0..5)) {
            let (_, game) = &games()[game_index];
            let table = genus_table(&|heap| game.heap_options(heap), 16, 1_000_000).unwrap();
            let tame: Vec<u64> = table.heaps.iter().filter(|entry| entry.tame).map(|entry| entry.heap).collect();
            let heaps: Vec<u64> = seeds.iter().map(|seed| tame[*seed as usize % tame.len()]).collect();
            let mut search = MisereSearch::new(|heap: &u64| Ok(game.heap_options(*heap)), 5_000_000, &crate::control::Control::default());
            prop_assert_eq!(table.tame_outcome(&heaps).unwrap(), search.outcome(&heaps).unwrap(), "{:?}", heaps);
        }
    }
}
