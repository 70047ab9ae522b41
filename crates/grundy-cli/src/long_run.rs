//! Long nim-sequence computations: a progress bar on stderr (only on a terminal), SIGINT
//! (Ctrl-C), SIGTERM and SIGHUP stop cleanly and save, and `--checkpoint FILE` keeps the prefix
//! computed — checked writable at start-up, locked while the run lasts, never replaced by one
//! holding fewer values — and continues from it.

use crate::output::Stop;
use anyhow::Context;
use grundy::control::Control;
use grundy::error::quote;
use grundy::heap::AsHeapGame;
use grundy::heap::checkpoint::{self, Decoder, MAX_HEADER_LINE, read_header};
use grundy::heap::period::PeriodReport;
use grundy::heap::sequence::CompactSequence;
use grundy::heap::{HeapGame, SEQUENCE_TASK, SequenceRun};
use grundy::ruleset::Ruleset;
use indicatif::ProgressBar;
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Whether a finished run's checkpoint was saved: what the command ends with once it has
/// printed its result (a checkpoint that could not be saved is a warning, exit status 3).
#[must_use = "a checkpoint that could not be saved must be reported after the result"]
pub struct Saving(Option<String>);

impl Saving {
    /// `None` when the checkpoint was saved, else the warning to give after the result.
    pub fn new(unsaved: Option<String>) -> Saving {
        Saving(unsaved)
    }

    /// `printed` (the result printed), then the warning when the checkpoint was not saved.
    pub fn after(self, printed: anyhow::Result<()>) -> anyhow::Result<()> {
        printed?;
        match self.0 {
            Some(warning) => Err(anyhow::Error::new(Stop::Unsaved(warning))),
            None => Ok(()),
        }
    }
}

/// The values `G(0) … G(to)` of `game`, with the memory decided by the library's
/// [`SequenceRun`] before anything is computed or a checkpoint opened, and the progress bar,
/// signals and `checkpoint` handled by [`LongRun`].
pub fn values_to(
    game: &dyn HeapGame,
    to: u64,
    checkpoint: Option<&Path>,
    control: &Control,
) -> anyhow::Result<(CompactSequence, Saving)> {
    let len = usize::try_from(to)
        .ok()
        .and_then(|to| to.checked_add(1))
        .ok_or_else(|| anyhow::anyhow!("--to {to} is beyond any table on this machine"))?;
    let mut run = LongRun::start(SequenceRun::to(game, len, control)?, checkpoint, control)?;
    let finished = run.extend()?;
    let (mut values, saving) = run.finish(!finished)?;
    values.truncate(len);
    // Kept compact (one or two bytes a value): a 2^30-heap run widened to `u32` here took 4 GB.
    Ok((values, saving))
}

/// The first bytes of a checkpoint file read for its header (the longest header fits).
const HEAD_BYTES: u64 = 4 * (MAX_HEADER_LINE as u64 + 64);
/// The pieces a checkpoint is read in.
const READ_PIECE: usize = 1 << 20;

/// How often a checkpoint is rewritten during a run (besides at its end and on a signal).
const SAVE_EVERY: Duration = Duration::from_secs(60);

/// The game of a GAME word, as a heap game with a nim-sequence.
pub fn heap_game(ruleset: &dyn Ruleset, text: &str) -> anyhow::Result<Arc<dyn HeapGame>> {
    ruleset.heap_game().ok_or_else(|| {
        anyhow::anyhow!(
            "`{text}` has no nim-sequence: sequence, period and stats take a heap game ({}, or a script on integers)",
            grundy::registry::heap_family_list()
        )
    })
}

/// Runs `work` (the misère code, which takes a game's rules as a plain function of the heap)
/// on `game`'s options; the first error of a game whose rules can fail (a script's `moves`)
/// replaces whatever `work` made of the empty lists given after it.
pub fn with_heap_options<T>(
    game: &dyn HeapGame,
    work: impl FnOnce(&dyn Fn(u64) -> Vec<Vec<u64>>) -> Result<T, grundy::GameError>,
) -> anyhow::Result<T> {
    let failure = std::cell::RefCell::new(None);
    let options = |heap: u64| {
        game.heap_options_checked(heap).unwrap_or_else(|error| {
            failure.borrow_mut().get_or_insert(error);
            Vec::new()
        })
    };
    let result = work(&options);
    match failure.into_inner() {
        Some(error) => Err(error.into()),
        None => Ok(result?),
    }
}

