//! Turning the GAME word of the command line into a ruleset.

use grundy::ruleset::Ruleset;

/// The arguments every position command takes: a game and its components.
#[derive(clap::Args, Debug)]
pub struct PositionArgs {
    /// The game: nim, bash:M, sub:S, … (`grundy rules` lists every form).
    pub game: String,
    /// The components of the position (heap sizes, …); none is the empty sum.
    #[arg(allow_negative_numbers = true)]
    pub components: Vec<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Parses the GAME word.
pub fn resolve(game: &str) -> anyhow::Result<Box<dyn Ruleset>> {
    Ok(grundy::spec::parse_game_with(game, &crate::input::read_graph_file)?)
}

impl PositionArgs {
    /// The common head of every JSON answer: the game and the position as typed.
    pub fn json_head(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut head = serde_json::Map::new();
        head.insert("game".into(), self.game.clone().into());
        head.insert("position".into(), self.components.clone().into());
        head
    }
}
