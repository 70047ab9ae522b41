//! Issue 30, runs that do not stop and JSON and messages: each case failed before its fix.

use crate::common::{grundy, grundy_with_stdin};
use std::io::Write;

/// Parses stdout as exactly one JSON document.
fn one_document(stdout: &str) -> serde_json::Value {
    serde_json::from_str(stdout).unwrap_or_else(|error| panic!("not one JSON document ({error}): {stdout}"))
}

/// Every command that takes `--json` prints a JSON error object on stdout for an error, and
/// stdout stays one valid JSON document.
#[test]
fn every_json_command_reports_errors_as_json() {
    let missing = tempfile::tempdir().unwrap();
    let database = missing.path().join("none.sqlite");
    let database = database.to_str().unwrap();
    let cases: &[&[&str]] = &[
        &["value", "--json", "foo", "3"],
        &["outcome", "--json", "nim", "x"],
        &["moves", "--json", "nim", "x"],
        &["rules", "--json", "foo"],
        &["table", "--json", "foo"],
        &["sequence", "--json", "foo", "--to", "3"],
        &["period", "--json", "foo"],
        &["stats", "--json", "foo", "--to", "3"],
        &["genus", "--json", "nim", "--to", "100000"],
        &["quotient", "--json", "foo", "--to", "3"],
        &["census", "report", "--db", database, "--format", "json"],
    ];
    for args in cases {
        let run = grundy(args);
        assert_eq!(run.status, 2, "{args:?}: {}", run.stderr);
        let document = one_document(&run.stdout);
        assert!(document["error"]["message"].is_string(), "{args:?}: {}", run.stdout);
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
    }
}

/// An error after the list of moves has begun closes the list and gives the object an
/// `"error"` key: one valid document, the error once on stderr.
#[test]
fn an_error_after_json_output_began_still_closes_the_document() {
    // A sum with more options than `--all` lists: the error comes from inside the list.
    let heaps: Vec<String> = (0..1100).map(|_| "1000".to_owned()).collect();
    let mut args = vec!["moves", "--json", "--all", "nim"];
    args.extend(heaps.iter().map(String::as_str));
    let run = grundy(&args);
    assert_eq!(run.status, 2, "{}", run.stderr);
    let document = one_document(&run.stdout);
    assert_eq!(document["game"], "nim");
    assert!(document["options"].is_array(), "{}", run.stdout);
    assert_eq!(document["error"]["kind"], "too_many_moves", "{}", run.stdout);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);

    // The same from standard input: one document a line, the bad one closed with its error.
    let line = heaps.join(" ");
    let run = grundy_with_stdin(&["moves", "--json", "--all", "nim"], &format!("1 2\n{line}\n3\n"));
    assert_eq!(run.status, 2, "{}", run.stderr);
    let documents: Vec<serde_json::Value> = run.stdout.lines().map(one_document).collect();
    assert_eq!(documents.len(), 3, "{}", run.stdout);
    assert!(documents[1]["error"].is_object() && documents[2]["options"].is_array(), "{}", run.stdout);
}

