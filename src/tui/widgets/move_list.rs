//! A game's moves in numbered pairs, the latest in view.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use shakmaty::Position;

use crate::game::Game;
use crate::tui::theme::Theme;

use super::fitted::fitted;
use super::section;

pub struct MoveList<'a> {
    pub game: &'a Game,
    /// While looking back: the plies on the board; the move into that
    /// position is marked and kept in view.
    pub viewing: Option<usize>,
    /// Without colour (NO_COLOR) the marked move is also in brackets, as on
    /// the analysis board: reverse video alone is easy to miss there.
    pub no_color: bool,
    pub theme: &'a Theme,
}

/// One numbered row: the move number and the plies (indices into the
/// game's moves) of White's and Black's moves, either may be missing.
struct Row {
    number: u32,
    white: Option<usize>,
    black: Option<usize>,
}

impl MoveList<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let inner = section(frame, " Moves ", area, self.theme);
        let start = self.game.start();
        let plies = self.game.len();
        let mut rows: Vec<Row> = Vec::new();
        let mut ply = 0;
        let mut number = start.fullmoves().get();
        if !start.turn().is_white() && plies > 0 {
            rows.push(Row {
                number,
                white: None,
                black: Some(0),
            });
            ply = 1;
            number += 1;
        }
        while ply < plies {
            rows.push(Row {
                number,
                white: Some(ply),
                black: (ply + 1 < plies).then_some(ply + 1),
            });
            ply += 2;
            number += 1;
        }
        // Two columns of move pairs when the panel is wide enough.
        let columns = if inner.width >= 44 { 2 } else { 1 };
        let height = inner.height as usize;
        let capacity = height * columns;
        let marked = self.viewing.and_then(|plies| plies.checked_sub(1));
        // The latest moves are in view; while looking back, the marked one.
        let mut skip = rows.len().saturating_sub(capacity);
        if let Some(row) = marked.and_then(|m| rows.iter().position(|r| r.holds(m))) {
            skip = skip.min(row);
        }
        let shown = &rows[skip..];
        let mut lines = Vec::with_capacity(height);
        for row in 0..height.min(shown.len()) {
            let mut spans = self.row_spans(&shown[row], marked);
            if columns == 2
                && let Some(right) = shown.get(row + height)
            {
                let used: usize = spans.iter().map(|s| s.content.chars().count()).sum();
                spans.push(Span::raw(" ".repeat(22usize.saturating_sub(used).max(1))));
                spans.extend(self.row_spans(right, marked));
            }
            lines.push(Line::from(spans));
        }
        if rows.is_empty() {
            lines.push(Line::styled(
                "no moves yet",
                Style::default().fg(self.theme.dim),
            ));
        }
        frame.render_widget(fitted(lines, inner.width), inner);
    }

    /// `  3. Nf3     Nc6`, with the marked ply reversed (and in brackets
    /// without colour: `  3. [Nf3]   Nc6`).
    fn row_spans(&self, row: &Row, marked: Option<usize>) -> Vec<Span<'static>> {
        let san = |ply: usize| {
            let san = self.game.sans().get(ply).cloned().unwrap_or_default();
            if self.no_color && marked == Some(ply) {
                format!("[{san}]")
            } else {
                san
            }
        };
        let style = |ply: usize| match marked == Some(ply) {
            true => Style::default().add_modifier(Modifier::REVERSED),
            false => Style::default(),
        };
        let mut spans = vec![Span::raw(format!("{:>3}. ", row.number))];
        match row.white {
            Some(ply) => {
                let text = san(ply);
                let pad = 8usize.saturating_sub(text.chars().count());
                spans.push(Span::styled(text, style(ply)));
                if row.black.is_some() {
                    spans.push(Span::raw(" ".repeat(pad)));
                }
            }
            None => spans.push(Span::raw(format!("{:<8}", "..."))),
        }
        if let Some(ply) = row.black {
            spans.push(Span::styled(san(ply), style(ply)));
        }
        spans
    }
}

impl Row {
    fn holds(&self, ply: usize) -> bool {
        self.white == Some(ply) || self.black == Some(ply)
    }
}
