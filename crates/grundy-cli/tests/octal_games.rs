//! `grundy value/outcome/moves` on octal and hexadecimal games, Kayles, Dawson's Kayles and
//! Grundy's game.

use std::process::Command;

fn grundy(args: &[&str]) -> (String, String, i32) {
    let output = Command::new(env!("CARGO_BIN_EXE_grundy")).args(args).output().unwrap();
    (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
        output.status.code().unwrap(),
    )
}

#[test]
fn values_of_the_classics() {
    // Kayles 0 1 2 3 1 4 3 2 1 4 2 6 … (Winning Ways p. 91): G(10) = 2, G(11) = 6.
    assert_eq!(grundy(&["value", "kayles", "10"]), ("2\n".into(), String::new(), 0));
    assert_eq!(grundy(&["value", "octal:0.77", "10", "11"]), ("4\n".into(), String::new(), 0));
    // Dawson's Kayles has Dawson's Chess's values one heap later (A002187: 0 1 1 2 0 3 …).
    assert_eq!(grundy(&["value", "dawson", "6"]).0, "3\n");
    assert_eq!(grundy(&["outcome", "dawson", "6", "6"]).0, "P\n");
    assert_eq!(grundy(&["value", "grundys-game", "13"]).0, "3\n");
    assert_eq!(grundy(&["value", "octal:4.07", "0"]).0, "0\n");
}

#[test]
fn moves_list_splits() {
    let (stdout, _, code) = grundy(&["moves", "grundys-game", "8"]);
    assert_eq!(code, 0);
    assert_eq!(stdout.lines().next().unwrap(), "1 7  # heap 1: 8 -> 1 + 7; value 2 -> 0, a P-position");
    let (stdout, _, _) = grundy(&["moves", "octal:0.137", "7", "9"]);
    assert!(stdout.contains("1 3 9  # heap 1: 7 -> 1 + 3;"), "{stdout}");
    let (stdout, _, _) = grundy(&["moves", "--json", "kayles", "3"]);
    assert!(stdout.contains("\"move\":\"3 -> 1 + 1\""), "{stdout}");
}

#[test]
fn bad_codes_are_one_line_exit_2() {
    for (game, needle) in [
        ("octal:0.18", "`8` at position 4 is not an octal digit"),
        ("octal:0.", "no digits after the point"),
        ("octal:0.1x", "`x` at position 4"),
        ("hex:0.1G", "`G` at position 4 is not a hexadecimal digit"),
        ("octal:", "missing parameters: write `octal:CODE`"),
        ("octal", "octal:CODE"),
        ("kayles:3", "no parameters"),
    ] {
        let (stdout, stderr, code) = grundy(&["value", game, "5"]);
        assert_eq!((stdout.as_str(), code), ("", 2), "{game}");
        assert_eq!(stderr.lines().count(), 1, "{game}: {stderr}");
        assert!(stderr.contains(needle), "{game}: {stderr}");
    }
}
