//! `grundy` on coin-turning games: `coins:RULE`, `corners`, `product:A:B`.

use crate::common::grundy;

fn stdout_of(args: &[&str]) -> String {
    let run = grundy(args);
    assert_eq!(run.status, 0, "{args:?}: {}", run.stderr);
    assert_eq!(run.stderr, "", "{args:?}");
    run.stdout
}

/// One line on stderr naming `needle`, nothing on stdout, exit 2.
fn assert_refused(args: &[&str], needle: &str) {
    let run = grundy(args);
    assert_eq!(run.status, 2, "{args:?}: {}", run.stdout);
    assert_eq!(run.stdout, "", "{args:?}");
    assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
    assert!(run.stderr.starts_with("grundy: error: "), "{}", run.stderr);
    assert!(run.stderr.contains(needle), "{args:?}: {}", run.stderr);
}

#[test]
fn mock_turtles_row_is_worth_29() {
    assert_eq!(stdout_of(&["value", "coins:mock-turtles", "HTTHTHTTH"]), "29\n");
    assert_eq!(stdout_of(&["value", "coins:mock-turtles", "1", "4", "6", "9"]), "29\n");
    assert_eq!(stdout_of(&["value", "coins:turn=1..3", "HTTHTHTTH"]), "29\n");
    assert_eq!(stdout_of(&["outcome", "coins:mock-turtles", "HTTHTHTTH"]), "N\n");
}

#[test]
fn named_rules_and_their_written_forms_agree() {
    for (named, written) in [
        ("coins:mock-turtles", "coins:turn=1..3"),
        ("coins:ruler", "coins:turn=0../consecutive"),
        // The old `;` separator is still read.
        ("coins:ruler", "coins:turn=0..;consecutive"),
        ("coins:turtles", "coins:turn=1,2"),
        ("coins:twins", "coins:turn=2"),
    ] {
        for position in [["5", "12"], ["HTHHT", "7"], ["1", "100"]] {
            let mut named_args = vec!["value", named];
            named_args.extend(position);
            let mut written_args = vec!["value", written];
            written_args.extend(position);
            assert_eq!(stdout_of(&named_args), stdout_of(&written_args), "{named} {position:?}");
        }
    }
    assert_eq!(stdout_of(&["value", "coins:ruler", "12"]), "4\n");
    assert_eq!(stdout_of(&["value", "coins:twins", "10"]), "9\n");
    assert_eq!(stdout_of(&["value", "coins:turtles", "10"]), "10\n");
    assert_eq!(stdout_of(&["value", "coins:mock-turtles", "5"]), "8\n");
}

#[test]
fn two_heads_on_one_coin_cancel() {
    assert_eq!(stdout_of(&["value", "coins:mock-turtles", "4", "4"]), "0\n");
    assert_eq!(
        stdout_of(&["value", "coins:mock-turtles", "THHTH", "3"]),
        stdout_of(&["value", "coins:mock-turtles", "2", "5"])
    );
}

