//! Hostile HTTP (issue 39): a repeatable pass of what an attacker would send to `grundy serve`,
//! to 127.0.0.1 only and in bounded loops: path traversal, games that read files, huge and odd
//! query strings, bad `Host` and `Origin` headers, malformed requests, partial headers sent
//! slowly, many connections at once. The server never hands out a file's contents, never
//! answers 500 or dies, and still answers the page afterwards.

use crate::common::server::{Server, read_answer};
use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// A file the server must never hand out, beside the folder it serves.
const MARKER: &str = "hostile-marker-5e3b";

struct Setup {
    _root: tempfile::TempDir,
    served: String,
    secret: String,
}

fn setup() -> Setup {
    let root = tempfile::tempdir().unwrap();
    let served = root.path().join("served");
    std::fs::create_dir(&served).unwrap();
    std::fs::write(served.join("graph.txt"), "a b\nb c\n").unwrap();
    let secret = root.path().join("secret.txt");
    std::fs::write(&secret, format!("{MARKER} x-{MARKER}\n")).unwrap();
    std::os::unix::fs::symlink(&secret, served.join("link.txt")).unwrap();
    std::os::unix::fs::symlink("/etc", served.join("etc")).unwrap();
    Setup { served: served.display().to_string(), secret: secret.display().to_string(), _root: root }
}

/// Sends `bytes` as they are on a new connection and reads the answer (at most 20 s).
fn send_raw(server: &Server, bytes: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(&server.address).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let _ = stream.write_all(bytes);
    read_answer(&mut stream)
}

/// What every answer must be: no file's contents, no server error.
fn assert_harmless(what: &str, status: u16, body: &str) {
    assert!(!body.contains(MARKER), "{what}: {body}");
    assert!(!body.contains("root:x:0:0") && !body.contains(":/bin/"), "{what}: {body}");
    if let Ok(path) = std::env::var("PATH") {
        assert!(!body.contains(&format!("PATH={path}")), "{what}: {body}");
    }
    assert!(status < 500 || status == 503, "{what}: status {status}: {body}");
}

fn assert_still_answers(server: &mut Server) {
    assert!(server.running(), "the server died");
    let (status, answer) = server.get("/api/answer?game=nim&position=3+4+5");
    assert_eq!((status, &answer["value"]), (200, &serde_json::json!("2")));
}

#[test]
fn hostile_requests_get_no_file_and_the_server_keeps_serving() {
    let setup = setup();
    for extra in [vec![], vec!["--files", setup.served.as_str()]] {
        let mut server = Server::start(&extra);
        path_traversal(&server);
        games_that_read_files(&server, &setup, !extra.is_empty());
        odd_queries(&server);
        bad_hosts_and_origins(&server);
        malformed_requests(&server);
        assert_still_answers(&mut server);
    }
}

fn path_traversal(server: &Server) {
    for target in [
        "/../../../../etc/passwd",
        "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "/..%2f..%2f..%2fetc%2fpasswd",
        "/style.css/../../../etc/passwd",
        "/app.js/..%2f..%2fetc/passwd",
        "/api/../../etc/passwd",
        "/api/answer/../../../etc/passwd",
        "//etc/passwd",
        "/%00/etc/passwd",
        "/api/plot/..%00/etc/passwd",
        "/etc/passwd",
        "/proc/self/environ",
    ] {
        let (status, body) = server.request("GET", target, b"");
        assert_harmless(target, status, &body);
        assert!(matches!(status, 400 | 403 | 404), "{target}: {status} {body}");
    }
}

