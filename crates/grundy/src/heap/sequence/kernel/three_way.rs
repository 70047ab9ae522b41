//! Three-way splits (hexadecimal digits 8 to F): a heap's candidates decided 64 at a time
//! against the stored pair sets `P(s)` (the values of the splits of `s` into two), one word of
//! a pair set a part (bench/RESULTS.md, issues 29 and 44).

use super::{Cell, Seen, TakeBreakMoves};

/// For three-way splits: the bitset `P(s)` of the values `G(b) ^ G(s − b)` (`1 ≤ b < s`) of the
/// splits of `s` into two, for every `s` below the heap being computed, stored by word:
/// `rows[w][s]` is word `w` of `P(s)`. The kernel reads one word of `P(m − a)` for `a = 1, 2,
/// …`, so the words it reads from one row lie next to each other (a bitset per `s` would be a
/// cache miss a read).
#[derive(Default)]
pub(crate) struct PairSets {
    rows: Vec<Vec<u64>>,
    /// How many sums `s` are stored: `0 … len − 1`.
    len: usize,
    /// The largest value among the heaps below `len`.
    largest: u32,
    /// The heaps `a ≥ 1` below `len` by the word of their value: `by_word[q]` lists, in
    /// increasing order, the heaps with `G(a) >> 6 = q`, each as `a << 6 | (G(a) & 63)` (see
    /// [`packed_part`]), so that the kernel's loop reads one list and not `G(a)` as well. A part
    /// `a` read for the candidates of word `w` reads word `w ^ q` of its pair set;
    /// [`mark_three_way_word`] takes the parts a word `q` at a time, in the order of that row.
    by_word: Vec<Vec<u64>>,
}

/// Stores `P(s)` for every `s < heap`.
pub(super) fn extend_pair_sets<T: Cell>(values: &[T], pair_sets: &mut PairSets, heap: usize) {
    let mut set: Vec<u64> = Vec::new();
    // The xors marked one byte each first, then packed into the words: setting bits of `set`
    // directly is a read-modify-write of a word that the next xor often hits again (a sixth of
    // the time of `value hex:0.8F 30000` went there).
    let mut marks: Vec<u8> = Vec::new();
    while pair_sets.len < heap {
        let s = pair_sets.len;
        if s > 0 {
            pair_sets.largest = pair_sets.largest.max(values[s - 1].to_u32());
        }
        // Every xor of values below a power of two is below it.
        let words = (pair_sets.largest as usize + 1).next_power_of_two().div_ceil(64);
        marks.clear();
        marks.resize(words * 64, 0);
        if s >= 2 {
            // The splits `b + (s − b)`, `1 ≤ b ≤ s / 2`: `values[b]` against `values[s − b]`.
            marks.mark_xors(&values[1..=s / 2], &values[s - s / 2..s]);
        }
        set.clear();
        set.extend((0..words as u32).map(|word| !marks.missing_in_word(word)));
        while pair_sets.rows.len() < words {
            pair_sets.rows.push(vec![0; s]);
        }
        for (row, &bits) in pair_sets.rows.iter_mut().zip(set.iter().chain(std::iter::repeat(&0))) {
            row.push(bits);
        }
        if s > 0 {
            let word = (values[s].to_u32() >> 6) as usize;
            if pair_sets.by_word.len() <= word {
                pair_sets.by_word.resize_with(word + 1, Vec::new);
            }
            pair_sets.by_word[word].push(packed_part(s, values[s].to_u32()));
        }
        pair_sets.len += 1;
    }
}

/// A part `a` with value `G(a) = value` as stored in [`PairSets::by_word`]: the heap above the
/// low six bits of its value (the ones that permute the pair-set word it reads).
fn packed_part(a: usize, value: u32) -> u64 {
    (a as u64) << 6 | u64::from(value & 63)
}

/// The heap of a part packed by [`packed_part`].
fn part_heap(part: u64) -> usize {
    (part >> 6) as usize
}

/// The parts of `parts` (packed, in increasing order) up to heap `last`. Most lists lie wholly
/// below or above `last` (a list holds the heaps of one word of values): those are decided by
/// their ends, without the binary search (which took a sixth of the kernel's time when done for
/// every list, the word holding the mex reading them all).
fn parts_up_to(parts: &[u64], last: usize) -> &[u64] {
    match (parts.first(), parts.last()) {
        (_, Some(&end)) if part_heap(end) <= last => parts,
        (Some(&start), _) if part_heap(start) > last => &[],
        _ => &parts[..parts.partition_point(|&part| part_heap(part) <= last)],
    }
}

