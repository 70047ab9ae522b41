//! A family's emitted code under hostile parameter names: keywords of Python and C++, builtins
//! the code calls (`int`, `divmod`, `sorted`), the emitted function's own variables (`r`,
//! `period`, `moves`, `n`), names of the other parameters, and names no parser accepts (any
//! Unicode, quotes, line breaks), which a library user can still put in a `FamilyGuess`. For
//! each, the Python module and the C++ (C++98, pedantic) are run and every value compared with
//! the definition: the mex over the game's own options. Skipped where `python3` or `g++` is
//! not installed.

use grundy::control::Control;
use grundy::guess::emit::Language;
use grundy::guess::family::{FamilyGuess, guess_family};
use grundy::guess::family_emit::emit_family;
use grundy::guess::template::{ParameterRange, Template};
use grundy::heap::{AsHeapGame, sequence_by_definition};
use grundy::random::SplitMix64;
use grundy::registry::parse_game;
use grundy::ruleset::Ruleset;
use proptest::prelude::*;
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, OnceLock};

/// Names every emitted language must survive.
const HOSTILE: &[&str] = &[
    // Python keywords and soft keywords.
    "False",
    "None",
    "True",
    "and",
    "as",
    "assert",
    "async",
    "await",
    "break",
    "class",
    "continue",
    "def",
    "del",
    "elif",
    "else",
    "except",
    "finally",
    "for",
    "from",
    "global",
    "if",
    "import",
    "in",
    "is",
    "lambda",
    "nonlocal",
    "not",
    "or",
    "pass",
    "raise",
    "return",
    "try",
    "while",
    "with",
    "yield",
    "match",
    "case",
    "type",
    "_",
    // Builtins the code calls, and others.
    "int",
    "divmod",
    "sorted",
    "set",
    "tuple",
    "min",
    "max",
    "abs",
    "bin",
    "len",
    "range",
    "isqrt",
    "ValueError",
    "print",
    "sum",
    "list",
    "object",
    "math",
    // C++ keywords, macros and names of the standard library.
    "auto",
    "bool",
    "char",
    "const",
    "default",
    "delete",
    "do",
    "double",
    "enum",
    "explicit",
    "extern",
    "float",
    "friend",
    "goto",
    "inline",
    "long",
    "mutable",
    "namespace",
    "new",
    "operator",
    "private",
    "protected",
    "public",
    "register",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "template",
    "this",
    "throw",
    "typedef",
    "typename",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "xor",
    "bitand",
    "compl",
    "and_eq",
    "constexpr",
    "nullptr",
    "std",
    "main",
    "NULL",
    "EOF",
    "size_t",
    "errno",
    "assert",
    "INT_MAX",
    // The emitted code's own names.
    "n",
    "x",
    "y",
    "r",
    "q",
    "m",
    "c",
    "k",
    "g",
    "i",
    "s",
    "v",
    "period",
    "laps",
    "saltus",
    "width",
    "gap",
    "moves",
    "values",
    "start",
    "options",
    "seen",
    "window",
    "found",
    "items",
    "sequence",
    "shift",
    "before",
    "cycle",
    "known",
    "present",
    "top",
    "hash",
    "base",
    "hit",
    "here",
    "solved",
    "modulus",
    "grundy_value",
    "is_p_position",
    "grundy_solve",
    "grundy_sequence",
    "grundy_popcount",
    "grundy_u64",
    "_SOLVED",
    "_sequence",
    "_lower",
    // What the renaming itself writes.
    "param_a",
    "param1",
    "param2",
    "param_",
    "param__a",
    "__a",
    "_A",
    "a__b",
];

/// One family of the test: its template over `a`, `b`, `c`, its ranges, and a drawer of points
/// inside the domain of any theorem its code states.
struct Base {
    template: &'static str,
    over: &'static [&'static str],
    point: fn(&mut SplitMix64) -> Vec<u64>,
}

const BASES: &[Base] = &[
    // Bash's game: a proved remainder.
    Base { template: "bash:{a}", over: &["a=1..8"], point: |draw| vec![1 + draw.below(60)] },
    // The issue's case, `sub:1,{r}`: the two-element theorem, a block form with a tail.
    Base { template: "sub:1,{a}", over: &["a=2..8"], point: |draw| vec![2 + draw.below(60)] },
    Base {
        template: "sub:{a},{b}",
        over: &["a=1..3", "b=4..6"],
        point: |draw| {
            let a = 1 + draw.below(20);
            vec![a, a + 1 + draw.below(30)]
        },
    },
    // Linear forms of the parameters in the items.
    Base {
        template: "sub:{a},{a+b}",
        over: &["a=1..3", "b=1..3"],
        point: |draw| vec![1 + draw.below(20), 1 + draw.below(20)],
    },
    // A fitted formula, checked, not proved: G(n) = ⌊n/a⌋ mod 2.
    Base { template: "sub:{a}", over: &["a=1..8"], point: |draw| vec![1 + draw.below(40)] },
    // No formula across the family: the definition, solved.
    Base {
        template: "sub:{a},{b},{c}",
        over: &["a=1..3", "b=4..6", "c=7..9"],
        point: |draw| vec![1 + draw.below(12), 1 + draw.below(20), 1 + draw.below(30)],
    },
];

