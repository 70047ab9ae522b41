//! What travels with each computation: its memory limit, its cancel flag and where its
//! progress goes.
//!
//! The library holds no process-wide state: a front end makes a [`Control`] (the CLI one for
//! its run, built from its flags; a server or a notebook one per request or per game) and
//! every computation takes it, directly (`GrundyTable::compute(…, &control)`) or through the
//! game it was built into (the `grundy` registry's `FrontEnd` gives each
//! game a clone). Clones share the cancel flag and the sink, so cancelling a control stops
//! everything started with it or its clones, and nothing else.
//!
//! ```
//! use grundy_model::control::Control;
//! let tight = Control::default().with_memory_limit(1 << 20);
//! let error = tight.check_memory(|| "a big table".to_owned(), 1 << 20, 2).unwrap_err().to_string();
//! assert!(error.contains("2.0 MiB") && error.contains("1.0 MiB allowed"), "{error}");
//! assert!(Control::default().check_memory(|| "a big table".to_owned(), 1 << 20, 2).is_ok());
//!
//! let control = Control::default();
//! let same_run = control.clone();
//! same_run.cancel();
//! assert!(control.cancelled() && !Control::default().cancelled());
//! ```

use crate::error::{DEFAULT_MEMORY_LIMIT, GameError};
use crate::progress::{ProgressSink, Relay, Task};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The limits, cancellation and progress reporting of a computation (see the module).
#[derive(Clone)]
pub struct Control {
    /// The memory the run's tables may take together, in bytes.
    memory_limit: u128,
    /// The bytes the run's kept tables hold now ([`Control::hold`]), shared by the clones: one
    /// budget for the whole run, every new table checked against what is left of it.
    held: Arc<AtomicU64>,
    /// Set to stop the computations of this control (and its clones) at their next check.
    cancel: Arc<AtomicBool>,
    /// Where progress reports go; none: they cost nothing.
    sink: Option<Arc<dyn ProgressSink>>,
    /// The next task id, shared by the clones so that one sink sees distinct ids.
    next_task: Arc<AtomicU64>,
}

impl Default for Control {
    /// [`DEFAULT_MEMORY_LIMIT`], never cancelled (until [`Control::cancel`]), no sink.
    fn default() -> Self {
        Control {
            memory_limit: DEFAULT_MEMORY_LIMIT,
            held: Arc::new(AtomicU64::new(0)),
            cancel: Arc::new(AtomicBool::new(false)),
            sink: None,
            next_task: Arc::new(AtomicU64::new(1)),
        }
    }
}

impl std::fmt::Debug for Control {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Control")
            .field("memory_limit", &self.memory_limit)
            .field("held", &self.held_bytes())
            .field("cancelled", &self.cancelled())
            .field("sink", &self.sink.is_some())
            .finish()
    }
}

impl Control {
    /// This control with a memory limit of `bytes` for the run's tables together (tables already
    /// built are kept, and still count). The cancel flag, the sink and the bytes held stay
    /// shared with `self`'s clones.
    #[must_use]
    pub fn with_memory_limit(mut self, bytes: u128) -> Self {
        self.memory_limit = bytes;
        self
    }

    /// This control reporting progress to `sink`.
    #[must_use]
    pub fn with_sink(mut self, sink: Arc<dyn ProgressSink>) -> Self {
        self.sink = Some(sink);
        self
    }

    /// A clone of this control on which the tasks named `what` give their counts to `report`
    /// (an enclosing task, a front end's own bar, a test that cancels at a count) instead of
    /// reaching the sink; every other task still reaches this control's sink (see [`Relay`]).
    ///
    /// ```
    /// use grundy_model::control::Control;
    /// let control = Control::default();
    /// let flag = control.cancel_flag();
    /// let relayed = control.relaying("counting", move |done| {
    ///     if done >= 10 {
    ///         flag.store(true, std::sync::atomic::Ordering::SeqCst);
    ///     }
    /// });
    /// let task = relayed.task("counting", 100);
    /// task.set(5);
    /// assert!(!control.cancelled());
    /// task.set(10);
    /// assert!(control.cancelled());
    /// ```
    #[must_use]
    pub fn relaying(&self, what: &'static str, report: impl Fn(u64) + Send + Sync + 'static) -> Control {
        let relay = Relay::new(what, report, self.sink.clone());
        self.clone().with_sink(std::sync::Arc::new(relay))
    }

