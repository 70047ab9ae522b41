//! Heap games: a position is a sum of heaps, each a non-negative integer.
//!
//! A heap family is **one type** implementing [`HeapGame`]: [`HeapGame::heap_options`] states
//! its rules, once. Everything else is derived from that statement or checked against it:
//! [`HeapRules`] makes any heap game a front-end family (heaps of any size through the proved
//! period), [`HeapSum`] is the game by the definition alone (the reference every fast path is
//! tested against), and the optional capabilities — a kernel for the nim-sequence, a closed
//! form ([`HeapGame::closed_form_value`]), a known period — are tested equal to it for every
//! family of the registry (`tests/model.rs`).

pub mod bash;
pub mod checkpoint;
mod definition;
mod explain;
pub mod grundys_game;
pub mod lasker;
pub mod nim;
pub mod octal;
pub mod period;
pub mod rules;
pub mod run;
pub mod sequence;
pub mod split_nim;
pub mod stats;
pub mod subtraction;
pub mod tail;

pub use definition::{HeapMultiset, HeapSum, sequence_by_definition};
pub use rules::HeapRules;
pub use run::SequenceRun;
pub use sequence::CompactSequence;

use crate::control::Control;
use crate::error::GameError;
use crate::ruleset::{Capability, Ruleset};
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use std::sync::Arc;

/// The capability of a game with a nim-sequence: the game as a [`HeapGame`] (for
/// `sequence`, `period`, `stats`, `census`, `guess`). [`HeapRules`] offers it for every heap
/// family, and a script game whose positions are heaps offers it too.
pub struct NimSequence;
impl Capability for NimSequence {
    type Handle = Arc<dyn HeapGame>;
}

/// Asks any game for its nim-sequence ([`NimSequence`]).
pub trait AsHeapGame {
    /// The game as a heap game with a nim-sequence, or `None`.
    fn heap_game(&self) -> Option<Arc<dyn HeapGame>>;
}

impl AsHeapGame for dyn Ruleset + '_ {
    fn heap_game(&self) -> Option<Arc<dyn HeapGame>> {
        self.capability::<NimSequence>()
    }
}

/// What [`HeapGame::extend_sequence`] returns: `Ok(true)` when the sequence reached the length
/// asked, `Ok(false)` when the control's cancel flag stopped it early (the prefix computed stays
/// valid).
pub type Extended = Result<bool, GameError>;

/// A heap game solved through its nim-sequence `G(0), G(1), …`, where `G(n)` depends only on
/// earlier values: subtraction, octal and hexadecimal games, Grundy's game.
pub trait HeapGame: Send + Sync {
    /// The game in canonical form.
    fn spec(&self) -> String;

    /// Extends `values` (a correct prefix `G(0..values.len())`, perhaps read back from a
    /// checkpoint) towards `len` values. The sequence keeps one byte a value while they fit
    /// ([`CompactSequence`]): octal games and Grundy's game extend it in place, games computed
    /// by `heap::extend_in_chunks` (Nim, Bash, subtraction games) widen it to four bytes once.
    /// Returns `Ok(true)` when it reached `len`, `Ok(false)` when the control's cancel flag
    /// stopped it early (the prefix computed stays valid).
    ///
    /// # Errors
    /// [`GameError::TooLarge`] when the table would not fit in memory.
    fn extend_sequence(&self, values: &mut CompactSequence, len: usize, control: &Control) -> Extended;

    /// The rules as one text that is the same for every spelling of the same game (`dawson`,
    /// `octal:0.07` and `hex:0.07` all give `octal:0.07`): what a checkpoint is compared by.
    fn canonical_spec(&self) -> String {
        self.spec()
    }

    /// The theorem that can prove a period of this game's nim-sequence.
    fn periodicity(&self) -> Periodicity;

    /// Every option of a heap of size `heap`, each as the heaps it leaves (empty: the heap is
    /// gone; two: it was split).
    fn heap_options(&self, heap: u64) -> Vec<Vec<u64>>;

