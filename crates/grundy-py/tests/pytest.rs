//! The Python package's tests, run by `cargo test --workspace` like every other test: builds
//! the extension into the virtual environment `.venv` at the repository root (`.ci/run` makes
//! it: `python3 -m venv .venv && .venv/bin/pip install maturin pytest numpy "dask[distributed]"`) with
//! `maturin develop`, then runs pytest over `python/tests` and every docstring example.
//!
//! Without `.venv` the test says so and passes, except under CI (`CI` set), where it fails.

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
        assert!(
            std::env::var_os("CI").is_none(),
            "CI: no Python environment at {}: .ci/run makes it (python3 -m venv .venv; .venv/bin/pip install maturin pytest numpy \"dask[distributed]\")",
            venv.display()
        );
        eprintln!(
            "SKIPPED: the Python package's tests need {}: python3 -m venv .venv && .venv/bin/pip install maturin pytest numpy \"dask[distributed]\"",
            venv.display()
        );
        return;
    }
    let path = std::env::join_paths(
        std::iter::once(bin.clone()).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .expect("PATH joins");
    // Its own target directory: the outer `cargo test` may hold the lock of `target/`.
    run(
        "maturin develop",
        Command::new(bin.join("maturin"))
            .args(["develop", "--quiet"])
            .current_dir(&root)
            .env("VIRTUAL_ENV", &venv)
            .env("PATH", &path)
            .env("CARGO_TARGET_DIR", root.join("target").join("python")),
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
