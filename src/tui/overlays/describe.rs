//! The position in plain words (`D`, `:describe`): the whole screen given to
//! plain lines, with nothing else on it, so a screen reader reads them top
//! to bottom. Esc closes it; the arrows scroll what does not fit.

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::Clear;

use crate::tui::theme::Theme;
use crate::tui::widgets::fitted::fitted;

/// The lines on show and how far they are scrolled (in rows).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescribeView {
    /// The first row: what the lines are.
    pub title: String,
    pub lines: Vec<String>,
    pub scroll: usize,
}

/// Rows the title and the footer take.
const FRAME_ROWS: u16 = 2;
/// The left margin of every row.
const MARGIN: usize = 1;

/// What a key did to the view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    Open(DescribeView),
    Closed,
}

impl DescribeView {
    pub fn new(lines: Vec<String>) -> DescribeView {
        DescribeView::titled("The position in words", lines)
    }

    /// Other plain lines the same way (the move-table map's words and
    /// links), under `title`.
    pub fn titled(title: impl Into<String>, lines: Vec<String>) -> DescribeView {
        DescribeView {
            title: title.into(),
            lines,
            scroll: 0,
        }
    }

    /// The rows of the text on a screen of `width` columns.
    pub fn rows(&self, width: u16) -> Vec<String> {
        let width = usize::from(width).saturating_sub(2 * MARGIN).max(10);
        self.lines.iter().flat_map(|l| wrap(l, width)).collect()
    }

    /// Esc, Enter or `q` close the view; the arrows, Page Up/Down, Home
    /// and End scroll it on a screen of `size`.
    pub fn key(mut self, key: KeyEvent, size: (u16, u16)) -> Answer {
        let rows = self.rows(size.0).len();
        let page = usize::from(size.1.saturating_sub(FRAME_ROWS)).max(1);
        let last = rows.saturating_sub(page);
        self.scroll = match key.code {
            KeyCode::Esc | KeyCode::Enter | KeyCode::Char('q' | 'D') => return Answer::Closed,
            KeyCode::Down | KeyCode::Char('j') => self.scroll + 1,
            KeyCode::Up | KeyCode::Char('k') => self.scroll.saturating_sub(1),
            KeyCode::PageDown | KeyCode::Char(' ') => self.scroll + page,
            KeyCode::PageUp => self.scroll.saturating_sub(page),
            KeyCode::Home => 0,
            KeyCode::End => last,
            _ => self.scroll,
        }
        .min(last);
        Answer::Open(self)
    }

    pub fn draw(&self, frame: &mut Frame, area: Rect, theme: &Theme) {
        frame.render_widget(Clear, area);
        let bold = Style::default().add_modifier(Modifier::BOLD);
        let rows = self.rows(area.width);
        let room = usize::from(area.height.saturating_sub(FRAME_ROWS));
        let more = rows.len() > self.scroll + room;
        let pad = " ".repeat(MARGIN);
        let mut lines = vec![Line::styled(format!("{pad}{}", self.title), bold)];
        lines.extend(
            rows.iter()
                .skip(self.scroll)
                .take(room)
                .map(|row| Line::from(format!("{pad}{row}"))),
        );
        while lines.len() < room + 1 {
            lines.push(Line::default());
        }
        let footer = if more || self.scroll > 0 {
            "Esc closes · ↑↓ scroll"
        } else {
            "Esc closes"
        };
        lines.push(Line::styled(
            format!("{pad}{footer}"),
            Style::default().fg(theme.dim),
        ));
        frame.render_widget(fitted(lines, area.width), area);
    }
}

/// `text` in rows of at most `width` characters, broken at spaces (a word
/// longer than a row is cut); rows after the first are indented by two.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut rows = Vec::new();
    let mut row = String::new();
    for word in text.split_whitespace() {
        let used = row.chars().count();
        if used > 0 && used + 1 + word.chars().count() > width {
            rows.push(std::mem::take(&mut row));
        }
        if row.is_empty() {
            row.push_str(&" ".repeat(if rows.is_empty() { 0 } else { 2 }));
        } else {
            row.push(' ');
        }
        row.push_str(word);
    }
    rows.push(row);
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_wrap_at_spaces_with_an_indent() {
        let rows = wrap("White: king g1, queen d1, rooks a1 f1", 16);
        assert_eq!(rows, ["White: king g1,", "  queen d1,", "  rooks a1 f1"]);
        assert_eq!(wrap("", 10), [""]);
    }

    #[test]
    fn keys_scroll_within_the_text_and_esc_closes() {
        let view = DescribeView::new((0..30).map(|i| format!("line {i}")).collect());
        let Answer::Open(view) = view.key(KeyEvent::from(KeyCode::End), (80, 24)) else {
            panic!("End closed the view");
        };
        assert_eq!(view.scroll, 30 - 22);
        let Answer::Open(view) = view.key(KeyEvent::from(KeyCode::Down), (80, 24)) else {
            panic!("Down closed the view");
        };
        assert_eq!(view.scroll, 8);
        assert_eq!(
            view.key(KeyEvent::from(KeyCode::Esc), (80, 24)),
            Answer::Closed
        );
    }
}
