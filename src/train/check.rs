//! Is an answer right? Each kind of exercise has its own rule:
//!
//! - a **puzzle** has one answer, the solution's first move, except that
//!   where that move mates at once, any move that mates at once is as good;
//! - a **repertoire** position is answered by the repertoire's move or one
//!   of the others it lists (`also`);
//! - a **mistake** is answered by any move the engine finds within
//!   `margin_cp` of the best that the review would not itself mark a
//!   mistake against the best (10 points of winning chance). The move played in the game never counts,
//!   nor any move the engine scores no better than it: the question is
//!   "find a better move than the one played", and a different move that
//!   is just as bad does not answer it.
//!
//! A mistake is checked by a search of every legal move at once (as many
//! lines as moves, as `review::refutation_depth` does), so each move gets
//! its own value from the same search and the values compare fairly. The
//! budget is small and fixed ([`CHECK_DEPTH`], [`CHECK_TIME`]): an answer is
//! judged in well under a second, and a difference of a pawn or more (the
//! smallest margin a review gives a mistake) shows at that depth.

use std::time::Duration;

use shakmaty::{Chess, Move, Position, Role};
use thiserror::Error;

use super::{Exercise, Kind};
use crate::engine::search;
use crate::engine::{Limits, Score, SearchOptions};
use crate::game::fen::parse_fen;
use crate::game::notation::{parse_uci, san_line};
use crate::text::score_text;

/// The deepest search a mistake's answer gets.
pub const CHECK_DEPTH: u32 = 8;
/// The longest a check searches (it stops at the depth first where it
/// can).
pub const CHECK_TIME: Duration = Duration::from_millis(400);
/// The margin of a mistake that gives none, in centipawns.
pub const DEFAULT_MARGIN_CP: i32 = 50;
/// Hash table of a check's search, MiB.
const HASH_MB: usize = 16;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum CheckError {
    #[error("the exercise's position is not valid: {0}")]
    Position(String),
    #[error("the exercise has no solution")]
    NoSolution,
    #[error("{0} is not a legal move here")]
    Illegal(String),
}

/// Right or wrong, and why in words (values from the side to move's view).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub right: bool,
    pub reason: String,
}

impl Verdict {
    fn right(reason: String) -> Verdict {
        Verdict {
            right: true,
            reason,
        }
    }

    fn wrong(reason: String) -> Verdict {
        Verdict {
            right: false,
            reason,
        }
    }
}

/// The exercise's position.
pub fn position(exercise: &Exercise) -> Result<Chess, CheckError> {
    parse_fen(&exercise.fen).map_err(|e| CheckError::Position(e.to_string()))
}

/// The solution's first move in the exercise's position.
pub fn solution_move(exercise: &Exercise) -> Result<Move, CheckError> {
    let position = position(exercise)?;
    let first = exercise.solution.first().ok_or(CheckError::NoSolution)?;
    parse_uci(&position, first).map_err(|_| CheckError::Illegal(first.clone()))
}

/// The hint at `level` (1: which piece moves, 2: and where to), or `None`
/// past the last.
pub fn hint(exercise: &Exercise, level: u32) -> Result<Option<String>, CheckError> {
    let m = solution_move(exercise)?;
    let piece = piece_name(m.role());
    let from = m.from().map_or(String::new(), |s| format!(" on {s}"));
    Ok(match level {
        1 => Some(format!("move the {piece}{from}")),
        2 => Some(format!(
            "the {piece}{from} goes to {}",
            crate::game::notation::destination(m)
        )),
        _ => None,
    })
}

fn piece_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

fn san(position: &Chess, m: Move) -> String {
    san_line(position, &[m])
        .into_iter()
        .next()
        .unwrap_or_default()
}

fn mates_at_once(position: &Chess, m: Move) -> bool {
    let mut after = position.clone();
    after.play_unchecked(m);
    after.is_checkmate()
}

/// Judge `answer` (a legal move in the exercise's position).
pub fn check(exercise: &Exercise, answer: Move) -> Result<Verdict, CheckError> {
    let position = position(exercise)?;
    let said = san(&position, answer);
    if !position.legal_moves().contains(&answer) {
        return Err(CheckError::Illegal(said));
    }
    let solution = solution_move(exercise)?;
    let solution_san = san(&position, solution);
    match exercise.kind {
        Kind::Puzzle => Ok(if answer == solution {
            Verdict::right(format!("{said} is the solution"))
        } else if mates_at_once(&position, solution) && mates_at_once(&position, answer) {
            Verdict::right(format!("{said} mates as well as {solution_san}"))
        } else {
            Verdict::wrong(format!("{said} is not the solution"))
        }),
        Kind::Repertoire => {
            let listed = |uci: &String| parse_uci(&position, uci).is_ok_and(|m| m == answer);
            Ok(if answer == solution {
                Verdict::right(format!("{said} is the repertoire's move"))
            } else if exercise.also.iter().any(listed) {
                Verdict::right(format!("{said} is in the repertoire too"))
            } else {
                Verdict::wrong(format!(
                    "{said} is not in the repertoire, which plays {solution_san}"
                ))
            })
        }
        Kind::Mistake => Ok(check_mistake(exercise, &position, answer, solution)),
    }
}

