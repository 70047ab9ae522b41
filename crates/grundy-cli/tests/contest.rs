//! The contest workflow (issue 28): a judge's input answered in its words (`--input-format`),
//! a solution as submitted checked against the definition, the nim-sequence as a table, and
//! the first player's exact chance of winning on heaps drawn from a range.

use crate::common::{grundy, grundy_with_stdin};

#[test]
fn builtin_formats_answer_their_problems_samples() {
    // The sample input and output of each problem's statement.
    for (format, input, output) in [
        ("acwing-891", "2\n2 3\n", "Yes\n"),
        ("acwing-893", "2\n2 5\n3\n2 4 7\n", "Yes\n"),
        ("hdu-1846", "2\n23 2\n4 3\n", "first\nsecond\n"),
        ("poj-1067", "2 1\n8 4\n4 7\n", "0\n1\n0\n"),
        ("hdu-1907", "2\n3\n3 5 1\n1\n1\n", "John\nBrother\n"),
        ("acwing-894", "2\n2 3\n", "Yes\n"),
        ("hdu-1848", "1 1 1\n1 4 1\n0 0 0\n", "Fibo\nNacci\n"),
        ("hdu-1850", "3\n5 7 9\n0\n", "1\n"),
        ("luogu-p1247", "3\n3 6 9\n", "4 3\n3 6 5\n"),
        ("luogu-p1247", "4\n15 22 19 10\n", "lose\n"),
        ("acwing-892", "3\n2 1 3\n", "Yes\n"),
        ("hdu-2516", "2\n13\n10000\n0\n", "Second win\nSecond win\nFirst win\n"),
        (
            "hdu-2486",
            "5\n16 1\n11 1\n32 2\n34 2\n19 3\n",
            "Case 1: lose\nCase 2: 1\nCase 3: 3\nCase 4: lose\nCase 5: 4\n",
        ),
        ("hdu-2486", "1\n100000000 100000\n", "Case 1: 912\n"),
        ("hdu-1525", "34 12\n15 24\n0 0\n", "Stan wins\nOllie wins\n"),
        ("luogu-p1290", "2\n25 7\n24 15\n", "Stan wins\nOllie wins\n"),
        ("hdu-3032", "2\n3\n2 2 3\n2\n3 3\n", "Alice\nBob\n"),
        ("luogu-p2148", "2\n4\n1 2 3 1\n6\n1 1 1 1 1 1\n", "YES\nNO\n"),
        ("hdu-2147", "5 3\n5 4\n6 6\n0 0\n", "What a pity!\nWonderful!\nWonderful!\n"),
        ("poj-1704", "2\n3\n1 2 3\n8\n1 5 6 7 9 12 14 17\n", "Bob will win\nGeorgia will win\n"),
        ("luogu-p3480", "2\n2\n2 2\n3\n1 2 4\n", "NIE\nTAK\n"),
        (
            "hdu-3094",
            "3\n3\n1 2\n2 3\n3\n1 2\n1 3\n10\n6 2\n4 3\n8 4\n9 5\n8 6\n2 7\n5 8\n1 9\n6 10\n",
            "Alice\nBob\nAlice\n",
        ),
        // A tree of one vertex has no edge to cut.
        ("hdu-3094", "1\n1\n", "Bob\n"),
        // POJ 3710: a stalk, and a triangle hanging from a stalk (fused: a loop, worth 1).
        ("poj-3710", "2\n2 1\n1 2\n4 4\n1 2\n2 3\n2 4\n3 4\n", "Sally\n"),
        // A tree with no edge, then one edge.
        ("poj-3710", "1\n1 0\n1\n2 1\n1 2\n", "Harry\nSally\n"),
        // Every-SG: three pairs (1, 1) end in one move each (steps 1: odd, MM); (3, 2) has step 2.
        ("hdu-3595", "3\n1 1\n1 1\n1 1\n1\n3 2\n", "MM\nGG\n"),
        // A pair with a 0 is over (step 0), as accepted solutions read it; (1, 1) still has step 1.
        ("hdu-3595", "2\n1 0\n1 1\n", "MM\n"),
    ] {
        let run = grundy_with_stdin(&["outcome", "--input-format", format], input);
        assert_eq!((run.status, run.stdout.as_str(), run.stderr.as_str()), (0, output, ""), "{format}");
    }
    // The statements' bounds: Luogu P1290 has at most 6 tests of numbers below 2^31.
    let seven = format!("7\n{}", "25 7\n".repeat(7));
    let run = grundy_with_stdin(&["outcome", "--input-format", "luogu-p1290"], &seven);
    assert_eq!(run.status, 2, "{}", run.stdout);
    assert!(run.stderr.contains("1..6"), "{}", run.stderr);
    let run = grundy_with_stdin(&["outcome", "--input-format", "luogu-p1290"], "1\n2147483648 1\n");
    assert_eq!(run.status, 2, "{}", run.stdout);
    assert!(run.stderr.contains("1..2147483647"), "{}", run.stderr);
    let values = grundy_with_stdin(&["value", "--input-format", "acwing-893"], "2\n2 5\n3\n2 4 7\n");
    assert_eq!(values.stdout, "1\n");
    // Misère play has no value to answer.
    let misere = grundy_with_stdin(&["value", "--input-format", "hdu-1907"], "1\n1\n1\n");
    assert_eq!(misere.status, 2);
    assert!(misere.stderr.contains("plays misère"), "{}", misere.stderr);
    let json = grundy_with_stdin(&["outcome", "--json", "--input-format", "hdu-1846"], "1\n4 3\n");
    assert!(json.stdout.contains("\"answer\":\"second\""), "{}", json.stdout);
}

