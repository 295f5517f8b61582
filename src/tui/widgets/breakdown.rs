//! The static evaluation of the position, term by term.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use shakmaty::Chess;

use crate::engine::eval;
use crate::tui::theme::Theme;

use super::section;

pub struct Breakdown<'a> {
    pub position: &'a Chess,
    pub theme: &'a Theme,
}

impl Breakdown<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let breakdown = eval::breakdown(self.position);
        let inner = section(
            frame,
            format!(" Evaluation (White's view) · phase {}/24 ", breakdown.phase),
            area,
            self.theme,
        );
        let dim = Style::default().fg(self.theme.dim);
        let mut lines = vec![Line::styled(
            format!("{:<16}{:>7}{:>7}{:>8}", "term", "mg", "eg", "blend"),
            dim,
        )];
        for term in &breakdown.terms {
            lines.push(Line::from(format!(
                "{:<16}{:>7}{:>7}{:>8}",
                term.term.label(),
                term.middlegame,
                term.endgame,
                term.blended
            )));
        }
        lines.push(Line::styled(
            format!("{:<30}{:>8}", "total", breakdown.total),
            Style::default().add_modifier(Modifier::BOLD),
        ));
        frame.render_widget(Paragraph::new(lines), inner);
    }
}
