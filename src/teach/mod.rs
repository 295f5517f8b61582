//! Teaching the search: record one real search of the engine, event by
//! event, and replay it step by step.
//!
//! The record is made once ([`record`]); every step the learner takes,
//! forward or back, is a replay of the log from the nearest snapshot
//! ([`Replay`]), never a new search. Captions ([`caption`]) say in words
//! what each step did and why; [`compare`] runs the same position with the
//! techniques switched on one by one, so the learner sees the same value
//! reached with fewer nodes.
//!
//! Nothing here draws: the board's teach mode and `kibitz trace` both read
//! it.
//!
//! Every search here runs on one thread, whatever the `threads` setting:
//! a recording must be the same tree each time it is made, and threads
//! racing through a shared table (Lazy SMP) would make each run differ.

pub mod caption;
pub mod compare;
pub mod export;
pub mod game_tree;
pub mod positions;
pub mod predict;
pub mod replay;
pub mod step;
pub mod tree;
pub mod tree_text;
pub mod values;

use std::sync::Arc;
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move, Position};

use crate::engine::protocol::{Limits, SearchOptions};
use crate::engine::search;
use crate::engine::stats::SearchStats;
use crate::engine::trace::{Recorder, TraceEvent};

pub use game_tree::GameTree;
pub use positions::{TeachingPosition, positions};
pub use replay::Replay;
pub use step::{Frame, MoveLine, MoveStatus, Step, Via};

/// Depths teach mode offers: deeper trees are too large to follow.
pub const MIN_DEPTH: u32 = 1;
pub const MAX_DEPTH: u32 = 6;
pub const DEFAULT_DEPTH: u32 = 3;
/// The most events a record keeps (about 40 MB); a larger search is
/// refused with advice on making it smaller.
pub const MAX_EVENTS: usize = 1_500_000;
/// Table size for recorded searches, MiB: large enough that nothing a
/// recordable search stores is overwritten.
const HASH_MB: usize = 16;

/// A lesson about one move of its position (a reviewed mistake, `kibitz
/// teach --played`): the title, a note shown above every step's caption,
/// and the line (SAN from the root) to open at once the search is recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Focus {
    pub title: String,
    pub note: String,
    pub goto: String,
}

/// What to record: a position (or a hand-made game tree), a depth and the
/// techniques switched on.
#[derive(Debug, Clone, PartialEq)]
pub struct Setup {
    /// The chess position searched; with a game tree, the start position,
    /// which nothing shows.
    pub position: Chess,
    /// A hand-made game tree to search instead of the position.
    pub tree: Option<Arc<GameTree>>,
    /// Keys of the positions before it, for repetitions.
    pub history: Vec<u64>,
    pub depth: u32,
    pub options: SearchOptions,
}

impl Setup {
    pub fn new(position: Chess, depth: u32) -> Setup {
        Setup {
            position,
            tree: None,
            history: Vec::new(),
            depth: depth.clamp(MIN_DEPTH, MAX_DEPTH),
            options: SearchOptions::textbook(),
        }
    }

    /// A lesson on a hand-made tree, searched to `depth` plies (at most its
    /// height: `None` searches it whole) with plain alpha-beta in the order
    /// the tree was written in.
    pub fn game_tree(tree: GameTree, depth: Option<u32>) -> Setup {
        let height = tree.height().max(1);
        Setup {
            position: Chess::default(),
            depth: depth.unwrap_or(height).clamp(1, height),
            tree: Some(Arc::new(tree)),
            history: Vec::new(),
            options: game_tree::default_options(),
        }
    }

    /// The step before the first event of this setup's search.
    pub fn first_step(&self) -> Step {
        match &self.tree {
            Some(tree) => Step::for_tree(&self.position, Arc::clone(tree), &self.options),
            None => Step::new(&self.position, &self.options),
        }
    }

    /// A move of the root as a learner reads it (SAN, or a tree's node
    /// name).
    pub fn root_move_name(&self, mv: Move) -> String {
        match &self.tree {
            Some(tree) => tree.move_name(0, mv),
            None => caption::san(&self.position, mv),
        }
    }
}

/// A finished record of one search.
#[derive(Debug, Clone)]
pub struct Recording {
    pub setup: Setup,
    /// The engine's move memory at the end of the search: the history
    /// heuristic and counter-moves, which the record does not follow step
    /// by step (the move tables it does).
    pub memory: Arc<crate::engine::movetables::TableWeights>,
    pub events: Vec<TraceEvent>,
    /// The root value, from the side to move's view.
    pub value: i32,
    pub pv: Vec<Move>,
    pub best_move: Option<Move>,
    pub stats: SearchStats,
    /// How long recording took.
    pub elapsed: Duration,
}

/// The algorithm in words, as the search runs it (the switches that apply:
/// see [`effective_options`]): "principal-variation search + ordering +
/// table + quiescence".
pub fn algorithm_text(options: SearchOptions) -> String {
    let o = &effective_options(options);
    let mut parts = vec![if o.move_chains {
        "move chains"
    } else if !o.alpha_beta {
        "minimax"
    } else if o.pvs {
        "principal-variation search"
    } else {
        "alpha-beta"
    }];
    if o.move_chains && o.table_moves > 0 {
        parts.push("tables");
    }
    if o.move_ordering {
        parts.push("ordering");
    }
    if o.transposition_table {
        parts.push("table");
    }
    if o.quiescence {
        parts.push("quiescence");
    }
    if o.selective {
        parts.push("selective");
    }
    parts.join(" + ")
}

