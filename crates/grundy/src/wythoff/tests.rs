use super::closed_form::*;
use super::*;
use crate::control::Control;
use crate::ruleset::{Ruleset, erase};
use crate::solve::definition::Definition;
use crate::sum::Position;
use crate::testing::{at, destinations, winning_destinations};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// P-positions by the definition: a position is P when none of its options is.
fn p_positions_by_definition(size: usize) -> Vec<Vec<bool>> {
    let mut p = vec![vec![false; size]; size];
    for x in 0..size {
        for y in 0..size {
            p[x][y] = word_options(x as u64, y as u64).all(|((a, b), ..)| !p[a as usize][b as usize]);
        }
    }
    p
}

/// One front end for the property tests, so that its table and rows are computed once.
static SHARED_RULES: std::sync::LazyLock<Wythoff> = std::sync::LazyLock::new(Wythoff::new);
/// The same, as the front end holds it.
static SHARED_GAME: std::sync::LazyLock<Arc<dyn Ruleset>> = std::sync::LazyLock::new(|| erase(Wythoff::new()));

fn wythoff() -> Arc<dyn Ruleset> {
    erase(Wythoff::new())
}

/// The position of these pairs.
fn pairs(game: &Arc<dyn Ruleset>, texts: &[&str]) -> Position {
    at(game, texts).unwrap()
}

fn big(text: &str) -> BigUint {
    text.parse().unwrap()
}

#[test]
fn closed_form_matches_the_definition_on_every_position_up_to_200() {
    let p = p_positions_by_definition(200);
    let game = wythoff();
    for x in 0..200u64 {
        for y in 0..200u64 {
            let expected = p[x as usize][y as usize];
            assert_eq!(is_p_position_u64(x, y), expected, "({x}, {y})");
            assert_eq!(is_p_position(&x.into(), &y.into()), expected, "({x}, {y})");
            let outcome = pairs(&game, &[&format!("{x},{y}")]).outcome().unwrap();
            assert_eq!(outcome == Outcome::P, expected, "({x}, {y})");
        }
    }
}

#[test]
fn winning_moves_of_one_pair_are_exactly_the_moves_to_p_positions() {
    let size = 90;
    let p = p_positions_by_definition(size);
    for x in 0..size as u64 {
        for y in 0..size as u64 {
            let expected: BTreeSet<(u64, u64)> =
                word_options(x, y).map(|(to, ..)| to).filter(|&(a, b)| p[a as usize][b as usize]).collect();
            let found: BTreeSet<(u64, u64)> = winning_moves(&x.into(), &y.into())
                .into_iter()
                .map(|m| (m.to.0.try_into().unwrap(), m.to.1.try_into().unwrap()))
                .collect();
            assert_eq!(found, expected, "({x}, {y})");
        }
    }
}

#[test]
fn the_must_show_positions() {
    let game = wythoff();
    let outcome = |text: &str| pairs(&game, &[text]).outcome().unwrap().to_string();
    assert_eq!(outcome("1,2"), "P");
    assert_eq!(outcome("4,7"), "P");
    assert_eq!(outcome("4,8"), "N");
    assert_eq!(outcome("6557470319841,10610209857722"), "P");
    assert_eq!(lower(&big("4052739537881")), big("6557470319841"));
    assert_eq!(upper(&big("4052739537881")), big("10610209857722"));
    assert!(is_p_position_u64(6557470319841, 10610209857722));
    let position = pairs(&game, &["4,8"]);
    let moves = position.winning_moves().unwrap();
    assert_eq!(destinations(&position, &moves), ["4,7"]);
    assert!(moves[0].explain.contains("take 1 from the second heap"), "{}", moves[0].explain);
}

/// A pseudo-random number of `digits` digits (no leading zero).
fn digits_number(seed: u64, digits: usize) -> BigUint {
    let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let mut text = String::with_capacity(digits);
    for index in 0..digits {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let digit = (state >> 33) % 10;
        text.push(char::from(b'0' + if index == 0 { digit.max(1) as u8 } else { digit as u8 }));
    }
    text.parse().unwrap()
}

