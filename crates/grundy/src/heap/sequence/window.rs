//! Grundy's game in memory bounded by what the rare-value proof reads, not by the number of
//! heaps: the rare heaps' values, the first `prefix` values and a sliding window of the last
//! `window` values.
//!
//! **Why this is exact.** A split `a + b = n` (`a ≠ b`) is worth `G(a) ^ G(b)`. Call a value
//! *rare* when its bits other than the lowest have an even number of ones (the sparse space of
//! Grundy's game: Flammenkamp, “Sprague-Grundy Values of Grundy's Game”, 1287 rare values below
//! 2^30; *Winning Ways* ch. 4, “Sparse Space Spells Speed”). That parity is linear under xor,
//! so a *common* value (odd parity) comes only from a split with exactly one rare part. Marking
//! the splits `r + (n − r)` for every rare heap `r` therefore decides every common value; a
//! rare candidate below the smallest common value left is searched for among the splits
//! `a + (n − a)`, `a = 1, 2, …`, and is almost always found among the first few (when the
//! small parts run past the first values kept, the search goes on from `a = n/2` down, while
//! both parts are among the last values kept). So `G(n)` reads `G(n − r)` for the rare heaps
//! `r` (all below 48 399 022 as far as anyone has computed), `G(a)` and `G(n − a)` for small
//! `a`: the first values, the last ones, and the rare list. Anything else is refused ([`GameError::OutOfReach`], naming the sizes to raise),
//! never guessed: if a rare heap ever appears so late that its partners fall between the
//! prefix and the window, the run stops and says so.
//!
//! The run keeps a running checksum of every value (so that two runs, or a run and the
//! engine's full table, can be compared without the table), the rare heaps and the largest
//! value, and saves and resumes through [`WindowedGrundy::write_state`] /
//! [`WindowedGrundy::read_state`] (the front end writes the bytes atomically).

use super::kernel::{ACROSS_ROWS, WANTED_BOUND, Wanted, drain_is_vectorized, drain_wanted, mark_across_rows};
use crate::control::Control;
use crate::error::GameError;
use std::io::{Read, Write};

/// The first line of a saved state.
pub const STATE_MAGIC: &str = "grundy-window 1";

/// The heaps a state's sizes default to (`prefix` and `window`): 2^28 values, 512 MiB each at
/// two bytes a value, so a run needs about 1 GiB whatever its length, and a rare heap up to
/// 2^28 (more than five times the last one known) keeps every partner in reach.
pub const DEFAULT_SPAN: u64 = 1 << 28;

/// A running checksum of values fed one at a time (multiply–xorshift; detects differences, not
/// tampering).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueChecksum(u64);

impl Default for ValueChecksum {
    fn default() -> Self {
        ValueChecksum(0x243f_6a88_85a3_08d3)
    }
}

impl ValueChecksum {
    /// Feeds the next value.
    #[inline(always)]
    pub fn feed(&mut self, value: u32) {
        self.0 = (self.0 ^ u64::from(value)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 ^= self.0 >> 29;
    }

    /// The checksum of the values fed so far.
    pub fn value(self) -> u64 {
        self.0
    }

    /// The checksum of `values` in order.
    pub fn of(values: impl IntoIterator<Item = u32>) -> u64 {
        let mut checksum = ValueChecksum::default();
        values.into_iter().for_each(|value| checksum.feed(value));
        checksum.value()
    }
}

/// Whether a value of Grundy's game is rare: its bits other than the lowest have even parity.
#[inline(always)]
pub fn is_rare_value(value: u32) -> bool {
    (value >> 1).count_ones() & 1 == 0
}

/// A bounded-memory run of Grundy's game (see the module documentation).
///
/// ```
/// use grundy::heap::sequence::window::{ValueChecksum, WindowedGrundy};
/// use grundy::heap::sequence::{TakeBreakMoves, definition_sequence};
/// // The first 1500 values kept and a window of the last 2048: a new rare value may need
/// // every split, so each must cover half the heap.
/// let mut run = WindowedGrundy::new(1500, 2048).unwrap();
/// let mut streamed = Vec::new();
/// run.extend_to(3000, &mut |_, value| streamed.push(value), &|| false).unwrap();
/// let expected = definition_sequence(&TakeBreakMoves::grundys_game(), 3000);
/// assert_eq!(streamed, expected);
/// assert_eq!(run.checksum(), ValueChecksum::of(expected));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WindowedGrundy {
    /// How many values are computed: `G(0) … G(next − 1)`.
    next: u64,
    /// The first values kept, up to `prefix_len` of them.
    prefix: Vec<u16>,
    prefix_len: u64,
    /// `G(n)` at `n mod window_len` for the last `window_len` heaps at or past `prefix_len`.
    window: Vec<u16>,
    window_len: u64,
    /// The rare heaps past 0, increasing, and their values.
    rare_heaps: Vec<u64>,
    rare_values: Vec<u16>,
    /// The largest value and the first heap that has it.
    largest: (u16, u64),
    checksum: ValueChecksum,
    scratch: Scratch,
}

/// Heaps computed together where [`WindowedGrundy::mark_chunk`] applies.
const CHUNK: u64 = ACROSS_ROWS as u64;

/// Working memory of the computation, not part of a run's state (runs compare equal whatever
/// it holds).
#[derive(Clone, Debug, Default)]
struct Scratch {
    /// `seen[v] != 0`: value `v` is an option of the heap being computed.
    seen: Vec<u8>,
    /// A chunk's rows of flags ([`WindowedGrundy::mark_chunk`]).
    rows: Vec<u8>,
    /// The rare heaps as the kernel's marking across rows takes them (32 bits each), kept in
    /// step with [`WindowedGrundy::rare_heaps`] by [`WindowedGrundy::mark_chunk`].
    rare_positions: Vec<u32>,
}

impl PartialEq for Scratch {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Scratch {}

/// Why a value is out of this run's reach, for the error.
fn out_of_reach(heap: u64, needed: u64, run: &WindowedGrundy) -> GameError {
    GameError::OutOfReach(format!(
        "G({heap}) needs G({needed}), which is neither among the first {} values kept nor among the last {}: \
         rerun with a longer prefix or window",
        run.prefix_len, run.window_len
    ))
}

impl WindowedGrundy {
    /// A run from heap 0 keeping the first `prefix_len` values and the last `window_len` (a
    /// power of two, at least 2).
    ///
    /// # Errors
    /// [`GameError::Unsupported`] for a window that is not a power of two of at least 2.
    pub fn new(prefix_len: u64, window_len: u64) -> Result<Self, GameError> {
        if window_len < 2 || !window_len.is_power_of_two() {
            return Err(GameError::Unsupported(format!(
                "the window ({window_len}) must be a power of two, at least 2"
            )));
        }
        Ok(WindowedGrundy {
            next: 0,
            prefix: Vec::new(),
            prefix_len,
            window: Vec::new(),
            window_len,
            rare_heaps: Vec::new(),
            rare_values: Vec::new(),
            largest: (0, 0),
            checksum: ValueChecksum::default(),
            scratch: Scratch::default(),
        })
    }

