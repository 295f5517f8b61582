//! The shape of the source, checked: no import circle between files, no
//! file too long to read, and `main.rs` only the way in.
//!
//! A file *names* another when it reaches into it by a path: `use
//! crate::a::b::Thing`, `super::x`, or an inline `crate::a::b::f()`. Each
//! path is resolved to the longest prefix that is a file of the crate
//! (`crate::engine::search::Search` to `src/engine/search.rs`), test modules
//! left out. A circle is a set of files each of which reaches every other
//! through such names (a strongly connected component of more than one
//! file): none of them can be read, changed or tested without the others.

#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

fn src() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// The module path of a file: `src/engine/search.rs` is `engine::search`,
/// `src/engine/mod.rs` is `engine`, `src/lib.rs` the crate root.
fn module_of(path: &Path) -> Module {
    let rel = path.strip_prefix(src()).unwrap().with_extension("");
    let mut parts: Module = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    if parts == ["main"] {
        parts = vec!["<main>".into()];
    }
    parts
}

/// The code without comments, strings and the test module (everything from
/// `#[cfg(test)] mod`, where kibitz keeps its unit tests, on).
fn code(text: &str) -> String {
    let test_module = text
        .match_indices("#[cfg(test)]")
        .find(|(at, attr)| text[at + attr.len()..].trim_start().starts_with("mod "));
    let text = match test_module {
        Some((at, _)) => &text[..at],
        None => text,
    };
    let bytes: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let next = bytes.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < bytes.len() && bytes[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < bytes.len() && !(bytes[i] == '*' && bytes[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == '"' {
            i += 1;
            while i < bytes.len() && bytes[i] != '"' {
                i += if bytes[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && bytes.get(i + 2) == Some(&'\'') {
            // A char literal such as '"' or '{'.
            i += 3;
        } else if c == '\'' && next == Some('\\') && bytes.get(i + 3) == Some(&'\'') {
            // An escaped one: '\'' or '\\'.
            i += 4;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The paths of a `use` tree: `a::{b, c::{d, e}}` gives `a::b`, `a::c::d`,
/// `a::c::e`.
fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let head = format!("{prefix}{}", &tree[..open]);
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&head, &inner[start..i], out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand(&head, &inner[start..], out);
    } else if !tree.is_empty() {
        let path = tree.split(" as ").next().unwrap_or(tree).trim();
        out.push(format!("{prefix}{path}"));
    }
}

/// Every path a file's code names that starts at `crate`, `super` or `self`.
fn named_paths(code: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before = rest[..at].chars().last();
        rest = &rest[at + 4..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(end) = rest.find(';') {
            expand("", &rest[..end], &mut paths);
        }
    }
    let chars: Vec<char> = code.chars().collect();
    let text: String = chars.iter().collect();
    for root in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(at) = text[from..].find(root) {
            let start = from + at;
            from = start + root.len();
            if text[..start]
                .chars()
                .last()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
            {
                continue;
            }
            let path: String = text[start..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            paths.push(path.trim_end_matches(':').to_string());
        }
    }
    paths
}

/// The file a path names, from the file `module`: the longest prefix of
/// the absolute path that is a file of the crate.
fn resolve(module: &Module, path: &str, files: &BTreeSet<Module>) -> Option<Module> {
    let mut parts = path.split("::").filter(|p| !p.is_empty());
    let mut absolute: Module = match parts.next()? {
        "crate" => Vec::new(),
        "self" => module.clone(),
        "super" => {
            let mut m = module.clone();
            m.pop();
            m
        }
        _ => return None,
    };
    for part in parts {
        if part == "super" {
            absolute.pop();
        } else {
            absolute.push(part.to_string());
        }
    }
    (0..=absolute.len())
        .rev()
        .map(|n| absolute[..n].to_vec())
        .find(|prefix| files.contains(prefix))
}

/// The import graph of the library: each file and the files it names.
fn graph() -> BTreeMap<Module, BTreeSet<Module>> {
    let mut paths = Vec::new();
    rust_files(&src(), &mut paths);
    let modules: BTreeMap<Module, PathBuf> =
        paths.iter().map(|p| (module_of(p), p.clone())).collect();
    let files: BTreeSet<Module> = modules.keys().cloned().collect();
    let mut graph = BTreeMap::new();
    for (module, path) in &modules {
        let text = std::fs::read_to_string(path).unwrap();
        let edges: BTreeSet<Module> = named_paths(&code(&text))
            .iter()
            .filter_map(|p| resolve(module, p, &files))
            .filter(|target| target != module)
            .collect();
        graph.insert(module.clone(), edges);
    }
    graph
}

/// The strongly connected components of more than one file (Tarjan).
fn circles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        on_stack: BTreeSet<&'a Module>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a Module) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.graph.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(if w.is_empty() {
                    "lib".into()
                } else {
                    w.join("::")
                });
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !state.index.contains_key(v) {
            visit(&mut state, v);
        }
    }
    state.found
}

#[test]
fn no_import_circle_between_files() {
    let graph = graph();
    assert!(graph.len() > 100, "files read: {}", graph.len());
    let found = circles(&graph);
    assert!(
        found.is_empty(),
        "{} import circle(s) between files (each a set of files that name one another):\n{}",
        found.len(),
        found
            .iter()
            .map(|c| format!("  {{{}}}", c.join(", ")))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_check_finds_a_circle_it_is_shown() {
    // Two files naming each other, one by `use`, one by an inline path,
    // with decoys in a comment and a string.
    let files: BTreeSet<Module> = [vec![], vec!["a".into()], vec!["b".into()]].into();
    let a = code("use crate::b::{Thing, other::Deep};\n// crate::lib_only\n");
    let b = code("fn f() { let s = \"crate::a\"; super::a::g(); }");
    let mut graph = BTreeMap::new();
    for (name, text) in [("a", &a), ("b", &b)] {
        let module: Module = vec![name.to_string()];
        let edges = named_paths(text)
            .iter()
            .filter_map(|p| resolve(&module, p, &files))
            .filter(|t| *t != module)
            .collect();
        graph.insert(module, edges);
    }
    graph.insert(vec![], BTreeSet::new());
    assert_eq!(
        circles(&graph),
        vec![vec!["a".to_string(), "b".to_string()]]
    );
    graph.get_mut(&vec!["b".to_string()]).unwrap().clear();
    assert!(circles(&graph).is_empty());
}

fn lines_of(path: &Path) -> usize {
    std::fs::read_to_string(path).unwrap().lines().count()
}

#[test]
fn no_file_too_long_to_read() {
    let mut paths = Vec::new();
    rust_files(&src(), &mut paths);
    let mut long: Vec<String> = paths
        .iter()
        .filter_map(|path| {
            let lines = lines_of(path);
            let tui = path.starts_with(src().join("tui"));
            let limit = if tui { 600 } else { 800 };
            (lines > limit).then(|| {
                format!(
                    "  {} ({lines} lines, limit {limit})",
                    path.strip_prefix(src()).unwrap().display()
                )
            })
        })
        .collect();
    long.sort();
    assert!(
        long.is_empty(),
        "files over the limit (800 lines in src/, 600 in src/tui, tests included):\n{}",
        long.join("\n")
    );
}

#[test]
fn main_is_only_the_way_in() {
    let lines = lines_of(&src().join("main.rs"));
    assert!(
        lines < 150,
        "src/main.rs has {lines} lines: the commands belong in src/cli/"
    );
}
