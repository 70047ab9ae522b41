//! Any bytes as the state of a bounded run of Grundy's game (`sequence --bounded
//! --checkpoint`): read and checked, or refused. Never a panic or a huge allocation; a state
//! that is read writes itself back the same and resumes without a panic.
#![no_main]
use grundy::control::Control;
use grundy::heap::sequence::window::WindowedGrundy;
use libfuzzer_sys::fuzz_target;

/// A few tables of 16 MiB at most: a header announcing more is refused before any is made.
const MEMORY: u128 = 16 << 20;

fuzz_target!(|bytes: &[u8]| {
    let control = Control::default().with_memory_limit(MEMORY);
    let Ok(mut run) = WindowedGrundy::read_state(&mut &bytes[..], &control) else { return };
    let mut written = Vec::new();
    run.write_state(&mut written).expect("a Vec takes any bytes");
    let reread = WindowedGrundy::read_state(&mut written.as_slice(), &control);
    assert_eq!(reread.as_ref().ok(), Some(&run), "a state read back writes itself back the same");
    // Resumed as the command line resumes it: its tables at the state's own sizes checked first.
    let more = run.len().saturating_add(64);
    let (prefix, window) = run.sizes();
    if control.check_memory(|| String::new(), WindowedGrundy::memory_for(prefix, window, more), 1).is_ok() {
        let _ = run.extend_to(more, &mut |_, _| {}, &|| false);
    }
});
