//! Hostile input (issue 30): arguments of any Unicode text or no text at all, and inputs whose
//! size would take the machine's memory. grundy answers, or refuses with one line and exit
//! status 2; it never panics (101), aborts (134) or dies of a signal.

use crate::common::grundy;
use proptest::prelude::*;
use std::ffi::OsString;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Every subcommand (the hidden worker's included).
const SUBCOMMANDS: [&str; 17] = [
    "value",
    "outcome",
    "moves",
    "rules",
    "table",
    "sequence",
    "period",
    "guess",
    "stats",
    "play",
    "plot",
    "genus",
    "quotient",
    "check",
    "census",
    "__script-worker",
    "help",
];

/// Words that reach deeper than random text: games, small numbers, flags.
const WORDS: [&str; 16] = [
    "nim",
    "kayles",
    "wythoff",
    "sub:1,3,4",
    "corners",
    "3",
    "0",
    "12",
    "1,2",
    "--json",
    "--to",
    "--heaps",
    "+",
    "-5",
    "--misere",
    "--all",
];

/// What one run ended with: its exit status (`None`: a signal, or stopped here after 20 s),
/// its stderr, and whether it was stopped here.
struct Ended {
    status: Option<i32>,
    stderr: String,
    stopped: bool,
}

/// Runs `grundy` with `arguments` in an empty directory (`plot`, `census` write files), no
/// standard input, stopped after 20 s (a long computation is not what is tested here).
fn run_raw(arguments: &[OsString]) -> Ended {
    let directory = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(arguments)
        .current_dir(directory.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut text).unwrap();
        text
    });
    let started = Instant::now();
    let mut stopped = false;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(20) {
            stopped = true;
            let _ = child.kill();
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let stderr = String::from_utf8_lossy(&reader.join().unwrap()).into_owned();
    Ended { status: status.code(), stderr, stopped }
}

fn assert_refused_in_one_line(arguments: &[OsString], ended: &Ended) {
    if ended.stopped {
        return;
    }
    let status = ended.status;
    assert!(matches!(status, Some(0..=2)), "{arguments:?}: status {status:?}, stderr {}", ended.stderr);
    if status == Some(2) {
        // A usage error may print clap's help (a subcommand given nothing); any other refusal
        // is one line.
        if !ended.stderr.contains("Usage:") {
            assert_eq!(ended.stderr.lines().count(), 1, "{arguments:?}: {}", ended.stderr);
        }
    }
}

fn argument() -> impl Strategy<Value = String> {
    // Any character but NUL, which no argument can hold.
    let text = |pattern: &'static str| pattern.prop_map(|text: String| text.replace('\0', ""));
    prop_oneof![3 => text("\\PC{0,12}"), 2 => prop::sample::select(WORDS.to_vec()).prop_map(str::to_owned), 1 => text(".{0,4}")]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any Unicode arguments to any subcommand: an answer, or one line and exit status 2.
    #[test]
    fn unicode_arguments_never_crash(
        subcommand in prop::sample::select(SUBCOMMANDS.to_vec()),
        rest in prop::collection::vec(argument(), 0..6),
    ) {
        // `check --program` runs its text as a shell command: not with random text.
        prop_assume!(!rest.iter().any(|word| word.starts_with("--pro")));
        let mut arguments = vec![OsString::from(subcommand)];
        arguments.extend(rest.iter().map(OsString::from));
        let ended = run_raw(&arguments);
        assert_refused_in_one_line(&arguments, &ended);
    }
}

/// The panics: non-ASCII text in an argument that ends up in an error message.
#[test]
fn non_ascii_arguments_are_refused_in_one_line() {
    for arguments in [
        &["period", "--json", "kayles", "é"][..],
        &["rules", "0", "😀😀😀", "0", "12345"],
        &["stats", "corners", "∞", "sub:1,3,4", "1", "100", "1", "1", "--to", "-5"],
        &["value", "nim", "—1"],
    ] {
        let run = grundy(arguments);
        assert_eq!(run.status, 2, "{arguments:?}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{arguments:?}: {}", run.stderr);
    }
}

/// An argument that is not UTF-8: named, one line, exit status 2 (std's `env::args` panicked).
#[test]
fn an_argument_that_is_not_utf8_is_named() {
    use std::os::unix::ffi::OsStringExt;
    for json in [false, true] {
        let mut arguments = vec![OsString::from("value")];
        if json {
            arguments.push("--json".into());
        }
        arguments.extend([OsString::from("nim"), OsString::from_vec(vec![b'7', 0xff])]);
        let ended = run_raw(&arguments);
        assert_eq!(ended.status, Some(2), "{}", ended.stderr);
        assert_eq!(ended.stderr.lines().count(), 1, "{}", ended.stderr);
        // Counted from 1 after the program's name, as a shell user counts them.
        let at = arguments.len();
        assert!(ended.stderr.contains(&format!("argument {at} (`7\\xff`) is not valid UTF-8")), "{}", ended.stderr);
    }
}

fn refused(arguments: &[&str], expected: &str) {
    let run = grundy(arguments);
    assert_eq!(run.status, 2, "{arguments:?}: {}{}", run.stdout, run.stderr);
    let error = run.stderr.lines().last().unwrap_or_default();
    assert!(error.starts_with("grundy: error: ") && error.contains(expected), "{arguments:?}: {}", run.stderr);
}

