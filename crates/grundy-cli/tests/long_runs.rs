//! Long runs you can trust (issue 18): checkpoints checked at start-up, saved on SIGTERM and
//! SIGHUP, locked, never shrunk, compared by the game's canonical form; bounded reads.
#![cfg(unix)]

use crate::common::grundy;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A subtraction game with 3000 moves: slow enough (seconds per million heaps) to interrupt.
fn slow_game() -> String {
    let set: Vec<String> = (1..=3000).map(|n| (2 * n + 1).to_string()).collect();
    format!("sub:{}", set.join(","))
}

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn signal(child: &Child, name: &str) {
    assert!(Command::new("kill").args([name, &child.id().to_string()]).status().unwrap().success());
}

/// Waits until `path` exists (the run has started and locked), at most 20 s.
fn wait_for(path: &std::path::Path) {
    let started = Instant::now();
    while !path.exists() {
        assert!(started.elapsed() < Duration::from_secs(20), "{} never appeared", path.display());
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn an_unwritable_checkpoint_is_refused_at_once() {
    let started = Instant::now();
    let run = grundy(&["sequence", "grundys-game", "--to", "3000000", "--checkpoint", "missing/x.ck"]);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(started.elapsed() < Duration::from_secs(1), "took {:?}", started.elapsed());
    assert!(run.stderr.contains("cannot write checkpoint `missing/x.ck`"), "{}", run.stderr);
    assert!(run.stdout.is_empty());
    // Not a regular file: refused, never read (a device would never end).
    for path in ["/dev/zero", "/tmp"] {
        let run = grundy(&["sequence", "sub:2,5", "--to", "10", "--checkpoint", path]);
        assert_eq!(run.status, 2, "{}", run.stderr);
        assert!(run.stderr.contains("is not a regular file"), "{}", run.stderr);
    }
}

#[test]
fn sigterm_and_sighup_save_and_the_run_resumes_to_the_same_output() {
    let game = slow_game();
    for (name, status) in [("-TERM", 143), ("-HUP", 129)] {
        let scratch = crate::common::fresh_directory(&format!("signal{name}"));
        let dir = scratch.path();
        let path = dir.join("x.ck");
        let file = path.to_str().unwrap();
        let child = spawn(&["sequence", &game, "--to", "200000000", "--checkpoint", file]);
        wait_for(&dir.join("x.ck.lock"));
        std::thread::sleep(Duration::from_millis(1500));
        signal(&child, name);
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(status), "{stderr}");
        assert!(stderr.contains("interrupted after computing heaps 0..") && stderr.contains(file), "{stderr}");
        let saved = grundy::heap::checkpoint::decode(&std::fs::read(&path).unwrap(), &game).unwrap();
        assert!(!saved.is_empty());
        assert!(!dir.join("x.ck.lock").exists(), "the lock file is removed at the end");
        let to = (saved.len() + 1000).to_string();
        let resumed = grundy(&["sequence", &game, "--to", &to, "--checkpoint", file]);
        let fresh = grundy(&["sequence", &game, "--to", &to]);
        assert_eq!(resumed.status, 0, "{}", resumed.stderr);
        assert_eq!(resumed.stdout, fresh.stdout);
    }
}

#[test]
fn a_shorter_run_never_shrinks_a_checkpoint() {
    let scratch = crate::common::fresh_directory("shrink");
    let dir = scratch.path();
    let path = dir.join("x.ck");
    let file = path.to_str().unwrap();
    let long = grundy(&["sequence", "sub:2,5", "--to", "2000000", "--checkpoint", file]);
    assert_eq!(long.status, 0, "{}", long.stderr);
    let short = grundy(&["sequence", "sub:2,5", "--to", "1000000", "--checkpoint", file]);
    assert_eq!(short.status, 0, "{}", short.stderr);
    assert_eq!(short.stdout.split_ascii_whitespace().count(), 1_000_001);
    let header = grundy::heap::checkpoint::read_header(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(header.length, 2_000_001);
}

#[test]
fn a_second_run_on_a_locked_checkpoint_is_refused_naming_the_holder() {
    let game = slow_game();
    let scratch = crate::common::fresh_directory("lock");
    let dir = scratch.path();
    let path = dir.join("x.ck");
    let file = path.to_str().unwrap();
    let child = spawn(&["sequence", &game, "--to", "200000000", "--checkpoint", file]);
    wait_for(&dir.join("x.ck.lock"));
    std::thread::sleep(Duration::from_millis(200));
    let second = grundy(&["sequence", &game, "--to", "10", "--checkpoint", file]);
    signal(&child, "-INT");
    let first = child.wait_with_output().unwrap();
    assert_eq!(first.status.code(), Some(130));
    assert_eq!(second.status, 2, "{}", second.stderr);
    let holder = format!("in use by another grundy run (process {})", first_pid(&second.stderr));
    assert!(second.stderr.contains(&holder), "{}", second.stderr);
    // Once the holder is gone, the checkpoint is free again.
    let again = grundy(&["sequence", &game, "--to", "10", "--checkpoint", file]);
    assert_eq!(again.status, 0, "{}", again.stderr);
}

/// The process id named in a lock refusal.
fn first_pid(stderr: &str) -> String {
    let after = stderr.split("(process ").nth(1).unwrap_or_default();
    let pid: String = after.chars().take_while(char::is_ascii_digit).collect();
    assert!(!pid.is_empty(), "{stderr}");
    pid
}

#[test]
fn temporaries_of_dead_runs_are_removed_and_spellings_of_a_game_share_a_checkpoint() {
    let scratch = crate::common::fresh_directory("stale");
    let dir = scratch.path();
    let path = dir.join("x.ck");
    let file = path.to_str().unwrap();
    // A process id above the kernel's largest (2^22) belongs to no process.
    let stale = dir.join("x.ck.tmp-4194309");
    std::fs::write(&stale, b"").unwrap();
    let made = grundy(&["sequence", "octal:0.07", "--to", "100", "--checkpoint", file]);
    assert_eq!(made.status, 0, "{}", made.stderr);
    assert!(!stale.exists());
    let used = grundy(&["sequence", "dawson", "--to", "100", "--checkpoint", file]);
    assert_eq!(used.status, 0, "{}", used.stderr);
    assert_eq!(used.stdout, made.stdout);
}

#[test]
fn a_save_that_fails_later_still_prints_the_result_and_warns() {
    let game = slow_game();
    let scratch = crate::common::fresh_directory("late-failure");
    let dir = scratch.path();
    let path = dir.join("x.ck");
    let file = path.to_str().unwrap();
    let child = spawn(&["sequence", &game, "--to", "200000", "--checkpoint", file]);
    wait_for(&dir.join("x.ck.lock"));
    // The directory goes away after the start-up check: the save at the end fails.
    std::fs::remove_dir_all(dir).unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("warning: cannot save checkpoint") && stderr.contains("complete"), "{stderr}");
    assert_eq!(String::from_utf8(output.stdout).unwrap().split_ascii_whitespace().count(), 200_001);
}

#[test]
fn graph_files_are_read_with_limits_and_contest_layout_is_said() {
    let started = Instant::now();
    let run = grundy(&["value", "dag:/dev/zero", "a"]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("longer than 64.0 KiB"), "{}", run.stderr);
    assert!(started.elapsed() < Duration::from_secs(1));
    let scratch = crate::common::fresh_directory("contest");
    let dir = scratch.path();
    let contest = dir.join("contest.txt");
    std::fs::write(&contest, "4 3\n1 2\n2 3\n3 1\n").unwrap();
    let plain = dir.join("plain.txt");
    std::fs::write(&plain, "1 2\n2 3\n3 1\n").unwrap();
    let contest_game = format!("dag:{}", contest.display());
    let run = grundy(&["table", &contest_game]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stderr.contains("read in contest layout"), "{}", run.stderr);
    assert!(run.stdout.contains("4 0 P"), "vertex 4 is isolated: {}", run.stdout);
    for vertex in ["1", "2", "3"] {
        let from_contest = grundy(&["outcome", &contest_game, vertex]).stdout;
        let from_plain = grundy(&["outcome", &format!("dag:{}", plain.display()), vertex]).stdout;
        assert_eq!(from_contest, from_plain, "vertex {vertex}");
    }
}

#[test]
fn memory_limits_refuse_with_the_estimate() {
    let run = grundy(&["table", "wythoff", "--size", "16000", "--memory-limit", "100M"]);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("would need about") && run.stderr.contains("100.0 MiB allowed"), "{}", run.stderr);
    let run = grundy(&["value", "nim", "3", "--memory-limit", "lots"]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("bad size `lots`"), "{}", run.stderr);
}

