//! Censuses of whole families of heap games: every octal code with up to `k` digits, every
//! hexadecimal code, every subtraction set of a given size, each run through the period search
//! of [`crate::heap::period`] to a common bound, one [`CensusRow`] per game.
//!
//! Researchers survey families rather than single games: Flammenkamp's tables ("Sprague-Grundy
//! Values of Octal-Games") list every octal code `0.d1d2d3` and `4.d1d2d3` with its period and
//! preperiod where one is proved, and how far it was computed where none is. This module
//! enumerates such a family as game specs in a stable order ([`code_games`],
//! [`subtraction_games`]) and computes one game's row ([`census_row`]); it does no I/O, so that
//! the command line (`grundy census`, which keeps the rows in an SQLite database) and a Python
//! driver (which farms the games out to a cluster) share it.
//!
//! ```
//! use grundy::census::{census_row, code_games, parse_count_range};
//! use grundy::heap::octal::CodeBase;
//! let games = code_games(CodeBase::Octal, parse_count_range("--digits", "1..2").unwrap(), &[0]).unwrap();
//! assert_eq!(games.len(), 7 + 7 * 8);
//! assert_eq!((games[0].as_str(), games[7].as_str(), games[62].as_str()), ("octal:0.1", "octal:0.01", "octal:0.77"));
//! // Kayles: period 12 from heap 71 on (Winning Ways, ch. 4, p. 91).
//! let kayles = census_row("octal:0.77", 10_000).unwrap();
//! assert_eq!((kayles.preperiod, kayles.period, kayles.saltus, kayles.proved), (Some(71), Some(12), Some(0), true));
//! ```

use crate::control::Control;
use crate::error::GameError;
use crate::heap::octal::{CodeBase, MAX_CODE_DIGITS, OctalCode};
use crate::heap::period::{PeriodReport, find_period};
use crate::heap::sequence::NimSequenceEngine;
use crate::heap::{CompactSequence, HeapGame};
use std::collections::BTreeSet;
use std::ops::RangeInclusive;
use std::time::Instant;

/// The most games one census may list: beyond it the family is refused before anything is
/// enumerated (3-digit octal codes are 511 games, 2-digit hexadecimal codes 255).
pub const MAX_CENSUS_GAMES: u64 = 1 << 20;

/// The grundy library's version, which every row records.
pub const GRUNDY_VERSION: &str = env!("CARGO_PKG_VERSION");

/// One game of a census: what the period search found up to heap `max_heap`.
///
/// The fields are those of `grundy period --json` (`preperiod`, `period`, `saltus` are `None`
/// where nothing is proved, and `checked_to` is then the last heap computed), and what the
/// tables of octal games list besides: the largest value and where it first occurs, and the
/// sparse space where the engine's rare-value kernel was in use at the end (its mask, and the
/// rare heaps and values: Flammenkamp's "rare values").
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CensusRow {
    /// The game's spec in canonical form: `octal:0.137`, `hex:0.8F`, `sub:1,3,4`.
    pub game: String,
    /// The family: the spec's word before `:` (`octal`, `hex`, `sub`).
    pub family: String,
    /// The last heap the search was allowed to compute (`--to`).
    pub max_heap: u64,
    /// `e`, the proved preperiod, or `None`.
    pub preperiod: Option<u64>,
    /// `p`, the proved period, or `None`.
    pub period: Option<u64>,
    /// `s`, the saltus of the proved pattern (0 for an ordinary period), or `None`.
    pub saltus: Option<u64>,
    /// Whether a theorem proves the period for every heap.
    pub proved: bool,
    /// The last heap the proof compared, or when nothing is proved, the last heap computed.
    pub checked_to: u64,
    /// When nothing is proved: the preperiod of the pattern seen over the last half of the
    /// values, if any (observed, not a result).
    pub observed_preperiod: Option<u64>,
    /// When nothing is proved: the period of the pattern seen, if any.
    pub observed_period: Option<u64>,
    /// When nothing is proved: the saltus of the pattern seen, if any.
    pub observed_saltus: Option<u64>,
    /// The largest value among the heaps computed.
    pub largest_value: u32,
    /// The first heap with that value.
    pub largest_value_heap: u64,
    /// The sparse space's mask, when the rare-value kernel was in use at the end.
    pub rare_mask: Option<u32>,
    /// Whether the heap's parity enters the sparse space (the domain version).
    pub rare_heap_parity: Option<bool>,
    /// How many heaps (from 1 on, among those computed) are rare in that space.
    pub rare_heaps: Option<u64>,
    /// The last rare heap computed (0 when there is none).
    pub last_rare_heap: Option<u64>,
    /// The values of the rare heaps, each once, in increasing order.
    pub rare_values: Option<Vec<u32>>,
    /// The wall-clock time the search took, in seconds.
    pub seconds: f64,
    /// The grundy version that computed the row.
    pub grundy_version: String,
}

