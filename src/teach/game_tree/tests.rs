use super::search::search;
use super::*;
use crate::engine::trace::{NoTrace, Recorder, TraceEvent};

const TEXTBOOK: &str = "((3 12 8) (2 4 6) (14 5 2))";

fn leaves_evaluated(events: &[TraceEvent]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, TraceEvent::LeafEval { .. }))
        .count()
}

#[test]
fn the_textbook_tree_reads_and_is_named_as_textbooks_name_it() {
    let tree = GameTree::parse(TEXTBOOK).expect("reads");
    assert_eq!(tree.len(), 13);
    assert_eq!(tree.leaves(), 9);
    assert_eq!(tree.height(), 2);
    assert_eq!(tree.text(), TEXTBOOK);
    let names: Vec<&str> = (0..tree.len())
        .map(|i| tree.node(i).name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "A", "B", "B1", "B2", "B3", "C", "C1", "C2", "C3", "D", "D1", "D2", "D3"
        ]
    );
    assert_eq!(tree.minimax(0), 3);
    assert_eq!(tree.move_name(0, child_move(2)), "D");
    assert_eq!(tree.move_name(1, child_move(0)), "B1");
}

#[test]
fn commas_comments_estimates_and_signs_read() {
    let tree = GameTree::parse("# a tree\n(4:(-3, +12) 2:(2 # two\n 4))").expect("reads");
    assert_eq!(tree.text(), "(4:(-3 12) 2:(2 4))");
    assert_eq!(tree.estimate(1), 4);
    assert_eq!(tree.minimax(0), 2);
}

#[test]
fn bad_trees_are_refused_with_the_place_named() {
    let cases = [
        ("((3 12 8) (2 4 6)", "never closed", 1, 1),
        ("((3 12 8) (2 4 6", "never closed", 1, 11),
        ("((3 12 8)) 4)", "after the end", 1, 12),
        ("((3 x 8))", "expected a number", 1, 5),
        ("((3 () 8))", "empty node", 1, 5),
        ("", "empty", 1, 1),
        ("7", "single number", 1, 1),
        ("((3 99999))", "out of range", 1, 5),
        ("(1 2)\n(3 4)", "after the end", 2, 1),
        ("(5:3)", "expected '('", 1, 4),
    ];
    for (text, what, line, column) in cases {
        let error = GameTree::parse(text).expect_err(text);
        assert!(error.what.contains(what), "{text}: {error}");
        assert_eq!(
            (error.line, error.column),
            (line, column),
            "{text}: {error}"
        );
        assert!(error.to_string().contains("⟨here⟩"), "{error}");
    }
    let wide = format!("({})", vec!["1"; MAX_CHILDREN + 1].join(" "));
    assert!(GameTree::parse(&wide).is_err());
    let deep = format!("{}1{}", "(".repeat(14), ")".repeat(14));
    assert!(
        GameTree::parse(&deep)
            .expect_err("deep")
            .what
            .contains("deeper")
    );
}

#[test]
fn many_letters_name_wide_trees() {
    assert_eq!(letter_name(0), "A");
    assert_eq!(letter_name(25), "Z");
    assert_eq!(letter_name(26), "AA");
    assert_eq!(letter_name(27), "AB");
    assert_eq!(letter_name(26 + 26 * 26), "AAA");
}

#[test]
fn alpha_beta_skips_two_leaves_of_the_textbook_tree_and_minimax_none() {
    let tree = GameTree::parse(TEXTBOOK).expect("reads");
    let mut recorder = Recorder::new(usize::MAX);
    let outcome = search(&tree, &default_options(), 2, &mut recorder);
    assert_eq!(outcome.value, 3);
    assert_eq!(outcome.pv, [0, 0]);
    assert_eq!(leaves_evaluated(recorder.events()), 7);
    assert_eq!(outcome.stats.totals.leaves, 7);
    let minimax = crate::engine::protocol::SearchOptions {
        alpha_beta: false,
        ..default_options()
    };
    let mut recorder = Recorder::new(usize::MAX);
    let outcome = search(&tree, &minimax, 2, &mut recorder);
    assert_eq!(outcome.value, 3);
    assert_eq!(leaves_evaluated(recorder.events()), 9);
    assert_eq!(outcome.stats.totals.main, 13);
}

