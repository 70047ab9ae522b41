//! grundy's example files (scripts and graph files), built in: `grundy rules --write-examples`
//! writes them out, and a missing file of one of their names gets an error saying how.

/// The example files, built into grundy so that every example runs from any directory: the
/// scripts of `examples/games/` and the graphs of the CLI's tests.
pub const EXAMPLE_FILES: &[(&str, &str)] = &[
    ("kayles.star", include_str!("../../../examples/games/kayles.star")),
    ("loopy.star", include_str!("../../../examples/games/loopy.star")),
    ("subtraction.star", include_str!("../../../examples/games/subtraction.star")),
    ("take-134-or-halve.star", include_str!("../../../examples/games/take-134-or-halve.star")),
    ("words.star", include_str!("../../../examples/games/words.star")),
    ("wythoff.star", include_str!("../../../examples/games/wythoff.star")),
    ("dag.txt", include_str!("../tests/data/dag.txt")),
    ("loopy.txt", include_str!("../tests/data/loopy.txt")),
    // README's `grundy plot dag:graph.txt -o graph.svg`: a graph with N, P and D vertices.
    ("graph.txt", include_str!("../tests/data/loopy.txt")),
    ("grid4.txt", include_str!("../tests/data/grid4.txt")),
    ("grid5.txt", include_str!("../tests/data/grid5.txt")),
    ("path4.txt", include_str!("../tests/data/path4.txt")),
    ("triangle.txt", include_str!("../tests/data/triangle.txt")),
    // The solutions README's `grundy check --program` examples judge.
    ("set-nim.cpp", include_str!("../../../examples/check/set-nim.cpp")),
    ("brave-game-wrong.awk", include_str!("../../../examples/check/brave-game-wrong.awk")),
];

/// Whether `name` is the name of one of grundy's example files (a missing one's error says
/// how to write them).
pub fn is_example_file(name: &str) -> bool {
    EXAMPLE_FILES.iter().any(|(example, _)| *example == name)
}