impl CensusRow {
    /// `proved` or `unresolved`, the status column of a census table.
    pub fn status(&self) -> &'static str {
        if self.proved { "proved" } else { "unresolved" }
    }

    /// Whether this row answers a census to heap `max_heap`, so that the game need not be
    /// computed again: it was computed at least that far, or its period is proved by heaps
    /// within that bound (a search to `max_heap` would prove the same minimal period).
    ///
    /// ```
    /// let row = grundy::census::census_row("sub:1,2", 100).unwrap();
    /// assert!(row.done_at(100) && row.done_at(10) && row.done_at(1000));
    /// let unresolved = grundy::census::census_row("octal:0.6", 100).unwrap();
    /// assert!(unresolved.done_at(100) && !unresolved.done_at(1000));
    /// ```
    pub fn done_at(&self, max_heap: u64) -> bool {
        done_at(self.max_heap, self.proved, self.checked_to, max_heap)
    }

    /// The row's fields other than the time taken, for comparing two runs of a census.
    pub fn without_time(&self) -> CensusRow {
        CensusRow { seconds: 0.0, ..self.clone() }
    }
}

/// [`CensusRow::done_at`] on the three columns it reads (for a database query to mirror).
pub fn done_at(row_max_heap: u64, proved: bool, checked_to: u64, max_heap: u64) -> bool {
    row_max_heap >= max_heap || (proved && checked_to <= max_heap)
}

/// Parses a count or an inclusive range of counts: `2`, `1..3` or `1..=3`, for option
/// `option` (named in the error).
///
/// # Errors
/// [`GameError::BadCensus`] for anything else, or a range that is empty.
///
/// ```
/// use grundy::census::parse_count_range;
/// assert_eq!(parse_count_range("--digits", "1..3").unwrap(), 1..=3);
/// assert_eq!(parse_count_range("--digits", "2").unwrap(), 2..=2);
/// assert!(parse_count_range("--digits", "3..1").unwrap_err().to_string().contains("empty"));
/// ```
pub fn parse_count_range(option: &str, text: &str) -> Result<RangeInclusive<u64>, GameError> {
    let bad = |reason: &str| GameError::BadCensus {
        option: option.to_owned(),
        text: crate::error::quote(text),
        reason: reason.to_owned(),
    };
    let number = |part: &str| -> Result<u64, GameError> {
        let part = part.trim();
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad("write a number or a range like 1..3"));
        }
        part.parse().map_err(|_| bad("the number is larger than 2^64 - 1"))
    };
    let (low, high) = match text.split_once("..") {
        Some((low, high)) => (number(low)?, number(high.strip_prefix('=').unwrap_or(high))?),
        None => {
            let single = number(text)?;
            (single, single)
        }
    };
    if low > high {
        return Err(bad("the range is empty"));
    }
    Ok(low..=high)
}

