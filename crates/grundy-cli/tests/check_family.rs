//! `grundy check --input-format F --program CMD` with default settings catches the wrong
//! solutions contestants really write (issue 38), each as a C program compiled here with gcc:
//! the sum for the nim-sum, S assumed sorted, no move to an empty heap, n mod m for n mod (m + 1),
//! the input's fields swapped, 1.618 or a float for φ, misère Nim's all-ones case, split-Nim
//! without equal heaps. The right solutions pass.

use crate::common::grundy;
use std::path::{Path, PathBuf};

/// `tests/data/check/NAME.c` compiled with `-DMUTANT=mutant`, in a temporary folder removed
/// when the result is dropped.
struct Compiled {
    _folder: tempfile::TempDir,
    binary: PathBuf,
}

impl std::ops::Deref for Compiled {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.binary
    }
}

fn compiled(name: &str, mutant: u32) -> Compiled {
    let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/check").join(format!("{name}.c"));
    let folder = crate::common::fresh_directory("check-family");
    let binary = folder.path().join(format!("{name}-{mutant}"));
    let status = std::process::Command::new("gcc")
        .args(["-O2", "-std=c99", &format!("-DMUTANT={mutant}"), "-o"])
        .arg(&binary)
        .arg(&source)
        .arg("-lm")
        .status()
        .expect("gcc runs");
    assert!(status.success(), "gcc {name}.c");
    Compiled { _folder: folder, binary }
}

fn check(format: &str, program: &Path, extra: &[&str]) -> crate::common::Run {
    let program = program.to_str().unwrap();
    grundy(&[&["check", "--input-format", format, "--program", program, "--seed", "1"], extra].concat())
}

#[test]
fn default_checks_catch_the_wrong_solutions_of_every_builtin_format() {
    for (format, name, mutants) in [
        ("acwing-891", "nim", &[1][..]),
        ("acwing-893", "set_nim", &[1, 2, 3][..]),
        ("acwing-894", "split_nim", &[1, 2][..]),
        ("hdu-1846", "brave_game", &[1, 2][..]),
        ("hdu-1907", "john", &[1][..]),
        ("poj-1067", "wythoff", &[1, 2][..]),
    ] {
        for &mutant in mutants {
            let run = check(format, &compiled(name, mutant), &[]);
            assert_eq!(run.status, 1, "{format} mutant {mutant}: {}{}", run.stdout, run.stderr);
            assert!(run.stdout.contains("--- input (a whole file) ---"), "{}", run.stdout);
            // The file shown really fails: the program's answer differs from grundy's own.
            let input = run.stdout.split("--- input (a whole file) ---\n").nth(1).unwrap();
            let input = input.split("--- end of input ---").next().unwrap();
            let own = crate::common::grundy_with_stdin(&["outcome", "--input-format", format], input);
            let program_said = run.stdout.split("program's answer: ").nth(1).unwrap().lines().next().unwrap();
            assert_eq!(own.status, 0, "{}", own.stderr);
            assert_ne!(own.stdout.split_whitespace().last(), Some(program_said), "{format} mutant {mutant}");
        }
        let right = check(format, &compiled(name, 0), &["--samples", "300"]);
        assert_eq!(right.status, 0, "{format}: {}{}", right.stdout, right.stderr);
        assert!(right.stdout.starts_with("agrees on "), "{}", right.stdout);
        assert!(right.stdout.contains("P-positions"), "{}", right.stdout);
    }
}

#[test]
fn failing_tests_are_shrunk_to_the_smallest() {
    // The sum for the nim-sum fails first on a sum of two heaps of 1.
    let run = check("acwing-891", &compiled("nim", 1), &[]);
    assert!(run.stdout.contains("--- input (a whole file) ---\n2\n1 1\n--- end of input ---"), "{}", run.stdout);
    let run = check("hdu-1907", &compiled("john", 1), &[]);
    assert!(run.stdout.contains("--- input (a whole file) ---\n1\n1\n1\n--- end of input ---"), "{}", run.stdout);
}

#[test]
fn files_obey_the_formats_tests_bound_and_bad_programs_are_one_line() {
    let scratch = crate::common::fresh_directory("check-bounds");
    let folder = scratch.path();
    let format = folder.join("eight.txt");
    std::fs::write(&format, "tests 8..100\nline n:1..30\ngame nim\nposition {n}\nanswer Yes No\n").unwrap();
    let format = format.to_str().unwrap();
    // grundy itself as the solution: its reader refuses a file of fewer than 8 tests.
    let solution = format!("{} outcome --input-format {format}", env!("CARGO_BIN_EXE_grundy"));
    let run = grundy(&["check", "--input-format", format, "--program", &solution, "--samples", "20", "--seed", "2"]);
    assert_eq!(run.status, 0, "{}{}", run.stdout, run.stderr);
    for (program, expected) in [
        ("exit 3", "failed"),
        ("echo Yes", "printed 1 answer for a file of "),
        ("yes Yes | head -9", "printed 9 answers"),
        ("sleep 5", "did not finish within 0.5 s"),
    ] {
        let run = grundy(&["check", "--input-format", format, "--program", program, "--timeout", "0.5", "--seed", "2"]);
        assert_eq!(run.status, 2, "{program}: {}", run.stdout);
        assert_eq!(run.stderr.lines().count(), 1, "{program}: {}", run.stderr);
        assert!(run.stderr.contains(expected), "{program}: {}", run.stderr);
    }
    std::fs::write(folder.join("none.txt"), "line n:5..9\nline h[n]:1..3:distinct\nposition {h}\nanswer Yes No\n")
        .unwrap();
    let none = folder.join("none.txt");
    let run = grundy(&["check", "nim", "--input-format", none.to_str().unwrap(), "--program", "true"]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("the format's bounds admit no test"), "{}", run.stderr);
    // `tests 0..0`: no input holds a test (a file of none was a panic): refused in one line,
    // by `check` and by the commands that read a judge's input.
    std::fs::write(folder.join("zero.txt"), "tests 0..0\nline n:1..3\nline h[n]:0..9\nposition {h}\nanswer Yes No\n")
        .unwrap();
    let zero = folder.join("zero.txt");
    let zero = zero.to_str().unwrap();
    for args in [
        &["check", "nim", "--input-format", zero, "--program", "true"][..],
        &["outcome", "nim", "--input-format", zero],
    ] {
        let run = crate::common::grundy_with_stdin(args, "0\n");
        assert_eq!(run.status, 2, "{args:?}: {}", run.stdout);
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains("`tests 0..0`: T can only be 0"), "{args:?}: {}", run.stderr);
    }
}

