//! The Python package's tests, run by `cargo test --workspace` like every other test: builds
//! the extension into the virtual environment `.venv` at the repository root (`.ci/run` makes
//! it: `python3 -m venv .venv && .venv/bin/pip install maturin pytest numpy "dask[distributed]"`) with
//! `maturin develop`, then runs pytest over `python/tests` and every docstring example.
//!
//! Without `.venv` the test fails under CI (`CI` set to anything but empty, `0` or `false`),
//! and elsewhere passes with a notice written past the test harness's capture, so that
//! `cargo test --workspace` shows it on the console.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2).expect("crates/grundy-py is two levels down").to_owned()
}

fn run(step: &str, command: &mut Command) {
    let output = command.output().unwrap_or_else(|error| panic!("{step}: cannot start: {error}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    // Shown by `cargo test -- --nocapture`, and always when the step fails.
    println!("{stdout}");
    eprintln!("{stderr}");
    assert!(output.status.success(), "{step} failed ({}):\n{stdout}\n{stderr}", output.status);
}

#[test]
fn python_package_passes_pytest() {
    let root = repository_root();
    let venv = root.join(".venv");
    let bin = venv.join("bin");
    let python = bin.join("python");
    if !python.exists() || !bin.join("maturin").exists() {
        let ci = std::env::var("CI").ok();
        assert!(
            !in_ci(ci.as_deref()),
            "CI: no Python environment at {}: .ci/run makes it (python3 -m venv .venv; .venv/bin/pip install maturin pytest numpy \"dask[distributed]\")",
            venv.display()
        );
        // `eprintln!` is captured (shown only for a failing test): write to the stream itself.
        let _ = writeln!(
            std::io::stderr(),
            "\nNOTE: the Python package's tests were SKIPPED: no {} (python3 -m venv .venv && .venv/bin/pip install maturin pytest numpy \"dask[distributed]\")",
            venv.display()
        );
        return;
    }
    let path = std::env::join_paths(
        std::iter::once(bin.clone()).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .expect("PATH joins");
    // The outer `cargo test`'s target directory (its lock is released once the tests run):
    // the crates both builds compile with the same features are compiled once, which saves CI
    // most of a second build of the library's dependencies.
    run(
        "maturin develop",
        Command::new(bin.join("maturin"))
            .args(["develop", "--quiet"])
            .current_dir(&root)
            .env("VIRTUAL_ENV", &venv)
            .env("PATH", &path),
    );
    run(
        "pytest",
        Command::new(&python)
            .args([
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "--doctest-modules",
                "python/tests",
                "python/grundy",
            ])
            .current_dir(&root)
            .env("VIRTUAL_ENV", &venv)
            .env("PATH", &path),
    );
}

/// Whether the value of `CI` says the tests run under continuous integration (GitHub Actions and
/// most others set `CI=true`).
fn in_ci(value: Option<&str>) -> bool {
    value.is_some_and(|value| !matches!(value.trim().to_ascii_lowercase().as_str(), "" | "0" | "false"))
}

#[test]
fn ci_is_told_by_its_variable() {
    assert!(in_ci(Some("true")) && in_ci(Some("1")));
    assert!(!in_ci(None) && !in_ci(Some("")) && !in_ci(Some("false")) && !in_ci(Some("0")));
}
