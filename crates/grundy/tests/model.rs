//! The game model, registry-wide (issue 11): every family of `registry::FAMILIES`, built from
//! random specs through the registry (graph games from random small graphs in an in-memory
//! "file"), on random small components.
//!
//! - Every fast `moves_to_value` equals the rules: the options filtered by the value they
//!   leave; every `moves_to_p` is exactly the options that leave a P-position; a component's
//!   value is the mex of its options' values (Smith's rule for loopy graphs).
//! - Sums of different games (the Sprague–Grundy theorem, Sprague 1935, Grundy 1939;
//!   *Winning Ways* ch. 2; Smith 1966 for `∞`): the value of a sum is the nim-sum of its parts'
//!   own values, and its winning moves are exactly the options whose result has value 0.
//! - Every component prints back in the notation it is read from.
//! - Every heap family's nim-sequence and its other fast paths (closed forms, one-by-one
//!   options, known periods, every kernel of the take-and-break engine, the textbook
//!   [`definition_sequence`] on the take-and-break statement of the rules where there is one)
//!   equal the search over sums of heaps ([`HeapSum`]).

use grundy::Value;
use grundy::control::Control;
use grundy::heap::AsHeapGame;
use grundy::heap::sequence::{CompactSequence, Kernel, NimSequenceEngine, TakeBreakMoves, definition_sequence};
use grundy::heap::{HeapGame, HeapSum, sequence_by_definition};
use grundy::position::Component;
use grundy::random::SplitMix64;
use grundy::registry::{FAMILIES, parse_game_with, parse_sum, parse_sum_with};
use grundy::ruleset::{ComponentMove, Ruleset};
use grundy::solve::definition::Definition;
use grundy::solve::memo::Solver;
use grundy::sum::{Position, sum_of_values};
use grundy::view::Views;
use grundy::{GameError, Outcome};
use num_bigint::BigUint;
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// A small deterministic stream of choices from one seed ([`SplitMix64`]), so that one
/// proptest seed draws a whole game and its components.
struct Draw(SplitMix64);

impl Draw {
    fn new(seed: u64) -> Self {
        Draw(SplitMix64::new(seed))
    }

    /// A number in `0..bound`.
    fn below(&mut self, bound: u64) -> u64 {
        self.0.below(bound)
    }

    fn chance(&mut self, one_in: u64) -> bool {
        self.0.chance(1, one_in)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.0.index(items.len())]
    }
}

/// In-memory files for the graph games, by name.
#[derive(Default)]
struct Files(BTreeMap<String, String>);

impl Files {
    fn read(&self, path: &str) -> Result<String, String> {
        self.0.get(path).cloned().ok_or_else(|| format!("no file `{path}`"))
    }

    /// A random small Green Hackenbush graph file: `u v` lines, vertex `0` the ground (in its
    /// first line, so that it never reads as a contest file), at least 4 edges.
    fn add_hackenbush(&mut self, draw: &mut Draw) -> String {
        let name = format!("h{}.txt", self.0.len());
        let vertices = 2 + draw.below(4);
        let mut text = format!("0 {}\n", draw.below(vertices));
        for _ in 0..3 + draw.below(4) {
            text.push_str(&format!("{} {}\n", draw.below(vertices), draw.below(vertices)));
        }
        self.0.insert(name.clone(), text);
        name
    }

    /// A random small graph (vertices `v0..v5`, some of them named with a comma, `v3,x`),
    /// written as an edge list; `loops` allows edges back and self-loops (a directed graph
    /// with cycles).
    fn add_graph(&mut self, draw: &mut Draw, loops: bool) -> String {
        let name = format!("g{}.txt", self.0.len());
        let vertices = 2 + draw.below(5);
        let commas = draw.chance(3);
        let vertex = |v: u64| if commas && v % 2 == 1 { format!("v{v},x") } else { format!("v{v}") };
        let edge_count = 1 + draw.below(9);
        let mut text = String::from("# a random graph\n");
        for _ in 0..edge_count {
            let (u, v) = (draw.below(vertices), draw.below(vertices));
            let (u, v) = if loops || u < v { (u, v) } else { (v, u + 1) };
            text.push_str(&format!("{} {}\n", vertex(u), vertex(v)));
        }
        self.0.insert(name.clone(), text);
        name
    }
}

/// A random small Green Hackenbush multigraph `u-v,…` on vertices `0..5` (0 the ground):
/// loops, parallel edges, circuits and parts off the ground.
fn hackenbush_edges(draw: &mut Draw) -> String {
    let vertices = 1 + draw.below(5);
    let edges: Vec<String> =
        (0..1 + draw.below(7)).map(|_| format!("{}-{}", draw.below(vertices), draw.below(vertices))).collect();
    edges.join(",")
}

