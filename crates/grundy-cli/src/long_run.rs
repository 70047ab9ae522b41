//! Long nim-sequence computations: a progress bar on stderr (only on a terminal), Ctrl-C to
//! stop cleanly, and `--checkpoint FILE` to save the prefix computed and continue from it.

use crate::output::Stop;
use anyhow::Context;
use grundy::heap::checkpoint::{decode, encode, spot_check};
use grundy::heap::period::{PeriodReport, find_period};
use grundy::heap::{HeapGame, SequenceControl};
use grundy::ruleset::Ruleset;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Set by Ctrl-C; the computation stops at its next check.
static CANCEL: AtomicBool = AtomicBool::new(false);

/// The values `G(0) … G(to)` of `game`, with the memory checked before anything is computed and
/// the progress bar, Ctrl-C and `checkpoint` handled by [`LongRun`].
pub fn values_to(game: &dyn HeapGame, to: u64, checkpoint: Option<&Path>) -> anyhow::Result<Vec<u32>> {
    let len = usize::try_from(to)
        .ok()
        .and_then(|to| to.checked_add(1))
        .ok_or_else(|| anyhow::anyhow!("--to {to} is beyond any table on this machine"))?;
    grundy::error::check_memory(|| format!("the nim-sequence of {} up to heap {to}", game.spec()), len as u128, 4)?;
    let mut run = LongRun::start(game, checkpoint, len as u64)?;
    let finished = run.extend(len)?;
    let mut values = run.finish(!finished)?;
    values.truncate(len);
    Ok(values)
}

/// How often a checkpoint is rewritten during a run (besides at its end and on Ctrl-C).
const SAVE_EVERY: Duration = Duration::from_secs(60);

/// The game of a GAME word, as a heap game with a nim-sequence.
pub fn heap_game<'r>(ruleset: &'r dyn Ruleset, text: &str) -> anyhow::Result<&'r dyn HeapGame> {
    ruleset.heap_game().ok_or_else(|| {
        anyhow::anyhow!(
            "`{text}` has no nim-sequence: sequence, period and stats take a heap game (nim, bash:M, sub:S, octal:CODE, …)"
        )
    })
}

/// The first Ctrl-C asks the computation to stop (and save); a second one ends the process.
fn install_ctrlc() {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        let _ = ctrlc::set_handler(|| {
            if CANCEL.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
    });
}

/// A checkpoint file: read once at the start, rewritten atomically.
struct CheckpointFile {
    path: PathBuf,
    spec: String,
    last_save: Instant,
    saved_len: usize,
    error: Option<anyhow::Error>,
}

impl CheckpointFile {
    /// The prefix saved in `path` (empty when the file does not exist).
    fn load(path: &Path, game: &dyn HeapGame) -> anyhow::Result<(Self, Vec<u32>)> {
        let spec = game.spec();
        let shown = path.display();
        let values = match std::fs::read(path) {
            Ok(bytes) => {
                let values = decode(&bytes, &spec).with_context(|| format!("checkpoint `{shown}` cannot be used"))?;
                spot_check(game, &values).with_context(|| format!("checkpoint `{shown}` cannot be used"))?;
                values
            }
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(error) => return Err(anyhow::Error::new(error).context(format!("cannot read checkpoint `{shown}`"))),
        };
        let file = CheckpointFile {
            path: path.to_owned(),
            spec,
            last_save: Instant::now(),
            saved_len: values.len(),
            error: None,
        };
        Ok((file, values))
    }

    /// Writes `values` to a temporary file next to the checkpoint, then renames it over.
    fn save(&mut self, values: &[u32]) -> anyhow::Result<()> {
        if values.len() <= self.saved_len {
            return Ok(());
        }
        let shown = self.path.display().to_string();
        let mut temporary = self.path.clone().into_os_string();
        temporary.push(format!(".tmp-{}", std::process::id()));
        let temporary = PathBuf::from(temporary);
        let write = || -> std::io::Result<()> {
            let mut file = std::fs::File::create(&temporary)?;
            file.write_all(&encode(&self.spec, values))?;
            file.sync_all()?;
            std::fs::rename(&temporary, &self.path)
        };
        if let Err(error) = write() {
            let _ = std::fs::remove_file(&temporary);
            return Err(anyhow::Error::new(error).context(format!("cannot save checkpoint `{shown}`")));
        }
        self.saved_len = values.len();
        self.last_save = Instant::now();
        Ok(())
    }