/// Each base's guess, made once (with plain names: a guess does not depend on them).
fn guessed() -> &'static Vec<(FamilyGuess, Template)> {
    static GUESSED: OnceLock<Vec<(FamilyGuess, Template)>> = OnceLock::new();
    GUESSED.get_or_init(|| {
        BASES
            .iter()
            .map(|base| {
                let parameters: Vec<ParameterRange> =
                    base.over.iter().map(|range| ParameterRange::parse(range).unwrap()).collect();
                let names: Vec<String> = parameters.iter().map(|range| range.name.clone()).collect();
                let template = Template::parse(base.template, &names).unwrap();
                let mut build = |point: &[u64]| -> Result<(String, Arc<dyn Ruleset>), grundy::error::GameError> {
                    let text = template.fill(point)?;
                    let game = parse_game(&text)?;
                    Ok((text, game))
                };
                let family = guess_family(&template, &parameters, &mut build, Some(200), &Control::default()).unwrap();
                (family, template)
            })
            .collect()
    })
}

/// The family of base `index` with its parameters named `names` (the template's text too: it
/// stands in the code's first comment).
fn renamed(index: usize, names: &[String]) -> FamilyGuess {
    let (family, _) = &guessed()[index];
    let mut family = family.clone();
    for (parameter, name) in family.parameters.iter_mut().zip(names) {
        family.template = family.template.replace(&format!("{{{}}}", parameter.name), &format!("{{{name}}}"));
        parameter.name = name.clone();
    }
    family
}

/// The first values of the game of base `index` at `point`, by the definition.
fn truth(index: usize, point: &[u64], len: u64) -> Vec<u64> {
    let (_, template) = &guessed()[index];
    let game = parse_game(&template.fill(point).unwrap()).unwrap();
    sequence_by_definition(&*game.heap_game().unwrap(), len)
}

/// Whether `program --version` runs.
fn available(program: &str) -> bool {
    Command::new(program).arg("--version").output().is_ok_and(|output| output.status.success())
}

const HEAPS: u64 = 70;

/// One case: a base, its names, and the points its code is asked about.
#[derive(Clone, Debug)]
struct Case {
    base: usize,
    names: Vec<String>,
    points: Vec<Vec<u64>>,
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(HOSTILE).prop_map(str::to_owned),
        2 => "[A-Za-z_][A-Za-z0-9_]{0,7}",
        1 => "\\PC{1,6}",
        1 => proptest::collection::vec(any::<char>(), 1..5).prop_map(|chars| chars.into_iter().collect()),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    (0..BASES.len(), proptest::collection::vec(name(), 3), any::<u64>()).prop_map(|(base, names, seed)| {
        let mut draw = SplitMix64::new(seed);
        let points = (0..3).map(|_| (BASES[base].point)(&mut draw)).collect();
        let count = BASES[base].over.len();
        Case { base, names: names.into_iter().take(count).collect(), points }
    })
}

/// Every case's Python module, run in one interpreter: each point's first values.
fn python_values(cases: &[Case], dir: &Path) -> Result<Vec<Vec<Vec<u64>>>, String> {
    let mut driver = String::from("import importlib.util, sys\n");
    for (k, case) in cases.iter().enumerate() {
        let code = emit_family(&renamed(case.base, &case.names), &guessed()[case.base].1, Language::Python)?;
        let path = dir.join(format!("case_{k}.py"));
        std::fs::write(&path, code).unwrap();
        driver.push_str(&format!(
            "spec = importlib.util.spec_from_file_location('case_{k}', {path:?})\nmodule = importlib.util.module_from_spec(spec)\n\
             spec.loader.exec_module(module)\n",
            path = path.display().to_string()
        ));
        for point in &case.points {
            let arguments: Vec<String> = point.iter().map(u64::to_string).collect();
            driver.push_str(&format!(
                "print(' '.join(str(module.grundy_value(n, {})) for n in range({HEAPS})))\n",
                arguments.join(", ")
            ));
        }
    }
    let output = Command::new("python3").arg("-c").arg(&driver).output().unwrap();
    if !output.status.success() {
        return Err(format!("python3: {}", String::from_utf8_lossy(&output.stderr)));
    }
    Ok(read_values(&String::from_utf8_lossy(&output.stdout), cases))
}

