//! The game record and the notation people type. Independent of the engine
//! and of any user interface.

pub mod annotations;
pub mod archive;
pub mod chess960;
pub mod clocks;
pub mod describe;
pub mod fen;
pub mod file_jobs;
pub mod import;
pub mod movetext;
pub mod notation;
pub mod openings;
pub mod parallel;
pub mod pgn;
pub mod pgn_lexer;
pub mod rewrite;
pub mod summary;
pub mod tree;

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position};

use crate::core::position_key;

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameEnd {
    Checkmate {
        winner: Color,
    },
    Stalemate,
    ThreefoldRepetition,
    FiftyMoveRule,
    InsufficientMaterial,
    /// A flag fell. `winner` is `None` when the other side could not have
    /// mated with any sequence of moves (FIDE 6.9): then it is a draw.
    Time {
        loser: Color,
        winner: Option<Color>,
    },
    Resignation {
        winner: Color,
    },
    Agreement,
}

impl GameEnd {
    /// The winner, or `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameEnd::Checkmate { winner } | GameEnd::Resignation { winner } => Some(winner),
            GameEnd::Time { winner, .. } => winner,
            GameEnd::Stalemate
            | GameEnd::ThreefoldRepetition
            | GameEnd::FiftyMoveRule
            | GameEnd::InsufficientMaterial
            | GameEnd::Agreement => None,
        }
    }

    /// The PGN result token.
    pub fn result(self) -> &'static str {
        match self.winner() {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// What happened, in words ("White wins by checkmate").
    pub fn describe(self) -> String {
        let side = |c: Color| if c.is_white() { "White" } else { "Black" };
        match self {
            GameEnd::Checkmate { winner } => format!("{} wins by checkmate", side(winner)),
            GameEnd::Stalemate => "Draw by stalemate".into(),
            GameEnd::ThreefoldRepetition => "Draw by threefold repetition".into(),
            GameEnd::FiftyMoveRule => "Draw by the fifty-move rule".into(),
            GameEnd::InsufficientMaterial => "Draw: neither side can mate".into(),
            GameEnd::Time {
                loser,
                winner: Some(w),
            } => format!("{} wins on time ({} flagged)", side(w), side(loser)),
            GameEnd::Time {
                loser,
                winner: None,
            } => format!(
                "Draw: {} flagged, but {} cannot mate",
                side(loser),
                side(!loser)
            ),
            GameEnd::Resignation { winner } => {
                format!("{} wins: {} resigned", side(winner), side(!winner))
            }
            GameEnd::Agreement => "Draw by agreement".into(),
        }
    }

    /// The PGN `Termination` header value.
    pub fn termination(self) -> &'static str {
        match self {
            GameEnd::Time { .. } => "time forfeit",
            GameEnd::Resignation { .. } | GameEnd::Agreement => "normal",
            _ => "normal",
        }
    }
}

/// A game as a line of moves from a start position, with every position
/// along the way kept so takeback is free and repetitions are exact.
#[derive(Debug, Clone)]
pub struct Game {
    /// positions[0] is the start; positions[i] follows moves[i - 1].
    positions: Vec<Chess>,
    moves: Vec<Move>,
    sans: Vec<String>,
    keys: Vec<u64>,
}

impl Default for Game {
    fn default() -> Game {
        Game::new(Chess::default())
    }
}

impl Game {
    pub fn new(start: Chess) -> Game {
        let key = position_key(&start);
        Game {
            positions: vec![start],
            moves: Vec::new(),
            sans: Vec::new(),
            keys: vec![key],
        }
    }

    pub fn start(&self) -> &Chess {
        &self.positions[0]
    }

    /// The position now.
    pub fn position(&self) -> &Chess {
        // Never empty: `new` puts the start in and `undo` keeps it.
        &self.positions[self.positions.len() - 1]
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The moves in SAN, with check and mate marks.
    pub fn sans(&self) -> &[String] {
        &self.sans
    }

    /// Plies played.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The position before ply `index` (0 = the start).
    pub fn position_at(&self, index: usize) -> Option<&Chess> {
        self.positions.get(index)
    }

    /// Keys of the positions before the current one, oldest first: the
    /// history the engine needs to see repetitions.
    pub fn history_keys(&self) -> Vec<u64> {
        self.keys[..self.keys.len() - 1].to_vec()
    }

    /// Play a move; `false` (and nothing changes) if it is illegal.
    pub fn play(&mut self, m: Move) -> bool {
        let mut next = self.position().clone();
        if !next.is_legal(m) {
            return false;
        }
        let san = SanPlus::from_move_and_play_unchecked(&mut next, m).to_string();
        self.keys.push(position_key(&next));
        self.positions.push(next);
        self.moves.push(m);
        self.sans.push(san);
        true
    }

    /// Take back the last ply.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        self.keys.pop();
        self.sans.pop();
        Some(m)
    }

