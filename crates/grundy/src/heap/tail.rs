//! Take-and-break codes with a repeating tail (CGSuite's notation): `octal:4.[3]` is
//! `4.3333…`, the bracketed group repeated forever past the digits written, so `0.1[23]` is
//! `0.1232323…`. Digit `d_k` means what it means in a finite code ([`crate::heap::octal`]), for
//! every `k`: a heap of any size may lose any number of tokens the code allows.
//!
//! Two such codes are games grundy knows by a closed form, and are those games (one
//! definition each): `4.[3]` is Lasker's Nim ([`crate::heap::lasker`]: remove any number, or
//! split without removing) and `0.[3]` is Nim. A code whose group is all 0s is the finite code
//! it starts with. Every other code is computed by the definition (the mex over every option
//! of each heap, [`HeapGame::heap_options`]), since its moves remove unboundedly many tokens
//! and the periodicity theorem of finite codes (Guy and Smith) does not apply: its periods
//! and arithmetic periods are reported as checked on the values computed, never proved.
//!
//! A code is read in one canonical form: the group shortened to its primitive root (`[33]` is
//! `[3]`) and the digits before it that repeat it absorbed (`4.33[3]` is `4.[3]`, `0.1[21]` is
//! `0.[12]`).

use crate::control::Control;
use crate::error::GameError;
use crate::heap::lasker::LaskersNim;
use crate::heap::nim::Nim;
use crate::heap::octal::{CodeBase, MAX_CODE_DIGITS, OctalGame};
use crate::heap::{CompactSequence, Extended, HeapGame, HeapRules, Periodicity, extend_in_chunks};
use crate::nimber::mex;
use crate::ruleset::{Ruleset, erase};
use std::fmt;
use std::sync::Arc;

/// A code `d0.d1…dj[r1…rq]`: the digits written, then the group repeated forever.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TailCode {
    base: CodeBase,
    /// `d0, d1, …, dj` (at least `d0`).
    head: Vec<u8>,
    /// `r1 … rq`, repeated from `d_{j+1}` on (not all 0).
    tail: Vec<u8>,
}

/// What a code with a bracket is: a game grundy knows by name, a finite code, or a code with a
/// repeating tail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsedCode {
    /// `4.[3]`.
    Lasker,
    /// `0.[3]`.
    Nim,
    /// A group of 0s: the finite code written before it (`0.07[0]` is `0.07`).
    Finite(String),
    /// Any other repeating code.
    Repeating(TailCode),
}

impl TailCode {
    /// Reads `text`, a code with `[` (see the module doc), in `base`.
    ///
    /// # Errors
    /// [`GameError::BadGame`] naming the character and its position (from 1) or what is
    /// missing: one line.
    pub fn parse(text: &str, base: CodeBase) -> Result<ParsedCode, GameError> {
        let family = match base {
            CodeBase::Octal => "octal",
            CodeBase::Hexadecimal => "hex",
        };
        let spec = format!("{family}:{text}");
        let bad = |reason: String| GameError::BadGame { spec: spec.clone(), reason };
        let (radix, digit_name) = match base {
            CodeBase::Octal => (8, "an octal digit (0-7)"),
            CodeBase::Hexadecimal => (16, "a hexadecimal digit (0-9, A-F)"),
        };
        let Some(open) = text.find('[') else {
            return Err(bad("a repeating code has its repeated digits in brackets, like 4.[3]".to_owned()));
        };
        let Some(point) = text.find('.') else {
            return Err(bad(format!(
                "the code `{}` has no point: a repeating code is written like 4.[3] or 0.1[23]",
                crate::error::quote(text)
            )));
        };
        if point > open {
            return Err(bad(format!("`[` at position {}: the repeated digits come after the point", open + 1)));
        }
        let mut head = Vec::new();
        let mut tail = Vec::new();
        // 0: before the point, 1: after it, 2: inside the brackets, 3: after `]`.
        let mut part = 0;
        for (index, character) in text.chars().enumerate() {
            let position = index + 1;
            match (character, part) {
                ('.', 0) => {
                    if head.is_empty() {
                        head.push(0);
                    }
                    part = 1;
                }
                ('[', 1) => part = 2,
                (']', 2) => part = 3,
                (_, 3) => {
                    return Err(bad(format!(
                        "`{character}` at position {position}: nothing may follow the repeated digits' `]`"
                    )));
                }
                ('[' | ']' | '.', _) => {
                    return Err(bad(format!(
                        "`{character}` at position {position}: write a repeating code like 0.1[23]"
                    )));
                }
                _ => {
                    let Some(digit) = character.to_digit(radix) else {
                        return Err(bad(format!("`{character}` at position {position} is not {digit_name}")));
                    };
                    let digit = digit as u8;
                    match part {
                        0 if !head.is_empty() => {
                            return Err(bad(format!(
                                "`{character}` at position {position}: only one digit (d0) goes before the point"
                            )));
                        }
                        0 if digit & 3 != 0 => {
                            return Err(bad(format!(
                                "`{character}` at position {position} (d0, removing nothing) may only split a heap: 1 \
                                 or 2 there would take nothing or leave the heap unchanged"
                            )));
                        }
                        2 => tail.push(digit),
                        _ => head.push(digit),
                    }
                }
            }
        }
        if part != 3 {
            return Err(bad("the repeated digits' `[` has no `]`: write it like 4.[3]".to_owned()));
        }
        if tail.is_empty() {
            return Err(bad("no digits between `[` and `]`: write it like 4.[3]".to_owned()));
        }
        if head.len() - 1 + tail.len() > MAX_CODE_DIGITS {
            return Err(bad(format!("more than the {MAX_CODE_DIGITS} digits allowed after the point")));
        }
        if tail.iter().all(|&digit| digit == 0) {
            let digit = |d: &u8| char::from_digit(u32::from(*d), 16).expect("a digit").to_ascii_uppercase();
            let after: String = head[1..].iter().map(digit).collect();
            return Ok(ParsedCode::Finite(format!(
                "{}.{}",
                digit(&head[0]),
                if after.is_empty() { "0" } else { &after }
            )));
        }
        let code = TailCode { base, head, tail }.canonical();
        Ok(match (code.head.as_slice(), code.tail.as_slice()) {
            ([4], [3]) => ParsedCode::Lasker,
            ([0], [3]) => ParsedCode::Nim,
            _ => ParsedCode::Repeating(code),
        })
    }

