//! Any component text, for games whose value is cheap at any size: a value or a short error.
//! The first byte picks the game; the rest is split on spaces into components.
#![no_main]
use libfuzzer_sys::fuzz_target;

const GAMES: [&str; 6] = ["nim", "bash:3", "sub:2,5", "wythoff", "coins:turtles", "corners"];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    if text.len() > 4096 {
        return;
    }
    let game = grundy::registry::parse_game(GAMES[pick as usize % GAMES.len()]).expect("a valid game");
    let components: Vec<&str> = text.split(' ').collect();
    if let Err(error) = grundy::sum::Position::parse_single(game, &components).and_then(|position| position.outcome()) {
        assert!(error.to_string().len() < 2000, "an error longer than 2000 bytes");
    }
});
