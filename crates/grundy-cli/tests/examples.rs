//! Every example the tool prints runs as written: the `example:` lines of `grundy rules`, the
//! `Examples:` lines of each subcommand's `--help`, and the `$ ` lines of README.md, each
//! through `bash -c` exactly as printed: the examples grundy prints from an empty directory
//! (they must work wherever a user types them), README's from a directory holding only what
//! `grundy rules --write-examples DIR` writes (the files they name). And README's table of
//! games is the registry's.

use crate::common::grundy;
use std::path::Path;
use std::process::{Command, Stdio};

fn workspace_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().and_then(Path::parent).expect("crates/grundy-cli")
}

/// A new directory holding what `grundy rules --write-examples` writes and nothing else, as
/// README tells a reader to make (README's examples write their own files there too: pictures,
/// databases); removed when dropped.
fn with_example_files() -> tempfile::TempDir {
    let directory = crate::common::fresh_directory("examples-readme");
    let path = directory.path().to_str().expect("a UTF-8 temporary directory");
    let written = grundy(&["rules", "--write-examples", path]);
    assert_eq!(written.status, 0, "{}", written.stderr);
    directory
}

/// A new empty directory, away from the repository; removed when dropped.
fn elsewhere() -> tempfile::TempDir {
    crate::common::fresh_directory("examples-elsewhere")
}

/// Runs `command_line` with `bash -c` from `directory`, the built `grundy` first on the PATH.
fn bash_output_in(command_line: &str, directory: &Path) -> std::process::Output {
    let binary_directory = Path::new(env!("CARGO_BIN_EXE_grundy")).parent().unwrap();
    let path = format!("{}:{}", binary_directory.display(), std::env::var("PATH").unwrap_or_default());
    Command::new("bash")
        .args(["-c", command_line])
        .env("PATH", path)
        .current_dir(directory)
        .stdin(Stdio::null())
        .output()
        .expect("bash runs")
}

/// As [`bash_output_in`]: the exit status and everything it printed.
fn bash(command_line: &str, directory: &Path) -> (i32, String) {
    let output = bash_output_in(command_line, directory);
    let printed = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    (output.status.code().unwrap_or(-1), printed)
}

fn assert_runs_in(source: &str, command_line: &str, expected_status: i32, directory: &Path) {
    assert!(command_line.starts_with("grundy ") || command_line.starts_with("printf "), "{source}: `{command_line}`");
    let (status, printed) = bash(command_line, directory);
    assert_eq!(status, expected_status, "{source}: `{command_line}` printed\n{printed}");
}

#[test]
fn every_example_of_grundy_rules_runs_as_printed() {
    let rules = grundy(&["rules"]);
    assert_eq!(rules.status, 0);
    let examples: Vec<&str> =
        rules.stdout.lines().filter_map(|line| line.trim().strip_prefix("example:")).map(str::trim).collect();
    assert_eq!(examples.len(), grundy::registry::FAMILIES.len(), "one example per family");
    let directory = elsewhere();
    for example in examples {
        assert_runs_in("grundy rules", example, 0, directory.path());
    }
}