    /// How many values are computed.
    pub fn len(&self) -> u64 {
        self.next
    }

    /// Whether no value is computed yet.
    pub fn is_empty(&self) -> bool {
        self.next == 0
    }

    /// The rare heaps computed, heap 0 included (its value 0 is rare), with their values.
    pub fn rare(&self) -> Vec<(u64, u32)> {
        let zero = (self.next > 0).then_some((0, 0));
        zero.into_iter()
            .chain(self.rare_heaps.iter().zip(&self.rare_values).map(|(&heap, &value)| (heap, u32::from(value))))
            .collect()
    }

    /// The largest value so far and the first heap that has it.
    pub fn largest(&self) -> (u32, u64) {
        (u32::from(self.largest.0), self.largest.1)
    }

    /// The checksum of every value computed, in order ([`ValueChecksum`]).
    pub fn checksum(&self) -> u64 {
        self.checksum.value()
    }

    /// How many first values the run keeps, and how many last ones.
    pub fn sizes(&self) -> (u64, u64) {
        (self.prefix_len, self.window_len)
    }

    /// `G(heap)` when the run still keeps it: among the first values kept, or among the last
    /// `window` values computed (every heap of `len − window .. len`).
    ///
    /// ```
    /// use grundy::heap::sequence::window::WindowedGrundy;
    /// let mut run = WindowedGrundy::new(1500, 2048).unwrap();
    /// run.extend_to(3000, &mut |_, _| {}, &|| false).unwrap();
    /// assert_eq!(run.kept_value(3), Some(1));
    /// assert_eq!(run.kept_value(2999), Some(2));
    /// assert_eq!(run.kept_value(3000), None); // not computed
    /// ```
    pub fn kept_value(&self, heap: u64) -> Option<u32> {
        self.get(heap, heap).ok().map(u32::from)
    }

    /// Makes this the run of the first `len` heaps, when the prefix keeps them all (the rare
    /// list, the largest value and the checksum taken again from them); `false`, and nothing
    /// changed, when it does not. A run asked for fewer heaps than a saved state holds answers
    /// with this instead of computing again.
    pub fn truncate(&mut self, len: u64) -> bool {
        if len > self.prefix.len() as u64 {
            return false;
        }
        if len == self.next {
            return true;
        }
        let kept = &self.prefix[..len as usize];
        let rare = self.rare_heaps.partition_point(|&heap| heap < len);
        self.rare_heaps.truncate(rare);
        self.rare_values.truncate(rare);
        self.largest = (0, 0);
        for (heap, &value) in kept.iter().enumerate() {
            if value > self.largest.0 {
                self.largest = (value, heap as u64);
            }
        }
        self.checksum = ValueChecksum::default();
        kept.iter().for_each(|&value| self.checksum.feed(u32::from(value)));
        self.prefix.truncate(len as usize);
        self.window = Vec::new();
        self.next = len;
        true
    }

    /// The bytes the run's tables take once `len` heaps are computed.
    pub fn memory_for(prefix_len: u64, window_len: u64, len: u64) -> u128 {
        let window = if len > prefix_len { window_len } else { 0 };
        2 * u128::from(prefix_len.min(len) + window)
    }

    /// The one memory decision of this run extended to `len` heaps: its tables
    /// ([`WindowedGrundy::memory_for`] its sizes) against the control's limit, before the
    /// window is allocated.
    ///
    /// # Errors
    /// [`GameError::TooLarge`] naming the run.
    pub fn check_memory(&self, len: u64, control: &Control) -> Result<(), GameError> {
        control.check_memory(
            || format!("the bounded run of grundys-game to heap {}", len.saturating_sub(1)),
            Self::memory_for(self.prefix_len, self.window_len, len),
            1,
        )
    }

    /// `G(heap)` for a heap computed and still kept.
    #[inline(always)]
    fn get(&self, heap: u64, asked_by: u64) -> Result<u16, GameError> {
        if heap < self.prefix.len() as u64 {
            Ok(self.prefix[heap as usize])
        } else if heap < self.next && heap >= self.prefix_len && heap + self.window_len >= self.next {
            Ok(self.window[(heap & (self.window_len - 1)) as usize])
        } else {
            Err(out_of_reach(asked_by, heap, self))
        }
    }

    /// Marks, for each heap `start + j` of a chunk of [`CHUNK`] heaps, its splits with a rare
    /// part of at least [`CHUNK`] tokens, in row `j` of `width` flags: their partners
    /// `start + j − r` lie next to each other in the prefix or the window, so each rare heap
    /// costs one short contiguous read for the whole chunk instead of a scattered read a heap.
    /// The caller has checked that every such partner is in the prefix (the chunk's heaps all
    /// go there) or the window, that no such split is into equal parts, and that the rare heaps
    /// fit 32 bits.
    fn mark_chunk(&mut self, start: u64, width: usize) {
        let Scratch { rows, rare_positions, .. } = &mut self.scratch;
        rows.clear();
        rows.resize(CHUNK as usize * width, 0);
        // The rare heaps in 32 bits (a run cut back and recomputed finds the same rare heaps:
        // the sequence is unique; rebuilt anyway if the last differs).
        let synced = rare_positions.len() <= self.rare_heaps.len()
            && rare_positions.last().is_none_or(|&last| u64::from(last) == self.rare_heaps[rare_positions.len() - 1]);
        if !synced {
            rare_positions.clear();
        }
        for &rare in &self.rare_heaps[rare_positions.len()..] {
            // The caller chunks only while every rare heap is within the window (< 2^32 heaps).
            rare_positions.push(u32::try_from(rare).expect("the caller checked: rare heaps fit 32 bits"));
        }
        let index = |heap: usize| self.rare_heaps.partition_point(|&rare| rare < heap as u64);
        let from = index(CHUNK as usize);
        let values = &self.rare_values;
        if start + CHUNK <= self.prefix_len {
            // Every value below `start` is in the prefix, in order.
            let m_first = usize::try_from(start).expect("a heap of the prefix, kept in memory");
            mark_across_rows(&rare_positions[from..], &values[from..], &self.prefix, m_first, rows, width);
            return;
        }
        let window_len = self.window_len as usize;
        let ring = self.window_len - 1;
        // In the ring, the partners `start + j − r` of a rare heap `r` start at `s − r` (when
        // `r ≤ s`) or `s + window_len − r`, `s` the chunk's start in the ring: marked across the
        // rows from the ring itself unless they wrap round its end (`s < r < s + CHUNK`).
        let in_ring = (start & ring) as usize;
        let (below_start, wrapping_end) = (index(in_ring + 1), index(in_ring + CHUNK as usize));
        let below_start = below_start.max(from);
        let wrapping_end = wrapping_end.max(below_start);
        let (positions, window) = (&rare_positions[..], &self.window[..]);
        mark_across_rows(&positions[from..below_start], &values[from..below_start], window, in_ring, rows, width);
        for (&rare, &value) in self.rare_heaps[below_start..wrapping_end].iter().zip(&values[below_start..wrapping_end])
        {
            for (offset, row) in rows.chunks_exact_mut(width).enumerate() {
                let partner = window[((start - rare + offset as u64) & ring) as usize];
                row[usize::from(value ^ partner)] = 1;
            }
        }
        mark_across_rows(
            &positions[wrapping_end..],
            &values[wrapping_end..],
            window,
            in_ring + window_len,
            rows,
            width,
        );
    }