#[test]
fn errors_quote_a_long_input_briefly() {
    let word = format!("sub:{}x", "1,".repeat(65_000));
    let run = grundy(&["value", &word, "3"]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.len() < 600 && run.stderr.contains("more characters"), "{}", run.stderr.len());
    let run = grundy(&["value", "grundys-game", "10000000000000000000"]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("no periodicity theorem covers grundys-game"), "{}", run.stderr);
}

/// The summary's checksum line.
fn checksum_line(stdout: &str) -> &str {
    stdout.lines().find(|line| line.starts_with("checksum of the values:")).expect("a checksum line")
}

#[test]
fn a_bounded_run_of_grundys_game_summarizes_the_same_values_and_resumes() {
    // The summary's checksum is that of the values `sequence` prints.
    let plain = grundy(&["sequence", "grundys-game", "--to", "6000"]);
    assert_eq!(plain.status, 0, "{}", plain.stderr);
    let values: Vec<u32> = plain.stdout.split_whitespace().map(|value| value.parse().unwrap()).collect();
    let expected = grundy::heap::sequence::window::ValueChecksum::of(values.iter().copied());
    let fresh = grundy(&["sequence", "grundys-game", "--to", "6000", "--bounded"]);
    assert_eq!(fresh.status, 0, "{}", fresh.stderr);
    assert_eq!(checksum_line(&fresh.stdout), format!("checksum of the values: {expected:016x}"));
    let largest = *values.iter().max().unwrap();
    let first = values.iter().position(|&value| value == largest).unwrap();
    assert!(fresh.stdout.contains(&format!("largest value: {largest}, first at heap {first}\n")), "{}", fresh.stdout);
    // Stopped at 2000 and continued from its state: the same summary as the fresh run.
    let scratch = crate::common::fresh_directory("bounded");
    let dir = scratch.path();
    let state = dir.join("grundy.state");
    let state = state.to_str().unwrap();
    let first_part = grundy(&["sequence", "grundys-game", "--to", "2000", "--bounded", "--checkpoint", state]);
    assert_eq!(first_part.status, 0, "{}", first_part.stderr);
    let resumed = grundy(&["sequence", "grundys-game", "--to", "6000", "--bounded", "--checkpoint", state]);
    assert_eq!(resumed.status, 0, "{}", resumed.stderr);
    assert_eq!(resumed.stdout, fresh.stdout);
    assert!(!dir.join("grundy.state.lock").exists());
    // A sequence checkpoint is not a bounded run's state, and the reverse: both refused.
    let sequence_checkpoint = dir.join("values.ck");
    let sequence_checkpoint = sequence_checkpoint.to_str().unwrap();
    assert_eq!(grundy(&["sequence", "grundys-game", "--to", "100", "--checkpoint", sequence_checkpoint]).status, 0);
    let refused =
        grundy(&["sequence", "grundys-game", "--to", "200", "--bounded", "--checkpoint", sequence_checkpoint]);
    assert_eq!(refused.status, 2, "{}", refused.stderr);
    assert!(refused.stderr.contains("cannot be used with --bounded"), "{}", refused.stderr);
    assert_eq!(grundy(&["sequence", "grundys-game", "--to", "200", "--checkpoint", state]).status, 2);
    // Another game, or --table: one line, exit status 2.
    let other = grundy(&["sequence", "kayles", "--to", "10", "--bounded"]);
    assert_eq!(other.status, 2);
    assert_eq!(other.stderr.lines().count(), 1, "{}", other.stderr);
    assert!(other.stderr.contains("--bounded is for grundys-game only"), "{}", other.stderr);
    assert_eq!(grundy(&["sequence", "grundys-game", "--to", "10", "--bounded", "--table"]).status, 2);
}

