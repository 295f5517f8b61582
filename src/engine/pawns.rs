//! Pawn structure for the evaluation, by bitboard *fills*.
//!
//! Pawn structure is judged for all pawns of a side at once: smearing each
//! pawn along its file answers "is there a pawn ahead of / behind / beside
//! this one?" for every pawn in a few shifts, where asking pawn by pawn
//! would build a mask per pawn. What the sets are worth is the
//! evaluation's business (`eval.rs`); this file only finds them.

use shakmaty::{Bitboard, Color, File};

/// The squares `color`'s pawns attack.
pub(super) fn pawn_attacks_of(pawns: Bitboard, color: Color) -> Bitboard {
    match color {
        Color::White => {
            Bitboard((pawns.0 << 7) & !Bitboard::from_file(File::H).0)
                | Bitboard((pawns.0 << 9) & !Bitboard::from_file(File::A).0)
        }
        Color::Black => {
            Bitboard((pawns.0 >> 9) & !Bitboard::from_file(File::H).0)
                | Bitboard((pawns.0 >> 7) & !Bitboard::from_file(File::A).0)
        }
    }
}

const NOT_FILE_A: u64 = !0x0101_0101_0101_0101;
const NOT_FILE_H: u64 = !0x8080_8080_8080_8080;

/// Every square at or above a set square, on its file.
fn north_fill(mut b: u64) -> u64 {
    b |= b << 8;
    b |= b << 16;
    b | (b << 32)
}

/// Every square at or below a set square, on its file.
fn south_fill(mut b: u64) -> u64 {
    b |= b >> 8;
    b |= b >> 16;
    b | (b >> 32)
}

/// The set plus its neighbours one file to either side.
fn with_neighbour_files(b: u64) -> u64 {
    b | ((b << 1) & NOT_FILE_A) | ((b >> 1) & NOT_FILE_H)
}

/// Squares strictly ahead of each of `pawns`, from `color`'s side.
pub(super) fn ahead_of(pawns: Bitboard, color: Color) -> u64 {
    match color {
        Color::White => north_fill(pawns.0 << 8),
        Color::Black => south_fill(pawns.0 >> 8),
    }
}

/// Squares strictly behind each of `pawns`, from `color`'s side.
fn behind(pawns: Bitboard, color: Color) -> u64 {
    ahead_of(pawns, !color)
}

/// The pawn-structure sets of one side.
pub(super) struct PawnSets {
    /// Pawns sharing their file with another pawn of their side.
    pub doubled: Bitboard,
    /// Pawns with no pawn of their side on either neighbouring file.
    pub isolated: Bitboard,
    /// Pawns no enemy pawn can stop (none ahead on their own or a
    /// neighbouring file) and not behind a pawn of their own side.
    pub passed: Bitboard,
}

pub(super) fn pawn_sets(ours: Bitboard, theirs: Bitboard, color: Color) -> PawnSets {
    let own_ahead = ahead_of(ours, color);
    let own_behind = behind(ours, color);
    let files = north_fill(south_fill(ours.0));
    // A pawn is stopped by an enemy pawn ahead of it on its own or a
    // neighbouring file: that is, the pawn stands behind (from the enemy's
    // side, ahead of) one, one file either way.
    let stoppable = with_neighbour_files(ahead_of(theirs, !color));
    PawnSets {
        doubled: ours & Bitboard(own_ahead | own_behind),
        isolated: ours & !Bitboard(((files << 1) & NOT_FILE_A) | ((files >> 1) & NOT_FILE_H)),
        passed: ours & !Bitboard(stoppable | own_behind),
    }
}
