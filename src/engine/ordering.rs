//! Move ordering: which move to search first.
//!
//! Alpha-beta's savings depend entirely on the order of moves. If the best
//! move comes first, every other move at that node only has to be shown to be
//! worse, which a null window does cheaply, and at "cut" nodes the first move
//! usually refutes the position outright. With perfect ordering alpha-beta
//! visits about the square root of minimax's nodes; with random ordering it
//! saves little. So the picker hands out moves in stages, most promising
//! first:
//!
//! 1. the hash move: the best move the transposition table remembers (tried
//!    before the other moves are even generated, since it often cuts off);
//! 2. good captures: captures that win or keep material by static exchange
//!    evaluation, most valuable victim first, nudged by capture history
//!    (how often that capture refuted a move in this search);
//! 3. killers: quiet moves that caused a cutoff at the same ply in a sibling
//!    position (a threat that works in one line often works in the next);
//!    then the counter-move: the quiet move that last refuted the move just
//!    played by the opponent (the same piece to the same square), wherever
//!    in the tree that was (a good answer to a move tends to stay good);
//! 4. quiet moves by history score: how often that move (piece, destination)
//!    caused cutoffs anywhere in the search so far; moves with the same
//!    score (early in a search, nearly all of them) by how much better the
//!    piece stands on its new square, by the piece-square tables;
//! 5. bad captures, which lose material by exchange evaluation.
//!
//! The stages are also stages of work: the captures are generated (and
//! weighed by exchange) first, the killers are checked for legality one at
//! a time, and the quiet moves are generated only when none of those ended
//! the node, as at most cut nodes one of them does. (In check, with move
//! tables, or unordered, every move is generated at once.)
//!
//! With move tables switched on (`SearchOptions::table_moves` > 0), the top
//! few quiet moves by table weight go between 3 and 4: the moves whose
//! squares kept refuting positions earlier in the game (see
//! `movetables.rs`). Not earlier: the killers and the counter-move know
//! this search, and a losing capture promoted would escape the exchange
//! pruning bad captures get.
//!
//! What the stages draw on lives next door: the exchange evaluation in
//! `see.rs`, the killers, history and counter-moves in `heuristics.rs`,
//! the generation of captures and quiet moves and the quick legality
//! check in `movegen.rs`. The quiescence search orders its captures itself
//! (`qsearch.rs`), from the same capture generator (`noisy_moves`).

use arrayvec::ArrayVec;
use shakmaty::{Chess, Color, Move, Position, Role, Square};

use super::eval::{blend, relative};
use super::heuristics::Heuristics;
use super::movegen::{
    CheckSquares, gives_check, is_legal_quickly, is_quiet, noisy_moves, quiet_moves,
};
use super::movetables::MoveTables;
use super::pst::{PHASE_TOTAL, PHASE_WEIGHT, PST_EG, PST_MG};
use super::see::{mvv_lva, wins_or_holds};
use super::trace::OrderReason;

/// Capture history is divided by this before it joins the exchange-based
/// key: at most 2,048, a little more than a pawn victim's 1,600.
const CAPTURE_HISTORY_DIVISOR: i32 = 8;

/// Ordering keys. Bands keep the stages apart whatever the scores inside.
const GOOD_CAPTURE: i32 = 1_000_000;
const KILLER_1: i32 = 900_000;
const KILLER_2: i32 = 899_000;
const COUNTER_MOVE: i32 = 898_000;
/// Table moves go after the killers and the counter-move, which are
/// knowledge of this search and this position's neighbours, and before the
/// other quiet moves.
const TABLE_MOVE: i32 = 897_000;
const BAD_CAPTURE: i32 = -1_000_000;

/// A move's place in the order: its ordering key, then (for equal keys)
/// the order the generator gave. Every key is different, so the order does
/// not depend on how the sort or the scan breaks ties.
fn sort_key(key: i32, index: usize) -> i64 {
    sort_key_with_tie(key, 0, index)
}

/// [`sort_key`] with a second key for moves whose first keys are equal
/// (at most about +/-1,000), before the generation order.
fn sort_key_with_tie(key: i32, tie: i32, index: usize) -> i64 {
    (i64::from(key) << 20)
        | (i64::from(tie.clamp(-1023, 1023) + 1024) << 8)
        | (255 - index.min(255)) as i64
}

