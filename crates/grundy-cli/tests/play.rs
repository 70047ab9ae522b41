//! Scripted games of `grundy play`: the script is worked out with the library (the same engine
//! and seed the binary uses), then fed to the binary on stdin.

use grundy::play::{Chooser, engine_move};
use grundy::registry::parse_sum;
use grundy::sum::Position;

/// Plays `person` against the engine from `start` (the person first) and returns the person's
/// moves as typed lines, and whether the person won.
fn script(game: &str, start: &[&str], seed: u64, person: impl Fn(&Position) -> String) -> (String, bool) {
    let mut words = vec![game];
    words.extend(start);
    let mut position = parse_sum(&words).unwrap();
    let mut chooser = Chooser::new(seed);
    let mut lines = String::new();
    loop {
        if position.options(10_000).unwrap().is_empty() {
            return (lines, false);
        }
        let typed = person(&position);
        lines.push_str(&typed);
        lines.push('\n');
        let person_move = grundy::play::find_typed_move(&position, &typed).unwrap().unwrap();
        position = position.after(&person_move);
        match engine_move(&position, &mut chooser).unwrap() {
            None => return (lines, true),
            Some(reply) => position = position.after(&reply.chosen),
        }
    }
}

fn play(args: &[&str], input: &str) -> (String, i32) {
    let mut words = vec!["play"];
    words.extend_from_slice(args);
    let run = crate::common::grundy_with_stdin(&words, input);
    (run.stdout, run.status)
}

/// The last legal move listed, whatever it does: a bad player.
fn careless(position: &Position) -> String {
    position.options(10_000).unwrap().last().unwrap().notation.clone()
}

/// Always a winning move when there is one.
fn perfect(position: &Position) -> String {
    match position.winning_moves().unwrap().first() {
        Some(winning) => winning.notation.clone(),
        None => careless(position),
    }
}

#[test]
fn careless_person_loses_to_grundy() {
    for seed in [0, 1, 2] {
        let (input, person_wins) = script("nim", &["3", "4", "5"], seed, careless);
        assert!(!person_wins);
        let seed_text = seed.to_string();
        let (stdout, status) = play(&["nim", "3", "4", "5", "--seed", &seed_text], &input);
        assert_eq!(status, 0);
        assert!(stdout.trim_end().ends_with("you have no move: grundy wins."), "{stdout}");
    }
}

#[test]
fn perfect_person_wins_from_an_n_position() {
    for (game, start) in [("nim", vec!["3", "4", "5"]), ("sub:2,5", vec!["2", "4", "7"]), ("bash:3", vec!["10"])] {
        let (input, person_wins) = script(game, &start, 5, perfect);
        assert!(person_wins, "{game}");
        let mut args = vec![game];
        args.extend(&start);
        args.extend(["--seed", "5"]);
        let (stdout, status) = play(&args, &input);
        assert_eq!(status, 0);
        assert!(stdout.trim_end().ends_with("grundy has no move: you win!"), "{stdout}");
    }
}

#[test]
fn engine_first_from_an_n_position_wins() {
    let (stdout, status) = play(&["nim", "1", "2", "--first", "engine"], "1 -> 0\n");
    assert_eq!(status, 0);
    assert!(stdout.contains("grundy: 2 -> 1"), "{stdout}");
    assert!(stdout.trim_end().ends_with("grundy wins."), "{stdout}");
}

#[test]
fn illegal_moves_hint_undo_and_quit() {
    let (stdout, status) = play(&["nim", "3", "4", "5"], "9 -> 1\nhint\n5 -> 0\nundo\nquit\n");
    assert_eq!(status, 0);
    assert!(stdout.contains("illegal: `9 -> 1` is not a legal move"), "{stdout}");
    assert!(stdout.contains("hint: value 2: you can win, e.g. with `3 -> 1`"), "{stdout}");
    assert!(stdout.contains("undone"), "{stdout}");
    assert!(stdout.trim_end().ends_with("you quit: grundy wins."), "{stdout}");
}

#[test]
fn input_ending_early_stops_without_waiting() {
    let (stdout, status) = play(&["nim", "3"], "");
    assert_eq!(status, 0);
    assert!(stdout.contains("input ended"), "{stdout}");
}

#[test]
fn bad_start_is_an_error() {
    let run = crate::common::grundy(&["play", "nim", "x"]);
    assert_eq!(run.status, 2);
    assert_eq!(run.stderr.lines().count(), 1);
}

