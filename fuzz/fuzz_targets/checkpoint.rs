//! Any checkpoint bytes: decoded for a game, or refused. Never a panic or a huge allocation.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let _ = grundy::heap::checkpoint::read_header(bytes);
    if let Ok(values) = grundy::heap::checkpoint::decode(bytes, "sub:2,5") {
        let game = grundy::heap::subtraction::SubtractionGame::new(vec![2, 5]).expect("a valid set");
        let _ = grundy::heap::checkpoint::spot_check(&game, &values);
    }
});