/// Parses the digits before the point of a code census: single hexadecimal digits separated by
/// commas (`0`, `0,4`), for option `--d0`; [`code_games`] then checks each against the base.
///
/// # Errors
/// [`GameError::BadCensus`] naming the part that is not one digit.
///
/// ```
/// use grundy::census::parse_first_digits;
/// assert_eq!(parse_first_digits("0, 4,C").unwrap(), [0, 4, 12]);
/// assert!(parse_first_digits("0,44").unwrap_err().to_string().contains("`44`"));
/// ```
pub fn parse_first_digits(text: &str) -> Result<Vec<u8>, GameError> {
    text.split(',')
        .map(|part| {
            let part = part.trim();
            let mut chars = part.chars();
            match (chars.next().and_then(|c| c.to_digit(16)), chars.next()) {
                (Some(digit), None) => Ok(digit as u8),
                _ => Err(GameError::BadCensus {
                    option: "--d0".to_owned(),
                    text: crate::error::quote(part),
                    reason: "the digits before the point are single digits, comma-separated (`0,4`)".to_owned(),
                }),
            }
        })
        .collect()
}

/// Every code of `base` with `k` digits after the point for `k` in `digits`, the last of them
/// non-zero (so that each game is listed once), and a digit before the point from
/// `first_digits` (`0`; `4` for the `4.` codes, which may split a heap without removing tokens;
/// for hexadecimal codes also `8` and `C`), as specs (`octal:0.07`).
///
/// The order is stable: by first digit as given, then by `k`, then by the digits in increasing
/// order (`0.1 … 0.7, 0.01, 0.02, … 0.77`).
///
/// # Errors
/// [`GameError::BadCensus`] for no digits (`k = 0`), more than
/// [`MAX_CODE_DIGITS`], a first digit the base does not allow, or more than
/// [`MAX_CENSUS_GAMES`] games.
///
/// ```
/// use grundy::census::code_games;
/// use grundy::heap::octal::CodeBase;
/// let games = code_games(CodeBase::Hexadecimal, 1..=1, &[0, 4]).unwrap();
/// assert_eq!(games.len(), 30);
/// assert_eq!((games[14].as_str(), games[15].as_str()), ("hex:0.F", "hex:4.1"));
/// ```
pub fn code_games(base: CodeBase, digits: RangeInclusive<u64>, first_digits: &[u8]) -> Result<Vec<String>, GameError> {
    let (family, radix) = match base {
        CodeBase::Octal => ("octal", 8u64),
        CodeBase::Hexadecimal => ("hex", 16u64),
    };
    let digits_text = format!("{}..{}", digits.start(), digits.end());
    let bad_digits =
        |reason: String| GameError::BadCensus { option: "--digits".to_owned(), text: digits_text.clone(), reason };
    if *digits.start() == 0 {
        return Err(bad_digits("a code has at least one digit after the point".to_owned()));
    }
    if *digits.end() > MAX_CODE_DIGITS as u64 {
        return Err(bad_digits(format!("a code has at most {MAX_CODE_DIGITS} digits after the point")));
    }
    let mut firsts: Vec<u8> = first_digits.to_vec();
    firsts.dedup();
    if firsts.is_empty() {
        return Err(GameError::BadCensus {
            option: "--d0".to_owned(),
            text: String::new(),
            reason: "name at least one digit before the point".to_owned(),
        });
    }
    for &first in &firsts {
        // d0 may only split: 1 and 2 would take an empty heap or leave the heap as it was.
        let allowed = match base {
            CodeBase::Octal => first == 0 || first == 4,
            CodeBase::Hexadecimal => first < 16 && first & 3 == 0,
        };
        if !allowed {
            return Err(GameError::BadCensus {
                option: "--d0".to_owned(),
                text: format!("{first:X}"),
                reason: match base {
                    CodeBase::Octal => "the digit before the point of an octal code is 0 or 4 (removing nothing may only split a heap)",
                    CodeBase::Hexadecimal => "the digit before the point of a hexadecimal code is 0, 4, 8 or C (removing nothing may only split a heap)",
                }
                .to_owned(),
            });
        }
    }
    // (radix − 1)·radix^(k − 1) codes with k digits, for each first digit.
    let mut count: u128 = 0;
    for k in digits.clone() {
        let with_k = u128::from(radix - 1).saturating_mul(u128::from(radix).saturating_pow((k - 1) as u32));
        count = count.saturating_add(with_k.saturating_mul(firsts.len() as u128));
        if count > u128::from(MAX_CENSUS_GAMES) {
            return Err(bad_digits(format!("more than {MAX_CENSUS_GAMES} games: ask for fewer digits")));
        }
    }
    let mut games = Vec::with_capacity(count as usize);
    for &first in &firsts {
        for k in digits.clone() {
            // The codes d1…dk in increasing order are the numbers d1…dk (base radix) in
            // increasing order; those ending in 0 are the shorter codes again.
            let k = k as u32;
            for number in 0..radix.pow(k) {
                if number % radix == 0 {
                    continue;
                }
                let digits: String = (0..k).rev().map(|place| digit_char(number / radix.pow(place) % radix)).collect();
                let canonical = OctalCode::parse(&format!("{}.{digits}", digit_char(u64::from(first))), base)?;
                games.push(format!("{family}:{canonical}"));
            }
        }
    }
    Ok(games)
}

