//! Alpha-beta finds the same root value as plain minimax, from fewer leaves:
//! the central claim of the teaching mode, on random positions.
//!
//! The horizon is the static evaluation (no quiescence): minimax's
//! quiescence search has no cutoffs either, and on the wild positions random
//! play produces it runs to tens of millions of nodes per position.
#![allow(clippy::unwrap_used)]

use kibitz::engine::search::{self, SearchResult};
use kibitz::engine::trace::{Recorder, TraceEvent};
use kibitz::engine::{Limits, SearchOptions};
use proptest::prelude::*;
use shakmaty::{Chess, Position};

/// One traced search to `depth` with a fresh table.
fn run_trace(
    position: &Chess,
    depth: u32,
    options: SearchOptions,
    recorder: &mut Recorder,
) -> SearchResult {
    search::search_fresh(position, &[], &Limits::depth(depth), options, 16, recorder)
}

fn leaves(result: &SearchResult) -> u64 {
    result.stats.totals.leaves
}

/// A position reached by playing the move at each index (modulo the number
/// of legal moves) from the start; stops early at the end of a game.
fn random_position(choices: &[u16]) -> Chess {
    let mut position = Chess::default();
    for &choice in choices {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[usize::from(choice) % moves.len()];
        position.play_unchecked(m);
    }
    position
}

/// Textbook alpha-beta: full windows, move ordering and the transposition
/// table, one search at the depth. The table is sound here: without the
/// check extension (part of the selective search) every path to a position
/// reaches it at the same ply with the same depth left, and a search from a
/// game's start without history meets no repetition within three plies.
fn alpha_beta() -> SearchOptions {
    SearchOptions::textbook()
}

