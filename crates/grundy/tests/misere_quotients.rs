//! Published misère quotients (`tests/data/misere-quotients.txt`, each with its source)
//! against [`misere_quotient`], and the quotients' outcomes against exhaustive search.

use grundy::control::Control;
use grundy::heap::{AsHeapGame, HeapGame};
use grundy::misere::quotient::{DEFAULT_MAX_ORDER, misere_quotient};
use grundy::registry::parse_game;

/// The data lines of `tests/data/FILE`, each split into its `|`-separated fields.
fn data_rows(file: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| line.split('|').map(|field| field.trim().to_owned()).collect())
        .collect()
}

#[test]
fn published_quotients() {
    let mut compared = 0;
    for fields in data_rows("misere-quotients.txt") {
        let [spec, to, order, relations, p_portion] = &fields[..] else { panic!("bad line {fields:?}") };
        let ruleset = parse_game(spec).unwrap();
        let game = ruleset.heap_game().unwrap();
        let game: &dyn HeapGame = &*game;
        let to: u64 = to.parse().unwrap();
        let quotient =
            misere_quotient(&|heap| game.heap_options(heap), to, DEFAULT_MAX_ORDER, &Control::default()).unwrap();
        assert_eq!(quotient.order, order.parse::<usize>().unwrap(), "{spec}");
        if !relations.is_empty() {
            let mut expected: Vec<&str> = relations.split(';').map(str::trim).collect();
            let mut found: Vec<&str> = quotient.relations.iter().map(String::as_str).collect();
            expected.sort_unstable();
            found.sort_unstable();
            assert_eq!(found, expected, "{spec}");
        }
        if !p_portion.is_empty() {
            let expected: Vec<&str> = p_portion.split(',').map(str::trim).collect();
            let found: Vec<&str> = quotient.p_portion.iter().map(|&x| quotient.words[x as usize].as_str()).collect();
            assert_eq!(found, expected, "{spec}");
        }
        // The proof is the guarantee; exhaustive search on small sums is the witness.
        let check =
            quotient.check_against_search(&|heap| game.heap_options(heap), 60, 24, 7, &Control::default()).unwrap();
        assert_eq!(check.disagreement, None, "{spec}");
        compared += 1;
    }
    assert_eq!(compared, 3);
}

/// MisereSolver's quotients (`tests/data/misere-quotients-miseresolver.txt`): the same order
/// and P-portion size, the same heaps sharing an element, the same outcome of each heap.
#[test]
fn miseresolver_quotients() {
    let mut compared = 0;
    for fields in data_rows("misere-quotients-miseresolver.txt") {
        let [spec, to, order, p_size, classes, outcomes] = &fields[..] else { panic!("bad line {fields:?}") };
        let ruleset = parse_game(spec).unwrap();
        let game = ruleset.heap_game().unwrap();
        let game: &dyn HeapGame = &*game;
        let quotient =
            misere_quotient(&|heap| game.heap_options(heap), to.parse().unwrap(), 5000, &Control::default()).unwrap();
        assert_eq!(quotient.order, order.parse::<usize>().unwrap(), "{spec}: order");
        assert_eq!(quotient.p_portion.len(), p_size.parse::<usize>().unwrap(), "{spec}: P-portion");
        let first_with_element: Vec<String> = quotient
            .heaps
            .iter()
            .map(|element| quotient.heaps.iter().position(|other| other == element).unwrap().to_string())
            .collect();
        assert_eq!(&first_with_element.join(" "), classes, "{spec}: heaps with the same element");
        let heap_outcomes: String =
            quotient.heaps.iter().map(|&element| if quotient.is_p(element) { 'P' } else { 'N' }).collect();
        assert_eq!(&heap_outcomes, outcomes, "{spec}: each heap's outcome");
        compared += 1;
    }
    assert_eq!(compared, 51);
}
