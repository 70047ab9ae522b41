//! The Wythoff Grundy table at 2048, 4096 and 16384 on a side, timed in single runs (criterion
//! would repeat a 10-second run ten times), beside two baselines in the same run:
//! - `plain triple loop`: every cell the mex of all its options (`O(n³)`, one core); run up to
//!   `WYTHOFF_PLAIN_MAX` (default 4096: about 8× the 2048 time; at 16384 it would take 4096³
//!   times 64, hours, so it is not run there);
//! - `plain bitsets`: one bitset per row, column and diagonal, each cell scanning the union from
//!   value 0 (one core, the whole square), up to `WYTHOFF_BITSET_MAX` (default 8192).
//!
//! Every result is checked equal to the fast table of the same side.
//!
//! Run: `cargo bench -p grundy --bench wythoff_table`.

use grundy::wythoff::table::GrundyTable;
use std::time::{Duration, Instant};

/// The plain bitset method: one core, no symmetry, every scan from word 0.
fn plain_bitsets(size: usize) -> Vec<u32> {
    let words = (2 * size).div_ceil(64);
    let mut rows = vec![0u64; size * words];
    let mut columns = vec![0u64; size * words];
    // Diagonal y − x + size − 1.
    let mut diagonals = vec![0u64; (2 * size) * words];
    let mut values = vec![0u32; size * size];
    for x in 0..size {
        for y in 0..size {
            let d = y + size - 1 - x;
            let mut word = 0;
            let value = loop {
                let taken = rows[x * words + word] | columns[y * words + word] | diagonals[d * words + word];
                if taken != u64::MAX {
                    break word * 64 + taken.trailing_ones() as usize;
                }
                word += 1;
            };
            values[x * size + y] = value as u32;
            let (index, bit) = (value / 64, 1u64 << (value % 64));
            rows[x * words + index] |= bit;
            columns[y * words + index] |= bit;
            diagonals[d * words + index] |= bit;
        }
    }
    values
}

fn time<T>(work: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let result = work();
    (result, start.elapsed())
}

fn limit(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|text| text.parse().ok()).unwrap_or(default)
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument is not supported here.
    let plain_max = limit("WYTHOFF_PLAIN_MAX", 4096);
    let bitset_max = limit("WYTHOFF_BITSET_MAX", 8192);
    println!("threads: {}", rayon::current_num_threads());
    println!("{:>6}  {:>12}  {:>24}  {:>24}", "side", "fast", "plain bitsets (ratio)", "plain triple loop (ratio)");
    for size in [2048u64, 4096, 8192, 16384] {
        let (fast, fast_time) = time(|| GrundyTable::compute(size, &grundy::control::Control::default()).unwrap());
        let mut bitset_column = "not run".to_owned();
        if size <= bitset_max {
            let (values, elapsed) = time(|| plain_bitsets(size as usize));
            for x in 0..size as usize {
                assert_eq!(&values[x * size as usize..(x + 1) * size as usize], fast.row(x), "row {x}");
            }
            bitset_column = format!("{:.2?} ({:.1}x)", elapsed, elapsed.as_secs_f64() / fast_time.as_secs_f64());
        }
        let mut plain_column = "not run".to_owned();
        if size <= plain_max {
            let (plain, elapsed) =
                time(|| GrundyTable::compute_plain(size, &grundy::control::Control::default()).unwrap());
            assert_eq!(plain, fast);
            plain_column = format!("{:.2?} ({:.1}x)", elapsed, elapsed.as_secs_f64() / fast_time.as_secs_f64());
        }
        println!("{size:>6}  {:>12}  {bitset_column:>24}  {plain_column:>24}", format!("{fast_time:.2?}"));
    }
}
