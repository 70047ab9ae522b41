//! Any query string sent to `grundy serve`'s API: `serve/query.rs`, the server's own parsing of
//! it into the command a request runs, compiled here as it is (it uses std, form_urlencoded and
//! the library only). For every endpoint, with no file served and with a served folder: a
//! command whose request words all follow `--`, and whose games read no file outside the rules;
//! or a refusal of one line, under 2000 bytes, with a 4xx status. Never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

#[path = "../../crates/grundy-cli/src/serve/query.rs"]
#[allow(dead_code)]
mod query;

use query::{Endpoint, FileRules, PastedScript};

const ENDPOINTS: [Endpoint; 9] = [
    Endpoint::Answer,
    Endpoint::Options,
    Endpoint::Value,
    Endpoint::Play,
    Endpoint::Sequence,
    Endpoint::Plot,
    Endpoint::Check,
    Endpoint::Rules,
    Endpoint::Guess,
];

/// The scratch folder of this process, removed at exit (libFuzzer ends with `exit`, which drops
/// no static; a crash leaves it).
fn root() -> &'static PathBuf {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        extern "C" fn remove_root() {
            let _ = std::fs::remove_dir_all(root());
        }
        // SAFETY: `remove_root` is a plain function that stays valid until the process exits.
        unsafe { libc::atexit(remove_root) };
        std::env::temp_dir().join(format!("grundy-fuzz-http-{}", std::process::id()))
    })
}

/// A served folder with one graph file, beside a file that must never be allowed.
fn folder() -> &'static PathBuf {
    static FOLDER: OnceLock<PathBuf> = OnceLock::new();
    FOLDER.get_or_init(|| {
        let root = root();
        let served = root.join("served");
        std::fs::create_dir_all(&served).expect("a scratch folder");
        std::fs::write(served.join("graph.txt"), "a b\n").expect("a graph file");
        std::fs::write(root.join("secret.txt"), "a b\n").expect("a file outside");
        let _ = std::os::unix::fs::symlink(root.join("secret.txt"), served.join("link.txt"));
        std::fs::canonicalize(served).expect("the folder's real path")
    })
}

fn pasted(path: &Path) -> PastedScript {
    match path.to_str() {
        Some("/pasted/kept.star") => PastedScript::Kept,
        Some(other) if other.starts_with("/pasted/") => PastedScript::Removed,
        _ => PastedScript::NotPasted,
    }
}

fuzz_target!(|raw: &str| {
    if raw.len() > 4096 {
        return;
    }
    let folder = folder();
    for served in [None, Some(folder.as_path())] {
        let files = FileRules { folder: served, pasted: &pasted };
        for endpoint in ENDPOINTS {
            match query::child_command(endpoint, raw, files) {
                Ok(command) => {
                    let separator = command.arguments.iter().position(|word| word == "--").expect("a `--` before the request's words");
                    // Before `--`: the subcommand, then flags the server built (a request's text only
                    // ever as the value of one, `--formula=…`) and `play`'s first player.
                    for word in &command.arguments[1..separator] {
                        assert!(
                            word.starts_with("--") || ["me", "engine"].contains(&word.as_str()),
                            "{endpoint:?} {raw:?}: {word:?} before `--`"
                        );
                    }
                    let words = &command.arguments[separator..];
                    for game in query::game_words(words) {
                        if let Some(path) = query::file_named(game) {
                            let allowed = pasted(Path::new(path)) == PastedScript::Kept
                                || served.is_some_and(|folder| query::inside_folder(folder, path).is_some());
                            assert!(allowed, "{endpoint:?} {raw:?}: `{game}` reads a file the rules refuse");
                        }
                    }
                    assert!(command.stdin.lines().count() <= 2, "{endpoint:?} {raw:?}: {:?}", command.stdin);
                }
                Err(refusal) => {
                    assert!((400..500).contains(&refusal.status), "{refusal:?}");
                    assert!(!refusal.message.contains('\n') && refusal.message.len() < 2000, "{refusal:?}");
                }
            }
        }
    }
});
