//! The nim-sequence engine for take-and-break games: octal and hexadecimal games, Grundy's
//! game.
//!
//! A move removes `k` tokens from one heap and leaves nothing, one heap, or the rest split into
//! two or three non-empty heaps ([`TakeBreakMoves`]). `G(n)` is the mex of the options' values,
//! and an option that splits the heap into parts is worth the xor of their values.
//!
//! Two kernels compute the sequence (module `kernel`):
//! - **plain**: every option is looked at. Values are kept one byte each while they fit (two,
//!   then four bytes once a value needs it — never wrapping), the mex is found on a bitset, and
//!   the `G(a) ^ G(m − a)` scans compare 32 bytes of pairs at a time (AVX2 when the CPU has
//!   it, chosen at run time; fixed-width blocks the compiler vectorizes otherwise), the
//!   partners `G(m − a)` read backwards and reversed in registers, so that no reversed copy
//!   of the table is kept. The mex is checked
//!   candidate by candidate: a short prefix of the pairs is marked, then each smallest
//!   unmarked value is searched for in the rest; the one not found is the mex.
//! - **rare-value** (the sparse-space phenomenon: *Winning Ways* ch. 4 “Sparse Space Spells
//!   Speed”; Gangolli and Plambeck, *A note on periodicity in some octal games*, IJGT 1989;
//!   Flammenkamp's octal-game tables): for a bit mask `m`, call a value *rare-type* at heap
//!   `n` when the parity of its bits under `m` is `δ·((n + t) mod 2)` (δ = 0: the *range*
//!   version; δ = 1: the *domain* version, allowed when every split removes a number of
//!   tokens of one parity `t`), and a heap *rare* when its value is rare-type there. The xor
//!   of two rare or of two common values is then rare-type, so a *common*-type value can only
//!   come from a split with exactly one rare part: marking the splits with a rare part
//!   (`R` of them for `R` rare heaps) decides every common-type value exactly. Only the
//!   rare-type values below the smallest missing common one need searching among all splits,
//!   and they are nearly always found within the first few pairs. The method is exact for any
//!   mask; a good mask only makes `R` small. The engine picks the mask with the fewest rare
//!   heaps from the values so far, and runs the rare-value kernel only while rare heaps are
//!   rare (fewer than one heap in 12), the plain one otherwise; [`NimSequenceEngine::method`]
//!   says which ran.
//!
//! - **three-way splits** (hexadecimal digits 8 to F): for every sum `s` the bitset `P(s)` of
//!   the values `G(b) ^ G(s − b)` is kept; a split `a + b + c` with `a` its smallest part is
//!   worth `G(a) ^ x` for `x` in `P(m − a)`, so 64 candidate values are tested at once with one
//!   word of `P(m − a)` a part (its bits permuted by the low bits of `G(a)`), and a word of
//!   candidates stops as soon as all of them are found: `O(n² · V/64)` at worst instead of the
//!   `O(n³)` triples.
//!
//!   *No rare-value split for three parts, and why.* The parity `p(v)` of a value's bits under a
//!   mask is linear, so `p(G(a) ^ G(b) ^ G(c)) = p(G(a)) + p(G(b)) + p(G(c))`. In the range
//!   version three common parts (odd parity each) give a common value, so common values are not
//!   decided by the splits with a rare part, as they are for two parts. In the domain version
//!   (rare when `p(G(n)) = (n + t) mod 2`) a split removing `k` tokens into three common parts
//!   gives a rare-type value exactly when `k` is odd; then every common-type value needs a rare
//!   part, and the candidates would be `G(r) ^ P(m − r)` over the rare heaps `r`, the pair sets
//!   above (the split of Howse and Nowakowski, *Periodicity and arithmetic-periodicity in
//!   hexadecimal games*, TCS 313 (2004), where such games are treated through their two-heap
//!   structure). But it only pays when rare heaps are rare, and the hexadecimal games whose
//!   three-way cost matters are arithmetic-periodic, values growing like `n`, with no sparse
//!   space: under the best mask and version 25% to 40% of their heaps are rare (0.8F, 0.9, 0.C,
//!   0.E, 0.48 to heap 1500: `bench/three-way-sparse.py`, figures in `bench/RESULTS.md`). So
//!   the pair-set scan stays the method for them.
//!
//! One core: in the rare-value kernel, for chunks of 16 heaps when a heap has at least 128
//! splits with a rare part, a rare heap `p` is marked across the 16 heaps at once: their
//! partners `G(m − p)` lie next to each other, one vector load instead of a gather a heap; the
//! rare-type candidates left are then searched for in one pass over the splits (for two-byte
//! cells, over their low bytes, kept beside them for the first 2^24 heaps). Both kernels
//! run on one thread: splitting the plain kernel's scans between threads, and preparing the
//! rare-value kernel's next block on a second thread, were measured to cost more CPU time than
//! they saved in wall time (`bench/RESULTS.md`, issue 44).

