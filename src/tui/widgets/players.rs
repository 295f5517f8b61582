//! The players of a game: names and clocks (the side to move marked), the
//! material balance and the pieces each side has taken.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use shakmaty::{Chess, Color, Piece, Position, Role};

use crate::config::PieceStyle;
use crate::tui::save::Players as Who;
use crate::tui::theme::{Theme, glyph_by_shape};

use super::fitted::fitted;
use super::side_name;

/// How many rows the panel draws.
pub const HEIGHT: u16 = 5;

pub struct Players<'a> {
    pub players: Who,
    /// Where the game started: what is missing since then was taken.
    pub start: &'a Chess,
    /// The game's position: its side to move is marked.
    pub position: &'a Chess,
    /// The position on the board (while looking back, the one looked at):
    /// the material and the pieces taken are counted on it.
    pub shown: &'a Chess,
    /// White's and Black's clock as shown.
    pub clocks: (String, String),
    /// The game runs: the side to move is marked.
    pub running: bool,
    /// White's and Black's clock under ten seconds: drawn as a warning,
    /// with a `!` (not by colour alone).
    pub low: (bool, bool),
    pub pieces: PieceStyle,
    pub theme: &'a Theme,
}

impl Players<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let theme = self.theme;
        let mut lines = Vec::new();
        let turn = self.position.turn();
        let (white_clock, black_clock) = &self.clocks;
        for (color, clock) in [(Color::White, white_clock), (Color::Black, black_clock)] {
            let active = self.running && turn == color;
            let marker = if active { "▶ " } else { "  " };
            let low = if color.is_white() {
                self.low.0
            } else {
                self.low.1
            };
            let clock_style = if low {
                Style::default()
                    .fg(theme.check)
                    .add_modifier(Modifier::BOLD)
            } else if active {
                theme.highlight()
            } else {
                Style::default().add_modifier(Modifier::BOLD)
            };
            let clock = if low {
                format!("{clock}!")
            } else {
                clock.clone()
            };
            let mut name = self.players.name(color);
            if name == side_name(color) {
                name.clear();
            }
            let width = area.width as usize;
            let pad = width.saturating_sub(2 + 6 + name.chars().count() + clock.len() + 2);
            lines.push(Line::from(vec![
                Span::styled(marker, Style::default().fg(theme.accent)),
                Span::raw(format!("{:<6}", side_name(color))),
                Span::raw(name),
                Span::raw(" ".repeat(pad)),
                Span::styled(format!(" {clock} "), clock_style),
            ]));
        }
        let style = self.pieces;
        // The lists are not coloured: the sides differ by shape (White's
        // outlined symbols, Black's filled ones), with or without colour.
        let list = |pieces: Vec<Piece>| -> String {
            pieces
                .into_iter()
                .map(|p| glyph_by_shape(p, style))
                .collect()
        };
        let lead = match material(self.shown) {
            0 => "even".to_string(),
            n if n > 0 => format!("White +{n}"),
            n => format!("Black +{}", -n),
        };
        let dim = Style::default().fg(theme.dim);
        lines.push(Line::from(vec![
            Span::styled("  Material ", dim),
            Span::raw(lead),
        ]));
        lines.push(Line::from(vec![
            Span::styled("  Taken by White ", dim),
            Span::raw(list(captured(self.start, self.shown, Color::Black))),
        ]));
        lines.push(Line::from(vec![
            Span::styled("  Taken by Black ", dim),
            Span::raw(list(captured(self.start, self.shown, Color::White))),
        ]));
        let rect = Rect::new(area.x, area.y, area.width, HEIGHT.min(area.height));
        frame.render_widget(fitted(lines, rect.width), rect);
    }
}

/// Piece values for the material count.
fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

/// Pieces of `color` that were on the board at the game's `start` and are
/// missing now (captured), most valuable first; a promoted piece makes up
/// for a missing pawn. A game from a FEN counts from its own position, not
/// from the full set.
fn captured(start: &Chess, position: &Chess, color: Color) -> Vec<Piece> {
    let count = |position: &Chess, role: Role| {
        let board = position.board();
        (board.by_role(role) & board.by_color(color)).count()
    };
    let full = [
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ]
    .map(|role| (role, count(start, role)));
    let have = |role: Role| count(position, role);
    // Pieces beyond the starting count came from promoted pawns.
    let promoted: usize = full[..4]
        .iter()
        .map(|&(role, count)| have(role).saturating_sub(count))
        .sum();
    let mut out = Vec::new();
    for (role, count) in full {
        let present = if role == Role::Pawn {
            have(role) + promoted
        } else {
            have(role)
        };
        for _ in present..count {
            out.push(Piece { color, role });
        }
    }
    out
}

fn material(position: &Chess) -> i32 {
    let board = position.board();
    Role::ALL
        .iter()
        .map(|&role| {
            let white = (board.by_role(role) & board.white()).count() as i32;
            let black = (board.by_role(role) & board.black()).count() as i32;
            value(role) * (white - black)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::fen::parse_fen;

    fn fen(text: &str) -> Chess {
        parse_fen(text).expect("a test FEN")
    }

    #[test]
    fn taken_counts_from_the_games_own_start() {
        // A rook ending from a FEN: nothing has been taken yet.
        let start = fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
        assert!(captured(&start, &start, Color::White).is_empty());
        assert!(captured(&start, &start, Color::Black).is_empty());
        let later = fen("6k1/5pp1/8/8/8/8/5PPP/3R2K1 w - - 0 1");
        assert_eq!(
            captured(&start, &later, Color::Black),
            [Piece {
                color: Color::Black,
                role: Role::Pawn
            }]
        );
        // From the standard position, a promoted queen makes up for its pawn.
        let standard = Chess::default();
        let promoted = fen("rnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNQ w Qkq - 0 1");
        assert_eq!(
            captured(&standard, &promoted, Color::White),
            [Piece {
                color: Color::White,
                role: Role::Rook
            }]
        );
    }
}
