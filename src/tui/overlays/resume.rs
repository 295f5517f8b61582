//! The offer to resume the unfinished game of the last session.

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use crate::tui::save::SavedGame;
use crate::tui::theme::Theme;

use super::popup;

/// Resume (yes), a new game (no), or none (the offer stays).
pub fn answer(key: KeyEvent) -> Option<bool> {
    match key.code {
        KeyCode::Char('y') | KeyCode::Enter => Some(true),
        KeyCode::Char('n') | KeyCode::Esc => Some(false),
        _ => None,
    }
}

pub fn draw(frame: &mut Frame, saved: &SavedGame, area: Rect, theme: &Theme) {
    let inner = popup(frame, area, 56, 8, "Unfinished game", theme);
    let who = match saved.players.as_str() {
        "two" => "two players".to_string(),
        side => format!("you played {side} against level {}", saved.level),
    };
    let lines = vec![
        Line::from(" Resume the game from your last session?"),
        Line::from(format!(
            " {who}, {}, {} moves played",
            saved.time_control,
            saved.moves.len().div_ceil(2)
        )),
        Line::default(),
        Line::styled(
            " y resume · n new game",
            Style::default().add_modifier(Modifier::BOLD),
        ),
    ];
    frame.render_widget(Paragraph::new(lines), inner);
}
