//! Playing against a perfect opponent: reading a person's move, and choosing the engine's.
//!
//! The engine moves to a P-position whenever one is reachable (every such move wins; the
//! [`Chooser`] picks among them by its seed). From a P-position every move loses against
//! perfect play, so it makes the game long and hard instead: it picks the move whose result
//! leaves the opponent the most moves, hoping for a mistake.

use crate::error::GameError;
use crate::random::SplitMix64;
use crate::sum::{Position, SumMove};
use crate::value::{Outcome, Value};

/// The most moves a position may have for play to list them all.
pub const MOVE_LIMIT: usize = 1_000_000;

/// The engine's reply and why it chose it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineMove {
    /// The move.
    pub chosen: SumMove,
    /// One line: why this move (`value was 2; heap 1: 3 -> 1 makes the nim-sum 0`).
    pub reason: String,
}

/// A small deterministic random choice ([`SplitMix64`]), so that `--seed N` repeats a game.
#[derive(Clone, Debug)]
pub struct Chooser {
    random: SplitMix64,
}

impl Chooser {
    /// A chooser seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Chooser { random: SplitMix64::new(seed) }
    }

    /// An index below `len` (`len > 0`).
    pub fn pick(&mut self, len: usize) -> usize {
        (self.random.next_u64() % len as u64) as usize
    }
}

/// How many of the options from a P-position the engine weighs by their replies: enough to
/// play well, few enough that a reply costs about one pass over the options.
const WEIGHED_OPTIONS: usize = 64;

/// The engine's move from `position`, or `None` when it has no move (it lost).
///
/// # Errors
/// When the position's moves cannot be listed (too many, or the family cannot).
///
/// ```
/// use grundy::play::{Chooser, engine_move};
/// use grundy::registry::parse_sum;
/// let position = parse_sum(&["nim", "3", "4", "5"]).unwrap();
/// let reply = engine_move(&position, &mut Chooser::new(1)).unwrap().unwrap();
/// assert_eq!(position.after(&reply.chosen).to_text(), "1 4 5");
/// ```
pub fn engine_move(position: &Position, chooser: &mut Chooser) -> Result<Option<EngineMove>, GameError> {
    let winning = position.winning_moves()?;
    if !winning.is_empty() {
        let chosen = winning[chooser.pick(winning.len())].clone();
        // Some families define only outcomes for large positions (geography): say N then.
        let value = position.value().map_or_else(|_| "N".to_owned(), |value| value.to_string());
        let reason = format!("value was {value}; {}", chosen.explain);
        return Ok(Some(EngineMove { chosen, reason }));
    }
    let moves = position.options(MOVE_LIMIT)?;
    if moves.is_empty() {
        return Ok(None);
    }
    // A draw (loopy games): keep it by moving to another draw; one exists, or this would be P.
    if position.outcome()? == Outcome::D {
        let drawing: Vec<&SumMove> =
            moves.iter().filter(|candidate| position.after(candidate).outcome().ok() == Some(Outcome::D)).collect();
        if !drawing.is_empty() {
            let chosen = drawing[chooser.pick(drawing.len())].clone();
            let value = position.value().map_or_else(|_| "D".to_owned(), |value| value.to_string());
            let reason = format!(
                "value was {value}, a draw: no move wins; {}: {} keeps the draw",
                position.label(chosen.part, chosen.component),
                chosen.notation
            );
            return Ok(Some(EngineMove { chosen, reason }));
        }
    }
    // No winning move: leave the opponent as many moves as possible, among a sample of the
    // options (ties broken by the seed).
    let mut candidates: Vec<usize> = (0..moves.len()).collect();
    if candidates.len() > WEIGHED_OPTIONS {
        for slot in 0..WEIGHED_OPTIONS {
            let pick = slot + chooser.pick(candidates.len() - slot);
            candidates.swap(slot, pick);
        }
        candidates.truncate(WEIGHED_OPTIONS);
    }
    let before = moves.len();
    let mut best: Vec<(usize, usize)> = Vec::new();
    for index in candidates {
        let candidate = &moves[index];
        let part = &position.parts[candidate.part];
        // Replies = every move now, less the moved component's, plus those of what replaced it.
        let count = |component| part.game.options(component, MOVE_LIMIT).map_or(MOVE_LIMIT, |list| list.len());
        let lost = count(&part.components[candidate.component]);
        let gained: usize = candidate.result.iter().map(count).sum();
        let replies = (before - lost.min(before)).saturating_add(gained);
        match best.first() {
            Some(&(_, most)) if replies < most => {}
            Some(&(_, most)) if replies == most => best.push((index, replies)),
            _ => best = vec![(index, replies)],
        }
    }
    let (index, replies) = best[chooser.pick(best.len())];
    let chosen = moves[index].clone();
    let value = position.value().map_or_else(|_| "0".to_owned(), |value| value.to_string());
    let reason = format!(
        "value was {value}: no move wins; {}: {} leaves you the most moves ({replies})",
        position.label(chosen.part, chosen.component),
        chosen.notation
    );
    Ok(Some(EngineMove { chosen, reason }))
}

