//! The memory estimates grundy refuses by are honest: the peak resident memory of a run is
//! within 20% of the estimate (issue 18). One test in its own binary, so that the peak of this
//! process's children (`getrusage(RUSAGE_CHILDREN)`) is the peak of the runs below.
#![cfg(target_os = "linux")]

use std::process::{Command, Stdio};

/// The largest resident set of any child so far, in bytes.
fn peak_of_children() -> u128 {
    // SAFETY: getrusage fills one rusage struct, which `usage` is.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) }, 0);
    usage.ru_maxrss as u128 * 1024
}

fn run(args: &[&str]) {
    let status = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "{args:?}");
}

#[test]
fn peaks_are_within_20_percent_of_the_estimates() {
    // Increasing sizes, so that each run's peak is the largest so far.
    let cases: [(&[&str], u128); 2] = [
        (&["sequence", "sub:2,5", "--to", "40000000"], 4 * 40_000_001),
        (&["table", "wythoff", "--size", "5000"], grundy::wythoff::table::GrundyTable::bytes_needed_as_rows(5000)),
    ];
    for (args, estimate) in cases {
        run(args);
        let peak = peak_of_children();
        let ratio = peak as f64 / estimate as f64;
        eprintln!("{args:?}: estimate {estimate} B, peak {peak} B, ratio {ratio:.3}");
        assert!((0.8..=1.2).contains(&ratio), "{args:?}: estimate {estimate} B, peak {peak} B");
    }
}
