//! README's examples and the error cases are trycmd cases: every `$ grundy …` line in a
//! `console` block of README.md runs against the built binary and must print what is shown
//! below it (stdout and stderr together; a `? N` line gives the exit status), and so must every
//! case under `tests/cmd/` and every one of README.zh-CN.md, the Chinese translation, which holds
//! the same commands in the same order (and a section of its own). Also, `.ci/run` runs exactly README's test command.

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
        .case("README.zh-CN.md")
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

/// The `$ ` command lines of a README, in order.
fn command_lines(text: &str) -> Vec<&str> {
    text.lines().filter_map(|line| line.strip_prefix("$ ")).collect()
}

#[test]
fn the_chinese_readme_holds_the_same_examples() {
    let english = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let chinese = std::fs::read_to_string(workspace_root().join("README.zh-CN.md")).unwrap();
    assert!(
        english.lines().take(4).any(|line| line.contains("[中文](README.zh-CN.md)")),
        "README links its translation"
    );
    // Its own section, the classic contest problems step by step, up to the next heading.
    let own_section = "### 经典问题";
    let start = chinese.find(own_section).expect("README.zh-CN.md solves the classic problems");
    let end = chinese[start + own_section.len()..]
        .find("\n#")
        .map_or(chinese.len(), |offset| start + own_section.len() + offset);
    let translated = format!("{}{}", &chinese[..start], &chinese[end..]);
    assert_eq!(
        command_lines(&translated),
        command_lines(&english),
        "README.zh-CN.md must hold README.md's examples, in the same order: translate the change"
    );
    // Every code block of README, verbatim.
    let blocks = |text: &str| -> Vec<String> { text.split("```").skip(1).step_by(2).map(str::to_owned).collect() };
    let english_blocks = blocks(&english);
    let chinese_blocks = blocks(&translated);
    assert_eq!(chinese_blocks, english_blocks);
    for term in ["必胜态", "必败态", "SG 函数", "mex", "异或"] {
        assert!(chinese.contains(term), "README.zh-CN.md says {term}");
    }
}