    /// Calls `visit` with every option of a heap of size `heap`, as
    /// [`HeapGame::heap_options`] lists them, without building the list: what a check of a
    /// long sequence's values by the definition uses, where one heap of Grundy's game of size
    /// 2^30 has 2^29 options. The default walks [`HeapGame::heap_options`]; games with many
    /// options a heap enumerate them one by one.
    fn for_each_heap_option(&self, heap: u64, visit: &mut dyn FnMut(&[u64])) {
        for parts in self.heap_options(heap) {
            visit(&parts);
        }
    }

    /// [`HeapGame::for_each_heap_option`] that stops as soon as `visit` breaks. The default
    /// walks every option and ignores the rest once broken; the take-and-break engines stop
    /// at once.
    fn try_for_each_heap_option(
        &self,
        heap: u64,
        visit: &mut dyn FnMut(&[u64]) -> std::ops::ControlFlow<()>,
    ) -> std::ops::ControlFlow<()> {
        let mut flow = std::ops::ControlFlow::Continue(());
        self.for_each_heap_option(heap, &mut |parts| {
            if flow.is_continue() {
                flow = visit(parts);
            }
        });
        flow
    }

    /// As [`HeapGame::heap_options`], for games whose rules can fail (a script's `moves`):
    /// the error instead of an empty list.
    ///
    /// # Errors
    /// The game's own error for `heap`.
    fn heap_options_checked(&self, heap: u64) -> Result<Vec<Vec<u64>>, GameError> {
        Ok(self.heap_options(heap))
    }

    /// Which method computed the sequence last (`plain mex DP`, `rare-value`, …), for the
    /// user to see.
    fn method(&self) -> String {
        "mex over all options".to_owned()
    }

    /// The take-and-break engine computing the sequence (octal games, Grundy's game), for
    /// what only it knows: which kernel ran, the sparse space it worked in. `None` (the
    /// default) for games computed otherwise. Kernel details stay behind the engine.
    fn nim_sequence_engine(&self) -> Option<&sequence::NimSequenceEngine> {
        None
    }

    /// The last heap `grundy period` computes by default when no period is proved earlier (see
    /// [`period::default_max_heap`]); a game whose values cost more (a script) bounds it lower,
    /// so that the default search answers in seconds.
    fn default_max_heap(&self) -> u64 {
        period::default_max_heap(self.periodicity())
    }

    /// A period (or arithmetic period) the game's closed form proves outright, with the
    /// theorem: Nim's `G(n) = n`, Bash's `G(n) = n mod (M + 1)`. `None` (the default) when
    /// only a finite check under [`HeapGame::periodicity`] can prove one.
    fn known_period(&self) -> Option<period::KnownPeriod> {
        None
    }

    /// `G(heap)` for a heap of any size by a closed form (Nim's `n`, Bash's `n mod (M + 1)`),
    /// or `None` (the default) when the family has none and the value comes from the
    /// nim-sequence.
    fn closed_form_value(&self, heap: &BigUint) -> Option<BigUint> {
        let _ = heap;
        None
    }

    /// Every option of `heap` whose value is `target`, each a single heap, by the closed form
    /// (for families whose moves never split a heap and whose options are too many to list:
    /// a Nim heap of 10^30), or `None` (the default) to filter the listed options.
    fn closed_form_moves(&self, heap: &BigUint, target: &BigUint) -> Option<Vec<BigUint>> {
        let _ = (heap, target);
        None
    }

    /// Whether the game is Nim itself (every smaller heap an option, nothing else): its sums of
    /// any size are then decided under misère play by Bouton's rule (`misere::nim`) instead of
    /// a search. `false` (the default) for every other game.
    fn is_nim(&self) -> bool {
        false
    }

    /// How many options `heap` has, when that is known without listing them (Nim: `n`), so a
    /// limit on listing them is decided before any work. `None` (the default) when unknown.
    fn option_count(&self, heap: &BigUint) -> Option<BigUint> {
        let _ = heap;
        None
    }
}

/// A heap game whose rules are a take-and-break move set held by a
/// [`sequence::NimSequenceEngine`] (octal and hexadecimal games, Grundy's game). Implementing
/// it is the game's whole [`HeapGame`]: its options (listed, or walked one by one), its
/// nim-sequence and the method that computed it all come from the engine, written once in the
/// blanket implementation below; the game says only what differs, its name and the theorem
/// that proves its periods. The engine's hot paths are called directly, with nothing between.
pub trait EngineBacked: Send + Sync {
    /// The engine holding the game's moves and computing its nim-sequence (tests and
    /// benchmarks force a kernel through it).
    fn engine(&self) -> &sequence::NimSequenceEngine;

