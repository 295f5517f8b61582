//! The review's evaluation graph: White's winning chance over the game,
//! filled from the bottom; marked moves in their colour, the cursor's ply
//! highlighted.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color as TermColor, Style};
use ratatui::text::{Line, Span};
use shakmaty::Color;

use crate::review::Class;
use crate::tui::modes::analyse::ReviewState;
use crate::tui::theme::Theme;

use crate::tui::widgets::fitted::fitted;
use crate::tui::widgets::section;

pub struct EvalGraph<'a> {
    pub review: &'a ReviewState,
    /// The ply on the board, when it is on the main line.
    pub cursor_ply: Option<usize>,
    pub theme: &'a Theme,
}

/// The colour of a review mark.
pub fn class_color(class: Class, theme: &Theme) -> TermColor {
    match class {
        Class::Inaccuracy => TermColor::Yellow,
        Class::Mistake => TermColor::Rgb(230, 140, 40),
        Class::Blunder => theme.check,
    }
}

impl EvalGraph<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let review = self.review;
        let theme = self.theme;
        // A side's figures: its accuracy once every move is judged, and the
        // marks it earned (only those it has: the title stays short enough
        // to be read whole beside the board).
        let side_counts = |color: Color| {
            let of = |class| {
                review
                    .moves
                    .iter()
                    .filter(|m| m.mover == color && m.class == Some(class))
                    .count()
            };
            let mut parts = Vec::new();
            if review.done
                && let Some(a) = crate::review::SideSummary::of(&review.moves, color).accuracy()
            {
                parts.push(format!("{a:.0}%"));
            }
            for class in [Class::Inaccuracy, Class::Mistake, Class::Blunder] {
                match of(class) {
                    0 => {}
                    n => parts.push(format!("{n}{}", class.symbol())),
                }
            }
            if parts.is_empty() {
                parts.push("no marks".to_string());
            }
            parts.join(" ")
        };
        let state = if review.done {
            String::new()
        } else {
            format!(" {}/{}", review.evaluated(), review.evals.len())
        };
        let title = format!(
            " Review{state} · W {} · B {} ",
            side_counts(Color::White),
            side_counts(Color::Black)
        );
        let inner = section(frame, title, area, theme);
        let plies = review.evals.len();
        if plies == 0 || inner.width == 0 || inner.height == 0 {
            return;
        }
        let width = inner.width as usize;
        let height = inner.height as usize;
        const EIGHTHS: [char; 9] = [' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
        let mut rows: Vec<Vec<Span>> = vec![Vec::new(); height];
        for col in 0..width.min(plies.max(1)) {
            // Columns stand for plies, squeezed when the game is longer.
            let ply = if plies <= width {
                col
            } else {
                col * (plies - 1) / (width - 1).max(1)
            };
            let chance = review.evals[ply]
                .as_ref()
                .map(|e| e.chance_for(Color::White));
            let class = review
                .moves
                .iter()
                .find(|m| m.ply == ply)
                .and_then(|m| m.class);
            let fg = class.map_or(theme.white_piece, |c| class_color(c, theme));
            let bg = if self.cursor_ply == Some(ply) {
                theme.accent
            } else {
                TermColor::Reset
            };
            let total = chance.map_or(0, |c| (c / 100.0 * (height * 8) as f64).round() as usize);
            for (r, row) in rows.iter_mut().enumerate() {
                // Row 0 is the top.
                let below = (height - 1 - r) * 8;
                let fill = total.saturating_sub(below).min(8);
                let ch = if chance.is_none() {
                    '·'
                } else {
                    EIGHTHS[fill]
                };
                row.push(Span::styled(ch.to_string(), Style::default().fg(fg).bg(bg)));
            }
        }
        let lines: Vec<Line> = rows.into_iter().map(Line::from).collect();
        frame.render_widget(fitted(lines, inner.width), inner);
    }
}
