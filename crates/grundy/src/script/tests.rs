use super::*;
use crate::control::Control;
use crate::graph::digraph::Digraph;
use crate::graph::loopy::GeneralizedGrundy;
use crate::heap::AsHeapGame;
use crate::heap::octal::OctalGame;
use crate::heap::subtraction::SubtractionGame;
use crate::heap::{HeapGame, HeapSum};
use crate::solve::memo::Solver;
use crate::value::Value;
use crate::view::Views;
use proptest::prelude::*;

fn load(source: &str) -> ScriptGame {
    ScriptGame::load("test.star", source, ScriptLimits::default()).unwrap()
}

fn load_error(source: &str) -> String {
    ScriptGame::load("test.star", source, ScriptLimits::default()).err().expect("the load fails").to_string()
}

fn int(n: u64) -> ScriptPosition {
    ScriptPosition::Int(n)
}

const KAYLES: &str = "
NAME = 'kayles'
def moves(n):
    return [Sum(a, n - k - a) for k in [1, 2] for a in range(n - k + 1)]
";

#[test]
fn kayles_with_sum_is_the_built_in_kayles_to_heap_1000() {
    let mut solver = ScriptSolver::new(load(KAYLES), 1_000_000);
    let mut expected = crate::heap::CompactSequence::new();
    OctalGame::kayles().extend_sequence(&mut expected, 1001, &Control::default()).unwrap();
    let expected = expected.into_vec();
    for n in 0..=1000u64 {
        assert_eq!(solver.value(&int(n)).unwrap(), Value::from(u64::from(expected[n as usize])), "heap {n}");
    }
    // Each heap expanded once, whatever order the parts were met in.
    assert_eq!(solver.expansions(), 1001);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// A subtraction game written as a script gives the values of the built-in game.
    #[test]
    fn subtraction_scripts_agree_with_the_built_in_game(set in proptest::collection::btree_set(1u64..12, 1..4)) {
        let list: Vec<String> = set.iter().map(u64::to_string).collect();
        let source = format!("def moves(n):\n    return [n - s for s in [{}] if s <= n]\n", list.join(", "));
        let mut solver = ScriptSolver::new(load(&source), 10_000);
        let game = SubtractionGame::new(set.iter().copied().collect()).unwrap();
        let mut reference = Solver::new(HeapSum(&game));
        for n in 0..200u64 {
            let expected = reference.grundy_value(&vec![n]).unwrap().0;
            prop_assert_eq!(solver.value(&int(n)).unwrap(), Value::from(expected));
        }
    }

    /// A loopy script (tokens on a graph given as a dict) gives the values and draws of the
    /// labelling `dag:` uses on the same graph.
    #[test]
    fn loopy_scripts_agree_with_the_dag_labelling(
        edges in (1u32..9).prop_flat_map(|n| proptest::collection::vec((0..n, 0..n), 0..20).prop_map(move |e| (n, e)))
    ) {
        let (count, edges) = edges;
        let graph = Digraph::unnamed(count as usize, &edges);
        let table: Vec<String> = (0..count)
            .map(|v| format!("{v}: [{}]", graph.successors(v).iter().map(u32::to_string).collect::<Vec<_>>().join(", ")))
            .collect();
        let source = format!("EDGES = {{{}}}\ndef moves(v):\n    return EDGES[v]\n", table.join(", "));
        let mut solver = ScriptSolver::new(load(&source), 1000);
        let labels = GeneralizedGrundy::compute(&graph);
        for v in (0..count).rev() {
            prop_assert_eq!(solver.value(&int(u64::from(v))).unwrap(), labels.value(&graph, v));
        }
    }
}

#[test]
fn two_heap_tuples_strings_and_big_heaps() {
    let wythoff = load(
        "def moves(p):
    x, y = p
    return [(a, y) for a in range(x)] + [(x, b) for b in range(y)] + [(x - k, y - k) for k in range(1, min(x, y) + 1)]
",
    );
    let mut solver = ScriptSolver::new(wythoff, 100_000);
    // G(1, 8) = 6 and (4, 7) is a P-position (Wythoff's table, as in `wythoff::Wythoff`'s doctest).
    assert_eq!(solver.value(&ScriptPosition::Tuple(vec![1, 8])).unwrap(), Value::from(6u64));
    assert_eq!(solver.value(&ScriptPosition::Tuple(vec![4, 7])).unwrap(), Value::from(0u64));

    // Strings: remove one letter or one pair of equal neighbours.
    let strings = load(
        "def parse(text):\n    return text\ndef moves(s):\n    return [s[:i] + s[i + 1:] for i in range(len(s))]\n",
    );
    assert_eq!(strings.parse("abc").unwrap(), ScriptPosition::Str("abc".to_owned()));
    let mut solver = ScriptSolver::new(strings, 1000);
    assert_eq!(solver.value(&ScriptPosition::Str("abcd".to_owned())).unwrap(), Value::from(0u64));
    assert_eq!(solver.value(&ScriptPosition::Str("abc".to_owned())).unwrap(), Value::from(1u64));

    // Heaps past 2^64 go in and out exactly.
    let halving = load("def moves(n):\n    return [n // 2] if n > 0 else []\n");
    let big = ScriptPosition::parse_default("100000000000000000000000", "g").unwrap();
    let options = halving.options(&big).unwrap();
    assert_eq!(options, vec![vec![ScriptPosition::parse_default("50000000000000000000000", "g").unwrap()]]);
}

