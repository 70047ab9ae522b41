//! The marking and scanning steps of the kernels: the splits with a rare part marked one by
//! one, as lists, across the rows of a chunk (portable and AVX2), and the xor scan for a target
//! value. Each AVX2 step has a portable twin
//! with the same results, checked against it and against the definition in the tests.

use super::*;

/// Which splits with a rare part [`heap_value`] marks itself.
#[derive(Clone, Copy)]
pub(super) enum Enumeration {
    /// All of them.
    Full,
    /// Those a chunk's rows ([`mark_rare_rows`]) did not: a part at or above `known_below`,
    /// the chunk's first heap.
    Fixup { known_below: usize },
    /// Those of the rare heaps outside `marked_from..marked_to` (indices into the rare list),
    /// which a chunk of words marked ([`mark_words_across`]).
    Except { marked_from: usize, marked_to: usize },
}

/// Marks `G(p) ^ G(m − p)` for the rare heaps `p` at `range` in the list.
#[inline]
pub(super) fn mark_rare_pairs<T: Cell, S: Seen + ?Sized>(
    list: RareList<'_, T>,
    range: std::ops::Range<usize>,
    values: &[T],
    m: usize,
    unequal_parts: bool,
    seen: &mut S,
) {
    let positions = &list.positions[range.clone()];
    let rares = &list.values[range];
    // The one split into equal parts (when they must differ) is cut out of the list once, not
    // tested at every pair.
    let mut mark = |positions: &[u32], rares: &[T]| mark_rare_list(positions, rares, values, m, seen);
    let half =
        (unequal_parts && m.is_multiple_of(2)).then(|| positions.binary_search(&((m / 2) as u32)).ok()).flatten();
    match half {
        Some(at) => {
            mark(&positions[..at], &rares[..at]);
            mark(&positions[at + 1..], &rares[at + 1..]);
        }
        None => mark(positions, rares),
    }
}

/// Marks `rare ^ G(m − p)` for each rare heap `p` of `positions` (`1 ≤ p < m`, increasing) with
/// its value `rare`: most of the rare-value kernel's marking.
#[inline]
pub(super) fn mark_rare_list<T: Cell, S: Seen + ?Sized>(
    positions: &[u32],
    rares: &[T],
    values: &[T],
    m: usize,
    seen: &mut S,
) {
    #[cfg(target_arch = "x86_64")]
    {
        // The gather reads without bounds checks: only when every G(m − p) is in `values`
        // (the largest index is m − p for the smallest p, the first).
        let inside = positions.first().is_none_or(|&first| first >= 1 && m - (first as usize) < values.len());
        // A short list is quicker one by one than through the gather's set-up.
        if positions.len() >= 16 && inside && std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { mark_rare_list_avx2(positions, rares, values, m, seen) };
        }
    }
    mark_rare_list_portable(positions, rares, values, m, seen);
}

#[inline(always)]
pub(super) fn mark_rare_list_portable<T: Cell, S: Seen + ?Sized>(
    positions: &[u32],
    rares: &[T],
    values: &[T],
    m: usize,
    seen: &mut S,
) {
    for (&position, &rare) in positions.iter().zip(rares) {
        seen.mark((rare ^ values[m - position as usize]).to_u32());
    }
}

/// [`mark_rare_list_portable`] with the loads `G(m − p)` done eight at a time by an AVX2 gather:
/// each lane reads the four bytes that end where `G(m − p)` ends (so only heaps `p ≤ m − 4`,
/// whose four bytes start inside `values`, go through it) and shifts the value down. The
/// caller has checked `m − p < values.len()` for every `p` (they increase: the first is enough).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) fn mark_rare_list_avx2<T: Cell, S: Seen + ?Sized>(
    positions: &[u32],
    rares: &[T],
    values: &[T],
    m: usize,
    seen: &mut S,
) {
    use std::arch::x86_64::{
        __m256i, _mm256_i32gather_epi32, _mm256_loadu_si256, _mm256_set1_epi32, _mm256_srli_epi32, _mm256_storeu_si256,
        _mm256_sub_epi32,
    };
    let size = std::mem::size_of::<T>();
    // Heaps p ≤ m − 4: G(m − p) ends at byte (m − p + 1)·size ≥ 5 > 4.
    let gathered = match positions.last() {
        Some(&last) if last as usize + 4 <= m => positions.len(),
        _ => positions.partition_point(|&position| position as usize + 4 <= m),
    };
    // The gather's indices are 32-bit byte offsets.
    if (m + 1) * size > i32::MAX as usize {
        return mark_rare_list_portable(positions, rares, values, m, seen);
    }
    let chunks = gathered / 8;
    // Only used with a chunk, where p ≤ m − 4 makes (m + 1)·size ≥ 5.
    let end_offset = _mm256_set1_epi32(((m + 1) * size).saturating_sub(4) as i32);
    let mut lanes = [0u32; 8];
    // With the marks in one word, the xors become bits in the vector registers.
    let in_a_word = seen.word_mut().is_some();
    let one = std::arch::x86_64::_mm256_set1_epi64x(1);
    let mut bits = std::arch::x86_64::_mm256_setzero_si256();
    for chunk in 0..chunks {
        let at = chunk * 8;
        let heaps: &[u32; 8] = positions[at..at + 8].try_into().expect("eight heaps");
        // SAFETY: `heaps` is 32 readable bytes; for 1 ≤ p ≤ m − 4 with m − p < values.len(),
        // the 4 bytes from (m − p + 1)·size − 4 ≥ 0 end at (m − p + 1)·size ≤ the table's
        // length in bytes: each read is inside `values`.
        let values = unsafe {
            let heaps = _mm256_loadu_si256(heaps.as_ptr().cast::<__m256i>());
            // (m + 1)·size − 4 − p·size: the start of the 4 bytes ending with G(m − p).
            let offsets = match size {
                1 => _mm256_sub_epi32(end_offset, heaps),
                2 => _mm256_sub_epi32(end_offset, std::arch::x86_64::_mm256_slli_epi32::<1>(heaps)),
                _ => _mm256_sub_epi32(end_offset, std::arch::x86_64::_mm256_slli_epi32::<2>(heaps)),
            };
            let words = _mm256_i32gather_epi32::<1>(values.as_ptr().cast::<i32>(), offsets);
            match size {
                1 => _mm256_srli_epi32::<24>(words),
                2 => _mm256_srli_epi32::<16>(words),
                _ => words,
            }
        };
        if in_a_word {
            use std::arch::x86_64::{
                _mm256_and_si256, _mm256_castsi256_si128, _mm256_cvtepu32_epi64, _mm256_extracti128_si256,
                _mm256_or_si256, _mm256_sllv_epi64, _mm256_xor_si256,
            };
            // Masked to six bits, as for `bits_of_low_bytes`.
            let xors = _mm256_and_si256(
                _mm256_xor_si256(values, widened_eight(&rares[at..at + 8])),
                std::arch::x86_64::_mm256_set1_epi32(63),
            );
            let low = _mm256_sllv_epi64(one, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(xors)));
            let high = _mm256_sllv_epi64(one, _mm256_cvtepu32_epi64(_mm256_extracti128_si256::<1>(xors)));
            bits = _mm256_or_si256(bits, _mm256_or_si256(low, high));
            continue;
        }
        // SAFETY: `lanes` is 32 writable bytes.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast::<__m256i>(), values) };
        for (&lane, &rare) in lanes.iter().zip(&rares[at..at + 8]) {
            seen.mark(rare.to_u32() ^ lane);
        }
    }
    if let Some(word) = seen.word_mut() {
        *word |= or_lanes(bits);
    }
    let rest = chunks * 8;
    mark_rare_list_portable(&positions[rest..], &rares[rest..], values, m, seen);
}