/// A count set for `turn=`/`others=`: `2`, `1..3`, `2..`, `1,4`.
fn count_set(draw: &mut Draw, least: u64) -> String {
    let lo = least + draw.below(3);
    match draw.below(4) {
        0 => lo.to_string(),
        1 => format!("{lo}..{}", lo + 1 + draw.below(3)),
        2 => format!("{lo}.."),
        _ => format!("{lo},{}", lo + 2 + draw.below(3)),
    }
}

/// A coin rule: a name, or a written rule with options after `/` (or the older `;`).
fn coin_rule(draw: &mut Draw) -> String {
    if draw.chance(3) {
        return draw.pick(&["turtles", "mock-turtles", "ruler", "twins"]).to_owned();
    }
    let mut rule =
        if draw.chance(3) { format!("others={}", count_set(draw, 0)) } else { format!("turn={}", count_set(draw, 1)) };
    let separator = if draw.chance(4) { ";" } else { "/" };
    if draw.chance(3) {
        rule.push_str(separator);
        rule.push_str("consecutive");
    }
    if draw.chance(3) {
        rule.push_str(&format!("{separator}within={}", 1 + draw.below(4)));
    }
    rule
}

/// A random game word of the family named `name` (registering the files it reads).
fn game_word(name: &str, draw: &mut Draw, files: &mut Files) -> String {
    let hex_digits = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"];
    match name {
        "nim" | "kayles" | "dawson" | "grundys-game" | "split-nim" | "lasker" | "wythoff" | "corners" | "chomp"
        | "staircase" | "euclid" | "fibonacci-nim" | "e-and-d" | "king" => name.to_owned(),
        "moore" => format!("moore:{}", 1 + draw.below(3)),
        "dynamic" => format!("dynamic:{}", 1 + draw.below(5)),
        "bash" => format!("bash:{}", 1 + draw.below(6)),
        "sub" => {
            let set: BTreeSet<u64> = (0..1 + draw.below(4)).map(|_| 1 + draw.below(8)).collect();
            let list = set.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
            if draw.chance(5) { format!("sub:{{{list}}}") } else { format!("sub:{list}") }
        }
        "octal" => {
            let digits: String = (0..1 + draw.below(4)).map(|_| draw.below(8).to_string()).collect();
            if draw.chance(4) {
                // A repeating tail, CGSuite's notation (issue 56): `4.[3]` is Lasker's Nim,
                // `0.[3]` Nim, any other by the definition.
                let head: String = (0..draw.below(3)).map(|_| draw.below(8).to_string()).collect();
                return format!("octal:{}.{head}[{}]", draw.pick(&["0", "0", "4"]), 1 + draw.below(7));
            }
            format!("octal:{}.{digits}", draw.pick(&["0", "0", "4"]))
        }
        "hex" => {
            let digits: String = (0..1 + draw.below(3)).map(|_| draw.pick(&hex_digits)).collect();
            format!("hex:{}.{digits}", draw.pick(&["0", "0", "4", "8", "c"]))
        }
        "coins" => format!("coins:{}", coin_rule(draw)),
        "product" => {
            let separator = if draw.chance(4) { "*" } else { ":" };
            format!("product:{}{separator}{}", coin_rule(draw), coin_rule(draw))
        }
        "dag" => format!("dag:{}", files.add_graph(draw, true)),
        "geography" => format!("geography:{}", files.add_graph(draw, false)),
        // Half the time the graph in the component, half the time in a file (`u v` lines).
        "hackenbush" if draw.chance(2) => "hackenbush".to_owned(),
        "hackenbush" => format!("hackenbush:{}", files.add_hackenbush(draw)),
        other => panic!("no generator for the family `{other}`: add one to tests/model.rs"),
    }
}