    /// Computes `G(next)`; `chunk` is `(start, width, rare heaps then)` when [`mark_chunk`]
    /// marked its row, at the start of the chunk, for the rare heaps known then.
    ///
    /// [`mark_chunk`]: Self::mark_chunk
    fn next_value(&mut self, chunk: Option<(u64, usize, usize)>) -> Result<u32, GameError> {
        let heap = self.next;
        // Every xor of values below `bound` (a power of two) is below it: the mex is at most
        // `bound`, whose flag stays clear.
        let bound = (usize::from(self.largest.0) + 1).next_power_of_two();
        let mut seen = std::mem::take(&mut self.scratch.seen);
        seen.clear();
        seen.resize(bound + 1, 0);
        // Every split with a rare part: these decide every common value.
        let marked = match chunk {
            Some((start, width, marked)) => {
                // The bound only grows: the row fits.
                seen[..width].copy_from_slice(&self.scratch.rows[(heap - start) as usize * width..][..width]);
                // Left to do: the rare heaps below CHUNK (their partners may lie in the chunk)
                // and those found since the chunk began.
                let small = self.rare_heaps.partition_point(|&rare| rare < CHUNK);
                self.mark_rare_splits(heap, (0..small).chain(marked..self.rare_heaps.len()), &mut seen)
            }
            None => self.mark_rare_splits(heap, 0..self.rare_heaps.len(), &mut seen),
        };
        let value = marked.and_then(|()| self.search_rare_candidates(heap, &mut seen));
        self.scratch.seen = seen;
        value
    }

    /// Marks the splits of `heap` with the rare heaps of index in `indices`, each partner looked
    /// up where it is kept.
    fn mark_rare_splits(
        &self,
        heap: u64,
        indices: impl Iterator<Item = usize>,
        seen: &mut [u8],
    ) -> Result<(), GameError> {
        for index in indices {
            let rare = self.rare_heaps[index];
            if rare >= heap {
                break;
            }
            if 2 * rare == heap {
                continue;
            }
            let partner = self.get(heap - rare, heap)?;
            seen[usize::from(self.rare_values[index] ^ partner)] = 1;
        }
        Ok(())
    }

    /// The mex, once the splits with a rare part are marked: the smallest unmarked value if it
    /// is common, else the first rare candidate no split gives.
    fn search_rare_candidates(&self, heap: u64, seen: &mut [u8]) -> Result<u32, GameError> {
        // The rare candidates, searched among the splits from the smallest part up (each split
        // looked at is marked, so later candidates may be found without a search). Where the
        // small parts leave the prefix, the search goes on from the largest small part down,
        // while both parts are still in the window: the splits in between are never read,
        // so a candidate none of the others gives is refused, not taken as the value.
        let half = heap.saturating_sub(1) / 2;
        let mut small = 1;
        let mut large = half;
        let mut candidate = 0;
        while seen[candidate] != 0 {
            candidate += 1;
        }
        if !is_rare_value(candidate as u32) {
            return Ok(candidate as u32);
        }
        // First every rare candidate at once, as the kernel does (`mex_by_one_pass`): the
        // unmarked values from `candidate` up to the first common one (or the bound, which no
        // split gives), looked for in one vectorized pass over the splits kept in one piece.
        let last = seen.len() - 1;
        let mut wanted = Wanted::new();
        let mut stop = candidate;
        let complete = loop {
            while seen[stop] != 0 {
                stop += 1;
            }
            if stop == last || !is_rare_value(stop as u32) {
                break true;
            }
            if stop >= WANTED_BOUND {
                break false;
            }
            wanted.insert(stop as u32);
            stop += 1;
        };
        if complete && drain_is_vectorized::<u16>() {
            while !wanted.is_empty() && small <= large {
                let Some((smalls, partners)) = self.kept_run(heap, small, large - small + 1) else { break };
                drain_wanted(smalls, partners, &mut wanted);
                small += smalls.len() as u64;
            }
            match wanted.smallest() {
                None => return Ok(stop as u32),
                Some(value) if small > large => return Ok(value),
                // A split not kept in one piece: the search below goes on from there, with the
                // candidates some split gave marked as options (the others stay unmarked).
                Some(_) => {
                    for (value, flag) in seen.iter_mut().enumerate().take(stop).skip(candidate) {
                        if *flag == 0 && !wanted.contains(value as u32) {
                            *flag = 1;
                        }
                    }
                }
            }
        }
        loop {
            while seen[candidate] != 0 {
                candidate += 1;
            }
            if !is_rare_value(candidate as u32) {
                return Ok(candidate as u32);
            }
            let mut found = false;
            while small <= large && !found {
                // Most of the run's time is here: as many splits as possible from two slices
                // (the small parts ascending, their partners descending), one at a time only
                // where a part is not kept in one piece.
                let (count, hit) = match self.kept_run(heap, small, large - small + 1) {
                    Some((smalls, partners)) => mark_splits(smalls, partners, candidate, seen),
                    None => match self.split_value(heap, small) {
                        Some(value) => {
                            seen[value] = 1;
                            (1, value == candidate)
                        }
                        None => {
                            let value = self
                                .split_value(heap, large)
                                .ok_or_else(|| self.rare_candidate_out_of_reach(heap, candidate, small))?;
                            seen[value] = 1;
                            large -= 1;
                            found = value == candidate;
                            continue;
                        }
                    },
                };
                small += count as u64;
                found = hit;
            }
            if !found {
                return Ok(candidate as u32);
            }
        }
    }