    /// The group's primitive root, with the written digits that repeat it absorbed.
    fn canonical(mut self) -> TailCode {
        let q = self.tail.len();
        if let Some(root) =
            (1..=q).find(|&root| q.is_multiple_of(root) && (root..q).all(|i| self.tail[i] == self.tail[i - root]))
        {
            self.tail.truncate(root);
        }
        while self.head.len() > 1 && self.head.last() == self.tail.last() {
            self.head.pop();
            self.tail.rotate_right(1);
        }
        self
    }

    /// `d_k`, for every `k`.
    pub fn digit(&self, k: u64) -> u8 {
        let written = self.head.len() as u64;
        if k < written { self.head[k as usize] } else { self.tail[((k - written) % self.tail.len() as u64) as usize] }
    }

    /// The most heaps a move leaves (3 with a hexadecimal 8 anywhere, else 2).
    fn max_parts(&self) -> u32 {
        if self.head.iter().chain(&self.tail).any(|&digit| digit & 8 != 0) { 3 } else { 2 }
    }

    /// The longest nim-sequence grundy computes for the code by the definition (its options
    /// per heap grow with the heap: about `n` removals, and `n²` or `n³` splits when the group
    /// splits).
    pub fn max_sequence_len(&self) -> usize {
        let group_splits = |bit: u8| self.tail.iter().any(|&digit| digit & bit != 0);
        if group_splits(8) {
            400
        } else if group_splits(4) {
            3_000
        } else {
            50_000
        }
    }
}

impl fmt::Display for TailCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digit = |d: u8| char::from_digit(u32::from(d), 16).expect("digits are below 16").to_ascii_uppercase();
        write!(f, "{}.", digit(self.head[0]))?;
        for &d in &self.head[1..] {
            write!(f, "{}", digit(d))?;
        }
        write!(f, "[")?;
        for &d in &self.tail {
            write!(f, "{}", digit(d))?;
        }
        write!(f, "]")
    }
}

/// The game of a repeating code other than `4.[3]` and `0.[3]`, by the definition.
///
/// ```
/// use grundy::heap::HeapGame;
/// use grundy::heap::octal::CodeBase;
/// use grundy::heap::tail::{ParsedCode, TailCode, TailGame};
/// let ParsedCode::Repeating(code) = TailCode::parse("0.[12]", CodeBase::Octal).unwrap() else { panic!() };
/// let game = TailGame::new(code);
/// // 0.1212…: take an odd number of tokens only as the whole heap, an even number only leaving
/// // one heap that is not empty: from 4, only 2 may be taken.
/// assert_eq!(game.heap_options(4), vec![vec![2]]);
/// ```
#[derive(Clone, Debug)]
pub struct TailGame {
    code: TailCode,
}

impl TailGame {
    /// The game of `code`.
    pub fn new(code: TailCode) -> Self {
        TailGame { code }
    }

    fn family(&self) -> &'static str {
        match self.code.base {
            CodeBase::Octal => "octal",
            CodeBase::Hexadecimal => "hex",
        }
    }
}