#[test]
fn a_bounded_run_stops_on_sigterm_and_continues_from_its_state() {
    let scratch = crate::common::fresh_directory("bounded-signal");
    let dir = scratch.path();
    let state = dir.join("grundy.state");
    let child =
        spawn(&["sequence", "grundys-game", "--to", "400000000", "--bounded", "--checkpoint", state.to_str().unwrap()]);
    wait_for(&dir.join("grundy.state.lock"));
    std::thread::sleep(Duration::from_millis(300));
    signal(&child, "-TERM");
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(143), "{stderr}");
    assert!(stderr.contains("the same command continues from there"), "{stderr}");
    let saved = std::fs::read(&state).unwrap();
    assert!(saved.starts_with(b"grundy-window 1\n"));
    // Continued: it reads the state, computes on, and is stopped again.
    let again =
        spawn(&["sequence", "grundys-game", "--to", "400000000", "--bounded", "--checkpoint", state.to_str().unwrap()]);
    std::thread::sleep(Duration::from_millis(500));
    signal(&again, "-TERM");
    let output = again.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(143), "{}", String::from_utf8_lossy(&output.stderr));
    let length = |bytes: &[u8]| -> u64 {
        let text = String::from_utf8_lossy(&bytes[..200]).into_owned();
        text.lines().find_map(|line| line.strip_prefix("length ")).unwrap().parse().unwrap()
    };
    assert!(length(&std::fs::read(&state).unwrap()) > length(&saved));
}

