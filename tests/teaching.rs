//! The curated teaching positions show what their descriptions say, by the
//! search teach mode records: `SearchOptions::textbook()`.
#![allow(clippy::unwrap_used)]

use kibitz::engine::search::{self, MATE_BOUND};
use kibitz::engine::trace::NoTrace;
use kibitz::engine::{Limits, Score, SearchOptions};
use kibitz::teach::caption::san;
use kibitz::teach::{self, MoveStatus, Replay, Setup, TeachingPosition, positions};
use shakmaty::{Chess, Position};

fn find(name: &str) -> TeachingPosition {
    positions()
        .into_iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no teaching position '{name}'"))
}

fn textbook() -> SearchOptions {
    SearchOptions::textbook()
}

/// Best move (SAN), score and nodes of one search with a fresh table.
fn search_at(position: &Chess, depth: u32, options: SearchOptions) -> (String, Score, u64) {
    let result = search::search_fresh(
        position,
        &[],
        &Limits::depth(depth),
        options,
        16,
        &mut NoTrace,
    );
    let best = result.best_move.map(|m| san(position, m)).unwrap();
    (best, result.score, result.nodes)
}

fn search(p: &TeachingPosition, depth: u32, options: SearchOptions) -> (String, Score, u64) {
    search_at(&p.position, depth, options)
}

#[test]
fn there_are_at_least_eight_and_they_include_the_start() {
    let all = positions();
    assert!(all.len() >= 8);
    assert!(all.iter().any(|p| p.position == Chess::default()));
    for p in &all {
        assert!(!p.position.legal_moves().is_empty(), "{}", p.name);
        assert!(
            (teach::MIN_DEPTH..=teach::MAX_DEPTH).contains(&p.depth),
            "{}",
            p.name
        );
    }
}

#[test]
fn the_start_has_twenty_moves_each_nothing_forced_and_the_tree_grows_fast() {
    let p = find("start");
    assert_eq!(p.position.legal_moves().len(), 20);
    for m in p.position.legal_moves() {
        let mut after = p.position.clone();
        after.play_unchecked(m);
        assert_eq!(after.legal_moves().len(), 20);
    }
    let nodes: Vec<u64> = (1..=p.depth + 1)
        .map(|depth| search(&p, depth, textbook()).2)
        .collect();
    for pair in nodes.windows(2) {
        assert!(pair[1] > 3 * pair[0], "nodes by depth: {nodes:?}");
    }
    let (_, score, _) = search(&p, p.depth, textbook());
    assert!(
        matches!(score, Score::Centipawns(cp) if cp.abs() < 100),
        "{score:?}"
    );
}

#[test]
fn the_mate_in_one_is_the_only_mate() {
    let p = find("mate in 1");
    let (best, score, _) = search(&p, p.depth, textbook());
    assert_eq!((best.as_str(), score), ("Rd8#", Score::Mate(1)));
    // Minimax gives every root move its value: the others keep the rook,
    // a piece up, and no more.
    let recording = teach::record(
        &Setup {
            options: SearchOptions::minimax(),
            ..Setup::new(p.position.clone(), p.depth)
        },
        teach::MAX_EVENTS,
        &|| false,
    )
    .unwrap();
    let replay = Replay::new(recording);
    let end = replay.step(replay.len());
    let root = &end.frames[0];
    assert_eq!(root.moves.len(), p.position.legal_moves().len());
    for line in &root.moves {
        let MoveStatus::Searched(value) = line.status else {
            panic!("{:?} not searched", line.mv)
        };
        let text = san(&p.position, line.mv);
        if text == "Rd8#" {
            assert!(value >= MATE_BOUND);
        } else {
            assert!((300..700).contains(&value), "{text}: {value}");
        }
    }
}