    /// The end the rules declare by themselves: mate, stalemate, threefold
    /// repetition, the fifty-move rule, insufficient material. (kibitz
    /// applies the repetition and fifty-move draws at once, as online
    /// servers do, rather than waiting for a claim.)
    pub fn rules_end(&self) -> Option<GameEnd> {
        let position = self.position();
        if position.is_checkmate() {
            return Some(GameEnd::Checkmate {
                winner: !position.turn(),
            });
        }
        if position.is_stalemate() {
            return Some(GameEnd::Stalemate);
        }
        if position.is_insufficient_material() {
            return Some(GameEnd::InsufficientMaterial);
        }
        let now = self.keys[self.keys.len() - 1];
        if self.keys.iter().filter(|&&k| k == now).count() >= 3 {
            return Some(GameEnd::ThreefoldRepetition);
        }
        if position.halfmoves() >= 100 {
            return Some(GameEnd::FiftyMoveRule);
        }
        None
    }

    /// What a flag fall by `loser` means: a loss, unless the other side has
    /// no mating material left.
    pub fn flag(&self, loser: Color) -> GameEnd {
        let winner = !loser;
        let can_mate = !self.position().has_insufficient_material(winner);
        GameEnd::Time {
            loser,
            winner: can_mate.then_some(winner),
        }
    }

    /// FEN of the start position, if it is not the standard one (or the
    /// game is Chess960, whose FEN then has X-FEN castling rights).
    pub fn start_fen(&self) -> Option<String> {
        (self.start() != &Chess::default() || chess960::is_chess960(self.start()))
            .then(|| Fen::from_position(self.start(), EnPassantMode::Legal).to_string())
    }

    /// FEN of the current position.
    pub fn fen(&self) -> String {
        Fen::from_position(self.position(), EnPassantMode::Legal).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::fen::parse_fen;
    use crate::game::notation::parse_move;

    fn play(game: &mut Game, moves: &str) {
        for text in moves.split_whitespace() {
            let m = parse_move(game.position(), text).unwrap();
            assert!(game.play(m), "{text}");
        }
    }

    #[test]
    fn fools_mate_is_checkmate_for_black() {
        let mut game = Game::default();
        play(&mut game, "f3 e5 g4 Qh4#");
        assert_eq!(
            game.rules_end(),
            Some(GameEnd::Checkmate {
                winner: Color::Black
            })
        );
        assert_eq!(game.sans().last().map(String::as_str), Some("Qh4#"));
        assert_eq!(game.rules_end().unwrap().result(), "0-1");
    }

    #[test]
    fn stalemate() {
        let mut game = Game::new(parse_fen("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1").unwrap());
        assert_eq!(game.rules_end(), None);
        play(&mut game, "Kh6");
        // The queen covers g8 and g7, the king h7: Black is not in check and cannot move.
        assert_eq!(game.rules_end(), Some(GameEnd::Stalemate));
    }

    #[test]
    fn threefold_repetition_counts_the_same_position_three_times() {
        let mut game = Game::default();
        play(&mut game, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
        assert_eq!(game.rules_end(), None, "the start has occurred twice");
        play(&mut game, "Ng8");
        assert_eq!(game.rules_end(), Some(GameEnd::ThreefoldRepetition));
        game.undo();
        assert_eq!(game.rules_end(), None, "takeback undoes the repetition");
    }

    #[test]
    fn fifty_move_rule_but_mate_comes_first() {
        let fen = "7k/8/8/8/8/8/R7/K5R1 w - - 99 80";
        let mut game = Game::new(parse_fen(fen).unwrap());
        play(&mut game, "Rb2");
        assert_eq!(game.rules_end(), Some(GameEnd::FiftyMoveRule));
        let mut game = Game::new(parse_fen(fen).unwrap());
        play(&mut game, "Rh2#");
        assert!(matches!(game.rules_end(), Some(GameEnd::Checkmate { .. })));
    }

    #[test]
    fn insufficient_material_and_flag_fall() {
        let game = Game::new(parse_fen("8/8/4k3/8/8/3NK3/8/8 b - - 0 1").unwrap());
        assert_eq!(game.rules_end(), Some(GameEnd::InsufficientMaterial));
        // Black flags with a lone king against K+R: White wins on time.
        let game = Game::new(parse_fen("8/8/4k3/8/8/3RK3/8/8 b - - 0 1").unwrap());
        assert_eq!(game.rules_end(), None);
        assert_eq!(game.flag(Color::Black).winner(), Some(Color::White));
        // White flags but Black has only a king: a draw.
        assert_eq!(game.flag(Color::White).winner(), None);
        assert_eq!(game.flag(Color::White).result(), "1/2-1/2");
    }

    #[test]
    fn undo_restores_everything() {
        let mut game = Game::default();
        play(&mut game, "e4 e5");
        let fen = game.fen();
        play(&mut game, "Nf3");
        assert_eq!(
            game.undo().map(crate::game::notation::uci).as_deref(),
            Some("g1f3")
        );
        assert_eq!(game.fen(), fen);
        assert_eq!(game.history_keys().len(), 2);
        assert!(game.undo().is_some() && game.undo().is_some() && game.undo().is_none());
    }
}
