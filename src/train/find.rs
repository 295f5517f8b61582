//! Puzzles found in games: someone's mistake, then a position where one
//! move wins clearly and the others do not.
//!
//! The method is the one lichess publishes for its puzzle generator, with
//! kibitz's own engine and code:
//!
//! 1. **Scan.** Every position of a game's main line is evaluated (one
//!    line, the time per position given). A position is a *candidate*
//!    when the move that led to it handed the opponent (now to move, the
//!    *solver*) at least [`SWING`] points of winning chance (the review's
//!    `win_chance`, 0-100) and left the solver clearly winning: at least
//!    [`WINNING_CP`] centipawns, or a forced mate (a mate only when the
//!    solver was not already clearly winning before, [`CLEAR_CP`]).
//! 2. **Only move.** The candidate is searched for two lines (MultiPV 2).
//!    It stays only if the best wins clearly (at least [`WINNING_CP`] or
//!    mates) and the second is [`ONLY_MOVE_MARGIN`] points of winning
//!    chance or more below it: one move wins, the others do not. A mate in
//!    one is the exception: any mating move solves it, so what must be
//!    clearly worse is the best move that does not mate (at most
//!    [`MATE_IN_ONE_OTHERS`] winning chance).
//! 3. **The line.** After the solver's move the engine finds the
//!    opponent's best reply, and the solver's next move must again be the
//!    only one that wins clearly. The line ends when the solver mates, when
//!    the solver has won material (at least [`WON_MATERIAL`] pawns more
//!    than at the start, counted after the opponent's reply), or when no
//!    move stands out any more (the advantage is there, the puzzle is
//!    done); the opponent's last reply is not part of it, so a solution has
//!    an odd number of plies. A mate puzzle must stay a forced mate with
//!    one mating line at every step, or it is dropped; so is any puzzle
//!    whose best move stops winning clearly on the way.
//!
//! Themes are in [`themes`]; the JSON form and the way back to training in
//! [`puzzle`].

pub mod puzzle;
pub mod themes;

#[cfg(test)]
mod tests;

use std::sync::Arc;
use std::time::Duration;

use shakmaty::{Chess, Color, Move, Position};

use crate::core::position_key;
use crate::engine::heuristics::Heuristics;
use crate::engine::nnue::Network;
use crate::engine::search;
use crate::engine::tt::TranspositionTable;
use crate::engine::{Limits, Score, SearchOptions};
use crate::game::notation::{san_line, uci};
use crate::game::tree::GameTree;
use crate::review::{mainline_positions, win_chance};

pub use puzzle::{Puzzle, PuzzleError};

/// Winning-chance points (0-100) the solver must gain from the move before
/// for its position to be a candidate (lichess: 0.6 on its -1..1 scale).
pub const SWING: f64 = 30.0;
/// Centipawns from which the solver is clearly winning.
pub const WINNING_CP: i32 = 200;
/// Centipawns from which the solver was already winning before the
/// mistake: a mate found then is no one's mistake worth a puzzle.
pub const CLEAR_CP: i32 = 400;
/// Winning-chance points by which the best move must beat the second for
/// it to be the only move (lichess: 0.7 on its -1..1 scale).
pub const ONLY_MOVE_MARGIN: f64 = 35.0;
/// In a mate in one, the best move that does not mate may keep at most
/// this winning chance (lichess: 0.6 on its -1..1 scale).
pub const MATE_IN_ONE_OTHERS: f64 = 80.0;
/// Material (pawns) won since the puzzle's start that ends a line.
pub const WON_MATERIAL: i32 = 2;
/// Most moves of the solver in one puzzle.
pub const MAX_SOLVER_MOVES: usize = 8;
/// The smallest hash table a puzzle search gets, MiB.
pub const MIN_HASH_MB: usize = 4;

/// How puzzles are searched.
#[derive(Debug, Clone)]
pub struct FindOptions {
    /// The search time per position (the scan and each step of a line).
    pub movetime: Duration,
    /// A fixed depth instead of the time (the same answer on any machine,
    /// for tests).
    pub depth: Option<u32>,
    /// One search's hash table, MiB.
    pub hash_mb: usize,
}

/// One step of a line: what the solver can do.
#[derive(Debug, Clone, PartialEq)]
enum Step {
    /// One move wins clearly and no other does (`mate`: it mates by force).
    Only { best: Move, mate: bool },
    /// The best move wins clearly, but so does another.
    Several { mate: bool },
    /// No move wins clearly.
    NotWinning,
}

/// A candidate position's engine, kept through a game (neighbouring
/// positions share most of their trees).
pub struct Finder {
    tt: TranspositionTable,
    heuristics: Box<Heuristics>,
    network: Option<Arc<Network>>,
    limits: Limits,
}

