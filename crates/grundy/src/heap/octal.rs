//! Octal and hexadecimal games (`octal:CODE`, `hex:CODE`), Kayles and Dawson's Kayles.
//!
//! **Rules.** A code `d0.d1d2…dt` lists, for each number `k` of tokens removed from one heap,
//! what may be left of it: digit `d_k` is a sum of
//! - `1`: the heap may be taken whole (when it has exactly `k` tokens),
//! - `2`: one non-empty heap may be left,
//! - `4`: two non-empty heaps may be left (the rest split in two),
//! - `8` (hexadecimal codes only): three non-empty heaps may be left.
//!
//! `d0` (removing nothing) may only split (`4`, and `8` for hexadecimal codes): `1` or `2` there
//! would mean taking an empty heap or leaving the heap as it was, which is no move at all
//! (*Winning Ways*, ch. 4; Flammenkamp, “Sprague-Grundy Values of Octal-Games”).
//! Kayles is `0.77`, Dawson's Kayles `0.07` (*Winning Ways*, ch. 4).
//!
//! **No closed form in general**: the nim-sequence comes from the engine in
//! [`crate::heap::sequence`]. A period, once observed, is proved by the periodicity theorem
//! (Guy and Smith 1956): see [`crate::heap::HeapGame::periodicity`] on [`OctalGame`].

use crate::error::GameError;
use crate::heap::sequence::{NimSequenceEngine, TakeBreakMoves};
use crate::heap::{EngineBacked, Periodicity};
use std::fmt;
use std::str::FromStr;

/// The most digits a code may have after its point.
pub const MAX_CODE_DIGITS: usize = 255;

/// Whether a code is octal (digits 0–7, splits into at most two heaps) or hexadecimal (digits
/// 0–F, splits into up to three heaps).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CodeBase {
    /// Digits 0–7.
    Octal,
    /// Digits 0–9 and A–F.
    Hexadecimal,
}

impl CodeBase {
    fn radix(self) -> u32 {
        match self {
            CodeBase::Octal => 8,
            CodeBase::Hexadecimal => 16,
        }
    }

    fn family(self) -> &'static str {
        match self {
            CodeBase::Octal => "octal",
            CodeBase::Hexadecimal => "hex",
        }
    }

    fn digit_name(self) -> &'static str {
        match self {
            CodeBase::Octal => "an octal digit (0-7)",
            CodeBase::Hexadecimal => "a hexadecimal digit (0-9, A-F)",
        }
    }
}

/// An octal or hexadecimal game code such as `0.137`, `4.07` or `0.F7`.
///
/// Parsed with [`OctalCode::parse`] (or `str::parse` for octal codes); shown in canonical form:
/// one digit before the point, trailing zeros dropped, hexadecimal digits in capitals.
///
/// ```
/// use grundy::heap::octal::{CodeBase, OctalCode};
/// let code: OctalCode = ".137".parse().unwrap();
/// assert_eq!(code.to_string(), "0.137");
/// assert_eq!(code.digit(3), 7);
/// assert_eq!(code.max_removal(), 3);
/// let hex = OctalCode::parse("0.f", CodeBase::Hexadecimal).unwrap();
/// assert_eq!(hex.to_string(), "0.F");
/// let error = "0.18".parse::<OctalCode>().unwrap_err().to_string();
/// assert!(error.contains("`8` at position 4"), "{error}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OctalCode {
    base: CodeBase,
    /// `digits[k]` is `d_k`; no trailing zeros past `d_0`.
    digits: Vec<u8>,
}

