//! Misère quotients (`grundy quotient`) and outcomes of sums read off a quotient, beside
//! exhaustive misère search in the same run.
//!
//! Run: `cargo bench -p grundy --bench misere`. Each benchmark first checks that the quotient
//! and the search agree on the sum it times.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use grundy::heap::HeapGame;
use grundy::heap::octal::{CodeBase, OctalGame};
use grundy::misere::quotient::{DEFAULT_MAX_ORDER, misere_quotient};
use grundy::misere::search::MisereSearch;
use grundy::misere::{Limits, heap_sum_outcome};
use std::hint::black_box;

fn quotients(c: &mut Criterion) {
    let mut group = c.benchmark_group("misere_quotient");
    group.sample_size(10);
    for (code, to) in [("0.75", 100u64), ("0.77", 100), ("0.07", 20)] {
        let game = OctalGame::parse(code, CodeBase::Octal).unwrap();
        let options = |heap: u64| game.heap_options(heap);
        group.bench_with_input(BenchmarkId::new("quotient", format!("{code} to {to}")), &to, |b, &to| {
            b.iter(|| {
                misere_quotient(&options, black_box(to), DEFAULT_MAX_ORDER, &grundy::control::Control::default())
                    .unwrap()
            })
        });
    }
    group.finish();
}

fn sums(c: &mut Criterion) {
    let mut group = c.benchmark_group("misere_sum");
    group.sample_size(10);
    let kayles = OctalGame::kayles();
    // Twenty Kayles heaps of at most 70 pins (the goal: under a second).
    let twenty: Vec<u64> = (0..20).map(|index| (index * 37 + 11) % 71).collect();
    group.bench_function("kayles 20 heaps <= 70, quotient built", |b| {
        b.iter(|| {
            heap_sum_outcome(&kayles, black_box(&twenty), Limits::default(), &grundy::control::Control::default())
                .unwrap()
        })
    });
    // A sum small enough for the search, both ways.
    let small = [7u64, 6, 5, 4];
    let quotient =
        misere_quotient(&|heap| kayles.heap_options(heap), 7, DEFAULT_MAX_ORDER, &grundy::control::Control::default())
            .unwrap();
    let mut search = MisereSearch::new(
        |heap: &u64| Ok(kayles.heap_options(*heap)),
        10_000_000,
        &grundy::control::Control::default(),
    );
    assert_eq!(quotient.outcome(&small).unwrap(), search.outcome(&small).unwrap());
    group.bench_function("kayles 7 6 5 4, exhaustive search", |b| {
        b.iter(|| {
            let mut search = MisereSearch::new(
                |heap: &u64| Ok(kayles.heap_options(*heap)),
                10_000_000,
                &grundy::control::Control::default(),
            );
            search.outcome(black_box(&small)).unwrap()
        })
    });
    group.bench_function("kayles 7 6 5 4, quotient look-up", |b| {
        b.iter(|| quotient.outcome(black_box(&small)).unwrap())
    });
    group.finish();
}

criterion_group!(benches, quotients, sums);
criterion_main!(benches);
