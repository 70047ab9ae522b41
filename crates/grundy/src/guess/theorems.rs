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
        ("e-and-d", Pattern::Grid(GridPattern::Form(PairForm::LowestZeroOfOrLessOne))) => Some(
            "the lowest-0-bit theorem for E&D (Luogu P2148), by induction on a + b: the splits of a heap n are worth \
             exactly the positions of the 1 bits of n − 1, so G(a, b) is the mex of the 1 bits of (a − 1) | (b − 1)"
                .to_owned(),
        ),
        ("king", Pattern::Grid(GridPattern::PeriodicP { from: 1, period_x: 2, period_y: 2, p_cells }))
            if *p_cells == [[false, false], [false, true]] =>
        {
            Some(
                "the corner king's theorem (HDU 2147, kiki's game), by induction on n + m: a board with both sides odd \
                 has only options with a side even, and from a board with a side even a step makes both odd"
                    .to_owned(),
            )
        }
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
        // E&D's theorem is the form on heaps from 1, not the same form from 0.
        let lowest = |form| Pattern::Grid(GridPattern::Form(form));
        assert!(proof("e-and-d", &lowest(PairForm::LowestZeroOfOrLessOne)).unwrap().contains("P2148"));
        assert_eq!(proof("e-and-d", &lowest(PairForm::LowestZeroOfOr)), None);
        assert_eq!(proof("king", &lowest(PairForm::LowestZeroOfOrLessOne)), None);
        // The corner king's theorem: P iff both sides odd, from 1; any other cells are not it.
        let king = |from, p_cells: [[bool; 2]; 2]| {
            Pattern::Grid(GridPattern::PeriodicP {
                from,
                period_x: 2,
                period_y: 2,
                p_cells: p_cells.iter().map(|row| row.to_vec()).collect(),
            })
        };
        assert!(proof("king", &king(1, [[false, false], [false, true]])).unwrap().contains("HDU 2147"));
        assert_eq!(proof("king", &king(0, [[false, false], [false, true]])), None);
        assert_eq!(proof("king", &king(1, [[true, false], [false, false]])), None);
    }
}