mod compact;
// The one module allowed unsafe code: AVX2 intrinsics, each block with its invariant (see the
// module).
#[allow(unsafe_code)]
mod kernel;
pub mod window;

pub use compact::CompactSequence;

use crate::control::Control;
use crate::error::GameError;
use std::ops::ControlFlow;
use std::sync::Mutex;

/// The moves of a take-and-break game on one heap, by the number `k` of tokens removed.
///
/// ```
/// use grundy::heap::sequence::TakeBreakMoves;
/// // Dawson's Kayles, 0.07: remove 2, leaving nothing, one heap or two.
/// let dawson = TakeBreakMoves::new(vec![2], vec![2], vec![2], false, vec![]);
/// assert_eq!(dawson.heap_options(6), vec![vec![4], vec![1, 3], vec![2, 2]]);
/// assert_eq!(dawson.heap_options(2), vec![Vec::<u64>::new()]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakeBreakMoves {
    take_all: Vec<usize>,
    leave_one: Vec<usize>,
    leave_two: Vec<usize>,
    unequal_parts: bool,
    leave_three: Vec<usize>,
}

impl TakeBreakMoves {
    /// The moves: a heap of exactly `k` tokens may be taken whole for `k` in `take_all`; `k`
    /// tokens may be removed leaving one non-empty heap for `k` in `leave_one`, two for `k` in
    /// `leave_two` (two different ones when `unequal_parts`), three for `k` in `leave_three`.
    pub fn new(
        mut take_all: Vec<usize>,
        mut leave_one: Vec<usize>,
        mut leave_two: Vec<usize>,
        unequal_parts: bool,
        mut leave_three: Vec<usize>,
    ) -> Self {
        for list in [&mut take_all, &mut leave_one, &mut leave_two, &mut leave_three] {
            list.sort_unstable();
            list.dedup();
        }
        // Removing nothing and leaving one heap is no move (it would make the game loopy).
        leave_one.retain(|&k| k > 0);
        take_all.retain(|&k| k > 0);
        TakeBreakMoves { take_all, leave_one, leave_two, unequal_parts, leave_three }
    }

    /// Grundy's game: split a heap into two unequal non-empty heaps.
    pub fn grundys_game() -> Self {
        TakeBreakMoves::new(vec![], vec![], vec![0], true, vec![])
    }

    /// The most tokens one move removes.
    pub fn max_removal(&self) -> usize {
        [&self.take_all, &self.leave_one, &self.leave_two, &self.leave_three]
            .iter()
            .filter_map(|list| list.last().copied())
            .max()
            .unwrap_or(0)
    }

    /// Whether some move splits a heap into three.
    pub fn splits_in_three(&self) -> bool {
        !self.leave_three.is_empty()
    }

    /// Every option of a heap of `heap` tokens, as the heaps it leaves in increasing order
    /// (splits listed once: `a + b` and `b + a` are the same option), by the number of tokens
    /// removed, then by the number of heaps left.
    pub fn heap_options(&self, heap: u64) -> Vec<Vec<u64>> {
        let mut options = Vec::new();
        self.for_each_option(heap, |parts| options.push(parts.to_vec()));
        options
    }

    /// Calls `visit` with every option of a heap of `heap` tokens, in the order of
    /// [`heap_options`](Self::heap_options), with no list of them: a heap of Grundy's game of
    /// size `n` has `n/2` options, and as lists those of a heap of 2^29 take 15 GB.
    ///
    /// ```
    /// use grundy::heap::sequence::TakeBreakMoves;
    /// let kayles = TakeBreakMoves::new(vec![1, 2], vec![1, 2], vec![1, 2], false, vec![]);
    /// let mut seen = Vec::new();
    /// kayles.for_each_option(4, |parts| seen.push(parts.to_vec()));
    /// assert_eq!(seen, kayles.heap_options(4));
    /// assert_eq!(seen, [vec![3], vec![1, 2], vec![2], vec![1, 1]]);
    /// ```
    pub fn for_each_option(&self, heap: u64, mut visit: impl FnMut(&[u64])) {
        let _ = self.try_for_each_option(heap, |parts| {
            visit(parts);
            ControlFlow::Continue(())
        });
    }

