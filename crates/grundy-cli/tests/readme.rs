//! README's examples and the error cases are trycmd cases: every `$ grundy …` line in a
//! `console` block of README.md runs against the built binary and must print what is shown
//! below it (stdout and stderr together; a `? N` line gives the exit status), and so must every
//! case under `tests/cmd/`. Also, `.ci/run` runs exactly README's test command.

use std::path::Path;

fn workspace_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().and_then(Path::parent).expect("crates/grundy-cli")
}

#[test]
fn readme_and_error_cases() {
    // README's graph examples name files from the repository root, as a user who cloned it
    // types them; this test binary has no other test, so changing its directory is safe.
    std::env::set_current_dir(workspace_root()).unwrap();
    trycmd::TestCases::new()
        .register_bin("grundy", trycmd::cargo::cargo_bin("grundy"))
        .case("README.md")
        .case("crates/grundy-cli/tests/cmd/*.toml")
        .case("crates/grundy-cli/tests/cmd/*.md");
}

#[test]
fn ci_runs_the_readme_test_command() {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let ci = std::fs::read_to_string(workspace_root().join(".ci/run")).unwrap();
    let test_command = readme.lines().find(|line| line.starts_with("cargo test")).expect("README names a test command");
    assert_eq!(test_command, "cargo test --workspace");
    assert!(ci.lines().any(|line| line == test_command), "`.ci/run` must run `{test_command}`");
    assert!(readme.contains("cargo install --locked --path crates/grundy-cli"));
}
