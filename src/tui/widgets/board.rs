//! The board: squares, pieces, the last move, a hint, the selected piece
//! and its targets, check, the keyboard cursor, rank and file labels.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use shakmaty::{Chess, Position, Square};

use crate::config::PieceStyle;
use crate::tui::layout::BoardGeometry;
use crate::tui::theme::{Theme, glyph};

pub struct Board<'a> {
    pub position: &'a Chess,
    pub last_move: Vec<Square>,
    pub hint: Vec<Square>,
    pub selected: Option<Square>,
    /// Where the selected piece may go.
    pub targets: Vec<Square>,
    /// The keyboard cursor (none while a dialog is open).
    pub cursor: Option<Square>,
    pub flipped: bool,
    pub pieces: PieceStyle,
    pub theme: &'a Theme,
}

impl Board<'_> {
    /// Draws the squares at `geometry` and the labels in `area` (the board
    /// with its labels).
    pub fn draw(&self, frame: &mut Frame, geometry: BoardGeometry, area: Rect) {
        let theme = self.theme;
        let position = self.position;
        let board = position.board();
        let check_square = position
            .is_check()
            .then(|| board.king_of(position.turn()))
            .flatten();
        let buffer = frame.buffer_mut();
        for square in Square::ALL {
            let rect = geometry.square_rect(square, self.flipped);
            let light = (u32::from(square.file()) + u32::from(square.rank())) % 2 == 1;
            let mut bg = if light { theme.light } else { theme.dark };
            if self.last_move.contains(&square) {
                bg = theme.last_move;
            }
            if self.hint.contains(&square) {
                bg = theme.hint;
            }
            if self.selected == Some(square) {
                bg = theme.selected;
            }
            if check_square == Some(square) {
                bg = theme.check;
            }
            let piece = board.piece_at(square);
            if piece.is_some() && self.targets.contains(&square) {
                bg = theme.target;
            }
            buffer.set_style(rect, Style::default().bg(bg));
            let cx = rect.x + rect.width / 2;
            let cy = rect.y + rect.height / 2;
            if let Some(piece) = piece {
                let fg = if piece.color.is_white() {
                    theme.white_piece
                } else {
                    theme.black_piece
                };
                buffer.set_string(
                    cx,
                    cy,
                    glyph(piece, self.pieces).to_string(),
                    Style::default().fg(fg).bg(bg).add_modifier(Modifier::BOLD),
                );
            } else if self.targets.contains(&square) {
                buffer.set_string(cx, cy, "•", Style::default().fg(theme.target).bg(bg));
            }
            if self.cursor == Some(square) {
                let style = Style::default()
                    .fg(theme.cursor)
                    .bg(bg)
                    .add_modifier(Modifier::BOLD);
                buffer.set_string(rect.x, cy, "[", style);
                buffer.set_string(rect.right() - 1, cy, "]", style);
            }
        }
        // Rank labels left of the board, file labels under it.
        let label = Style::default().fg(theme.dim);
        for i in 0..8u16 {
            let rank = if self.flipped { i + 1 } else { 8 - i };
            let y = geometry.y + i * geometry.sq_h + geometry.sq_h / 2;
            buffer.set_string(area.x, y, rank.to_string(), label);
            let file = if self.flipped { 7 - i } else { i };
            let letter = char::from(b'a' + file as u8).to_string();
            let x = geometry.x + i * geometry.sq_w + geometry.sq_w / 2;
            buffer.set_string(x, geometry.y + geometry.height(), letter, label);
        }
    }
}
