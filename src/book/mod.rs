//! Opening books: the Polyglot format, building books from games, the
//! default book kibitz ships, and how a move is chosen from a book.

pub mod build;
pub mod openings;
pub mod polyglot;

use crate::engine::level::Rng;

pub use polyglot::{Book, BookError, BookMove, Probe};

/// The default book, built from the PGN files in `books/` (see
/// books/README.md) and compiled into the program so it is always there.
pub const DEFAULT_BOOK: &[u8] = include_bytes!("../../books/kibitz.bin");

/// The name a book setting uses for the built-in book.
pub const BUILTIN: &str = "builtin";

/// The default book, loaded.
pub fn default_book() -> Result<Book, BookError> {
    Book::from_bytes(DEFAULT_BOOK, "the built-in book")
}

/// Load a book by setting: `builtin` (or empty) for the built-in one, else a
/// file path.
pub fn load(setting: &str) -> Result<Book, BookError> {
    let setting = setting.trim();
    if setting.is_empty() || setting == BUILTIN || setting == "<builtin>" {
        default_book()
    } else {
        Book::open(std::path::Path::new(setting))
    }
}

/// How a move is picked from the book's moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Policy {
    /// At random, in proportion to the weights (variety, as a person plays).
    #[default]
    Weighted,
    /// Always the highest weight.
    Best,
    /// No book: the engine always searches.
    Off,
}

impl std::str::FromStr for Policy {
    type Err = String;
    fn from_str(text: &str) -> Result<Policy, String> {
        match text {
            "weighted" => Ok(Policy::Weighted),
            "best" => Ok(Policy::Best),
            "off" => Ok(Policy::Off),
            _ => Err(format!(
                "'{text}' is not a book policy (weighted, best, off)"
            )),
        }
    }
}

/// Book play settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BookOptions {
    pub policy: Policy,
    /// Play from the book only while the game is shorter than this (plies).
    pub max_plies: u32,
}

impl Default for BookOptions {
    fn default() -> BookOptions {
        BookOptions {
            policy: Policy::Weighted,
            max_plies: 24,
        }
    }
}

/// The ply number of a position in its game (0 at the start), from the
/// move counter, so a game set up from a FEN counts right too.
pub fn ply_of(position: &shakmaty::Chess) -> u32 {
    use shakmaty::Position;
    let full = position.fullmoves().get().saturating_sub(1);
    full * 2 + u32::from(position.turn().is_black())
}

/// Pick a move from a probe under `options`, or `None` (out of book, too
/// deep, or the book switched off).
pub fn choose(probe: &Probe, ply: u32, options: BookOptions, rng: &mut Rng) -> Option<BookMove> {
    if ply >= options.max_plies {
        return None;
    }
    let total: u64 = probe.moves.iter().map(|b| u64::from(b.weight)).sum();
    match options.policy {
        Policy::Off => None,
        Policy::Best => probe.moves.first().copied(),
        // All weights zero: the book lists moves but recommends none.
        Policy::Weighted if total == 0 => None,
        Policy::Weighted => {
            let mut pick = rng.next_u64() % total;
            for b in &probe.moves {
                let w = u64::from(b.weight);
                if pick < w {
                    return Some(*b);
                }
                pick -= w;
            }
            None
        }
    }
}
