//! The analysis board's move list: the game tree with variations, comments
//! and review marks, laid out by `move_rows` (which mouse clicks
//! use too), the cursor's move highlighted.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color as TermColor, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::move_rows::{Kind, move_rows_marked, scroll};
use crate::tui::modes::analyse::Analysis;
use crate::tui::theme::Theme;

use super::eval_graph::class_color;
use crate::tui::widgets::fitted::fitted;
use crate::tui::widgets::section;

pub struct MoveTree<'a> {
    pub analysis: &'a Analysis,
    pub theme: &'a Theme,
    /// No colour (`NO_COLOR`): the cursor's move is drawn in brackets.
    pub no_color: bool,
}

impl MoveTree<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let analysis = self.analysis;
        let theme = self.theme;
        let title = match analysis.tree.nodes[analysis.cursor].comments.is_empty() {
            true => " Moves ".to_string(),
            false => " Moves (c edits the comment) ".to_string(),
        };
        let inner = section(frame, title, area, theme);
        let rows = move_rows_marked(analysis, inner.width, self.no_color);
        if rows.is_empty() {
            frame.render_widget(
                Paragraph::new(Line::styled(
                    "no moves: play one on the board",
                    Style::default().fg(theme.dim),
                )),
                inner,
            );
            return;
        }
        let first = scroll(&rows, analysis.cursor, inner.height as usize);
        let mut lines = Vec::new();
        for row in rows.iter().skip(first).take(inner.height as usize) {
            let mut spans = Vec::new();
            let mut x = 0;
            for token in row {
                if token.x > x {
                    spans.push(Span::raw(" ".repeat((token.x - x) as usize)));
                }
                let mut style = match token.kind {
                    Kind::Number | Kind::Paren => Style::default().fg(theme.dim),
                    Kind::Comment => Style::default().fg(TermColor::Cyan),
                    Kind::Move if token.depth == 0 => Style::default().add_modifier(Modifier::BOLD),
                    Kind::Move => Style::default(),
                };
                if let Some(node) = token.node {
                    if node == analysis.cursor {
                        // Underlined too: without colour the move still stands out.
                        style = style
                            .fg(theme.black_piece)
                            .bg(theme.accent)
                            .add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
                    } else if let Some(class) = analysis.verdict(node).and_then(|v| v.class) {
                        style = style.fg(class_color(class, theme));
                    }
                }
                spans.push(Span::styled(token.text.clone(), style));
                x = token.x + token.text.chars().count() as u16;
            }
            lines.push(Line::from(spans));
        }
        frame.render_widget(fitted(lines, inner.width), inner);
    }
}
