//! `--compound every|conjunctive|selective` of `outcome`, `moves` and `play`: answers checked
//! against the library's compound search (itself tested against exhaustive search of the
//! compound), JSON fields, scripted games and refusals.

use crate::common::{grundy, grundy_with_stdin};
use grundy::compound::{Compound, CompoundSolver, after};
use grundy::control::Control;
use grundy::play::Chooser;
use grundy::registry::parse_sum;

#[test]
fn outcome_says_the_steps_on_stderr_and_the_outcome_on_stdout() {
    let run = grundy(&["outcome", "--compound", "every", "sub:1,2", "4", "+", "nim", "3"]);
    assert_eq!((run.status, run.stdout.as_str()), (0, "N\n"), "{}", run.stderr);
    assert_eq!(run.stderr, "Every-SG (the continued conjunctive compound): steps 3, 1; the largest, 3, is odd\n");
    // The steps of sub:1,2 are 0, 1, 1, 2, 3, 3, …: heap 3 (step 2) is P.
    let run = grundy(&["outcome", "--compound", "every", "sub:1,2", "3"]);
    assert_eq!(run.stdout, "P\n");
    let run = grundy(&["outcome", "--compound", "conjunctive", "nim", "3", "0"]);
    assert_eq!(run.stdout, "P\n", "a heap that cannot move stops play at once");
    let run = grundy(&["outcome", "--compound", "selective", "nim", "3", "3"]);
    assert_eq!(run.stdout, "N\n", "both heaps are N and move together");
    assert!(run.stderr.contains("components N, N; some component is N"), "{}", run.stderr);
}

#[test]
fn json_names_the_compound_and_its_numbers() {
    let run = grundy(&["--json", "outcome", "--compound", "every", "nim", "1", "2"]);
    assert_eq!(
        run.stdout,
        "{\"compound\":\"every\",\"game\":\"nim\",\"outcome\":\"N\",\"position\":[\"1\",\"2\"],\"step\":1,\"steps\":[1,1]}\n"
    );
    let run = grundy(&["--json", "outcome", "--compound", "conjunctive", "sub:1,2", "3", "4"]);
    let object: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(object["remoteness"], 2);
    assert_eq!(object["remotenesses"], serde_json::json!([2, 3]));
    assert_eq!(object["outcome"], "P");
    let run = grundy(&["--json", "outcome", "--compound", "selective", "nim", "0", "2"]);
    let object: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(object["outcomes"], serde_json::json!(["P", "N"]));
}

#[test]
fn moves_lists_one_move_per_component_moved_as_the_library_finds_them() {
    for compound in Compound::ALL {
        for words in [vec!["nim", "3", "4"], vec!["sub:1,2", "4", "+", "wythoff", "2,3"], vec!["kayles", "5", "2"]] {
            let position = parse_sum(&words).unwrap();
            let mut solver = CompoundSolver::new(compound, &Control::default());
            let expected = solver.winning_moves(&position, 1000).unwrap();
            let mut args = vec!["--json", "moves", "--compound", compound.name()];
            args.extend(&words);
            let run = grundy(&args);
            assert_eq!(run.status, 0, "{}", run.stderr);
            let object: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
            assert_eq!(object["compound"], compound.name());
            assert_eq!(object["winning_move_count"], expected.count.to_string());
            let listed = object["moves"].as_array().unwrap();
            assert_eq!(listed.len(), expected.moves.len());
            for (json, one) in listed.iter().zip(&expected.moves) {
                assert_eq!(json["move"], one.notation);
                assert_eq!(json["moves"].as_array().unwrap().len(), one.steps.len());
                assert_eq!(json["explain"], one.explain);
            }
        }
    }
    // Text: the position after each move, then why it wins.
    let run = grundy(&["moves", "--compound", "every", "nim", "1", "2"]);
    assert_eq!(
        run.stdout,
        "0 0  # heap 1: 1 -> 0 (step 1 -> 0), heap 2: 2 -> 0 (step 1 -> 0); the largest step is then 0, even: a P-position\n"
    );
    let run = grundy(&["moves", "--compound", "every", "sub:1,2", "3"]);
    assert_eq!((run.status, run.stdout.as_str()), (0, ""));
    assert!(run.stderr.contains("no winning move"), "{}", run.stderr);
}

