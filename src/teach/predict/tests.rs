//! Tests of `predict.rs`: every lesson asked at every node, answered by
//! someone who guesses and by someone who knows.

use super::*;
use crate::teach::{MAX_EVENTS, Setup, positions, record};

/// Each built-in lesson's replay at the depth it is meant for.
fn lessons() -> Vec<(String, Replay)> {
    positions()
        .into_iter()
        .map(|p| {
            let setup = p.setup();
            let recording = record(&setup, MAX_EVENTS, &|| false).expect("a lesson records");
            (p.name, Replay::new(recording))
        })
        .collect()
}

/// Every question a lesson asks, in the order the steps ask them.
fn questions(replay: &Replay) -> Vec<Question> {
    let mut step = replay.step(0);
    let mut asked = Vec::new();
    loop {
        if let Some(q) = question(replay, &step) {
            asked.push(q);
        }
        if step.applied >= replay.len() {
            return asked;
        }
        let next = step.applied + 1;
        replay.seek(&mut step, next);
    }
}

/// Right answers out of all questions, answering each with `answer`.
fn fraction(replay: &Replay, answer: impl Fn(&Question) -> Answer) -> (u32, u32) {
    let asked = questions(replay);
    let right = asked
        .iter()
        .filter(|q| q.judge(replay, answer(q)).right)
        .count();
    (right as u32, asked.len() as u32)
}

#[test]
fn guessing_does_not_pay_in_any_lesson() {
    for (name, replay) in lessons() {
        // "No", the first choice, the first legal move: at most 60%.
        let (right, asked) = fraction(&replay, |q| q.default_answer(&replay));
        assert!(asked > 0, "{name}: no question");
        assert!(
            right * 100 <= asked * 60,
            "{name}: guessing scores {right} of {asked}"
        );
    }
}

#[test]
fn knowing_scores_everything_and_every_main_node_is_asked_about() {
    for (name, replay) in lessons() {
        let asked = questions(&replay);
        let (right, total) = fraction(&replay, |q| q.truth(&replay));
        assert_eq!(right, total, "{name}: the record's own answers are right");
        // One question for each node of the main search reached by a move
        // or at a root.
        let nodes = replay
            .tree
            .nodes
            .iter()
            .filter(|n| !n.quiescence && matches!(n.via, Via::Root | Via::Move(_)))
            .count();
        assert_eq!(asked.len(), nodes, "{name}");
        // Every verdict says why, and names no placeholder.
        for q in &asked {
            let verdict = q.judge(&replay, q.default_answer(&replay));
            assert!(verdict.text.len() > 20, "{name}: {}", verdict.text);
        }
    }
}

#[test]
fn a_nodes_first_move_is_asked_about_and_a_cutoff_there_is_a_yes() {
    let lesson = positions()
        .into_iter()
        .find(|p| p.name == "start")
        .expect("the start lesson");
    let setup = Setup::new(lesson.position, lesson.depth);
    let replay = Replay::new(record(&setup, MAX_EVENTS, &|| false).expect("records"));
    let asked = questions(&replay);
    let first_moves: Vec<&Question> = asked
        .iter()
        .filter(|q| {
            matches!(
                replay.events()[q.at],
                TraceEvent::MoveTried { index: 0, .. }
            )
        })
        .collect();
    assert!(!first_moves.is_empty());
    // The first move that cuts its node off: asked, and "yes" is right.
    let cut = first_moves
        .iter()
        .find(|q| q.truth(&replay) == Answer::Yes)
        .expect("a first move that cuts off");
    assert_eq!(cut.kind, Kind::Cutoff);
    let verdict = cut.judge(&replay, Answer::No);
    assert!(!verdict.right);
    assert!(verdict.text.starts_with("No: "), "{}", verdict.text);
    assert!(
        verdict.text.contains("at or above beta"),
        "{}",
        verdict.text
    );
}

