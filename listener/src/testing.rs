//! For the servers' tests (feature `testing`): walk every route a router was built
//! with and check that its error answers are in the one documented shape
//! `{"errors":[{status, code, title, detail}]}`, the status a string equal to the
//! answer's.

use serde_json::Value;

/// Every path `router` was built with, read from its `Debug` output
/// (`paths: {RouteId(3): "/store-api/product", ...}`), so that a walk covers a route
/// added tomorrow. axum prints no other list; callers assert a lower bound on what
/// this finds, so a change of that output fails loudly instead of walking nothing.
pub fn registered_paths(router: &axum::Router) -> Vec<String> {
    let debug = format!("{router:?}");
    let mut paths = Vec::new();
    for part in debug.split("paths: {").skip(1) {
        // Path parameters are in braces too: the map ends at the first `}` that is not
        // inside quotes.
        let mut quoted = false;
        let end = part
            .char_indices()
            .find(|&(_, c)| {
                if c == '"' {
                    quoted = !quoted;
                }
                c == '}' && !quoted
            })
            .map_or(part.len(), |(i, _)| i);
        for entry in part[..end].split("RouteId(").skip(1) {
            if let Some(start) = entry.find('"') {
                let rest = &entry[start + 1..];
                let path = &rest[..rest.find('"').unwrap_or(rest.len())];
                if !path.contains("__private__") {
                    paths.push(path.to_owned());
                }
            }
        }
    }
    paths.sort();
    paths.dedup();
    paths
}

/// `path` with every parameter (`{id}`, `{*rest}`) replaced by `value`.
pub fn fill(path: &str, value: &str) -> String {
    let mut filled = String::new();
    let mut rest = path;
    while let Some(start) = rest.find('{') {
        filled.push_str(&rest[..start]);
        filled.push_str(value);
        rest = &rest[rest[start..]
            .find('}')
            .map_or(rest.len(), |end| start + end + 1)..];
    }
    filled.push_str(rest);
    filled
}

/// Whether `body` is a non-empty error list in the shape, every status `status`.
pub fn is_error_shape(body: &Value, status: u16) -> bool {
    body["errors"].as_array().is_some_and(|errors| {
        !errors.is_empty()
            && errors.iter().all(|e| {
                e["status"].as_str() == Some(status.to_string().as_str())
                    && ["code", "title", "detail"]
                        .iter()
                        .all(|f| e[*f].as_str().is_some_and(|s| !s.is_empty()))
            })
    })
}

/// Panics unless `body` is in the shape with `status`.
pub fn assert_error_shape(body: &Value, status: u16) {
    assert!(
        is_error_shape(body, status),
        "not an error list in the shape with status {status}: {body}"
    );
}

/// Checks one answer of a walk: an error (status ≥ 400) must be JSON in the shape and
/// never a 5xx; what is not goes to `failures` (`what`, `method` and `url` name it).
/// Answers the parsed body of an error.
pub fn check_answer(
    failures: &mut Vec<String>,
    what: &str,
    method: &str,
    url: &str,
    status: u16,
    content_type: &str,
    body: &str,
) -> Option<Value> {
    if status < 400 {
        return None;
    }
    let parsed: Option<Value> = serde_json::from_str(body).ok();
    let shaped = content_type.starts_with("application/json")
        && parsed.as_ref().is_some_and(|b| is_error_shape(b, status));
    if !shaped || status >= 500 {
        failures.push(format!(
            "{what}: {method} {url} -> {status} {content_type} {body:.200}"
        ));
    }
    parsed
}

/// Status, content type and body text of the answer to `request`.
pub async fn answer(request: reqwest::RequestBuilder) -> (u16, String, String) {
    let response = request.send().await.expect("the server answers");
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    (
        status,
        content_type,
        response.text().await.unwrap_or_default(),
    )
}

/// Everything `stream` receives until the server closes it (panics after 20 s; the
/// limits under test are far shorter).
pub async fn read_until_closed(stream: &mut tokio::net::TcpStream) -> Vec<u8> {
    use tokio::io::AsyncReadExt;
    let mut answer = Vec::new();
    let read = tokio::time::timeout(std::time::Duration::from_secs(20), async {
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => answer.extend_from_slice(&buf[..n]),
            }
        }
    });
    read.await.expect("the server did not close the connection");
    answer
}

