//! Misère play: whoever makes the last move loses.
//!
//! Under misère play the Sprague–Grundy theory of sums breaks down, and a solver needs other
//! tools, each in its module:
//! - [`nim`]: misère Nim by Bouton's rule, heaps of any size.
//! - [`genus`]: Conway's genus `g^(γ0 γ1 …)` of each heap, tameness, and outcomes of sums
//!   of tame heaps (ONAG ch. 12, *Winning Ways* ch. 13).
//! - [`quotient`]: the misère quotient of Plambeck and Siegel, a finite commutative monoid
//!   in which the outcome of any sum of heaps is read off the product of their elements.
//! - [`search`]: exhaustive search over sums of components of any game, the reference every
//!   method above is tested against.
//!
//! [`heap_sum_outcome`] picks the first of these that applies to a sum of heaps.

pub mod genus;
pub mod nim;
pub mod quotient;
pub mod search;
