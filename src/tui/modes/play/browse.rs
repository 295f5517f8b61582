//! Looking back during a game: ← and → step through the moves played while
//! the game goes on. The board shows the past position, not movable, and the
//! title and the move list say which one it is; End, or any key that moves
//! a piece, returns to the live position.

use ratatui::crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use shakmaty::{Move, Position};

use crate::game::Game;
use crate::tui::layout::Screen;
use crate::tui::shared::Shared;

use super::Play;

/// The key line while looking back.
pub const BROWSE_KEY_LINE: &str = " ← → step through the game · End or any move key: back to the game · ? help";

impl Play {
    /// The number of plies on the board being looked at, or `None` for the
    /// live position. Clamped: a takeback may have shortened the game.
    pub fn viewed(&self, game: &Game) -> Option<usize> {
        self.viewing.filter(|&plies| plies < game.len())
    }

    /// ←, →, Home and End step through the game; true when the key was one
    /// of them. A key that moves a piece (the cursor, pick up, `:` for a
    /// typed move, `u` takeback) first returns to the live position; the
    /// others (flip, help, the map) leave the past position on the board.
    pub(super) fn browse_key(&mut self, cx: &mut Shared, key: KeyEvent) -> bool {
        let game = &cx.board.game;
        let live = game.len();
        let at = self.viewed(game).unwrap_or(live);
        let to = match key.code {
            KeyCode::Left => at.saturating_sub(1),
            KeyCode::Right => (at + 1).min(live),
            KeyCode::Home => 0,
            KeyCode::End => live,
            KeyCode::Up
            | KeyCode::Down
            | KeyCode::Enter
            | KeyCode::Char(' ' | 'h' | 'j' | 'k' | 'l' | ':' | '/' | 'u') => {
                self.viewing = None;
                return false;
            }
            _ => return false,
        };
        self.viewing = (to < live).then_some(to);
        if self.viewing.is_some() {
            // A piece picked up in the live position means nothing here.
            cx.board.selected = None;
            cx.board.drag_from = None;
        }
        true
    }

    /// A click on the board while looking back returns to the live
    /// position and does nothing else (the piece under it may not be there
    /// any more); true when it was taken.
    pub(super) fn browse_mouse(&mut self, cx: &Shared, screen: &Screen, mouse: MouseEvent) -> bool {
        let on_board = screen
            .board
            .square_at(mouse.column, mouse.row, cx.board.flipped)
            .is_some();
        match mouse.kind {
            MouseEventKind::Down(MouseButton::Left)
                if on_board && self.viewed(&cx.board.game).is_some() =>
            {
                self.viewing = None;
                true
            }
            _ => false,
        }
    }

    /// The title's words while looking back: which position is shown.
    pub(super) fn browse_title(&self, game: &Game) -> Option<String> {
        let plies = self.viewed(game)?;
        let live = game.len();
        Some(match plies {
            0 => format!("looking back: the start (ply 0 of {live})"),
            _ => format!(
                "looking back: after {} (ply {plies} of {live})",
                numbered_san(game, plies - 1)
            ),
        })
    }

    /// The last move into the position being looked at.
    pub(super) fn browsed_last_move(game: &Game, plies: usize) -> Option<Move> {
        plies.checked_sub(1).and_then(|i| game.moves().get(i)).copied()
    }
}

/// Ply `index` of the game as a reader writes it: `12. Nf3` or `12... Nf6`.
fn numbered_san(game: &Game, index: usize) -> String {
    let start = game.start();
    let white_first = start.turn().is_white();
    let plies_before = index + usize::from(!white_first);
    let number = start.fullmoves().get() as usize + plies_before / 2;
    let dots = if plies_before.is_multiple_of(2) { "." } else { "..." };
    let san = game.sans().get(index).map_or("", String::as_str);
    format!("{number}{dots} {san}")
}
