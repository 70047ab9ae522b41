//! The plain and rare-value kernels (see the module above for the method and its sources).

mod marking;
mod wanted;

use super::{CompactSequence, Kernel, TakeBreakMoves};
use crate::control::Control;
use marking::*;
use std::ops::BitXor;
use wanted::{WANTED_BOUND, Wanted, drain_is_vectorized, drain_wanted};

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
    threads: usize,
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
        if self.threads > 1 {
            text.push_str(&format!(", {} threads", self.threads));
        }
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

/// Pairs marked one by one before candidates are searched for with the vectorized scan.
const PREFIX_PAIRS: usize = 32;
/// A hit this close to the frontier of the marked splits marks everything up to it (later
/// candidates are then found without a scan); a farther one marks only the value found. The
/// bulk pass, which searches from the first splits with both parts known for every rare-type
/// value below the first common-type one left (and the heaps after it), gains from a long
/// reach; the heaps computed without a bulk, from a short one (measured, on one thread: 64
/// rather than 256 made 0.16 13% and .354 10% faster; with the bulk, 256 rather than 64 made
/// 0.6 20% faster).
const LOCAL_HIT: usize = 64;
/// [`LOCAL_HIT`] in the bulk pass.
const BULK_LOCAL_HIT: usize = 256;
/// Heaps computed together: the cancel flag and progress are looked at between blocks, the
/// mask is chosen again only there, and the rare-value kernel prepares a block's bulk
/// ([`bulk_rare_marks`]) on both threads. Measured (0.6 to 10^6, Grundy's game to 2^21, both
/// cores free): 1024 was 15–20% faster than 256 (fewer hand-overs between the threads, and a
/// shorter tail where one thread waits for the other's last chunk); 128 was 20% slower, 2048
/// no better. A bulk holds a block's rows of `bound + 1` flags (0.5 MB for 0.6). The unit
/// tests use 256, so that their sequences of a few thousand heaps cross many blocks.
const BLOCK: usize = if cfg!(test) { 256 } else { 1024 };
/// The rare-value kernel prepares bulks on both threads only when each heap has at least this
/// many splits with a rare part: below it, waking the second thread for every block costs more
/// than it saves (measured with the bulk searching the splits too: .354, 262 such splits a
/// heap, nearly all with a part below 512 and so left to the fix-up, took 2.7 times the CPU
/// time; 0.16, 52 a heap, 1.8 times the wall time). The unit tests prepare bulks always.
const PARALLEL_RARE_SPLITS: usize = if cfg!(test) { 1 } else { 1024 };

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
}

impl Space {
    #[inline(always)]
    fn rare_type(self, heap: usize, value: u32) -> bool {
        ((value & self.mask).count_ones() & 1 == 1) == (self.domain && (heap + self.offset) & 1 == 1)
    }
}