    /// `G(part) ^ G(heap − part)`, when both values are kept.
    fn split_value(&self, heap: u64, part: u64) -> Option<usize> {
        let first = self.get(part, heap).ok()?;
        Some(usize::from(first ^ self.get(heap - part, heap).ok()?))
    }

    /// The values of the heaps `small, small + 1, …` and of their partners `heap − small,
    /// heap − small − 1, …` (the second slice read backwards), as many (at most `most`) as
    /// the prefix and the window keep in one piece; `None` when not even one is.
    fn kept_run(&self, heap: u64, small: u64, most: u64) -> Option<(&[u16], &[u16])> {
        let prefix_len = self.prefix.len() as u64;
        let mut len = most.min(prefix_len.saturating_sub(small));
        let top = heap - small;
        let partners = if top < prefix_len {
            len = len.min(top + 1);
            &self.prefix[(top + 1 - len) as usize..=top as usize]
        } else {
            let lowest = self.next.saturating_sub(self.window_len).max(self.prefix_len);
            if self.window.is_empty() || top >= self.next || top < lowest {
                return None;
            }
            let index = top & (self.window_len - 1);
            len = len.min(index + 1).min(top - lowest + 1);
            &self.window[(index + 1 - len) as usize..=index as usize]
        };
        (len > 0).then(|| (&self.prefix[small as usize..(small + len) as usize], partners))
    }

    /// The error when the search for a rare candidate reaches a split outside the values kept:
    /// `G(heap)` may be a new rare value, which only all of its splits can prove.
    fn rare_candidate_out_of_reach(&self, heap: u64, candidate: usize, small: u64) -> GameError {
        GameError::OutOfReach(format!(
            "G({heap}) may be a new rare value: whether {candidate} is an option depends on the split {small} + {}, \
             outside the first {} values and the last {} kept; rerun with a longer prefix or window (each at least \
             half the heap)",
            heap - small,
            self.prefix_len,
            self.window_len
        ))
    }

    /// Appends `G(next)`.
    fn push(&mut self, value: u32) -> Result<(), GameError> {
        let heap = self.next;
        let cell = u16::try_from(value).map_err(|_| {
            GameError::OutOfReach(format!("G({heap}) = {value} does not fit the two bytes a value this run keeps"))
        })?;
        if heap < self.prefix_len {
            self.prefix.push(cell);
        } else {
            if self.window.is_empty() {
                self.window = vec![0; self.window_len as usize];
            }
            self.window[(heap & (self.window_len - 1)) as usize] = cell;
        }
        if heap > 0 && is_rare_value(value) {
            self.rare_heaps.push(heap);
            self.rare_values.push(cell);
        }
        if cell > self.largest.0 {
            self.largest = (cell, heap);
        }
        self.checksum.feed(value);
        self.next += 1;
        Ok(())
    }

    /// Computes the values up to `len` (exclusive), calling `visit(heap, value)` for each, and
    /// looking at `cancelled` every 2^12 heaps; `Ok(false)` when it stopped there (the run
    /// stays valid and continues from where it stopped).
    ///
    /// # Errors
    /// [`GameError::OutOfReach`] when a value needs one no longer kept (the run keeps every
    /// value computed before it).
    pub fn extend_to(
        &mut self,
        len: u64,
        visit: &mut dyn FnMut(u64, u32),
        cancelled: &dyn Fn() -> bool,
    ) -> Result<bool, GameError> {
        let mut since_check = 0;
        while self.next < len {
            // Often enough that a signal is answered within its second even on a loaded core.
            if since_check >= 1 << 12 {
                since_check = 0;
                if cancelled() {
                    return Ok(false);
                }
            }
            let start = self.next;
            // A chunk when every split with a rare part of at least CHUNK tokens has its
            // partner in the prefix or the window and unequal parts (see `mark_chunk`).
            let last_rare = self.rare_heaps.last().copied().unwrap_or(0);
            // (Past the first CHUNK heaps: the marking reads a chunk's width of values.)
            let partners_in_prefix = start >= CHUNK && start + CHUNK <= self.prefix_len;
            let partners_in_window =
                !self.window.is_empty() && last_rare <= self.window_len && start >= self.prefix_len + last_rare;
            let chunked = (partners_in_prefix || partners_in_window)
                && last_rare <= u64::from(u32::MAX)
                && self.prefix_len >= CHUNK
                && start > 2 * last_rare
                && start + CHUNK <= len;
            let chunk = chunked.then(|| {
                let width = (usize::from(self.largest.0) + 1).next_power_of_two() + 1;
                self.mark_chunk(start, width);
                (start, width, self.rare_heaps.len())
            });
            let count = if chunked { CHUNK } else { 1 };
            for _ in 0..count {
                let value = self.next_value(chunk)?;
                self.push(value)?;
                visit(self.next - 1, value);
            }
            since_check += count;
        }
        Ok(true)
    }

    /// The values kept of the window, in heap order.
    fn window_in_order(&self) -> impl Iterator<Item = u16> + '_ {
        let kept = self.next.saturating_sub(self.prefix_len).min(self.window_len);
        (self.next - kept..self.next).map(|heap| self.window[(heap & (self.window_len - 1)) as usize])
    }

    /// The checksum of the state's payload.
    fn payload_checksum(&self) -> u64 {
        let mut checksum = ValueChecksum::default();
        for &value in self.prefix.iter().chain(&self.rare_values) {
            checksum.feed(u32::from(value));
        }
        self.window_in_order().for_each(|value| checksum.feed(u32::from(value)));
        for &heap in &self.rare_heaps {
            checksum.feed(heap as u32);
            checksum.feed((heap >> 32) as u32);
        }
        checksum.value()
    }

