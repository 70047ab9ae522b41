//! `grundy sequence grundys-game --to N --bounded [--checkpoint FILE]`: Grundy's game in memory
//! bounded by what the rare-value proof reads (`grundy::heap::sequence::window`), with the
//! same checkpoint guarantees as the other long runs (checked writable at start, locked,
//! rewritten atomically, saved on Ctrl-C, SIGTERM and SIGHUP) but the run's state in the file
//! instead of the whole sequence.

use crate::long_run::{CheckpointFile, Saving, interruption};
use crate::output::print;
use anyhow::Context;
use grundy::control::Control;
use grundy::error::quote;
use grundy::heap::sequence::window::{DEFAULT_SPAN, WindowedGrundy};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How often the state is rewritten during a run (besides at its end and on a signal): it is
/// up to 1 GiB, so less often than a sequence checkpoint.
const SAVE_EVERY: Duration = Duration::from_secs(300);

/// `FILE.lock`, held while the run lasts and removed at its end.
struct Lock(Option<(std::fs::File, PathBuf)>);

impl Drop for Lock {
    fn drop(&mut self) {
        if let Some((file, path)) = self.0.take() {
            let _ = std::fs::remove_file(path);
            drop(file);
        }
    }
}

/// Writes the run's state to `path` atomically (a temporary file beside it, then a rename).
fn save(run: &WindowedGrundy, path: &Path) -> anyhow::Result<()> {
    let _saving = crate::signals::saving();
    crate::atomic_file::write_with(path, |file| run.write_state(file)).map_err(|error| {
        anyhow::Error::new(error).context(format!("cannot save checkpoint `{}`", quote(&path.display().to_string())))
    })
}

/// Computes heaps `0 … to` of Grundy's game in bounded memory and prints the summary (the
/// values themselves are not kept).
pub fn run(to: u64, checkpoint: Option<&Path>, json: bool, control: &Control) -> anyhow::Result<()> {
    let len = to.checked_add(1).ok_or_else(|| anyhow::anyhow!("--to {to} is beyond any heap this run counts"))?;
    let (mut run, lock) = match checkpoint {
        Some(path) => {
            let (shown, lock) = CheckpointFile::claim(path)?;
            let lock = Lock(Some(lock));
            let run = match std::fs::File::open(path) {
                Ok(file) => {
                    let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
                    WindowedGrundy::read_state(&mut reader, control)
                        .with_context(|| format!("checkpoint `{shown}` cannot be used with --bounded"))?
                }
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                    WindowedGrundy::new(DEFAULT_SPAN, DEFAULT_SPAN)?
                }
                Err(error) => {
                    return Err(anyhow::Error::new(error).context(format!("cannot read checkpoint `{shown}`")));
                }
            };
            (run, Some(lock))
        }
        None => (WindowedGrundy::new(DEFAULT_SPAN, DEFAULT_SPAN)?, None),
    };
    if run.len() > len {
        // The state holds more than was asked: the summary of the heaps asked for, and the
        // state left as it is.
        drop(lock);
        if !run.truncate(len) {
            eprintln!(
                "grundy: the checkpoint holds heaps 0..{} and keeps only the first {} values: heaps 0..{to} are                  computed again, and the checkpoint is left as it is",
                run.len() - 1,
                run.sizes().0
            );
            return run_to(len, None, json, control);
        }
        return print_summary(&run, json);
    }
    // For the sizes of the state read, which are not always the defaults.
    run.check_memory(len, control)?;
    let saving = extend(&mut run, len, checkpoint, control)?;
    drop(lock);
    saving.after(print_summary(&run, json))
}

/// [`run`] from heap 0 with no checkpoint.
fn run_to(len: u64, checkpoint: Option<&Path>, json: bool, control: &Control) -> anyhow::Result<()> {
    let mut run = WindowedGrundy::new(DEFAULT_SPAN, DEFAULT_SPAN)?;
    run.check_memory(len, control)?;
    let saving = extend(&mut run, len, checkpoint, control)?;
    saving.after(print_summary(&run, json))
}

/// Extends `run` to `len` heaps, saving its state to `checkpoint` now and then, at the end, on
/// a signal and on an error. A save that fails during the run is warned about once and the run
/// goes on; one that fails at the end is returned in the [`Saving`], to be reported after the
/// summary (exit status 3, as a sequence checkpoint).
fn extend(run: &mut WindowedGrundy, len: u64, checkpoint: Option<&Path>, control: &Control) -> anyhow::Result<Saving> {
    let _stopping = crate::signals::stopping();
    let mut last_save = Instant::now();
    let mut warned = false;
    let finished = loop {
        // Stretches of 2^22 heaps: the state is saved between them when the last save is old.
        let next = len.min(run.len().saturating_add(1 << 22));
        let reached = match run.extend_to(next, &mut |_, _| {}, &|| control.cancelled()) {
            Ok(reached) => reached,
            Err(error) => {
                // The state up to the heap out of reach is kept for a rerun with more memory.
                return Err(match checkpoint.map(|path| save(run, path)) {
                    Some(Err(unsaved)) => {
                        anyhow::anyhow!("{error}; and the state computed until then could not be saved: {unsaved:#}")
                    }
                    _ => error.into(),
                });
            }
        };
        if !reached || run.len() >= len {
            break reached;
        }
        if let Some(path) = checkpoint
            && last_save.elapsed() >= SAVE_EVERY
        {
            if let Err(error) = save(run, path)
                && !warned
            {
                eprintln!("grundy: warning: {error:#}; computing on, the summary will still be printed");
                warned = true;
            }
            last_save = Instant::now();
        }
    };
    let saved = checkpoint.map(|path| save(run, path).map(|()| path));
    if !finished {
        return Err(match saved {
            Some(Err(error)) => error.context("interrupted, and the state computed could not be saved"),
            Some(Ok(path)) => interruption(run.len(), Some(path)),
            None => interruption(run.len(), None),
        });
    }
    Ok(Saving::new(match saved {
        Some(Err(error)) => Some(format!(
            "{error:#}; the summary printed is complete, but the checkpoint holds only what was saved before"
        )),
        _ => None,
    }))
}

/// The summary: how far, the rare heaps, the largest value, the checksum of the values.
fn print_summary(run: &WindowedGrundy, json: bool) -> anyhow::Result<()> {
    let rare = run.rare();
    let (largest, largest_at) = run.largest();
    let last = run.len().saturating_sub(1);
    if json {
        let text = serde_json::json!({
            "game": "grundys-game",
            "to": last,
            "rare": rare,
            "largest": { "value": largest, "heap": largest_at },
            "checksum": format!("{:016x}", run.checksum()),
        });
        return print(&format!("{text}\n"));
    }
    let mut text = format!(
        "grundys-game: heaps 0..{last} in bounded memory (values not kept)\n\
         rare values (bits above the lowest of even parity, heap 0 included): {}, the last at heap {}\n\
         largest value: {largest}, first at heap {largest_at}\n\
         checksum of the values: {:016x}\n\
         rare heaps (heap:value):",
        rare.len(),
        rare.last().map_or(0, |&(heap, _)| heap),
        run.checksum()
    );
    for (heap, value) in &rare {
        text.push_str(&format!(" {heap}:{value}"));
    }
    text.push('\n');
    print(&text)
}