/// A random small component of `game` (of the family `name`), as text.
fn component_text(name: &str, game: &dyn Ruleset, draw: &mut Draw) -> String {
    match name {
        "nim" | "bash" | "sub" => draw.below(20).to_string(),
        "octal" | "hex" | "kayles" | "dawson" | "grundys-game" | "split-nim" => draw.below(16).to_string(),
        "lasker" => draw.below(14).to_string(),
        "chomp" => {
            // Up to 4 rows of up to 4 cells, non-increasing; now and then a run `LxK`.
            let mut rows: Vec<u64> = (0..1 + draw.below(4)).map(|_| 1 + draw.below(4)).collect();
            rows.sort_unstable_by(|a, b| b.cmp(a));
            if draw.chance(4) {
                format!("{}x{}", rows[0], rows.len())
            } else {
                rows.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
            }
        }
        "hackenbush" if game.spec() == "hackenbush" => hackenbush_edges(draw),
        "hackenbush" => {
            // The file's graph, or what is left after cutting a few of its first 4 edges.
            let cut: BTreeSet<u64> = (0..draw.below(3)).map(|_| 1 + draw.below(4)).collect();
            if cut.is_empty() {
                "all".to_owned()
            } else {
                format!("all/cut={}", cut.iter().map(u64::to_string).collect::<Vec<_>>().join(","))
            }
        }
        "wythoff" => format!("{},{}", draw.below(12), draw.below(12)),
        // Up to four steps of up to 3 counters (the definition searches every staircase below).
        "staircase" => (0..1 + draw.below(4)).map(|_| draw.below(4).to_string()).collect::<Vec<_>>().join(","),
        // Up to three heaps of up to 4 (a move may lower several heaps at once).
        "moore" => (0..1 + draw.below(3)).map(|_| draw.below(5).to_string()).collect::<Vec<_>>().join(","),
        "euclid" => format!("{},{}", draw.below(40), draw.below(40)),
        // One pair, or now and then a table of two.
        "e-and-d" => {
            let pairs = if draw.chance(4) { 2 } else { 1 };
            (0..2 * pairs)
                .map(|_| (1 + draw.below(if pairs == 1 { 14 } else { 7 })).to_string())
                .collect::<Vec<_>>()
                .join(",")
        }
        "king" => format!("{},{}", 1 + draw.below(12), 1 + draw.below(12)),
        // A fresh heap, or a heap with a bound on the next take (below, at or past its size).
        "dynamic" | "fibonacci-nim" => {
            let size = draw.below(25);
            if draw.chance(2) { size.to_string() } else { format!("{size},{}", draw.below(size + 6)) }
        }
        "corners" | "product" => format!("{},{}", draw.below(6), draw.below(6)),
        "coins" => {
            if draw.chance(2) {
                (1 + draw.below(12)).to_string()
            } else {
                (0..1 + draw.below(9)).map(|_| draw.pick(&["H", "T", "h", "t", "H", "T"])).collect()
            }
        }
        "dag" => {
            let names = game.graph().expect("a graph game").names;
            names[draw.below(names.len() as u64) as usize].clone()
        }
        "geography" => {
            // The token's start, then up to three moves along unvisited neighbours.
            let view = game.graph().expect("a graph game");
            let mut path = vec![draw.below(view.names.len() as u64) as u32];
            for _ in 0..draw.below(4) {
                let at = *path.last().unwrap();
                let open: Vec<u32> = view
                    .edges
                    .iter()
                    .filter_map(|&(u, v)| {
                        if u == at {
                            Some(v)
                        } else if v == at {
                            Some(u)
                        } else {
                            None
                        }
                    })
                    .filter(|w| !path.contains(w))
                    .collect();
                if open.is_empty() {
                    break;
                }
                path.push(open[draw.below(open.len() as u64) as usize]);
            }
            path.iter().map(|&v| view.names[v as usize].as_str()).collect::<Vec<_>>().join(",")
        }
        other => panic!("no generator for the family `{other}`: add one to tests/model.rs"),
    }
}

/// Script games are built by a front end's `ScriptHost` (the CLI's worker process, Python's
/// `InProcessHost`), which needs a script file: `crates/grundy-cli/tests/script.rs` and
/// `python/tests/test_script.py` test them end to end.
const SCRIPT: &str = "script";

/// A random game of the family `name`, built through the registry, or `None` when the random
/// word is one the family refuses (a coin rule that allows no move, say).
fn build(name: &str, draw: &mut Draw, files: &mut Files) -> Option<(String, Arc<dyn Ruleset>)> {
    if name == SCRIPT {
        return None;
    }
    let word = game_word(name, draw, files);
    match parse_game_with(&word, &|path| files.read(path)) {
        Ok(game) => Some((word, game)),
        Err(GameError::BadGame { .. }) if matches!(name, "coins" | "product" | "octal" | "hex") => None,
        Err(error) => panic!("`{word}` does not build: {error}"),
    }
}

/// The value the components `parts` leave, as one sum of `game`.
fn value_of(game: &Arc<dyn Ruleset>, parts: &[Component]) -> Value {
    Position::single(game.clone(), parts.to_vec()).value().unwrap()
}

/// A move as what it leads to and how it is written, for comparing lists of moves as sets.
type MoveKey = (Vec<Component>, String, String);

fn keys(moves: Vec<ComponentMove<Component>>) -> BTreeSet<MoveKey> {
    moves.into_iter().map(|one| (one.result, one.notation, one.detail)).collect()
}

/// The mex of a set of finite values.
fn mex(values: &BTreeSet<BigUint>) -> BigUint {
    let mut least = BigUint::ZERO;
    while values.contains(&least) {
        least += 1u32;
    }
    least
}

/// The sums [`Definition`] may search for one component: enough for most components drawn,
/// a moment each (the harness ran 990 s when every tree was searched to the end).
const DEFINITION_POSITIONS: usize = 3_000;

/// Whether [`Definition`] searches a random component of the game `word` in a moment. Not for
/// coin-turning games (`coins`, `product`, `corners`: an option is a sum of up to a row's
/// worth of coins, and the search meets every multiset of them) nor split-Nim (a heap of `n`
/// reaches sums of up to 2^(n − 1) heaps): their components are checked one level down (the
/// mex of the options' values), and split-Nim's sequence against [`HeapSum`] on small heaps.
fn definition_stays_small(word: &str) -> bool {
    !matches!(word.split(':').next(), Some("coins" | "product" | "corners" | "split-nim"))
}