/// Eight cells as eight 32-bit lanes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn widened_eight<T: Cell>(cells: &[T]) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::{
        __m128i, __m256i, _mm_loadl_epi64, _mm_loadu_si128, _mm256_cvtepu8_epi32, _mm256_cvtepu16_epi32,
        _mm256_loadu_si256,
    };
    assert_eq!(cells.len(), 8, "eight cells");
    let bytes = cells.as_ptr();
    // SAFETY: the eight cells are 8, 16 or 32 readable bytes, as each branch reads.
    unsafe {
        match std::mem::size_of::<T>() {
            1 => _mm256_cvtepu8_epi32(_mm_loadl_epi64(bytes.cast::<__m128i>())),
            2 => _mm256_cvtepu16_epi32(_mm_loadu_si128(bytes.cast::<__m128i>())),
            _ => _mm256_loadu_si256(bytes.cast::<__m256i>()),
        }
    }
}

/// For the consecutive heaps from `first_heap` (one row of `width` flags each in `rows`), marks
/// the values of every split into two with a rare part, both parts below `known.len()`.
pub(super) fn mark_rare_rows<T: Cell>(
    moves: &TakeBreakMoves,
    list: RareList<'_, T>,
    known: &[T],
    first_heap: usize,
    rows: &mut [u8],
    width: usize,
) {
    let count = rows.len() / width;
    let (Some(&k_min), Some(&k_max)) = (moves.leave_two.iter().min(), moves.leave_two.iter().max()) else {
        return;
    };
    // Heap `h` splits `h − k` for each `k`: the heaps of the chunk split the `m` from
    // `first_heap − k_max` to `first_heap + count − 1 − k_min`, each for one heap a `k`. Those
    // `m` are marked once and each heap takes the `or` of its rows (`.354`, which leaves two
    // heaps after taking 2 or 3, marked every split twice).
    let gap = k_max - k_min;
    if moves.leave_two.len() > 1 && gap < ACROSS_ROWS && first_heap >= k_max + 2 {
        // Row `offset` first holds the splits of `m = first_heap + offset − k_max` (its own for
        // `k_max`) and takes those of `m + k_max − k` for the other `k`: rows further down,
        // still unchanged when the rows are taken in order, or the `gap` rows after them.
        let m_first = first_heap - k_max;
        let mut after = vec![0u8; gap * width];
        mark_rare_chunk(list, known, m_first, &mut rows[..count * width], width, moves.unequal_parts);
        mark_rare_chunk(list, known, m_first + count, &mut after, width, moves.unequal_parts);
        for offset in 0..count {
            for &k in moves.leave_two.iter().filter(|&&k| k != k_max) {
                let source = offset + k_max - k;
                let (above, below) = rows.split_at_mut(source.min(count) * width);
                let split_row =
                    if source < count { &below[..width] } else { &after[(source - count) * width..][..width] };
                for (flag, &split_flag) in above[offset * width..][..width].iter_mut().zip(split_row) {
                    *flag |= split_flag;
                }
            }
        }
        return;
    }
    for &k in &moves.leave_two {
        // The heaps `m + k` with `m ≥ 2` (a split into two needs two tokens).
        let skip = (k + 2).saturating_sub(first_heap);
        if skip >= count {
            continue;
        }
        mark_rare_chunk(list, known, first_heap + skip - k, &mut rows[skip * width..], width, moves.unequal_parts);
    }
}

/// Fewer rows than this are marked row by row in [`mark_rare_chunk`].
const FEW_ROWS: usize = 4;

/// For consecutive heaps `m_first, m_first + 1, …` (split into two; one row of `width` flags each
/// in `rows`), marks `G(p) ^ G(m − p)` for every rare heap `p < m` with `m − p` below
/// `known.len()`, except `p = m / 2` when the parts must differ. The rare heaps valid for every
/// row are done a rare heap at a time across the rows, whose partners `G(m − p)` then lie next
/// to each other (a plain load instead of a gather a row); the few valid for some rows only
/// (near the ends of the range, or near `m / 2`) are done row by row.
pub(super) fn mark_rare_chunk<T: Cell>(
    list: RareList<'_, T>,
    known: &[T],
    m_first: usize,
    rows: &mut [u8],
    width: usize,
    unequal_parts: bool,
) {
    let count = rows.len() / width;
    if count == 0 {
        return;
    }
    let m_last = m_first + count - 1;
    let known_below = known.len();
    // The index in the list of the first rare heap at least `heap`.
    let index = |heap: usize| list.positions.partition_point(|&position| (position as usize) < heap);
    // Row `m` takes the rare heaps `m − known_below < p < m`: every row those from `interior`.
    // A few rows (the end of a block, the rows after a chunk's in `mark_rare_rows`) are quicker
    // row by row, through the gather.
    let interior =
        if count < FEW_ROWS { 0..0 } else { index((m_last + 1).saturating_sub(known_below))..index(m_first) };
    // Where the parts must differ, the heaps `m / 2` of the rows are left to the rows.
    let (cut_start, cut_end) = if unequal_parts && !interior.is_empty() {
        let start = index(m_first / 2).clamp(interior.start, interior.end);
        (start, index(m_last / 2 + 1).clamp(start, interior.end))
    } else {
        (interior.end, interior.end)
    };
    // Row `m`'s own range, moved along from row to row (by a step or two at most).
    let (mut own_start, mut own_end) = (index((m_first + 1).saturating_sub(known_below)), index(m_first));
    for (offset, row) in rows.chunks_exact_mut(width).enumerate() {
        let m = m_first + offset;
        while own_start < list.positions.len() && list.positions[own_start] as usize + known_below <= m {
            own_start += 1;
        }
        while own_end < list.positions.len() && (list.positions[own_end] as usize) < m {
            own_end += 1;
        }
        let ranges = if interior.is_empty() {
            [own_start..own_end, 0..0, 0..0]
        } else {
            [own_start..interior.start, cut_start..cut_end, interior.end..own_end]
        };
        for range in ranges {
            if !range.is_empty() {
                mark_rare_pairs(list, range, known, m, unequal_parts, row);
            }
        }
    }
    if interior.is_empty() {
        return;
    }
    for range in [interior.start..cut_start, cut_end..interior.end] {
        mark_across_rows(&list.positions[range.clone()], &list.values[range], known, m_first, rows, width);
    }
}

