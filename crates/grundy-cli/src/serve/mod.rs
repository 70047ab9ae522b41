//! `grundy serve`: the page (HTML, CSS and JavaScript built into the binary) and the JSON API
//! it calls. Every API request is answered by a grundy child process ([`child`]): the answers
//! are exactly the command line's JSON (docs/json.md), and each is bounded in time, memory and
//! size by the child's limits, so no request can stop the server.
//!
//! | request | the command it runs |
//! | --- | --- |
//! | `GET /api/answer?game=G&position=P[&misere=1][&compound=C]` | `grundy --json moves [--misere] [--compound C] G P` |
//! | `GET /api/options?game=G&position=P[&offset=K&count=C][&compound=C]` | `grundy --json moves --all [--offset K --count C] [--compound C] G P`: options (a compound's `moves`) K to K + C − 1 (default all), and `options_total` |
//! | `GET /api/value?game=G&position=P` | `grundy --json value G P` |
//! | `GET /api/play?game=G&position=P[&move=M][&first=engine][&hints=1][&compound=C]` | `grundy --json play [--compound C] G P`, stdin `M`, `hint` |
//! | `GET /api/sequence?game=G&to=N` | `grundy --json sequence G --to N` |
//! | `GET /api/plot?game=G&to=N` or `&size=N` | `grundy plot G -o FILE.svg`: the SVG |
//! | `GET /api/check?game=G&formula=F&to=N` | `grundy --json check G --formula F --to N` |
//! | `GET /api/rules` | `grundy --json rules` |
//! | `GET /api/rules?game=G` | `grundy --json rules G` |
//! | `GET /api/guess?game=G` | `grundy --json guess G` |
//! | `GET /api/guess?game=G&emit=python` or `cpp` | `grundy guess --emit LANGUAGE G`: the code, as text |
//! | `POST /api/script` (the script's text) | saves it, then `grundy --json rules script:FILE` |
//!
//! What keeps it safe to leave running: a game that names a file is refused unless the file is
//! a pasted script or lies in the folder of `--files DIR` ([`query`]); requests are answered for
//! the server's own names only, and the API for its own page only ([`access`]); connections are
//! bounded in number and time ([`connections`]); turns to compute are shared fairly between
//! clients ([`turns`]); pasted scripts are capped, and removed when the server stops ([`pasted`]).

mod access;
mod child;
mod connections;
mod pasted;
pub mod query;
mod turns;

use axum::extract::{DefaultBodyLimit, RawQuery, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Router};
use child::{Ended, run_grundy};
use connections::Client;
use grundy::control::Control;
use query::{ChildCommand, Endpoint, FileRules, LARGEST_PAGE, Refusal};
use std::io::Write;
use std::path::PathBuf;
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
    /// The folder whose game files are served (`--files`), canonical.
    pub files: Option<PathBuf>,
}

/// The largest request body: a pasted script.
const BODY_LIMIT: usize = 256 << 10;
/// How much longer than one request's time limit a request may wait for its turn: a turn frees
/// at least once a time limit, after its child is killed and reaped.
const QUEUE_SLACK: Duration = Duration::from_secs(1);
/// Time a request may take besides waiting for its turn and computing: sending it, starting
/// its child, answering.
const REQUEST_SLACK: Duration = Duration::from_secs(5);

const INDEX_HTML: &str = include_str!("index.html");
const STYLE_CSS: &str = include_str!("style.css");
const APP_JS: &str = include_str!("app.js");

struct Server {
    settings: Settings,
    /// The turns to compute.
    turns: Arc<turns::Turns>,
    /// How long a request waits for its turn: a turn frees at least once a request's time
    /// limit, so the fairest waiter gets one by then.
    queue_wait: Duration,
    pasted: pasted::PastedScripts,
    /// The names requests may be addressed to.
    names: access::Names,
}

type Shared = Arc<Server>;

