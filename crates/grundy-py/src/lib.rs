//! The `grundy` Python package: bindings of the grundy library (`grundy._grundy`), built by
//! maturin (`pip install .` at the repository root). The Python answers are the library's:
//! games are parsed by its registry, values come from its sum evaluator and families.
//!
//! `extension-module` (no link to libpython) is a feature maturin turns on, so that
//! `cargo test --workspace` builds and links this crate as an ordinary library.

#![deny(unsafe_code)]

mod census;
mod command;
mod convert;
mod game;
mod ints;
mod long;
mod plot;
mod user;

use pyo3::prelude::*;

/// Impartial combinatorial games: Grundy values, outcomes, winning moves, nim-sequences and
/// their periods.
#[pymodule]
fn _grundy(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<game::Game>()?;
    module.add_class::<game::Move>()?;
    module.add_class::<game::MoveList>()?;
    module.add_class::<game::Period>()?;
    module.add_class::<user::Sum>()?;
    module.add_class::<convert::Infinite>()?;
    module.add_class::<plot::Plot>()?;
    module.add_function(wrap_pyfunction!(game::table, module)?)?;
    module.add_function(wrap_pyfunction!(census::census_games, module)?)?;
    module.add_function(wrap_pyfunction!(census::census_row, module)?)?;
    module.add_function(wrap_pyfunction!(census::census_default_max_heap, module)?)?;
    module.add_function(wrap_pyfunction!(census::census_sorted, module)?)?;
    module.add_function(wrap_pyfunction!(command::run_command, module)?)?;
    census::add_sql(module)?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