    /// [`for_each_option`](Self::for_each_option) that stops as soon as `visit` breaks: what a
    /// search for one option of a given value needs (a reply to each of a long row's options).
    pub fn try_for_each_option(&self, heap: u64, mut visit: impl FnMut(&[u64]) -> ControlFlow<()>) -> ControlFlow<()> {
        for k in 0..=self.max_removal() as u64 {
            if k > heap {
                break;
            }
            let rest = heap - k;
            if rest == 0 && self.take_all.contains(&(k as usize)) {
                visit(&[])?;
            }
            if rest > 0 && self.leave_one.contains(&(k as usize)) {
                visit(&[rest])?;
            }
            if self.leave_two.contains(&(k as usize)) {
                for small in 1..=rest / 2 {
                    if !(self.unequal_parts && 2 * small == rest) {
                        visit(&[small, rest - small])?;
                    }
                }
            }
            if self.leave_three.contains(&(k as usize)) {
                for small in 1..=rest / 3 {
                    for middle in small..=(rest - small) / 2 {
                        visit(&[small, middle, rest - small - middle])?;
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// The nim-sequence by the definition, option by option: `G(n) = mex` of the xors of the parts
/// each option leaves, the options walked by [`TakeBreakMoves::for_each_option`] (the rules,
/// stated once). The reference every kernel is tested against, and the textbook algorithm the
/// benchmarks measure the kernels by (`naive` in `examples/nim_sequence.rs`): every option's
/// value computed and marked, O(n²) for splitting games (O(n³) with three-way splits), with no
/// early stop and no vectorization. `tests/model.rs` checks it against the search over sums of
/// heaps ([`crate::heap::HeapSum`]) for every take-and-break family of the registry.
///
/// ```
/// use grundy::heap::sequence::{TakeBreakMoves, definition_sequence};
/// let kayles = TakeBreakMoves::new(vec![1, 2], vec![1, 2], vec![1, 2], false, vec![]);
/// assert_eq!(definition_sequence(&kayles, 8), [0, 1, 2, 3, 1, 4, 3, 2]);
/// ```
pub fn definition_sequence(moves: &TakeBreakMoves, len: usize) -> Vec<u32> {
    let mut values: Vec<u32> = Vec::with_capacity(len);
    // seen[v] == heap + 1: v is the value of an option of `heap` (no clearing between heaps).
    let mut seen: Vec<usize> = Vec::new();
    for heap in 0..len {
        let stamp = heap + 1;
        moves.for_each_option(heap as u64, |parts| {
            let value = parts.iter().fold(0, |x, &part| x ^ values[part as usize]) as usize;
            if value >= seen.len() {
                seen.resize(value + 1, 0);
            }
            seen[value] = stamp;
        });
        let mex = (0..).find(|&value| seen.get(value) != Some(&stamp)).expect("a missing value");
        values.push(mex as u32);
    }
    values
}

/// Which kernel the engine may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Kernel {
    /// Choose as the computation goes: rare-value while rare heaps are rare, plain otherwise.
    #[default]
    Auto,
    /// Always the plain kernel.
    Plain,
    /// The rare-value kernel wherever it is valid (splits into at most two heaps), even when
    /// rare heaps are common; the mask is chosen again at every power of two (for tests).
    RareValue,
}

/// The sparse space the rare-value kernel worked in: a heap `n` is *rare* when the parity of
/// the bits of `G(n)` under `mask` is `heap_parity · ((n + offset) mod 2)` (see the module
/// documentation; Flammenkamp's tables give the same mask for the range version).
///
/// ```
/// use grundy::heap::sequence::SparseSpace;
/// // Grundy's game: values whose bits other than the lowest have even parity are rare.
/// let space = SparseSpace { mask: !1, heap_parity: false, offset: 0 };
/// assert!(space.is_rare(2, 0) && space.is_rare(3, 1) && !space.is_rare(4, 2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SparseSpace {
    /// The bits of a value whose parity decides.
    pub mask: u32,
    /// Whether the heap's parity enters (the *domain* version) or not (the *range* version).
    pub heap_parity: bool,
    /// Added to the heap before its parity is taken (the tokens one split removes).
    pub offset: u64,
}

impl SparseSpace {
    /// Whether heap `heap` with value `value` is rare in this space.
    pub fn is_rare(&self, heap: u64, value: u32) -> bool {
        ((value & self.mask).count_ones() & 1 == 1) == (self.heap_parity && heap.wrapping_add(self.offset) & 1 == 1)
    }
}

/// The engine of one game: its moves, the kernel policy, and what ran last.
pub struct NimSequenceEngine {
    moves: TakeBreakMoves,
    kernel: Mutex<Kernel>,
    method: Mutex<String>,
    /// The sparse space in force at the end of the last call, when the rare-value kernel ran.
    sparse: Mutex<Option<SparseSpace>>,
    /// The working tables of the last call, continued by the next one when it resumes where
    /// the last one stopped.
    cache: Mutex<kernel::Cache>,
}

impl NimSequenceEngine {
    /// The engine for `moves`, choosing its kernel itself.
    pub fn new(moves: TakeBreakMoves) -> Self {
        NimSequenceEngine {
            moves,
            kernel: Mutex::new(Kernel::Auto),
            method: Mutex::new(String::new()),
            sparse: Mutex::new(None),
            cache: Mutex::new(kernel::Cache::default()),
        }
    }

    /// The moves.
    pub fn moves(&self) -> &TakeBreakMoves {
        &self.moves
    }

    /// Restricts the kernels the engine may use (tests and benchmarks compare them).
    pub fn set_kernel(&self, kernel: Kernel) {
        *self.kernel.lock().expect("kernel lock") = kernel;
    }

    /// Which kernel computed the sequence last, in words.
    pub fn method(&self) -> String {
        let method = self.method.lock().expect("method lock");
        if method.is_empty() { "plain mex over all options (not run yet)".to_owned() } else { method.clone() }
    }

    /// The sparse space the rare-value kernel was working in at the end of the last
    /// [`extend`](Self::extend) that computed anything; `None` when the plain kernel ran last.
    pub fn sparse_space(&self) -> Option<SparseSpace> {
        *self.sparse.lock().expect("sparse lock")
    }

    /// Extends `values` (a correct prefix) to `len` values in place, the kernel working on
    /// its values (one byte each while they fit) with no `u32` copy of the table; `Ok(false)`
    /// when cancelled.
    ///
    /// # Errors
    /// [`GameError::TooLarge`] when the tables would not fit in memory.
    pub fn extend(
        &self,
        spec: &str,
        values: &mut CompactSequence,
        len: usize,
        control: &Control,
    ) -> Result<bool, GameError> {
        if values.len() >= len {
            return Ok(true);
        }
        // The table, at most 4 bytes a value.
        self.check_memory(control, spec, || values.largest(), values.len(), len, 4)?;
        self.run(|kernel, report, cache| kernel::extend(&self.moves, values, len, control, kernel, report, cache))
    }

    /// Refuses tables of `len` heaps at `table_bytes` a heap, and for three-way splits the pair
    /// sets: a bitset of the values below the largest one's power of two, per heap. Their
    /// values grow about linearly with the heap (0.8F: G(9000) = 5142), so the largest value at
    /// `len` is extrapolated linearly from the prefix's `largest` value (at least 64, at most
    /// 2^32; only looked up for three-way splits).
    fn check_memory(
        &self,
        control: &Control,
        spec: &str,
        largest: impl FnOnce() -> u32,
        known: usize,
        len: usize,
        table_bytes: u128,
    ) -> Result<(), GameError> {
        let bytes_each = if self.moves.splits_in_three() {
            let extrapolated = (u128::from(largest()) * len as u128 / known.max(1) as u128).clamp(64, 1 << 32);
            table_bytes + extrapolated.next_power_of_two() / 8
        } else {
            table_bytes
        };
        control.check_memory(|| format!("the nim-sequence of {spec} up to heap {len}"), len as u128, bytes_each)
    }

    /// Runs `compute` with the kernel policy, a fresh report and the cached tables, and keeps
    /// what it reports.
    fn run(
        &self,
        compute: impl FnOnce(Kernel, &mut kernel::Report, &mut kernel::Cache) -> bool,
    ) -> Result<bool, GameError> {
        let kernel = *self.kernel.lock().expect("kernel lock");
        let mut report = kernel::Report::default();
        let mut cache = self.cache.lock().expect("cache lock");
        let reached = compute(kernel, &mut report, &mut cache);
        *self.method.lock().expect("method lock") = report.describe();
        let offset = self.moves.leave_two.first().copied().unwrap_or(0) as u64;
        *self.sparse.lock().expect("sparse lock") =
            report.sparse_space().map(|(mask, heap_parity)| SparseSpace { mask, heap_parity, offset });
        Ok(reached)
    }
}

#[cfg(test)]
mod tests;
