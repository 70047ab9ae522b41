use super::*;
use crate::heap::grundys_game::GrundysGame;
use crate::heap::octal::{CodeBase, OctalGame};
use crate::heap::{EngineBacked, HeapGame, HeapSum};
use crate::solve::memo::Solver;
use proptest::prelude::*;

const KERNELS: [Kernel; 3] = [Kernel::Plain, Kernel::RareValue, Kernel::Auto];

/// The sequence from `engine` with `kernel`, computed to `split` first and resumed to `len`.
fn computed(engine: &NimSequenceEngine, kernel: Kernel, split: usize, len: usize) -> Vec<u32> {
    engine.set_kernel(kernel);
    let mut values = CompactSequence::new();
    assert!(engine.extend("test", &mut values, split.min(len), &Control::default()).unwrap());
    assert!(engine.extend("test", &mut values, len, &Control::default()).unwrap());
    values.into_vec()
}

fn code_text(base: CodeBase, first: u8, digits: &[u8]) -> String {
    let digit = |d: u8| char::from_digit(u32::from(d), 16).unwrap();
    let _ = base;
    format!("{}.{}", digit(first), digits.iter().map(|&d| digit(d)).collect::<String>())
}

fn octal_code() -> impl Strategy<Value = String> {
    (prop_oneof![3 => Just(0u8), 1 => Just(4)], proptest::collection::vec(0u8..8, 1..5))
        .prop_map(|(first, digits)| code_text(CodeBase::Octal, first, &digits))
}

