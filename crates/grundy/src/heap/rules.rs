//! [`HeapRules`]: any [`HeapGame`] as a front-end family, with a cached nim-sequence.

use crate::error::{GameError, check_memory};
use crate::heap::{HeapGame, SequenceControl, heap_bar, parse_heap};
use crate::ruleset::{ComponentGame, ComponentMove, too_many_moves};
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use std::sync::RwLock;

/// A heap game for the front end: components are heap sizes, values come from the game's
/// nim-sequence, computed once as far as the largest heap asked and kept.
///
/// ```
/// use grundy::heap::HeapRules;
/// use grundy::heap::subtraction::SubtractionGame;
/// let rules = HeapRules::new(SubtractionGame::new(vec![1, 3, 4]).unwrap());
/// assert_eq!(rules.heap_value(7).unwrap(), 0);
/// assert_eq!(rules.heap_value(6).unwrap(), 2);
/// ```
pub struct HeapRules<G> {
    game: G,
    table: RwLock<Vec<u32>>,
}

impl<G: HeapGame> HeapRules<G> {
    /// The front end of `game`, with an empty table.
    pub fn new(game: G) -> Self {
        HeapRules { game, table: RwLock::new(Vec::new()) }
    }

    /// The rules.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// `G(heap)`, growing the cached table as far as needed.
    ///
    /// # Errors
    /// [`GameError::TooLarge`] when the table would not fit in memory.
    pub fn heap_value(&self, heap: u64) -> Result<u32, GameError> {
        if let Some(&value) = self.table.read().expect("table lock").get(heap as usize) {
            return Ok(value);
        }
        let len = heap.checked_add(1).and_then(|len| usize::try_from(len).ok()).unwrap_or(usize::MAX);
        check_memory(|| format!("the nim-sequence of {} up to heap {heap}", self.game.spec()), len as u128, 4)?;
        let mut table = self.table.write().expect("table lock");
        self.game.extend_sequence(&mut table, len, &SequenceControl::default())?;
        Ok(table[heap as usize])
    }

    fn small_heap(&self, heap: &BigUint) -> Result<u64, GameError> {
        heap.to_u64().ok_or_else(|| GameError::BadComponent {
            game: self.game.spec(),
            text: heap.to_string(),
            reason: "the heap is larger than 2^64 - 1, beyond any table".to_owned(),
        })
    }
}

/// The move from `heap` to the heaps `option` leaves: `7 -> 2 + 3`, or `3 -> 0` when none.
fn heap_move(heap: u64, option: Vec<u64>) -> ComponentMove<BigUint> {
    let parts: Vec<String> = option.iter().map(u64::to_string).collect();
    let notation = if parts.is_empty() { format!("{heap} -> 0") } else { format!("{heap} -> {}", parts.join(" + ")) };
    ComponentMove { result: option.into_iter().map(BigUint::from).collect(), notation }
}

impl<G: HeapGame> ComponentGame for HeapRules<G> {
    type Component = BigUint;

    fn spec(&self) -> String {
        self.game.spec()
    }

    fn parse_component(&self, text: &str) -> Result<BigUint, GameError> {
        parse_heap(&self.game.spec(), text)
    }

    fn format_component(&self, heap: &BigUint) -> String {
        heap.to_string()
    }

    fn component_value(&self, heap: &BigUint) -> Result<BigUint, GameError> {
        self.heap_value(self.small_heap(heap)?).map(BigUint::from)
    }

    fn moves_to_value(&self, heap: &BigUint, target: &BigUint) -> Result<Vec<ComponentMove<BigUint>>, GameError> {
        let Some(target) = target.to_u32() else { return Ok(Vec::new()) };
        let heap = self.small_heap(heap)?;
        let mut moves = Vec::new();
        for option in self.game.heap_options(heap) {
            let mut value = 0;
            for &part in &option {
                value ^= self.heap_value(part)?;
            }
            if value == target {
                moves.push(heap_move(heap, option));
            }
        }
        Ok(moves)
    }

    fn component_options(&self, heap: &BigUint, limit: usize) -> Result<Vec<ComponentMove<BigUint>>, GameError> {
        let size = self.small_heap(heap)?;
        let options = self.game.heap_options(size);
        if options.len() > limit {
            return Err(too_many_moves(&self.game.spec(), &heap.to_string(), limit));
        }
        Ok(options.into_iter().map(|option| heap_move(size, option)).collect())
    }

    fn describe_component(&self, heap: &BigUint) -> String {
        heap_bar(heap)
    }

    fn heap_game(&self) -> Option<&dyn HeapGame> {
        Some(&self.game)
    }
}