    /// What the game's [`HeapGame::spec`] is.
    fn engine_game_spec(&self) -> String;

    /// What the game's [`HeapGame::canonical_spec`] is (by default its spec).
    fn engine_game_canonical_spec(&self) -> String {
        self.engine_game_spec()
    }

    /// What the game's [`HeapGame::periodicity`] is.
    fn engine_game_periodicity(&self) -> Periodicity;
}

impl<Game: EngineBacked> HeapGame for Game {
    fn spec(&self) -> String {
        self.engine_game_spec()
    }

    fn canonical_spec(&self) -> String {
        self.engine_game_canonical_spec()
    }

    fn extend_sequence(&self, values: &mut CompactSequence, len: usize, control: &Control) -> Extended {
        self.engine().extend(&self.spec(), values, len, control)
    }

    fn periodicity(&self) -> Periodicity {
        self.engine_game_periodicity()
    }

    fn heap_options(&self, heap: u64) -> Vec<Vec<u64>> {
        self.engine().moves().heap_options(heap)
    }

    /// One option at a time (a heap of `n` may have about `n/2` splits).
    fn for_each_heap_option(&self, heap: u64, visit: &mut dyn FnMut(&[u64])) {
        self.engine().moves().for_each_option(heap, |parts| visit(parts));
    }

    fn try_for_each_heap_option(
        &self,
        heap: u64,
        visit: &mut dyn FnMut(&[u64]) -> std::ops::ControlFlow<()>,
    ) -> std::ops::ControlFlow<()> {
        self.engine().moves().try_for_each_option(heap, |parts| visit(parts))
    }

    fn method(&self) -> String {
        self.engine().method()
    }

    fn nim_sequence_engine(&self) -> Option<&sequence::NimSequenceEngine> {
        Some(self.engine())
    }
}

/// Extends `values` towards `len` by `fill(values, next)`, which appends the values up to heap
/// `next` (exclusive), a chunk of `chunk` heaps at a time, on the values widened once to four
/// bytes each: the table reserved once and fallibly against the memory limit, cancellation
/// polled and progress reported between chunks. What every heap game without a kernel of its
/// own runs in [`HeapGame::extend_sequence`].
///
/// # Errors
/// [`GameError::TooLarge`] when the table would not fit in memory.
pub(crate) fn extend_in_chunks(
    spec: &str,
    values: &mut CompactSequence,
    len: usize,
    chunk: usize,
    control: &Control,
    mut fill: impl FnMut(&mut Vec<u32>, usize),
) -> Result<bool, GameError> {
    let values = values.words_mut();
    let what = || format!("the nim-sequence of {spec} up to heap {len}");
    control.check_memory(what, len as u128, 4)?;
    // The whole table at once and fallibly: no doubling past the estimate, no abort.
    control.try_reserve_table(values, len.saturating_sub(values.len()), what)?;
    let task = control.task(SEQUENCE_TASK, len as u64);
    while values.len() < len {
        if control.cancelled() {
            return Ok(false);
        }
        let next = len.min(values.len() + chunk);
        fill(values, next);
        task.set(values.len() as u64);
    }
    Ok(true)
}

/// The theorem under which an observed period of a nim-sequence is proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Periodicity {
    /// Octal and hexadecimal games whose moves remove at most `max_removal` tokens (`t`) and
    /// leave at most `max_parts` heaps (`j`: 2 for octal codes, 3 for hexadecimal codes with a
    /// digit 8): the periodicity theorem (Guy and Smith 1956; *Winning Ways* ch. 4; for `j`
    /// parts, Howse and Nowakowski 2004): if `G(n + p) = G(n)` for all
    /// `e ≤ n < j·e + (j − 1)·p + t` with `e ≥ 1`, the sequence has period `p` from `e` on (for
    /// `e = 0` check from `e = 1`: see [`period`]). With `j = 2` this is `2e + p + t`.
    Octal {
        /// The largest number of tokens one move removes (`t`).
        max_removal: u64,
        /// The most heaps one move leaves (`j`, 2 or 3).
        max_parts: u64,
    },
    /// Subtraction games with largest element `max_take`: once `max_take` consecutive values
    /// repeat, everything after repeats (each value depends only on the `max_take` before it).
    Subtraction {
        /// The largest element of the subtraction set.
        max_take: u64,
    },
    /// No theorem applies (Grundy's game, or removals without bound): a period can only be
    /// observed, never proved.
    Unproved,
}

