//! Period finding, against the naive quadratic search in the same run.
//!
//! `cargo bench -p grundy --bench periods`
//!
//! - `window/*`: subtraction games with max S near 10^4 whose preperiod + period reach 10^7,
//!   proved by the rolling-hash window argument (`find_period` computes the sequence too).
//!   The naive baseline compares every window with every earlier one (O((e+p)²·m) worst, with
//!   early exits); it only finishes in bench time on the smallest game (e + p = 2508).
//! - `octal/*`: sequences shaped like 0.16 (preperiod 105 351, period 149 459) and .354
//!   (preperiod 10 061 916, period 1180), t = 2, from a stand-in game whose values cost a few
//!   nanoseconds, so that the search (growth, checks, proof) is what is timed. The naive
//!   baseline tries every (p, e) in increasing order on the finished prefix and checks the
//!   theorem's range directly.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use grundy::control::Control;
use grundy::heap::period::find_period;
use grundy::heap::subtraction::{SubtractionGame, extend_sequence};
use grundy::heap::{CompactSequence, HeapGame, Periodicity};
use grundy::random::SplitMix64;
use std::hint::black_box;
use std::time::Duration;

/// A sequence pseudo-random (values below `range`) up to `preperiod`, then periodic.
struct Shaped {
    preperiod: usize,
    period: usize,
    range: u32,
}

impl Shaped {
    fn value(&self, heap: usize) -> u32 {
        let index = if heap < self.preperiod { heap } else { self.preperiod + (heap - self.preperiod) % self.period };
        // The first draw of the index's own stream: a fixed pseudo-random value a heap.
        ((SplitMix64::new(index as u64).next_u64() >> 33) % u64::from(self.range)) as u32
    }
}

impl HeapGame for Shaped {
    fn spec(&self) -> String {
        format!("shaped:{}:{}", self.preperiod, self.period)
    }
    fn extend_sequence(&self, values: &mut CompactSequence, len: usize, _: &Control) -> grundy::heap::Extended {
        let values = values.words_mut();
        while values.len() < len {
            values.push(self.value(values.len()));
        }
        Ok(true)
    }
    fn periodicity(&self) -> Periodicity {
        Periodicity::Octal { max_removal: 2, max_parts: 2 }
    }
    fn heap_options(&self, _: u64) -> Vec<Vec<u64>> {
        Vec::new()
    }
}

/// The naive window search: the first `b` whose window equals an earlier one.
fn naive_window(set: &[u64]) -> (usize, usize) {
    let set = grundy::heap::subtraction::SubtractionSet::new(set.to_vec()).unwrap();
    let window = set.max() as usize;
    let mut values = Vec::new();
    let mut repeat = 0;
    loop {
        extend_sequence(&set, &mut values, repeat + window);
        for first in 0..repeat {
            if values[first..first + window] == values[repeat..repeat + window] {
                return (first, repeat - first);
            }
        }
        repeat += 1;
    }
}

/// The naive octal search: for p = 1, 2, … and e = 0, 1, … check the theorem's range.
fn naive_octal(values: &[u32], removal: usize) -> Option<(usize, usize)> {
    let n = values.len();
    for period in 1..n {
        for preperiod in 0..n {
            let from = preperiod.max(1);
            let bound = 2 * from + period + removal;
            if bound + period > n {
                break;
            }
            if (preperiod..bound).all(|heap| values[heap + period] == values[heap]) {
                return Some((preperiod, period));
            }
        }
    }
    None
}

fn proved(game: &dyn HeapGame, values: &mut CompactSequence, max_heap: u64) -> (u64, u64) {
    let report = find_period(game, values, max_heap, &Control::default(), &mut |_| {}).unwrap();
    let (period, _) = report.proved.expect("a period is proved");
    (period.preperiod, period.period)
}

fn window(c: &mut Criterion) {
    let mut group = c.benchmark_group("window");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(10));
    for set in [vec![7, 500, 997], vec![100, 401, 1000], vec![7, 5000, 9973], vec![1000, 4001, 10000]] {
        let game = SubtractionGame::new(set.clone()).unwrap();
        let name = format!("sub:{}", set.iter().map(u64::to_string).collect::<Vec<_>>().join(","));
        group.bench_function(BenchmarkId::new("rolling-hash", &name), |b| {
            b.iter(|| proved(black_box(&game), &mut CompactSequence::new(), 1 << 25));
        });
        if set[2] < 1000 {
            let (e, p) = proved(&game, &mut CompactSequence::new(), 1 << 25);
            assert_eq!(naive_window(&set), (e as usize, p as usize));
            group.bench_function(BenchmarkId::new("naive", &name), |b| b.iter(|| naive_window(black_box(&set))));
        }
    }
    group.finish();
}

fn octal(c: &mut Criterion) {
    let mut group = c.benchmark_group("octal");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(10));
    for (name, shape) in [
        ("small e=2000 p=3000", Shaped { preperiod: 2000, period: 3000, range: 8 }),
        ("0.16-shaped", Shaped { preperiod: 105_351, period: 149_459, range: 16 }),
        (".354-shaped", Shaped { preperiod: 10_061_916, period: 1180, range: 8 }),
    ] {
        let needed = 2 * shape.preperiod + 2 * shape.period + 2;
        let mut full = CompactSequence::new();
        shape.extend_sequence(&mut full, needed, &Control::default()).unwrap();
        let full = full.into_vec();
        // From nothing, as `grundy period` runs: grow, check, stop at the proof.
        let mut grown = CompactSequence::new();
        assert_eq!(proved(&shape, &mut grown, 1 << 25), (shape.preperiod as u64, shape.period as u64));
        assert_eq!(grown.len(), needed, "the search stops at the shortest proof");
        group.bench_function(BenchmarkId::new("find_period", name), |b| {
            b.iter(|| proved(black_box(&shape), &mut CompactSequence::new(), 1 << 25));
        });
        if shape.preperiod < 10_000 {
            assert_eq!(naive_octal(&full, 2), Some((shape.preperiod, shape.period)));
            group.bench_function(BenchmarkId::new("naive", name), |b| b.iter(|| naive_octal(black_box(&full), 2)));
        }
    }
    group.finish();
}

criterion_group!(benches, window, octal);
criterion_main!(benches);
