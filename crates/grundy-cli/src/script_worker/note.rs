//! The position the worker is expanding, kept where a failing allocation can still read it.
//!
//! An allocation past the worker's memory cap aborts the process (Rust's allocation-error
//! handler cannot be caught). Before it does, [`NotingAllocator`] writes
//! `grundy-worker: out of memory while expanding position X` to stderr with one `write` call
//! from a static buffer (no allocation), so the parent can name the position.
// A global allocator can only be written with `unsafe` (the `GlobalAlloc` trait is unsafe):
// every call is forwarded to `System` unchanged.
#![allow(unsafe_code)]

use grundy::script::ScriptPosition;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};

const CAPACITY: usize = 200;
const PREFIX: &[u8] = b"\ngrundy-worker: out of memory while expanding position ";

static NOTE: [AtomicU8; CAPACITY] = [const { AtomicU8::new(0) }; CAPACITY];
static NOTE_LEN: AtomicUsize = AtomicUsize::new(0);

/// The marker the parent looks for on the worker's stderr.
pub const OUT_OF_MEMORY: &str = "grundy-worker: out of memory while expanding position ";

/// Records the position about to be expanded (cut to 200 bytes).
pub fn set_expanding(position: &ScriptPosition) {
    let text = match position {
        ScriptPosition::Str(text) => format!("{text:?}"),
        other => other.to_string(),
    };
    let mut bytes = text.as_bytes();
    if bytes.len() > CAPACITY {
        let mut cut = CAPACITY - 3;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        bytes = &bytes[..cut];
    }
    for (slot, &byte) in NOTE.iter().zip(bytes) {
        slot.store(byte, Ordering::Relaxed);
    }
    NOTE_LEN.store(bytes.len(), Ordering::Release);
}

/// No position is being expanded.
pub fn clear() {
    NOTE_LEN.store(0, Ordering::Release);
}

/// The position being expanded, if any.
pub fn expanding() -> Option<String> {
    let len = NOTE_LEN.load(Ordering::Acquire);
    (len > 0).then(|| {
        let bytes: Vec<u8> = NOTE[..len].iter().map(|slot| slot.load(Ordering::Relaxed)).collect();
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// The bytes the process has allocated and not yet freed (what [`NotingAllocator`] counts).
static LIVE_BYTES: AtomicUsize = AtomicUsize::new(0);

/// The bytes this process holds on its heap now: in the worker, the script's memo and
/// everything else it keeps (the parent counts it against the run's memory budget).
pub fn live_bytes() -> usize {
    LIVE_BYTES.load(Ordering::Relaxed)
}

/// The system allocator, which counts the bytes it hands out ([`live_bytes`]) and on failure
/// first writes the note to stderr.
pub struct NotingAllocator;

// SAFETY: every call is forwarded to `System` unchanged; the failure path only reads statics
// and calls `write(2)`.
unsafe impl GlobalAlloc for NotingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let pointer = unsafe { System.alloc(layout) };
        if pointer.is_null() {
            write_note();
        } else {
            LIVE_BYTES.fetch_add(layout.size(), Ordering::Relaxed);
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        LIVE_BYTES.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: forwarded with the caller's guarantees.
        unsafe { System.dealloc(pointer, layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let pointer = unsafe { System.alloc_zeroed(layout) };
        if pointer.is_null() {
            write_note();
        } else {
            LIVE_BYTES.fetch_add(layout.size(), Ordering::Relaxed);
        }
        pointer
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded with the caller's guarantees.
        let moved = unsafe { System.realloc(pointer, layout, new_size) };
        if moved.is_null() {
            write_note();
        } else {
            LIVE_BYTES.fetch_add(new_size, Ordering::Relaxed);
            LIVE_BYTES.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        moved
    }
}

fn write_note() {
    let len = NOTE_LEN.load(Ordering::Acquire);
    if len == 0 {
        return;
    }
    let mut buffer = [0u8; PREFIX.len() + CAPACITY + 1];
    buffer[..PREFIX.len()].copy_from_slice(PREFIX);
    for (index, slot) in NOTE[..len].iter().enumerate() {
        buffer[PREFIX.len() + index] = slot.load(Ordering::Relaxed);
    }
    buffer[PREFIX.len() + len] = b'\n';
    crate::os::write_stderr(&buffer[..PREFIX.len() + len + 1]);
}

/// The marker the parent looks for when the watchdog ended a call past its time limit.
pub const CALL_TOO_LONG: &str = "grundy-worker: a script call ran past its time limit";

/// Ends the worker at once (no unwinding into the evaluator's half-done step), saying why and
/// naming the position being expanded, if any.
pub fn call_too_long() -> ! {
    let position = expanding().map(|position| format!(" while expanding position {position}")).unwrap_or_default();
    let line = format!("\n{CALL_TOO_LONG}{position}\n");
    crate::os::write_stderr(line.as_bytes());
    crate::os::exit_now(3)
}