fn games_that_read_files(server: &Server, setup: &Setup, serving: bool) {
    let secret = setup.secret.as_str();
    let paths = [
        "/etc/passwd",
        "/proc/self/environ",
        "/proc/self/cmdline",
        secret,
        "../secret.txt",
        "link.txt",
        "etc/passwd",
        "./../secret.txt",
        "graph.txt/../../secret.txt",
        "/dev/zero",
        "/dev/stdin",
        "%2Fetc%2Fpasswd",
    ];
    for family in ["dag", "geography", "hackenbush", "script"] {
        for path in paths {
            for target in [
                format!("/api/answer?game={family}:{path}&position=a"),
                format!("/api/options?game={family}:{path}&position=a"),
                format!("/api/answer?game=nim&position=1+%2B+{family}:{path}+a"),
                format!("/api/play?game={family}:{path}"),
                format!("/api/sequence?game={family}:{path}&to=3"),
                format!("/api/plot?game={family}:{path}"),
                format!("/api/check?game={family}:{path}&formula=n&to=3"),
            ] {
                let (status, body) = server.request("GET", &target, b"");
                assert_harmless(&target, status, &body);
                assert_eq!(status, 403, "{target}: {body}");
            }
        }
    }
    // The served folder's own file is served, with --files only.
    let (status, body) = server.request("GET", "/api/answer?game=dag:graph.txt&position=a", b"");
    assert_eq!(status, if serving { 200 } else { 403 }, "{body}");
}

fn odd_queries(server: &Server) {
    let huge_position = format!("/api/answer?game=nim&position={}", "9+".repeat(20_000));
    let huge_game = format!("/api/answer?game=sub:{}&position=5", "1,".repeat(30_000));
    let many_params = format!("/api/answer?{}game=nim&position=1", "a=1&".repeat(5_000));
    let deep_sum = format!("/api/answer?game=nim&position=1{}", "+%2B+nim+1".repeat(2_000));
    let long_number = format!("/api/sequence?game=kayles&to={}", "9".repeat(5_000));
    let long_path = format!("/api/answer?game=dag:{}&position=a", "a/".repeat(10_000));
    let targets = [
        "/api/answer",
        "/api/answer?",
        "/api/answer?game",
        "/api/answer?game=&position=",
        "/api/answer?game=%zz&position=%",
        "/api/answer?game=%ff%fe&position=%c0%af",
        "/api/answer?game=nim%00&position=1",
        "/api/answer?game=nim&position=1%0Aquit",
        "/api/answer?game=nim&game=dag:/etc/passwd&position=x",
        "/api/answer?game=dag:/etc/passwd&game=nim&position=1",
        "/api/answer?game=--help&position=--version",
        "/api/answer?game=-&position=-",
        "/api/play?game=nim&position=3&move=%0D%0Aquit",
        "/api/play?game=nim&position=3&move=3+-%3E+1%0Ahint",
        "/api/check?game=kayles&formula=%00&to=3",
        "/api/check?game=kayles&formula=open(%22/etc/passwd%22)&to=3",
        "/api/check?game=kayles&formula=load(%22/etc/passwd%22,%20%22x%22)&to=3",
        "/api/plot?game=kayles&to=-1",
        "/api/plot?game=wythoff&size=99999999999999999999999",
        "/api/sequence?game=kayles&to=1e5",
        "/api/answer?game=%E2%80%AEnim&position=%F0%9F%92%A3",
        "/api/answer?game=nim&position=1;cat%20/etc/passwd",
        "/api/answer?game=nim&position=$(cat%20/etc/passwd)",
        huge_position.as_str(),
        huge_game.as_str(),
        many_params.as_str(),
        deep_sum.as_str(),
        long_number.as_str(),
        long_path.as_str(),
    ];
    for target in targets {
        let (status, body) = server.request("GET", target, b"");
        let shown = &target[..target.len().min(80)];
        assert_harmless(shown, status, &body);
        if status != 200 && !body.is_empty() && body.starts_with('{') {
            let error: serde_json::Value = serde_json::from_str(&body).unwrap_or_else(|_| panic!("{shown}: {body}"));
            assert!(error["error"]["message"].is_string(), "{shown}: {body}");
        }
    }
}

