//! `grundy … wythoff …` end to end: stdout, stderr and exit status.

use grundy::game::Game;
use grundy::solve::memo::Solver;
use grundy::wythoff::Wythoff;
use grundy::wythoff::closed_form::{is_p_position, lower, upper};
use std::collections::BTreeSet;
use std::process::{Command, Output};

fn grundy(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grundy")).args(args).output().expect("grundy runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// Runs a command that must succeed and returns its stdout.
fn ok(args: &[&str]) -> String {
    let output = grundy(args);
    assert_eq!(output.status.code(), Some(0), "{args:?}: {}", stderr(&output));
    stdout(&output)
}

/// Runs a command that must fail with one line on stderr and exit 2; returns that line.
fn fails(args: &[&str]) -> String {
    let output = grundy(args);
    assert_eq!(output.status.code(), Some(2), "{args:?}");
    assert_eq!(stdout(&output), "", "{args:?}");
    let error = stderr(&output);
    assert_eq!(error.lines().count(), 1, "{error}");
    assert!(error.starts_with("grundy: error: "), "{error}");
    error
}

#[test]
fn outcomes_of_the_poj_1067_samples() {
    assert_eq!(ok(&["outcome", "wythoff", "1,2"]), "P\n");
    assert_eq!(ok(&["outcome", "wythoff", "4,7"]), "P\n");
    assert_eq!(ok(&["outcome", "wythoff", "4,8"]), "N\n");
    assert_eq!(ok(&["outcome", "wythoff", "7,4"]), "P\n");
    assert_eq!(ok(&["outcome", "wythoff", "6557470319841,10610209857722"]), "P\n");
    assert_eq!(ok(&["outcome", "wythoff", "6557470319841,10610209857723"]), "N\n");
    let json: serde_json::Value = serde_json::from_str(&ok(&["outcome", "--json", "wythoff", "4,7"])).unwrap();
    // `outcome --json` includes the value where the game has one (issue 13), as a string.
    assert_eq!(json, serde_json::json!({"game": "wythoff", "position": ["4,7"], "value": "0", "outcome": "P"}));
}

/// The positions `moves` prints, one per line before the `#`.
/// `outcome --json` of one pair that only a big table reaches (16383,16383: 1.26 GB and seconds)
/// leaves the value out and says why, instead of building the table for it (issue 61); the
/// 100 MiB limit makes the old code's table fail fast, so the test is quick either way.
#[test]
fn outcome_json_of_one_costly_pair_omits_its_value_with_a_reason() {
    for (pair, outcome) in [("16383,16383", "N"), ("16000,25888", "N")] {
        let text = ok(&["--memory-limit", "100M", "outcome", "--json", "wythoff", pair]);
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(json["value"], serde_json::Value::Null, "{text}");
        assert_eq!(json["outcome"], outcome, "{text}");
        let reason = json["value_omitted"].as_str().unwrap_or_else(|| panic!("no reason: {text}"));
        assert!(reason.contains("grundy value"), "{reason}");
    }
    // A P-position of the Beatty pairs (Wythoff 1907) far in: its outcome is exact.
    let (a, b) = (lower(&10_000u32.into()), upper(&10_000u32.into()));
    let pair = format!("{a},{b}");
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["--memory-limit", "100M", "outcome", "--json", "wythoff", &pair])).unwrap();
    assert_eq!(json["outcome"], "P");
    assert!(json["value_omitted"].is_string());
    // Cheap values are still reported: a small pair, and a far pair on a row proved periodic.
    for (pair, value) in [("4,8", "1"), ("1,8", "6")] {
        let json: serde_json::Value = serde_json::from_str(&ok(&["outcome", "--json", "wythoff", pair])).unwrap();
        assert_eq!(json["value"], value);
        assert!(json.get("value_omitted").is_none(), "{json}");
    }
}

fn move_targets(text: &str) -> BTreeSet<String> {
    text.lines().map(|line| line.split("  # ").next().unwrap().to_owned()).collect()
}

#[test]
fn moves_of_4_8_are_every_move_to_a_p_position_and_nothing_else() {
    let text = ok(&["moves", "wythoff", "4,8"]);
    let wythoff = Wythoff::new();
    let mut solver = Solver::new(&wythoff);
    let brute_force: BTreeSet<String> = wythoff
        .options(&(4, 8))
        .into_iter()
        .filter(|option| solver.grundy_value(option).unwrap().0 == 0)
        .map(|(x, y)| format!("{x},{y}"))
        .collect();
    assert_eq!(move_targets(&text), brute_force);
    assert_eq!(
        text,
        "4,7  # pair 1: 4,8 -> 4,7 (take 1 from the second heap); value 1 -> 0, 4,7 is the P-position (a_k, b_k) with k = 3 (a_k = ⌊kφ⌋, b_k = a_k + k = ⌊kφ²⌋)\n"
    );
}

#[test]
fn moves_of_every_small_pair_match_brute_force() {
    let wythoff = Wythoff::new();
    let mut solver = Solver::new(&wythoff);
    for (x, y) in [(0, 9), (5, 5), (9, 3), (10, 20), (12, 13), (2, 1)] {
        let text = ok(&["moves", "wythoff", &format!("{x},{y}")]);
        let brute_force: BTreeSet<String> = wythoff
            .options(&(x, y))
            .into_iter()
            .filter(|option| solver.grundy_value(option).unwrap().0 == 0)
            .map(|(x, y)| format!("{x},{y}"))
            .collect();
        assert_eq!(move_targets(&text), brute_force, "({x}, {y})");
    }
}

