//! The curated teaching positions show what their descriptions say, by the
//! engine's own search.
#![allow(clippy::unwrap_used)]

use kibitz::cli::run_trace;
use kibitz::engine::trace::Recorder;
use kibitz::engine::{Score, SearchOptions};
use kibitz::game::notation::san_line;
use kibitz::teach::{TeachingPosition, positions};
use shakmaty::Position;

fn find(name: &str) -> TeachingPosition {
    positions()
        .into_iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no teaching position '{name}'"))
}

/// The textbook search: alpha-beta with ordering, table and quiescence, no
/// selective pruning, no aspiration windows.
fn textbook() -> SearchOptions {
    SearchOptions {
        selective: false,
        aspiration: false,
        ..SearchOptions::default()
    }
}

/// Best move (SAN), score and nodes of one search.
fn search(p: &TeachingPosition, depth: u32, options: SearchOptions) -> (String, Score, u64) {
    let mut recorder = Recorder::new(0);
    let summary = run_trace(&p.position, &[], depth, options, &mut recorder);
    let best = san_line(&p.position, &summary.pv[..1]).join("");
    (best, summary.score, summary.nodes)
}

#[test]
fn there_are_at_least_eight_and_they_include_the_start() {
    let all = positions();
    assert!(all.len() >= 8);
    assert!(all.iter().any(|p| p.position == shakmaty::Chess::default()));
    for p in &all {
        assert!(!p.position.legal_moves().is_empty(), "{}", p.name);
    }
}

#[test]
fn the_mates_are_found_at_their_depth() {
    let p = find("mate in 1");
    let (best, score, _) = search(&p, p.depth, textbook());
    assert_eq!((best.as_str(), score), ("Rd8#", Score::Mate(1)));
    let p = find("mate in 2");
    let (_, score, _) = search(&p, p.depth, textbook());
    assert_eq!(score, Score::Mate(2));
}

#[test]
fn the_fork_wins_the_queen() {
    let p = find("fork");
    let (best, score, _) = search(&p, p.depth, textbook());
    assert_eq!(best, "Nd6+");
    // A knight and a pawn up once the queen falls.
    assert!(
        matches!(score, Score::Centipawns(cp) if cp > 250),
        "{score:?}"
    );
}

#[test]
fn quiescence_changes_the_answer_at_the_horizon() {
    let p = find("horizon");
    let without = SearchOptions {
        quiescence: false,
        ..textbook()
    };
    let (greedy, _, _) = search(&p, p.depth, without);
    assert_eq!(greedy, "Qxd7");
    let (careful, score, _) = search(&p, p.depth, textbook());
    assert_ne!(careful, "Qxd7");
    assert!(
        matches!(score, Score::Centipawns(cp) if cp > -100),
        "{score:?}"
    );
}

#[test]
fn the_table_and_move_ordering_save_most_of_the_work() {
    let p = find("transpositions");
    let without_table = SearchOptions {
        transposition_table: false,
        ..textbook()
    };
    let (_, _, with) = search(&p, p.depth, textbook());
    let (_, _, without) = search(&p, p.depth, without_table);
    assert!(
        with * 3 < without * 2,
        "table: {with} nodes, without: {without}"
    );
    let (_, _, with) = search(&p, 8, textbook());
    let (_, _, without) = search(&p, 8, without_table);
    assert!(
        with * 3 < without,
        "depth 8, table: {with} nodes, without: {without}"
    );

    let p = find("move ordering");
    let no_quiescence = SearchOptions {
        quiescence: false,
        ..textbook()
    };
    let unordered = SearchOptions {
        move_ordering: false,
        ..no_quiescence
    };
    let (_, _, ordered) = search(&p, p.depth, no_quiescence);
    let (_, _, shuffled) = search(&p, p.depth, unordered);
    assert!(
        ordered * 2 < shuffled,
        "ordered: {ordered} nodes, not: {shuffled}"
    );
}