/// `path` with `suffix` appended to its file name (`x.ck` → `x.ck.lock`).
pub(crate) fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// A checkpoint file: read once at the start under an exclusive lock, rewritten atomically,
/// never replaced by one holding fewer values.
pub(crate) struct CheckpointFile {
    path: PathBuf,
    spec: String,
    last_save: Instant,
    saved_len: usize,
    /// The first failed save, warned about once; the run goes on.
    error: Option<String>,
    /// `FILE.lock`, locked while the run lasts (the lock goes with the process).
    lock: Option<(std::fs::File, PathBuf)>,
}

impl CheckpointFile {
    /// Opens the checkpoint at `path` for `run`: refuses at once a place it cannot write, a
    /// checkpoint another run holds, or one that is not a regular file; removes temporary files
    /// that dead runs left; gives the run the prefix saved (nothing when there is no file yet),
    /// which the library checks against the rules.
    fn open(path: &Path, run: &mut SequenceRun, control: &Control) -> anyhow::Result<Self> {
        let game = run.game();
        let (shown, lock) = Self::claim(path)?;
        let spec = game.spec();
        // Owned from here on, so that a checkpoint refused below takes its `FILE.lock` away.
        let mut file = CheckpointFile {
            path: path.to_owned(),
            spec: spec.clone(),
            last_save: Instant::now(),
            saved_len: 0,
            error: None,
            lock: Some(lock),
        };
        match std::fs::File::open(path) {
            Ok(file) => {
                let values =
                    Self::read(file, &spec, control).with_context(|| format!("cannot read checkpoint `{shown}`"))?;
                let values = values.with_context(|| format!("checkpoint `{shown}` cannot be used"))?;
                run.resume(values).with_context(|| format!("checkpoint `{shown}` cannot be used"))?;
            }
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => return Err(anyhow::Error::new(error).context(format!("cannot read checkpoint `{shown}`"))),
        }
        file.saved_len = run.values().len();
        Ok(file)
    }

