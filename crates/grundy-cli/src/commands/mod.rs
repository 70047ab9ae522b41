//! One module per subcommand.

pub mod moves;
pub mod outcome;
pub mod play;
pub mod plot;
pub mod rules;
pub mod table;
pub mod value;