#[test]
fn a_p_position_has_no_winning_move() {
    let output = grundy(&["moves", "wythoff", "4,7"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "");
    assert!(stderr(&output).contains("P-position"));
}

#[test]
fn moves_of_a_sum_match_brute_force() {
    let text = ok(&["moves", "wythoff", "3,5", "1,1", "2,6"]);
    let pairs = [(3u64, 5u64), (1, 1), (2, 6)];
    let wythoff = Wythoff::new();
    let mut solver = Solver::new(&wythoff);
    let mut value = |pair: &(u64, u64)| solver.grundy_value(pair).unwrap().0;
    let total = pairs.iter().fold(0, |acc, pair| acc ^ value(pair));
    let mut expected = BTreeSet::new();
    for (index, pair) in pairs.iter().enumerate() {
        for option in wythoff.options(pair) {
            if total ^ value(pair) ^ value(&option) == 0 {
                let mut to: Vec<String> = pairs.iter().map(|(x, y)| format!("{x},{y}")).collect();
                to[index] = format!("{},{}", option.0, option.1);
                expected.insert(to.join(" "));
            }
        }
    }
    assert!(!expected.is_empty());
    assert_eq!(move_targets(&text), expected);
    assert_eq!(ok(&["value", "wythoff", "3,5", "1,1", "2,6"]), format!("{total}\n"));
}

#[test]
fn pairs_of_300_digits() {
    let k = "7".repeat(300).parse().unwrap();
    let (a, b) = (lower(&k), upper(&k));
    assert_eq!(ok(&["outcome", "wythoff", &format!("{a},{b}")]), "P\n");
    assert_eq!(ok(&["outcome", "wythoff", &format!("{b},{a}")]), "P\n");
    let x = &a + 12345u32;
    let position = format!("{x},{b}");
    assert_eq!(ok(&["outcome", "wythoff", &position]), "N\n");
    let text = ok(&["moves", "wythoff", &position]);
    assert!(!text.is_empty());
    for target in move_targets(&text) {
        let (to_x, to_y) = target.split_once(',').unwrap();
        assert!(is_p_position(&to_x.parse().unwrap(), &to_y.parse().unwrap()), "{target}");
    }
    // Its value is beyond reach: the error names the pair and says the outcome is still known.
    let error = fails(&["value", "wythoff", &position]);
    assert!(error.contains(&position) && error.contains("outcome, N"), "{error}");
    let json = ok(&["moves", "--json", "wythoff", &position]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["value"], serde_json::Value::Null);
    assert_eq!(json["outcome"], "N");
    assert_eq!(json["moves"].as_array().unwrap().len(), text.lines().count());
    // In a sum with a P-position (value 0) the outcome is still exact: 0 xor G = G, non-zero.
    assert_eq!(ok(&["outcome", "wythoff", "1,2", &position]), "N\n");
    // Beside a non-zero part (G(1,1) = 2) the pair's value is needed: refused, naming it.
    let error = fails(&["outcome", "wythoff", "1,1", &position]);
    assert!(error.contains(&position), "{error}");
}

#[test]
fn table_of_size_9_is_the_published_table() {
    let expected = "\
0 1 2 3 4 5 6 7 8
1 2 0 4 5 3 7 8 6
2 0 1 5 3 4 8 6 7
3 4 5 6 2 0 1 9 10
4 5 3 2 7 6 9 0 1
5 3 4 0 6 8 10 1 2
6 7 8 1 9 10 3 4 5
7 8 6 9 0 1 4 5 3
8 6 7 10 1 2 5 3 4
";
    assert_eq!(ok(&["table", "wythoff", "--size", "9"]), expected);
    let json: serde_json::Value = serde_json::from_str(&ok(&["table", "wythoff", "--size", "9", "--json"])).unwrap();
    let rows: Vec<Vec<u64>> = serde_json::from_value(json["values"].clone()).unwrap();
    assert_eq!(rows.len(), 9);
    assert_eq!(rows[1], [1, 2, 0, 4, 5, 3, 7, 8, 6]);
}

#[test]
fn a_huge_table_is_refused_with_an_estimate() {
    let error = fails(&["table", "wythoff", "--size", "1000000"]);
    assert!(error.contains("1000000×1000000") && error.contains("TiB"), "{error}");
}

#[test]
fn values_far_along_a_row() {
    let value = ok(&["value", "wythoff", "3,1000000000000"]);
    let value: u64 = value.trim().parse().unwrap();
    // G(3, y) lies within 2·3 below and 3 above y (at most y + 6 options; the row is complete
    // up to y − 7).
    assert!((1_000_000_000_000 - 6..=1_000_000_000_000 + 3).contains(&value), "{value}");
    assert_eq!(ok(&["value", "wythoff", "1000000000000,3"]), format!("{value}\n"));
    assert_eq!(ok(&["value", "wythoff", "0,123456789012345678901234567890"]), "123456789012345678901234567890\n");
    assert_eq!(ok(&["value", "wythoff", "4,8"]), "1\n");
    let json: serde_json::Value = serde_json::from_str(&ok(&["value", "--json", "wythoff", "4,8"])).unwrap();
    assert_eq!(json, serde_json::json!({"game": "wythoff", "position": ["4,8"], "value": "1", "outcome": "N"}));
}

#[test]
fn bad_pairs_are_named() {
    assert_eq!(
        fails(&["outcome", "wythoff", "4"]),
        "grundy: error: bad position `4` for wythoff: a Wythoff position is a pair of heaps written `x,y`, like `4,7`\n"
    );
    assert!(fails(&["value", "wythoff", "4,x"]).contains("`4,x`"));
    assert!(fails(&["moves", "wythoff", "4,-7"]).contains("`4,-7`"));
    assert!(fails(&["outcome", "wythoff:3", "4,7"]).contains("no parameters"));
}
