//! `grundy guess`: the patterns, their status, and the emitted code run against grundy itself.

use crate::common::{grundy, grundy_with_stdin};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::sync::Mutex;

/// Positions to compare at: small ones and some far past any fitted range.
fn positions(grid: bool, first: u64) -> Vec<String> {
    let far = [10u64.pow(18), 10u64.pow(18) - 1, 999_999_999_999_999_937, 123_456_789_012_345_678, 1 << 40];
    if grid {
        let mut pairs: Vec<String> = (0..12).flat_map(|x| (0..12).map(move |y| format!("{x},{y}"))).collect();
        pairs.extend(far.iter().zip(far.iter().rev()).map(|(x, y)| format!("{x},{}", y / 3)));
        // Wythoff's P-positions far out, so that a P-pattern meets some: (⌊nφ⌋, ⌊nφ²⌋), n = 10^17.
        pairs.push("161803398874989484,261803398874989484".to_owned());
        pairs.push("161803398874989484,261803398874989485".to_owned());
        pairs
    } else {
        (first..first + 200).chain(far).map(|n| n.to_string()).collect()
    }
}

/// What `grundy ARGS` with `input` printed (exit status 0), run once in this test process for
/// each arguments and input: the Python and the C++ checks of a game ask the same questions,
/// and a script's guess takes seconds in a test build.
fn printed_once(args: &[&str], input: &str) -> String {
    type Key = (Vec<String>, String);
    static PRINTED: Mutex<BTreeMap<Key, String>> = Mutex::new(BTreeMap::new());
    let key = (args.iter().map(|&arg| arg.to_owned()).collect(), input.to_owned());
    if let Some(printed) = PRINTED.lock().unwrap().get(&key) {
        return printed.clone();
    }
    let run = if input.is_empty() { grundy(args) } else { grundy_with_stdin(args, input) };
    assert_eq!(run.status, 0, "{args:?}: {}", run.stderr);
    PRINTED.lock().unwrap().insert(key, run.stdout.clone());
    run.stdout
}

/// What grundy itself says: each position's value (or, for a P-positions pattern, its outcome).
fn expected(game: &str, positions: &[String], values: bool) -> Vec<String> {
    let command = if values { "value" } else { "outcome" };
    printed_once(&[command, game], &(positions.join("\n") + "\n")).lines().map(str::to_owned).collect()
}

fn emitted(game: &str, language: &str) -> String {
    printed_once(&["guess", game, "--emit", language], "")
}

/// The emitted Python module answers every position as grundy does.
fn check_python(game: &str, positions: &[String], dir: &Path) {
    let module = dir.join("emitted.py");
    std::fs::write(&module, emitted(game, "python")).unwrap();
    let values = emitted(game, "python").contains("def grundy_value");
    let driver = format!(
        "import sys\nsys.path.insert(0, {dir:?})\nimport emitted\nfor line in sys.stdin:\n    args = [int(w) for w in line.strip().split(',')]\n    \
         print(emitted.grundy_value(*args) if {values} else ('P' if emitted.is_p_position(*args) else 'N'))\n",
        dir = dir.display().to_string(),
        values = if values { "True" } else { "False" },
    );
    let output = run_with_stdin(Command::new("python3").arg("-c").arg(driver), &positions.join("\n"));
    assert_eq!(output, expected(game, positions, values), "{game} (Python)");
}

/// Compiles `source` with `g++ -std=c++98 -pedantic -Wall -Werror` and with `-std=c++17`
/// (the same warnings), and returns the C++98 binary.
fn compile_both(source: &Path, dir: &Path, what: &str) -> std::path::PathBuf {
    let mut binaries = Vec::new();
    for standard in ["-std=c++98", "-std=c++17"] {
        let binary = dir.join(format!("emitted{standard}"));
        let compiled = Command::new("g++")
            .args([standard, "-pedantic", "-Wall", "-Wextra", "-Werror", "-O1", "-o"])
            .arg(&binary)
            .arg(source)
            .output()
            .unwrap();
        assert!(compiled.status.success(), "{what} ({standard}): {}", String::from_utf8_lossy(&compiled.stderr));
        binaries.push(binary);
    }
    binaries.swap_remove(0)
}

/// A C++98 `main` reading positions `n` or `x,y` a line and printing what `answer` prints.
fn cpp_driver(code: &str, answer: &str) -> String {
    format!(
        "{code}\n#include <iostream>\n#include <sstream>\n#include <string>\nint main() {{\n    std::string line;\n    \
         while (std::getline(std::cin, line)) {{\n        for (std::string::size_type i = 0; i < line.size(); ++i) \
         if (line[i] == ',') line[i] = ' ';\n        std::istringstream in(line);\n        grundy_u64 a[2] = {{0, 0}};\n        \
         in >> a[0] >> a[1];\n        {answer}\n    }}\n    return 0;\n}}\n"
    )
}

