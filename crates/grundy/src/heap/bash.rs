//! Bash's game (巴什博弈): take 1 to `M` counters from one heap.
//!
//! **Closed form.** `G(n) = n mod (M + 1)`. The positions `n ≡ 0 (mod M + 1)` are P: every move
//! leaves a non-multiple, and from a non-multiple taking `n mod (M + 1)` restores a multiple
//! (seed `003_afa91bf0d059c99d.txt`). The option values `(n − k) mod (M + 1)`, `k = 1..M`, are
//! every residue but `n mod (M + 1)` (those whose `k ≤ n`), so the mex is `n mod (M + 1)`.
//! Heaps and `M` may have any number of digits.

use crate::error::{GameError, check_memory};
use crate::game::Game;
use crate::heap::period::KnownPeriod;
use crate::heap::{HeapGame, Periodicity, SequenceControl, heap_bar, parse_heap};
use crate::ruleset::{ComponentGame, ComponentMove, too_many_moves};
use crate::value::Value;
use num_bigint::BigUint;
use num_traits::ToPrimitive;

/// The rules of Bash's game with a word-sized `M`, for the generic solver.
///
/// ```
/// use grundy::game::Game;
/// use grundy::heap::bash::Bash;
/// assert_eq!(Bash { max_take: 3 }.options(&5), vec![4, 3, 2]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Bash {
    /// The most counters one move may take (`M ≥ 1`).
    pub max_take: u64,
}

impl Game for Bash {
    type Position = u64;
    fn options_into(&self, heap: &u64, out: &mut Vec<u64>) {
        out.extend((1..=self.max_take.min(*heap)).map(|take| heap - take));
    }
}

/// The closed form `n mod (M + 1)`.
///
/// ```
/// assert_eq!(grundy::heap::bash::grundy_value(10, 3), 2);
/// ```
pub fn grundy_value(heap: u64, max_take: u64) -> u64 {
    if max_take == u64::MAX { heap } else { heap % (max_take + 1) }
}

/// Bash's game with `M` of any size, as a [`HeapGame`] (for `sequence`, `period`, `stats`).
///
/// ```
/// use grundy::heap::bash::BashSequence;
/// use grundy::heap::{HeapGame, SequenceControl};
/// let game = BashSequence::new(3u32.into());
/// let mut values = Vec::new();
/// game.extend_sequence(&mut values, 9, &SequenceControl::default()).unwrap();
/// assert_eq!(values, [0, 1, 2, 3, 0, 1, 2, 3, 0]);
/// ```
#[derive(Clone, Debug)]
pub struct BashSequence {
    max_take: BigUint,
}

impl BashSequence {
    /// Bash's game taking 1 to `max_take` counters (`max_take ≥ 1`).
    pub fn new(max_take: BigUint) -> Self {
        BashSequence { max_take }
    }

    /// `M + 1`, when it fits a machine word.
    fn modulus(&self) -> Option<u64> {
        self.max_take.to_u64().and_then(|max_take| max_take.checked_add(1))
    }
}

impl HeapGame for BashSequence {
    fn spec(&self) -> String {
        format!("bash:{}", self.max_take)
    }

    fn extend_sequence(&self, values: &mut Vec<u32>, len: usize, control: &SequenceControl) -> Result<bool, GameError> {
        check_memory(|| format!("the nim-sequence of {} up to heap {len}", self.spec()), len as u128, 4)?;
        // The whole table at once and fallibly: no doubling past the estimate, no abort.
        crate::error::try_reserve_table(values, len.saturating_sub(values.len()), || {
            format!("the nim-sequence of {} up to heap {len}", self.spec())
        })?;
        let modulus = self.modulus().unwrap_or(u64::MAX);
        if modulus > 1 << 32 && len > 1 << 32 {
            return Err(GameError::Unsupported(format!(
                "nim-sequences are tables of 32-bit values; G({}) of {} is past 2^32 - 1",
                len - 1,
                self.spec()
            )));
        }
        const CHUNK: usize = 1 << 22;
        while values.len() < len {
            if control.cancelled() {
                return Ok(false);
            }
            let next = len.min(values.len() + CHUNK);
            values.extend((values.len()..next).map(|heap| (heap as u64 % modulus) as u32));
            (control.progress)(values.len());
        }
        Ok(true)
    }

    /// Bash's game is the subtraction game with S = {1, …, M}. (An `M` past 2^64 − 1 is beyond
    /// any window check, and its period `M + 1` beyond a [`KnownPeriod`]: only observed.)
    fn periodicity(&self) -> Periodicity {
        match self.max_take.to_u64() {
            Some(max_take) => Periodicity::Subtraction { max_take },
            None => Periodicity::Unproved,
        }
    }

    fn heap_options(&self, heap: u64) -> Vec<Vec<u64>> {
        let most = self.max_take.to_u64().unwrap_or(u64::MAX).min(heap);
        (1..=most).map(|take| vec![heap - take]).collect()
    }

    /// One option at a time (`M` of them once the heap has `M` counters).
    fn for_each_heap_option(&self, heap: u64, visit: &mut dyn FnMut(&[u64])) {
        let most = self.max_take.to_u64().unwrap_or(u64::MAX).min(heap);
        for take in 1..=most {
            visit(&[heap - take]);
        }
    }

    fn method(&self) -> String {
        "closed form G(n) = n mod (M + 1)".to_owned()
    }

    /// Period `M + 1` from heap 0 (the module's closed form).
    fn known_period(&self) -> Option<KnownPeriod> {
        Some(KnownPeriod {
            preperiod: 0,
            period: self.modulus()?,
            saltus: 0,
            theorem: "G(n) = n mod (M + 1) (seed 003: the multiples of M + 1 are the P-positions)".to_owned(),
        })
    }
}

