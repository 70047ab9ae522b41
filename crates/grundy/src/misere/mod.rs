//! Misère play: whoever makes the last move loses.
//!
//! Under misère play the Sprague–Grundy theory of sums breaks down, and a solver needs other
//! tools, each in its module:
//! - [`nim`]: misère Nim by Bouton's rule, heaps of any size.
//! - [`genus`]: Conway's genus `g^(γ0 γ1 …)` of each heap, tameness, and outcomes of sums
//!   of tame heaps (ONAG ch. 12, *Winning Ways* ch. 13).
//! - [`quotient`]: the misère quotient of Plambeck and Siegel, a finite commutative monoid
//!   in which the outcome of any sum of heaps is read off the product of their elements.
//! - [`tame`]: the genus of the components of any game (scripts, tuples, sums of different
//!   games) from their options, and the outcome of a sum whose every component is tame.
//! - [`search`]: exhaustive search over sums of components of any game, the reference every
//!   method above is tested against.
//!
//! [`heap_sum_outcome`] picks the first of these that applies to a sum of heaps.

pub mod genus;
pub mod nim;
pub mod quotient;
pub mod search;
pub mod sums;
pub mod tame;

use crate::control::Control;
use crate::error::GameError;
use crate::heap::HeapGame;
use crate::value::Outcome;
use std::fmt;

/// How a misère answer was decided.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(tag = "method", rename_all = "snake_case"))]
pub enum Method {
    /// Misère Nim by Bouton's rule ([`nim`]).
    Bouton,
    /// Every heap is tame: the genus ([`genus`]).
    Genus,
    /// The misère quotient of heaps up to the largest in the sum ([`quotient`]).
    Quotient {
        /// The quotient's order.
        order: usize,
    },
    /// Exhaustive search ([`search`]).
    Search {
        /// The positions examined.
        positions: usize,
    },
}

impl fmt::Display for Method {
    /// `by Bouton's misère rule`, `tame: by genus`, `by a misère quotient of order 8`,
    /// `by search over 12,345 positions`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Method::Bouton => f.write_str("by Bouton's misère rule"),
            Method::Genus => f.write_str("tame: by genus"),
            Method::Quotient { order } => write!(f, "by a misère quotient of order {order}"),
            Method::Search { positions } => write!(f, "by search over {} positions", thousands(*positions)),
        }
    }
}

/// `12345` as `12,345`.
fn thousands(number: usize) -> String {
    let digits = number.to_string();
    let mut text = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

/// Bounds on the work [`heap_sum_outcome`] may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The largest misère quotient built (`--max-order`).
    pub max_order: usize,
    /// The most positions an exhaustive search examines (`--max-positions`).
    pub max_positions: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_order: quotient::DEFAULT_MAX_ORDER, max_positions: search::DEFAULT_MAX_POSITIONS }
    }
}

/// The sums of wild heaps a genus table may search before the genus method is skipped.
const GENUS_POSITIONS: usize = 2_000;

/// The misère outcome of a sum of heaps of `game`, and how it was decided: Bouton's rule for
/// Nim, the genus when every heap in the sum is tame, the misère quotient of heaps up to the
/// largest one when it stays within `limits.max_order`, and exhaustive search otherwise.
///
/// # Errors
/// [`GameError::Unsupported`] when every method fails (the search passing
/// `limits.max_positions`).
///
/// ```
/// use grundy::heap::nim::Nim;
/// use grundy::heap::octal::{CodeBase, OctalGame};
/// use grundy::misere::{Limits, heap_sum_outcome};
/// use grundy::Outcome;
/// let control = grundy::control::Control::default();
/// let (outcome, method) = heap_sum_outcome(&Nim, &[1, 1, 1], Limits::default(), &control).unwrap();
/// assert_eq!((outcome, method.to_string().as_str()), (Outcome::P, "by Bouton's misère rule"));
/// let game = OctalGame::parse("0.75", CodeBase::Octal).unwrap();
/// let (_, method) = heap_sum_outcome(&game, &[5, 7, 9], Limits::default(), &control).unwrap();
/// assert_eq!(method.to_string(), "by a misère quotient of order 8");
/// ```
pub fn heap_sum_outcome(
    game: &dyn HeapGame,
    heaps: &[u64],
    limits: Limits,
    control: &Control,
) -> Result<(Outcome, Method), GameError> {
    if game.is_nim() {
        let big: Vec<num_bigint::BigUint> = heaps.iter().map(|&heap| heap.into()).collect();
        return Ok((nim::outcome(&big), Method::Bouton));
    }
    let largest = heaps.iter().copied().max().unwrap_or(0);
    let options = |heap: u64| game.heap_options(heap);
    if let Ok(table) = genus::genus_table(&options, largest, GENUS_POSITIONS)
        && let Some(outcome) = table.tame_outcome(heaps)
    {
        return Ok((outcome, Method::Genus));
    }
    if let Ok(quotient) = quotient::misere_quotient(&options, largest, limits.max_order, control)
        && let Some(outcome) = quotient.outcome(heaps)
    {
        return Ok((outcome, Method::Quotient { order: quotient.order }));
    }
    let result = search::outcome(heaps, |heap: &u64| Ok(game.heap_options(*heap)), limits.max_positions, control)?;
    Ok((result.outcome, Method::Search { positions: result.positions }))
}