#[test]
fn three_hundred_digit_pairs() {
    let game = wythoff();
    for seed in 0..20 {
        let k = digits_number(seed, 300);
        let (a, b) = (lower(&k), upper(&k));
        assert!(a.to_string().len() >= 300);
        assert!(is_p_position(&a, &b) && is_p_position(&b, &a));
        assert!(!is_p_position(&a, &(&b + 1u32)) && !is_p_position(&(&a + 1u32), &b));
        assert_eq!(beatty_place(&a), BeattyPlace::Lower(k.clone()));
        assert_eq!(beatty_place(&b), BeattyPlace::Upper(k.clone()));
        // An N-position next to it: every listed move lands on a P-position and is a legal move.
        for (x, y) in [(&a + 5u32, b.clone()), (a.clone(), &b + 7u32), (&a + 3u32, &b + 3u32), (b.clone(), b.clone())] {
            let moves = winning_moves(&x, &y);
            assert!(!moves.is_empty());
            for m in &moves {
                assert!(is_p_position(&m.to.0, &m.to.1));
                let (dx, dy) = (&x - &m.to.0, &y - &m.to.1);
                assert!(dx.is_zero() != dy.is_zero() || dx == dy, "({x}, {y}) -> {:?}", m.to);
            }
            let position = pairs(&game, &[&format!("{x},{y}")]);
            assert_eq!(position.outcome().unwrap(), Outcome::N);
            let listed: BTreeSet<String> = winning_destinations(&position).unwrap().into_iter().collect();
            let expected: BTreeSet<String> = moves.iter().map(|m| format!("{},{}", m.to.0, m.to.1)).collect();
            assert_eq!(listed, expected);
        }
    }
}

/// ⌊kφ²⌋ computed independently of `upper` (φ² = (3 + √5)/2).
fn floor_k_phi_squared(k: &BigUint) -> BigUint {
    (k * 3u32 + (k * k * 5u32).sqrt()) >> 1
}

#[test]
fn floating_point_free_identities_at_huge_sizes() {
    for seed in 0..12 {
        let k = digits_number(seed + 100, 40 + 20 * seed as usize) + 1u32;
        // b_k = a_k + k = ⌊kφ²⌋.
        assert_eq!(upper(&k), lower(&k) + &k);
        assert_eq!(upper(&k), floor_k_phi_squared(&k));
        // a_k is the mex of the earlier a_i, b_i: a_k − a_{k−1} is 1 or 2, and a skipped number
        // is an earlier b_j, while a_k itself is no b_j.
        let previous = lower(&(&k - 1u32));
        let gap = lower(&k) - &previous;
        assert!(gap == 1u32.into() || gap == 2u32.into(), "gap {gap}");
        if gap == 2u32.into() {
            let skipped = &previous + 1u32;
            match beatty_place(&skipped) {
                BeattyPlace::Upper(j) => assert!(j < k && upper(&j) == skipped),
                other => panic!("{skipped} is {other:?}"),
            }
        }
        assert_eq!(beatty_place(&lower(&k)), BeattyPlace::Lower(k.clone()));
        // Complementary Beatty sequences: on a window of 500 integers, the a_k and the b_k that
        // fall in it are disjoint and cover it (found by enumerating k, not by classifying n).
        let start = digits_number(seed + 200, 30 + 25 * seed as usize);
        let end = &start + 500u32;
        let in_window = |n: &BigUint| n >= &start && n < &end;
        let mut covered = BTreeSet::new();
        let mut k = floor_over_phi(&start).max(1u32.into()) - 1u32;
        loop {
            k += 1u32;
            let a = lower(&k);
            if a >= end {
                break;
            }
            if in_window(&a) {
                assert!(covered.insert(a));
            }
        }
        let mut j = floor_over_phi(&floor_over_phi(&start)).max(1u32.into()) - 1u32;
        loop {
            j += 1u32;
            let b = upper(&j);
            if b >= end {
                break;
            }
            if in_window(&b) {
                assert!(covered.insert(b.clone()), "{b} is both an a and a b");
            }
        }
        assert_eq!(covered.len(), 500);
    }
}

