use super::*;
use crate::error::GameError;
use crate::heap::Extended;
use crate::heap::subtraction::{SubtractionGame, SubtractionSet, extend_sequence};
use proptest::prelude::*;

/// A plain octal game (the definition, O(n²)), standing in for the octal module: digit
/// `d_k` of the code is a sum of 1 (take a whole heap of k), 2 (leave one heap), 4 (leave
/// two non-empty heaps) — *Winning Ways* ch. 4. For `k = 0` only 4 means a move.
pub(crate) struct PlainOctal {
    pub digits: Vec<u8>,
}

impl PlainOctal {
    fn value(&self, values: &[u32], heap: usize, seen: &mut Vec<u64>) -> u32 {
        seen.iter_mut().for_each(|word| *word = 0);
        let mut mark = |value: u32| {
            let (word, bit) = (value as usize / 64, value % 64);
            if word >= seen.len() {
                seen.resize(word + 1, 0);
            }
            seen[word] |= 1 << bit;
        };
        for (take, &digit) in self.digits.iter().enumerate() {
            if take > heap {
                break;
            }
            let rest = heap - take;
            let digit = if take == 0 { digit & 4 } else { digit };
            if digit & 1 != 0 && rest == 0 {
                mark(0);
            }
            if digit & 2 != 0 && rest > 0 {
                mark(values[rest]);
            }
            if digit & 4 != 0 {
                for small in 1..=rest / 2 {
                    mark(values[small] ^ values[rest - small]);
                }
            }
        }
        let word = seen.iter().position(|&word| word != u64::MAX).unwrap_or(seen.len());
        (word * 64) as u32 + seen.get(word).map_or(0, |word| word.trailing_ones())
    }
}

impl HeapGame for PlainOctal {
    fn spec(&self) -> String {
        let digits: String = self.digits[1..].iter().map(|d| char::from(b'0' + d)).collect();
        format!("octal-test:{}.{digits}", self.digits[0])
    }
    fn extend_sequence(&self, values: &mut CompactSequence, len: usize, control: &Control) -> Extended {
        let values = values.words_mut();
        let mut seen = vec![0u64; 4];
        while values.len() < len {
            if control.cancelled() {
                return Ok(false);
            }
            let next = self.value(values, values.len(), &mut seen);
            values.push(next);
        }
        Ok(true)
    }
    fn periodicity(&self) -> Periodicity {
        let last = self.digits.iter().rposition(|&d| d != 0).unwrap_or(0);
        Periodicity::Octal { max_removal: last as u64, max_parts: 2 }
    }
    fn heap_options(&self, heap: u64) -> Vec<Vec<u64>> {
        let mut options = Vec::new();
        for (take, &digit) in self.digits.iter().enumerate() {
            let take = take as u64;
            if take > heap {
                break;
            }
            let rest = heap - take;
            let digit = if take == 0 { digit & 4 } else { digit };
            if digit & 1 != 0 && rest == 0 {
                options.push(vec![]);
            }
            if digit & 2 != 0 && rest > 0 {
                options.push(vec![rest]);
            }
            if digit & 4 != 0 {
                options.extend((1..=rest / 2).map(|small| vec![small, rest - small]));
            }
        }
        options
    }
}

/// A sequence given outright, with no theorem: for the observation logic.
struct Listed(Vec<u32>);
impl HeapGame for Listed {
    fn spec(&self) -> String {
        "listed".to_owned()
    }
    fn extend_sequence(&self, values: &mut CompactSequence, len: usize, _: &Control) -> Result<bool, GameError> {
        while values.len() < len {
            values.push(self.0[values.len() % self.0.len()] + 5 * (values.len() / self.0.len()) as u32);
        }
        Ok(true)
    }
    fn periodicity(&self) -> Periodicity {
        Periodicity::Unproved
    }
    fn heap_options(&self, _: u64) -> Vec<Vec<u64>> {
        Vec::new()
    }
}

fn search(game: &dyn HeapGame, max_heap: u64) -> PeriodReport {
    find_period(game, &mut CompactSequence::new(), max_heap, &Control::default(), &mut |_| {}).unwrap()
}

