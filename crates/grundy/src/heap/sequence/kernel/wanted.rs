//! The rare-type candidates of a heap searched for all at once: one pass over the splits from
//! the frontier, each pair's xor tested against the set of values still wanted (a byte-shuffle
//! table lookup, whatever the set's size), instead of one pass a candidate from the same
//! frontier. A heap of 0.6 (values below 512) wants about 50 values; one pass stops where the
//! last of them is first found (about 2,700 pairs), where one pass a candidate read about
//! 19,500 pairs (bench/RESULTS.md, issue 44).

use super::Cell;

/// The values below this the set holds (the kernel takes this path only when every value of
/// the heap's bound is below it).
pub(in crate::heap::sequence) const WANTED_BOUND: usize = 1024;

/// A set of values below [`WANTED_BOUND`], exact, and folded onto its low byte for the
/// vectorized test.
#[derive(Clone)]
pub(in crate::heap::sequence) struct Wanted {
    /// Bit `v`: value `v` is wanted.
    exact: [u64; WANTED_BOUND / 64],
    /// The set folded onto the low byte `b = 16h + l` (some wanted `v` has `v & 255 = b`), as
    /// the two tables of a byte shuffle by `l`: `low_half[l]` has bit `h` for `h < 8`,
    /// `high_half[l]` bit `h − 8` for `h ≥ 8`; each 16-byte table is repeated for both 128-bit
    /// halves of a vector. A folded hit is then checked against `exact`.
    low_half: [u8; 32],
    high_half: [u8; 32],
    count: u32,
}

impl Wanted {
    pub(in crate::heap::sequence) fn new() -> Self {
        Wanted { exact: [0; WANTED_BOUND / 64], low_half: [0; 32], high_half: [0; 32], count: 0 }
    }

    #[inline(always)]
    pub(in crate::heap::sequence) fn contains(&self, value: u32) -> bool {
        (value as usize) < WANTED_BOUND && self.exact[value as usize / 64] >> (value % 64) & 1 == 1
    }

    /// Adds the values `64·word + i` for each bit `i` of `bits` (below [`WANTED_BOUND`]), none
    /// of them in the set yet: a heap's candidates a word at a time.
    pub(in crate::heap::sequence) fn insert_word(&mut self, word: u32, bits: u64) {
        let slot = &mut self.exact[word as usize];
        debug_assert!(*slot & bits == 0, "the values are new");
        *slot |= bits;
        self.count += bits.count_ones();
        let mut rest = bits;
        while rest != 0 {
            self.set_folded((word * 64 + rest.trailing_zeros()) as u8, true);
            rest &= rest - 1;
        }
    }

    /// Adds `value` (below [`WANTED_BOUND`]).
    pub(in crate::heap::sequence) fn insert(&mut self, value: u32) {
        assert!((value as usize) < WANTED_BOUND, "a wanted value is below the set's bound");
        if !self.contains(value) {
            self.exact[value as usize / 64] |= 1 << (value % 64);
            self.count += 1;
            self.set_folded(value as u8, true);
        }
    }

    /// Removes `value` if it is in the set; whether it was.
    #[inline]
    pub(super) fn remove(&mut self, value: u32) -> bool {
        match self.remove_exact(value) {
            Some(byte_still_wanted) => {
                self.set_folded(value as u8, byte_still_wanted);
                true
            }
            None => false,
        }
    }

    /// Removes `value` from the exact set only (the folded tables are the caller's to update):
    /// `None` if it was not in the set, else whether another value with its low byte is.
    #[inline(always)]
    fn remove_exact(&mut self, value: u32) -> Option<bool> {
        if !self.contains(value) {
            return None;
        }
        self.exact[value as usize / 64] &= !(1 << (value % 64));
        self.count -= 1;
        // The values with this low byte: bit `value % 64` of words `value % 256 / 64 + 4·k`.
        let (first, bit) = ((value % 256 / 64) as usize, value % 64);
        const _: () = assert!(WANTED_BOUND == 1024, "four words a low byte");
        let lifts = self.exact[first] | self.exact[first + 4] | self.exact[first + 8] | self.exact[first + 12];
        Some(lifts >> bit & 1 == 1)
    }

