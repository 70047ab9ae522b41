//! The CLI's rendering of the library's progress reports ([`grundy::progress`]): a bar with
//! the time left on stderr, only when stderr is a terminal, and only for work that has already
//! taken a second (short tasks draw nothing).

use grundy::control::Control;
use grundy::progress::ProgressSink;
use indicatif::{HumanDuration, ProgressBar, ProgressState, ProgressStyle};
use std::collections::HashMap;
use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Work shorter than this shows no bar.
const QUIET_FOR: Duration = Duration::from_secs(1);

struct Shown {
    what: String,
    total: u64,
    /// The last count reported, for a bar drawn later.
    done: u64,
    started: Instant,
    bar: Option<ProgressBar>,
}

/// Draws every task of the library as an indicatif bar.
#[derive(Default)]
struct TerminalBars {
    tasks: Arc<Mutex<HashMap<u64, Shown>>>,
}

impl ProgressSink for TerminalBars {
    fn start(&self, id: u64, what: &str, total: u64) {
        let shown = Shown { what: what.to_owned(), total, done: 0, started: Instant::now(), bar: None };
        self.tasks.lock().expect("progress lock").insert(id, shown);
    }

    fn update(&self, id: u64, done: u64) {
        let mut tasks = self.tasks.lock().expect("progress lock");
        let Some(shown) = tasks.get_mut(&id) else { return };
        shown.done = done;
        if shown.bar.is_none() && shown.started.elapsed() >= QUIET_FOR {
            shown.bar = Some(new_bar(&shown.what, shown.total));
        }
        if let Some(bar) = &shown.bar {
            bar.set_position(done);
        }
    }

    fn finish(&self, id: u64) {
        if let Some(Shown { bar: Some(bar), .. }) = self.tasks.lock().expect("progress lock").remove(&id) {
            bar.finish_and_clear();
        }
    }
}

/// A bar for a task of the library: `total` units (a spinner with a count when the total is
/// unknown).
fn new_bar(what: &str, total: u64) -> ProgressBar {
    bar(what, total, "done")
}

/// The one look of every progress bar of the CLI: `what [=====>    ] 1,234/10,000 units,
/// 3s (eta 12s)`, with "eta ?" before the first count (no rate known yet, not "eta 0s"); a
/// spinner with the count when `total` is 0 (unknown). Ticks by itself, so that a long first
/// step still shows the time going.
pub fn bar(what: &str, total: u64, units: &str) -> ProgressBar {
    let (bar, template) = if total == 0 {
        (ProgressBar::new_spinner(), format!("{{spinner}} {{msg}}: {{human_pos}} {units}, {{elapsed}}"))
    } else {
        (
            ProgressBar::new(total),
            format!("{{msg}} [{{bar:40}}] {{human_pos}}/{{human_len}} {units}, {{elapsed}} (eta {{eta}})"),
        )
    };
    let style = ProgressStyle::with_template(&template)
        .expect("a valid template")
        .with_key("eta", |state: &ProgressState, out: &mut dyn std::fmt::Write| {
            let _ = match state.pos() {
                0 => write!(out, "?"),
                _ => write!(out, "{:#}", HumanDuration(state.eta())),
            };
        })
        .progress_chars("=> ");
    bar.set_style(style);
    bar.set_message(what.to_owned());
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// A bar of the values of `what` computed, to `total`, when stderr is a terminal, and `control`
/// relaying the sequence's progress to it (for the computations in a window, which report only
/// that task).
pub fn values_bar(what: &str, total: u64, control: &Control) -> (Option<ProgressBar>, Control) {
    let bar = std::io::stderr().is_terminal().then(|| bar(what, total, "values"));
    let control = match &bar {
        Some(bar) => {
            let bar = bar.clone();
            control.relaying(grundy::heap::SEQUENCE_TASK, move |done| bar.set_position(done))
        }
        None => control.clone(),
    };
    (bar, control)
}

/// The bars, as the sink of the run's control, when stderr is a terminal (a pipe or a file
/// gets no progress text).
pub fn sink() -> Option<Arc<dyn ProgressSink>> {
    if std::io::stderr().is_terminal() {
        let bars = TerminalBars::default();
        // A task whose first step outlasts the quiet second (a misère quotient's candidate)
        // sends no update then: one thread draws such a task's bar anyway, ticking.
        let tasks = Arc::clone(&bars.tasks);
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(QUIET_FOR / 4);
                for shown in tasks.lock().expect("progress lock").values_mut() {
                    if shown.bar.is_none() && shown.started.elapsed() >= QUIET_FOR {
                        let bar = new_bar(&shown.what, shown.total);
                        bar.set_position(shown.done);
                        shown.bar = Some(bar);
                    }
                }
            }
        });
        Some(Arc::new(bars))
    } else {
        None
    }
}
