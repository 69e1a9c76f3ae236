//! The hub's layering (STYLE.md, "Layering"): its modules import each other without
//! cycles, a module and its parent included (`live::room` → `live` → `live::room` is a
//! cycle), and the live rooms never import the socket side (`live` → `ws`).
//!
//! Reads `src/**/*.rs` and collects every `crate::`, `super::` and `self::` path (in
//! `use` items, `{..}` groups included, and in code; comments and `#[cfg(test)]` modules
//! are left out), and a parent's paths to its own submodules (`room::Room` in `live.rs`),
//! each resolved to the longest module it names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every module of the crate (`crate::live::room`) and its source without tests and
/// comments.
fn modules() -> BTreeMap<String, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut modules = BTreeMap::new();
    let mut dirs = vec![src.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let relative = path.strip_prefix(&src).unwrap().with_extension("");
            let parts: Vec<String> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if parts
                .last()
                .is_some_and(|p| p == "tests" || p.ends_with("_tests"))
            {
                continue;
            }
            let name = match parts.as_slice() {
                [only] if only == "lib" || only == "main" => "crate".to_owned(),
                _ => format!("crate::{}", parts.join("::")),
            };
            let text = std::fs::read_to_string(&path).unwrap();
            // Unit tests may reach anywhere; they end the file.
            let text = text.split("#[cfg(test)]\nmod ").next().unwrap();
            let code: Vec<&str> = text
                .lines()
                .map(|line| line.split("//").next().unwrap())
                .collect();
            modules.insert(name, code.join("\n"));
        }
    }
    modules
}

/// The paths in `code` that start with one of `roots` (`crate::a::b`), `{..}` groups
/// expanded one level (`crate::a::{b, c::d}` is `crate::a::b` and `crate::a::c::d`).
fn paths(code: &str, roots: &[&str]) -> Vec<Vec<String>> {
    let chars: Vec<char> = code.chars().collect();
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut found = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        let word_start = at == 0 || !(ident(chars[at - 1]) || chars[at - 1] == ':');
        if !(word_start && ident(chars[at])) {
            at += 1;
            continue;
        }
        let mut path = Vec::new();
        let mut group = None;
        loop {
            let start = at;
            while at < chars.len() && ident(chars[at]) {
                at += 1;
            }
            path.push(chars[start..at].iter().collect::<String>());
            if chars.get(at) == Some(&':') && chars.get(at + 1) == Some(&':') {
                at += 2;
                if chars.get(at) == Some(&'{') {
                    let end = chars[at..]
                        .iter()
                        .position(|c| *c == '}')
                        .map_or(chars.len(), |p| at + p);
                    group = Some(chars[at + 1..end].iter().collect::<String>());
                    at = end;
                    break;
                }
                continue;
            }
            break;
        }
        // A path names something in a module: `room::Room`, not a bare `room`.
        if !roots.contains(&path[0].as_str()) || (path.len() < 2 && group.is_none()) {
            continue;
        }
        match group {
            None => found.push(path),
            Some(group) => {
                for item in group.split(',') {
                    let item: Vec<String> = item
                        .trim()
                        .split("::")
                        .map(|s| s.trim().to_owned())
                        .collect();
                    if item[0].is_empty() || item[0] == "self" {
                        found.push(path.clone());
                    } else {
                        found.push(path.iter().cloned().chain(item).collect());
                    }
                }
            }
        }
    }
    found
}

/// Who imports whom.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let modules = modules();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, code) in &modules {
        let here: Vec<&str> = name.split("::").collect();
        let children: Vec<&str> = modules
            .keys()
            .filter_map(|m| m.strip_prefix(&format!("{name}::")))
            .filter(|rest| !rest.contains("::"))
            .collect();
        let mut targets = Vec::new();
        for path in paths(code, &["crate", "super", "self"])
            .into_iter()
            .chain(paths(code, &children))
        {
            let mut base: Vec<String> = match path[0].as_str() {
                "crate" => vec!["crate".to_owned()],
                "super" => here[..here.len() - 1]
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
                "self" => here.iter().map(|s| s.to_string()).collect(),
                _ => here
                    .iter()
                    .map(|s| s.to_string())
                    .chain([path[0].clone()])
                    .collect(),
            };
            let mut rest = &path[1..];
            while rest.first().is_some_and(|p| p == "super") {
                base.pop();
                rest = &rest[1..];
            }
            let full: Vec<String> = base.into_iter().chain(rest.iter().cloned()).collect();
            if let Some(target) = (1..=full.len())
                .rev()
                .map(|n| full[..n].join("::"))
                .find(|m| modules.contains_key(m))
            {
                targets.push(target);
            }
        }
        let entry = edges.entry(name.clone()).or_default();
        entry.extend(targets.into_iter().filter(|t| t != name));
    }
    edges
}

/// A cycle through `start`, if there is one.
fn cycle_from(edges: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    let mut stack = vec![(start.to_owned(), vec![start.to_owned()])];
    let mut seen = BTreeSet::new();
    while let Some((at, path)) = stack.pop() {
        for next in edges.get(&at).into_iter().flatten() {
            if next == start {
                return Some(path.iter().cloned().chain([start.to_owned()]).collect());
            }
            if seen.insert(next.clone()) {
                stack.push((
                    next.clone(),
                    path.iter().cloned().chain([next.clone()]).collect(),
                ));
            }
        }
    }
    None
}

#[test]
fn the_hubs_modules_import_each_other_without_cycles() {
    let edges = graph();
    assert!(
        edges["crate::live::room"].contains("crate::live::outbound"),
        "the graph is read: {edges:#?}"
    );
    assert!(
        edges["crate::ws::connection"].contains("crate::live"),
        "the graph is read: {edges:#?}"
    );
    let cycles: Vec<String> = edges
        .keys()
        .filter_map(|m| cycle_from(&edges, m))
        .map(|c| c.join(" → "))
        .collect();
    assert!(
        cycles.is_empty(),
        "module cycles in the hub:\n{}",
        cycles.join("\n")
    );
}

#[test]
fn the_live_rooms_never_import_the_socket_side() {
    let edges = graph();
    let wrong: Vec<String> = edges
        .iter()
        .filter(|(from, _)| *from == "crate::live" || from.starts_with("crate::live::"))
        .flat_map(|(from, to)| {
            to.iter()
                .filter(|t| t.starts_with("crate::ws"))
                .map(move |t| format!("{from} → {t}"))
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "live imports ws (the room reaches sockets through live::outbound only):\n{}",
        wrong.join("\n")
    );
}
