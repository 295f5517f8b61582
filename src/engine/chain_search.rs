//! Greer's move-chain search: a forward-pruned alpha-beta that trusts the
//! lines that refuted positions before, for research and teaching (the
//! experiment of `kibitz movetables experiment`, teach mode's "move chains"
//! switch), never for play.
//!
//! Greer ("Dynamic Move Chains and Move Tables in Computer Chess", and the
//! search it cites, "Tree Pruning for New Search Techniques in Computer
//! Games", 2013) keeps two memories of *moves*, not positions:
//!
//! - move chains (`movechains.rs`): the line that caused each cutoff, kept
//!   under its first move, and tried again in later positions, which "vary
//!   only slightly from one ply to the next";
//! - move tables (`movetables.rs`): weights on the squares of the pieces'
//!   moves, raised by refuting lines and lowered by the other moves.
//!
//! The papers give the loop (generate the moves, search the top few table
//! moves first "as standard search", then the chains and the rest) but not
//! every rule, so kibitz chose where they are silent (docs/maps.md says the
//! same, rule by rule):
//!
//! 1. At a node not in check, if any move other than the table moves
//!    starts a chain that is still legal when played out, only the table
//!    moves and those chain moves are searched: every other move is pruned
//!    unsearched. This is what "used to replace a full search" means here,
//!    and the only reading under which chains that are mostly one move long
//!    (as Greer found them) can shrink the tree. With no chain, every move
//!    is searched, table moves first.
//! 2. A chain's later moves are forced: below a chain move, each ply of the
//!    chain searches only the chain's next move. Past the chain's end the
//!    rule above applies again.
//! 3. A chain found illegal where it would be used is dropped.
//! 4. Every node that ends with a best move above alpha (a cutoff, or an
//!    exact value) stores its line as the chain under its first move,
//!    replacing the one there. Every cutoff teaches the move tables, as in
//!    the engine's own search.
//! 5. In check, every evasion is searched: a side in check has few moves,
//!    and pruning one may miss a mate.
//! 6. One fixed-depth search with the full window: no transposition table
//!    (Greer compares move chains *against* one), no iterative deepening, no
//!    PVS, no reductions. The horizon goes to the quiescence search, as in
//!    the paper's "plus quies".

use shakmaty::{Chess, Move, Position};

use super::movechains::Chain;
use super::ordering::{MovePicker, TableChoice};
use super::protocol::{Bound, Limits};
use super::searcher::{Line, SearchResult, Searcher, play_with_key, value_to_score};
use super::stats::{ChainStats, IterationStats};
use super::trace::{OrderReason, Pruning, Shortcut, TraceEvent, Tracer, WindowKind};
use super::values::{DRAW, INFINITY, MATE, MAX_PLY};

/// The depth when none is given: the paper's (Table 1 searched "to a depth
/// of 5 ply"). The chain search has no clock of its own to deepen by.
pub const DEFAULT_CHAIN_DEPTH: u32 = 5;

/// One move a node will search, and why.
struct Planned {
    mv: Move,
    reason: OrderReason,
    /// The chain's moves after this one, which the child must follow.
    forced: Vec<Move>,
    /// Whether this move is itself forced by a chain being followed.
    followed: bool,
}

impl<T: Tracer> Searcher<'_, '_, T> {
    /// The move-chain search of `position` to the limit's depth, once.
    pub(super) fn chain_iterate(&mut self, position: &Chess, limits: &Limits) -> SearchResult {
        // The chain nodes never ask the table; the quiescence search would,
        // so it is told there is none. It is the plain quiescence search
        // too (no delta or exchange pruning): the chains are the only
        // pruning this search has, so what it saves is theirs.
        self.options.transposition_table = false;
        self.options.selective = false;
        let depth = limits
            .depth
            .unwrap_or(DEFAULT_CHAIN_DEPTH)
            .clamp(1, super::searcher::MAX_DEPTH);
        self.first_depth = depth;
        self.current_depth = depth;
        self.stats.chains = Some(ChainStats::default());
        if T::ENABLED {
            self.tracer.record(TraceEvent::Iteration {
                depth: depth as i32,
            });
        }
        let key = self.path[self.path.len() - 1];
        let in_check = position.is_check();
        let value = self.chain_node(
            position,
            key,
            depth as i32,
            -INFINITY,
            INFINITY,
            0,
            in_check,
            &[],
        );
        let finished = !self.stopped && !self.pv[0].is_empty();
        let lines = if finished {
            self.stats.iterations.push(IterationStats {
                depth,
                counters: self.stats.totals,
                selective_depth: self.seldepth,
                elapsed_ms: self.elapsed().as_millis() as u64,
            });
            vec![Line {
                value,
                score: value_to_score(value),
                pv: self.pv[0].clone(),
                depth,
                seldepth: self.seldepth,
            }]
        } else {
            Vec::new()
        };
        self.stats.selective_depth = self.seldepth;
        self.stats.elapsed_ms = self.elapsed().as_millis() as u64;
        let (best_move, ponder, value) = match lines.first() {
            Some(line) => (line.pv.first().copied(), line.pv.get(1).copied(), value),
            // Stopped before the root's first move finished: any legal move.
            None => (position.legal_moves().first().copied(), None, 0),
        };
        SearchResult {
            best_move,
            ponder,
            value,
            score: value_to_score(value),
            bound: Bound::Exact,
            depth: if finished { depth } else { 0 },
            lines,
            nodes: self.nodes,
            elapsed: self.elapsed(),
            stats: self.stats.clone(),
        }
    }