#[test]
fn a_byte_order_mark_is_skipped() {
    // Notepad saves UTF-8 with U+FEFF first.
    let run = grundy_with_stdin(&["outcome", "--input-format", "poj-1067"], "\u{feff}2 1\n8 4\n4 7\n");
    assert_eq!((run.status, run.stdout.as_str(), run.stderr.as_str()), (0, "0\n1\n0\n", ""));
    let directory = tempfile::tempdir().unwrap();
    let path = directory.path().join("format.txt");
    std::fs::write(&path, "\u{feff}line n h[n]\nposition {h}\nanswer Yes No\n").unwrap();
    let run = grundy_with_stdin(&["outcome", "nim", "--input-format", path.to_str().unwrap()], "\u{feff}2 1 1\n");
    assert_eq!((run.status, run.stdout.as_str(), run.stderr.as_str()), (0, "No\n", ""));
}

#[test]
fn outcome_answers_a_value_format_with_values() {
    let directory = tempfile::tempdir().unwrap();
    let path = directory.path().join("kayles.txt");
    std::fs::write(&path, "tests 1..10\nline n:0..1000\ngame kayles\nposition {n}\nanswer value\n").unwrap();
    let format = path.to_str().unwrap();
    for command in ["outcome", "value"] {
        let run = grundy_with_stdin(&[command, "--input-format", format], "3\n4\n5\n11\n");
        assert_eq!((run.status, run.stdout.as_str()), (0, "1\n4\n6\n"), "{command}: {}", run.stderr);
    }
    let json = grundy_with_stdin(&["outcome", "--json", "--input-format", format], "1\n4\n");
    assert!(json.stdout.contains("\"answer\":\"1\"") && json.stdout.contains("\"outcome\":\"N\""), "{}", json.stdout);
    // Misère play has no Grundy values: refused before any test is read.
    let misere = grundy_with_stdin(&["outcome", "--misere", "--input-format", format], "1\n4\n");
    assert_eq!(misere.status, 2);
    assert!(misere.stdout.is_empty());
    assert_eq!(misere.stderr.lines().count(), 1, "{}", misere.stderr);
    assert!(misere.stderr.contains("misère play does not have"), "{}", misere.stderr);
}

