//! A repertoire: the player's opening lines, from a PGN (main lines and
//! variations) or a Polyglot book, as exercises: every position where it
//! is the player's turn, with the repertoire's move as the answer.

use std::path::Path;

use shakmaty::Color;
use thiserror::Error;

use super::Exercise;

#[derive(Debug, Error)]
pub enum RepertoireError {
    #[error("{0}")]
    Unreadable(String),
}

/// The positions of the repertoire in `path` where `color` is to move,
/// each with the repertoire's move(s) as the answer and the line that led
/// there.
pub fn exercises(path: &Path, color: Color) -> Result<Vec<Exercise>, RepertoireError> {
    let _ = color;
    Err(RepertoireError::Unreadable(format!(
        "{}: repertoire drills are not built yet",
        path.display()
    )))
}