impl OctalCode {
    /// Parses a code in `base`: one optional digit before the point (`0` when left out, as in
    /// `.137`), the point, then 1 to [`MAX_CODE_DIGITS`] digits; or one digit alone (`4`, as
    /// tables write `4.0`).
    ///
    /// # Errors
    /// [`GameError::BadGame`] naming the bad character and its position (counted from 1), or
    /// what is missing.
    pub fn parse(text: &str, base: CodeBase) -> Result<Self, GameError> {
        let spec = format!("{}:{text}", base.family());
        let bad = |reason: String| GameError::BadGame { spec: spec.clone(), reason };
        let example = match base {
            CodeBase::Octal => "0.07",
            CodeBase::Hexadecimal => "0.F",
        };
        if text.is_empty() {
            return Err(bad(format!("the code is empty: write it like {example}")));
        }
        // A lone digit is the digit before the point: tables write `4` for `4.0`.
        if !text.contains('.') && text.chars().count() != 1 {
            return Err(bad(format!(
                "the code `{text}` has no point: write it like {example} (a lone digit such as 4 means 4.0)"
            )));
        }
        let mut digits = Vec::with_capacity(text.len());
        let mut seen_point = false;
        for (index, character) in text.chars().enumerate() {
            let position = index + 1;
            if character == '.' {
                if seen_point {
                    return Err(bad(format!("`.` at position {position}: a code has one point")));
                }
                seen_point = true;
                if digits.is_empty() {
                    digits.push(0);
                }
                continue;
            }
            let Some(digit) = character.to_digit(base.radix()) else {
                return Err(bad(format!("`{character}` at position {position} is not {}", base.digit_name())));
            };
            if !seen_point {
                if !digits.is_empty() {
                    return Err(bad(format!(
                        "`{character}` at position {position}: only one digit (d0) goes before the point"
                    )));
                }
                if digit & 3 != 0 {
                    return Err(bad(format!(
                        "`{character}` at position {position} (d0, removing nothing) may only split a heap \
                         (0, 4{}): 1 or 2 there would take nothing or leave the heap unchanged",
                        if base == CodeBase::Hexadecimal { ", 8 or C" } else { "" }
                    )));
                }
            }
            digits.push(digit as u8);
        }
        if !seen_point {
            digits.push(0);
        }
        if digits.len() < 2 {
            return Err(bad(format!("no digits after the point in `{text}`: write it like {example}")));
        }
        if digits.len() - 1 > MAX_CODE_DIGITS {
            return Err(bad(format!(
                "{} digits after the point, more than the {MAX_CODE_DIGITS} allowed",
                digits.len() - 1
            )));
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        Ok(OctalCode { base, digits })
    }

    /// Octal or hexadecimal.
    pub fn base(&self) -> CodeBase {
        self.base
    }

    /// `d_k`: what may be left after removing `k` tokens (0 past the last digit).
    pub fn digit(&self, k: usize) -> u8 {
        self.digits.get(k).copied().unwrap_or(0)
    }

    /// `t`: the index of the last non-zero digit, the most tokens one move removes (0 for a
    /// code without moves).
    pub fn max_removal(&self) -> usize {
        self.digits.iter().rposition(|&digit| digit != 0).unwrap_or(0)
    }

    /// The moves the code allows, for the engine.
    pub fn moves(&self) -> TakeBreakMoves {
        let with = |bit: u8| (0..self.digits.len()).filter(|&k| self.digits[k] & bit != 0).collect::<Vec<_>>();
        TakeBreakMoves::new(with(1), with(2), with(4), false, with(8))
    }
}

impl fmt::Display for OctalCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digit = |d: u8| char::from_digit(u32::from(d), 16).expect("digits are below 16").to_ascii_uppercase();
        write!(f, "{}.", digit(self.digits[0]))?;
        if self.digits.len() == 1 {
            return write!(f, "0");
        }
        for &d in &self.digits[1..] {
            write!(f, "{}", digit(d))?;
        }
        Ok(())
    }
}

impl FromStr for OctalCode {
    type Err = GameError;
    /// Parses an octal code (see [`OctalCode::parse`] for hexadecimal ones).
    fn from_str(text: &str) -> Result<Self, GameError> {
        OctalCode::parse(text, CodeBase::Octal)
    }
}