    /// Writes the run's state: a text header, a blank line, then the prefix, the window (in
    /// heap order) and the rare list, little-endian (`prefix`, `window` and `rare` in the
    /// header say how many of each). Streamed: no copy of the tables.
    ///
    /// # Errors
    /// The writer's.
    pub fn write_state(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let kept = self.next.saturating_sub(self.prefix_len).min(self.window_len);
        write!(
            out,
            "{STATE_MAGIC}\ngame grundys-game\nlength {}\nprefix {} of {}\nwindow {kept} of {}\nrare {}\nlargest {} at {}\n\
             values-checksum {:016x}\nchecksum {:016x}\n\n",
            self.next,
            self.prefix.len(),
            self.prefix_len,
            self.window_len,
            self.rare_heaps.len(),
            self.largest.0,
            self.largest.1,
            self.checksum.value(),
            self.payload_checksum(),
        )?;
        let mut piece = Vec::with_capacity(1 << 16);
        let mut flush = |piece: &mut Vec<u8>, force: bool| -> std::io::Result<()> {
            if force || piece.len() >= 1 << 16 {
                out.write_all(piece)?;
                piece.clear();
            }
            Ok(())
        };
        for value in self.prefix.iter().copied().chain(self.window_in_order()).chain(self.rare_values.iter().copied()) {
            piece.extend_from_slice(&value.to_le_bytes());
            flush(&mut piece, false)?;
        }
        for heap in &self.rare_heaps {
            piece.extend_from_slice(&heap.to_le_bytes());
            flush(&mut piece, false)?;
        }
        flush(&mut piece, true)
    }

    /// Reads a state written by [`write_state`](Self::write_state), checking its header and
    /// checksum, then what a state written by hand with its checksum recomputed could get wrong:
    /// its structure (the rare list, the largest value, against the values kept) and, as for a
    /// sequence checkpoint, a spot check of values against the game's rules (a run resumed from
    /// it continues exactly where it stopped).
    ///
    /// # Errors
    /// [`GameError::Unsupported`] naming what is wrong: not such a state, a damaged header, a
    /// truncated or padded file, a bad checksum, a value or list that disagrees with the rules
    /// or with the rest of the state; the reader's errors as the same;
    /// [`GameError::TooLarge`] when the tables it announces exceed `control`'s memory limit.
    pub fn read_state(input: &mut dyn Read, control: &Control) -> Result<Self, GameError> {
        let bad = |what: &str| GameError::Unsupported(format!("not a usable bounded-run state: {what}"));
        // The header: at most 16 lines of at most 200 bytes.
        let mut header = Vec::new();
        let mut byte = [0u8; 1];
        while !header.ends_with(b"\n\n") {
            if header.len() > 16 * 200 {
                return Err(bad("no end of header"));
            }
            match input.read(&mut byte) {
                Ok(0) => return Err(bad("the file ends inside the header")),
                Ok(_) => header.push(byte[0]),
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
                Err(error) => return Err(bad(&error.to_string())),
            }
        }
        let header = std::str::from_utf8(&header).map_err(|_| bad("the header is not text"))?;
        let mut lines = header.lines();
        if lines.next() != Some(STATE_MAGIC) {
            return Err(bad(&format!("it does not start with `{STATE_MAGIC}`")));
        }
        let mut field = |name: &str| -> Result<Vec<String>, GameError> {
            let line = lines.next().ok_or_else(|| bad(&format!("no `{name}` line")))?;
            let rest = line.strip_prefix(name).and_then(|rest| rest.strip_prefix(' '));
            let rest =
                rest.ok_or_else(|| bad(&format!("expected a `{name}` line, found `{}`", crate::error::quote(line))))?;
            Ok(rest
                .split(' ')
                .filter(|word| !word.is_empty() && *word != "of" && *word != "at")
                .map(str::to_owned)
                .collect())
        };
        let number = |words: &[String], index: usize, name: &str| -> Result<u64, GameError> {
            words.get(index).and_then(|word| word.parse().ok()).ok_or_else(|| bad(&format!("a bad `{name}` line")))
        };
        let hex = |words: &[String], name: &str| -> Result<u64, GameError> {
            words
                .first()
                .and_then(|word| u64::from_str_radix(word, 16).ok())
                .ok_or_else(|| bad(&format!("a bad `{name}` line")))
        };
        let game = field("game")?;
        if game != ["grundys-game"] {
            return Err(bad("it is not a state of grundys-game"));
        }
        let length = number(&field("length")?, 0, "length")?;
        let prefix_words = field("prefix")?;
        let (prefix_kept, prefix_len) = (number(&prefix_words, 0, "prefix")?, number(&prefix_words, 1, "prefix")?);
        let window_words = field("window")?;
        let (window_kept, window_len) = (number(&window_words, 0, "window")?, number(&window_words, 1, "window")?);
        let rare_count = number(&field("rare")?, 0, "rare")?;
        let largest_words = field("largest")?;
        let largest = (number(&largest_words, 0, "largest")?, number(&largest_words, 1, "largest")?);
        let values_checksum = hex(&field("values-checksum")?, "values-checksum")?;
        let checksum = hex(&field("checksum")?, "checksum")?;
        let mut run = WindowedGrundy::new(prefix_len, window_len).map_err(|_| bad("a bad `window` line"))?;
        let consistent = prefix_kept == length.min(prefix_len)
            && window_kept == length.saturating_sub(prefix_len).min(window_len)
            && largest.0 <= u64::from(u16::MAX)
            && rare_count < length.max(1);
        if !consistent {
            return Err(bad("its sizes disagree with each other"));
        }
        control.check_memory(
            || format!("the bounded run of grundys-game to heap {length}"),
            Self::memory_for(prefix_len, window_len, length) + 10 * u128::from(rare_count),
            1,
        )?;
        let mut read_u16s = |count: u64| -> Result<Vec<u16>, GameError> {
            let mut bytes = vec![0u8; 2 * count as usize];
            input.read_exact(&mut bytes).map_err(|_| bad("it is truncated"))?;
            Ok(bytes.chunks_exact(2).map(|pair| u16::from_le_bytes([pair[0], pair[1]])).collect())
        };
        run.prefix = read_u16s(prefix_kept)?;
        let window = read_u16s(window_kept)?;
        run.rare_values = read_u16s(rare_count)?;
        let mut heap_bytes = vec![0u8; 8 * rare_count as usize];
        input.read_exact(&mut heap_bytes).map_err(|_| bad("it is truncated"))?;
        run.rare_heaps =
            heap_bytes.chunks_exact(8).map(|word| u64::from_le_bytes(word.try_into().expect("8 bytes"))).collect();
        if input.read(&mut byte).map_err(|error| bad(&error.to_string()))? != 0 {
            return Err(bad("it is longer than its header says"));
        }
        run.next = length;
        if window_kept > 0 {
            run.window = vec![0; window_len as usize];
            for (heap, value) in (length - window_kept..length).zip(window) {
                run.window[(heap & (window_len - 1)) as usize] = value;
            }
        }
        run.largest = (largest.0 as u16, largest.1);
        run.checksum = ValueChecksum(values_checksum);
        if run.payload_checksum() != checksum {
            return Err(bad("its checksum does not match its contents (the file is corrupt)"));
        }
        // The checksum catches damage, not a state written by hand with its checksum
        // recomputed: what the run reads must be what a run could have written.
        run.check_structure().map_err(|what| bad(&what))?;
        run.spot_check().map_err(|what| bad(&what))?;
        Ok(run)
    }