/// Many tests: every one answered, in order, as `outcome` answers the same positions a line
/// each; a bad line is refused before any answer.
#[test]
fn a_long_judge_input_is_answered_in_order() {
    let pairs: Vec<(u64, u64)> =
        (0..20_000u64).map(|i| ((i * 7_919) % 1_000_000_007 % 5000, (i * 104_729) % 999_983 % 5000)).collect();
    let input: String = pairs.iter().map(|(a, b)| format!("{a} {b}\n")).collect();
    let judged = grundy_with_stdin(&["outcome", "--input-format", "poj-1067"], &input);
    assert_eq!(judged.status, 0, "{}", judged.stderr);
    let lines: String = pairs.iter().map(|(a, b)| format!("{a},{b}\n")).collect();
    // Fewer answers than a pipe holds: the helper writes all the input before it reads.
    let plain = grundy_with_stdin(&["outcome", "wythoff"], &lines);
    let expected: String = plain.stdout.lines().map(|outcome| if outcome == "N" { "1\n" } else { "0\n" }).collect();
    assert_eq!(judged.stdout, expected);
    let bad = format!("{input}1 x\n2 1\n");
    let stopped = grundy_with_stdin(&["outcome", "--input-format", "poj-1067"], &bad);
    assert_eq!(stopped.status, 2);
    assert!(stopped.stderr.contains("input line 20001"), "{}", stopped.stderr);
    assert!(stopped.stdout.is_empty(), "{}", stopped.stdout.len());
}

#[test]
fn a_format_file_of_the_users_own() {
    let directory = tempfile::tempdir().unwrap();
    let path = directory.path().join("kayles.txt");
    // T tests, each a row of pins; the SG value is the answer.
    std::fs::write(&path, "tests 1..10\nline n:0..1000\ngame kayles\nposition {n}\nanswer value\n").unwrap();
    let format = path.to_str().unwrap();
    let run = grundy_with_stdin(&["value", "--input-format", format], "3\n4\n5\n11\n");
    assert_eq!((run.status, run.stdout.as_str()), (0, "1\n4\n6\n"));
    // Without a `game` line the command line names the game.
    std::fs::write(&path, "line n h[n]\nposition {h}\nanswer 先手必胜 先手必败\n").unwrap();
    let run = grundy_with_stdin(&["outcome", "nim", "--input-format", format], "3\n1 2 3\n");
    assert_eq!(run.stdout, "先手必败\n");
    // A mistake in the format: one line naming the format's line, exit status 2.
    std::fs::write(&path, "line n\nline h[m]\nposition {h}\nanswer Yes No\n").unwrap();
    let run = grundy_with_stdin(&["outcome", "nim", "--input-format", format], "1\n1\n");
    assert_eq!(run.status, 2);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("format line 2: `h[m]`: the count `m` is not read before it"), "{}", run.stderr);
}

#[test]
fn bad_judge_input_is_one_line_naming_its_line() {
    let run = grundy_with_stdin(&["outcome", "--input-format", "acwing-893"], "2\n2 5\n3\n2 0 7\n");
    assert_eq!(run.status, 2);
    assert_eq!(
        run.stderr,
        "grundy: error: input line 4, column 3: 0 for h (number 2 of 3) in test 1 is outside the format's bound 1..10000\n"
    );
    let run = grundy_with_stdin(&["outcome", "--input-format", "no-such-problem"], "");
    let names: Vec<&str> = grundy::judge_format::BUILTIN_FORMATS.iter().map(|(name, _, _)| *name).collect();
    let expected = format!("neither a built-in format ({}) nor a file", names.join(", "));
    assert!(run.stderr.contains(&expected) && names.len() >= 9, "{}", run.stderr);
    let run = grundy_with_stdin(&["outcome", "nim", "--input-format", "acwing-893"], "");
    assert!(run.stderr.contains("names its own game"), "{}", run.stderr);
}