/// How much better the moving piece stands on its new square than on its
/// old, by the piece-square tables blended for `phase`: the tie-break for
/// quiet moves with the same history score. Early in a search most quiet
/// moves have no history at all, and late-move reductions and pruning go
/// by a move's place in the order, so that order should not be the move
/// generator's (pawn moves first, the king last) but a guess at which
/// moves improve a piece.
fn placement_gain(m: Move, color: Color, phase: i32) -> i32 {
    let (role, from, to) = match m {
        Move::Normal { role, from, to, .. } => (role, from, to),
        Move::Castle { king, rook } => {
            let side = if rook.file() > king.file() {
                shakmaty::CastlingSide::KingSide
            } else {
                shakmaty::CastlingSide::QueenSide
            };
            (Role::King, king, side.king_to(color))
        }
        _ => return 0,
    };
    let r = role as usize - 1;
    let value = |square: Square| {
        let i = relative(square, color);
        blend(PST_MG[r][i], PST_EG[r][i], phase)
    };
    value(to) - value(from)
}

/// A quiet move's ordering key: its history, plus its continuation history
/// as the answer to the opponent's last move where that is switched on.
fn quiet_key(heuristics: &Heuristics, color: Color, m: Move, table: TableChoice) -> i32 {
    let history = heuristics.history(color, m);
    if table.continuation == 0 {
        history
    } else {
        history + heuristics.continuation(color, table.previous, m) * table.continuation / 8
    }
}

/// The game phase of the material on the board (24 = all pieces on).
fn phase_of(position: &Chess) -> i32 {
    let board = position.board();
    let phase = (board.knights().count() + board.bishops().count()) as i32 * PHASE_WEIGHT[1]
        + board.rooks().count() as i32 * PHASE_WEIGHT[3]
        + board.queens().count() as i32 * PHASE_WEIGHT[4];
    phase.min(PHASE_TOTAL)
}

enum Stage {
    HashMove,
    /// Every legal move at once (in check, unordered, or with table moves).
    Generate,
    /// Staged: captures and promotions first, and quiet moves only if
    /// none of those (nor a killer) ends the node.
    Captures,
    GoodCaptures,
    /// The next of the two killers and the counter-move to try.
    Killers(usize),
    Quiets,
    Rest,
}

/// How many move-table moves to try first, and which.
#[derive(Debug, Clone, Copy, Default)]
pub struct TableChoice {
    /// The move that led to this node (its links suggest the reply).
    pub previous: Option<Move>,
    /// How many table moves go first (0 = none).
    pub count: u8,
    /// A move's two square weights must add up to more than this.
    pub threshold: i32,
    /// Whether the history heuristic orders quiet moves.
    pub no_history: bool,
    /// How much a quiet move's continuation history (as the answer to
    /// `previous`) adds to its history in the order, in eighths; 0: none.
    pub continuation: i32,
}

/// Hands out the legal moves of a position one at a time, best first.
pub struct MovePicker {
    stage: Stage,
    hash_move: Option<Move>,
    /// Each move with its sort key (see [`sort_key`]) and why it is there.
    moves: ArrayVec<(Move, i64, OrderReason), 256>,
    /// Moves before this index have been handed out.
    next: usize,
    /// Whether the moves from `next` on are already in order.
    sorted: bool,
    /// Whether the best of the rest has been picked by one scan already.
    scanned: bool,
    /// How many moves have been handed out (for `remaining`).
    handed: usize,
    ordered: bool,
    killers: [Option<Move>; 2],
    /// The killers and counter-move the staged picker handed out: the
    /// quiet moves skip them.
    specials: ArrayVec<Move, 3>,
    table: TableChoice,
    history: bool,
    /// Whether the side to move is in check.
    in_check: bool,
    /// Whether only quiet moves that give check are still wanted (see
    /// [`MovePicker::only_quiet_checks`]).
    checks_only: bool,
    /// Whether the moves from `next` on have been filtered for it.
    filtered: bool,
    /// After filtering, by index: how many quiet moves the filter took out
    /// between the move before and this one, in the order they would have
    /// come.
    skips_before: ArrayVec<u8, 256>,
    /// After filtering, how many it took out after the last move kept.
    skips_after: usize,
    /// Quiet moves skipped since the move loop last asked.
    skipped: usize,
}

