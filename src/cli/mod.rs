//! The command line: one file per command, each with its arguments (a
//! `clap::Args` type the grammar in [`command_line`] names) and its work.
//! Headless commands print text for people by default and one JSON object
//! per line with `--json`; no subcommand opens the board ([`board`]) or the
//! line mode ([`plain`]). This file holds what they share: the error type
//! (and its exit code), the position from `--fen` and `--moves`, and the
//! JSON of scores and statistics.

pub mod analyze;
pub mod bench;
pub mod board;
pub mod book;
pub mod command_line;
pub mod completions;
pub mod db;
pub mod describe;
pub mod flags;
pub mod learn;
pub mod movetables;
pub mod perft;
pub mod pgn;
pub mod plain;
pub mod puzzles;
pub mod review;
pub mod review_all;
pub mod tb;
pub mod teach;
pub mod trace;
mod trace_stats;
pub mod trace_tree;
pub mod train;
mod train_session;
pub mod tune;
mod tune_search;

use serde_json::json;
use shakmaty::{Chess, Move, Position};
use thiserror::Error;

use crate::engine::stats::SearchStats;
use crate::engine::{Score, position_key};
use crate::game::fen::{FenError, parse_fen};
use crate::game::notation::{MoveError, parse_move};

/// Errors of the headless commands. `BadInput` means the user asked for
/// something impossible (exit code 2); `Io` means the output failed.
#[derive(Debug, Error)]
pub enum CliError {
    #[error("{0}")]
    Fen(#[from] FenError),
    #[error("move {index} {source}")]
    Move {
        index: usize,
        #[source]
        source: MoveError,
    },
    #[error("{0}")]
    BadInput(String),
    #[error("cannot start the engine thread: {0}")]
    Thread(std::io::Error),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("{0}")]
    Book(#[from] crate::book::BookError),
    #[error("{0}")]
    BookBuild(#[from] crate::book::build::BuildError),
    /// Stopped by Ctrl-C, what was finished kept: said as it is (no
    /// "error:"), exit 130 as a shell gives a process ended by SIGINT.
    #[error("{0}")]
    Stopped(String),
}

impl CliError {
    /// The process exit code: 2 for bad input, 130 for a stop by Ctrl-C,
    /// 1 for anything else.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Fen(_)
            | CliError::Move { .. }
            | CliError::BadInput(_)
            | CliError::Book(_)
            | CliError::BookBuild(_) => 2,
            CliError::Thread(_) | CliError::Io(_) => 1,
            CliError::Stopped(_) => 130,
        }
    }
}

/// A position from an optional FEN (default: the start position) and moves in
/// UCI notation played from it. Returns the position and the history keys.
pub fn setup(fen: Option<&str>, moves: &[String]) -> Result<(Chess, Vec<u64>), CliError> {
    let (position, line) = play_line(fen, moves)?;
    let history = line
        .iter()
        .map(|(before, _)| position_key(before))
        .collect();
    Ok((position, history))
}

/// The position that `--fen` and `--moves` give, and each move played with
/// the position before it. Every command reads `--moves` here, so all take
/// the same words: SAN or UCI (`Nf3`, `g1f3`, `O-O`, `e8=Q`).
pub fn play_line(
    fen: Option<&str>,
    moves: &[String],
) -> Result<(Chess, Vec<(Chess, Move)>), CliError> {
    let mut position = match fen {
        Some(fen) => parse_fen(fen)?,
        None => Chess::default(),
    };
    let mut line = Vec::with_capacity(moves.len());
    for (index, text) in moves.iter().enumerate() {
        let m = parse_move(&position, text).map_err(|source| CliError::Move {
            index: index + 1,
            source,
        })?;
        line.push((position.clone(), m));
        position.play_unchecked(m);
    }
    Ok((position, line))
}

/// Text from a file, safe to print to a terminal: control characters (an
/// escape sequence could retitle the window or clear it, a carriage return
/// overwrite the line) and bidirectional overrides are shown escaped, as
/// `\u{1b}` or `\r`, instead of acting.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    let acts =
        |c: char| c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    if !text.chars().any(acts) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if acts(c) && c.is_ascii() {
            out.extend(c.escape_debug());
        } else if acts(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

pub(crate) fn score_json(score: Score) -> serde_json::Value {
    match score {
        Score::Centipawns(cp) => json!({"cp": cp}),
        Score::Mate(n) => json!({"mate": n}),
    }
}

pub(crate) fn stats_json(stats: &SearchStats) -> serde_json::Value {
    let totals = &stats.totals;
    let mut value = json!({
        "main_nodes": totals.main,
        "quiescence_nodes": totals.quiescence,
        "leaves": totals.leaves,
        "beta_cutoffs": totals.beta_cutoffs,
        "first_move_cutoffs": totals.first_move_cutoffs,
        "first_move_cutoff_rate": totals.first_move_cutoff_rate(),
        "tt_probes": totals.tt_probes,
        "tt_hits": totals.tt_hits,
        "tt_cutoffs": totals.tt_cutoffs,
        "quiescence_share": totals.quiescence_share(),
        "selective_depth": stats.selective_depth,
        "elapsed_ms": stats.elapsed_ms,
        "nodes_per_second": stats.nodes_per_second(),
        "effective_branching_factor": stats.effective_branching_factor(),
        "branching_factors": stats.branching_factors(),
        "iterations": stats.iterations,
    });
    // Greer's move-chain search adds its own counts.
    if let Some(chains) = &stats.chains
        && let Some(object) = value.as_object_mut()
    {
        object.insert("chains".into(), json!(chains));
    }
    value
}
