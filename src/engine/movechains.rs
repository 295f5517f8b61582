//! Greer's dynamic move chains: the short-term memory of the move-chain
//! search (`chain_search.rs`).
//!
//! A move chain is a line of moves (alternately by each side) that caused a
//! cutoff, or ended as a node's best line, somewhere earlier in the search
//! or in an earlier search of the same game. It is stored under its first
//! move: Greer's chains are "returned based on the current move only", not
//! by position, because positions a ply or two apart differ only slightly
//! and the same refutation often works again. A chain is only a guess: it
//! is played out again (checked move by move for legality) wherever it is
//! used, and a chain found illegal is dropped, so the next cutoff can
//! replace it.
//!
//! The transposition table remembers positions and their values; chains
//! remember lines and no values, which is why they are cheap to keep for a
//! whole game and why every use must search again.

use std::collections::HashMap;

use shakmaty::{Chess, Color, Move, Position, Role};

/// The longest chain kept. Greer found most chains were a single move; a
/// cap keeps a long principal variation from being forced deep into
/// positions it no longer fits.
pub const MAX_CHAIN: usize = 8;

/// A move's identity for a chain: the side that plays it, its two squares
/// and its promotion. (Not the captured piece: the same move may capture in
/// one position and not in the next, and is still the same idea.)
fn chain_key(color: Color, m: Move) -> u32 {
    let from = m.from().map_or(64, |s| s.to_u32());
    let to = m.to().to_u32();
    let promotion = m.promotion().map_or(0, |r: Role| r as u32);
    (u32::from(color.is_white()) << 16) | (from << 9) | (to << 3) | promotion
}

/// The chains a search keeps, one per first move and side.
#[derive(Clone, Default, Debug)]
pub struct MoveChains {
    // A HashMap is only looked up, never iterated, so the search stays
    // deterministic whatever order it keeps its entries in.
    chains: HashMap<u32, Vec<Move>>,
}

impl MoveChains {
    pub fn clear(&mut self) {
        self.chains.clear();
    }

    /// How many chains are kept.
    pub fn len(&self) -> usize {
        self.chains.len()
    }

    pub fn is_empty(&self) -> bool {
        self.chains.is_empty()
    }

    /// The chain stored under move `m` of `color`, if any.
    pub fn get(&self, color: Color, m: Move) -> Option<&[Move]> {
        self.chains.get(&chain_key(color, m)).map(Vec::as_slice)
    }

    /// Keep `line` (played by `color` first) under its first move,
    /// replacing the chain stored there (Greer's update: the newest cutoff
    /// line is the one to try next). Returns whether anything was stored.
    pub fn store(&mut self, color: Color, line: &[Move]) -> bool {
        let Some(&first) = line.first() else {
            return false;
        };
        let kept = &line[..line.len().min(MAX_CHAIN)];
        let slot = self.chains.entry(chain_key(color, first)).or_default();
        slot.clear();
        slot.extend_from_slice(kept);
        true
    }

    /// Drop the chain stored under move `m` of `color`.
    pub fn remove(&mut self, color: Color, m: Move) {
        self.chains.remove(&chain_key(color, m));
    }

    /// The chain under `m`, played out from `position` (where `m` is
    /// legal): as moves of this position and the ones after it, or
    /// [`Chain::Invalid`] when one of its moves is no longer legal where it
    /// would be played.
    pub fn resolve(&self, position: &Chess, m: Move) -> Chain {
        let Some(chain) = self.get(position.turn(), m) else {
            return Chain::Absent;
        };
        let mut board = position.clone();
        let mut line = Vec::with_capacity(chain.len());
        for &stored in chain {
            let Some(legal) = board.legal_moves().into_iter().find(|&candidate| {
                candidate.from() == stored.from()
                    && candidate.to() == stored.to()
                    && candidate.promotion() == stored.promotion()
            }) else {
                return Chain::Invalid;
            };
            board.play_unchecked(legal);
            line.push(legal);
        }
        Chain::Valid(line)
    }
}

/// What a move's chain is in a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Chain {
    /// No chain is stored under the move.
    Absent,
    /// A chain is stored, but one of its moves is illegal here.
    Invalid,
    /// The chain, as legal moves from the position (the first is the move).
    Valid(Vec<Move>),
}

#[cfg(test)]
mod tests;