/// One move's value from the search (engine units and score, side to
/// move's view).
#[derive(Debug, Clone, Copy)]
struct Valued {
    value: i32,
    score: Score,
}

fn check_mistake(exercise: &Exercise, position: &Chess, answer: Move, solution: Move) -> Verdict {
    let said = san(position, answer);
    let played = exercise
        .played
        .as_deref()
        .and_then(|uci| parse_uci(position, uci).ok());
    if played == Some(answer) {
        return Verdict::wrong("that is the move played in the game".to_string());
    }
    let options = SearchOptions {
        multipv: position.legal_moves().len().max(1),
        ..SearchOptions::default()
    };
    let limits = Limits {
        depth: Some(CHECK_DEPTH),
        movetime: Some(CHECK_TIME),
        ..Limits::default()
    };
    let result = search::search_fresh(
        position,
        &[],
        &limits,
        options,
        HASH_MB,
        &mut crate::engine::trace::NoTrace,
    );
    let value_of = |m: Move| {
        result
            .lines
            .iter()
            .find(|line| line.pv.first() == Some(&m))
            .map(|line| Valued {
                value: line.value,
                score: line.score,
            })
    };
    let best_line = result.lines.first();
    let (Some(best), Some(best_move)) = (
        best_line.map(|l| Valued {
            value: l.value,
            score: l.score,
        }),
        best_line.and_then(|l| l.pv.first().copied()),
    ) else {
        // No line at all (cannot happen with a legal move to play): the
        // review's own choice is all there is to go by.
        return if answer == solution {
            Verdict::right(format!("{said} is the review's best move"))
        } else {
            Verdict::wrong(format!("{said} is not the review's best move"))
        };
    };
    let best_san = san(position, best_move);
    let Some(mine) = value_of(answer) else {
        return Verdict::wrong(format!("{said} was not searched"));
    };
    // The review's choice counts even where this shorter search prefers
    // another: the hint and the solution show it, so it cannot be wrong.
    if answer == solution && answer != best_move {
        return Verdict::right(format!(
            "{said} is the review's best move ({}; the best at this depth {best_san}, {})",
            score_text(mine.score),
            score_text(best.score)
        ));
    }
    // A mate thrown away is what to say first, whatever else is true of
    // the answer: two moves that both miss a mate in one can differ from
    // each other by a few hundredths, and which is higher is noise.
    let mates = |score: Score| matches!(score, Score::Mate(n) if n > 0);
    if mates(best.score) && !mates(mine.score) {
        return Verdict::wrong(format!(
            "{said} ({}) misses the mate of the best {best_san} ({})",
            score_text(mine.score),
            score_text(best.score)
        ));
    }
    let margin = exercise.margin_cp.unwrap_or(DEFAULT_MARGIN_CP).max(0);
    let theirs = played.and_then(|m| value_of(m).map(|v| (m, v)));
    if let Some((m, v)) = theirs
        && mine.value <= v.value
    {
        return Verdict::wrong(format!(
            "{said} ({}) is no better than the move played, {} ({})",
            score_text(mine.score),
            san(position, m),
            score_text(v.score)
        ));
    }
    if answer == best_move {
        return Verdict::right(format!(
            "{said} is the best move ({})",
            score_text(mine.score)
        ));
    }
    // Within the margin, and not a move the review itself would mark a
    // mistake against the best: a pawn thrown away in a level position
    // loses more winning chance than a pawn in a won one.
    let chance_lost = crate::review::win_chance(best.score) - crate::review::win_chance(mine.score);
    if best.value - mine.value <= margin && chance_lost < crate::review::MISTAKE {
        let within = match (best.score, mine.score) {
            (Score::Centipawns(b), Score::Centipawns(m)) if b > m => {
                format!("within {:.2} of", f64::from(b - m) / 100.0)
            }
            _ => "as good as".to_string(),
        };
        return Verdict::right(format!(
            "{said} keeps {}, {within} the best {best_san} ({})",
            score_text(mine.score),
            score_text(best.score)
        ));
    }
    match (best.score, mine.score) {
        (Score::Centipawns(b), Score::Centipawns(m)) => Verdict::wrong(format!(
            "{said} ({}) loses {:.2} against the best {best_san} ({})",
            score_text(mine.score),
            f64::from(b - m) / 100.0,
            score_text(best.score)
        )),
        (Score::Mate(n), _) if n > 0 => Verdict::wrong(format!(
            "{said} ({}) misses the mate of the best {best_san} ({})",
            score_text(mine.score),
            score_text(best.score)
        )),
        _ => Verdict::wrong(format!(
            "{said} ({}) is worse than the best {best_san} ({})",
            score_text(mine.score),
            score_text(best.score)
        )),
    }
}

#[cfg(test)]
mod tests;