impl<T: Cell> Sparse<T> {
    fn space(&self) -> Space {
        Space { mask: self.mask, domain: self.domain, offset: self.offset }
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
        self.active = kernel == Kernel::RareValue || rare * 12 < n;
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
    /// The last `a` the next search looks at (`high`, or less to search a part of the splits).
    end: usize,
}

impl Segment {
    /// The splits into two of `heap` tokens, one segment for each `k` of `leave_two` that leaves
    /// at least one split (`m = heap − k`, `a ≤ m / 2`, or `a < m / 2` when the parts must
    /// differ), none marked yet.
    fn of_heap(moves: &TakeBreakMoves, heap: usize) -> impl Iterator<Item = Segment> + '_ {
        moves.leave_two.iter().filter_map(move |&k| {
            let m = heap.checked_sub(k)?;
            let high = if moves.unequal_parts { m.saturating_sub(1) / 2 } else { m / 2 };
            (high >= 1).then_some(Segment { m, high, frontier: 1, end: high })
        })
    }
}

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
        for (&small, &large) in forward.iter().zip(backward.iter().rev()) {
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
pub(super) struct Bits(u64);

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

/// A heap's marks, one byte a value, kept between heaps for their allocation.
struct Marks {
    seen: Vec<u8>,
}

/// The smallest value neither marked in `seen` nor flagged in `rare_type`, eight flags at a time
/// (the last entry is neither).
fn first_unmarked_common(seen: &[u8], rare_type: &[u8]) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut at = 0;
    while let (Some(seen_bytes), Some(rare_bytes)) = (seen.get(at..at + 8), rare_type.get(at..at + 8)) {
        let word = u64::from_le_bytes(seen_bytes.try_into().expect("eight bytes"))
            | u64::from_le_bytes(rare_bytes.try_into().expect("eight bytes"));
        if word != ONES {
            return (at + ((!word & ONES).trailing_zeros() / 8) as usize) as u32;
        }
        at += 8;
    }
    let rest = seen[at..].iter().zip(&rare_type[at..]).position(|(&seen, &rare)| seen | rare == 0);
    (at + rest.expect("the last entry is neither marked nor rare")) as u32
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
    let Tables { values, described, largest, sparse, pair_sets, .. } = tables;
    let mut marks = Marks { seen: Vec::new() };
    let mut segments: Vec<Segment> = Vec::with_capacity(moves.leave_two.len());
    let mut block_start = start;
    let mut prepared: Option<Prepared> = None;
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
        let bound = (*largest as usize + 1).next_power_of_two();
        // The bulk of the rare-value kernel's work, prepared on both threads. The pool is asked
        // for its size only here: asking starts it, a thread per logical CPU, which costs a
        // single-threaded run (0.16, every plain-mex game) milliseconds on a many-core machine.
        let parallel = sparse.active
            && block_end - block_start == BLOCK
            && sparse.positions.len() * moves.leave_two.len() >= PARALLEL_RARE_SPLITS
            && {
                report.threads = crate::parallel::current_num_threads();
                report.threads > 1
            };
        let space = sparse.space();
        // Marked during the last block from the values below it (if the sparse space is the
        // same), or now on both threads.
        let (bulk, known_below, bulk_bound) = match prepared.take() {
            Some(ready) if parallel && ready.block_start == block_start && ready.space == space => {
                (ready.bulk, ready.known_below, ready.bound)
            }
            _ if parallel => {
                let bulk = bulk_rare_marks(moves, values, sparse.list(), space, block_start..block_end, bound);
                (bulk, block_start, bound)
            }
            _ => (BulkRows::default(), block_start, bound),
        };
        let bulk = parallel.then_some(Bulk {
            rows: &bulk.flags,
            absent_from_known: &bulk.absent_from_known,
            known_below,
            bound: bulk_bound,
        });
        let next_end = (block_end + BLOCK).min(len);
        // The pipeline: the next block's bulk from the values below this block, on the other
        // thread (and on this one once this block is done), while this thread computes this
        // block (the splits whose other part lies in this block are left to the next block's
        // fix-up).
        let pipeline = (parallel && next_end - block_end == BLOCK).then(|| {
            // The invariant the shared prefix rests on, checked in every build (once a block):
            // the prefix is initialized, and every push until `known` is dropped (up to
            // `next_end ≤ len`) stays within the capacity, so the buffer never moves.
            assert!(
                block_start <= values.len() && values.capacity() >= len,
                "the shared prefix must be initialized and the table reserved to {len}"
            );
            // SAFETY: by the assertion, the values below `block_start` are initialized and are
            // not written or moved while `known` lives (only pushed after them, within the
            // capacity): the other thread only reads them.
            let known: &[T] = unsafe { std::slice::from_raw_parts(values.as_ptr(), block_start) };
            (known, sparse.positions.clone(), sparse.values.clone())
        });
        let mut compute = || {
            compute_block(
                moves,
                block_start..block_end,
                bulk,
                report,
                values,
                described,
                largest,
                sparse,
                pair_sets,
                &mut marks,
                &mut segments,
            )
        };
        let stop = match pipeline {
            Some((known, positions, rares)) => {
                let list = RareList { positions: &positions, values: &rares };
                let (next_bulk, stop) = crate::parallel::join(
                    || bulk_rare_marks(moves, known, list, space, block_end..next_end, bound),
                    compute,
                );
                prepared =
                    Some(Prepared { bulk: next_bulk, block_start: block_end, known_below: block_start, bound, space });
                stop
            }
            None => compute(),
        };
        if let Some(stop) = stop {
            return stop;
        }
        report.sparse = sparse.active.then_some((sparse.mask, sparse.domain, sparse.positions.len()));
        block_start = block_end;
    }
    task.set(len as u64);
    Stop::Reached
}

