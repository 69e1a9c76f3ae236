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
