//! Polyglot opening books: reading, probing and writing.
//!
//! The format (Michel Van den Bergh's specification): a file of 16-byte
//! entries, big-endian, sorted by key:
//!
//! | bytes | field  | meaning |
//! |-------|--------|---------|
//! | 0-7   | key    | Polyglot Zobrist hash of the position |
//! | 8-9   | move   | to file (bits 0-2), to rank (3-5), from file (6-8), from rank (9-11), promotion (12-14: 0 none, 1 N, 2 B, 3 R, 4 Q) |
//! | 10-11 | weight | how good or how often played; the share of a move is its weight over the position's total |
//! | 12-15 | learn  | unused here, kept as read |
//!
//! The key is shakmaty's `Zobrist64` hash with `EnPassantMode::PseudoLegal`:
//! the en passant file counts only when a pawn of the side to move stands
//! beside the pawn that just made a double step, as the specification says.
//! Castling is stored as the king taking its own rook (`e1h1`), which is also
//! how shakmaty represents castling moves, so from and to squares match
//! directly.

use std::path::Path;

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, File, Move, Position, Rank, Role, Square};
use thiserror::Error;

/// Size of one book entry in bytes.
pub const ENTRY_SIZE: usize = 16;

#[derive(Debug, Error)]
pub enum BookError {
    #[error("cannot read book {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("cannot read book {path}: {why}")]
    Unreadable {
        path: String,
        why: crate::fsutil::Unreadable,
    },
    #[error("book {path} is empty")]
    Empty { path: String },
    #[error("book {path} is truncated: {len} bytes is not a whole number of 16-byte entries")]
    Truncated { path: String, len: usize },
    #[error(
        "book {path} is not sorted: entry {index} has key {key:016x}, smaller than the key {previous:016x} before it"
    )]
    Unsorted {
        path: String,
        index: usize,
        key: u64,
        previous: u64,
    },
}

/// One raw entry of a book.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Entry {
    pub key: u64,
    pub raw_move: u16,
    pub weight: u16,
    pub learn: u32,
}

impl Entry {
    pub fn from_bytes(bytes: &[u8; ENTRY_SIZE]) -> Entry {
        let [
            k0,
            k1,
            k2,
            k3,
            k4,
            k5,
            k6,
            k7,
            m0,
            m1,
            w0,
            w1,
            l0,
            l1,
            l2,
            l3,
        ] = *bytes;
        Entry {
            key: u64::from_be_bytes([k0, k1, k2, k3, k4, k5, k6, k7]),
            raw_move: u16::from_be_bytes([m0, m1]),
            weight: u16::from_be_bytes([w0, w1]),
            learn: u32::from_be_bytes([l0, l1, l2, l3]),
        }
    }

    pub fn to_bytes(self) -> [u8; ENTRY_SIZE] {
        let mut out = [0u8; ENTRY_SIZE];
        out[0..8].copy_from_slice(&self.key.to_be_bytes());
        out[8..10].copy_from_slice(&self.raw_move.to_be_bytes());
        out[10..12].copy_from_slice(&self.weight.to_be_bytes());
        out[12..16].copy_from_slice(&self.learn.to_be_bytes());
        out
    }
}

/// The Polyglot key of a position.
pub fn polyglot_key(position: &Chess) -> u64 {
    position
        .zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal)
        .0
}

/// A move's Polyglot encoding (castling as king takes rook).
pub fn encode_move(m: Move) -> u16 {
    let from = m.from().unwrap_or(m.to());
    let to = m.to();
    let promotion = match m.promotion() {
        None => 0,
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(_) => 4,
    };
    let coord = |c: u32| c as u16;
    coord(u32::from(to.file()))
        | (coord(u32::from(to.rank())) << 3)
        | (coord(u32::from(from.file())) << 6)
        | (coord(u32::from(from.rank())) << 9)
        | (promotion << 12)
}

/// The squares and promotion a raw move names.
pub fn decode_move(raw: u16) -> (Square, Square, Option<Role>) {
    let square = |file: u16, rank: u16| {
        Square::from_coords(
            File::new(u32::from(file & 7)),
            Rank::new(u32::from(rank & 7)),
        )
    };
    let to = square(raw, raw >> 3);
    let from = square(raw >> 6, raw >> 9);
    let promotion = match (raw >> 12) & 7 {
        1 => Some(Role::Knight),
        2 => Some(Role::Bishop),
        3 => Some(Role::Rook),
        4 => Some(Role::Queen),
        _ => None,
    };
    (from, to, promotion)
}

/// The legal move a raw book move means in `position`, if any.
pub fn legal_move(position: &Chess, raw: u16) -> Option<Move> {
    let (from, to, promotion) = decode_move(raw);
    position
        .legal_moves()
        .into_iter()
        .find(|m| m.from() == Some(from) && m.to() == to && m.promotion() == promotion)
}