/// Bash's game for the front end: `bash:M`, heaps of any size.
#[derive(Clone, Debug)]
pub struct BashRules {
    max_take: BigUint,
    sequence: BashSequence,
}

impl BashRules {
    /// Parses the `M` of `bash:M`.
    ///
    /// # Errors
    /// [`GameError::BadGame`] unless `M` is a positive integer.
    pub fn parse(spec: &str, max_take: &str) -> Result<Self, GameError> {
        let bad = |reason: &str| GameError::BadGame { spec: spec.to_owned(), reason: reason.to_owned() };
        if max_take.is_empty() || !max_take.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad(&format!("M = `{max_take}` must be a positive integer (bash:M takes 1..M)")));
        }
        let max_take: BigUint = max_take.parse().expect("digits parse");
        if max_take == BigUint::ZERO {
            return Err(bad("M = 0 allows no move; M must be at least 1"));
        }
        Ok(BashRules::new(max_take))
    }

    /// Bash's game taking 1 to `max_take` counters (`max_take ≥ 1`).
    pub fn new(max_take: BigUint) -> Self {
        BashRules { sequence: BashSequence::new(max_take.clone()), max_take }
    }
}

impl ComponentGame for BashRules {
    type Component = BigUint;

    fn spec(&self) -> String {
        format!("bash:{}", self.max_take)
    }

    fn parse_component(&self, text: &str) -> Result<BigUint, GameError> {
        parse_heap(&self.spec(), text)
    }

    fn format_component(&self, heap: &BigUint) -> String {
        heap.to_string()
    }

    fn value(&self, heap: &BigUint) -> Result<Value, GameError> {
        Ok(Value::Finite(heap % (&self.max_take + 1u32)))
    }

    fn heap_game(&self) -> Option<&dyn HeapGame> {
        Some(&self.sequence)
    }

    fn moves_to_value(&self, heap: &BigUint, target: &BigUint) -> Result<Vec<ComponentMove<BigUint>>, GameError> {
        let modulus = &self.max_take + 1u32;
        let residue = heap % &modulus;
        if target >= &modulus || *target == residue {
            return Ok(Vec::new());
        }
        // The one k in 1..=M with (n - k) ≡ target, if the heap holds k counters.
        let take = (&residue + &modulus - target) % &modulus;
        if &take > heap {
            return Ok(Vec::new());
        }
        let result = heap - &take;
        Ok(vec![ComponentMove::new(vec![result.clone()], format!("{heap} -> {result}"))])
    }

    fn options(&self, heap: &BigUint, limit: usize) -> Result<Vec<ComponentMove<BigUint>>, GameError> {
        let most = (&self.max_take).min(heap).clone();
        if most > BigUint::from(limit) {
            return Err(too_many_moves(&self.spec(), &heap.to_string(), limit));
        }
        let mut moves = Vec::new();
        let mut take = BigUint::from(1u32);
        while take <= most {
            let result = heap - &take;
            moves.push(ComponentMove::new(vec![result.clone()], format!("{heap} -> {result}")));
            take += 1u32;
        }
        Ok(moves)
    }

    fn describe_component(&self, heap: &BigUint) -> String {
        heap_bar(heap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::memo::Solver;
    use proptest::prelude::*;

    #[test]
    fn period_is_m_plus_one_by_the_closed_form_and_by_the_window_argument() {
        use crate::heap::period::{Proof, find_period};
        for max_take in 1u32..8 {
            let game = BashSequence::new(max_take.into());
            let report = find_period(&game, &mut Vec::new(), 1000, &SequenceControl::default(), &mut |_| {}).unwrap();
            let (period, proof) = report.proved.unwrap();
            assert_eq!((period.preperiod, period.period, period.saltus), (0, u64::from(max_take) + 1, 0));
            assert!(matches!(proof, Proof::ClosedForm { .. }));
            // The subtraction game {1..M} reaches the same period by the window argument alone.
            let sub = crate::heap::subtraction::SubtractionGame::new((1..=u64::from(max_take)).collect()).unwrap();
            let (window, _) = find_period(&sub, &mut Vec::new(), 1000, &SequenceControl::default(), &mut |_| {})
                .unwrap()
                .proved
                .unwrap();
            assert_eq!((window.preperiod, window.period), (0, u64::from(max_take) + 1));
        }
        let huge = BashSequence::new("100000000000000000000000".parse().unwrap());
        assert_eq!(huge.known_period(), None);
        let mut values = Vec::new();
        huge.extend_sequence(&mut values, 5, &SequenceControl::default()).unwrap();
        assert_eq!(values, [0, 1, 2, 3, 4]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn closed_form_matches_definition(max_take in 1u64..20, heap in 0u64..200) {
            let definition = Solver::new(Bash { max_take }).grundy_value(&heap).unwrap().0;
            prop_assert_eq!(grundy_value(heap, max_take), definition);
        }

        #[test]
        fn moves_reach_exactly_the_options_with_the_target_value(max_take in 1u64..12, heap in 0u64..60, target in 0u64..14) {
            let rules = BashRules::new(max_take.into());
            let found: Vec<BigUint> = rules
                .moves_to_value(&heap.into(), &target.into())
                .unwrap()
                .into_iter()
                .map(|m| m.result[0].clone())
                .collect();
            let expected: Vec<BigUint> = Bash { max_take }
                .options(&heap)
                .into_iter()
                .filter(|&option| grundy_value(option, max_take) == target)
                .map(BigUint::from)
                .collect();
            prop_assert_eq!(found, expected);
        }
    }
}
