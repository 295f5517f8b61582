//! Training positions for the tuner, from kibitz's own games.
//!
//! Texel's method needs many positions, each labelled with the result of
//! the game it came from. kibitz plays itself at a fixed number of nodes per
//! move (fast, and the same on every machine), from openings made of a few
//! random moves so the games differ, and keeps the *quiet* positions: not in
//! check, and the move the search chose is not a capture or a promotion.
//! A static evaluation can only be judged fairly where nothing is hanging;
//! elsewhere the next capture, not the evaluation, decides the score.

use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, EnPassantMode, KnownOutcome, Position};

use crate::core::{Rng, position_key};
use crate::engine::heuristics::Heuristics;
use crate::engine::nnue::Network;
use crate::engine::search::{MATE_BOUND, search_kept_with};
use crate::engine::trace::NoTrace;
use crate::engine::tt::TranspositionTable;
use crate::engine::{Limits, SearchOptions};

/// How the games are played.
#[derive(Debug, Clone)]
pub struct SelfPlayOptions {
    /// Nodes searched per move.
    pub nodes: u64,
    /// Random moves from the start position before the engine takes over.
    pub random_plies: u32,
    /// Positions before this ply are not kept (the random opening).
    pub skip_plies: u32,
    /// A game still going after this many plies is scored a draw.
    pub max_plies: u32,
    /// Scores beyond this (centipawns, for the side to move) for
    /// [`ADJUDICATE_PLIES`] plies in a row end the game as a win.
    pub win_margin: i32,
    /// The evaluation both sides search with: this network, or the
    /// hand-written evaluation for `None`.
    pub network: Option<std::sync::Arc<Network>>,
}

impl Default for SelfPlayOptions {
    fn default() -> SelfPlayOptions {
        SelfPlayOptions {
            nodes: 5_000,
            random_plies: 8,
            skip_plies: 16,
            max_plies: 300,
            win_margin: 1_000,
            network: None,
        }
    }
}

/// Plies in a row beyond the win margin before a game is adjudicated.
pub const ADJUDICATE_PLIES: u32 = 6;

/// Adjudication: a score far beyond the margin for several plies in a row
/// (both sides' searches agreeing) is a win; playing it out teaches
/// nothing about the positions that decided it.
#[derive(Debug, Default)]
pub struct WinStreak {
    leader: Option<Color>,
    plies: u32,
}

impl WinStreak {
    /// One search's value, for `turn`, the side to move: the winner once
    /// the same side has led by `margin` for `ADJUDICATE_PLIES` plies.
    pub fn record(&mut self, turn: Color, value: i32, margin: i32) -> Option<Color> {
        let leader = (value.abs() >= margin).then(|| if value > 0 { turn } else { !turn });
        match leader {
            Some(side) if self.leader == Some(side) => self.plies += 1,
            Some(side) => (self.leader, self.plies) = (Some(side), 1),
            None => (self.leader, self.plies) = (None, 0),
        }
        self.leader.filter(|_| self.plies >= ADJUDICATE_PLIES)
    }
}

/// Openings whose first search says one side is this far ahead are thrown
/// away: random moves can drop a piece, and such games teach little.
const OPENING_MARGIN: i32 = 200;
const TABLE_MB: usize = 16;

/// One game's kept positions and its result.
#[derive(Debug, Clone)]
pub struct PlayedGame {
    /// FEN of each kept position and the search's value of it, in
    /// centipawns from White's side (the label an evaluation network
    /// learns from, beside the game's result).
    pub positions: Vec<(String, i32)>,
    /// 1.0 White won, 0.5 draw, 0.0 Black won.
    pub result: f64,
    pub plies: u32,
}

fn fen_of(position: &Chess) -> String {
    Fen::from_position(position, EnPassantMode::Legal).to_string()
}

/// Play one game; `None` when its random opening was lopsided (or ended
/// the game) and it was thrown away.
pub fn play_game(options: &SelfPlayOptions, rng: &mut Rng) -> Option<PlayedGame> {
    let mut position = Chess::default();
    let mut keys = Vec::new();
    for _ in 0..options.random_plies {
        let moves = position.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let pick = (rng.next_u64() % moves.len() as u64) as usize;
        keys.push(position_key(&position));
        position.play_unchecked(moves[pick]);
    }

    let mut tt = TranspositionTable::new(TABLE_MB);
    let mut heuristics = Box::<Heuristics>::default();
    let limits = Limits {
        nodes: Some(options.nodes),
        ..Limits::default()
    };
    let mut kept = Vec::new();
    let mut streak = WinStreak::default();
    let mut ply = options.random_plies;
    let result = loop {
        if let Some(outcome) = position.outcome().known() {
            break match outcome {
                KnownOutcome::Decisive { winner } => winner_score(winner),
                KnownOutcome::Draw => 0.5,
            };
        }
        let key = position_key(&position);
        if position.halfmoves() >= 100 || keys.iter().filter(|&&k| k == key).count() >= 2 {
            break 0.5;
        }
        if ply >= options.max_plies {
            break 0.5;
        }
        let found = search_kept_with(
            &position,
            &keys,
            &limits,
            SearchOptions::default(),
            (&mut tt, &mut heuristics),
            &|| false,
            &mut NoTrace,
            options.network.as_deref(),
        );
        let Some(best) = found.best_move else {
            break 0.5;
        };
        if ply == options.random_plies && found.value.abs() > OPENING_MARGIN {
            return None;
        }
        if let Some(side) = streak.record(position.turn(), found.value, options.win_margin) {
            break winner_score(side);
        }
        let quiet = !position.is_check() && !best.is_capture() && !best.is_promotion();
        if ply >= options.skip_plies && quiet && found.value.abs() < MATE_BOUND {
            let white = if position.turn().is_white() {
                found.value
            } else {
                -found.value
            };
            kept.push((fen_of(&position), white));
        }
        keys.push(key);
        position.play_unchecked(best);
        ply += 1;
    };
    Some(PlayedGame {
        positions: kept,
        result,
        plies: ply,
    })
}

fn winner_score(winner: Color) -> f64 {
    match winner {
        Color::White => 1.0,
        Color::Black => 0.0,
    }
}

/// The result as the data file writes it.
pub fn result_label(result: f64) -> &'static str {
    if result > 0.75 {
        "1-0"
    } else if result < 0.25 {
        "0-1"
    } else {
        "1/2-1/2"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_keeps_only_quiet_positions_past_the_opening() {
        let options = SelfPlayOptions {
            nodes: 300,
            max_plies: 60,
            ..SelfPlayOptions::default()
        };
        let mut rng = Rng::new(7);
        let game = (0..10)
            .find_map(|_| play_game(&options, &mut rng))
            .expect("some opening is balanced");
        assert!(game.plies <= 60);
        assert!([0.0, 0.5, 1.0].contains(&game.result));
        for (fen, score) in &game.positions {
            assert!(score.abs() < MATE_BOUND, "{fen} {score}");
            let position = crate::game::fen::parse_fen(fen).expect("a legal FEN");
            assert!(!position.is_check(), "{fen}");
            assert!(position.fullmoves().get() >= 9, "{fen} is in the opening");
        }
    }
}