/// The engine's move under misère play (whoever moves last loses): a move to a misère
/// P-position when there is one, else any move (the seed picks), or `None` with no move (the
/// engine, unable to move, has won).
///
/// # Errors
/// As [`crate::misere::sums::winning_moves`].
///
/// ```
/// use grundy::play::{Chooser, engine_move_misere};
/// use grundy::registry::parse_sum;
/// // Misère Nim 2 2 1: take the single heap, leaving 2 2 (a misère P-position).
/// let position = parse_sum(&["nim", "2", "2", "1"]).unwrap();
/// let control = grundy::control::Control::default();
/// let reply = engine_move_misere(&position, &mut Chooser::new(0), &control).unwrap().unwrap();
/// assert_eq!(position.after(&reply.chosen).to_text(), "2 2 0");
/// ```
pub fn engine_move_misere(
    position: &Position,
    chooser: &mut Chooser,
    control: &crate::control::Control,
) -> Result<Option<EngineMove>, GameError> {
    let limits = crate::misere::Limits::default();
    let (winning, method) = crate::misere::sums::winning_moves(position, limits, control)?;
    if !winning.is_empty() {
        let chosen = winning[chooser.pick(winning.len())].clone();
        let reason = format!("misère; {}", chosen.explain);
        return Ok(Some(EngineMove { chosen, reason }));
    }
    let moves = position.options(MOVE_LIMIT)?;
    if moves.is_empty() {
        return Ok(None);
    }
    let chosen = moves[chooser.pick(moves.len())].clone();
    let reason = format!("misère; no move wins ({method}): {}", chosen.notation);
    Ok(Some(EngineMove { chosen, reason }))
}

/// Why a typed move was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{typed}` {why}")]
pub struct IllegalMove {
    /// What the person typed (quoted for a message).
    pub typed: String,
    /// Why it is no move, with a few legal moves to show the form.
    pub why: String,
}

/// How a typed move names the empty position, the one with no component left (`kayles 1`
/// after `1 -> 0`), whose text is empty: `grundy serve`'s page writes it so in its links.
pub const EMPTY_POSITION: &str = "()";

