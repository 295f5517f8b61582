//! Iterative deepening and the root of the tree.
//!
//! The root is searched differently from the nodes below it: every root
//! move keeps its own value and principal variation, so the next iteration
//! can try the best one first and MultiPV can report several lines; the
//! window around the previous iteration's value is narrow (aspiration) and
//! widens when the value falls outside it; and the engine reports progress
//! as each line is finished.

use std::time::{Duration, Instant};

use shakmaty::{Chess, Move, Position};

use super::ordering::MovePicker;
use super::ordering::TableChoice;
use super::protocol::{Bound, Limits, Score, SearchInfo};
use super::searcher::{Line, MAX_DEPTH, Progress, SearchResult, Searcher, value_to_score};
use super::stats::IterationStats;
use super::time::{NEW_ITERATION_SHARE, time_scale};
use super::trace::{OrderReason, TraceEvent, Tracer};
use super::values::{INFINITY, MATE, MATE_BOUND};

/// How many iterations in a row must return the same mate before a timed
/// search stops early on it.
const MATE_STABLE_ITERATIONS: u32 = 4;

/// Plies beyond twice a mate's length that `go mate N` searches. Measured
/// with `kibitz analyze`: of 80 mates in 2 of the suite, all were found by
/// depth 3; of 14 mates in 3, 13 by depth 9 (the last not by depth 16).
const MATE_SEARCH_MARGIN: u32 = 4;

/// How deep a lone legal move is searched in a game before it is played:
/// deep enough for a score a GUI may show (a two-ply look scored a move
/// that loses the queen three plies later as winning a piece: -1.86 where
/// the truth is about +4), and a few milliseconds, so the clock hardly
/// moves (the hard limit still bounds it).
const FORCED_MOVE_DEPTH: u32 = 10;

/// One root move and what the last iteration learned about it.
#[derive(Debug, Clone)]
pub(super) struct RootMove {
    mv: Move,
    value: i32,
    previous_value: i32,
    pv: Vec<Move>,
    reason: OrderReason,
    seldepth: u32,
}

impl<T: Tracer> Searcher<'_, '_, T> {
    pub(super) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    fn nps(&self) -> u64 {
        let micros = self.elapsed().as_micros().max(1);
        (u128::from(self.team_nodes()) * 1_000_000 / micros) as u64
    }