#[test]
fn show_parse_start_name_and_description() {
    let game = load(
        "NAME = 'pairs'\nDESCRIPTION = 'a test'\ndef moves(p):\n    return []\n\
def show(p):\n    return '%d/%d' % (p[0], p[1])\ndef parse(t):\n    return [int(x) for x in t.split('/')]\n\
def start():\n    return Sum((1, 2), (3, 4))\n",
    );
    assert_eq!((game.name(), game.description()), ("pairs", "a test"));
    let position = game.parse("3/4").unwrap();
    assert_eq!(position, ScriptPosition::Tuple(vec![3, 4]));
    assert_eq!(game.format(&position).unwrap(), "3/4");
    assert_eq!(game.start().unwrap(), Some(vec![ScriptPosition::Tuple(vec![1, 2]), position]));
    let error = game.parse("x/1").unwrap_err().to_string();
    assert!(error.contains("bad position `x/1`"), "{error}");
    // Without NAME the file's stem names the game.
    let plain = ScriptGame::load("dir/take-2.star", "def moves(n):\n    return []\n", ScriptLimits::default()).unwrap();
    assert_eq!(plain.name(), "take-2");
    assert_eq!(plain.start().unwrap(), None);
}

#[test]
fn bad_returned_values_are_named_with_the_position() {
    let negative = load("def moves(n):\n    return [n - 3]\n");
    let error = negative.options(&int(1)).unwrap_err().to_string();
    assert!(error.contains("`-2`") && error.contains("negative") && error.contains("position 1"), "{error}");
    let wrong_type = load("def moves(n):\n    return [None]\n");
    let error = wrong_type.options(&int(4)).unwrap_err().to_string();
    assert!(error.contains("`None` of type NoneType") && error.contains("position 4"), "{error}");
    let not_a_list = load("def moves(n):\n    return 7\n");
    let error = not_a_list.options(&int(4)).unwrap_err().to_string();
    assert!(error.contains("not a list of options"), "{error}");
    let float_entry = load("def moves(n):\n    return [(1, 2.5)]\n");
    let error = float_entry.options(&int(4)).unwrap_err().to_string();
    assert!(error.contains("`2.5`"), "{error}");
    let nested_sum = load("def moves(n):\n    return [Sum(1, Sum(1, 2))]\n");
    assert!(nested_sum.options(&int(4)).is_err());
}

#[test]
fn syntax_and_runtime_errors_give_file_line_and_column() {
    let error = load_error("def moves(n):\n    return [n -\n");
    assert!(error.contains("test.star:"), "{error}");
    let error = load_error("X = 1\n");
    assert!(error.contains("no `moves(position)`"), "{error}");
    let error = load_error("NAME = 3\ndef moves(n):\n    return []\n");
    assert!(error.contains("`NAME` must be a string"), "{error}");
    let runtime = load("def moves(n):\n    x = [1]\n    return [x[n]]\n");
    let error = runtime.options(&int(5)).unwrap_err().to_string();
    assert!(error.contains("test.star:3:") && error.contains("position 5"), "{error}");
    assert!(!error.contains('\n'), "{error}");
}

#[test]
fn an_endless_script_is_stopped_by_the_operation_budget() {
    let endless = "def moves(n):\n    for i in range(1000000):\n        for j in range(1000000):\n            pass\n    return []\n";
    let limits = ScriptLimits { max_ops: 100_000, ..ScriptLimits::default() };
    let game = ScriptGame::load("loop.star", endless, limits).unwrap();
    let started = std::time::Instant::now();
    let error = game.options(&int(3)).unwrap_err().to_string();
    assert!(error.contains("budget of 100000 operations") && error.contains("position 3"), "{error}");
    assert!(started.elapsed().as_secs() < 5);
    // A top level that never ends is stopped too.
    let top_level =
        "for i in range(1000000):\n    for j in range(1000000):\n        pass\ndef moves(n):\n    return []\n";
    let limits = ScriptLimits { max_ops: 100_000, ..ScriptLimits::default() };
    assert!(ScriptGame::load("loop.star", top_level, limits).is_err());
}

