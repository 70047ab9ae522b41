//! Memory a script game's solver keeps for each position it remembers, counted by a global
//! allocator that tracks the bytes live (no timing): under 200 bytes a position for heaps,
//! pairs (HDU 1729's boxes) and longer tuples, and the peak during the search within a small
//! multiple of that (the search's stack is held to its allowance).
//!
//! `cargo test -p grundy --features script --test script_memory -- --nocapture` prints the
//! figures recorded in bench/RESULTS.md.
#![cfg(feature = "script")]
// A global allocator can only be written with `unsafe` (`GlobalAlloc` is an unsafe trait):
// every call is forwarded to `System` unchanged, and two counters are kept.
#![allow(unsafe_code)]

use grundy::script::{ScriptGame, ScriptLimits, ScriptPosition, ScriptSolver};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;
use std::sync::atomic::{AtomicIsize, Ordering};

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let pointer = unsafe { System.alloc(layout) };
        if !pointer.is_null() {
            let live = LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed) + layout.size() as isize;
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        pointer
    }
    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        unsafe { System.dealloc(pointer, layout) };
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
    }
    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let moved = unsafe { System.realloc(pointer, layout, new_size) };
        if !moved.is_null() {
            let change = new_size as isize - layout.size() as isize;
            let live = LIVE.fetch_add(change, Ordering::Relaxed) + change;
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        moved
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// One measurement at a time (the counters are the process's).
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The bytes kept and the peak above the loaded script, a position remembered, after asking
/// the value of each of `positions` of `script`.
fn measure(script: &str, positions: &[ScriptPosition]) -> (usize, f64, f64) {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let game = ScriptGame::load("memory.star", script, ScriptLimits::default()).unwrap();
    let mut solver = ScriptSolver::new(game, 50_000_000);
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    for position in positions {
        solver.value(position).unwrap();
    }
    let kept = LIVE.load(Ordering::Relaxed) - before;
    let peak = PEAK.load(Ordering::Relaxed) - before;
    let known = solver.positions_known();
    (known, kept as f64 / known as f64, peak as f64 / known as f64)
}

const BOXES: &str = "
def moves(p):
    s, c = p
    return [(s, c + k) for k in range(1, min(c * c, s - c) + 1)]
";

const KAYLES: &str = "
def moves(n):
    return [Sum(a, n - k - a) for k in [1, 2] for a in range(n - k + 1)]
";

/// Three rows of heaps, take from one (Nim on a tuple of three: no compact key).
const TRIPLES: &str = "
def moves(p):
    out = []
    for i in range(3):
        for smaller in range(p[i]):
            q = list(p)
            q[i] = smaller
            out.append(tuple(q))
    return out
";

#[test]
fn a_remembered_script_position_takes_under_200_bytes() {
    let cases: Vec<(&str, &str, Vec<ScriptPosition>)> = vec![
        ("HDU 1729 boxes (3000, c)", BOXES, vec![ScriptPosition::Tuple(vec![3000, 1])]),
        (
            "HDU 1729 boxes, 3 capacities near 10^5, 2000 stones from full",
            BOXES,
            (0..3).map(|i| ScriptPosition::Tuple(vec![100_000 - i, 98_000 - i])).collect(),
        ),
        ("Kayles heaps 0..1500", KAYLES, vec![ScriptPosition::Int(1500)]),
        ("Nim on triples (a, b, c) below 24", TRIPLES, vec![ScriptPosition::Tuple(vec![23, 23, 23])]),
    ];
    for (name, script, positions) in cases {
        let (known, kept, peak) = measure(script, &positions);
        println!("{name}: {known} positions, {kept:.1} bytes kept a position, peak {peak:.1} bytes a position");
        assert!(known >= 1500, "{name}: {known} positions");
        assert!(kept < 200.0, "{name}: {kept:.1} bytes a position");
        // The peak adds the search's stack (held to 64 bytes a position past 4 MiB) and one
        // call of the script (its heap, the options it returns): 16 MiB at most here.
        assert!(peak < 200.0 + 64.0 + (16 << 20) as f64 / known as f64, "{name}: peak {peak:.1} bytes a position");
    }
}
