//! The crate's layering (STYLE.md, "Layering"; `src/lib.rs`): the top-level modules
//! import each other without cycles, the bottom modules import no domain, nothing
//! imports the router assembly, and the directions issue #12 chose hold.
//!
//! Reads `src/**/*.rs` and collects every `crate::<module>` path (in `use` items and
//! in code, `use crate::{a, b::c}` groups included; comment lines are skipped). A
//! `super::` path stays inside its top-level module (the crate has no
//! `super::super`), so the `crate::` paths are the whole graph between them.
//!
//! Inside a domain folder the files import each other without cycles too
//! (`cart/a.rs` → `cart/b.rs` → `cart/a.rs` fails): there `crate::`, `super::` and
//! `self::` paths count, resolved to the file they name. A module and its own
//! submodules (the folder's root file and what it declares) may use each other, and
//! test modules are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Modules below every domain: they import only each other.
const BOTTOM: &[&str] = &[
    "config",
    "error",
    "storage",
    "state",
    "shop_event",
    "hub_client",
    "upstream",
    "store_api",
    "security",
    "rich_text",
];

/// What the application state may import: it must stay below every domain.
const STATE_MAY_IMPORT: &[&str] = &[
    "config",
    "storage",
    "hub_client",
    "upstream",
    "shop_event",
    "security",
];

/// The router assembly: no module imports it.
const TOP: &str = "app";

/// Imports that must not exist, with the reason the failure message gives.
const FORBIDDEN: &[(&str, &str, &str)] = &[
    ("catalog", "navigation", "SEO URLs sit below catalog (crate::seo_url); navigation may import catalog"),
    ("catalog", "cms", "cms shows catalogue data, not the other way round"),
    ("catalog", "context", "the shop context lives in store_api, below catalog"),
    ("cms", "navigation", "navigation resolves categories to CMS pages, not the other way round"),
    ("seo_url", "catalog", "SEO URLs sit below catalog"),
    ("seo_url", "navigation", "SEO URLs sit below navigation"),
    ("account", "context", "the /context calls sit above account; the shop context lives in store_api"),
    ("checkout", "context", "the /context calls sit above checkout; the shop context lives in store_api"),
    ("cart", "order", "order uses the cart, not the other way round"),
    ("cart", "account", "account (login) merges carts; the cart knows no account"),
    ("cart", "dsr", "the cart emits shop events (crate::shop_event) that dsr listens to"),
    ("wishlist", "dsr", "the wishlist emits shop events (crate::shop_event) that dsr listens to"),
    ("shopping_list", "dsr", "the live room shares shopping lists (dsr::shopping_list reads them); the lists know no room"),
    ("cart", "shopping_list", "shopping lists put their lines into the cart, not the other way round"),
    ("account", "demo", "the demo seeds through account, not the other way round"),
    ("catalog", "admin_api", "the Admin API writes the catalogue (and rebuilds its indexes); the catalogue knows no Admin API"),
    ("cart", "admin_api", "the Admin API manages promotions; the cart only reads them"),
    ("dsr", "admin_api", "the Admin API sits above the live room's domain"),
    ("admin", "admin_api", "admin (tokens, roles) sits below the Admin API's entities"),
    ("demo", "admin_api", "the demo seeds the tables directly; the Admin API sits above it"),
    ("media", "admin_api", "media files are served below the Admin API that uploads them"),
];

/// One `crate::<module>` path in a file.
#[derive(Debug, Clone)]
struct Import {
    /// The importing module (`cart`, or `cart::pipeline` inside a domain).
    from: String,
    file: PathBuf,
    line: usize,
    text: String,
    module: String,
}

/// The top-level module of a file under `src/` (`catalog/product.rs` is `catalog`),
/// `None` for the crate root (`lib.rs`, `main.rs`).
fn top_level_module(relative: &Path) -> Option<String> {
    let first = relative.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib" && name != "main").then(|| name.to_owned())
}

