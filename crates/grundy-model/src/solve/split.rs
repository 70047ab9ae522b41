//! A memoized solver for games whose options may split into independent parts, with cycles
//! allowed.
//!
//! `G(p) = mex { G(q₁) ⊕ … ⊕ G(qₖ) : Sum(q₁, …, qₖ) an option of p }` (Sprague 1935; Grundy
//! 1939): an option that splits into parts is worth the nim-sum of the parts, and each part
//! is memoized on its own, so take-and-break games stay fast.
//!
//! The search is an iterative depth-first traversal (a chain of a million positions needs no
//! deep recursion) that expands every position once. When it meets a position that is still
//! being evaluated, the game is loopy there: the solver then collects every position reachable
//! from the one asked about whose value is not yet known and labels them by the generalized
//! Sprague–Grundy function of Smith (1966), with the Fraenkel–Yesha labelling of
//! [`crate::graph::loopy`]: values `∞(K)` and draws.
//!
//! A game whose every play must end ([`SplitGame::must_end`]) is not labelled: meeting a
//! position still being evaluated is then an error naming the cycle ([`SplitGame::cycle_error`]).
//!
//! Sums inside a loopy region are supported when each part of the sum has a finite value that
//! does not depend on the cycle; a `Sum` option with a part on a cycle or of value `∞` is
//! refused with [`GameError::Unsupported`] (Smith's theory gives the value of a sum, but not
//! the labelling of a graph whose edges lead to sums).

use crate::error::GameError;
use crate::game::Game;
use crate::graph::digraph::Digraph;
use crate::graph::loopy::{INFINITE, label_cyclic_part};
use crate::graph::retrograde::UNKNOWN;
use crate::nimber::first_zero_bit;
use crate::sum::sum_of_values;
use crate::value::Value;
use rustc_hash::FxHashMap;
use std::fmt::Debug;
use std::hash::Hash;
use std::sync::Arc;

/// A position not yet expanded.
const UNSEEN: u32 = u32::MAX;
/// A position whose expansion has started in the current depth-first search.
const IN_PROGRESS: u32 = u32::MAX - 1;
/// A position of value `∞(K)`.
const INFINITE_STATE: u32 = u32::MAX - 2;
/// Finite values are below this.
const FINITE_LIMIT: u32 = u32::MAX - 3;

/// The options of one position: each option is a list of independent parts (one part for a
/// plain move, several for `Sum(a, b, …)`, none for a move to the empty sum).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionList<P> {
    parts: Vec<P>,
    ends: Vec<usize>,
}

impl<P> Default for OptionList<P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<P> OptionList<P> {
    /// An empty list.
    pub fn new() -> Self {
        OptionList { parts: Vec::new(), ends: Vec::new() }
    }

    /// Appends an option made of `parts`.
    pub fn push_option(&mut self, parts: impl IntoIterator<Item = P>) {
        self.parts.extend(parts);
        self.ends.push(self.parts.len());
    }

    /// Appends an option of one part.
    pub fn push_single(&mut self, part: P) {
        self.parts.push(part);
        self.ends.push(self.parts.len());
    }

    /// The number of options.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is no option.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Removes every option.
    pub fn clear(&mut self) {
        self.parts.clear();
        self.ends.clear();
    }

    /// The parts of each option in turn.
    pub fn iter(&self) -> impl Iterator<Item = &[P]> + '_ {
        (0..self.ends.len()).map(move |index| {
            let start = if index == 0 { 0 } else { self.ends[index - 1] };
            &self.parts[start..self.ends[index]]
        })
    }
}

/// The two top bits of a compact key made by [`heap_key`] or [`pair_key`]: `00` a heap, `10` a
/// pair (`01` and `11` are free for a game's other forms, which are hashed).
const KEY_TAG_SHIFT: u32 = 62;
const HEAP_TAG: u64 = 0;
const PAIR_TAG: u64 = 2;
const LOW_31: u64 = (1 << 31) - 1;

/// The compact key ([`SplitGame::compact_key`]) of a heap below 2^62: the heap itself (tag bits
/// `00`); `None` for a bigger heap.
///
/// ```
/// use grundy_model::solve::split::heap_key;
/// assert_eq!(heap_key(7), Some(7));
/// assert_eq!(heap_key(1 << 62), None);
/// ```
pub fn heap_key(heap: u64) -> Option<u64> {
    (heap >> KEY_TAG_SHIFT == HEAP_TAG).then_some(heap)
}

/// The compact key ([`SplitGame::compact_key`]) of a pair of entries in -2^30..2^30: tag bits
/// `10`, then each entry in 31 bits of two's complement; `None` for a pair past that range.
///
/// The solver keeps the ids of heaps and of pairs with both entries non-negative in two
/// direct-indexed tables (pairs in square shells: every pair below `w` in a table of `w²`
/// slots), so a lookup reads one `u32` in a table a quarter of the hash table's size instead of
/// probing it: on Wythoff pairs below 300, 360 KB that stays in a core's cache. The tables
/// grow to at most a few slots per position the solver knows (plus 64 Ki), so a far-off
/// heap or pair is hashed rather than making them huge.
///
/// ```
/// use grundy_model::solve::split::pair_key;
/// assert_ne!(pair_key(1, 2), pair_key(2, 1));
/// assert_eq!(pair_key(1 << 30, 0), None);
/// assert!(pair_key(-(1 << 30), 5).is_some());
/// ```
pub fn pair_key(first: i64, second: i64) -> Option<u64> {
    let fits = |entry: i64| (-(1i64 << 30)..1i64 << 30).contains(&entry);
    (fits(first) && fits(second))
        .then_some(PAIR_TAG << KEY_TAG_SHIFT | (first as u64 & LOW_31) << 31 | (second as u64 & LOW_31))
}

/// The direct tables: one for heaps, one for pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DenseTable {
    Heaps = 0,
    Pairs = 1,
}