#[test]
fn check_finds_the_failing_input_of_a_solution_as_submitted() {
    // Bash's rule with the wrong modulus (n mod m instead of n mod (m + 1)), as submitted to
    // HDU 1846: the failing test is printed as a whole input file.
    let wrong = r#"awk 'NR > 1 { print ($1 % $2 ? "first" : "second") }'"#;
    let run = grundy(&["check", "bash:3", "--input-format", "hdu-1846", "--program", wrong, "--to", "50"]);
    assert_eq!(run.status, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("--- input (a whole file) ---\n1\n3 3\n--- end of input ---\n  program's answer: second\n  right answer:     first"),
        "{}",
        run.stdout
    );
    // The right rule agrees, in files of up to 100 tests (HDU 1846's bound on C).
    let right = r#"awk 'NR > 1 { print ($1 % ($2 + 1) ? "first" : "second") }'"#;
    let run = grundy(&["check", "bash:3", "--input-format", "hdu-1846", "--program", right, "--to", "500"]);
    assert_eq!(run.stdout, "agrees on 500 positions (1 outside the format's bounds not tried)\n", "{}", run.stderr);
    // grundy itself as the solution: the set-Nim of AcWing 893 on random sums.
    let solution = format!("{} outcome --input-format acwing-893", env!("CARGO_BIN_EXE_grundy"));
    let args = ["--components", "1..3", "--max", "12", "--samples", "40", "--seed", "3"];
    let run =
        grundy(&[&["check", "sub:2,5", "--input-format", "acwing-893", "--program", &solution], &args[..]].concat());
    assert_eq!(run.status, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.starts_with("agrees on "), "{}", run.stdout);
}

#[test]
fn check_refuses_what_the_format_cannot_write() {
    let run = grundy(&["check", "nim", "--input-format", "acwing-893", "--program", "true"]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("`nim` does not fit the format's game `sub:{S}`"), "{}", run.stderr);
    let run = grundy(&["check", "sub:2,5", "--input-format", "acwing-893", "--program", "echo Yes", "--to", "0"]);
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("none of the 1 positions fits the format (h in 1..10000, n in 1..100)"),
        "{}",
        run.stderr
    );
    // Two answers for a file of one test.
    let run = grundy(&["check", "sub:2,5", "--input-format", "acwing-893", "--program", "echo Yes Yes", "--to", "2"]);
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("printed 2 answers for a file of 1 test (one answer a test: `Yes` or `No`)"),
        "{}",
        run.stderr
    );
    // A word the judge does not know is a wrong answer, printed with its input.
    let run = grundy(&["check", "sub:2,5", "--input-format", "acwing-893", "--program", "echo yes", "--to", "2"]);
    assert_eq!(run.status, 1);
    assert!(run.stdout.contains("program's answer: yes\n  right answer:     No"), "{}", run.stdout);
    let run = grundy(&["check", "nim", "--input-format", "acwing-891", "--formula", "n > 0"]);
    assert_eq!(run.status, 2, "--input-format goes with --program");
}

#[test]
fn sequence_table_shows_the_period_as_repeated_rows() {
    let run = grundy(&["sequence", "sub:2,5", "--to", "15", "--table", "--width", "7"]);
    assert_eq!(
        run.stdout,
        "sub:2,5: G(n) for heaps 0..15, 7 a row; * marks a P-position (G(n) = 0: the player to move loses)\n\
         \x20n | +0  +1  +2  +3  +4  +5  +6\n\
         \x200 |  0*  0*  1   1   0*  2   1\n\
         \x207 |  0*  0*  1   1   0*  2   1\n\
         14 |  0*  0*\n"
    );
    assert_eq!(grundy(&["sequence", "nim", "--to", "3", "--width", "2"]).status, 2, "--width needs --table");
    assert_eq!(grundy(&["sequence", "nim", "--to", "3", "--table", "--width", "0"]).status, 2);
}

