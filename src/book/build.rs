//! Building a Polyglot book from PGN games.
//!
//! Every move of every game's main line, up to a ply limit, is counted under
//! the position it was played in, and scored from the game's result for the
//! side that played it: a win 2, a draw 1, a loss 0, as Polyglot's own
//! builder does. A move's weight is its total score, so moves that were
//! played often and did well come first. Moves seen in fewer than
//! `min_games` games are dropped; games without a result (`*`) count as
//! played but score nothing for either side.
//!
//! Games stream through the project's PGN reader one at a time, so a file of any size can
//! be read. A game with an unreadable or illegal move is skipped whole, and
//! reported with its number.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use shakmaty::{Chess, Color, Position};
use thiserror::Error;

use super::Book;
use super::polyglot::{Entry, encode_move, polyglot_key};
use crate::game::import::start_from_fen;
use crate::game::pgn_lexer::{GameReader, RawGame, Token};

#[derive(Debug, Error)]
pub enum BuildError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0}")]
    File(#[from] crate::fsutil::ReadError),
}

/// What to build.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// Count moves up to this many plies into each game.
    pub max_ply: u32,
    /// Keep a move only if at least this many games played it.
    pub min_games: u32,
    /// Only the moves of this side (a repertoire for one colour).
    pub only_color: Option<Color>,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions {
            max_ply: 20,
            min_games: 1,
            only_color: None,
        }
    }
}

/// A game that could not be used, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub file: PathBuf,
    /// 1-based game number in its file.
    pub game: usize,
    pub reason: String,
}

/// The counts of one (position, move) pair.
#[derive(Debug, Clone, Copy, Default)]
struct Tally {
    games: u32,
    score: u32,
}

/// The book being built and what went into it.
#[derive(Debug, Default)]
pub struct Builder {
    options: BuildOptions,
    tallies: HashMap<(u64, u16), Tally>,
    pub games: usize,
    pub skipped: Vec<Skipped>,
}

/// A game's main-line moves up to the ply limit: (key, raw move, side that
/// played it), and the result written in its movetext.
struct GameMoves {
    moves: Vec<(u64, u16, Color)>,
    result: Option<&'static str>,
}

impl GameMoves {
    /// Read the main line of `game` up to `max_ply` plies (variations are
    /// not games: only the moves actually played count). An unreadable
    /// start or move is the reason the game is skipped.
    fn read(game: &RawGame, max_ply: u32) -> Result<GameMoves, String> {
        // A book is for standard chess: its keys and castling moves do not
        // describe Chess960 positions.
        if crate::game::import::is_chess960_game(game) {
            return Err("a Chess960 game".to_string());
        }
        let mut position = match game.tag("FEN") {
            Some(fen) => start_from_fen(fen.trim(), false)
                .map(|(p, _)| p)
                .map_err(|e| format!("FEN tag {e}"))?,
            None => Chess::default(),
        };
        if crate::game::chess960::is_chess960(&position) {
            return Err("a Chess960 start position".to_string());
        }
        let mut moves = Vec::new();
        let mut result = None;
        let mut depth = 0usize;
        let mut ply = 0;
        for token in &game.tokens {
            match token {
                Token::Open => depth += 1,
                Token::Close => depth = depth.saturating_sub(1),
                Token::Result(r) if depth == 0 => result = Some(*r),
                Token::Move { text, san } if depth == 0 && ply < max_ply => {
                    let m = san.to_move(&position).map_err(|_| {
                        format!("ply {}: illegal move {}", ply + 1, game.slice(text))
                    })?;
                    let side = position.turn();
                    moves.push((polyglot_key(&position), encode_move(m), side));
                    position.play_unchecked(m);
                    ply += 1;
                }
                _ => {}
            }
        }
        Ok(GameMoves { moves, result })
    }
}

impl Builder {
    pub fn new(options: BuildOptions) -> Builder {
        Builder {
            options,
            ..Builder::default()
        }
    }

    /// Read every game of a PGN stream. `progress` is called every 10,000
    /// games with the count so far.
    pub fn add_pgn(
        &mut self,
        source: impl Read,
        file: &Path,
        progress: &mut dyn FnMut(usize),
    ) -> Result<(), BuildError> {
        let mut reader = GameReader::new(std::io::BufReader::new(source));
        let mut number = 0;
        loop {
            let game = reader.next_game().map_err(|source| BuildError::Io {
                path: file.to_path_buf(),
                source,
            })?;
            let Some(game) = game else {
                return Ok(());
            };
            number += 1;
            match GameMoves::read(&game, self.options.max_ply) {
                Ok(moves) => self.count(moves),
                Err(reason) => self.skipped.push(Skipped {
                    file: file.to_path_buf(),
                    game: number,
                    reason,
                }),
            }
            if number.is_multiple_of(10_000) {
                progress(number);
            }
        }
    }

    /// Count one game's moves, scored by its result for the side that
    /// played each.
    fn count(&mut self, game: GameMoves) {
        self.games += 1;
        let only = self.options.only_color;
        for (key, raw, side) in game.moves {
            if only.is_some_and(|c| c != side) {
                continue;
            }
            let score = match (game.result, side) {
                (Some("1-0"), Color::White) | (Some("0-1"), Color::Black) => 2,
                (Some("1/2-1/2"), _) => 1,
                _ => 0,
            };
            let tally = self.tallies.entry((key, raw)).or_default();
            tally.games += 1;
            tally.score += score;
        }
    }