/// The registry's rules for one component, one level down: its value is the mex of its options'
/// values, and its outcome, moves to each value and moves to P are its options filtered.
fn check_component(word: &str, game: &Arc<dyn Ruleset>, component: &Component) -> Result<(), TestCaseError> {
    let shown = game.format_component(component);
    let options = game.options(component, 100_000).unwrap();
    let option_values: Vec<Value> = options.iter().map(|one| value_of(game, &one.result)).collect();
    let finite: BTreeSet<BigUint> = option_values
        .iter()
        .filter_map(|value| match value {
            Value::Finite(value) => Some(value.clone()),
            Value::Infinite { .. } => None,
        })
        .collect();
    // The value is the mex of the options' values; for a loopy graph Smith's label: a finite
    // g is still the mex of the finite ones, and ∞(K) lists exactly them.
    match game.value(component).unwrap() {
        Value::Finite(value) => prop_assert_eq!(&value, &mex(&finite), "{} {}: value", word, shown),
        Value::Infinite { reachable } => {
            let expected: Vec<u64> = finite.iter().map(|value| u64::try_from(value).unwrap()).collect();
            prop_assert_eq!(reachable, expected, "{} {}: ∞ value", word, shown);
        }
    }
    prop_assert_eq!(
        game.outcome(component).unwrap(),
        game.value(component).unwrap().outcome(),
        "{} {}: outcome",
        word,
        shown
    );
    // Every target an option reaches, the component's own value, and a few no option reaches.
    let mut targets = finite.clone();
    let top = finite.iter().max().cloned().unwrap_or_default();
    targets.extend([BigUint::ZERO, &top + 1u32, &top + 5u32]);
    if let Value::Finite(own) = game.value(component).unwrap() {
        targets.insert(own);
    }
    let mut by_value: BTreeMap<BigUint, BTreeSet<MoveKey>> = BTreeMap::new();
    for (one, value) in options.iter().zip(&option_values) {
        if let Value::Finite(value) = value {
            by_value.entry(value.clone()).or_default().insert((
                one.result.clone(),
                one.notation.clone(),
                one.detail.clone(),
            ));
        }
    }
    for target in &targets {
        let expected = by_value.remove(target).unwrap_or_default();
        let found = game.moves_to_value(component, target).unwrap();
        let count = found.len();
        let found = keys(found);
        prop_assert_eq!(count, found.len(), "{} {}: a move to {} listed twice", word, shown, target);
        prop_assert_eq!(found, expected, "{} {}: moves to value {}", word, shown, target);
    }
    let to_p: BTreeSet<MoveKey> = keys(
        options
            .iter()
            .filter(|one| Position::single(game.clone(), one.result.clone()).outcome().unwrap() == Outcome::P)
            .cloned()
            .collect(),
    );
    prop_assert_eq!(keys(game.moves_to_p(component).unwrap()), to_p, "{} {}: moves to P", word, shown);
    Ok(())
}

/// The registry's value for one component against the definition ([`Definition`]): the mex
/// searched down the component's whole game tree by its options alone, with no value of the
/// family's own; a loopy graph's tree may be infinite, and the search then says so.
fn check_by_definition(word: &str, game: &Arc<dyn Ruleset>, component: &Component) -> Result<(), TestCaseError> {
    let shown = game.format_component(component);
    let by_definition =
        Definition::with_limit(game.clone(), DEFINITION_POSITIONS).value(std::slice::from_ref(component));
    match (by_definition, game.value(component).unwrap()) {
        (Ok(found), Value::Finite(value)) => {
            prop_assert_eq!(BigUint::from(found.0), value, "{} {}: the definition", word, shown)
        }
        (Err(GameError::Cycle { .. }), _) if word.starts_with("dag:") => {}
        // A tree past a moment's search: this component is checked one level down only.
        (Err(GameError::TooLarge { .. }), _) => {}
        (found, value) => {
            prop_assert!(false, "{} {}: the definition gives {:?}, the game {}", word, shown, found, value)
        }
    }
    Ok(())
}