#[test]
fn a_list_growing_step_by_step_is_stopped_by_the_heap_limit() {
    let greedy = "def moves(n):\n    x = []\n    for i in range(100000000):\n        x.append([i])\n    return []\n";
    let limits = ScriptLimits { max_heap_bytes: 16 << 20, max_ops: 1 << 40, ..ScriptLimits::default() };
    let game = ScriptGame::load("greedy.star", greedy, limits).unwrap();
    let error = game.options(&int(3)).unwrap_err().to_string();
    assert!(error.contains("heap limit of 16.0 MiB") && error.contains("--memory-cap"), "{error}");
    assert!(error.contains("position 3"), "{error}");
}

#[test]
fn a_call_past_its_time_limit_is_stopped_and_says_which_limit() {
    // Each step is cheap, but there is no end: the operation budget is out of the way, so
    // only the wall clock stops it.
    let endless = "def moves(n):\n    for i in range(1000000):\n        for j in range(1000000):\n            pass\n    return []\n";
    let limits = ScriptLimits { max_ops: 1 << 40, max_call_millis: 200, ..ScriptLimits::default() };
    let clock = limits.call_clock.clone();
    let game = ScriptGame::load("loop.star", endless, limits).unwrap();
    let started = std::time::Instant::now();
    let error = game.options(&int(3)).unwrap_err().to_string();
    assert!(error.contains("time limit of 0.2 s (--script-timeout)") && error.contains("position 3"), "{error}");
    assert!(started.elapsed().as_secs() < 5);
    assert_eq!(clock.running_call_time(), None, "the call is over");
}

#[test]
fn a_set_flag_cancels_the_call() {
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let endless = "def moves(n):\n    for i in range(1000000):\n        for j in range(1000000):\n            pass\n    return []\n";
    let limits = ScriptLimits { max_ops: 1 << 40, ..ScriptLimits::default() };
    let game = ScriptGame::load_with_cancel("loop.star", endless, limits, Some(flag.clone())).unwrap();
    flag.store(true, std::sync::atomic::Ordering::Relaxed);
    let error = game.options(&int(1)).unwrap_err().to_string();
    assert!(error.contains("stopped") || error.contains("ancel"), "{error}");
}

#[test]
fn the_script_cannot_reach_the_outside() {
    for source in
        ["load('os.star', 'x')\ndef moves(n):\n    return []\n", "def moves(n):\n    return open('/etc/passwd')\n"]
    {
        let result = ScriptGame::load("test.star", source, ScriptLimits::default());
        let failed = match result {
            Err(_) => true,
            Ok(game) => game.options(&int(1)).is_err(),
        };
        assert!(failed, "{source}");
    }
}

/// Reads the scripts of the in-process host's tests: `kayles.star`, `wythoff.star`.
fn test_file(path: &str) -> Result<String, String> {
    match path {
        "kayles.star" => Ok(KAYLES.to_owned()),
        "wythoff.star" => {
            Ok("def moves(p):\n    x, y = p\n    return [(a, y) for a in range(x)] + [(x, b) for b in range(y)] + \
                             [(x - k, y - k) for k in range(1, min(x, y) + 1)]\n"
                .to_owned())
        }
        other => Err(format!("cannot read `{other}`: no such test file")),
    }
}

fn in_process_front<'a>(host: &'a InProcessHost<'a>) -> crate::registry::FrontEnd<'a> {
    crate::registry::FrontEnd { script_host: Some(host), ..crate::registry::FrontEnd::reading(&test_file) }
}

#[test]
fn the_in_process_host_makes_script_games_of_the_registry() {
    let host = InProcessHost { read_file: &test_file, limits: ScriptLimits::default() };
    let front = in_process_front(&host);
    let kayles = crate::registry::parse_sum_in(&["script:kayles.star", "4", "5", "+", "kayles", "7"], &front).unwrap();
    let builtin = crate::registry::parse_sum(&["kayles", "4", "5", "7"]).unwrap();
    assert_eq!(kayles.value().unwrap(), builtin.value().unwrap());
    // The script lists `Sum(1, 2)` and `Sum(2, 1)` apart: the same moves, not the same count.
    assert!(!kayles.winning_moves().unwrap().is_empty() && !builtin.winning_moves().unwrap().is_empty());
    let game = crate::registry::parse_game_in("script:kayles.star", &front).unwrap();
    assert_eq!(game.about().as_deref(), Some("kayles"));
    assert!(game.heap_game().is_some());
    let wythoff = crate::registry::parse_game_in("script:wythoff.star", &front).unwrap();
    assert!(wythoff.heap_game().is_none());
    let twin = crate::registry::parse_game("wythoff").unwrap();
    assert_eq!(wythoff.table(Some(6)).unwrap().unwrap(), twin.table(Some(6)).unwrap().unwrap());
}