/// Marks `rare ^ G(m_first + i − p)` in row `i` (`width` flags a row, `width − 1` a power of two
/// above every value) for each rare heap `p` of `positions` with its value `rare`, every row
/// `i`: the partners `G(m_first − p + i)` are `known[m_first − p + i]`, all of them in `known`.
/// A rare heap at a time across the rows (vectorized for a whole chunk of [`ACROSS_ROWS`] rows).
pub(in crate::heap::sequence) fn mark_across_rows<T: Cell>(
    positions: &[u32],
    rares: &[T],
    known: &[T],
    m_first: usize,
    rows: &mut [u8],
    width: usize,
) {
    #[cfg(target_arch = "x86_64")]
    if rows.len() / width == ACROSS_ROWS && std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { mark_across_rows_avx2(positions, rares, known, m_first, rows, width) };
    }
    mark_across_rows_portable(positions, rares, known, m_first, rows, width);
}

/// The rare heaps of [`mark_rare_chunk`] valid for all its rows, a rare heap at a time across
/// the rows.
pub(super) fn mark_across_rows_portable<T: Cell>(
    positions: &[u32],
    rares: &[T],
    known: &[T],
    m_first: usize,
    rows: &mut [u8],
    width: usize,
) {
    let count = rows.len() / width;
    for (&position, &rare) in positions.iter().zip(rares) {
        let partners = &known[m_first - position as usize..][..count];
        for (row, &partner) in rows.chunks_exact_mut(width).zip(partners) {
            row[(rare ^ partner).to_u32() as usize] = 1;
        }
    }
}

/// Marks `rare ^ G(m_first + i − p)` in row `i` (one word a heap: [`Bits`]), for every row and
/// each rare heap `p` of `positions` with its value `rare`; every `G(m_first + i − p)` is in
/// `known`.
pub(super) fn mark_words_across<T: Cell>(
    positions: &[u32],
    rares: &[T],
    known: &[T],
    m_first: usize,
    rows: &mut [Bits],
) {
    #[cfg(target_arch = "x86_64")]
    if let (Some(rares), Some(known)) = (T::as_bytes(rares), T::as_bytes(known))
        && rows.len() == ACROSS_ROWS
        && std::arch::is_x86_feature_detected!("avx2")
    {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { mark_words_across_avx2(positions, rares, known, m_first, rows) };
    }
    mark_words_across_portable(positions, rares, known, m_first, rows);
}

pub(super) fn mark_words_across_portable<T: Cell>(
    positions: &[u32],
    rares: &[T],
    known: &[T],
    m_first: usize,
    rows: &mut [Bits],
) {
    for (&position, &rare) in positions.iter().zip(rares) {
        let partners = &known[m_first - position as usize..][..rows.len()];
        for (row, &partner) in rows.iter_mut().zip(partners) {
            row.mark((rare ^ partner).to_u32());
        }
    }
}

/// [`mark_words_across_portable`] for [`ACROSS_ROWS`] rows of one-byte cells: a rare heap's 16
/// partners are one load, xored with the rare value at once, and become the rows' bits by
/// 64-bit variable shifts, four rows a register, all sixteen rows kept in registers until
/// every rare heap is done.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) fn mark_words_across_avx2(positions: &[u32], rares: &[u8], known: &[u8], m_first: usize, rows: &mut [Bits]) {
    use std::arch::x86_64::{
        __m128i, __m256i, _mm_and_si128, _mm_loadu_si128, _mm_set1_epi8, _mm_srli_si128, _mm_xor_si128,
        _mm256_or_si256, _mm256_setzero_si256, _mm256_storeu_si256,
    };
    assert_eq!(rows.len(), ACROSS_ROWS, "a whole chunk");
    let (mut rows_0, mut rows_4, mut rows_8, mut rows_12) =
        (_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256());
    for (&position, &rare) in positions.iter().zip(rares) {
        let partners: &[u8; ACROSS_ROWS] =
            known[m_first - position as usize..][..ACROSS_ROWS].try_into().expect("a whole chunk");
        // SAFETY: `partners` is 16 readable bytes.
        let partners = unsafe { _mm_loadu_si128(partners.as_ptr().cast::<__m128i>()) };
        let xors = _mm_and_si128(_mm_xor_si128(partners, _mm_set1_epi8(rare as i8)), _mm_set1_epi8(63));
        rows_0 = _mm256_or_si256(rows_0, bits_of_low_bytes(xors));
        rows_4 = _mm256_or_si256(rows_4, bits_of_low_bytes(_mm_srli_si128::<4>(xors)));
        rows_8 = _mm256_or_si256(rows_8, bits_of_low_bytes(_mm_srli_si128::<8>(xors)));
        rows_12 = _mm256_or_si256(rows_12, bits_of_low_bytes(_mm_srli_si128::<12>(xors)));
    }
    let mut words = [0u64; ACROSS_ROWS];
    for (quarter, bits) in [rows_0, rows_4, rows_8, rows_12].into_iter().enumerate() {
        // SAFETY: four words are 32 writable bytes, inside `words`.
        unsafe { _mm256_storeu_si256(words.as_mut_ptr().add(4 * quarter).cast::<__m256i>(), bits) };
    }
    for (row, word) in rows.iter_mut().zip(words) {
        row.0 |= word;
    }
}

/// The rows [`mark_across_rows_avx2`] takes: a chunk of [`mark_rare_rows`].
pub(in crate::heap::sequence) const ACROSS_ROWS: usize = 16;

