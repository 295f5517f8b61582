//! The offer to resume the unfinished game of the last session.

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

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

/// The offer of `saved`, the first of `offered` unfinished games (0 or 1:
/// the only one).
pub fn draw(frame: &mut Frame, saved: &SavedGame, offered: usize, area: Rect, theme: &Theme) {
    let who = match saved.players.as_str() {
        "two" => "two players".to_string(),
        side => format!("you played {side} against level {}", saved.level),
    };
    let moves = saved.moves.len().div_ceil(2);
    let plural = if moves == 1 { "" } else { "s" };
    let question = match offered {
        0 => " Resume the game from your last session?".to_string(),
        1 => " Resume this unfinished game?".to_string(),
        n => format!(" Resume this unfinished game ({} after it)?", n - 1),
    };
    // `n` keeps an offered file's game as a PGN in games/ (none in tests).
    let keys = match offered {
        0 => " Enter or y resumes · n new game",
        1 => " Enter or y resumes · n new game, this one kept in games/",
        _ => " Enter or y resumes · n keep it in games/, show the next",
    };
    let lines = [
        question,
        format!(" {who},"),
        format!(" {}, {moves} move{plural} played", saved.time_control),
    ];
    // As wide as the longest line and its borders, where the screen allows;
    // a line still too long wraps.
    let widest = lines
        .iter()
        .map(|l| l.chars().count())
        .chain([keys.chars().count()])
        .max()
        .unwrap_or(0);
    let width = (widest as u16 + 3).max(40);
    let mut text: Vec<Line> = lines.into_iter().map(Line::from).collect();
    text.push(Line::default());
    text.push(Line::styled(
        keys,
        Style::default().add_modifier(Modifier::BOLD),
    ));
    let inner = popup(frame, area, width, 8, "Unfinished game", theme);
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: false }), inner);
}
