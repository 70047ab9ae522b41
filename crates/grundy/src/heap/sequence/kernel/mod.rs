//! The plain and rare-value kernels (see the module above for the method and its sources).

mod marking;
mod seen;
mod three_way;
mod wanted;

use super::{CompactSequence, Kernel, TakeBreakMoves};
use crate::control::Control;
use marking::*;
pub(super) use marking::{ACROSS_ROWS, mark_across_rows};
use seen::{Bits, Seen};
use std::ops::BitXor;
use three_way::{PairSets, extend_pair_sets, mark_three_way_word};
pub(super) use wanted::{WANTED_BOUND, Wanted, drain_is_vectorized, drain_wanted, drain_wanted_by_low_bytes};

/// A table entry: one, two or four bytes per value.
pub(crate) trait Cell: Copy + Eq + Default + Send + Sync + BitXor<Output = Self> + 'static {
    /// The largest value the type holds.
    const MAX: u32;
    /// `value`, which is at most `MAX`.
    fn from_u32(value: u32) -> Self;
    fn to_u32(self) -> u32;
    /// The cells as bytes, when a cell is one byte (the vectorized steps that read eight cells
    /// as one word).
    fn as_bytes(cells: &[Self]) -> Option<&[u8]>;
}

macro_rules! cell {
    ($type:ty, $as_bytes:expr) => {
        impl Cell for $type {
            const MAX: u32 = <$type>::MAX as u32;
            #[inline(always)]
            fn from_u32(value: u32) -> Self {
                debug_assert!(value <= <Self as Cell>::MAX);
                value as $type
            }
            #[inline(always)]
            fn to_u32(self) -> u32 {
                u32::from(self)
            }
            #[inline(always)]
            fn as_bytes(cells: &[Self]) -> Option<&[u8]> {
                $as_bytes(cells)
            }
        }
    };
}
cell!(u8, Some);
cell!(u16, |_| None);
cell!(u32, |_| None);

/// What the kernels did, for [`super::NimSequenceEngine::method`].
#[derive(Default, Debug)]
pub(crate) struct Report {
    plain_heaps: usize,
    rare_heaps: usize,
    /// The sparse space in force at the end: mask, domain flag, rare heaps.
    sparse: Option<(u32, bool, usize)>,
    width: u32,
}

impl Report {
    /// The sparse space in force at the end of the call (mask, heap-parity flag), when the
    /// rare-value kernel was running.
    pub(crate) fn sparse_space(&self) -> Option<(u32, bool)> {
        self.sparse.map(|(mask, domain, _)| (mask, domain))
    }

    pub(crate) fn describe(&self) -> String {
        let mut text = match (self.plain_heaps, self.rare_heaps, self.sparse) {
            (0, 0, _) => "nothing computed".to_owned(),
            (_, 0, _) | (_, _, None) => "plain mex over all options (vectorized xor scan)".to_owned(),
            (plain, rare, Some((mask, domain, count))) => {
                let mut text = format!(
                    "rare-value (sparse space, mask {mask:#b}{}, {count} rare heaps)",
                    if domain { " with heap parity" } else { "" }
                );
                if plain > 0 {
                    text.push_str(&format!(" for {rare} heaps, plain mex for {plain}"));
                }
                text
            }
        };
        text.push_str(&format!(", {}-bit values", self.width));
        text
    }
}

enum Stop {
    Reached,
    Cancelled,
    /// This value, the next of the sequence, does not fit the cell type (it went to the `u32`
    /// output, if any, not to the tables): go on with a wider one.
    Widen(u32),
}

/// The working tables of one cell width, kept by the engine between calls, so that extending a
/// long sequence stretch by stretch (as the period search and checkpoints do) does not rebuild
/// them each time. They describe `described` heaps; a call whose prefix has that length
/// continues from them (the nim-sequence is unique, so any correct prefix of that length is
/// this one), any other call rebuilds them from its prefix. For a `Vec<u32>` prefix they keep
/// their own copy of the values in `values`; a [`CompactSequence`] lends its values to them for
/// the call instead (`values` is empty between calls), so that they are stored once.
pub(crate) struct Tables<T> {
    values: Vec<T>,
    low_bytes: LowBytes,
    described: usize,
    largest: u32,
    sparse: Sparse<T>,
    pair_sets: PairSets,
    kernel: Kernel,
}

impl<T: Cell> Tables<T> {
    fn build(values: Vec<T>, capacity: usize, moves: &TakeBreakMoves, kernel: Kernel) -> Self {
        let mut sparse = Sparse::<T> {
            active: false,
            tracking: false,
            mask: 0,
            low_odd: 0,
            domain: false,
            offset: moves.leave_two.first().copied().unwrap_or(0),
            positions: Vec::new(),
            values: Vec::new(),
            next_review: 1024,
            rare_at_review: 0,
        };
        if kernel == Kernel::RareValue || values.len() >= 1024 {
            sparse.review(&values, moves, kernel);
        }
        let mut tables = Tables {
            largest: values.iter().map(|value| value.to_u32()).max().unwrap_or(0),
            described: values.len(),
            low_bytes: LowBytes::of(&values),
            values,
            sparse,
            pair_sets: PairSets::default(),
            kernel,
        };
        tables.reserve(capacity);
        tables
    }

    /// Makes room for `len` heaps (only the pages written count against memory), exactly:
    /// `reserve` may double the capacity, which for a 2^30-heap run is 2 GiB more
    /// address space than the values need (glibc grows such a block by `mremap`, so a later
    /// stretch's growth costs no copy).
    fn reserve(&mut self, len: usize) {
        self.values.reserve_exact(len.saturating_sub(self.values.len()));
        if self.low_bytes.kept {
            let len = len.min(LowBytes::MOST_HEAPS);
            self.low_bytes.bytes.reserve_exact(len.saturating_sub(self.low_bytes.bytes.len()));
        }
    }
}