    /// The first heap of the window (the heaps past the prefix and before it are not kept).
    fn window_start(&self) -> u64 {
        self.next - self.next.saturating_sub(self.prefix_len).min(self.window_len)
    }

    /// `G(heap)` when the state keeps it: in the prefix or in the window.
    fn kept(&self, heap: u64) -> Option<u16> {
        if heap < self.prefix.len() as u64 {
            Some(self.prefix[heap as usize])
        } else if heap >= self.window_start() && heap < self.next && !self.window.is_empty() {
            Some(self.window[(heap & (self.window_len - 1)) as usize])
        } else {
            None
        }
    }

    /// The state's own consistency, as a run writes it: the rare heaps increasing, below the
    /// length, with rare values; every kept value rare exactly when its heap is listed, with the
    /// listed value; the largest value no smaller than any value kept (the run sizes its marks
    /// by it), first reached at its heap. Every value is read once.
    fn check_structure(&self) -> Result<(), String> {
        if let Some(pair) = self.rare_heaps.windows(2).find(|pair| pair[0] >= pair[1]) {
            return Err(format!("its rare heaps are not increasing ({} then {})", pair[0], pair[1]));
        }
        if let Some(&heap) = self.rare_heaps.iter().find(|&&heap| heap == 0 || heap >= self.next) {
            return Err(format!("rare heap {heap} is not among heaps 1..{}", self.next.saturating_sub(1)));
        }
        if let Some((heap, value)) =
            self.rare_heaps.iter().zip(&self.rare_values).find(|&(_, &value)| !is_rare_value(u32::from(value)))
        {
            return Err(format!("the rare heap {heap} has the common value {value}"));
        }
        let (largest, largest_at) = self.largest;
        if self.next == 0 {
            return if self.largest == (0, 0) { Ok(()) } else { Err("it has no value but a largest one".to_owned()) };
        }
        if largest_at >= self.next {
            return Err(format!("its largest value is at heap {largest_at}, past its length {}", self.next));
        }
        if let Some(&value) = self.rare_values.iter().find(|&&value| value > largest) {
            return Err(format!("the rare value {value} is above its largest value {largest}"));
        }
        // The kept heaps in order, against the rare list and the largest value.
        let kept = (0..self.prefix.len() as u64).chain(self.window_start().max(self.prefix.len() as u64)..self.next);
        let mut rare = self.rare_heaps.iter().zip(&self.rare_values).peekable();
        for heap in kept {
            let value = self.kept(heap).expect("a kept heap");
            // Rare heaps between the prefix and the window are not kept: pass them.
            while rare.peek().is_some_and(|&(&listed, _)| listed < heap) {
                rare.next();
            }
            let listed = rare.peek().filter(|&&(&listed, _)| listed == heap).map(|&(_, &value)| value);
            if heap > 0 && is_rare_value(u32::from(value)) != listed.is_some() {
                return Err(format!(
                    "G({heap}) = {value} is {} the rare list",
                    if listed.is_some() { "common but in" } else { "rare but not in" }
                ));
            }
            if listed.is_some_and(|listed| listed != value) {
                return Err(format!("G({heap}) = {value}, but the rare list says {}", listed.unwrap_or_default()));
            }
            if value > largest || (value == largest && heap < largest_at) || (heap == largest_at && value != largest) {
                return Err(format!(
                    "G({heap}) = {value} disagrees with its largest value {largest}, first at heap {largest_at}"
                ));
            }
        }
        Ok(())
    }

    /// Values checked against the game's rules: the prefix by the definition (the mex over
    /// every split, [`checkpoint::spot_check`]), the window by the rare-value argument of the
    /// module documentation from the values kept before each heap — the last heap, and heaps
    /// spread over the window — written plainly, apart from the run's own computation.
    ///
    /// [`checkpoint::spot_check`]: crate::heap::checkpoint::spot_check
    fn spot_check(&mut self) -> Result<(), String> {
        use crate::heap::checkpoint::spot_check;
        use crate::heap::sequence::CompactSequence;
        let prefix = CompactSequence::Half(std::mem::take(&mut self.prefix));
        let checked = spot_check(&crate::heap::grundys_game::GrundysGame::new(), &prefix);
        let CompactSequence::Half(prefix) = prefix else { unreachable!("built as two bytes a value") };
        self.prefix = prefix;
        checked.map_err(|error| error.to_string())?;
        let start = self.window_start();
        if start < self.prefix.len() as u64 || start == self.next {
            return Ok(());
        }
        let check = |heap: u64| -> Result<bool, String> {
            let Some(expected) = self.value_from_kept(heap) else { return Ok(false) };
            let found = self.kept(heap).expect("a window heap");
            if u32::from(found) != expected {
                return Err(format!("G({heap}) = {found} in the file, but the game's rules give {expected}"));
            }
            Ok(true)
        };
        // The last heap was computed from what the run keeps now, but for a value that has
        // just left the window: one of the last few heaps can be checked.
        let last_checked = (start.max(self.next.saturating_sub(WINDOW_LAST_TRIED))..self.next)
            .rev()
            .try_fold(false, |checked, heap| if checked { Ok(true) } else { check(heap) })?;
        if !last_checked {
            return Err(format!(
                "its last values cannot be checked: G({}) needs values it does not keep",
                self.next - 1
            ));
        }
        // The golden-ratio sequence spreads the samples evenly over the window.
        const GOLDEN: f64 = 0.618_033_988_749_894_9;
        let span = (self.next - start) as f64;
        for k in 1..=WINDOW_SAMPLES {
            check(start + ((k as f64 * GOLDEN).fract() * span) as u64)?;
        }
        Ok(())
    }