fn digit_char(digit: u64) -> char {
    char::from_digit(digit as u32, 16).expect("a digit below 16").to_ascii_uppercase()
}

/// Every subtraction set of `moves` elements (for each size in the range) from `1..=max_move`,
/// as specs (`sub:1,2,5`), in increasing order of the elements, size by size.
///
/// # Errors
/// [`GameError::BadCensus`] for a size of 0 or beyond `max_move`, a `max_move` of 0, or more
/// than [`MAX_CENSUS_GAMES`] sets.
///
/// ```
/// use grundy::census::subtraction_games;
/// assert_eq!(subtraction_games(2..=2, 4).unwrap(), ["sub:1,2", "sub:1,3", "sub:1,4", "sub:2,3", "sub:2,4", "sub:3,4"]);
/// assert_eq!(subtraction_games(3..=3, 12).unwrap().len(), 220); // C(12, 3)
/// ```
pub fn subtraction_games(moves: RangeInclusive<u64>, max_move: u64) -> Result<Vec<String>, GameError> {
    let moves_text = format!("{}..{}", moves.start(), moves.end());
    if max_move == 0 {
        return Err(GameError::BadCensus {
            option: "--max-move".to_owned(),
            text: "0".to_owned(),
            reason: "the largest move is at least 1".to_owned(),
        });
    }
    if *moves.start() == 0 || *moves.end() > max_move {
        return Err(GameError::BadCensus {
            option: "--moves".to_owned(),
            text: moves_text,
            reason: format!("a set has between 1 and --max-move = {max_move} elements"),
        });
    }
    let mut count: u128 = 0;
    for size in moves.clone() {
        count = count.saturating_add(binomial(max_move, size));
        if count > u128::from(MAX_CENSUS_GAMES) {
            return Err(GameError::BadCensus {
                option: "--moves".to_owned(),
                text: moves_text,
                reason: format!("more than {MAX_CENSUS_GAMES} sets with elements up to {max_move}"),
            });
        }
    }
    let mut games = Vec::with_capacity(count as usize);
    for size in moves {
        let size = size as usize;
        let mut set: Vec<u64> = (1..=size as u64).collect();
        loop {
            let list: Vec<String> = set.iter().map(u64::to_string).collect();
            games.push(format!("sub:{}", list.join(",")));
            // The next set in increasing order: raise the last element that can rise.
            let Some(place) = (0..size).rev().find(|&place| set[place] < max_move - (size - 1 - place) as u64) else {
                break;
            };
            set[place] += 1;
            for after in place + 1..size {
                set[after] = set[after - 1] + 1;
            }
        }
    }
    Ok(games)
}

