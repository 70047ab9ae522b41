//! The adapter on a tiny backend written here: Kayles on heaps (options that split into
//! sums) and two-heap Nim on pairs, answered by the plain definition (mex over the options,
//! nim-sums of split options), with no solver of the library behind it.

use super::*;
use crate::heap::AsHeapGame;
use crate::registry::parse_game;
use crate::ruleset::Capability;
use crate::sum::{Part, Position};
use crate::view::Views;
use std::collections::HashMap;

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Tiny {
    Heap(u64),
    Pair(u64, u64),
}

impl fmt::Display for Tiny {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tiny::Heap(heap) => write!(f, "{heap}"),
            Tiny::Pair(x, y) => write!(f, "{x},{y}"),
        }
    }
}

impl MovesPosition for Tiny {
    fn heap(heap: u64) -> Self {
        Tiny::Heap(heap)
    }
    fn as_small_heap(&self) -> Option<u64> {
        match self {
            Tiny::Heap(heap) => Some(*heap),
            Tiny::Pair(..) => None,
        }
    }
    fn pair(x: u64, y: u64) -> Self {
        Tiny::Pair(x, y)
    }
}

/// Kayles (knock down one pin or two adjacent ones) on heaps; Nim on pairs.
fn options(position: &Tiny) -> Vec<Vec<Tiny>> {
    match *position {
        Tiny::Heap(n) => (1..=2u64)
            .filter(|&take| take <= n)
            .flat_map(|take| (0..=n - take).map(move |left| vec![Tiny::Heap(left), Tiny::Heap(n - take - left)]))
            .collect(),
        Tiny::Pair(x, y) => {
            (0..x).map(|x2| vec![Tiny::Pair(x2, y)]).chain((0..y).map(|y2| vec![Tiny::Pair(x, y2)])).collect()
        }
    }
}

/// A marker capability the backend offers itself.
struct Marker;
impl Capability for Marker {
    type Handle = &'static str;
}

struct TinyBackend {
    /// What `shape` answers (the tests ask for heaps or pairs).
    shape: Shape,
    memo: HashMap<Tiny, u64>,
    /// Calls of `options_with_values`, to see that one question costs one request.
    requests: Arc<Mutex<u64>>,
}

impl TinyBackend {
    fn value(&mut self, position: &Tiny) -> u64 {
        if let Some(&value) = self.memo.get(position) {
            return value;
        }
        let reached: Vec<u64> = options(position)
            .iter()
            .map(|parts| parts.iter().fold(0, |total, part| total ^ self.value(part)))
            .collect();
        let value = (0..).find(|candidate| !reached.contains(candidate)).unwrap();
        self.memo.insert(position.clone(), value);
        value
    }
}

impl MovesBackend<Tiny> for TinyBackend {
    fn name(&self) -> &str {
        "tiny"
    }
    fn description(&self) -> &str {
        "Kayles on heaps, Nim on pairs"
    }
    fn start(&self) -> Option<&[Tiny]> {
        None
    }
    fn shape(&mut self) -> Result<Shape, String> {
        Ok(self.shape)
    }
    fn parse(&mut self, texts: &[String]) -> Result<Vec<Tiny>, String> {
        texts
            .iter()
            .map(|text| match text.split_once(',') {
                Some((x, y)) => Ok(Tiny::Pair(x.parse().map_err(|_| "bad x")?, y.parse().map_err(|_| "bad y")?)),
                None => text.parse().map(Tiny::Heap).map_err(|_| format!("`{text}` is not a heap")),
            })
            .collect()
    }
    fn format(&mut self, positions: &[Tiny]) -> Result<Vec<String>, String> {
        Ok(positions.iter().map(|position| format!("<{position}>")).collect())
    }
    fn values(&mut self, positions: &[Tiny]) -> Result<Vec<Value>, String> {
        Ok(positions.iter().map(|position| Value::from(self.value(position))).collect())
    }
    fn options_with_values(&mut self, position: &Tiny, limit: usize) -> Result<Option<Vec<MovesOption<Tiny>>>, String> {
        *self.requests.lock().unwrap() += 1;
        let listed = options(position);
        if listed.len() > limit {
            return Ok(None);
        }
        Ok(Some(
            listed
                .into_iter()
                .map(|parts| {
                    let value = parts.iter().fold(0, |total, part| total ^ self.value(part));
                    let texts = parts.iter().map(|part| format!("<{part}>")).collect();
                    MovesOption { parts, texts, value: Value::from(value) }
                })
                .collect(),
        ))
    }
    fn sequence(&mut self, from: u64, to: u64) -> Result<Vec<u64>, String> {
        Ok((from..=to).map(|heap| self.value(&Tiny::Heap(heap))).collect())
    }
    fn provide(&self, request: &mut Request) {
        request.give::<Marker>(|| "from the backend");
    }
}

