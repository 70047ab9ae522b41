//! `dag:FILE` and `geography:FILE` through the command line: exact stdout, stderr and exit codes.

use std::process::Command;

/// Runs `grundy` from the package directory; returns (stdout, stderr, exit code).
fn grundy(args: &[&str]) -> (String, String, i32) {
    let output = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
        output.status.code().expect("an exit code"),
    )
}

fn stdout_of(args: &[&str]) -> String {
    let (stdout, stderr, code) = grundy(args);
    assert_eq!(code, 0, "{args:?}: {stderr}");
    stdout
}

fn json_of(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&stdout_of(args)).expect("one JSON object")
}

#[test]
fn dag_values_sums_and_moves() {
    assert_eq!(stdout_of(&["value", "dag:tests/data/dag.txt", "a"]), "2\n");
    assert_eq!(stdout_of(&["value", "dag:tests/data/dag.txt", "a", "b", "b"]), "2\n");
    assert_eq!(stdout_of(&["value", "dag:tests/data/dag.txt", "a", "c"]), "3\n");
    assert_eq!(stdout_of(&["outcome", "dag:tests/data/dag.txt", "b", "d"]), "P\n");
    assert_eq!(
        stdout_of(&["moves", "dag:tests/data/dag.txt", "a", "b"]),
        "b b  # token 1: a -> b; its value 2 -> 0 makes the nim-sum 2 -> 0, a P-position\n"
    );
    let moves = json_of(&["moves", "--json", "dag:tests/data/dag.txt", "a"]);
    assert_eq!(moves["value"], "2");
    assert_eq!(moves["moves"][0]["component"], 1);
    assert_eq!(moves["moves"][0]["to"], serde_json::json!(["b"]));
    assert_eq!(moves["moves"][0]["move"], "a -> b");
}

#[test]
fn dag_table_text_and_json() {
    assert_eq!(stdout_of(&["table", "dag:tests/data/dag.txt"]), "a 2 N\nb 0 P\nc 1 N\nd 0 P\n");
    let table = json_of(&["table", "--json", "dag:tests/data/dag.txt"]);
    assert_eq!(
        table["vertices"],
        serde_json::json!([
            {"name": "a", "value": "2", "outcome": "N"},
            {"name": "b", "value": "0", "outcome": "P"},
            {"name": "c", "value": "1", "outcome": "N"},
            {"name": "d", "value": "0", "outcome": "P"},
        ])
    );
}

#[test]
fn loopy_graph_values_draws_and_infinite_json() {
    assert_eq!(
        stdout_of(&["table", "dag:tests/data/loopy.txt"]),
        "x 1 N\ny 0 P\nz 2 N\nw 0 P\np ∞() D\nq ∞() D\nr ∞(0) N\ns ∞(0,2) N\n"
    );
    let table = json_of(&["table", "--json", "dag:tests/data/loopy.txt"]);
    let s = &table["vertices"][7];
    assert_eq!(s["name"], "s");
    assert_eq!(s["value"], serde_json::Value::Null);
    assert_eq!(s["infinite"], serde_json::json!([0, 2]));
    assert_eq!(s["outcome"], "N");
    assert_eq!(table["vertices"][4]["outcome"], "D");
    assert_eq!(table["vertices"][4]["value"], serde_json::Value::Null);

    assert_eq!(stdout_of(&["value", "dag:tests/data/loopy.txt", "s"]), "∞(0,2)\n");
    let value = json_of(&["value", "--json", "dag:tests/data/loopy.txt", "s"]);
    assert_eq!(value["value"], serde_json::Value::Null);
    assert_eq!(value["infinite"], serde_json::json!([0, 2]));
    assert_eq!(value["outcome"], "N");
    let draw = json_of(&["value", "--json", "dag:tests/data/loopy.txt", "p"]);
    assert_eq!(
        draw,
        serde_json::json!({"game": "dag:tests/data/loopy.txt", "position": ["p"], "value": null, "infinite": [], "outcome": "D"})
    );
    // s + x: ∞(0,2) ⊕ 1 = ∞(1,3), a draw; two ∞ tokens: a draw.
    assert_eq!(stdout_of(&["value", "dag:tests/data/loopy.txt", "s", "x"]), "∞(1,3)\n");
    assert_eq!(stdout_of(&["outcome", "dag:tests/data/loopy.txt", "s", "x"]), "D\n");
    assert_eq!(stdout_of(&["outcome", "dag:tests/data/loopy.txt", "r", "s"]), "D\n");
    let outcome = json_of(&["outcome", "--json", "dag:tests/data/loopy.txt", "p"]);
    assert_eq!(outcome["outcome"], "D");
    // ∞(0) + a P token: escape to the sink.
    assert_eq!(
        stdout_of(&["moves", "dag:tests/data/loopy.txt", "r", "y"]),
        "w y  # token 1: r -> w; its value ∞(0) -> 0, the nim-sum of the other components: all finite with nim-sum 0, a P-position\n"
    );
    let (stdout, stderr, code) = grundy(&["moves", "dag:tests/data/loopy.txt", "p"]);
    assert_eq!((stdout.as_str(), code), ("", 0));
    assert!(stderr.starts_with("no winning move: this is a draw (D)"), "{stderr}");
}

