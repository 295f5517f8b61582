//! Opening books: the Polyglot format, building books from games, the
//! default book kibitz ships, and how a move is chosen from a book.

pub mod build;
pub mod polyglot;

/// Opening names are game knowledge and moved to [`crate::game::openings`];
/// this path is kept only for compatibility (the board and the CLI name it).
pub use crate::game::openings;

use crate::core::Rng;

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
    // `builtin` in any case, as a GUI or a person may type it.
    if setting.is_empty()
        || setting.eq_ignore_ascii_case(BUILTIN)
        || setting.eq_ignore_ascii_case("<builtin>")
        || setting == "<empty>"
    {
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
        match text.trim().to_ascii_lowercase().as_str() {
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
    full.saturating_mul(2)
        .saturating_add(u32::from(position.turn().is_black()))
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
        // A move of weight 0 only lost: the book knows it, the engine never plays it.
        Policy::Best => probe.moves.first().filter(|b| b.weight > 0).copied(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Chess;

    fn probe_with(weights: &[u32]) -> Probe {
        let position = Chess::default();
        let moves = shakmaty::Position::legal_moves(&position);
        Probe {
            key: 0,
            moves: weights
                .iter()
                .zip(moves.iter())
                .map(|(&weight, &m)| BookMove {
                    m,
                    weight,
                    share: 0.0,
                })
                .collect(),
            illegal: 0,
        }
    }

    #[test]
    fn policies_and_depth() {
        let mut rng = Rng::new(3);
        let options = BookOptions::default();
        let probe = probe_with(&[10, 5]);
        assert_eq!(
            choose(
                &probe,
                0,
                BookOptions {
                    policy: Policy::Best,
                    ..options
                },
                &mut rng
            ),
            probe.moves.first().copied()
        );
        assert_eq!(
            choose(
                &probe,
                0,
                BookOptions {
                    policy: Policy::Off,
                    ..options
                },
                &mut rng
            ),
            None
        );
        assert_eq!(
            choose(&probe, options.max_plies, options, &mut rng),
            None,
            "too deep"
        );
        // Weighted: both moves, about 2:1.
        let firsts = (0..3000)
            .filter(|_| choose(&probe, 0, options, &mut rng) == probe.moves.first().copied())
            .count();
        assert!((1800..2200).contains(&firsts), "{firsts}");
        // Only zero weights: no policy plays them.
        let zero = probe_with(&[0, 0]);
        assert_eq!(
            choose(
                &zero,
                0,
                BookOptions {
                    policy: Policy::Best,
                    ..options
                },
                &mut rng
            ),
            None
        );
        assert_eq!(choose(&zero, 0, options, &mut rng), None);
    }

    #[test]
    fn ply_counts_from_the_move_number() {
        let fen = "4k3/8/8/8/8/8/8/4K3 b - - 0 40";
        let position = crate::game::fen::parse_fen(fen).unwrap();
        assert_eq!(ply_of(&position), 79);
        assert_eq!(ply_of(&Chess::default()), 0);
        assert!(load("<empty>").is_ok() && load("builtin").is_ok() && load("/no/book").is_err());
    }
}