/// The low byte of every value, beside two-byte cells while every value is below
/// [`WANTED_BOUND`] and the heaps are at most [`LowBytes::MOST_HEAPS`]: the one-pass search for
/// a heap's rare-type candidates scans them instead of the cells
/// ([`drain_wanted_by_low_bytes`]). One byte a heap more than the cells' two; dropped for good
/// once a value reaches the bound (no heap searches in one pass after that) or the heaps pass
/// the limit (a long run keeps its two bytes a heap). Measured on 0.6 to 10^6, one core:
/// bench/RESULTS.md (issue 44).
struct LowBytes {
    kept: bool,
    bytes: Vec<u8>,
}

impl LowBytes {
    /// 16 MB of low bytes at most.
    const MOST_HEAPS: usize = 1 << 24;

    fn of<T: Cell>(values: &[T]) -> Self {
        let kept = std::mem::size_of::<T>() == 2
            && drain_is_vectorized::<T>()
            && values.len() < Self::MOST_HEAPS
            && values.iter().all(|value| (value.to_u32() as usize) < WANTED_BOUND);
        let bytes = if kept { values.iter().map(|value| value.to_u32() as u8).collect() } else { Vec::new() };
        LowBytes { kept, bytes }
    }

    fn push(&mut self, value: u32) {
        if !self.kept {
            return;
        }
        if value as usize >= WANTED_BOUND || self.bytes.len() >= Self::MOST_HEAPS {
            *self = LowBytes { kept: false, bytes: Vec::new() };
        } else {
            self.bytes.push(value as u8);
        }
    }
}

/// The engine's [`Tables`], in the narrowest cell type that holds every value so far.
#[derive(Default)]
pub(crate) enum Cache {
    #[default]
    Empty,
    Byte(Tables<u8>),
    Half(Tables<u16>),
    Word(Tables<u32>),
}

/// Extends `values` to `len` values in place, its own width being the tables' cell type;
/// `false` when cancelled.
pub(crate) fn extend(
    moves: &TakeBreakMoves,
    values: &mut CompactSequence,
    len: usize,
    control: &Control,
    kernel: Kernel,
    report: &mut Report,
    cache: &mut Cache,
) -> bool {
    /// Lends `values` to `tables` for one run.
    fn lend<T: Cell>(
        moves: &TakeBreakMoves,
        values: &mut Vec<T>,
        len: usize,
        control: &Control,
        report: &mut Report,
        tables: &mut Tables<T>,
    ) -> Stop {
        tables.values = std::mem::take(values);
        let stop = run(moves, len, control, report, tables);
        *values = std::mem::take(&mut tables.values);
        stop
    }
    loop {
        // The tables lent their values back at the end of the last call.
        let known = values.len();
        let fits = |tables_len: usize, described: usize, cached: Kernel| {
            tables_len == 0 && described == known && cached == kernel
        };
        let stop = match (&mut *cache, &mut *values) {
            (Cache::Byte(tables), CompactSequence::Byte(cells))
                if fits(tables.values.len(), tables.described, tables.kernel) =>
            {
                report.width = 8;
                lend(moves, cells, len, control, report, tables)
            }
            (Cache::Half(tables), CompactSequence::Half(cells))
                if fits(tables.values.len(), tables.described, tables.kernel) =>
            {
                report.width = 16;
                lend(moves, cells, len, control, report, tables)
            }
            (Cache::Word(tables), CompactSequence::Word(cells))
                if fits(tables.values.len(), tables.described, tables.kernel) =>
            {
                report.width = 32;
                lend(moves, cells, len, control, report, tables)
            }
            (_, sequence) => {
                // Rebuilt from the values, which are lent back at once.
                fn adopt<T: Cell>(cells: &mut Vec<T>, len: usize, moves: &TakeBreakMoves, kernel: Kernel) -> Tables<T> {
                    let mut tables = Tables::build(std::mem::take(cells), len, moves, kernel);
                    *cells = std::mem::take(&mut tables.values);
                    tables
                }
                *cache = match sequence {
                    CompactSequence::Byte(cells) => Cache::Byte(adopt(cells, len, moves, kernel)),
                    CompactSequence::Half(cells) => Cache::Half(adopt(cells, len, moves, kernel)),
                    CompactSequence::Word(cells) => Cache::Word(adopt(cells, len, moves, kernel)),
                };
                continue;
            }
        };
        match stop {
            Stop::Reached => return true,
            Stop::Cancelled => return false,
            // The value does not fit the width: widen the values, then rebuild the tables.
            Stop::Widen(value) => {
                values.push(value);
                *cache = Cache::Empty;
            }
        }
    }
}

/// Pairs marked one by one before candidates are searched for with the vectorized scan (when a
/// heap searches one candidate a pass).
const PREFIX_PAIRS: usize = 32;

/// How many splits a heap whose rare-type candidates are searched for in one pass
/// ([`mex_by_one_pass`]) marks one by one first, adapted from heap to heap to the number of
/// values the pass wanted: each value the pass finds costs it a mispredicted branch (about as
/// much as marking 30 splits), so a game that wants many (0.6: about 50 after 32 splits, among
/// the 256 values of the rare type) marks more of its first splits, where most of them lie,
/// and one that wants few (.354: 2 or 3) marks no more than the one-by-one search does.
/// Measured on 0.6 to 10^6, one core: 128 or 256 splits took 9–12% less time than 32, and
/// .354 took half as long again with 128 (bench/RESULTS.md, issue 44).
#[derive(Clone, Copy)]
struct Prefix {
    pairs: usize,
}