/// The subcommands `grundy --help` lists.
fn subcommands() -> Vec<String> {
    let help = grundy(&["--help"]);
    assert_eq!(help.status, 0);
    help.stdout
        .lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_example_of_every_help_runs_as_printed() {
    let subcommands = subcommands();
    for expected in ["value", "outcome", "moves", "rules", "table", "play", "sequence", "period", "stats", "plot"] {
        assert!(subcommands.iter().any(|name| name == expected), "`grundy --help` lists {expected}: {subcommands:?}");
    }
    for subcommand in &subcommands {
        let help = grundy(&[subcommand, "--help"]);
        assert_eq!(help.status, 0, "{subcommand}");
        let examples: Vec<&str> = help
            .stdout
            .lines()
            .skip_while(|line| line.trim() != "Examples:")
            .skip(1)
            .take_while(|line| line.starts_with("  "))
            .map(str::trim)
            .collect();
        assert!(examples.len() >= 2, "`grundy {subcommand} --help` shows two or three examples:\n{}", help.stdout);
        let directory = elsewhere();
        for example in examples {
            assert_runs_in(&format!("grundy {subcommand} --help"), example, 0, directory.path());
        }
    }
}

/// Every `$ ` line of README runs through `bash -c` with the exit status shown (`? N`, else 0).
/// trycmd checks the output of the `console` blocks; the `sh` blocks hold pipelines trycmd
/// cannot run, so their output (stdout, up to a blank line or the fence) is checked here.
#[test]
fn every_readme_command_line_runs_through_bash() {
    every_command_line_runs_through_bash("README.md");
}

#[test]
fn every_chinese_readme_command_line_runs_through_bash() {
    every_command_line_runs_through_bash("README.zh-CN.md");
}

fn every_command_line_runs_through_bash(name: &str) {
    let directory = with_example_files();
    let readme = std::fs::read_to_string(workspace_root().join(name)).unwrap();
    let mut lines = readme.lines().peekable();
    let (mut count, mut shell_outputs, mut fence) = (0, 0, String::new());
    while let Some(line) = lines.next() {
        if let Some(info) = line.strip_prefix("```") {
            fence = if fence.is_empty() { format!("`{info}") } else { String::new() };
            continue;
        }
        let Some(command_line) = line.strip_prefix("$ ") else { continue };
        // trycmd's exit-status line, right below the command.
        let status = lines.peek().and_then(|next| next.strip_prefix("? ")).map_or(0, |code| code.parse().unwrap());
        assert_runs_in(name, command_line, status, directory.path());
        count += 1;
        if fence == "`sh" {
            let mut expected = String::new();
            while let Some(next) =
                lines.peek().filter(|next| !next.is_empty() && !next.starts_with("```") && !next.starts_with("$ "))
            {
                expected.push_str(next);
                expected.push('\n');
                lines.next();
            }
            let printed = String::from_utf8(bash_output_in(command_line, directory.path()).stdout).unwrap();
            assert_eq!(printed, expected, "{name}: `{command_line}`");
            shell_outputs += 1;
        }
    }
    assert!(count >= 40, "README has its examples ({count})");
    assert!(shell_outputs >= 3, "README's pipelines are checked ({shell_outputs})");
}

/// The cells of a README's table of games (the table under `### \`grundy rules\``).
fn readme_games_table(file: &str) -> Vec<Vec<String>> {
    let readme = std::fs::read_to_string(workspace_root().join(file)).unwrap();
    readme
        .lines()
        .skip_while(|line| *line != "### `grundy rules`")
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .skip(2) // the header and its rule
        .map(|row| row.trim_matches('|').split(" | ").map(|cell| cell.trim().to_owned()).collect())
        .collect()
}

#[test]
fn readme_games_table_is_the_registry() {
    let families = grundy::registry::FAMILIES;
    let expected: Vec<String> = families.iter().map(|family| format!("`{}`", family.syntax)).collect();
    // Both languages: a family missing from either table fails here.
    for file in ["README.md", "README.zh-CN.md"] {
        let rows = readme_games_table(file);
        let syntaxes: Vec<String> = rows.iter().map(|row| row[0].clone()).collect();
        assert_eq!(syntaxes, expected, "{file}'s games table lists the registry's families, in order");
        for (row, family) in rows.iter().zip(families) {
            assert_eq!(row.len(), 3, "{file}: {row:?}");
            assert_eq!(row[1], family.summary, "{file}: {}", family.syntax);
            assert_eq!(row[2], family.component, "{file}: {}", family.syntax);
        }
        // And every built-in judge format is named there.
        let readme = std::fs::read_to_string(workspace_root().join(file)).unwrap();
        for (name, _, _) in grundy::judge_format::BUILTIN_FORMATS {
            assert!(readme.contains(&format!("`{name}`")), "{file} names the built-in format {name}");
        }
    }
    // And the registry is what `grundy rules --json` prints.
    let rules: serde_json::Value = serde_json::from_str(&grundy(&["rules", "--json"]).stdout).unwrap();
    let printed: Vec<String> = rules["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|game| format!("`{}`", game["syntax"].as_str().unwrap()))
        .collect();
    assert_eq!(printed, expected);
}

/// README's library example, as written there (README is not a doctest).
#[test]
fn readme_library_example() {
    use grundy::registry::parse_sum;
    let position = parse_sum(&["nim", "3", "+", "wythoff", "4,7", "+", "sub:2,5", "9"]).unwrap();
    assert_eq!(position.value().unwrap().to_string(), "2");
    assert_eq!(position.outcome().unwrap().to_string(), "N");
    let winning = position.winning_moves().unwrap();
    assert_eq!(position.after(&winning[0]).value().unwrap().to_string(), "0");
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    assert!(readme.contains(r#"parse_sum(&["nim", "3", "+", "wythoff", "4,7", "+", "sub:2,5", "9"])"#));
}