/// Where a key made by [`heap_key`] or [`pair_key`] goes in the direct tables: a heap `n` at
/// slot `n`; a pair `(x, y)` of non-negative entries in shell `m = max(x, y)`, which holds the
/// `2m + 1` pairs with that maximum at slots `m²..(m + 1)²`: `(m, y)` at `m² + y` and `(x, m)`
/// with `x < m` at `m² + m + 1 + x`. Injective within each table (each shell is a bijection
/// onto its slots); `None` for other keys and pairs with a negative entry.
fn dense_slot(key: u64) -> Option<(DenseTable, u64)> {
    match key >> KEY_TAG_SHIFT {
        HEAP_TAG => Some((DenseTable::Heaps, key)),
        PAIR_TAG => {
            let (first, second) = ((key >> 31) & LOW_31, key & LOW_31);
            // Bit 30 of a field is the sign of the 31-bit entry.
            if (first | second) >> 30 != 0 {
                return None;
            }
            let shell = first.max(second);
            let offset = if first == shell { second } else { shell + 1 + first };
            Some((DenseTable::Pairs, shell * shell + offset))
        }
        _ => None,
    }
}

/// No position at this slot of a direct table yet.
const NO_ID: u32 = u32::MAX;
/// Slots a direct table may always grow to (256 KB of ids).
const DENSE_BASE_SLOTS: u64 = 1 << 16;
/// Slots a direct table may grow to for each position the solver knows: a table stays within
/// a few times the memory of the positions themselves, however far apart their keys are.
const DENSE_SLOTS_PER_POSITION: u64 = 4;

/// What [`SplitGame::for_each_option`] hands each option to: its parts; an error stops the
/// expansion.
pub type OptionSink<'a, P> = dyn FnMut(&[P]) -> Result<(), GameError> + 'a;

/// A game whose options may split into independent parts, and whose expansion may fail (a
/// script's runtime error): what [`SplitSolver`] solves.
pub trait SplitGame {
    /// A state of the game, as [`crate::game::Game::State`].
    type State: Clone + Eq + Hash + Debug;

    /// Appends every option of `position` to `out`.
    ///
    /// # Errors
    /// When the options cannot be computed; the error names the position.
    fn expand(&self, position: &Self::State, out: &mut OptionList<Self::State>) -> Result<(), GameError>;

    /// The position in words, for error messages.
    fn describe(&self, position: &Self::State) -> String {
        format!("{position:?}")
    }

    /// An exact compact form of `position` for the memo, or `None` (the default) to memoize it
    /// by the position itself.
    ///
    /// Keys must be injective: two positions get the same key only if they are equal. A key
    /// lives inline in the memo's table (16 bytes an entry), so looking a position up does not
    /// follow a pointer into the position's own allocation (on a script's Wythoff pairs that
    /// second cache miss per option took a third of the run, more than the script's calls).
    /// Keys made by [`heap_key`] and [`pair_key`] (small heaps, pairs of small non-negative
    /// entries) are looked up in direct-indexed tables instead of hashed (see [`pair_key`]);
    /// any other injective key works, hashed.
    fn compact_key(&self, position: &Self::State) -> Option<u64> {
        let _ = position;
        None
    }

    /// Whether every play of the game must end, so that a position reachable from itself is a
    /// mistake in the game's rules rather than a loopy game to label with `∞` values: the
    /// solver then stops at the first cycle with [`SplitGame::cycle_error`]. `false` (the
    /// default) for games that may be loopy.
    fn must_end(&self) -> bool {
        false
    }

    /// The error for a cycle met in a game that [must end](SplitGame::must_end): `path` runs
    /// from the position met again, move by move, to the one that moves back to it.
    ///
    /// The default says so in words with [`SplitGame::describe`] and [`cycle_path`].
    fn cycle_error(&self, path: &[Self::State]) -> GameError {
        let described: Vec<String> = path.iter().map(|position| self.describe(position)).collect();
        GameError::Unsupported(format!(
            "the game is loopy: position {} can be reached from itself ({}); every play of this game must end",
            described.first().map_or("?", String::as_str),
            cycle_path(&described)
        ))
    }

    /// Calls `each` with the parts of every option of `position` in turn, stopping at the first
    /// error (the game's or the one `each` returns).
    ///
    /// The default expands the position into `scratch` with [`SplitGame::expand`] first. A game
    /// that makes its options one at a time can hand each over as soon as it is made: the
    /// solver memoizes it at once, so the allocator reuses one position's memory for the next
    /// instead of holding all of them (a script's call returns hundreds of options). A game
    /// that wraps another should forward this and [`SplitGame::compact_key`].
    ///
    /// # Errors
    /// As [`SplitGame::expand`], and any error of `each`.
    fn for_each_option(
        &self,
        position: &Self::State,
        scratch: &mut OptionList<Self::State>,
        each: &mut OptionSink<'_, Self::State>,
    ) -> Result<(), GameError> {
        scratch.clear();
        self.expand(position, scratch)?;
        scratch.iter().try_for_each(each)
    }
}

/// A cycle in words: the positions of `path` (see [`SplitGame::cycle_error`]) joined by
/// arrows and back to the first, a long one shortened to its first and last five.
///
/// ```
/// use grundy_model::solve::split::cycle_path;
/// let short: Vec<String> = (0..3).map(|n| n.to_string()).collect();
/// assert_eq!(cycle_path(&short), "0 -> 1 -> 2 -> 0");
/// let long: Vec<String> = (0..20).map(|n| n.to_string()).collect();
/// assert_eq!(cycle_path(&long), "0 -> 1 -> 2 -> 3 -> 4 -> … (10 more) … -> 15 -> 16 -> 17 -> 18 -> 19 -> 0");
/// ```
pub fn cycle_path(path: &[String]) -> String {
    const SHOWN_AT_EACH_END: usize = 5;
    const SHOWN_WHOLE_UP_TO: usize = 12;
    let around = if path.len() > SHOWN_WHOLE_UP_TO {
        let hidden = path.len() - 2 * SHOWN_AT_EACH_END;
        format!(
            "{} -> … ({hidden} more) … -> {}",
            path[..SHOWN_AT_EACH_END].join(" -> "),
            path[path.len() - SHOWN_AT_EACH_END..].join(" -> ")
        )
    } else {
        path.join(" -> ")
    };
    match path.first() {
        Some(first) => format!("{around} -> {first}"),
        None => around,
    }
}

