//! Move tables over a whole game: every position of a game searched in
//! turn, as the engine would search them while playing it.
//!
//! Greer's tables are a memory of the game, not of one search ("the move
//! table is not reset after each move"): what the search of one position
//! learnt orders the search of the next. To watch them grow, the walk keeps
//! what a playing engine keeps between its moves, one transposition table
//! and one set of [`Heuristics`] (the tables among them), and starts both
//! empty, as a new game does. The repetition history each search sees is
//! the game's positions before it, so a search finds the draws the game
//! could have walked into.
//!
//! The walk takes positions, not a game record: the engine does not know
//! about PGN or game trees (`crate::game` depends on the engine, not the
//! other way round).

use shakmaty::{Chess, Position};

use crate::core::position_key;
use crate::engine::heuristics::Heuristics;
use crate::engine::protocol::{Limits, SearchOptions};
use crate::engine::search::{SearchResult, search_kept};
use crate::engine::trace::NoTrace;
use crate::engine::tt::TranspositionTable;

/// How a walk over a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Walked {
    /// Positions searched (game-over positions are not).
    pub searched: usize,
    /// The stop closure said stop before the last position was searched.
    pub stopped: bool,
}

/// Search the positions of a game in order, each to `depth`, keeping the
/// transposition table and the heuristics (with the move tables) from one
/// search to the next, both cleared first as for a new game.
///
/// `line` is the game's main line as positions, the start first and the
/// position after the last move last. Every position a move was played
/// from is searched, `line[..line.len() - 1]`: the last one is where the
/// game ended, with no move to find. A position with no legal move (a
/// mate or stalemate met in the middle of an edited line) is skipped.
///
/// `each(ply, result, heuristics)` runs after the search of `line[ply]`,
/// with the heuristics as that search left them (so `heuristics.maps()`
/// is the tables learnt over the game so far). `stop` is asked before
/// each search and by the search itself; a search it cut short is not
/// reported, since its tables are those of half a search.
pub fn learn_over_game(
    line: &[Chess],
    depth: u32,
    options: SearchOptions,
    (tt, heuristics): (&mut TranspositionTable, &mut Heuristics),
    stop: &dyn Fn() -> bool,
    each: &mut dyn FnMut(usize, &SearchResult, &Heuristics),
) -> Walked {
    tt.clear();
    heuristics.clear();
    let limits = Limits::depth(depth);
    let mut walked = Walked {
        searched: 0,
        stopped: false,
    };
    // The keys of the positions before the one searched: what the search
    // checks for repetitions, as a game's history would give it.
    let mut keys = Vec::with_capacity(line.len());
    for (ply, position) in line.iter().enumerate().take(line.len().saturating_sub(1)) {
        if stop() {
            walked.stopped = true;
            return walked;
        }
        if !position.legal_moves().is_empty() {
            let result = search_kept(
                position,
                &keys,
                &limits,
                options,
                (&mut *tt, &mut *heuristics),
                stop,
                &mut NoTrace,
            );
            if stop() {
                walked.stopped = true;
                return walked;
            }
            walked.searched += 1;
            each(ply, &result, heuristics);
        }
        keys.push(position_key(position));
    }
    walked
}

#[cfg(test)]
mod tests;
