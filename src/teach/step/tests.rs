//! Tests of `step.rs`.

use shakmaty::uci::UciMove;

use super::*;
use crate::engine::search::INFINITY;
use crate::game::fen::parse_fen;

fn enter(ply: u32, depth: i32, quiescence: bool) -> TraceEvent {
    TraceEvent::EnterNode {
        ply,
        depth,
        alpha: -INFINITY,
        beta: INFINITY,
        quiescence,
    }
}

fn tried(position: &Chess, ply: u32, uci: &str) -> TraceEvent {
    let mv = uci
        .parse::<UciMove>()
        .ok()
        .and_then(|m| m.to_move(position).ok())
        .expect("a legal move");
    TraceEvent::MoveTried {
        ply,
        mv,
        index: 0,
        reason: OrderReason::Unordered,
        window: WindowKind::Full,
        reduction: 0,
    }
}

#[test]
fn a_quiescence_node_lists_the_moves_quiescence_searches() {
    // White can promote on b8 without a capture (four ways) or capture
    // on a8 (four ways); quiescence search tries captures and queen
    // promotions only.
    let position = parse_fen("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1").expect("a position");
    let mut step = Step::start(&position, true);
    step.apply(&enter(0, 1, false));
    let root = step.current().expect("the root");
    assert_eq!(root.moves.len(), position.legal_moves().len());
    // After a king move, Black's quiescence node: nothing to capture.
    let mut step = Step::start(&position, true);
    step.apply(&enter(0, 1, false));
    step.apply(&tried(&position, 0, "e1d1"));
    step.apply(&enter(1, 0, true));
    let black = step.current().expect("a quiescence node");
    assert!(black.quiescence);
    assert!(black.moves.is_empty(), "Black has nothing to capture");
    let mut step = Step::start(&position, true);
    step.apply(&TraceEvent::EnterNode {
        ply: 0,
        depth: 0,
        alpha: -INFINITY,
        beta: INFINITY,
        quiescence: false,
    });
    let leaf = step.current().expect("a horizon leaf");
    assert!(leaf.moves.is_empty());
    // A quiescence node at White's turn.
    let white = Frame::new(
        1,
        position.clone(),
        None,
        Via::Pass,
        0,
        (-INFINITY, INFINITY),
        true,
        true,
    );
    let mut moves: Vec<String> = white
        .moves
        .iter()
        .map(|l| l.mv.to_uci(shakmaty::CastlingMode::Standard).to_string())
        .collect();
    moves.sort();
    assert_eq!(moves, ["b7a8b", "b7a8n", "b7a8q", "b7a8r", "b7b8q"]);
}

#[test]
fn a_main_node_below_the_root_narrows_its_window_to_mate_distances() {
    let position = Chess::default();
    let mut step = Step::new(&position, &SearchOptions::default());
    step.apply(&enter(0, 3, false));
    let root = step.current().expect("the root");
    assert_eq!((root.alpha, root.beta), (-INFINITY, INFINITY));
    step.apply(&tried(&position, 0, "e2e4"));
    step.apply(&enter(1, 2, false));
    let child = step.current().expect("a node");
    assert_eq!((child.entry_alpha, child.entry_beta), (-INFINITY, INFINITY));
    // Being mated at ply 1, mating at ply 2.
    assert_eq!((child.alpha, child.beta), (-MATE + 1, MATE - 2));
    // Quiescence nodes, minimax and the textbook search (without the
    // selective search's mate-distance pruning) do not narrow.
    let mut step = Step::new(&position, &SearchOptions::textbook());
    step.apply(&enter(0, 3, false));
    step.apply(&tried(&position, 0, "e2e4"));
    step.apply(&enter(1, 2, false));
    let child = step.current().expect("a node");
    assert_eq!((child.alpha, child.beta), (-INFINITY, INFINITY));
    let mut step = Step::start(&position, false);
    step.apply(&enter(0, 3, false));
    step.apply(&tried(&position, 0, "e2e4"));
    step.apply(&enter(1, 2, false));
    let child = step.current().expect("a node");
    assert_eq!((child.alpha, child.beta), (-INFINITY, INFINITY));
}

#[test]
fn a_returned_value_reaches_the_parent_negated_at_the_next_event() {
    let position = Chess::default();
    let mut step = Step::start(&position, true);
    step.apply(&enter(0, 1, false));
    step.apply(&tried(&position, 0, "e2e4"));
    step.apply(&enter(1, 0, false));
    step.apply(&TraceEvent::LeafEval { ply: 1, value: -30 });
    step.apply(&TraceEvent::Return { ply: 1, value: -30 });
    // The child stays on screen for the step of its return.
    assert_eq!(step.frames.len(), 2);
    assert_eq!(step.frames[0].moves[0].status, MoveStatus::Searching);
    step.apply(&tried(&position, 0, "d2d4"));
    assert_eq!(step.frames.len(), 1);
    let root = &step.frames[0];
    assert_eq!(root.moves[0].status, MoveStatus::Searched(30));
    assert_eq!(root.moves[1].status, MoveStatus::Searching);
    assert_eq!(root.reached, 2);
    assert_eq!(step.counters.leaves, 1);
    assert_eq!(step.counters.main, 2);
}
