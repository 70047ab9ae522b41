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
    // README's examples run where a reader runs them: an empty directory into which
    // `grundy rules --write-examples DIR` wrote the files they name (graphs, scripts, a
    // solution). This test binary has no other test that depends on the working directory,
    // so changing it is safe.
    // (Removed when the test ends, passed or failed.)
    let directory = tempfile::Builder::new().prefix("grundy-readme-").tempdir().unwrap();
    let binary = trycmd::cargo::cargo_bin("grundy");
    let written = std::process::Command::new(&binary)
        .args(["rules", "--write-examples"])
        .arg(directory.path())
        .output()
        .expect("grundy runs");
    assert!(written.status.success(), "{}", String::from_utf8_lossy(&written.stderr));
    std::env::set_current_dir(directory.path()).unwrap();
    let root = workspace_root();
    let case = |path: &str| root.join(path);
    trycmd::TestCases::new()
        .register_bin("grundy", binary)
        .case(case("README.md"))
        .case(case("README.zh-CN.md"))
        .case(case("crates/grundy-cli/tests/cmd/*.toml"))
        .case(case("crates/grundy-cli/tests/cmd/*.md"));
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
    // Both walk through the classic problems step by step, at the same place.
    assert!(english.contains("### Classic problems, step by step"), "README.md solves the classic problems");
    assert!(chinese.contains("### 经典问题"), "README.zh-CN.md solves the classic problems");
    let translated = chinese.clone();
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
    for term in ["必胜态", "必败态", "SG 函数", "mex", "异或", "反 Nim", "Anti-SG", "SJ 定理"] {
        assert!(chinese.contains(term), "README.zh-CN.md says {term}");
    }
}

/// A line break inside a Chinese sentence renders as a stray space: outside code blocks, no
/// prose line of README.zh-CN.md ends in a Chinese character or full-width punctuation and
/// goes on in the next line.
#[test]
fn chinese_sentences_have_no_line_breaks() {
    let chinese = std::fs::read_to_string(workspace_root().join("README.zh-CN.md")).unwrap();
    let is_chinese = |c: char| matches!(c, '\u{3000}'..='\u{303f}' | '\u{3400}'..='\u{9fff}' | '\u{ff00}'..='\u{ffef}');
    let starts_block = |line: &str| {
        let line = line.trim_start();
        line.is_empty()
            || ["- ", "* ", "+ ", "#", "|", ">", "```", "<", "!["].iter().any(|start| line.starts_with(start))
            || line.split_once(". ").is_some_and(|(number, _)| number.chars().all(|c| c.is_ascii_digit()))
    };
    let mut in_code = false;
    let lines: Vec<&str> = chinese.lines().collect();
    for (number, pair) in lines.windows(2).enumerate() {
        if pair[0].trim_start().starts_with("```") {
            in_code = !in_code;
        }
        let (line, next) = (pair[0], pair[1]);
        if in_code || line.trim().is_empty() || line.starts_with(['#', '|', '<']) || starts_block(next) {
            continue;
        }
        let ends_chinese = line.trim_end().chars().last().is_some_and(is_chinese);
        let goes_on_chinese = next.trim_start().chars().next().is_some_and(is_chinese);
        assert!(
            !(ends_chinese || goes_on_chinese),
            "README.zh-CN.md line {} breaks a sentence: join it with the next line",
            number + 1
        );
    }
}
