//! A heap's marks: the values seen among its options so far, one byte a value or one bit a
//! value in a word, and the smallest value not seen.

use super::{Cell, pair_xor_bits};

/// The values seen among a heap's options so far, below the heap's bound (a power of two; the
/// bound itself is never marked, every xor of values being below it).
pub(super) trait Seen {
    fn mark(&mut self, value: u32);
    /// Marks `forward[i] ^ backward[len − 1 − i]` for every `i` (the slices have one length:
    /// the splits `a + (m − a)`, `backward` ascending from the largest `m − a`).
    fn mark_xors<T: Cell>(&mut self, forward: &[T], backward: &[T]) {
        for (&small, &large) in forward.iter().zip(backward.iter().rev()) {
            self.mark((small ^ large).to_u32());
        }
    }
    /// The marks as one word (bit `v` for value `v`), when they are kept in one: vectorized
    /// steps `or` whole words of marks into it.
    fn word_mut(&mut self) -> Option<&mut u64> {
        None
    }
    /// The smallest unmarked value from `from` on.
    fn first_missing(&self, from: u32) -> u32;
    /// Which of the values `64·word … 64·word + 63` up to the bound are unmarked, as bits.
    fn missing_in_word(&self, word: u32) -> u64;
    /// The bound + 1: the values that may be marked, and the bound.
    fn len(&self) -> usize;
}

/// One byte a value: marking is a plain store, with no read-modify-write of a shared word to
/// wait for (any bound).
impl Seen for [u8] {
    #[inline(always)]
    fn mark(&mut self, value: u32) {
        self[value as usize] = 1;
    }
    /// Not inlined: in a function of its own the loop keeps its bound in a register (inlined
    /// into the kernel's block loop it was spilled, and `.354` ran 5% slower: bench/RESULTS.md).
    #[inline(never)]
    fn mark_xors<T: Cell>(&mut self, forward: &[T], backward: &[T]) {
        // The xors of 32 pairs at a time first (vectorized: no store to `self` between the
        // loads), then one store each: `sequence octal:.354 --to 1000000` took 7.5% fewer
        // instructions than with one loop (3.44 → 3.18 G).
        const STEP: usize = 32;
        let len = forward.len().min(backward.len());
        let (forward, backward) = (&forward[..len], &backward[backward.len() - len..]);
        let mut xors = [T::default(); STEP];
        let mut small_chunks = forward.chunks_exact(STEP);
        let mut large_chunks = backward.rchunks_exact(STEP);
        // Every xor is below a power of two that is at most the length (the bound), so masking
        // it by the largest such power less one changes nothing, and each store needs no bounds
        // check (0.6's heaps mark 32 to 256 splits here).
        assert!(!self.is_empty(), "marks for at least value 0");
        let inside = (1usize << self.len().ilog2()) - 1;
        for (small, large) in small_chunks.by_ref().zip(large_chunks.by_ref()) {
            for ((xor, &small), &large) in xors.iter_mut().zip(small).zip(large.iter().rev()) {
                *xor = small ^ large;
            }
            for &xor in &xors {
                debug_assert!(xor.to_u32() as usize <= inside, "every xor below the bound");
                // SAFETY: `xor & inside ≤ inside < self.len()`.
                unsafe { *self.get_unchecked_mut(xor.to_u32() as usize & inside) = 1 };
            }
        }
        for (&small, &large) in small_chunks.remainder().iter().zip(large_chunks.remainder().iter().rev()) {
            self.mark((small ^ large).to_u32());
        }
    }
    #[inline(always)]
    fn first_missing(&self, from: u32) -> u32 {
        first_unmarked(self, from)
    }
    fn missing_in_word(&self, word: u32) -> u64 {
        let base = word as usize * 64;
        let end = (base + 64).min(self.len());
        let marks = &self[base..end];
        if let Ok(whole) = <&[u8; 64]>::try_from(marks) {
            // Eight marks at a time (a three-way heap asks for every word below its mex).
            return whole.chunks_exact(8).rev().fold(0, |missing, eight| {
                let eight = u64::from_le_bytes(eight.try_into().expect("chunks of 8"));
                (missing << 8) | u64::from(unmarked_bytes(eight))
            });
        }
        let mut missing = 0u64;
        for (bit, &seen) in marks.iter().enumerate() {
            if seen == 0 {
                missing |= 1 << bit;
            }
        }
        missing
    }
    fn len(&self) -> usize {
        <[u8]>::len(self)
    }
}

