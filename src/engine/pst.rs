//! Piece-square tables: PeSTO's, by Ronald Friederich, whose numbers were
//! fitted to game results with Texel's tuning method.
//!
//! A piece-square table gives every kind of piece a bonus (or a penalty) for
//! each square it can stand on: a knight in the centre reaches more squares
//! than one in the corner, a pawn near promotion is worth more than one at
//! home. Adding up material plus these bonuses is a whole evaluation in
//! itself, which is all PeSTO ("Piece-Square Tables Only") uses.
//!
//! What a square is worth changes as the game goes on: in the middlegame the
//! king should hide behind its pawns, in the endgame it should walk to the
//! centre. So every table comes twice, one for the middlegame and one for the
//! endgame, and the evaluation blends the two according to how much material
//! is left (a "tapered" evaluation): with all pieces on the board it uses the
//! middlegame numbers only, with only kings and pawns the endgame numbers
//! only, and a weighted mix in between, the weights given by [`PHASE_WEIGHT`].
//!
//! Every number here is in centipawns, hundredths of a pawn.

/// Material values in centipawns, indexed by role: pawn, knight, bishop, rook, queen, king.
pub const MATERIAL_MG: [i32; 6] = [82, 337, 365, 477, 1025, 0];
/// Endgame material values in centipawns, same indexing as [`MATERIAL_MG`].
pub const MATERIAL_EG: [i32; 6] = [94, 281, 297, 512, 936, 0];

/// Game-phase weight of each role (pawn 0, knight 1, bishop 1, rook 2, queen 4, king 0); 24 = full middlegame.
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// Sum of [`PHASE_WEIGHT`] over the starting position's pieces.
pub const PHASE_TOTAL: i32 = 24;

// Layout of the tables below: one block of 64 per role, in the role order of
// MATERIAL_MG. Each block is written as 8 rows of 8, rank 1 on the first row
// and rank 8 on the last, files a to h from left to right. So in the source the
// board appears upside down compared to a diagram (White at the top), because
// the index must run a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63.

