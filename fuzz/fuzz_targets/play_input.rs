//! Any line typed into `grundy play`, against a few positions.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|typed: &str| {
    for (game, position) in [("nim", vec!["3", "4", "5"]), ("wythoff", vec!["4,8"]), ("kayles", vec!["7"])] {
        let game = grundy::spec::parse_game(game).expect("a valid game");
        let position: Vec<String> = position.into_iter().map(str::to_owned).collect();
        let _ = grundy::play::find_typed_move(game.as_ref(), &position, typed);
    }
});
