//! A repertoire: the player's opening lines, from a PGN (main lines and
//! variations) or a Polyglot book, as exercises: every position where it
//! is the player's turn, with the repertoire's move as the answer.
//!
//! - **PGN** (a file of the player's lines, or one of `books/*.pgn`): every
//!   game of the file, its main line and all its variations. Where it is
//!   the player's turn and the file goes on, the moves it gives there are
//!   the answer: the first one met is the `solution`, the others (from a
//!   variation, or from another game reaching the same position) go in
//!   `also`. A position reached by two lines (a transposition) is asked
//!   once, with the line first met.
//! - **Polyglot book** ([`book`]): walked from the start position.
//!
//! Which one a file is is told by its content, not its name: a Polyglot
//! book is binary (its entries' weight and learn fields hold zero bytes),
//! a PGN is text. `builtin` names the book compiled into kibitz when no
//! file of that name exists.
//!
//! The exercises come back in line order (depth first, the main line
//! before its variations), so a drill that serves them in order follows a
//! line move after move.

mod book;

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

use shakmaty::{Chess, Color, Move, Position};
use thiserror::Error;

use super::{Exercise, Kind};
use crate::book::BookError;
use crate::fsutil::ReadError;
use crate::game::tree::GameTree;

pub use book::{BOOK_DEPTH, BOOK_POSITIONS, MIN_SHARE};

/// A PGN repertoire gives at most this many positions (the first ones in
/// line order); a file of many thousand full games is a database, not a
/// repertoire, and is cut rather than read for minutes.
pub const PGN_POSITIONS: usize = 20_000;

/// How many bytes at the start of a file tell a book from a PGN.
const SNIFF_BYTES: usize = 4096;

#[derive(Debug, Error)]
pub enum RepertoireError {
    /// Anything else that stops the reading, said as it is.
    #[error("{0}")]
    Unreadable(String),
    /// Missing, a directory, a FIFO, too large...
    #[error("{0}")]
    File(#[from] ReadError),
    /// A file read as a Polyglot book (it holds binary data) is not one.
    #[error("{0} (the file holds binary data, so it was read as a Polyglot book)")]
    Book(#[from] BookError),
    #[error("cannot read the repertoire {path}: {source}")]
    Pgn {
        path: String,
        source: std::io::Error,
    },
    #[error("the repertoire {path} has no moves: write the lines as PGN (1. e4 e5 2. Nf3 ...)")]
    NoMoves { path: String },
    #[error(
        "the repertoire {path} has no position with {color} to move and a move to play: \
         is it a repertoire for {other}?"
    )]
    NoPositions {
        path: String,
        color: &'static str,
        other: &'static str,
    },
}

/// The positions of the repertoire in `path` where `color` is to move,
/// each with the repertoire's move(s) as the answer and the line that led
/// there, in line order.
pub fn exercises(path: &Path, color: Color) -> Result<Vec<Exercise>, RepertoireError> {
    read(path, color).map(|r| r.exercises)
}

/// A repertoire read: its exercises, and what was left out of a PGN (a
/// move that is not legal ends its line there, as it ends a game).
#[derive(Debug, Clone)]
pub struct Repertoire {
    pub exercises: Vec<Exercise>,
    pub warnings: Vec<String>,
}

/// [`exercises`], with the warnings.
pub fn read(path: &Path, color: Color) -> Result<Repertoire, RepertoireError> {
    let mut warnings = Vec::new();
    let shown = path.display().to_string();
    let builtin = path.as_os_str() == crate::book::BUILTIN && !path.exists();
    let mut collector = Collector::new(&name_of(path, builtin), color);
    let mut any_move = false;
    if builtin {
        let book = crate::book::default_book()?;
        any_move = !book.is_empty();
        book::walk(&book, color, &mut collector);
    } else {
        let mut file = crate::fsutil::open_regular(path)?;
        let mut head = Vec::with_capacity(SNIFF_BYTES);
        (&mut file)
            .take(SNIFF_BYTES as u64)
            .read_to_end(&mut head)
            .map_err(|source| RepertoireError::Pgn {
                path: shown.clone(),
                source,
            })?;
        if is_binary(&head) {
            drop(file);
            let book = crate::book::Book::open(path)?;
            any_move = !book.is_empty();
            book::walk(&book, color, &mut collector);
        } else {
            let source = std::io::Cursor::new(head).chain(file);
            let mut game = 0;
            crate::game::import::read_games(source, &mut |tree| {
                game += 1;
                any_move |= tree.nodes.len() > 1;
                if let Some(error) = &tree.error {
                    warnings.push(error.to_string());
                }
                walk_pgn(&tree, game, &mut collector);
                collector.exercises.len() < PGN_POSITIONS
            })
            .map_err(|source| RepertoireError::Pgn {
                path: shown.clone(),
                source,
            })?;
        }
    }
    if !any_move {
        return Err(RepertoireError::NoMoves { path: shown });
    }
    if collector.exercises.is_empty() {
        let (color, other) = match color {
            Color::White => ("White", "Black"),
            Color::Black => ("Black", "White"),
        };
        return Err(RepertoireError::NoPositions {
            path: shown,
            color,
            other,
        });
    }
    Ok(Repertoire {
        exercises: collector.exercises,
        warnings,
    })
}

