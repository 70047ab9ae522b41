//! Any coin rule and row: `coins:RULE` parsed, then a row of H/T or a coin number valued.
//! The text before the first newline is the rule, the rest the components.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let (rule, row) = text.split_once('\n').unwrap_or((text, "H"));
    if row.len() > 256 {
        return;
    }
    if let Ok(game) = grundy::registry::parse_game(&format!("coins:{rule}")) {
        let components: Vec<&str> = row.split(' ').collect();
        let _ = grundy::sum::Position::parse_single(game, &components).and_then(|position| position.value());
    }
});
