//! Any command line: the `grundy` binary run with the input's bytes as arguments (split on NUL,
//! not necessarily UTF-8; the first byte picks the subcommand). It answers (0, 1) or refuses
//! with one line on stderr and status 2: never a panic (101), an abort (134) or a signal.
//!
//! The binary is `$GRUNDY_BIN`, else `../target/release/grundy` (build it first with
//! `cargo build --release -p grundy-cli`). Each run is in an empty directory, stopped after
//! 10 s; `--program` (a shell command) is never passed.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SUBCOMMANDS: [&str; 17] = [
    "value", "outcome", "moves", "rules", "table", "sequence", "period", "guess", "stats", "play", "plot", "genus", "quotient",
    "check", "census", "__script-worker", "help",
];

fn binary() -> OsString {
    std::env::var_os("GRUNDY_BIN")
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../target/release/grundy").into())
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    if rest.len() > 512 {
        return;
    }
    let mut arguments = vec![OsString::from(SUBCOMMANDS[pick as usize % SUBCOMMANDS.len()])];
    arguments.extend(rest.split(|&byte| byte == 0).map(|bytes| OsString::from_vec(bytes.to_vec())));
    if arguments.iter().any(|argument| argument.as_encoded_bytes().starts_with(b"--pro")) {
        return;
    }
    let directory = std::env::temp_dir().join(format!("grundy-fuzz-arguments-{}", std::process::id()));
    std::fs::create_dir_all(&directory).expect("a scratch directory");
    let mut child = Command::new(binary())
        .args(&arguments)
        .current_dir(&directory)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the grundy binary runs (set GRUNDY_BIN)");
    let mut stderr = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stderr, &mut text);
        text
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if started.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            break None; // a long computation: not what this target looks for
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let stderr = String::from_utf8_lossy(&reader.join().expect("reader")).into_owned();
    let _ = std::fs::remove_dir_all(&directory);
    let Some(status) = status else { return };
    let code = status.code();
    assert!(matches!(code, Some(0..=2)), "{arguments:?}: status {status:?}, stderr {stderr}");
    if code == Some(2) && !stderr.contains("Usage:") {
        assert_eq!(stderr.lines().count(), 1, "{arguments:?}: {stderr}");
    }
});
