//! The command line tool's integration tests, compiled into one test binary: each file below
//! is a module of it, so that a build (CI's from scratch above all) compiles and links one
//! binary instead of one per file. `cargo test -p grundy-cli --test cli guess::` runs one file's
//! tests. Two files stay binaries of their own (Cargo.toml): `readme.rs` changes the process's
//! working directory, and `memory_estimates.rs` reads the peak memory of all the process's
//! children.

mod common;

mod canon;
mod census;
mod check_family;
mod coins;
mod compounds;
mod contest;
mod emitted_names;
mod examples;
mod foundation;
mod graphs;
mod guess;
mod guess_family;
mod hostile;
mod hostile_http;
mod long_runs;
mod misere;
mod newcomer;
mod octal_games;
mod play;
mod plot;
mod runs_and_json;
mod script;
mod sequences;
mod serve;
mod wythoff;

/// Every `tests/*.rs` file is a module above or a test binary named in Cargo.toml
/// (`autotests = false`: a new file listed nowhere would otherwise never run).
#[test]
fn every_test_file_is_compiled() {
    let directory = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let this = std::fs::read_to_string(directory.join("tests/cli.rs")).unwrap();
    let manifest = std::fs::read_to_string(directory.join("Cargo.toml")).unwrap();
    for entry in std::fs::read_dir(directory.join("tests")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let Some(module) = name.strip_suffix(".rs") else { continue };
        if module == "cli" {
            continue;
        }
        assert!(
            this.lines().any(|line| line == format!("mod {module};"))
                || manifest.lines().any(|line| line == format!("path = \"tests/{name}\"")),
            "tests/{name} is neither a module of tests/cli.rs nor a [[test]] of Cargo.toml"
        );
    }
}
