//! `grundy serve`: the page (HTML, CSS and JavaScript built into the binary) and the JSON API
//! it calls. Every API request is answered by a grundy child process ([`child`]): the answers
//! are exactly the command line's JSON (docs/json.md), and each is bounded in time, memory and
//! size by the child's limits, so no request can stop the server.
//!
//! | request | the command it runs |
//! | --- | --- |
//! | `GET /api/answer?game=G&position=P` | `grundy --json moves G P` |
//! | `GET /api/options?game=G&position=P` | `grundy --json moves --all G P` |
//! | `GET /api/play?game=G&position=P[&move=M][&first=engine][&hints=1]` | `grundy --json play G P`, stdin `M`, `hint` |
//! | `GET /api/sequence?game=G&to=N` | `grundy --json sequence G --to N` |
//! | `GET /api/plot?game=G&to=N` or `&size=N` | `grundy plot G -o FILE.svg`: the SVG |
//! | `GET /api/check?game=G&formula=F&to=N` | `grundy --json check G --formula F --to N` |
//! | `GET /api/rules` | `grundy --json rules` |
//! | `POST /api/script` (the script's text) | saves it, then `grundy --json rules script:FILE` |

mod child;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use child::{Ended, run_grundy};
use std::collections::HashMap;
use std::future::IntoFuture;
use std::sync::Arc;
use std::time::Duration;

/// What `grundy serve`'s command line set.
pub struct Settings {
    pub host: String,
    pub port: u16,
    /// How long one request may compute.
    pub timeout: Duration,
    /// How many requests compute at once.
    pub jobs: usize,
    /// The memory of one request's computation, in bytes.
    pub request_memory: u64,
    /// `--max-ops` for script games.
    pub max_ops: u64,
}

/// The largest request body: a pasted script.
const BODY_LIMIT: usize = 256 << 10;
/// The longest a request waits for its turn to compute before the server says it is busy.
const QUEUE_WAIT: Duration = Duration::from_secs(60);
/// The largest nim-sequence and table a page asks for.
const LARGEST_SEQUENCE: u64 = 100_000;
const LARGEST_TABLE: u64 = 1024;

const INDEX_HTML: &str = include_str!("index.html");
const STYLE_CSS: &str = include_str!("style.css");
const APP_JS: &str = include_str!("app.js");

struct Server {
    settings: Settings,
    /// One permit per computation running.
    turns: tokio::sync::Semaphore,
}

type Shared = Arc<Server>;
type Params = Query<HashMap<String, String>>;

/// Binds the address, prints it, and serves until the process is stopped.
pub fn run(settings: Settings) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    runtime.block_on(async move {
        let address = format!("{}:{}", settings.host, settings.port);
        let listener = tokio::net::TcpListener::bind(&address).await.map_err(|error| {
            anyhow::anyhow!(
                "cannot listen on `{}`: {error} (choose another port with --port, or --port 0 for any free one)",
                grundy::error::quote(&address)
            )
        })?;
        let bound = listener.local_addr()?;
        crate::output::print(&format!("grundy serve: open http://{bound}/ in a browser (Ctrl-C stops)\n"))?;
        let turns = tokio::sync::Semaphore::new(settings.jobs);
        let app = router(Arc::new(Server { settings, turns }));
        tokio::select! {
            served = axum::serve(listener, app).into_future() => served.map_err(anyhow::Error::from),
            () = signalled() => Err(crate::output::Stop::Interrupted(
                "stopped: the server is closed (each request's grundy process with it)".to_owned(),
            )
            .into()),
        }
    })
}

/// Resolves once a signal (Ctrl-C, SIGTERM, SIGHUP) has cancelled the command's control
/// (`signals`), which ends the server at once: a browser's open connection does not keep it.
async fn signalled() {
    while !crate::games::control().cancelled() {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn router(server: Shared) -> Router {
    Router::new()
        .route("/", get(|| async { asset("text/html; charset=utf-8", INDEX_HTML) }))
        .route("/style.css", get(|| async { asset("text/css; charset=utf-8", STYLE_CSS) }))
        .route("/app.js", get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }))
        .route("/api/answer", get(answer))
        .route("/api/options", get(options))
        .route("/api/play", get(play))
        .route("/api/sequence", get(sequence))
        .route("/api/plot", get(plot))
        .route("/api/check", get(check))
        .route("/api/rules", get(rules))
        .route("/api/script", post(save_script))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(server.clone(), local_names_only))
        .with_state(server)
}