impl Prefix {
    const SHORTEST: usize = PREFIX_PAIRS;
    const LONGEST: usize = 256;
    /// The pass wanted more than this many values: mark twice as many splits next heap.
    const LENGTHEN_ABOVE: u32 = 24;
    /// Fewer than this: half as many.
    const SHORTEN_BELOW: u32 = 8;

    fn new() -> Self {
        Prefix { pairs: Self::SHORTEST }
    }

    fn adapt(&mut self, wanted: u32) {
        if wanted > Self::LENGTHEN_ABOVE {
            self.pairs = (2 * self.pairs).min(Self::LONGEST);
        } else if wanted < Self::SHORTEN_BELOW {
            self.pairs = (self.pairs / 2).max(Self::SHORTEST);
        }
    }
}
/// A hit this close to the frontier of the marked splits marks everything up to it (later
/// candidates are then found without a scan); a farther one marks only the value found.
/// Measured on one thread: 64 rather than 256 made 0.16 13% and .354 10% faster.
const LOCAL_HIT: usize = 64;
/// Heaps computed together: the cancel flag and progress are looked at between blocks, and the
/// mask is chosen again only there. The unit tests use 256, so that their sequences of a few
/// thousand heaps cross many blocks.
///
/// The kernel runs on one thread. A second thread that prepared the next block's marks (every
/// split with a rare part and both parts known, and a first search of the rare-type candidates
/// among them) while this one computed a block was removed in issue 44: once a heap's rare
/// splits were marked a chunk at a time and its candidates searched in one pass, the two
/// threads gave `sequence octal:0.6 --to 1000000` 1.98 s of wall time for 3.75 s of CPU,
/// against 2.53 s for 2.52 s on one (Grundy's game to 2^24: 25.0 s for 47.1 s, against 33.6 s
/// for 33.3 s; 4.007: 6.80 s for 11.85 s, against 7.11 s for 7.11 s; bench/RESULTS.md).
const BLOCK: usize = if cfg!(test) { 256 } else { 1024 };

/// The rare-value kernel marks the splits with a rare part a chunk of heaps at a time (see
/// [`compute_block`]) only when each heap has at least this many: with fewer, setting up the
/// chunk costs more than it saves (measured: 0.16, 52 such splits a heap, ran 10% slower
/// chunked; .354, 262 a heap, 11% faster). The unit tests chunk always.
const CHUNKED_RARE_SPLITS: usize = if cfg!(test) { 1 } else { 128 };
/// [`CHUNKED_RARE_SPLITS`] for the chunks of words ([`WordChunk`]), which need no clearing or
/// copying of rows: 0.16 (52 such splits a heap, 43 of them in the chunk) ran 4–7% faster
/// with them (bench/RESULTS.md, issue 29's second round).
const WORD_CHUNKED_RARE_SPLITS: usize = if cfg!(test) { 1 } else { 16 };

/// The rare heaps (increasing) and their values.
#[derive(Clone, Copy)]
struct RareList<'a, T> {
    positions: &'a [u32],
    values: &'a [T],
}

/// The sparse space in use: which heaps are rare, and their list.
struct Sparse<T> {
    /// Whether the rare-value kernel runs (else the plain one).
    active: bool,
    /// Whether `positions` lists the rare heaps under `mask` (kept only while active).
    tracking: bool,
    mask: u32,
    /// [`Space::low_odd`] of `mask`.
    low_odd: u64,
    domain: bool,
    /// The number of tokens one split removes, modulo 2 (domain version).
    offset: usize,
    positions: Vec<u32>,
    values: Vec<T>,
    next_review: usize,
    rare_at_review: usize,
}

/// A sparse space alone (without its list): which values are of the rare type at a heap.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Space {
    mask: u32,
    domain: bool,
    /// The number of tokens one split removes, modulo 2 (domain version).
    offset: usize,
    /// Bit `i`: `i & mask` has odd parity, for `i < 64` ([`Space::low_odd`]).
    low_odd: u64,
}

impl Space {
    /// Bit `i` set when `i & mask` has odd parity, for the 64 values `i` of a word. Bit `i` of
    /// `COLUMNS[j]` is bit `j` of `i`: the parity is the xor of the columns of the mask's low
    /// six bits.
    fn low_odd(mask: u32) -> u64 {
        const COLUMNS: [u64; 6] = [
            0xAAAA_AAAA_AAAA_AAAA,
            0xCCCC_CCCC_CCCC_CCCC,
            0xF0F0_F0F0_F0F0_F0F0,
            0xFF00_FF00_FF00_FF00,
            0xFFFF_0000_FFFF_0000,
            0xFFFF_FFFF_0000_0000,
        ];
        (0..6).filter(|&bit| mask >> bit & 1 == 1).fold(0, |odd, bit| odd ^ COLUMNS[bit])
    }

    #[inline(always)]
    fn rare_type(self, heap: usize, value: u32) -> bool {
        ((value & self.mask).count_ones() & 1 == 1) == (self.domain && (heap + self.offset) & 1 == 1)
    }

    /// Which of the values `64·word … 64·word + 63` are of the rare type at `heap`, as bits:
    /// the parity of `v & mask` is that of its bits above the sixth (one for the whole word)
    /// xored with that of its low six bits (the same pattern in every word).
    #[inline]
    fn rare_type_word(self, heap: usize, word: u32) -> u64 {
        let high_odd = ((word << 6) & self.mask).count_ones() & 1 == 1;
        let odd = if high_odd { !self.low_odd } else { self.low_odd };
        if self.domain && (heap + self.offset) & 1 == 1 { odd } else { !odd }
    }
}

impl<T: Cell> Sparse<T> {
    fn space(&self) -> Space {
        Space { mask: self.mask, domain: self.domain, offset: self.offset, low_odd: self.low_odd }
    }