/// The emitted C++ compiles as C++98 and C++17 (pedantic, every warning an error) and answers
/// every position as grundy does.
fn check_cpp(game: &str, grid: bool, positions: &[String], dir: &Path) {
    check_cpp_against(
        game,
        grid,
        positions,
        dir,
        &expected(game, positions, emitted(game, "cpp").contains("grundy_value(")),
    );
}

fn check_cpp_against(game: &str, grid: bool, positions: &[String], dir: &Path, expected: &[String]) {
    let code = emitted(game, "cpp");
    // What C++98 lacks: `auto`, range-for, `>>` closing two templates, 128-bit integers and
    // `long long` literals.
    for word in ["auto ", "__int128", "ULL", ">>&", ">>::", "for (const"] {
        assert!(!code.contains(word), "{game}: the emitted C++ holds `{word}`:\n{code}");
    }
    let values = code.contains("grundy_value(");
    let arguments = if grid { "a[0], a[1]" } else { "a[0]" };
    let answer = if values {
        format!("std::cout << grundy_value({arguments}) << '\\n';")
    } else {
        format!("std::cout << (is_p_position({arguments}) ? 'P' : 'N') << '\\n';")
    };
    let source = dir.join("emitted.cpp");
    std::fs::write(&source, cpp_driver(&code, &answer)).unwrap();
    let binary = compile_both(&source, dir, game);
    let output = run_with_stdin(&mut Command::new(&binary), &positions.join("\n"));
    assert_eq!(output, expected, "{game} (C++)");
}

fn run_with_stdin(command: &mut Command, input: &str) -> Vec<String> {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(format!("{input}\n").as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap().lines().map(str::to_owned).collect()
}

#[test]
fn emitted_code_agrees_with_grundy_far_out() {
    let dir = tempfile::tempdir().unwrap();
    let games: [(&str, bool, u64); 16] = [
        ("nim", false, 0),
        ("bash:3", false, 0),
        ("sub:1,3,4", false, 0),
        ("kayles", false, 0),
        ("dawson", false, 0),
        ("octal:0.156", false, 0),
        ("split-nim", false, 0),
        ("coins:mock-turtles", false, 1),
        ("coins:ruler", false, 1),
        ("coins:twins", false, 1),
        ("coins:turtles", false, 1),
        ("wythoff", true, 0),
        ("corners", true, 0),
        ("product:ruler:mock-turtles", true, 0),
        ("product:mock-turtles:mock-turtles", true, 0),
        ("product:twins:ruler", true, 0),
    ];
    for (game, grid, first) in games {
        let positions = positions(grid, first);
        check_python(game, &positions, dir.path());
        check_cpp(game, grid, &positions, dir.path());
    }
}

/// A table only some rows of which have a pattern: the code answers those rows, far out.
#[test]
fn emitted_rows_agree_with_grundy() {
    let dir = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/guess-corpus/short-diagonal.star");
    let game = format!("script:{}", script.display());
    let run = grundy(&["guess", &game, "--json"]);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["pattern"]["kind"], "rows", "{}", run.stdout);
    let rows = json["pattern"]["rows"].as_array().unwrap().len() as u64;
    // Every covered row near, row 1 further out than the check (the script's own answer is a
    // search over every smaller position), and the mirror images.
    let mut positions: Vec<String> = (0..rows).flat_map(|x| (0..40).map(move |y| format!("{x},{y}"))).collect();
    positions.extend((0..rows).map(|x| format!("{},{x}", 37 + x)));
    positions.push("1,400".to_owned());
    check_python(&game, &positions, dir.path());
    check_cpp(&game, true, &positions, dir.path());
}

