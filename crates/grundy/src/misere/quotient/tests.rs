use super::*;
use crate::heap::HeapGame;
use crate::heap::grundys_game::GrundysGame;
use crate::heap::nim::Nim;
use crate::heap::octal::{CodeBase, OctalGame};
use crate::heap::subtraction::SubtractionGame;
use crate::misere::search::MisereSearch;
use proptest::prelude::*;
use std::sync::OnceLock;

fn octal(code: &str) -> Box<dyn HeapGame> {
    Box::new(OctalGame::parse(code, CodeBase::Octal).unwrap())
}

/// A game of the cross-checks: its name, rules, and the largest heap its quotient covers.
type TestGame = (&'static str, Box<dyn HeapGame>, u64);

/// The games of the cross-checks.
fn games() -> &'static Vec<TestGame> {
    static GAMES: OnceLock<Vec<TestGame>> = OnceLock::new();
    GAMES.get_or_init(|| {
        vec![
            ("nim", Box::new(Nim) as Box<dyn HeapGame>, 6),
            ("kayles", octal("0.77"), 40),
            ("dawson", octal("0.07"), 18),
            ("0.75", octal("0.75"), 40),
            ("0.137", octal("0.137"), 20),
            ("sub:1,2", Box::new(SubtractionGame::new(vec![1, 2]).unwrap()), 20),
            ("sub:2,3,7", Box::new(SubtractionGame::new(vec![2, 3, 7]).unwrap()), 25),
            ("grundys-game", Box::new(GrundysGame::new()), 16),
        ]
    })
}

fn quotients() -> &'static Vec<MisereQuotient> {
    static QUOTIENTS: OnceLock<Vec<MisereQuotient>> = OnceLock::new();
    QUOTIENTS.get_or_init(|| {
        games()
            .iter()
            .map(|(name, game, to)| {
                misere_quotient(&|heap| game.heap_options(heap), *to, DEFAULT_MAX_ORDER, &Control::default())
                    .unwrap_or_else(|error| panic!("{name}: {error}"))
            })
            .collect()
    })
}

fn search_options(game: &dyn HeapGame) -> impl Fn(&u64) -> Result<Vec<Vec<u64>>, GameError> + '_ {
    move |heap: &u64| Ok(game.heap_options(*heap))
}

/// 0.75's quotient is R8 = ⟨a, b, c | a² = 1, b³ = b, bc = ab, c² = b²⟩ with P-portion
/// {a, b²}, heap 1 ↦ a, 2 ↦ b, 5 ↦ c (Plambeck, *Taming the wild in impartial
/// combinatorial games*, INTEGERS 5 (2005) G05, §6; Plambeck–Siegel, JCTA 2008, the
/// quotient R8).
#[test]
fn octal_075_is_r8() {
    let quotient = &quotients()[3];
    assert_eq!(quotient.order, 8);
    let generators: Vec<u64> = quotient.generators.iter().map(|generator| generator.heap).collect();
    assert_eq!(generators, [1, 2, 5]);
    let mut relations = quotient.relations.clone();
    relations.sort();
    assert_eq!(relations, ["a^2 = 1", "b^3 = b", "bc = ab", "c^2 = b^2"]);
    let p: Vec<&str> = quotient.p_portion.iter().map(|&x| quotient.words[x as usize].as_str()).collect();
    assert_eq!(p, ["a", "b^2"]);
}

/// Misère Nim on heaps 0, 1, 2: ⟨a, b | a² = 1, b³ = b⟩, order 6 (Plambeck–Siegel 2008,
/// the quotient of *2's closure: the tame quotient T2).
#[test]
fn nim_heaps_to_two() {
    let quotient = misere_quotient(&|heap| Nim.heap_options(heap), 2, DEFAULT_MAX_ORDER, &Control::default()).unwrap();
    assert_eq!(quotient.order, 6);
    assert_eq!(quotient.relations, ["a^2 = 1", "b^3 = b"]);
    assert_eq!(quotient.p_portion.len(), 2);
}

/// The marked table of a proved quotient (to flip marks in).
fn table_of(quotient: &MisereQuotient) -> Table {
    Table {
        order: quotient.order,
        table: quotient.product.iter().flatten().copied().collect(),
        p: (0..quotient.order as u32).map(|x| quotient.is_p(x)).collect(),
        heaps: quotient.heaps.clone(),
    }
}