#[test]
fn winning_moves_name_the_coins_and_the_row_left() {
    assert_eq!(
        stdout_of(&["moves", "coins:mock-turtles", "HTTHTHTTH"]),
        "HTTHTHHTT  # row 1: turn 7,9 (9 heads -> tails); value 29 -> 0, a P-position\n"
    );
    assert_eq!(
        stdout_of(&["moves", "coins:mock-turtles", "1", "4", "6", "9"]),
        // Coin 9 is the fourth component; mock-turtles coin n is worth the n-th odious number:
        // 9 -> 16 and 7 -> 13, and 1, 4, 6, 7 are worth 1 ^ 7 ^ 11 ^ 13 = 0.
        "1 4 6 7  # row 4: turn 7,9 (9 heads -> tails); its value 16 -> 13 makes the nim-sum 29 -> 0, a P-position\n"
    );
    let json = stdout_of(&["moves", "coins:mock-turtles", "HTTHTHTTH", "--json"]);
    assert!(json.contains(r#""to":["HTTHTHHTT"]"#) && json.contains(r#""move":"turn 7,9""#), "{json}");
    // A P-position: no move, said on stderr.
    let run = grundy(&["moves", "coins:turtles", "3", "1", "2"]);
    assert_eq!((run.status, run.stdout.as_str()), (0, ""));
    assert!(run.stderr.contains("P-position"));
}

#[test]
fn coins_near_ten_to_the_eighteen_answer_at_once() {
    let far = ["1000000000000000000", "999999999999999999"];
    for (game, value) in [
        ("coins:turtles", (1_000_000_000_000_000_000u64 ^ 999_999_999_999_999_999).to_string()),
        ("coins:twins", (999_999_999_999_999_999u64 ^ 999_999_999_999_999_998).to_string()),
        ("coins:ruler", ((1u64 << 18) ^ 1).to_string()),
        ("coins:mock-turtles", "3".to_owned()),
    ] {
        let mut args = vec!["value", game];
        args.extend(far);
        assert_eq!(stdout_of(&args), format!("{value}\n"), "{game}");
        args[0] = "moves";
        assert!(stdout_of(&args).contains("row 1: turn 999999999999999999,1000000000000000000"), "{game}");
    }
    assert_eq!(
        stdout_of(&["moves", "coins:turtles", "1000000000000000000", "3", "5"]),
        "6 3 5  # row 1: turn 6,1000000000000000000 (1000000000000000000 heads -> tails); its value 1000000000000000000 -> 6 makes the nim-sum 1000000000000000006 -> 0, a P-position\n"
    );
}

#[test]
fn corners_and_products_by_nim_multiplication() {
    assert_eq!(stdout_of(&["value", "corners", "3,5"]), "15\n");
    assert_eq!(stdout_of(&["value", "product:twins:twins", "3,5"]), "15\n");
    // The old `*` is still read.
    assert_eq!(stdout_of(&["value", "product:twins*twins", "3,5"]), "15\n");
    assert_eq!(stdout_of(&["value", "corners", "2,2"]), "3\n");
    assert_eq!(stdout_of(&["value", "corners", "3,5", "3,5"]), "0\n");
    // Ruler coin 4 is worth 4, Mock Turtles coin 3 is worth 4: 4 ⊗ 4 = 6.
    assert_eq!(stdout_of(&["value", "product:ruler:mock-turtles", "3,2"]), "6\n");
    assert_eq!(stdout_of(&["value", "product:ruler*mock-turtles", "3,2"]), "6\n");
    assert_eq!(
        stdout_of(&["moves", "corners", "3,5"]),
        "0,0 0,5 3,0  # heads 1: turn 0,3 x 0,5 (3,5 heads -> tails); value 15 -> 0, a P-position\n"
    );
    assert_eq!(stdout_of(&["table", "corners", "--size", "4"]), "0 0 0 0\n0 1 2 3\n0 2 3 1\n0 3 1 2\n");
}

#[test]
fn rules_lists_the_coin_forms() {
    let rules = stdout_of(&["rules"]);
    for needle in ["coins:RULE", "turn=SET", "mock-turtles", "/consecutive", "/within=K", "corners", "product:A:B"] {
        assert!(rules.contains(needle), "{needle}");
    }
}

#[test]
fn bad_rules_and_rows_are_one_line_and_exit_2() {
    assert_refused(&["value", "coins:mock-turtles", "HXT"], "`X` at place 2");
    assert_refused(&["value", "coins:mock-turtles", "0"], "numbered from 1");
    assert_refused(&["value", "coins:turn=1..3/sideways", "1"], "`sideways`");
    assert_refused(&["value", "coins:turn=1..3;sideways", "1"], "`sideways`");
    assert_refused(&["value", "coins:turn=3..1", "1"], "`3..1`");
    assert_refused(&["value", "coins:turn=x", "1"], "`x`");
    assert_refused(&["value", "coins:consecutive", "1"], "turn=SET");
    assert_refused(&["value", "coins", "1"], "coins:RULE");
    assert_refused(&["value", "coins:turn=0", "1"], "no count");
    assert_refused(&["value", "corners", "3"], "`3`");
    assert_refused(&["value", "corners:2", "3,3"], "no parameters");
    assert_refused(&["value", "product:ruler", "3,3"], "`ruler`");
    assert_refused(&["value", "product:ruler:sideways", "3,3"], "`sideways`");
    assert_refused(&["value", "product:ruler*sideways", "3,3"], "`sideways`");
    assert_refused(&["value", "product::ruler", "3,3"], "before `:` is empty");
    assert_refused(&["value", "product:*ruler", "3,3"], "before `*` is empty");
    assert_refused(&["value", "coins:", "1"], "coins:RULE");
    assert_refused(&["value", "coins:ruler", "1,1"], "`1,1`");
    assert_refused(&["value", "coins:ruler", "-3"], "negative");
    assert_refused(&["value", "coins:turn=1..4", "1000000"], "steps");
    assert_refused(&["value", "coins:turn=1..5", "1000000000000000000"], "memory");
}