#[test]
fn status_is_proved_only_by_a_theorem() {
    let kayles = grundy(&["guess", "kayles", "--json"]);
    assert_eq!(kayles.status, 0, "{}", kayles.stderr);
    let json: serde_json::Value = serde_json::from_str(&kayles.stdout).unwrap();
    assert_eq!(json["pattern"]["kind"], "periodic");
    assert_eq!(json["pattern"]["status"], "proved");
    assert_eq!(json["pattern"]["period"], 12);
    assert_eq!(json["pattern"]["preperiod"], 71);
    let wythoff = grundy(&["guess", "wythoff", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&wythoff.stdout).unwrap();
    assert_eq!(json["pattern"]["kind"], "beatty");
    assert_eq!(json["pattern"]["status"], "proved");
    assert!(json["pattern"]["proof"].as_str().unwrap().contains("Wythoff"), "{json}");
    // The same class for a game no theorem here covers: checked only.
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/guess-corpus/wythoff-2.star");
    let run = grundy(&["guess", &format!("script:{}", script.display()), "--json"]);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["pattern"]["kind"], "beatty", "{json}");
    assert_eq!(json["pattern"]["status"], "checked");
    assert!(json["pattern"]["checked_to"].as_u64().unwrap() > json["pattern"]["fitted_to"].as_u64().unwrap());
}

#[test]
fn no_pattern_is_said_plainly() {
    let run = grundy(&["guess", "grundys-game", "--to", "300"]);
    assert_eq!(run.status, 0);
    assert!(run.stdout.contains("no pattern found up to n = 300"), "{}", run.stdout);
    let json = grundy(&["guess", "grundys-game", "--to", "300", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(json["pattern"]["kind"], "none");
    // --emit with nothing found: one line on stderr, exit 1, nothing on stdout.
    let emit = grundy(&["guess", "grundys-game", "--to", "300", "--emit", "python"]);
    assert_eq!(emit.status, 1);
    assert!(emit.stdout.is_empty());
    assert_eq!(emit.stderr.lines().count(), 1, "{}", emit.stderr);
}

#[test]
fn games_with_nothing_to_guess_are_refused() {
    let graph = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/dag.txt");
    let run = grundy(&["guess", &format!("dag:{}", graph.display())]);
    assert_eq!(run.status, 2);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("no infinite family of positions"), "{}", run.stderr);
    let json = grundy(&["guess", &format!("dag:{}", graph.display()), "--json"]);
    assert_eq!(json.status, 2);
    assert!(json.stdout.contains("\"error\""));
    let few = grundy(&["guess", "nim", "--to", "3"]);
    assert_eq!(few.status, 2);
}

#[test]
fn bounds_too_large_are_refused_at_once() {
    for args in [
        &["guess", "coins:ruler", "--to", "1000000000000"][..],
        &["guess", "wythoff", "--to", "100000"],
        &["guess", "corners", "--to", "5000"],
        &["guess", "kayles", "--to", "1000000000000"],
        &["guess", "nim", "--to", "18446744073709551615"],
    ] {
        let run = grundy(args);
        assert_eq!(run.status, 2, "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
    }
}

/// A script game whose file name holds line breaks and comment ends around code: the emitted
/// Python and C++ keep the name in a comment, so the code only defines the pattern.
#[test]
fn a_game_text_never_becomes_code() {
    let dir = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/games/subtraction.star");
    let names = [
        "a\n__import__(\"os\").system(\"touch INJECTED\")\n#.star",
        "b\r__import__(\"os\").system(\"touch INJECTED\")\r#.star",
        "c\n#error X\n.star",
        // Folders: a file name holds no `/`.
        "d */ int injected = 1; /* \\\n??/\n.star",
        "e coding: utf-7 +AAo-__import__(\"os\").system(\"touch INJECTED\")+AAo-.star",
    ];
    for name in names {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::copy(&script, &path).unwrap();
        let game = format!("script:{}", path.display());
        let python = emitted(&game, "python");
        assert!(!python.lines().any(|line| line.starts_with("__import__")), "{python}");
        std::fs::write(dir.path().join("emitted.py"), &python).unwrap();
        let driver = "import emitted\nprint(*(emitted.grundy_value(n) for n in range(12)))\n";
        let output = Command::new("python3").arg("-c").arg(driver).current_dir(dir.path()).output().unwrap();
        assert!(output.status.success(), "{name:?}: {}", String::from_utf8_lossy(&output.stderr));
        assert!(!dir.path().join("INJECTED").exists(), "{name:?}: the file name ran as code");
        let values: Vec<String> = (0..12).map(|n| n.to_string()).collect();
        let expected = expected(&game, &values, true).join(" ");
        assert_eq!(String::from_utf8(output.stdout).unwrap().trim(), expected, "{name:?}");
        // The C++ compiles (no `#error`, no code outside the comment) and answers the same.
        let cpp = emitted(&game, "cpp");
        let source = dir.path().join("emitted.cpp");
        std::fs::write(
            &source,
            format!(
                "{cpp}\n#include <iostream>\nint main() {{ for (unsigned long long n = 0; n < 12; ++n) \
                 std::cout << grundy_value(n) << (n < 11 ? ' ' : '\\n'); }}\n"
            ),
        )
        .unwrap();
        let binary = dir.path().join("emitted");
        let compiled = Command::new("g++").args(["-std=c++17", "-o"]).arg(&binary).arg(&source).output().unwrap();
        assert!(compiled.status.success(), "{name:?}: {}", String::from_utf8_lossy(&compiled.stderr));
        let output = Command::new(&binary).output().unwrap();
        assert_eq!(String::from_utf8(output.stdout).unwrap().trim(), expected, "{name:?} (C++)");
    }
}

/// The emitted Python's nim-product for numbers of any size: `a ⊗ F = a·F` for `a < F` and
/// `F ⊗ F = 3F/2` for a Fermat 2-power `F = 2^(2^k)`, and the field laws on numbers past
/// 2^64 (the values below it are compared with grundy's own in
/// `emitted_code_agrees_with_grundy_far_out`).
#[test]
fn the_python_nim_product_is_exact_past_64_bits() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("emitted.py"), emitted("corners", "python")).unwrap();
    let driver = r#"
import random
from emitted import grundy_value as mul
random.seed(39)
assert mul(2**64, 2) == 2**65, mul(2**64, 2)
for k in range(7, 10):
    F = 2 ** (2 ** k)
    assert mul(F, F) == 3 * F // 2, k
    for a in (2, 3, 2**63 + 5, F - 1, random.randrange(F)):
        assert mul(a, F) == a * F and mul(F, a) == a * F, (k, a)
for _ in range(20):
    a, b, c = (random.randrange(2**200) for _ in range(3))
    assert mul(a, b) == mul(b, a)
    assert mul(a, b ^ c) == mul(a, b) ^ mul(a, c)
    assert mul(mul(a, b), c) == mul(a, mul(b, c))
print(mul(2**64, 2**64), mul(2**1024, 2**1024) == 3 * 2**1023)
try:
    mul(-1, 2)
    print("answered")
except ValueError:
    print("refused")
"#;
    let output = Command::new("python3").arg("-c").arg(driver).current_dir(dir.path()).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(String::from_utf8(output.stdout).unwrap(), format!("{} True\nrefused\n", 3u128 << 63));
}

