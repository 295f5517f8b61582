//! Searching one move's subtree: the window it gets and when it is
//! searched again.
//!
//! Textbook alpha-beta hands every move the node's window, negated and
//! swapped (the child's side to move is the opponent). Principal-variation
//! search bets that the first move is best: every later move only has to be
//! *proven* worse, with the null window `(alpha, alpha + 1)`, which is
//! cheaper than finding its value; when the proof fails the move is searched
//! again with the full window. Late-move reductions search late quiet moves
//! shallower first and re-search them at full depth only if they surprise.
//! Plain minimax hands every move the infinite window.

use shakmaty::{Chess, Move, Position};

use super::searcher::{Searcher, play_with_key};
use super::trace::{OrderReason, ReSearchReason, TraceEvent, Tracer, WindowKind};
use super::values::INFINITY;

/// Late-move reductions start at this depth (and at the move number
/// `SearchParams::lmr_min_move`).
const LMR_MIN_DEPTH: i32 = 3;
// (Shifting a quiet move's reduction by its history score, a ply less or
// more per 2,048 up to two, scored 49.5%, -3 +/- 25 Elo, over 400 games at
// 2+0.02 against the build without it: it is `SearchParams::lmr_history`,
// off by default. Late moves that give check reduced too, a ply less than
// quiet moves: 49.9%, -1 +/- 24 Elo, the same way, with double singular
// extensions: not kept. Re-searching a reduced move that beat alpha a ply
// deeper than usual when it beat it by more than 40 + 2 x depth, a ply
// shallower when by less than 8: 50.1%, +1 +/- 25 Elo, the same way
// against a857587: not kept.)

impl<T: Tracer> Searcher<'_, '_, T> {
    /// Make move `m` from `position` and search the child, with PVS and
    /// late-move reductions. Returns the child's value from this side's view.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search_child(
        &mut self,
        position: &Chess,
        key: u64,
        m: Move,
        reason: OrderReason,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: u32,
        index: usize,
        in_check: bool,
        reducible: bool,
        cut_node: bool,
    ) -> i32 {
        // At depth 1 the child is at depth 0 and goes straight to
        // quiescence search, which in the engine's own search does not
        // look in the table: no prefetch then.
        let probes = depth > 1 || !self.options.selective;
        let (child, child_key) = play_with_key(probes.then_some(self.ctx.tt), position, key, m);
        self.enter_child(ply, position.turn(), Some(m), child_key);
        let gives_check = child.is_check();
        let next_ply = ply + 1;
        // Late quiet moves are searched shallower first (late-move
        // reductions): they are rarely best, and a surprise is re-searched.
        let reduction = if self.options.alpha_beta
            && index > 0
            && reducible
            && (self.options.params.lmr_killers > 0
                || !matches!(reason, OrderReason::Killer | OrderReason::CounterMove))
            && self.options.selective
            && depth >= LMR_MIN_DEPTH
            && index >= self.options.params.lmr_min_move.max(1) as usize
            && !in_check
            && !gives_check
        {
            let params = &self.options.params;
            let mut r = self.reductions[(depth as usize).min(63)][index.min(63)];
            // At an expected cut node one move is enough to refute, and
            // the first ones tried are the likely refutations: the late
            // ones are reduced `lmr_cut` plies more (one).
            if cut_node {
                r += params.lmr_cut;
            }
            // Killers and the counter-move are quiet moves with a record
            // of refuting: a ply less (not at all with `lmr_killers` 0).
            if matches!(reason, OrderReason::Killer | OrderReason::CounterMove) {
                r -= 1;
            }
            // Where the side is not improving, quiet moves are less likely
            // to turn the node around: `improving_lmr` plies more.
            if params.improving_lmr > 0 && !self.improving(ply) {
                r += params.improving_lmr;
            }
            // At a PV node the exact value matters: `lmr_pv` plies less.
            if beta - alpha > 1 {
                r -= params.lmr_pv;
            }
            // A move with a good history (it refuted lines elsewhere in
            // this search) is reduced less, one with a bad history more:
            // a ply per `lmr_history` points, at most two either way.
            if params.lmr_history > 0 {
                let history = self.ctx.heuristics.history(position.turn(), m);
                r -= (history / params.lmr_history).clamp(-2, 2);
            }
            r.clamp(0, depth - 2)
        } else {
            0
        };
        let window = if !self.options.alpha_beta {
            WindowKind::Infinite
        } else if index > 0 && self.options.pvs {
            WindowKind::Null
        } else {
            WindowKind::Full
        };
        if T::ENABLED {
            self.tracer.record(TraceEvent::MoveTried {
                ply,
                mv: m,
                index: index as u32,
                reason,
                window,
                reduction: reduction.clamp(0, i32::from(u8::MAX)) as u8,
            });
        }
        // The child of a full-window search: a PV node below a PV node; at
        // a null-window node, node kinds alternate (see `negamax`).
        let full_child_cut = beta - alpha == 1 && !cut_node;
        // The search at full depth with the full window, which every
        // re-search ends with.
        let full = |searcher: &mut Self| {
            -searcher.negamax(
                &child,
                child_key,
                depth - 1,
                -beta,
                -alpha,
                next_ply,
                true,
                full_child_cut,
                gives_check,
            )
        };
        let value = match window {
            // Plain minimax: every child gets the infinite window.
            WindowKind::Infinite => -self.negamax(
                &child,
                child_key,
                depth - 1,
                -INFINITY,
                INFINITY,
                next_ply,
                true,
                false,
                gives_check,
            ),
            // Textbook alpha-beta (and the first move of PVS): the child's
            // window is ours, negated and swapped, because its side to move
            // is our opponent.
            WindowKind::Full => {
                let mut value = -self.negamax(
                    &child,
                    child_key,
                    depth - 1 - reduction,
                    -beta,
                    -alpha,
                    next_ply,
                    true,
                    full_child_cut,
                    gives_check,
                );
                if value > alpha && reduction > 0 && !self.stopped {
                    self.record_research(ply, m, WindowKind::Full, ReSearchReason::Reduced);
                    value = full(self);
                }
                value
            }
            // PVS: only ask "is this move better than alpha?"
            WindowKind::Null => {
                // A reduced move is expected to fail low here, so its
                // child to fail high: a cut node.
                let mut value = -self.negamax(
                    &child,
                    child_key,
                    depth - 1 - reduction,
                    -alpha - 1,
                    -alpha,
                    next_ply,
                    true,
                    reduction > 0 || !cut_node,
                    gives_check,
                );
                if value > alpha && reduction > 0 && !self.stopped {
                    self.record_research(ply, m, WindowKind::Null, ReSearchReason::Reduced);
                    value = -self.negamax(
                        &child,
                        child_key,
                        depth - 1,
                        -alpha - 1,
                        -alpha,
                        next_ply,
                        true,
                        !cut_node,
                        gives_check,
                    );
                }
                if value > alpha && value < beta && !self.stopped {
                    // (Only a PV node gets here: alpha < value < beta.)
                    self.record_research(ply, m, WindowKind::Full, ReSearchReason::FailedHigh);
                    value = full(self);
                }
                value
            }
        };
        self.path.pop();
        value
    }

    fn record_research(&mut self, ply: u32, mv: Move, window: WindowKind, reason: ReSearchReason) {
        if T::ENABLED {
            self.tracer.record(TraceEvent::ReSearch {
                ply,
                mv,
                window,
                reason,
            });
        }
    }
}