/// The modules named right after `crate::` in a line of code: `crate::a::b` gives
/// `a`, `crate::{a, b::c, d::{e, f}}` gives `a`, `b`, `d`.
fn crate_paths(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("crate::") {
        // `storefront_proxy::crate::…` does not exist; `my_crate::` is no crate path.
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut item = String::new();
            let mut items = Vec::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => items.push(std::mem::take(&mut item)),
                    _ if depth == 0 => item.push(c),
                    _ => {}
                }
            }
            items.push(item);
            for item in items {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() && name != "self" {
                    found.push(name);
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                found.push(name);
            }
        }
    }
    found
}

/// Every `crate::` import of the Rust files under `src`, by importing top-level module.
fn imports_of(src: &Path, files: &[(PathBuf, String)]) -> BTreeMap<String, Vec<Import>> {
    let mut graph: BTreeMap<String, Vec<Import>> = BTreeMap::new();
    for (path, text) in files {
        let relative = path.strip_prefix(src).unwrap_or(path);
        let Some(module) = top_level_module(relative) else {
            continue;
        };
        let entry = graph.entry(module.clone()).or_default();
        // A `use crate::{…}` group may span lines: join them before looking.
        let mut pending: Option<(usize, String)> = None;
        for (number, line) in text.lines().enumerate() {
            let code = line.trim();
            if code.starts_with("//") {
                continue;
            }
            let (start, joined) = match pending.take() {
                Some((start, mut joined)) => {
                    joined.push(' ');
                    joined.push_str(code);
                    (start, joined)
                }
                None => (number + 1, code.to_owned()),
            };
            let open = joined.matches('{').count();
            let close = joined.matches('}').count();
            if joined.contains("crate::{") && open > close {
                pending = Some((start, joined));
                continue;
            }
            for imported in crate_paths(&joined) {
                if imported != module {
                    entry.push(Import {
                        from: module.clone(),
                        file: relative.to_path_buf(),
                        line: start,
                        text: joined.clone(),
                        module: imported,
                    });
                }
            }
        }
    }
    graph
}

fn rust_files(dir: &Path, found: &mut Vec<(PathBuf, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            found.push((path, text));
        }
    }
}

fn describe(import: &Import) -> String {
    format!(
        "src/{}:{}: `{}`",
        import.file.display(),
        import.line,
        import.text
    )
}