/// A book move found for a position.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BookMove {
    pub m: Move,
    /// Summed over duplicate entries of the same move.
    pub weight: u32,
    /// weight / the position's total weight, 0..=1.
    pub share: f64,
}

/// Everything a book says about one position.
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    pub key: u64,
    /// Best (highest weight) first.
    pub moves: Vec<BookMove>,
    /// Entries whose move is not legal here (a corrupt book or a key
    /// collision): skipped, never played.
    pub illegal: usize,
}

/// A Polyglot book held in memory.
#[derive(Debug, Clone, Default)]
pub struct Book {
    entries: Vec<Entry>,
}

impl Book {
    /// Read and validate a book file: a regular file of at most
    /// [`crate::fsutil::MAX_BOOK_BYTES`].
    pub fn open(path: &Path) -> Result<Book, BookError> {
        let bytes = crate::fsutil::read_capped(path, crate::fsutil::MAX_BOOK_BYTES, "a book")
            .map_err(|e| match e.why {
                crate::fsutil::Unreadable::Io(source) => BookError::Io {
                    path: path.display().to_string(),
                    source,
                },
                why => BookError::Unreadable {
                    path: path.display().to_string(),
                    why,
                },
            })?;
        Book::from_bytes(&bytes, &path.display().to_string())
    }

    /// Validate and load a book image; `name` is used in errors.
    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<Book, BookError> {
        if bytes.is_empty() {
            return Err(BookError::Empty { path: name.into() });
        }
        if !bytes.len().is_multiple_of(ENTRY_SIZE) {
            return Err(BookError::Truncated {
                path: name.into(),
                len: bytes.len(),
            });
        }
        let mut entries = Vec::with_capacity(bytes.len() / ENTRY_SIZE);
        for (index, chunk) in bytes.chunks_exact(ENTRY_SIZE).enumerate() {
            let mut raw = [0u8; ENTRY_SIZE];
            raw.copy_from_slice(chunk);
            let entry = Entry::from_bytes(&raw);
            if let Some(previous) = entries.last().map(|e: &Entry| e.key)
                && entry.key < previous
            {
                return Err(BookError::Unsorted {
                    path: name.into(),
                    index,
                    key: entry.key,
                    previous,
                });
            }
            entries.push(entry);
        }
        Ok(Book { entries })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Number of distinct positions (keys).
    pub fn positions(&self) -> usize {
        let mut count = 0;
        let mut last = None;
        for entry in &self.entries {
            if last != Some(entry.key) {
                count += 1;
                last = Some(entry.key);
            }
        }
        count
    }

    /// The entries under `key`: binary search for the first, then the run.
    pub fn entries_for(&self, key: u64) -> &[Entry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let end = start + self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..end]
    }

    /// The book's moves for `position`, legal ones only, duplicates merged,
    /// best first (ties keep the book's order). A Chess960 position is never
    /// in book: Polyglot keys and castling moves are standard chess's, and a
    /// Chess960 game leaves the book's positions from its first move (even
    /// from number 518, the standard start, kibitz plays without the book
    /// so that every Chess960 game is played the same way).
    pub fn probe(&self, position: &Chess) -> Probe {
        let key = polyglot_key(position);
        if crate::game::chess960::is_chess960(position) {
            return Probe {
                key,
                moves: Vec::new(),
                illegal: 0,
            };
        }
        let mut moves: Vec<BookMove> = Vec::new();
        let mut illegal = 0;
        let entries = self.entries_for(key);
        // Generate the legal moves once for all entries, and only in book.
        let legal = if entries.is_empty() {
            shakmaty::MoveList::new()
        } else {
            position.legal_moves()
        };
        for entry in entries {
            let (from, to, promotion) = decode_move(entry.raw_move);
            let found = legal
                .iter()
                .find(|m| m.from() == Some(from) && m.to() == to && m.promotion() == promotion)
                .copied();
            match found {
                Some(m) => match moves.iter_mut().find(|b| b.m == m) {
                    Some(existing) => {
                        existing.weight = existing.weight.saturating_add(u32::from(entry.weight));
                    }
                    None => moves.push(BookMove {
                        m,
                        weight: u32::from(entry.weight),
                        share: 0.0,
                    }),
                },
                None => illegal += 1,
            }
        }
        let total: u64 = moves.iter().map(|b| u64::from(b.weight)).sum();
        for b in &mut moves {
            b.share = if total == 0 {
                0.0
            } else {
                b.weight as f64 / total as f64
            };
        }
        moves.sort_by_key(|b| std::cmp::Reverse(b.weight));
        Probe {
            key,
            moves,
            illegal,
        }
    }

