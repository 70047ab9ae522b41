//! The command-line contract of the foundation: `value`, `outcome`, `moves`, `rules`, errors.

use std::io::Read;
use std::process::{Command, Stdio};

use crate::common::grundy;

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

/// Runs `grundy` with `input` on standard input.
fn with_stdin(args: &[&str], input: &str) -> (String, String, i32) {
    let run = crate::common::grundy_with_stdin(args, input);
    (run.stdout, run.stderr, run.status)
}

/// A game word alone no longer answers for the empty sum (issue 13: `grundy outcome sub:2,5 <
/// tests.txt` printed one `P` and never read the file): it reads one position a line. The
/// empty sum is still a P-position of value 0, written as a position with no heaps left.
#[test]
fn a_game_word_alone_reads_positions_from_stdin() {
    let (stdout, stderr, status) = with_stdin(&["value", "nim"], "");
    assert_eq!((stdout.as_str(), status), ("", 2));
    assert!(stderr.contains("standard input held no position"), "{stderr}");
    // sub:2,5: G(1) = 0, G(2) = 1, G(3) = 1, G(4) = 0, G(5) = 2 (mex by hand), so the
    // positions are worth 1^0^1 = 0, 0^2 = 2 and 1^1^1^0 = 1.
    let (stdout, _, status) = with_stdin(&["outcome", "sub:2,5"], "2 1 3\n1 5\n3 2 3 4\n");
    assert_eq!((stdout.as_str(), status), ("P\nN\nN\n", 0));
    assert_eq!(ok(&["value", "nim", "0"]), "0\n");
    assert_eq!(ok(&["outcome", "sub:3", "0", "0"]), "P\n");
    assert_eq!(ok(&["moves", "bash:2", "0"]), "");
}

#[test]
fn json_forms() {
    let value: serde_json::Value = serde_json::from_str(&ok(&["value", "--json", "nim", "3", "4", "5"])).unwrap();
    // Values are strings of digits (they can pass 2^53).
    assert_eq!(value["value"], "2");
    assert_eq!(value["game"], "nim");
    assert_eq!(value["position"], serde_json::json!(["3", "4", "5"]));
    let outcome: serde_json::Value = serde_json::from_str(&ok(&["outcome", "nim", "1", "2", "3", "--json"])).unwrap();
    assert_eq!(outcome["outcome"], "P");
    let moves: serde_json::Value = serde_json::from_str(&ok(&["moves", "--json", "nim", "3", "4", "5"])).unwrap();
    assert_eq!(moves["value"], "2");
    assert_eq!(moves["moves"][0]["component"], 1, "components are numbered from 1");
    assert_eq!(moves["moves"][0]["to"], serde_json::json!(["1", "4", "5"]));
    assert!(moves["moves"][0]["explain"].as_str().unwrap().contains("P-position"));
    let big = ok(&["value", "--json", "nim", "123456789012345678901234567890"]);
    assert!(big.contains(r#""value":"123456789012345678901234567890""#), "{big}");
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
    fails(&["value", "sub:", "1"], "`sub:S`");
    fails(&["value", "kayls", "1"], "did you mean `kayles`?");
    fails(&["value", "bash:0", "1"], "M = 0");
    fails(&["value", "nim", "-3"], "`-3`");
    fails(&["value", "nim", "3x"], "`3x`");
    fails(&["outcome", "nim", ""], "``");
    // sub:S takes heaps of any size through its proved period (issue 3); without a proof
    // (the window of 10^11 values is past the search) a table past memory is refused.
    // sub:1,K with K even is Bash's game plus one move, answered by its theorem at any size; a set
    // no shorter proof covers still needs its table, which cannot fit.
    fails(&["value", "sub:3,7,100000000000", "1000000000000"], "GiB");
    assert_eq!(ok(&["value", "sub:1,100000000000", "1000000000000"]).trim(), "1");
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

/// Closed forms answer moves at any size: a Nim heap past the listed heaps (and past 2^64) and
/// a Bash heap of 10^20 get their winning move at once; listing every option of such a heap
/// is still refused by the move limit.
#[test]
fn closed_forms_give_moves_of_heaps_of_any_size() {
    assert!(ok(&["moves", "nim", "2000000", "5"]).starts_with("5 5  # heap 1: 2000000 -> 5"));
    assert!(ok(&["moves", "nim", "1000000000000000000000000", "7"]).starts_with("7 7  #"));
    assert!(ok(&["moves", "bash:3", "100000000000000000001"]).starts_with("100000000000000000000  #"));
    fails(&["moves", "--all", "nim", "2000000"], "more than 1000000 moves");
}