    /// Saves when the last save is old; remembers the first error (the run then stops).
    fn save_now_and_then(&mut self, values: &[u32]) {
        if self.error.is_none()
            && self.last_save.elapsed() >= SAVE_EVERY
            && let Err(error) = self.save(values)
        {
            self.error = Some(error);
            CANCEL.store(true, Ordering::SeqCst);
        }
    }
}

impl Drop for LongRun<'_> {
    /// A run ended by an error still clears its progress bar before the error line.
    fn drop(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// One long computation of a game's nim-sequence.
pub struct LongRun<'g> {
    game: &'g dyn HeapGame,
    /// The values computed so far (and read from the checkpoint).
    pub values: Vec<u32>,
    checkpoint: Option<CheckpointFile>,
    bar: Option<ProgressBar>,
}

impl<'g> LongRun<'g> {
    /// Starts a run towards `total` values: reads the checkpoint, if any, and shows a progress
    /// bar when stderr is a terminal.
    pub fn start(game: &'g dyn HeapGame, checkpoint: Option<&Path>, total: u64) -> anyhow::Result<Self> {
        install_ctrlc();
        let (checkpoint, values) = match checkpoint {
            Some(path) => {
                let (file, values) = CheckpointFile::load(path, game)?;
                (Some(file), values)
            }
            None => (None, Vec::new()),
        };
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template("{msg} [{bar:40}] {human_pos}/{human_len} values, {elapsed} (eta {eta})")
                    .expect("a valid template")
                    .progress_chars("=> "),
            );
            bar.set_message(game.spec());
            bar.set_position(values.len() as u64);
            bar
        });
        Ok(LongRun { game, values, checkpoint, bar })
    }

    /// Extends the values to `len`. `Ok(false)` when Ctrl-C stopped it.
    pub fn extend(&mut self, len: usize) -> anyhow::Result<bool> {
        let LongRun { game, values, checkpoint, bar } = self;
        let bar = &*bar;
        let progress = |done: usize| {
            if let Some(bar) = bar.as_ref() {
                bar.set_position(done as u64);
            }
        };
        let control = SequenceControl { cancel: &CANCEL, progress: &progress };
        while values.len() < len {
            let next = len.min(values.len() + (values.len() / 16).clamp(1 << 16, 1 << 24));
            let before = values.len();
            let done = game.extend_sequence(values, next, &control)?;
            anyhow::ensure!(
                !done || values.len() > before,
                "internal error: the sequence of {} did not grow past heap {before}",
                game.spec()
            );
            if let Some(file) = checkpoint.as_mut() {
                file.save_now_and_then(values);
            }
            if !done || CANCEL.load(Ordering::SeqCst) {
                return Ok(values.len() >= len);
            }
        }
        Ok(true)
    }

    /// Searches for a proved period up to heap `max_heap` (see [`find_period`]).
    pub fn find_period(&mut self, max_heap: u64) -> anyhow::Result<PeriodReport> {
        let LongRun { game, values, checkpoint, bar } = self;
        let bar = &*bar;
        let progress = |done: usize| {
            if let Some(bar) = bar.as_ref() {
                bar.set_position(done as u64);
            }
        };
        let control = SequenceControl { cancel: &CANCEL, progress: &progress };
        let mut after_segment = |values: &[u32]| {
            if let Some(file) = checkpoint.as_mut() {
                file.save_now_and_then(values);
            }
        };
        Ok(find_period(*game, values, max_heap, &control, &mut after_segment)?)
    }

    /// Ends the run: clears the progress bar and saves the checkpoint. When the run was
    /// interrupted, the error that says so (with where the values were saved).
    pub fn finish(mut self, interrupted: bool) -> anyhow::Result<Vec<u32>> {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        let mut saved = None;
        if let Some(mut file) = self.checkpoint.take() {
            if let Some(error) = file.error.take() {
                return Err(error);
            }
            file.save(&self.values)?;
            saved = Some(file.path);
        }
        if interrupted {
            let computed = self.values.len();
            let place = match saved {
                Some(path) => format!("; saved to `{}`, the same command continues from there", path.display()),
                None => "; nothing saved (use --checkpoint FILE to keep the work)".to_owned(),
            };
            return Err(anyhow::Error::new(Stop::Interrupted(format!(
                "interrupted after computing heaps 0..{}{place}",
                computed.saturating_sub(1)
            ))));
        }
        Ok(std::mem::take(&mut self.values))
    }
}
