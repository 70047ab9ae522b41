//! The few parallel steps the engines take, on rayon's pool with the `parallel` feature (the
//! default) and one after the other without it: the same results either way, since every step
//! run in parallel writes its own part of a table.

/// Runs `a` and `b`, in parallel when the feature allows, and returns both results.
pub(crate) fn join<A: Send, B: Send>(a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B + Send) -> (A, B) {
    #[cfg(feature = "parallel")]
    return rayon::join(a, b);
    #[cfg(not(feature = "parallel"))]
    return (a(), b());
}

/// How many threads the parallel steps may use.
pub(crate) fn current_num_threads() -> usize {
    #[cfg(feature = "parallel")]
    return rayon::current_num_threads();
    #[cfg(not(feature = "parallel"))]
    return 1;
}

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

/// Calls `step` with the index and the matching chunks of `first` (`first_chunk` items each)
/// and `second` (`second_chunk` items each), in parallel when the feature allows.
pub(crate) fn for_each_chunk_pair<A: Send, B: Send>(
    first: &mut [A],
    first_chunk: usize,
    second: &mut [B],
    second_chunk: usize,
    step: impl Fn((usize, (&mut [A], &mut [B]))) + Send + Sync,
) {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        first.par_chunks_mut(first_chunk).zip(second.par_chunks_mut(second_chunk)).enumerate().for_each(step);
    }
    #[cfg(not(feature = "parallel"))]
    first.chunks_mut(first_chunk).zip(second.chunks_mut(second_chunk)).enumerate().for_each(step);
}
