//! The `Searcher`: the state one search thread carries through the tree,
//! shared by every part of the search (`root.rs`, `negamax.rs`, `pvs.rs`,
//! `selective.rs`, `qsearch.rs`), and its bookkeeping: counting nodes,
//! watching the clock and the stop signal, sending progress reports, asking
//! and filling the transposition table, evaluating through the cache, and
//! recording what it does when a trace is kept.
//!
//! The types a search is given and returns (`SearchContext`,
//! `SearchResult`, `Progress`) live here too, so that the entry points
//! (`search.rs`) and the Lazy SMP team (`smp.rs`), which both build
//! searchers, depend on this file and not on each other.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use shakmaty::{Chess, EnPassantMode, Move, Position};

use super::eval::evaluate_white;
use super::heuristics::Heuristics;
use super::movegen::king_step_key;
use super::movetables::TableWeights;
use super::protocol::{Bound, Limits, Score, SearchInfo, SearchOptions, position_key};
use super::stats::SearchStats;
use super::time::{TimeBudget, budget};
use super::trace::{Estimate, Pruning, Shortcut, TraceEvent, Tracer, TtBound, TtEntry};
use super::tt::{PackedMove, TranspositionTable, TtHit};
use super::values::{MATE, MATE_BOUND, MAX_PLY};

/// Deepest iteration the engine will start.
pub const MAX_DEPTH: u32 = 100;

// Tuning constants, in plies or centipawns.
/// How often (in nodes) to look at the clock and the stop flag.
const POLL_INTERVAL: u64 = 1024;

/// In `Searcher::evals`: no static evaluation at that ply (in check, or
/// not worked out).
pub(super) const NO_EVAL: i32 = i32::MIN / 2;
/// Heartbeat reports during a long iteration.
const REPORT_INTERVAL: Duration = Duration::from_millis(200);

/// A mate score in plies from the root, as UCI wants it: mate in N moves.
pub fn value_to_score(value: i32) -> Score {
    if value >= MATE_BOUND {
        Score::Mate((MATE - value + 1) / 2)
    } else if value <= -MATE_BOUND {
        Score::Mate(-(MATE + value) / 2)
    } else {
        Score::Centipawns(value)
    }
}

/// One finished line (MultiPV), as reported.
#[derive(Debug, Clone)]
pub struct Line {
    pub value: i32,
    pub score: Score,
    pub pv: Vec<Move>,
    pub depth: u32,
    pub seldepth: u32,
}

/// What a finished search returns.
#[derive(Debug, Clone)]
pub struct SearchResult {
    pub best_move: Option<Move>,
    pub ponder: Option<Move>,
    /// Value of the best line, engine units, side to move's view.
    pub value: i32,
    pub score: Score,
    /// What `value` is: exact, or (when the search stopped during an
    /// iteration whose best so far it keeps) a lower bound.
    pub bound: Bound,
    /// Depth of the last finished iteration.
    pub depth: u32,
    pub lines: Vec<Line>,
    pub nodes: u64,
    pub elapsed: Duration,
    pub stats: SearchStats,
}

/// What the search tells its owner as it goes.
#[derive(Debug, Clone)]
pub enum Progress {
    /// A line finished (or a heartbeat repeating the last one).
    Line(SearchInfo),
    /// The statistics and the move tables' weights, at the end of each
    /// finished iteration.
    Stats(SearchStats, std::sync::Arc<TableWeights>),
}

/// What the search needs from its owner.
pub struct SearchContext<'a> {
    /// Shared with the helper threads, if any: the table is lock-free.
    pub tt: &'a TranspositionTable,
    pub heuristics: &'a mut Heuristics,
    /// Lazy SMP (see `smp.rs`): one helper thread searches beside this one
    /// for each entry, with that entry as its move-ordering memory. Empty:
    /// this thread searches alone.
    pub helpers: &'a mut [Heuristics],
    /// Polled every few thousand nodes; `true` ends the search.
    pub stop: &'a dyn Fn() -> bool,
    /// Receives every progress report.
    pub on_info: &'a mut dyn FnMut(Progress),
    pub search_id: u64,
    /// When the clock started for this search (usually when the request
    /// arrived, which may be a little before the search starts).
    pub clock_start: Instant,
    /// Endgame tables the search may consult.
    pub tablebases: Option<&'a crate::tablebase::Tablebases>,
    /// The evaluation network, if the search should use it instead of the
    /// hand-written evaluation (see `nnue.rs`).
    pub network: Option<&'a super::nnue::Network>,
}

