//! Every pattern `guess` reports is checked here against the definition (mex over the rules'
//! options) far past where it was fitted; patternless games must be left unclaimed.

use super::grid::{GridPattern, PairForm};
use super::line::{BitForm, LinePattern};
use super::*;
use crate::heap::HeapGame;
use crate::nimber::mex;
use crate::registry::parse_game;
use proptest::prelude::*;

/// `G(0..len)` of a heap game by the definition: mex over the options, a split worth the xor
/// of its parts.
fn by_definition(game: &dyn HeapGame, len: u64) -> Vec<u64> {
    let mut values: Vec<u64> = Vec::new();
    for heap in 0..len {
        let options = game.heap_options(heap);
        values
            .push(mex(options.iter().map(|parts| parts.iter().fold(0, |total, &part| total ^ values[part as usize]))));
    }
    values
}

fn guess_spec(spec: &str, to: u64) -> Guess {
    guess_game(&*parse_game(spec).unwrap(), Some(to), &SequenceControl::default()).unwrap()
}

/// The pattern agrees with `values` (from heap 0) everywhere.
fn assert_line_agrees(found: &Found, values: &[u64]) {
    let Pattern::Line(pattern) = &found.pattern else { panic!("a line pattern") };
    for (n, &value) in values.iter().enumerate() {
        let n = n as u64;
        if pattern.gives_values() {
            assert_eq!(pattern.value(n), Some(u128::from(value)), "G({n}) under {pattern}");
        } else {
            assert_eq!(pattern.is_p_position(n), value == 0, "P-position {n} under {pattern}");
        }
    }
}

#[test]
fn known_games_get_their_published_patterns() {
    let kayles = guess_spec("kayles", 500).pattern.unwrap();
    assert!(
        matches!(&kayles.pattern, Pattern::Line(LinePattern::Periodic { start: 71, cycle, saltus: 0, .. }) if cycle.len() == 12)
    );
    assert!(kayles.proof.is_some());
    let dawson = guess_spec("dawson", 500).pattern.unwrap();
    assert!(
        matches!(&dawson.pattern, Pattern::Line(LinePattern::Periodic { start: 53, cycle, .. }) if cycle.len() == 34)
    );
    let nim = guess_spec("nim", 100).pattern.unwrap();
    assert_eq!(nim.formula(), "G(n) = n");
    assert!(nim.proof.is_some());
    assert_eq!(guess_spec("bash:5", 100).pattern.unwrap().formula(), "G(n) = n mod 6");
    let wythoff = guess_spec("wythoff", 40).pattern.unwrap();
    assert_eq!(wythoff.pattern, Pattern::Grid(GridPattern::Beatty { c: 1 }));
    assert!(wythoff.proof.is_none(), "only checked");
    assert_eq!(
        guess_spec("corners", 20).pattern.unwrap().pattern,
        Pattern::Grid(GridPattern::Form(PairForm::NimProduct))
    );
    let ruler = guess_spec("coins:ruler", 200).pattern.unwrap();
    assert_eq!(ruler.pattern, Pattern::Line(LinePattern::Bitwise { form: BitForm::LowestBit, shift: 0 }));
    let mock = guess_spec("coins:mock-turtles", 200).pattern.unwrap();
    assert_eq!(mock.pattern, Pattern::Line(LinePattern::Bitwise { form: BitForm::Odious, shift: -1 }));
}

#[test]
fn patternless_games_are_left_unclaimed() {
    let grundys = guess_spec("grundys-game", 1000);
    assert!(grundys.pattern.is_none(), "{:?}", grundys.pattern);
    assert!(grundys.explain().contains("no pattern found up to n = 1000"));
    // Take a square number of counters: its P-positions are irregular (and infinitely many).
    let values = {
        let mut values: Vec<u64> = Vec::new();
        for n in 0..6000u64 {
            let options = (1..).map(|k: u64| k * k).take_while(|&square| square <= n);
            values.push(mex(options.map(|square| values[(n - square) as usize])));
        }
        values
    };
    let squares = guess_values("squares", &Sample::Line { first: 0, values }, 1000);
    assert!(squares.pattern.is_none(), "{:?}", squares.pattern);
}

#[test]
fn a_pattern_that_fails_further_out_is_rejected() {
    // Periodic with period 5 for 1000 values, then not.
    let mut values: Vec<u64> = (0..4000).map(|n| n % 5).collect();
    values[3100] = 7;
    let guess = guess_values("made-up", &Sample::Line { first: 0, values }, 999);
    assert!(guess.pattern.is_none());
    assert!(guess.tried[0].contains("wrong at n = 3100"), "{:?}", guess.tried);
}

#[test]
fn a_short_run_at_the_end_is_no_evidence() {
    // Irregular values that happen to end with a short arithmetic run.
    let mut values: Vec<u64> = (0..1000u64).map(|n| (n * n * 7 + n / 3) % 11).collect();
    values.extend(20..24);
    assert!(line::fit(0, &values).iter().all(|pattern| !pattern.gives_values()));
}

/// The a-Wythoff game (Fraenkel 1982): take any number from one heap, or `k` and `l` from both
/// with `|k − l| < a`. By the definition.
fn a_wythoff_table(a: u64, side: usize) -> Vec<Vec<u64>> {
    let mut table = vec![vec![0u64; side]; side];
    for x in 0..side {
        for y in 0..side {
            let mut options = Vec::new();
            options.extend((0..x).map(|smaller| table[smaller][y]));
            options.extend((0..y).map(|smaller| table[x][smaller]));
            for k in 1..=x {
                for l in 1..=y {
                    if (k as u64).abs_diff(l as u64) < a {
                        options.push(table[x - k][y - l]);
                    }
                }
            }
            table[x][y] = mex(options);
        }
    }
    table
}

