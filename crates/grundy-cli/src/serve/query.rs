//! The API's query strings (`game=nim&position=3+4+5`) into the grundy command a request runs,
//! and the rule on files: a game that names a file (`dag:FILE`, `geography:FILE`,
//! `script:PATH`) is refused before any process runs, unless the file is one of the scripts
//! pasted into this server or lies inside the folder `grundy serve --files DIR` serves. The
//! child would otherwise read any file the server's user can, and its errors quote what it read.
//!
//! This file uses std, `form_urlencoded` and the grundy library only: the fuzz target
//! `http_query` (fuzz/fuzz_targets/http_query.rs) compiles it as it is.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The largest nim-sequence a request may ask for (`to`).
pub const LARGEST_SEQUENCE: u64 = 100_000;
/// The largest `offset` and `count` of a page of options.
pub const LARGEST_PAGE: u64 = 1_000_000_000;
/// The largest two-heap table a request may draw (`size`).
pub const LARGEST_TABLE: u64 = 1024;

/// The endpoints whose query names a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// `GET /api/answer?game=G&position=P[&misere=1][&compound=C]`
    Answer,
    /// `GET /api/options?game=G&position=P[&offset=K&count=C][&compound=C]`
    Options,
    /// `GET /api/value?game=G&position=P`: the value and outcome alone, for a position whose
    /// moves are too many to list (a huge heap)
    Value,
    /// `GET /api/play?game=G&position=P[&move=M][&first=engine][&hints=1][&compound=C]`, or
    /// `&replay=P1;P2;…`: the positions after each move of a recorded game (a link's
    /// `moves=`), replayed and checked in one run (`grundy play --replay`)
    Play,
    /// `GET /api/sequence?game=G&to=N`
    Sequence,
    /// `GET /api/plot?game=G&to=N` or `&size=N`
    Plot,
    /// `GET /api/check?game=G&formula=F&to=N`
    Check,
    /// `GET /api/rules?game=G`: the rules of one game
    Rules,
    /// `GET /api/guess?game=G[&emit=python|cpp]`: the pattern, or the code it emits
    Guess,
}

/// What a request runs: `grundy --json` with the server's limits, then `arguments`, with `stdin`
/// on its standard input. Every word that came from the request follows a `--`, so that none is
/// taken for a flag (or is a `--flag=VALUE` the server built itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChildCommand {
    pub arguments: Vec<String>,
    pub stdin: String,
}

/// A request refused before anything runs: the HTTP status and the JSON error object's `kind`
/// and one-line `message` (docs/json.md). The message quotes only what the request sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub kind: &'static str,
    pub message: String,
}

fn usage(message: impl Into<String>) -> Refusal {
    Refusal { status: 400, kind: "usage", message: message.into() }
}

/// Whether a path is a script pasted into this server (`POST /api/script`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PastedScript {
    /// One the server still keeps: its games are served.
    Kept,
    /// One the server pasted and has since removed (it keeps a limited number).
    Removed,
    /// Not a pasted script at all.
    NotPasted,
}

/// Which files the games of a request may read.
#[derive(Clone, Copy)]
pub struct FileRules<'a> {
    /// The folder `--files` serves, canonical (symbolic links resolved): games may name files
    /// inside it, relative to it or by their whole path. `None`: no file is served.
    pub folder: Option<&'a Path>,
    /// What the server knows of a path among its pasted scripts.
    pub pasted: &'a dyn Fn(&Path) -> PastedScript,
}

/// The parameters of a query string, decoded (`+` and `%20` are spaces); a name given twice
/// keeps its last value.
pub fn parse_query(raw: &str) -> HashMap<String, String> {
    form_urlencoded::parse(raw.as_bytes()).into_owned().collect()
}