/// The rare heaps of [`mark_rare_chunk`] valid for all its [`ACROSS_ROWS`] rows, with the
/// flags' places `row · width + (rare ^ G(m − p))` computed 16 at a time: the partners are
/// loaded as one vector and widened to 32-bit lanes, xored with the rare value and offset by
/// each row's start; the flags are then stored one by one. Each xor is masked to the bound
/// (`width − 1`, a power of two: every value is below it, so the mask changes nothing) so that
/// every place is inside `rows` by construction and the stores need no bounds check (16
/// compares and branches a rare heap fewer: 0.6's marking across rows took 40% fewer
/// instructions).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) fn mark_across_rows_avx2<T: Cell>(
    positions: &[u32],
    rares: &[T],
    known: &[T],
    m_first: usize,
    rows: &mut [u8],
    width: usize,
) {
    use std::arch::x86_64::{
        __m128i, __m256i, _mm_loadl_epi64, _mm256_add_epi32, _mm256_and_si256, _mm256_castsi256_si128,
        _mm256_cvtepu8_epi32, _mm256_cvtepu16_epi32, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_set1_epi32,
        _mm256_setr_epi32, _mm256_storeu_si256, _mm256_xor_si256,
    };
    let size = std::mem::size_of::<T>();
    let bound = width - 1;
    assert!(
        bound.is_power_of_two() && rows.len() >= ACROSS_ROWS * width && ACROSS_ROWS * width <= i32::MAX as usize,
        "rows of a power of two plus one flags, for a whole chunk"
    );
    if ACROSS_ROWS * width <= 1 << 16 && size <= 2 {
        return mark_across_rows_narrow_avx2(positions, rares, known, m_first, rows, width);
    }
    let below_bound = _mm256_set1_epi32(bound as i32 - 1);
    let (low_starts, high_starts) = {
        let start = |offset: usize| (offset * width) as i32;
        (
            _mm256_setr_epi32(start(0), start(1), start(2), start(3), start(4), start(5), start(6), start(7)),
            _mm256_setr_epi32(start(8), start(9), start(10), start(11), start(12), start(13), start(14), start(15)),
        )
    };
    let mut places = [0u32; ACROSS_ROWS];
    // The partners' first index is checked with one comparison (a slice of them cost two
    // compares and branches a rare heap): a position above `m_first` wraps to above the limit.
    let last_start = known.len().checked_sub(ACROSS_ROWS).expect("a whole chunk of known values");
    for (&position, &rare) in positions.iter().zip(rares) {
        let start = m_first.wrapping_sub(position as usize);
        assert!(start <= last_start, "the partners of a rare heap are known values");
        // SAFETY: `start + ACROSS_ROWS ≤ known.len()` (asserted just above), so the
        // ACROSS_ROWS · size bytes from `known[start]` are readable: 16 for u8, 32 for u16, 64
        // for u32, and each load below reads within them.
        let (low, high) = unsafe {
            let bytes = known.as_ptr().add(start).cast::<u8>();
            match size {
                1 => (
                    _mm256_cvtepu8_epi32(_mm_loadl_epi64(bytes.cast::<__m128i>())),
                    _mm256_cvtepu8_epi32(_mm_loadl_epi64(bytes.add(8).cast::<__m128i>())),
                ),
                2 => {
                    let all = _mm256_loadu_si256(bytes.cast::<__m256i>());
                    (
                        _mm256_cvtepu16_epi32(_mm256_castsi256_si128(all)),
                        _mm256_cvtepu16_epi32(_mm256_extracti128_si256::<1>(all)),
                    )
                }
                _ => (_mm256_loadu_si256(bytes.cast::<__m256i>()), _mm256_loadu_si256(bytes.add(32).cast::<__m256i>())),
            }
        };
        let rare = _mm256_set1_epi32(rare.to_u32() as i32);
        let low = _mm256_add_epi32(_mm256_and_si256(_mm256_xor_si256(low, rare), below_bound), low_starts);
        let high = _mm256_add_epi32(_mm256_and_si256(_mm256_xor_si256(high, rare), below_bound), high_starts);
        // SAFETY: `places` is 64 writable bytes.
        unsafe {
            _mm256_storeu_si256(places.as_mut_ptr().cast::<__m256i>(), low);
            _mm256_storeu_si256(places.as_mut_ptr().add(8).cast::<__m256i>(), high);
        }
        for &place in &places {
            // SAFETY: `place = row · width + (xor & (bound − 1))` with `row < ACROSS_ROWS` is at
            // most `(ACROSS_ROWS − 1) · width + bound − 1 < ACROSS_ROWS · width ≤ rows.len()`
            // (asserted above).
            unsafe { *rows.get_unchecked_mut(place as usize) = 1 };
        }
    }
}

/// [`mark_across_rows_avx2`] when every flag's place fits 16 bits (values below 4096) and the
/// cells are one or two bytes: the 16 places of a rare heap are one vector of 16-bit lanes,
/// taken out four at a time in a 64-bit register (four moves from the vector unit instead of
/// sixteen: those moves, one a cycle, bounded the 32-bit version).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn mark_across_rows_narrow_avx2<T: Cell>(
    positions: &[u32],
    rares: &[T],
    known: &[T],
    m_first: usize,
    rows: &mut [u8],
    width: usize,
) {
    use std::arch::x86_64::{
        __m128i, __m256i, _mm_cvtsi128_si64, _mm_extract_epi64, _mm_loadu_si128, _mm256_add_epi16, _mm256_and_si256,
        _mm256_castsi256_si128, _mm256_cvtepu8_epi16, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_set1_epi16,
        _mm256_setr_epi16, _mm256_xor_si256,
    };
    let size = std::mem::size_of::<T>();
    let bound = width - 1;
    assert!(
        size <= 2 && bound.is_power_of_two() && rows.len() >= ACROSS_ROWS * width && ACROSS_ROWS * width <= 1 << 16,
        "rows of a power of two plus one flags, for a whole chunk, places of 16 bits"
    );
    let below_bound = _mm256_set1_epi16((bound - 1) as u16 as i16);
    let start = |row: usize| (row * width) as u16 as i16;
    #[rustfmt::skip]
    let starts = _mm256_setr_epi16(start(0), start(1), start(2), start(3), start(4), start(5), start(6), start(7),
                                   start(8), start(9), start(10), start(11), start(12), start(13), start(14), start(15));
    let last_start = known.len().checked_sub(ACROSS_ROWS).expect("a whole chunk of known values");
    for (&position, &rare) in positions.iter().zip(rares) {
        let start = m_first.wrapping_sub(position as usize);
        assert!(start <= last_start, "the partners of a rare heap are known values");
        // SAFETY: `start + ACROSS_ROWS ≤ known.len()` (asserted just above): the ACROSS_ROWS
        // cells from `known[start]` (16 or 32 bytes) are readable.
        let partners = unsafe {
            let bytes = known.as_ptr().add(start).cast::<u8>();
            if size == 1 {
                _mm256_cvtepu8_epi16(_mm_loadu_si128(bytes.cast::<__m128i>()))
            } else {
                _mm256_loadu_si256(bytes.cast::<__m256i>())
            }
        };
        let rare = _mm256_set1_epi16(rare.to_u32() as u16 as i16);
        let places = _mm256_add_epi16(_mm256_and_si256(_mm256_xor_si256(partners, rare), below_bound), starts);
        let (low, high) = (_mm256_castsi256_si128(places), _mm256_extracti128_si256::<1>(places));
        for four in
            [_mm_cvtsi128_si64(low), _mm_extract_epi64::<1>(low), _mm_cvtsi128_si64(high), _mm_extract_epi64::<1>(high)]
        {
            let four = four as u64;
            for shift in [0, 16, 32, 48] {
                let place = (four >> shift) as u16 as usize;
                // SAFETY: `place = row · width + (xor & (bound − 1))` with `row < ACROSS_ROWS`
                // is below `ACROSS_ROWS · width ≤ rows.len()` (asserted above), and no sum
                // wrapped: `ACROSS_ROWS · width ≤ 2^16`.
                unsafe { *rows.get_unchecked_mut(place) = 1 };
            }
        }
    }
}