/// `stats`' two big counts are strings of digits: a 301-digit JSON number is refused or
/// rounded by most readers.
#[test]
fn stats_big_counts_are_strings() {
    let run = grundy(&["stats", "--json", "nim", "--to", "1023", "--heaps", "100"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let document = one_document(&run.stdout);
    let total = document["total"].as_str().expect("a string");
    assert_eq!(total, num_bigint::BigUint::from(1024u32).pow(100).to_string());
    assert!(document["p_positions"].is_string());
}

/// `--memory-limit` past 16 EiB is refused; one past `ulimit -v` is lowered to it, so a table
/// too big for the process is refused up front naming the real limit, not the flag's.
#[test]
fn memory_limit_messages_name_the_real_limit() {
    let run = grundy(&["value", "--memory-limit", "99999999999999999999T", "nim", "3"]);
    assert_eq!(run.status, 2, "{}", run.stdout);
    assert!(run.stderr.contains("more than 16 EiB"), "{}", run.stderr);

    let binary = env!("CARGO_BIN_EXE_grundy");
    let output = std::process::Command::new("bash")
        .arg("-c")
        .arg(format!("ulimit -v 2000000; exec {binary} table wythoff --size 60000 --memory-limit 100G"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(!stderr.contains("100.0 GiB allowed"), "{stderr}");
    assert!(stderr.contains("GiB allowed") || stderr.contains("MiB allowed"), "{stderr}");
}

/// `check` on a game whose components are not heaps says so, not "bad position `0`".
#[test]
fn check_names_a_game_without_heaps() {
    let run = grundy(&["check", "wythoff", "--formula", "0", "--to", "5"]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("`wythoff` is not a heap game") && run.stderr.contains("pairs"), "{}", run.stderr);
}

/// Writes a graph file into a fresh directory: its `geography:` word.
fn graph_file(name: &str, edges: impl Iterator<Item = String>) -> (tempfile::TempDir, String) {
    let directory = tempfile::tempdir().unwrap();
    let path = directory.path().join(name);
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    for edge in edges {
        writeln!(file, "{edge}").unwrap();
    }
    file.flush().unwrap();
    (directory, format!("geography:{}", path.display()))
}

/// The winning moves from a star's hub come from the matching classification in one pass (the
/// move per classification took minutes on 3·10^4 leaves): every leaf wins.
#[test]
fn geography_moves_from_a_large_star_hub() {
    let leaves = 100_000;
    let (_directory, star) = graph_file("star.txt", (0..leaves).map(|leaf| format!("hub l{leaf}")));
    let run = grundy(&["moves", &star, "hub"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.stdout.lines().count(), leaves);
    assert!(run.stdout.starts_with("hub,l0  # "), "{}", &run.stdout[..200]);
    // From a leaf: one move, to the hub, which loses (the hub then has every other leaf).
    let run = grundy(&["moves", &star, "l5"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "");

    // A complete graph on an even number of vertices: every vertex is in every maximum
    // matching, and every move wins (what is left is complete on an odd number).
    let n = 300;
    let (_directory, complete) =
        graph_file("complete.txt", (0..n).flat_map(|u| (u + 1..n).map(move |v| format!("v{u} v{v}"))));
    let run = grundy(&["moves", &complete, "v0"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_eq!(run.stdout.lines().count(), n - 1);
}

/// `hint` in `play` finds moves as `moves` does: a large geography board gets the matching
/// rule's move instead of ending the game for want of an exhaustive value.
#[test]
fn play_hint_on_a_large_geography_board() {
    let side = 30;
    let edges = (0..side).flat_map(|r| {
        (0..side).flat_map(move |c| {
            let mut edges = Vec::new();
            if c + 1 < side {
                edges.push(format!("r{r}c{c} r{r}c{}", c + 1));
            }
            if r + 1 < side {
                edges.push(format!("r{r}c{c} r{}c{c}", r + 1));
            }
            edges
        })
    });
    let (_directory, grid) = graph_file("grid.txt", edges);
    let run = grundy_with_stdin(&["play", &grid, "r0c0"], "hint\nquit\n");
    assert_eq!(run.status, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("outcome N: you can win, e.g. with `r0c0 -> "), "{}", run.stdout);
}

/// A position whose components together pass the move limit names the whole position, not
/// the component that happened to cross it (`2` has two moves).
#[test]
fn too_many_moves_names_the_whole_position() {
    let run = grundy(&["moves", "--all", "nim", "999999", "2"]);
    assert_eq!(run.status, 2, "{}", run.stdout);
    assert!(run.stderr.contains("`999999 2` in nim has more than 1000000 moves"), "{}", run.stderr);
}

/// A checkpoint refused as damaged leaves no `FILE.lock` behind.
#[test]
fn a_refused_checkpoint_leaves_no_lock() {
    let directory = tempfile::tempdir().unwrap();
    let checkpoint = directory.path().join("x.ck");
    std::fs::write(&checkpoint, "not a checkpoint\n").unwrap();
    let run = grundy(&["sequence", "kayles", "--to", "100", "--checkpoint", checkpoint.to_str().unwrap()]);
    assert_eq!(run.status, 2, "{}", run.stdout);
    assert!(run.stderr.contains("x.ck"), "{}", run.stderr);
    assert!(!directory.path().join("x.ck.lock").exists(), "the lock is left behind");
}

/// A memory cap too small for the worker to start is refused naming the smallest that works,
/// instead of a worker "killed by signal 11".
#[test]
fn a_memory_cap_too_small_to_start_is_refused() {
    let run = grundy(&["value", "nim", "3", "--memory-cap", "1"]);
    assert_eq!(run.status, 2, "{}", run.stdout);
    assert!(run.stderr.contains("at least 64 MiB"), "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}

/// A script position with more options than are listed is refused by the worker as soon as it
/// has the list, before formatting and valuing millions of options (which ran out of memory).
#[test]
fn a_script_position_with_too_many_options_is_refused_early() {
    let directory = tempfile::tempdir().unwrap();
    let path = directory.path().join("many.star");
    std::fs::write(&path, "def moves(n):\n    return [0] * 1500000 if n == 1 else []\n").unwrap();
    let run = grundy(&["moves", "--all", &format!("script:{}", path.display()), "1"]);
    assert_eq!(run.status, 2, "{}", run.stdout);
    assert!(run.stderr.contains("has more than 1000000 moves: too many to list"), "{}", run.stderr);
}

/// `moves --all --offset K --count C` is the slice K..K + C of `moves --all`'s options, judged
/// alone, with `options_total` and `offset`; a page past the end is empty.
#[test]
fn a_page_of_options_is_the_slice_of_all_of_them() {
    for words in [vec!["nim", "7", "5"], vec!["kayles", "9"], vec!["nim", "3", "+", "sub:2,5", "9"]] {
        let all = one_document(&grundy(&[&["--json", "moves", "--all"][..], &words].concat()).stdout);
        let options = all["options"].as_array().unwrap();
        for (offset, count) in [(0usize, 3usize), (2, 4), (options.len() - 1, 40), (options.len() + 5, 2)] {
            let (k, c) = (offset.to_string(), count.to_string());
            let args = [&["--json", "moves", "--all", "--offset", &k, "--count", &c][..], &words].concat();
            let page = one_document(&grundy(&args).stdout);
            let start = offset.min(options.len());
            let end = (offset + count).min(options.len());
            assert_eq!(page["options"].as_array().unwrap()[..], options[start..end], "{words:?} {offset} {count}");
            assert_eq!(page["options_total"], options.len(), "{words:?}");
            assert_eq!(page["offset"], start);
            assert_eq!((&page["value"], &page["outcome"]), (&all["value"], &all["outcome"]));
        }
    }
    let text = grundy(&["moves", "--all", "--offset", "1", "--count", "1", "nim", "3"]);
    assert_eq!(text.stdout, "1  # heap 1: 3 -> 1; value 1; answered by 0 (1 -> 0)\n");
    let refused = grundy(&["moves", "--offset", "1", "nim", "3"]);
    assert_eq!(refused.status, 2);
    assert!(refused.stderr.contains("--all"), "{}", refused.stderr);
}
