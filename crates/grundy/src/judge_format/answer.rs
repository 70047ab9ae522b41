//! What a judge expects for each test: words for the winner (spaces allowed, quoted), the
//! Grundy value, the number of winning first moves, or the least winning move in the
//! problem's own words; and the `Case {i}: ` prefix some problems put before each answer.
//!
//! ```text
//! answer Yes No                     # the word when the player to move wins, then when they lose
//! answer "Stan wins" "Ollie wins"   # words with spaces, quoted (HDU 1525)
//! answer first second draw          # a third word for a draw (a loopy game)
//! answer value                      # the Grundy (SG) value
//! answer count                      # how many winning first moves (HDU 1850)
//! answer move "{take} {index}\n{after}" lose
//!                                   # the least winning move, or the word when there is none
//! case "Case {i}: "                 # before each answer: the test's number from 1 (HDU 2486)
//! ```
//!
//! A move's holes: `{index}` the component moved, from 1 (`{index0}` from 0); `{from}` that
//! component before the move; `{to}` what replaces it (components separated by spaces, `0` for
//! a heap taken away entirely); `{take}` how many counters the move takes (`from` less the sum
//! of `to`, for components that are numbers); `{after}` every component after the move, in
//! place (`0` where a heap was taken away). The *least* winning move is the one in the
//! component of least index, and within it the one that takes the fewest counters (Luogu
//! P1247: least heap, then least count), else the first grundy lists.

use super::{FormatError, fail};
use crate::error::{GameError, quote};
use crate::sum::{Position, SumMove};
use crate::value::Outcome;
use num_bigint::BigUint;
use std::cmp::Ordering;

/// What the judge expects for each test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A word when the player to move wins, another when they lose (and, in a loopy game, one
    /// for a draw).
    Words {
        /// The player to move wins (an N-position).
        win: String,
        /// The player to move loses (a P-position).
        lose: String,
        /// Neither can force a win (a D-position), when the format names a word for it.
        draw: Option<String>,
    },
    /// The Grundy value, as a number.
    Value,
    /// How many winning first moves the position has (0 for a P-position).
    Count,
    /// The least winning move, written by `template`; `lose` when there is none.
    Move {
        /// The move's words, with holes (see the module's documentation).
        template: MoveTemplate,
        /// The word for a position with no winning move.
        lose: String,
    },
}

/// The holes a move's template may name.
const MOVE_HOLES: &[&str] = &["index", "index0", "from", "to", "take", "after"];

/// How a winning move is written: literal text and holes (`{take} {index}`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveTemplate {
    text: String,
}

/// The words of a directive's rest: bare words split at spaces, or `"quoted words"` with `\n`,
/// `\"` and `\\` inside; with whether each was quoted.
pub(super) fn quoted_words(rest: &str, at: &str) -> Result<Vec<(String, bool)>, FormatError> {
    let mut words = Vec::new();
    let mut chars = rest.chars().peekable();
    while let Some(&next) = chars.peek() {
        if next.is_whitespace() {
            chars.next();
            continue;
        }
        if next != '"' {
            let mut word = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                if c == '"' {
                    return fail(format!("{at}: `\"` inside the word `{}`: quote the whole word", quote(&word)));
                }
                word.push(c);
                chars.next();
            }
            words.push((word, false));
            continue;
        }
        chars.next();
        let mut word = String::new();
        loop {
            match chars.next() {
                None => return fail(format!("{at}: a quoted word without its closing `\"`")),
                Some('"') => break,
                Some('\\') => match chars.next() {
                    Some('n') => word.push('\n'),
                    Some('"') => word.push('"'),
                    Some('\\') => word.push('\\'),
                    other => {
                        return fail(format!(
                            "{at}: `\\{}` in a quoted word: write `\\n`, `\\\"` or `\\\\`",
                            other.map(String::from).unwrap_or_default()
                        ));
                    }
                },
                Some(c) => word.push(c),
            }
        }
        if word.trim().is_empty() {
            return fail(format!("{at}: an empty quoted word: a judge cannot compare an answer of nothing"));
        }
        words.push((word, true));
    }
    Ok(words)
}