    #[inline(always)]
    fn rare_type(&self, heap: usize, value: u32) -> bool {
        self.space().rare_type(heap, value)
    }

    /// Chooses the mask (and domain flag) with the fewest rare heaps among `values[1..]`, and
    /// whether the rare-value kernel should run.
    fn review(&mut self, values: &[T], moves: &TakeBreakMoves, kernel: Kernel) {
        let n = values.len();
        self.next_review = (n.max(512) * 2).next_power_of_two();
        let valid = !moves.leave_two.is_empty() && moves.leave_three.is_empty();
        if !valid || kernel == Kernel::Plain {
            self.stop_tracking();
            return;
        }
        // counts[parity of the heap + offset][value]
        let largest = values.iter().map(|v| v.to_u32()).max().unwrap_or(0);
        let bits = (32 - largest.leading_zeros()).clamp(1, 12);
        let cap = 1usize << bits;
        let mut counts = vec![[0usize; 2]; cap];
        for (heap, value) in values.iter().enumerate().skip(1) {
            counts[(value.to_u32() as usize) & (cap - 1)][(heap + self.offset) & 1] += 1;
        }
        let domain_allowed = moves.leave_two.iter().all(|&k| (k + self.offset) & 1 == 0);
        let mut best = (usize::MAX, self.mask, self.domain);
        for mask in 1..cap as u32 {
            for domain in [false, true] {
                if domain && !domain_allowed {
                    continue;
                }
                let mut rare = 0;
                for (value, count) in counts.iter().enumerate() {
                    let odd = (value as u32 & mask).count_ones() & 1 == 1;
                    rare += if domain {
                        count[usize::from(odd)]
                    } else if odd {
                        0
                    } else {
                        count[0] + count[1]
                    };
                }
                if rare < best.0 {
                    best = (rare, mask, domain);
                }
            }
        }
        let (rare, mask, domain) = best;
        // The rare-value kernel marks every split with a rare part, about `rare` a heap; the
        // plain one searches each candidate from the first splits. With values below 64 the
        // plain search finds them within a few words of splits, so the rare heaps must be few
        // (0.35, a third of its heaps rare under the best mask, ran 2.4 times slower with the
        // rare-value kernel); with larger values it reads far for each (0.6 between heaps 16,384
        // and 32,768, one heap in 13 rare, had the plain kernel take 7% of a run to 10^6).
        // Measured on every two-digit octal code to 20,000 heaps (instructions): one in 6 for
        // large values cut 0.6, 0.36, 0.37, 0.64 by 21–58%, changed no other.
        let most_rare = if largest >= 64 { n / 6 } else { n / 12 };
        self.active = kernel == Kernel::RareValue || rare < most_rare;
        if kernel == Kernel::RareValue {
            // Any mask is exact: in tests, change it often to exercise the rebuild.
            self.next_review = (n + 1).next_power_of_two().max(2);
        }
        if !self.active {
            self.stop_tracking();
            return;
        }
        if (mask, domain) != (self.mask, self.domain) || !self.tracking {
            self.tracking = true;
            self.mask = mask;
            self.low_odd = Space::low_odd(mask);
            self.domain = domain;
            self.positions.clear();
            self.values.clear();
            for (heap, &value) in values.iter().enumerate().skip(1) {
                if self.rare_type(heap, value.to_u32()) {
                    self.positions.push(heap as u32);
                    self.values.push(value);
                }
            }
        }
        self.rare_at_review = self.positions.len();
    }

    fn list(&self) -> RareList<'_, T> {
        RareList { positions: &self.positions, values: &self.values }
    }

    fn stop_tracking(&mut self) {
        self.active = false;
        self.tracking = false;
        self.positions = Vec::new();
        self.values = Vec::new();
    }
}

/// One family of splits into two: `a + (m − a) = m`, `1 ≤ a ≤ high`.
struct Segment {
    m: usize,
    high: usize,
    /// Pairs with `a` below this (and from where the segment's marking began) are marked.
    frontier: usize,
}

impl Segment {
    /// The splits into two of `heap` tokens, one segment for each `k` of `leave_two` that leaves
    /// at least one split (`m = heap − k`, `a ≤ m / 2`, or `a < m / 2` when the parts must
    /// differ), none marked yet.
    fn of_heap(moves: &TakeBreakMoves, heap: usize) -> impl Iterator<Item = Segment> + '_ {
        moves.leave_two.iter().filter_map(move |&k| {
            let m = heap.checked_sub(k)?;
            let high = if moves.unequal_parts { m.saturating_sub(1) / 2 } else { m / 2 };
            (high >= 1).then_some(Segment { m, high, frontier: 1 })
        })
    }
}

/// The number of `positions` (increasing) at most `limit`, searched from the start: ahead in
/// steps that double, then by halves between the last two. Each heap of a chunk asks it for the
/// rare heaps `p ≤ m − known_below` (a handful, the chunk being 16 heaps): a binary search
/// over every rare heap took 7% of .354's time in its unpredictable branches.
fn count_from_start(positions: &[u32], limit: usize) -> usize {
    let mut end = 1;
    while end <= positions.len() && positions[end - 1] as usize <= limit {
        end *= 2;
    }
    // positions[..end / 2] are at most `limit`; from `end − 1` on (if any) they exceed it.
    let (from, to) = (end / 2, (end - 1).min(positions.len()));
    from + positions[from..to].partition_point(|&position| position as usize <= limit)
}

/// A heap's marks, one byte a value, kept between heaps for their allocation, and the length
/// of the prefix the next heap marks.
struct Marks {
    seen: Vec<u8>,
    prefix: Prefix,
}