/// Any [`Game`] as a [`SplitGame`] whose options are single parts: the Rust twin a script is
/// compared with, through the same solver.
pub struct PlainGame<G>(pub G);

impl<G: Game> SplitGame for PlainGame<G> {
    type State = G::State;
    fn expand(&self, position: &G::State, out: &mut OptionList<G::State>) -> Result<(), GameError> {
        for option in self.0.options(position) {
            out.push_single(option);
        }
        Ok(())
    }
}

struct Frame {
    node: u32,
    /// Where this position's options start in `spans`.
    spans_start: usize,
    /// The next part to look at, in `parts`.
    cursor: usize,
    /// Its options were let go to hold the stack's memory ([`STACK_BYTES_PER_POSITION`]): it
    /// is expanded again when it is back on top.
    dropped: bool,
}

/// Bytes the search's stack of options (4 bytes a part, 16 an option) may take for each
/// position the solver knows, past a base of 4 MiB; past that, the options of every
/// position under the top one are let go and expanded again when the search is back there.
///
/// Without it the stack holds the options of every position on the way down: on HDU 1729's
/// boxes `(s, c)` (add at most `c²` stones) the search goes down `c = 1, 2, …, s` and held
/// `s²/2` options, tens of kilobytes a position remembered (4 GiB at `s = 10^5`). With it the
/// stack stays within this many bytes a position plus the top position's options, and each
/// position let go is expanded once more at most each time it is let go.
pub const STACK_BYTES_PER_POSITION: usize = 64;
/// The stack's memory that never makes the search let options go (4 MiB).
const STACK_BASE_BYTES: usize = 4 << 20;

/// The bytes [`SplitSolver::listed_options`] may keep of the options it listed, for each
/// position the solver may remember ...
const RECENT_BYTES_PER_POSITION: usize = 16;
/// ... and at most (64 MiB).
const RECENT_BYTES_MOST: usize = 64 << 20;

/// How a depth-first search ended.
enum Search {
    Finite,
    /// A cycle, or an option of value `∞`: the loopy labelling must finish the job.
    Loopy,
}

/// A memoizing solver: each position is expanded once, values found by one call are reused by
/// the next.
///
/// ```
/// use grundy_model::game::Game;
/// use grundy_model::solve::split::{PlainGame, SplitSolver};
/// struct TakeOneOrTwo;
/// impl Game for TakeOneOrTwo {
///     type State = u64;
///     fn options_into(&self, heap: &u64, out: &mut Vec<u64>) {
///         out.extend((1..=2).filter(|&take| take <= *heap).map(|take| heap - take));
///     }
/// }
/// let mut solver = SplitSolver::new(PlainGame(TakeOneOrTwo), 1_000_000);
/// assert_eq!(solver.value(&7).unwrap().to_string(), "1");
/// ```
pub struct SplitSolver<G: SplitGame> {
    game: G,
    /// The ids of positions without a compact key.
    ids: HashedIds<G::State>,
    /// The ids of positions with a compact key ([`SplitGame::compact_key`]) that has no slot
    /// in `dense`, by that key.
    compact_ids: FxHashMap<u64, u32>,
    /// The direct tables (see [`pair_key`]).
    dense: DenseIds,
    positions: Vec<G::State>,
    state: Vec<u32>,
    /// The options of every position of value `∞`, kept to give its `K` and to label it again
    /// when a later question reaches it.
    loopy_options: FxHashMap<u32, Vec<Vec<u32>>>,
    /// Options of positions expanded but not to be expanded again: those a stopped search
    /// left under way (so a game's expansion is never repeated after an error), and with
    /// [`SplitSolver::keeping_options`] every position's.
    kept: KeptOptions,
    keep_every_expansion: bool,
    /// The options of positions recently listed by [`SplitSolver::listed_options`], as part
    /// ids (4 bytes a part), so that a position asked about again (the winning moves of one
    /// heap in test after test of a `check`) is not expanded again; emptied when it passes
    /// `recent_bytes_limit`.
    recent: KeptOptions,
    recent_bytes_limit: usize,
    max_positions: usize,
    /// What the refusal past `max_positions` says the limit is and how to change it.
    limit_note: Option<Arc<str>>,
    expansions: u64,
    scratch: OptionList<G::State>,
    /// The stack's memory that never makes the search let options go: [`STACK_BASE_BYTES`]
    /// (tests make it 0, to let go on small games).
    stack_base_bytes: usize,
    /// [`STACK_BYTES_PER_POSITION`] (tests make it 0 too).
    stack_bytes_per_position: usize,
}

/// The options of some positions, each option a list of part ids, stored flat.
#[derive(Default)]
struct KeptOptions {
    /// For each position kept, the range of its options in `ends`.
    ranges: FxHashMap<u32, (usize, usize)>,
    /// Where each option ends in `parts`; it starts where the one before ends.
    ends: Vec<usize>,
    parts: Vec<u32>,
}

impl KeptOptions {
    /// The bytes it holds, about.
    fn bytes(&self) -> usize {
        self.ranges.len() * 16 + self.ends.len() * std::mem::size_of::<usize>() + self.parts.len() * 4
    }

    /// The options of `node`, if kept.
    fn get(&self, node: u32) -> Option<impl Iterator<Item = &[u32]> + '_> {
        // Usually nothing is kept: no hashing then, on every expansion of a search.
        if self.ranges.is_empty() {
            return None;
        }
        let &(first, last) = self.ranges.get(&node)?;
        Some((first..last).map(move |option| {
            let start = if option == 0 { 0 } else { self.ends[option - 1] };
            &self.parts[start..self.ends[option]]
        }))
    }

    /// Keeps `options` as those of `node`, unless it has some already.
    fn insert<'a>(&mut self, node: u32, options: impl IntoIterator<Item = &'a [u32]>) {
        if self.ranges.contains_key(&node) {
            return;
        }
        let first = self.ends.len();
        for option in options {
            self.parts.extend_from_slice(option);
            self.ends.push(self.parts.len());
        }
        self.ranges.insert(node, (first, self.ends.len()));
    }
}

