//! The hand-written static evaluation of the position, term by term. (A
//! full-strength search evaluates with the network, which has no terms to
//! show; the column header says which evaluation these are.)

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use shakmaty::Chess;

use crate::engine::eval;
use crate::tui::theme::Theme;

use super::fitted::fitted;
use super::section;

/// Under the total: where the engine lines' scores come from instead.
pub const NETWORK_NOTE: &str = "engine lines: scored by a network";

pub struct Breakdown<'a> {
    pub position: &'a Chess,
    pub theme: &'a Theme,
}

impl Breakdown<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let breakdown = eval::breakdown(self.position);
        let inner = section(
            frame,
            format!(" Terms for White · phase {}/24 ", breakdown.phase),
            area,
            self.theme,
        );
        let dim = Style::default().fg(self.theme.dim);
        // The total and the note come first, so that a short panel (80 x
        // 24) cuts the last terms, never the sum; then the terms.
        let mut lines = vec![
            Line::styled(
                // 34 columns: the side panel's width at 80 x 24.
                format!("{:<15}{:>6}{:>6}{:>7}", "hand-written", "mg", "eg", "blend"),
                dim,
            ),
            Line::styled(
                format!("{:<27}{:>7}", "total", breakdown.total),
                Style::default().add_modifier(Modifier::BOLD),
            ),
            // The engine lines' scores come from the network, not from
            // these terms: a piece-square -46 beside a +0.30 line is no
            // contradiction.
            Line::styled(NETWORK_NOTE, dim),
        ];
        for term in &breakdown.terms {
            lines.push(Line::from(format!(
                "{:<15}{:>6}{:>6}{:>7}",
                term.term.label(),
                term.middlegame,
                term.endgame,
                term.blended
            )));
        }
        frame.render_widget(fitted(lines, inner.width), inner);
    }
}