fn hex_code() -> impl Strategy<Value = String> {
    (prop_oneof![Just(0u8), Just(4), Just(8), Just(12)], proptest::collection::vec(0u8..16, 1..4))
        .prop_map(|(first, digits)| code_text(CodeBase::Hexadecimal, first, &digits))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_kernel_equals_the_definition_on_octal_codes(code in octal_code(), len in 1usize..160, cut in 0usize..160) {
        let game = OctalGame::parse(&code, CodeBase::Octal).unwrap();
        let expected = definition_sequence(game.engine().moves(), len);
        for kernel in KERNELS {
            prop_assert_eq!(&computed(game.engine(), kernel, cut, len), &expected, "{} {:?}", code, kernel);
        }
    }

    #[test]
    fn every_kernel_equals_the_definition_on_hex_codes(code in hex_code(), len in 1usize..70, cut in 0usize..70) {
        let game = OctalGame::parse(&code, CodeBase::Hexadecimal).unwrap();
        let expected = definition_sequence(game.engine().moves(), len);
        for kernel in KERNELS {
            prop_assert_eq!(&computed(game.engine(), kernel, cut, len), &expected, "{} {:?}", code, kernel);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// The definition on one heap agrees with the exhaustive search over sums of heaps.
    #[test]
    fn definition_equals_exhaustive_search(code in prop_oneof![octal_code(), hex_code().prop_map(|c| format!("h{c}"))]) {
        let game = match code.strip_prefix('h') {
            Some(hex) => OctalGame::parse(hex, CodeBase::Hexadecimal).unwrap(),
            None => OctalGame::parse(&code, CodeBase::Octal).unwrap(),
        };
        let sequence = definition_sequence(game.engine().moves(), 13);
        let mut solver = Solver::new(HeapSum(&game));
        for (heap, &value) in sequence.iter().enumerate() {
            let position = if heap == 0 { vec![] } else { vec![heap as u64] };
            prop_assert_eq!(solver.grundy_value(&position).unwrap().0, u64::from(value), "{} heap {}", code, heap);
        }
        // Sums of two heaps: the xor (the Sprague–Grundy theorem, checked by search).
        for (a, b) in [(3u64, 5u64), (4, 4), (2, 7)] {
            let value = solver.grundy_value(&vec![a, b]).unwrap().0;
            prop_assert_eq!(value, u64::from(sequence[a as usize] ^ sequence[b as usize]));
        }
    }
}

#[test]
fn grundys_game_every_kernel_and_search() {
    let game = GrundysGame::new();
    let expected = definition_sequence(game.engine().moves(), 400);
    for kernel in KERNELS {
        assert_eq!(computed(game.engine(), kernel, 123, 400), expected, "{kernel:?}");
    }
    let mut solver = Solver::new(HeapSum(&game));
    for heap in 1..16u64 {
        assert_eq!(solver.grundy_value(&vec![heap]).unwrap().0, u64::from(expected[heap as usize]));
    }
}

#[test]
fn auto_switches_to_rare_values_when_they_are_rare_and_agrees() {
    let game = GrundysGame::new();
    let plain = computed(game.engine(), Kernel::Plain, 0, 40_000);
    assert!(game.method().starts_with("plain"), "{}", game.method());
    let auto = computed(game.engine(), Kernel::Auto, 2500, 40_000);
    assert_eq!(auto, plain);
    assert!(game.method().contains("rare-value"), "{}", game.method());
    // 0.16: the rare-value kernel on an octal game.
    let game = OctalGame::parse("0.16", CodeBase::Octal).unwrap();
    let plain = computed(game.engine(), Kernel::Plain, 0, 5000);
    assert_eq!(computed(game.engine(), Kernel::Auto, 0, 5000), plain);
    assert!(game.method().contains("rare-value"), "{}", game.method());
}

#[test]
fn values_past_one_byte_widen_instead_of_wrapping() {
    // Remove 1 to 255 tokens, leaving 0, 1 or 2 heaps: G(n) >= n for small n.
    let code = format!("0.{}", "7".repeat(255));
    let game = OctalGame::parse(&code, CodeBase::Octal).unwrap();
    let expected = definition_sequence(game.engine().moves(), 330);
    assert!(expected.iter().any(|&value| value > 255));
    for kernel in KERNELS {
        assert_eq!(computed(game.engine(), kernel, 200, 330), expected, "{kernel:?}");
    }
    assert!(game.method().contains("16-bit"), "{}", game.method());
}

/// Officers (0.6) past heap 10,344, where its values pass 255: two-byte cells, whose rare-type
/// candidates the rare-value kernel searches in their low bytes ([`kernel`]'s `LowBytes`),
/// against the definition.
#[test]
fn officers_past_one_byte_agrees_with_the_definition() {
    let game = OctalGame::parse("0.6", CodeBase::Octal).unwrap();
    let len = 11_000;
    let expected = definition_sequence(game.engine().moves(), len);
    assert!(expected.iter().any(|&value| value > 255));
    for kernel in [Kernel::RareValue, Kernel::Auto] {
        assert_eq!(computed(game.engine(), kernel, 10_000, len), expected, "{kernel:?}");
    }
    assert!(game.method().contains("rare-value") && game.method().contains("16-bit"), "{}", game.method());
}

#[test]
fn cancel_stops_with_a_valid_prefix_and_resume_continues() {
    let game = OctalGame::kayles();
    let cancel = crate::control::Control::default();
    // A sink that cancels the control once 8192 values are known.
    let flag = cancel.cancel_flag();
    let control = cancel.relaying(crate::heap::SEQUENCE_TASK, move |done| {
        if done >= 8192 {
            flag.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    });
    let mut values = CompactSequence::new();
    assert!(!game.extend_sequence(&mut values, 100_000, &control).unwrap());
    assert!(values.len() < 100_000 && values.len() >= 8192);
    let mut fresh = CompactSequence::new();
    game.extend_sequence(&mut fresh, values.len(), &Control::default()).unwrap();
    assert_eq!(values, fresh);
    assert!(game.extend_sequence(&mut values, 20_000, &Control::default()).unwrap());
    assert_eq!(values.len(), 20_000);
    // Kayles is periodic with period 12 from 71 on.
    assert!((71..20_000 - 12).all(|n| values.get(n) == values.get(n + 12)));
}

#[test]
fn huge_tables_are_refused() {
    let game = OctalGame::kayles();
    let error = game.extend_sequence(&mut CompactSequence::new(), usize::MAX / 2, &Control::default()).unwrap_err();
    assert!(error.to_string().contains("kayles"), "{error}");
}

#[test]
fn rare_value_blocks_equal_plain() {
    for code in ["0.16", "0.137", "0.6", "0.354", "4.07", "0.106", "0.52"] {
        let game = OctalGame::parse(code, CodeBase::Octal).unwrap();
        let plain = computed(game.engine(), Kernel::Plain, 0, 4000);
        assert_eq!(computed(game.engine(), Kernel::RareValue, 1000, 4000), plain, "{code}");
        assert!(game.method().contains("rare-value"), "{code}: {}", game.method());
    }
}

#[test]
fn stretch_by_stretch_equals_one_call() {
    // The engine keeps its tables between calls that resume where the last stopped.
    let game = GrundysGame::new();
    let whole = computed(game.engine(), Kernel::Plain, 0, 20_000);
    game.engine().set_kernel(Kernel::Auto);
    let mut values = CompactSequence::new();
    while values.len() < 20_000 {
        let next = (values.len() + 777).min(20_000);
        game.extend_sequence(&mut values, next, &Control::default()).unwrap();
    }
    assert_eq!(values.to_vec(), whole);
    assert!(game.method().contains("rare-value"), "{}", game.method());
    // A shorter prefix than the tables hold: rebuilt from the prefix.
    values.truncate(12_345);
    game.extend_sequence(&mut values, 15_000, &Control::default()).unwrap();
    assert_eq!(values.to_vec(), whole[..15_000]);
    // Widening in the middle of a stretch.
    let wide = OctalGame::parse(&format!("0.{}", "7".repeat(255)), CodeBase::Octal).unwrap();
    let expected = definition_sequence(wide.engine().moves(), 330);
    let mut values = CompactSequence::new();
    while values.len() < 330 {
        let next = (values.len() + 37).min(330);
        wide.extend_sequence(&mut values, next, &Control::default()).unwrap();
    }
    assert_eq!(values.to_vec(), expected);
}

/// Hexadecimal codes with at least one three-way digit (8 to F somewhere after the point).
fn three_way_hex_code() -> impl Strategy<Value = String> {
    (proptest::collection::vec(0u8..16, 1..4), any::<usize>()).prop_map(|(mut digits, at)| {
        let place = at % digits.len();
        digits[place] |= 8;
        code_text(CodeBase::Hexadecimal, 0, &digits)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// The three-way kernel (pair-set words, 64 candidates at a time) against the definition,
    /// long enough that values pass 64 and 128 (several candidate words), computed in two
    /// stretches so that the stored pair sets are continued.
    #[test]
    fn three_way_kernel_equals_the_definition(code in three_way_hex_code(), len in 80usize..200, cut in 0usize..200) {
        let game = OctalGame::parse(&code, CodeBase::Hexadecimal).unwrap();
        let expected = definition_sequence(game.engine().moves(), len);
        prop_assert_eq!(&computed(game.engine(), Kernel::Auto, cut, len), &expected, "{}", code);
    }
}

#[test]
fn three_way_kernel_equals_the_definition_past_many_words() {
    // 0.8F: values reach about half the heap (G(599) is far above 64), so hundreds of
    // candidate words are decided.
    let game = OctalGame::parse("0.8F", CodeBase::Hexadecimal).unwrap();
    let expected = definition_sequence(game.engine().moves(), 600);
    assert!(expected.iter().any(|&value| value > 256));
    assert_eq!(computed(game.engine(), Kernel::Auto, 317, 600), expected);
}

/// The sequence from `engine` with `kernel` on a [`CompactSequence`], extended in stretches of
/// `stretch` values (the tables lent the values back after each).
fn computed_compact(engine: &NimSequenceEngine, kernel: Kernel, stretch: usize, len: usize) -> CompactSequence {
    engine.set_kernel(kernel);
    let mut values = CompactSequence::new();
    while values.len() < len {
        let next = (values.len() + stretch.max(1)).min(len);
        assert!(engine.extend("test", &mut values, next, &Control::default()).unwrap());
    }
    values
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// The compact path (the kernel working in the caller's one-byte table) against the
    /// definition, for every kernel, in random stretches.
    #[test]
    fn compact_tables_equal_the_definition(code in octal_code(), len in 1usize..160, stretch in 1usize..60) {
        let game = OctalGame::parse(&code, CodeBase::Octal).unwrap();
        let expected = definition_sequence(game.engine().moves(), len);
        for kernel in KERNELS {
            let values = computed_compact(game.engine(), kernel, stretch, len);
            prop_assert_eq!(values.width(), 1);
            prop_assert_eq!(&values.to_vec(), &expected, "{} {:?}", code, kernel);
        }
    }
}

#[test]
fn compact_tables_widen_and_resume_on_one_engine() {
    // Values past one byte: the compact sequence widens in the middle of a stretch.
    let wide = OctalGame::parse(&format!("0.{}", "7".repeat(255)), CodeBase::Octal).unwrap();
    let expected = definition_sequence(wide.engine().moves(), 330);
    for kernel in KERNELS {
        let values = computed_compact(wide.engine(), kernel, 37, 330);
        assert_eq!(values.width(), 2, "{kernel:?}");
        assert_eq!(values.to_vec(), expected, "{kernel:?}");
    }
    // Grundy's game, long enough for the rare-value kernel and its parallel blocks, with two
    // sequences extended by the same engine in turn (each rebuilds the tables).
    let game = GrundysGame::new();
    let whole = computed(game.engine(), Kernel::Plain, 0, 30_000);
    game.engine().set_kernel(Kernel::Auto);
    let mut compact = CompactSequence::new();
    let mut other = CompactSequence::new();
    while compact.len() < 30_000 {
        let next = (compact.len() + 4321).min(30_000);
        game.engine().extend("test", &mut compact, next, &Control::default()).unwrap();
        game.engine().extend("test", &mut other, next, &Control::default()).unwrap();
    }
    assert_eq!(compact.to_vec(), whole);
    assert_eq!(other.to_vec(), whole);
    assert!(game.method().contains("rare-value"), "{}", game.method());
    // A shorter prefix than the tables describe: rebuilt from it.
    compact.truncate(12_345);
    game.engine().extend("test", &mut compact, 15_000, &Control::default()).unwrap();
    assert_eq!(compact.to_vec(), whole[..15_000]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// The rare-value kernel against the definition on random octal codes long enough for many
    /// blocks of 256 heaps (chunks of rows, words and bytes, a mask chosen again at each block),
    /// computed inside a pool of two threads: the kernel runs on the calling thread only, and the
    /// method names no threads.
    #[test]
    fn rare_value_kernel_over_many_blocks_equals_the_definition(code in octal_code(), len in 600usize..1800) {
        let game = OctalGame::parse(&code, CodeBase::Octal).unwrap();
        let expected = definition_sequence(game.engine().moves(), len);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let computed = pool.install(|| computed(game.engine(), Kernel::RareValue, len / 3, len));
        prop_assert_eq!(&computed, &expected, "{}", code);
        prop_assert!(!game.method().contains("thread"), "{}", game.method());
    }
}