    /// Whether this control has a sink: without one, a computation's progress reaches no one
    /// (and costs nothing), so a caller need not relay it.
    pub fn reports_progress(&self) -> bool {
        self.sink.is_some()
    }

    /// The memory the run's tables may take together before a new one is refused, in bytes.
    pub fn memory_limit(&self) -> u128 {
        self.memory_limit
    }

    /// The bytes the run's kept tables hold now (see [`Control::hold`]).
    pub fn held_bytes(&self) -> u128 {
        u128::from(self.held.load(Ordering::Relaxed))
    }

    /// The bytes a new table may still take: the limit less what the run holds.
    pub fn memory_left(&self) -> u128 {
        self.memory_limit.saturating_sub(self.held_bytes())
    }

    /// Counts `bytes` (a table just built and kept: a cache, a memo) against the run's budget
    /// until the returned [`Held`] is dropped or set to another size. It refuses nothing: the
    /// table was checked with [`Control::check_memory`] before it was built; what it holds
    /// makes every later check see less room.
    ///
    /// ```
    /// use grundy_model::control::Control;
    /// let control = Control::default().with_memory_limit(10 << 20);
    /// let same_run = control.clone();
    /// let mut cache = control.hold(6 << 20);
    /// // A second table of 6 MiB fits the limit alone, not beside the first one.
    /// let error = same_run.check_memory(|| "a second table".to_owned(), 6 << 20, 1).unwrap_err().to_string();
    /// assert!(error.contains("a second table") && error.contains("6.0 MiB this run already holds"), "{error}");
    /// cache.set(1 << 20);
    /// assert!(same_run.check_memory(|| "a second table".to_owned(), 6 << 20, 1).is_ok());
    /// drop(cache);
    /// assert_eq!(control.held_bytes(), 0);
    /// ```
    pub fn hold(&self, bytes: u128) -> Held {
        let mut held = Held { counter: Arc::clone(&self.held), bytes: 0 };
        held.set(bytes);
        held
    }

    /// Grows `held` (a table, cache or memo of this run, counted with [`Control::hold`]) to
    /// hold `bytes`, checked before the memory is spent: refused when `bytes` would pass the
    /// limit beside what the rest of the run holds. A structure that grows an entry at a time
    /// calls it only when it outgrows what it holds: `held` is set a chunk ahead (an eighth
    /// more, at least 1 MiB, as far as the budget allows), so the check costs nothing per entry.
    ///
    /// # Errors
    /// [`GameError::TooLarge`] naming `what`, `bytes`, the limit and what the rest of the run
    /// holds; `held` is left as it was.
    ///
    /// ```
    /// use grundy_model::control::Control;
    /// let control = Control::default().with_memory_limit(10 << 20);
    /// let mut memo = control.hold(0);
    /// control.grow_held(&mut memo, 3 << 20, || "a memo".to_owned()).unwrap();
    /// assert!(memo.bytes() >= 3 << 20 && memo.bytes() <= 10 << 20);
    /// let other = control.hold(6 << 20);
    /// let error = control.grow_held(&mut memo, 5 << 20, || "a memo".to_owned()).unwrap_err().to_string();
    /// assert!(error.contains("a memo (beside the 6.0 MiB this run already holds)"), "{error}");
    /// drop(other);
    /// assert!(control.grow_held(&mut memo, 5 << 20, || "a memo".to_owned()).is_ok());
    /// ```
    pub fn grow_held(&self, held: &mut Held, bytes: u128, what: impl FnOnce() -> String) -> Result<(), GameError> {
        if bytes <= held.bytes() {
            return Ok(());
        }
        let others = self.held_bytes().saturating_sub(held.bytes());
        let room = self.memory_limit.saturating_sub(others);
        if bytes > room {
            let what = if others == 0 || bytes > self.memory_limit {
                what()
            } else {
                format!("{} (beside the {} this run already holds)", what(), crate::error::human_bytes(others))
            };
            return Err(self.too_large(what, bytes));
        }
        let ahead = bytes.saturating_add((bytes / 8).max(1 << 20)).min(room);
        held.set(ahead);
        Ok(())
    }

