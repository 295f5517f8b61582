use super::*;
use crate::game::fen::parse_fen;

/// The position of every node, kept by ply from the events alone: an
/// oracle independent of the replay the narrator uses.
struct Positions {
    root: Chess,
    stack: Vec<Chess>,
    /// Per ply, the move whose subtree comes next (`None`: a pass).
    next: Vec<Option<Move>>,
}

impl Positions {
    fn apply(&mut self, event: &TraceEvent) {
        match *event {
            TraceEvent::EnterNode { ply, .. } => {
                let ply = ply as usize;
                self.stack.truncate(ply);
                let position = match ply.checked_sub(1) {
                    None => self.root.clone(),
                    Some(parent) => {
                        let mut position = self.stack[parent].clone();
                        match self.next[parent] {
                            Some(m) => position.play_unchecked(m),
                            None => position = position.swap_turn().unwrap(),
                        }
                        position
                    }
                };
                self.stack.push(position);
            }
            TraceEvent::MoveTried { ply, mv, .. } | TraceEvent::ReSearch { ply, mv, .. } => {
                self.set_next(ply, Some(mv));
            }
            TraceEvent::NullMove { ply, .. } => self.set_next(ply, None),
            _ => {}
        }
    }

    fn set_next(&mut self, ply: u32, m: Option<Move>) {
        let ply = ply as usize;
        if self.next.len() <= ply {
            self.next.resize(ply + 1, None);
        }
        self.next[ply] = m;
    }
}

/// Every move an event names is written in SAN from the position of
/// the node the event belongs to, whatever the search switched on.
#[test]
fn moves_are_written_from_their_own_node() {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    ];
    let full = SearchOptions::default();
    let option_sets = [
        SearchOptions::textbook(),
        SearchOptions {
            aspiration: false,
            ..full
        },
        SearchOptions {
            quiescence: false,
            transposition_table: false,
            ..SearchOptions::textbook()
        },
        // Minimax's quiescence has no cutoffs and runs to millions of nodes.
        SearchOptions {
            quiescence: false,
            ..SearchOptions::minimax()
        },
    ];
    let mut checked = 0;
    for fen in fens {
        let root = parse_fen(fen).unwrap();
        for options in option_sets {
            let depth = if options.alpha_beta { 3 } else { 2 };
            let mut recorder = Recorder::new(200_000);
            run_trace(&root, &[], depth, options, &mut recorder);
            let mut narrator = Narrator::new(&root, options, false);
            let mut oracle = Positions {
                root: root.clone(),
                stack: Vec::new(),
                next: Vec::new(),
            };
            for event in recorder.events() {
                narrator.apply(event);
                oracle.apply(event);
                if let TraceEvent::MoveTried { ply, mv, .. }
                | TraceEvent::ReSearch { ply, mv, .. }
                | TraceEvent::MovePruned { ply, mv, .. }
                | TraceEvent::AlphaRaised { ply, mv, .. }
                | TraceEvent::BetaCutoff { ply, mv, .. } = *event
                {
                    let expected = san(&oracle.stack[ply as usize], mv);
                    assert_eq!(
                        narrator.san(ply, mv).as_deref(),
                        Some(expected.as_str()),
                        "{fen} {options:?} {event:?}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 10_000, "only {checked} moves checked");
}

#[test]
fn the_description_names_only_what_ran() {
    assert_eq!(
        search_description(&SearchOptions::textbook(), 3),
        "alpha-beta (full window), move ordering, transposition table, quiescence; one search at depth 3"
    );
    let minimax = SearchOptions {
        quiescence: false,
        ..SearchOptions::minimax()
    };
    assert_eq!(
        search_description(&minimax, 2),
        "plain minimax, moves in generation order, static evaluation at the horizon; one search at depth 2"
    );
    let full = SearchOptions::default();
    assert_eq!(
        search_description(&full, 4),
        "principal-variation search, move ordering, transposition table, quiescence, selective: null move, reductions, futility, check extension, no table in quiescence; iterative deepening 1..4"
    );
}
