//! Published theorems that prove a pattern for the built-in games they cover. A fitted pattern
//! is called proved by one only when it is exactly the theorem's statement (the same class,
//! the same constants): a pattern that merely agrees on the positions checked stays `checked`.

use super::Pattern;
use super::grid::{GridPattern, PairForm};
use super::line::{BitForm, LinePattern};

/// A named coin rule's value of coin `n` (from 1), as the pattern `guess` fits, and the theorem.
fn coin_rule(name: &str, first: u64) -> Option<(LinePattern, &'static str)> {
    // `first` is 1 for the coins themselves, 0 for the rows and columns of a product, whose
    // place x is coin x + 1.
    let shift = 1 - first as i64;
    let bitwise = |form: BitForm, offset: i64| LinePattern::Bitwise {
        form,
        shift: shift + offset,
        first,
        start: first,
        before: Vec::new(),
    };
    let line = |at_first: u64| LinePattern::Periodic {
        first,
        start: first,
        before: Vec::new(),
        cycle: vec![at_first],
        saltus: 1,
    };
    Some(match name {
        "ruler" => (
            bitwise(BitForm::LowestBit, 0),
            "the Ruler game (Winning Ways ch. 14): coin n is worth the largest power of 2 dividing n",
        ),
        "mock-turtles" => {
            (bitwise(BitForm::Odious, -1), "Mock Turtles (Winning Ways ch. 14): coin n is worth the n-th odious number")
        }
        "turtles" => (line(1), "Turning Turtles (Winning Ways ch. 14): coin n is worth n"),
        "twins" => (line(0), "Twins (Winning Ways ch. 14): coin n is worth n − 1"),
        _ => return None,
    })
}

/// The theorem proving `pattern` for the game `spec`, when one does.
pub(super) fn proof(spec: &str, pattern: &Pattern) -> Option<String> {
    match (spec, pattern) {
        ("wythoff", Pattern::Grid(GridPattern::Beatty { c: 1 })) => Some(
            "Wythoff's theorem (W. A. Wythoff, A modification of the game of Nim, 1907): the P-positions are \
             (⌊kφ⌋, ⌊kφ²⌋) and their mirror images"
                .to_owned(),
        ),
        ("corners", Pattern::Grid(GridPattern::Form(PairForm::NimProduct))) => Some(
            "the Tartan theorem (Winning Ways ch. 14): Turning Corners is Twins × Twins, so G(x, y) = x ⊗ y".to_owned(),
        ),
        ("split-nim", Pattern::Line(line)) => {
            let odious = LinePattern::Bitwise { form: BitForm::Odious, shift: -1, first: 0, start: 1, before: vec![0] };
            (*line == odious).then(|| {
                "split-Nim's values are the odious numbers (induction on n: the options of heap n reach 0 and every \
                 evil number below 2(n − 1), the odious numbers are never reached, so the mex is the n-th odious number)"
                    .to_owned()
            })
        }
        (_, Pattern::Line(line)) => {
            let (expected, theorem) = coin_rule(spec.strip_prefix("coins:")?, 1)?;
            (*line == expected).then(|| theorem.to_owned())
        }
        (_, Pattern::Grid(GridPattern::ProductOfLines { row, column })) => {
            let (left, right) = spec.strip_prefix("product:")?.split_once(':')?;
            let (row_expected, row_theorem) = coin_rule(left, 0)?;
            let (column_expected, column_theorem) = coin_rule(right, 0)?;
            (*row == row_expected && *column == column_expected).then(|| {
                format!(
                    "the Tartan theorem (Winning Ways ch. 14): G(x, y) = G_A(x + 1) ⊗ G_B(y + 1), where {row_theorem} \
                     and {column_theorem}"
                )
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coins::rule::NamedRule;
    use crate::coins::values::closed_form;

    /// Each theorem's pattern is the rule's closed form (itself tested against the definition
    /// in `coins::values`), on the coins and on the places of a product.
    #[test]
    fn the_theorems_patterns_are_the_closed_forms() {
        for named in NamedRule::ALL {
            let (coins, _) = coin_rule(named.name(), 1).unwrap();
            let (places, _) = coin_rule(named.name(), 0).unwrap();
            for n in (1..2000u64).chain([1 << 40, (1 << 62) + 12345]) {
                let expected = closed_form(named, n).map(u128::from);
                assert_eq!(coins.value(n), expected, "{named:?} coin {n}");
                assert_eq!(places.value(n - 1), expected, "{named:?} place {}", n - 1);
            }
        }
    }

    #[test]
    fn a_pattern_other_than_the_theorems_is_not_proved() {
        let ruler_shifted = Pattern::Line(LinePattern::Bitwise {
            form: BitForm::LowestBit,
            shift: 1,
            first: 1,
            start: 1,
            before: Vec::new(),
        });
        assert_eq!(proof("coins:ruler", &ruler_shifted), None);
        assert_eq!(proof("coins:turn=1..3", &ruler_shifted), None);
        assert_eq!(proof("wythoff", &Pattern::Grid(GridPattern::Beatty { c: 2 })), None);
        assert!(proof("wythoff", &Pattern::Grid(GridPattern::Beatty { c: 1 })).unwrap().contains("1907"));
    }
}
