//! Wythoff's game, each fast path beside its naive baseline in the same run:
//! - the P-position test on 64-bit pairs (squares in 128 bits) against the same test through
//!   big-integer square roots;
//! - the P-position test and every winning move of a pair of 300-digit numbers;
//! - the Grundy table at small sides, fast (bitsets, both cores) against the plain triple-loop
//!   mex. (The large sides, 2048 to 16384, are in the `wythoff_table` bench, which times single
//!   runs.)
//!
//! Run: `cargo bench -p grundy --bench wythoff && python3 bench/ratios.py`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use grundy::random::SplitMix64;
use grundy::wythoff::closed_form::{is_p_position, is_p_position_u64, lower, upper, winning_moves};
use grundy::wythoff::table::GrundyTable;
use num_bigint::BigUint;
use std::hint::black_box;

/// 1024 pairs up to 2^63, half of them P-positions and half one off.
fn word_pairs() -> Vec<(u64, u64)> {
    let mut random = SplitMix64::new(0x9e37_79b9_7f4a_7c15);
    (0..1024)
        .map(|index| {
            let k = BigUint::from(random.next_u64() >> 3);
            let (a, b) = (u64::try_from(lower(&k)).unwrap(), u64::try_from(upper(&k)).unwrap());
            if index % 2 == 0 { (a, b) } else { (a, b - 1) }
        })
        .collect()
}

fn p_position_test(c: &mut Criterion) {
    let pairs = word_pairs();
    let expected = pairs.iter().filter(|&&(x, y)| is_p_position(&x.into(), &y.into())).count();
    assert_eq!(pairs.iter().filter(|&&(x, y)| is_p_position_u64(x, y)).count(), expected);
    assert_eq!(expected, 512);
    let mut group = c.benchmark_group("wythoff_p_position");
    group.throughput(Throughput::Elements(pairs.len() as u64));
    group.bench_with_input(BenchmarkId::new("u64_squares", "1024 pairs"), &pairs, |b, pairs| {
        b.iter(|| pairs.iter().filter(|&&(x, y)| is_p_position_u64(black_box(x), black_box(y))).count())
    });
    group.bench_with_input(BenchmarkId::new("naive_bigint_sqrt", "1024 pairs"), &pairs, |b, pairs| {
        b.iter(|| pairs.iter().filter(|&&(x, y)| is_p_position(&black_box(x).into(), &black_box(y).into())).count())
    });
    group.finish();

    let k: BigUint = "31415926535897932384626433832795028841971693993751".repeat(6).parse().unwrap();
    let (a, b) = (lower(&k), upper(&k));
    let n_position = (&a + 12345u32, b.clone());
    assert!(is_p_position(&a, &b) && !is_p_position(&n_position.0, &n_position.1));
    let mut group = c.benchmark_group("wythoff_300_digits");
    group.bench_function("p_position_test", |bencher| bencher.iter(|| is_p_position(black_box(&a), black_box(&b))));
    group.bench_function("winning_moves", |bencher| {
        bencher.iter(|| winning_moves(black_box(&n_position.0), black_box(&n_position.1)))
    });
    group.finish();
}

fn small_tables(c: &mut Criterion) {
    let mut group = c.benchmark_group("wythoff_table_small");
    group.sample_size(10);
    for size in [256u64, 512] {
        assert_eq!(
            GrundyTable::compute(size, &grundy::control::Control::default()).unwrap(),
            GrundyTable::compute_plain(size, &grundy::control::Control::default()).unwrap()
        );
        group.bench_with_input(BenchmarkId::new("fast_bitsets_parallel", size), &size, |b, &size| {
            b.iter(|| GrundyTable::compute(size, &grundy::control::Control::default()).unwrap())
        });
        group.bench_with_input(BenchmarkId::new("plain_triple_loop", size), &size, |b, &size| {
            b.iter(|| GrundyTable::compute_plain(size, &grundy::control::Control::default()).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, p_position_test, small_tables);
criterion_main!(benches);
