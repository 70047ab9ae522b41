//! `grundy serve`: its JSON API (the command line's answers, every request bounded, many
//! clients at once) and its page in a real browser (headless Chromium driven by Python's
//! selenium, `tests/browser/test_serve_page.py`; `.ci/run` installs both).
//!
//! Without a browser the page test fails under CI (`CI` set to anything but empty, `0` or
//! `false`), and elsewhere passes with a notice written past the test harness's capture.

mod common;

use common::grundy;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A `grundy serve` on a free port of this machine, stopped when dropped.
struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut first_line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut first_line).unwrap();
        let address = first_line
            .split_whitespace()
            .find_map(|word| word.strip_prefix("http://"))
            .unwrap_or_else(|| panic!("the address in {first_line:?}"))
            .trim_end_matches('/')
            .to_owned();
        Server { child, address }
    }

    fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// One request (HTTP/1.1, the connection closed after it): the status and the body.
    fn request(&self, method: &str, target: &str, body: &[u8]) -> (u16, String) {
        self.request_for(&self.address, method, target, body)
    }

    /// As [`Server::request`], with `host` as the `Host` header.
    fn request_for(&self, host: &str, method: &str, target: &str, body: &[u8]) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let head = format!(
            "{method} {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        // A refused body may be answered before it is all sent.
        let _ = stream.write_all(body);
        let mut response = Vec::new();
        let _ = stream.read_to_end(&mut response);
        let response = String::from_utf8_lossy(&response).into_owned();
        let status = response.split_whitespace().nth(1).and_then(|code| code.parse().ok()).unwrap_or(0);
        let body = response.split_once("\r\n\r\n").map_or("", |(_, body)| body).to_owned();
        (status, body)
    }

    fn get(&self, target: &str) -> (u16, serde_json::Value) {
        let (status, body) = self.request("GET", target, b"");
        (status, serde_json::from_str(&body).unwrap_or_else(|_| panic!("JSON from {target}: {body:?}")))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn cli_json(args: &[&str]) -> serde_json::Value {
    let run = grundy(&[&["--json"], args].concat());
    serde_json::from_str(run.stdout.trim()).unwrap()
}

#[test]
fn the_answer_is_the_command_lines_json() {
    let server = Server::start(&[]);
    let (status, answer) = server.get("/api/answer?game=nim&position=3+4+5");
    assert_eq!(status, 200);
    assert_eq!(answer, cli_json(&["moves", "nim", "3", "4", "5"]));
    assert_eq!((answer["outcome"].as_str(), answer["value"].as_str()), (Some("N"), Some("2")));
    assert_eq!(answer["moves"][0]["to"], serde_json::json!(["1", "4", "5"]));
    // `position` holds what follows the game on the command line: here a sum.
    let (status, sum) = server.get("/api/answer?game=nim&position=3%20%2B%20wythoff%204%2C7");
    assert_eq!(status, 200);
    assert_eq!(sum, cli_json(&["moves", "nim", "3", "+", "wythoff", "4,7"]));
}

#[test]
fn only_requests_for_a_loopback_name_are_answered() {
    let server = Server::start(&[]);
    let port = server.address.rsplit(':').next().unwrap().to_owned();
    for host in [format!("localhost:{port}"), format!("127.0.0.1:{port}"), "[::1]".to_owned()] {
        let (status, _) = server.request_for(&host, "GET", "/api/answer?game=nim&position=1", b"");
        assert_eq!(status, 200, "{host}");
    }
    // A page elsewhere that points its own name at 127.0.0.1 reads nothing.
    let (status, body) = server.request_for(&format!("games.example:{port}"), "GET", "/", b"");
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("only requests for 127.0.0.1 or localhost"), "{body}");
}

