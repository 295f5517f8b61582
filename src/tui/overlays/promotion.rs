//! Choosing the piece a pawn promotes to.

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use shakmaty::{Color, Piece, Role};

use crate::config::PieceStyle;
use crate::tui::theme::{Theme, glyph};

use super::popup;
use crate::tui::widgets::fitted::fitted;

/// The promotion pieces in the order the dialog offers them.
pub const PROMOTION_ROLES: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// What a key does in the dialog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    /// The dialog stays, with this piece chosen.
    Keep(usize),
    Pick(Role),
    Cancel,
}

pub fn key(choice: usize, key: KeyEvent) -> Choice {
    // Arrows move the choice round the four pieces (3 steps forward = one
    // back); other keys leave the dialog open as it is.
    let step = match key.code {
        KeyCode::Left | KeyCode::Char('h') | KeyCode::Up | KeyCode::Char('k') => 3,
        KeyCode::Right | KeyCode::Char('l') | KeyCode::Down | KeyCode::Char('j') => 1,
        _ => 0,
    };
    match key.code {
        KeyCode::Char('q') => Choice::Pick(Role::Queen),
        KeyCode::Char('r') => Choice::Pick(Role::Rook),
        KeyCode::Char('b') => Choice::Pick(Role::Bishop),
        KeyCode::Char('n') => Choice::Pick(Role::Knight),
        KeyCode::Enter | KeyCode::Char(' ') => Choice::Pick(PROMOTION_ROLES[choice % 4]),
        KeyCode::Esc => Choice::Cancel,
        _ => Choice::Keep((choice + step) % 4),
    }
}

pub fn draw(
    frame: &mut Frame,
    choice: usize,
    color: Color,
    pieces: PieceStyle,
    area: Rect,
    theme: &Theme,
) {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let inner = popup(frame, area, 44, 5, "Promote to", theme);
    let mut spans = vec![Span::raw(" ")];
    for (index, role) in PROMOTION_ROLES.iter().enumerate() {
        let piece = Piece { color, role: *role };
        let text = format!(" {} {} ", glyph(piece, pieces), role.upper_char());
        let style = if index == choice {
            bold.fg(theme.black_piece).bg(theme.accent)
        } else {
            Style::default()
        };
        spans.push(Span::styled(text, style));
    }
    let lines = vec![
        Line::from(spans),
        Line::styled(
            " q r b n, or arrows + Enter; Esc cancels",
            Style::default().fg(theme.dim),
        ),
    ];
    frame.render_widget(fitted(lines, inner.width), inner);
}
