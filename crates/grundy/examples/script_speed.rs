//! The speed goals of script games (issue 12), measured in one run: a rule written as a
//! Starlark script against the same rule written as a Rust `Game`, both through the same
//! memoized solver (`grundy::script::solver::SplitSolver`).
//!
//! A: subtraction set {1, 3, 4, 7, 11}, values of heaps 0..=200000 (goal: script within 3×).
//! B: Wythoff's game, values of all pairs (x, y) with x, y < 300 (goal: within 3×).
//!
//! `cargo run --release -p grundy --features script --example script_speed` (see
//! `bench/script.sh`, which records the output in `bench/logs/`).

use grundy::game::Game;
use grundy::heap::subtraction::SubtractionGame;
use grundy::script::solver::{PlainGame, SplitSolver};
use grundy::script::{ScriptGame, ScriptLimits, ScriptPosition};
use grundy::wythoff::Wythoff;
use std::time::Instant;

const SUBTRACTION: &str = "
def moves(n):
    return [n - s for s in [1, 3, 4, 7, 11] if s <= n]
";

const WYTHOFF: &str = "
def moves(p):
    x, y = p
    return ([(a, y) for a in range(x)] +
            [(x, b) for b in range(y)] +
            [(x - k, y - k) for k in range(1, min(x, y) + 1)])
";

/// Runs `work` and returns its result with the seconds it took.
fn timed<T>(work: impl FnOnce() -> T) -> (T, f64) {
    let started = Instant::now();
    let result = work();
    (result, started.elapsed().as_secs_f64())
}

fn script(source: &str) -> SplitSolver<ScriptGame> {
    let game = ScriptGame::load("bench.star", source, ScriptLimits::default()).expect("the bench script loads");
    SplitSolver::new(game, 50_000_000)
}

fn rust<G: Game>(game: G) -> SplitSolver<PlainGame<G>> {
    SplitSolver::new(PlainGame(game), 50_000_000)
}

fn main() {
    const HEAPS: u64 = 200_000;
    let (script_values, script_seconds) = timed(|| {
        let mut solver = script(SUBTRACTION);
        (0..=HEAPS).map(|n| solver.value(&ScriptPosition::Int(n)).unwrap().to_string()).collect::<Vec<_>>()
    });
    let (rust_values, rust_seconds) = timed(|| {
        let mut solver = rust(SubtractionGame::new(vec![1, 3, 4, 7, 11]).unwrap());
        (0..=HEAPS).map(|n| solver.value(&n).unwrap().to_string()).collect::<Vec<_>>()
    });
    assert_eq!(script_values, rust_values, "the script and the Rust game disagree");
    println!(
        "A  sub {{1,3,4,7,11}}, heaps 0..={HEAPS}: script {script_seconds:.3} s, Rust Game {rust_seconds:.3} s, ratio {:.2}x",
        script_seconds / rust_seconds
    );

    const SIDE: i64 = 300;
    let (script_values, script_seconds) = timed(|| {
        let mut solver = script(WYTHOFF);
        let mut values = Vec::new();
        for x in 0..SIDE {
            for y in 0..SIDE {
                values.push(solver.value(&ScriptPosition::Tuple(vec![x, y])).unwrap().to_string());
            }
        }
        values
    });
    let (rust_values, rust_seconds) = timed(|| {
        let mut solver = rust(Wythoff);
        let mut values = Vec::new();
        for x in 0..SIDE as u64 {
            for y in 0..SIDE as u64 {
                values.push(solver.value(&(x, y)).unwrap().to_string());
            }
        }
        values
    });
    assert_eq!(script_values, rust_values, "the script and the Rust game disagree");
    println!(
        "B  Wythoff, all pairs below {SIDE}: script {script_seconds:.3} s, Rust Game {rust_seconds:.3} s, ratio {:.2}x",
        script_seconds / rust_seconds
    );
}
