//! `grundy guess`: the patterns, their status, and the emitted code run against grundy itself.

mod common;
use common::{grundy, grundy_with_stdin};
use std::path::Path;
use std::process::Command;

/// Positions to compare at: small ones and some far past any fitted range.
fn positions(grid: bool, first: u64) -> Vec<String> {
    let far = [10u64.pow(18), 10u64.pow(18) - 1, 999_999_999_999_999_937, 123_456_789_012_345_678, 1 << 40];
    if grid {
        let mut pairs: Vec<String> = (0..12).flat_map(|x| (0..12).map(move |y| format!("{x},{y}"))).collect();
        pairs.extend(far.iter().zip(far.iter().rev()).map(|(x, y)| format!("{x},{}", y / 3)));
        // Wythoff's P-positions far out, so that a P-pattern meets some: (⌊nφ⌋, ⌊nφ²⌋), n = 10^17.
        pairs.push("161803398874989484,261803398874989484".to_owned());
        pairs.push("161803398874989484,261803398874989485".to_owned());
        pairs
    } else {
        (first..first + 200).chain(far).map(|n| n.to_string()).collect()
    }
}

/// What grundy itself says: each position's value (or, for a P-positions pattern, its outcome).
fn expected(game: &str, positions: &[String], values: bool) -> Vec<String> {
    let command = if values { "value" } else { "outcome" };
    let run = grundy_with_stdin(&[command, game], &(positions.join("\n") + "\n"));
    assert_eq!(run.status, 0, "{}", run.stderr);
    run.stdout.lines().map(str::to_owned).collect()
}

fn emitted(game: &str, language: &str) -> String {
    let run = grundy(&["guess", game, "--emit", language]);
    assert_eq!(run.status, 0, "{game}: {}", run.stderr);
    run.stdout
}

/// The emitted Python module answers every position as grundy does.
fn check_python(game: &str, positions: &[String], dir: &Path) {
    let module = dir.join("emitted.py");
    std::fs::write(&module, emitted(game, "python")).unwrap();
    let values = emitted(game, "python").contains("def grundy_value");
    let driver = format!(
        "import sys\nsys.path.insert(0, {dir:?})\nimport emitted\nfor line in sys.stdin:\n    args = [int(w) for w in line.strip().split(',')]\n    \
         print(emitted.grundy_value(*args) if {values} else ('P' if emitted.is_p_position(*args) else 'N'))\n",
        dir = dir.display().to_string(),
        values = if values { "True" } else { "False" },
    );
    let output = run_with_stdin(Command::new("python3").arg("-c").arg(driver), &positions.join("\n"));
    assert_eq!(output, expected(game, positions, values), "{game} (Python)");
}

/// The emitted C++ compiles with `g++ -std=c++17` and answers every position as grundy does.
fn check_cpp(game: &str, grid: bool, positions: &[String], dir: &Path) {
    let code = emitted(game, "cpp");
    let values = code.contains("grundy_value(");
    let arguments = if grid { "a[0], a[1]" } else { "a[0]" };
    let answer = if values {
        format!("std::cout << grundy_value({arguments}) << '\\n';")
    } else {
        format!("std::cout << (is_p_position({arguments}) ? 'P' : 'N') << '\\n';")
    };
    let source = dir.join("emitted.cpp");
    std::fs::write(
        &source,
        format!(
            "{code}\n#include <iostream>\n#include <sstream>\n#include <string>\nint main() {{\n    std::string line;\n    \
             while (std::getline(std::cin, line)) {{\n        for (char& c : line) if (c == ',') c = ' ';\n        \
             std::istringstream in(line);\n        unsigned long long a[2] = {{0, 0}};\n        in >> a[0] >> a[1];\n        \
             {answer}\n    }}\n}}\n"
        ),
    )
    .unwrap();
    let binary = dir.join("emitted");
    let status = Command::new("g++").args(["-std=c++17", "-O1", "-o"]).arg(&binary).arg(&source).status().unwrap();
    assert!(status.success(), "{game}: the emitted C++ does not compile");
    let output = run_with_stdin(&mut Command::new(&binary), &positions.join("\n"));
    assert_eq!(output, expected(game, positions, values), "{game} (C++)");
}