fn without_quiescence(options: SearchOptions) -> SearchOptions {
    SearchOptions {
        quiescence: false,
        ..options
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    /// Minimax and alpha-beta, with or without ordering and the table,
    /// reach the same root value; alpha-beta never evaluates more leaves.
    #[test]
    fn alpha_beta_equals_minimax_with_fewer_leaves(
        choices in proptest::collection::vec(any::<u16>(), 0..60),
        depth in 1u32..=3,
    ) {
        let position = random_position(&choices);
        prop_assume!(!position.legal_moves().is_empty());
        let mut recorder = Recorder::new(0);
        let minimax = run_trace(&position, depth, without_quiescence(SearchOptions::minimax()), &mut recorder);
        for (ordering, table) in [(false, false), (true, false), (false, true), (true, true)] {
            let options = SearchOptions {
                move_ordering: ordering,
                transposition_table: table,
                ..without_quiescence(alpha_beta())
            };
            let pruned = run_trace(&position, depth, options, &mut recorder);
            prop_assert_eq!(pruned.value, minimax.value, "ordering {}, table {}", ordering, table);
            prop_assert!(leaves(&pruned) <= leaves(&minimax), "{} > {}", leaves(&pruned), leaves(&minimax));
            if depth == 3 && position.legal_moves().len() > 2 {
                prop_assert!(leaves(&pruned) < leaves(&minimax), "{} !< {}", leaves(&pruned), leaves(&minimax));
            }
        }
    }
}

#[test]
fn recorder_logs_the_required_events() {
    let position = random_position(&[3, 7, 11, 2, 5, 9]);
    let mut recorder = Recorder::new(1_000_000);
    let summary = run_trace(&position, 3, alpha_beta(), &mut recorder);
    assert_eq!(recorder.dropped(), 0);
    let kinds: std::collections::BTreeSet<&str> = recorder
        .events()
        .iter()
        .map(|e| match e {
            kibitz::engine::trace::TraceEvent::Iteration { .. } => "iteration",
            kibitz::engine::trace::TraceEvent::EnterNode { .. } => "enter",
            kibitz::engine::trace::TraceEvent::TtProbe { .. } => "probe",
            kibitz::engine::trace::TraceEvent::TtStore { .. } => "store",
            kibitz::engine::trace::TraceEvent::MoveTried { .. } => "move",
            kibitz::engine::trace::TraceEvent::StandPat { .. } => "standpat",
            kibitz::engine::trace::TraceEvent::LeafEval { .. } => "leaf",
            kibitz::engine::trace::TraceEvent::AlphaRaised { .. } => "alpha",
            kibitz::engine::trace::TraceEvent::BetaCutoff { .. } => "cutoff",
            kibitz::engine::trace::TraceEvent::Return { .. } => "return",
            _ => "other",
        })
        .collect();
    for kind in [
        "iteration",
        "enter",
        "probe",
        "store",
        "move",
        "standpat",
        "alpha",
        "cutoff",
        "return",
    ] {
        assert!(kinds.contains(kind), "no {kind} event");
    }
    assert!(summary.stats.totals.beta_cutoffs > 0);
    // Without quiescence the horizon is scored by leaf evaluations.
    let mut recorder = Recorder::new(1_000_000);
    run_trace(
        &position,
        2,
        without_quiescence(alpha_beta()),
        &mut recorder,
    );
    assert!(
        recorder
            .events()
            .iter()
            .any(|e| matches!(e, kibitz::engine::trace::TraceEvent::LeafEval { .. }))
    );
}

#[test]
fn with_quiescence_alpha_beta_still_equals_minimax_at_depth_one() {
    // Quiet-ish positions, where minimax's capture search stays small.
    for choices in [&[0u16, 0, 0, 0][..], &[5, 9, 1, 12], &[20, 3, 7, 7, 2, 30]] {
        let position = random_position(choices);
        let mut recorder = Recorder::new(0);
        let minimax = run_trace(&position, 1, SearchOptions::minimax(), &mut recorder);
        let pruned = run_trace(&position, 1, alpha_beta(), &mut recorder);
        assert_eq!(pruned.value, minimax.value, "{choices:?}");
        // Without principal-variation search nothing is searched twice, so
        // alpha-beta's capture search is a part of minimax's.
        assert!(leaves(&pruned) <= leaves(&minimax), "{choices:?}");
    }
}

/// What the statistics should say, counted from a recorded trace: nodes
/// entered (main and quiescence), beta cutoffs and those of the first move
/// tried at their node, table probes, hits and cutoffs.
#[derive(Debug, Default, PartialEq, Eq)]
struct Counted {
    main: u64,
    quiescence: u64,
    beta_cutoffs: u64,
    first_move_cutoffs: u64,
    tt_probes: u64,
    tt_hits: u64,
    tt_cutoffs: u64,
}

fn count_events(events: &[TraceEvent]) -> Counted {
    let mut counted = Counted::default();
    // The index of the move being tried at each ply.
    let mut tried: Vec<Option<u32>> = Vec::new();
    for event in events {
        match *event {
            TraceEvent::EnterNode {
                ply, quiescence, ..
            } => {
                if quiescence {
                    counted.quiescence += 1;
                } else {
                    counted.main += 1;
                }
                let ply = ply as usize;
                tried.resize(tried.len().max(ply + 1), None);
                tried[ply] = None;
            }
            TraceEvent::MoveTried { ply, index, .. } => {
                let ply = ply as usize;
                tried.resize(tried.len().max(ply + 1), None);
                tried[ply] = Some(index);
            }
            TraceEvent::BetaCutoff { ply, .. } => {
                counted.beta_cutoffs += 1;
                if tried.get(ply as usize).copied().flatten() == Some(0) {
                    counted.first_move_cutoffs += 1;
                }
            }
            TraceEvent::TtProbe { hit, cutoff, .. } => {
                counted.tt_probes += 1;
                counted.tt_hits += u64::from(hit);
                counted.tt_cutoffs += u64::from(cutoff);
            }
            _ => {}
        }
    }
    counted
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]

    /// The statistics the panel draws are the search's own events, counted.
    #[test]
    fn statistics_agree_with_the_recorded_trace(
        choices in proptest::collection::vec(any::<u16>(), 0..40),
        depth in 1u32..=3,
        table in any::<bool>(),
        quiescence in any::<bool>(),
        pvs in any::<bool>(),
    ) {
        let position = random_position(&choices);
        prop_assume!(!position.legal_moves().is_empty());
        // With iterative deepening, for the iterations' share of the counts.
        let options = SearchOptions {
            transposition_table: table,
            quiescence,
            pvs,
            iterative_deepening: true,
            ..alpha_beta()
        };
        let mut recorder = Recorder::new(5_000_000);
        let summary = run_trace(&position, depth, options, &mut recorder);
        prop_assert_eq!(recorder.dropped(), 0);
        let totals = summary.stats.totals;
        let counted = count_events(recorder.events());
        prop_assert_eq!(counted, Counted {
            main: totals.main,
            quiescence: totals.quiescence,
            beta_cutoffs: totals.beta_cutoffs,
            first_move_cutoffs: totals.first_move_cutoffs,
            tt_probes: totals.tt_probes,
            tt_hits: totals.tt_hits,
            tt_cutoffs: totals.tt_cutoffs,
        });
        // Every iteration is in the list, and the list adds up to the totals.
        let iterations = &summary.stats.iterations;
        prop_assert_eq!(iterations.len() as u32, depth);
        let main: u64 = iterations.iter().map(|i| i.counters.main).sum();
        let cutoffs: u64 = iterations.iter().map(|i| i.counters.beta_cutoffs).sum();
        prop_assert_eq!(main, totals.main);
        prop_assert_eq!(cutoffs, totals.beta_cutoffs);
    }
}
