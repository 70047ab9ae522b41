//! Conway's genus of the components of any game, from their options alone, and the misère
//! outcome of a sum whose every component is tame.
//!
//! [`super::genus`] builds a table of heaps `0..=N`; here the components are anything with
//! options (a script's tuples, Wythoff pairs, coin rows, sums of different games), reached
//! from the components of one sum. Each component's genus is computed from the definition,
//! with the rule of [`super::genus`]: `γ0 = mex(γ0 of options)`,
//! `γn = mex({γn of options} ∪ {γ(n−1), γ(n−1) ⊕ 1})` ([`Genus::from_options`]), its normal
//! value the mex of its options' (no family's closed form is used).
//!
//! **When the answer is claimed.** A component is tame when its genus is one of the tame
//! genera (`0^120`, `1^031`, `a^(a, a⊕2)`) and every option is a sum of tame components (ONAG
//! ch. 12; *Winning Ways* ch. 13): tameness is about every component reachable from it. A sum
//! of tame components is tame with the genus misère Nim's addition gives
//! ([`Genus::tame`] of the xor of the normal values, small iff every part is), so every
//! option's genus is known without a search once its parts are, and the sum is a misère
//! P-position by Bouton's rule read on the genera ([`super::genus::tame_sum_outcome`]).
//! [`TameSearch`] therefore explores the components reachable from the sum, not the sums: it
//! answers only when every one of them is tame, and says nothing (`None`) as soon as one is
//! wild, a component can be reached from itself (a loopy game), or more than its budget of
//! options must be looked at; the caller then takes another method. The tests compare every
//! answer with exhaustive misère search of the sum.

use super::genus::{Genus, tame_sum_outcome};
use crate::control::Control;
use crate::error::GameError;
use crate::value::Outcome;
use rustc_hash::{FxHashMap, FxHashSet};
use std::hash::Hash;

/// A tame component's genus: its normal value and whether it is of the small kind (`0^120`,
/// `1^031`); every tame genus is one of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TameGenus {
    /// The normal-play Grundy value.
    pub normal: u64,
    /// Whether the genus is `0^120` or `1^031`.
    pub small: bool,
}

impl TameGenus {
    /// The genus itself.
    pub fn genus(self) -> Genus {
        Genus::tame(self.normal, self.small)
    }

    /// The tame genus of a sum of tame components: misère Nim's addition.
    pub fn of_sum(parts: impl IntoIterator<Item = TameGenus>) -> TameGenus {
        parts.into_iter().fold(TameGenus { normal: 0, small: true }, |sum, part| TameGenus {
            normal: sum.normal ^ part.normal,
            small: sum.small && part.small,
        })
    }

    /// The misère outcome of a game of this genus.
    pub fn outcome(self) -> Outcome {
        tame_sum_outcome(self.normal, self.small)
    }
}

/// Why [`TameSearch`] said nothing about a sum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotTame {
    /// A reachable component has a genus that is not tame (shown by `describe`).
    Wild(String),
    /// A component can be reached from itself.
    Loopy,
    /// More than the budget of options would have to be looked at.
    Budget(usize),
}

/// The genera of components of type `C` whose options are given by a closure (each option:
/// the components replacing the one moved in), remembered across questions.
///
/// ```
/// use grundy::misere::tame::TameSearch;
/// use grundy::Outcome;
/// // Nim heaps, tame by Bouton's theorem: the last heap loses.
/// let nim = |heap: &u64| -> Result<Vec<Vec<u64>>, grundy::GameError> {
///     Ok((0..*heap).map(|smaller| if smaller == 0 { vec![] } else { vec![smaller] }).collect())
/// };
/// let control = grundy::control::Control::default();
/// let mut search = TameSearch::new(nim, 1_000_000, &control);
/// assert_eq!(search.outcome(&[1, 1, 1]).unwrap(), Ok(Outcome::P));
/// assert_eq!(search.outcome(&[2, 2]).unwrap(), Ok(Outcome::P));
/// assert_eq!(search.outcome(&[3, 4, 5]).unwrap(), Ok(Outcome::N));
/// ```
pub struct TameSearch<C, F> {
    options: F,
    /// The tame components met, with their genera.
    known: FxHashMap<C, TameGenus>,
    /// Options looked at so far, and the most allowed.
    looked: usize,
    budget: usize,
    control: Control,
}

/// About what one remembered component takes (the entry, its key, the table's slack).
const BYTES_PER_COMPONENT: u128 = 96;

