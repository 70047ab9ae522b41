//! Grundy's game (`grundys-game`): split one heap into two non-empty heaps of different sizes.
//!
//! **No closed form, no period known.** Heaps of 1 and 2 cannot be split, so they are worth 0.
//! The nim-sequence (Grundy 1939; OEIS A002188; Flammenkamp, “Sprague-Grundy Values of
//! Grundy's Game”) has been computed far beyond 10^9 without a period appearing; it is not an
//! octal game (the two parts must differ), so no periodicity theorem applies and a period can
//! only be observed ([`Periodicity::Unproved`]). Its values are computed by the engine of
//! [`crate::heap::sequence`], where the rare-value method applies with the mask of every bit
//! but the lowest (Flammenkamp: 1287 rare values known).

use crate::heap::sequence::{NimSequenceEngine, TakeBreakMoves};
use crate::heap::{EngineBacked, Periodicity};

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
}

impl Default for GrundysGame {
    fn default() -> Self {
        GrundysGame::new()
    }
}

impl EngineBacked for GrundysGame {
    fn engine(&self) -> &NimSequenceEngine {
        &self.engine
    }

    fn engine_game_spec(&self) -> String {
        "grundys-game".to_owned()
    }

    /// Not an octal game: no theorem turns an observed period into a proof.
    fn engine_game_periodicity(&self) -> Periodicity {
        Periodicity::Unproved
    }
}