/// The holes of a template's text, checked against `allowed`.
pub(super) fn template_holes(text: &str, allowed: &[&str], at: &str) -> Result<Vec<String>, FormatError> {
    let mut holes = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        let Some(length) = rest[start..].find('}') else {
            return fail(format!("{at}: `{{` without `}}` in `{}`", quote(text)));
        };
        let name = &rest[start + 1..start + length];
        if !allowed.contains(&name) {
            return fail(format!(
                "{at}: `{{{}}}` is not a hole here (the holes are {})",
                quote(name),
                allowed.iter().map(|hole| format!("{{{hole}}}")).collect::<Vec<_>>().join(", ")
            ));
        }
        holes.push(name.to_owned());
        rest = &rest[start + length + 1..];
    }
    if rest.contains('}') {
        return fail(format!("{at}: `}}` without `{{` in `{}`", quote(text)));
    }
    Ok(holes)
}

/// `text` with each `{name}` replaced by `fill(name)` (the holes were checked when parsed).
pub(super) fn fill_holes(text: &str, fill: impl Fn(&str) -> String) -> String {
    let mut filled = String::new();
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        let length = rest[start..].find('}').unwrap_or(rest.len() - start);
        filled.push_str(&rest[..start]);
        filled.push_str(&fill(&rest[start + 1..(start + length).min(rest.len())]));
        rest = rest.get(start + length + 1..).unwrap_or_default();
    }
    filled.push_str(rest);
    filled
}

impl Answer {
    /// Reads an `answer` directive's rest.
    pub(super) fn parse(rest: &str, at: &str) -> Result<Answer, FormatError> {
        let words = quoted_words(rest, at)?;
        let bare =
            |index: usize, keyword: &str| words.get(index).is_some_and(|(word, quoted)| !quoted && word == keyword);
        let texts: Vec<&str> = words.iter().map(|(word, _)| word.as_str()).collect();
        if bare(0, "value") && words.len() == 1 {
            return Ok(Answer::Value);
        }
        if bare(0, "count") && words.len() == 1 {
            return Ok(Answer::Count);
        }
        if bare(0, "move") {
            let [_, template, lose] = texts.as_slice() else {
                return fail(format!(
                    "{at}: `answer {}`: expected `answer move \"TEMPLATE\" LOSE` (`answer move \"{{take}} {{index}}\" lose`)",
                    quote(rest)
                ));
            };
            template_holes(template, MOVE_HOLES, at)?;
            return Ok(Answer::Move {
                template: MoveTemplate { text: (*template).to_owned() },
                lose: (*lose).to_owned(),
            });
        }
        match texts.as_slice() {
            [win, lose] if win != lose => {
                Ok(Answer::Words { win: (*win).to_owned(), lose: (*lose).to_owned(), draw: None })
            }
            [win, lose, draw] if win != lose && win != draw && lose != draw => {
                Ok(Answer::Words { win: (*win).to_owned(), lose: (*lose).to_owned(), draw: Some((*draw).to_owned()) })
            }
            _ => fail(format!(
                "{at}: `answer {}`: expected two different words (the first when the player to move wins: `answer Yes No`; \
                 quote words with spaces: `answer \"Stan wins\" \"Ollie wins\"`; a third for a draw), `answer value`, \
                 `answer count` or `answer move \"TEMPLATE\" LOSE`",
                quote(rest)
            )),
        }
    }

    /// Whether every answer is one word with no space (the answers of a file are then its
    /// words, one a test).
    pub fn is_one_word(&self) -> bool {
        let plain = |word: &str| !word.chars().any(char::is_whitespace);
        match self {
            Answer::Words { win, lose, draw } => plain(win) && plain(lose) && draw.as_deref().is_none_or(plain),
            Answer::Value | Answer::Count => true,
            Answer::Move { .. } => false,
        }
    }

    /// What the answer is, for a message: `` `Yes` or `No` ``, `the Grundy value`.
    pub fn describe(&self) -> String {
        match self {
            Answer::Words { win, lose, draw: None } => format!("`{win}` or `{lose}`"),
            Answer::Words { win, lose, draw: Some(draw) } => format!("`{win}`, `{lose}` or `{draw}`"),
            Answer::Value => "the Grundy value".to_owned(),
            Answer::Count => "the number of winning first moves".to_owned(),
            Answer::Move { template, lose } => format!("the least winning move as `{}`, or `{lose}`", template.text),
        }
    }

