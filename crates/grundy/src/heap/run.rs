//! [`SequenceRun`]: the one policy of a long nim-sequence computation, which every front end
//! (the CLI's `sequence`, `period` and `stats`, Python's `Game.sequence`, `Game.period`,
//! `Game.plot`) calls instead of writing its own: the memory decided once, before anything
//! is allocated, through [`Control::check_memory`]; the sequence extended in growing chunks,
//! each followed by the front end's checkpoint hook; progress and cancellation through the
//! [`Control`] passed in (never a static; the values known reported as its
//! [`SEQUENCE_TASK`](crate::heap::SEQUENCE_TASK) task); and a run resumed from a checkpoint
//! spot-checked against the rules first.
//!
//! What stays in a front end is what touches the world: the checkpoint's file (locked, written
//! atomically: the bytes come from [`crate::heap::checkpoint`]), the progress bar, the signals.
//! The hook is given the values after each chunk and decides itself whether to save (a file
//! saved every minute, a test that keeps every state).

use crate::control::Control;
use crate::error::GameError;
use crate::heap::checkpoint::{CheckpointError, spot_check};
use crate::heap::period::{PeriodReport, find_period};
use crate::heap::{CompactSequence, HeapGame};

/// The fewest heaps a chunk holds: below this, the hook would run too often to matter.
const SMALLEST_CHUNK: usize = 1 << 16;
/// The most heaps a chunk holds, so that the hook runs at least this often.
const LARGEST_CHUNK: usize = 1 << 24;

/// One long computation of a heap game's nim-sequence: the values computed so far (from heap
/// 0, perhaps read back from a checkpoint), extended in chunks towards the run's length.
///
/// ```
/// use grundy::control::Control;
/// use grundy::heap::octal::OctalGame;
/// use grundy::heap::run::SequenceRun;
/// let kayles = OctalGame::kayles();
/// let mut run = SequenceRun::to(&kayles, 100, &Control::default()).unwrap();
/// let mut saves = 0;
/// assert!(run.extend(&Control::default(), &mut |_| saves += 1).unwrap());
/// assert_eq!(run.values().iter().take(8).collect::<Vec<_>>(), [0, 1, 2, 3, 1, 4, 3, 2]);
/// assert_eq!(saves, 1);
/// ```
pub struct SequenceRun<'g> {
    game: &'g dyn HeapGame,
    values: CompactSequence,
    /// The values the run computes: heaps `0 … len − 1`.
    len: usize,
}

/// What the hook after each chunk is given: the values computed so far.
pub type ChunkHook<'h> = dyn FnMut(&CompactSequence) + 'h;

impl<'g> SequenceRun<'g> {
    /// A run of `game` to `len` values (heaps `0 … len − 1`), after its one memory decision:
    /// refused before anything is allocated (and before a front end opens a checkpoint) when a
    /// table of four bytes a value, the widest a [`CompactSequence`] gets, would pass the
    /// control's limit.
    ///
    /// # Errors
    /// [`GameError::TooLarge`] naming the table.
    pub fn to(game: &'g dyn HeapGame, len: usize, control: &Control) -> Result<Self, GameError> {
        control.check_memory(
            || format!("the nim-sequence of {} up to heap {}", game.spec(), len.saturating_sub(1)),
            len as u128,
            4,
        )?;
        Ok(SequenceRun { game, values: CompactSequence::new(), len })
    }

    /// A run of `game` for a period search up to heap `max_heap` ([`SequenceRun::find_period`]),
    /// whose memory the search decides itself (the values, and for subtraction games the table
    /// of windows).
    pub fn for_period(game: &'g dyn HeapGame, max_heap: u64) -> Self {
        let len = usize::try_from(max_heap.saturating_add(1)).unwrap_or(usize::MAX);
        SequenceRun { game, values: CompactSequence::new(), len }
    }

    /// Continues from `values`, a prefix read back from a checkpoint (whose decoding already
    /// checked its game, length and checksum), in place of what the run holds: refused unless
    /// a sample of its values agree with the rules ([`spot_check`]), so that a checkpoint
    /// written by a faulty build is not continued.
    ///
    /// # Errors
    /// [`CheckpointError`] naming the first value that disagrees.
    pub fn resume(&mut self, values: CompactSequence) -> Result<(), CheckpointError> {
        spot_check(self.game, &values)?;
        self.values = values;
        Ok(())
    }