/// Positional bonus per role and square, for White, squares indexed a1 = 0, b1 = 1, ..., h8 = 63
/// (shakmaty's Square order). Black uses the vertically flipped square (sq ^ 56).
#[rustfmt::skip]
pub const PST_MG: [[i32; 64]; 6] = [
    // Pawn.
    [
        // a     b     c     d     e     f     g     h
           0,    0,    0,    0,    0,    0,    0,    0, // rank 1
         -35,   -1,  -20,  -23,  -15,   24,   38,  -22, // rank 2
         -26,   -4,   -4,  -10,    3,    3,   33,  -12, // rank 3
         -27,   -2,   -5,   12,   17,    6,   10,  -25, // rank 4
         -14,   13,    6,   21,   23,   12,   17,  -23, // rank 5
          -6,    7,   26,   31,   65,   56,   25,  -20, // rank 6
          98,  134,   61,   95,   68,  126,   34,  -11, // rank 7
           0,    0,    0,    0,    0,    0,    0,    0, // rank 8
    ],
    // Knight.
    [
        // a     b     c     d     e     f     g     h
        -105,  -21,  -58,  -33,  -17,  -28,  -19,  -23, // rank 1
         -29,  -53,  -12,   -3,   -1,   18,  -14,  -19, // rank 2
         -23,   -9,   12,   10,   19,   17,   25,  -16, // rank 3
         -13,    4,   16,   13,   28,   19,   21,   -8, // rank 4
          -9,   17,   19,   53,   37,   69,   18,   22, // rank 5
         -47,   60,   37,   65,   84,  129,   73,   44, // rank 6
         -73,  -41,   72,   36,   23,   62,    7,  -17, // rank 7
        -167,  -89,  -34,  -49,   61,  -97,  -15, -107, // rank 8
    ],
    // Bishop.
    [
        // a     b     c     d     e     f     g     h
         -33,   -3,  -14,  -21,  -13,  -12,  -39,  -21, // rank 1
           4,   15,   16,    0,    7,   21,   33,    1, // rank 2
           0,   15,   15,   15,   14,   27,   18,   10, // rank 3
          -6,   13,   13,   26,   34,   12,   10,    4, // rank 4
          -4,    5,   19,   50,   37,   37,    7,   -2, // rank 5
         -16,   37,   43,   40,   35,   50,   37,   -2, // rank 6
         -26,   16,  -18,  -13,   30,   59,   18,  -47, // rank 7
         -29,    4,  -82,  -37,  -25,  -42,    7,   -8, // rank 8
    ],
    // Rook.
    [
        // a     b     c     d     e     f     g     h
         -19,  -13,    1,   17,   16,    7,  -37,  -26, // rank 1
         -44,  -16,  -20,   -9,   -1,   11,   -6,  -71, // rank 2
         -45,  -25,  -16,  -17,    3,    0,   -5,  -33, // rank 3
         -36,  -26,  -12,   -1,    9,   -7,    6,  -23, // rank 4
         -24,  -11,    7,   26,   24,   35,   -8,  -20, // rank 5
          -5,   19,   26,   36,   17,   45,   61,   16, // rank 6
          27,   32,   58,   62,   80,   67,   26,   44, // rank 7
          32,   42,   32,   51,   63,    9,   31,   43, // rank 8
    ],
    // Queen.
    [
        // a     b     c     d     e     f     g     h
          -1,  -18,   -9,   10,  -15,  -25,  -31,  -50, // rank 1
         -35,   -8,   11,    2,    8,   15,   -3,    1, // rank 2
         -14,    2,  -11,   -2,   -5,    2,   14,    5, // rank 3
          -9,  -26,   -9,  -10,   -2,   -4,    3,   -3, // rank 4
         -27,  -27,  -16,  -16,   -1,   17,   -2,    1, // rank 5
         -13,  -17,    7,    8,   29,   56,   47,   57, // rank 6
         -24,  -39,   -5,    1,  -16,   57,   28,   54, // rank 7
         -28,    0,   29,   12,   59,   44,   43,   45, // rank 8
    ],
    // King.
    [
        // a     b     c     d     e     f     g     h
         -15,   36,   12,  -54,    8,  -28,   24,   14, // rank 1
           1,    7,   -8,  -64,  -43,  -16,    9,    8, // rank 2
         -14,  -14,  -22,  -46,  -44,  -30,  -15,  -27, // rank 3
         -49,   -1,  -27,  -39,  -46,  -44,  -33,  -51, // rank 4
         -17,  -20,  -12,  -27,  -30,  -25,  -14,  -36, // rank 5
          -9,   24,    2,  -16,  -20,    6,   22,  -22, // rank 6
          29,   -1,  -20,   -7,   -8,   -4,  -38,  -29, // rank 7
         -65,   23,   16,  -15,  -56,  -34,    2,   13, // rank 8
    ],
];

