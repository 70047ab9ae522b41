//! Long computations of games: run without the GIL, stopped by Ctrl-C (KeyboardInterrupt,
//! within a fraction of a second), with an optional tqdm progress bar. A game from `moves`
//! takes the GIL back for each call of `moves` (its backend's `Python::attach`): the work never
//! waits on a thread holding the GIL, since the thread that watches holds it only to look at
//! Ctrl-C and the bar.

use crate::convert::value_error;
use grundy::control::Control;
use grundy::heap::period::PeriodReport;
use grundy::heap::{CompactSequence, HeapGame, SEQUENCE_TASK, SequenceRun};
use grundy::progress::ProgressSink;
use pyo3::prelude::*;
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How often a computation without the GIL takes it back to look at Ctrl-C and the bar.
const CHECK_EVERY: Duration = Duration::from_millis(50);

/// How long a measured memory limit is used for the games made meanwhile.
const MEASURE_EVERY: Duration = Duration::from_secs(1);

/// A fresh control for a game being made, whose memory limit is what this process may really
/// use ([`grundy_cli::measured_control`]), measured again at most every [`MEASURE_EVERY`]:
/// measuring reads files of `/proc` and the cgroup (about 0.1 ms), and a notebook may make
/// 10^5 games at once. Each call gives a control of its own (its own cancel flag).
pub fn game_control() -> Control {
    static MEASURED: Mutex<Option<(Instant, u128)>> = Mutex::new(None);
    let mut measured = lock(&MEASURED);
    let limit = match *measured {
        Some((when, limit)) if when.elapsed() < MEASURE_EVERY => limit,
        _ => {
            let limit = grundy_cli::measured_control().memory_limit();
            *measured = Some((Instant::now(), limit));
            limit
        }
    };
    Control::default().with_memory_limit(limit)
}

/// A tqdm progress bar, when asked for and tqdm is importable; otherwise nothing. Clones show
/// the same bar.
#[derive(Clone)]
pub struct Progress {
    bar: Option<Arc<Py<PyAny>>>,
    shown: Arc<AtomicU64>,
}

impl Progress {
    /// A bar towards `total`, titled `title`, if `wanted` and tqdm is installed.
    pub fn new(py: Python<'_>, wanted: bool, total: u64, title: &str) -> PyResult<Self> {
        let bar = if wanted {
            match py.import("tqdm") {
                Ok(tqdm) => {
                    let kwargs = pyo3::types::PyDict::new(py);
                    kwargs.set_item("total", total)?;
                    kwargs.set_item("desc", title)?;
                    kwargs.set_item("unit", "values")?;
                    Some(Arc::new(tqdm.getattr("tqdm")?.call((), Some(&kwargs))?.unbind()))
                }
                Err(_) => None,
            }
        } else {
            None
        };
        Ok(Progress { bar, shown: Arc::new(AtomicU64::new(0)) })
    }

    /// Moves the bar to `done`.
    pub fn update(&self, py: Python<'_>, done: u64) {
        if let Some(bar) = &self.bar {
            let before = self.shown.swap(done, Ordering::Relaxed);
            if done > before {
                let _ = bar.bind(py).call_method1("update", (done - before,));
            }
        }
    }

    /// Fills the bar to `done` and closes it.
    pub fn close(&mut self, py: Python<'_>, done: u64) {
        self.update(py, done);
        if let Some(bar) = self.bar.take() {
            let _ = bar.bind(py).call_method0("close");
        }
    }
}

/// The progress sink of a computation run from Python: every [`CHECK_EVERY`] at most, a
/// report of any task takes the GIL and looks for Ctrl-C (then cancels the control and keeps
/// the KeyboardInterrupt to raise), and moves the bar to the values known (the library's
/// [`SEQUENCE_TASK`] counts).
struct PythonSink {
    bar: Progress,
    cancel: Arc<AtomicBool>,
    /// The KeyboardInterrupt (or other error of a signal handler) to raise.
    failure: Mutex<Option<PyErr>>,
    last_check: Mutex<Instant>,
    /// The ids of the open [`SEQUENCE_TASK`] tasks.
    sequence_tasks: Mutex<HashSet<u64>>,
    /// The most values known that a [`SEQUENCE_TASK`] reported.
    values_known: AtomicU64,
}