/// Binds the address, prints it, and serves until the process is stopped (a signal cancels
/// `control`, the run's).
pub fn run(settings: Settings, control: &Control) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    let pasted = pasted::PastedScripts::new()?;
    let control = control.clone();
    let served = runtime.block_on(async move {
        let address = format!("{}:{}", settings.host, settings.port);
        let listener = tokio::net::TcpListener::bind(&address).await.map_err(|error| {
            anyhow::anyhow!(
                "cannot listen on `{}`: {error} (choose another port with --port, or --port 0 for any free one)",
                grundy::error::quote(&address)
            )
        })?;
        let bound = listener.local_addr()?;
        if !bound.ip().is_loopback() {
            // Said before the address is printed: whoever reads the address has seen it.
            let _ = writeln!(
                std::io::stderr(),
                "grundy: warning: listening on {bound}, not a loopback address: the page and its answers{} are open to everyone who can reach this machine on the network (--host 127.0.0.1 keeps them to this machine)",
                if settings.files.is_some() { ", and the game files of --files," } else { "" }
            );
        }
        crate::output::print(&format!("grundy serve: open http://{bound}/ in a browser (Ctrl-C stops)\n"))?;
        let queue_wait = settings.timeout + QUEUE_SLACK;
        let limits = connections::Limits {
            connections: connections::Limits::connections_for(crate::os::open_file_limit(), settings.jobs),
            request_deadline: queue_wait + settings.timeout + REQUEST_SLACK,
        };
        let names = access::Names::new(&settings.host, bound, crate::os::host_name());
        let server = Server {
            turns: turns::Turns::new(settings.jobs),
            queue_wait,
            settings,
            pasted,
            names,
        };
        let app = router(Arc::new(server));
        tokio::select! {
            () = connections::serve(listener, app, limits) => Ok(()),
            () = signalled(&control) => Err(crate::output::Stop::Interrupted(
                "stopped: the server is closed (each request's grundy process with it)".to_owned(),
            )
            .into()),
        }
    });
    // The connections and their children end with the runtime; the pasted scripts' folder
    // with the server (when the last request holding it is dropped).
    drop(runtime);
    served
}

/// Resolves once a signal (Ctrl-C, SIGTERM, SIGHUP) has cancelled the command's `control`
/// (`signals`), which ends the server at once: a browser's open connection does not keep it.
async fn signalled(control: &Control) {
    while !control.cancelled() {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The route of an endpoint whose query names a game: the one handler, told which.
fn game_endpoint(which: Endpoint) -> axum::routing::MethodRouter<Shared> {
    get(async move |server: State<Shared>, client: Extension<Client>, query: RawQuery| {
        endpoint(which, server, client, query).await
    })
}

fn router(server: Shared) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/style.css", get(|| async { asset("text/css; charset=utf-8", STYLE_CSS) }))
        .route("/app.js", get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }))
        .route("/api/answer", game_endpoint(Endpoint::Answer))
        .route("/api/options", game_endpoint(Endpoint::Options))
        .route("/api/value", game_endpoint(Endpoint::Value))
        .route("/api/play", game_endpoint(Endpoint::Play))
        .route("/api/sequence", game_endpoint(Endpoint::Sequence))
        .route("/api/plot", get(plot))
        .route("/api/check", game_endpoint(Endpoint::Check))
        .route("/api/rules", get(rules))
        .route("/api/guess", game_endpoint(Endpoint::Guess))
        .route("/api/script", post(save_script))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(server.clone(), own_names_and_page_only))
        .layer(axum::middleware::map_response(no_framing))
        .with_state(server)
}

/// No page of another site may show this one in a frame (where a click on it could be made
/// without the user knowing: clickjacking): `X-Frame-Options: DENY` for older browsers, and
/// the policy `frame-ancestors 'none'`, on every answer, refusals included.
async fn no_framing(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(header::X_FRAME_OPTIONS, header::HeaderValue::from_static("DENY"));
    headers.insert(header::CONTENT_SECURITY_POLICY, header::HeaderValue::from_static("frame-ancestors 'none'"));
    response
}