impl MovePicker {
    /// `hash_move` must already be known legal (see `PackedMove::unpack`).
    pub fn new(
        hash_move: Option<Move>,
        in_check: bool,
        ordered: bool,
        heuristics: &Heuristics,
        ply: u32,
        table: TableChoice,
    ) -> MovePicker {
        MovePicker {
            stage: if ordered {
                Stage::HashMove
            } else {
                Stage::Generate
            },
            hash_move: if ordered { hash_move } else { None },
            moves: ArrayVec::new(),
            next: 0,
            sorted: false,
            scanned: false,
            handed: 0,
            ordered,
            killers: heuristics.killers(ply),
            specials: ArrayVec::new(),
            history: !table.no_history,
            table,
            in_check,
            checks_only: false,
            filtered: false,
            skips_before: ArrayVec::new(),
            skips_after: 0,
            skipped: 0,
        }
    }

    pub fn next(
        &mut self,
        position: &Chess,
        heuristics: &Heuristics,
    ) -> Option<(Move, OrderReason)> {
        let found = self.advance(position, heuristics);
        if found.is_some() {
            self.handed += 1;
        }
        found
    }

    fn advance(
        &mut self,
        position: &Chess,
        heuristics: &Heuristics,
    ) -> Option<(Move, OrderReason)> {
        loop {
            match self.stage {
                Stage::HashMove => {
                    // In check the evasions are few and generated at once;
                    // with table moves the whole list is needed to rank
                    // them.
                    self.stage = if self.in_check || self.table.count > 0 {
                        Stage::Generate
                    } else {
                        Stage::Captures
                    };
                    if let Some(m) = self.hash_move {
                        return Some((m, OrderReason::HashMove));
                    }
                }
                Stage::Generate => {
                    self.stage = Stage::Rest;
                    self.generate(position, heuristics);
                }
                Stage::Captures => {
                    self.stage = Stage::GoodCaptures;
                    self.generate_captures(position, heuristics);
                }
                Stage::GoodCaptures => {
                    // Good captures have positive keys, losing ones
                    // negative: the losing ones wait for the end.
                    if self.next < self.moves.len() {
                        self.swap_best_to_next();
                        let (m, key, reason) = self.moves[self.next];
                        if key > 0 {
                            self.next += 1;
                            return Some((m, reason));
                        }
                    }
                    self.stage = Stage::Killers(0);
                }
                Stage::Killers(i) => {
                    self.stage = if i < 2 {
                        Stage::Killers(i + 1)
                    } else {
                        Stage::Quiets
                    };
                    let (candidate, reason) = match i {
                        0 => (self.killers[0], OrderReason::Killer),
                        1 => (self.killers[1], OrderReason::Killer),
                        // Counter-moves are part of the history heuristic:
                        // off with it.
                        _ if self.history => (
                            heuristics.counter(position.turn(), self.table.previous),
                            OrderReason::CounterMove,
                        ),
                        _ => (None, OrderReason::CounterMove),
                    };
                    // A killer comes from another position: it must be a
                    // legal quiet move here (a move to a square now
                    // occupied is a capture, and no longer the same move).
                    if let Some(m) = candidate
                        && is_quiet(m)
                        && Some(m) != self.hash_move
                        && !self.specials.contains(&m)
                        && is_legal_quickly(position, m)
                    {
                        self.specials.push(m);
                        if self.checks_only && !gives_check(position, m) {
                            self.skipped += 1;
                            continue;
                        }
                        return Some((m, reason));
                    }
                }
                Stage::Quiets => {
                    self.stage = Stage::Rest;
                    self.generate_quiets(position, heuristics);
                }
                Stage::Rest => return self.pick_best(position),
            }
        }
    }

    /// Captures and promotions, keyed: winning or even ones by victim and
    /// capture history above zero, losing ones below.
    ///
    /// The three generators are kept out of line: inlined, their move
    /// lists (kilobytes of stack, probed page by page) made `next`'s frame
    /// large, and that frame was set up on every call, once per move
    /// handed out, instead of once per stage.
    #[inline(never)]
    fn generate_captures(&mut self, position: &Chess, heuristics: &Heuristics) {
        let color = position.turn();
        let mut noisy = ArrayVec::new();
        noisy_moves(position, &mut noisy, true);
        // By reference: iterating the list by value would first copy all
        // 256 slots of it.
        for &m in &noisy {
            if Some(m) == self.hash_move {
                continue;
            }
            let (key, reason) = self.capture_key(position, heuristics, color, m);
            let index = self.moves.len();
            self.moves.push((m, sort_key(key, index), reason));
        }
    }

