//! A review's mistakes and blunders as exercises: the position before the
//! move, "find a better move than the one played", the engine's line as the
//! solution. Inaccuracies are left out: they are often a matter of taste,
//! and a drill of them would teach the engine's preferences, not chess.

use std::path::Path;

use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, EnPassantMode, Position};

use super::schedule::Schedule;
use super::{Exercise, Kind};
use crate::game::notation::{parse_move, uci};
use crate::review::batch::Study;
use crate::review::{Class, MoveReview};

/// The least and the most an answer may fall short of the best and still
/// count, in centipawns. Within these, half of what the move played gave
/// away (`review::lesson_margin`): a move that keeps at least half of what
/// was lost is a real improvement; more than a pawn and a half down from
/// the best is no answer, whatever the move played lost.
pub const MIN_MARGIN_CP: i32 = 50;
pub const MAX_MARGIN_CP: i32 = 150;

/// The most moves of the engine's line kept as the solution: the answer is
/// its first move, and a search at a review's budget is less sure of each
/// move after that.
pub const SOLUTION_PLIES: usize = 8;

/// A reviewed mistake, as the single-game and the whole-file review both
/// know it.
#[derive(Debug, Clone)]
pub struct Reviewed<'a> {
    pub position: &'a Chess,
    /// The move played (SAN).
    pub played: &'a str,
    /// The engine's line from the position (SAN).
    pub better_line: &'a [String],
    pub move_number: u32,
    pub class: Class,
    /// `review::lesson_margin` of the move.
    pub lesson_margin_cp: i32,
}

/// Where a game comes from, for the exercises' `source`.
#[derive(Debug, Clone)]
pub struct GameSource<'a> {
    pub file: &'a Path,
    pub game: usize,
    pub white: &'a str,
    pub black: &'a str,
}

impl GameSource<'_> {
    /// "game 3 of club.pgn, 12... Nf6?? (Ann - Bob)".
    fn describe(&self, mover: Color, move_number: u32, played: &str, class: Class) -> String {
        let file = self.file.file_name().map_or_else(
            || self.file.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let dots = if mover.is_white() { "." } else { "..." };
        format!(
            "game {} of {file}, {move_number}{dots} {played}{} ({} - {})",
            self.game,
            class.symbol(),
            self.white,
            self.black
        )
    }
}

/// The exercise of one reviewed mistake; `None` for an inaccuracy or where
/// the review has no better line (or its moves do not read: never from a
/// review's own output).
pub fn exercise(mistake: &Reviewed, source: &GameSource) -> Option<Exercise> {
    if mistake.class < Class::Mistake {
        return None;
    }
    let position = mistake.position;
    let played = parse_move(position, mistake.played).ok()?;
    let mut solution = Vec::new();
    let mut at = position.clone();
    for san in mistake.better_line.iter().take(SOLUTION_PLIES) {
        let Ok(m) = parse_move(&at, san) else {
            break;
        };
        solution.push(uci(m));
        at.play_unchecked(m);
    }
    if solution.is_empty() || solution.first() == Some(&uci(played)) {
        return None;
    }
    let solution_san = mistake.better_line[..solution.len()].to_vec();
    Some(Exercise {
        kind: Kind::Mistake,
        fen: Fen::from_position(position, EnPassantMode::Legal).to_string(),
        solution,
        solution_san,
        also: Vec::new(),
        played: Some(uci(played)),
        margin_cp: Some(mistake.lesson_margin_cp.clamp(MIN_MARGIN_CP, MAX_MARGIN_CP)),
        theme: None,
        line: Vec::new(),
        source: source.describe(
            position.turn(),
            mistake.move_number,
            mistake.played,
            mistake.class,
        ),
    })
}

/// The exercises of one reviewed game (`review --pgn FILE --game N`):
/// `positions[i]` is the position before ply `i + 1`.
pub fn of_game(reviews: &[MoveReview], positions: &[Chess], source: &GameSource) -> Vec<Exercise> {
    reviews
        .iter()
        .filter_map(|r| {
            let class = r.class?;
            let position = positions.get(r.ply.checked_sub(1)?)?;
            let mistake = Reviewed {
                position,
                played: &r.san,
                better_line: &r.better_line,
                move_number: r.move_number,
                class,
                lesson_margin_cp: crate::review::lesson_margin(r.mover, r.before, r.after),
            };
            exercise(&mistake, source)
        })
        .collect()
}

/// Which sides of a game to keep, from their name tag and colour.
pub type KeepSide<'a> = &'a dyn Fn(&str, Color) -> bool;

/// The exercises of one game of a whole-file review (`--all`), its
/// `study` positions (White's, Black's); `player`, where given, tells
/// which sides to keep from their name tag and colour (the report's own
/// merging of spellings decides: see `review::batch::Players::is`).
pub fn of_studies(
    study: &[Vec<Study>; 2],
    source: &GameSource,
    player: Option<KeepSide>,
) -> Vec<Exercise> {
    let mut out = Vec::new();
    for (color, studies) in [Color::White, Color::Black].into_iter().zip(study) {
        let tag = if color.is_white() {
            source.white
        } else {
            source.black
        };
        if player.is_some_and(|keep| !keep(tag, color)) {
            continue;
        }
        for s in studies {
            let Ok(position) = crate::game::fen::parse_fen(&s.fen) else {
                continue;
            };
            let mistake = Reviewed {
                position: &position,
                played: &s.played,
                better_line: &s.better_line,
                move_number: s.move_number,
                class: s.class,
                lesson_margin_cp: s.margin_cp,
            };
            out.extend(exercise(&mistake, source));
        }
    }
    out
}

/// How many were added and how many were there already.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Added {
    pub added: usize,
    pub already: usize,
}

/// Add `exercises` to `schedule`, due `now`.
pub fn add_all(schedule: &mut Schedule, exercises: Vec<Exercise>, now: u64) -> Added {
    let (added, already) = schedule.add_all(exercises, now);
    Added { added, already }
}

#[cfg(test)]
mod tests;