/// `C(n, k)`, saturating.
fn binomial(n: u64, k: u64) -> u128 {
    let k = k.min(n - k);
    let mut result: u128 = 1;
    for i in 0..k {
        // result · (n − i) / (i + 1) is exact at every step (a binomial coefficient).
        result = match result.checked_mul(u128::from(n - i)) {
            Some(product) => product / u128::from(i + 1),
            None => return u128::MAX,
        };
    }
    result
}

/// A key that sorts census rows the way the tables list them: octal codes, then hexadecimal
/// codes, then subtraction sets, then anything else; codes by their digits (which is their
/// order as numbers: `0.1 < 0.11 < 0.2`, then the `4.` codes), sets by their elements.
///
/// ```
/// use grundy::census::census_order;
/// let mut games = ["sub:1,10", "octal:0.2", "octal:0.11", "sub:1,2", "octal:4.1"];
/// games.sort_by_key(|game| census_order(game));
/// assert_eq!(games, ["octal:0.11", "octal:0.2", "octal:4.1", "sub:1,2", "sub:1,10"]);
/// ```
pub fn census_order(game: &str) -> (u8, Vec<u64>, String) {
    let (family, parameters) = game.split_once(':').unwrap_or((game, ""));
    let numbers = |radix: u32| -> Option<Vec<u64>> {
        parameters.chars().filter(|&c| c != '.').map(|c| c.to_digit(radix).map(u64::from)).collect()
    };
    let keyed = match family {
        "octal" => numbers(8).map(|digits| (0, digits)),
        "hex" => numbers(16).map(|digits| (1, digits)),
        "sub" => {
            parameters.split(',').map(|element| element.parse().ok()).collect::<Option<Vec<u64>>>().map(|set| (2, set))
        }
        _ => None,
    };
    match keyed {
        Some((rank, key)) => (rank, key, String::new()),
        None => (3, Vec::new(), game.to_owned()),
    }
}

/// The bound a census uses for `spec` when none is given: the one `grundy period` uses
/// ([`crate::heap::period::default_max_heap`]: 2^21 − 1 for octal games, 2^13 − 1 for
/// hexadecimal games that split a heap in three, 2^24 − 1 for subtraction games).
///
/// # Errors
/// A bad spec or a game without a nim-sequence.
///
/// ```
/// assert_eq!(grundy::census::default_max_heap("octal:0.07").unwrap(), (1 << 21) - 1);
/// assert_eq!(grundy::census::default_max_heap("hex:0.8").unwrap(), (1 << 13) - 1);
/// ```
pub fn default_max_heap(spec: &str) -> Result<u64, GameError> {
    let ruleset = adapter::parse_heap_game(spec)?;
    let game = adapter::heap_game(&*ruleset, spec)?;
    Ok(crate::heap::period::default_max_heap(game.periodicity()))
}

/// The row of one game: runs the period search of `spec`'s nim-sequence up to heap `max_heap`
/// (as `grundy period SPEC --max MAX_HEAP` does) and gathers the census fields.
///
/// # Errors
/// A bad spec, a game without a nim-sequence, or [`GameError::TooLarge`] when the values up
/// to `max_heap` would not fit in memory.
pub fn census_row(spec: &str, max_heap: u64) -> Result<CensusRow, GameError> {
    census_row_with(spec, max_heap, &Control::default())?
        .ok_or_else(|| GameError::Unsupported(format!("the census of {spec} was cancelled")))
}

/// As [`census_row`], with a control for progress and cancelling: `Ok(None)` when
/// the control's cancel flag stopped the search (nothing of it is kept).
///
/// # Errors
/// As [`census_row`].
pub fn census_row_with(spec: &str, max_heap: u64, control: &Control) -> Result<Option<CensusRow>, GameError> {
    let started = Instant::now();
    let ruleset = adapter::parse_heap_game(spec)?;
    let game = adapter::heap_game(&*ruleset, spec)?;
    let mut values = CompactSequence::new();
    let report = find_period(&*game, &mut values, max_heap, control, &mut |_| {})?;
    if report.interrupted {
        return Ok(None);
    }
    Ok(Some(row_of(&*game, &report, &values, max_heap, started.elapsed().as_secs_f64())))
}