impl HeapGame for TailGame {
    fn spec(&self) -> String {
        format!("{}:{}", self.family(), self.code)
    }

    /// By the definition, chunk by chunk: `G(n)` the mex over [`HeapGame::for_each_heap_option`].
    fn extend_sequence(&self, values: &mut CompactSequence, len: usize, control: &Control) -> Extended {
        let most = self.code.max_sequence_len();
        if len > most {
            return Err(GameError::Unsupported(format!(
                "{} is computed by the definition (its moves remove any number of tokens, so no kernel or period \
                 theorem applies), up to heap {}: G({}) is past it",
                self.spec(),
                most - 1,
                len - 1
            )));
        }
        extend_in_chunks(&self.spec(), values, len, 256, control, |values, next| {
            let mut reached = Vec::new();
            for heap in values.len()..next {
                reached.clear();
                self.for_each_heap_option(heap as u64, &mut |parts| {
                    reached.push(parts.iter().fold(0u64, |sum, &part| sum ^ u64::from(values[part as usize])));
                });
                values.push(mex(reached.iter().copied()) as u32);
            }
        })
    }

    /// No finite check proves a period of a code whose moves remove unboundedly many tokens.
    fn periodicity(&self) -> Periodicity {
        Periodicity::Unproved
    }

    fn default_max_heap(&self) -> u64 {
        (self.code.max_sequence_len() as u64 - 1).min(2_047)
    }

    fn heap_options(&self, heap: u64) -> Vec<Vec<u64>> {
        let mut options = Vec::new();
        self.for_each_heap_option(heap, &mut |parts| options.push(parts.to_vec()));
        options
    }

    /// By `k`, the tokens removed, from 0: the whole heap (1), one heap left (2), two (4),
    /// three (8), each as a finite code lists them.
    fn for_each_heap_option(&self, heap: u64, visit: &mut dyn FnMut(&[u64])) {
        for k in 0..=heap {
            let digit = self.code.digit(k);
            let rest = heap - k;
            if digit & 1 != 0 && rest == 0 && k > 0 {
                visit(&[]);
            }
            if digit & 2 != 0 && rest > 0 && k > 0 {
                visit(&[rest]);
            }
            if digit & 4 != 0 {
                for small in 1..=rest / 2 {
                    visit(&[small, rest - small]);
                }
            }
            if digit & 8 != 0 {
                for a in 1..=rest / 3 {
                    for b in a..=(rest - a) / 2 {
                        visit(&[a, b, rest - a - b]);
                    }
                }
            }
        }
    }

    fn method(&self) -> String {
        format!(
            "the definition: the mex over every option (a repeating code, splits into up to {} heaps)",
            self.code.max_parts()
        )
    }
}

