use super::*;
use crate::heap::CompactSequence;
use crate::heap::grundys_game::GrundysGame;
use crate::heap::period::tests::PlainOctal;
use crate::heap::period::{find_period, observe};
use crate::heap::sequence::{TakeBreakMoves, definition_sequence};
use proptest::prelude::*;
use std::cell::Cell;
use std::rc::Rc;

/// A sequence known in full but shown as a bounded run shows it: only its first `prefix` values
/// and its last `window` are readable, so a read outside them is seen as not kept.
struct Shown {
    values: Rc<Vec<u32>>,
    len: u64,
    prefix: u64,
    window: u64,
}

impl KeptValues for Shown {
    fn len(&self) -> u64 {
        self.len
    }
    fn kept(&self, heap: u64) -> Option<u32> {
        (heap < self.len && (heap < self.prefix || heap + self.window >= self.len)).then(|| self.values[heap as usize])
    }
    fn window(&self) -> u64 {
        self.window
    }
    fn describe(&self) -> String {
        format!("shown: the first {} values and the last {}", self.prefix, self.window)
    }
    fn extend_to(&mut self, len: u64, control: &Control) -> Result<bool, GameError> {
        if control.cancelled() {
            return Ok(false);
        }
        assert!(len as usize <= self.values.len(), "asked past the values given");
        self.len = self.len.max(len);
        Ok(true)
    }
}

/// `observe_following` on `values` shown through a window, with how many second passes it made.
fn windowed(values: &[u32], prefix: u64, window: u64, most_followed: usize) -> (WindowedObservation, usize) {
    windowed_in_stretches(values, prefix, window, most_followed, STRETCH)
}

/// [`windowed`] in stretches of at most `stretch` heaps.
fn windowed_in_stretches(
    values: &[u32],
    prefix: u64,
    window: u64,
    most_followed: usize,
    stretch: u64,
) -> (WindowedObservation, usize) {
    let values = Rc::new(values.to_vec());
    let passes = Rc::new(Cell::new(0));
    let shown = |values: &Rc<Vec<u32>>| Shown { values: values.clone(), len: 0, prefix, window };
    let mut again = {
        let (values, passes) = (values.clone(), passes.clone());
        move || {
            passes.set(passes.get() + 1);
            Ok(Box::new(shown(&values)) as Box<dyn KeptValues>)
        }
    };
    let run = Box::new(shown(&values));
    let found =
        observe_following(run, values.len() as u64, most_followed, stretch, &Control::default(), &mut again).unwrap();
    (found, passes.get())
}

/// The smallest window the search accepts for `n` values, a power of two as Grundy's run needs.
fn least_window(n: usize) -> u64 {
    ((n / 2) as u64).max(2).next_power_of_two()
}

/// Asserts that the window's answer is `observe`'s (when it decides); returns whether it did.
fn agrees(values: &[u32], prefix: u64, window: u64, most_followed: usize) -> Result<bool, TestCaseError> {
    agrees_in_stretches(values, prefix, window, most_followed, STRETCH)
}

/// [`agrees`] in stretches of at most `stretch` heaps (short ones drop values on the way and
/// make the second pass find a preperiod).
fn agrees_in_stretches(
    values: &[u32],
    prefix: u64,
    window: u64,
    most_followed: usize,
    stretch: u64,
) -> Result<bool, TestCaseError> {
    let (found, _) = windowed_in_stretches(values, prefix, window, most_followed, stretch);
    match found {
        WindowedObservation::Observed { observed, examined, method } => {
            prop_assert_eq!(method, format!("shown: the first {prefix} values and the last {window}"));
            prop_assert_eq!(examined, values.len() as u64);
            prop_assert_eq!(observed, observe(values), "{:?}", values);
            Ok(true)
        }
        WindowedObservation::Undecided(_) => Ok(false),
        WindowedObservation::Interrupted { .. } => Err(TestCaseError::fail("interrupted without a cancel")),
    }
}

/// The pattern and the values examined, when the window decided.
fn answer(found: &WindowedObservation) -> Option<(Option<Period>, u64)> {
    match found {
        WindowedObservation::Observed { observed, examined, .. } => Some((*observed, *examined)),
        _ => None,
    }
}

/// A sequence that becomes (arithmetically) periodic: `pre`, then `cycle` repeating, each lap
/// `saltus` more.
fn eventually_periodic(pre: &[u32], cycle: &[u32], saltus: u32, len: usize) -> Vec<u32> {
    (0..len)
        .map(|heap| match heap.checked_sub(pre.len()) {
            None => pre[heap],
            Some(past) => cycle[past % cycle.len()] + saltus * (past / cycle.len()) as u32,
        })
        .collect()
}

