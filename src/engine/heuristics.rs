//! What the search learns about moves as it goes, and keeps from one node
//! (and one search) to the next: killers, history, counter-moves, capture
//! history, and the move tables.
//!
//! The transposition table remembers positions; these remember *moves*, so
//! what refuted one line can be tried first in a sibling line that differs
//! by a move or two:
//!
//! - killers: quiet moves that caused a cutoff at the same ply (a threat
//!   that works in one line often works in the next);
//! - the counter-move: the quiet move that last refuted the opponent's
//!   move (the same piece to the same square), wherever in the tree that
//!   was (a good answer to a move tends to stay good);
//! - history: how often a quiet move (piece, destination) caused cutoffs
//!   anywhere in the search so far, and capture history, the same for
//!   captures;
//! - the move tables (`movetables.rs`), kept for the whole game, which the
//!   picker consults when table moves are switched on.
//!
//! The picker (`ordering.rs`) reads them; the search's move loop writes
//! them after each cutoff. The same struct carries the evaluation cache and
//! the correction history: not ordering knowledge, but memory that lives as
//! long, in the same place.

use shakmaty::{Color, Move};

use super::correction::Corrections;
use super::evalcache::EvalCache;
use super::movechains::MoveChains;
use super::movetables::{MoveTables, TableId, TableWeights};
use super::values::MAX_PLY;

/// History scores saturate here, so old successes fade as new ones arrive.
const HISTORY_MAX: i32 = 16_384;

/// What the search learns about quiet moves as it goes.
#[derive(Clone)]
pub struct Heuristics {
    killers: [[Option<Move>; 2]; MAX_PLY],
    /// Indexed by colour, moving role and destination square.
    history: [[[i32; 64]; 6]; 2],
    /// The quiet move that last refuted a move, by the refuting side's
    /// colour and the refuted move's role and destination.
    counters: [[[Option<Move>; 64]; 6]; 2],
    /// Continuation history: how often a quiet move (piece, destination)
    /// refuted the opponent's last move (piece, destination), by the
    /// replying side's colour. History says "this move is often good";
    /// this says "this move is often good *as the answer to that one*",
    /// which the counter-move keeps only one of. Flat, indexed by
    /// [`continuation_index`], in 16 bits: 576 KiB, allocated at its first
    /// record, so a search that leaves it off neither allocates nor halves
    /// it. Off by default: added in full to the history it scored -1 Elo
    /// over 800 games (`params.rs`, `continuation`). (An earlier one, as
    /// the answer to the last move and as the follow-up to the move before
    /// it, in 32 bits, scored 48.4%, -11 +/- 25 Elo, over 400 games at
    /// 2+0.02 against the build without it, at 5% fewer nodes a second for
    /// its 1.2 MB of tables: not kept.)
    continuation: Vec<i16>,
    /// Capture history: how often a capture (by colour, capturing role,
    /// destination and captured role) refuted the opponent's last move.
    /// The exchange value says what a capture wins on the board; this says
    /// whether it *worked* in this search, which breaks the ties
    /// most-valuable-victim ordering leaves and demotes captures that keep
    /// failing.
    capture_history: [[[[i32; 6]; 64]; 6]; 2],
    /// Greer's move tables: kept for the whole game, not per search.
    pub tables: MoveTables,
    /// Greer's move chains (`movechains.rs`), the move-chain search's
    /// short-term memory: kept for the whole game, like the tables.
    pub chains: MoveChains,
    /// Not an ordering heuristic, but memory the search keeps from one
    /// search to the next in the same place: evaluations by position key.
    pub evals: EvalCache,
    /// The evaluation's average error by pawn structure (see
    /// `correction.rs`): kept for the whole game, like the evaluations.
    pub corrections: Corrections,
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics {
            killers: [[None; 2]; MAX_PLY],
            history: [[[0; 64]; 6]; 2],
            counters: [[[None; 64]; 6]; 2],
            capture_history: [[[[0; 6]; 64]; 6]; 2],
            continuation: Vec::new(),
            tables: MoveTables::default(),
            chains: MoveChains::default(),
            evals: EvalCache::default(),
            corrections: Corrections::default(),
        }
    }
}

impl Heuristics {
    pub fn clear(&mut self) {
        *self = Heuristics::default();
    }

    /// Between searches: killers belong to the old tree; history is halved
    /// so it still helps but yields to what the new search finds. The move
    /// tables are a memory of the whole game and stay as they are; only
    /// their search scope (what the maps show as "this search") starts
    /// empty.
    pub fn new_search(&mut self) {
        self.tables.new_search();
        self.killers = [[None; 2]; MAX_PLY];
        for value in self.history.iter_mut().flatten().flatten() {
            *value /= 2;
        }
        for value in self
            .capture_history
            .iter_mut()
            .flatten()
            .flatten()
            .flatten()
        {
            *value /= 2;
        }
        for value in &mut self.continuation {
            *value /= 2;
        }
    }

    /// The move memory as the maps show it: the move tables (both scopes,
    /// with their links), the history by table (colour and piece) and
    /// destination, and the counter-moves.
    pub fn maps(&self) -> TableWeights {
        let mut maps = self.tables.snapshot();
        for id in TableId::ALL {
            // The history and counters are indexed as the tables are: by
            // colour, then shakmaty's role order less one.
            let role = id.role as usize - 1;
            maps.history[id.index()] = self.history[id.color as usize][role];
            // A counter-move is stored under the side that plays it.
            let replies = &self.counters[(!id.color) as usize][role];
            maps.counters[id.index() * 64..(id.index() + 1) * 64].copy_from_slice(replies);
        }
        maps
    }