/// Answers only requests addressed to the server's own names (DNS rebinding), and the API only
/// for its own page: a request another web site's page makes a browser send gets 403.
async fn own_names_and_page_only(
    State(server): State<Shared>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let host = request.headers().get(header::HOST).and_then(|host| host.to_str().ok()).unwrap_or("");
    // Two names: which one the request is for is anyone's guess (a proxy may read the other).
    if request.headers().get_all(header::HOST).iter().nth(1).is_some() {
        return forbidden("a request names one host, not two (two `Host` headers)".to_owned());
    }
    if !server.names.allows(host) {
        let message = format!(
            "this server answers only requests for {}, not `{}` (grundy serve --host sets its address)",
            server.names.describe(),
            grundy::error::quote(host)
        );
        return forbidden(message);
    }
    if request.uri().path().starts_with("/api/")
        && let Some(site) = access::other_site(request.headers())
    {
        return forbidden(format!("this server answers its own page only, not a request of another web site ({site})"));
    }
    next.run(request).await
}

fn forbidden(message: String) -> Response {
    Refusal { status: 403, kind: "forbidden", message }.into_response()
}

/// The page, in the language asked for: `?lang=zh` or `?lang=en`, else the browser's first
/// language of the two in `Accept-Language`; the script reads `<html lang>` and writes every
/// text in it.
async fn index(RawQuery(raw): RawQuery, headers: axum::http::HeaderMap) -> Response {
    let asked = query::parse_query(raw.as_deref().unwrap_or("")).remove("lang");
    let accepted = headers.get(header::ACCEPT_LANGUAGE).and_then(|value| value.to_str().ok());
    let page = match page_language(asked.as_deref(), accepted) {
        "zh" => INDEX_HTML.replacen("<html lang=\"en\">", "<html lang=\"zh-CN\">", 1),
        _ => INDEX_HTML.to_owned(),
    };
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], page).into_response()
}

/// `en` or `zh`: the `lang` parameter if it names one, else the first of them in the
/// `Accept-Language` header (its order is the browser's preference), else `en`.
fn page_language(asked: Option<&str>, accepted: Option<&str>) -> &'static str {
    let of = |tag: &str| {
        let primary = tag.trim().split(['-', '_', ';']).next().unwrap_or("").to_ascii_lowercase();
        match primary.as_str() {
            "zh" => Some("zh"),
            "en" => Some("en"),
            _ => None,
        }
    };
    if let Some(language) = asked.and_then(of) {
        return language;
    }
    // Tags with `q=0` are refused languages; the others come in the order of preference.
    let mut tags: Vec<(f32, usize, &str)> = accepted
        .unwrap_or("")
        .split(',')
        .enumerate()
        .filter_map(|(index, tag)| {
            let mut pieces = tag.split(';');
            let name = pieces.next()?.trim();
            let weight = pieces
                .find_map(|piece| piece.trim().strip_prefix("q="))
                .map_or(Some(1.0), |q| q.trim().parse::<f32>().ok())?;
            (weight > 0.0).then_some((weight, index, name))
        })
        .collect();
    tags.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    tags.into_iter().find_map(|(_, _, tag)| of(tag)).unwrap_or("en")
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "no-cache")], body).into_response()
}

/// A refusal as the JSON error object of docs/json.md, with its status.
impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": { "kind": self.kind, "message": self.message } });
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::BAD_REQUEST);
        (status, axum::Json(body)).into_response()
    }
}

/// An error of the server's own (not a refusal of the request), status 400 as the child's.
fn failed(kind: &'static str, message: impl Into<String>) -> Refusal {
    Refusal { status: 400, kind, message: message.into() }
}

type Answer = Result<Response, Refusal>;

impl Server {
    /// Which files games may read: the pasted scripts, and the `--files` folder's.
    fn with_file_rules<T>(&self, work: impl FnOnce(FileRules) -> T) -> T {
        let pasted = |path: &std::path::Path| self.pasted.lookup(path);
        work(FileRules { folder: self.settings.files.as_deref(), pasted: &pasted })
    }