/// The row of a finished search.
fn row_of(
    game: &dyn HeapGame,
    report: &PeriodReport,
    values: &CompactSequence,
    max_heap: u64,
    seconds: f64,
) -> CensusRow {
    let spec = game.spec();
    let family = spec.split_once(':').map_or(spec.as_str(), |(family, _)| family).to_owned();
    let examined = || values.iter().take(report.examined as usize);
    let (largest_value, largest_value_heap) = examined()
        .enumerate()
        .fold((0u32, 0u64), |(best, at), (heap, value)| if value > best { (value, heap as u64) } else { (best, at) });
    let sparse = game.nim_sequence_engine().and_then(NimSequenceEngine::sparse_space);
    let rare = sparse.map(|space| {
        let mut heaps = 0u64;
        let mut last = 0u64;
        let mut rare_values = BTreeSet::new();
        for (heap, value) in examined().enumerate().skip(1) {
            if space.is_rare(heap as u64, value) {
                heaps += 1;
                last = heap as u64;
                rare_values.insert(value);
            }
        }
        (heaps, last, rare_values.into_iter().collect::<Vec<u32>>())
    });
    let (preperiod, period, saltus, proved, checked_to) = match &report.proved {
        Some((found, _proof)) => {
            (Some(found.preperiod), Some(found.period), Some(found.saltus), true, found.checked_to)
        }
        None => (None, None, None, false, report.examined.saturating_sub(1)),
    };
    let observed = report.proved.is_none().then_some(report.observed).flatten();
    CensusRow {
        game: spec,
        family,
        max_heap,
        preperiod,
        period,
        saltus,
        proved,
        checked_to,
        observed_preperiod: observed.map(|pattern| pattern.preperiod),
        observed_period: observed.map(|pattern| pattern.period),
        observed_saltus: observed.map(|pattern| pattern.saltus),
        largest_value,
        largest_value_heap,
        rare_mask: sparse.map(|space| space.mask),
        rare_heap_parity: sparse.map(|space| space.heap_parity),
        rare_heaps: rare.as_ref().map(|(heaps, _, _)| *heaps),
        last_rare_heap: rare.as_ref().map(|(_, last, _)| *last),
        rare_values: rare.map(|(_, _, values)| values),
        seconds,
        grundy_version: GRUNDY_VERSION.to_owned(),
    }
}

/// The SQL of a census database, the contract of `docs/census.md`, shared by every writer: the
/// CLI (rusqlite) and the Python driver (the standard library's `sqlite3`, which reads these
/// strings through the binding), so that the schema and the rules are written once.
///
/// ```
/// use grundy::census::sql;
/// assert!(sql::SCHEMA.contains("CREATE TABLE IF NOT EXISTS census ("));
/// assert_eq!(sql::COLUMNS.len(), 20);
/// assert!(sql::upsert().starts_with("INSERT INTO census (game, family, max_heap,"));
/// ```
pub mod sql {
    /// How long a writer waits for another writer's transaction before it calls the database
    /// busy, in milliseconds (`PRAGMA busy_timeout`).
    pub const BUSY_TIMEOUT_MS: u64 = 30_000;

    /// The settings every writer makes on each connection, in this order: wait for another
    /// writer's short transaction; WAL, so that readers never block the writer and a crash never
    /// corrupts; `synchronous = FULL`, so that a committed row survives a power cut. `PRAGMA
    /// journal_mode` answers the mode in force, which must be `wal`.
    pub const PRAGMAS: [&str; 3] =
        ["PRAGMA busy_timeout = 30000", "PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL"];

