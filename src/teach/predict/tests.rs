//! Tests of `predict.rs`: every lesson asked at every node, answered by
//! someone who guesses and by someone who knows.

use super::*;
use crate::teach::{MAX_EVENTS, Setup, positions, record};

/// Each built-in lesson's replay at the depth it is meant for.
fn lessons() -> Vec<(String, Replay)> {
    positions()
        .into_iter()
        .map(|p| {
            let setup = Setup::new(p.position.clone(), p.depth);
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
