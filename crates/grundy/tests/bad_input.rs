//! Every parser fed random and mutated strings (the normal suite's share of the fuzzing in
//! `fuzz/`): never a panic, and an error of one short line that names the bad text.

use grundy::error::quote;
use grundy::graph::digraph::EdgeList;
use grundy::heap::checkpoint::{decode, encode, read_header};
use grundy::registry::{parse_game, parse_game_with, parse_sum};
use grundy::sum::Position;
use proptest::prelude::*;

/// Game words that parse, to mutate.
const GOOD_GAMES: [&str; 14] = [
    "nim",
    "bash:3",
    "sub:2,5",
    "sub:{1,3,4}",
    "octal:0.137",
    "hex:0.8F",
    "kayles",
    "dawson",
    "grundys-game",
    "wythoff",
    "coins:turn=1..3",
    "coins:mock-turtles",
    "corners",
    "product:ruler*mock-turtles",
];

/// `text` with the byte at `at` changed, a piece inserted, or a piece cut: a near miss.
fn mutate(text: &str, at: usize, kind: u8, piece: &str) -> String {
    let mut characters: Vec<char> = text.chars().collect();
    let at = at % (characters.len() + 1);
    match kind % 3 {
        0 if at < characters.len() => characters[at] = piece.chars().next().unwrap_or('~'),
        1 => characters.splice(at..at, piece.chars()).for_each(drop),
        _ => characters.truncate(at),
    }
    characters.into_iter().collect()
}

/// One line, and short whatever the input.
fn assert_short(message: &str) {
    assert!(!message.contains('\n'), "{message}");
    assert!(message.chars().count() < 1500, "{} characters: {message:.300}", message.chars().count());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn game_words_random_and_mutated(
        random in "\\PC{0,80}",
        pick in 0usize..GOOD_GAMES.len(),
        at in 0usize..40,
        kind in 0u8..3,
        piece in "[ -~]{0,6}",
    ) {
        for text in [random, mutate(GOOD_GAMES[pick], at, kind, &piece)] {
            if let Err(error) = parse_game(&text) {
                let message = error.to_string();
                assert_short(&message);
                prop_assert!(message.contains(&quote(&text)), "{} does not name `{}`", message, text);
            }
        }
    }

    #[test]
    fn components_random_and_mutated(
        pick in 0usize..6,
        random in "\\PC{0,30}",
        at in 0usize..10,
        kind in 0u8..3,
        piece in "[ -~]{0,4}",
    ) {
        let (game, good) = [
            ("nim", "12"), ("bash:3", "7"), ("sub:2,5", "1000"), ("wythoff", "4,7"),
            ("coins:turtles", "HTTH"), ("corners", "3,5"),
        ][pick];
        let rules = parse_game(game).unwrap();
        for text in [random, mutate(good, at, kind, &piece)] {
            if text.is_empty() || text.contains(char::is_whitespace) {
                continue;
            }
            if let Err(error) = Position::parse_single(rules.clone(), &[&text]).and_then(|position| position.outcome()) {
                let message = error.to_string();
                assert_short(&message);
                if matches!(error, grundy::error::GameError::BadComponent { .. }) {
                    prop_assert!(message.contains(&quote(&text)), "{} does not name `{}`", message, text);
                }
            }
        }
    }

    #[test]
    fn graph_files_random_and_mutated(
        lines in proptest::collection::vec("[a-c0-9 #\\t]{0,9}", 0..12),
        at in 0usize..80,
        kind in 0u8..3,
        piece in "\\PC{0,3}",
    ) {
        let text = mutate(&lines.join("\n"), at, kind, &piece);
        match EdgeList::parse_with_layout(&text, "g.txt", &grundy::control::Control::default()) {
            Ok((list, _)) => prop_assert!(list.edges.iter().all(|&(u, v)| (u.max(v) as usize) < list.names.len())),
            Err(error) => {
                let message = error.to_string();
                assert_short(&message);
                prop_assert!(message.contains("g.txt"), "{}", message);
            }
        }
        for family in ["dag", "geography", "hackenbush"] {
            let read = |_: &str| Ok(text.clone());
            if let Err(error) = parse_game_with(&format!("{family}:g.txt"), &read) {
                assert_short(&error.to_string());
            }
        }
    }

    #[test]
    fn coin_rows_random(rule in "[a-z=.,;0-9-]{0,16}", row in "[HTX0-9]{0,20}") {
        if let Ok(game) = parse_game(&format!("coins:{rule}")) && !row.is_empty()
            && let Err(error) = Position::parse_single(game, &[&row]).and_then(|position| position.value()) {
                assert_short(&error.to_string());
            }
    }

    #[test]
    fn checkpoints_mutated(values in proptest::collection::vec(0u32..70_000, 0..50), at in 0usize..400, kind in 0u8..3, piece in "\\PC{0,4}") {
        let good = String::from_utf8_lossy(&encode("sub:2,5", &grundy::heap::CompactSequence::from_values(&values))).into_owned();
        let bytes = mutate(&good, at, kind, &piece).into_bytes();
        let _ = read_header(&bytes);
        if let Err(error) = decode(&bytes, "sub:2,5") {
            assert_short(&error.to_string());
        }
    }

    #[test]
    fn judge_formats_and_inputs_mutated(
        pick in 0usize..grundy::judge_format::BUILTIN_FORMATS.len(),
        at in 0usize..160,
        kind in 0u8..3,
        piece in "[ -~\n]{0,6}",
        input in "[0-9 \n-]{0,40}",
        heaps in proptest::collection::vec(0u64..20, 0..5),
    ) {
        use grundy::judge_format::{BUILTIN_FORMATS, JudgeFormat};
        let (_, _, text) = BUILTIN_FORMATS[pick];
        for format_text in [text.to_owned(), mutate(text, at, kind, &piece)] {
            match JudgeFormat::parse(&format_text) {
                Err(error) => assert_short(&error.0),
                Ok(format) => {
                    if let Err(error) = format.read(&input) {
                        assert_short(&error.0);
                    }
                    // A test written for a game the format takes reads back as the same heaps.
                    for game in ["nim", "sub:2,5", "bash:3"] {
                        if let Some(test) = format.writer(game).ok().and_then(|writer| writer.test(&heaps)) {
                            let case = &format.read(&format.write(&[test])).unwrap()[0];
                            let expected: Vec<String> = heaps.iter().map(u64::to_string).collect();
                            assert_eq!(case.components.join(" "), expected.join(" "));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn play_input_random(typed in "\\PC{0,40}") {
        let position = parse_sum(&["nim", "3", "4", "5"]).unwrap();
        if let Ok(Err(illegal)) = grundy::play::find_typed_move(&position, &typed) {
            assert_short(&illegal.to_string());
        }
    }
}

/// Readers given oversized input answer at once with bounded memory: a game word or a graph
/// file of 8 MB, a checkpoint header line without end.
#[test]
fn oversized_inputs_are_refused_quickly() {
    let started = std::time::Instant::now();
    let word = format!("sub:{}", "7,".repeat(4 << 20));
    let error = parse_game(&format!("{word}x")).err().expect("a bad word").to_string();
    assert_short(&error);
    let line = "a".repeat(8 << 20);
    let error = EdgeList::parse(&line, "g.txt", &grundy::control::Control::default()).unwrap_err().to_string();
    assert_short(&error);
    let mut header = b"grundy-checkpoint 1\ngame ".to_vec();
    header.resize(8 << 20, b'x');
    assert_short(&decode(&header, "nim").unwrap_err().to_string());
    assert!(started.elapsed() < std::time::Duration::from_secs(5), "{:?}", started.elapsed());
}
