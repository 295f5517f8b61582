//! Quiescence search: do not stop the search in the middle of a fight.
//!
//! At depth 0 the main search would like to call the static evaluation, but
//! if a queen is hanging or a recapture is pending, the evaluation of that
//! moment is meaningless (the *horizon effect*). So the search goes on, with
//! captures only, until the position is quiet. The side to move may also
//! decline to capture: its *stand-pat* score (the static evaluation) is a
//! lower bound on its value, and if that is already at least beta the node
//! is done.
//!
//! Captures that lose material by static exchange evaluation (see
//! `see.rs`) are not searched: they almost never help and they make
//! the search explode. When in check, standing pat is not allowed (the
//! threat is real), so all evasions are searched and a position without one
//! is checkmate; the textbook search also scores a stalemate as a draw.

use arrayvec::ArrayVec;
use shakmaty::{Chess, Move, Position, Role, Square};

use super::movegen::noisy_moves;
use super::searcher::{Searcher, play_with_key};
use super::see::{mvv_lva, see, see_bounds};
use super::trace::{Estimate, OrderReason, Pruning, Shortcut, TraceEvent, Tracer, WindowKind};
use super::tt::PackedMove;
use super::values::{DRAW, INFINITY, MATE, MAX_PLY};

/// The engine's quiescence search is bounded in how far it plays out
/// captures that do not win material. Without a bound, a position full of
/// pieces that can trade evenly (say eight rooks facing eight rooks) makes
/// the search try every order of every trade: each even capture leaves the
/// material where it was, so neither stand-pat nor delta pruning ends the
/// line, and the tree grows like the number of captures to the power of
/// the number of plies (the 32-rook position took 16 M nodes for a
/// one-ply search and never finished two plies). The engine searched it
/// quickly while quiescence used the transposition table, which merged the
/// many orders of the same trades; it left the table for speed (778dd95).
///
/// So, as strong engines do: from this many plies into quiescence on, an
/// even capture (exchange value 0) is searched only when it takes back on
/// the square of the last capture, which finishes a trade under way;
/// starting yet another trade elsewhere is left to the stand-pat, which
/// judges it as well as a search would (it changes no material). Captures
/// that win material are still searched: each one takes material for
/// good, so they end soon on their own.
const QS_EVEN_TRADE_PLIES: u32 = 4;

/// From this many plies into quiescence on, only recaptures on the square
/// of the last move are searched (as Stockfish long did beyond its fifth
/// quiescence ply): a hard bound on the line's length that still finishes
/// the exchange under way, which can only last as long as there are
/// pieces attacking that one square. Positions where both sides keep
/// winning material elsewhere this deep are wild enough that the
/// stand-pat after the exchange is as good a guess as any.
const QS_RECAPTURE_PLIES: u32 = 8;

