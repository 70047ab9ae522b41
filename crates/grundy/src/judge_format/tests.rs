//! The format language's tests: reading, writing and refusing.

use super::*;

fn builtin_format(name: &str) -> JudgeFormat {
    JudgeFormat::parse(builtin(name).unwrap()).unwrap()
}

#[test]
fn every_builtin_format_parses() {
    for (name, _, text) in BUILTIN_FORMATS {
        assert!(JudgeFormat::parse(text).is_ok(), "{name}");
    }
}

#[test]
fn a_format_whose_files_hold_no_test_is_refused() {
    let error = JudgeFormat::parse("tests 0..0\nline n\nposition {n}\nanswer Yes No\n").unwrap_err().0;
    assert!(error.contains("`tests 0..0`: T can only be 0"), "{error}");
    let format = JudgeFormat::parse("tests 0..2\nline n\nposition {n}\nanswer Yes No\n").unwrap();
    assert_eq!(format.tests_per_file(), 2);
}

#[test]
fn reads_the_sample_of_each_builtin_problem() {
    // The samples of the problems' statements.
    let set_nim = builtin_format("acwing-893").read("2\n2 5\n3\n2 4 7\n").unwrap();
    assert_eq!(set_nim[0].game.as_deref(), Some("sub:2,5"));
    assert_eq!(set_nim[0].components, ["2", "4", "7"]);
    let brave = builtin_format("hdu-1846").read("2\n23 2\n4 3\n").unwrap();
    assert_eq!(brave.iter().map(|case| case.game.clone().unwrap()).collect::<Vec<_>>(), ["bash:2", "bash:3"]);
    assert_eq!(brave[1].components, ["4"]);
    assert_eq!(brave[1].line, 3);
    let wythoff = builtin_format("poj-1067").read("2 1\n8 4\n4 7\n").unwrap();
    assert_eq!(wythoff.len(), 3);
    assert_eq!(wythoff[2].components, ["4,7"]);
    assert_eq!(builtin_format("acwing-891").read("2\n1 1").unwrap()[0].components, ["1", "1"]);
}

#[test]
fn sentinels_quotes_cases_and_sets_are_read_and_written() {
    // HDU 1848's sample, and input past the sentinel is not read.
    let fibonacci = builtin_format("hdu-1848");
    let cases = fibonacci.read("1 1 1\n1 4 1\n0 0 0\n7 7\n").unwrap();
    assert_eq!(cases.len(), 2);
    assert_eq!(cases[1].components, ["1", "4", "1"]);
    assert_eq!(fibonacci.read("1 1 1\n").unwrap().len(), 1, "the input may end without its sentinel");
    let drawn: Vec<Bindings> = cases
        .iter()
        .map(|case| {
            let numbers: Vec<u64> = case.components.iter().map(|c| c.parse().unwrap()).collect();
            [("m", numbers[0]), ("n", numbers[1]), ("p", numbers[2])]
                .iter()
                .map(|(k, v)| ((*k).to_owned(), vec![*v]))
                .collect()
        })
        .collect();
    assert_eq!(fibonacci.write(&drawn), "1 1 1\n1 4 1\n0 0 0\n");
    let counting = builtin_format("hdu-1850");
    assert_eq!(counting.read("3\n5 7 9\n0\n").unwrap()[0].components, ["5", "7", "9"]);
    let zero_first: Bindings = [("m".to_owned(), vec![0]), ("n".to_owned(), vec![])].into_iter().collect();
    assert!(counting.begins_with_sentinel(&zero_first) && !fibonacci.begins_with_sentinel(&drawn[0]));
    let cased = JudgeFormat::parse(
        "tests until 0 0\nline a b\nposition {a},{b}\nanswer \"Stan wins\" \"Ollie wins\"\ncase \"Case {i}: \"",
    )
    .unwrap();
    assert_eq!(cased.case_prefix(3), "Case 3: ");
    assert_eq!(cased.word(Outcome::P), Some("Ollie wins"));
    assert_eq!(cased.claim("Stan wins"), Claim::Outcome(Outcome::N));
    let coins = JudgeFormat::parse("line n\nline c[n]:set\nposition {c}\nanswer Yes No").unwrap();
    assert_eq!(coins.read("4\n3 5 3 1\n").unwrap()[0].components, ["3", "5", "1"]);
    let error = |text: &str| JudgeFormat::parse(text).unwrap_err().0;
    assert!(error("line n\nposition {n}\nanswer Yes No\ncase \"Case {j}\"").contains("`{j}` is not a hole here"));
    assert!(error("line n:set\nposition {n}\nanswer Yes No").contains("only a list"));
    assert!(error("line n\nposition {n}\nanswer count\nplay misere").contains("the winner's words alone"));
}

