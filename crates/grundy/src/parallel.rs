//! The parallel step the engines take (the Wythoff table's blocks), on rayon's pool with the
//! `parallel` feature (the default) and one after the other without it: the same results either
//! way, since every step run in parallel writes its own part of a table.

/// Calls `step` with every index of `indices`, in parallel when the feature allows.
pub(crate) fn for_each_index(indices: std::ops::Range<usize>, step: impl Fn(usize) + Send + Sync) {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        indices.into_par_iter().for_each(step);
    }
    #[cfg(not(feature = "parallel"))]
    indices.for_each(step);
}