/// Finds the legal move a person typed: its notation as `moves` prints it (`3 -> 1`, spaces
/// optional), with its component's number first when the notation alone could be a move in
/// two components that differ (`2: 3 -> 1`, components counted from 1 over the whole
/// position, as [`typed_form`] writes it), the whole position it leads to (`1 4 5`;
/// [`EMPTY_POSITION`] for none), or only what follows `->` when no other move ends there (a
/// vertex name in geography).
///
/// # Errors
/// [`IllegalMove`] (inside `Ok(Err(..))`) when nothing matches, or when the notation fits moves
/// in components that differ (the refusal names them); the outer error when the moves cannot
/// be listed.
///
/// ```
/// use grundy::play::find_typed_move;
/// use grundy::registry::parse_sum;
/// let position = parse_sum(&["nim", "3", "4", "5"]).unwrap();
/// let found = find_typed_move(&position, "4->0").unwrap().unwrap();
/// assert_eq!(position.after(&found).to_text(), "3 0 5");
/// assert!(find_typed_move(&position, "4 -> 7").unwrap().is_err());
/// // `3 -> 2` in Nim or in the subtraction game? Said which, then typed with its number.
/// let mixed = parse_sum(&["nim", "3", "+", "sub:1,2", "3"]).unwrap();
/// let refused = find_typed_move(&mixed, "3 -> 2").unwrap().unwrap_err();
/// assert!(refused.to_string().contains("`1: 3 -> 2` or `2: 3 -> 2`"), "{refused}");
/// let found = find_typed_move(&mixed, "2: 3 -> 2").unwrap().unwrap();
/// assert_eq!(mixed.after(&found).to_text(), "nim 3 + sub:1,2 2");
/// ```
pub fn find_typed_move(position: &Position, typed: &str) -> Result<Result<SumMove, IllegalMove>, GameError> {
    let moves = position.options(MOVE_LIMIT)?;
    let slots = component_slots(position);
    let typed_quoted = crate::error::quote(typed);
    let illegal = |examples: String| IllegalMove {
        typed: typed_quoted.clone(),
        why: format!("is not a legal move here; legal moves are written like {examples}"),
    };
    // `K: notation`: the move of that notation in component K.
    if let Some((number, notation)) = typed.split_once(':')
        && let Ok(number) = number.trim().parse::<usize>()
    {
        let wanted = normalize(notation);
        let found = number.checked_sub(1).and_then(|slot| slots.get(slot)).and_then(|&slot| {
            moves.iter().find(|candidate| {
                (candidate.part, candidate.component) == slot && normalize(&candidate.notation) == wanted
            })
        });
        return Ok(found
            .cloned()
            .ok_or_else(|| illegal(format!("{} (component {number} of 1 to {})", examples_of(&moves), slots.len()))));
    }
    let wanted = normalize(typed);
    let by_notation: Vec<&SumMove> =
        moves.iter().filter(|candidate| normalize(&candidate.notation) == wanted).collect();
    if let Some(&first) = by_notation.first() {
        let differing: Vec<&SumMove> =
            by_notation.iter().copied().filter(|other| !same_move_up_to_order(position, first, other)).collect();
        if differing.is_empty() {
            return Ok(Ok(first.clone()));
        }
        let mut numbered: Vec<String> = std::iter::once(first)
            .chain(differing)
            .map(|one| format!("`{}: {}`", slot_number(&slots, one), one.notation))
            .collect();
        numbered.dedup();
        let last = numbered.pop().expect("at least two");
        return Ok(Err(IllegalMove {
            typed: typed_quoted,
            why: format!("is a move in more than one component: type {} or {last}", numbered.join(", ")),
        }));
    }
    let wanted_position = if wanted == EMPTY_POSITION { String::new() } else { wanted.clone() };
    // Last, the destination alone (`b` for the geography move `a -> b`), when only one move
    // has it.
    let by_destination = || {
        let mut matching = moves.iter().filter(|candidate| {
            candidate.notation.rsplit_once("->").is_some_and(|(_, destination)| normalize(destination) == wanted)
        });
        matching.next().filter(|_| matching.next().is_none())
    };
    let found = moves
        .iter()
        .find(|candidate| normalize(&position.after(candidate).to_text()) == wanted_position)
        .or_else(by_destination);
    Ok(found.cloned().ok_or_else(|| illegal(examples_of(&moves))))
}