    fn chain_stats(&mut self) -> &mut ChainStats {
        self.stats.chains.get_or_insert_default()
    }

    /// One node of the move-chain search. `forced`: the moves of a chain
    /// being followed, the first of them to be played here.
    #[allow(clippy::too_many_arguments)]
    fn chain_node(
        &mut self,
        position: &Chess,
        key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: u32,
        in_check: bool,
        forced: &[Move],
    ) -> i32 {
        self.pv[ply as usize].clear();
        if depth <= 0 || ply as usize >= MAX_PLY - 1 {
            self.chain_stats().horizon += 1;
            return self.horizon(position, key, alpha, beta, ply, in_check);
        }
        if !self.enter(ply, depth, alpha, beta, false) {
            return 0;
        }
        self.chain_stats().interior += 1;
        if ply > 0
            && let Some(value) = self.settled(position, ply)
        {
            return value;
        }
        let legal = position.legal_moves();
        if legal.is_empty() {
            return if in_check {
                self.shortcut(ply, Shortcut::Checkmate, -MATE + ply as i32)
            } else {
                self.shortcut(ply, Shortcut::Stalemate, DRAW)
            };
        }
        let plan = self.plan(position, ply, in_check, forced);
        let color = position.turn();
        let previous = self.played.get(ply as usize).copied().flatten();
        let mut alpha = alpha;
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_index = None;
        let mut tried: Vec<Move> = Vec::with_capacity(plan.len());
        for (index, planned) in plan.iter().enumerate() {
            let m = planned.mv;
            if T::ENABLED {
                self.tracer.record(TraceEvent::MoveTried {
                    ply,
                    mv: m,
                    index: index as u32,
                    reason: planned.reason,
                    window: WindowKind::Full,
                    reduction: 0,
                });
            }
            let (child, child_key) = play_with_key(None, position, key, m);
            self.enter_child(ply, color, Some(m), child_key);
            let gives_check = child.is_check();
            let value = -self.chain_node(
                &child,
                child_key,
                depth - 1,
                -beta,
                -alpha,
                ply + 1,
                gives_check,
                &planned.forced,
            );
            self.path.pop();
            if self.stopped {
                return 0;
            }
            tried.push(m);
            self.count_tried(planned, index);
            if value <= best {
                continue;
            }
            best = value;
            best_index = Some(index);
            if value <= alpha {
                continue;
            }
            alpha = value;
            self.extend_pv(ply, m);
            if T::ENABLED {
                self.tracer
                    .record(TraceEvent::AlphaRaised { ply, mv: m, value });
            }
            if value >= beta {
                self.chain_cutoff(position, ply, depth, m, index, &tried, previous);
                if T::ENABLED {
                    self.tracer.record(TraceEvent::BetaCutoff {
                        ply,
                        mv: m,
                        value,
                        moves_left: (plan.len() - index - 1) as u32,
                    });
                }
                self.teach_tables(ply, position, &tried);
                break;
            }
        }
        // The node's best line becomes the chain under its first move
        // (Greer: "always add final bestPath to moveChains").
        if best > original_alpha
            && let Some(index) = best_index
        {
            let line = self.pv[ply as usize].clone();
            if self.ctx.heuristics.chains.store(color, &line) {
                self.chain_stats().chains_stored += 1;
            }
            if plan[index].reason == OrderReason::TableMove {
                self.chain_stats().table_best += 1;
            }
        }
        self.leave(ply, best)
    }

