//! Progress reports for long computations, without I/O.
//!
//! The library reports how far a slow computation has got to the [`ProgressSink`] of the
//! computation's [`Control`](crate::control::Control); with none, reports cost nothing.
//!
//! A computation opens a [`Task`] from its control with its total and moves it forward; a task
//! closes when dropped. Tasks may nest (a table inside a period search): sinks see each one's
//! start, updates and end.
//!
//! ```
//! use grundy_model::control::Control;
//! let task = Control::default().task("counting", 100);
//! for done in 1..=100 {
//!     task.set(done);
//! }
//! ```

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Where progress goes: a front end renders it (the CLI draws a bar on a terminal).
pub trait ProgressSink: Send + Sync {
    /// A task `what` began; `total` units of work (0: unknown).
    fn start(&self, id: u64, what: &str, total: u64);
    /// Task `id` has done `done` units.
    fn update(&self, id: u64, done: u64);
    /// Task `id` ended (finished, failed or cancelled).
    fn finish(&self, id: u64);
}

/// One long computation, reported to its control's sink from start to drop (opened by
/// [`Control::task`](crate::control::Control::task)).
pub struct Task {
    id: u64,
    /// The last `done` sent, so that repeated updates with the same count cost nothing.
    reported: AtomicU64,
    sink: Option<Arc<dyn ProgressSink>>,
}

impl std::fmt::Debug for Task {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Task").field("id", &self.id).field("reported", &self.reported).finish()
    }
}

impl Task {
    /// Opens task `id`, named `what`, of `total` units (0 when unknown), on `sink`.
    pub(crate) fn start(sink: Option<Arc<dyn ProgressSink>>, id: u64, what: &str, total: u64) -> Self {
        if let Some(sink) = &sink {
            sink.start(id, what, total);
        }
        Task { id, reported: AtomicU64::new(0), sink }
    }

    /// Reports `done` units finished (from any thread).
    pub fn set(&self, done: u64) {
        if let Some(sink) = &self.sink
            && self.reported.swap(done, Ordering::Relaxed) != done
        {
            sink.update(self.id, done);
        }
    }

    /// Reports `units` more finished (from any thread).
    pub fn advance(&self, units: u64) {
        let done = self.reported.fetch_add(units, Ordering::Relaxed) + units;
        if let Some(sink) = &self.sink {
            sink.update(self.id, done);
        }
    }
}

impl Drop for Task {
    fn drop(&mut self) {
        if let Some(sink) = &self.sink {
            sink.finish(self.id);
        }
    }
}

/// A sink that gives the counts of the tasks named `what` to a function of the caller's (an
/// enclosing task, a front end's own bar, a test that cancels at a count) and passes every
/// other task on to the sink it wraps, if any. Installed by
/// [`Control::relaying`](crate::control::Control::relaying).
pub struct Relay {
    what: &'static str,
    report: Box<dyn Fn(u64) + Send + Sync>,
    /// The ids of the open tasks named `what`.
    relayed: Mutex<HashSet<u64>>,
    rest: Option<Arc<dyn ProgressSink>>,
}

impl Relay {
    /// Gives the counts of the tasks named `what` to `report`, every other task to `rest`.
    pub fn new(
        what: &'static str,
        report: impl Fn(u64) + Send + Sync + 'static,
        rest: Option<Arc<dyn ProgressSink>>,
    ) -> Self {
        Relay { what, report: Box::new(report), relayed: Mutex::new(HashSet::new()), rest }
    }

    fn relays(&self, id: u64) -> bool {
        self.relayed.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).contains(&id)
    }
}

impl ProgressSink for Relay {
    fn start(&self, id: u64, what: &str, total: u64) {
        if what == self.what {
            self.relayed.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).insert(id);
        } else if let Some(rest) = &self.rest {
            rest.start(id, what, total);
        }
    }

    fn update(&self, id: u64, done: u64) {
        if self.relays(id) {
            (self.report)(done);
        } else if let Some(rest) = &self.rest {
            rest.update(id, done);
        }
    }

    fn finish(&self, id: u64) {
        if !self.relayed.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).remove(&id)
            && let Some(rest) = &self.rest
        {
            rest.finish(id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::Control;
    use std::sync::Mutex;

    /// Records every report.
    #[derive(Default)]
    struct Recorder(Mutex<Vec<(u64, String)>>);

    impl ProgressSink for Recorder {
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
    fn a_task_reports_start_changes_and_end_to_its_controls_sink_only() {
        let recorder = Arc::new(Recorder::default());
        let control = Control::default().with_sink(recorder.clone());
        let task = control.task("counting", 3);
        let id = task.id;
        task.set(1);
        task.set(1); // unchanged: not sent again
        task.advance(2);
        drop(task);
        let silent = Control::default().task("elsewhere", 1);
        silent.set(1);
        drop(silent);
        let second = control.clone().task("more", 0);
        assert_ne!(second.id, id, "clones of a control give distinct task ids");
        drop(second);
        let recorded = recorder.0.lock().unwrap();
        let mine: Vec<&str> = recorded.iter().filter(|(task, _)| *task == id).map(|(_, what)| what.as_str()).collect();
        assert_eq!(mine, ["start counting 3", "update 1", "update 3", "finish"]);
        assert!(recorded.iter().all(|(_, what)| !what.contains("elsewhere")));
    }

    #[test]
    fn a_relay_takes_the_tasks_of_its_name_and_passes_the_others_on() {
        let recorder = Arc::new(Recorder::default());
        let control = Control::default().with_sink(recorder.clone());
        let counts = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&counts);
        let relayed = control.relaying("values", move |done| seen.lock().unwrap().push(done));
        let values = relayed.task("values", 10);
        let other = relayed.task("other", 2);
        values.set(4);
        other.set(1);
        values.set(9);
        let other_id = other.id;
        drop((values, other));
        assert_eq!(*counts.lock().unwrap(), [4, 9]);
        let recorded = recorder.0.lock().unwrap();
        let seen: Vec<(u64, &str)> = recorded.iter().map(|(id, what)| (*id, what.as_str())).collect();
        assert_eq!(seen, [(other_id, "start other 2"), (other_id, "update 1"), (other_id, "finish")]);
    }
}