    /// `G(heap)` from the values kept for heaps below it, by the rare-value argument: the
    /// smallest value no split with a rare part gives, if it is common; a rare one only when no
    /// split at all gives it. `None` when a value it needs is not kept.
    fn value_from_kept(&self, heap: u64) -> Option<u32> {
        let bound = (usize::from(self.largest.0) + 1).next_power_of_two();
        let mut seen = vec![false; bound + 1];
        for (&rare, &value) in self.rare_heaps.iter().zip(&self.rare_values) {
            if rare >= heap {
                break;
            }
            if 2 * rare != heap {
                seen[usize::from(value ^ self.kept(heap - rare)?)] = true;
            }
        }
        let mut small = 1;
        loop {
            let candidate = seen.iter().position(|&seen| !seen).expect("the bound is never an option");
            if !is_rare_value(candidate as u32) {
                return Some(candidate as u32);
            }
            let mut found = false;
            while small <= heap.saturating_sub(1) / 2 && !found {
                let split = usize::from(self.kept(small)? ^ self.kept(heap - small)?);
                seen[split] = true;
                found = split == candidate;
                small += 1;
            }
            if !found {
                return Some(candidate as u32);
            }
        }
    }
}

/// How many of the last heaps of a state's window [`WindowedGrundy::read_state`] tries before
/// it calls the state unchecked.
const WINDOW_LAST_TRIED: u64 = 64;
/// How many heaps spread over a state's window [`WindowedGrundy::read_state`] checks, besides
/// the last.
const WINDOW_SAMPLES: u64 = 256;