/// The name a source gives: the file's name without its folders.
fn name_of(path: &Path, builtin: bool) -> String {
    if builtin {
        return "the built-in book".into();
    }
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into(),
    )
}

/// A Polyglot book is binary: a PGN (text) has no NUL or other control
/// bytes, while a book's entries are full of zero bytes (the learn field is
/// almost always 0, weights are small numbers).
fn is_binary(head: &[u8]) -> bool {
    head.iter()
        .any(|&b| (b < 0x20 && !b.is_ascii_whitespace() && b != 0x0b) || b == 0x7f)
}

/// "1. e4 e5 2. Nf3" (a line from the standard start).
pub fn numbered(line: &[String]) -> String {
    let mut out = String::new();
    for (ply, san) in line.iter().enumerate() {
        if !out.is_empty() {
            out.push(' ');
        }
        if ply % 2 == 0 {
            out.push_str(&format!("{}. ", ply / 2 + 1));
        }
        out.push_str(san);
    }
    out
}

/// Gathers the exercises, merging a position met again.
struct Collector {
    name: String,
    color: Color,
    exercises: Vec<Exercise>,
    /// Exercise key -> index in `exercises`.
    index: HashMap<String, usize>,
}

impl Collector {
    fn new(name: &str, color: Color) -> Collector {
        Collector {
            name: name.to_string(),
            color,
            exercises: Vec::new(),
            index: HashMap::new(),
        }
    }

    /// The repertoire plays `moves` (the first is its choice) at `position`,
    /// reached by `line` (SAN from the standard start; `None` when the line
    /// starts elsewhere, `from` then says where). A position met before
    /// keeps its first solution and line; new moves go in `also`.
    fn add(&mut self, position: &Chess, moves: &[Move], line: Option<Vec<String>>, from: &str) {
        let Some(&first) = moves.first() else {
            return;
        };
        let exercise = Exercise {
            kind: Kind::Repertoire,
            fen: crate::game::fen::fen_of(position),
            solution: vec![crate::core::uci_text(first)],
            solution_san: crate::game::notation::san_line(position, &[first]),
            also: Vec::new(),
            played: None,
            margin_cp: None,
            theme: None,
            line: Vec::new(),
            source: String::new(),
        };
        let key = exercise.key();
        let i = match self.index.get(&key) {
            Some(&i) => i,
            None => {
                let at = match &line {
                    Some(line) if line.is_empty() => "the start position".to_string(),
                    Some(line) => numbered(line),
                    None => from.to_string(),
                };
                self.index.insert(key, self.exercises.len());
                self.exercises.push(Exercise {
                    source: format!("repertoire {}, {at}", self.name),
                    line: line.unwrap_or_default(),
                    ..exercise
                });
                self.exercises.len() - 1
            }
        };
        let exercise = &mut self.exercises[i];
        for &m in moves {
            let uci = crate::core::uci_text(m);
            if !exercise.solution.contains(&uci) && !exercise.also.contains(&uci) {
                exercise.also.push(uci);
            }
        }
    }
}

/// Every position of `tree` (main line, then each variation, depth first)
/// where the collector's side is to move and the tree goes on.
fn walk_pgn(tree: &GameTree, game: usize, collector: &mut Collector) {
    // The line can be replayed from the start only when the game starts
    // there; a game from a set-up position gives the position alone.
    let standard = tree.start == Chess::default();
    let from = format!("game {game}, from its set-up position");
    let mut stack = vec![(0usize, tree.start.clone())];
    while let Some((node, position)) = stack.pop() {
        if collector.exercises.len() >= PGN_POSITIONS {
            return;
        }
        // Children with a real move (a null move ends a line: passing is
        // no repertoire move).
        let children: Vec<(usize, Move)> = tree.nodes[node]
            .children
            .iter()
            .filter_map(|&c| tree.nodes[c].m.map(|m| (c, m)))
            .collect();
        if position.turn() == collector.color && !children.is_empty() {
            let moves: Vec<Move> = children.iter().map(|&(_, m)| m).collect();
            let line = standard.then(|| {
                tree.path(node)
                    .iter()
                    .map(|&n| tree.nodes[n].san.to_string())
                    .collect()
            });
            collector.add(&position, &moves, line, &from);
        }
        for &(child, m) in children.iter().rev() {
            let mut next = position.clone();
            next.play_unchecked(m);
            stack.push((child, next));
        }
    }
}

#[cfg(test)]
mod tests;