/// SIGINT, SIGTERM or SIGHUP to grundy ends the program under check with everything it started.
#[test]
fn a_signal_kills_the_programs_process_group() {
    for (signal, status) in [("-TERM", 143), ("-INT", 130), ("-HUP", 129)] {
        let marker = format!("sleep 97.{status}{}", std::process::id());
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(["check", "nim", "--program", &format!("{marker}; echo"), "--to", "3", "--timeout", "60"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // The program's `sleep` (its command line read from /proc: no pgrep needed; grundy's
        // own command line holds the marker too, but does not start with `sleep`).
        let running = || {
            std::fs::read_dir("/proc").unwrap().flatten().any(|entry| {
                std::fs::read(entry.path().join("cmdline")).is_ok_and(|line| {
                    let line = String::from_utf8_lossy(&line).replace('\0', " ");
                    line.starts_with("sleep ") && marker.ends_with(line.trim_end())
                })
            })
        };
        let started = std::time::Instant::now();
        while !running() && started.elapsed() < std::time::Duration::from_secs(20) {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        assert!(running(), "the program started");
        let sent = std::process::Command::new("kill").args([signal, &child.id().to_string()]).status().unwrap();
        assert!(sent.success());
        let exit = child.wait().unwrap();
        assert_eq!(exit.code(), Some(status), "signal {signal}");
        std::thread::sleep(std::time::Duration::from_millis(200));
        assert!(!running(), "`{marker}` outlived grundy after signal {signal}");
    }
}

/// A program that prints more than a quarter of `--memory-limit` is refused in one line, its
/// output not held past that (it was held up to 1 GiB whatever the limit said).
#[test]
fn a_programs_output_is_held_within_the_memory_limit() {
    let run = grundy(&[
        "check",
        "sub:1,3,4",
        "--program",
        "head -c 40000000 /dev/zero | tr '\\0' '0'",
        "--to",
        "5",
        "--memory-limit",
        "64M",
    ]);
    assert_eq!(run.status, 2, "{}", run.stdout);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("printed more than ") && run.stderr.contains("--memory-limit"), "{}", run.stderr);
}

/// A format whose game is costly to answer by its definition (a subtraction game of two
/// subtractions near 10^5 for each test: its nim-sequence runs to the period it proves) is
/// refused in one line with the estimate and what to lower, within about `--answer-time`,
/// instead of running for minutes silently (issue 61); a cheap format still passes under it.
#[test]
fn a_costly_format_is_refused_with_an_estimate_within_the_answer_time() {
    let scratch = crate::common::fresh_directory("check-costly");
    let format = scratch.path().join("costly.txt");
    std::fs::write(
        &format,
        "line a:100000..200000\nline b:300000..400000\nline n:0..1000000000000\ngame sub:{a},{b}\nposition {n}\nanswer Yes No\n",
    )
    .unwrap();
    let format = format.to_str().unwrap();
    let started = std::time::Instant::now();
    let run = grundy(&["check", "--input-format", format, "--program", "true", "--answer-time", "2", "--seed", "1"]);
    let took = started.elapsed();
    assert_eq!(run.status, 2, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("past --answer-time 2.0: lower --samples"), "{}", run.stderr);
    assert!(took < std::time::Duration::from_secs(30), "refused after {took:?}");
    let cheap = scratch.path().join("cheap.txt");
    std::fs::write(&cheap, "line n:1..30\ngame nim\nposition {n}\nanswer Yes No\n").unwrap();
    let solution = format!("{} outcome --input-format {}", env!("CARGO_BIN_EXE_grundy"), cheap.display());
    let run = grundy(&[
        "check",
        "--input-format",
        cheap.to_str().unwrap(),
        "--program",
        &solution,
        "--samples",
        "30",
        "--answer-time",
        "20",
    ]);
    assert_eq!(run.status, 0, "{}{}", run.stdout, run.stderr);
    let run = grundy(&["check", "--input-format", cheap.to_str().unwrap(), "--program", "true", "--answer-time", "0"]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("--answer-time 0"), "{}", run.stderr);
}
