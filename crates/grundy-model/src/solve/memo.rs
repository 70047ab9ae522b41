//! The Grundy value of any position by the definition, with an explicit memo.
//!
//! `G(p) = mex { G(q) : q an option of p }` (Sprague 1935; Grundy 1939). The search is an
//! iterative depth-first traversal with an explicit stack, so a chain of ten million positions
//! needs no deep recursion, and a position met again while it is still being evaluated proves a
//! cycle, reported as [`GameError::Cycle`] instead of being looped on.

use crate::control::{Control, Held};
use crate::error::GameError;
use crate::game::Game;
use crate::nimber::{Nimber, first_zero_bit};
use rustc_hash::FxHashMap;

/// Marks a position whose evaluation has started but not finished.
const IN_PROGRESS: u64 = u64::MAX;

/// A memoizing solver for one game: values found by one call are reused by the next.
///
/// # Complexity
/// Time O(V + E) over the positions and moves reachable from the positions asked;
/// space one hash-map entry (the position and a `u64`) per position plus the stack.
///
/// ```
/// use grundy_model::game::Game;
/// use grundy_model::solve::memo::Solver;
/// /// The subtraction game S = {1, 3, 4}: take 1, 3 or 4 counters from one heap.
/// struct Subtraction;
/// impl Game for Subtraction {
///     type State = u64;
///     fn options_into(&self, heap: &u64, out: &mut Vec<u64>) {
///         out.extend([1, 3, 4].iter().filter(|&&take| take <= *heap).map(|take| heap - take));
///     }
/// }
/// let mut solver = Solver::new(Subtraction);
/// let values: Vec<u64> = (0..10).map(|n| solver.grundy_value(&n).unwrap().0).collect();
/// assert_eq!(values, [0, 1, 0, 1, 2, 3, 2, 0, 1, 0]);
/// ```
pub struct Solver<G: Game> {
    game: G,
    memo: FxHashMap<G::State, u64>,
    max_positions: usize,
    /// The run whose one memory budget the memo counts against, and what it holds there
    /// (grown before the memo's table doubles); none: only `max_positions` bounds it.
    budget: Option<(Control, Held)>,
}

struct Frame<P> {
    position: P,
    /// Where this position's options start in the shared option buffer.
    options_start: usize,
    /// The next option to look at.
    cursor: usize,
}

impl<G: Game> Solver<G> {
    /// A solver with an empty memo, allowed to remember up to 200 million positions.
    pub fn new(game: G) -> Self {
        Self::with_limit(game, 200_000_000)
    }

    /// A solver that refuses (with [`GameError::TooLarge`]) to remember more than
    /// `max_positions` positions.
    pub fn with_limit(game: G, max_positions: usize) -> Self {
        Solver { game, memo: FxHashMap::default(), max_positions, budget: None }
    }

    /// A solver remembering up to `max_positions` positions whose memo also counts against
    /// `control`'s one budget for the run: each growth of its table is checked before it is
    /// made, and refused ([`GameError::TooLarge`]) past what the rest of the run leaves.
    ///
    /// ```
    /// use grundy_model::control::Control;
    /// use grundy_model::game::Game;
    /// use grundy_model::solve::memo::Solver;
    /// struct Chain;
    /// impl Game for Chain {
    ///     type State = u64;
    ///     fn options_into(&self, n: &u64, out: &mut Vec<u64>) {
    ///         out.extend(n.checked_sub(1));
    ///     }
    /// }
    /// let control = Control::default().with_memory_limit(4 << 20);
    /// let mut solver = Solver::with_control(Chain, 10_000_000, &control);
    /// assert_eq!(solver.grundy_value(&1000).unwrap().0, 0);
    /// assert!(control.held_bytes() > 0);
    /// let error = solver.grundy_value(&1_000_000).unwrap_err().to_string();
    /// assert!(error.contains("--memory-limit"), "{error}");
    /// ```
    pub fn with_control(game: G, max_positions: usize, control: &Control) -> Self {
        Solver { game, memo: FxHashMap::default(), max_positions, budget: Some((control.clone(), control.hold(0))) }
    }

    /// The most positions this solver remembers.
    pub fn max_positions(&self) -> usize {
        self.max_positions
    }

    /// The game being solved.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// How many positions have been evaluated so far.
    pub fn positions_evaluated(&self) -> usize {
        self.memo.len()
    }

    /// The memory the memo holds now, in bytes: its hash table's buckets (an entry and a
    /// control byte each), not counting what positions own on the heap.
    pub fn memo_bytes(&self) -> usize {
        let buckets = if self.memo.capacity() == 0 { 0 } else { (self.memo.capacity() * 8 / 7).next_power_of_two() };
        buckets * (std::mem::size_of::<(G::State, u64)>() + 1)
    }

    /// The value of a position evaluated earlier, if it was.
    pub fn known_value(&self, position: &G::State) -> Option<Nimber> {
        self.memo.get(position).filter(|&&value| value != IN_PROGRESS).map(|&value| Nimber(value))
    }

    /// The Grundy value of `position`.
    ///
    /// # Errors
    /// [`GameError::Cycle`] if a position can be reached from itself;
    /// [`GameError::TooLarge`] past the position limit.
    pub fn grundy_value(&mut self, position: &G::State) -> Result<Nimber, GameError> {
        if let Some(value) = self.known_value(position) {
            return Ok(value);
        }
        let result = self.search(position);
        if result.is_err() {
            // Drop the unfinished marks, so that the solver stays usable.
            self.memo.retain(|_, value| *value != IN_PROGRESS);
        }
        result
    }