/// A bounded run's state as its header lines and its payload.
fn split_state(bytes: &[u8]) -> (Vec<String>, Vec<u8>) {
    let end = bytes.windows(2).position(|pair| pair == b"\n\n").unwrap();
    let header = String::from_utf8(bytes[..end].to_vec()).unwrap();
    (header.lines().map(str::to_owned).collect(), bytes[end + 2..].to_vec())
}

/// The header's numbers after `name`.
fn header_numbers(header: &[String], name: &str) -> Vec<u64> {
    let line = header.iter().find(|line| line.starts_with(&format!("{name} "))).unwrap();
    line.split(' ').filter_map(|word| word.parse().ok()).collect()
}

/// The state with its `checksum` line recomputed over `payload` as the library computes it
/// (the values of the prefix, the rare list and the window, then each rare heap as two halves).
fn with_checksum(header: &[String], payload: &[u8]) -> Vec<u8> {
    let values = (header_numbers(header, "prefix")[0] + header_numbers(header, "window")[0]) as usize;
    let rare = header_numbers(header, "rare")[0] as usize;
    let halves: Vec<u32> = payload[..2 * (values + rare)]
        .chunks_exact(2)
        .map(|pair| u32::from(u16::from_le_bytes([pair[0], pair[1]])))
        .collect();
    let prefix = header_numbers(header, "prefix")[0] as usize;
    let window = header_numbers(header, "window")[0] as usize;
    // Written as prefix, window, rare values; checksummed as prefix, rare values, window.
    let (prefix_values, rest) = halves.split_at(prefix);
    let (window_values, rare_values) = rest.split_at(window);
    let heaps = payload[2 * (values + rare)..].chunks_exact(8).flat_map(|word| {
        let heap = u64::from_le_bytes(word.try_into().unwrap());
        [heap as u32, (heap >> 32) as u32]
    });
    let checksum = grundy::heap::sequence::window::ValueChecksum::of(
        prefix_values.iter().chain(rare_values).chain(window_values).copied().chain(heaps),
    );
    let mut text: Vec<String> = header
        .iter()
        .map(|line| if line.starts_with("checksum ") { format!("checksum {checksum:016x}") } else { line.clone() })
        .collect();
    text.push(String::new());
    let mut bytes = (text.join("\n") + "\n").into_bytes();
    bytes.extend_from_slice(payload);
    bytes
}

