//! Training: positions a player comes back to until they are known. Three
//! sources feed one schedule:
//!
//! - **mistakes** of a review: the position before a mistake or blunder,
//!   "find a better move than the one played";
//! - **puzzles** found in any collection (`kibitz puzzles`): one move wins
//!   clearly and the others do not;
//! - **repertoire** positions: the player's own move in an opening line.
//!
//! Each is an [`Exercise`]; the [`schedule`] keeps when each comes back
//! (spaced repetition) in a versioned file of the data folder. Nothing here
//! draws: the command line and the TUI mode do that.

pub mod check;
pub mod find;
pub mod import;
pub mod lesson;
pub mod mistakes;
pub mod repertoire;
pub mod schedule;

use serde::{Deserialize, Serialize};

/// Where an exercise comes from, which decides how an answer is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A review's mistake: any move within the margin of the best counts,
    /// the move played and worse ones do not (the engine checks).
    Mistake,
    /// A puzzle: the solution's moves (and any move that mates at once
    /// where the solution mates at once).
    Puzzle,
    /// A repertoire position: the repertoire's move(s).
    Repertoire,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Mistake => "mistake",
            Kind::Puzzle => "puzzle",
            Kind::Repertoire => "repertoire",
        }
    }
}

/// One position to train: what is asked and what answers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exercise {
    pub kind: Kind,
    /// The position; the side to move answers.
    pub fen: String,
    /// The answer line in UCI, the first move by the side to move (for a
    /// mistake: the engine's best line; for the repertoire: the move).
    pub solution: Vec<String>,
    /// The same line in SAN.
    pub solution_san: Vec<String>,
    /// Other moves that count as right (UCI): a repertoire's second choice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
    /// The move played in the game (UCI), for a mistake: never right.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub played: Option<String>,
    /// For a mistake: centipawns from the best within which a move counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin_cp: Option<i32>,
    /// A puzzle's theme where it is plain ("mate in 2", "fork"...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme: Option<String>,
    /// The moves (SAN) that led here from the line's start, for a
    /// repertoire drill: the opponent's are played on the board before the
    /// question.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub line: Vec<String>,
    /// Where it comes from, for people: "game 3 of club.pgn, 12... Nf6??".
    pub source: String,
}

/// A time from now in words: "now", "in 40 minutes", "in 5 hours", "in
/// 3 days".
pub fn until(seconds: u64) -> String {
    let plural = |n: u64, what: &str| format!("in {n} {what}{}", if n == 1 { "" } else { "s" });
    match seconds {
        0 => "now".to_string(),
        s if s < 90 * 60 => plural(s.div_ceil(60), "minute"),
        s if s < 20 * 60 * 60 => plural((s + 1800) / 3600, "hour"),
        s => plural((s + schedule::DAY / 2) / schedule::DAY, "day"),
    }
}

impl Exercise {
    /// The key that makes two exercises the same one: the kind and the
    /// position (without the move counters, which do not change the
    /// question). Adding an exercise already scheduled keeps the old one's
    /// history.
    pub fn key(&self) -> String {
        let board: Vec<&str> = self.fen.split_whitespace().take(4).collect();
        format!("{}:{}", self.kind.name(), board.join(" "))
    }
}