/// A misère winning move of a sum of heaps: the index of the heap moved in and the heaps it
/// becomes (none when it is taken away, two when it is split).
pub type HeapMove = (usize, Vec<u64>);

/// Every misère winning move of a sum of heaps of `game` (`(index of the heap, the heaps it
/// becomes)`), and how they were found: Bouton's rule for Nim, the misère quotient when it
/// stays within `limits.max_order`, exhaustive search otherwise.
///
/// # Errors
/// As [`heap_sum_outcome`].
///
/// ```
/// use grundy::heap::nim::Nim;
/// use grundy::misere::{Limits, heap_sum_winning_moves};
/// let control = grundy::control::Control::default();
/// let (moves, _) = heap_sum_winning_moves(&Nim, &[2, 2, 1], Limits::default(), &control).unwrap();
/// assert_eq!(moves, vec![(2, vec![])]);
/// ```
pub fn heap_sum_winning_moves(
    game: &dyn HeapGame,
    heaps: &[u64],
    limits: Limits,
    control: &Control,
) -> Result<(Vec<HeapMove>, Method), GameError> {
    if game.is_nim() {
        let big: Vec<num_bigint::BigUint> = heaps.iter().map(|&heap| heap.into()).collect();
        let moves = nim::winning_moves(&big)
            .into_iter()
            .map(|(index, size)| {
                let size: u64 = size.try_into().expect("smaller than a u64 heap");
                (index, if size == 0 { vec![] } else { vec![size] })
            })
            .collect();
        return Ok((moves, Method::Bouton));
    }
    let largest = heaps.iter().copied().max().unwrap_or(0);
    let options = |heap: u64| game.heap_options(heap);
    if let Ok(quotient) = quotient::misere_quotient(&options, largest, limits.max_order, control)
        && let Some(moves) = quotient.winning_moves(heaps, &options)
    {
        return Ok((moves, Method::Quotient { order: quotient.order }));
    }
    let mut solver =
        search::MisereSearch::new(|heap: &u64| Ok(game.heap_options(*heap)), limits.max_positions, control);
    let moves = solver.winning_moves(heaps)?;
    let positions = solver.positions();
    Ok((moves.into_iter().map(|found| (found.component, found.replacement)).collect(), Method::Search { positions }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::octal::{CodeBase, OctalGame};
    use crate::heap::subtraction::SubtractionGame;
    use proptest::prelude::*;

    #[test]
    fn methods_read_as_the_issue_asks() {
        assert_eq!(Method::Bouton.to_string(), "by Bouton's misère rule");
        assert_eq!(Method::Genus.to_string(), "tame: by genus");
        assert_eq!(Method::Quotient { order: 8 }.to_string(), "by a misère quotient of order 8");
        assert_eq!(Method::Search { positions: 12_345 }.to_string(), "by search over 12,345 positions");
        assert_eq!(Method::Search { positions: 999 }.to_string(), "by search over 999 positions");
    }

    #[test]
    fn each_method_is_chosen_where_it_applies() {
        let sub = SubtractionGame::new(vec![1, 2]).unwrap();
        assert_eq!(
            heap_sum_outcome(&sub, &[3, 4], Limits::default(), &crate::control::Control::default()).unwrap().1,
            Method::Genus
        );
        let kayles = OctalGame::kayles();
        assert!(matches!(
            heap_sum_outcome(&kayles, &[70, 33], Limits::default(), &crate::control::Control::default()).unwrap().1,
            Method::Quotient { .. }
        ));
        let small = Limits { max_order: 2, max_positions: 1_000_000 };
        assert!(matches!(
            heap_sum_outcome(&kayles, &[12, 9], small, &crate::control::Control::default()).unwrap().1,
            Method::Search { .. }
        ));
        let tiny = Limits { max_order: 2, max_positions: 10 };
        assert!(heap_sum_outcome(&kayles, &[30, 29, 28], tiny, &crate::control::Control::default()).is_err());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Whatever method answers, it agrees with exhaustive search.
        #[test]
        fn any_method_matches_search(code in prop::sample::select(vec!["0.77", "0.07", "0.75", "0.137", "0.6"]),
                                     heaps in prop::collection::vec(0u64..14, 0..4)) {
            let game = OctalGame::parse(code, CodeBase::Octal).unwrap();
            let expected = search::outcome(&heaps, |heap: &u64| Ok(game.heap_options(*heap)), 5_000_000, &crate::control::Control::default()).unwrap().outcome;
            prop_assert_eq!(heap_sum_outcome(&game, &heaps, Limits::default(), &crate::control::Control::default()).unwrap().0, expected);
            let (moves, _) = heap_sum_winning_moves(&game, &heaps, Limits::default(), &crate::control::Control::default()).unwrap();
            let mut solver = search::MisereSearch::new(|heap: &u64| Ok(game.heap_options(*heap)), 5_000_000, &crate::control::Control::default());
            let searched: Vec<(usize, Vec<u64>)> =
                solver.winning_moves(&heaps).unwrap().into_iter().map(|found| (found.component, found.replacement)).collect();
            prop_assert_eq!(moves, searched);
        }
    }
}
