//! The result of a finished game and what can follow it.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;

use crate::game::GameEnd;
use crate::tui::theme::Theme;

use super::popup;
use crate::tui::widgets::fitted::fitted;

pub fn draw(frame: &mut Frame, end: GameEnd, plies: usize, area: Rect, theme: &Theme) {
    let inner = popup(frame, area, 58, 7, "Game over", theme);
    let lines = vec![
        Line::styled(
            format!(" {}  {}", end.result(), end.describe()),
            Style::default().add_modifier(Modifier::BOLD),
        ),
        // Moves as a reader counts them, and plies as looking back does.
        Line::from(format!(
            " after {} ({})",
            crate::core::counted(plies.div_ceil(2) as u64, "move", "moves"),
            crate::core::counted(plies as u64, "ply", "plies")
        )),
        Line::default(),
        Line::styled(
            match end {
                // A game decided on time has no takeback.
                GameEnd::Time { .. } => " n new game · s save · a analyse",
                _ => " n new game · s save · u takeback · a analyse",
            },
            Style::default().fg(theme.dim),
        ),
        Line::styled(
            " Esc closes this; the key line keeps these keys",
            Style::default().fg(theme.dim),
        ),
    ];
    frame.render_widget(fitted(lines, inner.width), inner);
}
