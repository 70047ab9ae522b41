//! `grundy genus` and `grundy quotient`, run as a user would, checked against exhaustive
//! misère search in the library.

use crate::common::grundy;
use grundy::Outcome;
use grundy::heap::HeapGame;
use grundy::heap::octal::OctalGame;
use grundy::misere::search::MisereSearch;

fn ok(args: &[&str]) -> String {
    let run = grundy(args);
    assert_eq!(run.status, 0, "{args:?}: {}", run.stderr);
    assert!(run.stderr.is_empty(), "{args:?}: {}", run.stderr);
    run.stdout
}

fn fails(args: &[&str]) -> String {
    let run = grundy(args);
    assert_eq!(run.status, 2, "{args:?}: {}", run.stdout);
    assert!(run.stdout.is_empty());
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run.stderr.starts_with("grundy: error: "), "{}", run.stderr);
    run.stderr
}

#[test]
fn quotient_of_075_is_r8_in_text() {
    let text = ok(&["quotient", "octal:0.75", "--to", "30"]);
    assert!(text.contains("order 8\n"), "{text}");
    assert!(text.contains("relations: a^2 = 1, bc = ab, c^2 = b^2, b^3 = b"), "{text}");
    assert!(text.contains("P-portion: {a, b^2}"), "{text}");
    assert!(text.contains("\n5 c\n"), "{text}");
}

/// The must-show: an even order and a heap → element map whose predicted outcomes
/// match exhaustive search.
#[test]
fn kayles_quotient_json_predicts_exhaustive_search() {
    let json: serde_json::Value = serde_json::from_str(&ok(&["quotient", "kayles", "--to", "100", "--json"])).unwrap();
    let order = json["order"].as_u64().unwrap() as usize;
    assert!(order > 1 && order.is_multiple_of(2), "order {order}");
    let product: Vec<Vec<u64>> = serde_json::from_value(json["product"].clone()).unwrap();
    assert_eq!(product.len(), order);
    assert!(product.iter().all(|row| row.len() == order));
    let identity = json["identity"].as_u64().unwrap();
    let p_portion: Vec<u64> = serde_json::from_value(json["p_portion"].clone()).unwrap();
    let heaps: Vec<u64> = serde_json::from_value(json["heaps"].clone()).unwrap();
    assert_eq!(heaps.len(), 101);
    let kayles = OctalGame::kayles();
    let mut search =
        MisereSearch::new(|heap: &u64| Ok(kayles.heap_options(*heap)), 5_000_000, &grundy::control::Control::default());
    // Deterministic pseudo-random sums of at most 30 pins.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..400 {
        let mut sum = Vec::new();
        let mut total = 0;
        for _ in 0..4 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let heap = state % 20;
            if total + heap <= 30 {
                sum.push(heap);
                total += heap;
            }
        }
        let element = sum.iter().fold(identity, |x, &heap| product[x as usize][heaps[heap as usize] as usize]);
        let predicted = if p_portion.contains(&element) { Outcome::P } else { Outcome::N };
        assert_eq!(predicted, search.outcome(&sum).unwrap(), "{sum:?}");
    }
}

/// `--max-order` stops cleanly: the proved quotient of the heaps done on stdout, the reason on
/// stderr in one line, exit status 2; with `--json`, one document saying so.
#[test]
fn max_order_prints_what_was_proved() {
    let run = grundy(&["quotient", "kayles", "--to", "100", "--max-order", "10"]);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stdout.starts_with("kayles: misère quotient of the sums of heaps 0..4\norder 6\n"), "{}", run.stdout);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("past the limit of 10") && run.stderr.contains("heaps 0..4 is printed"),
        "{}",
        run.stderr
    );
    let run = grundy(&["quotient", "kayles", "--to", "100", "--max-order", "10", "--json"]);
    assert_eq!(run.status, 2);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["complete"], false);
    assert_eq!(json["to"], 4);
    assert!(json["error"]["message"].as_str().unwrap().contains("past the limit of 10"));
}

/// Without `--max-order` memory decides how large a quotient may grow: octal 0.642's quotient of
/// heaps 0..14 has order 2248, past the fixed limit of 2000 it once had, and fits the default
/// memory; 16 MiB hold the tables of order 1448 (√(16 MiB / 8 bytes)) and stop it.
#[test]
fn memory_decides_the_largest_order() {
    let text = ok(&["quotient", "octal:0.642", "--to", "14"]);
    assert!(text.contains("\norder 2248\n"), "{text}");
    let run = grundy(&["--memory-limit", "16M", "quotient", "octal:0.642", "--to", "14"]);
    assert_eq!(run.status, 2, "{}", run.stderr);
    assert!(run.stderr.contains("past the limit of 1448"), "{}", run.stderr);
}

/// `--check` compares with exhaustive search; the pretending function and P-portion words.
#[test]
fn check_and_pretending_function() {
    let text = ok(&["quotient", "octal:0.75", "--to", "8", "--check"]);
    assert!(text.contains("pretending function (heaps 0..8): 1 a b a b c b c b\n"), "{text}");
    assert!(text.contains("check: 300 random sums agree with exhaustive misère search"), "{text}");
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["quotient", "octal:0.75", "--to", "20", "--check", "--json"])).unwrap();
    assert_eq!(json["complete"], true);
    assert_eq!(json["check"]["disagreement"], serde_json::Value::Null);
    assert_eq!(json["check"]["agreed"].as_u64().unwrap() + json["check"]["skipped"].as_u64().unwrap(), 300);
    assert_eq!(json["p_portion_words"], serde_json::json!(["a", "b^2"]));
    assert_eq!(json["pretending_function"][1], "a");
}

#[test]
fn genus_of_nim_and_dawson() {
    assert_eq!(
        ok(&["genus", "nim", "--to", "3"]),
        "nim: genus of heaps 0..3 (misère play)\n0 0^120 tame\n1 1^031 tame\n2 2^20 tame\n3 3^31 tame\n\
         every heap 0..3 is tame: a sum of them is P iff, read as misère Nim with each heap's normal value, Bouton's rule says so\n"
    );
    let json: serde_json::Value = serde_json::from_str(&ok(&["genus", "dawson", "--to", "12", "--json"])).unwrap();
    assert_eq!(json["heaps"][4]["genus"], "2^20");
    assert_eq!(json["all_tame"], false);
}

#[test]
fn bad_input_is_one_line() {
    assert!(fails(&["quotient", "wythoff", "--to", "3"]).contains("not a heap game"));
    assert!(fails(&["genus", "chess", "--to", "3"]).contains("chess"));
    assert!(fails(&["quotient", "kayles", "--to", "99999999"]).contains("99999999"));
    assert!(fails(&["genus", "kayles", "--to", "-3"]).contains("-3"));
}