#[test]
fn input_mistakes_name_their_line() {
    let format = builtin_format("acwing-893");
    let error = |input: &str| format.read(input).unwrap_err().0;
    assert_eq!(
        error("2\n2 5\n3\n2 4\n"),
        "input line 4: the input ended where h (number 3 of 3) in test 1 was expected"
    );
    assert_eq!(
        error("2\n2 2\n1\n2\n"),
        "input line 2, column 3: 2 for S (number 2 of 2) in test 1 repeats, and S is distinct"
    );
    assert_eq!(
        error("2\n2 5\n1\n0\n"),
        "input line 4, column 1: 0 for h (number 1 of 1) in test 1 is outside the format's bound 1..10000"
    );
    assert_eq!(
        error("1\n2\n1\n-3\n"),
        "input line 4, column 1: `-3` for h (number 1 of 1) in test 1: expected a whole number (a negative number is not read: the format's numbers are 0 or more)"
    );
    assert_eq!(error("1\n2\n1\n3\n9\n"), "input line 5, column 1: `9` after the last test: the format reads 1 test");
    assert!(builtin_format("hdu-1846").read("0\n").unwrap_err().0.contains("expected a whole number in 1..100"));
}

#[test]
fn format_mistakes_are_one_line_each() {
    let error = |text: &str| JudgeFormat::parse(text).unwrap_err().0;
    let tail = "\nposition {h}\nanswer Yes No";
    assert!(
        error(&format!("line h[m]{tail}")).starts_with("format line 1: `h[m]`: the count `m` is not read before it")
    );
    assert!(error(&format!("line n h[n]:1..x{tail}")).contains("the bound `1..x` is not LOW..HIGH"));
    assert!(error(&format!("line n:5..1 h[n]{tail}")).contains("the bound 5..1 is empty"));
    assert!(error(&format!("line n h[n]\nline n{tail}")).contains("`n` is read twice"));
    assert!(error(&format!("line n h[n]\nlines x{tail}")).contains("unknown directive `lines`"));
    assert!(error("line n h[n]\nposition {g}\nanswer Yes No").contains("`{g}` names nothing read"));
    assert!(error("line n h[n]\nposition {h}\nanswer Yes Yes").contains("two different words"));
    assert!(error("line n h[n]\nanswer Yes No").contains("no `position` line"));
    assert!(error("line n:distinct h[n]\nposition {h}\nanswer value").contains("only a list"));
    assert!(error("line h[0]\nposition {h}\nanswer value").contains("reads no number for certain"));
    assert!(error("line n h[n]\ngame sub:{S\nposition {h}\nanswer value").contains("`{` without `}`"));
    assert!(error("line n h[n]\ntests 1..\nposition {h}\nanswer value").contains("`tests 1..`"));
    for text in ["", "line n h[n]\nposition {h}\nanswer Yes No\nanswer value"] {
        assert!(!error(text).contains('\n'));
    }
}

#[test]
fn tests_are_written_as_they_are_read() {
    let format = builtin_format("acwing-893");
    let writer = format.writer("sub:2,5").unwrap();
    let tests: Vec<Bindings> = [vec![2, 4, 7], vec![3]].iter().map(|heaps| writer.test(heaps).unwrap()).collect();
    let text = format.write(&tests[..1]);
    assert_eq!(text, "2\n2 5\n3\n2 4 7\n");
    assert_eq!(format.read(&text).unwrap()[0].components, ["2", "4", "7"]);
    // Heaps of 0, and the empty sum, are outside AcWing 893's bounds.
    assert!(writer.test(&[0, 3]).is_none() && writer.test(&[]).is_none());
    let brave = builtin_format("hdu-1846");
    let writer = brave.writer("bash:3").unwrap();
    let text = brave.write(&[writer.test(&[4]).unwrap(), writer.test(&[5]).unwrap()]);
    assert_eq!(text, "2\n4 3\n5 3\n");
    assert!(writer.test(&[4, 5]).is_none(), "one heap a test");
}