pub(super) struct Searcher<'a, 'c, T: Tracer> {
    pub(super) ctx: &'a mut SearchContext<'c>,
    pub(super) tracer: &'a mut T,
    pub(super) options: SearchOptions,
    pub(super) start: Instant,
    pub(super) budget: TimeBudget,
    pub(super) node_limit: Option<u64>,
    pub(super) nodes: u64,
    pub(super) seldepth: u32,
    pub(super) stats: SearchStats,
    /// Keys of the game's positions and then of the current line, for
    /// repetition detection; `path[path.len() - 1]` is the current node.
    pub(super) path: Vec<u64>,
    /// Where the root stands in `path`: the keys before it are the game's.
    pub(super) root_index: usize,
    /// Triangular PV table: `pv[ply]` is the best line found from `ply`.
    pub(super) pv: Vec<Vec<Move>>,
    /// `played[ply]` is the move that led to the node at `ply` (none at the
    /// root and after a null move).
    pub(super) played: Vec<Option<Move>>,
    pub(super) stopped: bool,
    pub(super) last_report: Instant,
    pub(super) current_depth: u32,
    /// The depth of the first iteration (1 with iterative deepening).
    pub(super) first_depth: u32,
    pub(super) last_lines: Vec<Line>,
    /// In the running iteration, the last root move proven better than
    /// alpha: if time runs out before the iteration ends, it is still a
    /// better choice than the previous iteration's move.
    pub(super) iteration_best: Option<Line>,
    /// Log-log table for late-move reductions.
    pub(super) reductions: Vec<[i32; 64]>,
    /// `excluded[ply]`: the move a singular-extension test leaves out of
    /// the node at `ply` (see `negamax`).
    pub(super) excluded: Vec<Option<Move>>,
    /// `evals[ply]`: the corrected static evaluation of the node at `ply`
    /// on the current line, `NO_EVAL` when it was in check or not
    /// evaluated; whether the side to move is improving compares it with
    /// the side's own last turn, two plies up (see `negamax.rs`).
    pub(super) evals: Vec<i32>,
    /// While a null move's cutoff is being verified (see `selective.rs`):
    /// the side whose null moves are off, and the ply from which on they
    /// are allowed again.
    pub(super) null_verification: Option<(shakmaty::Color, u32)>,
    /// Which thread this is: the one that reports and answers, or a helper.
    pub(super) role: Role<'a>,
    /// The evaluation network's sums along the current line, when the
    /// search evaluates with a network.
    pub(super) nnue: Option<super::nnue::Stack>,
}

/// A search thread's part in a Lazy SMP team (see `smp.rs`).
pub(super) enum Role<'a> {
    /// The thread whose result is the answer and which sends the reports;
    /// also the only thread of a single-threaded search. `helper_nodes`
    /// counts what the helpers have searched so far, for `nodes` and `nps`.
    Main { helper_nodes: Option<&'a AtomicU64> },
    /// Helper `index` (from 1): searches only to fill the shared table,
    /// reports nothing, and adds its node count to `nodes` every
    /// `POLL_INTERVAL` nodes (`published` is the part already added).
    Helper {
        index: usize,
        nodes: &'a AtomicU64,
        published: u64,
    },
}