fn run<T: Cell>(
    moves: &TakeBreakMoves,
    len: usize,
    control: &Control,
    report: &mut Report,
    tables: &mut Tables<T>,
) -> Stop {
    let start = tables.values.len();
    if start >= len {
        return Stop::Reached;
    }
    tables.reserve(len);
    let task = control.task(crate::heap::SEQUENCE_TASK, len as u64);
    let kernel = tables.kernel;
    let Tables { values, low_bytes, described, largest, sparse, pair_sets, .. } = tables;
    let mut marks = Marks { seen: Vec::new(), prefix: Prefix::new() };
    let mut segments: Vec<Segment> = Vec::with_capacity(moves.leave_two.len());
    let mut block_start = start;
    while block_start < len {
        if block_start > start {
            if control.cancelled() {
                return Stop::Cancelled;
            }
            task.set(block_start as u64);
        }
        if block_start >= sparse.next_review
            || (sparse.active && sparse.positions.len() > 2 * sparse.rare_at_review + 64)
        {
            sparse.review(values, moves, kernel);
        }
        // Three-way splits cost O(n) pair sets a heap: look at the cancel flag more often.
        let block = if moves.leave_three.is_empty() { BLOCK } else { 8 };
        let block_end = (block_start + block).min(len);
        let stop = compute_block(
            moves,
            block_start..block_end,
            report,
            values,
            low_bytes,
            described,
            largest,
            sparse,
            pair_sets,
            &mut marks,
            &mut segments,
        );
        if let Some(stop) = stop {
            return stop;
        }
        report.sparse = sparse.active.then_some((sparse.mask, sparse.domain, sparse.positions.len()));
        block_start = block_end;
    }
    task.set(len as u64);
    Stop::Reached
}

/// Computes the heaps of `block` and appends them; `Some` when the run must stop (a value that
/// does not fit the cells).
#[allow(clippy::too_many_arguments)]
fn compute_block<T: Cell>(
    moves: &TakeBreakMoves,
    block: std::ops::Range<usize>,
    report: &mut Report,
    values: &mut Vec<T>,
    low_bytes: &mut LowBytes,
    described: &mut usize,
    largest: &mut u32,
    sparse: &mut Sparse<T>,
    pair_sets: &mut PairSets,
    marks: &mut Marks,
    segments: &mut Vec<Segment>,
) -> Option<Stop> {
    let (block_start, block_end) = (block.start, block.end);
    // The splits with a rare part whose parts are both below a chunk of `ACROSS_ROWS` heaps
    // are marked for the whole chunk first, across its rows (each rare heap's partners lie next
    // to each other), and only the rest heap by heap: in rows of words while the values are
    // below 64, else of bytes. (The unit tests, which chunk always,
    // take words only every other block, so that both kinds of rows meet small values.)
    let rare_splits = sparse.positions.len() * moves.leave_two.len();
    let by_rows = sparse.active && moves.leave_three.is_empty();
    let in_words = by_rows
        && !moves.unequal_parts
        && rare_splits >= WORD_CHUNKED_RARE_SPLITS
        && (*largest as usize + 1).next_power_of_two() <= Bits::BOUND
        && (!cfg!(test) || (block_start / BLOCK).is_multiple_of(2));
    let chunked = by_rows && !in_words && rare_splits >= CHUNKED_RARE_SPLITS;
    let mut chunk = Chunk { start: block_start, bound: 0, rows: Vec::new() };
    let mut words = WordChunk::default();
    let k_max = moves.leave_two.iter().copied().max().unwrap_or(0);
    for heap in block {
        if !moves.leave_three.is_empty() {
            extend_pair_sets(values, pair_sets, heap);
        }
        let bound_now = (*largest as usize + 1).next_power_of_two();
        if in_words && (heap - block_start).is_multiple_of(ACROSS_ROWS) {
            words.start(
                heap,
                ACROSS_ROWS.min(block_end - heap),
                bound_now,
                k_max,
                moves,
                sparse.list(),
                &values[..heap],
            );
        }
        // Every xor of values below `bound_now` (a power of two) is below it, so the mex
        // is at most `bound_now`, and entry `bound_now` stays unmarked.
        // Small values with the splits marked here or in a chunk of words (no chunk of byte
        // rows): the marks fit one word.
        let in_a_word = !chunked && moves.leave_three.is_empty() && bound_now <= Bits::BOUND;
        // The marks start from the row of a chunk, if any, then zeros up to the bound
        // (filled once, not zeroed and then overwritten).
        if !in_a_word {
            marks.seen.clear();
        }
        let enumeration = if chunked {
            if (heap - block_start) % ACROSS_ROWS == 0 {
                let (width, count) = (bound_now + 1, ACROSS_ROWS.min(block_end - heap));
                chunk.start = heap;
                chunk.bound = bound_now;
                chunk.rows.clear();
                chunk.rows.resize(count * width, 0);
                mark_rare_rows(moves, sparse.list(), &values[..heap], heap, &mut chunk.rows, width);
            }
            let width = chunk.bound + 1;
            marks.seen.extend_from_slice(&chunk.rows[(heap - chunk.start) * width..][..width]);
            Enumeration::Fixup { known_below: chunk.start }
        } else if words.active {
            if !in_a_word {
                marks.seen.resize(bound_now + 1, 0);
                // A value reached 64 within the chunk: the row's marks as bytes.
                let mut word = words.rows[heap - words.first_heap].0;
                while word != 0 {
                    marks.seen[word.trailing_zeros() as usize] = 1;
                    word &= word - 1;
                }
            }
            Enumeration::Except { marked_from: words.marked.start, marked_to: words.marked.end }
        } else {
            Enumeration::Full
        };
        if !in_a_word {
            marks.seen.resize(bound_now + 1, 0);
        }
        // The same call with each kind of marks (a closure cannot be generic over them).
        macro_rules! value_with {
            ($seen:expr) => {
                heap_value(
                    moves,
                    heap,
                    values,
                    &low_bytes.bytes,
                    sparse,
                    enumeration,
                    pair_sets,
                    $seen,
                    segments,
                    &mut marks.prefix,
                )
            };
        }
        let value = if in_a_word {
            let mut bits = if words.active { words.rows[heap - words.first_heap] } else { Bits::default() };
            value_with!(&mut bits)
        } else {
            value_with!(&mut marks.seen[..])
        };
        if sparse.active {
            report.rare_heaps += 1;
        } else {
            report.plain_heaps += 1;
        }
        if value > T::MAX {
            return Some(Stop::Widen(value));
        }
        let cell = T::from_u32(value);
        values.push(cell);
        low_bytes.push(value);
        *described = values.len();
        *largest = (*largest).max(value);
        if sparse.tracking && heap > 0 && sparse.rare_type(heap, value) {
            sparse.positions.push(heap as u32);
            sparse.values.push(cell);
        }
    }
    None
}

