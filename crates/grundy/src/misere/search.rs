//! Exhaustive misère search over sums of components of any game.
//!
//! Misère play: whoever makes the last move loses, so a position with no move is a win for the
//! player to move (an N-position), and a position is a P-position iff it has a move and every
//! move leads to an N-position. Nothing here uses normal-play values.
//!
//! A position is a multiset of components, stored sorted so that sums differing only in order
//! share one memo entry. Components without options are the empty game and are dropped: they
//! change no outcome. The search is an explicit-stack depth-first search (no recursion, so no
//! depth limit), stops at the first winning option of each position, and refuses to examine
//! more than `max_positions` positions.

use crate::control::Control;
use crate::error::GameError;
use crate::value::Outcome;
use rustc_hash::FxHashMap;
use std::collections::hash_map::Entry;
use std::hash::Hash;

/// The default bound on the positions one search may examine.
pub const DEFAULT_MAX_POSITIONS: usize = 2_000_000;

/// One misère winning move of a sum: component `component` (index into the sum as given) is
/// replaced by `replacement` (nothing when it vanishes, two components when it splits).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MisereMove<C> {
    /// The index (from 0) of the component moved in.
    pub component: usize,
    /// The components that replace it.
    pub replacement: Vec<C>,
}

/// An exhaustive misère solver for sums of components of type `C` whose options are given by
/// a closure: `options(c)` lists each option of `c` as the components replacing it.
///
/// The memo lives as long as the solver, so several questions about related sums (an outcome,
/// then the winning moves) share the work.
///
/// ```
/// use grundy::misere::search::MisereSearch;
/// use grundy::Outcome;
/// // Kayles (octal 0.77): knock down one pin or two adjacent pins from a row.
/// let kayles = |row: &u32| -> Result<Vec<Vec<u32>>, grundy::GameError> {
///     let mut options = Vec::new();
///     for take in 1..=2.min(*row) {
///         for left in 0..=(*row - take) {
///             let right = *row - take - left;
///             options.push([left, right].into_iter().filter(|&part| part > 0).collect());
///         }
///     }
///     Ok(options)
/// };
/// let mut search = MisereSearch::new(kayles, 1_000_000, &grundy::control::Control::default());
/// assert_eq!(search.outcome(&[1]).unwrap(), Outcome::P); // the last pin loses
/// assert_eq!(search.outcome(&[2]).unwrap(), Outcome::N); // take one, leave one
/// assert_eq!(search.outcome(&[1, 1]).unwrap(), Outcome::N); // take one pin, leave the last
/// assert!(search.positions() > 0);
/// ```
pub struct MisereSearch<C, F> {
    options: F,
    max_positions: usize,
    /// Options of each component met, with terminal components already dropped.
    component_options: FxHashMap<C, Vec<Vec<C>>>,
    /// `true` for misère P-positions, keyed by the sorted multiset of non-terminal components.
    memo: FxHashMap<Vec<C>, bool>,
    /// About what `memo` takes, held to the control's memory limit.
    memo_bytes: u128,
    /// The memory limit and progress sink of the search.
    control: Control,
}

/// A position being searched and how far it has looked: its children are made one at a time
/// (component `index`, option `option`), not listed up front — a sum of 200 heaps of Grundy's
/// game has 20,000 children of 200 heaps each, 32 MB a frame.
struct Frame<C> {
    position: Vec<C>,
    index: usize,
    option: usize,
    /// The child being searched below this frame, looked up again when it is resolved.
    pending: Option<Vec<C>>,
}

impl<C> Frame<C> {
    fn new(position: Vec<C>) -> Self {
        Frame { position, index: 0, option: 0, pending: None }
    }
}

/// About what one remembered position of `len` components takes: the vector, its components,
/// the hash table's slot and the allocator's header.
fn position_bytes<C>(len: usize) -> u128 {
    (std::mem::size_of::<Vec<C>>() + len * std::mem::size_of::<C>() + 32) as u128
}