    /// The word for an outcome, for a format answering words (`None` for a draw without a
    /// draw word).
    pub fn word(&self, outcome: Outcome) -> Option<&str> {
        match (self, outcome) {
            (Answer::Words { win, .. }, Outcome::N) => Some(win),
            (Answer::Words { lose, .. }, Outcome::P) => Some(lose),
            (Answer::Words { draw, .. }, Outcome::D) => draw.as_deref(),
            _ => None,
        }
    }

    /// The judge's answer to `position` in normal play, with its outcome.
    ///
    /// # Errors
    /// A value out of reach, or a draw the format has no word for.
    pub fn of_position(&self, position: &Position) -> Result<(Outcome, String), GameError> {
        match self {
            Answer::Words { .. } => {
                let outcome = single_outcome(position)?;
                Ok((outcome, self.words_for(outcome)?))
            }
            Answer::Value => {
                let value = position.value()?;
                Ok((value.outcome(), value.to_string()))
            }
            Answer::Count => {
                let mut count = 0u64;
                position.for_each_winning_move(|_| {
                    count += 1;
                    Ok::<(), GameError>(())
                })?;
                let outcome = if count > 0 { Outcome::N } else { single_outcome(position)? };
                Ok((outcome, count.to_string()))
            }
            Answer::Move { template, lose } => match least_winning_move(position)? {
                Some(one) => Ok((Outcome::N, template.write(position, &one))),
                None => {
                    let outcome = single_outcome(position)?;
                    if outcome == Outcome::D {
                        return Err(GameError::Unsupported(
                            "a draw (D): the format's move answer has no word for it".to_owned(),
                        ));
                    }
                    Ok((outcome, lose.clone()))
                }
            },
        }
    }

    /// The word for `outcome` (the lose word of a move answer for P).
    ///
    /// # Errors
    /// An outcome the format has no word for (a draw).
    pub fn words_for(&self, outcome: Outcome) -> Result<String, GameError> {
        if let (Answer::Move { lose, .. }, Outcome::P) = (self, outcome) {
            return Ok(lose.clone());
        }
        self.word(outcome).map(str::to_owned).ok_or_else(|| {
            GameError::Unsupported(format!("{outcome}: the format's answer ({}) has no word for it", self.describe()))
        })
    }
}

/// The outcome of a position: a lone component's own (a closed form where the family has
/// one), else the sum's.
pub(super) fn single_outcome(position: &Position) -> Result<Outcome, GameError> {
    if let [part] = position.parts.as_slice()
        && let [component] = part.components.as_slice()
    {
        return part.game.outcome(component);
    }
    position.outcome()
}

/// A component's text as a number, if it is one.
fn number(text: &str) -> Option<BigUint> {
    text.parse().ok()
}

/// The index of the component a move is in, from 0, across every part.
fn flat_index(position: &Position, one: &SumMove) -> usize {
    position.parts[..one.part].iter().map(|part| part.components.len()).sum::<usize>() + one.component
}

/// How many counters `one` takes: what the component loses when it and what replaces it are
/// numbers (heaps), else the count its family names in the move's words (`(take 3; …)` of a
/// dynamic subtraction heap `16 -> 13,6`, `(take 6 from the second heap)` of a Wythoff pair).
fn taken(position: &Position, one: &SumMove) -> Option<BigUint> {
    let game = &position.parts[one.part].game;
    let heaps = || -> Option<BigUint> {
        let from = number(&game.format_component(&position.parts[one.part].components[one.component]))?;
        let mut left = BigUint::ZERO;
        for component in &one.result {
            left += number(&game.format_component(component))?;
        }
        (from >= left).then(|| from - left)
    };
    heaps().or_else(|| {
        let words = one.explain.split_once("(take ")?.1;
        let words = words.strip_prefix("all ").unwrap_or(words);
        number(&words.chars().take_while(char::is_ascii_digit).collect::<String>())
    })
}