#[test]
fn the_in_process_host_names_the_game_of_a_bad_script() {
    let host = InProcessHost { read_file: &test_file, limits: ScriptLimits::default() };
    let front = in_process_front(&host);
    let missing = crate::registry::parse_game_in("script:missing.star", &front).err().unwrap().to_string();
    assert_eq!(missing, "bad game `script:missing.star`: cannot read `missing.star`: no such test file");
    let without_host = crate::registry::parse_game_with("script:kayles.star", &test_file).err().unwrap().to_string();
    assert!(without_host.contains("this front end runs no scripts"), "{without_host}");
}

#[test]
fn contest_integer_helpers_are_exact_at_any_size() {
    // Each helper checked at load against values computed by hand (`fail` stops the load).
    let checks = "
def check(got, want, what):
    if got != want:
        fail(what + ': ' + str(got) + ' != ' + str(want))
check(isqrt(0), 0, 'isqrt 0')
check(isqrt(15), 3, 'isqrt 15')
check(isqrt(16), 4, 'isqrt 16')
check(isqrt(99999999999999999999999999999999999999999), 316227766016837933199, 'isqrt big')
check(gcd(12, 18), 6, 'gcd')
check(gcd(-4, 6), 2, 'gcd negative')
check(gcd(0, 0), 0, 'gcd 0')
check(gcd(1267650600228229401496703205376, 808281277464764060643139600456536293376), 1125899906842624, 'gcd big')
check(popcount(0), 0, 'popcount 0')
check(popcount(255), 8, 'popcount')
check(popcount(18446744073709551617), 2, 'popcount big')
check(bit_length(0), 0, 'bit_length 0')
check(bit_length(1023), 10, 'bit_length')
check(bit_length(-8), 4, 'bit_length negative')
check(bit_length(1180591620717411303424), 71, 'bit_length big')
";
    let game = load(&format!("{checks}\ndef moves(n):\n    return [n - k * k for k in range(1, isqrt(n) + 1)]\n"));
    // Taking a perfect square: the subtraction game of the squares.
    let squares: Vec<u64> = (1..=14u64).map(|k| k * k).collect();
    let mut expected = crate::heap::CompactSequence::new();
    SubtractionGame::new(squares).unwrap().extend_sequence(&mut expected, 200, &Control::default()).unwrap();
    let expected = expected.into_vec();
    let mut solver = ScriptSolver::new(game, 1_000_000);
    for n in 0..200u64 {
        assert_eq!(solver.value(&int(n)).unwrap(), Value::from(u64::from(expected[n as usize])), "heap {n}");
    }
    let negative = load_error("isqrt(-1)\ndef moves(n):\n    return []\n");
    assert!(negative.contains("isqrt(-1): the number must not be negative"), "{negative}");
}

#[test]
fn interpreter_errors_a_contest_script_meets_say_what_to_do() {
    let mut solver =
        ScriptSolver::new(load("def moves(n):\n    return [x for x in range(10000000000) if x < n]\n"), 1000);
    let error = solver.value(&int(3)).unwrap_err().to_string();
    assert!(error.contains("from -2^31 to 2^31 - 1 (2147483647)") && !error.contains("unpacking"), "{error}");
    // A tuple's entries past 64 bits are refused with the limit named.
    let mut solver =
        ScriptSolver::new(load("def moves(n):\n    return [(n - 1, 9223372036854775808)] if n > 0 else []\n"), 1000);
    let error = solver.value(&int(3)).unwrap_err().to_string();
    assert!(error.contains("from -2^63 to 2^63 - 1") && error.contains("9223372036854775808"), "{error}");
    // At the limit it works.
    let mut solver = ScriptSolver::new(
        load("def moves(p):\n    return [(p[0] - 1, 9223372036854775807)] if p[0] > 0 else []\n"),
        1000,
    );
    assert_eq!(solver.value(&ScriptPosition::Tuple(vec![3, -9223372036854775808])).unwrap(), Value::from(1u64));
    let mut solver = ScriptSolver::new(load("def moves(p):\n    a, b = p\n    return []\n"), 1000);
    let error = solver.value(&int(5)).unwrap_err().to_string();
    assert!(error.contains("written with commas, `5,0`"), "{error}");
}