/// A chunk of [`ACROSS_ROWS`] heaps from `first_heap` whose values are below 64, one word of marks
/// a heap (games whose split parts may be equal). Its rows hold the splits `p + (m − p)` for
/// the rare heaps `p` with `ACROSS_ROWS ≤ p < first_heap − k` for every `k` of `leave_two`:
/// each such `m − p` is below `first_heap` (known when the chunk starts), and `p < m` in
/// every row. Those are one stretch `marked` of the rare list, the same for every row and
/// every `k`, so each heap marks only the rare heaps before and after it.
#[derive(Default)]
struct WordChunk {
    /// Whether the rows hold the marks (the values were below 64 when the chunk started).
    active: bool,
    first_heap: usize,
    /// The indices in the rare list of the rare heaps the rows hold.
    marked: std::ops::Range<usize>,
    rows: [Bits; ACROSS_ROWS],
}

impl WordChunk {
    /// Marks the rows of the `count` heaps from `first_heap`, when `bound` (that of the values
    /// below it) is at most 64.
    #[allow(clippy::too_many_arguments)]
    fn start<T: Cell>(
        &mut self,
        first_heap: usize,
        count: usize,
        bound: usize,
        k_max: usize,
        moves: &TakeBreakMoves,
        list: RareList<'_, T>,
        known: &[T],
    ) {
        self.first_heap = first_heap;
        self.rows = [Bits::default(); ACROSS_ROWS];
        self.active = bound <= Bits::BOUND;
        let index = |heap: usize| list.positions.partition_point(|&position| (position as usize) < heap);
        let from = index(ACROSS_ROWS);
        self.marked = from..index(first_heap.saturating_sub(k_max)).max(from);
        if !self.active || self.marked.is_empty() {
            self.marked = 0..0;
            return;
        }
        let (positions, rares) = (&list.positions[self.marked.clone()], &list.values[self.marked.clone()]);
        for &k in &moves.leave_two {
            mark_words_across(positions, rares, known, first_heap - k, &mut self.rows[..count]);
        }
    }
}

/// The rows of a chunk of heaps from `start`, marked by [`mark_rare_rows`] with the values below
/// it (`bound + 1` flags a row).
struct Chunk {
    start: usize,
    bound: usize,
    rows: Vec<u8>,
}