impl<C, F> TameSearch<C, F>
where
    C: Clone + Eq + Hash + std::fmt::Debug,
    F: FnMut(&C) -> Result<Vec<Vec<C>>, GameError>,
{
    /// A search over the game whose component options are `options`, looking at no more than
    /// `budget` options (parts of options) in all, within `control`'s memory limit.
    pub fn new(options: F, budget: usize, control: &Control) -> Self {
        TameSearch { options, known: FxHashMap::default(), looked: 0, budget, control: control.clone() }
    }

    /// The components whose genus is known (every one tame).
    pub fn components(&self) -> usize {
        self.known.len()
    }

    /// The genus of a component already found tame.
    pub fn known(&self, component: &C) -> Option<TameGenus> {
        self.known.get(component).copied()
    }

    /// The genus of `root` when it is tame (every component reachable from it is), else why
    /// not, by an explicit-stack post-order search over the components reachable from it.
    ///
    /// # Errors
    /// An error of the options closure, a memory limit passed, or a cancelled control.
    pub fn genus(&mut self, root: &C) -> Result<Result<TameGenus, NotTame>, GameError> {
        if let Some(&known) = self.known.get(root) {
            return Ok(Ok(known));
        }
        struct Frame<C> {
            component: C,
            options: Vec<Vec<C>>,
            /// The next option, and the next part within it, to make sure of.
            option: usize,
            part: usize,
        }
        let mut on_stack: FxHashSet<C> = FxHashSet::default();
        let first = self.expand(root)?;
        let Some(first) = first else { return Ok(Err(NotTame::Budget(self.budget))) };
        on_stack.insert(root.clone());
        let mut stack = vec![Frame { component: root.clone(), options: first, option: 0, part: 0 }];
        while let Some(frame) = stack.last_mut() {
            // The first part of an option not yet known, if any.
            let mut pending = None;
            while frame.option < frame.options.len() {
                let option = &frame.options[frame.option];
                if frame.part >= option.len() {
                    frame.option += 1;
                    frame.part = 0;
                    continue;
                }
                let part = &option[frame.part];
                if self.known.contains_key(part) {
                    frame.part += 1;
                    continue;
                }
                if on_stack.contains(part) {
                    return Ok(Err(NotTame::Loopy));
                }
                pending = Some(part.clone());
                break;
            }
            if let Some(part) = pending {
                if self.control.cancelled() {
                    return Err(GameError::Unsupported("cancelled".to_owned()));
                }
                let Some(options) = self.expand(&part)? else { return Ok(Err(NotTame::Budget(self.budget))) };
                on_stack.insert(part.clone());
                stack.push(Frame { component: part, options, option: 0, part: 0 });
                continue;
            }
            let frame = stack.pop().expect("a frame is on the stack");
            on_stack.remove(&frame.component);
            let genera: Vec<Genus> = frame
                .options
                .iter()
                .map(|option| TameGenus::of_sum(option.iter().map(|part| self.known[part])).genus())
                .collect();
            let genus = Genus::from_options(&genera);
            let Some(small) = genus.tame_kind() else {
                return Ok(Err(NotTame::Wild(format!("{:?} has the genus {genus}", frame.component))));
            };
            self.control.check_memory(
                || "the genera of the components of a misère sum".to_owned(),
                self.known.len() as u128 + 1,
                BYTES_PER_COMPONENT,
            )?;
            self.known.insert(frame.component, TameGenus { normal: genus.normal, small });
        }
        Ok(Ok(self.known[root]))
    }

    /// The options of `component`, counted against the budget; `None` past it.
    fn expand(&mut self, component: &C) -> Result<Option<Vec<Vec<C>>>, GameError> {
        let options = (self.options)(component)?;
        self.looked += options.iter().map(|option| option.len().max(1)).sum::<usize>().max(1);
        Ok((self.looked <= self.budget).then_some(options))
    }

    /// The genus of the sum of `components` when every one is tame, else why not.
    ///
    /// # Errors
    /// As [`TameSearch::genus`].
    pub fn sum_genus(&mut self, components: &[C]) -> Result<Result<TameGenus, NotTame>, GameError> {
        let mut genera = Vec::with_capacity(components.len());
        for component in components {
            match self.genus(component)? {
                Ok(genus) => genera.push(genus),
                Err(why) => return Ok(Err(why)),
            }
        }
        Ok(Ok(TameGenus::of_sum(genera)))
    }

    /// The misère outcome of the sum of `components` when every one is tame, else why not.
    ///
    /// # Errors
    /// As [`TameSearch::genus`].
    pub fn outcome(&mut self, components: &[C]) -> Result<Result<Outcome, NotTame>, GameError> {
        Ok(self.sum_genus(components)?.map(TameGenus::outcome))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::HeapGame;
    use crate::heap::octal::{CodeBase, OctalGame};
    use crate::heap::subtraction::SubtractionGame;
    use crate::misere::search::MisereSearch;
    use proptest::prelude::*;

    /// Positions of a made-up game on pairs: from `(a, b)` take 1 or 2 from `a`, or 1 or 3
    /// from `b`, or split `(a, b)` with `a ≥ 2` into `(a − 2, b)` and a Nim heap `(0, 1)`.
    fn pair_options(position: &(u8, u8)) -> Result<Vec<Vec<(u8, u8)>>, GameError> {
        let (a, b) = *position;
        let mut options = Vec::new();
        for take in [1, 2] {
            if take <= a {
                options.push(vec![(a - take, b)]);
            }
        }
        for take in [1, 3] {
            if take <= b {
                options.push(vec![(a, b - take)]);
            }
        }
        if a >= 2 && b % 2 == 1 {
            options.push(vec![(a - 2, b), (0, 1)]);
        }
        Ok(options)
    }

    #[test]
    fn wild_and_loopy_components_are_not_claimed() {
        let control = Control::default();
        let kayles = OctalGame::kayles();
        let options = |heap: &u64| Ok(kayles.heap_options(*heap));
        let mut search = TameSearch::new(options, 1_000_000, &control);
        // Kayles is wild: its misère quotient is not misère Nim's (Winning Ways ch. 13).
        let far = (0..40).find_map(|heap| search.genus(&heap).unwrap().err());
        assert!(matches!(far, Some(NotTame::Wild(_))), "{far:?}");
        let loopy = |heap: &u64| Ok(vec![vec![(heap + 1) % 3]]);
        let mut search = TameSearch::new(loopy, 1_000_000, &control);
        assert_eq!(search.genus(&0).unwrap(), Err(NotTame::Loopy));
        let nim = |heap: &u64| Ok((0..*heap).map(|smaller| vec![smaller]).collect());
        let mut search = TameSearch::new(nim, 100, &control);
        assert_eq!(search.genus(&1000).unwrap(), Err(NotTame::Budget(100)));
    }

    fn heap_games() -> Vec<Box<dyn HeapGame>> {
        let octal = |code| Box::new(OctalGame::parse(code, CodeBase::Octal).unwrap()) as Box<dyn HeapGame>;
        vec![
            octal("0.77"),
            octal("0.07"),
            octal("0.75"),
            octal("0.137"),
            octal("4.4"),
            Box::new(SubtractionGame::new(vec![1, 2]).unwrap()),
            Box::new(SubtractionGame::new(vec![2, 3, 7]).unwrap()),
            Box::new(SubtractionGame::new(vec![1, 3, 4]).unwrap()),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(600))]

        /// Whenever every component is tame, the outcome is exhaustive misère search's; a heap
        /// game's tame heaps are those of the genus table.
        #[test]
        fn tame_heap_sums_match_exhaustive_search(pick in 0usize..8, heaps in prop::collection::vec(0u64..15, 0..5)) {
            let game = &heap_games()[pick];
            let control = Control::default();
            let options = |heap: &u64| Ok(game.heap_options(*heap));
            let mut tame = TameSearch::new(options, 1_000_000, &control);
            let table = super::super::genus::genus_table(&|heap| game.heap_options(heap), 15, 1_000_000).unwrap();
            let mut search = MisereSearch::new(options, 5_000_000, &control);
            let expected = search.outcome(&heaps).unwrap();
            let all_tame = heaps.iter().all(|&heap| table.heaps[heap as usize].tame);
            match tame.outcome(&heaps).unwrap() {
                Ok(outcome) => {
                    prop_assert!(all_tame, "{:?}", heaps);
                    prop_assert_eq!(outcome, expected, "{:?}", heaps);
                    prop_assert_eq!(Some(outcome), table.tame_outcome(&heaps));
                }
                Err(NotTame::Wild(_)) => prop_assert!(!all_tame, "{:?}", heaps),
                Err(other) => prop_assert!(false, "{:?}: {:?}", heaps, other),
            }
        }

        /// Sums of pairs of the made-up game (its options split): every answer is exhaustive
        /// misère search's.
        #[test]
        fn tame_pair_sums_match_exhaustive_search(pairs in prop::collection::vec((0u8..7, 0u8..7), 0..4)) {
            let control = Control::default();
            let mut tame = TameSearch::new(pair_options, 1_000_000, &control);
            let mut search = MisereSearch::new(pair_options, 5_000_000, &control);
            if let Ok(outcome) = tame.outcome(&pairs).unwrap() {
                prop_assert_eq!(outcome, search.outcome(&pairs).unwrap(), "{:?}", pairs);
            }
        }
    }

    /// The made-up pair game is tame often enough that the test above tests something.
    #[test]
    fn the_pair_game_has_tame_and_wild_positions() {
        let control = Control::default();
        let mut tame = TameSearch::new(pair_options, 1_000_000, &control);
        let answers: Vec<bool> = (0..7u8)
            .flat_map(|a| (0..7u8).map(move |b| (a, b)))
            .map(|pair| tame.genus(&pair).unwrap().is_ok())
            .collect();
        let claimed = answers.iter().filter(|&&ok| ok).count();
        assert!(claimed >= 10, "{claimed} tame pairs");
    }
}