/// Marks `G(a) ^ G(m − a)` for `lo ≤ a ≤ hi`.
#[inline]
pub(super) fn mark_pairs<T: Cell, S: Seen + ?Sized>(values: &[T], m: usize, lo: usize, hi: usize, seen: &mut S) {
    if lo > hi {
        return;
    }
    let forward = &values[lo..=hi];
    let backward = &values[m - hi..=m - lo];
    seen.mark_xors(forward, backward);
}

/// The `or` of `1 << (forward[i] ^ backward[len − 1 − i])` over every `i`: the splits'
/// marks as one word ([`Bits`]), for values below 64.
#[inline(always)]
pub(super) fn pair_xor_bits<T: Cell>(forward: &[T], backward: &[T]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if let (Some(forward), Some(backward)) = (T::as_bytes(forward), T::as_bytes(backward))
        && forward.len() >= 8
        && std::arch::is_x86_feature_detected!("avx2")
    {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { pair_xor_bits_avx2(forward, backward) };
    }
    pair_xor_bits_portable(forward, backward)
}

pub(super) fn pair_xor_bits_portable<T: Cell>(forward: &[T], backward: &[T]) -> u64 {
    forward
        .iter()
        .zip(backward.iter().rev())
        .fold(0, |bits, (&small, &large)| bits | 1 << ((small ^ large).to_u32() & 63))
}

/// [`pair_xor_bits_portable`] eight one-byte pairs at a time: the eight backward bytes read as
/// one word and byte-swapped line up with the eight forward ones, and their xors become bits
/// by 64-bit variable shifts, four lanes at a time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) fn pair_xor_bits_avx2(forward: &[u8], backward: &[u8]) -> u64 {
    use std::arch::x86_64::{_mm_cvtsi64_si128, _mm_srli_si128, _mm256_or_si256, _mm256_setzero_si256};
    let len = forward.len().min(backward.len());
    let chunks = len / 8;
    let mut bits = _mm256_setzero_si256();
    for chunk in 0..chunks {
        let at = chunk * 8;
        let small = u64::from_le_bytes(forward[at..at + 8].try_into().expect("eight bytes"));
        let large = u64::from_le_bytes(backward[len - at - 8..len - at].try_into().expect("eight bytes"));
        let xors = _mm_cvtsi64_si128(((small ^ large.swap_bytes()) & 0x3F3F_3F3F_3F3F_3F3F) as i64);
        let (low, high) = (bits_of_low_bytes(xors), bits_of_low_bytes(_mm_srli_si128::<4>(xors)));
        bits = _mm256_or_si256(bits, _mm256_or_si256(low, high));
    }
    let rest = chunks * 8;
    or_lanes(bits) | pair_xor_bits_portable(&forward[rest..len], &backward[..len - rest])
}

/// `1 << b` in each 64-bit lane for each of the four low bytes `b` of `bytes`, which the caller
/// has masked to six bits (the values are below 64): seeing the mask, the compiler knows every
/// shift is in range, and adds no compare-and-select for shifts of 64 or more (five more
/// instructions a shift without it, in `objdump -d`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn bits_of_low_bytes(bytes: std::arch::x86_64::__m128i) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::{_mm256_cvtepu8_epi64, _mm256_set1_epi64x, _mm256_sllv_epi64};
    _mm256_sllv_epi64(_mm256_set1_epi64x(1), _mm256_cvtepu8_epi64(bytes))
}

/// The `or` of the four 64-bit lanes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn or_lanes(lanes: std::arch::x86_64::__m256i) -> u64 {
    use std::arch::x86_64::{
        _mm_cvtsi128_si64, _mm_extract_epi64, _mm_or_si128, _mm256_castsi256_si128, _mm256_extracti128_si256,
    };
    let halves = _mm_or_si128(_mm256_castsi256_si128(lanes), _mm256_extracti128_si256::<1>(lanes));
    (_mm_cvtsi128_si64(halves) | _mm_extract_epi64::<1>(halves)) as u64
}

/// Values searched for in one pass of the candidate scan. Searching for the next four
/// candidates at once (to stop rescanning the same stretch for each candidate found far away)
/// was measured slower: 0.6 to 10^6 on one thread took 3.1–4.0 s of CPU against 2.7 s, the
/// extra comparisons a vector costing more than the rescans they saved.
pub(super) const TARGETS: usize = 1;

/// The first `i` with `forward[i] ^ backward[len − 1 − i]` among `targets` (one to
/// [`TARGETS`] of them), where `len` is the slices' common length: `forward` holds `G(a)` for
/// increasing `a` and `backward` the partners `G(m − a)` in increasing heap order, so the pairs
/// of a split read `backward` from its end (no reversed copy of the table is kept).
pub(super) fn find_xor_any<T: Cell>(forward: &[T], backward: &[T], targets: &[T]) -> Option<usize> {
    debug_assert!(!targets.is_empty() && targets.len() <= TARGETS);
    // Padding with the first target changes nothing.
    let padded: [T; TARGETS] = std::array::from_fn(|index| targets.get(index).copied().unwrap_or(targets[0]));
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { find_xor_any_avx2(forward, backward, padded) };
        }
    }
    find_xor_any_portable(forward, backward, padded)
}

