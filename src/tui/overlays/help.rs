//! The keys of the mode on screen. Where they do not all fit (teach mode
//! at 80 x 24) the arrows and PgUp PgDn scroll them; any other key closes.

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::tui::layout::side::page;
use crate::tui::theme::Theme;

use super::popup;
use crate::tui::widgets::fitted::fitted;

/// The rows of keys the help shows on a screen `height` rows high.
pub fn rows(keys: usize, height: u16) -> usize {
    keys.min(usize::from(height.saturating_sub(2)))
}

/// A key while the help is open: the first row to show after it, or
/// `None` when it closes the help.
pub fn key(key: KeyEvent, first: usize, keys: usize, rows: usize) -> Option<usize> {
    if rows >= keys {
        return None;
    }
    let last = keys - rows;
    let first = first.min(last);
    match key.code {
        KeyCode::Down | KeyCode::Char('j') => Some((first + 1).min(last)),
        KeyCode::Up | KeyCode::Char('k') => Some(first.saturating_sub(1)),
        KeyCode::PageDown | KeyCode::Char(' ') => Some((first + rows).min(last)),
        KeyCode::PageUp => Some(first.saturating_sub(rows)),
        KeyCode::Home => Some(0),
        KeyCode::End => Some(last),
        _ => None,
    }
}

pub fn draw(frame: &mut Frame, keys: &[(&str, &str)], first: usize, area: Rect, theme: &Theme) {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let shown = page(first, rows(keys.len(), area.height), keys.len());
    let title = if shown.len() == keys.len() {
        "Keys (any key closes)".to_string()
    } else {
        format!(
            "Keys {}-{} of {} · ↑↓ PgUp PgDn scroll · other keys close",
            shown.start + 1,
            shown.end,
            keys.len()
        )
    };
    let inner = popup(frame, area, 80, shown.len() as u16 + 2, &title, theme);
    let lines: Vec<Line> = keys[shown]
        .iter()
        .map(|(key, what)| {
            Line::from(vec![
                Span::styled(format!(" {key:<17}"), bold.fg(theme.accent)),
                Span::raw(*what),
            ])
        })
        .collect();
    frame.render_widget(fitted(lines, inner.width), inner);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_help_that_fits_closes_on_any_key_and_a_long_one_scrolls() {
        let down = KeyEvent::from(KeyCode::Down);
        assert_eq!(key(down, 0, 20, 20), None);
        assert_eq!(key(down, 0, 33, 22), Some(1));
        assert_eq!(key(KeyEvent::from(KeyCode::PageDown), 5, 33, 22), Some(11));
        assert_eq!(key(KeyEvent::from(KeyCode::PageUp), 5, 33, 22), Some(0));
        assert_eq!(key(KeyEvent::from(KeyCode::Char('x')), 5, 33, 22), None);
    }
}