/// A server on a loopback address answers only requests addressed to a loopback name: a web
/// page elsewhere cannot read its answers by pointing a name of its own at 127.0.0.1 (DNS
/// rebinding). One listening on another address was opened to the network on purpose.
async fn local_names_only(
    State(server): State<Shared>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let host = request.headers().get(header::HOST).and_then(|host| host.to_str().ok()).unwrap_or("");
    if !is_loopback_name(&server.settings.host) || is_loopback_name(host_name(host)) {
        return next.run(request).await;
    }
    let message = format!(
        "this server answers only requests for 127.0.0.1 or localhost, not `{}` (grundy serve --host sets its address)",
        grundy::error::quote(host)
    );
    let body = serde_json::json!({ "error": { "kind": "forbidden", "message": message } });
    (StatusCode::FORBIDDEN, axum::Json(body)).into_response()
}

/// The name of a `Host` header without its port: `localhost`, `127.0.0.1`, `[::1]`.
fn host_name(host: &str) -> &str {
    match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None => host.split(':').next().unwrap_or(""),
    }
}

fn is_loopback_name(name: &str) -> bool {
    name.eq_ignore_ascii_case("localhost")
        || name.trim_matches(['[', ']']).parse::<std::net::IpAddr>().is_ok_and(|address| address.is_loopback())
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "no-cache")], body).into_response()
}

/// A request the server refuses itself: the JSON error object of docs/json.md, status 400.
struct Refused {
    kind: &'static str,
    message: String,
}

fn refuse(kind: &'static str, message: impl Into<String>) -> Refused {
    Refused { kind, message: message.into() }
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": { "kind": self.kind, "message": self.message } });
        (StatusCode::BAD_REQUEST, axum::Json(body)).into_response()
    }
}

type Answer = Result<Response, Refused>;

const NO_GAME: &str = "no game given: choose one (`nim`, `wythoff`, `octal:0.137`, …)";

/// The game and position of a request as command-line words, after `--` so that no word is
/// taken for a flag: `game=nim&position=3 + wythoff 4,7` is `nim 3 + wythoff 4,7`.
/// With `game_alone`, the game may come without a position (a script's `start()`, for `play`).
fn position_words(params: &HashMap<String, String>, game_alone: bool) -> Result<Vec<String>, Refused> {
    let game = params.get("game").map(String::as_str).unwrap_or("").trim();
    if game.is_empty() {
        return Err(refuse("usage", NO_GAME));
    }
    let position = params.get("position").map(String::as_str).unwrap_or("");
    let mut words = vec!["--".to_owned()];
    words.extend(game.split_whitespace().chain(position.split_whitespace()).map(str::to_owned));
    if words.len() == 2 && !game_alone {
        return Err(refuse("usage", format!("no position given: type its components after the game (`{game} 3 4 5`)")));
    }
    Ok(words)
}

/// The game alone (for the commands that take one game word), after `--`.
fn game_word(params: &HashMap<String, String>) -> Result<Vec<String>, Refused> {
    match params.get("game").map(|game| game.trim()) {
        Some(game) if !game.is_empty() => Ok(vec!["--".to_owned(), game.to_owned()]),
        _ => Err(refuse("usage", NO_GAME)),
    }
}

/// A number parameter from 0 to `largest`, if given.
fn number(params: &HashMap<String, String>, name: &str, largest: u64) -> Result<Option<u64>, Refused> {
    let Some(text) = params.get(name).map(|text| text.trim()).filter(|text| !text.is_empty()) else {
        return Ok(None);
    };
    match text.parse::<u64>() {
        Ok(value) if value <= largest => Ok(Some(value)),
        _ => Err(refuse(
            "usage",
            format!("bad {name} `{}`: write a whole number from 0 to {largest}", grundy::error::quote(text)),
        )),
    }
}