/// A cycle of modules, as the imports that make it, if there is one.
fn find_cycle(graph: &BTreeMap<String, Vec<Import>>) -> Option<Vec<Import>> {
    fn visit(
        module: &str,
        graph: &BTreeMap<String, Vec<Import>>,
        path: &mut Vec<Import>,
        on_path: &mut BTreeSet<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<Import>> {
        on_path.insert(module.to_owned());
        for import in graph.get(module).into_iter().flatten() {
            if on_path.contains(&import.module) {
                let start = path.iter().position(|i: &Import| i.from == import.module);
                let mut cycle: Vec<Import> = start.map(|s| path[s..].to_vec()).unwrap_or_default();
                cycle.push(import.clone());
                return Some(cycle);
            }
            if done.contains(&import.module) || !graph.contains_key(&import.module) {
                continue;
            }
            path.push(import.clone());
            if let Some(cycle) = visit(&import.module, graph, path, on_path, done) {
                return Some(cycle);
            }
            path.pop();
        }
        on_path.remove(module);
        done.insert(module.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    for module in graph.keys() {
        if !done.contains(module) {
            if let Some(cycle) = visit(
                module,
                graph,
                &mut Vec::new(),
                &mut BTreeSet::new(),
                &mut done,
            ) {
                return Some(cycle);
            }
        }
    }
    None
}

/// Every broken rule of the layering, one line each.
fn violations(graph: &BTreeMap<String, Vec<Import>>) -> Vec<String> {
    let mut problems = Vec::new();
    for (module, imports) in graph {
        for import in imports {
            let target = import.module.as_str();
            if !graph.contains_key(target) {
                problems.push(format!(
                    "{}: imports `crate::{target}`, no top-level module: name the module, not a re-export",
                    describe(import)
                ));
            }
            if target == TOP {
                problems
                    .push(format!("{}: {module} imports `{TOP}`, the router assembly at the top, which nothing imports", describe(import)));
            }
            if module == "state" && !STATE_MAY_IMPORT.contains(&target) {
                problems.push(format!(
                    "{}: the application state imports `{target}`; it may import only {STATE_MAY_IMPORT:?}",
                    describe(import)
                ));
            } else if BOTTOM.contains(&module.as_str()) && !BOTTOM.contains(&target) {
                problems.push(format!(
                    "{}: `{module}` is below every domain but imports `{target}`",
                    describe(import)
                ));
            }
            for (from, to, why) in FORBIDDEN {
                if module == from && target == *to {
                    problems.push(format!(
                        "{}: {from} must not import {to}: {why}",
                        describe(import)
                    ));
                }
            }
        }
    }
    if let Some(cycle) = find_cycle(graph) {
        problems.push(describe_cycle(&cycle));
    }
    problems
}

fn describe_cycle(cycle: &[Import]) -> String {
    let modules: Vec<String> = cycle
        .iter()
        .map(|i| i.from.clone())
        .chain(cycle.last().map(|i| i.module.clone()))
        .collect();
    let mut message = format!("an import cycle: {}", modules.join(" -> "));
    for import in cycle {
        message.push_str(&format!("\n    {}", describe(import)));
    }
    message
}

/// The module path of a file under `src/`: `cart/pipeline/lines.rs` is `cart::pipeline::lines`.
fn module_of(relative: &Path) -> Vec<String> {
    let text = relative
        .with_extension("")
        .to_string_lossy()
        .replace('\\', "/");
    text.split('/').map(str::to_owned).collect()
}

/// The full paths of a `use` tree: `a::{b, c::{d, self}}` gives `a::b`, `a::c::d`, `a::c`.
fn expand(tree: &str) -> Vec<Vec<String>> {
    let tree = tree.trim();
    let (head, group) = match tree.find('{') {
        Some(at) => (&tree[..at], Some(&tree[at + 1..])),
        None => (tree, None),
    };
    let prefix: Vec<String> = head
        .split("::")
        .map(|s| {
            s.trim()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .filter(|s| !s.is_empty())
        .collect();
    let Some(group) = group else {
        return vec![prefix];
    };
    let (mut depth, mut item, mut found) = (0, String::new(), Vec::new());
    for c in group.chars() {
        match c {
            '}' if depth == 0 => break,
            ',' if depth == 0 => found.push(std::mem::take(&mut item)),
            '{' | '}' => {
                depth += if c == '{' { 1 } else { -1 };
                item.push(c);
            }
            _ => item.push(c),
        }
    }
    found.push(item);
    let mut paths = Vec::new();
    for item in found.iter().filter(|i| !i.trim().is_empty()) {
        for rest in expand(item) {
            let rest: Vec<String> = rest.into_iter().filter(|s| s != "self").collect();
            paths.push(prefix.iter().cloned().chain(rest).collect());
        }
    }
    paths
}

/// The path at the start of `text`, with its `{…}` group if it ends in one.
fn use_tree(text: &str) -> &str {
    let mut depth = 0;
    for (at, c) in text.char_indices() {
        match c {
            '{' if depth > 0 || text[..at].ends_with("::") => depth += 1,
            '}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    return &text[..=at];
                }
            }
            _ if depth > 0 || c.is_alphanumeric() || c == '_' || c == ':' => {}
            _ => return &text[..at],
        }
    }
    text
}

/// The crate paths a line names from inside `module`, absolute: `super::x` from
/// `cart::calculate` is `cart::x`.
fn module_paths(line: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(found_at) = line[from..].find(start) {
            let at = from + found_at;
            from = at + start.len();
            let before = line[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            for path in expand(use_tree(&line[at..])) {
                let mut base: Vec<String> = match path.first().map(String::as_str) {
                    Some("crate") => Vec::new(),
                    Some("self") => module.to_vec(),
                    _ => module[..module.len().saturating_sub(1)].to_vec(),
                };
                let mut segments = path.iter().skip(1).peekable();
                while segments.peek().is_some_and(|s| *s == "super") {
                    base.pop();
                    segments.next();
                }
                found.push(base.into_iter().chain(segments.cloned()).collect());
            }
        }
    }
    found
}

/// The code lines of `text` before its test module, comment lines left out, each with
/// its line number; a `use …::{` group that spans lines is joined into its first line.
fn joined_lines(text: &str) -> Vec<(usize, String)> {
    let mut lines = Vec::new();
    let mut pending: Option<(usize, String)> = None;
    for (number, line) in text.lines().enumerate() {
        let code = line.trim();
        if code == "#[cfg(test)]" {
            break;
        }
        if code.starts_with("//") {
            continue;
        }
        let (start, joined) = match pending.take() {
            Some((start, joined)) => (start, format!("{joined} {code}")),
            None => (number + 1, code.to_owned()),
        };
        if joined.contains("::{") && joined.matches('{').count() > joined.matches('}').count() {
            pending = Some((start, joined));
            continue;
        }
        lines.push((start, joined));
    }
    lines.extend(pending);
    lines
}

/// Each domain folder's graph of files: `cart::calculate` → `cart::store`.
fn domain_graphs(
    src: &Path,
    files: &[(PathBuf, String)],
) -> BTreeMap<String, BTreeMap<String, Vec<Import>>> {
    let relatives: Vec<(PathBuf, &String)> = files
        .iter()
        .map(|(path, text)| (path.strip_prefix(src).unwrap_or(path).to_path_buf(), text))
        .collect();
    let modules: BTreeSet<Vec<String>> = relatives
        .iter()
        .map(|(relative, _)| module_of(relative))
        .collect();
    let mut graphs: BTreeMap<String, BTreeMap<String, Vec<Import>>> = BTreeMap::new();
    for (relative, text) in relatives {
        let module = module_of(&relative);
        if module.len() < 2 {
            continue;
        }
        let from = module.join("::");
        let graph = graphs.entry(module[0].clone()).or_default();
        graph.entry(from.clone()).or_default();
        for (number, line) in joined_lines(text) {
            for path in module_paths(&line, &module) {
                let Some(target) = (1..=path.len())
                    .rev()
                    .map(|n| &path[..n])
                    .find(|p| modules.contains(*p))
                else {
                    continue;
                };
                let nested = target.starts_with(&module) || module.starts_with(target);
                if target[0] != module[0] || nested {
                    continue;
                }
                let import = Import {
                    from: from.clone(),
                    file: relative.clone(),
                    line: number,
                    text: line.clone(),
                    module: target.join("::"),
                };
                graph.entry(from.clone()).or_default().push(import);
            }
        }
    }
    graphs
}

/// An import cycle between the files of one domain folder, one line per domain.
fn domain_cycles(src: &Path, files: &[(PathBuf, String)]) -> Vec<String> {
    domain_graphs(src, files)
        .values()
        .filter_map(find_cycle)
        .map(|cycle| describe_cycle(&cycle))
        .collect()
}

#[test]
fn the_top_level_modules_import_each_other_in_one_direction() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let graph = imports_of(&src, &files);
    for module in BOTTOM.iter().chain([&TOP]) {
        assert!(
            graph.contains_key(*module),
            "no module `{module}` in src/: update the layering test"
        );
    }
    let problems = violations(&graph);
    assert!(
        problems.is_empty(),
        "the layering is broken:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_files_of_a_domain_import_each_other_in_one_direction() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let graphs = domain_graphs(&src, &files);
    assert!(
        graphs["cart"].contains_key("cart::calculate"),
        "no `cart/calculate.rs`: update the layering test"
    );
    let cycles = domain_cycles(&src, &files);
    assert!(
        cycles.is_empty(),
        "a domain folder has an import cycle:\n{}",
        cycles.join("\n")
    );
}

/// The checker of domain folders: `super::`, `self::` and `crate::` paths, groups
/// included, name the file; a module and its submodules may use each other.
#[test]
fn the_domain_checker_finds_a_cycle_between_two_files() {
    let module = |path: &str| path.split("::").map(str::to_owned).collect::<Vec<_>>();
    assert_eq!(
        module_paths("use super::{a, b::{c, self}};", &module("cart::x")),
        [module("cart::a"), module("cart::b::c"), module("cart::b")]
    );
    assert_eq!(
        module_paths(
            "let x = crate::cart::model::Cart::default();",
            &module("order::place")
        ),
        [module("cart::model::Cart::default")]
    );
    assert_eq!(
        module_paths("use self::goods::Goods;", &module("cart::pipeline")),
        [module("cart::pipeline::goods::Goods")]
    );
    assert_eq!(
        module_paths("use super::super::model;", &module("cart::pipeline::lines")),
        [module("cart::model")]
    );

    let src = Path::new("src");
    let file = |path: &str, text: &str| (src.join(path), text.to_owned());
    let files = vec![
        file("cart.rs", "pub mod a;\npub mod b;\npub mod c;\n"),
        file("cart/a.rs", "use super::b::thing;\n"),
        file(
            "cart/b.rs",
            "// super::c is a comment\nfn f() { crate::cart::{a::other, c}; }\n",
        ),
        file(
            "cart/c.rs",
            "use super::Parent;\n#[cfg(test)]\nmod tests { use crate::cart::a; }\n",
        ),
        file("wishlist/d.rs", "use super::{\n    c,\n    e::thing,\n};\n"),
        file("wishlist/e.rs", "fn f() {\n    super::d::g();\n}\n"),
        file("order/place.rs", "use crate::cart::a;\n"),
    ];
    let cycles = domain_cycles(src, &files).join("\n");
    assert!(
        cycles.contains("an import cycle: cart::a -> cart::b -> cart::a"),
        "{cycles}"
    );
    assert!(
        cycles.contains("src/cart/b.rs:2: `fn f() { crate::cart::{a::other, c}; }`"),
        "{cycles}"
    );
    assert!(!cycles.contains("cart::c ->"), "{cycles}");
    assert!(
        cycles.contains("an import cycle: wishlist::d -> wishlist::e -> wishlist::d"),
        "{cycles}"
    );
    assert!(
        cycles.contains("src/wishlist/d.rs:1: `use super::{ c, e::thing, };`"),
        "{cycles}"
    );
    let acyclic = vec![
        file("cart/a.rs", "use super::b::thing;\n"),
        file("cart/b.rs", "use super::c;\n"),
        file("cart/c.rs", ""),
    ];
    assert!(domain_cycles(src, &acyclic).is_empty());
}

/// The checker itself: it finds the imports of a group, names the file and line of a
/// cycle and of a forbidden import.
#[test]
fn the_checker_names_the_offending_file_and_import() {
    assert_eq!(
        crate_paths("use crate::{a, b::c, d::{e, f}, self};"),
        ["a", "b", "d"]
    );
    assert_eq!(
        crate_paths("let x = crate::storage::is_id(&crate::catalog::id());"),
        ["storage", "catalog"]
    );
    assert!(crate_paths("use my_crate::thing;").is_empty());

    let src = Path::new("src");
    let file = |path: &str, text: &str| (src.join(path), text.to_owned());
    let files = vec![
        file(
            "catalog/product.rs",
            "//! Docs naming crate::navigation do not count.\nuse crate::navigation::seo_url;\n",
        ),
        file(
            "navigation.rs",
            "use crate::{\n    catalog,\n    state::App,\n};\n",
        ),
        file("state.rs", "use crate::cart::Cart;\n"),
        file("cart.rs", "fn f() { crate::dsr::publish(); }\n"),
        file("dsr.rs", ""),
    ];
    let problems = violations(&imports_of(src, &files)).join("\n");
    assert!(
        problems.contains("src/catalog/product.rs:2: `use crate::navigation::seo_url;`: catalog must not import navigation"),
        "{problems}"
    );
    assert!(
        problems.contains(
            "src/cart.rs:1: `fn f() { crate::dsr::publish(); }`: cart must not import dsr"
        ),
        "{problems}"
    );
    assert!(
        problems.contains(
            "src/state.rs:1: `use crate::cart::Cart;`: the application state imports `cart`"
        ),
        "{problems}"
    );
    assert!(
        problems.contains("an import cycle: catalog -> navigation -> catalog"),
        "{problems}"
    );
    assert!(
        problems.contains("src/navigation.rs:1: `use crate::{ catalog, state::App, };`"),
        "{problems}"
    );
    assert!(!problems.contains("Docs naming"), "{problems}");
}