/// What [`bulk_rare_marks`] finds for each heap of a block from the splits whose parts are
/// both known.
#[derive(Default)]
struct BulkRows {
    /// A row of `bound + 1` flags a heap: the values of those splits found so far.
    flags: Vec<u8>,
    /// A heap's one rare-type value below its first unmarked common-type value that no such
    /// split gives, if any (`u32::MAX` if none): only a split with a part not yet known may
    /// still give it.
    absent_from_known: Vec<u32>,
}

/// A block's [`BulkRows`], from the splits whose parts are both below `known_below`.
#[derive(Clone, Copy)]
struct Bulk<'a> {
    rows: &'a [u8],
    absent_from_known: &'a [u32],
    known_below: usize,
    bound: usize,
}

/// The bulk of the block from `block_start`, prepared while the block before was computed.
struct Prepared {
    bulk: BulkRows,
    block_start: usize,
    known_below: usize,
    bound: usize,
    /// The sparse space it was marked in.
    space: Space,
}

/// Computes the heaps of `block` (with its bulk marks, if any) and appends them; `Some` when the
/// run must stop (a value that does not fit the cells).
#[allow(clippy::too_many_arguments)]
fn compute_block<T: Cell>(
    moves: &TakeBreakMoves,
    block: std::ops::Range<usize>,
    bulk: Option<Bulk<'_>>,
    report: &mut Report,
    values: &mut Vec<T>,
    described: &mut usize,
    largest: &mut u32,
    sparse: &mut Sparse<T>,
    pair_sets: &mut PairSets,
    marks: &mut Marks,
    segments: &mut Vec<Segment>,
) -> Option<Stop> {
    let (block_start, block_end) = (block.start, block.end);
    // Without a bulk, the splits with a rare part whose parts are both below a chunk of
    // `ACROSS_ROWS` heaps are marked for the whole chunk first, across its rows (each rare
    // heap's partners lie next to each other), and only the rest heap by heap: in rows of
    // words while the values are below 64, else of bytes. (The unit tests, which chunk always,
    // take words only every other block, so that both kinds of rows meet small values.)
    let rare_splits = sparse.positions.len() * moves.leave_two.len();
    let by_rows = bulk.is_none() && sparse.active && moves.leave_three.is_empty();
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
        // Small values with the splits marked here or in a chunk of words (no bulk, no chunk of
        // byte rows): the marks fit one word.
        let in_a_word = bulk.is_none() && !chunked && moves.leave_three.is_empty() && bound_now <= Bits::BOUND;
        if !in_a_word {
            marks.seen.clear();
            marks.seen.resize(bound_now + 1, 0);
        }
        let enumeration = match bulk {
            Some(bulk) => {
                // The bulk's bound is at most this one (the largest value only grows), and its
                // last flag is 0: no xor of values below it reaches it.
                let row = &bulk.rows[(heap - block_start) * (bulk.bound + 1)..][..bulk.bound + 1];
                marks.seen[..=bulk.bound].copy_from_slice(row);
                Enumeration::Fixup {
                    known_below: bulk.known_below,
                    absent_from_known: bulk.absent_from_known[heap - block_start],
                    prefix_marked: true,
                }
            }
            None if chunked => {
                if (heap - block_start) % ACROSS_ROWS == 0 {
                    let (width, count) = (bound_now + 1, ACROSS_ROWS.min(block_end - heap));
                    chunk.start = heap;
                    chunk.bound = bound_now;
                    chunk.rows.clear();
                    chunk.rows.resize(count * width, 0);
                    mark_rare_rows(moves, sparse.list(), &values[..heap], heap, &mut chunk.rows, width);
                }
                let width = chunk.bound + 1;
                marks.seen[..width].copy_from_slice(&chunk.rows[(heap - chunk.start) * width..][..width]);
                Enumeration::Fixup { known_below: chunk.start, absent_from_known: u32::MAX, prefix_marked: false }
            }
            None if words.active => {
                if !in_a_word {
                    // A value reached 64 within the chunk: the row's marks as bytes.
                    let mut word = words.rows[heap - words.first_heap].0;
                    while word != 0 {
                        marks.seen[word.trailing_zeros() as usize] = 1;
                        word &= word - 1;
                    }
                }
                Enumeration::Except { marked_from: words.marked.start, marked_to: words.marked.end }
            }
            None => Enumeration::Full,
        };
        let value = if in_a_word {
            let mut bits = if words.active { words.rows[heap - words.first_heap] } else { Bits::default() };
            heap_value(moves, heap, values, sparse, enumeration, pair_sets, &mut bits, segments)
        } else {
            heap_value(moves, heap, values, sparse, enumeration, pair_sets, &mut marks.seen[..], segments)
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
    /// increasing order, the heaps with `G(a) >> 6 = q`. A part `a` read for the candidates of
    /// word `w` reads word `w ^ q` of its pair set; [`mark_three_way_word`] takes the parts
    /// a word `q` at a time, in the order of that row.
    by_word: Vec<Vec<u32>>,
}

impl PairSets {
    /// Word `word` of `P(sum)`.
    #[inline(always)]
    fn word(&self, word: usize, sum: usize) -> u64 {
        self.rows.get(word).map_or(0, |row| row[sum])
    }
}

/// Stores `P(s)` for every `s < heap`.
fn extend_pair_sets<T: Cell>(values: &[T], pair_sets: &mut PairSets, heap: usize) {
    let mut set: Vec<u64> = Vec::new();
    while pair_sets.len < heap {
        let s = pair_sets.len;
        if s > 0 {
            pair_sets.largest = pair_sets.largest.max(values[s - 1].to_u32());
        }
        // Every xor of values below a power of two is below it.
        let words = (pair_sets.largest as usize + 1).next_power_of_two().div_ceil(64);
        set.clear();
        set.resize(words, 0);
        for b in 1..=s / 2 {
            let value = (values[b] ^ values[s - b]).to_u32();
            set[(value >> 6) as usize] |= 1 << (value & 63);
        }
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
            pair_sets.by_word[word].push(s as u32);
        }
        pair_sets.len += 1;
    }
}