/// `mutex` locked, even if a panic poisoned it (what it guards stays consistent).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl PythonSink {
    fn new(bar: Progress, control: &Control) -> Self {
        PythonSink {
            bar,
            cancel: control.cancel_flag(),
            failure: Mutex::new(None),
            last_check: Mutex::new(Instant::now()),
            sequence_tasks: Mutex::new(HashSet::new()),
            values_known: AtomicU64::new(0),
        }
    }

    /// Records `values` known (if given), then, when [`CHECK_EVERY`] has passed since the last
    /// look, takes the GIL to look at Ctrl-C and move the bar.
    fn check(&self, values: Option<u64>) {
        if let Some(values) = values {
            self.values_known.fetch_max(values, Ordering::Relaxed);
        }
        {
            let mut last = lock(&self.last_check);
            if last.elapsed() < CHECK_EVERY {
                return;
            }
            *last = Instant::now();
        }
        Python::attach(|py| {
            if let Err(error) = py.check_signals() {
                lock(&self.failure).get_or_insert(error);
                self.cancel.store(true, Ordering::SeqCst);
            }
            self.bar.update(py, self.values_known.load(Ordering::Relaxed));
        });
    }
}

impl ProgressSink for PythonSink {
    fn start(&self, id: u64, what: &str, _total: u64) {
        if what == SEQUENCE_TASK {
            lock(&self.sequence_tasks).insert(id);
        }
    }

    fn update(&self, id: u64, done: u64) {
        let values = lock(&self.sequence_tasks).contains(&id).then_some(done);
        self.check(values);
    }

    fn finish(&self, id: u64) {
        lock(&self.sequence_tasks).remove(&id);
    }
}

/// Runs `work` without the GIL, under a control of its own (the default memory limit, and a
/// cancel flag no other call shares) whose progress sink, whenever the work reports and
/// [`CHECK_EVERY`] has passed, takes the GIL, looks for Ctrl-C (then cancels the work and the
/// KeyboardInterrupt is returned) and moves the bar.
pub fn without_gil<T: Send>(py: Python<'_>, bar: &Progress, work: impl FnOnce(&Control) -> T + Send) -> PyResult<T> {
    without_gil_watched(py, bar, |control, _| work(control))
}

/// [`without_gil`], `work` also given the sink, to look at Ctrl-C where the library reports
/// nothing (between the chunks of a run).
fn without_gil_watched<T: Send>(
    py: Python<'_>,
    bar: &Progress,
    work: impl FnOnce(&Control, &PythonSink) -> T + Send,
) -> PyResult<T> {
    let plain = grundy_cli::measured_control();
    let sink = Arc::new(PythonSink::new(bar.clone(), &plain));
    let control = plain.with_sink(sink.clone());
    let result = py.detach(|| work(&control, &sink));
    if let Some(error) = lock(&sink.failure).take() {
        return Err(error);
    }
    Ok(result)
}

/// Runs `work` without the GIL on a thread of its own while this thread looks at Ctrl-C every
/// [`CHECK_EVERY`], for library calls whose progress does not reach a Python callback (the
/// misère quotient reports to its control's sink, per heap and candidate). Ctrl-C cancels
/// `control`; the work still returns what it finished, given back with the KeyboardInterrupt.
pub fn watched<T: Send>(py: Python<'_>, control: &Control, work: impl FnOnce() -> T + Send) -> (T, Option<PyErr>) {
    watched_cancelling(py, || control.cancel(), work)
}