/// Whether `table` marks the sum `heaps` against the misère rule, given its options' marks.
fn marked_against_the_rule(table: &Table, options: &[Vec<Vec<u64>>], heaps: &[u64]) -> bool {
    let element = heaps.iter().fold(0, |x, &heap| table.mul(x, table.heaps[heap as usize]));
    let options_marked_p = heaps.iter().enumerate().any(|(index, &heap)| {
        let others = heaps.iter().enumerate().filter(|&(other, _)| other != index);
        let rest = others.fold(0, |x, (_, &h)| table.mul(x, table.heaps[h as usize]));
        options[heap as usize].iter().any(|option| {
            let x = option.iter().fold(rest, |x, &part| table.mul(x, table.heaps[part as usize]));
            table.p[x as usize]
        })
    });
    let rule_p = !heaps.is_empty() && !options_marked_p;
    table.p[element as usize] != rule_p
}

fn heaps_of(sum: &Sum) -> Vec<u64> {
    sum.iter().flat_map(|(&heap, &count)| std::iter::repeat_n(heap, count as usize)).collect()
}

/// The proof accepts the quotient and refutes it with any one element's mark flipped,
/// naming a sum that exhaustive search judges differently from the flipped marking or
/// whose options' marks contradict it.
#[test]
fn the_proof_refutes_every_wrong_marking() {
    let (_, game, to) = &games()[3]; // 0.75, order 8
    let table = table_of(&quotients()[3]);
    let options: Vec<Vec<Vec<u64>>> = (0..=*to).map(|heap| game.heap_options(heap)).collect();
    let generators = generators_of(&options, options.len(), |h| table.heaps[h as usize], |x, y| table.mul(x, y));
    assert!(prove(&table, &generators, None, &Control::default()).unwrap().is_ok());
    let mut search = MisereSearch::new(search_options(game.as_ref()), 5_000_000, &Control::default());
    for flipped in 0..table.order {
        let mut wrong = table.clone();
        wrong.p[flipped] = !wrong.p[flipped];
        let Err(Refuted::At(sum)) = prove(&wrong, &generators, None, &Control::default()).unwrap() else {
            panic!("element {flipped} flipped was not refuted");
        };
        let heaps = heaps_of(&sum);
        let element = heaps.iter().fold(0, |x, &heap| wrong.mul(x, wrong.heaps[heap as usize]));
        let claimed = if wrong.p[element as usize] { Outcome::P } else { Outcome::N };
        assert!(
            marked_against_the_rule(&wrong, &options, &heaps) || claimed != search.outcome(&heaps).unwrap(),
            "element {flipped}: the sum {heaps:?} named is consistent and right"
        );
    }
}

/// The search for the least failing sum (Siegel's order: multiplicities compared from the
/// largest heap down) names a non-empty sum marked against the rule, and no non-empty sum
/// with at most three copies of each heap below it is: checked against every such sum in turn, with each element
/// of several quotients flipped.
#[test]
fn the_least_failure_is_a_failure_and_the_least() {
    for index in [0, 1, 3, 5] {
        let (name, game, to) = &games()[index];
        let to = (*to).min(10);
        let quotient =
            misere_quotient(&|heap| game.heap_options(heap), to, DEFAULT_MAX_ORDER, &Control::default()).unwrap();
        let table = table_of(&quotient);
        let options: Vec<Vec<Vec<u64>>> = (0..=to).map(|heap| game.heap_options(heap)).collect();
        let generators = generators_of(&options, options.len(), |h| table.heaps[h as usize], |x, y| table.mul(x, y));
        assert_eq!(least_failure(&table, &generators, &Control::default()), Verdict::Holds, "{name}");
        // With no memory for its sets the search leaves the decision to the proof.
        let starved = Control::default().with_memory_limit(0);
        assert_eq!(least_failure(&table, &generators, &starved), Verdict::Undecided, "{name}");
        // Every non-empty sum of the generators' heaps with multiplicities 0..=3, in increasing
        // order (the empty sum's mark is the proof's to check: no heap to free names it).
        let heaps: Vec<u64> = generators.iter().map(|generator| generator.heap).collect();
        let boxed: Vec<Vec<u64>> = (1..4usize.pow(heaps.len() as u32))
            .map(|code| {
                let mut sum = Vec::new();
                for (place, &heap) in heaps.iter().enumerate() {
                    sum.extend(std::iter::repeat_n(heap, code / 4usize.pow(place as u32) % 4));
                }
                sum
            })
            .collect();
        for flipped in 0..table.order {
            let mut wrong = table.clone();
            wrong.p[flipped] = !wrong.p[flipped];
            let Verdict::Fails(found) = least_failure(&wrong, &generators, &Control::default()) else {
                panic!("{name}: element {flipped} flipped, no failure found");
            };
            let found_heaps = heaps_of(&found);
            assert!(marked_against_the_rule(&wrong, &options, &found_heaps), "{name}: {found_heaps:?}");
            let first = boxed.iter().position(|sum| marked_against_the_rule(&wrong, &options, sum));
            let found_at = boxed.iter().position(|sum| *sum == found_heaps);
            match (first, found_at) {
                (Some(first), Some(found_at)) => assert_eq!(first, found_at, "{name}: element {flipped}"),
                // Found past the box: every failing sum of the box is larger.
                (Some(first), None) => {
                    let multiplicities = |sum: &[u64]| -> Vec<usize> {
                        heaps.iter().rev().map(|heap| sum.iter().filter(|&part| part == heap).count()).collect()
                    };
                    assert!(multiplicities(&boxed[first]) > multiplicities(&found_heaps), "{name}: element {flipped}");
                }
                (None, _) => assert!(found_at.is_none(), "the found sum fails"),
            }
        }
    }
}

