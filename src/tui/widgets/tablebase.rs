//! The tables' verdict for the position and the best few moves.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use shakmaty::{Chess, Move, Position};

use crate::game::notation::san_line;
use crate::tablebase::TbProbe;
use crate::tui::theme::Theme;

use super::{section, side_name};

pub struct Tablebase<'a> {
    pub position: &'a Chess,
    pub probe: &'a TbProbe,
    pub moves: &'a [(Move, TbProbe)],
    pub theme: &'a Theme,
}

impl Tablebase<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let inner = section(frame, " Tablebase ", area, self.theme);
        let side = side_name(self.position.turn());
        let mut lines = vec![Line::from(vec![
            Span::styled(format!("{side}: "), Style::default().fg(self.theme.dim)),
            Span::styled(
                crate::cli::tb::describe(self.probe),
                Style::default().add_modifier(Modifier::BOLD),
            ),
        ])];
        for (m, outcome) in self
            .moves
            .iter()
            .take(inner.height.saturating_sub(1) as usize)
        {
            let san = san_line(self.position, &[*m]).join("");
            lines.push(Line::from(format!(
                "{san:<7} {}",
                crate::cli::tb::describe(outcome)
            )));
        }
        frame.render_widget(Paragraph::new(lines), inner);
    }
}
