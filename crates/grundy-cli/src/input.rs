//! Reading input with limits: graph files, checkpoints and lines of stdin never make the
//! process read without bound (`dag:/dev/zero`, `play … < /dev/zero` fail at once).
//!
//! [`BoundedLines`] is for positions on stdin and the moves typed into `play` (issue 13); until
//! those read through it, only its tests use it.
#![cfg_attr(not(test), allow(dead_code))]

use grundy::error::{human_bytes, quote};
use std::io::{BufRead, Read};
use std::path::Path;

/// The largest graph file read (a million edges take about 15 MB).
pub const GRAPH_FILE_LIMIT: u64 = 256 << 20;
/// The longest line of a graph file (an edge is two names).
pub const GRAPH_LINE_LIMIT: usize = 64 << 10;
/// The longest line read from stdin: a position of 5·10^6 heaps of 10 digits fits (Luogu
/// P1247 has 5·10^5), as the 256 MiB a judge's whole input may have holds 25 such lines.
pub const STDIN_LINE_LIMIT: usize = 64 << 20;

/// The largest script file read (`script:PATH`): the example games take a few kilobytes.
pub const SCRIPT_FILE_LIMIT: u64 = 4 << 20;

/// Reads the source of a script game: UTF-8 text of at most `SCRIPT_FILE_LIMIT` (4 MiB) bytes,
/// stopping at the first byte past it (`script:/dev/zero` fails at once).
///
/// # Errors
/// One line naming the file and the limit met, or why it cannot be read.
pub fn read_script_file(path: &str) -> Result<String, String> {
    let shown = quote(path);
    let file = std::fs::File::open(path).map_err(|error| cannot_open(Path::new(path), &error))?;
    let mut bytes = Vec::new();
    file.take(SCRIPT_FILE_LIMIT + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| format!("cannot read `{shown}`: {error}"))?;
    if bytes.len() as u64 > SCRIPT_FILE_LIMIT {
        return Err(format!(
            "`{shown}` is larger than {}, the most a script file may be",
            human_bytes(u128::from(SCRIPT_FILE_LIMIT))
        ));
    }
    String::from_utf8(bytes).map_err(|error| {
        format!(
            "`{shown}` is not UTF-8 text (byte {} is not valid): a script is Starlark source",
            error.utf8_error().valid_up_to()
        )
    })
}

/// Why `path` cannot be opened; for a missing file that grundy ships as an example (`dag.txt`,
/// `path4.txt`, `kayles.star`), where to get it.
fn cannot_open(path: &Path, error: &std::io::Error) -> String {
    let shown = quote(&path.display().to_string());
    let example =
        path.file_name().and_then(|name| name.to_str()).filter(|name| crate::example_files::is_example_file(name));
    match example {
        Some(name) if error.kind() == std::io::ErrorKind::NotFound => format!(
            "cannot read `{shown}`: {error}; `{name}` is one of grundy's example files: `grundy rules --write-examples DIR` \
             writes them into DIR"
        ),
        _ => format!("cannot read `{shown}`: {error}"),
    }
}

/// Reads the graph file of `dag:FILE` / `geography:FILE`: at most `GRAPH_FILE_LIMIT` (256 MiB) bytes,
/// lines of at most `GRAPH_LINE_LIMIT` (64 KiB) bytes, UTF-8. A FIFO (`dag:<(…)`) is read like a
/// file. When the file could be read in two layouts, says on stderr which was chosen.
///
/// # Errors
/// One line naming the file and the limit met, or why it cannot be read.
pub fn read_graph_file(path: &str) -> Result<String, String> {
    let text = read_text_limited(Path::new(path), GRAPH_FILE_LIMIT, GRAPH_LINE_LIMIT)?;
    if let Some(note) = grundy::graph::digraph::layout_note(&text, path) {
        eprintln!("grundy: note: {note}");
    }
    Ok(text)
}