impl<C, F> MisereSearch<C, F>
where
    C: Clone + Ord + Hash,
    F: Fn(&C) -> Result<Vec<Vec<C>>, GameError>,
{
    /// A solver over the game whose component options are `options`, examining at most
    /// `max_positions` positions (sums) in all, within `control`'s memory limit.
    pub fn new(options: F, max_positions: usize, control: &Control) -> Self {
        MisereSearch {
            options,
            max_positions,
            component_options: FxHashMap::default(),
            memo: FxHashMap::default(),
            memo_bytes: 0,
            control: control.clone(),
        }
    }

    /// The number of positions (sums) whose misère outcome is known so far.
    pub fn positions(&self) -> usize {
        self.memo.len()
    }

    /// The options of one component, terminal components dropped from each, cached.
    fn options_of(&mut self, component: &C) -> Result<&Vec<Vec<C>>, GameError> {
        if !self.component_options.contains_key(component) {
            let raw = (self.options)(component)?;
            let mut cleaned = Vec::with_capacity(raw.len());
            for option in raw {
                let mut kept = Vec::with_capacity(option.len());
                for part in option {
                    if !self.is_terminal(&part)? {
                        kept.push(part);
                    }
                }
                cleaned.push(kept);
            }
            self.component_options.insert(component.clone(), cleaned);
        }
        Ok(&self.component_options[component])
    }

    /// Whether `component` has no options (it is the empty game).
    fn is_terminal(&mut self, component: &C) -> Result<bool, GameError> {
        if let Some(options) = self.component_options.get(component) {
            return Ok(options.is_empty());
        }
        // Look at the raw options only: a component with any option is not terminal.
        Ok((self.options)(component)?.is_empty())
    }

    /// The sorted sum without its terminal components.
    fn normalize(&mut self, components: &[C]) -> Result<Vec<C>, GameError> {
        let mut kept = Vec::with_capacity(components.len());
        for component in components {
            if !self.is_terminal(component)? {
                kept.push(component.clone());
            }
        }
        kept.sort_unstable();
        Ok(kept)
    }

    /// The next position one move away from the normalized position of `frame` (equal
    /// components have the same moves, so only the first of each is moved in), or `None`
    /// when every one was made.
    fn next_child(&mut self, frame: &mut Frame<C>) -> Result<Option<Vec<C>>, GameError> {
        let position = &frame.position;
        while frame.index < position.len() {
            let index = frame.index;
            if index > 0 && position[index] == position[index - 1] {
                frame.index += 1;
                continue;
            }
            let options = self.options_of(&position[index])?;
            let Some(option) = options.get(frame.option) else {
                frame.index += 1;
                frame.option = 0;
                continue;
            };
            frame.option += 1;
            let mut child: Vec<C> = Vec::with_capacity(position.len() + option.len());
            child.extend_from_slice(&position[..index]);
            child.extend_from_slice(&position[index + 1..]);
            child.extend(option.iter().cloned());
            child.sort_unstable();
            return Ok(Some(child));
        }
        Ok(None)
    }

    /// The misère outcome of the sum of `components`.
    ///
    /// # Errors
    /// An error from the options closure; [`GameError::Cycle`] when a position can be reached
    /// from itself (misère outcomes of loopy games are not defined here);
    /// [`GameError::Unsupported`] when the answer needs more than `max_positions` positions.
    pub fn outcome(&mut self, components: &[C]) -> Result<Outcome, GameError> {
        let root = self.normalize(components)?;
        Ok(if self.is_p(root)? { Outcome::P } else { Outcome::N })
    }

    /// Whether the normalized `root` is a misère P-position.
    fn is_p(&mut self, root: Vec<C>) -> Result<bool, GameError> {
        if root.is_empty() {
            return Ok(false); // no move: the player to move has won
        }
        if let Some(&known) = self.memo.get(&root) {
            return Ok(known);
        }
        let mut on_stack: FxHashMap<Vec<C>, ()> = FxHashMap::default();
        on_stack.insert(root.clone(), ());
        // The frames, their pending children and `on_stack` hold each position on the stack
        // about three times.
        let mut stack_bytes = 3 * position_bytes::<C>(root.len());
        let mut stack = vec![Frame::new(root.clone())];
        // No total is known in advance: the count of positions decided so far, and no estimate.
        let task = self.control.task("the misère search, positions decided", 0);
        while let Some(frame) = stack.last_mut() {
            let mut resolved = None;
            let mut descend = None;
            while resolved.is_none() && descend.is_none() {
                let child = match frame.pending.take() {
                    Some(child) => child,
                    None => match self.next_child(frame)? {
                        Some(child) => child,
                        // It has moves (the root is not empty) and none wins.
                        None => {
                            resolved = Some(true);
                            break;
                        }
                    },
                };
                if child.is_empty() {
                    continue; // moving to the empty sum hands the opponent the win
                }
                match self.memo.get(&child) {
                    Some(true) => resolved = Some(false), // a move to a P-position wins
                    Some(false) => {}
                    None => {
                        if on_stack.contains_key(&child) {
                            return Err(GameError::Cycle { position: format!("{} components", child.len()) });
                        }
                        frame.pending = Some(child.clone());
                        descend = Some(child);
                    }
                }
            }
            if let Some(child) = descend {
                if self.memo.len() + stack.len() >= self.max_positions {
                    return Err(self.too_many());
                }
                stack_bytes += 3 * position_bytes::<C>(child.len());
                self.check_room(stack_bytes)?;
                on_stack.insert(child.clone(), ());
                stack.push(Frame::new(child));
                continue;
            }
            let frame = stack.pop().expect("a frame is on the stack");
            stack_bytes -= 3 * position_bytes::<C>(frame.position.len());
            on_stack.remove(&frame.position);
            match self.memo.entry(frame.position) {
                Entry::Occupied(_) => {}
                Entry::Vacant(slot) => {
                    self.memo_bytes += position_bytes::<C>(slot.key().len());
                    slot.insert(resolved.expect("resolved"));
                }
            }
            if self.memo.len().is_multiple_of(4096) {
                task.set(self.memo.len() as u64);
            }
        }
        Ok(self.memo[&root])
    }

    /// Refuses to go on when the positions remembered and on the stack pass the control's
    /// memory limit (`--memory-limit` in the CLI).
    fn check_room(&self, stack_bytes: u128) -> Result<(), GameError> {
        let bytes_needed = self.memo_bytes + stack_bytes;
        if bytes_needed > self.control.memory_limit() {
            return Err(self.control.too_large(
                format!("the misère search, after {} positions without an answer,", self.memo.len()),
                bytes_needed,
            ));
        }
        Ok(())
    }

    fn too_many(&self) -> GameError {
        GameError::Unsupported(format!(
            "the misère search passed {} positions without an answer (raise --max-positions)",
            self.max_positions
        ))
    }

    /// Every misère winning move of the sum of `components`: the moves to misère P-positions,
    /// by component index (as given) and then in the order the options closure lists them.
    ///
    /// # Errors
    /// As [`MisereSearch::outcome`].
    pub fn winning_moves(&mut self, components: &[C]) -> Result<Vec<MisereMove<C>>, GameError> {
        let mut moves = Vec::new();
        for (index, component) in components.iter().enumerate() {
            let options = (self.options)(component)?;
            for replacement in options {
                let mut after: Vec<C> = components[..index].to_vec();
                after.extend_from_slice(&components[index + 1..]);
                after.extend(replacement.iter().cloned());
                let normalized = self.normalize(&after)?;
                if self.is_p(normalized)? {
                    moves.push(MisereMove { component: index, replacement });
                }
            }
        }
        Ok(moves)
    }
}