/// Endgame counterpart of [`PST_MG`]: same indexing, same flip for Black.
#[rustfmt::skip]
pub const PST_EG: [[i32; 64]; 6] = [
    // Pawn.
    [
        // a     b     c     d     e     f     g     h
           0,    0,    0,    0,    0,    0,    0,    0, // rank 1
          13,    8,    8,   10,   13,    0,    2,   -7, // rank 2
           4,    7,   -6,    1,    0,   -5,   -1,   -8, // rank 3
          13,    9,   -3,   -7,   -7,   -8,    3,   -1, // rank 4
          32,   24,   13,    5,   -2,    4,   17,   17, // rank 5
          94,  100,   85,   67,   56,   53,   82,   84, // rank 6
         178,  173,  158,  134,  147,  132,  165,  187, // rank 7
           0,    0,    0,    0,    0,    0,    0,    0, // rank 8
    ],
    // Knight.
    [
        // a     b     c     d     e     f     g     h
         -29,  -51,  -23,  -15,  -22,  -18,  -50,  -64, // rank 1
         -42,  -20,  -10,   -5,   -2,  -20,  -23,  -44, // rank 2
         -23,   -3,   -1,   15,   10,   -3,  -20,  -22, // rank 3
         -18,   -6,   16,   25,   16,   17,    4,  -18, // rank 4
         -17,    3,   22,   22,   22,   11,    8,  -18, // rank 5
         -24,  -20,   10,    9,   -1,   -9,  -19,  -41, // rank 6
         -25,   -8,  -25,   -2,   -9,  -25,  -24,  -52, // rank 7
         -58,  -38,  -13,  -28,  -31,  -27,  -63,  -99, // rank 8
    ],
    // Bishop.
    [
        // a     b     c     d     e     f     g     h
         -23,   -9,  -23,   -5,   -9,  -16,   -5,  -17, // rank 1
         -14,  -18,   -7,   -1,    4,   -9,  -15,  -27, // rank 2
         -12,   -3,    8,   10,   13,    3,   -7,  -15, // rank 3
          -6,    3,   13,   19,    7,   10,   -3,   -9, // rank 4
          -3,    9,   12,    9,   14,   10,    3,    2, // rank 5
           2,   -8,    0,   -1,   -2,    6,    0,    4, // rank 6
          -8,   -4,    7,  -12,   -3,  -13,   -4,  -14, // rank 7
         -14,  -21,  -11,   -8,   -7,   -9,  -17,  -24, // rank 8
    ],
    // Rook.
    [
        // a     b     c     d     e     f     g     h
          -9,    2,    3,   -1,   -5,  -13,    4,  -20, // rank 1
          -6,   -6,    0,    2,   -9,   -9,  -11,   -3, // rank 2
          -4,    0,   -5,   -1,   -7,  -12,   -8,  -16, // rank 3
           3,    5,    8,    4,   -5,   -6,   -8,  -11, // rank 4
           4,    3,   13,    1,    2,    1,   -1,    2, // rank 5
           7,    7,    7,    5,    4,   -3,   -5,   -3, // rank 6
          11,   13,   13,   11,   -3,    3,    8,    3, // rank 7
          13,   10,   18,   15,   12,   12,    8,    5, // rank 8
    ],
    // Queen.
    [
        // a     b     c     d     e     f     g     h
         -33,  -28,  -22,  -43,   -5,  -32,  -20,  -41, // rank 1
         -22,  -23,  -30,  -16,  -16,  -23,  -36,  -32, // rank 2
         -16,  -27,   15,    6,    9,   17,   10,    5, // rank 3
         -18,   28,   19,   47,   31,   34,   39,   23, // rank 4
           3,   22,   24,   45,   57,   40,   57,   36, // rank 5
         -20,    6,    9,   49,   47,   35,   19,    9, // rank 6
         -17,   20,   32,   41,   58,   25,   30,    0, // rank 7
          -9,   22,   22,   27,   27,   19,   10,   20, // rank 8
    ],
    // King.
    [
        // a     b     c     d     e     f     g     h
         -53,  -34,  -21,  -11,  -28,  -14,  -24,  -43, // rank 1
         -27,  -11,    4,   13,   14,    4,   -5,  -17, // rank 2
         -19,   -3,   11,   21,   23,   16,    7,   -9, // rank 3
         -18,   -4,   21,   24,   27,   23,    9,  -11, // rank 4
          -8,   22,   24,   27,   26,   33,   26,    3, // rank 5
          10,   17,   23,   15,   20,   45,   44,   13, // rank 6
         -12,   17,   14,   17,   17,   38,   23,   11, // rank 7
         -74,  -35,  -18,  -18,  -11,   15,    4,  -17, // rank 8
    ],
];

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Role, Square};

    const PAWN: usize = 0;
    const KNIGHT: usize = 1;
    const ROOK: usize = 3;
    const QUEEN: usize = 4;
    const KING: usize = 5;

    fn mg(role: usize, sq: Square) -> i32 {
        PST_MG[role][sq.to_usize()]
    }

    fn eg(role: usize, sq: Square) -> i32 {
        PST_EG[role][sq.to_usize()]
    }

    // The expected numbers below are read off the tables as printed on the
    // chess programming wiki, where the top-left entry is a8 and the bottom
    // row is rank 1. If a table were stored upside down or mirrored, these
    // would fail.

    #[test]
    fn square_order_is_shakmatys() {
        assert_eq!(Square::A1.to_usize(), 0);
        assert_eq!(Square::B1.to_usize(), 1);
        assert_eq!(Square::H1.to_usize(), 7);
        assert_eq!(Square::A2.to_usize(), 8);
        assert_eq!(Square::H8.to_usize(), 63);
    }

    #[test]
    fn role_order_matches_shakmaty() {
        assert_eq!(Role::Pawn as usize - 1, PAWN);
        assert_eq!(Role::Knight as usize - 1, KNIGHT);
        assert_eq!(Role::Bishop as usize - 1, 2);
        assert_eq!(Role::Rook as usize - 1, ROOK);
        assert_eq!(Role::Queen as usize - 1, QUEEN);
        assert_eq!(Role::King as usize - 1, KING);
    }

    #[test]
    fn middlegame_knight_corners_and_home() {
        assert_eq!(mg(KNIGHT, Square::A8), -167);
        assert_eq!(mg(KNIGHT, Square::H8), -107);
        assert_eq!(mg(KNIGHT, Square::A1), -105);
        assert_eq!(mg(KNIGHT, Square::G1), -19);
        assert_eq!(mg(KNIGHT, Square::F6), 129);
    }

    #[test]
    fn endgame_king_back_ranks() {
        assert_eq!(eg(KING, Square::E1), -28);
        assert_eq!(eg(KING, Square::E8), -11);
        assert_eq!(eg(KING, Square::A8), -74);
        assert_eq!(eg(KING, Square::H1), -43);
    }

    #[test]
    fn middlegame_pawns() {
        assert_eq!(mg(PAWN, Square::E2), -15);
        assert_eq!(mg(PAWN, Square::A7), 98);
        assert_eq!(mg(PAWN, Square::B7), 134);
        assert_eq!(mg(PAWN, Square::G2), 38);
        assert_eq!(eg(PAWN, Square::H7), 187);
    }

    #[test]
    fn other_pieces_spot_checks() {
        assert_eq!(mg(KING, Square::G1), 24);
        assert_eq!(mg(KING, Square::D2), -64);
        assert_eq!(mg(ROOK, Square::H2), -71);
        assert_eq!(mg(ROOK, Square::E7), 80);
        assert_eq!(mg(QUEEN, Square::D1), 10);
        assert_eq!(eg(QUEEN, Square::E5), 57);
        assert_eq!(PST_MG[2][Square::C8.to_usize()], -82);
        assert_eq!(PST_EG[2][Square::D4.to_usize()], 19);
    }

    #[test]
    fn pawns_never_score_on_first_or_last_rank() {
        for file in 0..8 {
            assert_eq!(PST_MG[PAWN][file], 0);
            assert_eq!(PST_MG[PAWN][56 + file], 0);
            assert_eq!(PST_EG[PAWN][file], 0);
            assert_eq!(PST_EG[PAWN][56 + file], 0);
        }
    }

    #[test]
    fn black_reads_the_flipped_square() {
        // A black knight on g8 is worth what a white one is on g1.
        let g8 = Square::G8;
        assert_eq!(g8.flip_vertical().to_usize(), g8.to_usize() ^ 56);
        assert_eq!(PST_MG[KNIGHT][g8.to_usize() ^ 56], mg(KNIGHT, Square::G1));
        assert_eq!(
            PST_EG[KING][Square::E8.to_usize() ^ 56],
            eg(KING, Square::E1)
        );
    }

    #[test]
    fn material_and_phase() {
        assert_eq!(MATERIAL_MG, [82, 337, 365, 477, 1025, 0]);
        assert_eq!(MATERIAL_EG, [94, 281, 297, 512, 936, 0]);
        // Starting position, both sides: 16 pawns, 4 knights, 4 bishops,
        // 4 rooks, 2 queens, 2 kings.
        let counts = [16, 4, 4, 4, 2, 2];
        let phase: i32 = counts.iter().zip(PHASE_WEIGHT).map(|(n, w)| n * w).sum();
        assert_eq!(phase, PHASE_TOTAL);
    }
}
