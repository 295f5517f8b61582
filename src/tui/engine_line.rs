//! The one conversion from an engine report to what the panels show: every
//! mode keeps its engine output as `EngineLine`s made here.

use std::time::Duration;

use shakmaty::{Chess, Move, Position};

use crate::engine::search::TB_WIN;
use crate::engine::{Bound, Score, SearchInfo};
use crate::game::notation::san_line;
use crate::tablebase::{Tablebases, Wdl};

/// One line of the engine's search, converted for display.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineLine {
    pub depth: u32,
    pub seldepth: u32,
    /// From White's point of view.
    pub score: Score,
    /// What `score` is, also from White's point of view: exact, or (a
    /// search cut short in the middle of an iteration, an aspiration
    /// window's failure) only a bound.
    pub bound: Bound,
    pub pv: Vec<Move>,
    pub san: Vec<String>,
    pub nodes: u64,
    pub nps: u64,
    pub elapsed: Duration,
}

impl EngineLine {
    /// The line of `info`, a report about `position`.
    pub fn from_info(position: &Chess, info: &SearchInfo) -> EngineLine {
        EngineLine {
            depth: info.depth,
            seldepth: info.seldepth,
            score: info.score.for_white(position.turn()),
            bound: info.bound.for_white(position.turn()),
            pv: info.pv.clone(),
            san: san_line(position, &info.pv),
            nodes: info.nodes,
            nps: info.nps,
            elapsed: info.elapsed,
        }
    }

    /// The score as the panels write it: `+0.35`, or `≥ +0.35` / `≤ +0.35`
    /// when the search proved only a bound.
    pub fn score_label(&self) -> String {
        format!(
            "{}{}",
            self.bound.mark(),
            crate::text::score_text(self.score)
        )
    }

    /// Replace the search's score by what the tables say of the position
    /// after the line's first move, where they cover it (the position on
    /// the board may have a piece more, which the first move captures).
    fn take_table_verdict(&mut self, position: &Chess, tables: &Tablebases) {
        let Some(&first) = self.pv.first() else {
            return;
        };
        let mut child = position.clone();
        child.play_unchecked(first);
        if child.is_checkmate() {
            return;
        }
        let Some(probe) = tables.probe(&child) else {
            return;
        };
        // `probe` is from the opponent's side; the mover's is the reverse,
        // one ply further from mate.
        let for_mover = match (probe.wdl, probe.dtm) {
            (Wdl::Draw | Wdl::CursedWin | Wdl::BlessedLoss, _) => Score::Centipawns(0),
            // Plies to mate from `position`, as UCI counts moves.
            (_, Some(plies)) if plies > 0 => Score::Mate(-(plies + 1) / 2),
            (_, Some(plies)) if plies < 0 => Score::Mate((-plies + 2) / 2),
            (Wdl::Win, _) => Score::Centipawns(-TB_WIN),
            (Wdl::Loss, _) => Score::Centipawns(TB_WIN),
        };
        self.score = for_mover.for_white(position.turn());
        self.bound = Bound::Exact;
    }
}

/// The analysis board's engine lines: only what the search has proved.
///
/// The engine reports each MultiPV line as it finishes an iteration, the
/// aspiration window's failures as bounds, and heartbeats that repeat the
/// last line with fresh counts. Shown one by one, those mix depths (line 1
/// of depth 12 beside line 2 of depth 11, perhaps the same move) and bounds
/// with exact scores. So a line is shown only once its whole iteration is
/// finished: the lines on screen are all of one depth, exact, of distinct
/// first moves, ordered best first for the side to move. Bounds and
/// heartbeats only tell how far the next iteration has got.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AnalysisLines {
    /// The lines of the last finished iteration, best first.
    pub shown: Vec<EngineLine>,
    /// The finished lines of the iteration under way.
    forming: Vec<EngineLine>,
    /// The depth being searched now, if deeper than the lines shown.
    pub searching: Option<u32>,
}

impl AnalysisLines {
    pub fn clear(&mut self) {
        *self = AnalysisLines::default();
    }

    /// Take one report of a search of `position` that asked for `multipv`
    /// lines. `tables`, when given, override the scores where they cover
    /// the position. True when the lines shown changed.
    pub fn accept(
        &mut self,
        position: &Chess,
        multipv: usize,
        info: &SearchInfo,
        tables: Option<&Tablebases>,
    ) -> bool {
        // Heartbeats carry fresh counts: show them on every line.
        for l in &mut self.shown {
            l.nodes = info.nodes;
            l.nps = info.nps;
        }
        let shown_depth = self.shown.first().map_or(0, |l| l.depth);
        if info.depth > shown_depth {
            self.searching = Some(info.depth);
        }
        if !info.complete || info.bound != Bound::Exact || info.pv.is_empty() {
            return false;
        }
        let line = EngineLine::from_info(position, info);
        if self.forming.first().is_some_and(|l| l.depth != line.depth) {
            self.forming.clear();
        }
        let index = info.multipv.saturating_sub(1);
        if index != self.forming.len()
            || self.forming.iter().any(|l| l.pv.first() == line.pv.first())
        {
            // Out of order or a repeated move: not a line of this iteration.
            return false;
        }
        self.forming.push(line);
        let expected = multipv.clamp(1, position.legal_moves().len().max(1));
        if self.forming.len() < expected {
            return false;
        }
        let mut lines = std::mem::take(&mut self.forming);
        if let Some(tables) = tables {
            for l in &mut lines {
                l.take_table_verdict(position, tables);
            }
        }
        // Best first for the side to move. (The search finds them in that
        // order, but a later line may still come back better than an
        // earlier one; the sort keeps equal scores in the engine's order.)
        let turn = position.turn();
        lines.sort_by(|a, b| {
            crate::text::score_order(b.score.for_white(turn), a.score.for_white(turn))
        });
        self.shown = lines;
        self.searching = None;
        true
    }
}

/// The engine's own move search in a game, as the engine panel shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Thinking {
    /// The search's best line (its first MultiPV line).
    pub line: EngineLine,
    /// Still searching (false: this was the search of its last move).
    pub live: bool,
    /// The move the engine played at the end of the search: below full
    /// strength a level may pick another of the near-best moves than the
    /// best line's first, and the panel says so.
    pub played: Option<Played>,
    /// The last line that came as a lower bound for the side to move,
    /// since the last exact one. A search the clock cuts short in the
    /// middle of an iteration ends by sending the best line it has found
    /// in it, a bound (the moves it never reached might do better): when
    /// the move played is that line's first, the panel shows that line,
    /// not the last exact one, which may begin with another move.
    pub cut: Option<EngineLine>,
}

/// The move a search ended with.
#[derive(Debug, Clone, PartialEq)]
pub struct Played {
    pub san: String,
    /// The move's own score, from White's point of view.
    pub score: Score,
    /// The level that chose it, when below full strength.
    pub level: Option<u8>,
}

impl Thinking {
    /// The played move when it is not the best line's first move.
    pub fn other_choice(&self) -> Option<&Played> {
        self.played
            .as_ref()
            .filter(|played| self.line.san.first() != Some(&played.san))
    }
}