#[test]
fn a_game_must_fit_the_format() {
    let format = builtin_format("acwing-893");
    assert!(format.writer("nim").unwrap_err().0.contains("does not fit the format's game `sub:{S}`"));
    assert!(format.writer("sub:2,2").unwrap_err().0.contains("repeats a number"));
    assert!(format.writer("sub:0,5").unwrap_err().0.contains("0 in `S` is outside its bound 1..10000"));
    let brave = builtin_format("hdu-1846");
    assert!(brave.writer("bash:2000").unwrap_err().0.contains("2000 in `m` is outside"));
    let many = format!("sub:{}", (1..=101).map(|n| n.to_string()).collect::<Vec<_>>().join(","));
    assert!(format.writer(&many).unwrap_err().0.contains("101 in `k` is outside its bound 1..100"));
    assert!(builtin_format("poj-1067").writer("wythoff").unwrap_err().0.contains("not one list of heaps"));
}

#[test]
fn claims_are_the_judges_exact_words() {
    let format = builtin_format("acwing-893");
    assert_eq!(format.claim("Yes"), Claim::Outcome(Outcome::N));
    assert_eq!(format.claim("No"), Claim::Outcome(Outcome::P));
    assert_eq!(format.claim("yes"), Claim::Unrecognized);
    let values = JudgeFormat::parse("line n\nposition {n}\nanswer value").unwrap();
    assert_eq!(values.claim("12"), Claim::Value(12u32.into()));
    assert_eq!(values.claim("x"), Claim::Unrecognized);
    assert_eq!(parse_number("1e9"), Some(1_000_000_000));
    assert_eq!(parse_number("1e30"), None);
}

#[test]
fn rows_filters_and_compounds_are_read_and_written() {
    // HDU 3094: N, then N − 1 rows `x y`, 1-based vertices made 0-based Hackenbush edges.
    let tree = builtin_format("hdu-3094");
    let cases = tree.read("2\n3\n1 2\n2 3\n1\n").unwrap();
    assert_eq!(cases[0].components, ["0-1,1-2"]);
    assert!(cases[1].components.is_empty(), "one vertex: no edge");
    assert!(tree.no_drawing().is_some());
    let rows: Bindings = [("n", vec![3]), ("x", vec![1, 2]), ("y", vec![2, 3])]
        .into_iter()
        .map(|(name, numbers)| (name.to_owned(), numbers))
        .collect();
    assert_eq!(tree.write(&[rows]), "1\n3\n1 2\n2 3\n");
    let error = tree.read("1\n0\n").unwrap_err().0;
    assert!(error.contains("outside the format's bound 1..100000"), "{error}");
    let zero_count = JudgeFormat::parse("line n\nrows n-1 x y\nposition {x~y}\nanswer W L").unwrap();
    assert!(zero_count.read("0\n").unwrap_err().0.contains("n is 0 in test 1, and `x` holds n − 1 numbers"));
    // Filters: POJ 1704's gaps, the last first; a vertex 0 with `-1` is refused, not answered.
    let pieces = builtin_format("poj-1704");
    assert_eq!(pieces.read("1\n3\n9 1 5\n").unwrap()[0].components, ["3,3,0"]);
    let zero = JudgeFormat::parse("line n\nrows n x y\ngame hackenbush\nposition {x~y|-1:-:,}\nanswer W L").unwrap();
    let error = zero.read("1\n0 1\n").unwrap_err().0;
    assert_eq!(error, "input line 1: test 1: `x|-1`: 0 is below 1");
    // Columns name the word.
    let error = builtin_format("acwing-891").read("2\n1  x\n").unwrap_err().0;
    assert!(error.starts_with("input line 2, column 4: `x` for a (number 2 of 2)"), "{error}");
    // The compound's line.
    let every = builtin_format("hdu-3595");
    assert_eq!(every.compound(), Some(crate::compound::Compound::Every));
    assert_eq!(every.read("2\n1 2\n3 4\n").unwrap()[0].components, ["1,2", "3,4"]);
    let format_error = |text: &str| JudgeFormat::parse(text).unwrap_err().0;
    assert!(format_error("line n m\nline a[n] b[m]\nposition {a~b}\nanswer W L").contains("must have the same count"));
    assert!(format_error("line n\nrows n a[2]\nposition {a}\nanswer W L").contains("not a list"));
    assert!(format_error("line n\nrows n\nposition {n}\nanswer W L").contains("`rows` with nothing on it"));
    assert!(format_error("line n\nposition {n}\nanswer count\ncompound every").contains("winner's words alone"));
    assert!(format_error("line n\nposition {n}\nanswer W L\ncompound sum").contains("format line 4"));
    assert!(format_error("line n\nposition {n}\nanswer W L\ndraw maybe").contains("draw off"));
    assert!(format_error("line a[3]:sorted:1..9 b:sorted\nposition {a}\nanswer W L").contains("only a list"));
    // A list taken together must be read together: same count.
    let same = JudgeFormat::parse("line n\nline a[n] b[n]\nposition {a~b}\nanswer W L").unwrap();
    assert_eq!(same.read("2\n1 2\n3 4\n").unwrap()[0].components, ["1,3", "2,4"]);
}