    /// Runs one child when its turn comes. While it computes, the client's connection is not
    /// closed to make room for another (while it waits, it may be: at most `--jobs` are kept).
    async fn grundy(&self, client: &Client, command: &ChildCommand) -> Ended {
        let Ok(_turn) = self.turns.take(client.who.clone(), self.queue_wait).await else {
            return Ended::Stopped {
                kind: "busy",
                message: "the server is busy with other requests: try again in a moment".to_owned(),
            };
        };
        let _computing = client.computing();
        let opened = match self.open_game_files(&command.arguments) {
            Ok(opened) => opened,
            Err(message) => return Ended::Stopped { kind: "forbidden", message },
        };
        let files: Vec<i32> = opened.iter().map(|one| std::os::fd::AsRawFd::as_raw_fd(&one.file)).collect();
        let arguments: Vec<String> = command
            .arguments
            .iter()
            .map(|word| {
                opened.iter().find(|one| &one.word == word).map_or_else(|| word.clone(), |one| one.replaced.clone())
            })
            .collect();
        let ended = run_grundy(&self.settings, &arguments, &command.stdin, &files).await;
        renamed_back(ended, &opened)
    }

    /// The game files of the `--files` folder that `arguments` name, each opened once here, in
    /// one step that cannot leave the folder (`os::open_beneath`): the child reads the file
    /// this opened (`/dev/fd/N`), never the path again, so a symbolic link swapped after the
    /// check cannot make it read a file outside the folder. Pasted scripts are the server's
    /// own files and stay named by their path.
    fn open_game_files(&self, arguments: &[String]) -> Result<Vec<OpenedFile>, String> {
        let Some(folder) = self.settings.files.as_deref() else { return Ok(Vec::new()) };
        let mut opened: Vec<OpenedFile> = Vec::new();
        for word in arguments {
            let Some(path) = query::file_named(word) else { continue };
            if self.pasted.lookup(std::path::Path::new(path)) == query::PastedScript::Kept
                || opened.iter().any(|one| &one.word == word)
            {
                continue;
            }
            let refused = || {
                format!(
                    "`{}` is not a file inside the folder this server serves: name a file of that folder, by its path from there",
                    grundy::error::quote(path)
                )
            };
            let file = open_served(folder, path).map_err(|_| refused())?;
            let family = word.split_once(':').map_or("", |(family, _)| family);
            let descriptor = format!("/dev/fd/{}", std::os::fd::AsRawFd::as_raw_fd(&file));
            opened.push(OpenedFile {
                replaced: format!("{family}:{descriptor}"),
                word: word.clone(),
                path: path.to_owned(),
                descriptor,
                file,
            });
        }
        Ok(opened)
    }

    /// Runs `grundy --json ARGUMENTS` and answers with what it printed: its JSON (status 200),
    /// or its error object (status 400). `findings` is an exit status that is an answer too
    /// (`check`'s 1, a counterexample).
    async fn json(&self, client: &Client, command: &ChildCommand, findings: Option<i32>) -> Response {
        match self.grundy(client, command).await {
            Ended::Exited { status, stdout, .. } if status == 0 || Some(status) == findings => {
                ([(header::CONTENT_TYPE, "application/json")], stdout).into_response()
            }
            ended => error_response(ended),
        }
    }
}

/// A game file opened for one child: the request's word (`dag:graph.txt`), the word the child
/// gets (`dag:/dev/fd/7`), and the file.
struct OpenedFile {
    word: String,
    replaced: String,
    path: String,
    descriptor: String,
    file: std::fs::File,
}

/// Opens the served file `path` (relative to the folder, or a whole path that lies in it).
fn open_served(folder: &std::path::Path, path: &str) -> std::io::Result<std::fs::File> {
    #[cfg(target_os = "linux")]
    {
        // Its real path now (links inside the folder resolved, as the check resolved them),
        // then opened beneath the folder with no link followed: a link swapped in since fails.
        let real = query::inside_folder(folder, path)
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::PermissionDenied))?;
        let relative = real
            .strip_prefix(folder)
            .map_err(|_| std::io::Error::from(std::io::ErrorKind::PermissionDenied))?
            .display()
            .to_string();
        crate::os::open_beneath(folder, &relative)
    }
    #[cfg(not(target_os = "linux"))]
    {
        // No `openat2`: the real path checked, then opened without following a last link.
        let real = query::inside_folder(folder, path)
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::PermissionDenied))?;
        std::fs::File::open(real)
    }
}