/// An option of a position as [`SplitSolver::options`] gives it: its parts and its value.
pub type ValuedOption<P> = (Vec<P>, Value);

/// A position's value and its options with theirs, as [`SplitSolver::options`] gives them.
pub type ValuedOptions<P> = (Value, Vec<ValuedOption<P>>);

/// The direct-indexed tables of ids (see [`pair_key`]).
///
/// Invariant: a key whose slot is below its table's length has its id in the table (or none
/// yet), never in the hash map; growing a table moves the keys it now covers out of the map.
struct DenseIds {
    /// Whether the tables are used at all ([`SplitSolver::with_direct_tables`]).
    enabled: bool,
    /// Slots a table may always grow to: [`DENSE_BASE_SLOTS`] (tests make it small, to
    /// exercise the growth and the moves out of the hash map on small games).
    base_slots: u64,
    tables: [Vec<u32>; 2],
}

impl DenseIds {
    /// The id at `slot` of `table` when the slot is inside it: `Some(NO_ID)` for a position not
    /// met yet; `None` when the slot is past the table (the key is then in the hash map, if
    /// anywhere).
    fn get(&self, table: DenseTable, slot: u64) -> Option<u32> {
        let slots = &self.tables[table as usize];
        (slot < slots.len() as u64).then(|| slots[slot as usize])
    }

    /// Grows `table` to cover `slot` when that keeps it within its bound for `known`
    /// positions, moving the keys it now covers out of `hashed`; whether it covers `slot`.
    ///
    /// A table's length is a power of two and at least doubles when it grows, so it grows at
    /// most 64 times and the scans of `hashed` cost a bounded multiple of the map's size.
    fn grow_to(&mut self, table: DenseTable, slot: u64, known: usize, hashed: &mut FxHashMap<u64, u32>) -> bool {
        let bound = self.base_slots.max(DENSE_SLOTS_PER_POSITION.saturating_mul(known as u64));
        let slots = &mut self.tables[table as usize];
        let Some(length) = (slot.saturating_add(1))
            .max(2 * slots.len() as u64)
            .max(self.base_slots / 16)
            .checked_next_power_of_two()
            .filter(|&length| length <= bound)
        else {
            return false;
        };
        slots.resize(length as usize, NO_ID);
        hashed.retain(|&key, &mut id| match dense_slot(key) {
            Some((owner, moved)) if owner == table && moved < length => {
                slots[moved as usize] = id;
                false
            }
            _ => true,
        });
        true
    }
}

/// The ids of positions without a compact key, by the position's hash: each position is held
/// once, in the solver's list of positions (a map from positions to ids would hold a second
/// copy, and its buckets would be as wide as a position: a tuple of three entries took 172
/// bytes a position remembered, 97 now). A second position of the same hash (rare) is kept
/// with its id in `collided`.
struct HashedIds<P> {
    by_hash: FxHashMap<u64, u32>,
    collided: FxHashMap<P, u32>,
}

impl<P> Default for HashedIds<P> {
    fn default() -> Self {
        HashedIds { by_hash: FxHashMap::default(), collided: FxHashMap::default() }
    }
}

impl<P: Eq + Hash + Clone> HashedIds<P> {
    fn hash(position: &P) -> u64 {
        use std::hash::BuildHasher;
        rustc_hash::FxBuildHasher.hash_one(position)
    }

    /// The id of `position` (whose hash is `hash`), `positions` being the solver's list.
    fn get(&self, hash: u64, position: &P, positions: &[P]) -> Option<u32> {
        let &id = self.by_hash.get(&hash)?;
        if positions[id as usize] == *position {
            return Some(id);
        }
        self.collided.get(position).copied()
    }

    /// How many positions it holds.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.by_hash.len() + self.collided.len()
    }

    /// Records a position not met before.
    fn insert(&mut self, hash: u64, position: &P, id: u32) {
        if let std::collections::hash_map::Entry::Vacant(entry) = self.by_hash.entry(hash) {
            entry.insert(id);
        } else {
            self.collided.insert(position.clone(), id);
        }
    }
}

/// The memo's tables, borrowed apart from the game so that options can be memoized while the
/// game is still producing them.
struct Memo<'a, P> {
    ids: &'a mut HashedIds<P>,
    compact_ids: &'a mut FxHashMap<u64, u32>,
    dense: &'a mut DenseIds,
    positions: &'a mut Vec<P>,
    state: &'a mut Vec<u32>,
    max_positions: usize,
    limit_note: Option<&'a str>,
}

impl<P: Clone + Eq + Hash> Memo<'_, P> {
    /// The id of `position`, a new one (state unseen) the first time it is met.
    fn intern<G: SplitGame<State = P>>(&mut self, game: &G, position: &P) -> Result<u32, GameError> {
        let Some(key) = game.compact_key(position) else {
            let hash = HashedIds::hash(position);
            if let Some(id) = self.ids.get(hash, position, self.positions) {
                return Ok(id);
            }
            let id = self.push(game, position)?;
            self.ids.insert(hash, position, id);
            return Ok(id);
        };
        let slot = dense_slot(key).filter(|_| self.dense.enabled);
        if let Some((table, slot)) = slot
            && let Some(id) = self.dense.get(table, slot)
        {
            if id != NO_ID {
                return Ok(id);
            }
            let id = self.push(game, position)?;
            self.dense.tables[table as usize][slot as usize] = id;
            return Ok(id);
        }
        if let Some(&id) = self.compact_ids.get(&key) {
            return Ok(id);
        }
        let id = self.push(game, position)?;
        match slot {
            Some((table, slot)) if self.dense.grow_to(table, slot, self.positions.len(), self.compact_ids) => {
                self.dense.tables[table as usize][slot as usize] = id;
            }
            _ => {
                self.compact_ids.insert(key, id);
            }
        }
        Ok(id)
    }

    /// A new id for `position` (state unseen), within the position limit.
    fn push<G: SplitGame<State = P>>(&mut self, game: &G, position: &P) -> Result<u32, GameError> {
        if self.positions.len() >= self.max_positions {
            if let Some(note) = self.limit_note {
                return Err(GameError::Unsupported(format!(
                    "the search met more than {} positions while expanding {}: {note}",
                    self.max_positions,
                    game.describe(position)
                )));
            }
            return Err(GameError::Unsupported(format!(
                "the search met more than {} positions (--max-positions) while expanding {}; raise the limit or ask about a smaller position",
                self.max_positions,
                game.describe(position)
            )));
        }
        let id = self.positions.len() as u32;
        self.positions.push(position.clone());
        self.state.push(UNSEEN);
        Ok(id)
    }
}