#[test]
fn u64_p_test_agrees_with_the_exact_test_at_the_top_of_the_word() {
    let mut checked = 0;
    for k in [1u64 << 40, 1 << 50, 1 << 60, 6_000_000_000_000_000_000, 7_046_029_254_386_353_130] {
        for dk in 0..50u64 {
            let k = BigUint::from(k + dk);
            let (a, b) = (lower(&k), upper(&k));
            if let (Some(a), Some(b)) = (a.to_u64(), b.to_u64()) {
                for (x, y) in [
                    (a, b),
                    (b, a),
                    (a, b.wrapping_add(1)),
                    (a.wrapping_sub(1), b),
                    (a.wrapping_add(1), b.wrapping_add(1)),
                ] {
                    assert_eq!(is_p_position_u64(x, y), is_p_position(&x.into(), &y.into()), "({x}, {y})");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100);
    for (x, y) in [(u64::MAX, u64::MAX), (0, u64::MAX), (u64::MAX, 0), (u64::MAX / 2, u64::MAX)] {
        assert_eq!(is_p_position_u64(x, y), is_p_position(&x.into(), &y.into()), "({x}, {y})");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn u64_p_test_agrees_with_the_exact_test(k in 0u64..(1 << 62), jitter in 0u64..4, order in any::<bool>()) {
        let k_big = BigUint::from(k);
        let (a, b) = (lower(&k_big), upper(&k_big));
        if let (Some(a), Some(b)) = (a.to_u64(), b.to_u64().and_then(|b| b.checked_add(jitter))) {
            let (x, y) = if order { (a, b) } else { (b, a) };
            prop_assert_eq!(is_p_position_u64(x, y), jitter == 0);
            prop_assert_eq!(is_p_position(&x.into(), &y.into()), jitter == 0);
        }
    }

    #[test]
    fn u64_p_test_on_any_pair(x in any::<u64>(), y in any::<u64>()) {
        prop_assert_eq!(is_p_position_u64(x, y), is_p_position(&x.into(), &y.into()));
    }
}

fn golden_triangle() -> Vec<Vec<u32>> {
    let text = include_str!("../../tests/data/wythoff_grundy_triangle.txt");
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| line.split_whitespace().map(|v| v.parse().unwrap()).collect())
        .collect()
}

#[test]
fn table_matches_the_published_table() {
    let golden = golden_triangle();
    assert_eq!(golden.len(), 12);
    let table = GrundyTable::compute(12, &Control::default()).unwrap();
    for (x, row) in golden.iter().enumerate() {
        for (y, &value) in row.iter().enumerate() {
            assert_eq!(table.get(x, y), value, "G({x}, {y})");
            assert_eq!(table.get(y, x), value, "G({y}, {x})");
        }
    }
    let nine = GrundyTable::compute(9, &Control::default()).unwrap();
    assert_eq!(nine.row(1), [1, 2, 0, 4, 5, 3, 7, 8, 6]);
    let Ok(Table::Grid { values }) = Wythoff::new().table(Some(9)) else { panic!("a grid") };
    assert_eq!(values[1], [1, 2, 0, 4, 5, 3, 7, 8, 6]);
    assert_eq!(values.len(), 9);
}

#[test]
fn table_matches_the_memo_solver() {
    let table = GrundyTable::compute(48, &Control::default()).unwrap();
    let game = wythoff();
    let mut definition = Definition::new(game.clone());
    for x in 0..48u64 {
        for y in 0..48u64 {
            let pair = game.parse_component(&format!("{x},{y}")).unwrap();
            assert_eq!(u64::from(table.get(x as usize, y as usize)), definition.value(&[pair]).unwrap().0);
        }
    }
}

#[test]
fn fast_table_matches_the_triple_loop_at_a_few_hundred() {
    assert_eq!(
        GrundyTable::compute(300, &Control::default()).unwrap(),
        GrundyTable::compute_plain(300, &Control::default()).unwrap()
    );
    assert_eq!(
        GrundyTable::compute_with_block(257, 7, &Control::default()).unwrap(),
        GrundyTable::compute_plain(257, &Control::default()).unwrap()
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn fast_table_matches_the_triple_loop(size in 0u64..110, block in 1usize..24) {
        prop_assert_eq!(GrundyTable::compute_with_block(size, block, &Control::default()).unwrap(), GrundyTable::compute_plain(size, &Control::default()).unwrap());
    }
}

#[test]
fn huge_tables_are_refused_with_an_estimate() {
    assert!(matches!(GrundyTable::compute(u64::MAX, &Control::default()), Err(GameError::TooLarge { .. })));
    assert!(matches!(Wythoff::new().table(Some(u64::MAX)), Err(GameError::TooLarge { .. })));
    let error = GrundyTable::compute(1 << 20, &Control::default()).unwrap_err();
    assert!(matches!(error, GameError::TooLarge { .. }), "{error}");
    assert!(error.to_string().contains("1048576×1048576"), "{error}");
    let Err(error) = Wythoff::new().table(Some(100_000)) else { panic!("refused") };
    assert!(error.to_string().contains("GiB"), "{error}");
}

#[test]
fn rows_are_proved_periodic_and_agree_with_the_table() {
    let table = GrundyTable::compute(3000, &Control::default()).unwrap();
    let rows = RowPeriodicity::find(rows::MAX_ROW).unwrap();
    for x in 0..=rows::MAX_ROW {
        for y in 0..3000u64 {
            assert_eq!(rows.value_u64(x, y), Some(u64::from(table.get(x as usize, y as usize))), "G({x}, {y})");
        }
        let (start, period) = rows.row_period(x);
        assert_eq!(rows.joint_period() % period, 0);
        for y in start..3000 - period {
            assert_eq!(table.get(x as usize, (y + period) as usize), table.get(x as usize, y as usize) + period as u32);
        }
    }
    // Rows 1 and 2 are purely periodic with period 3 (1 2 0 | 4 5 3 | …; 2 0 1 | 5 3 4 | …).
    assert_eq!(rows.row_period(1), (0, 3));
    assert_eq!(rows.row_period(2), (0, 3));
    // A smaller machine proves the same values.
    let three = RowPeriodicity::find(3).unwrap();
    let far = big("1000000000000");
    assert_eq!(three.value(3, &far), rows.value(3, &far));
    assert!(RowPeriodicity::find(rows::MAX_ROW + 1).is_err());
    assert!(RowPeriodicity::find_within(20, 10).unwrap_err().to_string().contains("within 10 columns"));
}

#[test]
fn values_far_out_come_from_the_rows() {
    let game = wythoff();
    let value = |items: &[&str]| pairs(&game, items).value().map(|v| v.to_string());
    assert_eq!(value(&["0,1000000000000"]).unwrap(), "1000000000000");
    // Row 1: G(1, y) = y + 1, y − 1, … by residue mod 3: 10^12 ≡ 1 (mod 3) → 10^12 + 1.
    assert_eq!(value(&["1,1000000000000"]).unwrap(), "1000000000001");
    assert_eq!(value(&["1000000000000,1"]).unwrap(), "1000000000001");
    let rows = RowPeriodicity::find(3).unwrap();
    let expected = rows.value(3, &big("1000000000000")).to_string();
    assert_eq!(value(&["3,1000000000000"]).unwrap(), expected);
    // The value is G(3, y0) shifted by whole periods, with y0 in the proved range.
    let (start, period) = rows.row_period(3);
    let y = 1_000_000_000_000u64;
    let y0 = start + (y - start) % period;
    assert_eq!(expected, (rows.value_u64(3, y0).unwrap() + (y - y0)).to_string());
}

#[test]
fn a_pair_too_large_for_a_value_is_named_and_its_outcome_still_known() {
    let game = wythoff();
    let huge = format!("{},{}", "1".repeat(300), "2".repeat(300));
    let alone = pairs(&game, &[&huge]);
    let error = alone.value().unwrap_err().to_string();
    assert!(error.contains(&huge) && error.contains("outcome"), "{error}");
    let outcome = alone.outcome().unwrap();
    assert_eq!(outcome == Outcome::P, is_p_position(&big(&"1".repeat(300)), &big(&"2".repeat(300))));
    let listed: BTreeSet<String> = winning_destinations(&alone).unwrap().into_iter().collect();
    let expected: BTreeSet<String> = winning_moves(&big(&"1".repeat(300)), &big(&"2".repeat(300)))
        .into_iter()
        .map(|m| format!("{},{}", m.to.0, m.to.1))
        .collect();
    assert_eq!(listed, expected);
    // Beside a P-position (1,2 is worth 0) the sum has the huge pair's outcome; beside an
    // N-position (1,3 is worth 4) it needs the value, and says which pair is out of reach.
    assert_eq!(pairs(&game, &[&huge, "1,2"]).outcome().unwrap(), outcome);
    let error = pairs(&game, &[&huge, "1,3"]).outcome().unwrap_err().to_string();
    assert!(error.contains(&huge), "{error}");
    for other in ["3,4", "1,2"] {
        let error = pairs(&game, &[other, &huge]).winning_moves().unwrap_err().to_string();
        assert!(error.contains(&huge), "{error}");
    }
}

#[test]
fn bad_components_are_named() {
    let game = wythoff();
    for text in ["4", "4,", ",7", "a,7", "4,-7", "-4,7", "4,7,9", ""] {
        // Read once at the edge: no position, so no value, outcome or moves either.
        let error = at(&game, &[text]).unwrap_err().to_string();
        assert!(error.contains(&format!("`{text}`")), "{text}: {error}");
        assert!(at(&game, &["1,2", text]).is_err());
    }
}

/// Every winning move of a sum of small pairs by brute force: each option of each component,
/// kept when the whole sum's values xor to zero.
fn brute_force_sum_moves(pairs: &[(u64, u64)], table: &GrundyTable) -> BTreeSet<Vec<String>> {
    let value = |&(x, y): &(u64, u64)| table.get(x as usize, y as usize);
    let total = pairs.iter().map(value).fold(0, |acc, v| acc ^ v);
    let mut moves = BTreeSet::new();
    for (index, pair) in pairs.iter().enumerate() {
        for (option, ..) in word_options(pair.0, pair.1) {
            if total ^ value(pair) ^ value(&option) == 0 {
                let mut to: Vec<String> = pairs.iter().map(|(x, y)| format!("{x},{y}")).collect();
                to[index] = format!("{},{}", option.0, option.1);
                moves.insert(to);
            }
        }
    }
    moves
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn sums_of_pairs_follow_sprague_grundy(pairs in prop::collection::vec((0u64..60, 0u64..60), 0..4)) {
        let table = GrundyTable::compute(60, &Control::default()).unwrap();
        let components: Vec<String> = pairs.iter().map(|(x, y)| format!("{x},{y}")).collect();
        let texts: Vec<&str> = components.iter().map(String::as_str).collect();
        let position = at(&SHARED_GAME, &texts).unwrap();
        let total = pairs.iter().fold(0, |acc, &(x, y)| acc ^ table.get(x as usize, y as usize));
        prop_assert_eq!(position.value().unwrap().to_string(), total.to_string());
        let outcome = position.outcome().unwrap();
        prop_assert_eq!(outcome == Outcome::P, total == 0);
        let listed = winning_destinations(&position).unwrap();
        let found: BTreeSet<Vec<String>> =
            listed.iter().map(|text| text.split_whitespace().map(str::to_owned).collect()).collect();
        prop_assert_eq!(found.len(), listed.len(), "a move listed twice");
        prop_assert_eq!(found, brute_force_sum_moves(&pairs, &table));
    }

    #[test]
    fn moves_through_the_rows_equal_moves_through_the_table(row in 0u64..12, y in 0u64..900, target in 0u64..950, flip in any::<bool>()) {
        let rules = &*SHARED_RULES;
        let table = ValueSource::Table(rules.table_covering(1024).unwrap());
        let periodic = ValueSource::Rows(rules.rows_covering(12).unwrap());
        let (x, y) = if flip { (y, row) } else { (row, y) };
        let (x, y, target) = (BigUint::from(x), BigUint::from(y), BigUint::from(target));
        let by_table = rules.moves_with(&table, &x, &y, &target);
        let by_rows = rules.moves_with(&periodic, &x, &y, &target);
        let key = |moves: Vec<PairMove>| moves.into_iter().map(|m| (m.to, format!("{:?}", m.take), m.amount)).collect::<BTreeSet<_>>();
        prop_assert_eq!(key(by_rows), key(by_table));
    }
}

#[test]
fn sums_with_a_far_pair_use_the_rows() {
    let game = wythoff();
    let y = 1_000_000_000_000u64;
    let position = pairs(&game, &["2,1000000000000", "5,9"]);
    let rows = RowPeriodicity::find(2).unwrap();
    let far = rows.value_u64(2, y).unwrap();
    let near = u64::from(GrundyTable::compute(10, &Control::default()).unwrap().get(5, 9));
    assert_eq!(position.value().unwrap().to_string(), (far ^ near).to_string());
    let moves = position.winning_moves().unwrap();
    assert!(!moves.is_empty());
    for m in moves {
        // Each move leads to a sum of value 0.
        let after = position.after(&m);
        assert_eq!(after.value().unwrap().to_string(), "0", "{}", after.to_text());
    }
}

#[test]
fn all_moves_lists_every_option_of_every_pair() {
    let game = wythoff();
    let position = pairs(&game, &["1,2", "0,1"]);
    let moves = position.options(100).unwrap();
    assert_eq!(destinations(&position, &moves), ["0,2 0,1", "1,0 0,1", "1,1 0,1", "0,1 0,1", "1,2 0,0"]);
    assert_eq!(moves[0].notation, "1,2 -> 0,2");
    assert!(pairs(&game, &["100,100"]).options(250).unwrap_err().to_string().contains("`100,100`"));
    assert!(pairs(&game, &[&format!("{},1", "9".repeat(40))]).options(250).is_err());
}

#[test]
fn p_positions_by_the_mex_recursion_match_the_closed_form() {
    // Wythoff's recursion: a_k is the least number not among a_i, b_i (i < k), b_k = a_k + k.
    let count = 100_000usize;
    let mut used = vec![false; 3 * count];
    let mut least_unused = 0;
    for k in 0..count {
        while used[least_unused] {
            least_unused += 1;
        }
        let (a, b) = (least_unused, least_unused + k);
        used[a] = true;
        used[b] = true;
        let k_big = BigUint::from(k);
        assert_eq!(lower(&k_big), BigUint::from(a), "a_{k}");
        assert_eq!(upper(&k_big), BigUint::from(b), "b_{k}");
        assert!(is_p_position_u64(a as u64, b as u64) && is_p_position_u64(b as u64, a as u64));
    }
}

/// One pair that only a big table would reach: its outcome and winning moves come from the
/// closed form, with no table built, and they are the definition's (the table's own values
/// at side 2600, the options filtered by value 0); a sum of two such pairs still takes values.
#[test]
fn a_lone_pair_past_the_cheap_table_needs_no_table() {
    let rules = Arc::new(Wythoff::new());
    let game: Arc<dyn Ruleset> = crate::ruleset::erase_shared(rules.clone());
    let alone = pairs(&game, &["16383,16383"]);
    assert_eq!(alone.outcome().unwrap(), Outcome::N);
    let moves = winning_destinations(&alone).unwrap();
    let expected: Vec<String> =
        winning_moves(&big("16383"), &big("16383")).into_iter().map(|m| format!("{},{}", m.to.0, m.to.1)).collect();
    assert_eq!(moves, expected);
    assert!(alone.winning_moves().unwrap().iter().all(|one| !one.explain.contains("value")));
    assert!(rules.table.read().unwrap().is_none(), "the outcome of one pair built the value table");
    // Two pairs: the sum's value decides.
    let sum = pairs(&game, &["2100,2500", "41,3000"]);
    let total =
        rules.pair_value(&big("2100"), &big("2500")).unwrap() ^ rules.pair_value(&big("41"), &big("3000")).unwrap();
    assert_eq!(sum.outcome().unwrap() == Outcome::P, total == BigUint::ZERO);
    assert!(rules.table.read().unwrap().is_some());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The closed form's outcome and winning moves of one pair past the cheap table are the
    /// definition's: P exactly when G = 0 in the table (the mex over the options), and the
    /// winning moves exactly the options of value 0.
    #[test]
    fn lone_pairs_past_the_cheap_table_agree_with_the_table(x in 41u64..2600, y in 2048u64..2600, flip in any::<bool>()) {
        let (x, y) = if flip { (y, x) } else { (x, y) };
        let table = SHARED_RULES.table_covering(2600).unwrap();
        let text = format!("{x},{y}");
        let alone = pairs(&SHARED_GAME, &[&text]);
        let value = table.get(x as usize, y as usize);
        prop_assert_eq!(alone.outcome().unwrap() == Outcome::P, value == 0, "{}", text);
        let found: BTreeSet<String> = winning_destinations(&alone).unwrap().into_iter().collect();
        let expected: BTreeSet<String> = word_options(x, y)
            .filter(|&((a, b), ..)| table.get(a as usize, b as usize) == 0)
            .map(|((a, b), ..)| format!("{a},{b}"))
            .collect();
        prop_assert_eq!(found, expected, "{}", text);
    }
}

/// A cancelled control stops the table between block diagonals (Ctrl-C in Python's
/// `grundy.table`), keeps no table, and the same game computes it once the flag is cleared.
#[test]
fn a_cancelled_control_stops_the_table_and_keeps_nothing() {
    let control = Control::default();
    control.cancel();
    let error = GrundyTable::compute_with_block(64, 8, &control).unwrap_err();
    assert!(matches!(error, GameError::OutOfReach(_)) && error.to_string().contains("interrupted"), "{error}");
    let game = Wythoff::new().with_control(control.clone());
    assert!(game.table_covering(64).is_err());
    control.cancel_flag().store(false, std::sync::atomic::Ordering::SeqCst);
    let table = game.table_covering(64).unwrap();
    assert_eq!(table.to_rows(), GrundyTable::compute_plain(64, &Control::default()).unwrap().to_rows());
}
