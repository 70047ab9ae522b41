//! Published tables of coin-turning games (`tests/data/coins.txt`) against the mex tables, the
//! closed forms and the front end.

use grundy::coins::rule::{CoinRule, NamedRule};
use grundy::coins::values::{closed_form, value_table};
use grundy::registry::parse_game;
use grundy::sum::Position;

fn tables() -> Vec<(String, Vec<u64>)> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/coins.txt")).unwrap();
    text.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let (name, values) = line.split_once(':').unwrap();
            (name.trim().to_owned(), values.split_whitespace().map(|value| value.parse().unwrap()).collect())
        })
        .collect()
}

#[test]
fn named_rules_match_the_published_values() {
    let mut checked = 0;
    for (name, published) in tables() {
        let Some(named) = NamedRule::ALL.into_iter().find(|named| named.name() == name) else { continue };
        let table = value_table(&named.rule(), published.len() as u64, &grundy::control::Control::default()).unwrap();
        let written = CoinRule::parse("coins", &named.rule().to_string()).unwrap();
        assert_eq!(written.named(), Some(named));
        for (index, &value) in published.iter().enumerate() {
            let coin = index as u64 + 1;
            assert_eq!(table[index + 1], value, "{name} coin {coin} by mex");
            assert_eq!(closed_form(named, coin), Some(value), "{name} coin {coin} by closed form");
        }
        checked += 1;
    }
    assert_eq!(checked, 4);
}

#[test]
fn turning_corners_matches_the_nim_multiplication_table() {
    let corners = parse_game("corners").unwrap();
    let mut rows = 0;
    for (name, published) in tables() {
        let Some(x) = name.strip_prefix("corners ") else { continue };
        for (y, value) in published.iter().enumerate() {
            let position = Position::parse_single(corners.clone(), &[&format!("{x},{y}")]).unwrap();
            assert_eq!(position.value().unwrap().to_string(), value.to_string(), "corners {x},{y}");
        }
        rows += 1;
    }
    assert_eq!(rows, 5);
}
