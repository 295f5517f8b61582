use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

use crate::engine::heuristics::Heuristics;
use crate::engine::movetables::{Scope, TableWeights};
use crate::engine::protocol::{Limits, Score, SearchOptions};
use crate::engine::search::{SearchResult, search_kept};
use crate::engine::stats::ChainStats;
use crate::engine::trace::{NoTrace, OrderReason, Pruning, Recorder, TraceEvent, Tracer};
use crate::engine::tt::TranspositionTable;

const MIDDLEGAME: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

fn position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

fn options(table_moves: u8) -> SearchOptions {
    SearchOptions {
        move_chains: true,
        table_moves,
        ..SearchOptions::default()
    }
}

fn chain_search<T: Tracer>(
    position: &Chess,
    depth: u32,
    table_moves: u8,
    heuristics: &mut Heuristics,
    tracer: &mut T,
) -> SearchResult {
    let mut tt = TranspositionTable::new(1);
    search_kept(
        position,
        &[],
        &Limits::depth(depth),
        options(table_moves),
        (&mut tt, heuristics),
        &|| false,
        tracer,
    )
}

fn chains(result: &SearchResult) -> ChainStats {
    result.stats.chains.unwrap()
}

/// One node of a trace: what it tried and pruned.
#[derive(Default)]
struct NodeMoves {
    quiescence: bool,
    tried: Vec<OrderReason>,
    pruned: usize,
}

/// The nodes of a trace, each with its moves (a stack: a node's events
/// come between its `EnterNode` and its `Return`).
fn nodes(events: &[TraceEvent]) -> Vec<NodeMoves> {
    let mut done = Vec::new();
    let mut stack: Vec<NodeMoves> = Vec::new();
    for event in events {
        match event {
            TraceEvent::EnterNode { quiescence, .. } => stack.push(NodeMoves {
                quiescence: *quiescence,
                ..NodeMoves::default()
            }),
            TraceEvent::MoveTried { reason, .. } => {
                stack.last_mut().unwrap().tried.push(*reason);
            }
            // (The quiescence search prunes by its own rules.)
            TraceEvent::MovePruned {
                reason: Pruning::MoveChain,
                ..
            } => {
                let node = stack.last_mut().unwrap();
                assert!(!node.quiescence);
                node.pruned += 1;
            }
            TraceEvent::Return { .. } => done.push(stack.pop().unwrap()),
            _ => {}
        }
    }
    assert!(stack.is_empty());
    done
}

#[test]
fn where_a_chain_applies_only_table_and_chain_moves_are_searched() {
    let start = position(MIDDLEGAME);
    let mut heuristics = Box::<Heuristics>::default();
    // The first search starts with no chain and fills the store; the
    // second, as in a game, meets chains at once.
    chain_search(&start, 3, 2, &mut heuristics, &mut NoTrace);
    assert!(!heuristics.chains.is_empty());
    let mut recorder = Recorder::new(10_000_000);
    let result = chain_search(&start, 3, 2, &mut heuristics, &mut recorder);
    let stats = chains(&result);
    let nodes = nodes(recorder.events());
    let mut pruning_nodes = 0;
    let mut pruned = 0;
    let mut chain_tried = false;
    for node in nodes.iter().filter(|n| !n.quiescence) {
        pruned += node.pruned;
        if node.pruned > 0 {
            pruning_nodes += 1;
            // (A table move, searched first, may cut off before the chain
            // moves are reached.)
            chain_tried |= node.tried.contains(&OrderReason::MoveChain);
            assert!(
                node.tried
                    .iter()
                    .all(|r| matches!(r, OrderReason::MoveChain | OrderReason::TableMove)),
                "{:?}",
                node.tried
            );
        }
    }
    assert!(pruning_nodes > 0 && chain_tried);
    assert_eq!(pruned as u64, stats.pruned);
    assert!(stats.chain_nodes > 0 && stats.chain_nodes <= pruning_nodes as u64);
    assert!(stats.table_moves > 0, "{stats:?}");
    // Interior nodes are the non-quiescence nodes the trace entered with
    // depth left.
    let interior = recorder
        .events()
        .iter()
        .filter(
            |e| matches!(e, TraceEvent::EnterNode { quiescence: false, depth, .. } if *depth > 0),
        )
        .count();
    assert_eq!(interior as u64, stats.interior);
    assert!(result.nodes > stats.alpha_beta_nodes());
    // Moves are counted as searched when tried, not when planned (a cutoff
    // ends a plan early).
    let tried = |reason: OrderReason| {
        nodes
            .iter()
            .filter(|n| !n.quiescence)
            .flat_map(|n| &n.tried)
            .filter(|&&r| r == reason)
            .count() as u64
    };
    assert_eq!(tried(OrderReason::TableMove), stats.table_moves);
    assert_eq!(
        tried(OrderReason::MoveChain),
        stats.chain_moves + stats.forced_moves
    );
    let all: u64 = nodes
        .iter()
        .filter(|n| !n.quiescence)
        .map(|n| n.tried.len() as u64)
        .sum();
    assert_eq!(all, stats.moves_searched);
}

#[test]
fn the_same_search_twice_gives_the_same_tree() {
    let start = position(MIDDLEGAME);
    let run = || {
        let mut heuristics = Box::<Heuristics>::default();
        let first = chain_search(&start, 4, 1, &mut heuristics, &mut NoTrace);
        let second = chain_search(&start, 4, 1, &mut heuristics, &mut NoTrace);
        (first.nodes, first.best_move, second.nodes, chains(&second))
    };
    assert_eq!(run(), run());
}

#[test]
fn chains_shrink_the_search_of_a_position_met_again() {
    let start = position(MIDDLEGAME);
    let mut heuristics = Box::<Heuristics>::default();
    let first = chain_search(&start, 4, 0, &mut heuristics, &mut NoTrace);
    let second = chain_search(&start, 4, 0, &mut heuristics, &mut NoTrace);
    assert!(chains(&first).chains_stored > 0);
    assert!(
        chains(&second).alpha_beta_nodes() < chains(&first).alpha_beta_nodes(),
        "{:?} {:?}",
        chains(&first),
        chains(&second)
    );
}

#[test]
fn a_mate_in_one_is_found_and_a_new_game_forgets_the_chains() {
    let mate = position("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    let mut heuristics = Box::<Heuristics>::default();
    let result = chain_search(&mate, 3, 0, &mut heuristics, &mut NoTrace);
    assert_eq!(result.score, Score::Mate(1));
    assert_eq!(
        result.best_move.map(|m| m.to().to_string()),
        Some("d8".into())
    );
    assert!(!heuristics.chains.is_empty());
    heuristics.clear();
    assert!(heuristics.chains.is_empty());
}

#[test]
fn the_trace_rebuilds_the_tables_the_chain_search_taught() {
    let start = position(MIDDLEGAME);
    let mut heuristics = Box::<Heuristics>::default();
    let mut recorder = Recorder::new(10_000_000);
    chain_search(&start, 3, 1, &mut heuristics, &mut recorder);
    let mut replayed = TableWeights::default();
    let mut updates = 0;
    for event in recorder.events() {
        if let TraceEvent::MoveTables { update, .. } = event {
            replayed.apply(update);
            updates += 1;
        }
    }
    assert!(updates > 0);
    let maps = heuristics.maps();
    assert_eq!(replayed.scope(Scope::Game), maps.scope(Scope::Game));
}