#[allow(clippy::too_many_arguments)]
fn heap_value<T: Cell, S: Seen + ?Sized>(
    moves: &TakeBreakMoves,
    heap: usize,
    values: &[T],
    // The values' low bytes ([`LowBytes`]), or none.
    low_bytes: &[u8],
    sparse: &Sparse<T>,
    enumeration: Enumeration,
    pair_sets: &PairSets,
    marks: &mut S,
    segments: &mut Vec<Segment>,
    prefix: &mut Prefix,
) -> u32 {
    if moves.take_all.contains(&heap) {
        marks.mark(0);
    }
    for &k in &moves.leave_one {
        if heap > k {
            marks.mark(values[heap - k].to_u32());
        }
    }
    segments.clear();
    for segment in Segment::of_heap(moves, heap) {
        let m = segment.m;
        segments.push(segment);
        // (A heap with no split into two, `m = 2` with unequal parts, has no split with a
        // rare part either.)
        if sparse.active {
            // Every split with a rare part: these decide every common-type value.
            let positions = &sparse.positions;
            // Past the last rare heap (the usual case) without a binary search.
            let below = |heap: usize| match positions.last() {
                Some(&last) if (last as usize) < heap => positions.len(),
                _ => positions.partition_point(|&position| (position as usize) < heap),
            };
            match enumeration {
                Enumeration::Full => mark_rare_pairs(sparse.list(), 0..below(m), values, m, moves.unequal_parts, marks),
                Enumeration::Except { marked_from, marked_to } => {
                    let below_m = below(m);
                    mark_rare_pairs(sparse.list(), 0..marked_from.min(below_m), values, m, moves.unequal_parts, marks);
                    if marked_to < below_m {
                        mark_rare_pairs(sparse.list(), marked_to..below_m, values, m, moves.unequal_parts, marks);
                    }
                }
                Enumeration::Fixup { known_below } => {
                    // The chunk marked the rare parts p with m - p below `known_below`; here the
                    // rest: p ≤ m - known_below (the other part not known then: each such p is
                    // below m when known_below > 0), and the rare heaps found since.
                    let small = match m.checked_sub(known_below) {
                        Some(reach) => count_from_start(positions, reach),
                        None => 0,
                    };
                    let small = if known_below == 0 { small.min(below(m)) } else { small };
                    mark_rare_pairs(sparse.list(), 0..small, values, m, moves.unequal_parts, marks);
                    if positions.last().is_some_and(|&last| last as usize >= known_below) {
                        let from = below(known_below).max(small);
                        let below_m = below(m);
                        if from < below_m {
                            mark_rare_pairs(sparse.list(), from..below_m, values, m, moves.unequal_parts, marks);
                        }
                    }
                }
            }
        }
    }
    // Every rare-type candidate below the first common-type value left unmarked is searched for
    // in one pass over the splits (the mex is that value or the smallest candidate no split
    // gives). Not for the plain kernel: with no common type, every value up to
    // the bound would be wanted, most of them given by no split, and the pass (whose test folds
    // values onto their low byte) would read to the end with a false hit in nearly every lane
    // (0.6's plain heaps took 2.5 times the instructions).
    let one_pass = sparse.active && marks.len() <= WANTED_BOUND + 1 && drain_is_vectorized::<T>();
    let mut prefix_marked = false;
    // Marks are only added, so the smallest unmarked value never goes down.
    let mut candidate = 0;
    // The last word of 64 candidates whose three-way splits are marked: the words are taken in
    // increasing order (the candidate never goes down), so a word was done iff it is this one
    // (a list searched each time cost the square of the words a heap).
    let mut three_way_done: Option<u32> = None;
    // The removal whose three-way splits are read first (see `mark_three_way_word`).
    let mut three_way_lead = 0;
    loop {
        candidate = marks.first_missing(candidate);
        if !moves.leave_three.is_empty() {
            // Three-way splits are decided 64 candidates at a time, and only once a candidate
            // in a word is missing from every one- and two-heap option (all marked first).
            // The last entry of `seen` is above every xor of values: never an option.
            if (candidate as usize) < marks.len() - 1 && three_way_done != Some(candidate / 64) {
                if !prefix_marked {
                    prefix_marked = true;
                    for segment in segments.iter_mut() {
                        mark_pairs(values, segment.m, segment.frontier, segment.high, marks);
                        segment.frontier = segment.high + 1;
                    }
                    continue;
                }
                three_way_done = Some(candidate / 64);
                mark_three_way_word(moves, heap, pair_sets, candidate / 64, marks, &mut three_way_lead);
                continue;
            }
            return candidate;
        }
        if segments.is_empty() || candidate > T::MAX || (sparse.active && !sparse.rare_type(heap, candidate)) {
            // No split can give it: a value above the cell type is no xor of two cells, and a
            // common-type value would have been marked by a split with a rare part.
            return candidate;
        }
        if !prefix_marked {
            prefix_marked = true;
            for segment in segments.iter_mut() {
                let end = segment.high.min(if one_pass { prefix.pairs } else { PREFIX_PAIRS });
                mark_pairs(values, segment.m, segment.frontier, end, marks);
                segment.frontier = end + 1;
            }
            continue;
        }
        // A rare-type candidate: a split of two common-type parts may give it.
        if one_pass {
            let (mex, wanted) = mex_by_one_pass(values, low_bytes, segments, sparse.space(), heap, candidate, marks);
            prefix.adapt(wanted);
            return mex;
        }
        if !find_in_segments(values, segments, T::from_u32(candidate), marks, LOCAL_HIT) {
            return candidate;
        }
    }
}

/// The mex of a heap whose splits with a rare part and first pairs are marked in `marks`, from
/// `from` (the smallest unmarked value, of the rare type): the unmarked values from `from` up
/// to the first common-type value unmarked (which no split of two common-type parts can give:
/// every common-type value a split gives is marked) are wanted; one pass over the unmarked splits of every segment removes those that some split
/// gives. Exactly what one search a candidate gives: the smallest value left, else the
/// common-type one; and how many values were wanted.
fn mex_by_one_pass<T: Cell, S: Seen + ?Sized>(
    values: &[T],
    low_bytes: &[u8],
    segments: &[Segment],
    space: Space,
    heap: usize,
    from: u32,
    marks: &S,
) -> (u32, u32) {
    // No xor of two cells exceeds `T::MAX`, and the bound (the last entry) is never marked.
    let limit = (marks.len() as u32 - 1).min(T::MAX.saturating_add(1));
    // A word of 64 values at a time: the unmarked ones, those that end the search (of the
    // common type, or at the limit) and the rare-type ones before the first of those.
    let mut wanted = Wanted::new();
    let mut word = from / 64;
    let mut from_bits = !0u64 << (from % 64);
    let stop = loop {
        let base = word * 64;
        let missing = marks.missing_in_word(word) & from_bits;
        from_bits = !0;
        let rare = space.rare_type_word(heap, word);
        let at_limit = match limit.checked_sub(base) {
            Some(inside) if inside >= 64 => 0,
            Some(inside) => !0u64 << inside,
            None => !0,
        };
        let ends = missing & (!rare | at_limit);
        if ends != 0 {
            let end = ends.trailing_zeros();
            // (Nothing to add in the word past the set's bound, which only the bound ends.)
            let before_end = missing & rare & ((1u64 << end) - 1);
            if before_end != 0 {
                wanted.insert_word(word, before_end);
            }
            break base + end;
        }
        wanted.insert_word(word, missing & rare);
        word += 1;
    };
    let count = wanted.len();
    for segment in segments {
        if wanted.is_empty() {
            break;
        }
        let (lo, end) = (segment.frontier, segment.high);
        if lo <= end {
            let (forward, backward) = (lo..=end, segment.m - end..=segment.m - lo);
            if low_bytes.len() == values.len() {
                drain_wanted_by_low_bytes(
                    &low_bytes[forward.clone()],
                    &low_bytes[backward.clone()],
                    &values[forward],
                    &values[backward],
                    &mut wanted,
                );
            } else {
                drain_wanted(&values[forward], &values[backward], &mut wanted);
            }
        }
    }
    (wanted.smallest().unwrap_or(stop), count)
}