/// `game`'s first `len` values, four bytes each.
fn sequence(game: &dyn HeapGame, len: usize) -> Vec<u32> {
    let mut values = CompactSequence::new();
    game.extend_sequence(&mut values, len, &Control::default()).unwrap();
    values.into_vec()
}

fn proved(report: &PeriodReport) -> Option<(u64, u64)> {
    report.proved.as_ref().map(|(period, _)| (period.preperiod, period.period))
}

fn octal(code: &str) -> PlainOctal {
    let digits = code.bytes().filter(|b| b.is_ascii_digit()).map(|b| b - b'0').collect();
    PlainOctal { digits }
}

#[test]
fn three_way_splits_need_the_longer_check() {
    // Preperiod 10, period 2, t = 2: two-way splits prove it from 2·10 + 2·2 + 2 = 26
    // values, three-way splits only from 3·10 + 3·2 + 2 = 38.
    let mut values: Vec<u32> = (0..10).map(|n| 5 + n).collect();
    values.extend((0..40).map(|n| n % 2));
    assert_eq!(octal_check(&values[..26], 2, 2).proved, Some((10, 2)));
    assert_eq!(octal_check(&values[..25], 2, 2).proved, None);
    assert_eq!(octal_check(&values[..38], 2, 3).proved, Some((10, 2)));
    assert_eq!(octal_check(&values[..37], 2, 3).proved, None);
    let three_way = Periodicity::Octal { max_removal: 2, max_parts: 3 };
    assert_eq!(proof_needs(three_way, 10, 2), Some(37));
}

#[test]
fn kayles_has_period_12_from_71() {
    // Winning Ways ch. 4: Kayles (0.77) is periodic with period 12, last exception G(70).
    let report = search(&octal("0.77"), 10_000);
    assert_eq!(proved(&report), Some((71, 12)));
    let (period, proof) = report.proved.unwrap();
    assert_eq!(period.checked_to, 167);
    assert_eq!(proof, Proof::Octal { max_removal: 2, max_parts: 2, from: 71, bound: 156 });
}

#[test]
fn dawsons_kayles_has_period_34_from_53() {
    assert_eq!(proved(&search(&octal("0.07"), 10_000)), Some((53, 34)));
}

/// The must-show, on the plain test double: about 2 minutes in release mode
/// (`cargo test --release -p grundy --lib sixteen -- --ignored`).
#[test]
#[ignore = "slow: the plain O(n²) definition to 509 622 heaps"]
fn octal_sixteen_has_period_149459_from_105351() {
    let report = search(&octal("0.16"), 1 << 20);
    assert_eq!(proved(&report), Some((105_351, 149_459)));
    assert_eq!(report.examined, 2 * 105_351 + 2 * 149_459 + 2);
}

#[test]
fn octal_without_enough_values_is_not_proved() {
    // Kayles needs heaps 0..167; one short is not a proof.
    let report = search(&octal("0.77"), 166);
    assert_eq!(report.proved, None);
    assert_eq!(report.examined, 167);
    let observed = report.observed.unwrap();
    assert_eq!((observed.preperiod, observed.period, observed.proved), (71, 12, false));
    assert_eq!(proved(&search(&octal("0.77"), 167)), Some((71, 12)));
}

#[test]
fn preperiod_zero_is_checked_from_heap_one() {
    // 0.4 (take one, leave two non-empty heaps): G = 0 0 0 1 … The theorem read with e = 0
    // would check only G(1) = G(0), G(2) = G(1) and "prove" period 1 — a split into
    // (a, p) maps to (a, 0), which is no move. With e' = max(e, 1) no such claim is made.
    let game = octal("0.4");
    for max_heap in 0..40 {
        if let Some((period, _)) = search(&game, max_heap).proved {
            let values = sequence(&game, 400);
            check_pattern(&values, &period);
        }
    }
    assert_eq!(search(&game, 2).proved, None);
}

