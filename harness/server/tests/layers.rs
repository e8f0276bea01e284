//! The server's files depend on one another one way only: leaves (the
//! data folder's layout, the database, the shared state and run queries,
//! the page layout), then the handlers (which never borrow from one
//! another), then the routes, then the app. This test reads every
//! `crate::…` path in `src/` and fails on any import circle, direct or
//! around a loop, naming it; and on a path into the crate root, which
//! only declares the modules and re-exports for outside users.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file belongs to: its first path component under `src/`
/// (`lib` for the crate root; `tests` for `src/tests/…`).
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel.components().next().unwrap().as_os_str().to_string_lossy().into_owned();
    first.strip_suffix(".rs").unwrap_or(&first).to_string()
}

/// The first names of every `crate::` path in `code` (comment lines
/// left out): `crate::a::b` gives `a`, `crate::{a, b::c}` gives `a`
/// and `b`.
fn crate_paths(code: &str) -> Vec<String> {
    let code: String = code.lines().filter(|l| !l.trim_start().starts_with("//")).map(|l| format!("{l}\n")).collect();
    let ident = |s: &str| s.trim_start().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
    let mut out = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        // `pitboss_server::crate::` cannot occur; `$crate::` in a macro is
        // the crate root too, and counted.
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let (mut depth, mut start) = (0usize, 0usize);
            for (k, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        out.push(ident(&group[start..k]));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.push(ident(&group[start..k]));
                        start = k + 1;
                    }
                    _ => {}
                }
            }
        } else {
            out.push(ident(rest));
        }
    }
    out.retain(|n| !n.is_empty());
    out
}

/// A cycle through `from` in `graph`, if any, as the path around it.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        marks: &mut BTreeMap<String, Mark>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match marks.get(node) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let from = path.iter().position(|n| n == node).unwrap();
                let mut around = path[from..].to_vec();
                around.push(node.to_string());
                return Some(around);
            }
            None => {}
        }
        marks.insert(node.to_string(), Mark::Open);
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(found) = visit(next, graph, marks, path) {
                return Some(found);
            }
        }
        path.pop();
        marks.insert(node.to_string(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for node in graph.keys() {
        if let Some(found) = visit(node, graph, &mut marks, &mut Vec::new()) {
            return Some(found);
        }
    }
    None
}

/// Each module's imports of other modules of the crate.
fn graph_of(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    sources(src, &mut files);
    let modules: BTreeSet<String> = files.iter().map(|f| module_of(src, f)).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let from = module_of(src, file);
        let code = std::fs::read_to_string(file).unwrap();
        let edges = graph.entry(from.clone()).or_default();
        for name in crate_paths(&code) {
            // Anything not a module (a type re-exported at the root) is a
            // path into the root.
            let to = if modules.contains(&name) { name } else { "lib".to_string() };
            if to != from {
                edges.insert(to);
            }
        }
    }
    graph
}

#[test]
fn the_server_has_no_import_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = graph_of(&src);
    assert!(graph.len() > 30, "read {} modules from {}", graph.len(), src.display());
    let into_root: Vec<&String> = graph.iter().filter(|(_, to)| to.contains("lib")).map(|(from, _)| from).collect();
    assert!(
        into_root.is_empty(),
        "these files import from the crate root (lib.rs); import from the module itself (crate::error::Error): {into_root:?}"
    );
    if let Some(around) = cycle(&graph) {
        panic!("an import circle in harness/server/src: {}", around.join(" -> "));
    }
}

#[test]
fn the_reader_finds_paths_and_circles() {
    assert_eq!(
        crate_paths("use crate::a::B;\n// crate::zz\nlet x = crate::c::d();\nuse crate::{e, f::{G, H}, self};\n"),
        ["a", "c", "e", "f", "self"]
    );
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, to) in [("a", "b"), ("b", "c"), ("c", "d")] {
        graph.entry(from.into()).or_default().insert(to.into());
    }
    assert_eq!(cycle(&graph), None);
    graph.entry("c".into()).or_default().insert("a".into());
    assert_eq!(cycle(&graph), Some(["a", "b", "c", "a"].map(String::from).to_vec()));
}

#[test]
fn only_the_csrf_extractors_read_a_page_form() {
    // A handler that took `axum::Form` or `Multipart` itself could forget
    // the CSRF check; through `crate::csrf` it cannot.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let word = |code: &str, w: &str| {
        code.match_indices(w).any(|(at, _)| {
            let before = code[..at].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_');
            let after = code[at + w.len()..].chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_');
            !before && !after
        })
    };
    let mut readers = Vec::new();
    for file in &files {
        if file.ends_with("csrf.rs") || file.starts_with(src.join("tests")) {
            continue;
        }
        let code: String = std::fs::read_to_string(file)
            .unwrap()
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .map(|l| format!("{l}\n"))
            .collect();
        if word(&code, "Form") || word(&code, "Multipart") || word(&code, "RawForm") {
            readers.push(file.strip_prefix(&src).unwrap().display().to_string());
        }
    }
    assert!(readers.is_empty(), "these files read a form without crate::csrf's extractors: {readers:?}");
}
