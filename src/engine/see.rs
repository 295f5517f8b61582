//! Static exchange evaluation: what a capture wins once the dust settles.
//!
//! A capture's face value (the piece taken) says little: a queen that takes
//! a defended pawn loses the queen. Exchange evaluation plays out, on one
//! square and without a search, the captures both sides can make there,
//! each with its least valuable piece, and lets either side stop when going
//! on would lose. The move ordering uses it to put losing captures last,
//! the quiescence search to skip them, and the selective search to prune
//! them near the horizon.
//!
//! Cheaper still is most-valuable-victim, least-valuable-attacker
//! (`mvv_lva`): no exchange at all, only the two pieces' values, which is
//! how captures that do not lose are ordered among themselves.

use shakmaty::{Bitboard, Chess, Color, Move, Position, Role, Square};

/// Piece values for exchange evaluation and victim ordering, in centipawns.
/// Simpler than the evaluation's: only their order matters much here.
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

fn value_of(role: Role) -> i32 {
    SEE_VALUE[role as usize - 1]
}

/// Static exchange evaluation: the material balance, for the side making the
/// capture, of the sequence of captures on the target square when both sides
/// always recapture with their least valuable piece and may stop whenever
/// continuing would lose. Pins are ignored, as usual.
pub fn see(position: &Chess, m: Move) -> i32 {
    let (from, to) = match m {
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
        Move::Castle { .. } | Move::Put { .. } => return 0,
    };
    let board = position.board();
    let mut occupied = board.occupied() ^ Bitboard::from_square(from);
    let mut gains = [0i32; 32];
    gains[0] = match m {
        Move::EnPassant { .. } => {
            // The captured pawn is not on the target square.
            let captured = Square::from_coords(to.file(), from.rank());
            occupied ^= Bitboard::from_square(captured);
            value_of(Role::Pawn)
        }
        _ => m.capture().map_or(0, value_of),
    };
    let mut on_square = value_of(m.role());
    if let Some(promotion) = m.promotion() {
        gains[0] += value_of(promotion) - value_of(Role::Pawn);
        on_square = value_of(promotion);
    }
    let mut side = !position.turn();
    let mut depth = 0;
    loop {
        let attackers = board.attacks_to(to, side, occupied) & occupied;
        if attackers.is_empty() {
            break;
        }
        let Some((square, role)) = least_valuable(board, attackers, side) else {
            break;
        };
        // A king may only capture if nothing defends the square.
        if role == Role::King
            && (board.attacks_to(to, !side, occupied ^ Bitboard::from_square(square)) & occupied)
                .any()
        {
            break;
        }
        depth += 1;
        if depth >= gains.len() {
            break;
        }
        gains[depth] = on_square - gains[depth - 1];
        // If both standing pat and capturing lose for this side, it will
        // not capture: drop the speculative entry and stop.
        if gains[depth].max(-gains[depth - 1]) < 0 {
            depth -= 1;
            break;
        }
        on_square = value_of(role);
        occupied ^= Bitboard::from_square(square);
        side = !side;
    }
    while depth > 0 {
        gains[depth - 1] = -((-gains[depth - 1]).max(gains[depth]));
        depth -= 1;
    }
    gains[0]
}

/// Whether a capture (or promotion) wins or keeps material by exchange
/// evaluation, the same answer as `see(position, m) >= 0`. Taking a piece
/// worth at least the capturer's value cannot lose (the capturer may stop
/// after one recapture: `see_bounds` knows a lower bound), so those skip
/// the exchange.
pub(super) fn wins_or_holds(position: &Chess, m: Move) -> bool {
    see_bounds(m).0.is_some() || see(position, m) >= 0
}

/// Bounds on `see(position, m)` known without playing out the exchange:
/// the exchange never wins more than the first capture takes (with a
/// promotion's gain), and when the victim is worth at least the capturer,
/// never less than the victim minus the capturer (the capturer's side may
/// stop after one recapture). The lower bound is `None` when the capturer
/// is worth more; a caller that the bounds already answer skips the
/// exchange.
pub(super) fn see_bounds(m: Move) -> (Option<i32>, i32) {
    let victim = match m {
        Move::EnPassant { .. } => Some(Role::Pawn),
        Move::Normal { capture, .. } => capture,
        Move::Castle { .. } | Move::Put { .. } => return (Some(0), 0),
    };
    let taken = victim.map_or(0, value_of);
    let promoted = m
        .promotion()
        .map_or(0, |role| value_of(role) - value_of(Role::Pawn));
    let lower = (m.promotion().is_none() && taken >= value_of(m.role()))
        .then(|| taken - value_of(m.role()));
    (lower, taken + promoted)
}

fn least_valuable(
    board: &shakmaty::Board,
    attackers: Bitboard,
    side: Color,
) -> Option<(Square, Role)> {
    Role::ALL.iter().find_map(|&role| {
        (attackers & board.by_piece(role.of(side)))
            .first()
            .map(|sq| (sq, role))
    })
}

/// Most valuable victim first, then least valuable attacker.
pub(super) fn mvv_lva(m: Move) -> i32 {
    let victim = match m {
        Move::EnPassant { .. } => value_of(Role::Pawn),
        _ => m.capture().map_or(0, value_of),
    };
    let promotion = m.promotion().map_or(0, value_of);
    (victim + promotion) * 16 - value_of(m.role()) / 16
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        see(&pos, m)
    }

    #[test]
    fn exchange_evaluation() {
        // Undefended pawn: wins a pawn.
        assert_eq!(
            see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
            100
        );
        // Pawn defended by a knight, taken by a rook... then a queen behind:
        // Rxe5 Nxe5 loses the exchange.
        assert_eq!(
            see_of(
                "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
                "d3e5"
            ),
            -220
        );
        // Quiet move: nothing changes hands.
        assert_eq!(see_of("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "h1h5"), 0);
    }

    /// The bounds quiescence search trusts instead of the exchange must
    /// hold for every capture and promotion of many random positions.
    #[test]
    fn bounds_hold() {
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        ];
        let (mut checked, mut known_low) = (0, 0);
        super::super::random_walks::walk(&starts, 0x5EE_B0D5, |pos, legal| {
            for &m in legal {
                if !m.is_capture() && !m.is_promotion() {
                    continue;
                }
                let exact = see(pos, m);
                let (lower, upper) = see_bounds(m);
                assert!(exact <= upper, "{m} in {pos:?}: {exact} > {upper}");
                if let Some(lower) = lower {
                    assert!(exact >= lower, "{m} in {pos:?}: {exact} < {lower}");
                    known_low += 1;
                }
                checked += 1;
            }
        });
        assert!(checked > 1000 && known_low > 100, "{checked} {known_low}");
    }
}