impl<G: SplitGame> SplitSolver<G> {
    /// A solver that refuses (with [`GameError::TooLarge`]) to remember more than
    /// `max_positions` positions.
    pub fn new(game: G, max_positions: usize) -> Self {
        SplitSolver {
            game,
            ids: HashedIds::default(),
            compact_ids: FxHashMap::default(),
            dense: DenseIds { enabled: true, base_slots: DENSE_BASE_SLOTS, tables: [Vec::new(), Vec::new()] },
            positions: Vec::new(),
            state: Vec::new(),
            loopy_options: FxHashMap::default(),
            kept: KeptOptions::default(),
            keep_every_expansion: false,
            recent: KeptOptions::default(),
            recent_bytes_limit: max_positions.saturating_mul(RECENT_BYTES_PER_POSITION).min(RECENT_BYTES_MOST),
            max_positions: max_positions.min(FINITE_LIMIT as usize),
            limit_note: None,
            expansions: 0,
            scratch: OptionList::new(),
            stack_base_bytes: STACK_BASE_BYTES,
            stack_bytes_per_position: STACK_BYTES_PER_POSITION,
        }
    }

    /// The same solver saying `note` when it refuses a position past its limit (what the
    /// limit is and how to change it, in the front end's words), instead of naming the CLI's
    /// `--max-positions`.
    #[must_use]
    pub fn with_limit_note(mut self, note: String) -> Self {
        self.limit_note = Some(note.into());
        self
    }

    /// The same solver with the direct tables of [`pair_key`] turned on (the default) or off
    /// (every compact key hashed: the slower path, kept to compare the two). Call it before
    /// the first question.
    ///
    /// ```
    /// use grundy_model::solve::split::{PlainGame, SplitSolver};
    /// use grundy_model::game::Game;
    /// /// Wythoff's game: take from one heap, or the same number from both.
    /// struct Wythoff;
    /// impl Game for Wythoff {
    ///     type State = (u64, u64);
    ///     fn options_into(&self, &(x, y): &(u64, u64), out: &mut Vec<(u64, u64)>) {
    ///         out.extend((0..x).map(|smaller| (smaller, y)));
    ///         out.extend((0..y).map(|smaller| (x, smaller)));
    ///         out.extend((1..=x.min(y)).map(|take| (x - take, y - take)));
    ///     }
    /// }
    /// let mut solver = SplitSolver::new(PlainGame(Wythoff), 1000).with_direct_tables(false);
    /// assert_eq!(solver.value(&(3, 5)).unwrap().to_string(), "0"); // a P-position of Wythoff
    /// ```
    pub fn with_direct_tables(mut self, enabled: bool) -> Self {
        debug_assert!(self.positions.is_empty(), "the memo is empty when its layout is chosen");
        self.dense.enabled = enabled;
        self
    }

    /// The same solver keeping the options of every position it expands (a few bytes per
    /// part), so that [`SplitSolver::options`] never expands a position again: for a game
    /// whose expansion has effects its user sees (a Python function), or costs far more than
    /// the memory. Call it before the first question.
    pub fn keeping_options(mut self) -> Self {
        self.keep_every_expansion = true;
        self
    }

    /// The game being solved.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// How many positions the solver has met (expanded or seen as an option).
    pub fn positions_known(&self) -> usize {
        self.positions.len()
    }

    /// How many times [`SplitGame::expand`] has been called.
    pub fn expansions(&self) -> u64 {
        self.expansions
    }

    /// The value of `position`: finite, or `∞(K)` on a loopy game.
    ///
    /// # Errors
    /// The game's own errors; [`GameError::TooLarge`] past the position limit;
    /// [`GameError::Unsupported`] for a `Sum` option on a cycle.
    pub fn value(&mut self, position: &G::State) -> Result<Value, GameError> {
        let root = self.intern(position)?;
        self.solve(root)?;
        Ok(self.value_of(root))
    }

    /// The value of `position` and each of its options, as its parts with the option's value
    /// (the nim-sum of theirs): what a winning move is chosen from. Options kept by the
    /// search are reused; otherwise (without [`SplitSolver::keeping_options`]) `position` is
    /// expanded once more.
    ///
    /// ```
    /// use grundy_model::game::Game;
    /// use grundy_model::solve::split::{PlainGame, SplitSolver};
    /// struct TakeOneOrTwo;
    /// impl Game for TakeOneOrTwo {
    ///     type State = u64;
    ///     fn options_into(&self, heap: &u64, out: &mut Vec<u64>) {
    ///         out.extend((1..=2).filter(|&take| take <= *heap).map(|take| heap - take));
    ///     }
    /// }
    /// let mut solver = SplitSolver::new(PlainGame(TakeOneOrTwo), 1000).keeping_options();
    /// let (value, options) = solver.options(&4).unwrap();
    /// assert_eq!(value.to_string(), "1");
    /// let listed: Vec<String> = options.iter().map(|(parts, value)| format!("{parts:?} {value}")).collect();
    /// assert_eq!(listed, ["[3] 0", "[2] 2"]);
    /// assert_eq!(solver.expansions(), 5); // heaps 4, 3, 2, 1, 0, each once
    /// ```
    ///
    /// # Errors
    /// As [`SplitSolver::value`].
    pub fn options(&mut self, position: &G::State) -> Result<ValuedOptions<G::State>, GameError> {
        let root = self.intern(position)?;
        self.solve(root)?;
        let mut listed = Vec::new();
        for option in self.node_options(root)? {
            let mut values = Vec::with_capacity(option.len());
            for &part in &option {
                self.solve(part)?;
                values.push(self.value_of(part));
            }
            let parts = option.iter().map(|&part| self.positions[part as usize].clone()).collect();
            listed.push((parts, sum_of_values(&values)?));
        }
        Ok((self.value_of(root), listed))
    }