/// A hand-made tree's replay, searched whole with the given switches.
fn tree_replay(text: &str, pvs: bool) -> Replay {
    let tree = crate::teach::GameTree::parse(text).expect("a tree");
    let mut setup = Setup::game_tree(tree, None);
    setup.options.pvs = pvs;
    Replay::new(record(&setup, MAX_EVENTS, &|| false).expect("records"))
}

/// Textbook trees: the three-ply example, the same in the worst and the
/// best order for alpha-beta, a four-ply tree with a deep cutoff, and
/// one where principal-variation search searches again.
const TREES: [(&str, bool); 5] = [
    ("((3 12 8) (2 4 6) (14 5 2))", false),
    ("((2 4 6) (2 5 14) (3 8 12))", false),
    ("((3 12 8) (2 4 6) (2 5 14))", false),
    (
        "(((3 17) (2 12)) ((15 25) (0 2)) ((2 5) (3 2)) ((14 1) (4 23)))",
        false,
    ),
    ("((3 12 8) (5 9 7) (2 4 6))", true),
];

#[test]
fn on_textbook_trees_guessing_does_not_pay_and_knowing_scores_everything() {
    for (text, pvs) in TREES {
        let replay = tree_replay(text, pvs);
        let (right, asked) = fraction(&replay, |q| q.default_answer(&replay));
        assert!(
            right * 100 <= asked * 60,
            "{text}: guessing scores {right} of {asked}"
        );
        let (right, asked) = fraction(&replay, |q| q.truth(&replay));
        assert_eq!(right, asked, "{text}");
        // Every node of the search is asked about, leaves too.
        assert_eq!(asked as usize, replay.tree.len(), "{text}");
    }
}

#[test]
fn the_three_ply_example_asks_for_values_and_the_leaves_alpha_beta_skips() {
    let replay = tree_replay(TREES[0].0, false);
    let asked = questions(&replay);
    for q in &asked {
        eprintln!(
            "{} {:?} {:?} | {}",
            q.name,
            q.kind,
            q.truth(&replay),
            q.judge(&replay, q.default_answer(&replay)).text
        );
    }
    let named = |name: &str| {
        asked
            .iter()
            .find(|q| q.name == name)
            .unwrap_or_else(|| panic!("no question about {name}"))
    };
    // The root: its minimax value, 3, typed.
    let root = named("A");
    assert_eq!(root.kind, Kind::Value);
    assert_eq!(root.parse(&replay, "3"), Ok(Answer::Value(3)));
    assert!(root.judge(&replay, Answer::Value(3)).right);
    let wrong = root.judge(&replay, Answer::Value(12));
    assert!(!wrong.right);
    assert!(
        wrong
            .text
            .starts_with("No: A returns 3 for MAX: MAX takes the largest"),
        "{}",
        wrong.text
    );
    // C: its first leaf, 2, is below what MAX has from B: C2 and C3 are
    // never evaluated.
    let c = named("C");
    assert_eq!(c.kind, Kind::Skipped);
    let skipped = c.parse(&replay, "C2 C3").expect("two leaves");
    assert_eq!(skipped, Answer::Leaves(0b110));
    assert!(c.judge(&replay, skipped).right);
    let none = c.judge(&replay, c.parse(&replay, "none").expect("none"));
    assert!(!none.right);
    assert!(
        none.text
            .contains("C2 and C3 were never evaluated: C1 (2 for MAX) already cut C off"),
        "{}",
        none.text
    );
    let error = c.parse(&replay, "B2").expect_err("not a leaf of C");
    assert_eq!(
        error,
        "B2 is not a leaf under C: its leaves are C1, C2, C3."
    );
    // D: nothing is skipped, every leaf is needed.
    assert_eq!(named("D").truth(&replay), Answer::Leaves(0));
    // B's first leaf: the window is open, 3 lands inside it.
    let b1 = named("B1");
    assert_eq!(b1.truth(&replay), Answer::Window(Outcome::Inside));
    assert!(b1.text().contains("[-inf, +inf]"), "{}", b1.text());
}
