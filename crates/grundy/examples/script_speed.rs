//! The speed goals of script games (issue 12), measured in one run: a rule written as a
//! Starlark script against the same rule written as a Rust `Game`, both through the same
//! memoized solver (`grundy::script::solver::SplitSolver`).
//!
//! A: subtraction set {1, 3, 4, 7, 11}, values of heaps 0..=200000 (goal: script within 3×).
//! B: Wythoff's game, values of all pairs (x, y) with x, y < 300 (goal: within 3×).
//!
//! Two more lines on B for the record, not for the goal: the script with the solver's direct
//! tables turned off (every compact key hashed, as before they existed), and the Rust game
//! given the same compact keys as the script (so it uses the direct table too).
//!
//! `cargo run --release -p grundy --features script --example script_speed` (see
//! `bench/script.sh`, which records the output in `bench/logs/`).

use grundy::GameError;
use grundy::game::Game;
use grundy::heap::subtraction::SubtractionGame;
use grundy::script::solver::{OptionList, PlainGame, SplitGame, SplitSolver, pair_key};
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

/// The Rust Wythoff with the script's compact keys for pairs.
struct KeyedWythoff;

impl SplitGame for KeyedWythoff {
    type State = (u64, u64);
    fn expand(&self, position: &(u64, u64), out: &mut OptionList<(u64, u64)>) -> Result<(), GameError> {
        PlainGame(Wythoff::new()).expand(position, out)
    }
    fn compact_key(&self, &(x, y): &(u64, u64)) -> Option<u64> {
        pair_key(i64::try_from(x).ok()?, i64::try_from(y).ok()?)
    }
}

/// The values of all pairs below `side`, as text.
fn all_pairs<G: SplitGame>(solver: &mut SplitSolver<G>, side: i64, pair: impl Fn(i64, i64) -> G::State) -> Vec<String> {
    let mut values = Vec::new();
    for x in 0..side {
        for y in 0..side {
            values.push(solver.value(&pair(x, y)).unwrap().to_string());
        }
    }
    values
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
    let script_pair = |x, y| ScriptPosition::Tuple(vec![x, y]);
    let rust_pair = |x: i64, y: i64| (x as u64, y as u64);
    let (script_values, script_seconds) = timed(|| all_pairs(&mut script(WYTHOFF), SIDE, script_pair));
    let (rust_values, rust_seconds) = timed(|| all_pairs(&mut rust(Wythoff::new()), SIDE, rust_pair));
    assert_eq!(script_values, rust_values, "the script and the Rust game disagree");
    println!(
        "B  Wythoff, all pairs below {SIDE}: script {script_seconds:.3} s, Rust Game {rust_seconds:.3} s, ratio {:.2}x",
        script_seconds / rust_seconds
    );
    let (hashed_values, hashed_seconds) =
        timed(|| all_pairs(&mut script(WYTHOFF).with_direct_tables(false), SIDE, script_pair));
    let (keyed_values, keyed_seconds) =
        timed(|| all_pairs(&mut SplitSolver::new(KeyedWythoff, 50_000_000), SIDE, rust_pair));
    assert_eq!(hashed_values, rust_values, "the script without direct tables disagrees");
    assert_eq!(keyed_values, rust_values, "the keyed Rust game disagrees");
    println!(
        "B' script without direct tables {hashed_seconds:.3} s ({:.2}x the Rust Game); Rust Game with the script's keys (direct table) {keyed_seconds:.3} s (script {:.2}x it)",
        hashed_seconds / rust_seconds,
        script_seconds / keyed_seconds
    );
}