/// [`find_xor_any_portable`] a vector of 32 bytes at a time: the backward vector is reversed
/// by a byte shuffle within each 128-bit half and a swap of the halves, the xor compared with
/// every target, and the first lane that matches taken from the byte mask.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) fn find_xor_any_avx2<T: Cell>(forward: &[T], backward: &[T], targets: [T; TARGETS]) -> Option<usize> {
    use std::arch::x86_64::{
        __m256i, _mm256_cmpeq_epi8, _mm256_cmpeq_epi16, _mm256_cmpeq_epi32, _mm256_loadu_si256, _mm256_movemask_epi8,
        _mm256_or_si256, _mm256_permute4x64_epi64, _mm256_set1_epi8, _mm256_set1_epi16, _mm256_set1_epi32,
        _mm256_setr_epi8, _mm256_shuffle_epi8, _mm256_xor_si256,
    };
    let size = std::mem::size_of::<T>();
    let lanes = 32 / size;
    let len = forward.len().min(backward.len());
    let (forward, backward) = (&forward[..len], &backward[backward.len() - len..]);
    #[rustfmt::skip]
    let reverse = match size {
        1 => _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
                              15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
        2 => _mm256_setr_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1,
                              14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1),
        _ => _mm256_setr_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3,
                              12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3),
    };
    // No closures here: a closure does not inherit the function's target features, and its
    // intrinsics would become calls.
    let mut wanted = [_mm256_set1_epi8(0); TARGETS];
    for index in 0..TARGETS {
        let target = targets[index].to_u32();
        wanted[index] = match size {
            1 => _mm256_set1_epi8(target as u8 as i8),
            2 => _mm256_set1_epi16(target as u16 as i16),
            _ => _mm256_set1_epi32(target as i32),
        };
    }
    // Whether one of the targets is among the xors of the vector at `at` (`at + lanes ≤ len`),
    // as a byte mask of the lanes that match.
    macro_rules! matches_at {
        ($at:expr) => {{
            let at = $at;
            // SAFETY: `at + lanes <= len`: the 32 bytes from `forward[at]` and from
            // `backward[len − at − lanes]` are inside the slices.
            let (x, y) = unsafe {
                (
                    _mm256_loadu_si256(forward.as_ptr().add(at).cast::<__m256i>()),
                    _mm256_loadu_si256(backward.as_ptr().add(len - at - lanes).cast::<__m256i>()),
                )
            };
            let y = _mm256_permute4x64_epi64::<0b01_00_11_10>(_mm256_shuffle_epi8(y, reverse));
            let xor = _mm256_xor_si256(x, y);
            let mut any = _mm256_set1_epi8(0);
            for target in wanted {
                let equal = match size {
                    1 => _mm256_cmpeq_epi8(xor, target),
                    2 => _mm256_cmpeq_epi16(xor, target),
                    _ => _mm256_cmpeq_epi32(xor, target),
                };
                any = _mm256_or_si256(any, equal);
            }
            any
        }};
    }
    let mut at = 0;
    // Four vectors a step, one test for the four.
    while at + 4 * lanes <= len {
        let any = _mm256_or_si256(
            _mm256_or_si256(matches_at!(at), matches_at!(at + lanes)),
            _mm256_or_si256(matches_at!(at + 2 * lanes), matches_at!(at + 3 * lanes)),
        );
        if _mm256_movemask_epi8(any) != 0 {
            break;
        }
        at += 4 * lanes;
    }
    while at + lanes <= len {
        let mask = _mm256_movemask_epi8(matches_at!(at)) as u32;
        if mask != 0 {
            return Some(at + mask.trailing_zeros() as usize / size);
        }
        at += lanes;
    }
    (at..len).find(|&i| targets.contains(&(forward[i] ^ backward[len - 1 - i])))
}

/// Blocks of 32 pairs compared without a branch, so that the compiler vectorizes the block
/// (the backward block is reversed in registers).
#[inline(always)]
pub(super) fn find_xor_any_portable<T: Cell>(forward: &[T], backward: &[T], targets: [T; TARGETS]) -> Option<usize> {
    const BLOCK: usize = 32;
    let len = forward.len().min(backward.len());
    let (forward, backward) = (&forward[..len], &backward[backward.len() - len..]);
    let wanted = |x: T| targets.iter().fold(false, |any, &target| any | (x == target));
    let blocks = len / BLOCK;
    for block in 0..blocks {
        let x: &[T; BLOCK] = forward[block * BLOCK..][..BLOCK].try_into().expect("a whole block");
        let y: &[T; BLOCK] = backward[len - (block + 1) * BLOCK..][..BLOCK].try_into().expect("a whole block");
        let mut hit = 0u8;
        for i in 0..BLOCK {
            hit |= u8::from(wanted(x[i] ^ y[BLOCK - 1 - i]));
        }
        if hit != 0 {
            let at = (0..BLOCK).position(|i| wanted(x[i] ^ y[BLOCK - 1 - i])).expect("the block has a hit");
            return Some(block * BLOCK + at);
        }
    }
    (blocks * BLOCK..len).find(|&i| wanted(forward[i] ^ backward[len - 1 - i]))
}

#[cfg(test)]
mod tests {
    use super::{ACROSS_ROWS, Cell, TARGETS, find_xor_any, find_xor_any_portable, mark_across_rows_portable};
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    /// The scan by its definition: the first pair `forward[i] ^ backward[len − 1 − i]` that is
    /// a target.
    fn first_pair_hit<T: Cell>(forward: &[T], backward: &[T], targets: &[T]) -> Option<usize> {
        let len = forward.len();
        (0..len).find(|&i| targets.contains(&(forward[i] ^ backward[len - 1 - i])))
    }

    /// Both kernels of the scan (the AVX2 one where the CPU has it, and the portable one)
    /// against the definition, on slices of cells of type `T` drawn from `small` values (so
    /// that hits are frequent) and of every length around the vector widths.
    fn scans_agree<T: Cell>(cells: &[u32], split: usize, targets: &[u32]) -> Result<(), TestCaseError> {
        let cells: Vec<T> = cells.iter().map(|&value| T::from_u32(value)).collect();
        let len = split.min(cells.len() / 2);
        let (forward, backward) = (&cells[..len], &cells[cells.len() - len..]);
        let targets: Vec<T> = targets.iter().map(|&value| T::from_u32(value)).collect();
        let padded: [T; TARGETS] = std::array::from_fn(|index| targets.get(index).copied().unwrap_or(targets[0]));
        let expected = first_pair_hit(forward, backward, &targets[..targets.len().min(TARGETS)]);
        prop_assert_eq!(find_xor_any(forward, backward, &targets[..targets.len().min(TARGETS)]), expected);
        prop_assert_eq!(find_xor_any_portable(forward, backward, padded), expected);
        Ok(())
    }

