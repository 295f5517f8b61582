//! Alpha-beta finds the same root value as plain minimax, from fewer leaves:
//! the central claim of the teaching mode, on random positions.
//!
//! The horizon is the static evaluation (no quiescence): minimax's
//! quiescence search has no cutoffs either, and on the wild positions random
//! play produces it runs to tens of millions of nodes per position.
#![allow(clippy::unwrap_used)]

use kibitz::cli::flags::{JsonFlag, PositionArgs};
use kibitz::cli::trace::{TraceArgs, trace};
use kibitz::engine::search::{self, SearchResult};
use kibitz::engine::trace::{Recorder, TraceEvent};
use kibitz::engine::{Limits, SearchOptions};
use kibitz::game::fen::fen_of;
use kibitz::game::fen::parse_fen;
use kibitz::teach::Via;
use kibitz::teach::tree::{self, SearchTree};
use proptest::prelude::*;
use shakmaty::{Chess, Position};

mod common;

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

/// The positions random playouts start from: the start, the Bratko-Kopec
/// test positions and the perft positions of the test data.
fn starts() -> Vec<Chess> {
    let mut starts = vec![Chess::default()];
    for file in ["epd/bratko-kopec.epd", "epd/cpw-perft-results.epd"] {
        for line in common::read_testdata(file).lines() {
            let fields: Vec<&str> = line.split_whitespace().take(4).collect();
            if fields.len() == 4
                && let Ok(position) = parse_fen(&fields.join(" "))
            {
                starts.push(position);
            }
        }
    }
    starts
}

/// A position reached from one of [`starts`] by the moves `choices` pick.
fn random_position_from(start: usize, choices: &[u16]) -> Chess {
    let starts = starts();
    let mut position = starts[start % starts.len()].clone();
    for &choice in choices {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        position.play_unchecked(moves[usize::from(choice) % moves.len()]);
    }
    position
}

/// `kibitz trace` on `position` with the switches in the bits of `flags`.
fn trace_args(position: &Chess, depth: u32, flags: u8) -> TraceArgs {
    let on = |bit: u8| flags & (1 << bit) != 0;
    TraceArgs {
        position: PositionArgs::new(Some(fen_of(position)), Vec::new()),
        game_tree: None,
        best_first: false,
        depth: Some(depth),
        no_pruning: on(0),
        no_ordering: on(1),
        no_tt: on(2),
        no_quiescence: on(3) || on(0),
        selective: on(4),
        pvs: on(5),
        iterative: on(6),
        // Greer's move-chain search, with one table move.
        chains: on(7),
        table_moves: u8::from(on(7)),
        max_events: 200_000,
        summary_only: false,
        output: JsonFlag { json: false },
        uci: false,
        tree: false,
    }
}

/// Every node of the tree is where its parent's move, pass or test leads:
/// the move is legal in the parent's position, a singular test or a null
/// move's verification searches the parent's own position, and every row
/// can be written.
fn check_tree(tree: &SearchTree) -> Result<(), TestCaseError> {
    for (id, node) in tree.nodes.iter().enumerate() {
        let Some(parent) = node.parent else {
            continue;
        };
        let before = tree.position(parent);
        match node.via {
            Via::Move(m) => prop_assert!(
                before.is_legal(m),
                "node {}: {:?} in {}",
                id,
                m,
                fen_of(&before)
            ),
            Via::Singular | Via::Verification => {
                prop_assert_eq!(fen_of(&tree.position(id as u32)), fen_of(&before));
                prop_assert_eq!(node.ply, tree.node(parent).ply);
            }
            Via::Pass => prop_assert_ne!(tree.position(id as u32).turn(), before.turn()),
            Via::Root => prop_assert!(false, "node {}: a root below a root", id),
        }
    }
    let outline = tree.outline_text(tree::Values::Negamax);
    prop_assert!(outline.lines().count() >= tree.len());
    Ok(())
}

/// The tree `kibitz trace --tree` would show, with the CLI's own
/// outline, JSON and narration written as well; `None` when the search is
/// too large to follow (refused, as the CLI refuses it).
fn trace_everything(
    position: &Chess,
    depth: u32,
    flags: u8,
) -> Result<Option<SearchTree>, TestCaseError> {
    let mut args = trace_args(position, depth, flags);
    for (tree, json) in [(true, false), (false, true), (false, false)] {
        args.tree = tree;
        args.output.json = json;
        let mut out = Vec::new();
        if trace(&args, &mut out).is_err() {
            return Ok(None);
        }
        prop_assert!(!out.is_empty());
    }
    let options = args.options();
    let mut recorder = Recorder::new(2_000_000);
    search::search_fresh(
        position,
        &[],
        &Limits::depth(depth),
        options,
        16,
        &mut recorder,
    );
    prop_assume!(recorder.dropped() == 0);
    Ok(Some(tree::build(position, &options, recorder.events())))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Every set of switches, at depths a lesson uses: the tree, the
    /// outline, the JSON and the narration are made without a panic, and
    /// every node is a position its parent reaches.
    #[test]
    fn every_switch_set_traces_random_positions(
        start in any::<usize>(),
        choices in proptest::collection::vec(any::<u16>(), 0..50),
        depth in 1u32..=3,
        flags in any::<u8>(),
    ) {
        let position = random_position_from(start, &choices);
        prop_assume!(!position.legal_moves().is_empty());
        if let Some(tree) = trace_everything(&position, depth, flags)? {
            check_tree(&tree)?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    /// The selective search from depth 6 on tests singular extensions: a
    /// node that searches its own position again without one move.
    #[test]
    fn deep_selective_traces_of_random_positions(
        start in any::<usize>(),
        choices in proptest::collection::vec(any::<u16>(), 0..30),
        pvs in any::<bool>(),
    ) {
        let position = random_position_from(start, &choices);
        prop_assume!(!position.legal_moves().is_empty());
        let flags = (1 << 4) | (1 << 6) | if pvs { 1 << 5 } else { 0 };
        if let Some(tree) = trace_everything(&position, 6, flags)? {
            check_tree(&tree)?;
        }
    }
}

/// One of the positions where `trace --tree --selective --iterative`
/// panicked at depth 6: a singular-extension test was taken for a move's
/// subtree, and the next move was played from the wrong position.
#[test]
fn a_singular_test_is_the_same_position_again() {
    let position =
        parse_fen("r1bk1bnr/ppq1pp2/n2p4/2Q3P1/P1P1P2p/3P2BN/1P4PP/RN2KB1R w KQ - 1 14").unwrap();
    let mut args = trace_args(&position, 6, (1 << 4) | (1 << 6));
    args.tree = true;
    let mut out = Vec::new();
    trace(&args, &mut out).unwrap();
    let outline = String::from_utf8(out).unwrap();
    assert!(outline.contains("singular test"), "{outline}");
    let tree = trace_everything(&position, 6, (1 << 4) | (1 << 6))
        .unwrap()
        .unwrap();
    check_tree(&tree).unwrap();
    assert!(tree.nodes.iter().any(|n| n.via == Via::Singular));
}