/// For `j = 0 … 5`, the low half of every block of `2^(j+1)` bits: swapping each block's halves
/// moves bit `i` to bit `i ^ 2^j`.
const LOW_HALVES: [u64; 6] = [
    0x5555_5555_5555_5555,
    0x3333_3333_3333_3333,
    0x0F0F_0F0F_0F0F_0F0F,
    0x00FF_00FF_00FF_00FF,
    0x0000_FFFF_0000_FFFF,
    0x0000_0000_FFFF_FFFF,
];

/// `word` with bit `i` moved to bit `i ^ shuffle` (`shuffle < 64`), bit by bit: what
/// [`or_of_permuted`] computes for 64 words at once.
#[cfg(test)]
fn xor_permute(word: u64, shuffle: u32) -> u64 {
    (0..64).filter(|&i| word >> i & 1 == 1).fold(0, |permuted, i| permuted | 1 << (i ^ (shuffle & 63)))
}

/// The union of `xor_permute(words[l], l)` over `l = 0 … 63`, leaving `words` all zero. A
/// butterfly over the bits of `l`, highest first: `words[l] |= swap(words[l + h])` for `l < h`,
/// `h = 32, 16, …, 1`, where `swap` exchanges the neighbouring blocks of `h` bits (the bit of
/// `l` worth `h` applied; bit permutations commute with each other and with `or`), so 63 block
/// swaps instead of 64 permutations of 6 each. Each stage is the same operation on every `l`:
/// the compiler vectorizes it.
fn or_of_permuted(words: &mut [u64; 64]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2 (checked just above).
        return unsafe { or_of_permuted_avx2(words) };
    }
    or_of_permuted_portable(words)
}

/// [`or_of_permuted`] compiled for AVX2: four words a step instead of two.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn or_of_permuted_avx2(words: &mut [u64; 64]) -> u64 {
    or_of_permuted_portable(words)
}

#[inline(always)]
fn or_of_permuted_portable(words: &mut [u64; 64]) -> u64 {
    for bit in (0..6).rev() {
        let half = 1usize << bit;
        let low = LOW_HALVES[bit];
        let (lower, upper) = words.split_at_mut(half);
        for (word, &other) in lower.iter_mut().zip(&upper[..half]) {
            *word |= ((other >> half) & low) | ((other & low) << half);
        }
    }
    let union = words[0];
    *words = [0; 64];
    union
}

