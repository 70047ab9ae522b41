//! Every pattern `guess` reports is checked here against the definition (mex over the rules'
//! options) far past where it was fitted; patternless games must be left unclaimed.

use super::grid::{GridPattern, PairForm};
use super::line::{BitForm, LinePattern};
use super::*;
use crate::heap::sequence_by_definition;
use crate::nimber::mex;
use crate::registry::parse_game;
use proptest::prelude::*;

fn guess_spec(spec: &str, to: u64) -> Guess {
    guess_game(&*parse_game(spec).unwrap(), Some(to), &Control::default()).unwrap()
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
    assert!(wythoff.proof.as_deref().unwrap().contains("Wythoff"), "Wythoff 1907");
    assert_eq!(
        guess_spec("corners", 20).pattern.unwrap().pattern,
        Pattern::Grid(GridPattern::Form(PairForm::NimProduct))
    );
    let ruler = guess_spec("coins:ruler", 200).pattern.unwrap();
    assert_eq!(
        ruler.pattern,
        Pattern::Line(LinePattern::Bitwise { form: BitForm::LowestBit, shift: 0, first: 1, start: 1, before: vec![] })
    );
    let mock = guess_spec("coins:mock-turtles", 200).pattern.unwrap();
    assert_eq!(
        mock.pattern,
        Pattern::Line(LinePattern::Bitwise { form: BitForm::Odious, shift: -1, first: 1, start: 1, before: vec![] })
    );
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
        let guess = guess_values("a-wythoff", &Sample::Grid { first: 0, values }, 44);
        assert_eq!(
            guess.pattern.map(|found| found.pattern),
            Some(Pattern::Grid(GridPattern::Beatty { c: a })),
            "a = {a}"
        );
    }
}