/// The child's answer with each `/dev/fd/N` it was given named again as the request named
/// it (in JSON, escaped as a JSON string's content).
fn renamed_back(ended: Ended, opened: &[OpenedFile]) -> Ended {
    if opened.is_empty() {
        return ended;
    }
    // `/dev/fd/3` is a prefix of `/dev/fd/31`: the larger numbers first.
    let mut order: Vec<&OpenedFile> = opened.iter().collect();
    order.sort_by_key(|one| {
        std::cmp::Reverse(one.descriptor.trim_start_matches("/dev/fd/").parse::<u64>().unwrap_or(0))
    });
    let rename = |text: &str, json: bool| {
        order.iter().fold(text.to_owned(), |text, one| {
            let name = if json {
                let quoted = serde_json::to_string(&one.path).unwrap_or_default();
                quoted.get(1..quoted.len().saturating_sub(1)).unwrap_or_default().to_owned()
            } else {
                one.path.clone()
            };
            text.replace(&one.descriptor, &name)
        })
    };
    match ended {
        Ended::Exited { status, stdout, stderr_line } => Ended::Exited {
            status,
            stdout: rename(&String::from_utf8_lossy(&stdout), true).into_bytes(),
            stderr_line: rename(&stderr_line, false),
        },
        Ended::Stopped { kind, message } => Ended::Stopped { kind, message: rename(&message, false) },
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
                _ if stderr_line.is_empty() => failed("error", "the computation failed").into_response(),
                _ => failed("error", stderr_line).into_response(),
            }
        }
        Ended::Stopped { kind, message } => failed(kind, message).into_response(),
    }
}

/// The endpoints that answer with the command's JSON: answer, options, sequence, check (whose
/// exit status 1, a counterexample, is an answer) and play (its events gathered in one object,
/// `{"events": [...]}`, docs/json.md).
async fn endpoint(
    endpoint: Endpoint,
    State(server): State<Shared>,
    Extension(client): Extension<Client>,
    RawQuery(raw): RawQuery,
) -> Answer {
    let command =
        server.with_file_rules(|files| query::child_command(endpoint, raw.as_deref().unwrap_or(""), files))?;
    Ok(match endpoint {
        Endpoint::Play => match server.grundy(&client, &command).await {
            Ended::Exited { status: 0, stdout, .. } => {
                let events: Vec<serde_json::Value> = String::from_utf8_lossy(&stdout)
                    .lines()
                    .filter_map(|line| serde_json::from_str(line).ok())
                    .collect();
                axum::Json(serde_json::json!({ "events": events })).into_response()
            }
            ended => error_response(ended),
        },
        Endpoint::Check => server.json(&client, &command, Some(1)).await,
        // The code `--emit` prints is text, not JSON.
        Endpoint::Guess if command.arguments.iter().any(|word| word.starts_with("--emit=")) => {
            match server.grundy(&client, &command).await {
                Ended::Exited { status: 0, stdout, .. } => {
                    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], stdout).into_response()
                }
                ended => error_response(ended),
            }
        }
        Endpoint::Options => {
            let params = query::parse_query(raw.as_deref().unwrap_or(""));
            let page =
                (query::number(&params, "offset", LARGEST_PAGE)?, query::number(&params, "count", LARGEST_PAGE)?);
            match server.grundy(&client, &command).await {
                Ended::Exited { status: 0, stdout, .. } => options_page(&stdout, page),
                ended => error_response(ended),
            }
        }
        _ => server.json(&client, &command, None).await,
    })
}