#[test]
fn best_first_order_reaches_the_minimal_tree() {
    // b = 3, d = 2 in the worst order: 9 leaves; best first: b^ceil(d/2)
    // + b^floor(d/2) - 1 = 5 leaves (Knuth and Moore's minimal tree).
    let tree = GameTree::parse("((2 4 6) (14 5 2) (3 12 8))").expect("reads");
    let mut recorder = Recorder::new(usize::MAX);
    let given = search(&tree, &default_options(), 2, &mut recorder);
    assert_eq!(leaves_evaluated(recorder.events()), 9);
    let best_first = crate::engine::protocol::SearchOptions {
        move_ordering: true,
        ..default_options()
    };
    let mut recorder = Recorder::new(usize::MAX);
    let ordered = search(&tree, &best_first, 2, &mut recorder);
    assert_eq!(leaves_evaluated(recorder.events()), 5);
    assert_eq!((given.value, ordered.value), (3, 3));
}

#[test]
fn the_depth_limit_takes_estimates_and_iterative_deepening_reorders() {
    let tree = GameTree::parse("(1:(3 12 8) 9:(2 4 6) 0:(14 5 2))").expect("reads");
    let iterative = crate::engine::protocol::SearchOptions {
        iterative_deepening: true,
        ..default_options()
    };
    let mut recorder = Recorder::new(usize::MAX);
    let outcome = search(&tree, &iterative, 2, &mut recorder);
    assert_eq!(outcome.value, 3);
    assert_eq!(outcome.stats.iterations.len(), 2);
    // Iteration 1 believes C's estimate (9), so iteration 2 tries C first.
    let tried_at_root: Vec<_> = recorder
        .events()
        .iter()
        .filter_map(|e| match e {
            TraceEvent::MoveTried { ply: 0, mv, .. } => child_index(*mv),
            _ => None,
        })
        .collect();
    assert_eq!(tried_at_root, [0, 1, 2, 1, 0, 2]);
    let mut plain = NoTrace;
    assert_eq!(search(&tree, &default_options(), 1, &mut plain).value, 9);
}

#[test]
fn the_diagram_shows_values_bounds_and_skipped_leaves_step_by_step() {
    let setup = crate::teach::Setup::game_tree(GameTree::parse(TEXTBOOK).expect("reads"), None);
    let recording = crate::teach::record(&setup, usize::MAX, &|| false).expect("records");
    let replay = crate::teach::Replay::new(recording);
    let start = diagram::diagram(&replay, 0).expect("a tree");
    assert_eq!(
        start.text(),
        [
            "           A:?",
            "  B:?       C:?      D:?",
            "3  12  8  2  4  6  14  5  2"
        ]
    );
    let end = diagram::diagram(&replay, replay.len()).expect("a tree");
    assert_eq!(
        end.text(),
        [
            "           A:3",
            "  B:3       C:≤2     D:2",
            "3  12  8  2  4✗ 6✗ 14  5  2"
        ]
    );
    let skipped: Vec<_> = end.rows[2]
        .iter()
        .filter(|c| c.state == diagram::State::Skipped)
        .map(|c| c.text.as_str())
        .collect();
    assert_eq!(skipped, ["4✗", "6✗"]);
}

#[test]
fn nodes_are_found_by_name_for_goto() {
    let tree = GameTree::parse(TEXTBOOK).expect("reads");
    assert_eq!(tree.path_named("C2"), Some(vec![1, 1]));
    assert_eq!(tree.path_named("c c2"), Some(vec![1, 1]));
    assert_eq!(tree.path_named("D"), Some(vec![2]));
    assert_eq!(tree.path_named("A"), Some(vec![]));
    assert_eq!(tree.path_named("B C2"), None);
    assert_eq!(tree.path_named("Z9"), None);
}

#[test]
fn the_export_of_a_tree_lesson_names_the_tree_and_draws_it() {
    let setup = crate::teach::Setup::game_tree(GameTree::parse(TEXTBOOK).expect("reads"), None);
    let recording = crate::teach::record(&setup, usize::MAX, &|| false).expect("records");
    let replay = crate::teach::Replay::new(recording);
    let end = replay.step(replay.len());
    let md = crate::teach::values::in_points(true, || {
        crate::teach::export::lesson_markdown(&replay, &end, "classic tree", &[])
    });
    assert!(
        md.contains("- Game tree: `((3 12 8) (2 4 6) (14 5 2))` (values for MAX)"),
        "{md}"
    );
    assert!(md.contains("3  12  8  2  4✗ 6✗ 14  5  2"), "{md}");
    assert!(!md.contains("Position:"), "{md}");
    assert!(!md.contains("@"), "no placeholder move leaks: {md}");
}