/// An octal or hexadecimal game: the rules of one heap ([`crate::heap::HeapGame::heap_options`]), whose
/// nim-sequence comes from the fast engine (checked against [`crate::heap::HeapSum`]).
///
/// ```
/// use grundy::heap::HeapGame;
/// use grundy::heap::octal::OctalGame;
/// let kayles = OctalGame::kayles();
/// let mut values = grundy::heap::CompactSequence::new();
/// kayles.extend_sequence(&mut values, 12, &Default::default()).unwrap();
/// assert_eq!(values.to_vec(), [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
/// assert_eq!(kayles.heap_options(3), vec![vec![2], vec![1, 1], vec![1]]);
/// ```
pub struct OctalGame {
    code: OctalCode,
    name: Option<&'static str>,
    engine: NimSequenceEngine,
}

impl OctalGame {
    /// The game with `code`.
    pub fn new(code: OctalCode) -> Self {
        let engine = NimSequenceEngine::new(code.moves());
        OctalGame { code, name: None, engine }
    }

    /// Parses the `CODE` of `octal:CODE` or `hex:CODE`.
    ///
    /// # Errors
    /// As [`OctalCode::parse`].
    pub fn parse(code: &str, base: CodeBase) -> Result<Self, GameError> {
        Ok(OctalGame::new(OctalCode::parse(code, base)?))
    }

    /// Kayles (`0.77`): knock down one pin or two adjacent ones from a row.
    pub fn kayles() -> Self {
        OctalGame { name: Some("kayles"), ..OctalGame::new("0.77".parse().expect("a valid code")) }
    }

    /// Dawson's Kayles (`0.07`): knock down two adjacent pins.
    pub fn dawson() -> Self {
        OctalGame { name: Some("dawson"), ..OctalGame::new("0.07".parse().expect("a valid code")) }
    }

    /// The code.
    pub fn code(&self) -> &OctalCode {
        &self.code
    }
}

impl EngineBacked for OctalGame {
    fn engine(&self) -> &NimSequenceEngine {
        &self.engine
    }

    fn engine_game_spec(&self) -> String {
        match self.name {
            Some(name) => name.to_owned(),
            None => format!("{}:{}", self.code.base.family(), self.code),
        }
    }

    /// The code in octal when every digit is an octal digit (hexadecimal digits 0–7 mean the
    /// same moves), else in hexadecimal; named games by their codes.
    fn engine_game_canonical_spec(&self) -> String {
        if self.code.digits.iter().all(|&digit| digit < 8) {
            format!("octal:{}", OctalCode { base: CodeBase::Octal, digits: self.code.digits.clone() })
        } else {
            format!("hex:{}", self.code)
        }
    }

