//! Random games for tests that compare a fast routine with shakmaty's own
//! answer position after position.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, MoveList, Position};

/// The perft suite's positions that are rich in pins, checks, castling,
/// en passant and promotions: the usual starts for [`walk`].
pub(super) const TRICKY: [&str; 4] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
];

/// From each FEN in `starts`, 20 games of up to 60 random legal moves
/// (an xorshift generator from `seed`, so the games are the same on every
/// run). `visit` sees each position before its move, with its legal moves.
pub(super) fn walk(starts: &[&str], mut seed: u64, mut visit: impl FnMut(&Chess, &MoveList)) {
    for fen in starts {
        for _game in 0..20 {
            let mut pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            for _ply in 0..60 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                visit(&pos, &legal);
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.play_unchecked(legal[(seed % legal.len() as u64) as usize]);
            }
        }
    }
}