/// The depth a lesson searches: "depth 3", or "depths 1 to 3" with
/// iterative deepening.
pub fn depth_text(options: SearchOptions, depth: u32) -> String {
    if effective_options(options).iterative_deepening {
        format!("depths 1 to {depth}")
    } else {
        format!("depth {depth}")
    }
}

/// Why a search could not be recorded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error(
        "This search is too large to follow: over {max} steps at depth {depth}; {advice}",
        max = values::count_text(*.max as u64)
    )]
    TooLarge {
        max: usize,
        depth: u32,
        advice: &'static str,
    },
    #[error("the game is over in this position: there is no move to search")]
    NoMoves,
    #[error("recording was cancelled")]
    Cancelled,
}

/// The search the switches in `options` run. Alpha-beta off is plain
/// minimax ([`compare::plain_minimax`]): move ordering, the transposition
/// table and quiescence only make sense with alpha-beta's cutoffs (and
/// principal-variation search, the selective search and iterative
/// deepening work through its windows), so they do not apply. The
/// comparison's "minimax" row is then the very search being watched.
pub fn effective_options(options: SearchOptions) -> SearchOptions {
    if options.move_chains {
        // Greer's move-chain search is one fixed-depth, full-window
        // alpha-beta with no table of positions (see
        // `engine/chain_search.rs`): the switches it has no use for are off.
        SearchOptions {
            alpha_beta: true,
            transposition_table: false,
            pvs: false,
            iterative_deepening: false,
            aspiration: false,
            // Its quiescence is the plain one (see `chain_search.rs`).
            selective: false,
            ..options
        }
    } else if options.alpha_beta {
        options
    } else {
        compare::plain_minimax()
    }
}

/// How to make a search small enough to record.
pub fn advice(options: &SearchOptions) -> &'static str {
    if !options.alpha_beta {
        "switch alpha-beta on, or lower the depth"
    } else if options.quiescence {
        "lower the depth or switch quiescence off"
    } else if !options.move_ordering {
        "lower the depth or switch move ordering on"
    } else {
        "lower the depth"
    }
}

/// Record the engine's own search of `setup`, keeping at most `max_events`
/// events. `stop` is polled during the search: `true` cancels it.
pub fn record(
    setup: &Setup,
    max_events: usize,
    stop: &dyn Fn() -> bool,
) -> Result<Recording, RecordError> {
    if let Some(tree) = &setup.tree {
        return Ok(record_tree(setup, tree));
    }
    if setup.position.legal_moves().is_empty() {
        return Err(RecordError::NoMoves);
    }
    let setup = &Setup {
        options: effective_options(setup.options),
        ..setup.clone()
    };
    let started = Instant::now();
    let mut recorder = Recorder::bounded(max_events);
    // A fresh table and heuristics, as `search_fresh_until` makes, kept
    // here so the history the search learnt can be shown after it.
    let mut tt = crate::engine::tt::TranspositionTable::new(HASH_MB);
    let mut heuristics = Box::<crate::engine::heuristics::Heuristics>::default();
    let result = search::search_kept(
        &setup.position,
        &setup.history,
        &Limits::depth(setup.depth),
        setup.options,
        (&mut tt, &mut heuristics),
        stop,
        &mut recorder,
    );
    // A full recorder stops the search at its next node, so a search that
    // ended with the record exactly full, nothing dropped and its depth
    // finished, fitted.
    let finished = result.depth >= setup.depth;
    if recorder.overflowed() && (recorder.dropped() > 0 || !finished) {
        return Err(RecordError::TooLarge {
            max: max_events,
            depth: setup.depth,
            advice: advice(&setup.options),
        });
    }
    if stop() || !finished {
        return Err(RecordError::Cancelled);
    }
    let pv = result
        .lines
        .first()
        .map(|line| line.pv.clone())
        .unwrap_or_default();
    Ok(Recording {
        memory: Arc::new(heuristics.maps()),
        setup: setup.clone(),
        events: recorder.into_events(),
        value: result.value,
        pv,
        best_move: result.best_move,
        stats: result.stats,
        elapsed: started.elapsed(),
    })
}

/// Record the search of a hand-made tree (small by construction: a tree
/// of at most `game_tree::MAX_NODES` nodes, searched at most once per
/// iteration, stays far below any record's limit).
fn record_tree(setup: &Setup, tree: &GameTree) -> Recording {
    let started = Instant::now();
    let mut recorder = Recorder::new(usize::MAX);
    let outcome = game_tree::search::search(tree, &setup.options, setup.depth, &mut recorder);
    let pv: Vec<Move> = outcome
        .pv
        .iter()
        .map(|&i| game_tree::child_move(i))
        .collect();
    Recording {
        memory: Arc::default(),
        setup: setup.clone(),
        events: recorder.into_events(),
        value: outcome.value,
        best_move: pv.first().copied(),
        pv,
        stats: outcome.stats,
        elapsed: started.elapsed(),
    }
}

/// Record and prepare the replay in one go (what the board runs in the
/// background).
pub fn record_replay(
    setup: &Setup,
    max_events: usize,
    stop: &dyn Fn() -> bool,
) -> Result<Arc<Replay>, RecordError> {
    record(setup, max_events, stop).map(|recording| Arc::new(Replay::new(recording)))
}
