//! The library's integration tests, compiled into one test binary: each file below is a module
//! of it, so that a build (CI's from scratch above all) compiles and links one binary instead of
//! one per file. `cargo test -p grundy --test integration model::` runs one file's tests.
//! Property tests keep their regression files next to their source (`tests/model.rs` →
//! `tests/model.proptest-regressions`): proptest names them after the file a test is in.

mod bad_input;
mod census;
mod coins_golden;
mod control;
mod graph_golden;
mod misere_quotients;
mod model;
mod nim_sequences;
mod winning_moves;

/// Every `tests/*.rs` file is a module above (`autotests = false` in Cargo.toml: a new file
/// listed nowhere would otherwise never run).
#[test]
fn every_test_file_is_compiled() {
    let directory = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let this = std::fs::read_to_string(directory.join("integration.rs")).unwrap();
    for entry in std::fs::read_dir(&directory).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let Some(module) = name.strip_suffix(".rs") else { continue };
        if module != "integration" {
            assert!(
                this.lines().any(|line| line == format!("mod {module};")),
                "tests/{name} is not a module of tests/integration.rs"
            );
        }
    }
}
