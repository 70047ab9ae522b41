//! Files written whole or not at all: through a temporary file beside the target, synced, then
//! renamed over it, so that a reader (or a run resumed after a crash) never sees half a file,
//! and a failure leaves no partial file behind. Every file grundy writes goes through here.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// The temporary file `path` is written through: `PATH.tmp-PID` beside it, unique to this
/// process (a checkpoint's run removes those of processes gone: [`crate::long_run`]).
fn temporary_beside(path: &Path) -> std::io::Result<PathBuf> {
    if path.file_name().is_none() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("`{}` names no file", path.display()),
        ));
    }
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".tmp-{}", std::process::id()));
    Ok(PathBuf::from(name))
}

/// Writes the file `path` with `write` (given a buffered writer: no buffer of the file's size
/// is needed), atomically.
///
/// # Errors
/// Any error creating, writing, syncing or renaming; the temporary file is removed then.
pub fn write_with(path: &Path, write: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<()>) -> std::io::Result<()> {
    let temporary = temporary_beside(path)?;
    let written = (|| {
        let mut file = BufWriter::with_capacity(1 << 20, File::create(&temporary)?);
        write(&mut file)?;
        file.flush()?;
        file.into_inner().map_err(std::io::IntoInnerError::into_error)?.sync_all()?;
        std::fs::rename(&temporary, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// Writes `bytes` to the file `path`, atomically.
///
/// # Errors
/// As [`write_with`].
pub fn write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_with(path, |file| file.write_all(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole_and_a_failed_write_leaves_the_old_one_and_no_temporary() {
        let directory = tempfile::tempdir().unwrap();
        let path = directory.path().join("out.txt");
        write(&path, b"first").unwrap();
        write(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        let failed = write_with(&path, |file| {
            file.write_all(b"half")?;
            Err(std::io::Error::other("stopped"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        let names: Vec<_> =
            std::fs::read_dir(directory.path()).unwrap().map(|entry| entry.unwrap().file_name()).collect();
        assert_eq!(names, ["out.txt"]);
        assert!(write(Path::new("/"), b"x").is_err());
    }
}