#[test]
fn bad_input_gets_the_command_lines_error_object() {
    let server = Server::start(&[]);
    let (status, error) = server.get("/api/answer?game=nimm&position=3");
    assert_eq!(status, 400);
    assert_eq!(error, cli_json(&["moves", "nimm", "3"]));
    assert!(error["error"]["message"].as_str().unwrap().contains("did you mean `nim`"));
    // A word of the position is never a flag of grundy's: `--all` is a bad heap here.
    let (status, error) = server.get("/api/answer?game=nim&position=--all+3");
    assert_eq!(status, 400);
    assert_eq!(error["error"]["kind"], "bad_component");
    let (status, error) = server.get("/api/answer?game=nim");
    assert_eq!(status, 400);
    assert!(error["error"]["message"].as_str().unwrap().starts_with("no position given"));
    let (status, error) = server.get("/api/sequence?game=kayles&to=ten");
    assert_eq!(status, 400);
    assert!(error["error"]["message"].as_str().unwrap().starts_with("bad to `ten`"));
}

#[test]
fn a_huge_heap_is_a_clear_error_and_the_server_keeps_serving() {
    let server = Server::start(&["--timeout", "20"]);
    let started = Instant::now();
    for target in [
        "/api/answer?game=grundys-game&position=4000000000",
        "/api/sequence?game=grundys-game&to=100000",
        "/api/options?game=grundys-game&position=4000000000",
    ] {
        let (status, error) = server.get(target);
        if target.contains("sequence") {
            // Computed within the limits: an answer, not an error.
            assert_eq!(status, 200, "{target}: {error}");
            continue;
        }
        assert_eq!(status, 400, "{target}: {error}");
        assert!(error["error"]["message"].as_str().unwrap().contains("4000000000"), "{error}");
    }
    assert!(started.elapsed() < Duration::from_secs(20));
    let (status, answer) = server.get("/api/answer?game=kayles&position=10");
    assert_eq!((status, &answer["outcome"]), (200, &serde_json::json!("N")));
}

/// A script whose every call takes a few milliseconds, and whose heap N needs N calls.
const SLOW_SCRIPT: &str = "NAME = \"slow\"
def moves(n):
    busy = 0
    for i in range(100000):
        busy += i
    return [n - 1] if n > 0 else []
";

#[test]
fn a_computation_past_the_deadline_is_stopped_with_an_error() {
    let server = Server::start(&["--timeout", "1"]);
    let (status, body) = server.request("POST", "/api/script", SLOW_SCRIPT.as_bytes());
    assert_eq!(status, 200, "{body}");
    let described: serde_json::Value = serde_json::from_str(&body).unwrap();
    let game = described["game"].as_str().unwrap();
    // Each call is far within the script's own limits (one second, 10^7 operations); the
    // hundred thousand calls are not within the request's second.
    let (status, error) = server.get(&format!("/api/answer?game={game}&position=100000"));
    assert_eq!(status, 400, "{error}");
    assert_eq!(error["error"]["kind"], "timeout", "{error}");
    assert!(error["error"]["message"].as_str().unwrap().contains("longer than the 1 s"), "{error}");
    let (status, answer) = server.get("/api/answer?game=nim&position=1");
    assert_eq!((status, &answer["outcome"]), (200, &serde_json::json!("N")));
}

#[test]
fn a_port_in_use_is_one_clear_line() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let run = grundy(&["serve", "--port", &port]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.starts_with(&format!("grundy: error: cannot listen on `127.0.0.1:{port}`")), "{}", run.stderr);
    assert!(run.stderr.contains("--port 0 for any free one"), "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    let run = grundy(&["serve", "--timeout", "0"]);
    assert_eq!(run.status, 2);
    assert!(run.stderr.contains("is not a number of seconds from 0.1 to 3600"), "{}", run.stderr);
}

#[test]
fn ctrl_c_closes_the_server() {
    let mut server = Server::start(&[]);
    let (status, _) = server.get("/api/answer?game=nim&position=1");
    assert_eq!(status, 200);
    // An open connection (a browser's) does not keep the server.
    let _browser = TcpStream::connect(&server.address).unwrap();
    let interrupted = Command::new("kill").args(["-INT", &server.child.id().to_string()]).status().unwrap();
    assert!(interrupted.success());
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "the server still runs after Ctrl-C");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
}

#[test]
fn sixteen_clients_at_once_are_all_answered() {
    let server = Server::start(&[]);
    let answers: Vec<(u16, serde_json::Value, usize)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..16)
            .map(|client| {
                let server = &server;
                scope.spawn(move || {
                    let (status, answer) =
                        server.get(&format!("/api/answer?game=nim&position={}+{}", client, client + 1));
                    (status, answer, client)
                })
            })
            .collect();
        handles.into_iter().map(|handle| handle.join().unwrap()).collect()
    });
    for (status, answer, client) in answers {
        assert_eq!(status, 200, "client {client}: {answer}");
        // G(c, c + 1) = c xor (c + 1), never 0: the player to move wins.
        assert_eq!(answer["value"], serde_json::json!(format!("{}", client ^ (client + 1))));
    }
}