/// A walk over every route of a running server: each of [`RouteWalk::METHODS`] on each
/// path (a `405` must be in the shape with the code `method_not_allowed`), each path
/// parameter broken (`%FF`: an error in the shape, never a success), and a JSON body of
/// `max_body` bytes and more on every method not answered `405` that takes a body
/// (`413` with the code `body_too_large`, or an answer `other_than_413` accepts).
pub struct RouteWalk<'a> {
    /// `http://127.0.0.1:<port>`.
    pub base: &'a str,
    /// Headers every request carries (an access key, a bearer).
    pub headers: Vec<(&'a str, String)>,
    /// The server's body limit.
    pub max_body: usize,
    /// The error code of a `405`.
    pub method_not_allowed: &'a str,
    /// The error code of a `413`.
    pub body_too_large: &'a str,
    /// Whether an oversized body may be answered with this status and body (`null` when
    /// the body is no error in the shape) instead of `413`, e.g. a `401` that comes first.
    pub other_than_413: fn(u16, &Value) -> bool,
}

/// What a [`RouteWalk`] tried, and every answer out of shape.
#[derive(Debug, Default)]
pub struct Walked {
    pub wrong_methods: usize,
    pub broken_params: usize,
    pub too_large: usize,
    pub failures: Vec<String>,
}

impl RouteWalk<'_> {
    pub const METHODS: [reqwest::Method; 5] = [
        reqwest::Method::GET,
        reqwest::Method::POST,
        reqwest::Method::PUT,
        reqwest::Method::PATCH,
        reqwest::Method::DELETE,
    ];

    fn request(
        &self,
        http: &reqwest::Client,
        method: &reqwest::Method,
        url: &str,
    ) -> reqwest::RequestBuilder {
        self.headers.iter().fold(
            http.request(method.clone(), url),
            |request, (name, value)| request.header(*name, value),
        )
    }

    /// Walks `paths` (from [`registered_paths`]).
    pub async fn walk(&self, paths: &[String]) -> Walked {
        let http = reqwest::Client::new();
        let oversized = format!("{{\"x\":\"{}\"}}", "a".repeat(self.max_body));
        let mut walked = Walked::default();
        for path in paths {
            let url = format!(
                "{}{}",
                self.base,
                fill(path, "0123456789abcdef0123456789abcdef")
            );
            let mut allowed = Vec::new();
            for method in &Self::METHODS {
                let (status, content_type, body) = answer(self.request(&http, method, &url)).await;
                if status != 405 {
                    allowed.push(method);
                    continue;
                }
                walked.wrong_methods += 1;
                let parsed = check_answer(
                    &mut walked.failures,
                    "wrong method",
                    method.as_str(),
                    &url,
                    status,
                    &content_type,
                    &body,
                );
                if parsed.is_some_and(|b| b["errors"][0]["code"] != self.method_not_allowed) {
                    walked
                        .failures
                        .push(format!("405 code: {method} {url}: {body}"));
                }
            }
            for method in allowed {
                if path.contains('{') {
                    self.broken_parameter(&http, method, path, &mut walked)
                        .await;
                }
                if [
                    reqwest::Method::POST,
                    reqwest::Method::PUT,
                    reqwest::Method::PATCH,
                ]
                .contains(method)
                {
                    let request = self
                        .request(&http, method, &url)
                        .header("content-type", "application/json")
                        .body(oversized.clone());
                    let (status, content_type, body) = answer(request).await;
                    let parsed = check_answer(
                        &mut walked.failures,
                        "oversized body",
                        method.as_str(),
                        &url,
                        status,
                        &content_type,
                        &body,
                    );
                    if status != 413 {
                        if !(self.other_than_413)(status, parsed.as_ref().unwrap_or(&Value::Null)) {
                            walked.failures.push(format!(
                                "an oversized body answered {status}, not 413: {method} {url}: {body:.200}"
                            ));
                        }
                    } else if let Some(parsed) = parsed {
                        walked.too_large += 1;
                        if parsed["errors"][0]["code"] != self.body_too_large {
                            walked
                                .failures
                                .push(format!("413 code: {method} {url}: {body:.200}"));
                        }
                    }
                }
            }
        }
        walked
    }

    async fn broken_parameter(
        &self,
        http: &reqwest::Client,
        method: &reqwest::Method,
        path: &str,
        walked: &mut Walked,
    ) {
        let url = format!("{}{}", self.base, fill(path, "%FF"));
        let (status, content_type, body) = answer(self.request(http, method, &url)).await;
        walked.broken_params += 1;
        if status < 400 {
            walked.failures.push(format!(
                "broken parameter accepted: {method} {url} -> {status}"
            ));
        }
        check_answer(
            &mut walked.failures,
            "broken parameter",
            method.as_str(),
            &url,
            status,
            &content_type,
            &body,
        );
    }
}
