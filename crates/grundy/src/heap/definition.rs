//! [`HeapSum`]: any heap game by its rules alone, for the reference solver.

use crate::game::Game;
use crate::heap::HeapGame;
use crate::nimber::mex;
use std::ops::Deref;

/// A position of a heap game on several heaps: the heap sizes in increasing order, empty heaps
/// left out.
pub type HeapMultiset = Vec<u64>;

/// A heap game played on a sum of heaps, by the definition: a move replaces one heap by what
/// [`HeapGame::heap_options`] says it leaves. No closed form, kernel or theorem is used — not
/// even the Sprague–Grundy theorem, since the position is the whole sum — so
/// [`crate::solve::memo`] on it is the reference that every fast path of every heap family is
/// tested against.
///
/// ```
/// use grundy::heap::HeapSum;
/// use grundy::heap::octal::{CodeBase, OctalGame};
/// use grundy::solve::memo::grundy_value;
/// let kayles = OctalGame::parse("0.77", CodeBase::Octal).unwrap();
/// assert_eq!(grundy_value(&HeapSum(&kayles), &vec![4]).unwrap().0, 1);
/// assert_eq!(grundy_value(&HeapSum(&kayles), &vec![1, 4]).unwrap().0, 0);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct HeapSum<G>(pub G);

/// The nim-sequence `G(0), …, G(len − 1)` of any heap game by the definition on one heap:
/// `G(n)` is the mex of its options' values, an option that leaves several heaps worth the xor
/// of theirs (the Sprague–Grundy theorem: Sprague 1935, Grundy 1939). Only
/// [`HeapGame::for_each_heap_option`] is used, so it is the rules' own sequence for every heap
/// family, where [`HeapSum`] also checks the theorem; `tests/model.rs` compares the two for
/// every family of the registry.
///
/// ```
/// use grundy::heap::sequence_by_definition;
/// use grundy::heap::split_nim::SplitNim;
/// assert_eq!(sequence_by_definition(&SplitNim, 6), [0, 1, 2, 4, 7, 8]);
/// ```
pub fn sequence_by_definition<G: HeapGame + ?Sized>(game: &G, len: u64) -> Vec<u64> {
    let mut values: Vec<u64> = Vec::new();
    for heap in 0..len {
        let mut reached = Vec::new();
        game.for_each_heap_option(heap, &mut |parts| {
            reached.push(parts.iter().fold(0, |total, &part| total ^ values[part as usize]));
        });
        values.push(mex(reached));
    }
    values
}

impl<G: HeapGame + ?Sized, R: Deref<Target = G>> Game for HeapSum<R> {
    type State = HeapMultiset;

    fn options_into(&self, position: &HeapMultiset, out: &mut Vec<HeapMultiset>) {
        for (index, &heap) in position.iter().enumerate() {
            // Equal heaps have the same options: list them once.
            if index > 0 && position[index - 1] == heap {
                continue;
            }
            for parts in self.0.heap_options(heap) {
                let mut option: HeapMultiset =
                    position[..index].iter().chain(&position[index + 1..]).copied().collect();
                option.extend(parts.into_iter().filter(|&part| part > 0));
                option.sort_unstable();
                out.push(option);
            }
        }
    }
}