    /// Which moves a node searches, in order (the rules in this file's
    /// comment): a chain being followed forces its move; otherwise the
    /// table moves first, then the moves that start a chain, then (only if
    /// no chain applies, or in check) all the others. The moves left out
    /// are recorded as pruned.
    fn plan(
        &mut self,
        position: &Chess,
        ply: u32,
        in_check: bool,
        forced: &[Move],
    ) -> Vec<Planned> {
        let ordered = self.ordered_moves(position, ply, in_check);
        if let Some((&next, rest)) = forced.split_first()
            && !in_check
            && ordered.iter().any(|&(m, _)| m == next)
        {
            self.prune_all_but(ply, &ordered, &[next]);
            return vec![Planned {
                mv: next,
                reason: OrderReason::MoveChain,
                forced: rest.to_vec(),
                followed: true,
            }];
        }
        let color = position.turn();
        let previous = self.played.get(ply as usize).copied().flatten();
        let table: Vec<Move> = if self.options.table_moves > 0 {
            self.ctx.heuristics.tables.top_moves(
                position,
                previous,
                usize::from(self.options.table_moves),
                self.options.table_threshold,
            )
        } else {
            Vec::new()
        };
        let mut plan: Vec<Planned> = table
            .iter()
            .map(|&mv| Planned {
                mv,
                reason: OrderReason::TableMove,
                forced: Vec::new(),
                followed: false,
            })
            .collect();
        let mut others = Vec::new();
        for &(m, reason) in &ordered {
            if table.contains(&m) {
                continue;
            }
            match self.ctx.heuristics.chains.resolve(position, m) {
                Chain::Valid(line) => plan.push(Planned {
                    mv: m,
                    reason: OrderReason::MoveChain,
                    forced: line[1..].to_vec(),
                    followed: false,
                }),
                Chain::Invalid => {
                    self.ctx.heuristics.chains.remove(color, m);
                    self.chain_stats().chains_invalid += 1;
                    others.push((m, reason));
                }
                Chain::Absent => others.push((m, reason)),
            }
        }
        let chain_moves = plan.len() - table.len();
        if chain_moves > 0 && !in_check {
            self.chain_stats().chain_nodes += 1;
            let kept: Vec<Move> = plan.iter().map(|p| p.mv).collect();
            self.prune_all_but(ply, &ordered, &kept);
        } else {
            plan.extend(others.into_iter().map(|(mv, reason)| Planned {
                mv,
                reason,
                forced: Vec::new(),
                followed: false,
            }));
        }
        plan
    }

    /// Count a move searched (not one only planned: a cutoff ends the
    /// plan early), by why it was searched.
    fn count_tried(&mut self, planned: &Planned, index: usize) {
        let stats = self.chain_stats();
        stats.moves_searched += 1;
        match planned.reason {
            OrderReason::TableMove => {
                stats.table_moves += 1;
                // Table moves come first: the first one tried makes the
                // node one where the tables were used.
                stats.table_nodes += u64::from(index == 0);
            }
            OrderReason::MoveChain if planned.followed => stats.forced_moves += 1,
            OrderReason::MoveChain => stats.chain_moves += 1,
            _ => {}
        }
    }

    /// The legal moves in the engine's order (no table move: the tables'
    /// moves are chosen here, by the plan).
    fn ordered_moves(
        &mut self,
        position: &Chess,
        ply: u32,
        in_check: bool,
    ) -> Vec<(Move, OrderReason)> {
        let mut picker = MovePicker::new(
            None,
            in_check,
            self.options.move_ordering,
            self.ctx.heuristics,
            ply,
            TableChoice {
                no_history: !self.options.history_heuristic,
                ..TableChoice::default()
            },
        );
        let mut moves = Vec::new();
        while let Some(next) = picker.next(position, self.ctx.heuristics) {
            moves.push(next);
        }
        moves
    }

    /// Record every move of `ordered` not in `kept` as forward-pruned.
    fn prune_all_but(&mut self, ply: u32, ordered: &[(Move, OrderReason)], kept: &[Move]) {
        let mut pruned = 0;
        for &(m, _) in ordered {
            if !kept.contains(&m) {
                pruned += 1;
                self.record_pruned(ply, m, Pruning::MoveChain, None);
            }
        }
        self.chain_stats().pruned += pruned;
    }

    /// A cutoff teaches the ordering of the moves searched in full (the
    /// killers and history the picker reads), as in the engine's search.
    #[allow(clippy::too_many_arguments)]
    fn chain_cutoff(
        &mut self,
        position: &Chess,
        ply: u32,
        depth: i32,
        m: Move,
        index: usize,
        tried: &[Move],
        previous: Option<Move>,
    ) {
        self.stats.totals.beta_cutoffs += 1;
        if index == 0 {
            self.stats.totals.first_move_cutoffs += 1;
        }
        if !m.is_capture() && !m.is_promotion() {
            let quiets: Vec<Move> = tried
                .iter()
                .copied()
                .filter(|t| !t.is_capture() && !t.is_promotion())
                .collect();
            self.ctx
                .heuristics
                .record_cutoff(position.turn(), ply, depth, m, &quiets, previous);
        }
    }
}

#[cfg(test)]
mod tests;
