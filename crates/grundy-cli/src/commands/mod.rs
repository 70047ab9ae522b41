//! One module per subcommand.

pub mod census;
pub mod check;
pub mod compound;
pub mod genus;
pub mod guess;
pub mod guess_family;
pub mod moves;
pub mod outcome;
pub mod period;
pub mod play;
pub mod plot;
pub mod quotient;
pub mod rules;
pub mod sequence;
pub mod serve;
pub mod stats;
pub mod table;
pub mod value;
