//! Misère play on any position of the game model: a sum of heaps of one heap game by the
//! fastest rule that applies (Bouton, genus, quotient; see [`super::heap_sum_outcome`]), any
//! other sum — other families, sums of different games — by exhaustive search over sums
//! stored with their components sorted ([`super::search`]).

use super::search::MisereSearch;
use super::{Limits, Method, heap_sum_outcome, heap_sum_winning_moves, nim};
use crate::control::Control;
use crate::error::GameError;
use crate::heap::AsHeapGame;
use crate::heap::HeapGame;
use crate::position::{Component, ComponentKind};
use crate::ruleset::MOVE_LIMIT;
use crate::sum::{Position, SumMove};
use crate::value::Outcome;
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use std::sync::Arc;

/// The heap game and heaps of a position that is a sum of heaps of one heap game.
fn heaps_of(position: &Position) -> Option<(Arc<dyn HeapGame>, Vec<BigUint>)> {
    let [part] = position.parts.as_slice() else { return None };
    let game = part.game.heap_game()?;
    let heaps = part.components.iter().map(BigUint::from_component);
    Some((game, heaps.collect::<Option<Vec<_>>>()?))
}

fn small(heaps: &[BigUint]) -> Option<Vec<u64>> {
    heaps.iter().map(ToPrimitive::to_u64).collect()
}

/// A component of the sum, by its part.
type Keyed = (usize, Component);
/// The options of a keyed component, each as the components replacing it.
type KeyedOptions = Result<Vec<Vec<Keyed>>, GameError>;

fn search<'p>(
    position: &'p Position,
    limits: Limits,
    control: &Control,
) -> MisereSearch<Keyed, impl Fn(&Keyed) -> KeyedOptions + 'p> {
    let options = move |(part, component): &Keyed| -> KeyedOptions {
        let game = &position.parts[*part].game;
        Ok(game
            .options(component, MOVE_LIMIT)?
            .into_iter()
            .map(|one| one.result.into_iter().map(|result| (*part, result)).collect())
            .collect())
    };
    MisereSearch::new(options, limits.max_positions, control)
}

fn keyed(position: &Position) -> Vec<Keyed> {
    let mut all = Vec::new();
    for (part, each) in position.parts.iter().enumerate() {
        all.extend(each.components.iter().map(|component| (part, component.clone())));
    }
    all
}

/// Who wins `position` under misère play (whoever moves last loses), and how that was decided.
///
/// # Errors
/// A search past `limits.max_positions`, a loopy game, or a family that cannot list its moves.
///
/// ```
/// use grundy::misere::{Limits, sums::outcome};
/// use grundy::registry::parse_sum;
/// use grundy::Outcome;
/// let control = grundy::control::Control::default();
/// let answer = |words: &[&str]| outcome(&parse_sum(words).unwrap(), Limits::default(), &control).unwrap();
/// assert_eq!(answer(&["nim", "1", "1"]).0, Outcome::N);
/// assert_eq!(answer(&["nim", "1", "1", "1"]).0, Outcome::P);
/// assert_eq!(answer(&["nim", "2", "2"]).0.to_string(), "P");
/// assert_eq!(answer(&["nim", "3", "4", "5"]).1.to_string(), "by Bouton's misère rule");
/// ```
pub fn outcome(position: &Position, limits: Limits, control: &Control) -> Result<(Outcome, Method), GameError> {
    if let Some((game, heaps)) = heaps_of(position) {
        if game.is_nim() {
            return Ok((nim::outcome(&heaps), Method::Bouton));
        }
        if let Some(heaps) = small(&heaps) {
            return heap_sum_outcome(&*game, &heaps, limits, control);
        }
    }
    let mut solver = search(position, limits, control);
    let outcome = solver.outcome(&keyed(position))?;
    Ok((outcome, Method::Search { positions: solver.positions() }))
}

