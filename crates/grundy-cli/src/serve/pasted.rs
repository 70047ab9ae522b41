//! The scripts pasted into the page (`POST /api/script`): saved in a private temporary folder of
//! this server's own, which is removed when the server stops, and capped while it runs: past
//! [`MOST_SCRIPTS`] scripts or [`MOST_BYTES`] in all, the least recently pasted are removed
//! (a page still showing one is told to paste it again).

use super::query::PastedScript;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The most scripts kept at once.
pub const MOST_SCRIPTS: usize = 64;
/// The most bytes of scripts kept at once (64 scripts of the largest body, 256 KiB).
pub const MOST_BYTES: u64 = 16 << 20;

/// The pasted scripts of one server.
pub struct PastedScripts {
    /// Removed with everything in it when dropped.
    folder: tempfile::TempDir,
    /// `folder`'s real path: the scripts' paths, as games name them, start with it.
    real_folder: PathBuf,
    /// The scripts kept, least recently pasted first, with their sizes.
    kept: Mutex<VecDeque<(PathBuf, u64)>>,
}

impl PastedScripts {
    /// A new private folder (mode 0700, an unpredictable name) under the temporary directory.
    pub fn new() -> anyhow::Result<PastedScripts> {
        let folder = tempfile::Builder::new()
            .prefix("grundy-serve-")
            .tempdir()
            .map_err(|error| anyhow::anyhow!("cannot make a temporary folder for pasted scripts: {error}"))?;
        let real_folder = std::fs::canonicalize(folder.path())?;
        Ok(PastedScripts { folder, real_folder, kept: Mutex::new(VecDeque::new()) })
    }

    /// The folder they are saved in.
    #[cfg(test)]
    pub fn folder(&self) -> &Path {
        &self.real_folder
    }

    /// Saves `text` as `pasted-HASH.star` (the same text is the same file, pasted again it
    /// becomes the most recent), then removes the least recently pasted past the caps.
    pub fn save(&self, text: &str) -> anyhow::Result<PathBuf> {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::hash::DefaultHasher::new();
        text.hash(&mut hasher);
        let path = self.real_folder.join(format!("pasted-{:016x}.star", hasher.finish()));
        // Written whole, then renamed: a game being read never sees half a script.
        let mut file = tempfile::NamedTempFile::new_in(self.folder.path())?;
        std::io::Write::write_all(&mut file, text.as_bytes())?;
        file.persist(&path)?;
        let mut kept = self.kept.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        kept.retain(|(other, _)| *other != path);
        kept.push_back((path.clone(), text.len() as u64));
        let mut total: u64 = kept.iter().map(|(_, bytes)| bytes).sum();
        while kept.len() > MOST_SCRIPTS || total > MOST_BYTES {
            let Some((oldest, bytes)) = kept.pop_front() else { break };
            total -= bytes;
            let _ = std::fs::remove_file(oldest);
        }
        Ok(path)
    }

    /// Whether `path` is a script pasted here, and still kept.
    pub fn lookup(&self, path: &Path) -> PastedScript {
        let kept = self.kept.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if kept.iter().any(|(kept, _)| kept == path) {
            PastedScript::Kept
        } else if path.parent() == Some(self.real_folder.as_path()) {
            PastedScript::Removed
        } else {
            PastedScript::NotPasted
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_recently_pasted_are_removed_past_the_cap() {
        let scripts = PastedScripts::new().unwrap();
        let first = scripts.save("# 0\n").unwrap();
        let paths: Vec<PathBuf> = (1..=MOST_SCRIPTS).map(|n| scripts.save(&format!("# {n}\n")).unwrap()).collect();
        assert_eq!(scripts.lookup(&first), PastedScript::Removed);
        assert!(!first.exists());
        assert!(paths.iter().all(|path| scripts.lookup(path) == PastedScript::Kept && path.exists()));
        assert_eq!(std::fs::read_dir(scripts.folder()).unwrap().count(), MOST_SCRIPTS);
        // Pasted again, the oldest becomes the most recent: the next one goes instead.
        assert_eq!(scripts.save("# 1\n").unwrap(), paths[0]);
        scripts.save("# new\n").unwrap();
        assert_eq!(scripts.lookup(&paths[0]), PastedScript::Kept);
        assert_eq!(scripts.lookup(&paths[1]), PastedScript::Removed);
        assert_eq!(scripts.lookup(Path::new("/etc/passwd")), PastedScript::NotPasted);
        // The bytes are capped too.
        let big = "#".repeat(usize::try_from(MOST_BYTES / 4).unwrap());
        let bigs: Vec<PathBuf> = (0..5).map(|n| scripts.save(&format!("{big}{n}\n")).unwrap()).collect();
        assert_eq!(scripts.lookup(&bigs[0]), PastedScript::Removed);
        assert_eq!(scripts.lookup(&bigs[4]), PastedScript::Kept);
        let folder = scripts.folder().to_owned();
        drop(scripts);
        assert!(!folder.exists(), "the folder is removed with the server");
    }
}
