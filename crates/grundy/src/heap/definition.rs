//! [`HeapSum`]: any heap game by its rules alone, for the reference solver.

use crate::game::Game;
use crate::heap::HeapGame;
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
