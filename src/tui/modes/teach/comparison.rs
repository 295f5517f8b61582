//! Teach mode's comparison: the same position and depth searched by five
//! methods, one technique more each, with the root value and the work.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::teach::compare::Outcome;
use crate::teach::values::value_text;
use crate::tui::modes::teach::{Teach, method_labels};
use crate::tui::theme::Theme;

use crate::tui::widgets::fitted::fitted;
use crate::tui::widgets::{human_count, section};

pub struct Comparison<'a> {
    pub teach: &'a Teach,
    pub theme: &'a Theme,
}

impl Comparison<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let theme = self.theme;
        let dim = Style::default().fg(theme.dim);
        let tree = self.teach.is_tree();
        let what = if tree { "tree" } else { "position" };
        let title = format!(" Same {what}, depth {} ", self.teach.setup.depth);
        let inner = section(frame, title, area, theme);
        // Leaves where there is room for them.
        let wide = inner.width >= 38;
        // A narrow tree's table shows leaves, the figure its lessons count.
        let (count, narrow_label) = if tree { (1, "leaves") } else { (0, "nodes") };
        let header = if wide {
            format!(
                "{:<13}{:>7}{:>9}{:>9}",
                "method", "value", "nodes", "leaves"
            )
        } else {
            // A tree's values are short: room for "leaves".
            match tree {
                true => format!("{:<12} {:>6} {:>6}", "method", "value", narrow_label),
                false => format!("{:<12} {:>7} {:>5}", "method", "value", narrow_label),
            }
        };
        let mut lines = vec![Line::styled(header, dim)];
        if self.teach.predict.on {
            // The values would answer predict mode's questions.
            lines.push(Line::styled("hidden while predicting: P shows them", dim));
            frame.render_widget(fitted(lines, inner.width), inner);
            return;
        }
        for (label, outcome) in method_labels(tree).iter().zip(&self.teach.comparison) {
            let text = match outcome {
                None => format!("{label:<13}{:>7}", "…"),
                Some(Outcome::Done {
                    value,
                    nodes,
                    leaves,
                }) if wide => format!(
                    "{label:<13}{:>7}{:>9}{:>9}",
                    value_text(*value, 0),
                    human_count(*nodes),
                    human_count(*leaves)
                ),
                Some(Outcome::Done { value, leaves, .. }) if tree => {
                    format!("{label:<12} {:>6} {:>6}", value_text(*value, 0), leaves)
                }
                Some(Outcome::Done { value, nodes, leaves }) => format!(
                    "{label:<12} {:>7} {:>5}",
                    // Narrow: a mate in 2 as #2.
                    value_text(*value, 0)
                        .replace("mated in ", "-#")
                        .replace("mate in ", "#"),
                    human_count([*nodes, *leaves][count]),
                ),
                Some(Outcome::TooLarge { cap }) => {
                    format!(
                        "{label:<13}{:>7} more than {} nodes",
                        "?",
                        human_count(*cap)
                    )
                }
                Some(Outcome::Cancelled) => format!("{label:<13}{:>7}", "-"),
            };
            let style = if label.starts_with('+') {
                Style::default()
            } else {
                Style::default().add_modifier(Modifier::BOLD)
            };
            lines.push(Line::from(Span::styled(text, style)));
        }
        frame.render_widget(fitted(lines, inner.width), inner);
    }
}