/// Marks the splits `smalls[i] ^ partners[len − 1 − i]` in order until one gives `candidate`:
/// how many were marked, and whether it was found. Not inlined, and with indices rather than a
/// zipped reverse iterator: inlined into the run's loop, or as an iterator, its state went to
/// the stack and it ran at half the speed.
#[inline(never)]
fn mark_splits(smalls: &[u16], partners: &[u16], candidate: usize, seen: &mut [u8]) -> (usize, bool) {
    let len = smalls.len().min(partners.len());
    let (smalls, partners) = (&smalls[..len], &partners[..len]);
    for count in 0..len {
        let value = usize::from(smalls[count] ^ partners[len - 1 - count]);
        seen[value] = 1;
        if value == candidate {
            return (count + 1, true);
        }
    }
    (len, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::sequence::{TakeBreakMoves, definition_sequence};
    use proptest::prelude::*;

    /// The reference: the engine's sequence of Grundy's game.
    fn engine_values(len: usize) -> Vec<u32> {
        use crate::heap::HeapGame;
        let game = crate::heap::grundys_game::GrundysGame::new();
        let mut values = crate::heap::CompactSequence::new();
        game.extend_sequence(&mut values, len, &Default::default()).expect("fits");
        values.to_vec()
    }

    #[test]
    fn a_small_window_gives_the_engine_values_and_rare_list() {
        let expected = engine_values(200_000);
        // The rare heaps below 200 000 end with 36 184 and 82 860: a window of 2^17 keeps
        // every rare partner, a prefix of 2^16 every split of the rare heaps, and the window
        // turns round.
        let mut run = WindowedGrundy::new(1 << 16, 1 << 17).unwrap();
        let mut streamed = Vec::new();
        assert!(run.extend_to(200_000, &mut |_, value| streamed.push(value), &|| false).unwrap());
        assert_eq!(streamed, expected);
        let rare: Vec<(u64, u32)> = (0..expected.len() as u64)
            .filter(|&heap| is_rare_value(expected[heap as usize]))
            .map(|heap| (heap, expected[heap as usize]))
            .collect();
        assert_eq!(run.rare(), rare);
        let largest = *expected.iter().max().unwrap();
        let first = expected.iter().position(|&value| value == largest).unwrap() as u64;
        assert_eq!(run.largest(), (largest, first));
        assert_eq!(run.checksum(), ValueChecksum::of(expected.iter().copied()));
        // Memory: the prefix and the window, not the 200 000 values.
        assert_eq!(run.prefix.len() + run.window.len(), 3 << 16);
        // Chunks whose partners are all in the prefix (from heap 72 369, past twice the rare
        // heap 36 184, and from 165 721), and a prefix that ends inside a chunk, the window
        // taking over from there.
        for prefix in [1 << 18, 150_007] {
            let mut run = WindowedGrundy::new(prefix, 1 << 17).unwrap();
            let mut streamed = Vec::new();
            assert!(run.extend_to(200_000, &mut |_, value| streamed.push(value), &|| false).unwrap());
            assert_eq!(streamed, expected, "prefix {prefix}");
        }
    }

    #[test]
    fn a_window_too_short_is_refused_not_guessed() {
        // The rare heap 3's partners soon leave a window of 2, and the rare heaps' own splits
        // a prefix of 2.
        let mut run = WindowedGrundy::new(2, 2).unwrap();
        let error = run.extend_to(1000, &mut |_, _| {}, &|| false).unwrap_err();
        assert!(error.to_string().contains("rerun with a longer prefix or window"), "{error}");
        // Every value it gave before refusing is right.
        let expected = definition_sequence(&TakeBreakMoves::grundys_game(), run.len() as usize);
        assert_eq!(run.checksum(), ValueChecksum::of(expected));
        assert!(WindowedGrundy::new(10, 12).is_err());
    }

    #[test]
    fn past_the_prefix_the_search_reads_the_splits_in_the_window() {
        // Heaps 1029..1049 with only G(0), G(1) and the last 1024 values kept: a rare
        // candidate not given by the first split is found among the splits whose two parts are
        // both in the window (from the middle down); the small parts alone stop at 1028.
        let mut run = WindowedGrundy::new(2, 1024).unwrap();
        let mut streamed = Vec::new();
        run.extend_to(1050, &mut |_, value| streamed.push(value), &|| false).unwrap();
        assert_eq!(streamed, definition_sequence(&TakeBreakMoves::grundys_game(), 1050));
    }

    #[test]
    fn a_saved_state_resumes_exactly() {
        let mut whole = WindowedGrundy::new(8192, 16384).unwrap();
        whole.extend_to(20_000, &mut |_, _| {}, &|| false).unwrap();
        for stop in [0u64, 1, 300, 8192, 15_000] {
            let mut first = WindowedGrundy::new(8192, 16384).unwrap();
            first.extend_to(stop, &mut |_, _| {}, &|| false).unwrap();
            let mut bytes = Vec::new();
            first.write_state(&mut bytes).unwrap();
            let mut resumed = WindowedGrundy::read_state(&mut bytes.as_slice(), &Control::default()).unwrap();
            assert_eq!(resumed, first, "stop {stop}");
            resumed.extend_to(20_000, &mut |_, _| {}, &|| false).unwrap();
            assert_eq!(
                (resumed.checksum(), resumed.rare(), resumed.largest()),
                (whole.checksum(), whole.rare(), whole.largest())
            );
            // A damaged or cut file is refused.
            let last = bytes.len() - 1;
            bytes[last] ^= 1;
            assert!(WindowedGrundy::read_state(&mut bytes.as_slice(), &Control::default()).is_err());
            assert!(WindowedGrundy::read_state(&mut &bytes[..last], &Control::default()).is_err());
        }
        assert!(WindowedGrundy::read_state(&mut &b"grundy-checkpoint 1\n\n"[..], &Control::default()).is_err());
    }

    /// A run of 3000 heaps keeping the first 1500 and the last 2048 (a window turned round).
    fn small_run() -> WindowedGrundy {
        let mut run = WindowedGrundy::new(1500, 2048).unwrap();
        run.extend_to(3000, &mut |_, _| {}, &|| false).unwrap();
        run
    }

    /// `run` written with its checksum recomputed (as anyone can, with this module), and read
    /// back.
    fn reread(run: &WindowedGrundy) -> Result<WindowedGrundy, GameError> {
        let mut bytes = Vec::new();
        run.write_state(&mut bytes).unwrap();
        WindowedGrundy::read_state(&mut bytes.as_slice(), &Control::default())
    }

    /// The first rare value above `value`.
    fn rare_above(value: u16) -> u16 {
        (value + 1..).find(|&candidate| is_rare_value(u32::from(candidate))).unwrap()
    }

    /// Another value of the same kind (rare or common) no larger than `largest`.
    fn same_kind(value: u16, largest: u16) -> u16 {
        (0..=largest)
            .find(|&other| other != value && is_rare_value(u32::from(other)) == is_rare_value(u32::from(value)))
            .unwrap()
    }

    #[test]
    fn a_run_cut_back_within_its_prefix_is_the_shorter_run() {
        let run = small_run();
        for len in [0u64, 1, 4, 700, 1500] {
            let mut cut = run.clone();
            assert!(cut.truncate(len));
            let mut shorter = WindowedGrundy::new(1500, 2048).unwrap();
            shorter.extend_to(len, &mut |_, _| {}, &|| false).unwrap();
            assert_eq!(cut, shorter, "{len}");
        }
        let mut cut = run.clone();
        assert!(!cut.truncate(1501));
        assert_eq!(cut, run);
    }

    #[test]
    fn forged_states_with_their_checksum_recomputed_are_refused() {
        let run = small_run();
        assert_eq!(reread(&run).unwrap(), run);
        let (largest, _) = run.largest;
        let last = (run.next - 1) & (run.window_len - 1);
        let refused = |name: &str, forge: &dyn Fn(&mut WindowedGrundy)| {
            let mut forged = run.clone();
            forge(&mut forged);
            assert_ne!(forged, run, "{name}: the forgery changes nothing");
            let error = reread(&forged).expect_err(name).to_string();
            assert!(error.starts_with("not a usable bounded-run state: "), "{name}: {error}");
            error
        };
        // Marks sized by a largest value below the values: the run would index past them.
        refused("largest 0 at 0", &|forged| forged.largest = (0, 0));
        refused("a rare value above the largest", &|forged| forged.rare_values[3] = rare_above(largest));
        refused("swapped rare heaps", &|forged| forged.rare_heaps.swap(4, 5));
        refused("swapped rare values", &|forged| {
            let (i, j) = (0..forged.rare_values.len())
                .flat_map(|i| (i + 1..forged.rare_values.len()).map(move |j| (i, j)))
                .find(|&(i, j)| forged.rare_values[i] != forged.rare_values[j])
                .unwrap();
            forged.rare_values.swap(i, j);
        });
        refused("a rare heap past the length", &|forged| {
            forged.rare_heaps.push(forged.next + 7);
            forged.rare_values.push(0);
        });
        refused("a rare heap dropped", &|forged| {
            forged.rare_heaps.pop();
            forged.rare_values.pop();
        });
        refused("the largest value elsewhere", &|forged| forged.largest.1 += 1);
        let error = refused("the last value changed", &|forged| {
            forged.window[last as usize] = same_kind(forged.window[last as usize], largest);
        });
        assert!(error.contains("G(2999) = ") && error.contains("the game's rules give"), "{error}");
        refused("a value of the window changed", &|forged| {
            forged.window[2000] = same_kind(forged.window[2000], largest);
        });
        refused("a value of the prefix changed", &|forged| forged.prefix[40] = same_kind(forged.prefix[40], largest));
        refused("a far longer run", &|forged| forged.next = u64::MAX);
        refused("a run a window longer", &|forged| forged.next += forged.window_len);
    }

    proptest! {
        // The definition is quadratic: few, short sequences.
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// A state with one field set to anything, its checksum recomputed: refused in one
        /// line, or read and resumed without a panic.
        #[test]
        fn any_forged_field_is_refused_or_harmless(field in 0u8..7, at in any::<prop::sample::Index>(), value in any::<u16>(), heap in any::<u64>()) {
            let mut forged = small_run();
            match field {
                0 => { let index = at.index(forged.prefix.len()); forged.prefix[index] = value; }
                1 => { let index = at.index(forged.window.len()); forged.window[index] = value; }
                2 => { let index = at.index(forged.rare_values.len()); forged.rare_values[index] = value; }
                3 => { let index = at.index(forged.rare_heaps.len()); forged.rare_heaps[index] = heap % 4000; }
                4 => forged.largest = (value, heap % 4000),
                5 => forged.next = 3000 + heap % 5000,
                _ => forged.next = heap,
            }
            match reread(&forged) {
                Err(error) => prop_assert!(!error.to_string().contains('\n'), "{}", error),
                Ok(mut resumed) => {
                    let more = resumed.len().saturating_add(200);
                    let _ = resumed.extend_to(more, &mut |_, _| {}, &|| false);
                }
            }
        }

        /// Any prefix and window that keep what the proof reads give the definition's values.
        #[test]
        fn any_sizes_agree_with_the_definition(prefix in 2u64..300, window_bits in 6u32..10, len in 0u64..1500) {
            let expected = definition_sequence(&TakeBreakMoves::grundys_game(), len as usize);
            let mut run = WindowedGrundy::new(prefix, 1 << window_bits).unwrap();
            let mut streamed = Vec::new();
            match run.extend_to(len, &mut |_, value| streamed.push(value), &|| false) {
                Ok(done) => prop_assert!(done),
                Err(error) => prop_assert!(error.to_string().contains("rerun"), "{}", error),
            }
            prop_assert_eq!(&streamed[..], &expected[..streamed.len()]);
        }
    }
}
