//! Puzzles from a file of `kibitz puzzles --json` (or `--out`): one JSON
//! object a line with `fen`, `solution` (UCI moves, the first by the side
//! to move), `solution_san`, `theme`, `game` and `ply`. Every line is
//! checked before any is taken: a file with a bad line adds nothing, and
//! the error names the line.

use std::path::Path;

use serde::Deserialize;
use shakmaty::Position;
use thiserror::Error;

use super::{Exercise, Kind};
use crate::game::fen::parse_fen;
use crate::game::notation::{parse_uci, san_line};

#[derive(Debug, Error, PartialEq, Eq)]
#[error("{file} line {line}: {why}")]
pub struct ImportError {
    pub file: String,
    pub line: usize,
    pub why: String,
}

/// One puzzle as `kibitz puzzles --json` writes it.
#[derive(Debug, Deserialize)]
struct PuzzleLine {
    fen: String,
    solution: Moves,
    #[serde(default)]
    solution_san: Option<Moves>,
    #[serde(default)]
    theme: Option<String>,
    #[serde(default)]
    game: Option<serde_json::Value>,
    #[serde(default)]
    ply: Option<u64>,
}

/// Moves as a list, or as one string of words.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Moves {
    List(Vec<String>),
    Words(String),
}

impl Moves {
    fn words(self) -> Vec<String> {
        match self {
            Moves::List(list) => list,
            Moves::Words(words) => words.split_whitespace().map(str::to_string).collect(),
        }
    }
}

/// The puzzles of the text of `file` (its name goes into the sources and
/// the errors).
pub fn puzzles(text: &str, file: &Path) -> Result<Vec<Exercise>, ImportError> {
    let name = file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut out = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let fail = |why: String| ImportError {
            file: file.display().to_string(),
            line: index + 1,
            why,
        };
        let raw = raw.trim();
        if raw.is_empty() {
            continue;
        }
        let line: PuzzleLine =
            serde_json::from_str(raw).map_err(|e| fail(format!("not a puzzle ({e})")))?;
        out.push(puzzle(line, &name).map_err(fail)?);
    }
    Ok(out)
}

fn puzzle(line: PuzzleLine, file: &str) -> Result<Exercise, String> {
    let position = parse_fen(&line.fen).map_err(|e| format!("fen: {e}"))?;
    let solution = line.solution.words();
    if solution.is_empty() {
        return Err("the solution has no move".to_string());
    }
    let mut at = position.clone();
    let mut moves = Vec::new();
    for (n, text) in solution.iter().enumerate() {
        let m = parse_uci(&at, text).map_err(|e| format!("solution move {}: {e}", n + 1))?;
        moves.push(m);
        at.play_unchecked(m);
    }
    let solution_san = match line.solution_san.map(Moves::words) {
        Some(san) if san.len() == solution.len() => san,
        _ => san_line(&position, &moves),
    };
    let game = match &line.game {
        Some(serde_json::Value::Number(n)) => format!(", game {n}"),
        Some(serde_json::Value::String(s)) if !s.is_empty() => format!(", {s}"),
        _ => String::new(),
    };
    let ply = line.ply.map_or(String::new(), |p| format!(" ply {p}"));
    Ok(Exercise {
        kind: Kind::Puzzle,
        fen: line.fen.trim().to_string(),
        solution,
        solution_san,
        also: Vec::new(),
        played: None,
        margin_cp: None,
        theme: line.theme.filter(|t| !t.trim().is_empty()),
        line: Vec::new(),
        source: format!("puzzle of {file}{game}{ply}"),
    })
}

#[cfg(test)]
mod tests;
