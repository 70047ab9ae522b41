//! Computations under different [`Control`]s share nothing: two at once, on two threads, each
//! stopped and limited only by its own control (what a server or a notebook running several
//! at once relies on).

use grundy::GameError;
use grundy::control::Control;
use grundy::heap::octal::OctalGame;
use grundy::heap::{HeapGame, SEQUENCE_TASK};
use grundy::registry::{FrontEnd, parse_sum_in};
use grundy::wythoff::table::GrundyTable;

fn no_files(path: &str) -> Result<String, String> {
    Err(format!("cannot read `{path}`"))
}

/// A front end whose games compute under `control`.
fn front_end(control: &Control) -> FrontEnd<'static> {
    FrontEnd { control: control.clone(), ..FrontEnd::reading(&no_files) }
}

#[test]
fn cancelling_one_computation_stops_only_it() {
    let stopped = Control::default();
    let running = Control::default();
    let game = OctalGame::kayles();
    let (stopped_values, running_values) = std::thread::scope(|scope| {
        let stopped_thread = scope.spawn(|| {
            // Cancels its own control once some values are in: the run stops there.
            // (a sink that cancels the control at a count)
            let flag = stopped.cancel_flag();
            let control = stopped.relaying(SEQUENCE_TASK, move |done| {
                if done >= 4096 {
                    flag.store(true, std::sync::atomic::Ordering::SeqCst);
                }
            });
            let mut values = grundy::heap::CompactSequence::new();
            let finished = game.extend_sequence(&mut values, 10_000_000, &control).unwrap();
            (finished, values.len())
        });
        let running_thread = scope.spawn(|| {
            let mut values = grundy::heap::CompactSequence::new();
            let control = running.clone();
            let finished = game.extend_sequence(&mut values, 50_000, &control).unwrap();
            (finished, values.len())
        });
        (stopped_thread.join().unwrap(), running_thread.join().unwrap())
    });
    assert!(!stopped_values.0 && stopped_values.1 < 10_000_000, "the cancelled run stopped early: {stopped_values:?}");
    assert_eq!(running_values, (true, 50_000), "the other run went to its end");
    assert!(stopped.cancelled() && !running.cancelled());

    // The same through games built by the registry: each game carries its front end's control.
    let cancelled = Control::default();
    cancelled.cancel();
    let (refused, answered) = std::thread::scope(|scope| {
        let refused = scope.spawn(|| parse_sum_in(&["kayles", "30000"], &front_end(&cancelled)).unwrap().value());
        let answered = scope.spawn(|| parse_sum_in(&["kayles", "30000"], &front_end(&running)).unwrap().value());
        (refused.join().unwrap(), answered.join().unwrap())
    });
    let refused = refused.unwrap_err().to_string();
    assert!(refused.contains("interrupted"), "{refused}");
    assert!(answered.is_ok(), "{answered:?}");
}

#[test]
fn a_tiny_memory_limit_refuses_only_its_own_computation() {
    let tiny = Control::default().with_memory_limit(1 << 10);
    let roomy = Control::default();
    let (refused, computed) = std::thread::scope(|scope| {
        let refused = scope.spawn(|| GrundyTable::compute(64, &tiny));
        let computed = scope.spawn(|| GrundyTable::compute(64, &roomy));
        (refused.join().unwrap(), computed.join().unwrap())
    });
    match refused {
        Err(GameError::TooLarge { limit, .. }) => assert_eq!(limit, 1 << 10),
        other => panic!("expected the 1 KiB limit to refuse the table, got {:?}", other.map(|table| table.size())),
    }
    assert_eq!(computed.unwrap().size(), 64);

    // Through the registry: the limit travels in the game built.
    let (refused, answered) = std::thread::scope(|scope| {
        let refused = scope.spawn(|| parse_sum_in(&["kayles", "5000"], &front_end(&tiny)).unwrap().value());
        let answered = scope.spawn(|| parse_sum_in(&["kayles", "5000"], &front_end(&roomy)).unwrap().value());
        (refused.join().unwrap(), answered.join().unwrap())
    });
    let refused = refused.unwrap_err().to_string();
    assert!(refused.contains("1.0 KiB allowed"), "{refused}");
    assert!(answered.is_ok(), "{answered:?}");
}

/// Every kind of nim-sequence computation (an engine's kernel, a game extended in chunks,
/// Grundy's game) reports the values known as its control's [`SEQUENCE_TASK`], growing, ending
/// at the length asked for, and once a block of heaps, never once a heap.
#[test]
fn sequence_progress_reaches_the_control_once_a_block() {
    use grundy::heap::grundys_game::GrundysGame;
    use grundy::heap::nim::Nim;
    use grundy::heap::subtraction::SubtractionGame;
    use std::sync::{Arc, Mutex};
    let games: Vec<Box<dyn HeapGame>> = vec![
        Box::new(OctalGame::kayles()),
        Box::new(SubtractionGame::new(vec![2, 5, 7]).unwrap()),
        Box::new(GrundysGame::new()),
        Box::new(Nim),
    ];
    let len = 300_000;
    for game in games {
        let counts = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&counts);
        let control = Control::default().relaying(SEQUENCE_TASK, move |done| seen.lock().unwrap().push(done));
        let mut values = grundy::heap::CompactSequence::new();
        assert!(game.extend_sequence(&mut values, len, &control).unwrap());
        let counts = counts.lock().unwrap();
        let spec = game.spec();
        assert_eq!(counts.last(), Some(&(len as u64)), "{spec}: {counts:?}");
        assert!(counts.windows(2).all(|pair| pair[0] < pair[1]), "{spec}: {counts:?}");
        assert!(counts.len() <= len / 64, "{spec}: {} reports for {len} heaps", counts.len());
    }
}