/// `word` with bit `i` moved to bit `i ^ shuffle` (`shuffle < 64`): for each set bit `j` of
/// `shuffle`, the blocks of `2^j` bits swap with their neighbours.
#[inline(always)]
fn xor_permute(mut word: u64, shuffle: u32) -> u64 {
    // Branch-free (the shuffles come from the values, in no predictable order): a delta swap
    // per bit of `shuffle`, with the mask of that bit's blocks, or 0 when the bit is clear,
    // read from a table (a load instead of computing an all-ones or all-zeros selector: the
    // three-way kernel permutes a word for most parts it reads).
    let masks = &SWAP_MASKS[(shuffle & 63) as usize];
    for (bit, &mask) in masks.iter().enumerate() {
        let delta = ((word >> (1 << bit)) ^ word) & mask;
        word ^= delta | (delta << (1 << bit));
    }
    word
}

/// `SWAP_MASKS[shuffle][j]`: the low halves of the blocks of `2^(j+1)` bits when bit `j` of
/// `shuffle` is set, else 0 (see [`xor_permute`]).
static SWAP_MASKS: [[u64; 6]; 64] = {
    const LOW_HALVES: [u64; 6] = [
        0x5555_5555_5555_5555,
        0x3333_3333_3333_3333,
        0x0F0F_0F0F_0F0F_0F0F,
        0x00FF_00FF_00FF_00FF,
        0x0000_FFFF_0000_FFFF,
        0x0000_0000_FFFF_FFFF,
    ];
    let mut masks = [[0; 6]; 64];
    let mut shuffle = 0;
    while shuffle < 64 {
        let mut bit = 0;
        while bit < 6 {
            if shuffle >> bit & 1 == 1 {
                masks[shuffle][bit] = LOW_HALVES[bit];
            }
            bit += 1;
        }
        shuffle += 1;
    }
    masks
};

