//! Times the misère outcome of twenty Kayles heaps of at most 70 pins (issue 14's goal: under
//! a second, via the quotient). Run: `cargo run --release -p grundy --example misere_twenty`.
use grundy::heap::octal::OctalGame;
use grundy::misere::{Limits, heap_sum_outcome};
use std::time::Instant;

fn main() {
    let kayles = OctalGame::kayles();
    let twenty: Vec<u64> = (0..20).map(|index| (index * 37 + 11) % 71).collect();
    let start = Instant::now();
    let (outcome, method) =
        heap_sum_outcome(&kayles, &twenty, Limits::default(), &grundy::control::Control::default()).unwrap();
    println!("kayles {twenty:?}: {outcome} {method} in {:.3} s", start.elapsed().as_secs_f64());
}
