//! `grundy sequence`, `grundy period`, `grundy stats` and checkpoints, run as a user would.

use std::path::PathBuf;
use std::process::{Command, Output};

fn grundy(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grundy")).args(args).output().expect("grundy runs")
}

/// Runs a command that must succeed; its stdout.
fn ok(args: &[&str]) -> String {
    let output = grundy(args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{args:?} failed: {stderr}");
    assert!(stderr.is_empty(), "{args:?} wrote to stderr: {stderr}");
    String::from_utf8(output.stdout).unwrap()
}

/// Runs a command that must fail with exit status 2 and one line on stderr; that line.
fn fails(args: &[&str]) -> String {
    let output = grundy(args);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(output.stdout.is_empty(), "{args:?} printed {}", String::from_utf8_lossy(&output.stdout));
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.starts_with("grundy: error: "), "{stderr}");
    stderr
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).unwrap()
}

/// A fresh path in the test's temporary directory.
fn temporary(name: &str) -> PathBuf {
    let directory = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sequences");
    std::fs::create_dir_all(&directory).unwrap();
    let path = directory.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn sequence_prints_the_values_whitespace_separated() {
    assert_eq!(ok(&["sequence", "sub:1,2", "--to", "5"]), "0 1 2 0 1 2\n");
    assert_eq!(ok(&["sequence", "sub:2,5", "--to", "12"]), "0 0 1 1 0 2 1 0 0 1 1 0 2\n");
    assert_eq!(ok(&["sequence", "sub:1,3,4", "--to", "0"]), "0\n");
    assert_eq!(ok(&["sequence", "nim", "--to", "6"]), "0 1 2 3 4 5 6\n");
    assert_eq!(ok(&["sequence", "bash:3", "--to", "9"]), "0 1 2 3 0 1 2 3 0 1\n");
    assert_eq!(ok(&["sequence", "bash:100000000000000000000000", "--to", "3"]), "0 1 2 3\n");
}

#[test]
fn sequence_json_is_an_object_with_the_values() {
    assert_eq!(
        ok(&["sequence", "sub:2,5", "--to", "6", "--json"]),
        "{\"game\":\"sub:2,5\",\"values\":[0,0,1,1,0,2,1]}\n"
    );
    let long = json(&["sequence", "sub:1,3,4", "--to", "100000", "--json"]);
    let values = long["values"].as_array().unwrap();
    assert_eq!(values.len(), 100_001);
    // S = {1, 3, 4}: period 7, 0 1 0 1 2 3 2.
    assert_eq!(values[100_000], [0, 1, 0, 1, 2, 3, 2][100_000 % 7]);
}

#[test]
fn sequence_rejects_bad_input_in_one_line() {
    assert!(fails(&["sequence", "chess", "--to", "5"]).contains("chess"));
    assert!(fails(&["sequence", "sub:1,0", "--to", "5"]).contains("`0`"));
    assert!(fails(&["sequence", "sub:1,2", "--to", "-1"]).contains("-1"));
    assert!(fails(&["sequence", "sub:1,2", "--to", "x"]).contains("'x'"));
    assert!(fails(&["sequence", "sub:1,2"]).contains("--to"));
    assert!(fails(&["sequence", "sub:1,2", "--to", "1000000000000000000000"]).contains("--to"));
    assert!(fails(&["sequence", "sub:1,2", "--to", "100000000000"]).contains("memory"));
}

#[test]
fn period_of_subtraction_games_by_the_window_argument() {
    assert_eq!(
        json(&["period", "sub:1,2", "--json"]),
        serde_json::json!({"game": "sub:1,2", "preperiod": 0, "period": 3, "saltus": 0, "proved": true, "checked_to": 4})
    );
    let text = ok(&["period", "sub:2,5"]);
    assert!(text.starts_with("sub:2,5: period 7, preperiod 0 (proved)\n"), "{text}");
    assert!(text.contains("window argument"), "{text}");
    assert!(text.contains("G(0..4) repeat as G(7..11), on heaps 0..11"), "{text}");
    // S = {3, 5, 8}: a preperiod.
    let report = json(&["period", "sub:3,5,8", "--json"]);
    assert_eq!(report["proved"], true);
    assert_eq!(report["saltus"], 0);
}

#[test]
fn period_not_proved_within_max_says_so() {
    assert_eq!(
        json(&["period", "sub:1,2", "--max", "3", "--json"]),
        serde_json::json!({"game": "sub:1,2", "preperiod": null, "period": null, "saltus": null, "proved": false, "checked_to": 3, "observed": null})
    );
    let text = ok(&["period", "sub:1,2", "--max", "3"]);
    assert!(text.starts_with("sub:1,2: no period proved for heaps 0..3\n"), "{text}");
}

#[test]
fn period_of_nim_and_bash_by_their_closed_forms() {
    let nim = json(&["period", "nim", "--json"]);
    assert_eq!(
        (&nim["preperiod"], &nim["period"], &nim["saltus"], &nim["proved"]),
        (&0.into(), &1.into(), &1.into(), &true.into())
    );
    let text = ok(&["period", "nim"]);
    assert!(text.contains("saltus 1 (proved)") && text.contains("Bouton"), "{text}");
    let bash = json(&["period", "bash:5", "--json"]);
    assert_eq!((&bash["preperiod"], &bash["period"], &bash["saltus"]), (&0.into(), &6.into(), &0.into()));
}

#[test]
fn period_rejects_bad_input_in_one_line() {
    assert!(fails(&["period", "chess"]).contains("chess"));
    assert!(fails(&["period", "sub:1,2", "--max", "-5"]).contains("-5"));
    assert!(fails(&["period", "sub:,"]).contains("sub:,"));
}

#[test]
fn checkpoint_continues_a_sequence_and_rejects_damage() {
    let path = temporary("sub-2-5.ckpt");
    let file = path.to_str().unwrap();
    let short = ok(&["sequence", "sub:2,5", "--to", "1000", "--checkpoint", file]);
    assert!(path.exists());
    let long = ok(&["sequence", "sub:2,5", "--to", "3000", "--checkpoint", file]);
    assert_eq!(long, ok(&["sequence", "sub:2,5", "--to", "3000"]));
    assert!(long.starts_with(short.trim_end()));
    // A shorter run reads the prefix it needs from the longer file.
    assert_eq!(ok(&["sequence", "sub:2,5", "--to", "10", "--checkpoint", file]), "0 0 1 1 0 2 1 0 0 1 1\n");
    // The same file for another game is refused.
    let error = fails(&["sequence", "sub:2,6", "--to", "10", "--checkpoint", file]);
    assert!(error.contains("sub:2,5") && error.contains("sub:2,6"), "{error}");
    // A flipped byte, a truncated file, an empty file, a file that is no checkpoint.
    let bytes = std::fs::read(&path).unwrap();
    let mut flipped = bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    std::fs::write(&path, &flipped).unwrap();
    assert!(fails(&["sequence", "sub:2,5", "--to", "10", "--checkpoint", file]).contains("checksum"));
    std::fs::write(&path, &bytes[..bytes.len() - 7]).unwrap();
    assert!(fails(&["sequence", "sub:2,5", "--to", "10", "--checkpoint", file]).contains("truncated"));
    std::fs::write(&path, b"").unwrap();
    assert!(fails(&["sequence", "sub:2,5", "--to", "10", "--checkpoint", file]).contains("not a grundy checkpoint"));
    // A well-formed checkpoint of wrong values (for the game it names) is refused.
    std::fs::write(
        &path,
        grundy::heap::checkpoint::encode("sub:2,5", &grundy::heap::CompactSequence::from_values(&[0, 1, 1, 1, 0])),
    )
    .unwrap();
    assert!(fails(&["sequence", "sub:2,5", "--to", "10", "--checkpoint", file]).contains("G(1) = 1"));
    // The damaged file is left alone.
    assert!(path.exists());
}

#[test]
fn checkpoint_serves_period_too() {
    let path = temporary("sub-3-5-8.ckpt");
    let file = path.to_str().unwrap();
    let first = ok(&["period", "sub:3,5,8", "--json", "--checkpoint", file]);
    let again = ok(&["period", "sub:3,5,8", "--json", "--checkpoint", file]);
    assert_eq!(first, again);
    assert_eq!(first, ok(&["period", "sub:3,5,8", "--json"]));
    let error = fails(&["period", "nim", "--checkpoint", file]);
    assert!(error.contains("checkpoint"), "{error}");
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_cleanly_and_saves_the_checkpoint() {
    // A subtraction game with 3000 moves is slow enough to interrupt.
    let set: Vec<String> = (1..=3000).map(|n| (2 * n + 1).to_string()).collect();
    let game = format!("sub:{}", set.join(","));
    let path = temporary("interrupted.ckpt");
    let file = path.to_str().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["sequence", &game, "--to", "200000000", "--checkpoint", file])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(output.stdout.is_empty());
    // (A run slow to reach its next check first says that it is stopping and saving.)
    assert!(stderr.contains("grundy: interrupted after computing heaps 0..") && stderr.contains(file), "{stderr}");
    let saved = grundy::heap::checkpoint::decode(&std::fs::read(&path).unwrap(), &game).unwrap();
    assert!(!saved.is_empty());
    // Continuing gives what a fresh run gives.
    let to = (saved.len() + 100).to_string();
    assert_eq!(ok(&["sequence", &game, "--to", &to, "--checkpoint", file]), ok(&["sequence", &game, "--to", &to]));
}

#[test]
fn stats_counts_values_and_p_positions_exactly() {
    assert_eq!(
        json(&["stats", "nim", "--to", "7", "--heaps", "3", "--json"]),
        serde_json::json!({"game": "nim", "counts": [1, 1, 1, 1, 1, 1, 1, 1], "p_positions": "64", "total": "512"})
    );
    let text = ok(&["stats", "nim", "--to", "7", "--heaps", "3"]);
    assert!(text.contains("among the 512 sums of 3 heaps from 0..7: 64 P-positions (1/8 = 0.125000)"), "{text}");
    // Bash's game: a random Bash heap is won by the player to move with probability M/(M+1).
    let bash = ok(&["stats", "bash:5", "--to", "599"]);
    assert!(bash.contains("the player to move wins 500 (5/6 = 0.833333)"), "{bash}");
    assert_eq!(
        json(&["stats", "bash:5", "--to", "599", "--json"]),
        serde_json::json!({"game": "bash:5", "counts": [100, 100, 100, 100, 100, 100], "p_positions": "100", "total": "600"})
    );
    // Default --heaps 1: P-positions are the heaps of value 0.
    let sub = json(&["stats", "sub:1,3,4", "--to", "69", "--json"]);
    assert_eq!(sub["counts"], serde_json::json!([20, 20, 20, 10]));
    assert_eq!((&sub["p_positions"], &sub["total"]), (&"20".into(), &"70".into()));
    // Exact integers of any size, as strings of digits (a 301-digit JSON number is refused or
    // rounded by most readers): 100 Nim heaps from 0..1023 give 1024^99 P-positions of 1024^100.
    let text = ok(&["stats", "nim", "--to", "1023", "--heaps", "100", "--json"]);
    let expected = format!("\"p_positions\":\"{}\",\"total\":\"{}\"}}", num_pow(1024, 99), num_pow(1024, 100));
    assert!(text.trim_end().ends_with(&expected), "{text}");
}

fn num_pow(base: u32, exponent: u32) -> String {
    num_bigint::BigUint::from(base).pow(exponent).to_string()
}

#[test]
fn stats_rejects_bad_input_in_one_line() {
    assert!(fails(&["stats", "nim", "--to", "3", "--heaps", "0"]).contains("--heaps"));
    assert!(fails(&["stats", "nim", "--heaps", "2"]).contains("--to"));
    assert!(fails(&["stats", "dog", "--to", "3"]).contains("dog"));
    assert!(fails(&["stats", "nim", "--to", "3", "--heaps", "x"]).contains("'x'"));
    assert!(fails(&["stats", "nim", "--to", "1000000", "--heaps", "4000000000"]).contains("digits"));
}

#[test]
fn value_and_moves_of_huge_heaps_through_the_period() {
    // sub:1,2: G(n) = n mod 3; 10^30 + 1 ≡ 2.
    let heap = format!("1{}1", "0".repeat(29));
    assert_eq!(ok(&["value", "sub:1,2", &heap]), "2\n");
    let moves = ok(&["moves", "sub:1,2", &heap]);
    assert_eq!(moves.lines().count(), 1, "{moves}");
    assert!(moves.starts_with(&format!("{} ", "9".repeat(30))), "{moves}");
    // A longer period: S = {3331, 6662, 9999}, period 13330 from 13324 (by `grundy period`).
    let period = json(&["period", "sub:3331,6662,9999", "--json"]);
    assert_eq!((&period["preperiod"], &period["period"]), (&13324.into(), &13330.into()));
    let values = ok(&["sequence", "sub:3331,6662,9999", "--to", "40000"]);
    let values: Vec<&str> = values.split_whitespace().collect();
    // 10^50 ≡ r (mod 13330) beyond the preperiod: the same value as heap 13324 + (10^50 − 13324) mod 13330.
    let big = num_bigint::BigUint::from(10u32).pow(50);
    let offset = (&big - 13324u32) % 13330u32;
    let same = 13324 + offset.to_u32_digits().first().copied().unwrap_or(0) as usize;
    assert_eq!(ok(&["value", "sub:3331,6662,9999", &big.to_string()]).trim(), values[same]);
}

#[test]
fn period_reports_an_observed_pattern_without_claiming_it() {
    // sub:1,1000 alternates 0 1 0 1 … below 1000, but its window argument needs 1000 values.
    assert_eq!(
        json(&["period", "sub:1,1000", "--max", "100", "--json"]),
        serde_json::json!({
            "game": "sub:1,1000",
            "preperiod": null, "period": null, "saltus": null, "proved": false, "checked_to": 100,
            "observed": {"preperiod": 0, "period": 2, "saltus": 0}
        })
    );
    let text = ok(&["period", "sub:1,1000", "--max", "100"]);
    assert!(text.contains("observed, not proved: period 2, preperiod 0"), "{text}");
    assert!(text.contains("if it goes on, a proof needs heaps 0..1001 (try --max 1001)"), "{text}");
    // It does not go on: G(1000) = mex{G(999), G(0)} = 2. The real period is longer.
    let proved = json(&["period", "sub:1,1000", "--json"]);
    assert_eq!(proved["proved"], true);
    assert_ne!(proved["period"], 2);
}

#[test]
fn games_without_a_nim_sequence_are_refused() {
    for command in ["sequence", "period", "stats"] {
        let error = fails(&[command, "wythoff", "--to", "5"][..if command == "period" { 2 } else { 4 }]);
        assert!(error.contains("`wythoff` has no nim-sequence"), "{error}");
    }
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_period_search_and_a_rerun_continues() {
    // 3000 moves and a window of 10^8 values: slow, and nothing is proved soon.
    let mut set: Vec<String> = (1..=3000).map(|n| (2 * n + 1).to_string()).collect();
    set.push("100000000".to_owned());
    let game = format!("sub:{}", set.join(","));
    let path = temporary("period-interrupted.ckpt");
    let file = path.to_str().unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["period", &game, "--max", "200000000", "--checkpoint", file])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(output.stdout.is_empty());
    let saved = grundy::heap::checkpoint::decode(&std::fs::read(&path).unwrap(), &game).unwrap();
    assert!(!saved.is_empty());
    let max = (saved.len() + 50).to_string();
    let report = json(&["period", &game, "--max", &max, "--json", "--checkpoint", file]);
    assert_eq!(report["proved"], false);
    assert_eq!(report["checked_to"], saved.len() as u64 + 50);
}