#[test]
fn the_mate_in_two_mates_whatever_black_replies() {
    let p = find("mate in 2");
    let (best, score, _) = search(&p, p.depth, textbook());
    assert_eq!(score, Score::Mate(2));
    let first = p
        .position
        .legal_moves()
        .into_iter()
        .find(|&m| san(&p.position, m) == best)
        .unwrap();
    let mut after = p.position.clone();
    after.play_unchecked(first);
    assert!(!after.legal_moves().is_empty());
    for reply in after.legal_moves() {
        let mut position = after.clone();
        position.play_unchecked(reply);
        let (_, score, _) = search_at(&position, 1, textbook());
        assert_eq!(score, Score::Mate(1), "after {best} {}", san(&after, reply));
    }
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
fn in_the_pawn_ending_the_king_moves_and_the_queen_is_out_of_sight() {
    let p = find("pawn ending");
    let (best, score, _) = search(&p, p.depth, textbook());
    // A king move (Kd3 and Kf3 score the same; the order decides); the
    // pawn stays at home.
    assert!(best.starts_with('K'), "{best}");
    // The description names the move the lesson plays.
    assert!(
        p.description.contains(&format!("its king ({best};")),
        "the lesson plays {best}: {}",
        p.description
    );
    // A pawn up, no queen in sight.
    assert!(
        matches!(score, Score::Centipawns(cp) if (50..300).contains(&cp)),
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
fn the_table_saves_over_half_at_depth_six_and_four_fifths_at_depth_eight() {
    let p = find("transpositions");
    assert_eq!(p.depth, 6);
    let without_table = SearchOptions {
        transposition_table: false,
        ..textbook()
    };
    let (best, value, with) = search(&p, 6, textbook());
    let (best_without, value_without, without) = search(&p, 6, without_table);
    // The same answer for less.
    assert_eq!((best, value), (best_without, value_without));
    let share = with as f64 / without as f64;
    assert!(
        (0.35..0.5).contains(&share),
        "depth 6, table: {with} nodes, without: {without}"
    );
    let (_, _, with) = search(&p, 8, textbook());
    let (_, _, without) = search(&p, 8, without_table);
    let share = with as f64 / without as f64;
    assert!(
        (0.15..0.25).contains(&share),
        "depth 8, table: {with} nodes, without: {without}"
    );
}

#[test]
fn move_ordering_cuts_most_of_the_tree_off() {
    let p = find("move ordering");
    let captures = p
        .position
        .legal_moves()
        .into_iter()
        .filter(|m| m.is_capture())
        .count();
    assert!(captures >= 8, "{captures} captures");
    let unordered = SearchOptions {
        move_ordering: false,
        ..textbook()
    };
    let (_, _, ordered) = search(&p, p.depth, textbook());
    let (_, _, shuffled) = search(&p, p.depth, unordered);
    assert!(
        ordered * 2 < shuffled,
        "ordered: {ordered} nodes, not: {shuffled}"
    );
    // Without quiescence too, where ordering is only the main search's.
    let no_quiescence = |options: SearchOptions| SearchOptions {
        quiescence: false,
        ..options
    };
    let (_, _, ordered) = search(&p, p.depth, no_quiescence(textbook()));
    let (_, _, shuffled) = search(&p, p.depth, no_quiescence(unordered));
    assert!(
        ordered * 2 < shuffled,
        "without quiescence, ordered: {ordered} nodes, not: {shuffled}"
    );
}

#[test]
fn the_stalemate_trap_is_a_tree_of_two_or_three_moves_a_node_and_every_line_draws() {
    let p = find("stalemate trap");
    let setup = kibitz::teach::Setup::new(p.position.clone(), p.depth);
    let recording = kibitz::teach::record(&setup, kibitz::teach::MAX_EVENTS, &|| false).unwrap();
    let replay = kibitz::teach::Replay::new(recording);
    let tree = &replay.tree;
    assert!(
        tree.len() <= 12,
        "a tree to predict by hand: {} nodes",
        tree.len()
    );
    // The nodes that search their moves (a draw by material ends at once).
    for id in (0..tree.len() as u32).filter(|&id| !tree.node(id).children.is_empty()) {
        let moves = tree.position(id).legal_moves().len();
        assert!(moves <= 3, "node {id}: {moves} moves");
    }
    assert_eq!(replay.recording.value, 0, "every line is a draw");
    let (best, score, _) = search(&p, p.depth, textbook());
    assert_eq!(score, Score::Centipawns(0), "{best}");
}

/// A tree lesson recorded with its own switches.
fn tree_replay(name: &str) -> (TeachingPosition, Replay) {
    let p = find(name);
    assert!(p.tree.is_some(), "{name} is a tree lesson");
    let recording = teach::record(&p.setup(), teach::MAX_EVENTS, &|| false).unwrap();
    (p, Replay::new(recording))
}

fn names_skipped_at(replay: &Replay, node: &str) -> Vec<String> {
    // The step of the node's cutoff: the moves it never reached.
    (1..=replay.len())
        .map(|i| replay.step(i))
        .find_map(|step| {
            let frame = step.current()?;
            let cut = matches!(
                replay.event_at(step.applied - 1),
                Some(kibitz::engine::trace::TraceEvent::BetaCutoff { .. })
            );
            (cut && frame.node_name() == Some(node)).then(|| {
                frame.moves[frame.reached..]
                    .iter()
                    .map(|l| frame.move_name(l.mv))
                    .collect()
            })
        })
        .unwrap_or_default()
}

#[test]
fn the_classic_tree_is_worth_3_and_alpha_beta_skips_c2_and_c3() {
    let (p, replay) = tree_replay("classic tree");
    assert_eq!(replay.recording.value, 3);
    assert_eq!(p.tree.as_ref().unwrap().node(1).name, "B");
    assert_eq!(replay.recording.stats.totals.leaves, 7);
    assert_eq!(names_skipped_at(&replay, "C"), ["C2", "C3"]);
    assert!(p.description.contains("skips C2 and C3"));
}

#[test]
fn the_deep_cutoff_happens_at_l_with_the_roots_bound_alone() {
    let (_, replay) = tree_replay("deep cutoff");
    let step = (1..=replay.len())
        .map(|i| replay.step(i))
        .find(|s| {
            matches!(
                replay.event_at(s.applied - 1),
                Some(kibitz::engine::trace::TraceEvent::BetaCutoff { ply: 3, .. })
            )
        })
        .expect("a cutoff three plies down");
    let names: Vec<_> = step.frames.iter().filter_map(|f| f.node_name()).collect();
    assert_eq!(names.last(), Some(&"L"));
    // Neither L's parent nor its grandparent has a searched child yet: the
    // bound that cut L off came from the root.
    for frame in &step.frames[1..3] {
        assert!(
            frame.best().is_none(),
            "{:?} has a best already",
            frame.node_name()
        );
    }
    assert!(step.frames[0].best().is_some());
    assert_eq!(names_skipped_at(&replay, "L"), ["L2"]);
}

#[test]
fn worst_order_evaluates_every_leaf_and_best_order_the_minimal_tree() {
    let (worst, w) = tree_replay("worst order");
    let (best, b) = tree_replay("best order");
    let (wt, bt) = (worst.tree.unwrap(), best.tree.unwrap());
    assert_eq!(w.recording.value, b.recording.value);
    // The same leaves, in another order.
    let leaves = |t: &kibitz::teach::GameTree| {
        let mut v: Vec<i32> = (0..t.len()).filter_map(|i| t.node(i).leaf).collect();
        v.sort();
        v
    };
    assert_eq!(leaves(&wt), leaves(&bt));
    // b = 3, d = 3: b^d leaves against b^ceil(d/2) + b^floor(d/2) - 1.
    assert_eq!(w.recording.stats.totals.leaves, 27);
    assert_eq!(w.recording.stats.totals.leaves, wt.leaves() as u64);
    assert_eq!(b.recording.stats.totals.leaves, 9 + 3 - 1);
}

#[test]
fn the_pvs_lesson_re_searches_c_after_its_null_window_fails_high() {
    let (p, replay) = tree_replay("PVS re-search");
    assert!(p.options.pvs);
    let research = replay.events().iter().find_map(|e| match e {
        kibitz::engine::trace::TraceEvent::ReSearch {
            ply: 0, mv, reason, ..
        } => Some((*mv, *reason)),
        _ => None,
    });
    let (mv, reason) = research.expect("a re-search at the root");
    assert_eq!(p.tree.as_ref().unwrap().move_name(0, mv), "C");
    assert_eq!(reason, kibitz::engine::trace::ReSearchReason::FailedHigh);
    assert_eq!(replay.recording.value, 5);
}
