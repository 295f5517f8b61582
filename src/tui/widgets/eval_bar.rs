//! The evaluation bar: White's share of the winning chances.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color as TermColor, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use shakmaty::{Chess, Position};

use crate::engine::Score;
use crate::review;
use crate::tui::theme::Theme;

use super::score_text;

pub struct EvalBar<'a> {
    pub position: &'a Chess,
    /// White's view; none while nothing evaluated the position yet.
    pub score: Option<Score>,
    pub theme: &'a Theme,
}

impl EvalBar<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let position = self.position;
        let (chance, label) = match (position.legal_moves().is_empty(), self.score) {
            (true, _) if position.is_check() => {
                let white_mated = position.turn().is_white();
                (if white_mated { 0.0 } else { 100.0 }, "mate".to_string())
            }
            (true, _) => (50.0, "stalemate".to_string()),
            (false, Some(score)) => (review::win_chance(score), score_text(score)),
            (false, None) => (50.0, "…".to_string()),
        };
        let bar_width = area.width.saturating_sub(9) as usize;
        let filled = ((chance / 100.0) * bar_width as f64).round() as usize;
        frame.render_widget(
            Paragraph::new(Line::from(vec![
                Span::styled(
                    "█".repeat(filled),
                    Style::default()
                        .fg(self.theme.white_piece)
                        .bg(self.theme.black_piece),
                ),
                Span::styled(
                    " ".repeat(bar_width.saturating_sub(filled)),
                    Style::default().bg(TermColor::DarkGray),
                ),
                Span::styled(
                    format!(" {label:>7}"),
                    Style::default().add_modifier(Modifier::BOLD),
                ),
            ])),
            area,
        );
    }
}
