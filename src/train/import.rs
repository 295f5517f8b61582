//! Puzzles from a file of `kibitz puzzles --json` (or `--out`): one JSON
//! object a line with `fen`, `solution` (UCI moves, the first by the side
//! to move), `solution_san`, `theme`, `game` and `ply`. Every line is
//! checked before any is taken: a file with a bad line adds nothing, and
//! the error names the line.

use std::path::Path;

use thiserror::Error;

use super::Exercise;
use super::find::Puzzle;

#[derive(Debug, Error, PartialEq, Eq)]
#[error("{file} line {line}: {why}")]
pub struct ImportError {
    pub file: String,
    pub line: usize,
    pub why: String,
}

/// The puzzles of the text of `file` (its name goes into the sources and
/// the errors), each line checked as [`Puzzle::from_json_line`] checks it.
pub fn puzzles(text: &str, file: &Path) -> Result<Vec<Exercise>, ImportError> {
    let name = file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut out = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let raw = raw.trim();
        if raw.is_empty() {
            continue;
        }
        let puzzle = Puzzle::from_json_line(raw).map_err(|e| ImportError {
            file: file.display().to_string(),
            line: index + 1,
            why: e.to_string(),
        })?;
        out.push(puzzle.to_exercise(&name));
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