    /// Whether the stored row of game `?1` answers a census to heap `?2` (a row comes back),
    /// the query form of [`CensusRow::done_at`](super::CensusRow::done_at).
    pub const DONE: &str =
        "SELECT 1 FROM census WHERE game = ?1 AND (max_heap >= ?2 OR (proved = 1 AND checked_to <= ?2))";

    /// The schema version this build writes and reads (`census_meta.schema_version`).
    pub const SCHEMA_VERSION: &str = "1";

    /// The tables, created in an empty database (run as one batch, in one transaction).
    pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS census_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;
INSERT OR IGNORE INTO census_meta (key, value) VALUES ('schema_version', '1');
CREATE TABLE IF NOT EXISTS census (
    game TEXT PRIMARY KEY,
    family TEXT NOT NULL,
    max_heap INTEGER NOT NULL,
    preperiod INTEGER,
    period INTEGER,
    saltus INTEGER,
    proved INTEGER NOT NULL CHECK (proved IN (0, 1)),
    checked_to INTEGER NOT NULL,
    observed_preperiod INTEGER,
    observed_period INTEGER,
    observed_saltus INTEGER,
    largest_value INTEGER NOT NULL,
    largest_value_heap INTEGER NOT NULL,
    rare_mask INTEGER,
    rare_heap_parity INTEGER CHECK (rare_heap_parity IN (0, 1)),
    rare_heaps INTEGER,
    last_rare_heap INTEGER,
    rare_values TEXT,
    seconds REAL NOT NULL,
    grundy_version TEXT NOT NULL
) STRICT;
";

    /// Every column of `census`, in order: the fields of [`CensusRow`](super::CensusRow).
    pub const COLUMNS: [&str; 20] = [
        "game",
        "family",
        "max_heap",
        "preperiod",
        "period",
        "saltus",
        "proved",
        "checked_to",
        "observed_preperiod",
        "observed_period",
        "observed_saltus",
        "largest_value",
        "largest_value_heap",
        "rare_mask",
        "rare_heap_parity",
        "rare_heaps",
        "last_rare_heap",
        "rare_values",
        "seconds",
        "grundy_version",
    ];

    /// The upsert every writer uses: a row replaces the stored one only when the stored one does not
    /// already answer the census at the new row's bound (see [`CensusRow::done_at`](super::CensusRow::done_at)), so that a
    /// smaller rerun never overwrites a longer search, and two writers of one game agree.
    pub fn upsert() -> String {
        let updates: Vec<String> = COLUMNS[1..].iter().map(|column| format!("{column} = excluded.{column}")).collect();
        format!(
            "INSERT INTO census ({}) VALUES ({}) ON CONFLICT (game) DO UPDATE SET {} \
             WHERE NOT (census.max_heap >= excluded.max_heap OR (census.proved = 1 AND census.checked_to <= excluded.max_heap))",
            COLUMNS.join(", "),
            (1..=COLUMNS.len()).map(|i| format!("?{i}")).collect::<Vec<_>>().join(", "),
            updates.join(", ")
        )
    }
}

/// The one place this module meets the game model (the registry and `Ruleset`): a spec read as
/// a heap game, exactly as `grundy period` reads it. Kept apart so that a change of the model
/// touches only these lines.
mod adapter {
    use crate::error::GameError;
    use crate::heap::{AsHeapGame, HeapGame};
    use crate::ruleset::Ruleset;
    use std::sync::Arc;

    /// The family of `spec`, from the registry.
    pub(super) fn parse_heap_game(spec: &str) -> Result<Arc<dyn Ruleset>, GameError> {
        crate::registry::parse_game(spec)
    }

    /// Its nim-sequence game; an error for a game without one.
    pub(super) fn heap_game(ruleset: &dyn Ruleset, spec: &str) -> Result<Arc<dyn HeapGame>, GameError> {
        ruleset.heap_game().ok_or_else(|| GameError::BadGame {
            spec: crate::error::quote(spec),
            reason: format!(
                "a census takes heap games ({}), which have a nim-sequence",
                crate::registry::heap_family_list()
            ),
        })
    }
}