impl<'a, 'c, T: Tracer> Searcher<'a, 'c, T> {
    pub(super) fn new(
        position: &Chess,
        history: &[u64],
        limits: &Limits,
        options: SearchOptions,
        ctx: &'a mut SearchContext<'c>,
        tracer: &'a mut T,
        role: Role<'a>,
    ) -> Searcher<'a, 'c, T> {
        let mut path = history.to_vec();
        path.push(position_key(position));
        let reductions = options.params.reductions();
        let now = ctx.clock_start;
        let nnue = ctx
            .network
            .map(|net| super::nnue::Stack::new(net, position.board(), MAX_PLY + 2));
        Searcher {
            nnue,
            ctx,
            tracer,
            options: SearchOptions {
                multipv: options.multipv.max(1),
                ..options
            },
            start: now,
            budget: budget(limits, position.turn()),
            node_limit: limits.nodes,
            nodes: 0,
            seldepth: 0,
            stats: SearchStats::default(),
            root_index: history.len(),
            path,
            pv: vec![Vec::new(); MAX_PLY + 1],
            played: vec![None; MAX_PLY + 2],
            stopped: false,
            last_report: Instant::now(),
            current_depth: 0,
            first_depth: 1,
            last_lines: Vec::new(),
            iteration_best: None,
            reductions,
            excluded: vec![None; MAX_PLY + 2],
            evals: vec![NO_EVAL; MAX_PLY + 2],
            null_verification: None,
            role,
        }
    }
}

impl<T: Tracer> Searcher<'_, '_, T> {
    /// Record why a node ends early, and return its value.
    pub(super) fn shortcut(&mut self, ply: u32, reason: Shortcut, value: i32) -> i32 {
        if T::ENABLED {
            self.tracer
                .record(TraceEvent::Shortcut { ply, reason, value });
        }
        self.leave(ply, value)
    }

    pub(super) fn record_pruned(
        &mut self,
        ply: u32,
        mv: Move,
        reason: Pruning,
        estimate: Option<Estimate>,
    ) {
        if T::ENABLED {
            self.tracer.record(TraceEvent::MovePruned {
                ply,
                mv,
                reason,
                estimate,
            });
        }
    }

    /// Poll the clock, node limit and stop flag; send a heartbeat report.
    pub(super) fn poll(&mut self) {
        if let Some(limit) = self.node_limit
            && self.nodes >= limit
        {
            self.stopped = true;
            return;
        }
        if !self.nodes.is_multiple_of(POLL_INTERVAL) {
            return;
        }
        self.publish_nodes();
        if (self.ctx.stop)() {
            self.stopped = true;
            return;
        }
        let elapsed = self.elapsed();
        if let Some(hard) = self.budget.hard
            && elapsed >= hard
        {
            self.stopped = true;
            return;
        }
        if self.last_report.elapsed() >= REPORT_INTERVAL {
            self.heartbeat();
        }
    }

    /// A helper adds the nodes it searched since last time to the team's
    /// count (once every `POLL_INTERVAL` nodes, so threads rarely touch the
    /// shared counter).
    pub(super) fn publish_nodes(&mut self) {
        if let Role::Helper {
            nodes, published, ..
        } = &mut self.role
        {
            nodes.fetch_add(self.nodes - *published, Ordering::Relaxed);
            *published = self.nodes;
        }
    }

    /// Nodes searched so far by every thread of the search.
    pub(super) fn team_nodes(&self) -> u64 {
        match self.role {
            Role::Main {
                helper_nodes: Some(helpers),
            } => self.nodes + helpers.load(Ordering::Relaxed),
            _ => self.nodes,
        }
    }

    pub(super) fn is_helper(&self) -> bool {
        matches!(self.role, Role::Helper { .. })
    }