#[test]
fn grundys_game_in_a_window_gives_the_whole_searchs_report() {
    let game = GrundysGame::new();
    // To 196 607 the run keeps the first 2^14 values and the last 2^17 (the window passes the
    // last rare heap, 82 860, and half the heaps), and drops the 49 152 between.
    let cases = [0, 1, 2, 3, 10, 57, 300, 1023, 1024, 2047, 4095].map(|max_heap| (max_heap, (1500, 4096)));
    for (max_heap, spans) in cases.into_iter().chain([(196_607, (1 << 14, 1 << 17))]) {
        let mut values = CompactSequence::new();
        let whole = find_period(&game, &mut values, max_heap, &Control::default(), &mut |_| {}).unwrap();
        let found = windowed_grundy_period(max_heap, spans, &Control::default()).unwrap();
        let report = found.clone().into_report(Periodicity::Unproved);
        assert_eq!(report.as_ref(), Some(&whole), "to heap {max_heap}: {found:?}");
        // The same text and JSON, then, as both come from the report.
        assert_eq!(
            report.unwrap().explain("grundys-game", "m"),
            whole.explain("grundys-game", "m"),
            "to heap {max_heap}"
        );
    }
}

#[test]
fn a_pattern_whose_tail_leaves_the_window_is_found_again_from_heap_0() {
    // Period 40 000 from heap 5 in 300 000 values: the tail reaches back past the window (the
    // last 2^18 values, and those the last stretch dropped), so the preperiod comes from a
    // second pass.
    let mut random = crate::random::SplitMix64::new(7);
    let cycle: Vec<u32> = (0..40_000).map(|_| (random.next_u64() % 1000) as u32).collect();
    let values = eventually_periodic(&[7, 7, 7, 7, 7], &cycle, 0, 300_000);
    let (found, passes) = windowed(&values, 0, 1 << 18, MOST_FOLLOWED);
    assert_eq!(passes, 1);
    let expected = observe(&values).unwrap();
    assert_eq!((expected.preperiod, expected.period), (5, 40_000));
    assert_eq!(answer(&found), Some((Some(expected), 300_000)));
    // With every value kept, no second pass.
    let (found, passes) = windowed(&values, 300_000, 1 << 19, MOST_FOLLOWED);
    assert_eq!((passes, answer(&found)), (0, Some((Some(expected), 300_000))));
    // Short stretches drop values on the way: a second pass from a short sequence too. (The
    // first look at the last half takes 4 · 32 heaps whatever the stretch: 25 candidates, the
    // multiples of 40, agree on them; the stretches after it are 7 heaps.)
    let cycle: Vec<u32> = (0..40).map(|_| (random.next_u64() % 1000) as u32).collect();
    let values = eventually_periodic(&[9, 9, 9], &cycle, 1, 2000);
    let (found, passes) = windowed_in_stretches(&values, 0, 1024, 32, 7);
    assert_eq!(passes, 1);
    assert_eq!(answer(&found), Some((observe(&values), 2000)));
    assert_eq!(observe(&values).map(|pattern| (pattern.preperiod, pattern.period, pattern.saltus)), Some((3, 40, 1)));
}

#[test]
fn the_window_refuses_what_it_cannot_decide_and_stops_at_the_cancel_flag() {
    let values = eventually_periodic(&[], &[0, 1, 2, 3], 0, 3000);
    // A window under half the values.
    let (found, _) = windowed(&values, 0, 1024, MOST_FOLLOWED);
    assert!(matches!(found, WindowedObservation::Undecided(_)), "{found:?}");
    // Too many candidates to follow: 375 multiples of 4 agree on the whole last half.
    let (found, _) = windowed(&values, 0, 2048, 100);
    assert!(matches!(found, WindowedObservation::Undecided(_)), "{found:?}");
    // A constant sequence: every candidate agrees, and p = 1 is the pattern.
    assert!(agrees(&vec![3; 5000], 0, 4096, 5000).unwrap());
    let cancelled = Control::default();
    cancelled.cancel();
    let mut again = || Ok(Box::new(WindowedGrundy::new(64, 64)?) as Box<dyn KeptValues>);
    let found =
        observe_in_window(Box::new(WindowedGrundy::new(1500, 2048).unwrap()), 3000, &cancelled, &mut again).unwrap();
    assert_eq!(found, WindowedObservation::Interrupted { computed: 0 });
    // Grundy's game past a window that misses a rare heap's partner: refused by the run.
    let error = windowed_grundy_period(5000, (64, 4096), &Control::default()).expect_err("out of reach");
    assert!(matches!(error, GameError::OutOfReach(_)), "{error}");
    let tight = Control::default().with_memory_limit(1000);
    let error = windowed_grundy_period(100_000, (1024, 1 << 16), &tight).expect_err("refused");
    assert!(matches!(error, GameError::TooLarge { .. }), "{error}");
}