/// The nim-sequence capability of a heap family against its rules, on heaps `0..len`.
fn check_heap_game(word: &str, game: &dyn HeapGame, len: usize) -> Result<(), TestCaseError> {
    let definition = HeapSum(game);
    let mut solver = Solver::new(&definition);
    let expected: Vec<u32> =
        (0..len as u64).map(|heap| u32::try_from(solver.grundy_value(&vec![heap]).unwrap().0).unwrap()).collect();
    // The definition on one heap (the Sprague–Grundy theorem for the heaps an option leaves).
    let one_heap: Vec<u64> = expected.iter().map(|&value| u64::from(value)).collect();
    prop_assert_eq!(sequence_by_definition(game, len as u64), one_heap, "{}: sequence_by_definition", word);
    // In two stretches, the second resuming from the first (as from a checkpoint).
    let mut sequence = CompactSequence::new();
    prop_assert!(game.extend_sequence(&mut sequence, len / 2, &Control::default()).unwrap());
    prop_assert!(game.extend_sequence(&mut sequence, len, &Control::default()).unwrap());
    prop_assert_eq!(&sequence.to_vec(), &expected, "{}: extend_sequence", word);
    for heap in 0..len as u64 {
        let listed = game.heap_options(heap);
        let mut walked = Vec::new();
        game.for_each_heap_option(heap, &mut |parts| walked.push(parts.to_vec()));
        prop_assert_eq!(&walked, &listed, "{} heap {}: for_each_heap_option", word, heap);
        if game.is_nim() {
            // Bouton's misère rule is used for such games: their rules must be Nim's.
            let mut sorted = listed.clone();
            sorted.sort();
            prop_assert_eq!(&sorted, &(0..heap).map(|smaller| vec![smaller]).collect::<Vec<_>>(), "{}: is_nim", word);
        }
        let big = BigUint::from(heap);
        if let Some(value) = game.closed_form_value(&big) {
            prop_assert_eq!(value, BigUint::from(expected[heap as usize]), "{} heap {}: closed form", word, heap);
        }
        if let Some(count) = game.option_count(&big) {
            prop_assert_eq!(count, BigUint::from(listed.len()), "{} heap {}: option count", word, heap);
        }
        for target in 0..=expected.iter().copied().max().unwrap_or(0) + 1 {
            let Some(moves) = game.closed_form_moves(&big, &target.into()) else { break };
            let filtered: Vec<BigUint> = listed
                .iter()
                .filter(|parts| parts.iter().fold(0, |sum, &part| sum ^ expected[part as usize]) == target)
                .map(|parts| {
                    prop_assert_eq!(parts.len(), 1, "{}: a closed form's moves are single heaps", word);
                    Ok(BigUint::from(parts[0]))
                })
                .collect::<Result<_, TestCaseError>>()?;
            prop_assert_eq!(moves, filtered, "{} heap {}: closed-form moves to {}", word, heap, target);
        }
    }
    // The take-and-break statement of the rules, where there is one: the textbook loop on it,
    // and every kernel of the engine (the game's own, or one made for the statement).
    if let Some(moves) = take_break_moves(game) {
        prop_assert_eq!(&definition_sequence(&moves, len), &expected, "{}: definition_sequence", word);
        let made;
        let engine = match game.nim_sequence_engine() {
            Some(engine) => engine,
            None => {
                made = NimSequenceEngine::new(moves);
                &made
            }
        };
        for kernel in [Kernel::Plain, Kernel::RareValue, Kernel::Auto] {
            engine.set_kernel(kernel);
            let mut sequence = CompactSequence::new();
            for stretch in [len / 3, len] {
                prop_assert!(engine.extend(word, &mut sequence, stretch, &Control::default()).unwrap());
            }
            prop_assert_eq!(&sequence.to_vec(), &expected, "{}: kernel {:?}", word, kernel);
        }
    }
    if let Some(known) = game.known_period() {
        for heap in (known.preperiod + known.period) as usize..len {
            let back = expected[heap - known.period as usize] as u64 + known.saltus;
            prop_assert_eq!(u64::from(expected[heap]), back, "{} heap {}: {}", word, heap, known.theorem);
        }
    }
    Ok(())
}

/// The rules of a heap game as take-and-break moves ([`TakeBreakMoves`]), where they are such:
/// the engine's moves for octal and hexadecimal games and Grundy's game; for a subtraction game
/// `sub:S` (Bash's game `bash:M`: `S = {1, …, M}`), removing `s` in `S` and leaving nothing or
/// one heap (the octal digit 3 at each `s`). `None` for Nim (no bound on a removal) and
/// split-Nim (its two heaps may hold more than the one they replace).
fn take_break_moves(game: &dyn HeapGame) -> Option<TakeBreakMoves> {
    if let Some(engine) = game.nim_sequence_engine() {
        return Some(engine.moves().clone());
    }
    let spec = game.spec();
    let set: Vec<usize> = if let Some(list) = spec.strip_prefix("sub:") {
        list.split(',').map(|element| element.parse().unwrap()).collect()
    } else if let Some(most) = spec.strip_prefix("bash:") {
        (1..=most.parse().unwrap()).collect()
    } else {
        return None;
    };
    Some(TakeBreakMoves::new(set.clone(), set, vec![], false, vec![]))
}

/// A component prints back as itself: `parse(format(c)) == c`, and printing is stable.
fn check_round_trip(word: &str, game: &Arc<dyn Ruleset>, component: &Component) -> Result<(), TestCaseError> {
    let shown = game.format_component(component);
    let again = game.parse_component(&shown);
    prop_assert!(again.is_ok(), "{}: `{}` does not read back: {:?}", word, shown, again);
    let again = again.unwrap();
    prop_assert_eq!(&again, component, "{}: `{}`", word, shown);
    prop_assert_eq!(game.format_component(&again), shown);
    Ok(())
}