/// Runs `work`, a call of built-in games computing under `controls` (the controls their
/// front end lent them when they were built: [`crate::game::parse_game_controlled`]), without the GIL
/// and stopped by Ctrl-C: on a worker thread while this thread looks at Ctrl-C every
/// [`CHECK_EVERY`] ([`watched`]); Ctrl-C cancels every control in `controls`, the work stops at
/// its next check and the KeyboardInterrupt is raised. The controls are then made fresh again
/// (their cancel flags cleared), so the next call of the same games runs: a call that another
/// thread made on the same games meanwhile fails with the cancelled computation's error.
///
/// # Errors
/// The KeyboardInterrupt (or other error of a signal handler).
pub fn interruptible<T: Send>(py: Python<'_>, controls: &[Control], work: impl FnOnce() -> T + Send) -> PyResult<T> {
    if controls.is_empty() {
        return Ok(py.detach(work));
    }
    let (result, interrupt) = watched_cancelling(py, || controls.iter().for_each(Control::cancel), work);
    for control in controls {
        control.cancel_flag().store(false, Ordering::SeqCst);
    }
    match interrupt {
        Some(error) => Err(error),
        None => Ok(result),
    }
}

/// [`watched`], Ctrl-C calling `cancel`.
fn watched_cancelling<T: Send>(
    py: Python<'_>,
    cancel: impl Fn() + Sync,
    work: impl FnOnce() -> T + Send,
) -> (T, Option<PyErr>) {
    py.detach(|| {
        std::thread::scope(|scope| {
            let (sender, receiver) = std::sync::mpsc::channel();
            let worker = scope.spawn(move || {
                let _ = sender.send(work());
            });
            let mut interrupt = None;
            loop {
                match receiver.recv_timeout(CHECK_EVERY) {
                    Ok(result) => return (result, interrupt),
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) if interrupt.is_none() => {
                        Python::attach(|py| {
                            if let Err(error) = py.check_signals() {
                                interrupt = Some(error);
                                cancel();
                            }
                        });
                    }
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                    // The worker panicked before sending: carry its panic on.
                    Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => match worker.join() {
                        Err(panic) => std::panic::resume_unwind(panic),
                        Ok(()) => unreachable!("the worker sends its result before it ends"),
                    },
                }
            }
        })
    })
}

/// The values `G(0) … G(len − 1)` of `game` by the library's [`SequenceRun`] (its one memory
/// decision first, then chunks), without the GIL (see [`without_gil`]); Ctrl-C is also looked
/// at after each chunk, for kernels that report no progress.
pub fn sequence_to(py: Python<'_>, game: &dyn HeapGame, len: usize, progress: bool) -> PyResult<CompactSequence> {
    // Without the GIL from the first call of the game on (see `crate::user` on threads).
    let mut run = py.detach(|| SequenceRun::to(game, len, &grundy_cli::measured_control())).map_err(value_error)?;
    let mut bar = Progress::new(py, progress, len as u64, &game.spec())?;
    let finished = without_gil_watched(py, &bar, |control, sink| {
        run.extend(control, &mut |values: &CompactSequence| sink.check(Some(values.len() as u64)))
    })?
    .map_err(value_error)?;
    py.check_signals()?;
    if !finished {
        return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
            "internal error: the sequence of {} stopped at heap {} without an interrupt",
            game.spec(),
            run.values().len()
        )));
    }
    bar.close(py, len as u64);
    Ok(run.into_values())
}

/// The library's period search (proof by the game's theorem, else observation) up to `max`
/// (default: the game's own bound, as `grundy period`'s), without the GIL.
pub fn period_report(py: Python<'_>, game: &dyn HeapGame, max: Option<u64>, progress: bool) -> PyResult<PeriodReport> {
    let max_heap = max.unwrap_or_else(|| game.default_max_heap());
    let mut bar = Progress::new(py, progress, max_heap.saturating_add(1), &game.spec())?;
    let mut run = py.detach(|| SequenceRun::for_period(game, max_heap));
    let report =
        without_gil(py, &bar, |control| run.find_period(max_heap, control, &mut |_| {}))?.map_err(value_error)?;
    py.check_signals()?;
    bar.close(py, run.values().len() as u64);
    Ok(report)
}