fn run_with_stdin(command: &mut Command, input: &str) -> Vec<String> {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(format!("{input}\n").as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap().lines().map(str::to_owned).collect()
}

#[test]
fn emitted_code_agrees_with_grundy_far_out() {
    let dir = tempfile::tempdir().unwrap();
    let games: [(&str, bool, u64); 10] = [
        ("nim", false, 0),
        ("bash:3", false, 0),
        ("sub:1,3,4", false, 0),
        ("kayles", false, 0),
        ("dawson", false, 0),
        ("coins:mock-turtles", false, 1),
        ("coins:ruler", false, 1),
        ("wythoff", true, 0),
        ("corners", true, 0),
        ("product:ruler:mock-turtles", true, 0),
    ];
    for (game, grid, first) in games {
        let positions = positions(grid, first);
        check_python(game, &positions, dir.path());
        check_cpp(game, grid, &positions, dir.path());
    }
}

/// A table only some rows of which have a pattern: the code answers those rows, far out.
#[test]
fn emitted_rows_agree_with_grundy() {
    let dir = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/guess-corpus/short-diagonal.star");
    let game = format!("script:{}", script.display());
    let run = grundy(&["guess", &game, "--json"]);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["pattern"]["kind"], "rows", "{}", run.stdout);
    let rows = json["pattern"]["rows"].as_array().unwrap().len() as u64;
    // Every covered row near, row 1 further out than the check (the script's own answer is a
    // search over every smaller position), and the mirror images.
    let mut positions: Vec<String> = (0..rows).flat_map(|x| (0..40).map(move |y| format!("{x},{y}"))).collect();
    positions.extend((0..rows).map(|x| format!("{},{x}", 37 + x)));
    positions.push("1,400".to_owned());
    check_python(&game, &positions, dir.path());
    check_cpp(&game, true, &positions, dir.path());
}

#[test]
fn status_is_proved_only_by_a_theorem() {
    let kayles = grundy(&["guess", "kayles", "--json"]);
    assert_eq!(kayles.status, 0, "{}", kayles.stderr);
    let json: serde_json::Value = serde_json::from_str(&kayles.stdout).unwrap();
    assert_eq!(json["pattern"]["kind"], "periodic");
    assert_eq!(json["pattern"]["status"], "proved");
    assert_eq!(json["pattern"]["period"], 12);
    assert_eq!(json["pattern"]["preperiod"], 71);
    let wythoff = grundy(&["guess", "wythoff", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&wythoff.stdout).unwrap();
    assert_eq!(json["pattern"]["kind"], "beatty");
    assert_eq!(json["pattern"]["status"], "checked");
    assert!(json["pattern"]["checked_to"].as_u64().unwrap() > json["pattern"]["fitted_to"].as_u64().unwrap());
}

#[test]
fn no_pattern_is_said_plainly() {
    let run = grundy(&["guess", "grundys-game", "--to", "300"]);
    assert_eq!(run.status, 0);
    assert!(run.stdout.contains("no pattern found up to n = 300"), "{}", run.stdout);
    let json = grundy(&["guess", "grundys-game", "--to", "300", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(json["pattern"]["kind"], "none");
    // --emit with nothing found: one line on stderr, exit 1, nothing on stdout.
    let emit = grundy(&["guess", "grundys-game", "--to", "300", "--emit", "python"]);
    assert_eq!(emit.status, 1);
    assert!(emit.stdout.is_empty());
    assert_eq!(emit.stderr.lines().count(), 1, "{}", emit.stderr);
}

#[test]
fn games_with_nothing_to_guess_are_refused() {
    let graph = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/dag.txt");
    let run = grundy(&["guess", &format!("dag:{}", graph.display())]);
    assert_eq!(run.status, 2);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("no infinite family of positions"), "{}", run.stderr);
    let json = grundy(&["guess", &format!("dag:{}", graph.display()), "--json"]);
    assert_eq!(json.status, 2);
    assert!(json.stdout.contains("\"error\""));
    let few = grundy(&["guess", "nim", "--to", "3"]);
    assert_eq!(few.status, 2);
}

#[test]
fn bounds_too_large_are_refused_at_once() {
    for args in [
        &["guess", "coins:ruler", "--to", "1000000000000"][..],
        &["guess", "wythoff", "--to", "100000"],
        &["guess", "corners", "--to", "5000"],
        &["guess", "kayles", "--to", "1000000000000"],
        &["guess", "nim", "--to", "18446744073709551615"],
    ] {
        let run = grundy(args);
        assert_eq!(run.status, 2, "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
    }
}
