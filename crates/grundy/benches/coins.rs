//! Single-coin value tables of coin-turning rules, each beside a naive baseline in the same
//! run: the naive table lists every set of coins the rule allows for every coin and takes the
//! mex of their xors, the definition written out.
//!
//! Run: `cargo bench -p grundy --bench coins && python3 bench/ratios.py`. Every benchmark
//! checks that both tables agree first.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use grundy::coins::rule::CoinRule;
use grundy::coins::values::value_table;
use grundy::mex;
use std::hint::black_box;

/// The definition: for every coin, every allowed set of other coins, the mex of their xors.
fn naive_table(rule: &CoinRule, last_coin: u64) -> Vec<u64> {
    fn subsets(values: &[u64], first: u64, end: u64, size: u64, xor: u64, out: &mut Vec<u64>) {
        if size == 0 {
            out.push(xor);
            return;
        }
        for coin in first..end.saturating_sub(size - 1) {
            subsets(values, coin + 1, end, size - 1, xor ^ values[coin as usize], out);
        }
    }
    let mut values = vec![0u64; last_coin as usize + 1];
    let mut options = Vec::new();
    for n in 1..=last_coin {
        options.clear();
        if rule.consecutive() {
            let mut xor = 0;
            for count in 1..=rule.max_count().map_or(n, |max| max.min(n)) {
                if count >= 2 {
                    xor ^= values[(n - count + 1) as usize];
                }
                if rule.allows_count(count) {
                    options.push(xor);
                }
            }
        } else {
            let start = rule.window_start(n);
            for size in 0..n - start + 1 {
                if rule.allows_count(size + 1) {
                    subsets(&values, start, n, size, 0, &mut options);
                }
            }
        }
        values[n as usize] = mex(options.iter().copied());
    }
    values
}

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
        let fast = value_table(&rule, coins).unwrap();
        if with_naive {
            assert_eq!(fast, naive_table(&rule, coins), "{text}");
            group.bench_with_input(BenchmarkId::new("naive", format!("{text} to {coins}")), &coins, |b, &coins| {
                b.iter(|| naive_table(black_box(&rule), coins))
            });
        }
        group.bench_with_input(BenchmarkId::new(method, format!("{text} to {coins}")), &coins, |b, &coins| {
            b.iter(|| value_table(black_box(&rule), coins).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, tables);
criterion_main!(benches);
