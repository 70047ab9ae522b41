//! Reads a checkpoint of Grundy's game (`grundy sequence grundys-game --to N --checkpoint FILE`)
//! and reports its rare values, for `bench/`.
//!
//! `cargo run --release -p grundy --example checkpoint_stats -- FILE [CHECK]`
//!
//! Prints the number of values, how many heaps are rare (the bits of `G(n)` other than the
//! lowest have even parity, heap 0 included: Flammenkamp's count), the last rare heap, the
//! largest value and where it first occurs, and an FNV checksum of the first `CHECK` values
//! (default 2^20) next to the same checksum of the engine's plain kernel (every option looked
//! at, no sparse space) computed here: `agree` when every one of those values is equal.

use grundy::control::Control;
use grundy::heap::checkpoint::decode;
use grundy::heap::grundys_game::GrundysGame;
use grundy::heap::sequence::Kernel;
use grundy::heap::{EngineBacked, HeapGame};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: checkpoint_stats FILE [CHECK]");
        std::process::exit(2);
    };
    let check: usize = args.get(1).map_or(1 << 20, |text| text.parse().expect("CHECK is a number"));
    let bytes = std::fs::read(path).expect("a readable checkpoint");
    let values = decode(&bytes, "grundys-game").expect("a checkpoint of Grundy's game").into_vec();
    drop(bytes);
    let rare: Vec<usize> =
        (0..values.len()).filter(|&heap| (values[heap] & !1).count_ones().is_multiple_of(2)).collect();
    let (largest_at, largest) =
        values.iter().enumerate().max_by_key(|&(heap, value)| (*value, std::cmp::Reverse(heap))).expect("values");
    let fnv = |values: &[u32]| {
        values.iter().fold(0xcbf29ce484222325u64, |h, &v| (h ^ u64::from(v)).wrapping_mul(0x100000001b3))
    };
    let check = check.min(values.len());
    let game = GrundysGame::new();
    game.engine().set_kernel(Kernel::Plain);
    let mut plain = grundy::heap::CompactSequence::new();
    game.extend_sequence(&mut plain, check, &Control::default()).expect("fits in memory");
    let plain = plain.into_vec();
    println!(
        "values={} rare={} last_rare={} largest={} at={} first={} checksum={:016x} plain_checksum={:016x} {}",
        values.len(),
        rare.len(),
        rare.last().map_or(-1, |&heap| heap as i64),
        largest,
        largest_at,
        check,
        fnv(&values[..check]),
        fnv(&plain),
        if plain == values[..check] { "agree" } else { "DIFFER" }
    );
    println!("rare heaps: {rare:?}");
}