/// Wythoff's game for pairs past the cheap table, shared by the cases.
static FAR_WYTHOFF: std::sync::LazyLock<Arc<dyn Ruleset>> =
    std::sync::LazyLock::new(|| grundy::registry::parse_game("wythoff").unwrap());

#[test]
fn every_family_has_a_generator_and_builds() {
    let mut files = Files::default();
    for family in FAMILIES {
        for name in family.names.iter().filter(|&&name| name != SCRIPT) {
            let mut draw = Draw::new(7);
            let built = (0..20).find_map(|_| build(name, &mut draw, &mut files));
            let (word, game) = built.unwrap_or_else(|| panic!("no game of `{name}` built"));
            let text = component_text(name, game.as_ref(), &mut draw);
            game.parse_component(&text).unwrap_or_else(|error| panic!("{word} {text}: {error}"));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(250))]

    /// (a) For every family, on random small components: `moves_to_value` is the options
    /// filtered by value, `moves_to_p` the options leaving a P-position, and the value the mex
    /// of the options' values.
    #[test]
    fn every_family_moves_to_value_as_the_rules_say(seed in any::<u64>()) {
        let mut draw = Draw::new(seed);
        let mut files = Files::default();
        for family in FAMILIES {
            for name in family.names {
                let Some((word, game)) = build(name, &mut draw, &mut files) else { continue };
                for _ in 0..2 {
                    let text = component_text(name, game.as_ref(), &mut draw);
                    let component = game.parse_component(&text);
                    prop_assert!(component.is_ok(), "{} `{}` does not read: {:?}", word, text, component);
                    let component = component.unwrap();
                    check_component(&word, &game, &component)?;
                    if definition_stays_small(&word) {
                        check_by_definition(&word, &game, &component)?;
                    }
                }
            }
        }
        // Now and then a Wythoff pair past the cheap table, whose values and moves come from
        // the periodic rows (one game for all cases, so that its table is built once). Checked
        // one level down only: below a pair (x, 2048 + k) with x ≥ 1 lie more sums than the
        // definition's search takes (it stops, too large, after some 5 s of listing options),
        // and for x = 0 it walks row 0 alone (G(0, y) = y). The rows are the table's to column
        // 3000 (`rows_are_proved_periodic_and_agree_with_the_table` in src/wythoff/tests.rs),
        // the table the mex recursion's and the definition's (`fast_table_matches_the_triple_loop`,
        // `table_matches_the_memo_solver`, the same file).
        if draw.chance(8) {
            let text = format!("{},{}", draw.below(4), 2048 + draw.below(64));
            let component = FAR_WYTHOFF.parse_component(&text).unwrap();
            check_component("wythoff", &FAR_WYTHOFF, &component)?;
        }
    }

    /// (d) For every family with a nim-sequence (the heap families, scripts aside): every
    /// capability is its rules. The sequence, by the plain and the compact table, equals the
    /// definition searched over sums of heaps ([`HeapSum`], [`HeapGame::heap_options`] alone);
    /// the one-by-one options are the listed ones; a closed form, its moves and its option
    /// count agree with them; a known period holds on the sequence.
    #[test]
    fn every_heap_family_sequence_is_its_rules(seed in any::<u64>()) {
        let mut draw = Draw::new(seed);
        let mut files = Files::default();
        for family in FAMILIES {
            for name in family.names {
                let Some((word, game)) = build(name, &mut draw, &mut files) else { continue };
                let Some(heaps) = game.heap_game() else { continue };
                // The definition searches whole sums, and a split-Nim heap of n reaches sums of
                // up to 2^(n - 1) heaps: a few heaps only (its module checks 300 heaps against
                // the mex over its rules, with the Sprague–Grundy theorem).
                let len = if *name == "split-nim" { 4 + draw.below(4) } else { 10 + draw.below(20) };
                check_heap_game(&word, &*heaps, len as usize)?;
            }
        }
    }

    /// (c) Every component type prints back in the notation it was read from, read from text
    /// or made by a move; and a game's spec reads back as the same game.
    #[test]
    fn every_component_prints_back_as_itself(seed in any::<u64>()) {
        let mut draw = Draw::new(seed);
        let mut files = Files::default();
        for family in FAMILIES {
            for name in family.names {
                let Some((word, game)) = build(name, &mut draw, &mut files) else { continue };
                let spec = game.spec();
                let rebuilt = parse_game_with(&spec, &|path| files.read(path)).unwrap();
                prop_assert_eq!(rebuilt.spec(), spec.clone(), "{} reads back as {}", word, spec);
                for _ in 0..3 {
                    let text = component_text(name, game.as_ref(), &mut draw);
                    let component = game.parse_component(&text);
                    prop_assert!(component.is_ok(), "{} `{}` does not read: {:?}", word, text, component);
                    let component = component.unwrap();
                    check_round_trip(&word, &game, &component)?;
                    for one in game.options(&component, 100_000).unwrap() {
                        for part in &one.result {
                            check_round_trip(&word, &game, part)?;
                        }
                    }
                }
            }
        }
    }
}

