//! Who may ask: the names a request may be addressed to (the `Host` header, against DNS
//! rebinding: a web page elsewhere pointing a name of its own at this server), and requests a
//! browser sends for another web site (`Origin`, `Sec-Fetch-Site`), which may not use the API:
//! another site could otherwise make the server compute, or paste scripts into it.

use axum::http::HeaderMap;
use axum::http::header;
use std::net::{IpAddr, SocketAddr};

/// The names requests may be addressed to.
pub struct Names {
    /// Whether the server listens on a loopback address only.
    loopback: bool,
    /// Names besides the loopback ones, lowercase: the `--host` name, and for a server open to
    /// the network the machine's name.
    names: Vec<String>,
}

impl Names {
    /// The names of a server started with `--host host`, bound to `bound`; `machine` is this
    /// machine's name, if known.
    pub fn new(host: &str, bound: SocketAddr, machine: Option<String>) -> Names {
        let loopback = bound.ip().is_loopback();
        let mut names = vec![host_name(host).to_ascii_lowercase()];
        if !loopback {
            names.extend(machine.map(|name| name.to_ascii_lowercase()));
        }
        names.retain(|name| !name.is_empty());
        Names { loopback, names }
    }

    /// Whether a request with this `Host` header is answered: a loopback name always; the
    /// `--host` name; and for a server open to the network, the machine's name and any IP
    /// address (a name of another site's is what DNS rebinding needs, never an address).
    pub fn allows(&self, host: &str) -> bool {
        let name = host_name(host);
        is_loopback_name(name)
            || self.names.iter().any(|allowed| allowed.eq_ignore_ascii_case(name))
            || (!self.loopback && name.parse::<IpAddr>().is_ok())
    }

    /// The names allowed, for the refusal.
    pub fn describe(&self) -> String {
        let mut shown = vec!["127.0.0.1".to_owned(), "localhost".to_owned()];
        // Addresses are said once, as "an IP address", when any is answered.
        let said = |name: &str| is_loopback_name(name) || (!self.loopback && name.parse::<IpAddr>().is_ok());
        shown.extend(self.names.iter().filter(|name| !said(name)).map(|name| format!("`{name}`")));
        if !self.loopback {
            shown.push("an IP address".to_owned());
        }
        match shown.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => shown.join(""),
        }
    }
}

/// The name of a `Host` header without its port: `localhost`, `127.0.0.1`, `::1` (from `[::1]`).
pub fn host_name(host: &str) -> &str {
    match host.strip_prefix('[') {
        Some(rest) => rest.split_once(']').map_or("", |(name, _)| name),
        None if host.matches(':').count() > 1 => host, // a bare IPv6 address, as --host gives it
        None => host.split(':').next().unwrap_or(""),
    }
}

fn is_loopback_name(name: &str) -> bool {
    name.eq_ignore_ascii_case("localhost") || name.parse::<IpAddr>().is_ok_and(|address| address.is_loopback())
}

/// Why a browser's request comes from another web site, if it does: its `Origin` is not this
/// server's own (`http://` and the request's `Host`), or its `Sec-Fetch-Site` is not
/// `same-origin` (a page of this server) or `none` (typed in the address bar). Clients that send
/// neither header (curl, scripts) are not browsers carrying another site's request.
pub fn other_site(headers: &HeaderMap) -> Option<String> {
    let host = headers.get(header::HOST).and_then(|host| host.to_str().ok()).unwrap_or("");
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = String::from_utf8_lossy(origin.as_bytes());
        let own =
            origin.strip_prefix("http://").is_some_and(|rest| !host.is_empty() && rest.eq_ignore_ascii_case(host));
        if !own {
            return Some(format!("from `{}`", grundy::error::quote(&origin)));
        }
    }
    let site = headers.get("sec-fetch-site").map(|site| String::from_utf8_lossy(site.as_bytes()).into_owned());
    match site.as_deref() {
        None | Some("same-origin" | "none") => None,
        Some(site) => Some(format!("sent {} (Sec-Fetch-Site)", grundy::error::quote(site))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn address(text: &str) -> SocketAddr {
        text.parse().unwrap()
    }

    #[test]
    fn a_loopback_server_answers_loopback_names_and_its_own() {
        let names = Names::new("127.0.0.1", address("127.0.0.1:8000"), Some("box".to_owned()));
        for host in ["127.0.0.1:8000", "localhost", "LOCALHOST:1", "[::1]:8000", "127.0.0.2"] {
            assert!(names.allows(host), "{host}");
        }
        for host in ["games.example:8000", "box", "10.0.0.5", "", "[::1"] {
            assert!(!names.allows(host), "{host}");
        }
        let names = Names::new("grundy.test", address("127.0.0.1:8000"), None);
        assert!(names.allows("grundy.test:8000") && !names.allows("other.test"));
        assert_eq!(names.describe(), "127.0.0.1, localhost or `grundy.test`");
    }

    #[test]
    fn a_server_open_to_the_network_answers_its_names_and_addresses() {
        let names = Names::new("0.0.0.0", address("0.0.0.0:8000"), Some("Box".to_owned()));
        for host in ["box:8000", "192.168.1.5:8000", "[fe80::1]:8000", "localhost", "0.0.0.0:8000"] {
            assert!(names.allows(host), "{host}");
        }
        assert!(!names.allows("games.example:8000"));
        assert_eq!(names.describe(), "127.0.0.1, localhost, `box` or an IP address");
        let names = Names::new("::", address("[::]:8000"), None);
        assert!(names.allows("[2001:db8::1]:8000") && !names.allows("rebound.example"));
    }

    #[test]
    fn requests_of_other_sites_are_known() {
        let headers = |pairs: &[(&'static str, &'static str)]| {
            let mut headers = HeaderMap::new();
            for (name, value) in pairs {
                headers.insert(*name, HeaderValue::from_static(value));
            }
            headers
        };
        let own = [("host", "127.0.0.1:8000"), ("origin", "http://127.0.0.1:8000"), ("sec-fetch-site", "same-origin")];
        assert_eq!(other_site(&headers(&own)), None);
        assert_eq!(other_site(&headers(&[("host", "127.0.0.1:8000")])), None);
        for pairs in [
            [("host", "127.0.0.1:8000"), ("origin", "http://evil.example"), ("sec-fetch-site", "same-origin")],
            [("host", "127.0.0.1:8000"), ("origin", "null"), ("sec-fetch-site", "same-origin")],
            [("host", "127.0.0.1:8000"), ("origin", "http://127.0.0.1:8001"), ("sec-fetch-site", "same-site")],
            [("host", "127.0.0.1:8000"), ("origin", "https://127.0.0.1:8000"), ("sec-fetch-site", "same-origin")],
            [("host", "127.0.0.1:8000"), ("sec-fetch-site", "cross-site"), ("accept", "*/*")],
        ] {
            assert!(other_site(&headers(&pairs)).is_some(), "{pairs:?}");
        }
    }
}
