//! One node of the tree below the root: negamax with alpha-beta.
//!
//! (See `search.rs` for the glossary and for why each piece is there.)

use shakmaty::{Chess, Move, Position};

use super::eval::evaluate;
use super::movetables::TableUpdate;
use super::ordering::{MovePicker, TableChoice};
use super::search::Searcher;
use super::selective::{MoveFacts, Singular};
use super::trace::{OrderReason, Shortcut, TraceEvent, Tracer};
use super::values::{DRAW, INFINITY, MATE, MAX_PLY, TB_BOUND, TB_WIN};

/// Internal iterative reduction from this depth on.
const IIR_MIN_DEPTH: i32 = 4;

impl<T: Tracer> Searcher<'_, '_, T> {
    /// Negamax alpha-beta search of a node below the root.
    ///
    /// `cut_node`: whether the node is expected to fail high (Knuth and
    /// Moore's node types). Below a PV node, the first move leads to a PV
    /// node and the others to cut nodes; below a cut node, the refuting
    /// move leads to an all node (every reply fails low), and below an all
    /// node, every move leads to a cut node. The kinds alternate, so a
    /// null-window child gets the opposite of its parent's.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax(
        &mut self,
        position: &Chess,
        key: u64,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: u32,
        null_allowed: bool,
        cut_node: bool,
    ) -> i32 {
        let ply_index = ply as usize;
        self.pv[ply_index].clear();
        if depth <= 0 || ply_index >= MAX_PLY - 1 {
            // A repetition at the horizon is still a draw, whatever the
            // captures say.
            if self.is_draw(position) {
                if !self.enter(ply, 0, alpha, beta, false) {
                    return 0;
                }
                return self.shortcut(ply, Shortcut::Draw, DRAW);
            }
            if !self.options.quiescence {
                return self.horizon_leaf(position, ply, alpha, beta);
            }
            return self.quiescence(position, key, alpha, beta, ply);
        }
        if !self.enter(ply, depth, alpha, beta, false) {
            return 0;
        }
        if self.is_draw(position) {
            return self.shortcut(ply, Shortcut::Draw, DRAW);
        }
        // A capture or pawn move just brought the position into the tables:
        // their verdict replaces the whole subtree. (Only then: the fifty-move
        // count is zero, so win/draw/loss is exact.)
        if ply > 0
            && position.halfmoves() == 0
            && let Some(tables) = self.ctx.tablebases
            && !(position.is_check() && position.legal_moves().is_empty())
            && position.board().occupied().count() <= tables.max_pieces()
            && let Some(wdl) = tables.probe_wdl(position)
        {
            use crate::tablebase::Wdl;
            let value = match wdl {
                Wdl::Win => TB_WIN - ply as i32,
                Wdl::Loss => -TB_WIN + ply as i32,
                // Won or lost, but the fifty-move rule makes it a draw.
                Wdl::CursedWin => 1,
                Wdl::BlessedLoss => -1,
                Wdl::Draw => DRAW,
            };
            return self.shortcut(ply, Shortcut::Tablebase, value);
        }
        let ab = self.options.alpha_beta;
        if ab && self.options.selective {
            // Mate-distance pruning: even mating at once cannot beat a
            // shorter mate already found, nor be worse than being mated now.
            // (It keeps the value but narrows every window to mate bounds,
            // so the textbook search, with `selective` off, goes without.)
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return self.shortcut(ply, Shortcut::MateDistance, alpha);
            }
        }
        let in_check = position.is_check();
        // Check extension (part of the selective search: it makes some lines
        // deeper than others, so the tree is no longer a fixed-depth one).
        if in_check && self.options.selective {
            depth += 1;
        }
        let pv_node = beta - alpha > 1;

        // A singular-extension test searches this same position without one
        // move: the table's entry (for the whole position) neither answers
        // it nor may be overwritten by it.
        let excluded = self.excluded[ply_index];
        let (hit, cutoff) = self.probe_table(key, ply, depth, alpha, beta);
        let hash_move = hit.and_then(|hit| hit.best_move.unpack(position));
        let cutoff = cutoff.filter(|_| excluded.is_none());
        if let Some(value) = cutoff {
            // The stored move starts this node's line of the PV.
            self.pv[ply_index].extend(hash_move);
            return self.leave(ply, value);
        }

        let selective = self.options.selective && ab && !pv_node && !in_check && excluded.is_none();
        // (The static evaluation only: using a table value in its place when
        // the entry's bound points past it cost short mates. A shallow
        // entry that thought the defender safe let reverse futility cut the
        // mating line, so a mate in 2 surfaced only at depth 8.)
        // The pruning rules use it corrected by the evaluation's average
        // error in this pawn structure so far (`correction.rs`).
        let (raw_eval, static_eval) = if selective {
            let raw = self.evaluate(position, key);
            let corrections = &self.ctx.heuristics.corrections;
            (
                raw,
                corrections.correct(position.board(), position.turn(), raw),
            )
        } else {
            (0, 0)
        };
        // Reverse futility and the null move may end the node here.
        if selective
            && let Some(value) = self.prune_node(
                position,
                depth,
                beta,
                ply,
                static_eval,
                null_allowed,
                cut_node,
            )
        {
            return value;
        }

        // Internal iterative reduction: a node the table knows no move for
        // was never searched deeply; searching it a ply shallower first is
        // cheap, and the next iteration finds it with a move to try first.
        if self.options.selective
            && ab
            && depth >= IIR_MIN_DEPTH
            && hash_move.is_none()
            && !in_check
        {
            depth -= 1;
        }

        // Is the table's move the only good one? Then it is searched a ply
        // deeper (or, if several moves beat beta, the node ends here).
        let singular_extension = if self.options.selective && ab {
            match self.singular_test(position, key, depth, beta, ply, hit, hash_move, cut_node) {
                Singular::Extend(plies) => plies,
                Singular::Return(value) => return value,
            }
        } else {
            0
        };

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        // The opponent's move that led here (none at the root or after a
        // null move): its counter-move is tried right after the killers.
        let previous = self.played.get(ply_index).copied().flatten();
        let mut picker = MovePicker::new(
            hash_move,
            self.options.move_ordering,
            self.ctx.heuristics,
            ply,
            TableChoice {
                previous,
                count: self.options.table_moves,
                threshold: self.options.table_threshold,
                no_history: !self.options.history_heuristic,
            },
        );
        let mut index = 0usize;
        let mut quiets_tried: arrayvec::ArrayVec<Move, 64> = arrayvec::ArrayVec::new();
        let mut captures_tried: arrayvec::ArrayVec<Move, 32> = arrayvec::ArrayVec::new();
        // Every move searched here, for the move tables' decrement.
        let mut tried: arrayvec::ArrayVec<Move, 64> = arrayvec::ArrayVec::new();
        let color = position.turn();
        let mut legal_moves = 0usize;
        // The most a futility-pruned move could have scored.
        let mut pruned_bound = -INFINITY;
        while let Some((m, reason)) = picker.next(position, self.ctx.heuristics) {
            if Some(m) == excluded {
                continue;
            }
            legal_moves += 1;
            let quiet = !m.is_capture() && !m.is_promotion();
            // Late-move pruning, losing captures and futility may skip it.
            if selective
                && let Some(bound) = self.prune_move(
                    position,
                    m,
                    &MoveFacts {
                        ply,
                        depth,
                        alpha,
                        static_eval,
                        best,
                        index,
                        quiets_tried: quiets_tried.len(),
                        reason,
                        quiet,
                    },
                )
            {
                pruned_bound = pruned_bound.max(bound);
                index += 1;
                continue;
            }
            // Killers and the counter-move are quiet moves with a record:
            // they are not reduced.
            let reducible =
                quiet && reason != OrderReason::Killer && reason != OrderReason::CounterMove;
            let extension = if Some(m) == hash_move {
                singular_extension
            } else {
                0
            };
            let value = self.search_child(
                position,
                key,
                m,
                reason,
                depth + extension,
                alpha,
                beta,
                ply,
                index,
                in_check,
                reducible,
                cut_node,
            );
            if self.stopped {
                return 0;
            }
            if quiet && !quiets_tried.is_full() {
                quiets_tried.push(m);
            }
            if !quiet && !captures_tried.is_full() {
                captures_tried.push(m);
            }
            if !tried.is_full() {
                tried.push(m);
            }
            if value > best {
                best = value;
                best_move = Some(m);
                if value > alpha {
                    alpha = value;
                    let (head, tail) = self.pv.split_at_mut(ply_index + 1);
                    let line = &mut head[ply_index];
                    line.clear();
                    line.push(m);
                    line.extend_from_slice(&tail[0]);
                    if T::ENABLED {
                        self.tracer
                            .record(TraceEvent::AlphaRaised { ply, mv: m, value });
                    }
                    if ab && value >= beta {
                        self.stats.totals.beta_cutoffs += 1;
                        if index == 0 {
                            self.stats.totals.first_move_cutoffs += 1;
                        }
                        if self.options.history_heuristic {
                            self.ctx.heuristics.record_capture_cutoff(
                                color,
                                depth,
                                m,
                                &captures_tried,
                            );
                        }
                        if quiet {
                            self.ctx.heuristics.record_cutoff(
                                color,
                                ply,
                                depth,
                                m,
                                &quiets_tried,
                                previous,
                            );
                        }
                        if T::ENABLED {
                            self.tracer.record(TraceEvent::BetaCutoff {
                                ply,
                                mv: m,
                                value,
                                moves_left: picker.remaining(position) as u32,
                            });
                        }
                        self.teach_tables(ply, color, &tried);
                        break;
                    }
                }
            }
            index += 1;
        }

        if legal_moves == 0 {
            // In a singular-extension test the left-out move was the only
            // one: nothing else reaches alpha. Otherwise there is no legal
            // move: checkmate (scored by its distance from the root, so
            // that a quicker mate is worth more) or stalemate.
            return if excluded.is_some() {
                self.leave(ply, alpha)
            } else if in_check {
                self.shortcut(ply, Shortcut::Checkmate, -MATE + ply as i32)
            } else {
                self.shortcut(ply, Shortcut::Stalemate, DRAW)
            };
        }
        // A fail-low bound must cover the moves futility skipped unsearched.
        best = best.max(pruned_bound);
        if excluded.is_none() {
            self.store(key, ply, depth, best, original_alpha, beta, best_move);
        }
        // What this node's search says about its static evaluation teaches
        // the correction history: an exact value, or a bound that lies on
        // the far side of the evaluation. (Not when a capture or promotion
        // was best: then the material changed, and the error is the
        // search's tactics, not the evaluation's judgement.)
        if selective
            && best.abs() < TB_BOUND
            && best_move.is_none_or(|m| !m.is_capture() && !m.is_promotion())
            && !(best >= beta && best <= static_eval)
            && !(best <= original_alpha && best >= static_eval)
        {
            self.ctx.heuristics.corrections.update(
                position.board(),
                position.turn(),
                depth,
                raw_eval,
                best,
            );
        }
        self.leave(ply, best)
    }

    /// A beta cutoff teaches the move tables: the refuting line (the move
    /// that cut off and the line expected after it, now `pv[ply]`) gains
    /// weight on its squares; the moves tried before it lose weight.
    fn teach_tables(&mut self, ply: u32, color: shakmaty::Color, tried: &[Move]) {
        let line = &self.pv[ply as usize];
        let others = tried.split_last().map_or(&[][..], |(_, before)| before);
        self.ctx.heuristics.tables.record(color, line, others);
        if T::ENABLED {
            self.tracer.record(TraceEvent::MoveTables {
                ply,
                update: Box::new(TableUpdate {
                    color,
                    line: line.clone(),
                    others: others.to_vec(),
                }),
            });
        }
    }

    /// A horizon position of a search without quiescence: its static
    /// evaluation is its value, captures pending or not. A game that is
    /// over is still over: checkmate and stalemate are scored as such.
    fn horizon_leaf(&mut self, position: &Chess, ply: u32, alpha: i32, beta: i32) -> i32 {
        if !self.enter(ply, 0, alpha, beta, false) {
            return 0;
        }
        if position.legal_moves().is_empty() {
            return if position.is_check() {
                self.shortcut(ply, Shortcut::Checkmate, -MATE + ply as i32)
            } else {
                self.shortcut(ply, Shortcut::Stalemate, DRAW)
            };
        }
        self.stats.totals.leaves += 1;
        let value = evaluate(position);
        if T::ENABLED {
            self.tracer.record(TraceEvent::LeafEval { ply, value });
        }
        self.leave(ply, value)
    }

    /// Is the current node a draw by repetition or the fifty-move rule?
    fn is_draw(&self, position: &Chess) -> bool {
        if position.halfmoves() >= 100 {
            // Checkmate on the hundredth half-move still wins.
            return !(position.is_check() && position.legal_moves().is_empty());
        }
        if position.is_insufficient_material() {
            return true;
        }
        // Same side to move, so look back two plies at a time, and only as
        // far as the last capture or pawn move (nothing before it can repeat).
        let current = self.path.len() - 1;
        let reach = (position.halfmoves() as usize).min(current);
        let key = self.path[current];
        (4..=reach)
            .step_by(2)
            .any(|back| self.path[current - back] == key)
    }
}
