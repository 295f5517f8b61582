//! Opening names: the ECO code and name of a position, from the table in
//! `assets/openings.tsv` (written for kibitz: code, name, moves in SAN).
//!
//! Lookup is by position, not by move order, so a transposition gets its
//! name too. Along a game the deepest named position wins: after
//! 1.d4 Nf6 2.c4 e6 3.Nc3 Bb4 the game is a Nimzo-Indian, even though
//! 1.d4 was "Queen's Pawn Game" on the way.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use shakmaty::{Chess, Position};

use super::notation::parse_move;
use super::tree::GameTree;
use crate::core::position_key;

const TABLE: &str = include_str!("../../assets/openings.tsv");

/// A named opening.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    pub eco: String,
    pub name: String,
    /// The moves that define it, in SAN.
    pub moves: String,
}

/// The parsed table: position key -> opening. The first line that reaches a
/// position names it.
pub struct Openings {
    by_key: HashMap<u64, Opening, BuildHasherDefault<KeyHasher>>,
    lines: usize,
    /// The fewest pieces on the board in a named position: a position with
    /// fewer is not looked up (along a game the count never grows, so
    /// most of a game's positions are passed over without hashing them).
    fewest_pieces: usize,
}

/// Hashes a position key (a Zobrist hash, already uniform) as itself.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys are hashed; this folds any other input.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// A line of the table that does not parse (for the table's own test).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableError {
    pub line: usize,
    pub reason: String,
}

impl Openings {
    /// Parse a table. Bad lines are returned, not fatal.
    pub fn parse(text: &str) -> (Openings, Vec<TableError>) {
        let mut by_key = HashMap::default();
        let mut fewest_pieces = usize::MAX;
        let mut errors = Vec::new();
        let mut lines = 0;
        for (index, line) in text.lines().enumerate() {
            let line_no = index + 1;
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let fields: Vec<&str> = line.split('\t').collect();
            let [eco, name, moves] = fields.as_slice() else {
                errors.push(TableError {
                    line: line_no,
                    reason: "expected three tab-separated fields".into(),
                });
                continue;
            };
            let mut position = Chess::default();
            let mut bad = None;
            for text in moves.split_whitespace() {
                match parse_move(&position, text) {
                    Ok(m) => position.play_unchecked(m),
                    Err(e) => {
                        bad = Some(e.to_string());
                        break;
                    }
                }
            }
            if let Some(reason) = bad {
                errors.push(TableError {
                    line: line_no,
                    reason,
                });
                continue;
            }
            lines += 1;
            fewest_pieces = fewest_pieces.min(position.board().occupied().count());
            by_key
                .entry(position_key(&position))
                .or_insert_with(|| Opening {
                    eco: (*eco).to_string(),
                    name: (*name).to_string(),
                    moves: (*moves).to_string(),
                });
        }
        (
            Openings {
                by_key,
                lines,
                fewest_pieces,
            },
            errors,
        )
    }

    /// The built-in table (parsed once).
    pub fn builtin() -> &'static Openings {
        static TABLE_ONCE: OnceLock<Openings> = OnceLock::new();
        TABLE_ONCE.get_or_init(|| Openings::parse(TABLE).0)
    }

    /// Lines in the table that parsed.
    pub fn lines(&self) -> usize {
        self.lines
    }

    /// Distinct named positions.
    pub fn positions(&self) -> usize {
        self.by_key.len()
    }

    /// The name of exactly this position.
    pub fn get(&self, position: &Chess) -> Option<&Opening> {
        if position.board().occupied().count() < self.fewest_pieces {
            return None;
        }
        self.by_key.get(&position_key(position))
    }

    /// The name of a game's main line (as [`Openings::name_of_game`] of its
    /// [`GameTree::mainline_positions`]) and its final position, in one
    /// walk along it.
    pub fn name_of_mainline(&self, tree: &GameTree) -> (Option<&Opening>, Chess) {
        let mut named = None;
        let last = tree.walk_mainline(|position| {
            if let Some(opening) = self.get(position) {
                named = Some(opening);
            }
        });
        (named, last)
    }

    /// The name of a game: the deepest position along `positions` (start
    /// first) that has one.
    pub fn name_of_game<'a>(
        &self,
        positions: impl DoubleEndedIterator<Item = &'a Chess>,
    ) -> Option<&Opening> {
        positions.rev().find_map(|p| self.get(p))
    }
}

/// The opening a game is in, by the built-in table: the deepest named
/// position of the game so far (so a transposition is named too). What the
/// board's status line shows and what a saved game's `ECO` and `Opening`
/// tags say.
pub fn opening_of(game: &super::Game) -> Option<&'static Opening> {
    let positions = (0..=game.len()).filter_map(|i| game.position_at(i));
    Openings::builtin().name_of_game(positions)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(moves: &str) -> Vec<Chess> {
        let mut out = vec![Chess::default()];
        for text in moves.split_whitespace() {
            let mut next = out[out.len() - 1].clone();
            let m = parse_move(&next, text).unwrap();
            next.play_unchecked(m);
            out.push(next);
        }
        out
    }

    #[test]
    fn every_line_of_the_table_parses() {
        let (openings, errors) = Openings::parse(TABLE);
        assert!(errors.is_empty(), "{errors:?}");
        assert!(openings.lines() >= 400, "{}", openings.lines());
        assert!(openings.positions() >= 380, "{}", openings.positions());
        // Codes run from A00 to E99.
        for line in TABLE.lines().filter(|l| !l.starts_with('#')) {
            let eco = line.split('\t').next().unwrap();
            let bytes = eco.as_bytes();
            assert!(
                bytes.len() == 3
                    && (b'A'..=b'E').contains(&bytes[0])
                    && bytes[1..].iter().all(u8::is_ascii_digit),
                "{line}"
            );
        }
    }

    #[test]
    fn deepest_name_wins_and_transpositions_are_found() {
        let openings = Openings::builtin();
        let game = play("d4 Nf6 c4 e6 Nc3 Bb4 e3 O-O a3");
        let named = openings.name_of_game(game.iter()).unwrap();
        assert_eq!(
            (named.eco.as_str(), named.name.as_str()),
            ("E46", "Nimzo-Indian Defence: Normal, 4...O-O")
        );
        // The Queen's Gambit Declined reached from the English.
        let game = play("c4 e6 Nc3 d5 d4 Nf6");
        assert_eq!(openings.name_of_game(game.iter()).unwrap().eco, "D35");
        // Nothing named after a random first move pair: the last name stays.
        let game = play(
            "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 Nbd2 Bb7",
        );
        assert_eq!(openings.name_of_game(game.iter()).unwrap().eco, "C95");
        assert!(openings.name_of_game(play("").iter()).is_none());
    }
}
