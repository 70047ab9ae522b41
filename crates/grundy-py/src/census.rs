//! The library's census ([`grundy::census`]) for the Python driver `grundy.census`
//! (`python/grundy/_census.py`): the games of a family, one game's row (computed without the
//! GIL, stopped by Ctrl-C), the report's order, and the SQL of the database contract
//! (`docs/census.md`), so that the Python writer and the CLI's share one schema.

use crate::convert::value_error;
use crate::long::without_gil;
use grundy::census::{self, CensusRow};
use grundy::heap::octal::CodeBase;
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// The games of a census, as game words in the CLI's order: `family` is `"octal"` or `"hex"`
/// (with `digits`, and `d0`, the digits before the point, default `"0"`) or `"sub"` (with
/// `max_move` and `moves`), as `grundy census FAMILY` takes them. A bad option raises
/// `ValueError` with the CLI's message.
///
/// >>> import grundy
/// >>> games = grundy.census_games("octal", digits="1..2")
/// >>> len(games), games[0], games[-1]
/// (63, 'octal:0.1', 'octal:0.77')
/// >>> grundy.census_games("sub", max_move=4, moves="2")
/// ['sub:1,2', 'sub:1,3', 'sub:1,4', 'sub:2,3', 'sub:2,4', 'sub:3,4']
#[pyfunction]
#[pyo3(signature = (family, *, digits = None, d0 = None, max_move = None, moves = None))]
pub fn census_games(
    family: &str,
    digits: Option<&str>,
    d0: Option<&str>,
    max_move: Option<u64>,
    moves: Option<&str>,
) -> PyResult<Vec<String>> {
    let unexpected = |option: &str, belongs: &str| {
        PyValueError::new_err(format!(
            "bad census option {option}: a census of `{family}` does not take it (it is for {belongs})"
        ))
    };
    let missing = |option: &str| PyValueError::new_err(format!("a census of `{family}` needs {option}"));
    match family {
        "octal" | "hex" => {
            if max_move.is_some() {
                return Err(unexpected("max_move", "\"sub\""));
            }
            if moves.is_some() {
                return Err(unexpected("moves", "\"sub\""));
            }
            let base = if family == "octal" { CodeBase::Octal } else { CodeBase::Hexadecimal };
            let digits =
                census::parse_count_range("--digits", digits.ok_or_else(|| missing("digits"))?).map_err(value_error)?;
            let firsts = census::parse_first_digits(d0.unwrap_or("0")).map_err(value_error)?;
            census::code_games(base, digits, &firsts).map_err(value_error)
        }
        "sub" => {
            if digits.is_some() {
                return Err(unexpected("digits", "\"octal\" and \"hex\""));
            }
            if d0.is_some() {
                return Err(unexpected("d0", "\"octal\" and \"hex\""));
            }
            let moves =
                census::parse_count_range("--moves", moves.ok_or_else(|| missing("moves"))?).map_err(value_error)?;
            census::subtraction_games(moves, max_move.ok_or_else(|| missing("max_move"))?).map_err(value_error)
        }
        _ => Err(PyValueError::new_err(format!(
            "bad census family `{}`: write \"octal\", \"hex\" or \"sub\"",
            grundy::error::quote(family)
        ))),
    }
}

/// The bound a census uses for `game` when none is given: `grundy period`'s default for it
/// (2^21 - 1 for octal games).
///
/// >>> import grundy
/// >>> grundy.census_default_max_heap("octal:0.07")
/// 2097151
#[pyfunction]
pub fn census_default_max_heap(game: &str) -> PyResult<u64> {
    census::default_max_heap(game).map_err(value_error)
}

