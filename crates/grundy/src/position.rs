//! Typed components: what one summand of a position is, in every family.
//!
//! A front end reads each component's text once, through its game's
//! [`Ruleset::parse_component`](crate::ruleset::Ruleset::parse_component), into a
//! [`Component`]; from then on no layer reads text again. A family works on its own type (a
//! heap is a [`BigUint`], a Wythoff pair two of them, a token a vertex id) and the
//! [`ComponentKind`] trait moves it in and out of the one enum that sums, play and the
//! bindings carry around.

use num_bigint::BigUint;
use std::fmt::Debug;
use std::hash::Hash;
use std::sync::Arc;

/// One component of a position, as its family reads it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Component {
    /// A heap of any size (`nim`, `bash:M`, `sub:S`, octal and hexadecimal games).
    Heap(BigUint),
    /// Two heaps `x,y` (`wythoff`).
    Pair(BigUint, BigUint),
    /// A token on a vertex of a graph (`dag:FILE`), by vertex id.
    Vertex(u32),
    /// A token's path so far, the token on the last vertex (`geography:FILE`).
    Path(Vec<u32>),
    /// A row of coins (`coins:RULE`).
    Coins(CoinRow),
    /// A heads coin on a grid, row and column from 0 (`corners`, `product:A*B`).
    Cell(u64, u64),
}

/// A row of coins: the heads coins, numbered from 1 on the left, and how the row was written.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CoinRow {
    /// The heads coins, increasing, without repeats (shared: a long row is copied by pointer).
    pub heads: Arc<[u64]>,
    /// `Some(length)` when written as `H`/`T` letters (the row is printed back as that many
    /// letters), `None` when written as one heads coin's number.
    pub letters: Option<u64>,
}

/// A family's own component type, carried inside [`Component`].
pub trait ComponentKind: Clone + PartialEq + Eq + Hash + Debug + Send + Sync + 'static {
    /// What the family calls a wrong kind of component, for the error message.
    const KIND: &'static str;
    /// Into the common enum.
    fn into_component(self) -> Component;
    /// Out of the common enum; `None` when it is another family's kind.
    fn from_component(component: &Component) -> Option<Self>;
}

impl ComponentKind for BigUint {
    const KIND: &'static str = "heap";
    fn into_component(self) -> Component {
        Component::Heap(self)
    }
    fn from_component(component: &Component) -> Option<Self> {
        match component {
            Component::Heap(heap) => Some(heap.clone()),
            _ => None,
        }
    }
}

impl ComponentKind for (BigUint, BigUint) {
    const KIND: &'static str = "pair";
    fn into_component(self) -> Component {
        Component::Pair(self.0, self.1)
    }
    fn from_component(component: &Component) -> Option<Self> {
        match component {
            Component::Pair(x, y) => Some((x.clone(), y.clone())),
            _ => None,
        }
    }
}

impl ComponentKind for u32 {
    const KIND: &'static str = "vertex";
    fn into_component(self) -> Component {
        Component::Vertex(self)
    }
    fn from_component(component: &Component) -> Option<Self> {
        match component {
            Component::Vertex(vertex) => Some(*vertex),
            _ => None,
        }
    }
}

impl ComponentKind for Vec<u32> {
    const KIND: &'static str = "path";
    fn into_component(self) -> Component {
        Component::Path(self)
    }
    fn from_component(component: &Component) -> Option<Self> {
        match component {
            Component::Path(path) => Some(path.clone()),
            _ => None,
        }
    }
}

impl ComponentKind for CoinRow {
    const KIND: &'static str = "coin row";
    fn into_component(self) -> Component {
        Component::Coins(self)
    }
    fn from_component(component: &Component) -> Option<Self> {
        match component {
            Component::Coins(row) => Some(row.clone()),
            _ => None,
        }
    }
}

impl ComponentKind for (u64, u64) {
    const KIND: &'static str = "cell";
    fn into_component(self) -> Component {
        Component::Cell(self.0, self.1)
    }
    fn from_component(component: &Component) -> Option<Self> {
        match component {
            Component::Cell(x, y) => Some((*x, *y)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip_and_refuse_each_other() {
        let heap = BigUint::from(7u32);
        assert_eq!(BigUint::from_component(&heap.clone().into_component()), Some(heap));
        let pair = (BigUint::from(4u32), BigUint::from(7u32));
        assert_eq!(<(BigUint, BigUint)>::from_component(&pair.clone().into_component()), Some(pair));
        assert_eq!(u32::from_component(&Component::Heap(3u32.into())), None);
        assert_eq!(<(u64, u64)>::from_component(&(3, 5).into_component()), Some((3, 5)));
    }
}