#[test]
fn past_the_whole_searchs_budget_the_window_gives_no_answer() {
    // 9000 zeros, then 7384 ones: candidate q < 7384 compares the ones from the end down to
    // heap 9000, 7384 − q values, about 2.7·10^7 comparisons in all, past the budget of
    // 64n + 2^22 = 5.2·10^6, where `observe` gives up.
    let mut values = vec![0u32; 9000];
    values.extend(std::iter::repeat_n(1, 7384));
    assert_eq!(observe(&values), None);
    let (found, _) = windowed(&values, 0, least_window(values.len()), MOST_FOLLOWED);
    assert!(matches!(&found, WindowedObservation::Undecided(why) if why.contains("budget")), "{found:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Grundy's game to a few thousand heaps: the window's answer is the whole search's, from
    /// the bounded run itself (the first values and a window it accepts) and from its values
    /// shown through the least window the search takes.
    #[test]
    fn grundys_game_agrees_with_the_whole_search(
        max_heap in 0u64..5000,
        prefix in 0u64..3000,
        stretch in prop_oneof![1u64..300, Just(STRETCH)],
    ) {
        let len = max_heap + 1;
        let values = definition_sequence(&TakeBreakMoves::grundys_game(), len as usize);
        let found = windowed_grundy_period(max_heap, (1500, 4096), &Control::default()).unwrap();
        let WindowedObservation::Observed { observed, examined, method } = found else {
            return Err(TestCaseError::fail(format!("{found:?}")));
        };
        prop_assert_eq!((observed, examined), (observe(&values), len));
        prop_assert!(method.contains("the first 1500 values and the last 4096 kept"), "{}", method);
        prop_assert!(agrees_in_stretches(&values, prefix, least_window(len as usize), MOST_FOLLOWED, stretch)?);
    }

    /// Sequences that become periodic, with a saltus or without: the same pattern, or none.
    #[test]
    fn eventually_periodic_sequences_agree(
        pre in proptest::collection::vec(0u32..6, 0..300),
        cycle in proptest::collection::vec(0u32..6, 1..40),
        saltus in 0u32..3,
        len in 1usize..3000,
        prefix in 0u64..200,
        extra in 0u32..2,
        stretch in 1u64..100,
    ) {
        let values = eventually_periodic(&pre, &cycle, saltus, len);
        let decided = agrees_in_stretches(&values, prefix, least_window(len) << extra, len, stretch)?;
        // Following every candidate, only the budget can leave it undecided, and these are short.
        prop_assert!(decided);
    }

    /// Take-and-break games (octal codes, two-heap splits into equal or unequal parts as in
    /// Grundy's game, which makes rare and common values): the same answer.
    #[test]
    fn take_and_break_games_agree(
        digits in proptest::collection::vec(0u8..8, 1..4),
        unequal in any::<bool>(),
        len in 1usize..1500,
        prefix in 0u64..100,
        most_followed in prop_oneof![Just(4usize), Just(MOST_FOLLOWED)],
        stretch in prop_oneof![1u64..64, Just(STRETCH)],
    ) {
        let mut code = vec![0u8];
        code.extend(digits);
        let values = if unequal {
            // The code's "leave two" digits with the parts unequal.
            let leave_two: Vec<usize> = code.iter().enumerate().filter(|(_, d)| *d & 4 != 0).map(|(k, _)| k).collect();
            let take_all: Vec<usize> = code.iter().enumerate().filter(|(_, d)| *d & 1 != 0).map(|(k, _)| k).collect();
            let leave_one: Vec<usize> = code.iter().enumerate().filter(|(_, d)| *d & 2 != 0).map(|(k, _)| k).collect();
            definition_sequence(&TakeBreakMoves::new(take_all, leave_one, leave_two, true, vec![]), len)
        } else {
            let game = PlainOctal { digits: code };
            let mut values = CompactSequence::new();
            crate::heap::HeapGame::extend_sequence(&game, &mut values, len, &Control::default()).unwrap();
            values.into_vec()
        };
        let decided = agrees_in_stretches(&values, prefix, least_window(len), most_followed, stretch)?;
        // Only a cap on the candidates followed leaves it undecided this short.
        prop_assert!(decided || most_followed < MOST_FOLLOWED);
    }

    /// Any short sequence over few values (many near-patterns): the same answer, or none given.
    #[test]
    fn short_random_sequences_agree(
        values in proptest::collection::vec(0u32..3, 1..200),
        prefix in 0u64..50,
        stretch in 1u64..20,
    ) {
        let decided = agrees_in_stretches(&values, prefix, least_window(values.len()), values.len(), stretch)?;
        prop_assert!(decided);
    }
}
