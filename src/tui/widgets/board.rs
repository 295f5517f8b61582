//! The board: squares, pieces, the last move, a hint, the selected piece
//! and its targets, check, the keyboard cursor, rank and file labels; and
//! over them, when it is on, the move-table heat map.
//!
//! Where colour may not tell things apart (the mono theme, `NO_COLOR`) the
//! sides differ by shape (outlined White, filled Black) and each highlight
//! has a mark beside the piece, readable as text: `>♞<` selected, `+♚+`
//! check, `x♝x` a capture the selected piece may make, `*♘*` the hint (in
//! teach mode the move being tried), `(♙)` the last move, `•` an empty
//! square the selected piece may go to, `[ ]` the cursor. With `NO_COLOR`
//! the board draws no colour at all.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use shakmaty::{Chess, Position, Square};

use crate::config::PieceStyle;
use crate::tui::heatmap::{HeatMap, compact};
use crate::tui::layout::BoardGeometry;
use crate::tui::theme::{MapPalette, Theme, glyph, glyph_by_shape};

/// Whether squares `square_height` rows tall have room for the map's
/// numbers: they need a row of their own above the piece.
pub fn numbers_fit(square_height: u16) -> bool {
    square_height > 1
}

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
    /// The move-table map, when it is on, and its colours.
    pub heat: Option<&'a HeatMap>,
    pub palette: MapPalette,
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
        let marks = self.palette.marks();
        let colour = self.palette.has_colour();
        // Without colour every style keeps only its modifiers.
        let tint = |style: Style| {
            if colour {
                style
            } else {
                Style {
                    fg: None,
                    bg: None,
                    ..style
                }
            }
        };
        let buffer = frame.buffer_mut();
        for square in Square::ALL {
            let rect = geometry.square_rect(square, self.flipped);
            let light = (u32::from(square.file()) + u32::from(square.rank())) % 2 == 1;
            let base = if light { theme.light } else { theme.dark };
            let mut bg = base;
            let band = self.heat.and_then(|h| h.bands[square.to_usize()]);
            let heat_bg = band.and_then(|b| self.palette.colour(b));
            // With the map on, the last move and the hint give way to it:
            // their colours would read as bands.
            if self.heat.is_none() {
                if self.last_move.contains(&square) {
                    bg = theme.last_move;
                }
                if self.hint.contains(&square) {
                    bg = theme.hint;
                }
            }
            if let Some(colour) = heat_bg {
                bg = colour;
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
            let on_heat = heat_bg == Some(bg);
            buffer.set_style(rect, tint(Style::default().bg(bg)));
            let cx = rect.x + rect.width / 2;
            let cy = rect.y + rect.height / 2;
            // A piece on a band keeps the board's own colour under it, so
            // it reads on every band (a white piece on yellow, a black one
            // on dark blue).
            let piece_bg = if on_heat { base } else { bg };
            if let Some(piece) = piece {
                let fg = if piece.color.is_white() {
                    theme.white_piece
                } else {
                    theme.black_piece
                };
                let mut style = Style::default()
                    .fg(fg)
                    .bg(piece_bg)
                    .add_modifier(Modifier::BOLD);
                // Without colour, the king in check and the piece picked up
                // stand out in reverse video (their marks say it as text).
                if !colour && (check_square == Some(square) || self.selected == Some(square)) {
                    style = style.add_modifier(Modifier::REVERSED);
                }
                let symbol = if marks {
                    glyph_by_shape(piece, self.pieces)
                } else {
                    glyph(piece, self.pieces)
                };
                buffer.set_string(cx, cy, symbol.to_string(), tint(style));
            } else if self.targets.contains(&square) {
                let style = Style::default().fg(theme.target).bg(bg);
                buffer.set_string(cx, cy, "•", tint(style));
            }
            // The cells the band's mark takes on the piece's row, which the
            // highlight marks leave to it.
            let mut band_cells: Vec<u16> = Vec::new();
            if let (Some(heat), Some(band)) = (self.heat, band) {
                // Beside its own piece, where it reads with its rank. Where
                // the piece's row has no room for it whole (the cursor's
                // brackets take the corners; a signed mark beside a
                // highlighted piece's marks in a narrow square), in the
                // row above the piece when that row is free; else split
                // to the corners.
                let marked = marks && self.marks_of(square, check_square).is_some();
                let wide = heat.band_label(band).chars().count() > 1;
                let crowded = self.cursor == Some(square) || (wide && marked && rect.width < 6);
                let top_free = rect.height > 1 && !(heat.show_numbers && numbers_fit(rect.height));
                let row = if crowded && top_free { rect.y } else { cy };
                let cells = self.mark(
                    buffer,
                    rect,
                    heat,
                    square,
                    (band, on_heat.then_some(bg)),
                    (row, crowded && !top_free),
                );
                if row == cy {
                    band_cells = cells;
                }
            }
            if marks && let Some((left, right)) = self.marks_of(square, check_square) {
                let text = on_heat
                    .then(|| band.and_then(|b| self.palette.text(b)))
                    .flatten()
                    .unwrap_or(theme.black_piece);
                let style = tint(
                    Style::default()
                        .fg(text)
                        .bg(bg)
                        .add_modifier(Modifier::BOLD),
                );
                // The band's mark keeps its cells; where it would take both
                // sides, the right one still shows the highlight.
                let (lx, rx) = (cx - 1, cx + 1);
                let left_free = !band_cells.contains(&lx);
                let right_free = !band_cells.contains(&rx);
                if left_free {
                    buffer.set_string(lx, cy, left.to_string(), style);
                }
                if right_free || !left_free {
                    buffer.set_string(rx, cy, right.to_string(), style);
                }
            }
            if self.cursor == Some(square) {
                let style = Style::default()
                    .fg(theme.cursor)
                    .bg(bg)
                    .add_modifier(Modifier::BOLD);
                buffer.set_string(rect.x, cy, "[", tint(style));
                buffer.set_string(rect.right() - 1, cy, "]", tint(style));
            }
        }
        // Rank labels left of the board, file labels under it.
        let label = tint(Style::default().fg(theme.dim));
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

    /// The marks either side of a highlighted square's piece, where the
    /// palette asks for marks: one kind a square, the most urgent.
    fn marks_of(&self, square: Square, check_square: Option<Square>) -> Option<(char, char)> {
        let occupied = self.position.board().piece_at(square).is_some();
        if self.selected == Some(square) {
            Some(('>', '<'))
        } else if check_square == Some(square) {
            Some(('+', '+'))
        } else if occupied && self.targets.contains(&square) {
            Some(('x', 'x'))
        } else if self.hint.contains(&square) {
            Some(('*', '*'))
        } else if self.last_move.contains(&square) {
            Some(('(', ')'))
        } else {
            None
        }
    }

    /// The band's digit (where the palette wants it) on row `y` and the
    /// square's number (numbers mode, where it fits) on a square of the
    /// map; the columns the digit took. The number has the top row to
    /// itself, its last cell left blank so it never runs into the next
    /// square's.
    fn mark(
        &self,
        buffer: &mut ratatui::buffer::Buffer,
        rect: Rect,
        heat: &HeatMap,
        square: Square,
        (band, heat_bg): (u8, Option<ratatui::style::Color>),
        (y, crowded): (u16, bool),
    ) -> Vec<u16> {
        let mut style = Style::default().add_modifier(Modifier::BOLD);
        if let (Some(bg), Some(text)) = (heat_bg, self.palette.text(band)) {
            style = style.fg(text).bg(bg);
        }
        let numbers = heat.show_numbers && numbers_fit(rect.height);
        let mut cells = Vec::new();
        if self.palette.digits() {
            // The band's mark in the left corner: a digit, or in the net
            // view a sign and a digit; where the square is too narrow for
            // both beside each other clear of the piece in its centre (and
            // of the marks beside it on a crowded row), the digit goes to
            // the other corner.
            let label = heat.band_label(band);
            let mut chars = label.chars();
            let narrow = rect.width < 5 || (crowded && rect.width < 6);
            match (chars.next(), chars.next()) {
                (Some(sign), Some(digit)) if narrow => {
                    buffer.set_string(rect.x, y, sign.to_string(), style);
                    let right = rect.x + rect.width.saturating_sub(1);
                    buffer.set_string(right, y, digit.to_string(), style);
                    cells = vec![rect.x, right];
                }
                _ => {
                    cells = (rect.x..rect.x + label.chars().count() as u16).collect();
                    buffer.set_string(rect.x, y, label, style);
                }
            }
        }
        if !numbers {
            return cells;
        }
        let width = rect.width.saturating_sub(1);
        let text = compact(heat.numbers[square.to_usize()], usize::from(width));
        let pad = width.saturating_sub(text.chars().count() as u16);
        buffer.set_string(rect.x + pad, rect.y, text, style);
        cells
    }
}