/// How a person types `one` so that [`find_typed_move`] finds it again: its notation, with
/// its component's number first (`2: 3 -> 1`) when the notation alone fits a move in another
/// component that differs.
///
/// ```
/// use grundy::play::{find_typed_move, typed_form};
/// use grundy::registry::parse_sum;
/// let mixed = parse_sum(&["nim", "3", "+", "sub:1,2", "3"]).unwrap();
/// let moves = mixed.options(100).unwrap();
/// let forms: Vec<String> = moves.iter().map(|one| typed_form(&mixed, one)).collect();
/// assert_eq!(forms, ["1: 3 -> 2", "1: 3 -> 1", "3 -> 0", "2: 3 -> 2", "2: 3 -> 1"]);
/// for (one, form) in moves.iter().zip(&forms) {
///     assert_eq!(&find_typed_move(&mixed, form).unwrap().unwrap(), one);
/// }
/// ```
pub fn typed_form(position: &Position, one: &SumMove) -> String {
    let wanted = normalize(&one.notation);
    let ambiguous = position.options(MOVE_LIMIT).is_ok_and(|moves| {
        moves.iter().any(|other| normalize(&other.notation) == wanted && !same_move_up_to_order(position, one, other))
    });
    if ambiguous {
        format!("{}: {}", slot_number(&component_slots(position), one), one.notation)
    } else {
        one.notation.clone()
    }
}

/// Every component's (part, index within the part), in the order of the position: component
/// K of a typed `K: …` is the K-th.
fn component_slots(position: &Position) -> Vec<(usize, usize)> {
    position
        .parts
        .iter()
        .enumerate()
        .flat_map(|(part, game)| (0..game.components.len()).map(move |component| (part, component)))
        .collect()
}

/// The number (from 1) of the component `one` moves in.
fn slot_number(slots: &[(usize, usize)], one: &SumMove) -> usize {
    slots.iter().position(|&slot| slot == (one.part, one.component)).map_or(0, |index| index + 1)
}

/// Whether two moves lead to the same position but for the order of components: the same
/// move in two equal components of one game.
fn same_move_up_to_order(position: &Position, one: &SumMove, other: &SumMove) -> bool {
    let part = &position.parts[one.part];
    one.part == other.part
        && part.components[one.component] == part.components[other.component]
        && one.result == other.result
}

/// A few legal moves, to show the form.
fn examples_of(moves: &[SumMove]) -> String {
    let shown: Vec<String> = moves.iter().take(3).map(|candidate| format!("`{}`", candidate.notation)).collect();
    if shown.is_empty() { "nothing: there is no move".to_owned() } else { shown.join(", ") + " …" }
}

