//! Progress and cancellation for long computations, without I/O.
//!
//! The library reports how far a slow computation has got to a [`ProgressSink`] the front end
//! installs once ([`install`]); with none installed, reports cost one atomic load. Cancellation
//! is one process-wide flag ([`cancel_flag`]) that a front end sets from its signal handler and
//! long loops poll ([`cancelled`]).
//!
//! A computation opens a [`Task`] with its total and moves it forward; a task closes when
//! dropped. Tasks may nest (a table inside a period search): sinks see each one's start,
//! updates and end.
//!
//! ```
//! use grundy::progress::Task;
//! let task = Task::start("counting", 100);
//! for done in 1..=100 {
//!     task.set(done);
//! }
//! ```

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Where progress goes: a front end renders it (the CLI draws a bar on a terminal).
pub trait ProgressSink: Send + Sync {
    /// A task `what` began; `total` units of work (0: unknown).
    fn start(&self, id: u64, what: &str, total: u64);
    /// Task `id` has done `done` units.
    fn update(&self, id: u64, done: u64);
    /// Task `id` ended (finished, failed or cancelled).
    fn finish(&self, id: u64);
}

static SINK: OnceLock<Box<dyn ProgressSink>> = OnceLock::new();
static NEXT_TASK: AtomicU64 = AtomicU64::new(1);
static CANCEL: AtomicBool = AtomicBool::new(false);

/// Installs the process's progress sink. Only the first call has an effect (`false` after).
pub fn install(sink: Box<dyn ProgressSink>) -> bool {
    SINK.set(sink).is_ok()
}

/// The process-wide cancellation flag: a front end sets it (from a SIGINT/SIGTERM handler, say)
/// and every long computation that polls [`cancelled`] stops at its next check, keeping what
/// it has computed.
pub fn cancel_flag() -> &'static AtomicBool {
    &CANCEL
}

/// Whether [`cancel_flag`] is set.
pub fn cancelled() -> bool {
    CANCEL.load(Ordering::Relaxed)
}

/// One long computation, reported to the installed sink from start to drop.
#[derive(Debug)]
pub struct Task {
    id: u64,
    /// The last `done` sent, so that repeated updates with the same count cost nothing.
    reported: AtomicU64,
}

impl Task {
    /// Opens a task named `what` of `total` units (0 when unknown).
    pub fn start(what: &str, total: u64) -> Self {
        let id = NEXT_TASK.fetch_add(1, Ordering::Relaxed);
        if let Some(sink) = SINK.get() {
            sink.start(id, what, total);
        }
        Task { id, reported: AtomicU64::new(0) }
    }

    /// Reports `done` units finished (from any thread).
    pub fn set(&self, done: u64) {
        if let Some(sink) = SINK.get()
            && self.reported.swap(done, Ordering::Relaxed) != done
        {
            sink.update(self.id, done);
        }
    }

    /// Reports `units` more finished (from any thread).
    pub fn advance(&self, units: u64) {
        let done = self.reported.fetch_add(units, Ordering::Relaxed) + units;
        if let Some(sink) = SINK.get() {
            sink.update(self.id, done);
        }
    }
}

impl Drop for Task {
    fn drop(&mut self) {
        if let Some(sink) = SINK.get() {
            sink.finish(self.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Records every report (this test binary's only sink).
    #[derive(Default)]
    struct Recorder(Mutex<Vec<(u64, String)>>);

    static RECORDED: OnceLock<&'static Recorder> = OnceLock::new();

    impl ProgressSink for &'static Recorder {
        fn start(&self, id: u64, what: &str, total: u64) {
            self.0.lock().unwrap().push((id, format!("start {what} {total}")));
        }
        fn update(&self, id: u64, done: u64) {
            self.0.lock().unwrap().push((id, format!("update {done}")));
        }
        fn finish(&self, id: u64) {
            self.0.lock().unwrap().push((id, "finish".to_owned()));
        }
    }

    #[test]
    fn a_task_reports_start_changes_and_end_to_the_sink() {
        let recorder: &'static Recorder = RECORDED.get_or_init(|| Box::leak(Box::default()));
        assert!(install(Box::new(recorder)));
        let task = Task::start("counting", 3);
        let id = task.id;
        task.set(1);
        task.set(1); // unchanged: not sent again
        task.advance(2);
        drop(task);
        let mine: Vec<String> =
            recorder.0.lock().unwrap().iter().filter(|(task, _)| *task == id).map(|(_, what)| what.clone()).collect();
        assert_eq!(mine, ["start counting 3", "update 1", "update 3", "finish"]);
        assert!(!install(Box::new(recorder)), "only the first sink is installed");
    }
}