/// Searches the splits `a` of each segment from its frontier to its end for one worth
/// `target`, and marks it; `false` if there is none. A hit close to the frontier marks every
/// split up to it (later candidates are then found without a scan) and moves the frontier; a
/// farther one marks only the value found.
fn find_in_segments<T: Cell, S: Seen + ?Sized>(
    values: &[T],
    segments: &mut [Segment],
    target: T,
    seen: &mut S,
    local_hit: usize,
) -> bool {
    for segment in segments.iter_mut() {
        let lo = segment.frontier;
        if lo > segment.high {
            continue;
        }
        let forward = &values[lo..=segment.high];
        let backward = &values[segment.m - segment.high..=segment.m - lo];
        let Some(offset) = find_xor_any(forward, backward, &[target]) else {
            continue;
        };
        let hit = lo + offset;
        if offset < local_hit {
            mark_pairs(values, segment.m, lo, hit, seen);
            segment.frontier = hit + 1;
        } else {
            seen.mark(target.to_u32());
        }
        return true;
    }
    false
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        /// Counting from the start agrees with a count of every position at most the limit.
        #[test]
        fn counting_from_the_start_agrees_with_a_plain_count(
            positions in proptest::collection::btree_set(0u32..400, 0..120),
            limit in 0usize..420,
        ) {
            let positions: Vec<u32> = positions.into_iter().collect();
            let plain = positions.iter().filter(|&&position| position as usize <= limit).count();
            prop_assert_eq!(super::count_from_start(&positions, limit), plain);
        }

        /// A word of rare-type flags is the flag of each of its 64 values.
        #[test]
        fn rare_type_words_agree_with_each_value(
            mask in 1u32..4096,
            domain: bool,
            offset in 0usize..2,
            heap in 0usize..1000,
            word in 0u32..64,
        ) {
            let space = super::Space { mask, domain, offset, low_odd: super::Space::low_odd(mask) };
            let flags = space.rare_type_word(heap, word);
            for bit in 0..64 {
                prop_assert_eq!(flags >> bit & 1 == 1, space.rare_type(heap, word * 64 + bit), "value {}", word * 64 + bit);
            }
        }
    }

    /// A heap whose every value below the bound (1024, the largest the one-pass search takes)
    /// is an option has the bound for mex: the word-at-a-time gathering of its candidates
    /// reaches the word past the last one the wanted set holds, with nothing to add there.
    #[test]
    fn every_value_below_the_largest_bound_marked_gives_the_bound() {
        use super::{Space, WANTED_BOUND, mex_by_one_pass};
        let mut marks = vec![1u8; WANTED_BOUND + 1];
        marks[WANTED_BOUND] = 0;
        let values = vec![0u16; 10];
        for mask in [1, 0b1_1000_0001, 1023] {
            let space = Space { mask, domain: false, offset: 0, low_odd: Space::low_odd(mask) };
            assert_eq!(mex_by_one_pass(&values, &[], &[], space, 9, 0, &marks[..]), (WANTED_BOUND as u32, 0));
        }
    }

    /// A heap's marks in one word ([`super::Bits`]) give the value a byte a value gives, and the
    /// definition's, with every split with a rare part marked by the heap itself: the path the
    /// release kernel takes for 0.16, which the unit tests' chunking (always on in tests) skips.
    #[test]
    fn marks_in_a_word_agree_with_a_byte_a_value() {
        use super::super::{Kernel, TakeBreakMoves, definition_sequence};
        use super::{Bits, Enumeration, PairSets, Prefix, Tables, heap_value};
        let games = [
            // 0.16, Kayles (0.77), Dawson's Kayles (0.07), 0.137, Grundy's game.
            TakeBreakMoves::new(vec![1], vec![2], vec![2], false, vec![]),
            TakeBreakMoves::new(vec![1, 2], vec![1, 2], vec![1, 2], false, vec![]),
            TakeBreakMoves::new(vec![2], vec![2], vec![2], false, vec![]),
            TakeBreakMoves::new(vec![1], vec![2], vec![2, 3], false, vec![]),
            TakeBreakMoves::grundys_game(),
        ];
        for moves in &games {
            let mut expected = definition_sequence(moves, 1500);
            // The prefix whose values fit one word.
            expected.truncate(expected.iter().position(|&value| value >= 64).unwrap_or(expected.len()));
            assert!(expected.len() >= 200, "a long enough prefix for {moves:?}");
            let cells: Vec<u8> = expected.iter().map(|&value| value as u8).collect();
            let tables = Tables::build(cells.clone(), cells.len(), moves, Kernel::RareValue);
            assert!(tables.sparse.active, "the rare-value kernel runs for {moves:?}");
            let bound = (tables.largest as usize + 1).next_power_of_two();
            assert!(bound <= Bits::BOUND);
            let (mut segments, mut prefix) = (Vec::new(), Prefix::new());
            for (heap, &value) in expected.iter().enumerate().skip(1) {
                let (sparse, pair_sets) = (&tables.sparse, &PairSets::default());
                // The same call with each kind of marks (a closure cannot be generic over them).
                macro_rules! value_with {
                    ($marks:expr) => {
                        heap_value(
                            moves,
                            heap,
                            &cells,
                            &[],
                            sparse,
                            Enumeration::Full,
                            pair_sets,
                            $marks,
                            &mut segments,
                            &mut prefix,
                        )
                    };
                }
                let in_a_word = value_with!(&mut Bits::default());
                let byte_a_value = value_with!(&mut vec![0u8; bound + 1][..]);
                assert_eq!((in_a_word, byte_a_value), (value, value), "heap {heap} of {moves:?}");
            }
        }
    }
}