    /// How many values the run computes: heaps `0 … target_len − 1`.
    pub fn target_len(&self) -> usize {
        self.len
    }

    /// The values computed so far.
    pub fn values(&self) -> &CompactSequence {
        &self.values
    }

    /// The game.
    pub fn game(&self) -> &'g dyn HeapGame {
        self.game
    }

    /// The values, the run ended.
    pub fn into_values(self) -> CompactSequence {
        self.values
    }

    /// The values, taken out of the run (which holds none after), for a front end whose run
    /// is part of a value it cannot take apart.
    pub fn take_values(&mut self) -> CompactSequence {
        std::mem::take(&mut self.values)
    }

    /// The heap the next chunk ends at (exclusive): a sixteenth of the values known, at least
    /// [`SMALLEST_CHUNK`] and at most [`LARGEST_CHUNK`] heaps, so that the hook runs often on a
    /// long run without slowing a short one.
    fn chunk_end(&self) -> usize {
        let known = self.values.len();
        self.len.min(known.saturating_add((known / 16).clamp(SMALLEST_CHUNK, LARGEST_CHUNK)))
    }

    /// Extends the values to the run's length (nothing when there are as many already) in
    /// chunks, calling `after_chunk` with the values after each. `Ok(false)` when the control's
    /// cancel flag stopped it (the values computed stay, and `after_chunk` has seen them).
    ///
    /// # Errors
    /// The game's own (a script's `moves`; [`GameError::TooLarge`] for a game's tables beyond
    /// the values); [`GameError::OutOfReach`] when a game's computation made no progress.
    pub fn extend(&mut self, control: &Control, after_chunk: &mut ChunkHook<'_>) -> Result<bool, GameError> {
        while self.values.len() < self.len {
            let next = self.chunk_end();
            let before = self.values.len();
            let done = self.game.extend_sequence(&mut self.values, next, control)?;
            if done && self.values.len() <= before {
                return Err(GameError::OutOfReach(format!(
                    "internal error: the sequence of {} did not grow past heap {before}",
                    self.game.spec()
                )));
            }
            after_chunk(&self.values);
            if !done || control.cancelled() {
                return Ok(self.values.len() >= self.len);
            }
        }
        Ok(true)
    }

    /// Searches for a proved period up to heap `max_heap` ([`find_period`], which decides its
    /// own memory), extending the values as far as the search needs and calling `after_chunk`
    /// after each stretch.
    ///
    /// # Errors
    /// As [`find_period`].
    pub fn find_period(
        &mut self,
        max_heap: u64,
        control: &Control,
        after_chunk: &mut ChunkHook<'_>,
    ) -> Result<PeriodReport, GameError> {
        find_period(self.game, &mut self.values, max_heap, control, after_chunk)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::checkpoint::{decode, encode};
    use crate::heap::grundys_game::GrundysGame;
    use crate::heap::octal::OctalGame;
    use crate::heap::subtraction::SubtractionGame;
    use proptest::prelude::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// The games the runs are tried on: an engine in place (one byte a value, then two), a game
    /// widened to four bytes by `extend_in_chunks`, and Grundy's game.
    fn games() -> Vec<Box<dyn HeapGame>> {
        vec![
            Box::new(OctalGame::kayles()),
            Box::new(SubtractionGame::parse("sub:2,5,7", "2,5,7").unwrap()),
            Box::new(GrundysGame::new()),
            Box::new(OctalGame::parse("0.6", crate::heap::octal::CodeBase::Octal).unwrap()),
        ]
    }

    /// The sequence in one call of the game's own `extend_sequence`, no chunks.
    fn unchunked(game: &dyn HeapGame, len: usize) -> Vec<u32> {
        let mut values = CompactSequence::new();
        assert!(game.extend_sequence(&mut values, len, &Control::default()).unwrap());
        values.to_vec()
    }

    #[test]
    fn chunked_equals_one_call_and_the_hook_sees_every_chunk() {
        for game in games() {
            let len = 3 * SMALLEST_CHUNK + 123;
            let mut run = SequenceRun::to(&*game, len, &Control::default()).unwrap();
            let mut seen = Vec::new();
            assert!(run.extend(&Control::default(), &mut |values| seen.push(values.len())).unwrap());
            assert_eq!(run.values().to_vec(), unchunked(&*game, len), "{}", game.spec());
            // Chunks of at least SMALLEST_CHUNK heaps, the last one short.
            assert_eq!(seen, [SMALLEST_CHUNK, 2 * SMALLEST_CHUNK, 3 * SMALLEST_CHUNK, len], "{}", game.spec());
        }
    }

    #[test]
    fn a_run_interrupted_and_resumed_from_its_checkpoint_equals_one_run() {
        for game in games() {
            let len = 4 * SMALLEST_CHUNK + 7;
            let control = Control::default();
            // Cancelled from a progress sink once the second chunk is under way.
            let reported = Arc::new(AtomicUsize::new(0));
            let cancel = control.cancel_flag();
            let seen = Arc::clone(&reported);
            let sequence_control = control.relaying(crate::heap::SEQUENCE_TASK, move |done| {
                seen.store(done as usize, Ordering::Relaxed);
                if done > SMALLEST_CHUNK as u64 {
                    cancel.store(true, Ordering::SeqCst);
                }
            });
            let mut run = SequenceRun::to(&*game, len, &control).unwrap();
            let mut saved = Vec::new();
            let spec = game.canonical_spec();
            let finished = run.extend(&sequence_control, &mut |values| saved = encode(&spec, values)).unwrap();
            assert!(!finished, "{}: the cancel flag stops the run", game.spec());
            assert!(reported.load(Ordering::Relaxed) > 0);
            let stopped_at = run.values().len();
            assert!(stopped_at < len, "{}", game.spec());
            // The checkpoint holds what the run computed; a new run continues from it.
            let read_back = decode(&saved, &spec).unwrap();
            assert_eq!(read_back.len(), stopped_at);
            let mut resumed = SequenceRun::to(&*game, len, &Control::default()).unwrap();
            resumed.resume(read_back).unwrap();
            assert!(resumed.extend(&Control::default(), &mut |_| {}).unwrap());
            assert_eq!(resumed.into_values().to_vec(), unchunked(&*game, len), "{}", game.spec());
        }
    }

    #[test]
    fn a_checkpoint_whose_values_break_the_rules_is_not_resumed() {
        let kayles = OctalGame::kayles();
        let mut values = CompactSequence::from_values(&unchunked(&kayles, 500));
        let mut wrong = values.to_vec();
        wrong[300] ^= 1;
        values = CompactSequence::from_values(&wrong);
        let mut run = SequenceRun::to(&kayles, 1000, &Control::default()).unwrap();
        assert!(run.resume(values).is_err());
        assert_eq!(run.values().len(), 0);
    }

    #[test]
    fn the_memory_decision_refuses_before_allocating() {
        let kayles = OctalGame::kayles();
        // 4000 bytes: a table of 1000 values at four bytes each fits, one more value does not.
        let control = Control::default().with_memory_limit(4000);
        assert!(SequenceRun::to(&kayles, 1000, &control).is_ok());
        let error = SequenceRun::to(&kayles, 1001, &control).err().expect("refused");
        assert!(matches!(error, GameError::TooLarge { .. }), "{error}");
        assert!(error.to_string().contains("the nim-sequence of kayles up to heap 1000"), "{error}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// Any split of a run into stretches (each a call of `extend`) gives the one-call values.
        #[test]
        fn stretches_equal_one_call(cuts in proptest::collection::vec(1usize..3000, 1..5), which in 0usize..4) {
            let game = &games()[which];
            let mut len = 0;
            let mut values = CompactSequence::new();
            for cut in &cuts {
                len += cut;
                let mut run = SequenceRun::to(&**game, len, &Control::default()).unwrap();
                run.resume(values).unwrap();
                let finished = run.extend(&Control::default(), &mut |_| ()).unwrap();
                prop_assert!(finished);
                values = run.into_values();
            }
            prop_assert_eq!(values.to_vec(), unchunked(&**game, len));
        }
    }
}