impl Server {
    /// Runs one child when its turn comes.
    async fn grundy(&self, arguments: &[String], stdin: &str) -> Ended {
        let Ok(Ok(_turn)) = tokio::time::timeout(QUEUE_WAIT, self.turns.acquire()).await else {
            return Ended::Stopped {
                kind: "busy",
                message: "the server is busy with other requests: try again in a moment".to_owned(),
            };
        };
        run_grundy(&self.settings, arguments, stdin).await
    }

    /// Runs `grundy --json ARGUMENTS` and answers with what it printed: its JSON (status 200),
    /// or its error object (status 400). `findings` is an exit status that is an answer too
    /// (`check`'s 1, a counterexample).
    async fn json(&self, arguments: &[String], stdin: &str, findings: Option<i32>) -> Response {
        match self.grundy(arguments, stdin).await {
            Ended::Exited { status, stdout, .. } if status == 0 || Some(status) == findings => {
                ([(header::CONTENT_TYPE, "application/json")], stdout).into_response()
            }
            ended => error_response(ended),
        }
    }
}

/// A child's failure as the page's error object: the JSON error it printed, else its stderr.
fn error_response(ended: Ended) -> Response {
    match ended {
        Ended::Exited { stdout, stderr_line, .. } => {
            let printed = String::from_utf8_lossy(&stdout);
            // The error object is the last line (an error after a list has begun ends its
            // object with an `"error"` key, which the page reads the same way).
            match printed.lines().rev().find_map(|line| serde_json::from_str::<serde_json::Value>(line).ok()) {
                Some(object) if object.get("error").is_some() => {
                    (StatusCode::BAD_REQUEST, axum::Json(object)).into_response()
                }
                _ if stderr_line.is_empty() => refuse("error", "the computation failed").into_response(),
                _ => refuse("error", stderr_line).into_response(),
            }
        }
        Ended::Stopped { kind, message } => refuse(kind, message).into_response(),
    }
}

async fn answer(State(server): State<Shared>, Query(params): Params) -> Answer {
    let words = position_words(&params, false)?;
    Ok(server.json(&[vec!["moves".to_owned()], words].concat(), "", None).await)
}

async fn options(State(server): State<Shared>, Query(params): Params) -> Answer {
    let words = position_words(&params, false)?;
    Ok(server.json(&[vec!["moves".to_owned(), "--all".to_owned()], words].concat(), "", None).await)
}

/// One turn of a game: the person's move (if any) and grundy's reply, as `play`'s events
/// (`{"events": [...]}`, docs/json.md). After the move, `hint` is typed: a `hint` event
/// means the game goes on (`play` reads no more once the game is over), and gives the hint.
async fn play(State(server): State<Shared>, Query(params): Params) -> Answer {
    let words = position_words(&params, true)?;
    let typed = params.get("move").map(|typed| typed.trim()).unwrap_or("");
    if typed.contains(['\n', '\r']) {
        return Err(refuse("usage", "a move is one line, as `grundy moves` writes it (`3 -> 1`)"));
    }
    let engine_first = params.get("first").is_some_and(|first| first == "engine");
    let mut arguments = vec!["play".to_owned(), "--first".to_owned()];
    arguments.push(if engine_first { "engine" } else { "me" }.to_owned());
    if params.get("hints").is_some_and(|hints| hints == "1") {
        arguments.push("--hints".to_owned());
    }
    arguments.extend(words);
    let stdin = if engine_first || typed.is_empty() { "hint\n".to_owned() } else { format!("{typed}\nhint\n") };
    Ok(match server.grundy(&arguments, &stdin).await {
        Ended::Exited { status: 0, stdout, .. } => {
            let events: Vec<serde_json::Value> =
                String::from_utf8_lossy(&stdout).lines().filter_map(|line| serde_json::from_str(line).ok()).collect();
            axum::Json(serde_json::json!({ "events": events })).into_response()
        }
        ended => error_response(ended),
    })
}