/// The command a request to `endpoint` with query string `raw` runs, or why it is refused.
pub fn child_command(endpoint: Endpoint, raw: &str, files: FileRules) -> Result<ChildCommand, Refusal> {
    let params = parse_query(raw);
    let command = |arguments: Vec<String>| ChildCommand { arguments, stdin: String::new() };
    match endpoint {
        Endpoint::Answer | Endpoint::Options => {
            let words = position_words(&params, false)?;
            check_files(&words, files)?;
            let mut arguments = vec!["moves".to_owned()];
            let compound = compound_flag(&params)?;
            if endpoint == Endpoint::Options {
                arguments.push("--all".to_owned());
                // A page is judged alone (a heap of 10^6 has 10^6 options); a compound's moves
                // (at most 1000) are paged by the server.
                if compound.is_none() {
                    for name in ["offset", "count"] {
                        if let Some(number) = number(&params, name, LARGEST_PAGE)? {
                            arguments.push(format!("--{name}={number}"));
                        }
                    }
                }
            } else if params.get("misere").is_some_and(|misere| misere == "1") {
                if compound.is_some() {
                    return Err(usage("misère play is of the sum only: choose the sum, or normal play for a compound"));
                }
                arguments.push("--misere".to_owned());
            }
            arguments.extend(compound);
            Ok(command([arguments, words].concat()))
        }
        Endpoint::Value => {
            let words = position_words(&params, false)?;
            check_files(&words, files)?;
            Ok(command([vec!["value".to_owned()], words].concat()))
        }
        Endpoint::Play => play_command(&params, files),
        Endpoint::Sequence => {
            let game = game_word(&params)?;
            check_files(&game, files)?;
            let to = number(&params, "to", LARGEST_SEQUENCE)?.unwrap_or(100);
            Ok(command([vec!["sequence".to_owned(), format!("--to={to}")], game].concat()))
        }
        Endpoint::Plot => {
            let game = game_word(&params)?;
            check_files(&game, files)?;
            let mut arguments = vec!["plot".to_owned()];
            if let Some(size) = number(&params, "size", LARGEST_TABLE)? {
                arguments.push(format!("--size={size}"));
            }
            if let Some(to) = number(&params, "to", LARGEST_SEQUENCE)? {
                arguments.push(format!("--to={to}"));
            }
            Ok(command([arguments, game].concat()))
        }
        Endpoint::Guess => {
            let game = game_word(&params)?;
            check_files(&game, files)?;
            let mut arguments = vec!["guess".to_owned()];
            match params.get("emit").map(|emit| emit.trim()).unwrap_or("") {
                "" => {}
                language @ ("python" | "cpp") => arguments.push(format!("--emit={language}")),
                other => {
                    let shown = grundy::error::quote(other);
                    return Err(usage(format!("bad emit `{shown}`: write python or cpp")));
                }
            }
            Ok(command([arguments, game].concat()))
        }
        Endpoint::Rules => {
            let game = game_word(&params)?;
            check_files(&game, files)?;
            Ok(command([vec!["rules".to_owned()], game].concat()))
        }
        Endpoint::Check => {
            let game = game_word(&params)?;
            check_files(&game, files)?;
            let to = number(&params, "to", LARGEST_SEQUENCE)?.unwrap_or(1000);
            let formula = params.get("formula").map(|formula| formula.trim()).unwrap_or("");
            if formula.is_empty() {
                return Err(usage("no formula given: write one over the heap `n`, like `n % 7 not in (0, 2)`"));
            }
            Ok(command([vec!["check".to_owned(), format!("--formula={formula}"), format!("--to={to}")], game].concat()))
        }
    }
}

/// One turn of a game: the person's move (if any) typed into `play`, then `hint`: a `hint`
/// event means the game goes on (`play` reads no more once the game is over), and gives the hint.
fn play_command(params: &HashMap<String, String>, files: FileRules) -> Result<ChildCommand, Refusal> {
    let words = position_words(params, true)?;
    check_files(&words, files)?;
    let typed = params.get("move").map(|typed| ascii_width(typed.trim())).unwrap_or_default();
    if typed.contains(['\n', '\r']) {
        return Err(usage("a move is one line, as `grundy moves` writes it (`3 -> 1`)"));
    }
    if let Some(replay) = params.get("replay") {
        let moves: Vec<String> = replay.split(MOVES_SEPARATOR).map(|one| ascii_width(one.trim())).collect();
        if moves.len() > MOST_REPLAYED_MOVES {
            return Err(usage(format!(
                "a replay of {} moves: at most {MOST_REPLAYED_MOVES} are replayed in one request",
                moves.len()
            )));
        }
        if moves.iter().any(|one| one.is_empty() || one.contains(['\n', '\r'])) {
            return Err(usage("a replay is the positions after each move, separated by `;`, none empty"));
        }
        let mut arguments = vec!["play".to_owned(), "--replay".to_owned()];
        arguments.extend(compound_flag(params)?);
        arguments.extend(words);
        let stdin = moves.iter().map(|one| format!("{one}\n")).collect();
        return Ok(ChildCommand { arguments, stdin });
    }
    let engine_first = params.get("first").is_some_and(|first| first == "engine");
    let mut arguments = vec!["play".to_owned(), "--first".to_owned()];
    arguments.push(if engine_first { "engine" } else { "me" }.to_owned());
    if params.get("hints").is_some_and(|hints| hints == "1") {
        arguments.push("--hints".to_owned());
    }
    arguments.extend(compound_flag(params)?);
    arguments.extend(words);
    let stdin = if engine_first || typed.is_empty() { "hint\n".to_owned() } else { format!("{typed}\nhint\n") };
    Ok(ChildCommand { arguments, stdin })
}

