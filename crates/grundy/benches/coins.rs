//! Single-coin value tables of coin-turning rules, each beside a naive baseline in the same
//! run: the naive table lists every set of coins the rule allows for every coin and takes the
//! mex of their xors, the definition written out.
//!
//! Run: `cargo bench -p grundy --bench coins && python3 bench/ratios.py`. Every benchmark
//! checks that both tables agree first.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use grundy::coins::rule::CoinRule;
use grundy::coins::values::{definition_table, value_table};
use std::hint::black_box;

fn tables(c: &mut Criterion) {
    let mut group = c.benchmark_group("coin_tables");
    group.sample_size(10);
    // (method, rule, coins, whether the naive table is run at the same size)
    let cases = [
        ("trie", "turn=0..;consecutive", 10_000u64, true),
        ("trie", "turn=2..5,9..;consecutive", 1_000_000, false),
        ("trie", "turn=1..;consecutive;within=40", 1_000_000, true),
        ("bitsets", "turn=1..3", 600, true),
        ("bitsets", "turn=1..3", 20_000, false),
        ("counts", "turn=1..4;within=8", 1_000_000, true),
    ];
    for (method, text, coins, with_naive) in cases {
        let rule = CoinRule::parse(text, text).unwrap();
        let fast = value_table(&rule, coins, &grundy::control::Control::default()).unwrap();
        if with_naive {
            assert_eq!(fast, definition_table(&rule, coins), "{text}");
            group.bench_with_input(BenchmarkId::new("naive", format!("{text} to {coins}")), &coins, |b, &coins| {
                b.iter(|| definition_table(black_box(&rule), coins))
            });
        }
        group.bench_with_input(BenchmarkId::new(method, format!("{text} to {coins}")), &coins, |b, &coins| {
            b.iter(|| value_table(black_box(&rule), coins, &grundy::control::Control::default()).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, tables);
criterion_main!(benches);