    fn search(&mut self, root: &G::State) -> Result<Nimber, GameError> {
        let mut options: Vec<G::State> = Vec::new();
        let mut stack: Vec<Frame<G::State>> = Vec::new();
        let mut seen_words: Vec<u64> = Vec::new();
        self.enter(root.clone(), &mut stack, &mut options)?;
        while let Some(frame) = stack.last_mut() {
            // Advance past options already evaluated; descend into the first one that is not.
            let mut descend = None;
            while frame.cursor < options.len() {
                match self.memo.get(&options[frame.cursor]) {
                    Some(&IN_PROGRESS) => {
                        return Err(GameError::Cycle { position: format!("{:?}", options[frame.cursor]) });
                    }
                    Some(_) => frame.cursor += 1,
                    None => {
                        descend = Some(options[frame.cursor].clone());
                        break;
                    }
                }
            }
            if let Some(child) = descend {
                self.enter(child, &mut stack, &mut options)?;
                continue;
            }
            // Every option is evaluated: the value is their mex.
            let frame = stack.pop().expect("the loop saw a frame");
            let option_count = options.len() - frame.options_start;
            seen_words.clear();
            seen_words.resize(option_count / 64 + 1, 0);
            for option in options.drain(frame.options_start..) {
                let value = self.memo[&option];
                if value <= option_count as u64 {
                    seen_words[value as usize / 64] |= 1 << (value % 64);
                }
            }
            let value = first_zero_bit(&seen_words);
            *self.memo.get_mut(&frame.position).expect("entered positions are marked") = value;
            if stack.is_empty() {
                return Ok(Nimber(value));
            }
        }
        unreachable!("the root frame returns its value")
    }

    fn enter(
        &mut self,
        position: G::State,
        stack: &mut Vec<Frame<G::State>>,
        options: &mut Vec<G::State>,
    ) -> Result<(), GameError> {
        if self.memo.len() >= self.max_positions {
            let entry_bytes = (std::mem::size_of::<(G::State, u64)>() + 1) as u128;
            return Err(GameError::TooLarge {
                what: format!("the search, past {} positions,", self.max_positions),
                bytes_needed: (self.memo.len() as u128 + 1) * entry_bytes,
                limit: self.max_positions as u128 * entry_bytes,
            });
        }
        if self.memo.len() >= self.memo.capacity()
            && let Some((control, held)) = &mut self.budget
        {
            // The next insertion doubles the table: count the doubled table first.
            let buckets = ((self.memo.capacity().max(3) * 2) * 8 / 7).next_power_of_two();
            let bytes = (buckets as u128) * (std::mem::size_of::<(G::State, u64)>() as u128 + 1);
            let positions = self.memo.len();
            control.grow_held(held, bytes, || format!("the search's memo, past {positions} positions,"))?;
        }
        let options_start = options.len();
        self.game.options_into(&position, options);
        self.memo.insert(position.clone(), IN_PROGRESS);
        stack.push(Frame { position, options_start, cursor: options_start });
        Ok(())
    }
}

/// The Grundy value of one position by the definition (a fresh [`Solver`]).
///
/// ```
/// use grundy_model::game::Game;
/// use grundy_model::solve::memo::grundy_value;
/// /// One Nim heap: take any number of counters.
/// struct NimHeap;
/// impl Game for NimHeap {
///     type State = u64;
///     fn options_into(&self, heap: &u64, out: &mut Vec<u64>) {
///         out.extend(0..*heap);
///     }
/// }
/// assert_eq!(grundy_value(&NimHeap, &9).unwrap().0, 9);
/// ```
pub fn grundy_value<G: Game>(game: &G, position: &G::State) -> Result<Nimber, GameError> {
    Solver::new(game).grundy_value(position)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chain 0 ← 1 ← 2 ← … with one move from each position.
    struct Chain;
    impl Game for Chain {
        type State = u32;
        fn options_into(&self, position: &u32, out: &mut Vec<u32>) {
            if *position > 0 {
                out.push(position - 1);
            }
        }
    }

    /// A three-cycle 0 → 1 → 2 → 0.
    struct Triangle;
    impl Game for Triangle {
        type State = u8;
        fn options_into(&self, position: &u8, out: &mut Vec<u8>) {
            out.push((position + 1) % 3);
        }
    }

    #[test]
    fn long_chain_does_not_overflow_the_stack() {
        let value = grundy_value(&Chain, &10_000_000).unwrap();
        assert_eq!(value, Nimber(0));
        assert_eq!(grundy_value(&Chain, &9_999_999).unwrap(), Nimber(1));
    }

    #[test]
    fn cycle_is_an_error_and_the_solver_stays_usable() {
        let mut solver = Solver::new(Triangle);
        assert!(matches!(solver.grundy_value(&0), Err(GameError::Cycle { .. })));
        assert!(matches!(solver.grundy_value(&1), Err(GameError::Cycle { .. })));
    }

    #[test]
    fn position_limit_is_refused_not_exceeded() {
        let mut solver = Solver::with_limit(Chain, 100);
        assert!(matches!(solver.grundy_value(&1000), Err(GameError::TooLarge { .. })));
        assert!(solver.grundy_value(&50).is_ok());
    }
}
