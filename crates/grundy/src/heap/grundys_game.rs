//! Grundy's game (`grundys-game`): split one heap into two non-empty heaps of different sizes.
//!
//! **No closed form, no period known.** Heaps of 1 and 2 cannot be split, so they are worth 0.
//! The nim-sequence (Grundy 1939; OEIS A002188; Flammenkamp, “Sprague-Grundy Values of
//! Grundy's Game”) has been computed far beyond 10^9 without a period appearing; it is not an
//! octal game (the two parts must differ), so no periodicity theorem applies and a period can
//! only be observed ([`Periodicity::Unproved`]). Its values are computed by the engine of
//! [`crate::heap::sequence`], where the rare-value method applies with the mask of every bit
//! but the lowest (Flammenkamp: 1287 rare values known).

use crate::error::GameError;
use crate::heap::sequence::{CompactSequence, NimSequenceEngine, TakeBreakMoves};
use crate::heap::{HeapGame, Periodicity, SequenceControl};

/// Grundy's game.
///
/// ```
/// use grundy::heap::HeapGame;
/// use grundy::heap::grundys_game::GrundysGame;
/// let game = GrundysGame::new();
/// let mut values = grundy::heap::CompactSequence::new();
/// game.extend_sequence(&mut values, 10, &Default::default()).unwrap();
/// assert_eq!(values.to_vec(), [0, 0, 0, 1, 0, 2, 1, 0, 2, 1]);
/// assert_eq!(game.heap_options(6), vec![vec![1, 5], vec![2, 4]]);
/// ```
pub struct GrundysGame {
    engine: NimSequenceEngine,
}

impl GrundysGame {
    /// The game.
    pub fn new() -> Self {
        GrundysGame { engine: NimSequenceEngine::new(TakeBreakMoves::grundys_game()) }
    }

    /// The engine computing the nim-sequence (to force a kernel, in tests and benchmarks).
    pub fn engine(&self) -> &NimSequenceEngine {
        &self.engine
    }
}

impl Default for GrundysGame {
    fn default() -> Self {
        GrundysGame::new()
    }
}

impl HeapGame for GrundysGame {
    fn spec(&self) -> String {
        "grundys-game".to_owned()
    }

    fn extend_sequence(
        &self,
        values: &mut CompactSequence,
        len: usize,
        control: &SequenceControl,
    ) -> Result<bool, GameError> {
        self.engine.extend(&self.spec(), values, len, control)
    }

    /// Not an octal game: no theorem turns an observed period into a proof.
    fn periodicity(&self) -> Periodicity {
        Periodicity::Unproved
    }

    fn heap_options(&self, heap: u64) -> Vec<Vec<u64>> {
        self.engine.moves().heap_options(heap)
    }

    /// One option at a time (a heap of `n` has about `n/2` splits).
    fn for_each_heap_option(&self, heap: u64, visit: &mut dyn FnMut(&[u64])) {
        self.engine.moves().for_each_option(heap, |parts| visit(parts));
    }

    fn try_for_each_heap_option(
        &self,
        heap: u64,
        visit: &mut dyn FnMut(&[u64]) -> std::ops::ControlFlow<()>,
    ) -> std::ops::ControlFlow<()> {
        self.engine.moves().try_for_each_option(heap, |parts| visit(parts))
    }

    fn method(&self) -> String {
        self.engine.method()
    }

    fn nim_sequence_engine(&self) -> Option<&NimSequenceEngine> {
        Some(&self.engine)
    }
}
