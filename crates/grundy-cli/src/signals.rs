//! SIGINT (Ctrl-C), SIGTERM and SIGHUP, the same for every command.
//!
//! The first signal cancels the run's control, handed to [`install`] (long computations stop
//! at their next check and save what they have), kills the script workers (each in its own
//! process group, so a terminal's Ctrl-C reaches only grundy, which then says what it was
//! doing), and starts a watchdog: a command still running [`GRACE`] later (one waiting on its
//! standard input, or deep in work that does not look at the flag) is ended with a line saying
//! so. A run that stops by itself and saves what it has (a long run, a census: [`stopping`]) is
//! told so on stderr at that moment and given up to [`SAVE_GRACE`] more; a checkpoint being
//! written ([`saving`]) is let finish. A second signal ends the process at once. The exit status is
//! 128 + the signal: 130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP.

use crate::os;
use grundy::control::Control;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::time::Duration;

/// How long a command may take to stop after the first signal before the watchdog ends it.
pub const GRACE: Duration = Duration::from_millis(800);
/// How long more a run that stops and saves by itself is given (a loaded machine may take
/// seconds to reach the next check of the flag in a large block of work).
pub const SAVE_GRACE: Duration = Duration::from_secs(30);

/// The first signal received (0: none).
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// The process ids (= process group ids) of the running script workers; 0 marks a free slot.
static WORKERS: [AtomicI32; 16] = [const { AtomicI32::new(0) }; 16];
/// Checkpoint saves in progress: the watchdog waits for them, so that what was computed is kept.
static SAVING: AtomicUsize = AtomicUsize::new(0);
/// Runs in progress that stop at the cancel flag and save (or commit) what they have.
static STOPPING: AtomicUsize = AtomicUsize::new(0);

const HANDLED: [i32; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// Installs the handlers and the watchdog (once: a process runs one command): the first signal
/// cancels `control`, the run's control, and kills the script workers.
// Registering a handler is unsafe by nature (it must be async-signal-safe): `on_signal` only
// touches atomics and calls the async-signal-safe wrappers of `crate::os`.
#[allow(unsafe_code)]
pub fn install(control: &Control) {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        for signal in HANDLED {
            // Each handler owns a clone of the control's cancel flag (no static holds the
            // control): storing to it is one atomic store, as a handler may do.
            let cancel = control.cancel_flag();
            // SAFETY: the handler only touches atomics and calls `kill`, `write` and `_exit`,
            // all async-signal-safe.
            let _ = unsafe { signal_hook::low_level::register(signal, move || on_signal(signal, &cancel)) };
        }
        if let Ok(mut signals) = signal_hook::iterator::Signals::new(HANDLED) {
            std::thread::spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    watchdog(signal);
                }
            });
        }
    });
}

/// The first signal cancels the run (`cancel`, its control's flag: computations stop at their
/// next check) and kills the script workers, in this order (a run that sees its worker die
/// finds itself cancelled); a second one ends the process at once.
fn on_signal(signal: i32, cancel: &AtomicBool) {
    if SIGNAL.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst).is_err() {
        os::write_stderr(b"\ngrundy: a second signal: stopped at once\n");
        os::exit_now(128 + signal);
    }
    cancel.store(true, Ordering::SeqCst);
    for worker in &WORKERS {
        let pid = worker.load(Ordering::SeqCst);
        os::kill_process_group(pid);
    }
}

/// Ends a command that did not stop within [`GRACE`] of the first signal (or, for a run that
/// stops and saves by itself, within [`SAVE_GRACE`] more).
fn watchdog(signal: i32) {
    std::thread::sleep(GRACE);
    if SAVING.load(Ordering::SeqCst) > 0 || STOPPING.load(Ordering::SeqCst) > 0 {
        os::write_stderr(b"\ngrundy: stopping: saving what was computed (a second signal ends at once)\n");
        let deadline = std::time::Instant::now() + SAVE_GRACE;
        while SAVING.load(Ordering::SeqCst) > 0
            || (STOPPING.load(Ordering::SeqCst) > 0 && std::time::Instant::now() < deadline)
        {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    let message = format!(
        "\ngrundy: stopped by {} (exit status {}); the work in progress is lost, what was saved before is kept\n",
        name(signal),
        128 + signal
    );
    os::write_stderr(message.as_bytes());
    // Without destructors: other threads may be using what they would free.
    os::exit_now(128 + signal);
}

/// The signal's name as messages give it.
pub fn name(signal: i32) -> &'static str {
    match signal {
        libc::SIGINT => "SIGINT (Ctrl-C)",
        libc::SIGTERM => "SIGTERM",
        libc::SIGHUP => "SIGHUP",
        _ => "a signal",
    }
}

/// The first signal received, if any.
pub fn received() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal),
    }
}

/// A script worker started as process (and process group) `pid`: killed on the first signal.
pub fn add_worker(pid: u32) {
    let Ok(pid) = i32::try_from(pid) else { return };
    if WORKERS.iter().any(|slot| slot.compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst).is_ok())
        && received().is_some()
    {
        // The signal came while the worker was starting: it is not needed any more.
        os::kill_process_group(pid);
    }
}

/// The worker `pid` ended (or is about to be waited for).
pub fn remove_worker(pid: u32) {
    let Ok(pid) = i32::try_from(pid) else { return };
    for slot in &WORKERS {
        let _ = slot.compare_exchange(pid, 0, Ordering::SeqCst, Ordering::SeqCst);
    }
}

/// Counts one run of a kind (a checkpoint save, a run that stops by itself) while it lives.
pub struct Marked(&'static AtomicUsize);

impl Marked {
    fn new(counter: &'static AtomicUsize) -> Marked {
        counter.fetch_add(1, Ordering::SeqCst);
        Marked(counter)
    }
}

impl Drop for Marked {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Marks a checkpoint save in progress while the guard lives: a signal lets it finish.
pub fn saving() -> Marked {
    Marked::new(&SAVING)
}

/// Marks a run that stops at the cancel flag and saves what it has, while the guard lives.
pub fn stopping() -> Marked {
    Marked::new(&STOPPING)
}