/// Marks the values `64·word … 64·word + 63` that some split of `heap` into three gives: the
/// three-way kernel. A split `a + b + c = m` (`a` the smallest part, so `a ≤ m / 3`) is worth
/// `G(a) ^ x` for `x` in the pair set of `m − a`; so candidate `v` is an option when bit
/// `v ^ G(a)` of `P(m − a)` is set for some `a`. For 64 candidates at once that is word
/// `word ^ (G(a) >> 6)` of the pair set with its bits permuted by `G(a) & 63`: one word a part,
/// `O(n)` a word of candidates instead of `O(n²)` triples. The scan stops as soon as every
/// candidate of the word not already marked (by a one- or two-heap option) is found.
///
/// `lead` is the removal (an index into `moves.leave_three`) whose splits are read first in
/// each row; the one whose splits completed this word is left there for the next word of the
/// same heap. Where a game has two removals that leave three parts (0.8F takes 1 or 2), some
/// candidates come from one only, which one depending on the heap (on its residue modulo the
/// arithmetic period): reading the other's parts first cost up to three times the reads
/// (a simulation on 0.8F's sequence: about 170 parts a word at heap 12,000 in the fixed order,
/// 60 with the removal that completed the word before read first).
pub(super) fn mark_three_way_word<S: Seen + ?Sized>(
    moves: &TakeBreakMoves,
    heap: usize,
    pair_sets: &PairSets,
    word: u32,
    marks: &mut S,
    lead: &mut usize,
) {
    // The candidates of the word still unmarked.
    let missing = marks.missing_in_word(word);
    // The pair-set words read are gathered by the low six bits `l` of `G(a)` (64 accumulators,
    // a load and an or a part) and permuted together now and then ([`or_of_permuted`], 63 block
    // swaps for the 64, where permuting each word as it is read cost 6 a part): after 32 to
    // 64 parts (below), then whenever the parts read grew by half (at least 32, at most 1024 parts), so
    // that a word done early stops soon after its last candidate, and a long scan (the word
    // holding the mex is read to the end) permutes rarely.
    let mut gathered = [0u64; 64];
    let mut found = 0u64;
    // The first check after as many parts as candidates are missing (32 to 64): a part adds a
    // few candidates of its word at most, and where nearly all 64 are missing (0.8F), no word
    // was done before its 64th part (bench/RESULTS.md), so a check at 32 was always wasted.
    let mut next_check = (missing.count_ones() as usize).clamp(32, 64);
    let mut read = 0usize;
    // The parts are taken by the word `q` of their value, `q = word ^ row` for `row = 0, 1, …`:
    // a part whose value lies in the candidates' own word first (it reads word 0 of its pair
    // set), then the nearest words. Where values grow with the heap (the arithmetic-periodic
    // games), a candidate is the xor of a part of about its size with two parts close to each
    // other, so the first rows find the candidates of a word long before the parts taken in
    // increasing order reach that size (measured: about 120 parts a word instead of most of
    // the `m / 3`). Every part `1 ≤ a ≤ m / 3` is still read once when the word is not done.
    //
    // Row 0 reads every part up to `m − 2`, not only the smallest part of a split: a split is
    // worth the xor of its three parts whichever is called `a`, so `a` may be the largest. A
    // candidate above the values of the parts below `m / 3` (the top two thirds of the
    // candidates where values grow linearly) is then found as a part of about its own value plus
    // two small parts close to each other (word 0 of a short pair set), where the smallest-part
    // rows reach it only after most of the parts of the words below (measured on hex:0.8F to heap
    // 12,000: about 170 parts a word instead of about 1,000 for those words). Rows 1 and up still
    // take the smallest part only: with row 0 they read every split once.
    let by_word = &pair_sets.by_word;
    let rows = by_word.len().max(word as usize + 1).next_power_of_two();
    'splits: for row in 0..rows {
        // A row past the words stored is all zero: nothing to find there.
        let (Some(parts), Some(pair_words)) = (by_word.get(word as usize ^ row), pair_sets.rows.get(row)) else {
            continue;
        };
        let removals = moves.leave_three.len();
        for turn in 0..removals {
            // `lead` first, then the others in their order.
            let removal = match turn {
                0 => *lead,
                _ if turn <= *lead => turn - 1,
                _ => turn,
            };
            let k = moves.leave_three[removal];
            if heap < k + 3 {
                continue;
            }
            let m = heap - k;
            let last_part = if row == 0 { m - 2 } else { m / 3 };
            // The parts `a ≤ last_part` (the list is in increasing order), read in stretches
            // that end at the next check, so that the loop over a stretch only loads and ors.
            let mut parts = parts_up_to(parts, last_part);
            while !parts.is_empty() {
                let (stretch, rest) = parts.split_at((next_check - read).min(parts.len()));
                for &part in stretch {
                    gathered[(part & 63) as usize] |= pair_words[m - part_heap(part)];
                }
                read += stretch.len();
                parts = rest;
                if read == next_check {
                    found |= or_of_permuted(&mut gathered);
                    if found & missing == missing {
                        *lead = removal;
                        break 'splits;
                    }
                    next_check = read + (read / 2).clamp(32, 1024);
                }
            }
        }
    }
    found |= or_of_permuted(&mut gathered);
    let mut hits = found & missing;
    while hits != 0 {
        marks.mark(word * 64 + hits.trailing_zeros());
        hits &= hits - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::{PairSets, extend_pair_sets, or_of_permuted, packed_part, part_heap, parts_up_to, xor_permute};
    use proptest::prelude::*;

    /// The three-way kernel's long scans, against the textbook loop: the parts taken a word of
    /// values at a time (`by_word`), row 0 past `m / 3`, gathered and permuted together at
    /// growing intervals up to 1024 parts (0.8F to 2600: two removals with three parts, more
    /// than 1536 parts read for the word holding the mex from about heap 2306 on, values
    /// reaching 1485, 24 words; 0.9: one such removal, values reaching 838), and values that stay in one
    /// word (0.B, at most 1: every part read for the mex, all from one list).
    #[test]
    fn three_way_long_scans_agree_with_the_textbook_loop() {
        use crate::heap::octal::{CodeBase, OctalGame};
        use crate::heap::sequence::{CompactSequence, definition_sequence};
        use crate::{control::Control, heap::EngineBacked};
        for (code, len) in [("0.8F", 2600), ("0.9", 1700), ("0.B", 1700)] {
            let game = OctalGame::parse(code, CodeBase::Hexadecimal).unwrap();
            let expected = definition_sequence(game.engine().moves(), len);
            let mut values = CompactSequence::new();
            // In two stretches, so that the stored pair sets and parts by word are continued.
            for stretch in [len / 3, len] {
                assert!(game.engine().extend("test", &mut values, stretch, &Control::default()).unwrap());
            }
            assert_eq!(values.to_vec(), expected, "hex:{code}");
        }
    }

    proptest! {
        /// The stored pair sets, built in two stretches, are the sets of `G(b) ^ G(s − b)`
        /// (`1 ≤ b < s`) bit by bit, and the parts by word list every heap `a ≥ 1` with its
        /// value's low bits, under the word of its value, in increasing order.
        #[test]
        fn pair_sets_are_the_xors_of_the_splits_into_two(
            values in proptest::collection::vec(0u16..300, 1..160),
            first in 0usize..160,
        ) {
            let len = values.len();
            let mut pair_sets = PairSets::default();
            extend_pair_sets(&values, &mut pair_sets, first.min(len));
            extend_pair_sets(&values, &mut pair_sets, len);
            prop_assert_eq!(pair_sets.len, len);
            for s in 0..len {
                let mut expected = vec![0u64; pair_sets.rows.len()];
                for b in 1..s {
                    let value = (values[b] ^ values[s - b]) as usize;
                    expected[value / 64] |= 1 << (value % 64);
                }
                let stored: Vec<u64> = pair_sets.rows.iter().map(|row| row[s]).collect();
                prop_assert_eq!(stored, expected, "s = {}", s);
            }
            for (word, parts) in pair_sets.by_word.iter().enumerate() {
                let expected: Vec<u64> = (1..len)
                    .filter(|&a| values[a] as usize / 64 == word)
                    .map(|a| packed_part(a, u32::from(values[a])))
                    .collect();
                prop_assert_eq!(parts, &expected);
            }
        }

        /// The parts up to a heap, decided by the list's ends where they allow, are those a
        /// filter over the whole list keeps (lists empty, below, above and across the bound).
        #[test]
        fn parts_up_to_a_heap_are_the_filtered_list(
            heaps in proptest::collection::btree_set(1usize..400, 0..40),
            lows in proptest::collection::vec(0u32..1 << 16, 40),
            last in 0usize..420,
        ) {
            let parts: Vec<u64> = heaps.iter().zip(&lows).map(|(&a, &value)| packed_part(a, value)).collect();
            let expected: Vec<u64> = parts.iter().copied().filter(|&part| part_heap(part) <= last).collect();
            prop_assert_eq!(parts_up_to(&parts, last), &expected[..]);
            for (part, (&a, &value)) in parts.iter().zip(heaps.iter().zip(&lows)) {
                prop_assert_eq!((part_heap(*part), (part & 63) as u32), (a, value & 63));
            }
        }

        /// The butterfly gives the union of the 64 words each permuted by its index, bit by
        /// bit, and leaves the words zero (sparse words too: a few bits set, most words 0).
        #[test]
        fn the_butterfly_is_the_union_of_the_permuted_words(
            dense in proptest::array::uniform32(any::<u64>()),
            sparse in proptest::collection::vec((0usize..64, 0u32..64), 0..12),
            dense_half in any::<bool>(),
        ) {
            let mut words = [0u64; 64];
            if dense_half {
                words[..32].copy_from_slice(&dense);
            }
            for (index, bit) in sparse {
                words[index] |= 1 << bit;
            }
            let expected = (0..64).fold(0, |union, index| union | xor_permute(words[index], index as u32));
            prop_assert_eq!(or_of_permuted(&mut words), expected);
            prop_assert_eq!(words, [0u64; 64]);
        }
    }
}