/// `compound=every|conjunctive|selective` as the command's `--compound=…` (`sum` or nothing:
/// the disjunctive sum, no flag).
fn compound_flag(params: &HashMap<String, String>) -> Result<Option<String>, Refusal> {
    match params.get("compound").map(|compound| compound.trim()).unwrap_or("") {
        "" | "sum" => Ok(None),
        compound @ ("every" | "conjunctive" | "selective") => Ok(Some(format!("--compound={compound}"))),
        other => {
            let shown = grundy::error::quote(other);
            Err(usage(format!("bad compound `{shown}`: write sum, every, conjunctive or selective")))
        }
    }
}

/// The separator of the positions of `replay=` (the page's `moves=`): no position of the
/// command line holds one.
const MOVES_SEPARATOR: char = ';';
/// The most moves one replay request holds.
const MOST_REPLAYED_MOVES: usize = 10_000;

const NO_GAME: &str = "no game given: choose one (`nim`, `wythoff`, `octal:0.137`, …)";

/// Full-width forms (U+FF01 to U+FF5E: `４，７`, `＋`) as their ASCII characters and the
/// ideographic space as a space, so that a position typed with a Chinese input method reads as
/// the command line's (`4,7`). Every other character is kept.
pub fn ascii_width(text: &str) -> String {
    text.chars()
        .map(|character| match character {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(character as u32 - 0xFEE0).unwrap_or(character),
            '\u{3000}' => ' ',
            _ => character,
        })
        .collect()
}

/// The game and position of a request as command-line words, after `--`:
/// `game=nim&position=3 + wythoff 4,7` is `-- nim 3 + wythoff 4,7`. With `game_alone`, the
/// game may come without a position (a script's `start()`, for `play`).
fn position_words(params: &HashMap<String, String>, game_alone: bool) -> Result<Vec<String>, Refusal> {
    let game = ascii_width(params.get("game").map(String::as_str).unwrap_or(""));
    let game = game.trim();
    if game.is_empty() {
        return Err(usage(NO_GAME));
    }
    let position = ascii_width(params.get("position").map(String::as_str).unwrap_or(""));
    let mut words = vec!["--".to_owned()];
    words.extend(game.split_whitespace().chain(position.split_whitespace()).map(str::to_owned));
    if words.len() == 2 && !game_alone {
        let shown = grundy::error::quote(game);
        return Err(usage(format!("no position given: type its components after the game (`{shown} 3 4 5`)")));
    }
    Ok(words)
}

/// The game alone (for the commands that take one game word), after `--`.
fn game_word(params: &HashMap<String, String>) -> Result<Vec<String>, Refusal> {
    match params.get("game").map(|game| ascii_width(game.trim())) {
        Some(game) if !game.trim().is_empty() => Ok(vec!["--".to_owned(), game.trim().to_owned()]),
        _ => Err(usage(NO_GAME)),
    }
}

/// A number parameter from 0 to `largest`, if given.
pub fn number(params: &HashMap<String, String>, name: &str, largest: u64) -> Result<Option<u64>, Refusal> {
    let Some(text) = params.get(name).map(|text| text.trim()).filter(|text| !text.is_empty()) else {
        return Ok(None);
    };
    match text.parse::<u64>() {
        Ok(value) if value <= largest => Ok(Some(value)),
        _ => {
            let shown = grundy::error::quote(text);
            Err(usage(format!("bad {name} `{shown}`: write a whole number from 0 to {largest}")))
        }
    }
}