#[test]
fn repeated_groups_write_each_time_apart() {
    // POJ 3710: n trees, each `m k` and its k edges; one Hackenbush component a tree.
    let trees = builtin_format("poj-3710");
    let cases = trees.read("2\n2 1\n1 2\n4 4\n1 2\n2 3\n2 4\n3 4\n").unwrap();
    assert_eq!(cases[0].components, ["0-1", "0-1,1-2,1-3,2-3"]);
    assert!(trees.repeats() && trees.writer("hackenbush").is_err());
    let error = trees.read("1\n2 1\n1 0\n").unwrap_err().0;
    assert!(error.contains("0 for b (row 1 of 1) in test 1, time 1 of 1 of `repeat n`"), "{error}");
    // Lists inside: each time's list apart, filters applied each time.
    let lists =
        JudgeFormat::parse("line k\nrepeat k\nline n\nline a[n]\nend\nposition {a|reverse:,}\nanswer W L").unwrap();
    assert_eq!(lists.read("2\n2 1 2\n3 3 4 5\n").unwrap()[0].components, ["2,1", "5,4,3"]);
    let error = |text: &str| JudgeFormat::parse(text).unwrap_err().0;
    assert!(error("line k\nrepeat k\nline n\n").contains("without its `end`"));
    assert!(error("line k\nrepeat k\nline n\nposition {n}\nanswer W L").contains("close it with `end`"));
    assert!(error("line k\nend\nposition {k}\nanswer W L").contains("`end` without `repeat`"));
    assert!(error("line k\nrepeat j\nline n\nend\nposition {n}\nanswer W L").contains("`repeat j`"));
    assert!(error("line k\nrepeat k\nrepeat k\nline n\nend\nposition {n}\nanswer W L").contains("inside a `repeat`"));
    assert!(
        error("line k\nrepeat k\nline n\nend\ngame sub:{n}\nposition {k}\nanswer W L").contains("`position` alone")
    );
    assert!(error("line k\nrepeat k\nline n[2]:set\nend\nposition {n}\nanswer W L").contains("cannot be a set"));
    assert!(
        error("line k\nrepeat k\nline n\nend\nline h[n]\nposition {h}\nanswer W L").contains("is a list, not a number")
    );
}

#[test]
fn even_and_odd_numbers_are_read_and_the_others_refused_where_they_are() {
    let format = builtin_format("luogu-p2148");
    assert_eq!(format.read("1\n4\n1 2 3 1\n").unwrap()[0].components, ["1,2,3,1"]);
    let error = format.read("1\n3\n1 2 3\n").unwrap_err().0;
    assert!(error.starts_with("input line 2, column 1: 3 for n in test 1 is not even"), "{error}");
    let odd = JudgeFormat::parse("line h[3]:odd\nposition {h}\nanswer Yes No").unwrap();
    let error = odd.read("1 3 4").unwrap_err().0;
    assert!(error.starts_with("input line 1, column 5: 4 for h (number 3 of 3)"), "{error}");
    let error = JudgeFormat::parse("line n:3..3:even\nposition {n}\nanswer Yes No").unwrap_err().0;
    assert!(error.contains("holds no even number"), "{error}");
    let error = JudgeFormat::parse("line n:even:odd\nposition {n}\nanswer Yes No").unwrap_err().0;
    assert!(error.contains("one of `even` and `odd`"), "{error}");
}