fn tiny(shape: Shape) -> (Arc<dyn Ruleset>, Arc<Mutex<u64>>) {
    let backend = TinyBackend { shape, memo: HashMap::new(), requests: Arc::default() };
    let requests = Arc::clone(&backend.requests);
    (MovesFamily::erased("tiny", Box::new(backend)), requests)
}

/// Kayles, OEIS A002186.
const KAYLES: [u64; 24] = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7];

#[test]
fn values_and_nim_sequence_are_the_backends() {
    let (game, _) = tiny(Shape::Heap);
    for (heap, expected) in KAYLES.iter().enumerate() {
        let component = game.parse_component(&heap.to_string()).unwrap();
        assert_eq!(game.value(&component).unwrap(), Value::from(*expected));
    }
    let heaps = game.heap_game().expect("a game on heaps has a nim-sequence");
    let mut values = CompactSequence::new();
    assert!(heaps.extend_sequence(&mut values, KAYLES.len(), &Control::default()).unwrap());
    let expected: Vec<u32> = KAYLES.iter().map(|&value| value as u32).collect();
    assert_eq!(values.into_vec(), expected);
    // Heap 0 left by a split is no heap: 3 -> 0 + 2 is the option [2].
    assert!(heaps.heap_options(3).contains(&vec![2]));
    assert!(heaps.heap_options(3).contains(&vec![1, 1]));
    assert_eq!(heaps.method(), "memoized search over the game's moves");
    assert_eq!(game.about().as_deref(), Some("tiny: Kayles on heaps, Nim on pairs"));
    assert_eq!(game.capability::<Marker>(), Some("from the backend"));
}

#[test]
fn moves_are_the_backends_options_in_its_own_text() {
    let (game, requests) = tiny(Shape::Heap);
    let five = game.parse_component("5").unwrap();
    assert_eq!(game.format_component(&five), "<5>");
    let listed = game.options(&five, MOVE_LIMIT).unwrap();
    assert_eq!(listed.len(), 5 + 4);
    assert!(listed.iter().any(|option| option.notation == "<5> -> <1> + <3>"));
    // One request answers the moves to a value: each option comes with its value.
    let before = *requests.lock().unwrap();
    let to_zero = game.moves_to_value(&five, &BigUint::ZERO).unwrap();
    assert_eq!(*requests.lock().unwrap(), before + 1);
    for option in &to_zero {
        let total = option
            .result
            .iter()
            .fold(0u64, |total, part| total ^ u64::try_from(game.value(part).unwrap().finite().unwrap()).unwrap());
        assert_eq!(total, 0, "{}", option.notation);
    }
    assert!(!to_zero.is_empty());
    match game.options(&five, 3) {
        Err(GameError::TooManyMoves { component, game, limit }) => {
            assert_eq!((component.as_str(), game.as_str(), limit), ("<5>", "tiny", 3));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_table_of_pairs_and_a_sum_with_a_built_in_game() {
    let (heaps, _) = tiny(Shape::Heap);
    assert!(heaps.table(Some(5)).is_none(), "a game on heaps has no table");
    let (game, _) = tiny(Shape::Pair);
    assert!(game.heap_game().is_none(), "a game on pairs has no nim-sequence");
    let Some(Ok(Table::Grid { values })) = game.table(Some(5)) else { panic!("a table of pairs") };
    for (x, row) in values.iter().enumerate() {
        for (y, value) in row.iter().enumerate() {
            assert_eq!(*value, (x ^ y) as u64);
        }
    }
    assert!(matches!(game.table(Some(MAX_TABLE_SIDE + 1)), Some(Err(GameError::OutOfReach(_)))));
    // Kayles 7 (value 2) + Nim 3 + Nim 1: nim-sum 0, and from Kayles 8 (value 1) every
    // winning move leads to a P-position.
    let nim = parse_game("nim").unwrap();
    let sum = |kayles: &str| Position {
        parts: vec![
            Part { game: Arc::clone(&game), components: vec![game.parse_component(kayles).unwrap()] },
            Part {
                game: Arc::clone(&nim),
                components: vec![nim.parse_component("3").unwrap(), nim.parse_component("1").unwrap()],
            },
        ],
    };
    assert_eq!(sum("7").value().unwrap(), Value::from(0u64));
    let position = sum("8");
    assert_eq!(position.value().unwrap(), Value::from(1u64 ^ 3 ^ 1));
    let winning = position.winning_moves().unwrap();
    assert!(!winning.is_empty());
    for one in &winning {
        assert_eq!(position.after(one).value().unwrap(), Value::from(0u64), "{}", one.notation);
    }
}