    /// The options of `position` with their values, in the order the game gives them (only
    /// those of value `target` when it is given), or `None` when it has more than `limit`.
    /// The options' parts are solved, not the position itself; its expansion is kept for the
    /// next call (within a bound of memory: 16 bytes a position the solver may remember, at
    /// most 64 MiB), so that listing the same position again runs no expansion.
    ///
    /// ```
    /// use grundy_model::game::Game;
    /// use grundy_model::solve::split::{PlainGame, SplitSolver};
    /// struct TakeOneOrTwo;
    /// impl Game for TakeOneOrTwo {
    ///     type State = u64;
    ///     fn options_into(&self, heap: &u64, out: &mut Vec<u64>) {
    ///         out.extend((1..=2).filter(|&take| take <= *heap).map(|take| heap - take));
    ///     }
    /// }
    /// let mut solver = SplitSolver::new(PlainGame(TakeOneOrTwo), 1000);
    /// let to_zero = solver.listed_options(&4, 10, Some(&0u32.into())).unwrap().unwrap();
    /// assert_eq!(to_zero, [(vec![3], 0u64.into())]);
    /// let expansions = solver.expansions();
    /// let all = solver.listed_options(&4, 10, None).unwrap().unwrap();
    /// assert_eq!(all, [(vec![3], 0u64.into()), (vec![2], 2u64.into())]);
    /// assert_eq!(solver.expansions(), expansions); // heap 4's options were kept
    /// assert_eq!(solver.listed_options(&4, 1, None).unwrap(), None); // more than 1 option
    /// ```
    ///
    /// # Errors
    /// As [`SplitSolver::value`].
    pub fn listed_options(
        &mut self,
        position: &G::State,
        limit: usize,
        target: Option<&num_bigint::BigUint>,
    ) -> Result<Option<Vec<ValuedOption<G::State>>>, GameError> {
        let root = self.intern(position)?;
        let recent: Option<Vec<Vec<u32>>> = self.recent.get(root).map(|recent| recent.map(<[u32]>::to_vec).collect());
        let options = match recent {
            Some(recent) => recent,
            None => {
                let kept = self.kept.get(root).is_some() || self.loopy_options.contains_key(&root);
                let options = self.node_options(root)?;
                let bytes = 16 + options.iter().map(|option| 8 + 4 * option.len()).sum::<usize>();
                if !kept && bytes <= self.recent_bytes_limit {
                    if self.recent.bytes() + bytes > self.recent_bytes_limit {
                        self.recent = KeptOptions::default();
                    }
                    self.recent.insert(root, options.iter().map(Vec::as_slice));
                }
                options
            }
        };
        if options.len() > limit {
            return Ok(None);
        }
        // The target as a finite value of the memo (one past every value when it is none).
        let small_target = target.map(|target| u32::try_from(target).ok().filter(|&small| small < FINITE_LIMIT));
        let mut listed = Vec::new();
        let mut values = Vec::new();
        for option in options {
            for &part in &option {
                self.solve(part)?;
            }
            // Finite parts: their nim-sum straight from the memo, no big numbers.
            if let Some(sum) = self.finite_sum(&option) {
                if small_target.is_some_and(|small| small != Some(sum)) {
                    continue;
                }
                let parts = option.iter().map(|&part| self.positions[part as usize].clone()).collect();
                listed.push((parts, Value::from(u64::from(sum))));
                continue;
            }
            values.clear();
            values.extend(option.iter().map(|&part| self.value_of(part)));
            let value = sum_of_values(&values)?;
            if target.is_some_and(|target| !matches!(&value, Value::Finite(finite) if finite == target)) {
                continue;
            }
            listed.push((option.iter().map(|&part| self.positions[part as usize].clone()).collect(), value));
        }
        Ok(Some(listed))
    }

    fn solve(&mut self, root: u32) -> Result<(), GameError> {
        if self.state[root as usize] < FINITE_LIMIT || self.state[root as usize] == INFINITE_STATE {
            return Ok(());
        }
        match self.search(root)? {
            Search::Finite => Ok(()),
            Search::Loopy => self.solve_loopy(root),
        }
    }

    /// The options of `node` as lists of part ids: those kept, or by expanding it.
    fn node_options(&mut self, node: u32) -> Result<Vec<Vec<u32>>, GameError> {
        if let Some(kept) = self.kept.get(node) {
            return Ok(kept.map(<[u32]>::to_vec).collect());
        }
        if let Some(known) = self.loopy_options.get(&node) {
            return Ok(known.clone());
        }
        let mut collected = Vec::new();
        self.expand_node(node, |option| collected.push(option.to_vec()))?;
        if self.keep_every_expansion {
            self.kept.insert(node, collected.iter().map(Vec::as_slice));
        }
        Ok(collected)
    }

    fn value_of(&self, node: u32) -> Value {
        match self.state[node as usize] {
            INFINITE_STATE => {
                let mut reachable: Vec<u64> = self.loopy_options[&node]
                    .iter()
                    .filter_map(|option| self.finite_sum(option))
                    .map(u64::from)
                    .collect();
                reachable.sort_unstable();
                reachable.dedup();
                Value::Infinite { reachable }
            }
            value => Value::from(u64::from(value)),
        }
    }

    /// The nim-sum of the parts when every part is finite.
    fn finite_sum(&self, parts: &[u32]) -> Option<u32> {
        parts.iter().try_fold(0u32, |sum, &part| {
            let value = self.state[part as usize];
            (value < FINITE_LIMIT).then_some(sum ^ value)
        })
    }