#[test]
fn request_bodies_are_capped_and_a_script_is_played_in_its_worker() {
    let server = Server::start(&[]);
    let (status, _) = server.request("POST", "/api/script", &vec![b'#'; 1 << 20]);
    assert_eq!(status, 413);
    let script = std::fs::read(workspace_root().join("examples/games/subtraction.star")).unwrap();
    let (status, body) = server.request("POST", "/api/script", &script);
    assert_eq!(status, 200, "{body}");
    let described: serde_json::Value = serde_json::from_str(&body).unwrap();
    let game = described["game"].as_str().unwrap().to_owned();
    assert!(game.starts_with("script:"), "{described}");
    let (status, answer) = server.get(&format!("/api/answer?game={game}&position=10"));
    assert_eq!(status, 200);
    assert_eq!(answer["value"], cli_json(&["value", "sub:1,3,4", "10"])["value"]);
    // A script that does not load is the command line's error.
    let (status, body) = server.request("POST", "/api/script", b"def moves(n):\n    return [n - 1\n");
    assert_eq!(status, 400, "{body}");
}

#[test]
fn a_turn_of_play_is_the_command_lines_events() {
    let server = Server::start(&[]);
    let (status, turn) = server.get("/api/play?game=nim&position=3+4&move=4+-%3E+3");
    assert_eq!(status, 200);
    let events = turn["events"].as_array().unwrap();
    let kinds: Vec<&str> = events.iter().map(|event| event["event"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["start", "position", "you", "position", "grundy", "position", "hint", "end"]);
    // The last move ends the game: no hint is asked for.
    let (_, turn) = server.get("/api/play?game=nim&position=1&move=1+-%3E+0");
    let last = turn["events"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["text"], "grundy has no move: you win!");
    assert!(!turn["events"].as_array().unwrap().iter().any(|event| event["event"] == "hint"));
    let (status, _) = server.get("/api/play?game=nim&position=1&move=1+-%3E+0%0Aquit");
    assert_eq!(status, 400);
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2).expect("crates/grundy-cli is two levels down").to_owned()
}

/// Whether the value of `CI` says the tests run under continuous integration.
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| !matches!(value.trim().to_ascii_lowercase().as_str(), "" | "0" | "false"))
}

#[test]
fn the_page_works_in_a_real_browser() {
    let root = workspace_root();
    let python = root.join(".venv/bin/python");
    let chromium = Path::new("/usr/bin/chromium");
    let chromedriver = Path::new("/usr/bin/chromedriver");
    let has_selenium = python.exists()
        && Command::new(&python).args(["-c", "import selenium, pytest"]).output().is_ok_and(|out| out.status.success());
    if !(has_selenium && chromium.exists() && chromedriver.exists()) {
        assert!(
            !in_ci(),
            "CI: the browser test needs .venv with selenium and pytest, /usr/bin/chromium and /usr/bin/chromedriver (.ci/run installs them)"
        );
        let _ = writeln!(
            std::io::stderr(),
            "\nNOTE: the browser test of `grundy serve` was SKIPPED: it needs .venv with selenium, and Debian's chromium and chromium-driver"
        );
        return;
    }
    let server = Server::start(&[]);
    let screenshots = root.join("target/screenshots");
    let output = Command::new(&python)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "crates/grundy-cli/tests/browser"])
        .current_dir(&root)
        .env("GRUNDY_SERVE_URL", server.url())
        .env("GRUNDY_BIN", env!("CARGO_BIN_EXE_grundy"))
        .env("GRUNDY_SCREENSHOTS", &screenshots)
        .output()
        .unwrap();
    let printed = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "the browser test failed:\n{printed}");
    for view in ["answer", "error", "sequence", "table", "play", "check"] {
        assert!(screenshots.join(format!("{view}.png")).exists(), "screenshot of {view}");
    }
}