fn bad_hosts_and_origins(server: &Server) {
    let port = server.port().to_owned();
    for host in [
        format!("evil.example:{port}"),
        "127.0.0.1.evil.example".to_owned(),
        "localhost.evil.example".to_owned(),
        "[::1".to_owned(),
        "".to_owned(),
        "127.0.0.1@evil.example".to_owned(),
    ] {
        let (status, body) = server.request_for(&host, "GET", "/api/answer?game=nim&position=1", b"");
        assert_harmless(&host, status, &body);
        assert!(matches!(status, 400 | 403), "Host {host:?}: {status} {body}");
    }
    // No Host at all (HTTP/1.0), and two of them.
    let (status, _) = send_raw(server, b"GET /api/answer?game=nim&position=1 HTTP/1.0\r\n\r\n");
    assert!(matches!(status, 400 | 403), "{status}");
    let two = format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nHost: evil.example\r\nConnection: close\r\n\r\n");
    let (status, _) = send_raw(server, two.as_bytes());
    assert!(matches!(status, 400 | 403), "{status}");
    let own = format!("http://127.0.0.1:{port}");
    let script = b"def moves(n):\n    return []\n";
    for origin in ["http://evil.example", "null", "https://127.0.0.1", "http://127.0.0.1", own.as_str()] {
        for site in ["cross-site", "same-site"] {
            let headers = [("Origin", origin), ("Sec-Fetch-Site", site)];
            let (status, body) = server.request_with("POST", "/api/script", &headers, script);
            assert_eq!(status, 403, "{origin} {site}: {body}");
        }
    }
}

fn malformed_requests(server: &Server) {
    let port = server.port();
    let big_header = format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX: {}\r\n\r\n", "a".repeat(1 << 20));
    let many_headers = format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{}\r\n", "X-A: b\r\n".repeat(500));
    let requests: Vec<Vec<u8>> = vec![
        b"\x00\x01\x02\xff\xfe garbage\r\n\r\n".to_vec(),
        b"GET / HTTP/9.9\r\n\r\n".to_vec(),
        b"GET\r\n\r\n".to_vec(),
        b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec(),
        format!("POST /api/script HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: -1\r\n\r\n").into_bytes(),
        format!("POST /api/script HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 99999999999999999999\r\n\r\n")
            .into_bytes(),
        format!("POST /api/script HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
            .into_bytes(),
        format!(
            "POST /api/script HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
        )
        .into_bytes(),
        format!("DELETE /api/script HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n").into_bytes(),
        format!("GET /api/answer?game=nim&position=1 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: upgrade\r\n\r\n")
            .into_bytes(),
        big_header.into_bytes(),
        many_headers.into_bytes(),
    ];
    for request in requests {
        let shown = String::from_utf8_lossy(&request[..request.len().min(60)]).into_owned();
        let (status, body) = send_raw(server, &request);
        assert_harmless(&shown, status, &body);
    }
}

#[test]
fn slow_headers_and_many_connections_do_not_stop_the_page() {
    let mut server = Server::start(&[]);
    let started = Instant::now();
    // Eight slowloris connections, each sending a header a byte a second, and 600 idle ones
    // (more than the server keeps open); the page answers meanwhile, and the slow ones are
    // closed at the header-read timeout.
    let slow: Vec<std::thread::JoinHandle<Duration>> = (0..8)
        .map(|_| {
            let address = server.address.clone();
            std::thread::spawn(move || {
                let mut stream = TcpStream::connect(&address).unwrap();
                let opened = Instant::now();
                let _ = stream.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n");
                for _ in 0..30 {
                    std::thread::sleep(Duration::from_secs(1));
                    if stream.write_all(b"X").is_err() {
                        break;
                    }
                }
                let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
                let _ = std::io::Read::read(&mut stream, &mut [0; 64]);
                opened.elapsed()
            })
        })
        .collect();
    crate::common::server::allow_open_files(2048);
    let idle: Vec<TcpStream> = (0..600)
        .filter_map(|_| TcpStream::connect_timeout(&server.address.parse().unwrap(), Duration::from_secs(1)).ok())
        .collect();
    assert_still_answers(&mut server);
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    for handle in slow {
        let held = handle.join().unwrap();
        assert!(held < Duration::from_secs(15), "a slow header held its connection {held:?}");
    }
    drop(idle);
    assert_still_answers(&mut server);
}
