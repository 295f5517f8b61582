//! Random games for tests that compare a fast routine with shakmaty's own
//! answer position after position.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, MoveList, Position};

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
