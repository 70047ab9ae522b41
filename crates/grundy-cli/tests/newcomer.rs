//! What a newcomer hit (issue 27): signals answered by every command within a second with the
//! documented exit status, script workers that die with grundy, limits decided before the work,
//! `--json` on every command that prints a result, and `check --samples` counting distinct sums.
#![cfg(unix)]

use crate::common::grundy;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn workspace_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().and_then(Path::parent).expect("crates/grundy-cli")
}

/// A script whose values cost O(n) moves each (take 1, 3 or 4, or split a heap into two
/// unequal heaps): its sequence to 10^5 takes minutes, long enough to signal.
fn splitting_script(directory: &Path) -> String {
    let path = directory.join("take134split.star");
    std::fs::write(
        &path,
        "NAME = \"take134split\"\n\
         def moves(n):\n    \
             options = [n - s for s in [1, 3, 4] if s <= n]\n    \
             for a in range(1, (n + 1) // 2):\n        \
                 options.append(Sum(a, n - a))\n    \
             return options\n",
    )
    .unwrap();
    format!("script:{}", path.display())
}

fn spawn(args: &[&str], stdin: Stdio) -> Child {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn signal(pid: u32, name: &str) {
    assert!(Command::new("kill").args([name, &pid.to_string()]).status().unwrap().success());
}

/// The children of process `pid` (from /proc).
fn children(pid: u32) -> Vec<u32> {
    let tasks = format!("/proc/{pid}/task");
    let mut found = Vec::new();
    for task in std::fs::read_dir(tasks).into_iter().flatten().flatten() {
        if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
            found.extend(text.split_whitespace().filter_map(|child| child.parse::<u32>().ok()));
        }
    }
    found
}