/// The game words among a command's position words: the first and each one after a lone `+`,
/// as the command line reads them (`grundy::registry::parse_sum`).
pub fn game_words(words: &[String]) -> impl Iterator<Item = &str> {
    let words = words.strip_prefix(&["--".to_owned()]).unwrap_or(words);
    words.split(|word| word == grundy::registry::PLUS).filter_map(|part| part.first().map(String::as_str))
}

/// The file a game word reads, if its family reads one: the families whose parameter the
/// registry writes as `FILE` or `PATH` (`dag:FILE`, `geography:FILE`, `script:PATH`). A test
/// compares this with what parsing each family's word really reads.
pub fn file_named(word: &str) -> Option<&str> {
    let (name, parameter) = word.split_once(':')?;
    let family = grundy::registry::family(name)?;
    let reads_a_file = family.syntax.ends_with(":FILE") || family.syntax.ends_with(":PATH");
    // An empty parameter reads nothing: the command says what is missing.
    (reads_a_file && !parameter.is_empty()).then_some(parameter)
}

/// Refuses the words (a command's, after `--`) if a game among them names a file the rules
/// do not allow. Only the words sent are quoted: nothing of any file is read here but its
/// metadata, and the refusal is the same whether a file outside the folder exists or not.
pub fn check_files(words: &[String], files: FileRules) -> Result<(), Refusal> {
    for word in game_words(words) {
        let Some(path) = file_named(word) else { continue };
        allowed_file(path, files).map_err(|message| Refusal { status: 403, kind: "forbidden", message })?;
    }
    Ok(())
}

/// Whether a game may read `path`: a pasted script still kept, or a regular file whose real
/// path (every symbolic link and `..` resolved) lies inside the served folder.
fn allowed_file(path: &str, files: FileRules) -> Result<(), String> {
    let shown = grundy::error::quote(path);
    match (files.pasted)(Path::new(path)) {
        PastedScript::Kept => return Ok(()),
        PastedScript::Removed => {
            return Err(format!(
                "the pasted script `{shown}` is no longer kept (the server keeps only its most recent scripts): paste it again"
            ));
        }
        PastedScript::NotPasted => {}
    }
    let Some(folder) = files.folder else {
        return Err(format!(
            "`{shown}` is a file on the server, and this server serves no files: start it with `grundy serve --files DIR` to play the game files in folder DIR, or paste a script"
        ));
    };
    if inside_folder(folder, path).is_none() {
        return Err(format!(
            "`{shown}` is not a file inside the folder this server serves: name a file of that folder, by its path from there"
        ));
    }
    Ok(())
}

