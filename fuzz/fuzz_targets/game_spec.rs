//! Any GAME word: parsed, or refused with an error that quotes it briefly. Never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    match grundy::registry::parse_game(text) {
        Ok(game) => {
            let _ = game.spec();
        }
        Err(error) => assert!(error.to_string().len() < 2000, "an error longer than 2000 bytes"),
    }
});