/// A failed candidate of octal 0.6 reduced to order 5736 once asked for 41 GB for its table.
#[test]
fn quotient_candidates_past_the_order_limit_are_refused_before_their_table() {
    refused(
        &["quotient", "octal:0.6", "--to", "17", "--max-order", "500"],
        "at heap 17, past the limit of 500 (raise --max-order or lower --to)",
    );
}

/// The misère search held to `--memory-limit` (it reached 8.4 GB) and to `--max-positions`,
/// which its message advises.
#[test]
fn the_misere_search_honours_the_memory_limit_and_max_positions() {
    refused(
        &["outcome", "--misere", "grundys-game", "166", "183", "--memory-limit", "20M"],
        "more than the 20.0 MiB allowed (set with --memory-limit)",
    );
    refused(
        &["outcome", "--misere", "grundys-game", "166", "183", "--max-positions", "1000"],
        "passed 1000 positions without an answer (raise --max-positions)",
    );
    refused(&["moves", "--misere", "grundys-game", "166", "183", "--max-positions", "1000"], "passed 1000 positions");
}

/// `check --to 100000000` asked for 4 GiB at once and aborted; then 7.5 GB as it went. Every
/// heap is now checked a chunk at a time: 300,000 heaps within 64 MiB (a table of them all
/// needed about 31 MB more than that holds with the rest).
#[test]
fn check_formula_memory_does_not_grow_with_to() {
    let run = grundy(&["check", "kayles", "--formula", "n > 0", "--to", "300000", "--memory-limit", "64M"]);
    assert_eq!((run.status, run.stdout.as_str()), (0, "agrees on 300001 positions\n"), "{}", run.stderr);
    refused(&["check", "kayles", "--formula", "n > 0", "--to", "100000001"], "at most 100000000 heaps");
}

/// A contest header declaring millions of vertices in a file of two lines: estimated with
/// what reading and solving it really take (76 bytes a vertex measured; the old estimate was
/// 40) before anything is allocated, and the table checked on its own.
#[test]
fn graph_files_are_estimated_before_they_are_read() {
    let directory = tempfile::tempdir().unwrap();
    let file = directory.path().join("big.txt");
    std::fs::write(&file, "2000000 1\n1 2\n").unwrap();
    let path = file.to_str().unwrap();
    for game in ["dag", "geography"] {
        let spec = format!("{game}:{path}");
        refused(&["value", &spec, "1", "--memory-limit", "100M"], "(2000000 vertices, 1 edges) would need about");
        refused(&["table", &spec, "--memory-limit", "200M"], "the table of 2000000 vertices would need about");
    }
    let huge = directory.path().join("huge.txt");
    std::fs::write(&huge, "4000000000 1\n1 2\n").unwrap();
    refused(&["value", &format!("dag:{}", huge.to_str().unwrap()), "1"], "(4000000000 vertices, 1 edges)");
}

/// `script:/dev/zero` read 2.1 GB before failing.
#[test]
fn script_files_have_a_size_cap() {
    for device in ["/dev/zero", "/dev/urandom"] {
        refused(&["value", &format!("script:{device}"), "1"], "is larger than 4.0 MiB, the most a script file may be");
    }
}

/// One memory budget for the whole run (issue 55): a format with a game per test
/// (`game sub:2,3,{k}`, Codeforces 1194D's shape) builds a table per test, each a few MiB; with
/// `--memory-limit 8M` they cannot all be kept, and `check` still answers every test (the
/// earlier games forgotten) instead of refusing or growing past the limit. The program is
/// grundy itself, so every answer is right.
#[test]
fn check_with_a_game_per_test_keeps_to_one_budget() {
    let scratch = crate::common::fresh_directory("one-budget");
    let format = scratch.path().join("cf.fmt");
    std::fs::write(&format, "line n:0..1000000000 k:5..300000\ngame sub:2,3,{k}\nposition {n}\nanswer Alice Bob\n")
        .unwrap();
    let program = scratch.path().join("solution.sh");
    std::fs::write(
        &program,
        format!(
            "#!/bin/sh\nread n k\nif [ \"$('{}' outcome sub:2,3,$k $n)\" = N ]; then echo Alice; else echo Bob; fi\n",
            env!("CARGO_BIN_EXE_grundy")
        ),
    )
    .unwrap();
    let format = format.to_str().unwrap();
    let program = format!("sh {}", program.to_str().unwrap());
    let args = ["check", "--input-format", format, "--program", &program, "--samples", "40", "--seed", "5"];
    let run = grundy(&[&args[..], &["--memory-limit", "8M"]].concat());
    assert_eq!(run.status, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("agrees on 40 tests"), "{}", run.stdout);
    // Too small for one game's table: refused in one line naming the limit.
    let run = grundy(&[&args[..], &["--memory-limit", "100K"]].concat());
    assert_eq!(run.status, 2, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("--memory-limit"), "{}", run.stderr);
}

/// The compound search's memo counts against `--memory-limit` in one line, exit 2.
#[test]
fn a_compound_search_past_the_memory_limit_is_refused() {
    let run = grundy(&["outcome", "--compound", "every", "wythoff", "150,150", "--memory-limit", "1M"]);
    assert_eq!(run.status, 2, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("--compound every") && run.stderr.contains("--memory-limit"), "{}", run.stderr);
}
