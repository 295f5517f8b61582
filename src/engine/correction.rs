//! Correction history: what the search has learnt about the static
//! evaluation's mistakes in positions with this pawn structure.
//!
//! The static evaluation is a fixed formula, and it is wrong in patterned
//! ways: a pawn structure it likes may in fact be lost for the side to move
//! (a blockade it cannot see), or one it calls equal may be a slow win.
//! Every finished node whose search result says something about the
//! evaluation (an exact value, or a bound on the far side of the evaluation)
//! tells how far off the evaluation was there. Those errors are averaged
//! per side to move and pawn structure, and the average is added to the
//! evaluation wherever the search uses it to prune (reverse futility, the
//! null move, futility). The pruning rules then bet on a better estimate;
//! the leaves of the tree still use the plain evaluation.
//!
//! The pawns are the index because they are the slowest-changing part of a
//! position: a game keeps the same pawn structure for many moves, so what
//! one search learns serves the next ones.
//!
//! (A second pair of tables, the same errors indexed by each side's pieces
//! other than pawns and added beside the pawns' at full weight, scored -2.9
//! Elo, 95% -18.5 to +12.7, over 600 game pairs at 15,000 nodes against the
//! pawns' alone: not kept.)

use shakmaty::{Board, Color};

/// 2^14 pawn structures per colour (64 KiB each).
const BITS: u32 = 14;
/// Corrections are kept in 1/`GRAIN` of a centipawn, so that small updates
/// do not round away.
const GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const LIMIT: i32 = 200;
/// A node's error counts with weight `min(depth + 1, MAX_WEIGHT)` out of
/// `WEIGHT_SCALE`: a deep search's verdict is worth more, and even the
/// deepest moves the average only a little at a time.
const MAX_WEIGHT: i32 = 16;
const WEIGHT_SCALE: i32 = 256;

/// Average evaluation errors, by side to move and pawn structure.
#[derive(Clone)]
pub struct Corrections {
    table: Vec<i32>,
}

impl Default for Corrections {
    fn default() -> Corrections {
        Corrections {
            table: vec![0; 2 << BITS],
        }
    }
}

impl Corrections {
    /// The slot of a side to move and a pawn structure: a hash of the two
    /// colours' pawn bitboards.
    fn slot(board: &Board, turn: Color) -> usize {
        let pawns = board.pawns();
        let white = (pawns & board.white()).0;
        let black = (pawns & board.black()).0;
        let mixed = white.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ black.rotate_left(32).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        let index = (mixed ^ (mixed >> 31)).wrapping_mul(0xFF51_AFD7_ED55_8CCD) >> (64 - BITS);
        ((turn as usize) << BITS) | index as usize
    }

    /// The static evaluation (for the side to move) corrected by what the
    /// search has learnt about this pawn structure.
    pub fn correct(&self, board: &Board, turn: Color, eval: i32) -> i32 {
        eval + self.table[Self::slot(board, turn)] / GRAIN
    }

    /// A node searched to `depth` with static evaluation `eval` (uncorrected)
    /// turned out to be worth `value`: move the average error towards it.
    pub fn update(&mut self, board: &Board, turn: Color, depth: i32, eval: i32, value: i32) {
        let error = (value - eval).clamp(-LIMIT, LIMIT) * GRAIN;
        let weight = (depth + 1).min(MAX_WEIGHT);
        let slot = &mut self.table[Self::slot(board, turn)];
        *slot = (*slot * (WEIGHT_SCALE - weight) + error * weight) / WEIGHT_SCALE;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn repeated_errors_move_the_correction_towards_them_and_no_further() {
        let position = Chess::default();
        let board = position.board();
        let mut corrections = Corrections::default();
        assert_eq!(corrections.correct(board, Color::White, 30), 30);
        for _ in 0..200 {
            corrections.update(board, Color::White, 10, 30, 90);
        }
        let corrected = corrections.correct(board, Color::White, 30);
        assert!((85..=90).contains(&corrected), "{corrected}");
        // The other side to move has its own entry.
        assert_eq!(corrections.correct(board, Color::Black, 30), 30);
        // Errors beyond the limit count as the limit.
        for _ in 0..400 {
            corrections.update(board, Color::White, 10, 0, 5000);
        }
        assert!(corrections.correct(board, Color::White, 0) <= LIMIT);
    }
}