#[test]
fn every_claim_on_short_octal_codes_holds() {
    // Every code 0.d1d2d3 and 4.d1d2d3: whatever is proved from 200 values holds to 600.
    for code in 0..1024u32 {
        let digits: Vec<u8> = (0..4).map(|k| ((code >> (3 * k)) & 7) as u8).collect();
        let digits = [vec![digits[3] & 4], digits[..3].to_vec()].concat();
        let game = PlainOctal { digits };
        if let Some((period, _)) = search(&game, 199).proved {
            let values = sequence(&game, 600);
            check_pattern(&values, &period);
        }
    }
}

#[test]
fn window_proof_is_exact_and_minimal() {
    // sub:1,2: G(n) = n mod 3; the windows (0,1) at 0 and 3 agree: heaps 0..4.
    let game = SubtractionGame::new(vec![1, 2]).unwrap();
    let (period, proof) = search(&game, 100).proved.unwrap();
    assert_eq!(period, Period { preperiod: 0, period: 3, saltus: 0, proved: true, checked_to: 4 });
    assert_eq!(proof, Proof::Window { max_take: 2 });
    assert_eq!(search(&game, 3).proved, None);
}

#[test]
fn unproved_games_only_observe_including_arithmetic_periods() {
    // 0 1 7 3 | 5 6 12 8 | …: G(n + 4) = G(n) + 5 from heap 0.
    let report = search(&Listed(vec![0, 1, 7, 3]), 99);
    assert_eq!(report.proved, None);
    let observed = report.observed.unwrap();
    assert_eq!((observed.preperiod, observed.period, observed.saltus), (0, 4, 5));
}

#[test]
fn a_cancelled_search_says_so() {
    let control = Control::default();
    control.cancel();
    let report = find_period(&octal("0.77"), &mut CompactSequence::new(), 1000, &control, &mut |_| {}).unwrap();
    assert!(report.interrupted);
    assert_eq!(report.proved, None);
}

#[test]
fn a_period_far_out_is_proved_with_a_small_window() {
    // The window argument needs heaps up to e + p + 11 only.
    let game = SubtractionGame::new(vec![3, 7, 11]).unwrap();
    let (period, _) = search(&game, 1 << 20).proved.unwrap();
    let mut values = Vec::new();
    extend_sequence(game.set(), &mut values, 5000);
    check_pattern(&values, &period);
}

/// `period` holds on all of `values`, and no smaller period or preperiod does.
fn check_pattern(values: &[u32], period: &Period) {
    let (e, p) = (period.preperiod as usize, period.period as usize);
    for n in e..values.len() - p {
        assert_eq!(values[n + p], values[n], "G({}) ≠ G({n}) for {period}", n + p);
    }
    for divisor in (1..p).filter(|d| p % d == 0) {
        assert!((e..e + p).any(|n| values[n] != values[n + divisor]), "{period} has a smaller period {divisor}");
    }
    if e > 0 {
        assert_ne!(values[e - 1], values[e - 1 + p], "{period} has a smaller preperiod");
    }
}