#[test]
fn every_quotient_is_an_even_commutative_monoid() {
    for (quotient, (name, _, _)) in quotients().iter().zip(games()) {
        let order = quotient.order;
        assert!(order > 1 && order % 2 == 0, "{name}: order {order}");
        let product = &quotient.product;
        for x in 0..order {
            assert_eq!(product[0][x] as usize, x, "{name}: identity");
            for y in 0..order {
                assert_eq!(product[x][y], product[y][x], "{name}: commutative");
                for z in 0..order {
                    let left = product[product[x][y] as usize][z];
                    let right = product[x][product[y][z] as usize];
                    assert_eq!(left, right, "{name}: associative at {x} {y} {z}");
                }
            }
        }
        assert_eq!(quotient.heaps.len() as u64, quotient.to + 1);
        assert!(!quotient.is_p(quotient.identity), "{name}: the empty sum is a misère N-position");
    }
}

#[test]
fn the_order_limit_stops_with_a_clear_error() {
    let kayles = OctalGame::kayles();
    let error =
        misere_quotient(&|heap| kayles.heap_options(heap), 40, 10, &Control::default()).unwrap_err().to_string();
    assert!(error.contains("past the limit of 10") && error.contains("heap"), "{error}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// Random octal codes of up to three digits: every quotient returned (or, when a limit
    /// stops the run, the quotient of the heaps done) predicts exhaustive search.
    #[test]
    fn random_octal_quotients_match_exhaustive_search(
        digits in prop::collection::vec(0u8..8, 1..4),
        to in 3u64..14,
        seed in any::<u64>(),
    ) {
        let code: String = digits.iter().map(|digit| char::from(b'0' + digit)).collect();
        let game = OctalGame::parse(&format!("0.{code}"), CodeBase::Octal).unwrap();
        let options = |heap: u64| game.heap_options(heap);
        let run = misere_quotient_run(&options, to, 300, &Control::default()).unwrap();
        let quotient = &run.quotient;
        prop_assert!(quotient.order.is_multiple_of(2) || quotient.order == 1, "order {}", quotient.order);
        let check = quotient.check_against_search(&options, 40, 22, seed, &Control::default()).unwrap();
        prop_assert_eq!(check.disagreement, None, "0.{}", code);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    /// The quotient's outcome and winning moves agree with exhaustive misère search.
    #[test]
    fn quotient_matches_exhaustive_search(game_index in 0usize..8, seeds in prop::collection::vec(0u64..1000, 0..5)) {
        let (_, game, to) = &games()[game_index];
        let quotient = &quotients()[game_index];
        // Keep the exhaustive search small: at most 32 counters in all.
        let mut heaps = Vec::new();
        let mut total = 0;
        for seed in seeds {
            let heap = seed % (to + 1);
            if total + heap <= 32 {
                heaps.push(heap);
                total += heap;
            }
        }
        let mut search = MisereSearch::new(search_options(game.as_ref()), 5_000_000, &Control::default());
        prop_assert_eq!(quotient.outcome(&heaps).unwrap(), search.outcome(&heaps).unwrap(), "{:?}", heaps);
        if heaps.len() <= 3 {
            let expected: Vec<(usize, Vec<u64>)> = search
                .winning_moves(&heaps)
                .unwrap()
                .into_iter()
                .map(|found| (found.component, found.replacement))
                .collect();
            prop_assert_eq!(quotient.winning_moves(&heaps, &|heap| game.heap_options(heap)).unwrap(), expected);
        }
    }
}
