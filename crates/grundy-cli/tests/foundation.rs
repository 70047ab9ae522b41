//! The command-line contract of the foundation: `value`, `outcome`, `moves`, `rules`, errors.

use std::io::Read;
use std::process::{Command, Stdio};

mod common;

use common::grundy;

fn ok(args: &[&str]) -> String {
    let run = grundy(args);
    assert_eq!(run.status, 0, "{args:?}: {}", run.stderr);
    run.stdout
}

/// A bad input: exit 2, nothing on stdout, one line on stderr that names `needle`.
fn fails(args: &[&str], needle: &str) {
    let run = grundy(args);
    assert_eq!(run.status, 2, "{args:?}");
    assert!(run.stdout.is_empty(), "{args:?}");
    assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
    assert!(run.stderr.contains(needle), "{args:?}: {}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{args:?}");
}

#[test]
fn must_show_examples() {
    assert_eq!(ok(&["value", "nim", "3", "4", "5"]), "2\n");
    assert_eq!(ok(&["outcome", "nim", "1", "2", "3"]), "P\n");
    let moves = ok(&["moves", "nim", "3", "4", "5"]);
    assert_eq!(moves.lines().count(), 1);
    assert!(moves.starts_with("1 4 5  # "), "{moves}");
    assert_eq!(ok(&["outcome", "sub:2,5", "2", "4", "7"]), "N\n");
    assert_eq!(ok(&["value", "nim", "123456789012345678901234567890", "1"]), "123456789012345678901234567891\n");
}

#[test]
fn empty_sum() {
    assert_eq!(ok(&["value", "nim"]), "0\n");
    assert_eq!(ok(&["outcome", "sub:3"]), "P\n");
    assert_eq!(ok(&["moves", "bash:2"]), "");
}

#[test]
fn json_forms() {
    let value: serde_json::Value = serde_json::from_str(&ok(&["value", "--json", "nim", "3", "4", "5"])).unwrap();
    assert_eq!(value["value"], 2);
    assert_eq!(value["game"], "nim");
    assert_eq!(value["position"], serde_json::json!(["3", "4", "5"]));
    let outcome: serde_json::Value = serde_json::from_str(&ok(&["outcome", "nim", "1", "2", "3", "--json"])).unwrap();
    assert_eq!(outcome["outcome"], "P");
    let moves: serde_json::Value = serde_json::from_str(&ok(&["moves", "--json", "nim", "3", "4", "5"])).unwrap();
    assert_eq!(moves["value"], 2);
    assert_eq!(moves["moves"][0]["to"], serde_json::json!(["1", "4", "5"]));
    assert!(moves["moves"][0]["explain"].as_str().unwrap().contains("P-position"));
    let big = ok(&["value", "--json", "nim", "123456789012345678901234567890"]);
    assert!(big.contains(r#""value":123456789012345678901234567890"#), "{big}");
    let rules: serde_json::Value = serde_json::from_str(&ok(&["rules", "--json"])).unwrap();
    assert!(rules["games"].as_array().unwrap().iter().any(|form| form["syntax"] == "sub:S"));
}

#[test]
fn moves_explain_in_words() {
    let moves = ok(&["moves", "sub:2,5", "2", "4", "7"]);
    assert_eq!(moves.lines().count(), 3);
    for line in moves.lines() {
        assert!(line.contains("heap") && line.contains("->") && line.contains("P-position"), "{line}");
    }
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    fails(&["value", "chess", "1"], "chess");
    fails(&["value", "sub:0", "1"], "`0`");
    fails(&["value", "sub:2,-5", "1"], "`-5`");
    fails(&["value", "sub:2,x", "1"], "`x`");
    fails(&["value", "sub:", "1"], "empty");
    fails(&["value", "bash:0", "1"], "M = 0");
    fails(&["value", "nim", "-3"], "`-3`");
    fails(&["value", "nim", "3x"], "`3x`");
    fails(&["outcome", "nim", ""], "``");
    // sub:S takes heaps of any size through its proved period (issue 3); without a proof
    // (the window of 10^11 values is past the search) a table past memory is refused.
    fails(&["value", "sub:1,100000000000", "1000000000000"], "GiB");
    fails(&["valu", "nim"], "valu");
    fails(&["value"], "GAME");
}

#[test]
fn rules_lists_every_form_with_an_example() {
    let text = ok(&["rules"]);
    for form in ["nim", "bash:M", "sub:S"] {
        assert!(text.contains(form), "{form}");
    }
    assert!(text.contains("example:"));
}

#[test]
fn broken_pipe_is_not_an_error() {
    // Many long lines of moves, read by nobody.
    let heaps: Vec<String> = (1..=3000).map(|heap| heap.to_string()).chain(["1".to_owned()]).collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("moves")
        .arg("nim")
        .args(&heaps)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn every_example_that_rules_gives_runs() {
    // The graph examples read `g.txt` from the working directory.
    let directory = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("rules-examples");
    std::fs::create_dir_all(&directory).unwrap();
    std::fs::write(directory.join("g.txt"), "a b\nb c\nc d\n").unwrap();
    let rules: serde_json::Value = serde_json::from_str(&ok(&["rules", "--json"])).unwrap();
    let forms = rules["games"].as_array().unwrap();
    assert!(forms.len() >= 10);
    for form in forms {
        let example = form["example"].as_str().unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(example.split_whitespace())
            .current_dir(&directory)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "grundy {example}: {stderr}");
        assert!(!output.stdout.is_empty(), "grundy {example}");
    }
}
