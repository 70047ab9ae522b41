//! Bash's game (巴什博弈): take 1 to `M` counters from one heap.
//!
//! **Closed form.** `G(n) = n mod (M + 1)`. The positions `n ≡ 0 (mod M + 1)` are P: every move
//! leaves a non-multiple, and from a non-multiple taking `n mod (M + 1)` restores a multiple
//! (seed `003_afa91bf0d059c99d.txt`). The option values `(n − k) mod (M + 1)`, `k = 1..M`, are
//! every residue but `n mod (M + 1)` (those whose `k ≤ n`), so the mex is `n mod (M + 1)`.
//! Heaps and `M` may have any number of digits.

use crate::control::Control;
use crate::error::GameError;
use crate::heap::period::KnownPeriod;
use crate::heap::{CompactSequence, Extended, HeapGame, Periodicity, extend_in_chunks};
use num_bigint::BigUint;
use num_traits::ToPrimitive;

/// Bash's game taking 1 to `M` counters, `M` of any size: the rules
/// ([`HeapGame::heap_options`]) and the closed form `n mod (M + 1)`. The registry serves it
/// through [`crate::heap::HeapRules`].
///
/// ```
/// use grundy::heap::bash::Bash;
/// use grundy::control::Control;
/// use grundy::heap::HeapGame;
/// let game = Bash::new(3u32.into());
/// assert_eq!(game.heap_options(5), vec![vec![4], vec![3], vec![2]]);
/// let mut values = grundy::heap::CompactSequence::new();
/// game.extend_sequence(&mut values, 9, &Control::default()).unwrap();
/// assert_eq!(values.to_vec(), [0, 1, 2, 3, 0, 1, 2, 3, 0]);
/// ```
#[derive(Clone, Debug)]
pub struct Bash {
    max_take: BigUint,
}

impl Bash {
    /// Bash's game taking 1 to `max_take` counters (`max_take ≥ 1`).
    pub fn new(max_take: BigUint) -> Self {
        Bash { max_take }
    }

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
        Ok(Bash::new(max_take))
    }

    /// `M + 1`.
    fn modulus(&self) -> BigUint {
        &self.max_take + 1u32
    }

    /// The most counters a move may take from `heap`: `min(M, heap)`.
    fn most_taken(&self, heap: u64) -> u64 {
        self.max_take.to_u64().unwrap_or(u64::MAX).min(heap)
    }
}

impl HeapGame for Bash {
    fn spec(&self) -> String {
        format!("bash:{}", self.max_take)
    }

    fn extend_sequence(&self, values: &mut CompactSequence, len: usize, control: &Control) -> Extended {
        let modulus = self.modulus().to_u64().unwrap_or(u64::MAX);
        if modulus > 1 << 32 && len > 1 << 32 {
            return Err(GameError::Unsupported(format!(
                "nim-sequences are tables of 32-bit values; G({}) of {} is past 2^32 - 1",
                len - 1,
                self.spec()
            )));
        }
        extend_in_chunks(&self.spec(), values, len, 1 << 22, control, |values, next| {
            values.extend((values.len()..next).map(|heap| (heap as u64 % modulus) as u32));
        })
    }

    /// Bash's game is the subtraction game with S = {1, …, M}. (An `M` past 2^64 − 1 is beyond
    /// any window check, and its period `M + 1` beyond a [`KnownPeriod`]: only observed.)
    fn periodicity(&self) -> Periodicity {
        match self.max_take.to_u64() {
            Some(max_take) => Periodicity::Subtraction { max_take },
            None => Periodicity::Unproved,
        }
    }

    /// The rules: take 1 to `M` counters.
    fn heap_options(&self, heap: u64) -> Vec<Vec<u64>> {
        (1..=self.most_taken(heap)).map(|take| vec![heap - take]).collect()
    }

    /// One option at a time (`M` of them once the heap has `M` counters).
    fn for_each_heap_option(&self, heap: u64, visit: &mut dyn FnMut(&[u64])) {
        for take in 1..=self.most_taken(heap) {
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
            period: self.modulus().to_u64()?,
            saltus: 0,
            theorem: "G(n) = n mod (M + 1) (Bash's game: the multiples of M + 1 are the P-positions)".to_owned(),
        })
    }

    fn closed_form_value(&self, heap: &BigUint) -> Option<BigUint> {
        Some(heap % self.modulus())
    }

    /// The one `k` in `1..=M` with `n − k ≡ target (mod M + 1)`, if the heap holds `k`
    /// counters.
    fn closed_form_moves(&self, heap: &BigUint, target: &BigUint) -> Option<Vec<BigUint>> {
        let modulus = self.modulus();
        let residue = heap % &modulus;
        if target >= &modulus || *target == residue {
            return Some(Vec::new());
        }
        let take = (&residue + &modulus - target) % &modulus;
        Some(if &take > heap { Vec::new() } else { vec![heap - &take] })
    }

    fn option_count(&self, heap: &BigUint) -> Option<BigUint> {
        Some((&self.max_take).min(heap).clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::HeapRules;
    use crate::ruleset::ComponentGame;

    #[test]
    fn period_is_m_plus_one_by_the_closed_form_and_by_the_window_argument() {
        use crate::heap::period::{Proof, find_period};
        for max_take in 1u32..8 {
            let game = Bash::new(max_take.into());
            let report =
                find_period(&game, &mut CompactSequence::new(), 1000, &Control::default(), &mut |_| {}).unwrap();
            let (period, proof) = report.proved.unwrap();
            assert_eq!((period.preperiod, period.period, period.saltus), (0, u64::from(max_take) + 1, 0));
            assert!(matches!(proof, Proof::ClosedForm { .. }));
            // The subtraction game {1..M} reaches the same period by the window argument alone.
            let sub = crate::heap::subtraction::SubtractionGame::new((1..=u64::from(max_take)).collect()).unwrap();
            let (window, _) = find_period(&sub, &mut CompactSequence::new(), 1000, &Control::default(), &mut |_| {})
                .unwrap()
                .proved
                .unwrap();
            assert_eq!((window.preperiod, window.period), (0, u64::from(max_take) + 1));
        }
        let huge = Bash::new("100000000000000000000000".parse().unwrap());
        assert_eq!(huge.known_period(), None);
        let mut values = CompactSequence::new();
        huge.extend_sequence(&mut values, 5, &Control::default()).unwrap();
        assert_eq!(values.to_vec(), [0, 1, 2, 3, 4]);
    }

    #[test]
    fn an_m_past_a_machine_word_still_moves_by_the_closed_form() {
        let rules = HeapRules::new(Bash::parse("bash", "100000000000000000000000").unwrap());
        let heap: BigUint = "300000000000000000000007".parse().unwrap();
        // 3·10^23 + 7 = 3·(10^23 + 1) + 4: value 4, and taking 4 leaves a multiple of M + 1.
        assert_eq!(rules.value(&heap).unwrap(), crate::value::Value::Finite(4u32.into()));
        assert!(rules.check_moves_listable(&heap).is_ok());
        let moves = rules.moves_to_value(&heap, &BigUint::ZERO).unwrap();
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].notation, "300000000000000000000007 -> 300000000000000000000003");
    }
}
