//! Computes a nim-sequence with a chosen kernel and reports the time, for `bench/`.
//!
//! `cargo run --release -p grundy --example nim_sequence -- GAME LEN [auto|plain|rare|naive] [MASK]`
//! (`naive`: the textbook O(n²) loop, [`grundy::heap::sequence::definition_sequence`]).
//! where GAME is `octal:CODE`, `hex:CODE`, `kayles`, `dawson` or `grundys-game`. Prints one
//! line: game, length, kernel asked, seconds, the largest value and where it first occurs,
//! an FNV checksum of the values, the method the engine reports, the CPU time of the process,
//! and with MASK (a signed integer, `-2` for every bit but the lowest) how many heaps are rare
//! under it (the bits of G(n) under MASK have even parity) and the last of them.

use grundy::heap::grundys_game::GrundysGame;
use grundy::heap::octal::{CodeBase, OctalGame};
use grundy::heap::sequence::{Kernel, NimSequenceEngine};
use grundy::heap::{EngineBacked, HeapGame};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: nim_sequence GAME LEN [auto|plain|rare]");
        std::process::exit(2);
    }
    let len: usize = args[1].replace('_', "").parse().expect("LEN is a number");
    let kernel = match args.get(2).map(String::as_str) {
        None | Some("auto") => Kernel::Auto,
        Some("plain") => Kernel::Plain,
        Some("rare") => Kernel::RareValue,
        Some("naive") => Kernel::Auto,
        Some(other) => panic!("unknown kernel {other}"),
    };
    let octal;
    let grundy;
    let (game, engine): (&dyn HeapGame, &NimSequenceEngine) = match args[0].as_str() {
        "grundys-game" => {
            grundy = GrundysGame::new();
            (&grundy, grundy.engine())
        }
        text => {
            octal = match text {
                "kayles" => OctalGame::kayles(),
                "dawson" => OctalGame::dawson(),
                _ => match text.split_once(':') {
                    Some(("octal", code)) => OctalGame::parse(code, CodeBase::Octal).expect("a valid code"),
                    Some(("hex", code)) => OctalGame::parse(code, CodeBase::Hexadecimal).expect("a valid code"),
                    _ => panic!("unknown game {text}"),
                },
            };
            (&octal, octal.engine())
        }
    };
    engine.set_kernel(kernel);
    let start = Instant::now();
    let values = if args.get(2).map(String::as_str) == Some("naive") {
        grundy::heap::sequence::definition_sequence(engine.moves(), len)
    } else {
        let mut sequence = grundy::heap::CompactSequence::new();
        game.extend_sequence(&mut sequence, len, &Default::default()).expect("fits in memory");
        sequence.into_vec()
    };
    let seconds = start.elapsed().as_secs_f64();
    let (largest_at, largest) = values.iter().enumerate().max_by_key(|&(i, v)| (*v, std::cmp::Reverse(i))).unwrap();
    let checksum = values.iter().fold(0xcbf29ce484222325u64, |h, &v| (h ^ u64::from(v)).wrapping_mul(0x100000001b3));
    let rare = match args.get(3) {
        Some(mask) => {
            let mask = mask.parse::<i64>().expect("MASK is an integer") as u32;
            let rare: Vec<usize> =
                (0..values.len()).filter(|&heap| (values[heap] & mask).count_ones().is_multiple_of(2)).collect();
            format!(" rare={} last_rare={}", rare.len(), rare.last().map_or(-1, |&heap| heap as i64))
        }
        None => String::new(),
    };
    println!(
        "{} len={} kernel={} seconds={:.3} cpu_seconds={:.3} largest={} at={} checksum={:016x}{} method=\"{}\"",
        game.spec(),
        len,
        args.get(2).map_or("auto", String::as_str),
        seconds,
        cpu_seconds(),
        largest,
        largest_at,
        checksum,
        rare,
        game.method()
    );
}

/// User plus system CPU time of this process so far (all threads), from `/proc/self/stat`; the
/// machine is shared, so this says more about the work than the wall clock.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks = |index: usize| fields.get(index).and_then(|field| field.parse::<f64>().ok()).unwrap_or(0.0);
    // Fields 14 and 15 of the file (utime, stime) are 11 and 12 after the name; 100 ticks a second.
    (ticks(11) + ticks(12)) / 100.0
}
