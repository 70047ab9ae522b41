//! Benchmarks of the foundation, each beside its naive baseline in the same run:
//! - the 64-bit nim-product (tables + Karatsuba) against Conway's plain recursion;
//! - the generic memo solver's throughput (positions a second) and memory a position;
//! - the subtraction-game DP against the generic solver on the same game.
//!
//! Run: `cargo bench -p grundy --bench foundation`. Every benchmark also checks its answer.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use grundy::game::Game;
use grundy::heap::subtraction::{SubtractionSet, extend_sequence};
use grundy::nimber::{nim_inverse, nim_mul};
use grundy::random::SplitMix64;
use grundy::solve::memo::Solver;
use std::hint::black_box;

/// Conway's recursive definition, the naive baseline for the product.
fn nim_mul_recursive(a: u64, b: u64, bits: u32) -> u64 {
    if a < 2 || b < 2 {
        return a * b;
    }
    let half = bits / 2;
    let mask = (1u64 << half) - 1;
    let (a_high, a_low, b_high, b_low) = (a >> half, a & mask, b >> half, b & mask);
    let high_high = nim_mul_recursive(a_high, b_high, half);
    let low_low = nim_mul_recursive(a_low, b_low, half);
    let cross = nim_mul_recursive(a_high, b_low, half) ^ nim_mul_recursive(a_low, b_high, half);
    let high_high_half = nim_mul_recursive(high_high, 1 << (half - 1), half);
    ((cross ^ high_high) << half) | (low_low ^ high_high_half)
}

fn random_words(count: usize) -> Vec<u64> {
    let mut random = SplitMix64::new(0x9e37_79b9_7f4a_7c15);
    (0..count).map(|_| random.next_u64()).collect()
}

fn nim_product(criterion: &mut Criterion) {
    let words = random_words(1024);
    for pair in words.chunks(2) {
        assert_eq!(nim_mul(pair[0], pair[1]), nim_mul_recursive(pair[0], pair[1], 64));
    }
    let mut group = criterion.benchmark_group("nim_product_64bit");
    group.throughput(Throughput::Elements(512));
    group.bench_function("tables_karatsuba", |bench| {
        bench.iter(|| words.chunks(2).fold(0, |acc, pair| acc ^ nim_mul(black_box(pair[0]), black_box(pair[1]))))
    });
    group.bench_function("plain_recursion", |bench| {
        bench.iter(|| {
            words.chunks(2).fold(0, |acc, pair| acc ^ nim_mul_recursive(black_box(pair[0]), black_box(pair[1]), 64))
        })
    });
    group.finish();
    let mut group = criterion.benchmark_group("nim_inverse_64bit");
    group.throughput(Throughput::Elements(512));
    group.bench_function("norm_tower", |bench| {
        bench.iter(|| words.chunks(2).fold(0, |acc, pair| acc ^ nim_inverse(black_box(pair[0] | 1))))
    });
    group.finish();
}

/// A take-away game on one heap with word-sized positions: what the generic solver is timed
/// on, without the sums of heaps that `grundy::heap::HeapSum` searches.
struct TakeAway(SubtractionSet);

impl Game for TakeAway {
    type State = u64;
    fn options_into(&self, heap: &u64, out: &mut Vec<u64>) {
        out.extend(self.0.elements().iter().take_while(|&&take| take <= *heap).map(|take| heap - take));
    }
}

fn generic_solver(criterion: &mut Criterion) {
    let game = TakeAway(SubtractionSet::new(vec![1, 3, 4]).unwrap());
    let heap = 3_000_000u64;
    let mut solver = Solver::new(&game);
    assert_eq!(solver.grundy_value(&heap).unwrap().0, [0, 1, 0, 1, 2, 3, 2][(heap % 7) as usize]);
    let bytes = solver.memo_bytes() as f64 / solver.positions_evaluated() as f64;
    println!("generic solver: {} positions memoized, {bytes:.1} bytes a position", solver.positions_evaluated());
    let mut group = criterion.benchmark_group("generic_solver");
    group.sample_size(10);
    group.throughput(Throughput::Elements(heap + 1));
    group.bench_function("sub_1_3_4_heap_3e6", |bench| {
        bench.iter(|| Solver::new(&game).grundy_value(black_box(&heap)).unwrap())
    });
    group.finish();
}

fn subtraction_dp(criterion: &mut Criterion) {
    let mut group = criterion.benchmark_group("subtraction_dp");
    group.sample_size(10);
    for (name, elements) in
        [("S=1,3,4", vec![1u64, 3, 4]), ("S=2,5,7,11,13,17,19,23", vec![2, 5, 7, 11, 13, 17, 19, 23])]
    {
        let set = SubtractionSet::new(elements.clone()).unwrap();
        let game = TakeAway(SubtractionSet::new(elements).unwrap());
        let len = 1_000_000usize;
        let mut values = Vec::new();
        extend_sequence(&set, &mut values, len);
        let mut solver = Solver::new(&game);
        assert_eq!(u64::from(values[len - 1]), solver.grundy_value(&(len as u64 - 1)).unwrap().0);
        group.throughput(Throughput::Elements(len as u64));
        group.bench_with_input(BenchmarkId::new("table_dp", name), &len, |bench, &len| {
            bench.iter(|| {
                let mut values = Vec::new();
                extend_sequence(&set, &mut values, len);
                values[len - 1]
            })
        });
        group.bench_with_input(BenchmarkId::new("generic_solver", name), &len, |bench, &len| {
            bench.iter(|| Solver::new(&game).grundy_value(&(len as u64 - 1)).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, nim_product, generic_solver, subtraction_dp);
criterion_main!(benches);