#[test]
fn sums_of_two_heap_games_are_xors_of_lines() {
    let kayles = sequence_by_definition(&crate::heap::octal::OctalGame::kayles(), 300);
    let values: Vec<Vec<u64>> = (0..300).map(|x| (0..300).map(|y| (x % 3) ^ kayles[y]).collect()).collect();
    let guess = guess_values("sub:1,2 + kayles", &Sample::Grid { first: 0, values }, 150);
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
        let guess = guess_game(&*game, Some(to), &Control::default()).unwrap();
        if let Some(found) = &guess.pattern {
            let values = sequence_by_definition(&*game.heap_game().unwrap(), 3000);
            assert_line_agrees(found, &values);
        }
    }

    /// The same for octal games of up to three digits (the kernel against the definition).
    /// With a time budget, as the command line has: without one the period prover goes to 2^21
    /// heaps for the games it cannot prove (0.024, 0.163: 30 s each even in a release build),
    /// and this test took 348 s of the library's 360 s in CI. Any pattern found is checked,
    /// whatever the budget let the guess reach.
    #[test]
    fn octal_patterns_hold_by_the_definition(digits in proptest::collection::vec(0u8..8, 1..4), to in 60u64..400) {
        let code: String = digits.iter().map(u8::to_string).collect();
        let spec = format!("octal:0.{code}");
        let game = parse_game(&spec).unwrap();
        let options = GuessOptions { fit_to: Some(to), check_to: None, budget: Some(std::time::Duration::from_secs(1)) };
        let guess = guess_game_with(&*game, &options, &Control::default()).unwrap();
        if let Some(found) = &guess.pattern {
            let values = sequence_by_definition(&*game.heap_game().unwrap(), 2500);
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

#[test]
fn rows_are_found_when_nothing_covers_the_whole_table() {
    // Taking 1 or 3 from both heaps: no block pattern (taking 1 or 2 is Nim on blocks of 3).
    let values = nim_with_diagonal_table(&[1, 3], 300);
    let guess = guess_values("short-diagonal", &Sample::Grid { first: 0, values: values.clone() }, 99);
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

#[test]
fn theorems_prove_the_built_in_games_they_cover() {
    for (spec, theorem) in [
        ("coins:ruler", "Ruler"),
        ("coins:mock-turtles", "Mock Turtles"),
        ("coins:twins", "Twins"),
        ("corners", "Tartan"),
        ("product:ruler:mock-turtles", "Tartan"),
        ("product:mock-turtles:ruler", "Tartan"),
        ("split-nim", "odious"),
    ] {
        let found = guess_spec(spec, 60).pattern.unwrap_or_else(|| panic!("{spec}: a pattern"));
        assert!(found.proof.as_deref().is_some_and(|proof| proof.contains(theorem)), "{spec}: {:?}", found.proof);
    }
    // A written rule is not the named one: checked only.
    let written = guess_spec("coins:turn=1..4", 40).pattern;
    assert!(written.is_none_or(|found| found.proof.is_none()));
}

#[test]
fn the_period_prover_goes_first() {
    for (spec, preperiod, period) in
        [("octal:0.156", 3479, 349), ("octal:0.127", 46578, 4), ("sub:97,263", 0, 0), ("sub:10,25,34,39", 0, 0)]
    {
        let game = parse_game(spec).unwrap();
        let heap = game.heap_game().unwrap();
        let mut values = CompactSequence::new();
        let report =
            crate::heap::period::find_period(&*heap, &mut values, 1 << 17, &Control::default(), &mut |_| {}).unwrap();
        let (proved, _) = report.proved.expect("the prover proves it");
        if period > 0 {
            assert_eq!((proved.preperiod, proved.period), (preperiod, period), "{spec}");
        }
        let options = GuessOptions { check_to: Some(1 << 17), ..GuessOptions::default() };
        let guess = guess_game_with(&*game, &options, &Control::default()).unwrap();
        let found = guess.pattern.unwrap_or_else(|| panic!("{spec}: a pattern"));
        let Pattern::Line(LinePattern::Periodic { start, cycle, saltus: 0, .. }) = &found.pattern else {
            panic!("{spec}: {:?}", found.pattern)
        };
        assert_eq!((*start, cycle.len() as u64), (proved.preperiod, proved.period), "{spec}");
        assert!(found.proof.as_deref().unwrap().contains("checked to heap"), "{spec}");
        let Pattern::Line(line) = &found.pattern else { unreachable!() };
        let by_definition = sequence_by_definition(&*heap, guess.checked_to.min(4_000) + 1);
        assert!(line::first_disagreement(line, 0, &by_definition, 0).is_none(), "{spec}");
    }
}

#[test]
fn bitwise_patterns_may_start_after_a_few_exceptions() {
    // Split-Nim: G(0) = 0, then the odious numbers.
    let split = guess_spec("split-nim", 200);
    let found = split.pattern.unwrap();
    assert_eq!(
        found.pattern,
        Pattern::Line(LinePattern::Bitwise { form: BitForm::Odious, shift: -1, first: 0, start: 1, before: vec![0] })
    );
    assert_line_agrees(&found, &sequence_by_definition(&crate::heap::split_nim::SplitNim, 120));
    // The divisor game: subtract a proper divisor; G(n) = v₂(n) for n ≥ 1, G(0) = 0.
    let mut values = vec![0u64];
    for n in 1..3000u64 {
        values.push(mex((1..n).filter(|d| n.is_multiple_of(*d)).map(|d| values[(n - d) as usize])));
    }
    let guess = guess_values("divisor game", &Sample::Line { first: 0, values: values.clone() }, 600);
    let found = guess.pattern.unwrap();
    assert_eq!(
        found.pattern,
        Pattern::Line(LinePattern::Bitwise {
            form: BitForm::TwoAdicValuation,
            shift: 0,
            first: 0,
            start: 1,
            before: vec![0]
        })
    );
    assert_line_agrees(&found, &values);
    assert!(found.formula().contains("for n ≥ 1; G(0) = 0"), "{}", found.formula());
}

/// Nim on two heaps with extra diagonal moves: take `j` from both heaps for `j` in `diagonal`.
/// By the definition.
fn nim_with_diagonal_table(diagonal: &[usize], side: usize) -> Vec<Vec<u64>> {
    let mut table = vec![vec![0u64; side]; side];
    for x in 0..side {
        for y in 0..side {
            let mut options: Vec<u64> = (0..x).map(|smaller| table[smaller][y]).collect();
            options.extend((0..y).map(|smaller| table[x][smaller]));
            options.extend(diagonal.iter().filter(|&&j| j <= x.min(y)).map(|&j| table[x - j][y - j]));
            table[x][y] = mex(options);
        }
    }
    table
}

#[test]
fn nim_with_a_one_one_move_is_nim_on_blocks_of_three() {
    let values = nim_with_diagonal_table(&[1], 200);
    let guess = guess_values("nim + (1,1)", &Sample::Grid { first: 0, values: values.clone() }, 50);
    let found = guess.pattern.unwrap();
    let Pattern::Grid(pattern @ GridPattern::BlockXor { size: 3, .. }) = &found.pattern else {
        panic!("{:?}", found.pattern)
    };
    assert_eq!(found.formula(), "G(x, y) = 3·(⌊x/3⌋ xor ⌊y/3⌋) + (x + y) mod 3");
    assert!(grid::first_disagreement(pattern, &values, 0).is_none());
}

#[test]
fn two_dimensional_periodic_tables_are_found() {
    // G(x, y) = B(x mod 2, y mod 3) + 4⌊x/2⌋ + 5⌊y/3⌋: made up, the class's own shape.
    let block = [[0u64, 1, 2], [3, 0, 1]];
    let value = |x: u64, y: u64| block[(x % 2) as usize][(y % 3) as usize] + 4 * (x / 2) + 5 * (y / 3);
    let values: Vec<Vec<u64>> = (0..100).map(|x| (0..100).map(|y| value(x, y)).collect()).collect();
    let guess = guess_values("made-up", &Sample::Grid { first: 0, values }, 30);
    let found = guess.pattern.unwrap();
    assert_eq!(found.pattern.kind(), "periodic-2d");
    let Pattern::Grid(pattern) = &found.pattern else { unreachable!() };
    for (x, y) in [(1u64 << 40, 7u64), (99, 1 << 33), (12345, 678)] {
        assert_eq!(pattern.value(x, y), Some(u128::from(value(x, y))));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Whatever guess claims for Nim with extra diagonal moves agrees with the definition on a
    /// table twice as large as the one it saw.
    #[test]
    fn diagonal_nim_patterns_hold_by_the_definition(diagonal in proptest::collection::btree_set(1usize..6, 1..3)) {
        let diagonal: Vec<usize> = diagonal.into_iter().collect();
        let values = nim_with_diagonal_table(&diagonal, 160);
        let seen: Vec<Vec<u64>> = values[..80].iter().map(|row| row[..80].to_vec()).collect();
        let guess = guess_values("diagonal nim", &Sample::Grid { first: 0, values: seen }, 30);
        if let Some(found) = &guess.pattern {
            let Pattern::Grid(pattern) = &found.pattern else { unreachable!() };
            prop_assert!(grid::first_disagreement(pattern, &values, 0).is_none(), "{:?} {:?}", diagonal, found.pattern);
        }
    }

    /// The bitwise classes with exceptions: a made-up line `f(n + c)` after a few arbitrary
    /// values is recovered, and agrees far out.
    #[test]
    fn bitwise_exceptions_are_recovered(form_index in 0usize..8, shift in -3i64..=3, before in proptest::collection::vec(0u64..50, 0..5)) {
        let form = BitForm::ALL[form_index];
        let start = (form.least_argument() as i64 - shift).max(0) as usize + before.len();
        let mut values: Vec<u64> = (0..start as u64).map(|n| before.get(n as usize).copied().unwrap_or(999)).collect();
        values.extend((start as u64..3000).map(|n| form.apply(n.checked_add_signed(shift).unwrap()) as u64));
        let guess = guess_values("made-up", &Sample::Line { first: 0, values: values.clone() }, 1000);
        let found = guess.pattern.expect("a pattern");
        assert_line_agrees(&found, &values);
    }
}

/// The options of a pair `(x, y)` of a built-in game on pairs, as pairs, by its rules alone.
fn pair_options(spec: &str, x: u64, y: u64) -> Vec<(u64, u64)> {
    use crate::ruleset::ComponentGame;
    match spec {
        "king" => {
            let board = crate::king::Board { rows: x, columns: y };
            let options = crate::king::CornerKing.options(&board, 10).unwrap();
            options.into_iter().map(|one| (one.result[0].rows, one.result[0].columns)).collect()
        }
        "e-and-d" => {
            let heaps = crate::e_and_d::Heaps(vec![x, y]);
            let options = crate::e_and_d::EAndD.options(&heaps, 1 << 20).unwrap();
            options.into_iter().map(|one| (one.result[0].0[0], one.result[0].0[1])).collect()
        }
        "euclid" => {
            let pair = crate::euclid::EuclidPair(x.into(), y.into());
            let options = crate::euclid::Euclid.options(&pair, 1 << 20).unwrap();
            let small = |n: &num_bigint::BigUint| u64::try_from(n).unwrap();
            options.into_iter().map(|one| (small(&one.result[0].0), small(&one.result[0].1))).collect()
        }
        _ => unreachable!("{spec}"),
    }
}

/// The mex over the rules' options on the square `first..side` (smaller sums first).
fn pair_table_by_rules(spec: &str, first: u64, side: u64) -> Vec<Vec<u64>> {
    let mut values = vec![vec![0u64; side as usize]; side as usize];
    for total in 2 * first..2 * side {
        for x in first..side.min(total + 1) {
            let y = total - x;
            if y >= first && y < side {
                let reached = pair_options(spec, x, y).into_iter().map(|(a, b)| values[a as usize][b as usize]);
                values[x as usize][y as usize] = mex(reached);
            }
        }
    }
    values
}

/// `guess` on the built-in games on pairs (E&D, the corner king, Euclid's game) reports a
/// pattern that agrees with the mex over the rules on every position of a square past the
/// check, proved only where the family's theorem is the pattern.
#[test]
fn pair_games_patterns_are_the_mex_over_their_rules() {
    let side = 300u64;
    for (spec, first, kind, proved) in
        [("e-and-d", 1, "bitwise", true), ("king", 1, "periodic-p-positions", true), ("euclid", 0, "rows", false)]
    {
        let guess = guess_spec(spec, 40);
        let found = guess.pattern.clone().unwrap_or_else(|| panic!("{spec}: {}", guess.explain()));
        assert_eq!(found.pattern.kind(), kind, "{spec}: {}", guess.explain());
        assert_eq!(found.proof.is_some(), proved, "{spec}: {}", guess.explain());
        assert!(guess.checked_to >= 160 && guess.fitted_to == 40, "{spec}: {}", guess.explain());
        let Pattern::Grid(pattern) = &found.pattern else { panic!("{spec}: a table pattern") };
        let values = pair_table_by_rules(spec, first, side);
        let mut covered = 0;
        for x in first..side {
            for y in first..side {
                if !pattern.covers(x, y) {
                    continue;
                }
                covered += 1;
                let value = values[x as usize][y as usize];
                if pattern.gives_values() {
                    assert_eq!(pattern.value(x, y), Some(u128::from(value)), "{spec} ({x}, {y})");
                } else {
                    assert_eq!(pattern.is_p_position(x, y), value == 0, "{spec} ({x}, {y})");
                }
            }
            // A pattern on pairs from 1 says nothing of a 0, which is no position.
            if first == 1 {
                assert!(!pattern.covers(0, x) && !pattern.covers(x, 0), "{spec}: covers a 0");
            }
        }
        if first == 1 {
            assert_eq!(covered, (side - 1) * (side - 1), "{spec}: every position from 1 covered");
        }
    }
}

/// A game on pairs from 1 gets no pattern that holds only thanks to its row and column 0,
/// which are no positions: here every pair from 1 is worth x xor y, and so is row 0 by
/// accident, yet the fit may not claim `x xor y` for the row 0.
#[test]
fn pairs_from_1_get_no_pattern_of_row_0() {
    let values: Vec<Vec<u64>> = (0..64u64).map(|x| (0..64u64).map(|y| x ^ y).collect()).collect();
    let from_0 = guess_values("nim pairs", &Sample::Grid { first: 0, values: values.clone() }, 15);
    assert_eq!(from_0.pattern.unwrap().pattern, Pattern::Grid(GridPattern::Form(PairForm::Xor)));
    let from_1 = guess_values("nim pairs from 1", &Sample::Grid { first: 1, values }, 15);
    if let Some(found) = &from_1.pattern {
        let Pattern::Grid(pattern) = &found.pattern else { panic!("a table pattern") };
        assert!(!pattern.covers(0, 3) && !pattern.covers(3, 0), "{:?}", found.pattern);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The patterns `guess` reports for E&D and the corner king agree with the definition's
    /// search over the rules alone (no Sprague–Grundy table of this test's own).
    #[test]
    fn pair_patterns_are_the_definition(x in 1u64..24, y in 1u64..24, which in 0usize..2) {
        use crate::solve::definition::Definition;
        let spec = ["e-and-d", "king"][which];
        let game = parse_game(spec).unwrap();
        let component = game.parse_component(&format!("{x},{y}")).unwrap();
        let by_definition = Definition::with_limit(game.clone(), 1 << 20).value(std::slice::from_ref(&component)).unwrap().0;
        let found = guess_spec(spec, 15).pattern.unwrap();
        let Pattern::Grid(pattern) = &found.pattern else { panic!("a table pattern") };
        if pattern.gives_values() {
            prop_assert_eq!(pattern.value(x, y), Some(u128::from(by_definition)));
        } else {
            prop_assert_eq!(pattern.is_p_position(x, y), by_definition == 0);
        }
    }
}
