//! The board as every mode shows it: the game on it (from its start to the
//! position shown), the cursor, the piece picked up and the one being
//! dragged, and which way up it is.

use shakmaty::{Move, Position, Square};

use crate::book::openings::Opening;
use crate::game::Game;

#[derive(Debug, Clone)]
pub struct BoardView {
    /// The moves from the start to the position on the board.
    pub game: Game,
    pub cursor: Square,
    pub selected: Option<Square>,
    pub drag_from: Option<Square>,
    /// Black at the bottom.
    pub flipped: bool,
}

impl Default for BoardView {
    fn default() -> BoardView {
        BoardView {
            game: Game::default(),
            cursor: Square::E2,
            selected: None,
            drag_from: None,
            flipped: false,
        }
    }
}

impl BoardView {
    /// Legal moves of the piece on `from`.
    pub fn moves_from(&self, from: Square) -> Vec<Move> {
        self.game
            .position()
            .legal_moves()
            .into_iter()
            .filter(|m| m.from() == Some(from))
            .collect()
    }

    /// Whether `square` holds a piece of the side to move.
    pub fn own_piece(&self, square: Square) -> bool {
        let position = self.game.position();
        position.board().color_at(square) == Some(position.turn())
    }

    /// The name of the opening on the board: the deepest named position of
    /// the game so far.
    pub fn opening(&self) -> Option<&'static Opening> {
        crate::game::openings::opening_of(&self.game)
    }
}