/// Marks the values `64·word … 64·word + 63` that some split of `heap` into three gives: the
/// three-way kernel. A split `a + b + c = m` (`a` the smallest part, so `a ≤ m / 3`) is worth
/// `G(a) ^ x` for `x` in the pair set of `m − a`; so candidate `v` is an option when bit
/// `v ^ G(a)` of `P(m − a)` is set for some `a`. For 64 candidates at once that is word
/// `word ^ (G(a) >> 6)` of the pair set with its bits permuted by `G(a) & 63`: one word a part,
/// `O(n)` a word of candidates instead of `O(n²)` triples. The scan stops as soon as every
/// candidate of the word not already marked (by a one- or two-heap option) is found.
fn mark_three_way_word<T: Cell, S: Seen + ?Sized>(
    moves: &TakeBreakMoves,
    heap: usize,
    values: &[T],
    pair_sets: &PairSets,
    word: u32,
    marks: &mut S,
) {
    // The candidates of the word still unmarked.
    let missing = marks.missing_in_word(word);
    // The first `DIRECT` parts are permuted as they are read (a word of candidates is usually
    // done within them, and the scan checks after each part with a value); past them, the
    // pair-set words read are gathered by the low six bits `l` of `G(a)` (64 accumulators, a
    // load and an or a part) and permuted once per `l` every 1024 parts: a long scan (the word
    // holding the mex is read to the end) permutes at most 64 words per 1024 parts.
    const DIRECT: usize = 512;
    let mut gathered = [0u64; 64];
    let mut touched = 0u64;
    let mut found = 0u64;
    let flush = |gathered: &mut [u64; 64], touched: &mut u64, found: &mut u64| {
        while *touched != 0 {
            let low = touched.trailing_zeros();
            *found |= xor_permute(gathered[low as usize], low);
            gathered[low as usize] = 0;
            *touched &= *touched - 1;
        }
    };
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
        let Some(parts) = by_word.get(word as usize ^ row) else {
            continue;
        };
        for &k in &moves.leave_three {
            if heap < k + 3 {
                continue;
            }
            let m = heap - k;
            let last_part = if row == 0 { m - 2 } else { m / 3 };
            for &a in parts {
                let a = a as usize;
                if a > last_part {
                    break;
                }
                let low = values[a].to_u32() & 63;
                let bits = pair_sets.word(row, m - a);
                read += 1;
                if read <= DIRECT {
                    if bits != 0 {
                        found |= xor_permute(bits, low);
                        if found & missing == missing {
                            break 'splits;
                        }
                    }
                    continue;
                }
                gathered[low as usize] |= bits;
                touched |= 1 << low;
                if (read - DIRECT).is_multiple_of(1024) {
                    flush(&mut gathered, &mut touched, &mut found);
                    if found & missing == missing {
                        break 'splits;
                    }
                }
            }
        }
    }
    flush(&mut gathered, &mut touched, &mut found);
    let mut hits = found & missing;
    while hits != 0 {
        marks.mark(word * 64 + hits.trailing_zeros());
        hits &= hits - 1;
    }
}