/// The first player's chance of winning on `heaps` heaps drawn from `from..=to`, by
/// enumerating every tuple: (winning tuples, all tuples).
fn enumerate_wins(value: impl Fn(u64) -> u64, from: u64, to: u64, heaps: u32) -> (u64, u64) {
    let sizes = to - from + 1;
    let total = sizes.pow(heaps);
    let wins = (0..total)
        .filter(|index| {
            let mut rest = *index;
            let mut nim_sum = 0;
            for _ in 0..heaps {
                nim_sum ^= value(from + rest % sizes);
                rest /= sizes;
            }
            nim_sum != 0
        })
        .count() as u64;
    (wins, total)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// A heap game's value of a heap, by its rule.
type HeapValue<'a> = dyn Fn(u64) -> u64 + 'a;

#[test]
fn the_chance_of_winning_on_a_range_is_the_enumerated_fraction() {
    // The first player's chance of winning: Bash and Nim on heaps drawn from a range, against brute force (the values by
    // their rules: n mod (M + 1), n; sub:1,2,3 is Bash with M = 3).
    let bash = |n: u64| n % 4;
    let cases: [(&str, &HeapValue<'_>, u64, u64, u32); 4] = [
        ("bash:3", &bash, 1, 10, 1),
        ("sub:1,2,3", &bash, 5, 13, 2),
        ("nim", &|n| n, 1, 9, 2),
        ("nim", &|n| n, 3, 7, 3),
    ];
    for (game, value, from, to, heaps) in cases {
        let (wins, total) = enumerate_wins(value, from, to, heaps);
        let common = gcd(wins, total);
        let run = grundy(&[
            "stats",
            game,
            "--from",
            &from.to_string(),
            "--to",
            &to.to_string(),
            "--heaps",
            &heaps.to_string(),
        ]);
        assert_eq!(run.status, 0, "{}", run.stderr);
        let expected = format!("the player to move wins {wins} ({}/{} = ", wins / common, total / common);
        assert!(
            run.stdout.contains(&expected),
            "{game} {from}..{to} x{heaps}: expected `{expected}` in\n{}",
            run.stdout
        );
    }
}

#[test]
fn huge_ranges_are_counted_through_the_proved_period() {
    // Past 2^24 heaps the counts come from the period, not one heap at a time; against the
    // values read off the sequence and enumerated (Kayles: period 12 from heap 71).
    let sequence = grundy(&["sequence", "kayles", "--to", "200"]);
    let prefix: Vec<u64> = sequence.stdout.split_whitespace().map(|value| value.parse().unwrap()).collect();
    let kayles = |n: u64| if n < 71 { prefix[n as usize] } else { prefix[(71 + (n - 71) % 12) as usize] };
    let sub_2_5 = |n: u64| [0, 0, 1, 1, 0, 2, 1][(n % 7) as usize];
    // Kayles from below its preperiod: the count of every value.
    let (from, to) = (30u64, (1u64 << 24) + 3);
    let mut expected = vec![0u64; 10];
    for heap in from..=to {
        expected[kayles(heap) as usize] += 1;
    }
    while expected.last() == Some(&0) {
        expected.pop();
    }
    let run = grundy(&["--json", "stats", "kayles", "--from", &from.to_string(), "--to", &to.to_string()]);
    let counts: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(counts["counts"], serde_json::json!(expected), "{}", run.stderr);
    // Sums of two heaps of sub:2,5 around 2^24, against enumeration.
    let (from, to) = ((1u64 << 24) - 300, (1u64 << 24) + 700);
    let (wins, total) = enumerate_wins(sub_2_5, from, to, 2);
    let common = gcd(wins, total);
    let run = grundy(&["stats", "sub:2,5", "--from", &from.to_string(), "--to", &to.to_string(), "--heaps", "2"]);
    let expected = format!("the player to move wins {wins} ({}/{} = ", wins / common, total / common);
    assert!(run.stdout.contains(&expected), "expected `{expected}` in\n{}{}", run.stdout, run.stderr);
    // Exactly: two Bash heaps up to 10^18 (the answer first, the four counts below it).
    let run = grundy(&["stats", "bash:3", "--from", "1", "--to", "1000000000000000000", "--heaps", "2"]);
    let answer = run.stdout.lines().next().unwrap_or_default();
    assert!(
        answer.ends_with("the player to move wins 750000000000000000000000000000000000 (3/4 = 0.750000)"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.ends_with("\n3 250000000000000000\n"), "{}", run.stdout);
}

#[test]
fn grundy_rules_points_to_the_contest_tools() {
    let rules = grundy(&["rules"]).stdout;
    for needle in [
        "grundy outcome --input-format NAME|FILE",
        "acwing-893  AcWing 893",
        "grundy check --input-format NAME|FILE --program CMD",
        "the first player's exact chance of winning, heaps drawn uniformly from A..N: grundy stats GAME --from A --to N",
        "grundy sequence GAME --to N --table --width W",
        "grundy guess GAME --emit cpp",
    ] {
        assert!(rules.contains(needle), "`grundy rules` mentions `{needle}`");
    }
}

#[test]
fn every_input_format_option_lists_every_builtin_format() {
    for command in ["outcome", "value", "check"] {
        let help = grundy(&[command, "--help"]);
        for (name, _, _) in grundy::judge_format::BUILTIN_FORMATS {
            assert!(help.stdout.contains(name), "`{command} --help` names {name}");
        }
    }
}

#[test]
fn answers_with_spaces_case_numbers_and_moves_are_written_and_checked() {
    // HDU 1525 (Euclid's game) writes words with spaces; a `case` prefix numbers the answers.
    let directory = tempfile::tempdir().unwrap();
    let path = directory.path().join("format.txt");
    std::fs::write(
        &path,
        "tests until 0\nline n:1..30\ngame bash:2\nposition {n}\nanswer \"I WIN!\" \"What a pity!\"\ncase \"Case {i}: \"\n",
    )
    .unwrap();
    let format = path.to_str().unwrap();
    let run = grundy_with_stdin(&["outcome", "--input-format", format], "3\n4\n0\n5\n");
    assert_eq!((run.status, run.stdout.as_str()), (0, "Case 1: What a pity!\nCase 2: I WIN!\n"), "{}", run.stderr);
    // A solution in the judge's words passes; one that forgets the case number fails, shrunk.
    let right =
        "awk '$1 != 0 { i++; print \"Case \" i \": \" ($1 % 3 ? \"I WIN!\" : \"What a pity!\") } $1 == 0 { exit }'";
    let check = grundy(&["check", "--input-format", format, "--program", right, "--samples", "200", "--seed", "3"]);
    assert_eq!(check.status, 0, "{}{}", check.stdout, check.stderr);
    let wrong = "awk '$1 != 0 { print ($1 % 3 ? \"I WIN!\" : \"What a pity!\") } $1 == 0 { exit }'";
    let check = grundy(&["check", "--input-format", format, "--program", wrong, "--samples", "200", "--seed", "3"]);
    assert_eq!(check.status, 1, "{}{}", check.stdout, check.stderr);
    assert!(check.stdout.contains("right answer:     Case 1: "), "{}", check.stdout);
    // Luogu P1247's least winning move: a solution that takes from the last winning heap fails.
    let last_heap = "python3 -c \"import sys\nd=list(map(int,sys.stdin.read().split()));h=d[1:]\nx=0\nfor v in h: x^=v\nw=[i for i,v in enumerate(h) if v^x<v]\nif not w: print('lose')\nelse:\n i=w[-1]; t=h[i]-(h[i]^x); h[i]^=x; print(t,i+1); print(*h)\"";
    let check =
        grundy(&["check", "--input-format", "luogu-p1247", "--program", last_heap, "--samples", "300", "--seed", "1"]);
    assert_eq!(check.status, 1, "{}{}", check.stdout, check.stderr);
    assert!(check.stdout.contains("counterexample"), "{}", check.stdout);
}

#[test]
fn staircase_formats_check_a_right_and_a_wrong_solution() {
    // POJ 1704: the right solution sorts the positions and xors the gaps of every other piece
    // from the right; the classic mistake forgets to sort.
    let program = |sort: &str| {
        format!(
            "python3 -c \"import sys\nd=list(map(int,sys.stdin.read().split()));t=d[0];i=1\nfor _ in range(t):\n n=d[i];p=d[i+1:i+1+n];i+=1+n\n p={sort}\n x=0\n for j in range(n-1,-1,-2): x^=p[j]-(p[j-1] if j>0 else 0)-1\n print('Georgia will win' if x else 'Bob will win')\""
        )
    };
    let args = ["--samples", "300", "--seed", "5"];
    let right =
        grundy(&[&["check", "--input-format", "poj-1704", "--program", &program("sorted(p)")], &args[..]].concat());
    assert_eq!(right.status, 0, "{}{}", right.stdout, right.stderr);
    let wrong = grundy(&[&["check", "--input-format", "poj-1704", "--program", &program("p")], &args[..]].concat());
    assert_eq!(wrong.status, 1, "{}{}", wrong.stdout, wrong.stderr);
    assert!(wrong.stdout.contains("--- input (a whole file) ---"), "{}", wrong.stdout);
    // Luogu P3480: the xor of the differences at odd places from the right; a solution xoring
    // the piles themselves is wrong.
    let piles = |expression: &str| {
        format!(
            "python3 -c \"import sys\nd=list(map(int,sys.stdin.read().split()));t=d[0];i=1\nfor _ in range(t):\n n=d[i];a=d[i+1:i+1+n];i+=1+n\n x=0\n for j in range(n-1,-1,-2): x^={expression}\n print('TAK' if x else 'NIE')\""
        )
    };
    let right = grundy(
        &[&["check", "--input-format", "luogu-p3480", "--program", &piles("a[j]-(a[j-1] if j>0 else 0)")], &args[..]]
            .concat(),
    );
    assert_eq!(right.status, 0, "{}{}", right.stdout, right.stderr);
    let wrong = grundy(&[&["check", "--input-format", "luogu-p3480", "--program", &piles("a[j]")], &args[..]].concat());
    assert_eq!(wrong.status, 1, "{}{}", wrong.stdout, wrong.stderr);
    // An unsorted input is refused with its line and column.
    let unsorted = grundy_with_stdin(&["outcome", "--input-format", "luogu-p3480"], "1\n3\n2 1 5\n");
    assert_eq!(unsorted.status, 2);
    assert!(
        unsorted.stderr.contains("input line 3, column 3: 1 for a (number 2 of 3) in test 1 is less than 2"),
        "{}",
        unsorted.stderr
    );
}

#[test]
fn every_sg_formats_and_the_compound_flag() {
    // HDU 3595's Every-SG, checked: the right solution takes the largest step; summing the
    // pairs' Grundy values instead is wrong.
    let steps = "python3 -c \"import sys\nsys.setrecursionlimit(100000)\nfrom functools import lru_cache\n@lru_cache(None)\ndef s(a,b):\n if a<b: a,b=b,a\n if b==0: return 0\n o=[s(a-k*b,b) for k in range(1,a//b+1)]\n e=[x for x in o if x%2==0]\n return 1+max(e) if e else 1+min(o)\nd=list(map(int,sys.stdin.read().split()));i=0\nwhile i<len(d):\n n=d[i];m=max(s(d[i+1+2*j],d[i+2+2*j]) for j in range(n));i+=1+2*n\n print('MM' if m%2 else 'GG')\"";
    let args = ["--samples", "200", "--seed", "2"];
    let right = grundy(&[&["check", "--input-format", "hdu-3595", "--program", steps], &args[..]].concat());
    assert_eq!(right.status, 0, "{}{}", right.stdout, right.stderr);
    let first_pair_only = steps.replace("for j in range(n))", "for j in range(1))");
    let wrong = grundy(&[&["check", "--input-format", "hdu-3595", "--program", &first_pair_only], &args[..]].concat());
    assert_eq!(wrong.status, 1, "{}{}", wrong.stdout, wrong.stderr);
    // `--compound` on a format without a `compound` line, in the judge's words and in JSON.
    let directory = tempfile::tempdir().unwrap();
    let path = directory.path().join("pairs.fmt");
    std::fs::write(
        &path,
        "tests eof\nline n:1..10\nrows n a:0..100 b:0..100\ngame euclid\nposition {a~b}\nanswer W L\n",
    )
    .unwrap();
    let format = path.to_str().unwrap();
    let run = grundy_with_stdin(&["outcome", "--compound", "every", "--input-format", format], "2\n3 2\n1 1\n1\n1 1\n");
    assert_eq!((run.status, run.stdout.as_str()), (0, "L\nW\n"), "{}", run.stderr);
    let json = grundy_with_stdin(&["outcome", "--json", "--compound", "every", "--input-format", format], "1\n3 2\n");
    assert!(json.stdout.contains("\"answer\":\"L\"") && json.stdout.contains("\"steps\":[2]"), "{}", json.stdout);
    // The sum of the same input: (3, 2) and (1, 1) have values 0 and 1.
    let sum = grundy_with_stdin(&["outcome", "--input-format", format], "2\n3 2\n1 1\n");
    assert_eq!(sum.stdout, "W\n", "{}", sum.stderr);
    // A compound has no value or count to answer; a tree format cannot be drawn.
    let value_format = directory.path().join("value.fmt");
    std::fs::write(&value_format, "line n\nposition {n}\nanswer value\ncompound every\n").unwrap();
    let refused = grundy_with_stdin(&["outcome", "nim", "--input-format", value_format.to_str().unwrap()], "3\n");
    assert_eq!(refused.status, 2);
    assert!(refused.stderr.contains("the winner's words alone"), "{}", refused.stderr);
    let tree = grundy(&["check", "--input-format", "hdu-3094", "--program", "true"]);
    assert_eq!(tree.status, 2);
    assert!(tree.stderr.contains("check cannot draw this format's tests"), "{}", tree.stderr);
}

#[test]
fn e_and_d_is_checked_with_an_even_count_of_heaps() {
    // Luogu P2148 (E&D): a pair (a, b) has the value of the lowest 0 bit of (a − 1) | (b − 1);
    // the right solution xors the pairs' values; a wrong one forgets the − 1.
    let program = |expression: &str| {
        format!(
            "python3 -c \"import sys\nd=list(map(int,sys.stdin.read().split()));t=d[0];i=1\nfor _ in range(t):\n n=d[i];s=d[i+1:i+1+n];i+=1+n\n x=0\n for j in range(0,n,2):\n  a,b=s[j],s[j+1];v=({expression});g=0\n  while v>>g&1: g+=1\n  x^=g\n print('YES' if x else 'NO')\""
        )
    };
    let args = ["--samples", "100", "--seed", "4"];
    let right = grundy(
        &[&["check", "--input-format", "luogu-p2148", "--program", &program("(a-1)|(b-1)")], &args[..]].concat(),
    );
    assert_eq!(right.status, 0, "{}{}", right.stdout, right.stderr);
    let wrong =
        grundy(&[&["check", "--input-format", "luogu-p2148", "--program", &program("a|b")], &args[..]].concat());
    assert_eq!(wrong.status, 1, "{}{}", wrong.stdout, wrong.stderr);
    assert!(wrong.stdout.contains("--- input (a whole file) ---"), "{}", wrong.stdout);
    // The shrunk counterexample: one test of one pair of heaps, `1 1`.
    assert!(wrong.stdout.contains("---\n1\n2\n1 1\n--- end of input ---"), "{}", wrong.stdout);
}