#[test]
fn geography_outcomes_moves_and_table() {
    assert_eq!(stdout_of(&["outcome", "geography:tests/data/grid4.txt", "r0c0"]), "N\n");
    assert_eq!(stdout_of(&["outcome", "geography:tests/data/grid5.txt", "r0c0"]), "P\n");
    assert_eq!(stdout_of(&["outcome", "geography:tests/data/path4.txt", "a"]), "N\n");
    assert_eq!(stdout_of(&["outcome", "geography:tests/data/path4.txt", "a,b"]), "P\n");
    assert_eq!(stdout_of(&["outcome", "geography:tests/data/path4.txt", "a,b,c"]), "N\n");
    let moves = stdout_of(&["moves", "geography:tests/data/path4.txt", "a"]);
    // Path a-b-c-d from a: moving to b leaves c-d, a maximum matching that misses b.
    assert_eq!(
        moves,
        "a,b  # token 1: a -> b; value 1 -> 0, some maximum matching of the vertices left misses b, a P-position (answer every move with the mate of the vertex entered)\n"
    );
    let moves = json_of(&["moves", "--json", "geography:tests/data/path4.txt", "c,b"]);
    assert_eq!(moves["moves"][0]["to"], serde_json::json!(["c,b,a"]));
    assert_eq!(moves["value"], "1");
    let (stdout, stderr, code) = grundy(&["moves", "geography:tests/data/grid5.txt", "r0c0"]);
    assert_eq!((stdout.as_str(), code), ("", 0));
    assert!(stderr.contains("P-position"), "{stderr}");

    assert_eq!(
        stdout_of(&["table", "geography:tests/data/triangle.txt"]),
        "a - N\nb - N\nc - N\nd - N\nx - P\ny - P\nz - P\n"
    );
    let table = json_of(&["table", "--json", "geography:tests/data/triangle.txt"]);
    assert_eq!(table["vertices"][0], serde_json::json!({"name": "a", "value": null, "outcome": "N"}));
    assert_eq!(table["vertices"][6], serde_json::json!({"name": "z", "value": null, "outcome": "P"}));
}

#[test]
fn geography_values_by_exhaustive_search_only() {
    assert_eq!(stdout_of(&["value", "geography:tests/data/path4.txt", "b"]), "2\n");
    assert_eq!(stdout_of(&["value", "geography:tests/data/grid4.txt", "r0c0"]), "1\n");
}

#[test]
fn bad_files_and_positions_are_one_line_exit_2() {
    for (args, expected) in [
        (
            vec!["outcome", "dag:tests/data/bad.txt", "a"],
            "grundy: error: bad game `dag:tests/data/bad.txt`: tests/data/bad.txt:3: expected an edge `u v` (two vertex names), found 3 words: `a b c`\n",
        ),
        (
            vec!["table", "geography:tests/data/bad.txt"],
            "grundy: error: bad game `geography:tests/data/bad.txt`: tests/data/bad.txt:3: expected an edge `u v` (two vertex names), found 3 words: `a b c`\n",
        ),
        (
            vec!["value", "dag:tests/data/dag.txt", "zz"],
            "grundy: error: bad position `zz` for dag:tests/data/dag.txt: no vertex `zz` in tests/data/dag.txt\n",
        ),
        (
            vec!["outcome", "geography:tests/data/path4.txt", "a,c"],
            "grundy: error: bad position `a,c` for geography:tests/data/path4.txt: `a` and `c` are not adjacent in tests/data/path4.txt\n",
        ),
        (vec!["value", "dag:", "a"], "grundy: error: bad game `dag:`: missing parameters: write `dag:FILE`\n"),
    ] {
        let (stdout, stderr, code) = grundy(&args);
        assert_eq!((stdout.as_str(), stderr.as_str(), code), ("", expected, 2), "{args:?}");
    }
    let (stdout, stderr, code) = grundy(&["value", "dag:tests/data/missing.txt", "a"]);
    assert_eq!((stdout.as_str(), code), ("", 2));
    assert!(
        stderr
            .starts_with("grundy: error: bad game `dag:tests/data/missing.txt`: cannot read `tests/data/missing.txt`")
    );
    assert_eq!(stderr.lines().count(), 1);
}

/// Geography has one token: two would share the visited vertices, which is not a sum of games
/// (README, *Graph games*); separate boards are written as a sum with `+`.
#[test]
fn geography_refuses_two_tokens() {
    let (_, stderr, code) = grundy(&["outcome", "geography:tests/data/path4.txt", "a", "c"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("one token"), "{stderr}");
    let (stdout, stderr, code) =
        grundy(&["outcome", "geography:tests/data/path4.txt", "a", "+", "geography:tests/data/path4.txt", "d"]);
    // a-b-c-d: from either end the token walks the path, three moves, value 1: 1 xor 1 = 0.
    assert_eq!((stdout.as_str(), code), ("P\n", 0), "{stderr}");
}

#[test]
fn graph_games_plot_and_play() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    for (game, file) in [("dag:tests/data/loopy.txt", "loopy.svg"), ("geography:tests/data/grid4.txt", "grid4.svg")] {
        let path = dir.join(file);
        let (_, stderr, code) = grundy(&["plot", game, "-o", path.to_str().unwrap()]);
        assert_eq!(code, 0, "{stderr}");
        assert!(std::fs::read_to_string(&path).unwrap().contains("<svg"));
    }
    // Play geography from a: the person moves to b (the matching move), grundy must answer c,
    // the only move, and the person wins with d.
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["play", "geography:tests/data/path4.txt", "a"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(b"a -> b\nc -> d\n").unwrap();
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains("grundy: b -> c"), "{stdout}");
    assert!(stdout.contains("token 1: on d; visited: a, b, c, d"), "{stdout}");
    assert!(stdout.trim_end().ends_with("grundy has no move: you win!"), "{stdout}");
}