#[allow(clippy::too_many_arguments)]
fn heap_value<T: Cell, S: Seen + ?Sized>(
    moves: &TakeBreakMoves,
    heap: usize,
    values: &[T],
    sparse: &Sparse<T>,
    enumeration: Enumeration,
    pair_sets: &PairSets,
    marks: &mut S,
    segments: &mut Vec<Segment>,
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
                Enumeration::Fixup { known_below, .. } => {
                    // The bulk marked the rare parts p with m - p below `known_below`; here the
                    // rest: p ≤ m - known_below (the other part not known then: each such p is
                    // below m when known_below > 0), and the rare heaps found since.
                    let small = positions.partition_point(|&position| (position as usize) + known_below <= m);
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
    // A block's bulk pass marked a first stretch of splits already.
    let bulk_fixup = matches!(enumeration, Enumeration::Fixup { prefix_marked: true, .. });
    let mut prefix_marked = bulk_fixup;
    // Marks are only added, so the smallest unmarked value never goes down.
    let mut candidate = 0;
    // The words of 64 candidates whose three-way splits are marked.
    let mut three_way_done: Vec<u32> = Vec::new();
    loop {
        candidate = marks.first_missing(candidate);
        if !moves.leave_three.is_empty() {
            // Three-way splits are decided 64 candidates at a time, and only once a candidate
            // in a word is missing from every one- and two-heap option (all marked first).
            // The last entry of `seen` is above every xor of values: never an option.
            if (candidate as usize) < marks.len() - 1 && !three_way_done.contains(&(candidate / 64)) {
                if !prefix_marked {
                    prefix_marked = true;
                    for segment in segments.iter_mut() {
                        mark_pairs(values, segment.m, segment.frontier, segment.high, marks);
                        segment.frontier = segment.high + 1;
                    }
                    continue;
                }
                three_way_done.push(candidate / 64);
                mark_three_way_word(moves, heap, values, pair_sets, candidate / 64, marks);
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
                let end = segment.high.min(PREFIX_PAIRS);
                mark_pairs(values, segment.m, segment.frontier, end, marks);
                segment.frontier = end + 1;
            }
            continue;
        }
        // A rare-type candidate: a split of two common-type parts may give it. Without a bulk,
        // every rare-type candidate below the first common-type value left unmarked is searched
        // for in one pass over the splits (the mex is that value or the smallest candidate no
        // split gives). Not for the plain kernel: with no common type, every value up to the
        // bound would be wanted, most of them given by no split, and the pass (whose test
        // folds values onto their low byte) would read to the end with a false hit in nearly
        // every lane (0.6's plain heaps took 2.5 times the instructions).
        if sparse.active && !bulk_fixup && marks.len() <= WANTED_BOUND + 1 && drain_is_vectorized::<T>() {
            return mex_by_one_pass(values, segments, sparse.space(), heap, candidate, marks);
        }
        // Where the bulk pass searched the splits with both parts known and did not find it,
        // only the splits with a part not yet known then are left: `a ≤ m − known_below`.
        if let Enumeration::Fixup { known_below, absent_from_known, .. } = enumeration {
            let only_unknown = candidate == absent_from_known;
            for segment in segments.iter_mut() {
                segment.end =
                    if only_unknown { segment.high.min(segment.m.saturating_sub(known_below)) } else { segment.high };
            }
        }
        let local_hit = if bulk_fixup { BULK_LOCAL_HIT } else { LOCAL_HIT };
        if !find_in_segments(values, segments, T::from_u32(candidate), marks, local_hit) {
            return candidate;
        }
    }
}

/// The mex of a heap whose splits with a rare part and first pairs are marked in `marks`, from
/// `from` (the smallest unmarked value, of the rare type): the unmarked values from `from` up
/// to the first common-type value unmarked (which no split of two common-type parts can give:
/// every common-type value a split gives is marked) are wanted; one pass over the unmarked splits of every segment removes those that some split
/// gives. Exactly what one search a candidate gives: the smallest value left, else the
/// common-type one.
fn mex_by_one_pass<T: Cell, S: Seen + ?Sized>(
    values: &[T],
    segments: &[Segment],
    space: Space,
    heap: usize,
    from: u32,
    marks: &S,
) -> u32 {
    // No xor of two cells exceeds `T::MAX`, and the bound (the last entry) is never marked.
    let limit = (marks.len() as u32 - 1).min(T::MAX.saturating_add(1));
    let mut wanted = Wanted::new();
    let mut value = from;
    let stop = loop {
        value = marks.first_missing(value);
        if value >= limit || !space.rare_type(heap, value) {
            break value;
        }
        wanted.insert(value);
        value += 1;
    };
    for segment in segments {
        if wanted.is_empty() {
            break;
        }
        let (lo, end) = (segment.frontier, segment.end);
        if lo <= end {
            drain_wanted(&values[lo..=end], &values[segment.m - end..=segment.m - lo], &mut wanted);
        }
    }
    wanted.smallest().unwrap_or(stop)
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
        if lo > segment.end {
            continue;
        }
        let forward = &values[lo..=segment.end];
        let backward = &values[segment.m - segment.end..=segment.m - lo];
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
    use super::{
        ACROSS_ROWS, Cell, TARGETS, find_xor_any, find_xor_any_portable, mark_across_rows_portable, xor_permute,
    };
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    /// The three-way kernel's long scans, against the textbook loop: the parts taken a word of
    /// values at a time (`by_word`), the first 512 permuted one by one and the rest gathered
    /// and permuted every 1024 parts (0.8F to 2600: two removals with three parts, more than
    /// 1536 parts read for the word holding the mex from about heap 2306 on, values reaching
    /// 1485, 24 words; 0.9: one such removal, values reaching 838), and values that stay in one
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

    /// A heap's marks in one word ([`super::Bits`]) give the value a byte a value gives, and the
    /// definition's, with every split with a rare part marked by the heap itself: the path the
    /// release kernel takes for 0.16, which the unit tests' chunking (always on in tests) skips.
    #[test]
    fn marks_in_a_word_agree_with_a_byte_a_value() {
        use super::super::{Kernel, TakeBreakMoves, definition_sequence};
        use super::{Bits, Enumeration, PairSets, Tables, heap_value};
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
            let mut segments = Vec::new();
            for (heap, &value) in expected.iter().enumerate().skip(1) {
                let (sparse, pair_sets) = (&tables.sparse, &PairSets::default());
                let mut bits = Bits::default();
                let in_a_word =
                    heap_value(moves, heap, &cells, sparse, Enumeration::Full, pair_sets, &mut bits, &mut segments);
                let mut bytes = vec![0u8; bound + 1];
                let byte_a_value = heap_value(
                    moves,
                    heap,
                    &cells,
                    sparse,
                    Enumeration::Full,
                    pair_sets,
                    &mut bytes[..],
                    &mut segments,
                );
                assert_eq!((in_a_word, byte_a_value), (value, value), "heap {heap} of {moves:?}");
            }
        }
    }

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
    fn across_rows_agree<T: Cell>(
        cells: &[u32],
        rare_heaps: &BTreeSet<u32>,
        rare_values: &[u32],
    ) -> Result<(), TestCaseError> {
        let known: Vec<T> = cells.iter().map(|&value| T::from_u32(value)).collect();
        let positions: Vec<u32> = rare_heaps.iter().copied().collect();
        let rares: Vec<T> = positions.iter().zip(rare_values).map(|(_, &value)| T::from_u32(value)).collect();
        let (width, m_first) = (65, 60);
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

    proptest! {
        /// The missing values of a word of byte marks, read eight at a time, against one by one
        /// (a word cut by the bound included).
        #[test]
        fn missing_in_a_word_of_bytes_agrees_with_one_by_one(
            marks in proptest::collection::vec(0u8..=1, 1..300),
            word in 0u32..5,
        ) {
            use super::Seen;
            let base = word as usize * 64;
            let expected = (0..64)
                .filter(|&bit| marks.get(base + bit) == Some(&0))
                .fold(0u64, |missing, bit| missing | 1 << bit);
            prop_assume!(base < marks.len());
            prop_assert_eq!(marks[..].missing_in_word(word), expected);
        }

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

        /// The vectorized marking across rows against the portable one, for every cell width.
        #[test]
        fn marking_across_rows_agrees(
            cells in proptest::collection::vec(0u32..64, 100..300),
            rare_heaps in proptest::collection::btree_set(1u32..60, 0..20),
            rare_values in proptest::collection::vec(0u32..64, 20),
        ) {
            across_rows_agree::<u8>(&cells, &rare_heaps, &rare_values)?;
            across_rows_agree::<u16>(&cells, &rare_heaps, &rare_values)?;
            across_rows_agree::<u32>(&cells, &rare_heaps, &rare_values)?;
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

        /// Bit `i` of the word lands on bit `i ^ shuffle`, for every bit.
        #[test]
        fn xor_permute_moves_each_bit_to_its_xor(word: u64, shuffle in 0u32..64) {
            let permuted = xor_permute(word, shuffle);
            for bit in 0..64 {
                prop_assert_eq!(permuted >> (bit ^ shuffle) & 1, word >> bit & 1);
            }
        }
    }
}
