//! A game's moves in numbered pairs, the latest in view.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use shakmaty::Position;

use crate::game::Game;
use crate::tui::theme::Theme;

use super::fitted::fitted;
use super::section;

pub struct MoveList<'a> {
    pub game: &'a Game,
    pub theme: &'a Theme,
}

impl MoveList<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let inner = section(frame, " Moves ", area, self.theme);
        let start = self.game.start();
        let mut number = start.fullmoves().get();
        let mut rows: Vec<String> = Vec::new();
        let mut sans = self.game.sans().iter();
        if !start.turn().is_white()
            && let Some(first) = sans.next()
        {
            rows.push(format!("{number:>3}. {:<8}{first}", "..."));
            number += 1;
        }
        while let Some(white) = sans.next() {
            match sans.next() {
                Some(black) => rows.push(format!("{number:>3}. {white:<8}{black}")),
                None => rows.push(format!("{number:>3}. {white}")),
            }
            number += 1;
        }
        // Two columns of move pairs when the panel is wide enough.
        let columns = if inner.width >= 44 { 2 } else { 1 };
        let height = inner.height as usize;
        let capacity = height * columns;
        let skip = rows.len().saturating_sub(capacity);
        let shown = &rows[skip..];
        let mut lines = Vec::with_capacity(height);
        for row in 0..height.min(shown.len()) {
            let mut text = format!("{:<22}", shown[row]);
            if columns == 2
                && let Some(right) = shown.get(row + height)
            {
                text.push_str(right);
            }
            lines.push(Line::from(text));
        }
        if rows.is_empty() {
            lines.push(Line::styled(
                "no moves yet",
                Style::default().fg(self.theme.dim),
            ));
        }
        frame.render_widget(fitted(lines, inner.width), inner);
    }
}
