//! `grundy census`: every row agrees with `grundy period`, and a census stopped by Ctrl-C or
//! killed outright, then run again, ends with the rows of an uninterrupted run.

use crate::common::{fresh_directory, grundy};
use serde_json::Value;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The rows of `db` as JSON objects, without the time taken.
fn rows(db: &str) -> Vec<Value> {
    let run = grundy(&["census", "report", "--db", db, "--format", "json"]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let mut rows: Vec<Value> = serde_json::from_str(&run.stdout).unwrap();
    for row in &mut rows {
        row.as_object_mut().unwrap().remove("seconds");
    }
    rows
}

#[test]
fn every_row_agrees_with_the_period_command() {
    let scratch = fresh_directory("period");
    let dir = scratch.path();
    let db = dir.join("t.sqlite");
    let db = db.to_str().unwrap();
    let run = grundy(&["census", "octal", "--digits", "1..2", "--to", "2000", "--db", db]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("census of 63 games"), "{}", run.stdout);
    let rows = rows(db);
    assert_eq!(rows.len(), 63);
    assert_eq!(rows[0]["game"], "octal:0.01");
    assert_eq!(rows[62]["game"], "octal:0.77");
    for row in &rows {
        let game = row["game"].as_str().unwrap();
        let period = grundy(&["period", game, "--max", "2000", "--json"]);
        let answer: Value = serde_json::from_str(&period.stdout).unwrap();
        for field in ["preperiod", "period", "saltus", "proved", "checked_to"] {
            assert_eq!(row[field], answer[field], "{game} {field}");
        }
    }
    // The report: Markdown by code, the unresolved ones alone, CSV with every column.
    let table = grundy(&["census", "report", "--db", db]).stdout;
    assert!(table.contains("| octal:0.07 | 34 | 53 | proved | 175 |"), "{table}");
    let unsolved = grundy(&["census", "report", "--db", db, "--unsolved"]).stdout;
    assert_eq!(unsolved.lines().count(), 2 + 17, "{unsolved}");
    assert!(unsolved.contains("| octal:0.6 |  |  | unresolved | 2000 |"), "{unsolved}");
    let csv = grundy(&["census", "report", "--db", db, "--format", "csv"]).stdout;
    assert_eq!(csv.lines().count(), 64);
    // A rerun computes nothing.
    let again = grundy(&["census", "octal", "--digits", "1..2", "--to", "2000", "--db", db]);
    assert!(again.stdout.contains("0 computed now, 63 already there"), "{}", again.stdout);
    // A smaller bound is already answered; a larger one recomputes only the unresolved games.
    let smaller = grundy(&["census", "octal", "--digits", "1..2", "--to", "1000", "--db", db]);
    assert!(smaller.stdout.contains("0 computed now"), "{}", smaller.stdout);
    let larger = grundy(&["census", "octal", "--digits", "1..2", "--to", "2100", "--db", db]);
    assert!(larger.stdout.contains("17 computed now, 46 already there"), "{}", larger.stdout);
}

/// The names of the files of `dir`, each with its length and modification time.
fn listing(dir: &std::path::Path) -> Vec<(std::ffi::OsString, u64, std::time::SystemTime)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            let metadata = entry.metadata().unwrap();
            (entry.file_name(), metadata.len(), metadata.modified().unwrap())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn a_report_on_a_finished_census_leaves_its_folder_unchanged() {
    let scratch = fresh_directory("report-reads-only");
    let dir = scratch.path();
    let db = dir.join("t.sqlite");
    let db = db.to_str().unwrap();
    let run = grundy(&["census", "octal", "--digits", "1", "--to", "500", "--db", db]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let before = listing(dir);
    assert_eq!(before.len(), 1, "{before:?}");
    for format in ["md", "csv", "json"] {
        let report = grundy(&["census", "report", "--db", db, "--format", format]);
        assert_eq!(report.status, 0, "{}", report.stderr);
        assert!(report.stdout.contains("octal:0.7"), "{}", report.stdout);
        assert_eq!(listing(dir), before, "--format {format}");
    }
}

#[test]
fn bad_databases_and_options_are_one_line_exit_2() {
    let scratch = fresh_directory("bad");
    let dir = scratch.path();
    let text = dir.join("notes.txt");
    std::fs::write(&text, "not a database, only text\n".repeat(100)).unwrap();
    for (args, needle) in [
        (vec!["census", "octal", "--digits", "1", "--db", text.to_str().unwrap()], "is not an SQLite database"),
        (vec!["census", "report", "--db", dir.join("none.sqlite").to_str().unwrap()], "no census database"),
        (vec!["census", "octal", "--digits", "0..2", "--db", "x.sqlite"], "--digits `0..2`"),
        (vec!["census", "octal", "--digits", "two", "--db", "x.sqlite"], "--digits `two`"),
        (vec!["census", "hex", "--digits", "1", "--d0", "3", "--db", "x.sqlite"], "--d0 `3`"),
        (vec!["census", "sub", "--max-move", "3", "--moves", "4", "--db", "x.sqlite"], "--moves `4..4`"),
    ] {
        let run = grundy(&args);
        assert_eq!(run.status, 2, "{args:?}");
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(needle), "{args:?}: {}", run.stderr);
    }
}

/// Starts a census, stops it with `signal` once some rows are in, and checks that it stopped
/// early; then the same command finishes it. Returns the rows.
fn interrupted_then_finished(dir: &std::path::Path, signal: &str) -> Vec<Value> {
    let db = dir.join(format!("{signal}.sqlite"));
    let db = db.to_str().unwrap();
    let args = ["census", "octal", "--digits", "1..2", "--to", "12000", "--jobs", "1", "--db", db];
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait for the first committed rows (the schema and 0.1 … are done within moments).
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
        if std::path::Path::new(db).exists()
            && Command::new(env!("CARGO_BIN_EXE_grundy"))
                .args(["census", "report", "--db", db, "--format", "csv"])
                .output()
                .is_ok_and(|out| out.stdout.iter().filter(|&&b| b == b'\n').count() > 8)
        {
            break;
        }
    }
    let status = Command::new("kill").args([signal, &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let exit = child.wait().unwrap();
    let partial = rows(db).len();
    assert!(partial < 63, "{signal}: the census finished before it was stopped");
    if signal == "-INT" {
        assert_eq!(exit.code(), Some(130), "{signal}");
    }
    let finish = grundy(&args);
    assert_eq!(finish.status, 0, "{}", finish.stderr);
    assert!(finish.stdout.contains(&format!("{partial} already there")), "{}", finish.stdout);
    rows(db)
}

#[test]
fn a_stopped_census_finishes_with_the_rows_of_an_uninterrupted_one() {
    let scratch = fresh_directory("resume");
    let dir = scratch.path();
    let whole = dir.join("whole.sqlite");
    let run = grundy(&[
        "census",
        "octal",
        "--digits",
        "1..2",
        "--to",
        "12000",
        "--jobs",
        "2",
        "--db",
        whole.to_str().unwrap(),
    ]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    let expected = rows(whole.to_str().unwrap());
    assert_eq!(expected.len(), 63);
    for signal in ["-INT", "-KILL"] {
        assert_eq!(interrupted_then_finished(dir, signal), expected, "{signal}");
    }
}