    #[inline(always)]
    fn set_folded(&mut self, byte: u8, present: bool) {
        // Both half tables, one of them with no flag: no branch on the half (it was
        // mispredicted about one value in two).
        let (row, flag) = ((byte & 15) as usize, 1u16 << (byte >> 4));
        let [low, high] = flag.to_le_bytes();
        for half in [row, row + 16] {
            if present {
                self.low_half[half] |= low;
                self.high_half[half] |= high;
            } else {
                self.low_half[half] &= !low;
                self.high_half[half] &= !high;
            }
        }
    }

    pub(in crate::heap::sequence) fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The number of values in the set.
    pub(super) fn len(&self) -> u32 {
        self.count
    }

    /// The values in the set, increasing.
    #[cfg(test)]
    fn values(&self) -> impl Iterator<Item = u32> + '_ {
        self.exact.iter().enumerate().flat_map(|(at, &word)| {
            std::iter::successors((word != 0).then_some(word), |&rest| {
                let rest = rest & (rest - 1);
                (rest != 0).then_some(rest)
            })
            .map(move |rest| at as u32 * 64 + rest.trailing_zeros())
        })
    }

    /// The smallest value in the set.
    pub(in crate::heap::sequence) fn smallest(&self) -> Option<u32> {
        self.exact.iter().position(|&word| word != 0).map(|at| at as u32 * 64 + self.exact[at].trailing_zeros())
    }
}

/// Removes from `wanted` every value `forward[i] ^ backward[len − 1 − i]` (`len` the slices'
/// common length: the splits `a + (m − a)`, `backward` ascending from the largest `m − a`),
/// stopping once the set is empty.
pub(in crate::heap::sequence) fn drain_wanted<T: Cell>(forward: &[T], backward: &[T], wanted: &mut Wanted) {
    #[cfg(target_arch = "x86_64")]
    if std::mem::size_of::<T>() <= 2 && std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { drain_wanted_avx2(forward, backward, forward, backward, wanted) };
    }
    drain_wanted_portable(forward, backward, wanted);
}

/// [`drain_wanted`] with the cells' low bytes beside them (`low_forward[i]` the low byte of
/// `forward[i]`, the same for `backward`): two-byte cells are scanned a byte a pair, as
/// one-byte cells are (two loads a step instead of four, no packing), and only the hits read
/// the cells themselves.
pub(in crate::heap::sequence) fn drain_wanted_by_low_bytes<T: Cell>(
    low_forward: &[u8],
    low_backward: &[u8],
    forward: &[T],
    backward: &[T],
    wanted: &mut Wanted,
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { drain_wanted_avx2(low_forward, low_backward, forward, backward, wanted) };
    }
    drain_wanted_portable(forward, backward, wanted);
}

/// Whether [`drain_wanted`] is the quick way for cells of type `T` on this CPU (else the kernel
/// searches one candidate a pass).
pub(in crate::heap::sequence) fn drain_is_vectorized<T: Cell>() -> bool {
    #[cfg(target_arch = "x86_64")]
    if std::mem::size_of::<T>() <= 2 {
        return std::arch::is_x86_feature_detected!("avx2");
    }
    false
}

pub(super) fn drain_wanted_portable<T: Cell>(forward: &[T], backward: &[T], wanted: &mut Wanted) {
    let len = forward.len().min(backward.len());
    let (forward, backward) = (&forward[..len], &backward[backward.len() - len..]);
    for (&small, &large) in forward.iter().zip(backward.iter().rev()) {
        if wanted.remove((small ^ large).to_u32()) && wanted.is_empty() {
            return;
        }
    }
}

