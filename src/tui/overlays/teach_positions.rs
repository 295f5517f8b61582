//! Teach mode's list of positions: the one it was opened on, then the
//! curated teaching positions (assets/teaching.txt), each with what it shows.

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::teach::TeachingPosition;
use crate::tui::theme::Theme;

use super::popup;

/// The list, with the row chosen (0: the position teach mode was opened on).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeachPicker {
    pub choice: usize,
}

/// What a key did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Picked {
    Keep,
    Cancel,
    /// Row `n`: 0 the opened-on position, `i + 1` teaching position `i`.
    Row(usize),
}

impl TeachPicker {
    pub fn key(&mut self, key: KeyEvent, rows: usize) -> Picked {
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => self.choice = self.choice.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => {
                self.choice = (self.choice + 1).min(rows.saturating_sub(1));
            }
            KeyCode::Home => self.choice = 0,
            KeyCode::End => self.choice = rows.saturating_sub(1),
            KeyCode::Enter | KeyCode::Char(' ') => return Picked::Row(self.choice),
            KeyCode::Char(c @ '0'..='9') => {
                let row = c as usize - '0' as usize;
                if row < rows {
                    return Picked::Row(row);
                }
            }
            KeyCode::Esc | KeyCode::Char('q' | 'p') => return Picked::Cancel,
            _ => {}
        }
        Picked::Keep
    }

    pub fn draw(
        &self,
        frame: &mut Frame,
        opened_on: &str,
        positions: &[TeachingPosition],
        area: Rect,
        theme: &Theme,
    ) {
        let width = area.width.saturating_sub(4).min(90);
        let height = area
            .height
            .saturating_sub(2)
            .min(positions.len() as u16 * 2 + 6);
        let inner = popup(frame, area, width, height, "Teaching positions", theme);
        let mut rows: Vec<(String, String)> = vec![(
            format!("0  {opened_on}"),
            "the position teach mode opened on".into(),
        )];
        rows.extend(positions.iter().enumerate().map(|(i, p)| {
            (
                format!("{}  {} (depth {})", i + 1, p.name, p.depth),
                p.description.clone(),
            )
        }));
        // Two rows each; scroll so the chosen one shows.
        let fits = usize::from(inner.height.saturating_sub(2) / 2).max(1);
        let first = self.choice.saturating_sub(fits - 1);
        let mut lines = Vec::new();
        for (i, (name, description)) in rows.iter().enumerate().skip(first).take(fits) {
            let style = if i == self.choice {
                theme.highlight()
            } else {
                Style::default()
            };
            lines.push(Line::from(Span::styled(format!(" {name} "), style)));
            // Cut after a whole word (`fit`), never inside one.
            let text =
                crate::tui::widgets::fit(description, usize::from(inner.width).saturating_sub(4));
            lines.push(Line::styled(
                format!("    {text}"),
                Style::default().fg(theme.dim),
            ));
        }
        lines.push(Line::styled(
            " ↑↓ choose · Enter or 0-9 open · Esc back",
            Style::default().fg(theme.dim),
        ));
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
    }
}
