//! Any line typed into `grundy play`, against a few positions.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|typed: &str| {
    for words in [["nim", "3", "4", "5"].as_slice(), &["wythoff", "4,8"], &["kayles", "7"]] {
        let position = grundy::registry::parse_sum(words).expect("a valid position");
        let _ = grundy::play::find_typed_move(&position, typed);
    }
});