#[test]
fn moves_all_lists_every_move_of_the_compound() {
    for compound in Compound::ALL {
        for words in [vec!["nim", "2", "1"], vec!["sub:1,2", "3", "+", "wythoff", "1,2"]] {
            let position = parse_sum(&words).unwrap();
            let mut solver = CompoundSolver::new(compound, &Control::default());
            let expected = solver.all_moves(&position, 1001).unwrap();
            let mut args = vec!["--json", "moves", "--all", "--compound", compound.name()];
            args.extend(&words);
            let run = grundy(&args);
            assert_eq!(run.status, 0, "{}", run.stderr);
            let object: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
            let listed = object["moves"].as_array().unwrap();
            assert_eq!(listed.len(), expected.len(), "{compound:?} {words:?}");
            for (json, (one, number)) in listed.iter().zip(&expected) {
                assert_eq!(json["move"], one.notation);
                assert_eq!(json["wins"], number % 2 == 0);
            }
            // The winning ones are exactly `moves`' list.
            let winning = solver.winning_moves(&position, 1000).unwrap();
            assert_eq!(listed.iter().filter(|json| json["wins"] == true).count(), winning.moves.len());
        }
    }
    // Nim 2 and 1 in Every-SG: both heaps move at once, 2 × 1 moves, one of them wins.
    let run = grundy(&["moves", "--all", "--compound", "every", "nim", "2", "1"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.stdout.lines().count(), 2, "{}", run.stdout);
    assert_eq!(run.stdout.lines().filter(|line| line.contains("# wins: ")).count(), 1, "{}", run.stdout);
    let over = grundy(&["moves", "--all", "--compound", "conjunctive", "nim", "0", "2"]);
    assert_eq!((over.status, over.stdout.as_str()), (0, ""));
    assert!(over.stderr.contains("no move: the compound is over"), "{}", over.stderr);
}

#[test]
fn positions_from_standard_input_are_answered_one_a_line() {
    let run = grundy_with_stdin(&["outcome", "--compound", "every", "sub:1,2"], "3\n4 5\n-1\n");
    assert_eq!(run.stdout, "P\nN\n");
    assert_eq!(run.status, 2, "the bad line is reported: {}", run.stderr);
    assert!(run.stderr.contains("line 3"), "{}", run.stderr);
}

/// Plays `person` against the engine from `start` (the person first); the person's lines and
/// whether the person won.
fn script(
    compound: Compound,
    words: &[&str],
    seed: u64,
    person: impl Fn(&mut CompoundSolver, &grundy::sum::Position) -> String,
) -> (String, bool) {
    let mut position = parse_sum(words).unwrap();
    let mut solver = CompoundSolver::new(compound, &Control::default());
    let mut chooser = Chooser::new(seed);
    let mut lines = String::new();
    loop {
        if !solver.has_move(&position).unwrap() {
            return (lines, false);
        }
        let typed = person(&mut solver, &position);
        lines.push_str(&typed);
        lines.push('\n');
        let one = solver.find_typed_move(&position, &typed).unwrap().unwrap();
        position = after(&position, &one);
        if one.stops {
            return (lines, true);
        }
        match solver.engine_move(&position, &mut chooser).unwrap() {
            None => return (lines, true),
            Some(reply) if reply.stops => return (lines, false),
            Some(reply) => position = after(&position, &reply),
        }
    }
}

/// A winning move when there is one, else the engine's own choice.
fn perfect(solver: &mut CompoundSolver, position: &grundy::sum::Position) -> String {
    match solver.winning_moves(position, 1).unwrap().moves.first() {
        Some(one) => one.notation.clone(),
        None => solver.engine_move(position, &mut Chooser::new(3)).unwrap().unwrap().notation,
    }
}

#[test]
fn play_a_compound_the_winner_wins() {
    for compound in Compound::ALL {
        // The first player wins nim 3 4 in every compound; numbered moves are accepted too.
        let words = ["nim", "3", "4"];
        let (input, person_wins) = script(compound, &words, 1, perfect);
        assert!(person_wins, "{compound:?}: {input}");
        let mut args = vec!["play", "--compound", compound.name(), "--seed", "1"];
        args.extend(words);
        let run = grundy_with_stdin(&args, &input);
        assert_eq!(run.status, 0, "{}", run.stderr);
        assert!(run.stdout.trim_end().ends_with("grundy has no move: you win!"), "{compound:?}: {}", run.stdout);
        // From a P-position grundy wins whatever the person plays.
        let lost = ["sub:1,2", "3"];
        let (input, person_wins) = script(compound, &lost, 2, perfect);
        assert!(!person_wins, "{compound:?}");
        let mut args = vec!["play", "--compound", compound.name(), "--seed", "2"];
        args.extend(lost);
        let run = grundy_with_stdin(&args, &input);
        assert!(run.stdout.trim_end().ends_with("you have no move: grundy wins."), "{compound:?}: {}", run.stdout);
    }
    let run = grundy_with_stdin(&["play", "--compound", "every", "nim", "3", "4"], "3 -> 1\nquit\n");
    assert!(
        run.stdout.contains("illegal: every component that can move must move, and heap 2 has no move typed"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_replay_of_a_compound_takes_positions_and_stops_at_an_illegal_move() {
    // `grundy serve`'s page replays a link's moves as the positions they lead to.
    let replay = |input: &str| {
        let run = grundy_with_stdin(
            &["--json", "play", "--replay", "--compound", "every", "nim", "3", "+", "sub:1,2", "4"],
            input,
        );
        assert_eq!(run.status, 0, "{}", run.stderr);
        run.stdout.lines().map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap()).collect::<Vec<_>>()
    };
    let events = replay("nim 2 + sub:1,2 3\n2 -> 0; 3 -> 2\nnim 0 + sub:1,2 0\n");
    let moved: Vec<&str> =
        events.iter().filter(|event| event["event"] == "you").map(|event| event["text"].as_str().unwrap()).collect();
    assert_eq!(moved, ["you: 3 -> 2; 4 -> 3", "you: 2 -> 0; 3 -> 2", "you: 2 -> 0"]);
    let last = events.last().unwrap();
    assert_eq!(last["text"], "the replayed game is over: the player to move has no move.");
    // Every component that can move must move: `nim 2 + sub:1,2 4` is no move of Every-SG.
    let events = replay("nim 2 + sub:1,2 4\nnim 1 + sub:1,2 4\n");
    let kinds: Vec<&str> = events.iter().map(|event| event["event"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["start", "position", "illegal", "end"]);
    assert_eq!(events.last().unwrap()["text"], "the replay stops at this illegal move.");
}

#[test]
fn bad_input_and_searches_too_large_are_refused_in_one_line() {
    let bad_name = grundy(&["outcome", "--compound", "every-sg", "nim", "3"]);
    assert_eq!(bad_name.status, 2);
    assert!(bad_name.stderr.contains("the compounds are every, conjunctive, selective"), "{}", bad_name.stderr);
    let huge = grundy(&["--json", "outcome", "--compound", "every", "nim", "1000000000000000000"]);
    assert_eq!(huge.status, 2);
    assert_eq!(huge.stderr.lines().count(), 1, "{}", huge.stderr);
    let error: serde_json::Value = serde_json::from_str(&huge.stdout).unwrap();
    assert!(error["error"]["message"].as_str().unwrap().contains("--compound every"), "{}", huge.stdout);
    let long = grundy(&["moves", "--compound", "conjunctive", "nim", "100000"]);
    assert_eq!(long.status, 2);
    assert!(long.stderr.contains("more than 5000000 options"), "{}", long.stderr);
    let both = grundy(&["outcome", "--compound", "every", "--misere", "nim", "3"]);
    assert_eq!(both.status, 2, "{}", both.stderr);
}

#[test]
fn a_game_with_cycles_is_refused() {
    let graph = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/loopy.txt");
    let game = format!("dag:{graph}");
    let run = grundy(&["outcome", "--compound", "every", &game, "s"]);
    assert_eq!(run.status, 2, "{}", run.stdout);
    assert!(run.stderr.contains("needs a game that always ends"), "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}
