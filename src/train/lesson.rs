//! The search lesson of an exercise: teach mode at its position, at the
//! smallest depth at which the search sees the move played fall short of
//! the better one (for a mistake), or deep enough for the solution (for a
//! puzzle or a repertoire move), so the player can watch the engine find
//! the answer step by step.

use std::time::Duration;

use shakmaty::Position;

use super::{Exercise, Kind, check};
use crate::game::notation::parse_uci;
use crate::teach::{MAX_DEPTH, MIN_DEPTH};

/// How long the search for a mistake's lesson depth may take.
const DEPTH_SEARCH_TIME: Duration = Duration::from_secs(1);
/// A lesson's depth where nothing better is known: teach mode's default.
const DEFAULT_DEPTH: u32 = 3;

/// The depth of the exercise's lesson.
pub fn depth(exercise: &Exercise) -> u32 {
    let Ok(position) = check::position(exercise) else {
        return DEFAULT_DEPTH;
    };
    match exercise.kind {
        Kind::Mistake => {
            let played = exercise
                .played
                .as_deref()
                .and_then(|m| parse_uci(&position, m).ok());
            let best = check::solution_move(exercise).ok();
            let margin = exercise.margin_cp.unwrap_or(check::DEFAULT_MARGIN_CP);
            match (played, best) {
                (Some(played), Some(best)) => crate::review::refutation_depth(
                    &position,
                    &[],
                    played,
                    best,
                    margin,
                    MAX_DEPTH,
                    DEPTH_SEARCH_TIME,
                )
                .unwrap_or(DEFAULT_DEPTH),
                _ => DEFAULT_DEPTH,
            }
        }
        // A line of N plies needs a search N plies deep to see its end
        // (the quiescence search finishes the captures after it).
        Kind::Puzzle | Kind::Repertoire if position.legal_moves().is_empty() => DEFAULT_DEPTH,
        Kind::Puzzle => (exercise.solution.len() as u32).clamp(MIN_DEPTH, MAX_DEPTH),
        Kind::Repertoire => DEFAULT_DEPTH,
    }
}

/// The command that opens the lesson: `kibitz teach --fen '…' --depth N`,
/// and for a mistake `--played` and `--better` too, so that it opens where
/// the search tries the move played, with both moves named.
pub fn teach_command(exercise: &Exercise, depth: u32) -> String {
    let mut command = format!("kibitz teach --fen '{}'", exercise.fen.trim());
    if exercise.kind == Kind::Mistake
        && let Ok(position) = check::position(exercise)
        && let Some(played) = exercise
            .played
            .as_deref()
            .and_then(|m| parse_uci(&position, m).ok())
        && let Ok(best) = check::solution_move(exercise)
    {
        let san = |m| crate::game::notation::san_line(&position, &[m]).concat();
        command.push_str(&format!(" --played {} --better {}", san(played), san(best)));
        if let Some(margin) = exercise.margin_cp {
            command.push_str(&format!(" --margin {margin}"));
        }
    }
    command.push_str(&format!(" --depth {depth}"));
    command
}

#[cfg(test)]
mod tests;