    fn intern(&mut self, position: &G::State) -> Result<u32, GameError> {
        let SplitSolver { game, ids, compact_ids, dense, positions, state, max_positions, limit_note, .. } = self;
        let limit_note = limit_note.as_deref();
        Memo { ids, compact_ids, dense, positions, state, max_positions: *max_positions, limit_note }
            .intern(game, position)
    }

    /// Expands `node`: its options as lists of part ids.
    fn expand_node(&mut self, node: u32, mut each_option: impl FnMut(&[u32])) -> Result<(), GameError> {
        self.expansions += 1;
        let SplitSolver { game, ids, compact_ids, dense, positions, state, max_positions, limit_note, scratch, .. } =
            self;
        // A copy: the memo grows while the options are read.
        let position = positions[node as usize].clone();
        let limit_note = limit_note.as_deref();
        let mut memo = Memo { ids, compact_ids, dense, positions, state, max_positions: *max_positions, limit_note };
        let mut part_ids = Vec::new();
        game.for_each_option(&position, scratch, &mut |option| {
            part_ids.clear();
            for part in option {
                part_ids.push(memo.intern(game, part)?);
            }
            each_option(&part_ids);
            Ok(())
        })
    }

    /// Depth-first search with finite values; stops at the first sign of a loop.
    fn search(&mut self, root: u32) -> Result<Search, GameError> {
        let mut parts: Vec<u32> = Vec::new();
        let mut spans: Vec<(usize, usize)> = Vec::new();
        let mut stack: Vec<Frame> = Vec::new();
        let mut seen_words: Vec<u64> = Vec::new();
        let result = self.search_from(root, &mut parts, &mut spans, &mut stack, &mut seen_words);
        if !matches!(result, Ok(Search::Finite)) {
            // Keep the options of the positions under way (for the loopy labelling, and so
            // that a game is not asked for them again after an error) and unmark them. Every
            // frame on the stack is fully expanded: `enter` drops the one it fails to expand.
            for (index, frame) in stack.iter().enumerate() {
                // A frame whose options were let go keeps none: it is expanded again.
                if !frame.dropped {
                    let spans_end = stack.get(index + 1).map_or(spans.len(), |next| next.spans_start);
                    let options = spans[frame.spans_start..spans_end].iter().map(|&(start, end)| &parts[start..end]);
                    self.kept.insert(frame.node, options);
                }
                self.state[frame.node as usize] = UNSEEN;
            }
        }
        result
    }

    fn search_from(
        &mut self,
        root: u32,
        parts: &mut Vec<u32>,
        spans: &mut Vec<(usize, usize)>,
        stack: &mut Vec<Frame>,
        seen_words: &mut Vec<u64>,
    ) -> Result<Search, GameError> {
        self.enter(root, parts, spans, stack)?;
        while let Some(frame) = stack.last_mut() {
            if frame.dropped {
                // Back on top after its options were let go: expanded again (every option
                // looked at before is known now, so the cursor passes them at once).
                let node = frame.node;
                stack.pop();
                if let Err(error) = self.enter(node, parts, spans, stack) {
                    // Off the stack now: not under way any more.
                    self.state[node as usize] = UNSEEN;
                    return Err(error);
                }
                continue;
            }
            let mut descend = None;
            while frame.cursor < parts.len() {
                let part = parts[frame.cursor];
                match self.state[part as usize] {
                    UNSEEN => {
                        descend = Some(part);
                        break;
                    }
                    IN_PROGRESS if self.game.must_end() => {
                        let from = stack.iter().position(|frame| frame.node == part).unwrap_or(0);
                        let path: Vec<G::State> =
                            stack[from..].iter().map(|frame| self.positions[frame.node as usize].clone()).collect();
                        return Err(self.game.cycle_error(&path));
                    }
                    IN_PROGRESS | INFINITE_STATE => return Ok(Search::Loopy),
                    _ => frame.cursor += 1,
                }
            }
            if let Some(child) = descend {
                self.enter(child, parts, spans, stack)?;
                self.hold_stack(parts, spans, stack);
                continue;
            }
            let frame = stack.pop().expect("the loop saw a frame");
            let option_count = spans.len() - frame.spans_start;
            seen_words.clear();
            seen_words.resize(option_count / 64 + 1, 0);
            for &(start, end) in &spans[frame.spans_start..] {
                let value = parts[start..end].iter().fold(0u32, |sum, &part| sum ^ self.state[part as usize]);
                if (value as usize) <= option_count {
                    seen_words[value as usize / 64] |= 1 << (value % 64);
                }
            }
            let value = first_zero_bit(seen_words) as u32;
            let first_part = spans.get(frame.spans_start).map_or(parts.len(), |&(start, _)| start);
            spans.truncate(frame.spans_start);
            parts.truncate(first_part);
            self.state[frame.node as usize] = value;
            if stack.is_empty() {
                return Ok(Search::Finite);
            }
        }
        unreachable!("the root frame returns its value")
    }

    /// Lets go of the options of every frame under the top one when the stack takes more than
    /// [`STACK_BYTES_PER_POSITION`] a position known (past [`STACK_BASE_BYTES`]).
    fn hold_stack(&self, parts: &mut Vec<u32>, spans: &mut Vec<(usize, usize)>, stack: &mut [Frame]) {
        let bytes = parts.len() * std::mem::size_of::<u32>() + spans.len() * std::mem::size_of::<(usize, usize)>();
        let allowed = self.stack_base_bytes.max(self.stack_bytes_per_position.saturating_mul(self.positions.len()));
        let Some((top, below)) = stack.split_last_mut() else { return };
        if bytes <= allowed || below.is_empty() {
            return;
        }
        // The top frame's options move to the start; every frame below keeps an empty range.
        let first_part = spans.get(top.spans_start).map_or(top.cursor, |&(start, _)| start);
        let shift = first_part;
        parts.drain(..first_part);
        spans.drain(..top.spans_start);
        for span in spans.iter_mut() {
            span.0 -= shift;
            span.1 -= shift;
        }
        top.cursor -= shift;
        top.spans_start = 0;
        for frame in below {
            frame.spans_start = 0;
            frame.cursor = 0;
            frame.dropped = true;
        }
        parts.shrink_to(parts.len().max(1024) * 2);
        spans.shrink_to(spans.len().max(1024) * 2);
    }