/// Every case's C++ in one translation unit, each file in a namespace of its own (its
/// `#include`s first), compiled as C++98 with every warning an error: each point's values.
fn cpp_values(cases: &[Case], dir: &Path) -> Result<Vec<Vec<Vec<u64>>>, String> {
    let mut includes = String::from("#include <iostream>\n");
    let mut bodies = String::new();
    let mut main = String::from("int main() {\n");
    for (k, case) in cases.iter().enumerate() {
        let code = emit_family(&renamed(case.base, &case.names), &guessed()[case.base].1, Language::Cpp)?;
        bodies.push_str(&format!("namespace case_{k} {{\n"));
        for line in code.lines() {
            if line.starts_with("#include") {
                includes.push_str(line);
                includes.push('\n');
            } else {
                bodies.push_str(line);
                bodies.push('\n');
            }
        }
        bodies.push_str("}\n");
        for point in &case.points {
            let arguments: Vec<String> = point.iter().map(|p| format!("{p}ULL")).collect();
            main.push_str(&format!(
                "    for (unsigned long long n = 0; n < {HEAPS}ULL; ++n) std::cout << case_{k}::grundy_value(n, {}) << (n + 1 < {HEAPS}ULL ? ' ' : '\\n');\n",
                arguments.join(", ")
            ));
        }
    }
    main.push_str("    return 0;\n}\n");
    let source = dir.join("cases.cpp");
    std::fs::write(&source, format!("{includes}{bodies}{main}")).unwrap();
    let binary = dir.join("cases");
    let compiled = Command::new("g++")
        .args(["-std=c++98", "-pedantic", "-Wall", "-Wno-long-long", "-Werror", "-O0", "-o"])
        .arg(&binary)
        .arg(&source)
        .output()
        .unwrap();
    if !compiled.status.success() {
        return Err(format!("g++: {}", String::from_utf8_lossy(&compiled.stderr)));
    }
    let output = Command::new(&binary).output().unwrap();
    if !output.status.success() {
        return Err(format!("the C++ program: {}", String::from_utf8_lossy(&output.stderr)));
    }
    Ok(read_values(&String::from_utf8_lossy(&output.stdout), cases))
}

fn read_values(text: &str, cases: &[Case]) -> Vec<Vec<Vec<u64>>> {
    let mut lines = text.lines();
    cases
        .iter()
        .map(|case| {
            case.points
                .iter()
                .map(|_| lines.next().unwrap_or_default().split_whitespace().map(|w| w.parse().unwrap()).collect())
                .collect()
        })
        .collect()
}

fn check_against_the_definition(cases: &[Case], found: &[Vec<Vec<u64>>], language: &str) -> Result<(), TestCaseError> {
    for (case, values) in cases.iter().zip(found) {
        for (point, values) in case.points.iter().zip(values) {
            prop_assert_eq!(
                values,
                &truth(case.base, point, HEAPS),
                "{} {} with names {:?} at {:?}",
                language,
                BASES[case.base].template,
                case.names,
                point
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    /// Hundreds of emitted families a run, every value the definition's.
    #[test]
    fn emitted_code_under_hostile_names_gives_the_rules_values(cases in proptest::collection::vec(case(), 40)) {
        let dir = tempfile::tempdir().unwrap();
        if available("python3") {
            let found = python_values(&cases, dir.path()).map_err(TestCaseError::fail)?;
            check_against_the_definition(&cases, &found, "Python")?;
        } else {
            eprintln!("python3 is not available: skipping the emitted Python");
        }
        if available("g++") {
            let found = cpp_values(&cases, dir.path()).map_err(TestCaseError::fail)?;
            check_against_the_definition(&cases, &found, "C++")?;
        } else {
            eprintln!("g++ is not available: skipping the emitted C++");
        }
    }
}

/// Every hostile name on its own, each as a whole file compiled alone (no namespace around
/// it): the names of the code are the file's own.
#[test]
fn every_hostile_name_alone_compiles_and_agrees() {
    let dir = tempfile::tempdir().unwrap();
    let cases: Vec<Case> = HOSTILE
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let base = i % BASES.len();
            let mut draw = SplitMix64::new(i as u64);
            let names = [name.to_string(), format!("{name}2"), format!("{name}_")]
                .into_iter()
                .take(BASES[base].over.len())
                .collect();
            Case { base, names, points: (0..2).map(|_| (BASES[base].point)(&mut draw)).collect() }
        })
        .collect();
    if available("python3") {
        let found = python_values(&cases, dir.path()).unwrap();
        check_against_the_definition(&cases, &found, "Python").unwrap();
    }
    if available("g++") {
        for case in cases.iter().take(BASES.len() * 2) {
            let code = emit_family(&renamed(case.base, &case.names), &guessed()[case.base].1, Language::Cpp).unwrap();
            let path = dir.path().join("alone.cpp");
            std::fs::write(&path, code).unwrap();
            let compiled = Command::new("g++")
                .args(["-std=c++98", "-pedantic", "-Wall", "-Wno-long-long", "-Werror", "-fsyntax-only"])
                .arg(&path)
                .output()
                .unwrap();
            assert!(compiled.status.success(), "{case:?}: {}", String::from_utf8_lossy(&compiled.stderr));
        }
    }
}

/// The parser takes ASCII names only: a Unicode one is refused in one line, before any game.
#[test]
fn a_unicode_name_is_refused_by_the_parser() {
    for range in ["é=1..3", "名=1..3", "a\u{202e}=1..3"] {
        let error = ParameterRange::parse(range).unwrap_err().to_string();
        assert!(error.contains("the name must be a letter"), "{range}: {error}");
    }
}