    fn history_slot(&mut self, color: Color, m: Move) -> &mut i32 {
        let (role, to) = piece_to(m);
        &mut self.history[color as usize][role][to]
    }

    pub fn history(&self, color: Color, m: Move) -> i32 {
        let (role, to) = piece_to(m);
        self.history[color as usize][role][to]
    }

    /// A quiet move caused a beta cutoff at `depth`: remember it as a killer
    /// and reward it, and punish the quiet moves tried before it, which
    /// wasted time.
    pub fn record_cutoff(
        &mut self,
        color: Color,
        ply: u32,
        depth: i32,
        best: Move,
        tried: &[Move],
        previous: Option<Move>,
    ) {
        if let Some(previous) = previous {
            let (role, to) = piece_to(previous);
            self.counters[color as usize][role][to] = Some(best);
        }
        let ply = (ply as usize).min(MAX_PLY - 1);
        if self.killers[ply][0] != Some(best) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(best);
        }
        for &m in tried {
            update_history(self.history_slot(color, m), depth, m == best);
        }
    }

    /// The continuation history of quiet move `m` by `color` as the answer
    /// to `previous` (0 without one).
    pub fn continuation(&self, color: Color, previous: Option<Move>, m: Move) -> i32 {
        // Before the first record the table is empty and every answer 0.
        previous
            .and_then(|previous| {
                self.continuation
                    .get(continuation_index(color, previous, m))
            })
            .map_or(0, |&value| i32::from(value))
    }

    /// A quiet move refuted `previous` at `depth`: reward it as the answer
    /// to that move, and punish the quiet moves tried before it.
    pub fn record_continuation(
        &mut self,
        color: Color,
        depth: i32,
        best: Move,
        tried: &[Move],
        previous: Move,
    ) {
        if self.continuation.is_empty() {
            self.continuation = vec![0; CONTINUATION_SIZE];
        }
        for &m in tried {
            let slot = &mut self.continuation[continuation_index(color, previous, m)];
            let mut value = i32::from(*slot);
            update_history(&mut value, depth, m == best);
            // Gravity keeps it within +-HISTORY_MAX, which fits 16 bits.
            *slot = value.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
        }
    }

    fn capture_slot(&mut self, color: Color, m: Move) -> &mut i32 {
        let (role, to) = piece_to(m);
        &mut self.capture_history[color as usize][role][to][captured_index(m)]
    }

    pub fn capture_history(&self, color: Color, m: Move) -> i32 {
        let (role, to) = piece_to(m);
        self.capture_history[color as usize][role][to][captured_index(m)]
    }

    /// A move caused a beta cutoff at `depth`: if it was a capture, reward
    /// it; either way the captures tried before it failed, and lose credit.
    pub fn record_capture_cutoff(
        &mut self,
        color: Color,
        depth: i32,
        best: Move,
        captures_tried: &[Move],
    ) {
        for &m in captures_tried {
            update_history(self.capture_slot(color, m), depth, m == best);
        }
    }

    pub(super) fn counter(&self, color: Color, previous: Option<Move>) -> Option<Move> {
        let (role, to) = piece_to(previous?);
        self.counters[color as usize][role][to]
    }

    pub(super) fn killers(&self, ply: u32) -> [Option<Move>; 2] {
        self.killers[(ply as usize).min(MAX_PLY - 1)]
    }
}

/// The (moving role, destination) index that history and counter-moves
/// share.
fn piece_to(m: Move) -> (usize, usize) {
    (m.role() as usize - 1, m.to().to_usize())
}

/// The continuation table's size: colour, the previous move's role and
/// destination, this move's role and destination.
const CONTINUATION_SIZE: usize = 2 * 6 * 64 * 6 * 64;

/// Where the continuation history keeps `m` by `color` answering `previous`.
fn continuation_index(color: Color, previous: Move, m: Move) -> usize {
    let (previous_role, previous_to) = piece_to(previous);
    let (role, to) = piece_to(m);
    (((color as usize * 6 + previous_role) * 64 + previous_to) * 6 + role) * 64 + to
}

/// Reward (or punish) one history score for a cutoff at `depth`: deeper
/// cutoffs count more. Gravity: the update shrinks as the score nears the
/// limit, so old successes fade as new ones arrive.
///
/// (Quiet history learning thirty-two times as fast, a bonus of 32 depth
/// squared up to 3,200, so that a few cutoffs move a score a good part of
/// the way to its limit: +105 =200 -95, +9 +/- 24 Elo, over 400 games at
/// 2+0.02 against the build without it. With `lmr_history` at 8,192 on
/// top, 49.3% after 209 games; with quiet moves also skipped at depth 3
/// and less when their history was below -1,500 a ply, 46.1% after 190
/// games: neither run finished, and none of the three was kept.)
fn update_history(slot: &mut i32, depth: i32, rewarded: bool) {
    let bonus = (depth * depth).min(400);
    let delta = if rewarded { bonus } else { -bonus };
    *slot += delta - *slot * delta.abs() / HISTORY_MAX;
}

/// The captured role's index (0 = pawn .. 4 = queen), or 5 for a
/// promotion that captures nothing.
fn captured_index(m: Move) -> usize {
    m.capture().map_or(5, |role| role as usize - 1)
}