/// The real path of `path` (relative to `folder` unless absolute), if it is a regular file
/// inside `folder` (itself canonical).
pub fn inside_folder(folder: &Path, path: &str) -> Option<PathBuf> {
    let real = std::fs::canonicalize(folder.join(path)).ok()?;
    let is_file = std::fs::metadata(&real).is_ok_and(|metadata| metadata.is_file());
    (is_file && real.starts_with(folder) && real != folder).then_some(real)
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy::control::Control;
    use grundy::error::GameError;
    use grundy::registry::{FAMILIES, FrontEnd, ScriptHost, parse_game_in};
    use grundy::ruleset::Ruleset;
    use std::cell::RefCell;
    use std::sync::Arc;

    /// Records the path a script game would load.
    struct RecordingHost(RefCell<Option<String>>);

    impl ScriptHost for RecordingHost {
        fn build(&self, text: &str, path: &str, _: &Control) -> Result<Arc<dyn Ruleset>, GameError> {
            *self.0.borrow_mut() = Some(path.to_owned());
            Err(GameError::BadGame { spec: text.to_owned(), reason: "recorded".to_owned() })
        }
    }

    /// The file parsing `word` asks its front end for, if any.
    fn file_parsing_reads(word: &str) -> Option<String> {
        let read = RefCell::new(None);
        let read_file = |path: &str| {
            *read.borrow_mut() = Some(path.to_owned());
            Err("recorded".to_owned())
        };
        let host = RecordingHost(RefCell::new(None));
        let front = FrontEnd { read_file: &read_file, script_host: Some(&host), control: Control::default() };
        let _ = parse_game_in(word, &front);
        read.into_inner().or(host.0.into_inner())
    }

    #[test]
    fn file_named_is_exactly_what_parsing_reads() {
        let mut reading = Vec::new();
        for family in FAMILIES {
            for name in family.names {
                for word in [format!("{name}:probe.txt"), format!("{name}:/etc/passwd"), (*name).to_owned()] {
                    assert_eq!(file_named(&word), file_parsing_reads(&word).as_deref(), "{word}");
                }
                if file_named(&format!("{name}:x")).is_some() {
                    reading.push(*name);
                }
            }
        }
        assert_eq!(reading, ["dag", "geography", "hackenbush", "script"]);
    }

    fn no_pasted(_: &Path) -> PastedScript {
        PastedScript::NotPasted
    }

    const NO_FILES: FileRules = FileRules { folder: None, pasted: &no_pasted };

    #[test]
    fn every_game_word_of_a_sum_is_checked() {
        for (endpoint, query) in [
            (Endpoint::Answer, "game=dag:/etc/passwd&position=x"),
            (Endpoint::Answer, "game=nim&position=3+%2B+geography:/etc/passwd+x"),
            (Endpoint::Options, "game=nim+3+%2B+script:/tmp/a.star&position=1"),
            (Endpoint::Play, "game=dag:/proc/self/environ"),
            (Endpoint::Sequence, "game=script:x.star"),
            (Endpoint::Plot, "game=geography:/etc/hosts"),
            (Endpoint::Check, "game=script:/etc/passwd&formula=n"),
        ] {
            let refusal = child_command(endpoint, query, NO_FILES).unwrap_err();
            assert_eq!((refusal.status, refusal.kind), (403, "forbidden"), "{query}: {refusal:?}");
            assert!(refusal.message.contains("serves no files"), "{refusal:?}");
        }
        // A `+` that is part of a word is no separator; `dag:` alone reads nothing.
        for query in ["game=nim&position=3+%2Bdag:/etc/passwd", "game=dag:&position=x"] {
            assert!(child_command(Endpoint::Answer, query, NO_FILES).is_ok(), "{query}");
        }
    }

    #[test]
    fn request_words_follow_the_separator() {
        let command = child_command(Endpoint::Answer, "game=nim&position=--all+3", NO_FILES).unwrap();
        assert_eq!(command.arguments, ["moves", "--", "nim", "--all", "3"]);
        let command = child_command(Endpoint::Play, "game=nim&position=3&move=3+-%3E+1&hints=1", NO_FILES).unwrap();
        assert_eq!(command.arguments, ["play", "--first", "me", "--hints", "--", "nim", "3"]);
        assert_eq!(command.stdin, "3 -> 1\nhint\n");
        let command = child_command(Endpoint::Answer, "game=kayles&position=5&misere=1", NO_FILES).unwrap();
        assert_eq!(command.arguments, ["moves", "--misere", "--", "kayles", "5"]);
        let command = child_command(Endpoint::Guess, "game=sub:1,3,4&emit=cpp", NO_FILES).unwrap();
        assert_eq!(command.arguments, ["guess", "--emit=cpp", "--", "sub:1,3,4"]);
        let command = child_command(Endpoint::Answer, "game=nim&position=3+4&compound=every", NO_FILES).unwrap();
        assert_eq!(command.arguments, ["moves", "--compound=every", "--", "nim", "3", "4"]);
        let command = child_command(Endpoint::Options, "game=nim&position=100&offset=40&count=40", NO_FILES).unwrap();
        assert_eq!(command.arguments, ["moves", "--all", "--offset=40", "--count=40", "--", "nim", "100"]);
        let refusal = child_command(Endpoint::Options, "game=nim&position=100&offset=-1", NO_FILES).unwrap_err();
        assert!(refusal.message.starts_with("bad offset `-1`"), "{refusal:?}");
        let command = child_command(Endpoint::Options, "game=nim&position=3+4&compound=selective", NO_FILES).unwrap();
        assert_eq!(command.arguments, ["moves", "--all", "--compound=selective", "--", "nim", "3", "4"]);
        let command = child_command(Endpoint::Play, "game=nim&position=3&compound=conjunctive&replay=2", NO_FILES);
        assert_eq!(command.unwrap().arguments, ["play", "--replay", "--compound=conjunctive", "--", "nim", "3"]);
        let command = child_command(Endpoint::Answer, "game=nim&position=3&compound=sum", NO_FILES).unwrap();
        assert_eq!(command.arguments, ["moves", "--", "nim", "3"]);
        let refusal = child_command(Endpoint::Play, "game=nim&position=3&compound=--misere", NO_FILES).unwrap_err();
        assert!(refusal.message.starts_with("bad compound `--misere`"), "{refusal:?}");
        let refusal = child_command(Endpoint::Answer, "game=nim&position=3&compound=every&misere=1", NO_FILES);
        assert!(refusal.unwrap_err().message.starts_with("misère play is of the sum only"));
        let refusal = child_command(Endpoint::Guess, "game=nim&emit=--all", NO_FILES).unwrap_err();
        assert!(refusal.message.starts_with("bad emit `--all`"), "{refusal:?}");
        let refusal = child_command(Endpoint::Sequence, "game=kayles&to=ten", NO_FILES).unwrap_err();
        assert!(refusal.message.starts_with("bad to `ten`"), "{refusal:?}");
    }

    #[test]
    fn full_width_positions_read_as_the_command_lines() {
        let command = child_command(Endpoint::Answer, "game=wythoff&position=%EF%BC%94%EF%BC%8C%EF%BC%97", NO_FILES);
        assert_eq!(command.unwrap().arguments, ["moves", "--", "wythoff", "4,7"]);
        let command = child_command(
            Endpoint::Value,
            "game=nim&position=3%E3%80%80%EF%BC%8B%E3%80%80kayles+%EF%BC%91%EF%BC%90",
            NO_FILES,
        );
        assert_eq!(command.unwrap().arguments, ["value", "--", "nim", "3", "+", "kayles", "10"]);
        let command = child_command(Endpoint::Play, "game=nim&position=3+5&move=%EF%BC%93+%EF%BC%91", NO_FILES);
        assert_eq!(command.unwrap().stdin, "3 1\nhint\n");
        assert_eq!(ascii_width("héllo ４"), "héllo 4");
    }

    #[test]
    fn a_served_folder_allows_its_own_files_only() {
        let root = tempfile::tempdir().unwrap();
        let folder = root.path().join("games");
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("graph.txt"), "a b\n").unwrap();
        std::fs::write(root.path().join("secret.txt"), "a b\n").unwrap();
        std::os::unix::fs::symlink(root.path().join("secret.txt"), folder.join("link.txt")).unwrap();
        std::os::unix::fs::symlink(folder.join("graph.txt"), folder.join("inner-link.txt")).unwrap();
        let folder = std::fs::canonicalize(&folder).unwrap();
        let files = FileRules { folder: Some(&folder), pasted: &no_pasted };
        let whole = folder.join("graph.txt").display().to_string();
        for allowed in ["graph.txt", "./graph.txt", "inner-link.txt", whole.as_str()] {
            let query = format!("game=dag:{allowed}&position=a");
            assert!(child_command(Endpoint::Answer, &query, files).is_ok(), "{allowed}");
        }
        let outside = root.path().join("secret.txt").display().to_string();
        for refused in ["../secret.txt", "link.txt", outside.as_str(), "missing.txt", ".", "/etc/passwd"] {
            let query = format!("game=geography:{refused}&position=a");
            let refusal = child_command(Endpoint::Options, &query, files).unwrap_err();
            assert_eq!(refusal.status, 403, "{refused}");
            assert!(refusal.message.contains("not a file inside the folder"), "{refusal:?}");
        }
    }

    #[test]
    fn pasted_scripts_are_served_while_kept() {
        let pasted = |path: &Path| match path.to_str() {
            Some("/served/pasted-1.star") => PastedScript::Kept,
            Some("/served/pasted-0.star") => PastedScript::Removed,
            _ => PastedScript::NotPasted,
        };
        let files = FileRules { folder: None, pasted: &pasted };
        assert!(child_command(Endpoint::Answer, "game=script:/served/pasted-1.star&position=3", files).is_ok());
        let refusal =
            child_command(Endpoint::Answer, "game=script:/served/pasted-0.star&position=3", files).unwrap_err();
        assert!(refusal.message.contains("paste it again"), "{refusal:?}");
    }
}
