//! The review's evaluation graph: White's winning chance over the game,
//! filled from the bottom; marked moves in their colour, the cursor's ply
//! highlighted.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color as TermColor, Style};
use ratatui::text::{Line, Span};
use std::time::Duration;

use shakmaty::Color;

use crate::review::Class;
use crate::tui::modes::analyse::{ReviewState, TIME_CHART_HEIGHT};
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
        let mut inner = section(frame, title, area, theme);
        let plies = review.evals.len();
        if plies == 0 || inner.width == 0 || inner.height == 0 {
            return;
        }
        // The move-time chart takes the bottom rows where there is room
        // for it and at least two rows of the graph.
        if let Some(times) = &review.times
            && inner.height >= TIME_CHART_HEIGHT + 2
        {
            inner.height -= TIME_CHART_HEIGHT;
            let chart = Rect {
                y: inner.y + inner.height,
                height: TIME_CHART_HEIGHT,
                ..inner
            };
            self.draw_times(frame, chart, times);
        }
        let width = inner.width as usize;
        let height = inner.height as usize;
        let mut rows: Vec<Vec<Span>> = vec![Vec::new(); height];
        for col in 0..width.min(plies.max(1)) {
            let ply = column_ply(col, plies, width);
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

    /// The move-time chart: a caption (the move on the board and the
    /// longest think) and two rows of bars, a column a position as in the
    /// graph, each bar the time the move into that position took.
    fn draw_times(&self, frame: &mut Frame, area: Rect, times: &[Option<Duration>]) {
        let theme = self.theme;
        let review = self.review;
        let positions = review.evals.len();
        let width = area.width as usize;
        let name = |ply: usize| {
            review.moves.iter().find(|m| m.ply == ply).map(|m| {
                let dots = if m.mover.is_white() { "." } else { "..." };
                format!("{}{dots} {}", m.move_number, m.san)
            })
        };
        let time_of = |ply: usize| ply.checked_sub(1).and_then(|i| times.get(i).copied().flatten());
        let mut caption = vec![Span::styled("time:", Style::default().fg(theme.dim))];
        if let Some(ply) = self.cursor_ply.filter(|&p| p > 0)
            && let Some(name) = name(ply)
        {
            let spent = time_of(ply).map_or("?".to_string(), spent_text);
            caption.push(Span::raw(format!(" {name} {spent}")));
        }
        let longest = (1..positions)
            .filter_map(|p| time_of(p).map(|t| (t, p)))
            .max_by_key(|&(t, p)| (t, std::cmp::Reverse(p)));
        if let Some((t, p)) = longest
            && let Some(name) = name(p)
        {
            let sep = if caption.len() > 1 { " ·" } else { "" };
            caption.push(Span::styled(
                format!("{sep} longest: {name} {}", spent_text(t)),
                Style::default().fg(theme.dim),
            ));
        }
        let most = longest.map_or(Duration::ZERO, |(t, _)| t).as_secs_f64();
        let mut rows: [Vec<Span>; 2] = [Vec::new(), Vec::new()];
        for col in 0..width.min(positions) {
            let ply = column_ply(col, positions, width);
            let eighths = match time_of(ply) {
                Some(t) if most > 0.0 => (t.as_secs_f64() / most * 16.0).round() as usize,
                _ => 0,
            };
            // White's moves in the white pieces' colour, Black's dimmed.
            let white = review
                .moves
                .iter()
                .find(|m| m.ply == ply)
                .map_or(ply % 2 == 1, |m| m.mover.is_white());
            let fg = if white { theme.white_piece } else { theme.dim };
            let bg = if self.cursor_ply == Some(ply) {
                theme.accent
            } else {
                TermColor::Reset
            };
            for (r, row) in rows.iter_mut().enumerate() {
                let fill = eighths.saturating_sub((1 - r) * 8).min(8);
                let ch = if time_of(ply).is_none() && ply > 0 {
                    '·'
                } else {
                    EIGHTHS[fill]
                };
                row.push(Span::styled(ch.to_string(), Style::default().fg(fg).bg(bg)));
            }
        }
        let [top, bottom] = rows;
        let lines = vec![Line::from(caption), Line::from(top), Line::from(bottom)];
        frame.render_widget(fitted(lines, area.width), area);
    }
}

const EIGHTHS: [char; 9] = [' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// The position a column of the graph stands for: one a column, squeezed
/// when the game is longer than the graph is wide.
fn column_ply(col: usize, positions: usize, width: usize) -> usize {
    if positions <= width {
        col
    } else {
        col * (positions - 1) / (width - 1).max(1)
    }
}

/// A think's length: "8s", "1m05s".
fn spent_text(t: Duration) -> String {
    let s = t.as_secs();
    if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}
