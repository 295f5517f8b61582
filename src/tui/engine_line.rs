//! The one conversion from an engine report to what the panels show: every
//! mode keeps its engine output as `EngineLine`s made here.

use std::time::Duration;

use shakmaty::{Chess, Move, Position};

use crate::engine::{Score, SearchInfo};
use crate::game::notation::san_line;

/// One line of the engine's search, converted for display.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineLine {
    pub depth: u32,
    pub seldepth: u32,
    /// From White's point of view.
    pub score: Score,
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
            pv: info.pv.clone(),
            san: san_line(position, &info.pv),
            nodes: info.nodes,
            nps: info.nps,
            elapsed: info.elapsed,
        }
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