/// Reads `path` as UTF-8 text of at most `limit` bytes whose lines have at most `line_limit`
/// bytes, stopping at the first byte past either limit.
///
/// # Errors
/// One line naming the file and what is wrong.
pub fn read_text_limited(path: &Path, limit: u64, line_limit: usize) -> Result<String, String> {
    let shown = quote(&path.display().to_string());
    let file = std::fs::File::open(path).map_err(|error| cannot_open(path, &error))?;
    let mut bytes = Vec::new();
    let mut reader = std::io::BufReader::new(file.take(limit + 1));
    let mut line_start = 0usize;
    loop {
        let chunk = reader.fill_buf().map_err(|error| format!("cannot read `{shown}`: {error}"))?;
        if chunk.is_empty() {
            break;
        }
        let taken = chunk.len();
        bytes.extend_from_slice(chunk);
        reader.consume(taken);
        let new_start = bytes.len() - taken;
        for (offset, &byte) in bytes[new_start..].iter().enumerate() {
            if byte == b'\n' {
                line_start = new_start + offset + 1;
            }
        }
        if bytes.len() - line_start > line_limit {
            let line = bytes[..line_start].iter().filter(|&&b| b == b'\n').count() + 1;
            return Err(format!(
                "`{shown}`: line {line} is longer than {} (a line holds one edge)",
                human_bytes(line_limit as u128)
            ));
        }
        if bytes.len() as u64 > limit {
            return Err(format!(
                "`{shown}` is larger than {}, the most a graph file may be",
                human_bytes(u128::from(limit))
            ));
        }
    }
    String::from_utf8(bytes).map_err(|error| {
        format!("`{shown}` is not UTF-8 text (a bad byte at offset {})", error.utf8_error().valid_up_to())
    })
}

/// One line read by [`BoundedLines`].
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// The line's text, without its end (`\n` or `\r\n`).
    Text(String),
    /// The line was longer than the limit: it was skipped up to its end. Holds its first
    /// characters (for the message) and its length in bytes.
    TooLong {
        /// Its first bytes, as text.
        start: String,
        /// Its length in bytes.
        bytes: u64,
    },
    /// The line was not UTF-8 (skipped).
    NotText,
}

impl Line {
    /// The line's text, or the one-line reason it cannot be used.
    ///
    /// # Errors
    /// The reason, for a line too long or not text.
    pub fn into_text(self, limit: usize) -> Result<String, String> {
        match self {
            Line::Text(text) => Ok(text),
            Line::TooLong { start, bytes } => Err(format!(
                "a line of {} starting `{}` is longer than the {} a line may have",
                human_bytes(u128::from(bytes)),
                quote(&start),
                human_bytes(limit as u128)
            )),
            Line::NotText => Err("the line is not UTF-8 text".to_owned()),
        }
    }
}

/// Lines of a reader (stdin) with a limit on each line's length: memory stays bounded whatever
/// comes in, an over-long or non-UTF-8 line is reported and skipped, and the lines after it
/// are still read. For positions on stdin and moves typed into `play`.
///
/// ```ignore
/// let mut lines = BoundedLines::new(std::io::stdin().lock(), STDIN_LINE_LIMIT);
/// while let Some(line) = lines.next_line()? { … }
/// ```
pub struct BoundedLines<R> {
    reader: R,
    limit: usize,
    /// Bytes the last line kept (for the tests: never more than `limit + 1`).
    kept: usize,
}

impl<R: BufRead> BoundedLines<R> {
    /// Lines of `reader`, each at most `limit` bytes.
    pub fn new(reader: R, limit: usize) -> Self {
        BoundedLines { reader, limit, kept: 0 }
    }

    /// How far an over-long line is skipped looking for its end before reading stops: an
    /// endless line (`< /dev/zero`) is an error within a fraction of a second.
    fn skip_limit(&self) -> u64 {
        (self.limit as u64).saturating_mul(2).max(64 << 20)
    }

    /// The bytes the last line kept in memory.
    pub fn buffered(&self) -> usize {
        self.kept
    }

