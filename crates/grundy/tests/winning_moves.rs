//! Every winning move leads to a P-position, a P-position has none, and no winning move is
//! missed: checked on random positions of every heap family against the plain definition.

use grundy::game::Game;
use grundy::heap::AsHeapGame;
use grundy::heap::{HeapGame, HeapSum};
use grundy::registry::parse_game;
use grundy::solve::memo::Solver;
use grundy::sum::Position;
use proptest::prelude::*;

/// The winning moves of a sum by brute force over the family's rules alone: the options of the
/// sum (as sorted heaps, empty ones left out) whose value is 0.
fn brute_force_winning_moves(game: &dyn HeapGame, heaps: &[u64]) -> Vec<Vec<u64>> {
    let sum = HeapSum(game);
    let mut solver = Solver::new(&sum);
    let mut position: Vec<u64> = heaps.iter().copied().filter(|&heap| heap > 0).collect();
    position.sort_unstable();
    let mut winning: Vec<Vec<u64>> =
        sum.options(&position).into_iter().filter(|option| solver.grundy_value(option).unwrap().0 == 0).collect();
    winning.sort();
    winning.dedup();
    winning
}

fn check(spec: &str, heaps: &[u64]) -> Result<(), TestCaseError> {
    let ruleset = parse_game(spec).unwrap();
    let game = ruleset.heap_game().expect("a heap game");
    let texts: Vec<String> = heaps.iter().map(u64::to_string).collect();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let position = Position::parse_single(ruleset.clone(), &texts).unwrap();
    let moves = position.winning_moves().unwrap();
    let outcome = position.outcome().unwrap();
    prop_assert_eq!(moves.is_empty(), outcome == grundy::Outcome::P);
    for winning in &moves {
        prop_assert_eq!(position.after(winning).value().unwrap().to_string(), "0", "{:?}", winning);
    }
    let mut found: Vec<Vec<u64>> = moves
        .iter()
        .map(|winning| {
            let mut after: Vec<u64> = position
                .after(winning)
                .to_text()
                .split_whitespace()
                .map(|heap| heap.parse().unwrap())
                .filter(|&heap| heap > 0)
                .collect();
            after.sort_unstable();
            after
        })
        .collect();
    found.sort();
    found.dedup();
    prop_assert_eq!(found, brute_force_winning_moves(&*game, heaps));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn nim_moves_are_exactly_the_moves_to_p_positions(heaps in proptest::collection::vec(0u64..9, 0..4)) {
        check("nim", &heaps)?;
    }

    #[test]
    fn bash_moves_are_exactly_the_moves_to_p_positions(
        max_take in 1u64..6,
        heaps in proptest::collection::vec(0u64..12, 0..4),
    ) {
        check(&format!("bash:{max_take}"), &heaps)?;
    }

    #[test]
    fn subtraction_moves_are_exactly_the_moves_to_p_positions(
        set in proptest::collection::btree_set(1u64..7, 1..4),
        heaps in proptest::collection::vec(0u64..14, 0..4),
    ) {
        let elements: Vec<u64> = set.into_iter().collect();
        let list: Vec<String> = elements.iter().map(u64::to_string).collect();
        check(&format!("sub:{}", list.join(",")), &heaps)?;
    }

    #[test]
    fn take_and_break_moves_are_exactly_the_moves_to_p_positions(
        spec in prop_oneof![Just("kayles"), Just("dawson"), Just("grundys-game"), Just("octal:0.137"), Just("hex:0.8f")],
        heaps in proptest::collection::vec(0u64..9, 0..3),
    ) {
        check(spec, &heaps)?;
    }
}

#[test]
fn empty_sum_is_a_p_position_without_moves() {
    for spec in ["nim", "bash:3", "sub:2,5"] {
        let empty = Position::parse_single(parse_game(spec).unwrap(), &[]).unwrap();
        assert_eq!(empty.value().unwrap().to_string(), "0");
        assert!(empty.winning_moves().unwrap().is_empty());
        assert!(empty.options(10).unwrap().is_empty());
    }
}