    /// [`super::mark_across_rows_avx2`] (where the CPU has AVX2) and the portable marking give
    /// the same rows, which hold exactly `rare ^ G(m − p)` for each row `m` and rare heap `p`.
    /// `width − 1` a power of two above every value.
    fn across_rows_agree<T: Cell>(
        cells: &[u32],
        rare_heaps: &BTreeSet<u32>,
        rare_values: &[u32],
        width: usize,
    ) -> Result<(), TestCaseError> {
        let known: Vec<T> = cells.iter().map(|&value| T::from_u32(value)).collect();
        let positions: Vec<u32> = rare_heaps.iter().copied().collect();
        let rares: Vec<T> = positions.iter().zip(rare_values).map(|(_, &value)| T::from_u32(value)).collect();
        let m_first = 60;
        let mut expected = vec![0u8; ACROSS_ROWS * width];
        for (&position, &rare) in positions.iter().zip(&rares) {
            for row in 0..ACROSS_ROWS {
                let partner = known[m_first + row - position as usize];
                expected[row * width + (rare ^ partner).to_u32() as usize] = 1;
            }
        }
        let mut portable = vec![0u8; ACROSS_ROWS * width];
        mark_across_rows_portable(&positions, &rares, &known, m_first, &mut portable, width);
        prop_assert_eq!(&portable, &expected);
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            let mut vectorized = vec![0u8; ACROSS_ROWS * width];
            // SAFETY: the CPU has AVX2, checked just above.
            unsafe { super::mark_across_rows_avx2(&positions, &rares, &known, m_first, &mut vectorized, width) };
            prop_assert_eq!(&vectorized, &expected);
        }
        Ok(())
    }

    /// One bit a value, set one by one: the definition of a word of marks.
    fn word_of(values: impl IntoIterator<Item = u32>) -> u64 {
        values.into_iter().fold(0, |word, value| word | 1 << value)
    }

    /// [`super::mark_words_across_avx2`] (where the CPU has AVX2 and the cells are bytes) and the
    /// portable marking give the same rows, which hold exactly `rare ^ G(m − p)` for each row
    /// `m` and rare heap `p`.
    fn words_across_agree<T: Cell>(
        cells: &[u32],
        rare_heaps: &BTreeSet<u32>,
        rare_values: &[u32],
        count: usize,
    ) -> Result<(), TestCaseError> {
        use super::{Bits, mark_words_across, mark_words_across_portable};
        let known: Vec<T> = cells.iter().map(|&value| T::from_u32(value)).collect();
        let positions: Vec<u32> = rare_heaps.iter().copied().collect();
        let rares: Vec<T> = positions.iter().zip(rare_values).map(|(_, &value)| T::from_u32(value)).collect();
        let m_first = 60;
        let expected: Vec<u64> = (0..count)
            .map(|row| {
                word_of(
                    positions.iter().zip(&rares).map(|(&p, &rare)| rare.to_u32() ^ cells[m_first + row - p as usize]),
                )
            })
            .collect();
        let mut portable = vec![Bits::default(); count];
        mark_words_across_portable(&positions, &rares, &known, m_first, &mut portable);
        prop_assert_eq!(portable.iter().map(|row| row.0).collect::<Vec<_>>(), expected.clone());
        let mut dispatched = vec![Bits::default(); count];
        mark_words_across(&positions, &rares, &known, m_first, &mut dispatched);
        prop_assert_eq!(dispatched.iter().map(|row| row.0).collect::<Vec<_>>(), expected.clone());
        #[cfg(target_arch = "x86_64")]
        if let (Some(rares), Some(known)) = (T::as_bytes(&rares), T::as_bytes(&known))
            && count == super::ACROSS_ROWS
            && std::arch::is_x86_feature_detected!("avx2")
        {
            let mut vectorized = vec![Bits::default(); count];
            // SAFETY: the CPU has AVX2, checked just above.
            unsafe { super::mark_words_across_avx2(&positions, rares, known, m_first, &mut vectorized) };
            prop_assert_eq!(vectorized.iter().map(|row| row.0).collect::<Vec<_>>(), expected);
        }
        Ok(())
    }

    /// See `marks_in_a_word_agree`.
    fn words_agree<T: Cell>(
        cells: &[u32],
        split: usize,
        rare_heaps: &BTreeSet<u32>,
        rare_values: &[u32],
    ) -> Result<(), TestCaseError> {
        use super::{Bits, Seen, pair_xor_bits, pair_xor_bits_portable};
        let known: Vec<T> = cells.iter().map(|&value| T::from_u32(value)).collect();
        // Splits a + (m − a) for a = lo..=hi, m the last heap.
        let m = known.len() - 1;
        let (lo, hi) = (1, split.clamp(1, m / 2));
        let (forward, backward) = (&known[lo..=hi], &known[m - hi..=m - lo]);
        let expected = word_of((lo..=hi).map(|a| cells[a] ^ cells[m - a]));
        prop_assert_eq!(pair_xor_bits_portable(forward, backward), expected);
        prop_assert_eq!(pair_xor_bits(forward, backward), expected);
        #[cfg(target_arch = "x86_64")]
        if let Some((forward, backward)) = T::as_bytes(forward).zip(T::as_bytes(backward))
            && std::arch::is_x86_feature_detected!("avx2")
        {
            // SAFETY: the CPU has AVX2, checked just above.
            prop_assert_eq!(unsafe { super::pair_xor_bits_avx2(forward, backward) }, expected);
        }
        let mut bits = Bits::default();
        bits.mark_xors(forward, backward);
        prop_assert_eq!(bits.0, expected);
        // The rare heaps p < m with their values, marked as rare ^ G(m − p).
        let (positions, rares): (Vec<u32>, Vec<T>) = rare_heaps
            .iter()
            .filter(|&&position| (position as usize) < m)
            .zip(rare_values)
            .map(|(&position, &value)| (position, T::from_u32(value)))
            .unzip();
        let expected = word_of(positions.iter().zip(&rares).map(|(&p, &rare)| rare.to_u32() ^ cells[m - p as usize]));
        let mut bits = Bits::default();
        super::mark_rare_list(&positions, &rares, &known, m, &mut bits);
        prop_assert_eq!(bits.0, expected);
        Ok(())
    }

    /// [`super::mark_rare_rows`] (the splits of each `m` marked once and shared by the heaps
    /// `m + k`, or one `k` at a time) against the definition: row `h` holds `G(p) ^ G(m − p)`
    /// for every `k` of `leave_two`, `m = h − k ≥ 2`, rare heap `p < m` with `m − p` known (and
    /// `p ≠ m − p` when the parts must differ), and nothing else.
    fn rare_rows_agree(
        cells: &[u32],
        rare_heaps: &BTreeSet<u32>,
        rare_values: &[u32],
        leave_two: &[usize],
        unequal_parts: bool,
        first_heap: usize,
        count: usize,
    ) -> Result<(), TestCaseError> {
        use super::super::RareList;
        use crate::heap::sequence::TakeBreakMoves;
        let known: Vec<u8> = cells.iter().map(|&value| value as u8).collect();
        let (positions, rares): (Vec<u32>, Vec<u8>) = rare_heaps
            .iter()
            .filter(|&&position| (position as usize) < known.len())
            .zip(rare_values)
            .map(|(&position, &value)| (position, value as u8))
            .unzip();
        let moves = TakeBreakMoves::new(vec![], vec![], leave_two.to_vec(), unequal_parts, vec![]);
        let width = 65;
        let mut expected = vec![0u8; count * width];
        for (offset, row) in expected.chunks_exact_mut(width).enumerate() {
            let heap = first_heap + offset;
            for &k in leave_two {
                let Some(m) = heap.checked_sub(k).filter(|&m| m >= 2) else { continue };
                for (&p, &rare) in positions.iter().zip(&rares) {
                    let p = p as usize;
                    if p < m && m - p < known.len() && !(unequal_parts && 2 * p == m) {
                        row[(rare ^ known[m - p]) as usize] = 1;
                    }
                }
            }
        }
        let mut rows = vec![0u8; count * width];
        let list = RareList { positions: &positions, values: &rares };
        super::mark_rare_rows(&moves, list, &known, first_heap, &mut rows, width);
        prop_assert_eq!(rows, expected);
        Ok(())
    }

    proptest! {
        #[test]
        fn pair_scans_find_the_first_hit(
            cells in proptest::collection::vec(0u32..64, 0..400),
            split in 0usize..200,
            targets in proptest::collection::vec(0u32..80, 1..=TARGETS),
        ) {
            scans_agree::<u8>(&cells, split, &targets)?;
            scans_agree::<u16>(&cells, split, &targets)?;
            scans_agree::<u32>(&cells, split, &targets)?;
        }

        /// The vectorized marking across rows against the portable one, for every cell width,
        /// with places of 16 bits (rows of 65 flags) and of 32 (rows of 8,193: a chunk's
        /// places pass 2^16).
        #[test]
        fn marking_across_rows_agrees(
            cells in proptest::collection::vec(0u32..64, 100..300),
            wide_cells in proptest::collection::vec(0u32..8192, 100..300),
            rare_heaps in proptest::collection::btree_set(1u32..60, 0..20),
            rare_values in proptest::collection::vec(0u32..64, 20),
            wide_rare_values in proptest::collection::vec(0u32..8192, 20),
        ) {
            across_rows_agree::<u8>(&cells, &rare_heaps, &rare_values, 65)?;
            across_rows_agree::<u16>(&cells, &rare_heaps, &rare_values, 65)?;
            across_rows_agree::<u32>(&cells, &rare_heaps, &rare_values, 65)?;
            across_rows_agree::<u16>(&wide_cells, &rare_heaps, &wide_rare_values, 8193)?;
            across_rows_agree::<u32>(&wide_cells, &rare_heaps, &wide_rare_values, 8193)?;
        }

        /// The splits' marks as one word ([`super::Bits`]): the pairs' word (AVX2 where the CPU
        /// has it) and the rare list's (gathered, then shifted into bits) against one mark a
        /// value, for every cell width and every length around the vector widths.
        #[test]
        fn marks_in_a_word_agree(
            cells in proptest::collection::vec(0u32..64, 3..200),
            split in 0usize..100,
            rare_heaps in proptest::collection::btree_set(1u32..100, 0..40),
            rare_values in proptest::collection::vec(0u32..64, 40),
        ) {
            words_agree::<u8>(&cells, split, &rare_heaps, &rare_values)?;
            words_agree::<u16>(&cells, split, &rare_heaps, &rare_values)?;
            words_agree::<u32>(&cells, split, &rare_heaps, &rare_values)?;
        }

        /// The rows of a chunk of heaps, with two or three ways of leaving two heaps (the splits
        /// shared between them when their removals are close) or one, against the definition.
        #[test]
        fn rare_rows_of_a_chunk_agree(
            cells in proptest::collection::vec(0u32..64, 40..160),
            rare_heaps in proptest::collection::btree_set(1u32..160, 0..40),
            rare_values in proptest::collection::vec(0u32..64, 40),
            leave_two in proptest::collection::btree_set(0usize..20, 1..4),
            unequal_parts: bool,
            first_heap_offset in 0usize..100,
            count in prop_oneof![Just(16usize), 1usize..16],
        ) {
            let leave_two: Vec<usize> = leave_two.into_iter().collect();
            // The chunk's heaps start where the known values end (as in the kernel), a little
            // below it, or past it (rows of heaps further on, from the values known now).
            let first_heap = (cells.len() + 50).saturating_sub(first_heap_offset);
            rare_rows_agree(&cells, &rare_heaps, &rare_values, &leave_two, unequal_parts, first_heap, count)?;
        }

        /// Rows of words marked across (AVX2 for a whole chunk of byte cells) against one mark a
        /// value, for every cell width, whole chunks and shorter ones.
        #[test]
        fn marking_words_across_rows_agrees(
            cells in proptest::collection::vec(0u32..64, 100..300),
            rare_heaps in proptest::collection::btree_set(16u32..60, 0..20),
            rare_values in proptest::collection::vec(0u32..64, 20),
            count in prop_oneof![Just(16usize), 0usize..16],
        ) {
            words_across_agree::<u8>(&cells, &rare_heaps, &rare_values, count)?;
            words_across_agree::<u16>(&cells, &rare_heaps, &rare_values, count)?;
            words_across_agree::<u32>(&cells, &rare_heaps, &rare_values, count)?;
        }

    }
}
