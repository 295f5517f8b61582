//! The deterministic figures README.md and docs/ quote, recomputed.
//!
//! A figure that a command gives the same way on every machine (a bench
//! node signature, a tree's node count, the move tables' sums) is written
//! in the documentation next to the command that measures it; this test
//! runs that command and fails when the text says something else. Timings
//! differ from machine to machine and stay out of it.
//!
//! Each check names the words around the figure (`before` and `after`), so
//! that a figure moved to another sentence or file is still found, and a
//! figure deleted or reworded fails loudly instead of going unchecked.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::PathBuf;

use common::run_kibitz;

/// README.md and every page under docs/, as one text.
fn documentation() -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut text = std::fs::read_to_string(root.join("README.md")).unwrap();
    let docs = root.join("docs");
    if let Ok(entries) = std::fs::read_dir(&docs) {
        let mut pages: Vec<PathBuf> = entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "md"))
            .collect();
        pages.sort();
        for page in pages {
            text.push('\n');
            text.push_str(&std::fs::read_to_string(page).unwrap());
        }
    }
    text
}

/// Every number the documentation writes between `before` and `after`
/// (digits with thousands separators, a sign or a decimal point), in order.
/// Panics when there is none: a check whose words are gone must be updated
/// with the text, not pass silently.
fn quoted(doc: &str, before: &str, after: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = doc;
    while let Some(at) = rest.find(before) {
        rest = &rest[at + before.len()..];
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || matches!(c, ',' | '.' | '-' | '+')))
            .unwrap_or(rest.len());
        // A sentence's own full stop or comma after the number is not part of it.
        let number = rest[..end].trim_end_matches(['.', ',']);
        if !number.is_empty() && rest[number.len()..].starts_with(after) {
            found.push(number.replace(',', ""));
        }
    }
    assert!(
        !found.is_empty(),
        "README.md/docs no longer quote a figure as `{before}N{after}`: update this test with the text"
    );
    found
}

/// Check that every place quoting the figure says `value`.
fn check(doc: &str, before: &str, after: &str, value: &str, command: &str) {
    for figure in quoted(doc, before, after) {
        assert_eq!(
            figure, value,
            "README.md/docs say `{before}{figure}{after}`, but `{command}` gives {value}"
        );
    }
}

/// The `nodes N` of `kibitz bench`'s last line (`nodes N nps M`).
fn bench_nodes(args: &[&str]) -> String {
    let out = run_kibitz(args);
    assert!(out.status.success(), "kibitz {args:?} failed");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let last = stdout.lines().last().unwrap();
    let mut words = last.split_whitespace();
    assert_eq!(words.next(), Some("nodes"), "bench's last line: {last}");
    words.next().unwrap().to_string()
}

#[test]
fn bench_node_signatures_are_the_binarys() {
    let doc = documentation();
    check(
        &doc,
        "bench signature ",
        " nodes at depth 9",
        &bench_nodes(&["bench"]),
        "kibitz bench",
    );
    check(
        &doc,
        "(",
        " with `--eval builtin`",
        &bench_nodes(&["bench", "--eval", "builtin"]),
        "kibitz bench --eval builtin",
    );
}

#[test]
fn the_smallest_lessons_tree_has_the_nodes_it_is_said_to_have() {
    let doc = documentation();
    let args = [
        "trace",
        "--summary",
        "--fen",
        "7k/7P/7K/8/8/8/8/8 w - - 0 1",
        "--depth",
        "3",
    ];
    let out = run_kibitz(&args);
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let nodes = stdout
        .lines()
        .find_map(|l| l.strip_prefix("nodes "))
        .and_then(|l| l.split_whitespace().next())
        .unwrap()
        .to_string();
    check(
        &doc,
        "one or two replies each, ",
        " nodes at depth 3",
        &nodes,
        "kibitz trace --summary --fen '7k/7P/7K/8/8/8/8/8 w - - 0 1' --depth 3",
    );
}

#[test]
fn the_teach_step_limit_is_the_codes() {
    let doc = documentation();
    check(
        &doc,
        "too large to follow (over ",
        " steps)",
        &kibitz::teach::MAX_EVENTS.to_string(),
        "kibitz::teach::MAX_EVENTS",
    );
}

#[test]
fn a_figure_that_is_not_there_is_reported() {
    let caught =
        std::panic::catch_unwind(|| quoted("nodes 12 at depth 3", "nodes ", " at depth 4"));
    assert!(caught.is_err());
    assert_eq!(
        quoted("a 1,234 b, and a 56. b", "a ", " b"),
        ["1234"],
        "a number is read with its separators and must be followed by `after`"
    );
}