/// Every misère winning move of `position` (to a misère P-position), with why, and how the
/// moves were found.
///
/// # Errors
/// As [`outcome`].
pub fn winning_moves(
    position: &Position,
    limits: Limits,
    control: &Control,
) -> Result<(Vec<SumMove>, Method), GameError> {
    let (found, method): (Vec<(usize, usize, Vec<Component>)>, Method) = match heaps_of(position) {
        Some((game, heaps)) if game.is_nim() => {
            let moves = nim::winning_moves(&heaps).into_iter().map(|(index, size)| {
                let result = if size == BigUint::ZERO { Vec::new() } else { vec![Component::new(size)] };
                (0, index, result)
            });
            (moves.collect(), Method::Bouton)
        }
        Some((game, heaps)) if small(&heaps).is_some() => {
            let (moves, method) = heap_sum_winning_moves(&*game, &small(&heaps).expect("checked"), limits, control)?;
            let moves = moves.into_iter().map(|(index, parts)| {
                (0, index, parts.into_iter().map(|heap| Component::new(BigUint::from(heap))).collect())
            });
            (moves.collect(), method)
        }
        _ => {
            let all = keyed(position);
            let mut solver = search(position, limits, control);
            let moves = solver.winning_moves(&all)?;
            // The flat index back to (part, component within the part).
            let place = |index: usize| {
                let (part, _) = &all[index];
                (*part, index - all.iter().position(|(other, _)| other == part).expect("its part"))
            };
            let moves = moves.into_iter().map(|one| {
                let (part, component) = place(one.component);
                (part, component, one.replacement.into_iter().map(|(_, result)| result).collect())
            });
            (moves.collect(), Method::Search { positions: solver.positions() })
        }
    };
    let mut moves = Vec::new();
    for (part, component, result) in found {
        let game = &position.parts[part].game;
        let from = &position.parts[part].components[component];
        // The move's words from the family: the option with this result (a heap taken to 0
        // may be kept as a 0 or dropped; both are the same position).
        let nonzero = |list: &[Component]| -> Vec<Component> {
            list.iter().filter(|component| **component != Component::new(BigUint::ZERO)).cloned().collect()
        };
        let option =
            game.options(from, MOVE_LIMIT)?.into_iter().find(|option| nonzero(&option.result) == nonzero(&result));
        let (notation, result) = match option {
            Some(option) => (option.notation + &option.detail, option.result),
            None => (format!("{} -> ?", game.format_component(from)), result),
        };
        let explain = format!("{}: {notation}; leaves a misère P-position ({method})", position.label(part, component));
        moves.push(SumMove { part, component, result, notation, explain });
    }
    Ok((moves, method))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::parse_sum;
    use proptest::prelude::*;

    /// Misère outcome by the definition, on sums of the model (memoized by the position's
    /// text only; no sorting, no reduction).
    fn plain(position: &Position) -> Outcome {
        fn solve(position: &Position, memo: &mut std::collections::HashMap<String, Outcome>) -> Outcome {
            let key = position.to_text();
            if let Some(&known) = memo.get(&key) {
                return known;
            }
            let options = position.options(MOVE_LIMIT).unwrap();
            let outcome =
                if options.is_empty() || options.iter().any(|one| solve(&position.after(one), memo) == Outcome::P) {
                    Outcome::N
                } else {
                    Outcome::P
                };
            memo.insert(key, outcome);
            outcome
        }
        solve(position, &mut std::collections::HashMap::new())
    }

    #[test]
    fn must_show_nim() {
        let answer =
            |words: &[&str]| outcome(&parse_sum(words).unwrap(), Limits::default(), &Control::default()).unwrap().0;
        assert_eq!(answer(&["nim", "1", "1"]), Outcome::N);
        assert_eq!(answer(&["nim", "1", "1", "1"]), Outcome::P);
        assert_eq!(answer(&["nim", "2", "2"]), Outcome::P);
        assert_eq!(answer(&["nim", "3", "4", "5"]), Outcome::N);
        let position = parse_sum(&["nim", "2", "2", "1"]).unwrap();
        let (moves, _) = winning_moves(&position, Limits::default(), &Control::default()).unwrap();
        let mut expected: Vec<String> = position
            .options(100)
            .unwrap()
            .iter()
            .filter(|one| plain(&position.after(one)) == Outcome::P)
            .map(|one| position.after(one).to_text())
            .collect();
        let mut found: Vec<String> = moves.iter().map(|one| position.after(one).to_text()).collect();
        expected.sort();
        found.sort();
        assert_eq!(found, expected);
        assert!(!found.is_empty());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(150))]

        /// Random sums of heap games, coins, Wythoff pairs and mixed sums: the outcome and the
        /// winning moves agree with the definition.
        #[test]
        fn misere_sums_agree_with_the_definition(pick in 0usize..8, heaps in proptest::collection::vec(0u32..6, 0..4)) {
            let game = ["nim", "kayles", "dawson", "octal:0.75", "octal:0.137", "sub:1,3,4", "grundys-game", "coins:mock-turtles"][pick];
            let mut words = vec![game.to_owned()];
            // A sum of different games is decided by search, and the definition's solver here
            // memoizes by text without sorting: its positions multiply with every heap's size
            // (mock turtles 6 6 6 + wythoff 2,2 took 104 s, 4 4 4 + wythoff 2,2 takes 0.04 s).
            // Heaps below 4 there, so that every draw takes well under a second.
            let mixed = heaps.len() == 3;
            let heaps: Vec<u32> = if mixed { heaps.iter().map(|heap| heap % 4).collect() } else { heaps };
            words.extend(heaps.iter().map(|heap| if pick == 7 { (heap + 1).to_string() } else { heap.to_string() }));
            if mixed {
                words.extend(["+".to_owned(), "wythoff".to_owned(), format!("{},{}", heaps[0] % 3, heaps[1] % 3)]);
            }
            let words: Vec<&str> = words.iter().map(String::as_str).collect();
            let position = parse_sum(&words).unwrap();
            let expected = plain(&position);
            prop_assert_eq!(outcome(&position, Limits::default(), &Control::default()).unwrap().0, expected, "{}", position.to_text());
            let (moves, _) = winning_moves(&position, Limits::default(), &Control::default()).unwrap();
            // A position with no move is a misère win with no winning move to list.
            if !position.options(MOVE_LIMIT).unwrap().is_empty() {
                prop_assert_eq!(moves.is_empty(), expected == Outcome::P);
            }
            for one in &moves {
                prop_assert_eq!(plain(&position.after(one)), Outcome::P);
            }
        }
    }
}