    /// Iterative deepening over the root moves.
    pub(super) fn iterate(&mut self, position: &Chess, limits: &Limits) -> SearchResult {
        let mut root_moves = self.root_moves(position);
        // UCI `searchmoves`: the others are not searched at all.
        if !limits.search_moves.is_empty() {
            root_moves.retain(|m| limits.search_moves.contains(&m.mv));
        }
        // `go mate N` ends by itself: a mate in N moves is 2N - 1 plies
        // deep, but the search reduces and prunes moves on the way, so it
        // may need more plies to see it. It goes to twice that and a few
        // plies more (MATE_SEARCH_MARGIN); finding no mate by then, it ends
        // with its best move, as at any other depth limit.
        let mate_depth = limits
            .mate
            .map(|n| 2 * n.saturating_mul(2).saturating_sub(1) + MATE_SEARCH_MARGIN);
        let max_depth = limits
            .depth
            .or(mate_depth)
            .unwrap_or(MAX_DEPTH)
            .clamp(1, MAX_DEPTH);
        // Without iterative deepening there is one search, at the full depth.
        let first_depth = if self.options.iterative_deepening {
            1
        } else {
            max_depth
        };
        self.first_depth = first_depth;
        let multipv = self.options.multipv.min(root_moves.len()).max(1);
        let mut completed: Vec<Line> = Vec::new();
        let mut completed_depth = 0;
        // Whether the first line is the best of an iteration cut short: its
        // value is then only a lower bound on that depth's value (the moves
        // not yet searched might do better, and a fail-high's value is a
        // bound itself).
        let mut first_bound = Bound::Exact;
        // The last iteration's best value and how many iterations in a row
        // returned it (for stopping early on a mate).
        let mut mate_value = 0;
        let mut mate_streak = 0u32;
        // How many iterations in a row kept the best move of the one
        // before (for the clock: see `time_scale`).
        let mut stable_iterations = 0u32;

        // One legal move in a game: play it after a short search for its
        // score ([`FORCED_MOVE_DEPTH`] plies, a few milliseconds), since a
        // GUI and the engine panel show that score. Only in a game:
        // wherever the score is what the search is for (analysis, a
        // review's evaluations, UCI `go movetime`), the lone move is
        // searched like any other.
        let forced = root_moves.len() == 1 && self.budget.hard.is_some() && limits.plays_a_game();

        if !root_moves.is_empty() {
            for depth in first_depth..=max_depth {
                if self.skips_depth(depth) {
                    continue;
                }
                self.current_depth = depth;
                self.iteration_best = None;
                if T::ENABLED {
                    self.tracer.record(TraceEvent::Iteration {
                        depth: depth as i32,
                    });
                }
                let before = self.stats.totals;
                let mut lines = Vec::with_capacity(multipv);
                for pv_index in 0..multipv {
                    let previous = completed.get(pv_index).map(|l: &Line| l.value);
                    let value = self.aspiration(
                        position,
                        &mut root_moves,
                        pv_index,
                        depth as i32,
                        previous,
                    );
                    if self.stopped {
                        break;
                    }
                    // Stable sort keeps the order among equals, so earlier
                    // lines stay put. (Ordering the moves that only failed
                    // low by the size of their trees instead scored
                    // +1 +/- 26 Elo over 400 games at 2+0.02: not kept.)
                    root_moves[pv_index..].sort_by_key(|m| std::cmp::Reverse(m.value));
                    let best = &root_moves[pv_index];
                    let line = Line {
                        value,
                        score: value_to_score(value),
                        pv: best.pv.clone(),
                        depth,
                        seldepth: best.seldepth.max(self.seldepth),
                    };
                    lines.push(line);
                    if pv_index + 1 == multipv {
                        // The iteration is finished: close its share of the
                        // counters and report them, so that its last line
                        // goes out with statistics that include it.
                        self.stats.iterations.push(IterationStats {
                            depth,
                            counters: self.stats.totals.since(&before),
                            selective_depth: lines
                                .iter()
                                .map(|l| l.seldepth)
                                .max()
                                .unwrap_or(depth),
                            elapsed_ms: self.elapsed().as_millis() as u64,
                        });
                        self.report_stats();
                    }
                    if let Some(line) = lines.last() {
                        self.report(line, pv_index + 1, Bound::Exact, true);
                    }
                }
                if self.stopped {
                    // A partly finished iteration still counts when its first line is done
                    // and disagrees with nothing: the PVS proof of the best move holds.
                    // With several lines, the lines of one iteration are kept
                    // together (a weaker level chooses among them, and the
                    // panels compare them): a half-done iteration does not
                    // replace the first of the last full one.
                    if lines.len() == multipv || (!lines.is_empty() && completed.is_empty()) {
                        completed = lines;
                        completed_depth = depth;
                    } else if multipv == 1
                        && let Some(partial) = self.iteration_best.take()
                    {
                        match completed.first_mut() {
                            Some(first) => *first = partial,
                            None => completed.push(partial),
                        }
                        first_bound = Bound::Lower;
                    }
                    break;
                }
                for m in root_moves.iter_mut() {
                    m.previous_value = m.value;
                }
                // The last finished iteration's lines, for the clock below.
                let previous = std::mem::replace(&mut completed, lines);
                completed_depth = depth;
                self.last_lines = completed.clone();

                if forced && depth >= FORCED_MOVE_DEPTH {
                    break;
                }
                if let Some(mate) = limits.mate
                    && let Score::Mate(n) = completed[0].score
                    && n > 0
                    && n as u32 <= mate
                {
                    break;
                }
                let first = &completed[0];
                let before = previous.first();
                stable_iterations =
                    if before.is_some_and(|line| line.pv.first() == first.pv.first()) {
                        stable_iterations + 1
                    } else {
                        0
                    };
                let scale = time_scale(
                    stable_iterations,
                    before.map(|line| line.value - first.value),
                );
                if let Some(soft) = self.budget.soft
                    && self.elapsed().as_secs_f64()
                        >= soft.as_secs_f64() * NEW_ITERATION_SHARE * scale
                {
                    break;
                }
                // A forced mate under a clock: more thinking will not change
                // the result, so the time is better kept. The search is
                // selective (reductions, pruning), so one iteration deep
                // enough to see the mate does not prove it the shortest: the
                // same mate must also come back from several deeper
                // iterations, each of which had the chance to find a shorter
                // one.
                let value = completed[0].value;
                mate_streak = if value.abs() >= MATE_BOUND && value == mate_value {
                    mate_streak + 1
                } else {
                    1
                };
                mate_value = value;
                if value.abs() >= MATE_BOUND
                    && mate_streak >= MATE_STABLE_ITERATIONS
                    && depth as i32 > 2 * (MATE - value.abs()) + 2
                    && limits.depth.is_none()
                    && !limits.infinite
                    && self.budget.hard.is_some()
                {
                    break;
                }
            }
        }

        let nodes = self.nodes;
        self.close_stats();
        let (best_move, ponder, value) = match completed.first() {
            Some(line) => (
                line.pv.first().copied(),
                line.pv.get(1).copied(),
                line.value,
            ),
            // Stopped before depth 1 finished: the best-ordered move is still legal.
            None => (root_moves.first().map(|m| m.mv), None, 0),
        };
        SearchResult {
            best_move,
            ponder,
            value,
            score: value_to_score(value),
            bound: first_bound,
            depth: completed_depth,
            lines: completed,
            nodes,
            elapsed: self.elapsed(),
            stats: self.stats.clone(),
        }
    }