/// The script worker of grundy process `pid`, waited for at most 20 s.
fn worker_of(pid: u32) -> u32 {
    let started = Instant::now();
    loop {
        // Only once it has become the worker (exec'd): between fork and exec a child is still
        // in grundy's process group, its own not yet set.
        if let Some(&worker) = children(pid).first()
            && std::fs::read(format!("/proc/{worker}/cmdline"))
                .is_ok_and(|line| line.windows(15).any(|word| word == b"__script-worker"))
        {
            return worker;
        }
        assert!(started.elapsed() < Duration::from_secs(20), "no worker appeared");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `/proc/PID/stat`'s fields after the command name: state, parent, process group, …
fn stat(pid: u32) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = &text[text.rfind(')')? + 2..];
    Some(after_name.split_whitespace().map(str::to_owned).collect())
}

/// Whether `pid` still runs (a zombie no one reaps has stopped running).
fn running(pid: u32) -> bool {
    stat(pid).is_some_and(|fields| fields[0] != "Z" && fields[0] != "X")
}

/// Waits until `pid` stops running, at most `limit`.
fn stops_within(pid: u32, limit: Duration) -> bool {
    let started = Instant::now();
    while running(pid) {
        if started.elapsed() > limit {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

#[test]
fn ctrl_c_stops_a_script_run_at_once_with_status_130_and_takes_the_worker_along() {
    let scratch = crate::common::fresh_directory("ctrl-c");
    let dir = scratch.path();
    let game = splitting_script(dir);
    let child = spawn(&["period", &game, "--max", "100000"], Stdio::null());
    let worker = worker_of(child.id());
    // Its own process group: a terminal's Ctrl-C reaches grundy, not the worker directly.
    assert_eq!(stat(worker).unwrap()[2], worker.to_string(), "the worker leads its own process group");
    std::thread::sleep(Duration::from_millis(500));
    let sent = Instant::now();
    signal(child.id(), "-INT");
    let output = child.wait_with_output().unwrap();
    let took = sent.elapsed();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(took < Duration::from_secs(2), "answered after {took:?}");
    assert!(stderr.contains("interrupted after computing heaps 0.."), "{stderr}");
    assert!(!stderr.contains("killed by signal"), "{stderr}");
    assert!(stops_within(worker, Duration::from_secs(2)), "the worker outlived grundy");
}

#[test]
fn a_worker_dies_with_its_parent_however_the_parent_dies() {
    let scratch = crate::common::fresh_directory("orphan");
    let dir = scratch.path();
    let game = splitting_script(dir);
    let mut child = spawn(&["period", &game, "--max", "100000"], Stdio::null());
    let worker = worker_of(child.id());
    child.kill().unwrap(); // SIGKILL: no handler runs
    child.wait().unwrap();
    assert!(stops_within(worker, Duration::from_secs(2)), "the worker was orphaned");
}

#[test]
fn a_checkpointed_script_run_saves_on_sigterm_with_status_143() {
    let scratch = crate::common::fresh_directory("term");
    let dir = scratch.path();
    let game = splitting_script(dir);
    let checkpoint = dir.join("x.ck");
    let child =
        spawn(&["period", &game, "--max", "100000", "--checkpoint", checkpoint.to_str().unwrap()], Stdio::null());
    worker_of(child.id());
    std::thread::sleep(Duration::from_millis(1500));
    signal(child.id(), "-TERM");
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(143), "{stderr}");
    assert!(stderr.contains("saved to"), "{stderr}");
    assert!(checkpoint.exists());
}

#[test]
fn a_command_waiting_on_its_input_answers_sigterm_within_a_second() {
    // `play` blocks reading the person's move: the watchdog ends it with 143 and a line.
    let mut child = spawn(&["play", "nim", "3", "4", "5"], Stdio::piped());
    let stdin = child.stdin.take().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    signal(child.id(), "-TERM");
    let status = child.wait().unwrap();
    let took = sent.elapsed();
    drop(stdin);
    assert_eq!(status.code(), Some(143));
    assert!(took < Duration::from_millis(1500), "answered after {took:?}");
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(stderr.contains("stopped by SIGTERM"), "{stderr}");
}

#[test]
fn a_census_stopped_by_sighup_exits_129() {
    let scratch = crate::common::fresh_directory("census-hup");
    let dir = scratch.path();
    let db = dir.join("c.sqlite");
    let child = spawn(
        &["census", "octal", "--digits", "1..3", "--to", "1000000", "--db", db.to_str().unwrap(), "--jobs", "1"],
        Stdio::null(),
    );
    let started = Instant::now();
    while !db.exists() {
        assert!(started.elapsed() < Duration::from_secs(20), "the database never appeared");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    signal(child.id(), "-HUP");
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(129), "{stderr}");
    assert!(stderr.contains("interrupted: census of"), "{stderr}");
}

#[test]
fn a_script_period_without_max_stops_at_a_default_bound_and_says_so() {
    let game = format!("script:{}", workspace_root().join("examples/games/subtraction.star").display());
    let run = grundy(&["period", &game]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stdout.contains("no period proved for heaps 0..4095"), "{}", run.stdout);
    assert!(run.stdout.contains("observed, not proved: period 7"), "{}", run.stdout);
    assert!(
        run.stdout.contains("searched to the default bound, heap 4095: --max N searches further"),
        "{}",
        run.stdout
    );
}

#[test]
fn under_ulimit_v_the_worker_gets_what_the_process_may_have() {
    let game = format!("script:{}", workspace_root().join("examples/games/subtraction.star").display());
    let output = Command::new("bash")
        .args(["-c", &format!("ulimit -v 4000000 && exec \"$0\" value {game} 10"), env!("CARGO_BIN_EXE_grundy")])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert_eq!(String::from_utf8(output.stdout).unwrap(), "1\n"); // S = {1, 3, 4}: G(10) = 1
    assert!(stderr.contains("the script worker gets 3.8 GiB of memory") && stderr.contains("(ulimit -v)"), "{stderr}");
}

#[test]
fn moves_of_a_heap_too_large_to_list_are_refused_before_any_work() {
    let started = Instant::now();
    let run = grundy(&["moves", "grundys-game", "5000000"]);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("only heaps up to 1048576 are searched"), "{}", run.stderr);
    // The table up to 5000000 took 15-19 s before the refusal.
    assert!(started.elapsed() < Duration::from_secs(5), "took {:?}", started.elapsed());
}

#[test]
fn json_goes_anywhere_on_the_line_and_every_result_command_takes_it() {
    for args in
        [&["--json", "value", "nim", "3"][..], &["value", "--json", "nim", "3"], &["value", "nim", "3", "--json"]]
    {
        let run = grundy(args);
        assert_eq!(run.status, 0, "{args:?}: {}", run.stderr);
        assert_eq!(run.stdout, "{\"game\":\"nim\",\"position\":[\"3\"],\"value\":\"3\",\"outcome\":\"N\"}\n");
    }
    let check = grundy(&["check", "sub:1,3,4", "--formula", "n % 7 not in (0, 2)", "--to", "100", "--json"]);
    assert_eq!(check.status, 0, "{}", check.stderr);
    let answer: serde_json::Value = serde_json::from_str(&check.stdout).unwrap();
    assert_eq!(answer["agrees"], true);
    assert_eq!(answer["positions"], 101);

    let scratch = crate::common::fresh_directory("json");
    let dir = scratch.path();
    let picture = dir.join("k.svg");
    let plot = grundy(&["plot", "kayles", "--to", "50", "-o", picture.to_str().unwrap(), "--json"]);
    assert_eq!(plot.status, 0, "{}", plot.stderr);
    let answer: serde_json::Value = serde_json::from_str(&plot.stdout).unwrap();
    assert_eq!((answer["game"].as_str(), answer["format"].as_str()), (Some("kayles"), Some("svg")));

    let db = dir.join("c.sqlite");
    let census = grundy(&[
        "census",
        "sub",
        "--max-move",
        "4",
        "--moves",
        "1",
        "--to",
        "100",
        "--db",
        db.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(census.status, 0, "{}", census.stderr);
    let answer: serde_json::Value = serde_json::from_str(&census.stdout).unwrap();
    assert_eq!((answer["games"].as_u64(), answer["proved"].as_u64()), (Some(4), Some(4)));

    let play = crate::common::grundy_with_stdin(&["play", "nim", "3", "--json"], "3 -> 0\n");
    assert_eq!(play.status, 0, "{}", play.stderr);
    let events: Vec<serde_json::Value> = play.stdout.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    let kinds: Vec<&str> = events.iter().map(|event| event["event"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["start", "position", "you", "position", "end"], "{}", play.stdout);
}

#[test]
fn a_flag_given_to_the_wrong_command_says_which_commands_take_it() {
    let run = grundy(&["value", "--misere", "nim", "2", "2"]);
    assert_eq!(run.status, 2);
    assert!(!run.stderr.contains("to pass"), "{}", run.stderr);
    assert!(
        run.stderr.contains("`--misere`")
            && run.stderr.contains("is an option of outcome, moves, play, check, not of grundy value"),
        "{}",
        run.stderr
    );
    let run = grundy(&["value", "octal:0.137", "7", "--to", "5"]);
    assert!(!run.stderr.contains("to pass"), "{}", run.stderr);
    assert!(run.stderr.contains("`--to` is an option of sequence"), "{}", run.stderr);
}

#[test]
fn check_samples_counts_distinct_sums_and_says_when_fewer_exist() {
    let run = grundy(&[
        "check",
        "nim",
        "--formula",
        "p[0] ^ p[1] ^ p[2]",
        "--components",
        "3",
        "--max",
        "100",
        "--samples",
        "10000",
        "--seed",
        "3",
    ]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "agrees on 10000 positions (10000 distinct random sums, --seed 3)\n");
    let run =
        grundy(&["check", "nim", "--formula", "p[0] ^ p[1]", "--components", "2", "--max", "30", "--samples", "10000"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "agrees on 496 positions (every sum of 2 heaps up to 30: only 496 exist, fewer than --samples 10000)\n"
    );
    let run = grundy(&[
        "check",
        "nim",
        "--formula",
        "p[0] | p[1]",
        "--components",
        "2",
        "--max",
        "30",
        "--samples",
        "100",
        "--seed",
        "3",
    ]);
    assert_eq!(run.status, 1, "{}", run.stderr);
    assert!(run.stdout.ends_with("positions checked: 100 distinct random sums, --seed 3\n"), "{}", run.stdout);
}

#[test]
fn a_lone_octal_digit_is_the_digit_before_the_point() {
    let four = grundy(&["sequence", "octal:4", "--to", "10"]);
    let four_point_zero = grundy(&["sequence", "octal:4.0", "--to", "10"]);
    assert_eq!(four.status, 0, "{}", four.stderr);
    assert_eq!(four.stdout, four_point_zero.stdout);
}

#[test]
fn a_value_that_takes_seconds_shows_what_it_is_computing_on_a_terminal() {
    // `script` gives grundy a terminal; without it there is nothing to check here.
    if Command::new("script").arg("--version").output().is_err() {
        return;
    }
    // About four seconds in a debug build since three-way splits read parts by value block.
    let command = format!("{} value hex:0.8F 16000", env!("CARGO_BIN_EXE_grundy"));
    let output = Command::new("script").args(["-qc", &command, "/dev/null"]).stdin(Stdio::null()).output().unwrap();
    let printed = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{printed}");
    assert!(printed.contains("the nim-sequence of hex:0.8F up to heap 16000"), "{printed}");
}

/// Issue 60: `grundy --help` shows three examples, each of which runs, and points to
/// `grundy rules` for the games.
#[test]
fn top_level_help_shows_three_examples_and_points_to_rules() {
    let help = grundy(&["--help"]);
    assert_eq!(help.status, 0);
    let examples: Vec<&str> = help
        .stdout
        .lines()
        .skip_while(|line| line.trim() != "Examples:")
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .map(str::trim)
        .collect();
    assert_eq!(examples.len(), 3, "{}", help.stdout);
    assert!(help.stdout.contains("grundy rules"), "{}", help.stdout);
    for example in examples {
        let words: Vec<&str> = example.split_whitespace().collect();
        assert_eq!(words[0], "grundy");
        let run = grundy(&words[1..]);
        assert_eq!(run.status, 0, "{example}: {}", run.stderr);
    }
}

/// Issue 60: `sub:{2,5}` typed unquoted reaches grundy as `sub:2 sub:5`: the one-line error
/// says to quote it, with the word as typed.
#[test]
fn a_brace_expanded_game_word_is_told_to_be_quoted() {
    for (words, typed) in [
        (&["value", "sub:2", "sub:5", "9"][..], "'sub:{2,5}'"),
        (&["outcome", "nim", "3", "+", "sub:1,2", "sub:1,3"], "'sub:1,{2,3}'"),
        (&["value", "octal:0.07", "octal:0.137", "4"], "'octal:0.{0,13}7'"),
    ] {
        let run = grundy(words);
        assert_eq!(run.status, 2, "{words:?}");
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
        assert!(run.stderr.contains("quote it") && run.stderr.contains(typed), "{words:?}: {}", run.stderr);
    }
    // A plain bad heap gets no such hint.
    let run = grundy(&["value", "sub:2", "x"]);
    assert_eq!(run.status, 2);
    assert!(!run.stderr.contains("quote it"), "{}", run.stderr);
}