/// Whether some (e, p) with a window proof (`e + p + m ≤ len`) holds on `values`, by brute force.
fn any_window_proof(values: &[u32], window: usize) -> bool {
    (1..values.len()).any(|p| {
        (0..values.len()).any(|e| e + p + window <= values.len() && (e..e + window).all(|n| values[n] == values[n + p]))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// The search resumed from a partial prefix (what a checkpoint gives back) proves what the
    /// search from nothing does, on the same values, and hands every stretch it computed to the caller,
    /// on random octal codes (the engine extending its one-byte table in place), subtraction
    /// games (values widened to four bytes) and Grundy's game (no proof).
    #[test]
    fn a_resumed_search_equals_a_fresh_one(
        digits in proptest::collection::vec(0u8..8, 1..5),
        set in proptest::collection::btree_set(1u64..30, 1..4),
        max_heap in 0u64..3000,
        known in 0usize..500,
    ) {
        use crate::heap::grundys_game::GrundysGame;
        use crate::heap::octal::{CodeBase, OctalGame};
        let code = format!("0.{}", digits.iter().map(|d| char::from(b'0' + d)).collect::<String>());
        let octal = OctalGame::parse(&code, CodeBase::Octal).unwrap();
        let subtraction = SubtractionGame::new(set.into_iter().collect()).unwrap();
        let grundy = GrundysGame::new();
        for game in [&octal as &dyn HeapGame, &subtraction, &grundy] {
            let mut fresh = CompactSequence::new();
            let expected = find_period(game, &mut fresh, max_heap, &Control::default(), &mut |_| {}).unwrap();
            let mut resumed = CompactSequence::new();
            game.extend_sequence(&mut resumed, known, &Control::default()).unwrap();
            let known = resumed.len();
            let mut segments = 0;
            let report = find_period(game, &mut resumed, max_heap, &Control::default(), &mut |_| {
                segments += 1;
            })
            .unwrap();
            // The same proof; how far it looked depends on the prefix it was given.
            prop_assert_eq!(&report.proved, &expected.proved, "{}", game.spec());
            prop_assert!(!report.interrupted, "{}", game.spec());
            // The prefix given may reach past what the fresh search needed: the values agree
            // where both have them.
            let common = resumed.len().min(fresh.len());
            prop_assert_eq!(&resumed.to_vec()[..common], &fresh.to_vec()[..common], "{}", game.spec());
            // Every stretch computed was handed to the caller (to save a checkpoint).
            prop_assert!(segments > 0 || resumed.len() == known);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn subtraction_periods_predict_far_beyond_the_proof(set in proptest::collection::btree_set(1u64..40, 1..5)) {
        let set: Vec<u64> = set.into_iter().collect();
        let game = SubtractionGame::new(set.clone()).unwrap();
        let report = search(&game, 1 << 16);
        let (period, _) = report.proved.expect("subtraction games with small sets are periodic early");
        let len = 3 * (period.checked_to as usize + 1) + 2000;
        let mut values = Vec::new();
        extend_sequence(&SubtractionSet::new(set).unwrap(), &mut values, len);
        check_pattern(&values, &period);
        // And the proof used exactly what the window argument needs.
        prop_assert_eq!(period.checked_to, period.preperiod + period.period + game.set().max() - 1);
        prop_assert!(!any_window_proof(&values[..period.checked_to as usize], game.set().max() as usize));
    }

    #[test]
    fn short_prefixes_never_claim_a_proof_that_is_not_there(
        set in proptest::collection::btree_set(1u64..12, 1..4),
        max_heap in 0u64..60,
    ) {
        let game = SubtractionGame::new(set.into_iter().collect()).unwrap();
        let report = search(&game, max_heap);
        let mut values = Vec::new();
        extend_sequence(game.set(), &mut values, max_heap as usize + 1);
        prop_assert_eq!(report.proved.is_some(), any_window_proof(&values, game.set().max() as usize));
    }

    #[test]
    fn octal_periods_predict_far_beyond_the_proof(digits in proptest::collection::vec(0u8..8, 1..4)) {
        let mut code = vec![0u8];
        code.extend(digits);
        let game = PlainOctal { digits: code };
        let report = search(&game, 1500);
        if let Some((period, proof)) = report.proved {
            let Proof::Octal { bound, .. } = proof else { panic!("octal proof expected") };
            prop_assert_eq!(period.checked_to + 1, bound + period.period);
            let values = sequence(&game, 2 * period.checked_to as usize + 600);
            check_pattern(&values, &period);
        }
    }

    #[test]
    fn observed_patterns_hold_on_the_prefix(values in proptest::collection::vec(0u32..3, 1..80)) {
        if let Some(pattern) = observe(&values) {
            let (e, p, s) = (pattern.preperiod as usize, pattern.period as usize, pattern.saltus as u32);
            prop_assert!(2 * e + 2 * p <= values.len());
            for n in e..values.len() - p {
                prop_assert_eq!(values[n + p], values[n] + s);
            }
            // No smaller period fits over half the prefix.
            for q in 1..p {
                let fits = (0..values.len()).any(|start| 2 * start + 2 * q <= values.len()
                    && (start..values.len() - q).all(|n| i64::from(values[n + q]) - i64::from(values[n])
                        == i64::from(values[values.len() - 1]) - i64::from(values[values.len() - 1 - q])));
                prop_assert!(!fits || (i64::from(values[values.len() - 1]) < i64::from(values[values.len() - 1 - q])));
            }
        }
    }
}