    /// Takes the exclusive lock on `FILE.lock` and writes our process id in it; refuses when
    /// another run holds it, naming that run's process id.
    /// Makes `path` this run's checkpoint before any work: a regular file or none yet, in a
    /// folder where a file can be created, locked (`FILE.lock`), with the temporaries of dead
    /// runs removed. Returns the path as messages show it, and the lock.
    pub(crate) fn claim(path: &Path) -> anyhow::Result<(String, (std::fs::File, PathBuf))> {
        let shown = quote(&path.display().to_string());
        match std::fs::metadata(path) {
            Ok(metadata) if !metadata.is_file() => {
                anyhow::bail!("checkpoint `{shown}` is not a regular file (a checkpoint is a file grundy writes)")
            }
            Ok(_) => {}
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => return Err(anyhow::Error::new(error).context(format!("cannot use checkpoint `{shown}`"))),
        }
        // Writable? Create and remove a file beside it, before any work.
        let probe = beside(path, &format!(".probe-{}", std::process::id()));
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&probe)
            .and_then(|_| std::fs::remove_file(&probe))
            .with_context(|| format!("cannot write checkpoint `{shown}` (creating a file beside it failed)"))?;
        let lock = Self::lock(path, &shown)?;
        Self::remove_stale_temporaries(path);
        Ok((shown, lock))
    }

    fn lock(path: &Path, shown: &str) -> anyhow::Result<(std::fs::File, PathBuf)> {
        let lock_path = beside(path, ".lock");
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock_path)
            .with_context(|| format!("cannot lock checkpoint `{shown}`"))?;
        let locked =
            crate::os::try_lock_exclusive(&file).with_context(|| format!("cannot lock checkpoint `{shown}`"))?;
        if !locked {
            let mut holder = String::new();
            let _ = (&file).take(32).read_to_string(&mut holder);
            let holder = match holder.trim() {
                "" => "unknown".to_owned(),
                pid => quote(pid),
            };
            anyhow::bail!(
                "checkpoint `{shown}` is in use by another grundy run (process {holder}): wait for it to end, \
                 or use another FILE"
            );
        }
        file.set_len(0)
            .and_then(|()| file.write_all(format!("{}\n", std::process::id()).as_bytes()))
            .with_context(|| format!("cannot lock checkpoint `{shown}`"))?;
        Ok((file, lock_path))
    }

    /// Removes `FILE.tmp-PID` files whose process is gone (a run killed while saving).
    fn remove_stale_temporaries(path: &Path) {
        let Some(name) = path.file_name() else { return };
        let directory = match path.parent() {
            Some(directory) if !directory.as_os_str().is_empty() => directory,
            _ => Path::new("."),
        };
        let prefix = format!("{}.tmp-", name.to_string_lossy());
        let Ok(entries) = std::fs::read_dir(directory) else { return };
        for entry in entries.flatten() {
            let entry_name = entry.file_name();
            let Some(pid) = entry_name.to_str().and_then(|entry_name| entry_name.strip_prefix(&prefix)) else {
                continue;
            };
            if let Ok(pid) = pid.parse::<i32>()
                && pid != std::process::id() as i32
                && !crate::os::process_exists(pid)
            {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }

    /// The values of the checkpoint `file` of the game `spec`, read in pieces into a table
    /// reserved once (the file's bytes are never held whole: a 2^30-value checkpoint is 2 GB),
    /// refused when larger than a table the memory limit allows. The outer error is the file's
    /// (it cannot be read), the inner one the checkpoint's (it cannot be used).
    fn read(
        mut file: std::fs::File,
        spec: &str,
        control: &Control,
    ) -> std::io::Result<Result<CompactSequence, grundy::heap::checkpoint::CheckpointError>> {
        let size = file.metadata()?.len();
        // The values take the file's bytes, less the header.
        control
            .check_memory(|| "reading the checkpoint".to_owned(), u128::from(size), 1)
            .map_err(|error| std::io::Error::other(error.to_string()))?;
        let mut head = Vec::new();
        (&mut file).take(HEAD_BYTES).read_to_end(&mut head)?;
        // Another spelling of the same game (`octal:0.07` for `dawson`) is the same game.
        let same_game = |found: &str| grundy::registry::same_game(found, spec);
        let mut decoder = match Decoder::with_spellings(&head, spec, &same_game, size) {
            Ok(decoder) => decoder,
            Err(error) => return Ok(Err(error)),
        };
        if let Err(error) = decoder.feed(&head[decoder.payload_start().min(head.len())..]) {
            return Ok(Err(error));
        }
        drop(head);
        let mut piece = vec![0u8; READ_PIECE];
        loop {
            let read = match file.read(&mut piece) {
                Ok(0) => break,
                Ok(read) => read,
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(error),
            };
            if let Err(error) = decoder.feed(&piece[..read]) {
                return Ok(Err(error));
            }
        }
        Ok(decoder.finish())
    }

    /// How many values the checkpoint on disk holds now (0 when none or unreadable).
    fn length_on_disk(&self) -> u64 {
        let Ok(file) = std::fs::File::open(&self.path) else { return 0 };
        let mut head = Vec::new();
        let _ = file.take(HEAD_BYTES).read_to_end(&mut head);
        read_header(&head).map_or(0, |header| header.length)
    }

    /// Writes `values` to a temporary file next to the checkpoint, then renames it over —
    /// unless the checkpoint on disk already holds as many values or more.
    fn save(&mut self, values: &CompactSequence) -> anyhow::Result<()> {
        if values.len() <= self.saved_len || self.length_on_disk() >= values.len() as u64 {
            return Ok(());
        }
        let shown = quote(&self.path.display().to_string());
        // A signal's watchdog lets this save finish.
        let _saving = crate::signals::saving();
        // Streamed: no buffer of the file's size (2 GB for 2^30 values of two bytes).
        crate::atomic_file::write_with(&self.path, |file| checkpoint::write(&self.spec, values, file))
            .map_err(|error| anyhow::Error::new(error).context(format!("cannot save checkpoint `{shown}`")))?;
        self.saved_len = values.len();
        self.last_save = Instant::now();
        Ok(())
    }

    /// Saves when the last save is old. A failed save is warned about once on stderr and the
    /// run goes on (the result is still printed; the save is tried again at the end).
    fn save_now_and_then(&mut self, values: &CompactSequence) {
        if self.last_save.elapsed() >= SAVE_EVERY
            && let Err(error) = self.save(values)
        {
            self.last_save = Instant::now();
            if self.error.is_none() {
                let message = format!("{error:#}");
                eprintln!("grundy: warning: {message}; computing on, the result will still be printed");
                self.error = Some(message);
            }
        }
    }
}

impl Drop for CheckpointFile {
    /// Removes `FILE.lock`, then unlocks (the lock would go with the process anyway).
    fn drop(&mut self) {
        if let Some((file, lock_path)) = self.lock.take() {
            let _ = std::fs::remove_file(&lock_path);
            drop(file);
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

/// One long computation of a game's nim-sequence: the library's [`SequenceRun`] (chunks,
/// memory, cancellation) with the CLI's bar, signals and checkpoint file around it.
pub struct LongRun<'g> {
    /// The values computed so far (and read from the checkpoint), one byte each while they fit.
    run: SequenceRun<'g>,
    checkpoint: Option<CheckpointFile>,
    bar: Option<ProgressBar>,
    /// Tells a signal's watchdog that this run stops and saves by itself.
    _stopping: crate::signals::Marked,
    /// The run's control: a signal cancels it, and the computation stops at its next check
    /// and the checkpoint is saved.
    control: Control,
}

/// `control` with the values known (the library's [`SEQUENCE_TASK`] counts) moving `bar`, if
/// one is shown.
fn showing_values(bar: &Option<ProgressBar>, control: &Control) -> Control {
    match bar {
        Some(bar) => {
            let bar = bar.clone();
            control.relaying(SEQUENCE_TASK, move |done| bar.set_position(done))
        }
        None => control.clone(),
    }
}

impl<'g> LongRun<'g> {
    /// Starts `run`: reads the checkpoint, if any, and shows a progress bar towards the run's
    /// length when stderr is a terminal.
    pub fn start(mut run: SequenceRun<'g>, checkpoint: Option<&Path>, control: &Control) -> anyhow::Result<Self> {
        let checkpoint = match checkpoint {
            Some(path) => Some(CheckpointFile::open(path, &mut run, control)?),
            None => None,
        };
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = crate::progress_bar::bar(&run.game().spec(), run.target_len() as u64, "values");
            bar.set_position(run.values().len() as u64);
            bar
        });
        Ok(LongRun { run, checkpoint, bar, _stopping: crate::signals::stopping(), control: control.clone() })
    }

    /// Extends the values to the run's length. `Ok(false)` when a signal stopped it.
    pub fn extend(&mut self) -> anyhow::Result<bool> {
        let LongRun { run, checkpoint, bar, control: run_control, .. } = self;
        let control = showing_values(bar, run_control);
        let mut save = |values: &CompactSequence| {
            if let Some(file) = checkpoint.as_mut() {
                file.save_now_and_then(values);
            }
        };
        match run.extend(&control, &mut save) {
            Ok(finished) => Ok(finished),
            // A signal stopped the script worker mid-request: keep the values so far.
            Err(_) if run_control.cancelled() => Ok(false),
            Err(error) => Err(error.into()),
        }
    }

    /// Searches for a proved period up to heap `max_heap` (see [`SequenceRun::find_period`]).
    pub fn find_period(&mut self, max_heap: u64) -> anyhow::Result<PeriodReport> {
        let LongRun { run, checkpoint, bar, control: run_control, .. } = self;
        let control = showing_values(bar, run_control);
        let mut after_segment = |values: &CompactSequence| {
            if let Some(file) = checkpoint.as_mut() {
                file.save_now_and_then(values);
            }
        };
        Ok(run.find_period(max_heap, &control, &mut after_segment)?)
    }

    /// Ends the run: clears the progress bar and saves the checkpoint. When the run was
    /// interrupted, the error that says so (with where the values were saved); else the values,
    /// and whether the checkpoint was saved.
    pub fn finish(mut self, interrupted: bool) -> anyhow::Result<(CompactSequence, Saving)> {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        let mut saved = None;
        let mut unsaved = None;
        if let Some(mut file) = self.checkpoint.take() {
            match file.save(self.run.values()) {
                Ok(()) => saved = Some(file.path.clone()),
                // The values are printed all the same; the failure is a warning (exit status 3).
                Err(error) if !interrupted => {
                    unsaved = Some(format!(
                        "{error:#}; the result printed is complete, but the checkpoint holds only what was saved before"
                    ));
                }
                Err(error) => return Err(error.context("interrupted, and the values computed could not be saved")),
            }
        }
        if interrupted {
            return Err(interruption(self.run.values().len() as u64, saved.as_deref()));
        }
        Ok((self.run.take_values(), Saving(unsaved)))
    }
}

/// What a run of the sequence stopped by the user says: the heaps computed (`computed` values),
/// and where they were saved, if anywhere.
pub fn interruption(computed: u64, saved: Option<&Path>) -> anyhow::Error {
    let place = match saved {
        Some(path) => format!("; saved to `{}`, the same command continues from there", path.display()),
        None => "; nothing saved (use --checkpoint FILE to keep the work)".to_owned(),
    };
    anyhow::Error::new(Stop::Interrupted(format!(
        "interrupted after computing heaps 0..{}{place}",
        computed.saturating_sub(1)
    )))
}
