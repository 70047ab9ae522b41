//! Golden nim-sequences from the published tables (`tests/data/nim-sequences/`), checked
//! against every kernel of the engine, the definition, the exhaustive search over sums of
//! heaps, and the front end (`registry::parse_game`).
//!
//! A data file has `# game: SPEC first N` lines (the values listed are `G(N), G(N+1), …` of
//! each game named), then the values. A `rare-through N mask M` file lists every heap up to
//! `N` whose value is rare under mask `M` (as a signed integer), as `heap value` pairs.

use grundy::heap::grundys_game::GrundysGame;
use grundy::heap::octal::{CodeBase, OctalGame};
use grundy::heap::sequence::{Kernel, NimSequenceEngine, definition_sequence};
use grundy::heap::{CompactSequence, EngineBacked, HeapGame, HeapSum};
use grundy::solve::memo::Solver;
use grundy::sum::Position;
use std::path::Path;

enum Built {
    Octal(OctalGame),
    Grundy(GrundysGame),
}

impl Built {
    fn new(spec: &str) -> Built {
        match spec {
            "kayles" => Built::Octal(OctalGame::kayles()),
            "dawson" => Built::Octal(OctalGame::dawson()),
            "grundys-game" => Built::Grundy(GrundysGame::new()),
            _ => match spec.split_once(':') {
                Some(("octal", code)) => Built::Octal(OctalGame::parse(code, CodeBase::Octal).unwrap()),
                Some(("hex", code)) => Built::Octal(OctalGame::parse(code, CodeBase::Hexadecimal).unwrap()),
                _ => panic!("unknown game {spec}"),
            },
        }
    }
    fn engine(&self) -> &NimSequenceEngine {
        match self {
            Built::Octal(game) => game.engine(),
            Built::Grundy(game) => game.engine(),
        }
    }
    fn game(&self) -> &dyn HeapGame {
        match self {
            Built::Octal(game) => game,
            Built::Grundy(game) => game,
        }
    }
    /// The value of one heap by exhaustive search over sums of heaps.
    fn searched(&self, heap: u64) -> u64 {
        let position = if heap == 0 { vec![] } else { vec![heap] };
        match self {
            Built::Octal(game) => Solver::new(HeapSum(game)).grundy_value(&position).unwrap().0,
            Built::Grundy(game) => Solver::new(HeapSum(game)).grundy_value(&position).unwrap().0,
        }
    }
}

struct Golden {
    file: String,
    games: Vec<(String, Vec<String>)>,
    numbers: Vec<u64>,
}

fn load() -> Vec<Golden> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/nim-sequences");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|entry| entry.unwrap().path()).collect();
    files.sort();
    let mut goldens = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut golden = Golden { file: path.display().to_string(), games: Vec::new(), numbers: Vec::new() };
        for line in text.lines() {
            if let Some(game) = line.strip_prefix("# game: ") {
                let mut words = game.split_whitespace().map(str::to_owned);
                let spec = words.next().unwrap();
                golden.games.push((spec, words.collect()));
            } else if !line.starts_with('#') {
                golden.numbers.extend(line.split_whitespace().map(|word| word.parse::<u64>().unwrap()));
            }
        }
        assert!(!golden.games.is_empty() && !golden.numbers.is_empty(), "{}", golden.file);
        goldens.push(golden);
    }
    assert!(goldens.len() >= 10);
    goldens
}

fn parameter(words: &[String], name: &str) -> i64 {
    let at = words.iter().position(|word| word == name).unwrap_or_else(|| panic!("no `{name}`"));
    words[at + 1].parse().unwrap()
}

fn sequence(built: &Built, kernel: Kernel, len: usize) -> Vec<u32> {
    built.engine().set_kernel(kernel);
    let mut values = CompactSequence::new();
    // Resume from a prefix, as from a checkpoint.
    built.game().extend_sequence(&mut values, len / 3, &Default::default()).unwrap();
    built.game().extend_sequence(&mut values, len, &Default::default()).unwrap();
    values.into_vec()
}

#[test]
fn published_tables_equal_every_engine() {
    let mut checked = 0;
    for golden in load() {
        for (spec, words) in &golden.games {
            let built = Built::new(spec);
            assert_eq!(&built.game().spec(), spec);
            if words.iter().any(|word| word == "rare-through") {
                let through = parameter(words, "rare-through") as usize;
                let mask = parameter(words, "mask") as u32;
                let listed: Vec<(usize, u32)> =
                    golden.numbers.chunks(2).map(|pair| (pair[0] as usize, pair[1] as u32)).collect();
                for kernel in [Kernel::Plain, Kernel::RareValue, Kernel::Auto] {
                    let values = sequence(&built, kernel, through + 1);
                    let rare: Vec<(usize, u32)> = (0..=through)
                        .filter(|&heap| (values[heap] & mask).count_ones().is_multiple_of(2))
                        .map(|heap| (heap, values[heap]))
                        .collect();
                    assert_eq!(rare, listed, "{} {kernel:?}", golden.file);
                    checked += 1;
                }
                continue;
            }
            let first = parameter(words, "first") as usize;
            let len = first + golden.numbers.len();
            let expected: Vec<u32> = golden.numbers.iter().map(|&value| value as u32).collect();
            let definition = definition_sequence(built.engine().moves(), len);
            assert_eq!(&definition[first..], &expected[..], "{} {spec}: the definition", golden.file);
            for kernel in [Kernel::Plain, Kernel::RareValue, Kernel::Auto] {
                let values = sequence(&built, kernel, len);
                assert_eq!(&values[first..], &expected[..], "{} {spec} {kernel:?}", golden.file);
                checked += 1;
            }
            for heap in first..len.min(first + 14) {
                assert_eq!(built.searched(heap as u64), u64::from(expected[heap - first]), "{spec} heap {heap}");
            }
            // The front end: the value of each heap, and of the sum of two.
            let ruleset = grundy::registry::parse_game(spec).unwrap();
            let value =
                |heaps: &[&str]| Position::parse_single(ruleset.clone(), heaps).unwrap().value().unwrap().to_string();
            for heap in first..len {
                assert_eq!(value(&[&heap.to_string()]), expected[heap - first].to_string(), "{spec} heap {heap}");
            }
            let xor = expected[0] ^ expected[len - 1 - first];
            assert_eq!(value(&[&first.to_string(), &(len - 1).to_string()]), xor.to_string());
        }
    }
    assert!(checked >= 60, "{checked}");
}