#[test]
fn a_forged_bounded_state_is_refused_in_one_line() {
    let scratch = crate::common::fresh_directory("bounded-forged");
    let dir = scratch.path();
    let state = dir.join("grundy.state");
    let path = state.to_str().unwrap();
    let made = grundy(&["sequence", "grundys-game", "--to", "3000", "--bounded", "--checkpoint", path]);
    assert_eq!(made.status, 0, "{}", made.stderr);
    let original = std::fs::read(&state).unwrap();
    let (header, payload) = split_state(&original);
    // The checksum recomputed over the unchanged payload is the one written.
    assert_eq!(with_checksum(&header, &payload), original);
    let forgeries: Vec<(&str, Vec<u8>)> = vec![
        ("largest 0 at 0", {
            let header: Vec<String> = header
                .iter()
                .map(|line| if line.starts_with("largest ") { "largest 0 at 0".to_owned() } else { line.clone() })
                .collect();
            with_checksum(&header, &payload)
        }),
        ("one value changed", {
            // G(3000) xor 6: as rare or as common as before (two bits above the lowest flipped),
            // and no larger than the largest value.
            let mut payload = payload.clone();
            let value = u16::from_le_bytes([payload[6000], payload[6001]]) ^ 6;
            assert!(u64::from(value) <= header_numbers(&header, "largest")[0]);
            payload[6000..6002].copy_from_slice(&value.to_le_bytes());
            with_checksum(&header, &payload)
        }),
        ("length 2^64 - 1", {
            let header: Vec<String> = header
                .iter()
                .map(|line| if line.starts_with("length ") { format!("length {}", u64::MAX) } else { line.clone() })
                .collect();
            with_checksum(&header, &payload)
        }),
    ];
    for (name, forged) in forgeries {
        std::fs::write(&state, forged).unwrap();
        let run = grundy(&["sequence", "grundys-game", "--to", "4000", "--bounded", "--checkpoint", path]);
        assert_eq!(run.status, 2, "{name}: {}{}", run.stdout, run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{name}: {}", run.stderr);
        assert!(run.stderr.contains("cannot be used with --bounded"), "{name}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{name}: {}", run.stdout);
    }
}

#[test]
fn a_bounded_run_asked_for_fewer_heaps_than_its_state_answers_them() {
    let scratch = crate::common::fresh_directory("bounded-fewer");
    let dir = scratch.path();
    let state = dir.join("grundy.state");
    let path = state.to_str().unwrap();
    assert_eq!(grundy(&["sequence", "grundys-game", "--to", "6000", "--bounded", "--checkpoint", path]).status, 0);
    let saved = std::fs::read(&state).unwrap();
    for to in ["2000", "0"] {
        let fresh = grundy(&["sequence", "grundys-game", "--to", to, "--bounded"]);
        let from_state = grundy(&["sequence", "grundys-game", "--to", to, "--bounded", "--checkpoint", path]);
        assert_eq!(from_state.status, 0, "{}", from_state.stderr);
        assert_eq!(from_state.stdout, fresh.stdout, "--to {to}");
        assert_eq!(std::fs::read(&state).unwrap(), saved, "the state is left as it is");
    }
}

#[test]
fn a_bounded_run_that_cannot_save_at_the_end_prints_its_summary_then_warns() {
    let scratch = crate::common::fresh_directory("bounded-unsaved");
    let dir = scratch.path();
    let state = dir.join("grundy.state");
    let child =
        spawn(&["sequence", "grundys-game", "--to", "600000", "--bounded", "--checkpoint", state.to_str().unwrap()]);
    wait_for(&dir.join("grundy.state.lock"));
    // The folder goes away after the start-up check: the save at the end fails.
    std::fs::remove_dir_all(dir).unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("warning: cannot save checkpoint") && stderr.contains("complete"), "{stderr}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.starts_with("grundys-game: heaps 0..600000 in bounded memory"), "{stdout}");
    assert!(stdout.contains("checksum of the values: "), "{stdout}");
}

#[test]
fn period_of_grundys_game_far_out_searches_in_a_window() {
    // Past 2^27 + 1 heaps the search holds the whole sequence: under 200 MB it is refused at
    // once, one line, as before.
    for json in [false, true] {
        let mut args = vec!["period", "grundys-game", "--max", "134217730", "--memory-limit", "200M"];
        if json {
            args.push("--json");
        }
        let refused = grundy(&args);
        assert_eq!(refused.status, 2);
        assert_eq!(refused.stderr.lines().count(), 1, "{}", refused.stderr);
        assert!(refused.stderr.contains("512.0 MiB"), "{}", refused.stderr);
        if json {
            let error: serde_json::Value = serde_json::from_str(&refused.stdout).unwrap();
            assert_eq!(error["error"]["kind"], "too_large");
        }
    }
    // To 2^27 heaps the window's 160 MiB fit: the search runs, and a signal stops it as it
    // stops any long run.
    let child = spawn(&["period", "grundys-game", "--max", "134217727", "--memory-limit", "200M"]);
    std::thread::sleep(Duration::from_millis(1500));
    signal(&child, "-INT");
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("interrupted after computing heaps 0.."), "{stderr}");
    assert!(stderr.contains("nothing saved (use --checkpoint FILE to keep the work)"), "{stderr}");
    assert!(output.stdout.is_empty());
}
