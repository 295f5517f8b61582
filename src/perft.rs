//! Perft: count the leaf nodes of the legal move tree to a fixed depth. The
//! standard correctness test of a move generator, and a measure of its speed.

use shakmaty::{Chess, Move, Position};

/// Leaf nodes at `depth` plies below `position`.
pub fn perft(position: &Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = position.legal_moves();
    if depth == 1 {
        // Bulk counting: the moves themselves are the leaves.
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| {
            let mut child = position.clone();
            child.play_unchecked(m);
            perft(&child, depth - 1)
        })
        .sum()
}

/// Perft per root move, as `--divide` prints it, in generation order.
pub fn divide(position: &Chess, depth: u32) -> Vec<(Move, u64)> {
    position
        .legal_moves()
        .iter()
        .map(|&m| {
            let mut child = position.clone();
            child.play_unchecked(m);
            (m, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}