impl<T: Tracer> Searcher<'_, '_, T> {
    /// `qply`: plies since the quiescence search began (0 at the horizon);
    /// `last_to`: the square the last quiescence move went to (none at the
    /// horizon), for the bounds above.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn quiescence(
        &mut self,
        position: &Chess,
        key: u64,
        mut alpha: i32,
        beta: i32,
        ply: u32,
        in_check: bool,
        qply: u32,
        last_to: Option<Square>,
    ) -> i32 {
        debug_assert_eq!(in_check, position.is_check());
        if !self.enter(ply, 0, alpha, beta, true) {
            return 0;
        }
        // The deepest ply the search can hold: the evaluation has to do.
        if ply as usize >= MAX_PLY - 1 {
            self.stats.totals.leaves += 1;
            let value = self.evaluate(position, key, ply);
            if T::ENABLED {
                self.tracer.record(TraceEvent::LeafEval { ply, value });
            }
            return self.leave(ply, value);
        }

        let ab = self.options.alpha_beta;
        // The textbook search (teach mode) remembers quiescence results in
        // the table too (as depth 0), which saves re-searching the same
        // capture sequences from other lines, and shows the learner that a
        // table answers here as anywhere. The engine's own search does not:
        // the table is far larger than the processor's caches, so a probe
        // waits on main memory, and a quiescence node is otherwise cheap (a
        // stand-pat, a few captures). Measured with the network: 13% more
        // nodes a second and 5% fewer nodes to the same depth without it,
        // and +16 +/- 24 Elo in 400 games at 2+0.02; with the hand-written
        // evaluation the tree to the same depth grows 6%, and the nodes
        // come faster still.
        let table = !self.options.selective;
        if table && let (_, Some(value)) = self.probe_table(key, ply, 0, alpha, beta) {
            return self.leave(ply, value);
        }
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut stand_pat = -INFINITY;
        let mut moves = ArrayVec::new();
        if in_check {
            moves.extend(position.legal_moves());
            if moves.is_empty() {
                return self.shortcut(ply, Shortcut::Checkmate, -MATE + ply as i32);
            }
        } else {
            // A quiet position without a legal move is stalemate, a draw,
            // whatever the pieces say. The textbook search (what teach mode
            // shows) checks; the engine's own selective search does not:
            // generating every legal move at each quiescence node costs more
            // than the rare stalemate at the horizon is worth.
            if !self.options.selective && position.legal_moves().is_empty() {
                return self.shortcut(ply, Shortcut::Stalemate, DRAW);
            }
            // (Standing pat on the evaluation corrected by the correction
            // history, as the pruning rules above the horizon use it, in the
            // engine's own search: +106 =191 -103, 50.4%, +3 +/- 25 Elo, over
            // 400 games at 2+0.02 against the build without it, with the
            // network: not kept.)
            stand_pat = self.evaluate(position, key, ply);
            self.stats.totals.leaves += 1;
            if T::ENABLED {
                self.tracer.record(TraceEvent::StandPat {
                    ply,
                    value: stand_pat,
                });
            }
            best = stand_pat;
            if best > alpha {
                if ab && best >= beta {
                    if table {
                        self.store(key, ply, 0, best, original_alpha, beta, None);
                    }
                    return self.leave(ply, best);
                }
                if ab {
                    alpha = best;
                }
            }
            quiescence_moves(position, false, self.options.move_ordering, &mut moves);
            if self.options.selective && ab && qply >= QS_EVEN_TRADE_PLIES {
                // The bounds above (the selective search's, as the
                // textbook search keeps the table instead). The moves left
                // out are not quiescence moves here, as quiet moves are
                // not anywhere in quiescence: the trace does not list them.
                let recaptures_only = qply >= QS_RECAPTURE_PLIES;
                moves.retain(|m| {
                    Some(m.to()) == last_to
                        || (!recaptures_only
                            && (see_bounds(*m).0.is_some_and(|lower| lower > 0)
                                || see(position, *m) > 0))
                });
            }
        }

        let reason = if in_check {
            OrderReason::Evasion
        } else if self.options.move_ordering {
            OrderReason::GoodCapture
        } else {
            OrderReason::Unordered
        };
        let window = if ab {
            WindowKind::Full
        } else {
            WindowKind::Infinite
        };
        let count = moves.len();
        let mut best_move = None;
        for (index, &m) in moves.iter().enumerate() {
            if !in_check {
                let delta = self.options.selective && ab;
                // Delta pruning's margin (`SearchParams::delta_margin`).
                let delta_margin = self.options.params.delta_margin;
                // Whether a capture gaining `gain` could bring the score
                // within reach of alpha (delta pruning skips it if not).
                let reaches = |gain: i32| stand_pat + gain + delta_margin > alpha;
                // Most captures are settled by the exchange's bounds alone
                // (see `see_bounds`): one that cannot reach alpha even
                // winning its victim outright is skipped either way, and
                // one that cannot lose and reaches alpha at its worst is
                // searched either way. The exchange is played out for the
                // rest, and always when tracing, which names the rule.
                let (lower, upper) = see_bounds(m);
                // What the exchange wins, where it was played out (always
                // when tracing): delta pruning's estimate names it.
                let mut gain = 0;
                let pruned = if !T::ENABLED && delta && !reaches(upper) {
                    Some(Pruning::Delta)
                } else if !T::ENABLED && lower.is_some_and(|lower| !delta || reaches(lower)) {
                    None
                } else {
                    let exchange = see(position, m);
                    gain = exchange;
                    if exchange < 0 {
                        Some(Pruning::LosingCapture)
                    } else if delta && !reaches(exchange) {
                        Some(Pruning::Delta)
                    } else {
                        None
                    }
                };
                if let Some(reason) = pruned {
                    if T::ENABLED {
                        let estimate = (reason == Pruning::Delta).then(|| Estimate {
                            static_eval: stand_pat,
                            gain: gain.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
                            margin: delta_margin.clamp(0, i32::from(i16::MAX)) as i16,
                        });
                        self.tracer.record(TraceEvent::MovePruned {
                            ply,
                            mv: m,
                            reason,
                            estimate,
                        });
                    }
                    continue;
                }
            }
            if T::ENABLED {
                self.tracer.record(TraceEvent::MoveTried {
                    ply,
                    mv: m,
                    index: index as u32,
                    reason,
                    window,
                    reduction: 0,
                });
            }
            let (child, key) = play_with_key(table.then_some(self.ctx.tt), position, key, m);
            self.moved(ply + 1, position.turn(), Some(m));
            let checked = child.is_check();
            let value = if ab {
                -self.quiescence(
                    &child,
                    key,
                    -beta,
                    -alpha,
                    ply + 1,
                    checked,
                    qply + 1,
                    Some(m.to()),
                )
            } else {
                -self.quiescence(
                    &child,
                    key,
                    -INFINITY,
                    INFINITY,
                    ply + 1,
                    checked,
                    qply + 1,
                    Some(m.to()),
                )
            };
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                best_move = Some(m);
                if value > alpha {
                    if ab {
                        alpha = value;
                    }
                    if T::ENABLED {
                        self.tracer
                            .record(TraceEvent::AlphaRaised { ply, mv: m, value });
                    }
                    if ab && value >= beta {
                        self.stats.totals.beta_cutoffs += 1;
                        if index == 0 {
                            self.stats.totals.first_move_cutoffs += 1;
                        }
                        if T::ENABLED {
                            self.tracer.record(TraceEvent::BetaCutoff {
                                ply,
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
        if table {
            self.store(key, ply, 0, best, original_alpha, beta, best_move);
        }
        self.leave(ply, best)
    }
}

/// Captures (and promotions) for quiescence search, most valuable victim
/// first, with each move's exchange value; losing ones are left out by the
/// caller.
///
/// The moves go into `moves` (cleared first) rather than a returned list:
/// a list of 256 moves is 1.5 KB, and copying it out of every quiescence
/// node costs more than many of them spend searching.
pub(super) fn quiescence_moves(
    position: &Chess,
    in_check: bool,
    ordered: bool,
    moves: &mut ArrayVec<Move, 256>,
) {
    moves.clear();
    if ordered && !in_check {
        noisy_moves(position, moves, false);
    } else {
        // Unordered (the teaching search shows moves as the generator gives
        // them) or in check: every legal move, filtered.
        moves.extend(
            position
                .legal_moves()
                .into_iter()
                .filter(|&m| m.is_capture() || m.promotion() == Some(Role::Queen)),
        );
    }
    if ordered {
        // Ties (two equal captures) go in a fixed order of their own, so
        // the search does not depend on the order moves were generated in.
        // Each key is made once, not at every comparison: most valuable
        // victim first, then the packed move (unique within a position).
        let key =
            |m: Move| ((32_768 - mvv_lva(m)) as u32) << 16 | u32::from(PackedMove::new(m).raw());
        // The lists are short (a handful of captures), where a plain
        // insertion sort beats the library's general one; the keys sit in
        // a list of their own beside the moves, sorted along with them.
        let mut keys = [0u32; 64];
        if moves.len() > keys.len() {
            moves.sort_by_cached_key(|&m| key(m));
            return;
        }
        for i in 0..moves.len() {
            let (m, k) = (moves[i], key(moves[i]));
            let mut at = i;
            while at > 0 && keys[at - 1] > k {
                keys[at] = keys[at - 1];
                moves[at] = moves[at - 1];
                at -= 1;
            }
            keys[at] = k;
            moves[at] = m;
        }
    }
}