/// [`drain_wanted_portable`] 32 pairs a step for one- and two-byte cells: the backward cells
/// reversed in registers (as in `find_xor_any_avx2`), the xors' low bytes (two-byte cells:
/// masked and packed) looked up in the folded tables (a shuffle by the low nibble in each half
/// table, the half chosen by the byte's top bit, the high nibble's bit picked by a third
/// shuffle), and only the lanes that hit checked one by one against the exact set (their xors
/// read again from the cells).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) fn drain_wanted_avx2<S: Cell, T: Cell>(
    scan_forward: &[S],
    scan_backward: &[S],
    forward: &[T],
    backward: &[T],
    wanted: &mut Wanted,
) {
    use std::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_andnot_si256, _mm256_blendv_epi8, _mm256_cmpeq_epi8, _mm256_loadu_si256,
        _mm256_movemask_epi8, _mm256_packus_epi16, _mm256_permute4x64_epi64, _mm256_set1_epi8, _mm256_set1_epi16,
        _mm256_setr_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_srli_epi16, _mm256_storeu_si256,
        _mm256_xor_si256,
    };
    // The cells scanned: the cells themselves, or their low bytes.
    let size = std::mem::size_of::<S>();
    assert!(size <= 2, "one- or two-byte cells");
    const STEP: usize = 32;
    assert!(
        scan_forward.len() == forward.len() && scan_backward.len() == backward.len(),
        "the cells scanned are the cells or their low bytes"
    );
    let len = forward.len().min(backward.len());
    let (forward, backward) = (&forward[..len], &backward[backward.len() - len..]);
    let (scan_forward, scan_backward) = (&scan_forward[..len], &scan_backward[scan_backward.len() - len..]);
    #[rustfmt::skip]
    let reverse = match size {
        1 => _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
                              15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
        _ => _mm256_setr_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1,
                              14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1),
    };
    #[rustfmt::skip]
    let powers = _mm256_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128,
                                  1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128);
    let nibble = _mm256_set1_epi8(0x0F);
    let low_byte = _mm256_set1_epi16(0x00FF);
    let zero = _mm256_setzero_si256();
    // The folded tables live in registers for the whole pass: a removal clears its byte's flag
    // there, instead of rewriting the tables in memory and loading them again (a 32-byte load
    // just after byte stores to it waits for them; about 1% of 0.6's time), and the tables are
    // stored back once at the end.
    // SAFETY: each table is 32 readable bytes.
    let (mut low_half, mut high_half) = unsafe {
        (
            _mm256_loadu_si256(wanted.low_half.as_ptr().cast::<__m256i>()),
            _mm256_loadu_si256(wanted.high_half.as_ptr().cast::<__m256i>()),
        )
    };
    #[rustfmt::skip]
    let rows_of_bytes = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                         0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    // No closures here: a closure does not inherit the function's target features.
    macro_rules! store_tables {
        () => {
            // SAFETY: each table is 32 writable bytes.
            unsafe {
                _mm256_storeu_si256(wanted.low_half.as_mut_ptr().cast::<__m256i>(), low_half);
                _mm256_storeu_si256(wanted.high_half.as_mut_ptr().cast::<__m256i>(), high_half);
            }
        };
    }
    // The 32 pairs from `at` as 32 bytes: the xors, or for two-byte cells their low bytes
    // (packed: see `lane_of`).
    macro_rules! step_bytes {
        ($at:expr) => {{
            let at = $at;
            // SAFETY: the caller has `at + STEP ≤ len`: the STEP cells from `forward[at]` and
            // the STEP cells up to `backward[len − at − 1]` are inside the slices, 32 or 64
            // bytes each, read in vectors of 32 bytes within them.
            unsafe {
                if size == 1 {
                    let small = _mm256_loadu_si256(scan_forward.as_ptr().add(at).cast::<__m256i>());
                    let large = _mm256_loadu_si256(scan_backward.as_ptr().add(len - at - STEP).cast::<__m256i>());
                    let large = _mm256_permute4x64_epi64::<0b01_00_11_10>(_mm256_shuffle_epi8(large, reverse));
                    _mm256_xor_si256(small, large)
                } else {
                    let half = STEP / 2;
                    let small_0 = _mm256_loadu_si256(scan_forward.as_ptr().add(at).cast::<__m256i>());
                    let small_1 = _mm256_loadu_si256(scan_forward.as_ptr().add(at + half).cast::<__m256i>());
                    let large_0 = _mm256_loadu_si256(scan_backward.as_ptr().add(len - at - half).cast::<__m256i>());
                    let large_1 = _mm256_loadu_si256(scan_backward.as_ptr().add(len - at - STEP).cast::<__m256i>());
                    let large_0 = _mm256_permute4x64_epi64::<0b01_00_11_10>(_mm256_shuffle_epi8(large_0, reverse));
                    let large_1 = _mm256_permute4x64_epi64::<0b01_00_11_10>(_mm256_shuffle_epi8(large_1, reverse));
                    let (pairs_0, pairs_1) = (_mm256_xor_si256(small_0, large_0), _mm256_xor_si256(small_1, large_1));
                    // Byte k of the pack: in each 128-bit half, eight low bytes of `pairs_0` then
                    // eight of `pairs_1` (see `lane_of`).
                    _mm256_packus_epi16(_mm256_and_si256(pairs_0, low_byte), _mm256_and_si256(pairs_1, low_byte))
                }
            }
        }};
    }
    // Bit k: byte k of `bytes` is in the folded set.
    macro_rules! folded_hits {
        ($bytes:expr) => {{
            let bytes = $bytes;
            let low = _mm256_and_si256(bytes, nibble);
            let high = _mm256_and_si256(_mm256_srli_epi16::<4>(bytes), nibble);
            // The byte's top bit (high nibble ≥ 8) chooses the half table.
            let rows =
                _mm256_blendv_epi8(_mm256_shuffle_epi8(low_half, low), _mm256_shuffle_epi8(high_half, low), bytes);
            let present = _mm256_and_si256(rows, _mm256_shuffle_epi8(powers, high));
            !(_mm256_movemask_epi8(_mm256_cmpeq_epi8(present, zero)) as u32)
        }};
    }
    // Two steps are looked up before one branch on their hits: a step with a hit is a
    // mispredicted branch, about a quarter of 0.6's steps have one, and they come in runs. A
    // value removed in the first step may still hit in the second (its tables were read
    // before): the exact set is checked for every hit.
    let mut at = 0;
    while at + 2 * STEP <= len {
        let first = folded_hits!(step_bytes!(at));
        let second = folded_hits!(step_bytes!(at + STEP));
        let mut hits = u64::from(first) | u64::from(second) << 32;
        while hits != 0 {
            let lane = hits.trailing_zeros() as usize;
            let pair = at + STEP * (lane / STEP) + if size == 1 { lane % STEP } else { lane_of(lane % STEP) };
            let value = (forward[pair] ^ backward[len - 1 - pair]).to_u32();
            if let Some(byte_still_wanted) = wanted.remove_exact(value) {
                if wanted.is_empty() {
                    store_tables!();
                    return;
                }
                if !byte_still_wanted {
                    // Clear flag `high` of row `low` (bytes `low` and `low + 16`) in the half
                    // table that holds it.
                    let (low, high) = (value & 15, (value >> 4) & 15);
                    let row = _mm256_cmpeq_epi8(rows_of_bytes, _mm256_set1_epi8(low as i8));
                    let flag = 1u16 << high;
                    low_half = _mm256_andnot_si256(_mm256_and_si256(row, _mm256_set1_epi8(flag as u8 as i8)), low_half);
                    high_half = _mm256_andnot_si256(
                        _mm256_and_si256(row, _mm256_set1_epi8((flag >> 8) as u8 as i8)),
                        high_half,
                    );
                }
            }
            hits &= hits - 1;
        }
        at += 2 * STEP;
    }
    store_tables!();
    drain_wanted_portable(&forward[at..], &backward[..len - at], wanted);
}

