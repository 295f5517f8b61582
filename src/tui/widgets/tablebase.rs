//! The tables' verdict for the position and the best few moves.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use shakmaty::{Chess, Move, Position};

use crate::game::notation::san_line;
use crate::tablebase::TbProbe;
use crate::tui::theme::Theme;

use super::fitted::fitted;
use super::{section, side_name};

pub struct Tablebase<'a> {
    pub position: &'a Chess,
    pub probe: &'a TbProbe,
    pub moves: &'a [(Move, TbProbe)],
    /// The first move shown (PgUp, PgDn and the wheel scroll).
    pub first: usize,
    pub theme: &'a Theme,
}

/// The rows of moves a tablebase panel of `height` rows shows: all but
/// its title and the verdict.
pub fn move_rows(height: u16) -> usize {
    usize::from(height.saturating_sub(2))
}

impl Tablebase<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let shown =
            crate::tui::layout::side::page(self.first, move_rows(area.height), self.moves.len());
        let title = if shown.len() == self.moves.len() {
            " Tablebase ".to_string()
        } else {
            let keys = match (shown.start > 0, shown.end < self.moves.len()) {
                (true, true) => "PgUp PgDn",
                (true, false) => "PgUp",
                _ => "PgDn",
            };
            format!(
                " Tablebase {}-{} of {} · {keys} ",
                shown.start + 1,
                shown.end,
                self.moves.len()
            )
        };
        let inner = section(frame, title, area, self.theme);
        let side = side_name(self.position.turn());
        let mut lines = vec![Line::from(vec![
            Span::styled(format!("{side}: "), Style::default().fg(self.theme.dim)),
            Span::styled(
                crate::text::tablebase::describe(self.probe),
                Style::default().add_modifier(Modifier::BOLD),
            ),
        ])];
        for (m, outcome) in &self.moves[shown] {
            let san = san_line(self.position, &[*m]).join("");
            lines.push(Line::from(format!(
                "{san:<7} {}",
                crate::text::tablebase::describe(outcome)
            )));
        }
        frame.render_widget(fitted(lines, inner.width), inner);
    }
}
