//! The same position and depth searched five ways, each adding one
//! technique: plain minimax, alpha-beta in generation order, with move
//! ordering, with the transposition table, with quiescence. The first four
//! reach the same root value (pruning, ordering and the table change the
//! cost, never the result); quiescence changes the value, because it looks
//! past the horizon.

use shakmaty::Chess;

use crate::engine::protocol::{Limits, SearchOptions};
use crate::engine::search;
use crate::engine::trace::NoTrace;

/// Searches stop after this many nodes and report "more than" it:
/// minimax's tree grows by the branching factor (about 35) per ply.
pub const NODE_CAP: u64 = 2_000_000;

/// One way of searching.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Method {
    pub label: &'static str,
    pub options: SearchOptions,
}

/// Plain minimax: every move of every node searched with no window, in
/// generation order, with no table, scored by the static evaluation at
/// the horizon. What the comparison's first row runs, and what switching
/// alpha-beta off runs, whatever the other switches say.
pub fn plain_minimax() -> SearchOptions {
    SearchOptions {
        quiescence: false,
        ..SearchOptions::minimax()
    }
}

/// The five methods, each one technique more than the one before.
pub fn methods() -> [Method; 5] {
    let no_quiescence = |options: SearchOptions| SearchOptions {
        quiescence: false,
        ..options
    };
    let textbook = SearchOptions::textbook();
    [
        Method {
            label: "minimax",
            options: plain_minimax(),
        },
        Method {
            label: "alpha-beta",
            options: no_quiescence(SearchOptions {
                move_ordering: false,
                transposition_table: false,
                ..textbook
            }),
        },
        Method {
            label: "+ ordering",
            options: no_quiescence(SearchOptions {
                transposition_table: false,
                ..textbook
            }),
        },
        Method {
            label: "+ table",
            options: no_quiescence(textbook),
        },
        Method {
            label: "+ quiescence",
            options: textbook,
        },
    ]
}

/// What one method cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Done {
        /// Root value, side to move's view.
        value: i32,
        nodes: u64,
        leaves: u64,
    },
    /// Stopped at the node cap.
    TooLarge {
        cap: u64,
    },
    Cancelled,
}

/// Search `position` to `depth` with `method`, at most `cap` nodes.
pub fn run(
    position: &Chess,
    history: &[u64],
    depth: u32,
    method: &Method,
    cap: u64,
    stop: &dyn Fn() -> bool,
) -> Outcome {
    let limits = Limits {
        nodes: Some(cap),
        ..Limits::depth(depth)
    };
    let result = search::search_fresh_until(
        position,
        history,
        &limits,
        method.options,
        16,
        stop,
        &mut NoTrace,
    );
    if stop() {
        Outcome::Cancelled
    } else if result.nodes >= cap {
        Outcome::TooLarge { cap }
    } else {
        Outcome::Done {
            value: result.value,
            nodes: result.nodes,
            leaves: result.stats.totals.leaves,
        }
    }
}

/// The five ways a hand-made tree is compared: minimax, alpha-beta in the
/// tree's order, the same best first, principal-variation search in the
/// tree's order, and best first (the table, quiescence and the selective
/// search have no meaning on a tree).
pub fn tree_methods() -> [Method; 5] {
    let tree = super::game_tree::default_options();
    [
        Method {
            label: "minimax",
            options: SearchOptions {
                alpha_beta: false,
                ..tree
            },
        },
        Method {
            label: "alpha-beta",
            options: tree,
        },
        Method {
            label: "+ best first",
            options: SearchOptions {
                move_ordering: true,
                ..tree
            },
        },
        Method {
            label: "PVS",
            options: SearchOptions { pvs: true, ..tree },
        },
        Method {
            label: "+ best first",
            options: SearchOptions {
                pvs: true,
                move_ordering: true,
                ..tree
            },
        },
    ]
}

/// Search a hand-made tree to `depth` with `method` (instant: a tree is
/// small by construction).
pub fn run_tree(tree: &super::GameTree, depth: u32, method: &Method) -> Outcome {
    let outcome = super::game_tree::search::search(tree, &method.options, depth, &mut NoTrace);
    Outcome::Done {
        value: outcome.value,
        nodes: outcome.stats.totals.nodes(),
        leaves: outcome.stats.totals.leaves,
    }
}
