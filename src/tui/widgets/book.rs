//! The book's moves for the position, with their share as a bar.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use shakmaty::Chess;

use crate::book::BookMove;
use crate::game::notation::san_line;
use crate::tui::theme::Theme;

use super::fitted::fitted;
use super::section;

pub struct Book<'a> {
    pub position: &'a Chess,
    pub moves: &'a [BookMove],
    pub theme: &'a Theme,
}

impl Book<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let theme = self.theme;
        let inner = section(frame, " Book ", area, theme);
        let bar_width = inner.width.saturating_sub(16).min(24) as usize;
        let lines: Vec<Line> = self
            .moves
            .iter()
            .take(inner.height as usize)
            .map(|b| {
                let san = san_line(self.position, &[b.m]).join("");
                let filled = (b.share * bar_width as f64).round() as usize;
                Line::from(vec![
                    Span::raw(format!("{san:<7}")),
                    Span::styled("█".repeat(filled), Style::default().fg(theme.accent)),
                    Span::styled(
                        "░".repeat(bar_width.saturating_sub(filled)),
                        Style::default().fg(theme.dim),
                    ),
                    Span::raw(format!(" {:>3.0}%", b.share * 100.0)),
                ])
            })
            .collect();
        frame.render_widget(fitted(lines, inner.width), inner);
    }
}