    fn enter(
        &mut self,
        node: u32,
        parts: &mut Vec<u32>,
        spans: &mut Vec<(usize, usize)>,
        stack: &mut Vec<Frame>,
    ) -> Result<(), GameError> {
        let spans_start = spans.len();
        let cursor = parts.len();
        let mut push_option = |option: &[u32]| {
            let start = parts.len();
            parts.extend_from_slice(option);
            spans.push((start, parts.len()));
        };
        if let Some(kept) = self.kept.get(node) {
            kept.for_each(push_option);
        } else if let Err(error) = self.expand_node(node, &mut push_option) {
            // Half expanded: forgotten, so the next question expands it again in full.
            spans.truncate(spans_start);
            parts.truncate(cursor);
            return Err(error);
        } else if self.keep_every_expansion {
            self.kept.insert(node, spans[spans_start..].iter().map(|&(start, end)| &parts[start..end]));
        }
        self.state[node as usize] = IN_PROGRESS;
        stack.push(Frame { node, spans_start, cursor, dropped: false });
        Ok(())
    }

    /// Labels every position reachable from `root` whose value is not finite yet.
    fn solve_loopy(&mut self, root: u32) -> Result<(), GameError> {
        // 1. The region: positions reachable from root without passing a finite value.
        let mut region: Vec<u32> = vec![root];
        let mut local: FxHashMap<u32, u32> = FxHashMap::default();
        local.insert(root, 0);
        let mut options: Vec<Vec<Vec<u32>>> = Vec::new();
        let mut next = 0;
        while next < region.len() {
            let node = region[next];
            next += 1;
            let node_options = self.node_options(node)?;
            for option in &node_options {
                for &part in option {
                    if self.state[part as usize] >= FINITE_LIMIT && !local.contains_key(&part) {
                        local.insert(part, region.len() as u32);
                        region.push(part);
                    }
                }
            }
            options.push(node_options);
        }

        // 2. Plain retrograde analysis first: a position all of whose parts end up finite
        //    without a cycle gets its ordinary mex (Kahn's order on the dependencies).
        let count = region.len();
        let mut blocking = vec![0u32; count];
        let mut dependents: Vec<Vec<u32>> = vec![Vec::new(); count];
        for (index, node_options) in options.iter().enumerate() {
            for option in node_options {
                for part in option {
                    if let Some(&part_local) = local.get(part) {
                        blocking[index] += 1;
                        dependents[part_local as usize].push(index as u32);
                    }
                }
            }
        }
        let mut ready: Vec<u32> = (0..count as u32).filter(|&index| blocking[index as usize] == 0).collect();
        let mut resolved = vec![false; count];
        while let Some(index) = ready.pop() {
            let index = index as usize;
            let values: Vec<u32> =
                options[index].iter().map(|option| self.finite_sum(option).expect("every part is finite")).collect();
            self.state[region[index] as usize] = mex_of(&values)?;
            resolved[index] = true;
            for &dependent in &dependents[index] {
                blocking[dependent as usize] -= 1;
                if blocking[dependent as usize] == 0 {
                    ready.push(dependent);
                }
            }
        }

        // 3. The rest: the Fraenkel–Yesha labelling. Options to finite values become fixed
        //    seed vertices, one per value.
        let unresolved: Vec<usize> = (0..count).filter(|&index| !resolved[index]).collect();
        let mut vertex_of = vec![u32::MAX; count];
        for (vertex, &index) in unresolved.iter().enumerate() {
            vertex_of[index] = vertex as u32;
        }
        let mut seed_of_value: FxHashMap<u32, u32> = FxHashMap::default();
        let mut labels: Vec<u32> = vec![UNKNOWN; unresolved.len()];
        let mut edges: Vec<(u32, u32)> = Vec::new();
        for (vertex, &index) in unresolved.iter().enumerate() {
            for option in &options[index] {
                let target = match option.as_slice() {
                    [part] if local.get(part).is_some_and(|&at| !resolved[at as usize]) => {
                        vertex_of[local[part] as usize]
                    }
                    parts => {
                        let Some(value) = self.finite_sum(parts) else {
                            return Err(GameError::Unsupported(format!(
                                "position {} has an option Sum({}) with a part on a cycle or of value ∞: sums inside loopy regions are not supported",
                                self.game.describe(&self.positions[region[index] as usize]),
                                parts
                                    .iter()
                                    .map(|&part| self.game.describe(&self.positions[part as usize]))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            )));
                        };
                        *seed_of_value.entry(value).or_insert_with(|| {
                            labels.push(value);
                            (labels.len() - 1) as u32
                        })
                    }
                };
                edges.push((vertex as u32, target));
            }
        }
        let graph = Digraph::unnamed(labels.len(), &edges);
        label_cyclic_part(&graph, &mut labels, (0..unresolved.len() as u32).collect());
        for (vertex, &index) in unresolved.iter().enumerate() {
            let node = region[index];
            if labels[vertex] == INFINITE {
                self.state[node as usize] = INFINITE_STATE;
                self.loopy_options.insert(node, std::mem::take(&mut options[index]));
            } else if labels[vertex] >= FINITE_LIMIT {
                return Err(GameError::Unsupported("a Grundy value past 2^32 - 4".to_owned()));
            } else {
                self.state[node as usize] = labels[vertex];
            }
        }
        Ok(())
    }
}

fn mex_of(values: &[u32]) -> Result<u32, GameError> {
    let mut seen = vec![0u64; values.len() / 64 + 1];
    for &value in values {
        if (value as usize) <= values.len() {
            seen[value as usize / 64] |= 1 << (value % 64);
        }
    }
    Ok(first_zero_bit(&seen) as u32)
}

#[cfg(test)]
mod tests;