async fn sequence(State(server): State<Shared>, Query(params): Params) -> Answer {
    let game = game_word(&params)?;
    let to = number(&params, "to", LARGEST_SEQUENCE)?.unwrap_or(100);
    Ok(server.json(&[vec!["sequence".to_owned(), format!("--to={to}")], game].concat(), "", None).await)
}

async fn check(State(server): State<Shared>, Query(params): Params) -> Answer {
    let game = game_word(&params)?;
    let to = number(&params, "to", LARGEST_SEQUENCE)?.unwrap_or(1000);
    let formula = params.get("formula").map(|formula| formula.trim()).unwrap_or("");
    if formula.is_empty() {
        return Err(refuse("usage", "no formula given: write one over the heap `n`, like `n % 7 not in (0, 2)`"));
    }
    let arguments = [vec!["check".to_owned(), format!("--formula={formula}"), format!("--to={to}")], game].concat();
    Ok(server.json(&arguments, "", Some(1)).await)
}

async fn rules(State(server): State<Shared>) -> Response {
    server.json(&["rules".to_owned()], "", None).await
}

/// The picture of a heap game's nim-sequence (`to`), a two-heap game's table (`size`) or a
/// graph game (neither), as SVG.
async fn plot(State(server): State<Shared>, Query(params): Params) -> Answer {
    let game = game_word(&params)?;
    let mut arguments = vec!["plot".to_owned()];
    if let Some(size) = number(&params, "size", LARGEST_TABLE)? {
        arguments.push(format!("--size={size}"));
    }
    if let Some(to) = number(&params, "to", LARGEST_SEQUENCE)? {
        arguments.push(format!("--to={to}"));
    }
    let directory = tempfile::Builder::new()
        .prefix("grundy-serve-plot-")
        .tempdir()
        .map_err(|error| refuse("error", format!("cannot make a temporary directory for the picture: {error}")))?;
    let file = directory.path().join("plot.svg");
    arguments.push(format!("--output={}", file.display()));
    arguments.extend(game);
    Ok(match server.grundy(&arguments, "").await {
        Ended::Exited { status: 0, .. } => match tokio::fs::read(&file).await {
            Ok(svg) => ([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response(),
            Err(error) => refuse("error", format!("cannot read the picture grundy drew: {error}")).into_response(),
        },
        ended => error_response(ended),
    })
}

/// A pasted script, saved under a name made from its text in this user's own directory, and
/// described by `rules` (which loads it in a watched worker: a syntax error shows at once).
async fn save_script(State(server): State<Shared>, body: String) -> Answer {
    if body.trim().is_empty() {
        return Err(refuse(
            "usage",
            "the script is empty: paste a Starlark game (`grundy rules --write-examples DIR` writes examples)",
        ));
    }
    let path = save_pasted(&body).map_err(|error| refuse("error", format!("cannot save the script: {error:#}")))?;
    Ok(server.json(&["rules".to_owned(), "--".to_owned(), format!("script:{}", path.display())], "", None).await)
}

/// Writes `text` as `pasted-HASH.star` in `$TMPDIR/grundy-serve-UID` (made private to this
/// user, and refused if anyone else could write there).
fn save_pasted(text: &str) -> anyhow::Result<std::path::PathBuf> {
    use std::hash::{Hash, Hasher};
    use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
    let uid = crate::os::user_id();
    let directory = std::env::temp_dir().join(format!("grundy-serve-{uid}"));
    match std::fs::DirBuilder::new().mode(0o700).create(&directory) {
        Ok(()) => {}
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(error) => return Err(error.into()),
    }
    let metadata = std::fs::symlink_metadata(&directory)?;
    if !metadata.is_dir() || metadata.uid() != uid || metadata.permissions().mode() & 0o077 != 0 {
        anyhow::bail!("{} is not a private directory of this user", directory.display());
    }
    let mut hasher = std::hash::DefaultHasher::new();
    text.hash(&mut hasher);
    let path = directory.join(format!("pasted-{:016x}.star", hasher.finish()));
    // Written whole, then renamed: a game being read never sees half a script.
    let mut file = tempfile::NamedTempFile::new_in(&directory)?;
    std::io::Write::write_all(&mut file, text.as_bytes())?;
    file.persist(&path)?;
    Ok(path)
}