/// The game of `octal:CODE` or `hex:CODE` for a code with a repeating tail: Lasker's Nim,
/// Nim, a finite code's game, or a [`TailGame`].
///
/// # Errors
/// As [`TailCode::parse`].
pub fn ruleset(code: &str, base: CodeBase, control: &Control) -> Result<Arc<dyn Ruleset>, GameError> {
    Ok(match TailCode::parse(code, base)? {
        ParsedCode::Lasker => erase(HeapRules::new(LaskersNim).with_control(control.clone())),
        ParsedCode::Nim => erase(HeapRules::new(Nim).with_control(control.clone())),
        ParsedCode::Finite(finite) => {
            erase(HeapRules::new(OctalGame::parse(&finite, base)?).with_control(control.clone()))
        }
        ParsedCode::Repeating(tail) => erase(HeapRules::new(TailGame::new(tail)).with_control(control.clone())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::sequence_by_definition;
    use proptest::prelude::*;

    fn repeating(text: &str) -> TailCode {
        match TailCode::parse(text, CodeBase::Octal).unwrap() {
            ParsedCode::Repeating(code) => code,
            other => panic!("{text}: {other:?}"),
        }
    }

    fn sorted(mut options: Vec<Vec<u64>>) -> Vec<Vec<u64>> {
        for option in &mut options {
            option.retain(|&part| part > 0);
            option.sort_unstable();
        }
        options.sort();
        options
    }

    #[test]
    fn named_codes_are_the_named_games() {
        assert_eq!(TailCode::parse("4.[3]", CodeBase::Octal).unwrap(), ParsedCode::Lasker);
        assert_eq!(TailCode::parse("4.33[33]", CodeBase::Octal).unwrap(), ParsedCode::Lasker);
        assert_eq!(TailCode::parse("0.[3]", CodeBase::Octal).unwrap(), ParsedCode::Nim);
        assert_eq!(TailCode::parse(".3[3]", CodeBase::Hexadecimal).unwrap(), ParsedCode::Nim);
        assert_eq!(TailCode::parse("0.07[0]", CodeBase::Octal).unwrap(), ParsedCode::Finite("0.07".to_owned()));
        assert_eq!(TailCode::parse("4.[00]", CodeBase::Octal).unwrap(), ParsedCode::Finite("4.0".to_owned()));
        // The rules of 4.[3] written as a code are Lasker's Nim's, and 0.[3]'s are Nim's.
        let lasker = TailGame::new(TailCode { base: CodeBase::Octal, head: vec![4], tail: vec![3] });
        let nim = TailGame::new(TailCode { base: CodeBase::Octal, head: vec![0], tail: vec![3] });
        for heap in 0..60 {
            assert_eq!(sorted(lasker.heap_options(heap)), sorted(LaskersNim.heap_options(heap)), "heap {heap}");
            assert_eq!(sorted(nim.heap_options(heap)), sorted(Nim.heap_options(heap)), "heap {heap}");
        }
        assert_eq!(sequence_by_definition(&lasker, 200), sequence_by_definition(&LaskersNim, 200));
    }

    #[test]
    fn canonical_form() {
        assert_eq!(repeating("0.1[21]").to_string(), "0.[12]");
        assert_eq!(repeating("0.1[2323]").to_string(), "0.1[23]");
        assert_eq!(repeating("0.77[7]").to_string(), "0.[7]");
        assert_eq!(repeating("4.0[7]").to_string(), "4.0[7]");
        assert_eq!(TailGame::new(repeating("0.1[23]")).spec(), "octal:0.1[23]");
        // Digits beyond the written ones repeat the group.
        let code = repeating("0.1[23]");
        assert_eq!((1..8).map(|k| code.digit(k)).collect::<Vec<_>>(), [1, 2, 3, 2, 3, 2, 3]);
    }

    #[test]
    fn bad_codes_are_one_line_naming_the_place() {
        for (text, needle) in [
            ("0.[]", "no digits between"),
            ("0.[3", "has no `]`"),
            ("0.[3]4", "`4` at position 6"),
            ("[3]", "no point"),
            ("0.[8]", "`8` at position 4"),
            ("3.[3]", "`3` at position 1 (d0"),
            ("0.[3]]", "`]` at position 6"),
            ("0.1[2[3]]", "`[` at position 6"),
            ("0.3]", "brackets"),
        ] {
            let error = TailCode::parse(text, CodeBase::Octal).unwrap_err().to_string();
            assert!(error.contains(needle) && !error.contains('\n'), "{text}: {error}");
        }
        let long = format!("0.[{}]", "37".repeat(MAX_CODE_DIGITS));
        assert!(TailCode::parse(&long, CodeBase::Octal).unwrap_err().to_string().contains("digits allowed"));
        // Past the bound of the definition's table: said, not attempted.
        let game = TailGame::new(repeating("0.[12]"));
        let error = game.extend_sequence(&mut CompactSequence::new(), 1 << 20, &Control::default()).unwrap_err();
        assert!(error.to_string().contains("by the definition"), "{error}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]

        /// The options of every heap are the finite code's that the repeating one agrees with
        /// up to that heap, and the sequence is the definition's.
        #[test]
        fn a_repeating_code_is_its_long_enough_finite_code(
            head in proptest::collection::vec(0u8..8, 0..3),
            tail in proptest::collection::vec(0u8..8, 1..3),
            d0 in prop_oneof![Just(0u8), Just(4)],
        ) {
            prop_assume!(tail.iter().any(|&digit| digit != 0));
            let text = format!(
                "{}.{}[{}]",
                d0,
                head.iter().map(u8::to_string).collect::<String>(),
                tail.iter().map(u8::to_string).collect::<String>()
            );
            let ParsedCode::Repeating(code) = TailCode::parse(&text, CodeBase::Octal).unwrap() else {
                return Ok(());
            };
            let game = TailGame::new(code.clone());
            let len = 40u64;
            let finite: String = (1..len).map(|k| code.digit(k).to_string()).collect();
            let finite = OctalGame::parse(&format!("{}.{finite}", code.digit(0)), CodeBase::Octal).unwrap();
            for heap in 0..len {
                prop_assert_eq!(sorted(game.heap_options(heap)), sorted(finite.heap_options(heap)), "{} heap {}", text, heap);
            }
            let mut values = CompactSequence::new();
            game.extend_sequence(&mut values, len as usize, &Control::default()).unwrap();
            let values: Vec<u64> = values.to_vec().into_iter().map(u64::from).collect();
            prop_assert_eq!(values, sequence_by_definition(&finite, len));
        }
    }
}
