//! The canon's closed-form families end to end (`staircase`, `moore:K`, `euclid`, `dynamic:K`,
//! `fibonacci-nim`): answers at contest sizes, and bad input as one line and exit status 2.
//! How fast those answers come is measured by `bench/`, not here (a shared machine's load
//! would make a timed test fail at random).

use crate::common::{grundy, grundy_with_stdin};

/// Runs a command that must succeed; returns its stdout.
fn quick(args: &[&str]) -> String {
    let run = grundy(args);
    assert_eq!(run.status, 0, "{args:?}: {}", run.stderr);
    run.stdout
}

#[test]
fn contest_sizes_answer_at_once() {
    // AcWing 892's largest staircase: 10^5 steps of up to 10^9 counters (a line of standard
    // input: it is longer than one command-line argument may be).
    let steps: Vec<String> = (0..100_000u64).map(|step| (1_000_000_000 - step * 7).to_string()).collect();
    let staircase = format!("{}\n", steps.join(","));
    let run = grundy_with_stdin(&["value", "staircase"], &staircase);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let expected = steps.iter().step_by(2).fold(0u64, |total, count| total ^ count.parse::<u64>().unwrap());
    assert_eq!(run.stdout.trim(), expected.to_string());
    let small = quick(&["moves", "staircase", &steps[..1000].join(",")]);
    assert!(small.lines().count() >= 1, "{small}");
    // Euclid's game with numbers near 2^31 (Luogu P1290, HDU 1525), and far past them.
    assert_eq!(quick(&["outcome", "euclid", "2147483647,1"]).trim(), "N");
    assert_eq!(quick(&["outcome", "euclid", "1000000,999999"]).trim(), "P");
    let far = quick(&["moves", "euclid", "1000000000000000000000000000000,7"]);
    assert!(far.starts_with("8,7  #"), "{far}");
    // Fibonacci Nim up to 2^31 (HDU 2516), dynamic subtraction with K = 10^5, n = 10^8 (HDU 2486).
    assert_eq!(quick(&["outcome", "fibonacci-nim", "1836311903"]).trim(), "P");
    assert_eq!(quick(&["outcome", "fibonacci-nim", "1836311904"]).trim(), "N");
    assert!(!quick(&["moves", "dynamic:100000", "100000000"]).is_empty());
    // Moore's Nim: outcome and a winning move for huge heaps.
    let moore = quick(&["moves", "moore:3", "1000000000000000000000,3,5,123456789"]);
    assert_eq!(moore.lines().count(), 1, "{moore}");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for args in [
        &["value", "staircase", "3,,2"][..],
        &["value", "staircase:2", "3"],
        &["value", "moore", "3"],
        &["value", "moore:0", "3"],
        &["value", "moore:2", "3,x"],
        &["value", "euclid", "3"],
        &["value", "euclid", "3,-2"],
        &["value", "dynamic:0", "3"],
        &["value", "dynamic:2", "1,2,3"],
        &["value", "fibonacci-nim", "1000000000000000000000000000000000"],
        &["value", "moore:2", "100000000000,5,7"],
        &["value", "fibonacci-nim", "100000000"],
    ] {
        let run = grundy(args);
        assert_eq!(run.status, 2, "{args:?}: {}", run.stdout);
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
        assert!(run.stderr.starts_with("grundy: error: "), "{args:?}: {}", run.stderr);
        let mut json = args.to_vec();
        json.insert(1, "--json");
        let run = grundy(&json);
        assert_eq!(run.status, 2, "{json:?}");
        let error: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        assert!(error["error"]["message"].as_str().is_some_and(|message| !message.is_empty()), "{json:?}");
    }
}

/// E&D (Luogu P2148) and the corner king (HDU 2147) at contest sizes and past them, codes with
/// a repeating tail, and their bad input as one line and exit status 2.
#[test]
fn e_and_d_king_and_repeating_codes() {
    let answer = |args: &[&str]| {
        let run = grundy(args);
        assert_eq!(run.status, 0, "{args:?}: {}", run.stderr);
        run.stdout
    };
    // Luogu P2148's largest test: 2·10^4 heaps up to 2·10^9, as one table on standard input.
    let heaps: Vec<String> = (0..20_000u64).map(|i| (2_000_000_000 - i * 99_991).to_string()).collect();
    let run = grundy_with_stdin(&["value", "e-and-d"], &format!("{}\n", heaps.join(",")));
    assert_eq!(run.status, 0, "{}", run.stderr);
    let expected = heaps.chunks(2).fold(0u64, |total, pair| {
        let (a, b): (u64, u64) = (pair[0].parse().unwrap(), pair[1].parse().unwrap());
        total ^ u64::from(((a - 1) | (b - 1)).trailing_ones())
    });
    assert_eq!(run.stdout.trim(), expected.to_string());
    // Both heaps odd: a P-position.
    assert_eq!(answer(&["outcome", "e-and-d", "18446744073709551615,3"]).trim(), "P");
    // The one split of 2^64 - 1 worth 63, listed without trying the others.
    let far = answer(&["moves", "e-and-d", "1,18446744073709551615", "+", "nim", "63"]);
    assert!(far.starts_with("e-and-d 9223372036854775807,9223372036854775808 + nim 63  #"), "{far}");
    // Too many moves to list: said in one line.
    let many = grundy(&["moves", "e-and-d", "2000000000,3"]);
    assert_eq!((many.status, many.stderr.lines().count()), (2, 1), "{}", many.stderr);
    assert_eq!(answer(&["outcome", "king", "18446744073709551615,2001"]).trim(), "P");
    assert_eq!(answer(&["value", "king", "2000,1999"]).trim(), "1");
    assert_eq!(answer(&["value", "king", "2001,1000"]).trim(), "3");
    // 4.[3] is Lasker's Nim, 0.[3] Nim; another code by the definition, its period observed only.
    assert_eq!(answer(&["value", "octal:4.[3]", "3", "1000000000000"]).trim(), (4u64 ^ 999_999_999_999).to_string());
    assert_eq!(answer(&["value", "octal:0.[3]", "12345678901234567890"]).trim(), "12345678901234567890");
    let period = answer(&["period", "octal:0.[12]"]);
    assert!(period.contains("observed, not proved") && period.contains("saltus 1"), "{period}");
    for args in [
        &["value", "e-and-d", "1,2,3"][..],
        &["value", "e-and-d", "0,2"],
        &["value", "e-and-d", "1,18446744073709551616"],
        &["value", "king", "0,3"],
        &["value", "king", "5"],
        &["value", "octal:0.[3", "3"],
        &["value", "octal:0.[]", "3"],
        &["value", "octal:0.[3]1", "3"],
        &["value", "octal:0.[12]", "100000000"],
    ] {
        let run = grundy(args);
        assert_eq!(run.status, 2, "{args:?}: {}", run.stdout);
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
        assert!(run.stderr.starts_with("grundy: error: "), "{args:?}: {}", run.stderr);
    }
}
