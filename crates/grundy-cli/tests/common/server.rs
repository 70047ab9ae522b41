//! A `grundy serve` for the tests that talk to it (serve.rs, hostile_http.rs): started on a free
//! port of 127.0.0.1, requests over plain TCP, stopped when dropped.
#![allow(dead_code)] // each test binary uses part of it

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub struct Server {
    pub child: Child,
    /// `127.0.0.1:PORT`, whatever address it listens on.
    pub address: String,
    /// Its stderr, when asked for (`start_capturing`).
    pub stderr: Option<std::process::ChildStderr>,
}

impl Server {
    /// `grundy serve --port 0 EXTRA…`.
    pub fn start(extra: &[&str]) -> Server {
        Server::spawn(Command::new(env!("CARGO_BIN_EXE_grundy")).args(["serve", "--port", "0"]).args(extra), false)
    }

    /// As [`Server::start`], its stderr kept for the test to read.
    pub fn start_capturing(extra: &[&str]) -> Server {
        Server::spawn(Command::new(env!("CARGO_BIN_EXE_grundy")).args(["serve", "--port", "0"]).args(extra), true)
    }

    /// As [`Server::start`], the server allowed at most `open_files` open files (`ulimit -n`),
    /// as on many systems by default (1024).
    pub fn start_with_file_limit(open_files: u64, extra: &[&str]) -> Server {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(format!("ulimit -n {open_files} && exec \"$0\" serve --port 0 \"$@\""))
            .arg(env!("CARGO_BIN_EXE_grundy"))
            .args(extra);
        Server::spawn(&mut command, false)
    }

    fn spawn(command: &mut Command, capture_stderr: bool) -> Server {
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(if capture_stderr { Stdio::piped() } else { Stdio::inherit() })
            .spawn()
            .unwrap();
        let mut first_line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut first_line).unwrap();
        let printed = first_line
            .split_whitespace()
            .find_map(|word| word.strip_prefix("http://"))
            .unwrap_or_else(|| panic!("the address in {first_line:?}"))
            .trim_end_matches('/')
            .to_owned();
        let port = printed.rsplit(':').next().unwrap();
        let stderr = child.stderr.take();
        Server { child, address: format!("127.0.0.1:{port}"), stderr }
    }

    pub fn port(&self) -> &str {
        self.address.rsplit(':').next().unwrap()
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// One request (HTTP/1.1, the connection closed after it): the status and the body.
    pub fn request(&self, method: &str, target: &str, body: &[u8]) -> (u16, String) {
        self.request_with(method, target, &[], body)
    }

    /// As [`Server::request`], with `host` as the `Host` header.
    pub fn request_for(&self, host: &str, method: &str, target: &str, body: &[u8]) -> (u16, String) {
        self.raw_request(&format!("{method} {target} HTTP/1.1\r\nHost: {host}\r\n"), body)
    }

    /// As [`Server::request`], with more headers (`("Origin", "http://…")`).
    pub fn request_with(&self, method: &str, target: &str, headers: &[(&str, &str)], body: &[u8]) -> (u16, String) {
        let mut head = format!("{method} {target} HTTP/1.1\r\nHost: {}\r\n", self.address);
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        self.raw_request(&head, body)
    }

    /// Sends `head` (request line and headers, each ending in CRLF) with `Connection: close`,
    /// the body's length and the body; reads the whole answer.
    fn raw_request(&self, head: &str, body: &[u8]) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let head = format!("{head}Connection: close\r\nContent-Length: {}\r\n\r\n", body.len());
        stream.write_all(head.as_bytes()).unwrap();
        // A refused body may be answered before it is all sent.
        let _ = stream.write_all(body);
        read_answer(&mut stream)
    }

    pub fn get(&self, target: &str) -> (u16, serde_json::Value) {
        let (status, body) = self.request("GET", target, b"");
        (status, serde_json::from_str(&body).unwrap_or_else(|_| panic!("JSON from {target}: {body:?}")))
    }

    /// Whether the server still runs.
    pub fn running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

/// The status and body of the answer on `stream`, read to its end (0 and "" when none came).
pub fn read_answer(stream: &mut TcpStream) -> (u16, String) {
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let response = String::from_utf8_lossy(&response).into_owned();
    let status = response.split_whitespace().nth(1).and_then(|code| code.parse().ok()).unwrap_or(0);
    let body = response.split_once("\r\n\r\n").map_or("", |(_, body)| body).to_owned();
    (status, body)
}

impl Drop for Server {
    /// Stops the server as a user would (SIGTERM), so that it removes its folder of pasted
    /// scripts (a killed server leaves one in the temporary directory each test); killed after
    /// five seconds if it has not stopped.
    fn drop(&mut self) {
        // SAFETY: kill(2) with the pid of our own child, which has not been waited for yet.
        unsafe {
            libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM);
        }
        for _ in 0..100 {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2).expect("crates/grundy-cli is two levels down").to_owned()
}

/// Lets this test process open `wanted` files (raising its soft `RLIMIT_NOFILE` up to the hard
/// one); returns how many it may open.
pub fn allow_open_files(wanted: u64) -> u64 {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit and setrlimit read and write one rlimit struct, which `limit` is.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit), 0);
        if limit.rlim_cur < wanted {
            limit.rlim_cur = wanted.min(limit.rlim_max);
            assert_eq!(libc::setrlimit(libc::RLIMIT_NOFILE, &limit), 0);
        }
    }
    limit.rlim_cur
}
