//! Teach mode's path from the root to the node being searched: at each
//! ply the move that led there (SAN), the side to move, the depth left and
//! the window [alpha, beta] as it stands.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use shakmaty::Position;

use crate::teach::caption::san;
use crate::teach::values::node_window_text;
use crate::teach::{Step, Via};
use crate::tui::theme::Theme;

use crate::tui::widgets::fitted::fitted;
use crate::tui::widgets::{section, side_name};

pub struct SearchPath<'a> {
    pub step: Option<&'a Step>,
    pub theme: &'a Theme,
}

impl SearchPath<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let theme = self.theme;
        let inner = section(frame, " Path from the root ", area, theme);
        let Some(step) = self.step else {
            return;
        };
        let dim = Style::default().fg(theme.dim);
        let mut lines = Vec::new();
        for (i, node) in step.frames.iter().enumerate() {
            let reached = match (node.via, i.checked_sub(1)) {
                (Via::Move(m), Some(parent)) if node.tree.is_some() => {
                    step.frames[parent].move_name(m)
                }
                (Via::Move(m), Some(parent)) => {
                    let before = &step.frames[parent].position;
                    let number = before.fullmoves().get();
                    let dots = if before.turn().is_white() { "." } else { "..." };
                    format!("{number}{dots} {}", san(before, m))
                }
                (Via::Pass, _) => "(pass)".to_string(),
                (Via::Singular, _) => "(singular test)".to_string(),
                (Via::Verification, _) => "(null move verified)".to_string(),
                _ => "root".to_string(),
            };
            let kind = if node.quiescence {
                "quiescence".to_string()
            } else if node.depth <= 0 {
                "horizon".to_string()
            } else {
                format!("depth {}", node.depth)
            };
            let null = if node.beta.saturating_sub(node.alpha) == 1 {
                " null window"
            } else {
                ""
            };
            let last = i + 1 == step.frames.len();
            let style = if last {
                Style::default().add_modifier(Modifier::BOLD)
            } else {
                Style::default()
            };
            lines.push(Line::from(vec![
                Span::styled(format!("{:>2} ", node.ply), dim),
                Span::styled(format!("{reached:<12}"), style),
                Span::styled(format!("{} ", side_name(node.position.turn())), dim),
                Span::raw(format!("{kind:<10} ")),
                Span::styled(
                    node_window_text(node.alpha, node.beta, node.ply, node.position.turn()),
                    style,
                ),
                Span::styled(null, Style::default().fg(theme.accent)),
            ]));
        }
        // The deepest plies matter most: keep them in view.
        let skip = lines.len().saturating_sub(usize::from(inner.height));
        frame.render_widget(fitted(lines.split_off(skip), inner.width), inner);
    }
}