/// The emitted C++ and Python of one pattern, on the same positions: the C++ answers what the
/// Python answers wherever that fits in 64 bits, and throws `std::out_of_range` exactly where
/// the Python raises `ValueError` or its value passes 2^64 − 1.
#[test]
fn emitted_cpp_is_exact_or_refuses_past_64_bits() {
    use grundy::guess::grid::{GridPattern, PairForm};
    use grundy::guess::line::{BitForm, LinePattern};
    use grundy::guess::{Found, Guess, Pattern, emit};
    let top = u64::MAX;
    let lines: Vec<LinePattern> = BitForm::ALL
        .iter()
        .flat_map(|&form| {
            (-3..=3).map(move |shift| LinePattern::Bitwise { form, shift, first: 0, start: 0, before: vec![] })
        })
        .chain([
            LinePattern::Periodic { first: 1, start: 3, before: vec![4, 0], cycle: vec![2, 9, 5], saltus: 7 },
            LinePattern::Periodic { first: 0, start: 0, before: vec![], cycle: vec![0, 1], saltus: 2 },
        ])
        .collect();
    let line_positions: Vec<String> =
        [0, 1, 2, 3, 4, 5, 1 << 62, (1 << 63) - 2, (1 << 63) - 1, 1 << 63, (1 << 63) + 1, top - 4, top - 3, top - 2]
            .into_iter()
            .chain([top - 1, top, top / 7 * 3, top / 7 * 3 + 1, top / 7 * 3 + 2])
            .map(|n| n.to_string())
            .collect();
    let grids = [
        GridPattern::Form(PairForm::Sum),
        GridPattern::Beatty { c: 1 },
        GridPattern::Beatty { c: 3 },
        GridPattern::Rows {
            rows: vec![LinePattern::Periodic { first: 0, start: 0, before: vec![], cycle: vec![1, 2], saltus: 3 }],
            symmetric: true,
        },
    ];
    // Pairs: near the top, Beatty pairs near it (the Python module's own a_k, so that some are
    // P-positions), and a pair a 128-bit square that wrapped once answered P.
    let grid_driver_pairs = "
pairs = [(0, 0), (1, 2), (3, 5), (0, 2**64 - 1), (2**64 - 1, 2**64 - 1), (2**63, 2**63), (2**63, 2**63 - 1),
         (4211794410910980518, 4211794410910980518 + 8250000000000000000)]
c = getattr(emitted, 'C', None)
if hasattr(emitted, '_lower'):
    for k in (10**18, 7 * 10**18, 7_046_029_254_386_353_130, 8_250_000_000_000_000_000, 2**64 // 3 - 1):
        for gap in (c * k, c * k + 1):
            x = emitted._lower(gap // c)
            for pair in ((x, x + gap), (x + 1, x + 1 + gap), (x + gap, x)):
                if max(pair) < 2**64:
                    pairs.append(pair)
";
    let mut patterns: Vec<(Pattern, bool)> = lines.into_iter().map(|line| (Pattern::Line(line), false)).collect();
    patterns.extend(grids.into_iter().map(|grid| (Pattern::Grid(grid), true)));
    let dir = tempfile::tempdir().unwrap();
    let mut program = String::from(
        "#include <algorithm>\n#include <cmath>\n#include <iostream>\n#include <stdexcept>\n#include <string>\n\
         #include <utility>\n#include <vector>\n",
    );
    let mut calls = String::new();
    let mut p_answers = 0;
    for (index, (pattern, grid)) in patterns.into_iter().enumerate() {
        let values = pattern.gives_values();
        let guess = Guess {
            game: format!("pattern {index}"),
            grid,
            pattern: Some(Found { pattern: pattern.clone(), proof: None }),
            fitted_to: 10,
            checked_to: 40,
            tried: Vec::new(),
            note: None,
        };
        let python = emit::emit(&guess, emit::Language::Python).unwrap();
        let module = format!("emitted_{index}");
        let c = if let Pattern::Grid(GridPattern::Beatty { c }) = pattern { c } else { 0 };
        std::fs::write(dir.path().join(format!("{module}.py")), format!("{python}\nC = {c}\n")).unwrap();
        // The positions, and the Python's answers: a value, P/N, or `refused`.
        let driver = format!(
            "import {module} as emitted\n{pairs}\npositions = pairs if {grid} else [(n,) for n in ({line_positions})]\n\
             for position in positions:\n    try:\n        answer = emitted.grundy_value(*position) if {values} else \
             ('P' if emitted.is_p_position(*position) else 'N')\n    except ValueError:\n        answer = 'refused'\n    \
             print(' '.join(map(str, position)), answer)\n",
            pairs = if grid { grid_driver_pairs } else { "" },
            grid = if grid { "True" } else { "False" },
            values = if values { "True" } else { "False" },
            line_positions = line_positions.join(", "),
        );
        let output = Command::new("python3").arg("-c").arg(&driver).current_dir(dir.path()).output().unwrap();
        assert!(output.status.success(), "{pattern:?}: {}", String::from_utf8_lossy(&output.stderr));
        let cpp = emit::emit(&guess, emit::Language::Cpp).unwrap();
        let body: String =
            cpp.lines().filter(|line| !line.starts_with("#include")).map(|line| format!("{line}\n")).collect();
        program.push_str(&format!("namespace pattern_{index} {{\n{body}}}\n"));
        for line in String::from_utf8(output.stdout).unwrap().lines() {
            let (position, python_answer) = line.rsplit_once(' ').unwrap();
            let fits = python_answer.parse::<u128>().map_or(true, |value| value <= u128::from(top));
            let expected = if fits { python_answer } else { "refused" };
            p_answers += usize::from(expected == "P");
            let arguments = position.split(' ').map(|n| format!("{n}ULL")).collect::<Vec<_>>().join(", ");
            let call = if values {
                format!("std::to_string(pattern_{index}::grundy_value({arguments}))")
            } else {
                format!("std::string(pattern_{index}::is_p_position({arguments}) ? \"P\" : \"N\")")
            };
            calls.push_str(&format!(
                "    try {{ check({call}, \"{expected}\", \"{index}: {position}\"); }} \
                 catch (const std::out_of_range&) {{ check(\"refused\", \"{expected}\", \"{index}: {position}\"); }}\n"
            ));
        }
    }
    assert!(p_answers >= 4, "some Beatty pairs near the top are P-positions");
    program.push_str(&format!(
        "int failures = 0;\nvoid check(const std::string& found, const std::string& expected, const char* where) {{\n    \
         if (found != expected) {{ ++failures; std::cout << where << \": \" << found << \", expected \" << expected << '\\n'; }}\n}}\n\
         int main() {{\n{calls}    return failures > 0;\n}}\n"
    ));
    let source = dir.path().join("patterns.cpp");
    std::fs::write(&source, &program).unwrap();
    let binary = dir.path().join("patterns");
    let compiled = Command::new("g++").args(["-std=c++17", "-O1", "-o"]).arg(&binary).arg(&source).output().unwrap();
    assert!(compiled.status.success(), "{}", String::from_utf8_lossy(&compiled.stderr));
    let run = Command::new(&binary).output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stdout));
}

