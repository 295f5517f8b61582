//! A found puzzle as `kibitz puzzles --json` writes it (one object per
//! line), read back for training: [`Puzzle::from_json_line`] checks what a
//! file says (a hand-edited or foreign file may say anything) and
//! [`Puzzle::to_exercise`] makes it an [`Exercise`]; `train::import` reads
//! a whole file with them.

use serde::{Deserialize, Serialize};
use shakmaty::fen::Fen;
use shakmaty::{EnPassantMode, Position};
use thiserror::Error;

use crate::game::fen::parse_fen;
use crate::game::notation::{parse_uci, uci};
use crate::train::{Exercise, Kind};

/// One puzzle: the position, the line that solves it, where it comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Puzzle {
    /// The position; the side to move solves.
    pub fen: String,
    /// The solution in UCI: the solver's moves and the forced replies
    /// between them (an odd number of plies, the first by the side to
    /// move).
    pub solution: Vec<String>,
    /// The same line in SAN.
    pub solution_san: Vec<String>,
    /// The themes where they are plain ("mate in 2", "fork, endgame"),
    /// comma-separated; `null` when none is.
    pub theme: Option<String>,
    /// The game's number in the file, from 1.
    pub game: usize,
    /// The ply of the position in the game's main line (0 = the start,
    /// 1 = after White's first move).
    pub ply: usize,
    /// The move that made the puzzle, numbered (`12... Qxd4`), for
    /// people; not in the JSON.
    #[serde(skip)]
    pub after: String,
}

/// Why a line of a puzzle file is not a puzzle.
#[derive(Debug, Error, PartialEq)]
pub enum PuzzleError {
    #[error("not a puzzle object: {0}")]
    Json(String),
    #[error("bad fen: {0}")]
    Fen(String),
    #[error("the solution is empty")]
    Empty,
    #[error(
        "the solution has {0} moves: a puzzle's has an odd number (it ends on the solver's move)"
    )]
    Even(usize),
    #[error("solution move {index} ({text}) is not legal there")]
    Illegal { index: usize, text: String },
    #[error("solution_san has {san} moves for {uci} in solution")]
    SanLength { san: usize, uci: usize },
    #[error("solution_san move {index} is {given}, but solution's move there is {actual}")]
    SanMismatch {
        index: usize,
        given: String,
        actual: String,
    },
}

impl Puzzle {
    /// The puzzle on one line of JSON, as `--json` and `--out` write it.
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A puzzle from one line of JSON, checked: the FEN reads, the
    /// solution has an odd number of legal moves from it, and its SAN
    /// says the same moves (the moves are written back in kibitz's own
    /// UCI and SAN, so `e8=Q+` and `e8=Q` both read).
    pub fn from_json_line(line: &str) -> Result<Puzzle, PuzzleError> {
        let mut puzzle: Puzzle =
            serde_json::from_str(line).map_err(|e| PuzzleError::Json(e.to_string()))?;
        let mut position = parse_fen(&puzzle.fen).map_err(|e| PuzzleError::Fen(e.to_string()))?;
        let count = puzzle.solution.len();
        if count == 0 {
            return Err(PuzzleError::Empty);
        }
        if count.is_multiple_of(2) {
            return Err(PuzzleError::Even(count));
        }
        if puzzle.solution_san.len() != count {
            return Err(PuzzleError::SanLength {
                san: puzzle.solution_san.len(),
                uci: count,
            });
        }
        let mut ucis = Vec::with_capacity(count);
        let mut sans = Vec::with_capacity(count);
        for (index, (text, given)) in puzzle.solution.iter().zip(&puzzle.solution_san).enumerate() {
            let m = parse_uci(&position, text).map_err(|_| PuzzleError::Illegal {
                index: index + 1,
                text: text.clone(),
            })?;
            let san = shakmaty::san::SanPlus::from_move(position.clone(), m).to_string();
            let bare = |s: &str| s.trim_end_matches(['+', '#']).to_string();
            if bare(given) != bare(&san) {
                return Err(PuzzleError::SanMismatch {
                    index: index + 1,
                    given: given.clone(),
                    actual: san,
                });
            }
            ucis.push(uci(m));
            sans.push(san);
            position.play_unchecked(m);
        }
        puzzle.solution = ucis;
        puzzle.solution_san = sans;
        Ok(puzzle)
    }

    /// The puzzle as an exercise to train; `file` names where it was read
    /// (for the exercise's source: "game 3, ply 24 of club.jsonl").
    pub fn to_exercise(&self, file: &str) -> Exercise {
        Exercise {
            kind: Kind::Puzzle,
            fen: self.fen.clone(),
            solution: self.solution.clone(),
            solution_san: self.solution_san.clone(),
            also: Vec::new(),
            played: None,
            margin_cp: None,
            theme: self.theme.clone(),
            line: Vec::new(),
            source: format!("game {}, ply {} of {file}", self.game, self.ply),
        }
    }
}

/// The FEN kibitz writes for a position (en passant only where it is
/// legal), as a review's positions to study are written.
pub fn fen_of(position: &shakmaty::Chess) -> String {
    Fen::from_position(position, EnPassantMode::Legal).to_string()
}
