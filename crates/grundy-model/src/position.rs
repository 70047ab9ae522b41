//! Components: what one summand of a position is, held without knowing its family.
//!
//! A front end reads each component's text once, through its game's
//! [`Ruleset::parse_component`](crate::ruleset::Ruleset::parse_component), into a
//! [`Component`]; from then on no layer reads text again. A family works on its own type (a
//! heap is a `BigUint`, a Wythoff pair two of them, a token a vertex id, a script's position
//! its own value, a Python game's position a key of its objects): any type that can be
//! compared, hashed, ordered and shared between threads is a [`ComponentKind`], and
//! [`Component`] carries it for sums, play and the front ends without naming it. Only the
//! family that made a component looks inside it again ([`ComponentKind::from_component`]).

use std::any::{Any, TypeId};
use std::cmp::Ordering;
use std::fmt::Debug;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// One component of a position, a value of its family's own type.
///
/// ```
/// use grundy_model::position::{Component, ComponentKind};
/// let heap = Component::new(7u64);
/// assert_eq!(u64::from_component(&heap), Some(7));
/// assert_eq!(<(u64, u64)>::from_component(&heap), None); // another family's type
/// assert_eq!(heap, 7u64.into_component());
/// assert_eq!(format!("{heap:?}"), "7");
/// ```
#[derive(Clone)]
pub struct Component(Arc<dyn Erased>);

/// A family's own component type: any value that can be compared, hashed, ordered and shared.
/// Implemented for every such type; a family needs no code of its own for it.
pub trait ComponentKind: Clone + Eq + Hash + Ord + Debug + Send + Sync + 'static {
    /// Into the common type.
    fn into_component(self) -> Component {
        Component::new(self)
    }

    /// Out of the common type; `None` when it holds another type (another family's).
    fn from_component(component: &Component) -> Option<Self> {
        if let Some(itself) = (component as &dyn Any).downcast_ref::<Self>() {
            return Some(itself.clone());
        }
        component.downcast_ref::<Self>().cloned()
    }
}

impl<T: Clone + Eq + Hash + Ord + Debug + Send + Sync + 'static> ComponentKind for T {}

impl Component {
    /// `value` as a component.
    pub fn new<T: ComponentKind>(value: T) -> Component {
        // A component is a value of a family's type, never a component inside a component.
        match (&value as &dyn Any).downcast_ref::<Component>() {
            Some(component) => component.clone(),
            None => Component(Arc::new(value)),
        }
    }

    /// The value inside, when it is a `T`.
    pub fn downcast_ref<T: ComponentKind>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref::<T>()
    }
}

/// What [`Component`] asks of the value it holds, object-safe.
trait Erased: Send + Sync {
    fn as_any(&self) -> &dyn Any;
    fn equals(&self, other: &dyn Erased) -> bool;
    fn hash_into(&self, state: &mut dyn Hasher);
    /// Ordering within one type; components of two types are ordered by their type first.
    fn compare(&self, other: &dyn Erased) -> Ordering;
    fn debug(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result;
}

impl<T: ComponentKind> Erased for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn equals(&self, other: &dyn Erased) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
    fn hash_into(&self, mut state: &mut dyn Hasher) {
        TypeId::of::<T>().hash(&mut state);
        self.hash(&mut state);
    }
    fn compare(&self, other: &dyn Erased) -> Ordering {
        match other.as_any().downcast_ref::<T>() {
            Some(other) => self.cmp(other),
            None => TypeId::of::<T>().cmp(&other.as_any().type_id()),
        }
    }
    fn debug(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        Debug::fmt(self, formatter)
    }
}

impl PartialEq for Component {
    fn eq(&self, other: &Component) -> bool {
        self.0.equals(other.0.as_ref())
    }
}

impl Eq for Component {}

impl Hash for Component {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash_into(state);
    }
}

impl PartialOrd for Component {
    fn partial_cmp(&self, other: &Component) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Component {
    fn cmp(&self, other: &Component) -> Ordering {
        self.0.compare(other.0.as_ref())
    }
}

impl Debug for Component {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.debug(formatter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::hash_map::DefaultHasher;

    fn hash_of(component: &Component) -> u64 {
        let mut hasher = DefaultHasher::new();
        component.hash(&mut hasher);
        hasher.finish()
    }

    #[test]
    fn kinds_round_trip_and_refuse_each_other() {
        let pair = (4u64, 7u64);
        assert_eq!(<(u64, u64)>::from_component(&pair.into_component()), Some(pair));
        assert_eq!(u32::from_component(&Component::new(3u64)), None);
        assert_eq!(Vec::<u32>::from_component(&vec![1u32, 2].into_component()), Some(vec![1, 2]));
        // A component made again from a component is the same component, not one inside it.
        let heap = Component::new(7u64);
        assert_eq!(Component::new(heap.clone()), heap);
        assert_eq!(Component::from_component(&heap), Some(heap.clone()));
        assert_eq!(u64::from_component(&Component::new(heap)), Some(7));
    }

    #[test]
    fn equality_hash_and_order_follow_the_value_inside() {
        assert_eq!(Component::new(5u64), Component::new(5u64));
        assert_eq!(hash_of(&Component::new(5u64)), hash_of(&Component::new(5u64)));
        assert_ne!(Component::new(5u64), Component::new(6u64));
        // The same number in two types is two different components.
        assert_ne!(Component::new(5u64), Component::new(5u32));
        let mut sorted = vec![Component::new(9u64), Component::new(2u64), Component::new(5u64)];
        sorted.sort();
        assert_eq!(sorted, [2u64, 5, 9].map(Component::new));
        // Two types compare by type, consistently both ways.
        let (a, b) = (Component::new(1u64), Component::new(1u32));
        assert_eq!(a.cmp(&b), b.cmp(&a).reverse());
        assert_ne!(a.cmp(&b), Ordering::Equal);
    }
}