    /// Build a book from entries in any order: sorted by key, then by weight
    /// (highest first), then by move, which is the order Polyglot writes.
    pub fn from_entries(mut entries: Vec<Entry>) -> Book {
        entries.sort_by(|a, b| {
            a.key
                .cmp(&b.key)
                .then(b.weight.cmp(&a.weight))
                .then(a.raw_move.cmp(&b.raw_move))
        });
        Book { entries }
    }

    /// The book as a file image.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.entries.len() * ENTRY_SIZE);
        for entry in &self.entries {
            out.extend_from_slice(&entry.to_bytes());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::notation::parse_uci;

    #[test]
    fn entries_round_trip_through_bytes() {
        let entry = Entry {
            key: 0x463b_9618_1691_fc9c,
            raw_move: 0x031c,
            weight: 0xbeef,
            learn: 0x0102_0304,
        };
        assert_eq!(Entry::from_bytes(&entry.to_bytes()), entry);
        assert_eq!(entry.to_bytes()[0], 0x46);
    }

    #[test]
    fn moves_encode_as_the_specification_says() {
        let start = Chess::default();
        let e2e4 = parse_uci(&start, "e2e4").unwrap();
        // to e4: file 4, rank 3; from e2: file 4, rank 1.
        assert_eq!(encode_move(e2e4), 4 | (3 << 3) | (4 << 6) | (1 << 9));
        assert_eq!(legal_move(&start, encode_move(e2e4)), Some(e2e4));
        let castle_fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let position = crate::game::fen::parse_fen(castle_fen).unwrap();
        let castle = parse_uci(&position, "e1g1").unwrap();
        let (from, to, _) = decode_move(encode_move(castle));
        assert_eq!((from, to), (Square::E1, Square::H1), "king takes rook");
        assert_eq!(legal_move(&position, encode_move(castle)), Some(castle));
        let promo = crate::game::fen::parse_fen("8/4P1k1/8/8/8/8/6K1/8 w - - 0 1").unwrap();
        let under = parse_uci(&promo, "e7e8n").unwrap();
        assert_eq!(encode_move(under) >> 12, 1);
        assert_eq!(legal_move(&promo, encode_move(under)), Some(under));
    }

    #[test]
    fn bad_images_are_refused_with_the_reason() {
        assert!(matches!(
            Book::from_bytes(&[], "x"),
            Err(BookError::Empty { .. })
        ));
        assert!(matches!(
            Book::from_bytes(&[0; 17], "x"),
            Err(BookError::Truncated { len: 17, .. })
        ));
        let high = Entry {
            key: 9,
            raw_move: 0,
            weight: 1,
            learn: 0,
        };
        let low = Entry { key: 3, ..high };
        let mut image = high.to_bytes().to_vec();
        image.extend_from_slice(&low.to_bytes());
        let err = Book::from_bytes(&image, "x").unwrap_err();
        assert!(matches!(err, BookError::Unsorted { index: 1, .. }), "{err}");
        assert!(err.to_string().contains("entry 1"));
    }

    #[test]
    fn probe_merges_duplicates_skips_illegal_and_shares_weights() {
        let start = Chess::default();
        let key = polyglot_key(&start);
        let raw = |uci: &str| encode_move(parse_uci(&start, uci).unwrap());
        let entry = |raw_move, weight| Entry {
            key,
            raw_move,
            weight,
            learn: 0,
        };
        // e2e5 is not legal: from e2 (4,1) to e5 (4,4).
        let illegal = 4 | (4 << 3) | (4 << 6) | (1 << 9);
        let book = Book::from_entries(vec![
            entry(raw("d2d4"), 10),
            entry(raw("e2e4"), 20),
            entry(raw("d2d4"), 30),
            entry(illegal, 50),
            Entry {
                key: key + 1,
                ..entry(raw("c2c4"), 5)
            },
        ]);
        let probe = book.probe(&start);
        assert_eq!(probe.illegal, 1);
        let got: Vec<(String, u32)> = probe
            .moves
            .iter()
            .map(|b| (crate::game::notation::uci(b.m), b.weight))
            .collect();
        assert_eq!(got, [("d2d4".to_string(), 40), ("e2e4".to_string(), 20)]);
        assert!((probe.moves[0].share - 40.0 / 60.0).abs() < 1e-9);
        assert_eq!(book.positions(), 2);
        // The same board as a Chess960 start (number 518) is out of book.
        let chess960 = crate::game::chess960::standard_start();
        assert_eq!(polyglot_key(&chess960), key);
        assert!(book.probe(&chess960).moves.is_empty());
        let reread = Book::from_bytes(&book.to_bytes(), "x").unwrap();
        assert_eq!(reread.entries(), book.entries());
    }
}
