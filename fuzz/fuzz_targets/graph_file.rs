//! Any graph file, in either layout, as `dag:` and `geography:` games.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let _ = grundy::graph::digraph::EdgeList::parse_with_layout(text, "fuzz.txt");
    let _ = grundy::graph::digraph::layout_note(text, "fuzz.txt");
    for family in ["dag", "geography"] {
        let read = |_: &str| Ok(text.to_owned());
        if let Ok(game) = grundy::registry::parse_game_with(&format!("{family}:fuzz.txt"), &read) {
            // Tables of small graphs only: exhaustive geography search is exponential.
            if text.len() < 200 {
                let _ = game.table(None);
            }
        }
    }
});