/// Bit `i` set when byte `i` of `marks` (eight marks of 0 or 1, little-endian) is 0. The
/// multiplication moves bit 0 of byte `i` (bit `8i`) to bit `56 + i`: the product's terms land
/// on distinct bits, none of them carries into the top byte.
#[inline(always)]
fn unmarked_bytes(marks: u64) -> u8 {
    let unmarked = !marks & 0x0101_0101_0101_0101;
    (unmarked.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// The marks of a heap whose bound is at most 64 (0.16's values stay below 32, Kayles' below
/// 8): one bit a value in a word the compiler keeps in a register, so that a heap's marks need
/// no clearing, a mark is an `or` instead of a checked store, and the mex one
/// `trailing_zeros` instead of a scan (measured by instruction count: `bench/RESULTS.md`).
#[derive(Clone, Copy, Default)]
pub(super) struct Bits(pub(super) u64);

impl Bits {
    /// The largest bound the word holds (values `0 … 63`, the bound `64` never marked).
    pub(super) const BOUND: usize = 64;
}

impl Seen for Bits {
    #[inline(always)]
    fn mark(&mut self, value: u32) {
        debug_assert!((value as usize) < Self::BOUND);
        self.0 |= 1 << (value & 63);
    }
    #[inline(always)]
    fn mark_xors<T: Cell>(&mut self, forward: &[T], backward: &[T]) {
        self.0 |= pair_xor_bits(forward, backward);
    }
    #[inline(always)]
    fn word_mut(&mut self) -> Option<&mut u64> {
        Some(&mut self.0)
    }
    #[inline(always)]
    fn first_missing(&self, from: u32) -> u32 {
        if from >= 64 {
            return 64;
        }
        (!(self.0 | ((1u64 << from) - 1))).trailing_zeros()
    }
    fn missing_in_word(&self, word: u32) -> u64 {
        // Word 1 holds only the bound, 64, never marked.
        match word {
            0 => !self.0,
            1 => 1,
            _ => 0,
        }
    }
    fn len(&self) -> usize {
        Self::BOUND + 1
    }
}

/// The smallest unmarked value from `from` on, eight flags at a time (the last flag is never
/// marked).
fn first_unmarked(seen: &[u8], from: u32) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut at = from as usize;
    while let Some(bytes) = seen.get(at..at + 8) {
        let word = u64::from_le_bytes(bytes.try_into().expect("eight bytes"));
        if word != ONES {
            return (at + ((!word & ONES).trailing_zeros() / 8) as usize) as u32;
        }
        at += 8;
    }
    (at + seen[at..].iter().position(|&seen| seen == 0).expect("the last entry is never marked")) as u32
}

#[cfg(test)]
mod tests {
    use super::Seen;
    use proptest::prelude::*;

    proptest! {
        /// The missing values of a word of byte marks, read eight at a time, against one by one
        /// (a word cut by the bound included).
        #[test]
        fn missing_in_a_word_of_bytes_agrees_with_one_by_one(
            marks in proptest::collection::vec(0u8..=1, 1..300),
            word in 0u32..5,
        ) {
            let base = word as usize * 64;
            let expected = (0..64)
                .filter(|&bit| marks.get(base + bit) == Some(&0))
                .fold(0u64, |missing, bit| missing | 1 << bit);
            prop_assume!(base < marks.len());
            prop_assert_eq!(marks[..].missing_in_word(word), expected);
        }
    }
}