    /// Read a PGN file.
    pub fn add_file(
        &mut self,
        path: &Path,
        progress: &mut dyn FnMut(usize),
    ) -> Result<(), BuildError> {
        let file = crate::fsutil::open_regular(path)?;
        self.add_pgn(file, path, progress)
    }

    /// The book: one entry per (position, move) seen in at least
    /// `min_games` games, weighted by score. Where a position's best score
    /// exceeds 65535, that position's weights are scaled down together (the
    /// shares within the position stay), and a move that scored anything
    /// keeps at least weight 1.
    pub fn finish(&self) -> Book {
        let kept: Vec<(&(u64, u16), &Tally)> = self
            .tallies
            .iter()
            .filter(|(_, t)| t.games >= self.options.min_games)
            .collect();
        let mut max_by_key: HashMap<u64, u32> = HashMap::new();
        for ((key, _), tally) in &kept {
            let max = max_by_key.entry(*key).or_default();
            *max = (*max).max(tally.score);
        }
        let entries = kept
            .into_iter()
            .map(|(&(key, raw_move), tally)| {
                let max = max_by_key.get(&key).copied().unwrap_or(0);
                let scale = max.div_ceil(u32::from(u16::MAX)).max(1);
                let mut weight = tally.score / scale;
                if tally.score > 0 {
                    weight = weight.max(1);
                }
                Entry {
                    key,
                    raw_move,
                    weight: u16::try_from(weight).unwrap_or(u16::MAX),
                    learn: 0,
                }
            })
            .collect();
        Book::from_entries(entries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::notation::parse_move;

    fn build(pgn: &str, options: BuildOptions) -> (Book, Builder) {
        let mut builder = Builder::new(options);
        builder
            .add_pgn(pgn.as_bytes(), Path::new("test.pgn"), &mut |_| {})
            .unwrap();
        (builder.finish(), builder)
    }

    fn weights(book: &Book, moves: &str) -> Vec<(String, u32)> {
        let mut position = Chess::default();
        for text in moves.split_whitespace() {
            let m = parse_move(&position, text).unwrap();
            position.play_unchecked(m);
        }
        book.probe(&position)
            .moves
            .iter()
            .map(|b| (crate::game::notation::uci(b.m), b.weight))
            .collect()
    }

    const GAMES: &str = "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n\
        [Result \"0-1\"]\n\n1. e4 c5 0-1\n\n\
        [Result \"1/2-1/2\"]\n\n1. d4 d5 (1... Nf6 2. c4) 1/2-1/2\n\n\
        [Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Ke7 3. Qxe5# 1-0\n\n\
        [Result \"*\"]\n\n1. e4 e6 *\n\n\
        [Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n";

    #[test]
    fn scores_moves_by_result_for_the_side_that_played_them() {
        let (book, builder) = build(GAMES, BuildOptions::default());
        // e4: two wins (2 each), one loss, one unknown = 4; d4: one draw = 1.
        // (The sixth game, with an illegal move, is skipped whole.)
        assert_eq!(weights(&book, ""), [("e2e4".into(), 4), ("d2d4".into(), 1)]);
        // After 1.e4: e5 lost twice (0), c5 won (2), e6 unknown (0).
        assert_eq!(
            weights(&book, "e4"),
            [("c7c5".into(), 2), ("e7e5".into(), 0), ("e7e6".into(), 0)]
        );
        // Variations are not games: 1...Nf6 is not in the book.
        assert_eq!(weights(&book, "d4"), [("d7d5".into(), 1)]);
        assert_eq!(builder.games, 5);
        assert_eq!(builder.skipped.len(), 1);
        assert_eq!(builder.skipped[0].game, 6);
        assert!(
            builder.skipped[0].reason.contains("ply 3"),
            "{:?}",
            builder.skipped
        );
    }

    #[test]
    fn big_scores_scale_per_position_and_rare_moves_keep_weight() {
        let mut pgn = "[Result \"1-0\"]\n\n1. e4 1-0\n\n".repeat(33_000);
        pgn.push_str("[Result \"1-0\"]\n\n1. d4 d5 1-0\n");
        let (book, _) = build(&pgn, BuildOptions::default());
        // e4 scored 66,000: the start position's weights halve; d4 keeps 1.
        assert_eq!(
            weights(&book, ""),
            [("e2e4".into(), 33_000), ("d2d4".into(), 1)]
        );
        // Another position is not scaled by the start position's numbers.
        assert_eq!(weights(&book, "d4"), [("d7d5".into(), 0)]);
    }

    #[test]
    fn limits_ply_games_and_colour() {
        let options = BuildOptions {
            max_ply: 1,
            ..BuildOptions::default()
        };
        let (book, _) = build(GAMES, options);
        assert!(weights(&book, "e4").is_empty());
        let options = BuildOptions {
            min_games: 2,
            ..BuildOptions::default()
        };
        let (book, _) = build(GAMES, options);
        assert_eq!(weights(&book, ""), [("e2e4".into(), 4)]);
        let options = BuildOptions {
            only_color: Some(Color::Black),
            ..BuildOptions::default()
        };
        let (book, _) = build(GAMES, options);
        assert!(weights(&book, "").is_empty());
        assert_eq!(weights(&book, "e4").len(), 3);
    }
}
