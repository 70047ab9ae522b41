//! `grundy guess TEMPLATE --over NAME=A..B`: a family's formula, its status, bad input, and
//! the emitted code (Python, C++98 and C++17) run against grundy itself on random parameters
//! and positions up to 10^18.

use crate::common::{grundy, grundy_with_stdin};
use grundy::random::SplitMix64;
use std::path::Path;
use std::process::{Command, Stdio};

#[test]
fn bash_family_is_found_and_proved() {
    let run = grundy(&["guess", "bash:{m}", "--over", "m=1..30"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let first = run.stdout.lines().next().unwrap();
    assert_eq!(first, "bash:{m}, m = 1..30: G(n) = n mod (m + 1)");
    assert!(run.stdout.contains("proved: Bash's game"), "{}", run.stdout);
    assert!(run.stdout.contains("checked on the 7 held out"), "{}", run.stdout);
    assert!(run.stdout.contains("  bash:4 (held out): G(n) = n mod 5; proved"), "{}", run.stdout);

    let run = grundy(&["guess", "bash:{m}", "--over", "m=1..30", "--json"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let pattern = &json["pattern"];
    assert_eq!(pattern["kind"], "family");
    assert_eq!(pattern["parameters"][0]["name"], "m");
    assert_eq!(pattern["status"], "proved");
    assert_eq!(pattern["values"]["cycle_form"], "remainder");
    assert_eq!(pattern["values"]["period"]["coefficients"], serde_json::json!([1]));
    assert_eq!(pattern["values"]["period"]["constant"], 1);
    assert_eq!(pattern["instances"].as_array().unwrap().len(), 30);
    assert_eq!(pattern["instances"][3]["held_out"], true);
    assert_eq!(pattern["instances"][3]["pattern"]["period"], 5);
    assert_eq!(pattern["beyond"].as_array().unwrap().len(), 3);
}

#[test]
fn two_parameter_subtraction_family() {
    let run = grundy(&["guess", "sub:{a},{b}", "--over", "a=1..6", "--over", "b=7..12", "--json"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let values = &json["pattern"]["values"];
    assert_eq!(values["cycle_form"], "blocks");
    assert_eq!(values["period"]["text"], "a + b");
    assert_eq!(values["width"]["text"], "a");
    assert_eq!(values["tail_from"]["text"], "b");
    assert_eq!(values["tail_value"], 2);
    assert_eq!(json["pattern"]["status"], "proved");
}

#[test]
fn bad_families_are_refused_in_one_line() {
    for (args, says) in [
        (&["guess", "sub:{a},{c}", "--over", "a=1..3"][..], "has no --over c=A..B"),
        (&["guess", "bash:{m}", "--over", "m=1..3", "--over", "k=1..2"][..], "--over k=… is used nowhere"),
        (&["guess", "bash:{m}", "--over", "m=5..3"][..], "is empty"),
        (&["guess", "sub:{a},{b}", "--over", "a=1..100", "--over", "b=1..100"][..], "more than 400"),
        (&["guess", "bash:{m", "--over", "m=1..3"][..], "not closed"),
        (&["guess", "bash:{m}", "--over", "m"][..], "write NAME=A..B"),
        (&["guess", "bash:{m}"][..], "has no --over m=A..B"),
        (&["guess", "bash:{m}", "--over", "m=0..3"][..], "bash:0"),
    ] {
        let run = grundy(args);
        assert_eq!(run.status, 2, "{args:?}: {}", run.stdout);
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
    }
    let run = grundy(&["guess", "sub:{a}", "--over", "a=1..3", "--over", "a=4..5", "--json"]);
    assert_eq!(run.status, 2);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(
        json["error"].as_str().unwrap_or_default().contains("twice") || run.stderr.contains("twice"),
        "{}",
        run.stdout
    );
}

/// A script reads its parameter through `{k}` in its source: the subtraction game of the powers
/// of k, whose values are n mod 2 for odd k and, for even k, r mod 2 except 2 at r = k,
/// r = n mod (k + 1).
#[test]
fn scripts_read_their_parameters() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("powers.star");
    std::fs::write(
        &script,
        "K = {k}\n\ndef moves(n):\n    result = []\n    p = 1\n    for _ in range(64):\n        if p > n:\n            break\n        \
         result.append(n - p)\n        p = p * K\n    return result\n",
    )
    .unwrap();
    let game = format!("script:{}", script.display());
    let run = grundy(&["guess", &game, "--over", "k=2..9", "--to", "100", "--json"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let pattern = &json["pattern"];
    assert_eq!(pattern["status"], "checked", "{}", run.stdout);
    assert_eq!(pattern["values"]["period"]["text"], "k + 1", "{}", run.stdout);
    assert_eq!(pattern["values"]["tail_from"]["text"], "k", "{}", run.stdout);
    assert!(pattern["instances"][0]["game"].as_str().unwrap().ends_with("(k = 2)"));
    let unused = grundy(&["guess", &game, "--over", "k=2..4", "--over", "j=1..2"]);
    assert_eq!(unused.status, 2);
    assert!(unused.stderr.contains("in the game text or in the script"), "{}", unused.stderr);
}

/// The emitted code's answers for lines `n p1 p2 …`, one per line.
fn run_with_stdin(command: &mut Command, input: &str) -> Vec<String> {
    use std::io::Write;
    let mut child = command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap().lines().map(str::to_owned).collect()
}

/// What grundy says for each `(parameters, n)`: `grundy value GAME` at each point.
fn truth(template: &str, names: &[&str], cases: &[(Vec<u64>, u64)]) -> Vec<String> {
    cases
        .iter()
        .map(|(point, n)| {
            let mut game = template.to_owned();
            for (name, value) in names.iter().zip(point) {
                game = game.replace(&format!("{{{name}}}"), &value.to_string());
            }
            let run = grundy_with_stdin(&["value", &game], &format!("{n}\n"));
            assert_eq!(run.status, 0, "{game} {n}: {}", run.stderr);
            run.stdout.trim().to_owned()
        })
        .collect()
}

/// Compiles with every warning an error, but C++98's one about `long long` itself: the code
/// uses `unsigned long long`, which C++98 compilers (and judges) take as an extension.
fn compile(source: &Path, binary: &Path, standard: &str) {
    let output = Command::new("g++")
        .args([&format!("-std={standard}"), "-pedantic", "-Wall", "-Wno-long-long", "-Werror", "-O1", "-o"])
        .arg(binary)
        .arg(source)
        .output()
        .unwrap();
    assert!(output.status.success(), "g++ -std={standard}: {}", String::from_utf8_lossy(&output.stderr));
}

/// The family's emitted Python and C++ (98 and 17) agree with grundy on `cases`.
fn check_emitted(args: &[&str], names: &[&str], cases: &[(Vec<u64>, u64)], dir: &Path) {
    let template = args[1];
    let expected = truth(template, names, cases);
    let input: String = cases
        .iter()
        .map(|(point, n)| format!("{n} {}\n", point.iter().map(u64::to_string).collect::<Vec<_>>().join(" ")))
        .collect();
    let python = grundy(&[args, &["--emit", "python"]].concat());
    assert_eq!(python.status, 0, "{args:?}: {}", python.stderr);
    assert!(!python.stdout.to_lowercase().contains("seed"));
    std::fs::write(dir.join("family.py"), &python.stdout).unwrap();
    let driver = format!(
        "import sys\nsys.path.insert(0, {dir:?})\nimport family\nfor line in sys.stdin:\n    \
         args = [int(w) for w in line.split()]\n    print(family.grundy_value(*args))\n",
        dir = dir.display().to_string()
    );
    assert_eq!(run_with_stdin(Command::new("python3").arg("-c").arg(driver), &input), expected, "{args:?} (Python)");

    let cpp = grundy(&[args, &["--emit", "cpp"]].concat());
    assert_eq!(cpp.status, 0, "{args:?}: {}", cpp.stderr);
    let parameters: Vec<String> = (0..names.len()).map(|i| format!("p[{i}]")).collect();
    let source = format!(
        "{}\n#include <iostream>\nint main() {{\n    unsigned long long n, p[4];\n    while (std::cin >> n) {{\n        \
         for (int i = 0; i < {count}; ++i) std::cin >> p[i];\n        std::cout << grundy_value(n, {parameters}) << '\\n';\n    }}\n    \
         return 0;\n}}\n",
        cpp.stdout,
        count = names.len(),
        parameters = parameters.join(", ")
    );
    let path = dir.join("family.cpp");
    std::fs::write(&path, source).unwrap();
    for standard in ["c++98", "c++17"] {
        let binary = dir.join(format!("family-{standard}"));
        compile(&path, &binary, standard);
        assert_eq!(run_with_stdin(&mut Command::new(&binary), &input), expected, "{args:?} ({standard})");
    }
}

/// Random positions, small and up to 10^18.
fn positions(draw: &mut SplitMix64) -> Vec<u64> {
    let mut positions: Vec<u64> = (0..6).map(|_| draw.below(200)).collect();
    positions.extend([10u64.pow(18), 10u64.pow(18) - 1, draw.below(10u64.pow(18)), draw.below(1 << 40)]);
    positions
}

#[test]
fn emitted_family_code_agrees_with_grundy_on_random_parameters() {
    let dir = tempfile::tempdir().unwrap();
    let mut draw = SplitMix64::new(20261127);
    // Bash: any m ≥ 1, inside the range and far past it.
    let mut cases = Vec::new();
    for _ in 0..6 {
        let m = 1 + draw.below(1000);
        cases.extend(positions(&mut draw).into_iter().map(|n| (vec![m], n)));
    }
    check_emitted(&["guess", "bash:{m}", "--over", "m=1..30"], &["m"], &cases, dir.path());

    // Two-element subtraction sets, a < b (the theorem's domain).
    let mut cases = Vec::new();
    for _ in 0..6 {
        let a = 1 + draw.below(40);
        let b = a + 1 + draw.below(60);
        cases.extend(positions(&mut draw).into_iter().map(|n| (vec![a, b], n)));
    }
    check_emitted(&["guess", "sub:{a},{b}", "--over", "a=1..6", "--over", "b=7..12"], &["a", "b"], &cases, dir.path());

    // Contest set-Nim with one parameter: S = {1, k}.
    let mut cases = Vec::new();
    for _ in 0..5 {
        let k = 2 + draw.below(100);
        cases.extend(positions(&mut draw).into_iter().map(|n| (vec![k], n)));
    }
    check_emitted(&["guess", "sub:1,{k}", "--over", "k=2..20"], &["k"], &cases, dir.path());

    // Codeforces 1194D's S = {1, 2, k}: cases on k mod 3, k up to 10^9 (grundy answers those
    // by the same theorem, without a table).
    let mut cases = Vec::new();
    let drawn: Vec<u64> = (0..4).map(|_| 1 + draw.below(3000)).collect();
    for k in [1, 2, 3, 4, 6, 9, 999_999_999, 1_000_000_000].into_iter().chain(drawn) {
        cases.extend(positions(&mut draw).into_iter().map(|n| (vec![k], n)));
    }
    check_emitted(&["guess", "sub:1,2,{k}", "--over", "k=1..30"], &["k"], &cases, dir.path());
}

/// A family with no formula across it: the code is its definition, solved by the window
/// argument, and exact far out.
#[test]
fn a_family_without_a_formula_emits_its_solver() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["guess", "sub:{a},{b},{c}", "--over", "a=1..3", "--over", "b=4..6", "--over", "c=7..9"];
    let run = grundy(&args);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stdout.contains("no formula for the values across the family"), "{}", run.stdout);
    let cpp = grundy(&[&args[..], &["--emit", "cpp"]].concat());
    assert!(cpp.stdout.contains("this is its definition, solved"), "{}", cpp.stdout);
    let mut draw = SplitMix64::new(7);
    let mut cases = Vec::new();
    for _ in 0..6 {
        let a = 1 + draw.below(10);
        let b = a + 1 + draw.below(15);
        let c = b + 1 + draw.below(20);
        cases.extend(positions(&mut draw).into_iter().map(|n| (vec![a, b, c], n)));
    }
    check_emitted(&args, &["a", "b", "c"], &cases, dir.path());
    // No formula (octal:0.37 has no pattern up to the default N) and no rules the code could
    // solve: one line, exit 1, no code.
    let octal = grundy(&["guess", "octal:0.{d}7", "--over", "d=1..4", "--emit", "cpp"]);
    assert_eq!(octal.status, 1, "{}", octal.stderr);
    assert_eq!(octal.stderr.lines().count(), 1, "{}", octal.stderr);
    assert!(octal.stderr.contains("nothing to emit"), "{}", octal.stderr);
    assert!(octal.stdout.is_empty());
}