/// The pair of a two-byte step (its offset from the step's first) whose low byte is byte `lane`
/// of the pack: byte `16·half + 8·which + j` holds element `8·half + j` of `pairs_which`, the
/// pair `16·which + 8·half + j`.
#[inline(always)]
fn lane_of(lane: usize) -> usize {
    let (half, which, j) = (lane >> 4, (lane >> 3) & 1, lane & 7);
    16 * which + 8 * half + j
}

#[cfg(test)]
mod tests {
    use super::super::Cell;
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    /// The definition: the wanted values that are some pair's xor are removed, the rest stay.
    fn drained_by_definition<T: Cell>(forward: &[T], backward: &[T], wanted: &BTreeSet<u32>) -> BTreeSet<u32> {
        let len = forward.len().min(backward.len());
        let (forward, backward) = (&forward[..len], &backward[backward.len() - len..]);
        let found: BTreeSet<u32> =
            forward.iter().zip(backward.iter().rev()).map(|(&small, &large)| (small ^ large).to_u32()).collect();
        wanted.difference(&found).copied().collect()
    }

    fn left<T: Cell>(
        drain: impl Fn(&[T], &[T], &mut Wanted),
        forward: &[T],
        backward: &[T],
        values: &BTreeSet<u32>,
    ) -> BTreeSet<u32> {
        let mut wanted = Wanted::new();
        for &value in values {
            wanted.insert(value);
        }
        drain(forward, backward, &mut wanted);
        let left: BTreeSet<u32> = (0..WANTED_BOUND as u32).filter(|&value| wanted.contains(value)).collect();
        assert_eq!(wanted.count as usize, left.len());
        assert_eq!(wanted.values().collect::<BTreeSet<u32>>(), left);
        assert_eq!(wanted.smallest(), left.first().copied());
        left
    }