fn corpus(name: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/guess-corpus").join(name);
    format!("script:{}", script.display())
}

fn json_of(args: &[&str]) -> serde_json::Value {
    let run = grundy(args);
    assert_eq!(run.status, 0, "{args:?}: {}", run.stderr);
    serde_json::from_str(&run.stdout).unwrap()
}

/// Where `period` proves a period, `guess` reports the same, proved.
#[test]
fn guess_reports_what_the_period_prover_proves() {
    for game in ["octal:0.156", "octal:0.127", "sub:97,263", "sub:10,25,34,39"] {
        let period = json_of(&["period", game, "--json"]);
        let guess = json_of(&["guess", game, "--json"]);
        assert_eq!(guess["pattern"]["status"], "proved", "{game}: {guess}");
        assert_eq!(guess["pattern"]["period"], period["period"], "{game}");
        assert_eq!(guess["pattern"]["preperiod"], period["preperiod"], "{game}");
    }
    let text = grundy(&["guess", "octal:0.156"]);
    assert!(text.stdout.contains("G(n + 349) = G(n) for n ≥ 3479"), "{}", text.stdout);
    assert!(text.stdout.contains("proved: the periodicity theorem"), "{}", text.stdout);
}

/// `--to` bounds the work: a slow script fitted to 8 is checked to 32, not to its default
/// bound; `--check-to` sets the check exactly.
#[test]
fn the_check_follows_to_and_check_to() {
    let game = corpus("slow-subtraction.star");
    let started = std::time::Instant::now();
    let json = json_of(&["guess", &game, "--to", "8", "--json"]);
    assert_eq!(json["pattern"]["checked_to"], 32, "{json}");
    assert_eq!(json["pattern"]["formula"], "G(n) = n mod 3");
    assert!(started.elapsed().as_secs() < 30);
    let json = json_of(&["guess", &game, "--to", "8", "--check-to", "50", "--json"]);
    assert_eq!(json["pattern"]["checked_to"], 50, "{json}");
    let json = json_of(&["guess", "kayles", "--to", "100", "--check-to", "200", "--json"]);
    assert_eq!(json["pattern"]["status"], "proved", "the prover is not bounded by the check: {json}");
    let below = grundy(&["guess", "nim", "--to", "100", "--check-to", "50"]);
    assert_eq!(below.status, 2);
    assert_eq!(below.stderr.lines().count(), 1, "{}", below.stderr);
    assert!(below.stderr.contains("--check-to 50"), "{}", below.stderr);
}