impl Finder {
    /// A finder searching with the shipped evaluation network (the one
    /// kibitz plays with at full strength).
    pub fn new(options: &FindOptions) -> Finder {
        Finder {
            tt: TranspositionTable::new(options.hash_mb.max(MIN_HASH_MB)),
            heuristics: Box::default(),
            network: crate::engine::nnue::default_network(),
            limits: match options.depth {
                Some(depth) => Limits::depth(depth),
                None => Limits {
                    movetime: Some(options.movetime),
                    ..Limits::default()
                },
            },
        }
    }

    /// The best `multipv` lines' first moves and scores (side to move's
    /// view), best first; `None` when stopped.
    fn lines(
        &mut self,
        position: &Chess,
        history: &[u64],
        multipv: usize,
        stop: &dyn Fn() -> bool,
    ) -> Option<Vec<(Move, Score)>> {
        let options = SearchOptions {
            multipv,
            ..SearchOptions::default()
        };
        let result = search::search_kept_with(
            position,
            history,
            &self.limits,
            options,
            (&mut self.tt, &mut self.heuristics),
            stop,
            &mut crate::engine::trace::NoTrace,
            self.network.as_deref(),
        );
        if stop() {
            return None;
        }
        let mut lines: Vec<(Move, Score)> = result
            .lines
            .iter()
            .filter_map(|line| Some((*line.pv.first()?, line.score)))
            .collect();
        if lines.is_empty()
            && let Some(best) = result.best_move
        {
            lines.push((best, result.score));
        }
        Some(lines)
    }

    /// The position's score for the side to move: a search's, or the
    /// game's end (mated: a mate against; stalemate or dead: a draw).
    fn score(
        &mut self,
        position: &Chess,
        history: &[u64],
        stop: &dyn Fn() -> bool,
    ) -> Option<Score> {
        if position.legal_moves().is_empty() {
            return Some(if position.is_check() {
                Score::Mate(-1)
            } else {
                Score::Centipawns(0)
            });
        }
        if position.is_insufficient_material() {
            return Some(Score::Centipawns(0));
        }
        let lines = self.lines(position, history, 1, stop)?;
        Some(lines.first().map_or(Score::Centipawns(0), |line| line.1))
    }

    /// What the side to move can do here: one clearly winning move, or
    /// several, or none. `None` when stopped.
    fn step(&mut self, position: &Chess, history: &[u64], stop: &dyn Fn() -> bool) -> Option<Step> {
        let mating: Vec<Move> = position
            .legal_moves()
            .into_iter()
            .filter(|&m| {
                let mut after = position.clone();
                after.play_unchecked(m);
                after.is_checkmate()
            })
            .collect();
        if !mating.is_empty() {
            // A mate in one: any mating move solves it. What must be
            // clearly worse is the best move that does not mate, the line
            // after the mating ones.
            let lines = self.lines(position, history, mating.len() + 1, stop)?;
            let others = lines.iter().find(|(m, _)| !mating.contains(m));
            let best = lines
                .iter()
                .map(|line| line.0)
                .find(|m| mating.contains(m))
                .unwrap_or(mating[0]);
            return Some(match others {
                Some(&(_, score)) if win_chance(score) > MATE_IN_ONE_OTHERS => {
                    Step::Several { mate: true }
                }
                _ => Step::Only { best, mate: true },
            });
        }
        let lines = self.lines(position, history, 2, stop)?;
        let Some(&(best, score)) = lines.first() else {
            return Some(Step::NotWinning);
        };
        let mate = matches!(score, Score::Mate(n) if n > 0);
        if !mate && !matches!(score, Score::Centipawns(cp) if cp >= WINNING_CP) {
            return Some(Step::NotWinning);
        }
        Some(match lines.get(1) {
            Some(&(_, second)) if win_chance(score) - win_chance(second) < ONLY_MOVE_MARGIN => {
                Step::Several { mate }
            }
            _ => Step::Only { best, mate },
        })
    }