/// `moves --all`'s answer with options (a compound's `moves`) `offset` to `offset + count - 1` only (all by default),
/// and their number in `options_total`: a page of a long list (a heap of 100000 has 100000
/// options, 11 MB of JSON) costs the browser that page only.
fn options_page(stdout: &[u8], (offset, count): (Option<u64>, Option<u64>)) -> Response {
    let Ok(mut answer) = serde_json::from_slice::<serde_json::Value>(stdout) else {
        return failed("error", "the options grundy printed are not one JSON object").into_response();
    };
    // Paged by the command itself (`moves --all --offset K --count C`), which judged that page only.
    if answer.get("options_total").is_some() {
        return axum::Json(answer).into_response();
    }
    // A compound's moves (`moves --all --compound`) are its options.
    let list = if answer.get("compound").is_some() { "moves" } else { "options" };
    if let Some(options) = answer.get_mut(list).and_then(|options| options.as_array_mut()) {
        let total = options.len();
        let start = usize::try_from(offset.unwrap_or(0)).unwrap_or(usize::MAX).min(total);
        let end = start.saturating_add(usize::try_from(count.unwrap_or(u64::MAX)).unwrap_or(usize::MAX)).min(total);
        let page: Vec<serde_json::Value> = options.drain(start..end).collect();
        *options = page;
        answer["options_total"] = serde_json::json!(total);
        answer["offset"] = serde_json::json!(start);
    }
    axum::Json(answer).into_response()
}

async fn rules(server: State<Shared>, client: Extension<Client>, RawQuery(raw): RawQuery) -> Answer {
    if query::parse_query(raw.as_deref().unwrap_or("")).contains_key("game") {
        return endpoint(Endpoint::Rules, server, client, RawQuery(raw)).await;
    }
    let (State(server), Extension(client)) = (server, client);
    let command = ChildCommand { arguments: vec!["rules".to_owned()], stdin: String::new() };
    Ok(server.json(&client, &command, None).await)
}

/// The picture of a heap game's nim-sequence (`to`), a two-heap game's table (`size`) or a
/// graph game (neither), as SVG.
async fn plot(State(server): State<Shared>, Extension(client): Extension<Client>, RawQuery(query): RawQuery) -> Answer {
    let mut command =
        server.with_file_rules(|files| query::child_command(Endpoint::Plot, query.as_deref().unwrap_or(""), files))?;
    let directory = tempfile::Builder::new()
        .prefix("grundy-serve-plot-")
        .tempdir()
        .map_err(|error| failed("error", format!("cannot make a temporary directory for the picture: {error}")))?;
    let file = directory.path().join("plot.svg");
    // After `plot`, before the `--` of the request's words.
    command.arguments.insert(1, format!("--output={}", file.display()));
    Ok(match server.grundy(&client, &command).await {
        Ended::Exited { status: 0, .. } => match tokio::fs::read(&file).await {
            Ok(svg) => ([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response(),
            Err(error) => failed("error", format!("cannot read the picture grundy drew: {error}")).into_response(),
        },
        ended => error_response(ended),
    })
}

/// A pasted script, saved among the server's pasted scripts (`pasted`) and described by `rules`
/// (which loads it in a watched worker: a syntax error shows at once).
async fn save_script(State(server): State<Shared>, Extension(client): Extension<Client>, body: String) -> Answer {
    if body.trim().is_empty() {
        return Err(failed(
            "usage",
            "the script is empty: paste a Starlark game (`grundy rules --write-examples DIR` writes examples)",
        ));
    }
    let path =
        server.pasted.save(&body).map_err(|error| failed("error", format!("cannot save the script: {error:#}")))?;
    let arguments = vec!["rules".to_owned(), "--".to_owned(), format!("script:{}", path.display())];
    Ok(server.json(&client, &ChildCommand { arguments, stdin: String::new() }, None).await)
}

#[cfg(test)]
mod tests {
    use super::page_language;

    #[test]
    fn the_page_speaks_the_language_asked_for() {
        assert_eq!(page_language(Some("zh"), None), "zh");
        assert_eq!(page_language(Some("en"), Some("zh-CN,zh;q=0.9")), "en");
        assert_eq!(page_language(Some("fr"), Some("zh-CN,zh;q=0.9")), "zh");
        assert_eq!(page_language(None, Some("zh-TW, en;q=0.5")), "zh");
        assert_eq!(page_language(None, Some("fr, en;q=0.8, zh;q=0.5")), "en");
        assert_eq!(page_language(None, Some("en;q=0.4, zh_Hans;q=0.6")), "zh");
        assert_eq!(page_language(None, Some("zh;q=0, de")), "en");
        assert_eq!(page_language(None, Some("")), "en");
        assert_eq!(page_language(None, None), "en");
    }
}