/// The least winning move (see the module's documentation), or `None` when there is none.
///
/// # Errors
/// A value out of reach where the moves depend on it.
pub fn least_winning_move(position: &Position) -> Result<Option<SumMove>, GameError> {
    let mut best: Option<(usize, Option<BigUint>, SumMove)> = None;
    position.for_each_winning_move(|one| {
        let key = (flat_index(position, &one), taken(position, &one));
        let better = match &best {
            None => true,
            Some((index, take, _)) => match key.0.cmp(index) {
                Ordering::Less => true,
                Ordering::Greater => false,
                Ordering::Equal => matches!((&key.1, take), (Some(new), Some(old)) if new < old),
            },
        };
        if better {
            best = Some((key.0, key.1, one));
        }
        Ok::<(), GameError>(())
    })?;
    Ok(best.map(|(_, _, one)| one))
}

impl MoveTemplate {
    /// The template as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The move `one` of `position` in the template's words.
    pub fn write(&self, position: &Position, one: &SumMove) -> String {
        let game = &position.parts[one.part].game;
        let written = |components: &[crate::position::Component]| -> String {
            if components.is_empty() {
                "0".to_owned()
            } else {
                components.iter().map(|component| game.format_component(component)).collect::<Vec<_>>().join(" ")
            }
        };
        let index = flat_index(position, one);
        fill_holes(&self.text, |hole| match hole {
            "index" => (index + 1).to_string(),
            "index0" => index.to_string(),
            "from" => game.format_component(&position.parts[one.part].components[one.component]),
            "to" => written(&one.result),
            "take" => taken(position, one).map_or_else(|| one.notation.clone(), |take| take.to_string()),
            "after" => {
                let mut words = Vec::new();
                for (part_index, part) in position.parts.iter().enumerate() {
                    for (component_index, component) in part.components.iter().enumerate() {
                        if (part_index, component_index) == (one.part, one.component) {
                            words.push(written(&one.result));
                        } else {
                            words.push(part.game.format_component(component));
                        }
                    }
                }
                words.join(" ")
            }
            _ => String::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::parse_game;

    fn nim(heaps: &[&str]) -> Position {
        Position::parse_single(parse_game("nim").unwrap(), heaps).unwrap()
    }

    #[test]
    fn answers_parse_with_quotes_and_keywords() {
        let at = "format line 1";
        assert_eq!(
            Answer::parse("\"Stan wins\" \"Ollie wins\"", at).unwrap(),
            Answer::Words { win: "Stan wins".into(), lose: "Ollie wins".into(), draw: None }
        );
        assert_eq!(Answer::parse("count", at).unwrap(), Answer::Count);
        assert_eq!(Answer::parse("\"value\" \"count\"", at).unwrap().word(Outcome::N), Some("value"));
        assert!(Answer::parse("Yes \"No", at).unwrap_err().0.contains("closing"));
        assert!(Answer::parse("move \"{heap}\" lose", at).unwrap_err().0.contains("not a hole here"));
        assert!(Answer::parse("a a", at).is_err() && Answer::parse("", at).is_err());
        assert!(!Answer::parse("\"I WIN!\" \"What a pity!\"", at).unwrap().is_one_word());
    }

    #[test]
    fn the_least_winning_move_of_nim_is_luogu_p1247s() {
        // Luogu P1247's sample: heaps 2 1 3 ... nim-sum 0 is `lose`; 3 6 9: nim-sum 12.
        let answer = Answer::parse("move \"{take} {index}\\n{after}\" lose", "format line 1").unwrap();
        assert_eq!(answer.of_position(&nim(&["2", "1", "3"])).unwrap().1, "lose");
        // 3 ^ 6 ^ 9 = 12: heap 1 (3) cannot go lower to 3 ^ 12 = 15; heap 2: 6 -> 10 no; heap 3: 9 -> 5.
        assert_eq!(answer.of_position(&nim(&["3", "6", "9"])).unwrap().1, "4 3\n3 6 5");
        // A heap emptied is written 0.
        assert_eq!(answer.of_position(&nim(&["0", "7"])).unwrap().1, "7 2\n0 0");
        // HDU 1850's sample: 5 7 9 has one winning move; 7 5 3 (nim-sum 1) three.
        assert_eq!(Answer::Count.of_position(&nim(&["5", "7", "9"])).unwrap().1, "1");
        assert_eq!(Answer::Count.of_position(&nim(&["7", "5", "3"])).unwrap().1, "3");
        assert_eq!(Answer::Count.of_position(&nim(&["1", "1"])).unwrap(), (Outcome::P, "0".to_owned()));
    }
}
