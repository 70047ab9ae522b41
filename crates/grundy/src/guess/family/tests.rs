//! Family guesses: the formulas found for families with published patterns, their proofs, and
//! every claimed formula against the definition (mex over the rules' options) on parameter
//! values the fit never saw.

use super::*;
use crate::heap::sequence_by_definition;
use crate::registry::parse_game;
use proptest::prelude::*;

fn family(text: &str, over: &[&str]) -> FamilyGuess {
    let parameters: Vec<ParameterRange> = over.iter().map(|range| ParameterRange::parse(range).unwrap()).collect();
    let names: Vec<String> = parameters.iter().map(|range| range.name.clone()).collect();
    let template = Template::parse(text, &names).unwrap();
    let mut build = |point: &[u64]| -> Result<(String, Arc<dyn Ruleset>), GameError> {
        let text = template.fill(point)?;
        let game = parse_game(&text)?;
        Ok((text, game))
    };
    guess_family(&template, &parameters, &mut build, Some(200), &Control::default()).unwrap()
}

/// The family's formula at `point` agrees with the definition on heaps `0..len`.
fn assert_formula_matches_definition(text: &str, formula: &FamilyFormula, names: &[String], point: &[u64], len: u64) {
    let template = Template::parse(text, names).unwrap();
    let game = parse_game(&template.fill(point).unwrap()).unwrap();
    let heap = game.heap_game().unwrap();
    let Some(Pattern::Line(pattern)) = formula.at(point) else { panic!("a line formula at {point:?}") };
    for (n, value) in sequence_by_definition(&*heap, len).into_iter().enumerate() {
        assert_eq!(pattern.value(n as u64), Some(u128::from(value)), "{text} at {point:?}, n = {n}");
    }
}

#[test]
fn bash_is_n_mod_m_plus_one_and_proved() {
    let found = family("bash:{m}", &["m=1..12"]);
    let formula = found.formula.clone().expect("a formula");
    assert_eq!(formula.text(&found.names()), "G(n) = n mod (m + 1)");
    assert!(found.proof.as_deref().unwrap().starts_with("Bash's game"), "{:?}", found.proof);
    assert_eq!(found.instances.iter().filter(|instance| instance.held_out).count(), 3);
    assert_eq!(found.beyond.len(), 3);
    assert_eq!(found.quantities[0].name, "period");
    assert_eq!(found.quantities[0].fitted.text(&found.names()), "m + 1");
}

#[test]
fn two_element_subtraction_games_follow_the_theorem() {
    let found = family("sub:{a},{b}", &["a=1..5", "b=6..10"]);
    let formula = found.formula.clone().expect("a formula");
    assert_eq!(
        formula.text(&found.names()),
        "G(n) = ⌊r/a⌋ mod 2, r = n mod (a + b), except G(n) = 2 where r ≥ b and ⌊r/a⌋ is even"
    );
    assert!(found.proof.as_deref().unwrap().contains("two-element subtraction"), "{:?}", found.proof);
    let one_k = family("sub:1,{k}", &["k=2..20"]);
    assert!(one_k.proof.is_some(), "{}", one_k.explain());
    // Ranges where a ≥ b for some games: the theorem does not cover them, so no proof.
    let crossing = family("sub:{a},{b}", &["a=2..7", "b=4..6"]);
    assert!(crossing.proof.is_none(), "{}", crossing.explain());
}

#[test]
fn one_two_k_is_a_function_of_k_mod_3_and_proved() {
    let found = family("sub:1,2,{k}", &["k=1..30"]);
    let formula = found.formula.clone().unwrap_or_else(|| panic!("{}", found.explain()));
    assert_eq!(
        formula.text(&found.names()),
        "G(n) = n mod 3 when k mod 3 ≠ 0; when k mod 3 = 0, G(n) = 3 if r = k, else r mod 3, r = n mod (k + 1)"
    );
    assert!(found.proof.as_deref().unwrap().contains("Bash's game and one more move"), "{:?}", found.proof);
    assert!(!found.beyond.is_empty());
    let names = found.names();
    for k in 1..=60 {
        assert_formula_matches_definition("sub:1,2,{k}", &formula, &names, &[k], 4 * k + 30);
    }
    // a = 4, the constants in any order; and a set the theorem does not cover.
    let four = family("sub:3,{k},1,2", &["k=1..24"]);
    let formula = four.formula.clone().unwrap_or_else(|| panic!("{}", four.explain()));
    assert!(four.proof.is_some());
    for k in 1..=40 {
        assert_formula_matches_definition("sub:3,{k},1,2", &formula, &names, &[k], 4 * k + 30);
    }
    let other = family("sub:1,3,{k}", &["k=4..20"]);
    assert!(other.proof.as_deref().is_none_or(|proof| !proof.contains("one more move")), "{:?}", other.proof);
}

#[test]
fn a_family_with_no_common_form_says_so() {
    let found = family("sub:{a},{b},{c}", &["a=1..3", "b=4..6", "c=7..9"]);
    assert!(found.formula.is_none() || found.proof.is_none());
    assert!(found.instances.iter().all(|instance| instance.guess.pattern.is_some()));
    assert!(found.explain().contains("each game:"));
}

#[test]
fn the_proof_of_the_two_element_theorem_holds_on_every_small_set() {
    // The theorem as the emitted code states it, against the definition, for all a < b ≤ 30.
    for b in 2..=30u64 {
        for a in 1..b {
            let game = parse_game(&format!("sub:{a},{b}")).unwrap();
            for (n, value) in sequence_by_definition(&*game.heap_game().unwrap(), 4 * (a + b)).into_iter().enumerate() {
                let r = n as u64 % (a + b);
                let q = r / a;
                let formula = if r >= b && q.is_multiple_of(2) { 2 } else { q % 2 };
                assert_eq!(formula, value, "sub:{a},{b} at {n}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// A claimed family formula, fitted on small parameters, agrees with the definition on
    /// parameters far outside the fit.
    #[test]
    fn claimed_family_formulas_hold_outside_the_fit(
        which in 0usize..4,
        a in 1u64..40,
        gap in 1u64..40,
    ) {
        let (text, over, point): (&str, &[&str], Vec<u64>) = match which {
            0 => ("bash:{m}", &["m=1..8"], vec![a + gap]),
            1 => ("sub:{a},{b}", &["a=1..4", "b=5..8"], vec![a, a + gap]),
            2 => ("sub:1,{k}", &["k=2..10"], vec![a + 1]),
            _ => ("sub:{k},{2*k}", &["k=1..8"], vec![a]),
        };
        let found = family(text, over);
        let formula = found.formula.clone();
        prop_assert!(formula.is_some(), "{}", found.explain());
        let names = found.names();
        let len = 3 * (point.iter().sum::<u64>() + 2) + 40;
        assert_formula_matches_definition(text, &formula.unwrap(), &names, &point, len);
    }
}