    /// The quiet moves, keyed by history, after the captures still waiting
    /// (the losing ones, whose keys put them last).
    #[inline(never)]
    fn generate_quiets(&mut self, position: &Chess, heuristics: &Heuristics) {
        let color = position.turn();
        let phase = phase_of(position);
        // The moves handed out already (the hash move, the killers, the
        // counter-move), as squares: a quiet move is known by its two
        // squares (a capture, promotion or castling never shares them with
        // one: castling's target is its rook's square), and two bytes
        // compare faster than two enums.
        let mut done: ArrayVec<(Square, Square), 4> = ArrayVec::new();
        for m in self.hash_move.iter().chain(&self.specials) {
            if let Some(from) = m.from() {
                done.push((from, m.to()));
            }
        }
        let history = self.history;
        let table = self.table;
        let moves = &mut self.moves;
        quiet_moves(position, |m| {
            if let Some(from) = m.from()
                && done.contains(&(from, m.to()))
            {
                return;
            }
            let key = if history {
                quiet_key(heuristics, color, m, table)
            } else {
                0
            };
            let index = moves.len();
            let tie = placement_gain(m, color, phase);
            moves.push((m, sort_key_with_tie(key, tie, index), OrderReason::Quiet));
        });
    }

    /// A capture's (or promotion's) ordering key and class.
    fn capture_key(
        &self,
        position: &Chess,
        heuristics: &Heuristics,
        color: Color,
        m: Move,
    ) -> (i32, OrderReason) {
        // Capture history adjusts within a class, by up to about a pawn's
        // worth of victim, never across the good/bad line.
        let learned = if self.history {
            heuristics.capture_history(color, m) / CAPTURE_HISTORY_DIVISOR
        } else {
            0
        };
        if wins_or_holds(position, m) {
            (
                GOOD_CAPTURE + mvv_lva(m) + learned,
                OrderReason::GoodCapture,
            )
        } else {
            (BAD_CAPTURE + mvv_lva(m) + learned, OrderReason::BadCapture)
        }
    }

    #[inline(never)]
    fn generate(&mut self, position: &Chess, heuristics: &Heuristics) {
        let color = position.turn();
        let phase = phase_of(position);
        // Counter-moves are part of the history heuristic: off with it.
        let counter = if self.history {
            heuristics.counter(color, self.table.previous)
        } else {
            None
        };
        for m in position.legal_moves() {
            if Some(m) == self.hash_move {
                continue;
            }
            let (key, reason) = if !self.ordered {
                (0, OrderReason::Unordered)
            } else if !is_quiet(m) {
                self.capture_key(position, heuristics, color, m)
            } else if Some(m) == self.killers[0] {
                (KILLER_1, OrderReason::Killer)
            } else if Some(m) == self.killers[1] {
                (KILLER_2, OrderReason::Killer)
            } else if Some(m) == counter {
                (COUNTER_MOVE, OrderReason::CounterMove)
            } else if self.history {
                (
                    quiet_key(heuristics, color, m, self.table),
                    OrderReason::Quiet,
                )
            } else {
                (0, OrderReason::Quiet)
            };
            let index = self.moves.len();
            let tie = if reason == OrderReason::Quiet {
                placement_gain(m, color, phase)
            } else {
                0
            };
            self.moves
                .push((m, sort_key_with_tie(key, tie, index), reason));
        }
        if self.ordered && self.table.count > 0 {
            self.promote_table_moves(color, &heuristics.tables);
        }
    }

    /// Move the top `count` moves by table weight ahead of the other quiet
    /// moves (after the hash move, the good captures, the killers and the
    /// counter-move), keeping their order among themselves.
    fn promote_table_moves(&mut self, color: Color, tables: &MoveTables) {
        let TableChoice {
            previous,
            count,
            threshold,
            ..
        } = self.table;
        let mut chosen: ArrayVec<(i64, usize), 256> = self
            .moves
            .iter()
            .enumerate()
            // Good captures stay ahead; a losing capture is never promoted,
            // or it would escape exchange pruning.
            .filter(|(_, entry)| {
                entry.2 != OrderReason::GoodCapture && entry.2 != OrderReason::BadCapture
            })
            // Killers and the counter-move keep their place ahead.
            .filter(|(_, entry)| {
                entry.2 != OrderReason::Killer && entry.2 != OrderReason::CounterMove
            })
            .filter_map(|(i, &(m, _, _))| Some((tables.key(color, previous, m, threshold)?, i)))
            .collect();
        chosen.sort_unstable_by_key(|a| std::cmp::Reverse(a.0));
        for (rank, &(_, i)) in chosen.iter().take(usize::from(count)).enumerate() {
            self.moves[i].1 = sort_key(TABLE_MOVE - rank as i32, i);
            self.moves[i].2 = OrderReason::TableMove;
        }
    }