/// The families random sums are made of: issue 11's must-show (nim, bash, sub, octal,
/// wythoff, coins, corners, dag), then every other family of the registry.
fn sum_families() -> Vec<&'static str> {
    let mut names = vec!["nim", "bash", "sub", "octal", "wythoff", "coins", "corners", "dag"];
    for name in FAMILIES.iter().flat_map(|family| family.names.iter().copied()) {
        if !names.contains(&name) && name != SCRIPT {
            names.push(name);
        }
    }
    names
}

/// A random sum of 1 to 4 parts from [`sum_families`], each with 1 to 3 components: the
/// words of the command line, and each part's words alone.
fn random_sum(seed: u64, files: &mut Files) -> (Vec<String>, Vec<Vec<String>>) {
    let mut draw = Draw::new(seed);
    let mut parts = Vec::new();
    while parts.len() < 1 + (seed % 4) as usize {
        // The must-show families three times in four.
        let families = sum_families();
        let name = if draw.chance(4) { draw.pick(&families) } else { draw.pick(&families[..8]) };
        let Some((word, game)) = build(name, &mut draw, files) else { continue };
        let mut words = vec![word];
        // Geography takes one token a board (`one_component_only`); other games one to three.
        let count = if game.one_component_only().is_some() { 1 } else { 1 + draw.below(3) };
        for _ in 0..count {
            words.push(component_text(name, game.as_ref(), &mut draw));
        }
        parts.push(words);
    }
    let mut words = Vec::new();
    for (index, part) in parts.iter().enumerate() {
        if index > 0 {
            words.push("+".to_owned());
        }
        words.extend(part.iter().cloned());
    }
    (words, parts)
}

fn as_strs(words: &[String]) -> Vec<&str> {
    words.iter().map(String::as_str).collect()
}

/// A sum's move as where it is made and what it leaves.
type SumKey = (usize, usize, Vec<Component>, String);

proptest! {
    #![proptest_config(ProptestConfig::with_cases(800))]

    /// (b) Sums of different games: the value is the nim-sum (Smith's sum with `∞`) of each
    /// part's own value, computed alone; it is the mex of the options' values (the
    /// definition, one level down); and the winning moves are exactly the options whose
    /// result has value 0.
    #[test]
    fn sums_of_different_games_follow_sprague_grundy(seed in any::<u64>()) {
        let mut files = Files::default();
        let (words, parts) = random_sum(seed, &mut files);
        let read = |path: &str| files.read(path);
        let position = parse_sum_with(&as_strs(&words), &read).unwrap();
        let line = words.join(" ");
        prop_assert_eq!(position.parts.len(), parts.len());
        let part_values: Vec<Value> =
            parts.iter().map(|part| parse_sum_with(&as_strs(part), &read).unwrap().value().unwrap()).collect();
        // The position prints back as itself, game words included.
        let mut text = position.to_text();
        if position.is_single_game() {
            text = format!("{} {text}", position.parts[0].game.spec());
        }
        let again = parse_sum_with(&text.split_whitespace().collect::<Vec<_>>(), &read).unwrap();
        let shape = |position: &Position| -> Vec<(String, Vec<Component>)> {
            position.parts.iter().map(|part| (part.game.spec(), part.components.clone())).collect()
        };
        prop_assert_eq!(shape(&again), shape(&position), "{} printed as {}", line, text);
        let value = position.value().unwrap();
        prop_assert_eq!(&value, &sum_of_values(&part_values).unwrap(), "{}", line);
        prop_assert_eq!(position.outcome().unwrap(), value.outcome(), "{}", line);

        let options = position.options(1_000_000).unwrap();
        let after: Vec<Value> = options.iter().map(|one| position.after(one).value().unwrap()).collect();
        let finite: BTreeSet<BigUint> = after
            .iter()
            .filter_map(|value| match value {
                Value::Finite(value) => Some(value.clone()),
                Value::Infinite { .. } => None,
            })
            .collect();
        match &value {
            Value::Finite(value) => prop_assert_eq!(value, &mex(&finite), "{}: mex of the options", line),
            Value::Infinite { reachable } => {
                let expected: Vec<u64> = finite.iter().map(|value| u64::try_from(value).unwrap()).collect();
                prop_assert_eq!(reachable, &expected, "{}: the finite values of the options", line);
            }
        }

        let key = |one: &grundy::sum::SumMove| -> SumKey {
            (one.part, one.component, one.result.clone(), one.notation.clone())
        };
        let expected: BTreeSet<SumKey> = options
            .iter()
            .zip(&after)
            .filter(|(_, value)| **value == Value::from(0u64))
            .map(|(one, _)| key(one))
            .collect();
        let winning = position.winning_moves().unwrap();
        let found: BTreeSet<SumKey> = winning.iter().map(key).collect();
        prop_assert_eq!(found.len(), winning.len(), "{}: a winning move listed twice", line);
        prop_assert_eq!(found, expected, "{}: winning moves", line);
        for one in &winning {
            prop_assert!(!one.explain.is_empty(), "{}: {} has no explanation", line, one.notation);
        }

        // Play: the engine wins from an N-position and always makes a legal move, and an option
        // typed as the position it leads to is found as a move leading there (a few options).
        match grundy::play::engine_move(&position, &mut grundy::play::Chooser::new(seed)).unwrap() {
            None => prop_assert!(options.is_empty(), "{}: the engine did not move", line),
            Some(reply) => {
                let chosen = grundy::sum::SumMove { explain: String::new(), ..reply.chosen.clone() };
                prop_assert!(options.contains(&chosen), "{}: {:?} is no move", line, chosen);
                if !winning.is_empty() {
                    prop_assert_eq!(position.after(&reply.chosen).value().unwrap(), Value::from(0u64), "{}", line);
                }
            }
        }
        for one in options.iter().skip((seed % 7) as usize).step_by(1 + options.len() / 4) {
            let destination = position.after(one).to_text();
            let typed = grundy::play::find_typed_move(&position, &destination).unwrap();
            prop_assert!(typed.is_ok(), "{}: typing `{}` was refused", line, destination);
            prop_assert_eq!(position.after(&typed.unwrap()).to_text(), destination);
        }
    }
}