/// The misère outcome of one sum, with the number of positions the search examined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOutcome {
    /// Who wins under misère play.
    pub outcome: Outcome,
    /// How many positions (sums) were examined.
    pub positions: usize,
}

/// The misère outcome of the sum of `components` by exhaustive search (see [`MisereSearch`]).
///
/// # Errors
/// As [`MisereSearch::outcome`].
///
/// ```
/// use grundy::misere::search::outcome;
/// use grundy::Outcome;
/// let nim = |heap: &u64| -> Result<Vec<Vec<u64>>, grundy::GameError> {
///     Ok((0..*heap).map(|smaller| vec![smaller]).collect())
/// };
/// let control = grundy::control::Control::default();
/// assert_eq!(outcome(&[1u64, 1, 1], nim, 1000, &control).unwrap().outcome, Outcome::P);
/// assert_eq!(outcome(&[2u64, 2], nim, 1000, &control).unwrap().outcome, Outcome::P);
/// assert!(outcome(&[30u64, 31, 29, 28], nim, 1000, &control).is_err()); // past the bound: a clear error
/// ```
pub fn outcome<C, F>(
    components: &[C],
    options: F,
    max_positions: usize,
    control: &Control,
) -> Result<SearchOutcome, GameError>
where
    C: Clone + Ord + Hash,
    F: Fn(&C) -> Result<Vec<Vec<C>>, GameError>,
{
    let mut search = MisereSearch::new(options, max_positions, control);
    let outcome = search.outcome(components)?;
    Ok(SearchOutcome { outcome, positions: search.positions() })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A loopy game: component 0 moves to 1 and 1 back to 0.
    #[test]
    fn cycles_are_reported_not_followed() {
        let loopy = |c: &u8| -> Result<Vec<Vec<u8>>, GameError> { Ok(vec![vec![1 - *c]]) };
        let error = MisereSearch::new(loopy, 1000, &crate::control::Control::default()).outcome(&[0]).unwrap_err();
        assert!(matches!(error, GameError::Cycle { .. }), "{error}");
    }

    #[test]
    fn option_errors_pass_through() {
        let failing = |_: &u8| -> Result<Vec<Vec<u8>>, GameError> { Err(GameError::Unsupported("no".into())) };
        assert!(MisereSearch::new(failing, 10, &crate::control::Control::default()).outcome(&[3]).is_err());
    }

    #[test]
    fn deep_games_need_no_recursion() {
        // A path of 200,000 single moves: misère, the player facing an odd path length... the
        // last mover loses, so n counters taken one at a time is P iff n is odd.
        let path =
            |n: &u32| -> Result<Vec<Vec<u32>>, GameError> { Ok(if *n == 0 { vec![] } else { vec![vec![*n - 1]] }) };
        let mut search = MisereSearch::new(path, 1_000_000, &crate::control::Control::default());
        assert_eq!(search.outcome(&[200_001]).unwrap(), Outcome::P);
        assert_eq!(search.outcome(&[200_000]).unwrap(), Outcome::N);
    }
}