    /// The best move not handed out yet. The first call only picks the
    /// best by one scan, since at a cut node the first move usually ends
    /// the search of the node and sorting the rest would be wasted. A node
    /// that asks for a second move usually wants them all (an all node),
    /// so the rest are then sorted once, instead of scanned again for each
    /// move (which would cost the square of their number).
    fn pick_best(&mut self, position: &Chess) -> Option<(Move, OrderReason)> {
        if self.checks_only && !self.filtered {
            self.filter_quiet_checks(position);
        }
        if self.next >= self.moves.len() {
            self.skipped += std::mem::take(&mut self.skips_after);
            return None;
        }
        if self.filtered {
            self.skipped += usize::from(self.skips_before[self.next]);
        } else if self.ordered && !self.sorted {
            if !self.scanned {
                self.scanned = true;
                self.swap_best_to_next();
            } else {
                self.moves[self.next..].sort_unstable_by_key(|entry| std::cmp::Reverse(entry.1));
                self.sorted = true;
            }
        }
        let (m, _, reason) = self.moves[self.next];
        self.next += 1;
        Some((m, reason))
    }

    /// From now on hand out, of the quiet moves, only those that give
    /// check. The move loop asks this once late-move pruning or futility
    /// has skipped a quiet move: both rules then hold for every later
    /// quiet move of the node (they depend on the depth, on how many quiet
    /// moves were searched, and on the best score and alpha, none of which
    /// goes back), and both spare only moves that give check. The other
    /// quiet moves are not handed out one by one to be skipped, nor sorted
    /// among themselves; the loop learns how many there were, and where,
    /// from [`MovePicker::take_skipped`], since their number still counts
    /// (legal moves, each move's place in the order). Only for the ordered
    /// picker, whose order the filter keeps.
    pub fn only_quiet_checks(&mut self) {
        self.checks_only = self.ordered;
    }

    /// How many quiet moves were skipped (see
    /// [`MovePicker::only_quiet_checks`]) since the last call: those
    /// before the move just handed out, or after the last move once the
    /// picker has none left.
    pub fn take_skipped(&mut self) -> usize {
        std::mem::take(&mut self.skipped)
    }

    /// Take the quiet moves that do not give check out of the moves not
    /// handed out yet, sort the rest, and note for each move kept how many
    /// of those taken out would have come just before it.
    fn filter_quiet_checks(&mut self, position: &Chess) {
        self.filtered = true;
        self.sorted = true;
        let checks = CheckSquares::new(position);
        let mut removed: ArrayVec<i64, 256> = ArrayVec::new();
        let mut kept = self.next;
        for i in self.next..self.moves.len() {
            let entry = self.moves[i];
            if is_quiet(entry.0) && !checks.gives_check(position, entry.0) {
                removed.push(entry.1);
            } else {
                self.moves[kept] = entry;
                kept += 1;
            }
        }
        self.moves.truncate(kept);
        self.moves[self.next..].sort_unstable_by_key(|entry| std::cmp::Reverse(entry.1));
        self.skips_before.clear();
        self.skips_before.extend(std::iter::repeat_n(0, self.next));
        let mut counted = 0;
        for i in self.next..self.moves.len() {
            let key = self.moves[i].1;
            let before = removed.iter().filter(|&&r| r > key).count();
            // At most 255 moves in a position, so the count fits.
            self.skips_before.push((before - counted) as u8);
            counted = before;
        }
        self.skips_after = removed.len() - counted;
    }

    /// Bring the best move not handed out yet to the front of the rest.
    fn swap_best_to_next(&mut self) {
        let rest = &mut self.moves[self.next..];
        let mut best = 0;
        for i in 1..rest.len() {
            if rest[i].1 > rest[best].1 {
                best = i;
            }
        }
        rest.swap(0, best);
    }

    /// Moves not handed out yet (for "cutoff with N moves left unsearched").
    /// That costs a move generation, which only a tracing search asks for.
    pub fn remaining(&self, position: &Chess) -> usize {
        position.legal_moves().len().saturating_sub(self.handed)
    }
}

#[cfg(test)]
mod tests;