    /// The puzzle's solution from `start` (reached after the positions of
    /// `history`), if it has one: the line of only moves, the solver's
    /// first. `Some(None)`: no puzzle here; `None`: stopped.
    pub fn solve(
        &mut self,
        start: &Chess,
        history: &[u64],
        stop: &dyn Fn() -> bool,
    ) -> Option<Option<Vec<Move>>> {
        let solver = start.turn();
        let material_start = themes::material_lead(start, solver);
        let mut position = start.clone();
        let mut history = history.to_vec();
        let mut line: Vec<Move> = Vec::new();
        let mut mate_puzzle = false;
        // An advantage line ends where no move stands out: the moves up to
        // the solver's last one are the puzzle.
        let ended = |mut line: Vec<Move>| {
            if line.len().is_multiple_of(2) {
                line.pop();
            }
            (!line.is_empty()).then_some(line)
        };
        loop {
            let first = line.is_empty();
            if line.len() / 2 >= MAX_SOLVER_MOVES {
                return Some(if mate_puzzle { None } else { ended(line) });
            }
            let best = match self.step(&position, &history, stop)? {
                Step::Only { best, mate } => {
                    if first {
                        mate_puzzle = mate;
                    } else if mate_puzzle && !mate {
                        // The mate went away: the line before was no mate.
                        return Some(None);
                    }
                    best
                }
                // Two ways to mate, or to win: the first move must be the
                // only one, and so must each move of a mate.
                Step::Several { .. } if first || mate_puzzle => return Some(None),
                Step::Several { .. } => return Some(ended(line)),
                Step::NotWinning => return Some(None),
            };
            history.push(position_key(&position));
            position.play_unchecked(best);
            line.push(best);
            if position.is_checkmate() {
                return Some(Some(line));
            }
            if position.is_game_over() {
                return Some(None);
            }
            let reply = self
                .lines(&position, &history, 1, stop)?
                .first()
                .map(|line| line.0);
            let Some(reply) = reply else {
                return Some(None);
            };
            let mut next = position.clone();
            next.play_unchecked(reply);
            let won = themes::material_lead(&next, solver) - material_start >= WON_MATERIAL;
            if won && !mate_puzzle {
                return Some(Some(line));
            }
            history.push(position_key(&position));
            position = next;
            line.push(reply);
        }
    }

    /// The puzzles of one game's main line, in the order of the game;
    /// `None` when stopped before the end.
    pub fn game(
        &mut self,
        number: usize,
        tree: &GameTree,
        stop: &dyn Fn() -> bool,
    ) -> Option<Vec<Puzzle>> {
        let positions = mainline_positions(tree);
        let mut scores = Vec::with_capacity(positions.len());
        for (position, history) in &positions {
            scores.push(self.score(position, history, stop)?);
        }
        let mainline = tree.mainline();
        let mut puzzles = Vec::new();
        for ply in 1..positions.len() {
            let (position, history) = &positions[ply];
            if !is_candidate(position, scores[ply - 1], scores[ply]) {
                continue;
            }
            let Some(line) = self.solve(position, history, stop)? else {
                continue;
            };
            let (before, _) = &positions[ply - 1];
            let after = mainline
                .get(ply - 1)
                .map(|&node| {
                    let dots = if before.turn() == Color::White {
                        "."
                    } else {
                        "..."
                    };
                    format!(
                        "{}{dots} {}",
                        before.fullmoves().get(),
                        tree.nodes[node].san
                    )
                })
                .unwrap_or_default();
            puzzles.push(puzzle_of(position, &line, number, ply, after));
        }
        Some(puzzles)
    }
}

/// Whether the position after a move is a candidate: the mover gave the
/// solver (now to move) at least [`SWING`] points of winning chance and
/// left it clearly winning. `before` is the position before the move's
/// score (the mover's view), `after` this one's (the solver's).
pub fn is_candidate(position: &Chess, before: Score, after: Score) -> bool {
    if position.legal_moves().len() < 2 {
        return false;
    }
    let solver_before = 100.0 - win_chance(before);
    match after {
        Score::Mate(n) if n > 0 => solver_before <= win_chance(Score::Centipawns(CLEAR_CP)),
        Score::Centipawns(cp) => cp >= WINNING_CP && win_chance(after) - solver_before >= SWING,
        Score::Mate(_) => false,
    }
}

/// The puzzle of `line` from `start`.
pub fn puzzle_of(start: &Chess, line: &[Move], game: usize, ply: usize, after: String) -> Puzzle {
    let theme = themes::themes(start, line);
    Puzzle {
        fen: puzzle::fen_of(start),
        solution: line.iter().map(|&m| uci(m)).collect(),
        solution_san: san_line(start, line),
        theme: (!theme.is_empty()).then(|| theme.join(", ")),
        game,
        ply,
        after,
    }
}

/// One game's puzzles as the file's walk hands them on.
#[derive(Debug, Clone)]
pub struct GamePuzzles {
    /// The game's number in the file, from 1.
    pub number: usize,
    pub puzzles: Vec<Puzzle>,
}

/// Find the puzzles of every game of the file at `path` on `threads`
/// threads (a game per thread), handing each game's to `on_game` in the
/// file's order; `on_game` returns false to stop, and setting `stop` stops
/// too (the games finished are kept). `Ok` carries a warning when the file
/// could not be read to its end.
pub fn find_in_file(
    path: &std::path::Path,
    options: &FindOptions,
    threads: usize,
    stop: &std::sync::atomic::AtomicBool,
    on_game: &mut dyn FnMut(GamePuzzles) -> bool,
) -> Result<Option<String>, String> {
    let work = |number: usize, tree: GameTree, stopped: &dyn Fn() -> bool| {
        let mut finder = Finder::new(options);
        let puzzles = finder.game(number, &tree, stopped)?;
        Some(GamePuzzles { number, puzzles })
    };
    crate::game::file_jobs::each_game(path, threads, 0, stop, &work, on_game)
}