    fn drains_agree<T: Cell>(cells: &[u32], split: usize, values: &BTreeSet<u32>) -> Result<(), TestCaseError> {
        let cells: Vec<T> = cells.iter().map(|&value| T::from_u32(value)).collect();
        let len = split.min(cells.len() / 2);
        let (forward, backward) = (&cells[..len], &cells[cells.len() - len..]);
        let expected = drained_by_definition(forward, backward, values);
        prop_assert_eq!(&left(drain_wanted_portable::<T>, forward, backward, values), &expected);
        prop_assert_eq!(&left(drain_wanted::<T>, forward, backward, values), &expected);
        #[cfg(target_arch = "x86_64")]
        if std::mem::size_of::<T>() <= 2 && std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked just above.
            let avx2 = |forward: &[T], backward: &[T], wanted: &mut Wanted| unsafe {
                drain_wanted_avx2(forward, backward, forward, backward, wanted)
            };
            prop_assert_eq!(&left(avx2, forward, backward, values), &expected);
        }
        let low_bytes = |cells: &[T]| -> Vec<u8> { cells.iter().map(|&cell| cell.to_u32() as u8).collect() };
        let (low_forward, low_backward) = (low_bytes(forward), low_bytes(backward));
        let by_low_bytes = |forward: &[T], backward: &[T], wanted: &mut Wanted| {
            drain_wanted_by_low_bytes(&low_forward, &low_backward, forward, backward, wanted)
        };
        prop_assert_eq!(&left(by_low_bytes, forward, backward, values), &expected);
        Ok(())
    }

    proptest! {
        /// The vectorized drain (one- and two-byte cells) and the portable one against the
        /// definition, on cells whose xors meet the set often (small values) and whose low
        /// bytes collide across the fold (values to 1023), at every length around the steps.
        #[test]
        fn draining_the_wanted_values_agrees_with_the_definition(
            small in proptest::collection::vec(0u32..48, 0..300),
            large in proptest::collection::vec(0u32..1024, 0..300),
            split in 0usize..150,
            values in proptest::collection::btree_set(0u32..64, 0..40),
            folded in proptest::collection::btree_set(0u32..1024, 0..200),
        ) {
            drains_agree::<u8>(&small, split, &values)?;
            drains_agree::<u16>(&small, split, &values)?;
            drains_agree::<u32>(&small, split, &values)?;
            drains_agree::<u16>(&large, split, &folded)?;
            drains_agree::<u16>(&large, split, &values)?;
        }

        /// A set built a word at a time is the set built a value at a time, folded tables too.
        #[test]
        fn a_set_built_by_words_equals_one_built_a_value_at_a_time(
            values in proptest::collection::btree_set(0u32..WANTED_BOUND as u32, 0..300),
        ) {
            let mut one_by_one = Wanted::new();
            let mut words = [0u64; WANTED_BOUND / 64];
            for &value in &values {
                one_by_one.insert(value);
                words[value as usize / 64] |= 1 << (value % 64);
            }
            let mut by_words = Wanted::new();
            for (word, &bits) in words.iter().enumerate() {
                by_words.insert_word(word as u32, bits);
            }
            prop_assert_eq!(by_words.exact, one_by_one.exact);
            prop_assert_eq!(by_words.low_half, one_by_one.low_half);
            prop_assert_eq!(by_words.high_half, one_by_one.high_half);
            prop_assert_eq!(by_words.count, one_by_one.count);
        }
    }
}