/// The name of the progress task every nim-sequence computation opens on its [`Control`]
/// (through [`Control::task`]): its count is the number of values known (heaps
/// `0 … count − 1`, from heap 0 even when the call started later), its total the values asked
/// for. A caller that shows its own progress (an enclosing task, a front end's bar of values)
/// takes these counts with [`Control::relaying`]. Reported once a block of heaps, never per
/// heap; without a sink, a report costs nothing.
pub const SEQUENCE_TASK: &str = "the nim-sequence";

/// A heap for a person to read: its size and a bar of `#` (at most 40, then `…`).
///
/// ```
/// assert_eq!(grundy::heap::heap_bar(&3u32.into()), "3 ###");
/// ```
pub fn heap_bar(heap: &BigUint) -> String {
    const LONGEST: u64 = 40;
    match heap.to_u64() {
        Some(0) => "0".to_owned(),
        Some(size) if size <= LONGEST => format!("{heap} {}", "#".repeat(size as usize)),
        _ => format!("{heap} {}…", "#".repeat(LONGEST as usize)),
    }
}

/// Parses a heap size of any length of decimal digits.
///
/// # Errors
/// [`GameError::BadComponent`] for a sign, an empty text or anything but digits.
///
/// ```
/// use grundy::heap::parse_heap;
/// assert_eq!(parse_heap("nim", "12").unwrap(), 12u32.into());
/// assert!(parse_heap("nim", "-3").unwrap_err().to_string().contains("negative"));
/// ```
pub fn parse_heap(game: &str, text: &str) -> Result<BigUint, GameError> {
    let bad = |reason: &str| GameError::BadComponent {
        game: game.to_owned(),
        text: text.to_owned(),
        reason: reason.to_owned(),
    };
    if text.starts_with('-') && text.len() > 1 {
        return Err(bad("a heap cannot be negative"));
    }
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad("a heap is a non-negative integer in decimal digits"));
    }
    Ok(text.parse().expect("decimal digits parse"))
}

/// Parses a heap size that must fit a machine word (for games whose values come from a table).
///
/// # Errors
/// As [`parse_heap`], and for a heap past `u64::MAX`.
pub fn parse_small_heap(game: &str, text: &str) -> Result<u64, GameError> {
    parse_heap(game, text)?.to_u64().ok_or_else(|| GameError::BadComponent {
        game: game.to_owned(),
        text: text.to_owned(),
        reason: "the heap is larger than 2^64 - 1, beyond any table".to_owned(),
    })
}

/// Parses a list of positive integers, comma-separated, optionally in braces: `2,5` or
/// `{1,3,4}`. Returns them sorted, without repeats.
pub(crate) fn parse_positive_list(spec: &str, list: &str, what: &str) -> Result<Vec<u64>, GameError> {
    let bad = |reason: String| GameError::BadGame { spec: spec.to_owned(), reason };
    let inner = list.strip_prefix('{').and_then(|rest| rest.strip_suffix('}')).unwrap_or(list);
    if inner.trim().is_empty() {
        return Err(bad(format!("the {what} is empty")));
    }
    let mut elements = Vec::new();
    for part in inner.split(',') {
        let part = part.trim();
        let element: u64 = match part.parse::<u64>() {
            Ok(element) if part.bytes().all(|b| b.is_ascii_digit()) => element,
            _ if part.starts_with('-') => return Err(bad(format!("`{part}` in the {what} is negative"))),
            _ if !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) => {
                return Err(bad(format!("`{part}` in the {what} is larger than 2^64 - 1")));
            }
            _ => return Err(bad(format!("`{part}` in the {what} is not a positive integer"))),
        };
        if element == 0 {
            return Err(bad(format!("`0` in the {what}: every element must be positive")));
        }
        elements.push(element);
    }
    elements.sort_unstable();
    elements.dedup();
    Ok(elements)
}