    /// Ask the transposition table about a node. Returns the entry, if any,
    /// and its value when the entry answers the node outright: deep enough,
    /// with a bound that settles it. With principal-variation search only
    /// null-window nodes take the answer: at PV nodes the search goes on, so
    /// the principal variation stays whole. Textbook alpha-beta has no null
    /// windows, so there every node takes it.
    pub(super) fn probe_table(
        &mut self,
        key: u64,
        ply: u32,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> (Option<TtHit>, Option<i32>) {
        if !self.options.transposition_table {
            return (None, None);
        }
        self.stats.totals.tt_probes += 1;
        let hit = self.ctx.tt.probe(key, ply);
        let cutoff = hit.and_then(|hit| {
            let settles = match hit.bound {
                TtBound::Exact => true,
                TtBound::Lower => hit.value >= beta,
                TtBound::Upper => hit.value <= alpha,
            };
            let answers_here = beta - alpha == 1 || !self.options.pvs;
            // A singular-extension test searches this position without one
            // move: the entry, for the whole position, does not answer it.
            let excluded = self.excluded.get(ply as usize).is_some_and(Option::is_some);
            (answers_here && !excluded && hit.depth >= depth && settles).then_some(hit.value)
        });
        if hit.is_some() {
            self.stats.totals.tt_hits += 1;
        }
        if cutoff.is_some() {
            self.stats.totals.tt_cutoffs += 1;
        }
        if T::ENABLED {
            self.tracer.record(TraceEvent::TtProbe {
                ply,
                hit: hit.is_some(),
                cutoff: cutoff.is_some(),
                entry: hit.map(|hit| TtEntry {
                    depth: hit.depth,
                    value: hit.value,
                    bound: hit.bound,
                    has_move: hit.best_move != PackedMove::NONE,
                }),
            });
        }
        (hit, cutoff)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn store(
        &mut self,
        key: u64,
        ply: u32,
        depth: i32,
        value: i32,
        alpha: i32,
        beta: i32,
        best_move: Option<Move>,
    ) {
        if !self.options.transposition_table || self.stopped {
            return;
        }
        let bound = if value <= alpha {
            TtBound::Upper
        } else if value >= beta {
            TtBound::Lower
        } else {
            TtBound::Exact
        };
        // A node that failed low has no best move worth remembering: every
        // move was only shown to be worse than alpha. Storing none keeps the
        // move an earlier, deeper search may have left.
        let packed = match best_move {
            Some(m) if bound != TtBound::Upper => PackedMove::new(m),
            _ => PackedMove::NONE,
        };
        self.ctx.tt.store(key, ply, depth, value, bound, packed);
        if T::ENABLED {
            self.tracer.record(TraceEvent::TtStore {
                ply,
                depth,
                value,
                bound,
            });
        }
    }

    /// The static evaluation for the side to move. The hand-written one
    /// comes from the cache when this position was evaluated before (the
    /// same number either way). The network's does not: bringing its sums
    /// up to date costs a few rows' additions, less than the trip to main
    /// memory a look in the cache's 512 KiB often is, and the sums are
    /// then fresh for the children too (measured: `kibitz bench --eval
    /// builtin` about 8% faster without the cache, the same nodes).
    pub(super) fn evaluate(&mut self, position: &Chess, key: u64, ply: u32) -> i32 {
        if let Some((net, stack)) = self.ctx.network.zip(self.nnue.as_mut()) {
            return stack.evaluate(net, ply as usize, position.board(), position.turn());
        }
        let evals = &mut self.ctx.heuristics.evals;
        let white = evals.get(key).unwrap_or_else(|| {
            let value = evaluate_white(position.board());
            evals.put(key, value);
            value
        });
        if position.turn().is_white() {
            white
        } else {
            -white
        }
    }

    /// Count a node, look at the clock and record the node's window.
    /// Returns false when the search must stop.
    #[inline]
    pub(super) fn enter(
        &mut self,
        ply: u32,
        depth: i32,
        alpha: i32,
        beta: i32,
        quiescence: bool,
    ) -> bool {
        self.nodes += 1;
        if quiescence {
            self.stats.totals.quiescence += 1;
        } else {
            self.stats.totals.main += 1;
        }
        self.poll();
        if T::ENABLED && self.tracer.is_full() {
            self.stopped = true;
        }
        if self.stopped {
            return false;
        }
        self.seldepth = self.seldepth.max(ply);
        if T::ENABLED {
            self.tracer.record(TraceEvent::EnterNode {
                ply,
                depth,
                alpha,
                beta,
                quiescence,
            });
        }
        true
    }

    /// Record the value a node returns.
    pub(super) fn leave(&mut self, ply: u32, value: i32) -> i32 {
        if T::ENABLED {
            self.tracer.record(TraceEvent::Return { ply, value });
        }
        value
    }
}

impl<T: Tracer> Searcher<'_, '_, T> {
    /// Steps from `ply` into the child that `m` (`None`: the null move)
    /// leads to, whose key is `child_key`: the network's accumulators, the
    /// path of keys that repetitions are found on, and the move that led
    /// there, which the move tables' links start from. The caller pops the
    /// path on the way back.
    #[inline]
    pub(super) fn enter_child(
        &mut self,
        ply: u32,
        turn: shakmaty::Color,
        m: Option<Move>,
        child_key: u64,
    ) {
        self.moved(ply + 1, turn, m);
        self.path.push(child_key);
        if let Some(slot) = self.played.get_mut(ply as usize + 1) {
            *slot = m;
        }
    }

    /// Tell the network's sums (if the search uses a network) that the
    /// position at `ply` is its parent's after `turn` played `m`; `None`
    /// for a null move.
    #[inline]
    pub(super) fn moved(&mut self, ply: u32, turn: shakmaty::Color, m: Option<Move>) {
        if let Some(stack) = &mut self.nnue {
            let delta = m.map_or(super::nnue::Delta::NONE, |m| {
                super::nnue::Delta::of(turn, m)
            });
            stack.push(ply as usize, delta);
        }
    }
}

/// The position after `m` and its key, updated incrementally from `key`
/// where shakmaty can and recomputed otherwise. The key is worked out
/// before the move is made, so the table's bucket for it can be on its way
/// from memory while the board is copied and updated: `tt` is the table
/// when the child will probe it, `None` when it will not (the engine's
/// quiescence search), where a prefetch would only spend memory bandwidth
/// and push useful lines out of the cache. Inlined, so the child is built
/// in the caller's frame instead of copied out of this one.
#[inline(always)]
pub(super) fn play_with_key(
    tt: Option<&TranspositionTable>,
    position: &Chess,
    key: u64,
    m: Move,
) -> (Chess, u64) {
    let incremental = match position.update_zobrist_hash(
        shakmaty::zobrist::Zobrist64(key),
        m,
        EnPassantMode::Legal,
    ) {
        Some(z) => Some(z),
        None => king_step_key(position, key, m),
    };
    if let (Some(z), Some(tt)) = (incremental, tt) {
        tt.prefetch(z.0);
    }
    let mut child = position.clone();
    child.play_unchecked(m);
    let child_key = incremental.map_or_else(|| position_key(&child), |z| z.0);
    (child, child_key)
}

#[cfg(test)]
mod tests {
    use super::super::movegen::passed_key;
    use super::*;

    /// The child's key made from the parent's (shakmaty's update, or the
    /// king's step) is the key worked out from nothing, for every legal
    /// move along random games, king moves with and without castling
    /// rights and en passant squares among them; so is a null move's.
    #[test]
    fn child_keys_match_the_keys_worked_out_from_nothing() {
        let starts = [
            super::super::random_walks::TRICKY.as_slice(),
            &[
                "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
                "8/8/3k4/8/2pP4/8/8/4K3 b - d3 0 1",
                "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1",
            ],
        ]
        .concat();
        let mut king_steps = 0;
        super::super::random_walks::walk(&starts, 0x0dd1_5ea5_e5c0_ffee, |pos, legal| {
            let key = position_key(pos);
            for &m in legal {
                let (child, child_key) = play_with_key(None, pos, key, m);
                assert_eq!(child_key, position_key(&child), "{m:?}");
                king_steps += usize::from(king_step_key(pos, key, m).is_some());
            }
            if let Ok(passed) = pos.clone().swap_turn() {
                assert_eq!(passed_key(pos, key, &passed), position_key(&passed));
            }
        });
        assert!(king_steps > 1_000, "{king_steps}");
    }
}