/// Text near and far from what components look like: heaps, pairs, coin rows, paths, junk.
const MESSY_TEXT: &str =
    "[0-9]{1,4}|[0-9]{1,2},[0-9]{1,2}|-[0-9]|[HTht]{1,10}|v[0-9](,v[0-9]|,x){0,4}|[0-9a-zHT,.:;=/*+{} -]{0,12}";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Bad input is refused with an error naming it, never a panic: random text as a component
    /// of every family, as a game's parameters, and as the words of a sum.
    #[test]
    fn random_text_is_refused_or_read_never_a_panic(
        seed in any::<u64>(),
        text in MESSY_TEXT,
        words in proptest::collection::vec(prop_oneof![Just("+".to_owned()), MESSY_TEXT], 0..6),
    ) {
        let mut draw = Draw::new(seed);
        let mut files = Files::default();
        for family in FAMILIES {
            for name in family.names {
                let Some((word, game)) = build(name, &mut draw, &mut files) else { continue };
                if let Ok(component) = game.parse_component(&text) {
                    check_round_trip(&word, &game, &component)?;
                }
                let read = |path: &str| files.read(path);
                match parse_game_with(&format!("{name}:{text}"), &read) {
                    Ok(game) => prop_assert!(parse_game_with(&game.spec(), &read).is_ok()),
                    Err(error) => prop_assert!(!error.to_string().is_empty()),
                }
            }
        }
        // A sum that starts with a game word, then random words (`+` among them).
        let names: Vec<&str> = FAMILIES.iter().flat_map(|family| family.names.iter().copied()).collect();
        let Some((first, _)) = build(draw.pick(&names), &mut draw, &mut files) else { return Ok(()) };
        let mut line = vec![first.as_str()];
        line.extend(words.iter().map(String::as_str));
        if let Ok(position) = parse_sum_with(&line, &|path| files.read(path)) {
            // Whatever reads is a position whose questions answer or refuse.
            let _ = position.outcome();
            let _ = position.options(10_000);
        }
    }
}

/// (d) Issue 11's must-show: `nim 3 + wythoff 4,7 + sub:2,5 9` is 3 ⊕ 0 ⊕ G_sub(9) = 3 ⊕ 0 ⊕ 1.
#[test]
fn the_must_show_sum() {
    let position = parse_sum(&["nim", "3", "+", "wythoff", "4,7", "+", "sub:2,5", "9"]).unwrap();
    assert_eq!(position.value().unwrap().to_string(), "2");
    let alone: Vec<String> = [&["nim", "3"][..], &["wythoff", "4,7"], &["sub:2,5", "9"]]
        .iter()
        .map(|words| parse_sum(words).unwrap().value().unwrap().to_string())
        .collect();
    assert_eq!(alone, ["3", "0", "1"]);
    // The winning moves make the nim-sum 0: nim 3 -> 1, or wythoff 4,7 -> 4,3 (G(4,3) = 2 in
    // the published table, tests/data/wythoff_grundy_triangle.txt, the only option of 4,7
    // worth 2); sub:2,5 9 has options 7 and 4, both worth 0, not the 3 it would need.
    let mut moves: Vec<String> =
        position.winning_moves().unwrap().iter().map(|one| position.after(one).to_text()).collect();
    moves.sort();
    assert_eq!(moves, ["nim 1 + wythoff 4,7 + sub:2,5 9", "nim 3 + wythoff 4,3 + sub:2,5 9"]);
}