/// Ctrl-C, then the end of input (or a move) before the watchdog's grace is over: the game
/// ends with exit status 130 and says why, not as a game whose input ended.
#[test]
fn a_signal_ends_the_game_even_when_input_follows() {
    use std::io::{BufRead, Write};
    use std::process::{Command, Stdio};
    for after_signal in ["", "5 -> 1\n"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(["play", "nim", "3", "4", "5"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The first line printed: the game has started and waits for a move.
        let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        stdout.read_line(&mut first).unwrap();
        assert!(first.contains("you move first"), "{first}");
        let killed = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
        assert!(killed.success());
        std::thread::sleep(std::time::Duration::from_millis(100));
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(after_signal.as_bytes()).unwrap();
        drop(stdin);
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(130), "{after_signal:?}: {stderr}");
        assert!(stderr.contains("stopped by SIGINT"), "{stderr}");
        assert!(!rest.contains("input ended") && !rest.contains("you: "), "{rest}");
    }
}

/// Whether process `pid` catches `signal` yet (its handlers installed): the `SigCgt` mask of
/// /proc/PID/status, bit `signal - 1`.
fn catches(pid: u32, signal: u32) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("SigCgt:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask >> (signal - 1) & 1 == 1)
}

/// `value`, `outcome` and `moves` reading positions from stdin, and `outcome --input-format`
/// reading a judge's input: a signal followed by the end of input (or more input) before the
/// watchdog's grace is over exits 128 + the signal, not 0; with input that never ends, the
/// watchdog stops it with that status too.
#[test]
fn a_signal_then_the_end_of_input_exits_as_the_signal_says() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let commands: [&[&str]; 4] =
        [&["value", "nim"], &["outcome", "nim"], &["moves", "nim"], &["outcome", "--input-format", "poj-1067"]];
    for (signal, number, status) in [("-INT", 2, 130), ("-TERM", 15, 143), ("-HUP", 1, 129)] {
        for args in commands {
            for endless in [false, true] {
                let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
                    .args(args)
                    .stdin(Stdio::piped())
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap();
                let mut stdin = child.stdin.take().unwrap();
                stdin.write_all(b"1 2\n").unwrap();
                let started = Instant::now();
                while !catches(child.id(), number) {
                    assert!(started.elapsed() < Duration::from_secs(20), "{args:?}: no handler installed");
                    std::thread::sleep(Duration::from_millis(5));
                }
                let sent = Command::new("kill").args([signal, &child.id().to_string()]).status().unwrap();
                assert!(sent.success());
                std::thread::sleep(Duration::from_millis(50));
                if endless {
                    // Input that goes on: the watchdog ends the run.
                    let writer = std::thread::spawn(move || {
                        while stdin.write_all(b"3 4\n").is_ok() {
                            std::thread::sleep(Duration::from_millis(1));
                        }
                    });
                    let output = child.wait_with_output().unwrap();
                    let _ = writer.join();
                    assert_eq!(output.status.code(), Some(status), "{signal} {args:?} endless");
                } else {
                    // The run may have stopped already (the signal cut its read short).
                    let _ = stdin.write_all(b"3 4\n");
                    drop(stdin);
                    let output = child.wait_with_output().unwrap();
                    let stderr = String::from_utf8_lossy(&output.stderr);
                    assert_eq!(output.status.code(), Some(status), "{signal} {args:?}: {stderr}");
                    assert!(stderr.contains("stopped by"), "{signal} {args:?}: {stderr}");
                }
            }
        }
    }
}

/// `play --replay`: both players' moves come from the input (grundy makes none), each checked;
/// the first illegal one stops the replay, so a later move is never taken for the next of the
/// record (the server replays a link's `moves=` so, in one run: issue 61).
#[test]
fn a_replay_checks_both_players_moves_and_stops_at_the_first_illegal_one() {
    let (out, code) = play(&["--json", "--replay", "nim", "3", "4"], "2 4\n2 2\n1 2\n");
    assert_eq!(code, 0, "{out}");
    let events: Vec<serde_json::Value> = out.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    let kinds: Vec<&str> = events.iter().map(|event| event["event"].as_str().unwrap()).collect();
    assert_eq!(kinds.iter().filter(|kind| **kind == "you").count(), 3, "{out}");
    assert!(!kinds.contains(&"grundy"), "grundy made a move in a replay: {out}");
    // Three moves, then the input ends.
    assert_eq!(kinds.last(), Some(&"end"), "{out}");
    let (out, _) = play(&["--json", "--replay", "nim", "3", "4"], "2 4\n5 5\n2 2\n");
    let kinds: Vec<String> = out
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap()["event"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(kinds.iter().filter(|kind| *kind == "you").count(), 1, "{out}");
    let illegal = kinds.iter().position(|kind| kind == "illegal").expect("the illegal move is reported");
    assert_eq!(kinds[illegal + 1..], ["end"], "{out}");
    // The replayed game ends where nobody can move.
    let (out, _) = play(&["--replay", "nim", "1"], "0\n");
    assert!(out.contains("the replayed game is over"), "{out}");
}