    /// The periodicity theorem proves periods of octal games only.
    ///
    /// For splits into at most two heaps (every octal code) it is Guy and Smith's theorem
    /// (*Winning Ways* ch. 4; Siegel, *Combinatorial Game Theory*, IV.2): with `t` the last
    /// non-zero digit, `G(n + p) = G(n)` for `e ≤ n < 2e + p + t` implies it for all `n ≥ e`.
    /// A non-zero `d0` (`4.07`: split without removing) does not break it: the proof needs
    /// only that every move removes at most `t` tokens (`k ≤ t`, true for `k = 0`), so that a
    /// split of `n + p` (into parts summing to at least `2e + 2p`) has a part of at least
    /// `e + p`, and a split of `n` a part of at least `e`; taking a whole heap of `k ≤ t`
    /// tokens never happens past `2e + p + t`. (The part shortened by `p` must stay non-empty,
    /// so the check starts from `e ≥ 1`: the period finder's business.)
    ///
    /// A split into three heaps (hexadecimal digits with 8) needs a longer check: the largest
    /// of three parts summing to at least `3e + 3p` is at least `e + p`, so the same argument
    /// goes through with `G(n + p) = G(n)` checked for `e ≤ n < 3e + 2p + t` (with `j` parts,
    /// `j·e + (j − 1)·p + t`; Howse and Nowakowski, *Periodicity and arithmetic-periodicity in
    /// hexadecimal games*, TCS 313 (2004)). Such codes report `max_parts: 3`.
    fn engine_game_periodicity(&self) -> Periodicity {
        let three_way = (0..=self.code.max_removal()).any(|k| self.code.digit(k) & 8 != 0);
        Periodicity::Octal { max_removal: self.code.max_removal() as u64, max_parts: if three_way { 3 } else { 2 } }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::Control;
    use crate::heap::{CompactSequence, HeapGame};
    use proptest::prelude::*;

    #[test]
    fn bad_codes_name_the_digit_and_its_position() {
        for (text, base, needle) in [
            ("0.18", CodeBase::Octal, "`8` at position 4"),
            ("0.1a", CodeBase::Octal, "`a` at position 4"),
            ("0.1g", CodeBase::Hexadecimal, "`g` at position 4"),
            ("0.", CodeBase::Octal, "no digits after the point"),
            (".", CodeBase::Octal, "no digits after the point"),
            ("", CodeBase::Octal, "empty"),
            ("07", CodeBase::Octal, "no point"),
            ("0.1.2", CodeBase::Octal, "`.` at position 4"),
            ("42.3", CodeBase::Octal, "`2` at position 2"),
            ("1.07", CodeBase::Octal, "`1` at position 1 (d0"),
            ("6.07", CodeBase::Octal, "`6` at position 1 (d0"),
            ("0.-1", CodeBase::Octal, "`-` at position 3"),
            ("0.é", CodeBase::Octal, "`é` at position 3"),
        ] {
            let error = OctalCode::parse(text, base).unwrap_err().to_string();
            assert!(error.contains(needle), "{text}: {error}");
        }
        let long = format!("0.{}", "7".repeat(MAX_CODE_DIGITS));
        assert_eq!(long.parse::<OctalCode>().unwrap().max_removal(), MAX_CODE_DIGITS);
        let too_long = format!("0.{}", "7".repeat(MAX_CODE_DIGITS + 1));
        assert!(too_long.parse::<OctalCode>().unwrap_err().to_string().contains("256 digits"));
    }

    #[test]
    fn canonical_form() {
        assert_eq!("4.070".parse::<OctalCode>().unwrap().to_string(), "4.07");
        assert_eq!("0.000".parse::<OctalCode>().unwrap().to_string(), "0.0");
        // A lone digit is d0, as tables write it.
        assert_eq!("4".parse::<OctalCode>().unwrap(), "4.0".parse::<OctalCode>().unwrap());
        assert_eq!(OctalCode::parse("8", CodeBase::Hexadecimal).unwrap().to_string(), "8.0");
        assert!("1".parse::<OctalCode>().unwrap_err().to_string().contains("`1` at position 1 (d0"));
        assert_eq!(OctalCode::parse("c.1f", CodeBase::Hexadecimal).unwrap().to_string(), "C.1F");
    }

    #[test]
    fn moves_of_each_bit() {
        // 0.137: take 1 only from a heap of 1; take 2 leaving one heap or all; take 3 leaving
        // 0, 1 or 2 heaps.
        let game = OctalGame::new("0.137".parse().unwrap());
        assert_eq!(game.heap_options(1), vec![Vec::<u64>::new()]);
        assert_eq!(game.heap_options(2), vec![Vec::<u64>::new()]);
        assert_eq!(game.heap_options(7), vec![vec![5], vec![4], vec![1, 3], vec![2, 2]]);
        let split = OctalGame::new("4.0".parse().unwrap());
        assert_eq!(split.heap_options(4), vec![vec![1, 3], vec![2, 2]]);
        let hex = OctalGame::parse("0.8", CodeBase::Hexadecimal).unwrap();
        assert_eq!(hex.heap_options(6), vec![vec![1, 1, 3], vec![1, 2, 2]]);
        assert_eq!(hex.periodicity(), Periodicity::Octal { max_removal: 1, max_parts: 3 });
        assert_eq!(game.periodicity(), Periodicity::Octal { max_removal: 3, max_parts: 2 });
    }

    fn code_strategy(base: CodeBase) -> impl Strategy<Value = String> {
        let top = match base {
            CodeBase::Octal => 8u8,
            CodeBase::Hexadecimal => 16,
        };
        let first = match base {
            CodeBase::Octal => prop_oneof![Just(0u8), Just(4)].boxed(),
            CodeBase::Hexadecimal => prop_oneof![Just(0u8), Just(4), Just(8), Just(12)].boxed(),
        };
        (first, proptest::collection::vec(0..top, 1..300), any::<bool>()).prop_map(move |(d0, rest, lower)| {
            let digit = |d: u8| {
                let c = char::from_digit(u32::from(d), 16).unwrap();
                if lower { c } else { c.to_ascii_uppercase() }
            };
            format!("{}.{}", digit(d0), rest.into_iter().map(digit).collect::<String>())
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// A period proved for a hexadecimal code that splits heaps in three (by the longer
        /// check `3e' + 2p + t`) holds far beyond the proof, by the definition.
        #[test]
        fn three_way_periods_hold_beyond_the_proof(digits in proptest::collection::vec(0u8..16, 1..4), at: usize) {
            let mut digits = digits;
            let place = at % digits.len();
            digits[place] |= 8;
            let code: String = digits.iter().map(|digit| format!("{digit:X}")).collect();
            let game = OctalGame::parse(&format!("0.{code}"), CodeBase::Hexadecimal).unwrap();
            let mut values = CompactSequence::new();
            let report =
                crate::heap::period::find_period(&game, &mut values, 150, &Control::default(), &mut |_| {})
                    .unwrap();
            if let Some((period, _proof)) = report.proved {
                let len = (2 * period.checked_to as usize + 60).min(400);
                let mut reference: Vec<u32> = Vec::new();
                for heap in 0..len as u64 {
                    let option_values = game
                        .heap_options(heap)
                        .into_iter()
                        .map(|parts| parts.iter().fold(0u64, |xor, &part| xor ^ u64::from(reference[part as usize])));
                    reference.push(crate::nimber::mex(option_values) as u32);
                }
                let (e, p) = (period.preperiod as usize, period.period as usize);
                for n in e..len - p {
                    prop_assert_eq!(reference[n + p], reference[n], "0.{} from {} period {}", code, e, p);
                }
            }
        }
    }

    proptest! {
        #[test]
        fn octal_codes_round_trip(text in code_strategy(CodeBase::Octal)) {
            match OctalCode::parse(&text, CodeBase::Octal) {
                Ok(code) => {
                    let shown = code.to_string();
                    prop_assert_eq!(OctalCode::parse(&shown, CodeBase::Octal).unwrap(), code.clone());
                    let typed: Vec<u32> = text.chars().filter_map(|c| c.to_digit(8)).collect();
                    for (k, &digit) in typed.iter().enumerate() {
                        prop_assert_eq!(u32::from(code.digit(k)), digit);
                    }
                }
                Err(error) => prop_assert!(text.len() - 2 > MAX_CODE_DIGITS, "{}: {}", text, error),
            }
        }

        #[test]
        fn hex_codes_round_trip(text in code_strategy(CodeBase::Hexadecimal)) {
            if let Ok(code) = OctalCode::parse(&text, CodeBase::Hexadecimal) {
                prop_assert_eq!(OctalCode::parse(&code.to_string(), CodeBase::Hexadecimal).unwrap(), code);
            } else {
                prop_assert!(text.len() - 2 > MAX_CODE_DIGITS);
            }
        }
    }
}