/// A coin rule whose values grow costly: fitted where it answers, checked as far as its tables
/// go, never refused outright.
#[test]
fn costly_coin_rules_are_checked_as_far_as_they_go() {
    let run = grundy(&["guess", "coins:turn=1..4", "--to", "50"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stdout.contains("coins:turn=1..4"), "{}", run.stdout);
}

/// AcWing 894 as a script: O(n²) options a heap, answered within the budget, the odious
/// numbers after G(0) = 0. The divisor game: v₂(n) after G(0) = 0.
#[test]
fn bitwise_patterns_after_exceptions_are_found_in_scripts() {
    let started = std::time::Instant::now();
    let json = json_of(&["guess", &corpus("split-nim.star"), "--json"]);
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
    assert_eq!(json["pattern"]["kind"], "bitwise", "{json}");
    assert_eq!(json["pattern"]["form"], "odious");
    assert_eq!(json["pattern"]["shift"], -1);
    assert_eq!(json["pattern"]["preperiod"], 1);
    assert_eq!(json["pattern"]["before"], serde_json::json!([0]));
    let json = json_of(&["guess", &corpus("divisor.star"), "--json"]);
    assert_eq!(json["pattern"]["form"], "two-adic-valuation", "{json}");
    assert_eq!(json["pattern"]["before"], serde_json::json!([0]));
    // The built-in is proved, and its code is exact far out.
    let json = json_of(&["guess", "split-nim", "--json"]);
    assert_eq!(json["pattern"]["status"], "proved", "{json}");
}

/// Nim with a (1,1) move: G = 3(⌊x/3⌋ xor ⌊y/3⌋) + (x + y) mod 3; the code agrees with the
/// script near 0 and with the formula far out.
#[test]
fn nim_with_a_one_one_move_is_found_and_emitted() {
    let game = corpus("nim-one-one.star");
    let json = json_of(&["guess", &game, "--json"]);
    assert_eq!(json["pattern"]["kind"], "block-xor", "{json}");
    assert_eq!(json["pattern"]["size"], 3);
    assert_eq!(json["pattern"]["block"], serde_json::json!([[0, 1, 2], [1, 2, 0], [2, 0, 1]]));
    let dir = tempfile::tempdir().unwrap();
    let near: Vec<String> = (0..15).flat_map(|x| (0..15).map(move |y| format!("{x},{y}"))).collect();
    check_python(&game, &near, dir.path());
    check_cpp(&game, true, &near, dir.path());
    let far: Vec<(u64, u64)> =
        vec![(10u64.pow(18), 7), (999_999_999_999_999_937, 123_456_789_012_345_678), (1 << 40, 5)];
    let positions: Vec<String> = far.iter().map(|(x, y)| format!("{x},{y}")).collect();
    let formula: Vec<String> = far
        .iter()
        .map(|&(x, y)| (3 * u128::from((x / 3) ^ (y / 3)) + u128::from((x % 3 + y % 3) % 3)).to_string())
        .collect();
    check_cpp_against(&game, true, &positions, dir.path(), &formula);
}

/// The JSON of separable and rows patterns holds the lines as data.
#[test]
fn json_of_table_patterns_holds_the_lines_as_data() {
    let json = json_of(&["guess", "product:ruler:mock-turtles", "--json"]);
    assert_eq!(json["pattern"]["kind"], "product-of-lines");
    assert_eq!(json["pattern"]["row_pattern"]["form"], "lowest-bit", "{json}");
    assert_eq!(json["pattern"]["column_pattern"]["form"], "odious", "{json}");
    assert!(json["pattern"]["proof"].as_str().unwrap().contains("Tartan"), "{json}");
    let json = json_of(&["guess", &corpus("take3-either.star"), "--json"]);
    assert_eq!(json["pattern"]["kind"], "xor-of-lines", "{json}");
    assert_eq!(json["pattern"]["row_pattern"]["cycle"], serde_json::json!([0, 1, 2, 3]), "{json}");
    let json = json_of(&["guess", &corpus("short-diagonal.star"), "--json"]);
    let rows = json["pattern"]["row_patterns"].as_array().unwrap();
    assert!(rows.len() >= 2 && rows.iter().all(|row| row["cycle"].is_array()), "{json}");
}

/// The emitted nim-product (a table of byte products) makes a million products fast.
#[test]
fn the_emitted_nim_product_is_fast() {
    let dir = tempfile::tempdir().unwrap();
    let code = emitted("corners", "cpp");
    let source = dir.path().join("many.cpp");
    std::fs::write(
        &source,
        format!(
            "{code}\n#include <iostream>\nint main() {{\n    grundy_u64 a = 88172645463325252U, total = 0;\n    \
             for (int i = 0; i < 1000000; ++i) {{\n        a ^= a << 13; a ^= a >> 7; a ^= a << 17;\n        \
             total ^= grundy_value(a, a >> 3);\n    }}\n    std::cout << total << '\\n';\n    return 0;\n}}\n"
        ),
    )
    .unwrap();
    let binary = compile_both(&source, dir.path(), "a million nim-products");
    let started = std::time::Instant::now();
    let output = Command::new(&binary).output().unwrap();
    assert!(output.status.success());
    assert!(started.elapsed().as_secs_f64() < 5.0, "{:?}", started.elapsed());
}

/// E&D (Luogu P2148) and kiki's game (HDU 2147) written as scripts, as a contestant would:
/// `guess` finds the lowest-0-bit form and the P-positions periodic in both coordinates,
/// checked, not proved (no theorem covers a script), and the emitted Python and C++ answer as
/// the built-in families `e-and-d` and `king` (proved in their modules) do, far out.
#[test]
fn e_and_d_and_kikis_game_as_scripts_emit_what_the_families_answer() {
    let dir = tempfile::tempdir().unwrap();
    let e_and_d = dir.path().join("ed.star");
    std::fs::write(
        &e_and_d,
        "def moves(p):\n    a, b = p\n    if a < 1 or b < 1:\n        return []\n    \
         return [(c, b - c) for c in range(1, b)] + [(c, a - c) for c in range(1, a)]\n",
    )
    .unwrap();
    let kiki = dir.path().join("kiki.star");
    std::fs::write(
        &kiki,
        "def moves(p):\n    n, m = p\n    if n < 1 or m < 1:\n        return []\n    out = []\n    \
         if m > 1:\n        out.append((n, m - 1))\n    if n > 1:\n        out.append((n - 1, m))\n    \
         if n > 1 and m > 1:\n        out.append((n - 1, m - 1))\n    return out\n",
    )
    .unwrap();
    let far = [10u64.pow(18), 10u64.pow(18) - 1, 999_999_999_999_999_937, 123_456_789_012_345_678, 1 << 40];
    let mut positions: Vec<String> = (1..14).flat_map(|x| (1..14).map(move |y| format!("{x},{y}"))).collect();
    positions.extend(far.iter().zip(far.iter().rev()).map(|(x, y)| format!("{x},{}", y / 3)));
    for (script, family, formula, values) in [
        (&e_and_d, "e-and-d", "G(x, y) = the index of the lowest 0 bit of (x − 1) | (y − 1), for x, y ≥ 1", true),
        (&kiki, "king", "P-positions for x, y ≥ 1: (x mod 2, y mod 2) is (1, 1)", false),
    ] {
        let game = format!("script:{}", script.display());
        let guessed = printed_once(&["guess", &game], "");
        assert!(guessed.contains(formula) && guessed.contains("checked (not proved)"), "{guessed}");
        let command = if values { "value" } else { "outcome" };
        let expected: Vec<String> =
            printed_once(&[command, family], &(positions.join("\n") + "\n")).lines().map(str::to_owned).collect();
        // Python.
        let module = dir.path().join("emitted.py");
        std::fs::write(&module, emitted(&game, "python")).unwrap();
        let driver = format!(
            "import sys\nsys.path.insert(0, {dir:?})\nimport emitted\nfor line in sys.stdin:\n    \
             args = [int(w) for w in line.strip().split(',')]\n    \
             print(emitted.grundy_value(*args) if {values} else ('P' if emitted.is_p_position(*args) else 'N'))\n",
            dir = dir.path().display().to_string(),
            values = if values { "True" } else { "False" },
        );
        let output = run_with_stdin(Command::new("python3").arg("-c").arg(driver), &positions.join("\n"));
        assert_eq!(output, expected, "{family} (Python)");
        // C++98 and C++17.
        check_cpp_against(&game, true, &positions, dir.path(), &expected);
    }
}

/// The built-in families `e-and-d`, `king` and `euclid` are tabulated: E&D's lowest-0-bit form
/// and the corner king's P-positions (both odd) are proved by the theorems of their modules,
/// Euclid's rows only checked; the emitted Python and C++ answer as grundy does, far out, on
/// random pairs of every size.
#[test]
fn built_in_games_on_pairs_are_guessed_and_their_code_agrees() {
    let dir = tempfile::tempdir().unwrap();
    let mut random = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        random ^= random << 13;
        random ^= random >> 7;
        random ^= random << 17;
        random
    };
    let mut positions: Vec<String> = (1..14).flat_map(|x| (1..14).map(move |y| format!("{x},{y}"))).collect();
    for _ in 0..200 {
        let bits = 1 + next() % 64;
        let (x, y) = (next() >> (64 - bits), next() >> (64 - bits));
        positions.push(format!("{},{}", x.max(1), y.max(1)));
    }
    for (game, formula, status) in [
        (
            "e-and-d",
            "G(x, y) = the index of the lowest 0 bit of (x − 1) | (y − 1), for x, y ≥ 1",
            "proved: the lowest-0-bit theorem for E&D",
        ),
        (
            "king",
            "P-positions for x, y ≥ 1: (x mod 2, y mod 2) is (1, 1)",
            "proved: the corner king's theorem (HDU 2147",
        ),
    ] {
        let guessed = printed_once(&["guess", game], "");
        assert!(guessed.contains(formula) && guessed.contains(status), "{guessed}");
        check_python(game, &positions, dir.path());
        check_cpp(game, true, &positions, dir.path());
    }
    let euclid = json_of(&["guess", "euclid", "--json"]);
    assert_eq!(euclid["pattern"]["kind"], "rows", "{euclid}");
    assert_eq!(euclid["pattern"]["status"], "checked", "{euclid}");
    let rows = euclid["pattern"]["rows"].as_array().unwrap().len() as u64;
    let mut near: Vec<String> = (0..rows).flat_map(|x| (0..60).map(move |y| format!("{x},{y}"))).collect();
    near.extend((0..rows).map(|x| format!("{},{x}", 57 + x)));
    near.extend((0..rows).map(|x| format!("{x},{}", 10u64.pow(18) + x * 7919)));
    check_python("euclid", &near, dir.path());
    check_cpp("euclid", true, &near, dir.path());
}