/// The census row of one game: its period searched up to heap `max_heap` (default:
/// `census_default_max_heap(game)`), as a dict with the keys and values of a row of `grundy
/// census report --format json`: `game`, `family`, `max_heap`, `preperiod`, `period`, `saltus`
/// (`None` where nothing is proved), `proved`, `checked_to`, the `observed_*` pattern, the
/// largest value, the rare values, `seconds` and `grundy_version`. Runs without the GIL and
/// stops on Ctrl-C (KeyboardInterrupt).
///
/// >>> import grundy
/// >>> row = grundy.census_row("octal:0.77", 10_000)  # Kayles (Winning Ways, ch. 4)
/// >>> row["period"], row["preperiod"], row["saltus"], row["proved"]
/// (12, 71, 0, True)
#[pyfunction]
#[pyo3(signature = (game, max_heap = None))]
pub fn census_row<'py>(py: Python<'py>, game: &str, max_heap: Option<u64>) -> PyResult<Bound<'py, PyDict>> {
    let max_heap = match max_heap {
        Some(bound) => bound,
        None => census::default_max_heap(game).map_err(value_error)?,
    };
    let bar = crate::long::Progress::new(py, false, 0, game)?;
    let row = without_gil(py, &bar, |control| census::census_row_with(game, max_heap, control))?
        .map_err(value_error)?
        .ok_or_else(|| PyKeyboardInterrupt::new_err(format!("the census of {game} was stopped")))?;
    row_to_dict(py, &row)
}

/// A row as the dict of `census report --format json` (the same keys, in the same order).
fn row_to_dict<'py>(py: Python<'py>, row: &CensusRow) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("game", &row.game)?;
    dict.set_item("family", &row.family)?;
    dict.set_item("max_heap", row.max_heap)?;
    dict.set_item("preperiod", row.preperiod)?;
    dict.set_item("period", row.period)?;
    dict.set_item("saltus", row.saltus)?;
    dict.set_item("proved", row.proved)?;
    dict.set_item("checked_to", row.checked_to)?;
    dict.set_item("observed_preperiod", row.observed_preperiod)?;
    dict.set_item("observed_period", row.observed_period)?;
    dict.set_item("observed_saltus", row.observed_saltus)?;
    dict.set_item("largest_value", row.largest_value)?;
    dict.set_item("largest_value_heap", row.largest_value_heap)?;
    dict.set_item("rare_mask", row.rare_mask)?;
    dict.set_item("rare_heap_parity", row.rare_heap_parity)?;
    dict.set_item("rare_heaps", row.rare_heaps)?;
    dict.set_item("last_rare_heap", row.last_rare_heap)?;
    dict.set_item("rare_values", row.rare_values.as_ref().map(|values| PyList::new(py, values)).transpose()?)?;
    dict.set_item("seconds", row.seconds)?;
    dict.set_item("grundy_version", &row.grundy_version)?;
    debug_assert_eq!(dict.len(), census::sql::COLUMNS.len());
    Ok(dict)
}

/// `games` sorted as `census report` lists them: octal codes, hexadecimal codes, subtraction
/// sets, each by its digits or elements.
///
/// >>> import grundy
/// >>> grundy.census_sorted(["sub:1,10", "octal:0.2", "octal:0.11", "sub:1,2"])
/// ['octal:0.11', 'octal:0.2', 'sub:1,2', 'sub:1,10']
#[pyfunction]
pub fn census_sorted(mut games: Vec<String>) -> Vec<String> {
    games.sort_by_cached_key(|game| census::census_order(game));
    games
}

/// Adds the SQL of `docs/census.md` to the module, for the Python writer.
pub fn add_sql(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("CENSUS_SCHEMA", census::sql::SCHEMA)?;
    module.add("CENSUS_SCHEMA_VERSION", census::sql::SCHEMA_VERSION)?;
    module.add("CENSUS_PRAGMAS", census::sql::PRAGMAS.to_vec())?;
    module.add("CENSUS_COLUMNS", census::sql::COLUMNS.to_vec())?;
    module.add("CENSUS_UPSERT", census::sql::upsert())?;
    module.add("CENSUS_DONE", census::sql::DONE)?;
    module.add("CENSUS_BUSY_TIMEOUT_MS", census::sql::BUSY_TIMEOUT_MS)?;
    Ok(())
}
