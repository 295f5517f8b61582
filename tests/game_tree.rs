//! Hand-made game trees: the search teach mode steps through agrees with a
//! plain left-to-right minimax and alpha-beta written here, on random
//! trees; and `kibitz trace --game-tree` keeps its command-line contract.
#![allow(clippy::unwrap_used)]

mod common;

use kibitz::engine::SearchOptions;
use kibitz::engine::trace::{Recorder, TraceEvent};
use kibitz::teach::GameTree;
use kibitz::teach::game_tree::{default_options, search::search};
use proptest::prelude::*;

/// A tree as the test builds it, independent of the parser.
#[derive(Debug, Clone)]
enum T {
    Leaf(i32),
    Node(Vec<T>),
}

impl T {
    fn text(&self) -> String {
        match self {
            T::Leaf(v) => v.to_string(),
            T::Node(children) => format!(
                "({})",
                children.iter().map(T::text).collect::<Vec<_>>().join(" ")
            ),
        }
    }
}

/// Minimax, MAX at even plies.
fn minimax(t: &T, max: bool) -> i32 {
    match t {
        T::Leaf(v) => *v,
        T::Node(c) => {
            let values = c.iter().map(|c| minimax(c, !max));
            if max {
                values.max().unwrap()
            } else {
                values.min().unwrap()
            }
        }
    }
}

/// Textbook alpha-beta (MAX and MIN written apart, left to right, cutting
/// off when alpha >= beta), counting the leaves it evaluates.
fn alpha_beta(t: &T, mut alpha: i32, mut beta: i32, max: bool, leaves: &mut u64) -> i32 {
    match t {
        T::Leaf(v) => {
            *leaves += 1;
            *v
        }
        T::Node(children) => {
            let mut best = if max { i32::MIN } else { i32::MAX };
            for child in children {
                let v = alpha_beta(child, alpha, beta, !max, leaves);
                if max {
                    best = best.max(v);
                    alpha = alpha.max(v);
                } else {
                    best = best.min(v);
                    beta = beta.min(v);
                }
                if alpha >= beta {
                    break;
                }
            }
            best
        }
    }
}

fn tree_strategy() -> impl Strategy<Value = T> {
    let leaf = (-20i32..=20).prop_map(T::Leaf);
    leaf.prop_recursive(5, 120, 4, |inner| {
        prop::collection::vec(inner, 1..=4).prop_map(T::Node)
    })
    .prop_map(|t| match t {
        T::Leaf(v) => T::Node(vec![T::Leaf(v)]),
        node => node,
    })
}

fn leaves_evaluated(events: &[TraceEvent]) -> u64 {
    events
        .iter()
        .filter(|e| matches!(e, TraceEvent::LeafEval { .. }))
        .count() as u64
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_search_agrees_with_plain_minimax_and_alpha_beta(t in tree_strategy()) {
        let tree = GameTree::parse(&t.text()).unwrap();
        let depth = tree.height();
        let expected = minimax(&t, true);
        let mut leaves = 0;
        let ab = alpha_beta(&t, i32::MIN, i32::MAX, true, &mut leaves);
        prop_assert_eq!(ab, expected);

        let plain = SearchOptions { alpha_beta: false, ..default_options() };
        let mut recorder = Recorder::new(usize::MAX);
        let outcome = search(&tree, &plain, depth, &mut recorder);
        prop_assert_eq!(outcome.value, expected);
        prop_assert_eq!(leaves_evaluated(recorder.events()), tree.leaves() as u64);
        prop_assert_eq!(outcome.stats.totals.main, tree.len() as u64);

        let mut recorder = Recorder::new(usize::MAX);
        let outcome = search(&tree, &default_options(), depth, &mut recorder);
        prop_assert_eq!(outcome.value, expected);
        prop_assert_eq!(leaves_evaluated(recorder.events()), leaves);
        prop_assert_eq!(outcome.stats.totals.leaves, leaves);

        // PVS, best-first order and iterative deepening to the full depth
        // change the work, never the value.
        for options in [
            SearchOptions { pvs: true, ..default_options() },
            SearchOptions { move_ordering: true, ..default_options() },
            SearchOptions { iterative_deepening: true, ..default_options() },
        ] {
            let mut recorder = Recorder::new(usize::MAX);
            prop_assert_eq!(search(&tree, &options, depth, &mut recorder).value, expected);
        }
    }
}

fn kibitz(args: &[&str]) -> std::process::Output {
    common::run_kibitz(args)
}

fn summary(args: &[&str]) -> serde_json::Value {
    let out = kibitz(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    serde_json::from_str(text.lines().last().unwrap()).unwrap()
}

const TEXTBOOK: &str = "((3 12 8) (2 4 6) (14 5 2))";

#[test]
fn trace_of_the_textbook_tree_gives_value_3_with_7_leaves_and_9_without_pruning() {
    let s = summary(&["trace", "--game-tree", TEXTBOOK, "--json", "--summary"]);
    assert_eq!(
        (
            s["value"].as_i64(),
            s["leaves"].as_i64(),
            s["nodes"].as_i64()
        ),
        (Some(3), Some(7), Some(11))
    );
    assert_eq!(s["pv"], serde_json::json!(["B", "B1"]));
    let s = summary(&[
        "trace",
        "--game-tree",
        TEXTBOOK,
        "--json",
        "--summary",
        "--no-pruning",
    ]);
    assert_eq!(
        (
            s["value"].as_i64(),
            s["leaves"].as_i64(),
            s["nodes"].as_i64()
        ),
        (Some(3), Some(9), Some(13))
    );
}

#[test]
fn a_tree_reads_from_a_file_and_bad_trees_exit_2_naming_the_place() {
    let dir = common::TempHome::new("game-tree");
    let file = dir.join("tree.txt");
    std::fs::write(&file, format!("# the AIMA example\n{TEXTBOOK}\n")).unwrap();
    let at = format!("@{}", file.display());
    assert_eq!(
        summary(&["trace", "--game-tree", &at, "--json", "--summary"])["value"],
        3
    );
    for (tree, words) in [
        ("((3 12 8) (2 4", "line 1, column 11"),
        ("((3 x 8))", "column 5"),
        ("(())", "empty node"),
        ("@/no/such/tree.txt", "cannot read the game tree file"),
    ] {
        let out = kibitz(&["trace", "--game-tree", tree]);
        assert_eq!(out.status.code(), Some(2), "{tree}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(
            err.contains(words) && err.lines().count() == 1,
            "{tree}: {err}"
        );
    }
    let out = kibitz(&["trace", "--game-tree", TEXTBOOK, "--no-tt"]);
    assert_eq!(out.status.code(), Some(2));
    let out = kibitz(&["teach", "--game-tree", TEXTBOOK, "--depth", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("2 plies deep")
    );
}

#[test]
fn the_text_trace_names_the_skipped_leaves() {
    let out = kibitz(&["trace", "--game-tree", TEXTBOOK]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("C: cutoff by C1 = 2"), "{text}");
    assert!(text.contains("C2, C3 skipped"), "{text}");
    assert!(
        text.contains("leaf evaluations 7 (9 leaves in the tree), nodes 11"),
        "{text}"
    );
}
