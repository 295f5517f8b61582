//! Selective search: the rules that decide a node or a move is not worth
//! its full search, and the one that decides a move is worth more.
//!
//! Textbook alpha-beta gives every move the same depth. It is exact, and
//! slow. The rules here bet on evidence a node has cheaply at hand (its
//! static evaluation, the table's entry, how many moves already failed)
//! that some work cannot change the result. A lost bet costs accuracy; the
//! depth the won bets buy is worth more. All of them are off when
//! `SearchOptions::selective` is, so a learner can compare the textbook
//! tree with the pruned one.
//!
//! - Before any move is searched: reverse futility, the null move and
//!   ProbCut ([`Searcher::prune_node`]), then the singular-extension test
//!   ([`Searcher::singular_test`]).
//! - Inside the move loop: late-move pruning, losing captures and futility
//!   ([`Searcher::prune_move`]).
//!
//! None of them runs at a PV node or in check: there the exact value
//! matters, and a side in check has too few moves to skip any.

use arrayvec::ArrayVec;
use shakmaty::{Chess, Move, Position};

use super::movegen::{gives_check, has_pieces, noisy_moves, passed_key, pieces};
use super::searcher::{NO_EVAL, Searcher, play_with_key};
use super::see::see;
use super::trace::{
    Estimate, OrderReason, Pruning, Shortcut, TraceEvent, Tracer, TtBound, WindowKind,
};
use super::tt::TtHit;
use super::values::{INFINITY, MATE_BOUND, TB_BOUND};

// Tuning constants, in plies or centipawns. The margins, depths and
// reductions that games tune are in `params.rs` (`SearchParams`); these are
// the rules' fixed limits.
const NULL_MOVE_MIN_DEPTH: i32 = 3;
/// A null move's cutoff is verified (see [`Searcher::prune_node`]) from
/// this depth on, or at any depth when the side to move has at most
/// `NULL_VERIFY_PIECES` pieces besides its king and pawns.
const NULL_VERIFY_DEPTH: i32 = 10;
const NULL_VERIFY_PIECES: usize = 1;
/// Singular extensions from this depth on, when the table's entry for the
/// node is at most this many plies shallower than the node. (From depth 8,
/// the test missed the many shallower nodes where a game's tree mostly
/// lies: 6 scored 53.9% against 8 in self-play. Starting at 4 scored 49.5%
/// against 6 over 200 games, and was dropped.)
const SINGULAR_MIN_DEPTH: i32 = 6;
const SINGULAR_TT_DEPTH_SLACK: i32 = 3;
// (Double extensions, the table's move two plies deeper when the others
// stay 24 centipawns below the test's window, away from the principal
// variation and at most five times on a line: 51.2%, +8 Elo (95% -5 to
// +22), over 1,200 games at 2+0.02 against the build without them, in
// three opening orders (+19, +5, +1). Not beyond the error bar: not kept.)
/// ProbCut from this depth on; its shallow search is this many plies
/// shallower than the node.
const PROBCUT_MIN_DEPTH: i32 = 5;
const PROBCUT_REDUCTION: i32 = 4;

/// What the singular-extension test concluded.
pub(super) enum Singular {
    /// Search the table's move this many plies deeper (-1, 0 or 1).
    Extend(i32),
    /// The node is over (multi-cut, or the search was stopped): return
    /// this value.
    Return(i32),
}

/// What the move loop knows when it asks whether to skip a move.
pub(super) struct MoveFacts {
    pub ply: u32,
    pub depth: i32,
    pub alpha: i32,
    pub static_eval: i32,
    /// The best value among the moves searched so far.
    pub best: i32,
    /// How many moves came before this one (searched or skipped).
    pub index: usize,
    /// How many quiet moves were searched before this one.
    pub quiets_tried: usize,
    /// Why the picker ordered the move where it did.
    pub reason: OrderReason,
    /// Neither a capture nor a promotion.
    pub quiet: bool,
}

