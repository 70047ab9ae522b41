//! Computes a nim-sequence with a chosen kernel and reports the time, for `bench/`.
//!
//! `cargo run --release -p grundy --example nim_sequence -- GAME LEN [auto|plain|rare]`
//! where GAME is `octal:CODE`, `hex:CODE`, `kayles`, `dawson` or `grundys-game`. Prints one
//! line: game, length, kernel asked, seconds, the largest value and where it first occurs,
//! an FNV checksum of the values, and the method the engine reports.

use grundy::heap::HeapGame;
use grundy::heap::grundys_game::GrundysGame;
use grundy::heap::octal::{CodeBase, OctalGame};
use grundy::heap::sequence::{Kernel, NimSequenceEngine};
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
    let mut values = Vec::new();
    let start = Instant::now();
    game.extend_sequence(&mut values, len, &Default::default()).expect("fits in memory");
    let seconds = start.elapsed().as_secs_f64();
    let (largest_at, largest) = values.iter().enumerate().max_by_key(|&(i, v)| (*v, std::cmp::Reverse(i))).unwrap();
    let checksum = values.iter().fold(0xcbf29ce484222325u64, |h, &v| (h ^ u64::from(v)).wrapping_mul(0x100000001b3));
    println!(
        "{} len={} kernel={:?} seconds={:.3} largest={} at={} checksum={:016x} method=\"{}\"",
        game.spec(),
        len,
        kernel,
        seconds,
        largest,
        largest_at,
        checksum,
        game.method()
    );
}