#[test]
fn beatty_pairs_are_found_for_a_wythoff_games() {
    for a in 1..=3 {
        let values = a_wythoff_table(a, 90);
        let guess = guess_values("a-wythoff", &Sample::Grid { values }, 44);
        assert_eq!(
            guess.pattern.map(|found| found.pattern),
            Some(Pattern::Grid(GridPattern::Beatty { c: a })),
            "a = {a}"
        );
    }
}

#[test]
fn sums_of_two_heap_games_are_xors_of_lines() {
    let kayles = by_definition(&crate::heap::octal::OctalGame::kayles(), 300);
    let values: Vec<Vec<u64>> = (0..300).map(|x| (0..300).map(|y| (x % 3) ^ kayles[y]).collect()).collect();
    let guess = guess_values("sub:1,2 + kayles", &Sample::Grid { values }, 150);
    let Some(Found { pattern: Pattern::Grid(GridPattern::XorOfLines { row, column }), .. }) = guess.pattern else {
        panic!("{:?}", guess.pattern)
    };
    assert_eq!(row.formula("R", "x"), "R(x) = x mod 3");
    assert!(matches!(column, LinePattern::Periodic { start: 71, .. }));
}

#[test]
fn p_positions_alone_are_found_when_the_values_have_no_pattern() {
    // Values grow irregularly, but G(n) = 0 exactly when n ≡ 0, 3 (mod 5).
    let values: Vec<u64> =
        (0..5000u64).map(|n| if matches!(n % 5, 0 | 3) { 0 } else { 1 + (n * n * 13 + n / 7) % 29 }).collect();
    let guess = guess_values("made-up", &Sample::Line { first: 0, values: values.clone() }, 1000);
    let found = guess.pattern.unwrap();
    assert_eq!(found.pattern.kind(), "p-positions");
    assert_line_agrees(&found, &values);
    assert_eq!(found.formula(), "P-positions: n ≥ 0 with n mod 5 in {0, 3}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// Whatever guess claims for a subtraction game agrees with the definition far past both
    /// the fit and the check.
    #[test]
    fn subtraction_patterns_hold_by_the_definition(set in proptest::collection::btree_set(1u64..16, 1..5), to in 40u64..300) {
        let spec = format!("sub:{}", set.iter().map(u64::to_string).collect::<Vec<_>>().join(","));
        let game = parse_game(&spec).unwrap();
        let guess = guess_game(&*game, Some(to), &SequenceControl::default()).unwrap();
        if let Some(found) = &guess.pattern {
            let values = by_definition(game.heap_game().unwrap(), 3000);
            assert_line_agrees(found, &values);
        }
    }

    /// The same for octal games of up to three digits (the kernel against the definition).
    #[test]
    fn octal_patterns_hold_by_the_definition(digits in proptest::collection::vec(0u8..8, 1..4), to in 60u64..400) {
        let code: String = digits.iter().map(u8::to_string).collect();
        let spec = format!("octal:0.{code}");
        let game = parse_game(&spec).unwrap();
        let guess = guess_game(&*game, Some(to), &SequenceControl::default()).unwrap();
        if let Some(found) = &guess.pattern {
            let values = by_definition(game.heap_game().unwrap(), 2500);
            assert_line_agrees(found, &values);
        }
    }

    /// Random values are never given a pattern (a false pattern is the worst answer).
    #[test]
    fn noise_has_no_pattern(seed in any::<u64>(), range in 2u64..12) {
        let mut state = seed | 1;
        let values: Vec<u64> = (0..4000).map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % range
        }).collect();
        let guess = guess_values("noise", &Sample::Line { first: 0, values }, 1000);
        prop_assert!(guess.pattern.is_none(), "{:?}", guess.pattern);
    }
}

/// Take any number from one heap, or the same number, 1 or 2, from both: no Beatty pairs, but
/// the first rows are arithmetic-periodic. By the definition.
fn short_diagonal_table(side: usize) -> Vec<Vec<u64>> {
    let mut table = vec![vec![0u64; side]; side];
    for x in 0..side {
        for y in 0..side {
            let mut options: Vec<u64> = (0..x).map(|smaller| table[smaller][y]).collect();
            options.extend((0..y).map(|smaller| table[x][smaller]));
            options.extend((1..=2).filter(|&k| k <= x.min(y)).map(|k| table[x - k][y - k]));
            table[x][y] = mex(options);
        }
    }
    table
}

#[test]
fn rows_are_found_when_nothing_covers_the_whole_table() {
    let values = short_diagonal_table(300);
    let guess = guess_values("short-diagonal", &Sample::Grid { values: values.clone() }, 99);
    let found = guess.pattern.expect("rows");
    let Pattern::Grid(pattern @ GridPattern::Rows { rows, symmetric: true }) = &found.pattern else {
        panic!("{:?}", found.pattern)
    };
    assert!(rows.len() >= 2);
    let mut covered = 0;
    for (x, row) in values.iter().enumerate() {
        for (y, &value) in row.iter().enumerate() {
            if pattern.covers(x as u64, y as u64) {
                covered += 1;
                assert_eq!(pattern.value(x as u64, y as u64), Some(u128::from(value)), "G({x}, {y})");
            } else {
                assert_eq!(pattern.value(x as u64, y as u64), None);
            }
        }
    }
    assert!(covered > 0);
}