impl<T: Tracer> Searcher<'_, '_, T> {
    /// Whether the side to move at `ply` is "improving": its static
    /// evaluation above the one at its last turn, two plies up (or four,
    /// when it was in check then). Where the evaluation rises, a node is
    /// more likely to fail high and the bets that it will are safer; where
    /// it falls, quiet moves are less likely to rescue it. In check there
    /// is no evaluation: not improving. With no earlier turn to compare
    /// (near the root): improving, the cautious answer for the pruning.
    pub(super) fn improving(&self, ply: u32) -> bool {
        let ply = ply as usize;
        let now = self.evals[ply];
        if now == NO_EVAL {
            return false;
        }
        [2, 4]
            .into_iter()
            .filter(|&back| back <= ply)
            .map(|back| self.evals[ply - back])
            .find(|&then| then != NO_EVAL)
            .is_none_or(|then| now > then)
    }

    /// The node rules, at a non-PV node not in check: `Some(value)` ends
    /// the node with that value before any move is searched.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn prune_node(
        &mut self,
        position: &Chess,
        key: u64,
        depth: i32,
        beta: i32,
        ply: u32,
        static_eval: i32,
        null_allowed: bool,
        cut_node: bool,
        hit: Option<TtHit>,
    ) -> Option<i32> {
        // Reverse futility: far above beta with little depth left, the
        // opponent's best reply is unlikely to recover that much.
        // Where the side is improving, the margin is a ply less with
        // `improving_rfp`.
        let params = self.options.params;
        let margin_depth = depth - i32::from(params.improving_rfp > 0 && self.improving(ply));
        if depth <= params.rfp_depth
            && static_eval - params.rfp_margin * margin_depth >= beta
            && beta.abs() < MATE_BOUND
        {
            return Some(self.shortcut(ply, Shortcut::ReverseFutility, static_eval));
        }
        // (Razoring, at depth 3 and less: a node 250 + 125 depth squared
        // centipawns below beta asking the quiescence search, and ending
        // with its value if that stays below beta, scored 47.9%, -15 +/- 24
        // Elo, over 400 games at 2+0.02 against the build without it, with
        // double singular extensions: not kept.)
        if let Some(value) = self.null_move(
            position,
            key,
            depth,
            beta,
            ply,
            static_eval,
            null_allowed,
            cut_node,
        ) {
            return Some(value);
        }
        self.probcut(position, key, depth, beta, ply, static_eval, cut_node, hit)
    }

    /// The null move (part of [`Searcher::prune_node`]): `Some(value)` ends
    /// the node.
    #[allow(clippy::too_many_arguments)]
    fn null_move(
        &mut self,
        position: &Chess,
        key: u64,
        depth: i32,
        beta: i32,
        ply: u32,
        static_eval: i32,
        null_allowed: bool,
        cut_node: bool,
    ) -> Option<i32> {
        let params = self.options.params;
        // Null move: give the opponent a free move; if we are still above
        // beta after a reduced search, a real move would be too. Not when
        // beta is a mate score: passing is exactly the move a side in
        // zugzwang would love to have, and in a mating net the reduced
        // search is too shallow to see the mate, so the cutoff would hide
        // a shorter mate (or claim an escape that is not there). Not
        // without pieces either: in pawn endings zugzwang is the rule.
        // While a cutoff is being verified, the verifying side may not pass
        // in the plies just below (see below).
        let verifying = self
            .null_verification
            .is_some_and(|(side, until)| side == position.turn() && ply < until);
        if !(null_allowed
            && !verifying
            && depth >= NULL_MOVE_MIN_DEPTH
            && beta.abs() < MATE_BOUND
            && static_eval >= beta
            && has_pieces(position))
        {
            return None;
        }
        let passed = position.clone().swap_turn().ok()?;
        // (Not also more the further the evaluation is above beta, as many
        // engines do: that hid a mate in 3 whose key move leaves the
        // defender in zugzwang, even at depth 20, and verifying the cutoff
        // by a reduced search from depth 6 on did not bring it back. It is
        // the parameter `null_eval`, off: at 200 centipawns a ply it scored
        // +0 at 15,000 nodes a move.)
        let mut reduction = params.null_base + depth / params.null_divisor.max(1);
        if params.null_eval > 0 {
            reduction += ((static_eval - beta) / params.null_eval).clamp(0, 3);
        }
        if T::ENABLED {
            self.tracer.record(TraceEvent::NullMove {
                ply,
                reduction: reduction.clamp(0, i32::from(u8::MAX)) as u8,
            });
        }
        let null_key = passed_key(position, key, &passed);
        self.enter_child(ply, position.turn(), None, null_key);
        let value = -self.negamax(
            &passed,
            null_key,
            depth - 1 - reduction,
            -beta,
            -beta + 1,
            ply + 1,
            false,
            !cut_node,
            passed.is_check(),
        );
        self.path.pop();
        if self.stopped {
            return Some(0);
        }
        if value < beta {
            return None;
        }
        // Do not trust a mate found by passing.
        let value = if value >= MATE_BOUND { beta } else { value };
        // Verification. The null move's bet is that some real move is at
        // least as good as passing; in zugzwang every real move is worse,
        // and the bet is lost: the side that must move loses, yet passing
        // says it stands well. Two mates in 2 whose key move leaves the
        // defender, a queen and rooks up, with only moves that allow mate
        // (1.Nh4 in 7Q/8/P7/5N2/8/4ppp1/3prqp1/3Kbbk1 w, 1.Bd3 in
        // 8/8/8/1B1R3p/5p1P/2p2p2/1prb1P2/1Rnk1K2 w) scored 0.00 even at
        // depth 40: at every depth, the defender's null move cut the key
        // move off. So where zugzwang can hide, the cutoff is checked by
        // searching this node's real moves to the same reduced depth, with
        // this side's null moves off for the plies below (where the same
        // bet would be made again), and taken only if they too reach beta.
        // Where: deep nodes, which are few (so the check costs little) and
        // where a wrong cutoff hides the most (a whole deep subtree); and
        // at any depth when the side has at most one piece besides king
        // and pawns, the endings where zugzwang is common (pawn endings
        // have no null move at all). This is how Stockfish verifies its
        // null moves at high depth.
        if self.null_verification.is_none()
            && (depth >= NULL_VERIFY_DEPTH || pieces(position) <= NULL_VERIFY_PIECES)
        {
            let verify_depth = depth - reduction;
            self.null_verification =
                Some((position.turn(), ply + (3 * verify_depth / 4).max(1) as u32));
            let verified = self.negamax(
                position,
                key,
                verify_depth,
                beta - 1,
                beta,
                ply,
                false,
                cut_node,
                false,
            );
            self.null_verification = None;
            if self.stopped {
                return Some(0);
            }
            // The verification overwrote this ply's line.
            self.pv[ply as usize].clear();
            if verified < beta {
                return None;
            }
        }
        Some(self.shortcut(ply, Shortcut::NullMove, value))
    }

    /// ProbCut: a capture that wins enough material to be far above beta
    /// (beta plus `probcut_margin`) in a search a few plies shallower is
    /// taken as proof that the full search would be above beta too, and
    /// the node ends. The bet rests on how well a shallow search predicts
    /// a deep one (Buro's ProbCut measured that correlation for Othello):
    /// a margin wide enough makes the rare wrong prediction cheap. Only
    /// captures whose exchange alone could reach that far are tried, each
    /// first by the quiescence search (cheap, and most fail there), then
    /// by the shallow search. A table entry at least as deep that already
    /// says the node stays below the raised beta skips the test.
    #[allow(clippy::too_many_arguments)]
    fn probcut(
        &mut self,
        position: &Chess,
        key: u64,
        depth: i32,
        beta: i32,
        ply: u32,
        static_eval: i32,
        cut_node: bool,
        hit: Option<TtHit>,
    ) -> Option<i32> {
        let margin = self.options.params.probcut_margin;
        if margin <= 0 || depth < PROBCUT_MIN_DEPTH || beta.abs() >= MATE_BOUND {
            return None;
        }
        let probe_beta = beta + margin;
        if hit.is_some_and(|hit| {
            hit.depth > depth - PROBCUT_REDUCTION
                && hit.bound != TtBound::Lower
                && hit.value < probe_beta
        }) {
            return None;
        }
        let mut moves = ArrayVec::<Move, 256>::new();
        noisy_moves(position, &mut moves, false);
        for (index, m) in moves.into_iter().enumerate() {
            if see(position, m) < probe_beta - static_eval {
                continue;
            }
            if T::ENABLED {
                self.tracer.record(TraceEvent::MoveTried {
                    ply,
                    mv: m,
                    index: index as u32,
                    reason: OrderReason::GoodCapture,
                    window: WindowKind::Null,
                    reduction: (PROBCUT_REDUCTION - 1) as u8,
                });
            }
            let (child, child_key) = play_with_key(Some(self.ctx.tt), position, key, m);
            self.enter_child(ply, position.turn(), Some(m), child_key);
            let checked = child.is_check();
            let mut value = -self.quiescence(
                &child,
                child_key,
                -probe_beta,
                -probe_beta + 1,
                ply + 1,
                checked,
                0,
                Some(m.to()),
            );
            if value >= probe_beta && !self.stopped {
                value = -self.negamax(
                    &child,
                    child_key,
                    depth - PROBCUT_REDUCTION,
                    -probe_beta,
                    -probe_beta + 1,
                    ply + 1,
                    true,
                    !cut_node,
                    checked,
                );
            }
            self.path.pop();
            if self.stopped {
                return Some(0);
            }
            if value >= probe_beta {
                self.store(
                    key,
                    ply,
                    depth - PROBCUT_REDUCTION + 1,
                    value,
                    probe_beta - 1,
                    probe_beta,
                    Some(m),
                );
                return Some(self.shortcut(ply, Shortcut::ProbCut, value));
            }
        }
        None
    }

    /// Singular extension: when the table says one move is good here (a
    /// lower bound or exact value from a search nearly as deep), test
    /// whether it is the *only* good one: search the other moves, at half
    /// the depth, against a window a little below the table's value. If
    /// none reaches it, the position hangs on that one move, and it is
    /// searched a ply deeper: a single forced line is where a shallow
    /// search goes wrong. If even the others reach beta, several moves
    /// refute the opponent's last move and this node fails high at once
    /// ("multi-cut"). If others reach the table's move's level but not
    /// beta, while the table expects that move to fail high, it is searched
    /// a ply shallower: the cutoff does not hang on it alone.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn singular_test(
        &mut self,
        position: &Chess,
        key: u64,
        depth: i32,
        beta: i32,
        ply: u32,
        hit: Option<TtHit>,
        hash_move: Option<Move>,
        cut_node: bool,
        in_check: bool,
    ) -> Singular {
        let ply_index = ply as usize;
        let (Some(hit), Some(candidate)) = (hit, hash_move) else {
            return Singular::Extend(0);
        };
        if !(ply > 0
            && self.excluded[ply_index].is_none()
            && depth >= SINGULAR_MIN_DEPTH
            && hit.depth >= depth - SINGULAR_TT_DEPTH_SLACK
            && hit.bound != TtBound::Upper
            && hit.value.abs() < TB_BOUND)
        {
            return Singular::Extend(0);
        }
        let singular_beta = hit.value - self.options.params.singular_margin * depth / 8;
        self.excluded[ply_index] = Some(candidate);
        let value = self.negamax(
            position,
            key,
            (depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            ply,
            false,
            cut_node,
            in_check,
        );
        self.excluded[ply_index] = None;
        if self.stopped {
            return Singular::Return(0);
        }
        if value >= singular_beta && singular_beta >= beta {
            return Singular::Return(self.shortcut(ply, Shortcut::MultiCut, singular_beta));
        }
        // The test overwrote this ply's line; the moves below rebuild it.
        self.pv[ply_index].clear();
        if value < singular_beta {
            Singular::Extend(1)
        } else if hit.value >= beta {
            // Not singular, and the table expects the move to fail high
            // anyway: other moves would do as well, so the table's move is
            // searched a ply shallower and the time goes to the rest.
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }

    /// The rules for a quiet move that does not give check: which of them
    /// skips it, and the most it could have scored as far as that rule
    /// knows. Once either applies, it applies to every later quiet move of
    /// the node as well (the depth stays, and the count of quiet moves
    /// searched, the best score and alpha only grow), which lets the
    /// picker leave the rest out (see `MovePicker::only_quiet_checks`).
    pub(super) fn quiet_rule(&self, facts: &MoveFacts) -> Option<(Pruning, i32)> {
        let MoveFacts {
            depth,
            alpha,
            static_eval,
            best,
            index,
            quiets_tried,
            ..
        } = *facts;
        let params = &self.options.params;
        if best <= -MATE_BOUND {
            // Every move so far leads to mate: look at them all.
            None
        } else if depth <= params.lmp_depth
            && quiets_tried as i32 >= self.late_move_count(facts.ply, depth)
        {
            // Late-move pruning: near the horizon, once enough quiet moves
            // have failed, the rest (ordered last for a reason) are skipped.
            Some((Pruning::LateMove, -INFINITY))
        } else if index > 0
            && depth <= params.futility_depth
            && static_eval + params.futility_margin * depth <= alpha
        {
            // Futility: close to the horizon and far below alpha, a quiet
            // move will not help (unless it gives check). It could have
            // scored at most the evaluation plus the margin.
            Some((
                Pruning::Futility,
                static_eval + params.futility_margin * depth,
            ))
        } else {
            None
        }
    }

    /// How many quiet moves late-move pruning searches at `depth`: half as
    /// many where the side is not improving, with `improving_lmp`.
    fn late_move_count(&self, ply: u32, depth: i32) -> i32 {
        let params = &self.options.params;
        let count = (params.lmp_base + depth * depth) * params.lmp_scale / 100;
        if params.improving_lmp > 0 && !self.improving(ply) {
            count / 2
        } else {
            count
        }
    }

    /// The move rules, at a non-PV node not in check: `Some(bound)` skips
    /// move `m` unsearched, where `bound` is the most it could have scored
    /// as far as the rule knows (`-INFINITY` when the rule does not say),
    /// for the node's fail-low bound.
    pub(super) fn prune_move(
        &mut self,
        position: &Chess,
        m: Move,
        facts: &MoveFacts,
    ) -> Option<i32> {
        let MoveFacts {
            ply,
            depth,
            best,
            reason,
            quiet,
            ..
        } = *facts;
        // (Two more quiet-move rules, each measured over 600 game pairs at
        // 15,000 nodes against none and not kept: a quiet move whose
        // history is below -300 a ply at depth 3 and less, which acted in
        // one pair of 600 (this history's values stay small: bonuses of
        // depth squared, halved each search), -0.3 Elo; a quiet move that
        // loses more than 60 centipawns a ply by static exchange, at depth
        // 6 and less, +2.6, 95% -12.8 to +18.0.)
        let skip = if quiet {
            // Both quiet-move rules spare moves that give check: find out
            // only if a rule gets that far.
            self.quiet_rule(facts).filter(|_| !gives_check(position, m))
        } else if reason == OrderReason::BadCapture
            && depth <= self.options.params.see_pruning_depth
            && best > -MATE_BOUND
            && see(position, m) < -self.options.params.see_pruning_margin * depth
        {
            // Captures that lose material by exchange are not worth a
            // search this close to the horizon.
            Some((Pruning::LosingCapture, -INFINITY))
        } else {
            None
        };
        let (rule, bound) = skip?;
        if T::ENABLED {
            // The futility bound in its parts, for the learner to check.
            let estimate = (rule == Pruning::Futility).then(|| Estimate {
                static_eval: facts.static_eval,
                gain: 0,
                margin: (self.options.params.futility_margin * depth).clamp(0, i32::from(i16::MAX))
                    as i16,
            });
            self.record_pruned(ply, m, rule, estimate);
        }
        Some(bound)
    }
}
