//! README examples are real output: every `$ grundy …` line in a `console` block of README.md
//! is run, and its stdout (or, when the example shows an error, its stderr and exit status 2)
//! must match the lines below it. Also, `.ci/run` runs exactly README's test command.

use std::path::Path;
use std::process::Command;

fn workspace_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().and_then(Path::parent).expect("crates/grundy-cli")
}

/// Splits a command line into words (no quoting is used in the README).
fn run(command_line: &str) -> (String, String, i32) {
    let words: Vec<&str> = command_line.split_whitespace().collect();
    assert_eq!(words[0], "grundy", "{command_line}");
    let output = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(&words[1..])
        .current_dir(workspace_root())
        .output()
        .expect("grundy runs");
    (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
        output.status.code().unwrap_or(-1),
    )
}

#[test]
fn readme_examples_are_real_output() {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let mut in_console = false;
    let mut examples: Vec<(String, String)> = Vec::new();
    for line in readme.lines() {
        if line.starts_with("```console") {
            in_console = true;
        } else if line.starts_with("```") {
            in_console = false;
        } else if in_console {
            if let Some(command) = line.strip_prefix("$ ") {
                examples.push((command.to_owned(), String::new()));
            } else if let Some((_, expected)) = examples.last_mut() {
                expected.push_str(line);
                expected.push('\n');
            }
        }
    }
    assert!(examples.len() >= 10, "README has its examples");
    for (command, expected) in &examples {
        let (stdout, stderr, status) = run(command);
        if expected.starts_with("grundy: error:") {
            assert_eq!((stderr.as_str(), status), (expected.as_str(), 2), "{command}");
            assert!(stdout.is_empty(), "{command}");
        } else {
            assert_eq!((stdout.as_str(), status), (expected.as_str(), 0), "{command}\nstderr: {stderr}");
        }
    }
}

#[test]
fn ci_runs_the_readme_test_command() {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let ci = std::fs::read_to_string(workspace_root().join(".ci/run")).unwrap();
    let test_command = readme.lines().find(|line| line.starts_with("cargo test")).expect("README names a test command");
    assert!(ci.lines().any(|line| line == test_command), "`.ci/run` must run `{test_command}`");
    assert!(readme.contains("cargo run --release -- value nim 3 4 5"));
}