/// Spaces around `->`, `+` and `,` do not matter; runs of spaces count as one.
fn normalize(text: &str) -> String {
    let spaced = text.replace("->", " -> ").replace('+', " + ").replace(',', " , ");
    spaced.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The value of a position as a hint line: the value (the outcome where only that is known),
/// and one winning move if there is one.
///
/// # Errors
/// As [`Position::winning_moves`].
pub fn hint(position: &Position) -> Result<String, GameError> {
    // The moves the engine would play, found as it finds them: some families know only the
    // outcome of a large position (geography), and the hint needs no more than that.
    let winning = position.winning_moves()?;
    let (known, drawn) = match position.value() {
        Ok(value) => (format!("value {value}"), matches!(value, Value::Infinite { .. })),
        Err(_) => {
            let outcome = position.outcome()?;
            (format!("outcome {outcome}"), outcome == Outcome::D)
        }
    };
    Ok(match winning.first() {
        Some(first) => format!("{known}: you can win, e.g. with `{}` ({})", typed_form(position, first), first.explain),
        None if drawn => format!("{known}: no move wins"),
        None => format!("{known}: a P-position, every move loses against perfect play"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::parse_sum;

    fn nim(heaps: &[&str]) -> Position {
        let mut words = vec!["nim"];
        words.extend_from_slice(heaps);
        parse_sum(&words).unwrap()
    }

    #[test]
    fn a_hint_needs_only_the_outcome_where_the_value_is_out_of_reach() {
        use crate::graph::digraph::Graph;
        use crate::graph::geography::{GeographyGame, grid_edges};
        use crate::ruleset::erase;
        // A 10 × 10 grid: the value needs an exhaustive search past its limit; the winning
        // moves come from the matching rule, as for `moves` and the engine.
        let grid = erase(GeographyGame::new("geography:grid", "grid", Graph::unnamed(100, &grid_edges(10, 10))));
        let corner = Position::parse_single(grid, &["0"]).unwrap();
        assert!(corner.value().is_err());
        let text = hint(&corner).unwrap();
        assert!(text.starts_with("outcome N: you can win, e.g. with `0 -> "), "{text}");
        assert_eq!(
            hint(&nim(&["1", "2", "3"])).unwrap(),
            "value 0: a P-position, every move loses against perfect play"
        );
    }

    #[test]
    fn engine_wins_from_every_small_nim_n_position() {
        let mut chooser = Chooser::new(7);
        for a in 0..5 {
            for b in 0..5 {
                let start = nim(&[&a.to_string(), &b.to_string(), "3"]);
                let reply = engine_move(&start, &mut chooser).unwrap();
                let after = |reply: &EngineMove| start.after(&reply.chosen).value().unwrap().to_string();
                match start.value().unwrap().to_string().as_str() {
                    "0" => assert!(reply.is_none_or(|reply| after(&reply) != "0")),
                    _ => assert_eq!(after(&reply.unwrap()), "0"),
                }
            }
        }
    }

    #[test]
    fn from_a_p_position_the_engine_leaves_the_most_moves() {
        let start = nim(&["1", "2", "3"]);
        let reply = engine_move(&start, &mut Chooser::new(0)).unwrap().unwrap();
        // Taking one counter from a heap leaves 5 moves; that is the most possible here.
        assert_eq!(start.after(&reply.chosen).options(100).unwrap().len(), 5, "{reply:?}");
        assert!(reply.reason.contains("no move wins"));
    }

    #[test]
    fn typed_moves_match_notation_or_position() {
        let start = parse_sum(&["sub:2,5", "2", "4", "7"]).unwrap();
        let to = |typed: &str| start.after(&find_typed_move(&start, typed).unwrap().unwrap()).to_text();
        assert_eq!(to("7 -> 2"), "2 4 2");
        assert_eq!(find_typed_move(&start, "2 4 2").unwrap().unwrap().component, 2);
        // `0` alone: only the move from the heap of 2 ends there.
        assert_eq!(to("0"), "0 4 7");
        // `2` alone could be 4 -> 2 or 7 -> 2: refused as ambiguous.
        assert!(find_typed_move(&start, "2").unwrap().is_err());
        let refused = find_typed_move(&start, "7 -> 6").unwrap().unwrap_err();
        assert!(refused.to_string().contains("`2 -> 0`"), "{refused}");
        // The empty position by its name: Kayles' last pin taken.
        let last = parse_sum(&["kayles", "2"]).unwrap();
        let found = find_typed_move(&last, EMPTY_POSITION).unwrap().unwrap();
        assert_eq!((found.notation.as_str(), last.after(&found).component_count()), ("2 -> 0", 0));
        // Nim's heaps stay (as 0): no move of Nim leads to the empty position.
        assert!(find_typed_move(&parse_sum(&["nim", "2"]).unwrap(), EMPTY_POSITION).unwrap().is_err());
    }

    #[test]
    fn a_sum_of_different_games_is_played_as_one() {
        let start = parse_sum(&["nim", "3", "+", "wythoff", "4,7"]).unwrap();
        let reply = engine_move(&start, &mut Chooser::new(3)).unwrap().unwrap();
        assert_eq!(start.after(&reply.chosen).value().unwrap().to_string(), "0");
    }
}