    /// The next line, `None` at the end of the input.
    ///
    /// # Errors
    /// A read error of the reader, or a line with no end in sight (see `skip_limit`).
    pub fn next_line(&mut self) -> std::io::Result<Option<Line>> {
        let mut bytes = Vec::new();
        let mut length = 0u64;
        let mut ended = false;
        loop {
            let chunk = match self.reader.fill_buf() {
                Ok(chunk) => chunk,
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(error),
            };
            if chunk.is_empty() {
                break;
            }
            let (taken, found_end) = match chunk.iter().position(|&b| b == b'\n') {
                Some(end) => (end + 1, true),
                None => (chunk.len(), false),
            };
            let content = &chunk[..taken - usize::from(found_end)];
            // Keep at most limit + 1 bytes: enough to know the line is too long.
            let room = (self.limit + 1).saturating_sub(bytes.len());
            bytes.extend_from_slice(&content[..content.len().min(room)]);
            length += content.len() as u64;
            self.reader.consume(taken);
            self.kept = bytes.len();
            if length > self.skip_limit() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!(
                        "a line longer than {} without an end: stopped reading the input",
                        human_bytes(u128::from(self.skip_limit()))
                    ),
                ));
            }
            ended = true;
            if found_end {
                break;
            }
        }
        if !ended {
            return Ok(None);
        }
        if length > self.limit as u64 {
            let start = String::from_utf8_lossy(&bytes[..bytes.len().min(240)]).into_owned();
            return Ok(Some(Line::TooLong { start, bytes: length }));
        }
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        Ok(Some(String::from_utf8(bytes).map_or(Line::NotText, Line::Text)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// An endless reader of one byte, as `/dev/zero` or `yes` would be.
    struct Endless(u8);
    impl Read for Endless {
        fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
            buffer.fill(self.0);
            Ok(buffer.len())
        }
    }

    #[test]
    fn lines_are_bounded_and_reading_goes_on_after_a_bad_one() {
        let mut input_bytes = format!("1 2\r\n{}\n\u{fffd}ok\n", "9".repeat(5000)).into_bytes();
        input_bytes.extend_from_slice(b"\xffx");
        let mut lines = BoundedLines::new(&input_bytes[..], 100);
        assert_eq!(lines.next_line().unwrap(), Some(Line::Text("1 2".to_owned())));
        assert!(matches!(lines.next_line().unwrap(), Some(Line::TooLong { bytes: 5000, .. })));
        assert_eq!(lines.next_line().unwrap(), Some(Line::Text("\u{fffd}ok".to_owned())));
        assert_eq!(lines.next_line().unwrap(), Some(Line::NotText));
        assert_eq!(lines.next_line().unwrap(), None);
        let message = Line::TooLong { start: "9".repeat(240), bytes: 5000 }.into_text(100).unwrap_err();
        assert!(message.len() < 200 && message.contains("more characters"), "{message}");
    }

    #[test]
    fn an_endless_line_errors_quickly_in_bounded_memory() {
        // A long line is skipped to its end; a mebibyte past the limit is skipped and reported.
        let long = STDIN_LINE_LIMIT as u64 + (1 << 20);
        let reader = std::io::BufReader::new(Endless(b'7').take(long).chain(&b"\n1 2\n"[..]));
        let mut lines = BoundedLines::new(reader, STDIN_LINE_LIMIT);
        assert!(matches!(lines.next_line().unwrap(), Some(Line::TooLong { bytes, .. }) if bytes == long));
        assert_eq!(lines.next_line().unwrap(), Some(Line::Text("1 2".to_owned())));
        // Endless input without a newline (`< /dev/zero`): an error, soon, the buffer bounded.
        let started = Instant::now();
        let mut lines = BoundedLines::new(std::io::BufReader::new(Endless(0)), STDIN_LINE_LIMIT);
        let error = lines.next_line().unwrap_err().to_string();
        assert!(error.contains("stopped reading"), "{error}");
        assert!(lines.buffered() <= STDIN_LINE_LIMIT + 1);
        assert!(started.elapsed() < Duration::from_secs(2));
    }

    #[test]
    fn endless_and_oversized_files_are_refused_at_once() {
        let started = Instant::now();
        let error = read_text_limited(Path::new("/dev/zero"), GRAPH_FILE_LIMIT, GRAPH_LINE_LIMIT).unwrap_err();
        assert!(error.contains("line 1 is longer than 64.0 KiB"), "{error}");
        assert!(started.elapsed() < Duration::from_secs(1));
        let directory = tempfile::tempdir().unwrap();
        let big = directory.path().join("big.txt");
        std::fs::write(&big, "a b\n".repeat(1000)).unwrap();
        let error = read_text_limited(&big, 1000, 100).unwrap_err();
        assert!(error.contains("larger than 1000 B"), "{error}");
        assert_eq!(read_text_limited(&big, 4000, 100).unwrap().len(), 4000);
    }
}
