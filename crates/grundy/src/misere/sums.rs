//! Misère play on any position of the game model: a sum of heaps of one heap game by the
//! fastest rule that applies (Bouton, genus, quotient; see [`super::heap_sum_outcome`]), any
//! other sum — script games, other families, sums of different games — by Conway's genus when
//! every component reachable from the sum is tame ([`super::tame`], within the search's
//! budget), otherwise by exhaustive search over sums stored with their components sorted
//! ([`super::search`]).

use super::search::MisereSearch;
use super::tame::TameSearch;
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

/// The genus search over the components reachable from `position`, at most
/// `limits.max_positions` options looked at.
fn tame<'p>(
    position: &'p Position,
    limits: Limits,
    control: &Control,
) -> TameSearch<Keyed, impl FnMut(&Keyed) -> KeyedOptions + 'p> {
    let options = move |(part, component): &Keyed| -> KeyedOptions {
        let game = &position.parts[*part].game;
        Ok(game
            .options(component, MOVE_LIMIT)?
            .into_iter()
            .map(|one| one.result.into_iter().map(|result| (*part, result)).collect())
            .collect())
    };
    TameSearch::new(options, limits.max_positions, control)
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
    let all = keyed(position);
    if let Ok(outcome) = tame(position, limits, control).outcome(&all)? {
        return Ok((outcome, Method::Genus));
    }
    let mut solver = search(position, limits, control);
    let outcome = solver.outcome(&all)?;
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
    let (found, method): (Vec<FoundMove>, Method) = match heaps_of(position) {
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
        _ => match tame_winning_moves(position, limits, control)? {
            Some(moves) => (moves, Method::Genus),
            None => {
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
        },
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

/// A move found: the part, the component within the part, the components it becomes.
type FoundMove = (usize, usize, Vec<Component>);

/// The misère winning moves of `position` when every component reachable from it is tame
/// (`(part, component within the part, the components it becomes)`), else `None`: a move wins
/// iff the sum it leaves is a misère P-position by Bouton's rule read on the genera.
fn tame_winning_moves(
    position: &Position,
    limits: Limits,
    control: &Control,
) -> Result<Option<Vec<FoundMove>>, GameError> {
    use super::tame::TameGenus;
    let all = keyed(position);
    let mut search = tame(position, limits, control);
    let Ok(whole) = search.sum_genus(&all)? else { return Ok(None) };
    let mut found = Vec::new();
    let mut index = 0;
    for (part, each) in position.parts.iter().enumerate() {
        for (place, component) in each.components.iter().enumerate() {
            let own = search.known(&all[index]).expect("every component of the sum is known");
            // The sum without this component (the others small iff no large one is left).
            let others_small = all
                .iter()
                .enumerate()
                .all(|(other, keyed)| other == index || search.known(keyed).expect("known").small);
            let rest = TameGenus { normal: whole.normal ^ own.normal, small: others_small };
            for option in each.game.options(component, MOVE_LIMIT)? {
                let keyed_parts: Vec<Keyed> = option.result.iter().map(|result| (part, result.clone())).collect();
                // Every option of a tame component is made of tame components already known.
                let parts: Option<Vec<TameGenus>> = keyed_parts.iter().map(|keyed| search.known(keyed)).collect();
                let Some(parts) = parts else { return Ok(None) };
                if TameGenus::of_sum(parts.into_iter().chain([rest])).outcome() == Outcome::P {
                    found.push((part, place, option.result));
                }
            }
            index += 1;
        }
    }
    Ok(Some(found))
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

    /// Script games (heaps that split, tuples, a loopy one), alone and summed with built-in
    /// games: the outcome and the winning moves, by whatever method answers, agree with
    /// exhaustive misère search of the whole sum; tame sums are answered by the genus.
    #[cfg(feature = "script")]
    mod scripts {
        use super::*;
        use crate::script::{LocalScript, ScriptFamily, ScriptLimits};
        use crate::sum::Part;

        const SCRIPTS: [&str; 4] = [
            // Kayles written as a script: wild, so its sums are searched.
            "def moves(n):\n    return [Sum(a, n - k - a) for k in [1, 2] for a in range(n - k + 1)]\n",
            // Take 1 or 2 (tame: misère play as Nim's).
            "def moves(n):\n    return [n - k for k in [1, 2] if k <= n]\n",
            // Pairs: take 1 or 2 from the first, 1 or 3 from the second, or split off a heap of 1.
            "def moves(p):\n    a, b = p\n    out = [(a - k, b) for k in [1, 2] if k <= a] + [(a, b - k) for k in [1, 3] if k <= b]\n    if a >= 2 and b % 2 == 1:\n        out.append(Sum((a - 2, b), (0, 1)))\n    return out\n",
            // HDU 1729's boxes (capacity, stones): add at most the square of the stones held.
            "def moves(p):\n    s, c = p\n    return [(s, c + k) for k in range(1, min(c * c, s - c) + 1)]\n",
        ];

        fn script(index: usize) -> Arc<dyn crate::ruleset::Ruleset> {
            let backend = LocalScript::load("t.star", SCRIPTS[index], ScriptLimits::default(), None).unwrap();
            ScriptFamily::erased("script:t.star", Box::new(backend))
        }

        fn make(index: usize, texts: &[String], extra: Option<&[&str]>) -> Position {
            let game = script(index);
            let components = texts.iter().map(|text| game.parse_component(text).unwrap()).collect();
            let mut position = Position { parts: vec![Part { game, components }] };
            if let Some(words) = extra {
                position.parts.extend(parse_sum(words).unwrap().parts);
            }
            position
        }

        /// Exhaustive misère search of the whole sum, no genus.
        fn searched(position: &Position) -> (Outcome, Vec<String>) {
            let mut solver = search(position, Limits::default(), &Control::default());
            let all = keyed(position);
            let outcome = solver.outcome(&all).unwrap();
            let mut moves: Vec<String> = solver
                .winning_moves(&all)
                .unwrap()
                .into_iter()
                .map(|one| {
                    let mut after: Vec<Keyed> = all.clone();
                    after.remove(one.component);
                    after.extend(one.replacement);
                    let mut texts: Vec<String> = after
                        .iter()
                        .map(|(part, component)| position.parts[*part].game.format_component(component))
                        .filter(|text| text != "0")
                        .collect();
                    texts.sort();
                    texts.join(" ")
                })
                .collect();
            moves.sort();
            moves.dedup();
            (outcome, moves)
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(120))]
            #[test]
            fn script_sums_agree_with_exhaustive_search(pick in 0usize..4, numbers in proptest::collection::vec((0u32..9, 0u32..9), 0..4), mixed in any::<bool>()) {
                let texts: Vec<String> = numbers.iter().map(|&(a, b)| match pick {
                    0 | 1 => a.to_string(),
                    2 => format!("{},{}", a % 6, b % 6),
                    _ => format!("{},{}", 6 + b, a % 4),
                }).collect();
                let extra: &[&str] = &["nim", "2", "+", "wythoff", "1,1"];
                let position = make(pick, &texts, mixed.then_some(extra));
                let (expected, expected_moves) = searched(&position);
                let (found, method) = outcome(&position, Limits::default(), &Control::default()).unwrap();
                prop_assert_eq!(found, expected, "{} ({})", position.to_text(), method);
                let (moves, _) = winning_moves(&position, Limits::default(), &Control::default()).unwrap();
                let mut after: Vec<String> = moves.iter().map(|one| {
                    let next = position.after(one);
                    let mut texts: Vec<String> = next.parts.iter().flat_map(|part| part.components.iter().map(|component| part.game.format_component(component))).filter(|text| text != "0").collect();
                    texts.sort();
                    texts.join(" ")
                }).collect();
                after.sort();
                after.dedup();
                prop_assert_eq!(after, expected_moves, "{}", position.to_text());
            }
        }

        /// Sums too large for the search (heaps of take-1-or-2 past two million sums, and
        /// HDU 1729's boxes) are decided by the genus, every component tame.
        #[test]
        fn large_tame_sums_are_decided_by_the_genus() {
            let texts: Vec<String> = (0..24).map(|heap| (heap + 3).to_string()).collect();
            let position = make(1, &texts, None);
            let (found, method) = outcome(&position, Limits::default(), &Control::default()).unwrap();
            assert_eq!(method, Method::Genus);
            let normal = (3..27u64).fold(0, |sum, heap| sum ^ (heap % 3));
            assert_eq!(found, if normal == 0 { Outcome::P } else { Outcome::N });
            let boxes: Vec<String> = ["40,3", "35,5", "50,1", "30,6", "44,2", "60,7"].map(str::to_owned).to_vec();
            let position = make(3, &boxes, None);
            assert_eq!(outcome(&position, Limits::default(), &Control::default()).unwrap().1, Method::Genus);
        }
    }
}