    /// Root moves in the picker's order, for the first iteration.
    fn root_moves(&mut self, position: &Chess) -> Vec<RootMove> {
        let hash_move = if self.options.transposition_table {
            self.ctx
                .tt
                .probe(self.path[self.path.len() - 1], 0)
                .and_then(|hit| hit.best_move.unpack(position, position.is_check()))
        } else {
            None
        };
        let mut picker = MovePicker::new(
            hash_move,
            position.is_check(),
            self.options.move_ordering,
            self.ctx.heuristics,
            0,
            // The root's order comes from the previous iteration; the
            // tables order the moves below it.
            TableChoice::default(),
        );
        let mut moves = Vec::new();
        while let Some((mv, reason)) = picker.next(position, self.ctx.heuristics) {
            moves.push(RootMove {
                mv,
                value: -INFINITY,
                previous_value: -INFINITY,
                pv: vec![mv],
                reason,
                seldepth: 0,
            });
        }
        moves
    }

    /// Search the root with a narrow window around the previous value,
    /// widening on failure.
    fn aspiration(
        &mut self,
        position: &Chess,
        root_moves: &mut [RootMove],
        pv_index: usize,
        depth: i32,
        previous: Option<i32>,
    ) -> i32 {
        let use_window = self.options.aspiration && self.options.alpha_beta && depth >= 4;
        // The first window's half-width; doubled after each failure.
        let window = self.options.params.aspiration_window.max(1);
        let (mut alpha, mut beta) = match previous {
            Some(v) if use_window && v.abs() < MATE_BOUND => (v - window, v + window),
            _ => (-INFINITY, INFINITY),
        };
        let mut delta = window;
        loop {
            let value = self.root(position, root_moves, pv_index, depth, alpha, beta);
            if self.stopped {
                return value;
            }
            if value <= alpha && alpha > -INFINITY {
                self.report_bound(root_moves, pv_index, depth, value, Bound::Upper);
                beta = (alpha + beta) / 2;
                alpha = (value - delta).max(-INFINITY);
            } else if value >= beta && beta < INFINITY {
                self.report_bound(root_moves, pv_index, depth, value, Bound::Lower);
                beta = (value + delta).min(INFINITY);
            } else {
                return value;
            }
            delta *= 2;
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    fn report_bound(
        &mut self,
        root_moves: &[RootMove],
        pv_index: usize,
        depth: i32,
        value: i32,
        bound: Bound,
    ) {
        let best = root_moves[pv_index..].iter().max_by_key(|m| m.value);
        let line = Line {
            value,
            score: value_to_score(value),
            pv: best.map(|m| m.pv.clone()).unwrap_or_default(),
            depth: depth as u32,
            seldepth: self.seldepth,
        };
        self.report(&line, pv_index + 1, bound, true);
    }

    /// The root node: like `negamax`, but it keeps a value and PV per root
    /// move (for ordering the next iteration and for MultiPV) and skips the
    /// moves already chosen for earlier lines.
    fn root(
        &mut self,
        position: &Chess,
        root_moves: &mut [RootMove],
        pv_index: usize,
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        self.stats.totals.main += 1;
        self.pv[0].clear();
        if T::ENABLED {
            self.tracer.record(TraceEvent::EnterNode {
                ply: 0,
                depth,
                alpha,
                beta,
                quiescence: false,
            });
        }
        let in_check = position.is_check();
        let key = self.path[self.path.len() - 1];
        let mut best = -INFINITY;
        let mut best_move = None;
        let original_alpha = alpha;
        let count = root_moves.len() - pv_index;
        for index in 0..count {
            let root_move = &root_moves[pv_index + index];
            let m = root_move.mv;
            // After the first iteration the root moves are sorted by their
            // last values, so the first is the previous iteration's best
            // and the rest follow that iteration's order, whatever put
            // them in the first one. (The reason is for the trace only.)
            let reason = if depth > self.first_depth as i32 && self.options.move_ordering {
                if index == 0 {
                    OrderReason::PreviousBest
                } else {
                    OrderReason::PreviousIteration
                }
            } else {
                root_move.reason
            };
            let child_seldepth_before = self.seldepth;
            self.seldepth = 0;
            // Root moves are not reduced. Reducing late quiet ones (a ply
            // less than elsewhere, from depth 8) cut bench nodes by 16%
            // but scored 47.2% over 200 games against this; from depth 1
            // it hid the quiet key move of a mate in 2 until depth 9.
            let value = self.search_child(
                position, key, m, reason, depth, alpha, beta, 0, index, in_check, false, false,
            );
            let child_seldepth = self.seldepth;
            self.seldepth = self.seldepth.max(child_seldepth_before);
            if self.stopped {
                return best.max(alpha);
            }
            let root_move = &mut root_moves[pv_index + index];
            if index == 0 || value > alpha || !self.options.alpha_beta {
                root_move.value = value;
                root_move.seldepth = child_seldepth;
                root_move.pv.clear();
                root_move.pv.push(m);
                root_move.pv.extend_from_slice(&self.pv[1]);
            } else {
                // Only proven to be no better than alpha: rank it below.
                root_move.value = -INFINITY;
            }
            if value > best {
                best = value;
                best_move = Some(m);
                if value > alpha {
                    if pv_index == 0 {
                        self.iteration_best = Some(Line {
                            value,
                            score: value_to_score(value),
                            pv: root_moves[pv_index + index].pv.clone(),
                            depth: depth as u32,
                            seldepth: child_seldepth,
                        });
                    }
                    if self.options.alpha_beta {
                        alpha = value;
                    }
                    if T::ENABLED {
                        self.tracer.record(TraceEvent::AlphaRaised {
                            ply: 0,
                            mv: m,
                            value,
                        });
                    }
                    if self.options.alpha_beta && value >= beta {
                        self.stats.totals.beta_cutoffs += 1;
                        if index == 0 {
                            self.stats.totals.first_move_cutoffs += 1;
                        }
                        if T::ENABLED {
                            self.tracer.record(TraceEvent::BetaCutoff {
                                ply: 0,
                                mv: m,
                                value,
                                moves_left: (count - index - 1) as u32,
                            });
                        }
                        break;
                    }
                }
            }
        }
        if pv_index == 0 {
            self.store(key, 0, depth, best, original_alpha, beta, best_move);
        }
        if T::ENABLED {
            self.tracer.record(TraceEvent::Return {
                ply: 0,
                value: best,
            });
        }
        best
    }

    pub(super) fn heartbeat(&mut self) {
        let line = self.last_lines.first().cloned().unwrap_or(Line {
            value: 0,
            score: Score::Centipawns(0),
            pv: Vec::new(),
            depth: self.current_depth,
            seldepth: self.seldepth,
        });
        let line = Line {
            depth: self.current_depth,
            seldepth: self.seldepth.max(line.seldepth),
            ..line
        };
        self.report(&line, 1, Bound::Exact, false);
    }

    fn report(&mut self, line: &Line, multipv: usize, bound: Bound, complete: bool) {
        // Only the main thread speaks for the search (see `smp.rs`).
        if self.is_helper() {
            return;
        }
        self.last_report = Instant::now();
        let info = SearchInfo {
            search_id: self.ctx.search_id,
            multipv,
            depth: line.depth,
            seldepth: line.seldepth,
            score: line.score,
            bound,
            pv: line.pv.clone(),
            nodes: self.team_nodes(),
            nps: self.nps(),
            hashfull: self.ctx.tt.hashfull(),
            elapsed: self.elapsed(),
            complete,
        };
        (self.ctx.on_info)(Progress::Line(info));
    }

    /// Bring the totals' time and selective depth up to date.
    fn close_stats(&mut self) {
        self.stats.selective_depth = self.seldepth;
        self.stats.elapsed_ms = self.elapsed().as_millis() as u64;
    }

    /// Report the statistics so far (at the end of each iteration).
    fn report_stats(&mut self) {
        if self.is_helper() {
            return;
        }
        self.close_stats();
        let tables = std::sync::Arc::new(self.ctx.heuristics.maps());
        (self.ctx.on_info)(Progress::Stats(self.stats.clone(), tables));
    }
}