    /// Asks every computation of this control (and of its clones) to stop at its next check,
    /// keeping what it has computed. A signal handler may call it (one atomic store).
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::SeqCst);
    }

    /// Whether [`Control::cancel`] was called.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// The cancel flag itself, for what polls a flag of its own (a script evaluator's hook, a
    /// signal handler that can only store to an atomic).
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancel)
    }

    /// Opens a progress task named `what` of `total` units (0 when unknown), reported to the
    /// sink until dropped.
    pub fn task(&self, what: &str, total: u64) -> Task {
        let id = self.next_task.fetch_add(1, Ordering::Relaxed);
        Task::start(self.sink.clone(), id, what, total)
    }

    /// Refuses a table of `entries` entries of `bytes_each` bytes when it would pass what is
    /// left of the run's budget ([`Control::memory_limit`] less the bytes the run's kept tables
    /// hold, [`Control::held_bytes`]).
    ///
    /// # Errors
    /// [`GameError::TooLarge`] naming `what`, the estimate, the limit and, when the run holds
    /// tables already, how much they hold.
    pub fn check_memory(
        &self,
        what: impl FnOnce() -> String,
        entries: u128,
        bytes_each: u128,
    ) -> Result<(), GameError> {
        let bytes_needed = entries.saturating_mul(bytes_each);
        if bytes_needed > self.memory_left() {
            let held = self.held_bytes();
            let what = if held == 0 || bytes_needed > self.memory_limit {
                what()
            } else {
                format!("{} (beside the {} this run already holds)", what(), crate::error::human_bytes(held))
            };
            return Err(self.too_large(what, bytes_needed));
        }
        Ok(())
    }

    /// The error for a table of `bytes_needed` bytes computing `what`, naming this control's
    /// limit.
    pub fn too_large(&self, what: String, bytes_needed: u128) -> GameError {
        GameError::TooLarge { what, bytes_needed, limit: self.memory_limit }
    }

    /// Reserves room for `additional` more entries in `table`, as an error instead of an abort
    /// when the allocator refuses (the process limit can be below the estimate
    /// [`Control::check_memory`] allowed).
    ///
    /// # Errors
    /// [`GameError::TooLarge`] naming `what`, the bytes asked for and the limit in force.
    ///
    /// ```
    /// let control = grundy_model::control::Control::default();
    /// let mut table: Vec<u64> = Vec::new();
    /// control.try_reserve_table(&mut table, 1000, || "a table".to_owned()).unwrap();
    /// assert!(table.capacity() >= 1000);
    /// assert!(control.try_reserve_table(&mut table, usize::MAX / 2, || "a huge table".to_owned()).is_err());
    /// ```
    pub fn try_reserve_table<T>(
        &self,
        table: &mut Vec<T>,
        additional: usize,
        what: impl FnOnce() -> String,
    ) -> Result<(), GameError> {
        table.try_reserve(additional).map_err(|_| {
            self.too_large(
                format!("{} (the allocation failed)", what()),
                (table.len() as u128 + additional as u128) * std::mem::size_of::<T>() as u128,
            )
        })
    }

    /// A table of `len` copies of `fill`, allocated fallibly (see
    /// [`Control::try_reserve_table`]).
    ///
    /// # Errors
    /// [`GameError::TooLarge`] when the allocation fails.
    pub fn try_table<T: Clone>(&self, len: usize, fill: T, what: impl FnOnce() -> String) -> Result<Vec<T>, GameError> {
        let mut table = Vec::new();
        self.try_reserve_table(&mut table, len, what)?;
        table.resize(len, fill);
        Ok(table)
    }
}

/// Bytes a kept table holds against its run's budget (see [`Control::hold`]), given back when
/// dropped.
#[derive(Debug)]
pub struct Held {
    counter: Arc<AtomicU64>,
    bytes: u64,
}

impl Held {
    /// The table now holds `bytes` (it grew or shrank).
    pub fn set(&mut self, bytes: u128) {
        let bytes = u64::try_from(bytes).unwrap_or(u64::MAX);
        if bytes >= self.bytes {
            let grown = bytes - self.bytes;
            let _ = self
                .counter
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |held| Some(held.saturating_add(grown)));
        } else {
            let shrunk = self.bytes - bytes;
            let _ = self
                .counter
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |held| Some(held.saturating_sub(shrunk)));
        }
        self.bytes = bytes;
    }

    /// The bytes held.
    pub fn bytes(&self) -> u128 {
        u128::from(self.bytes)
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.set(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_cancel_flag_and_fresh_controls_do_not() {
        let control = Control::default();
        let clone = control.clone().with_memory_limit(10);
        let other = Control::default();
        clone.cancel();
        assert!(control.cancelled());
        assert!(!other.cancelled());
        assert_eq!(control.memory_limit(), DEFAULT_MEMORY_LIMIT, "the limit is the clone's own");
        assert_eq!(clone.memory_limit(), 10);
    }
}
