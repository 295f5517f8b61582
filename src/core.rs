//! The small shared core below the engine, the book, the tablebases and the
//! game: how a position is keyed, how a move is written in UCI, and the
//! pseudo-random numbers that choose among moves. It imports nothing from the rest of the crate, so every
//! module may use it without an import loop.

use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, File, Move, Position};

/// The key of a position: the Polyglot-compatible Zobrist hash, counting the
/// en passant square only when a capture there is legal (so positions that are
/// the same for the rules hash the same). The engine's transposition table
/// and repetition history, the game's repetition count, the opening names and
/// Polyglot books all use it.
pub fn position_key(position: &Chess) -> u64 {
    position.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// UCI text of a move. Castling is the king's two-square move (`e1g1`) as
/// standard UCI writes it, except a Chess960 castling that cannot be
/// written so (the king not on the e-file or the rook not in the corner):
/// that is the king taking its rook (`b1a1`), which reads back unambiguously
/// where the king's target square could also be an ordinary king move.
pub fn uci_text(m: Move) -> String {
    let mode = match m {
        Move::Castle { king, rook }
            if king.file() != File::E || !matches!(rook.file(), File::A | File::H) =>
        {
            CastlingMode::Chess960
        }
        _ => CastlingMode::Standard,
    };
    m.to_uci(mode).to_string()
}

/// A small, fast pseudo-random generator (xorshift64*). Choosing a move needs
/// no cryptography, and a seed makes tests repeatable.
#[derive(Debug, Clone)]
pub struct Rng(u64);

/// A count with its noun in the right number: "1 blunder", "2 blunders",
/// "0 mistakes".
pub fn counted(n: impl Into<u64>, singular: &str, plural: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { singular } else { plural })
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // Zero is xorshift's one fixed point.
        Rng(seed.max(1))
    }

    /// The generator of the `n`th item of a run seeded with `seed` (a game,
    /// a tuning pair): each item its own stream, so an item is the same
    /// whichever thread takes it.
    pub fn for_item(seed: u64, n: u64) -> Rng {
        Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(n))
    }

    /// Seeded from the clock.
    pub fn from_time() -> Rng {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0x9E37_79B9_7F4A_7C15, |d| d.as_nanos() as u64);
        Rng::new(nanos ^ 0x9E37_79B9_7F4A_7C15)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_repeats_and_zero_is_not_stuck() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        assert_eq!(a.next_u64(), b.next_u64());
        let mut zero = Rng::new(0);
        assert_ne!(zero.next_u64(), zero.next_u64());
        let f = a.next_f64();
        assert!((0.0..1.0).contains(&f));
    }

    #[test]
    fn the_start_position_has_the_polyglot_key() {
        // The Polyglot specification's key for the initial position.
        assert_eq!(position_key(&Chess::default()), 0x463b_9618_1691_fc9c);
    }
}

#[cfg(test)]
mod counted_tests {
    use super::counted;

    #[test]
    fn one_is_singular_everything_else_plural() {
        assert_eq!(counted(1u32, "blunder", "blunders"), "1 blunder");
        assert_eq!(counted(0u32, "blunder", "blunders"), "0 blunders");
        assert_eq!(counted(2u32, "ply", "plies"), "2 plies");
    }
}
