//! Teach mode on a hand-made tree: the tree drawn as a textbook draws it
//! (one row per ply, values from MAX's view, skipped nodes crossed out,
//! the node being searched highlighted), and, where a chess position's
//! board would be, a card for the node the search is at with the legend.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::teach::game_tree::diagram::{Diagram, State, diagram};
use crate::teach::replay::Replay;
use crate::teach::values::{node_window_text, value_text};
use crate::teach::Step;
use crate::tui::theme::Theme;
use crate::tui::widgets::fitted::fitted;
use crate::tui::widgets::section;

/// The tree panel.
pub struct TreeDiagram<'a> {
    pub replay: &'a Replay,
    pub applied: usize,
    pub theme: &'a Theme,
}

/// The rows a tree's panel needs: one per ply, its border.
pub fn rows_needed(replay: &Replay) -> u16 {
    replay
        .tree
        .game_tree
        .as_ref()
        .map_or(0, |tree| tree.height() as u16 + 1 + 2)
}

impl TreeDiagram<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let theme = self.theme;
        let inner = section(frame, " Game tree · values for MAX ", area, theme);
        let Some(diagram) = diagram(self.replay, self.applied) else {
            return;
        };
        // One column apart from whatever stands to the left.
        let inner = Rect {
            x: inner.x + 1,
            width: inner.width.saturating_sub(1),
            ..inner
        };
        let width = usize::from(inner.width);
        // A tree wider than the panel scrolls to keep the node being
        // searched in view; `…` marks a side cut off.
        let focus = diagram
            .rows
            .iter()
            .flatten()
            .find(|c| c.state == State::Current)
            .map_or(0, |c| c.column);
        let offset = if diagram.width <= width {
            0
        } else {
            focus
                .saturating_sub(width / 2)
                .min(diagram.width.saturating_sub(width))
        };
        let lines: Vec<Line> = diagram
            .rows
            .iter()
            .map(|row| self.line(&diagram, row, offset, width))
            .collect();
        frame.render_widget(Paragraph::new(lines), inner);
    }

    fn style(&self, state: State) -> Style {
        let dim = Style::default().fg(self.theme.dim);
        match state {
            State::Current => self.theme.highlight().add_modifier(Modifier::BOLD),
            State::Open => Style::default().add_modifier(Modifier::BOLD),
            State::Done => Style::default(),
            State::Pending | State::Beyond => dim,
            State::Skipped => dim.add_modifier(Modifier::CROSSED_OUT),
        }
    }

    fn line(
        &self,
        diagram: &Diagram,
        row: &[crate::teach::game_tree::diagram::Cell],
        offset: usize,
        width: usize,
    ) -> Line<'static> {
        let mut spans = Vec::new();
        let mut at = 0usize;
        let cut_left = offset > 0;
        let cut_right = diagram.width > offset + width;
        for cell in row {
            let text: String = cell.text.clone();
            let len = text.chars().count();
            if cell.column < offset || cell.column + len > offset + width {
                continue;
            }
            let column = cell.column - offset;
            if column > at {
                spans.push(Span::raw(" ".repeat(column - at)));
            }
            spans.push(Span::styled(text, self.style(cell.state)));
            at = column + len;
        }
        if cut_left && !row.is_empty() {
            spans.insert(0, Span::raw("…"));
        }
        if cut_right && at < width {
            spans.push(Span::raw(" ".repeat(width.saturating_sub(at + 1))));
            spans.push(Span::raw("…"));
        }
        Line::from(spans)
    }
}

/// The card where the board would be: the node the search is at (its
/// name, whose move it is, its window and best so far, from MAX's view)
/// and what the marks in the tree mean.
pub struct TreeCard<'a> {
    pub step: Option<&'a Step>,
    pub theme: &'a Theme,
}

impl TreeCard<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let dim = Style::default().fg(self.theme.dim);
        let mut lines = Vec::new();
        match self.step.and_then(|s| s.current()) {
            Some(node) => {
                let max = node.ply.is_multiple_of(2);
                let name = node.node_name().unwrap_or("?");
                lines.push(Line::from(vec![
                    Span::styled(format!("Node {name}"), Style::default().add_modifier(Modifier::BOLD)),
                    Span::raw(format!(
                        " · {} to move",
                        if max { "MAX" } else { "MIN" }
                    )),
                ]));
                // The window from MAX's view: MIN's is its own negated.
                let (low, high) = if max {
                    (node.alpha, node.beta)
                } else {
                    (-node.beta, -node.alpha)
                };
                // A node cut off says so from MAX's view: a MAX node's
                // best reached beta, a MIN node's fell to alpha.
                let window = if node.alpha >= node.beta {
                    if max {
                        format!("cut off: {} ≥ β {}", node.alpha, node.beta)
                    } else {
                        format!("cut off: {} ≤ α {}", -node.alpha, -node.beta)
                    }
                } else {
                    format!(
                        "α β {}",
                        node_window_text(low, high, 0, shakmaty::Color::White)
                    )
                };
                lines.push(Line::raw(window));
                if let Some((mv, value)) = node.best() {
                    let value = if max { value } else { -value };
                    lines.push(Line::raw(format!(
                        "best so far {} = {}",
                        node.move_name(mv),
                        value_text(value, 0)
                    )));
                }
            }
            None => lines.push(Line::raw("Before the first step")),
        }
        lines.push(Line::raw(""));
        lines.push(Line::styled("? not searched yet", dim));
        lines.push(Line::styled("✗ skipped: cut off", dim));
        lines.push(Line::styled("≤ ≥ a bound, not the", dim));
        lines.push(Line::styled("  exact value", dim));
        let lines: Vec<Line> = lines.into_iter().take(usize::from(area.height)).collect();
        frame.render_widget(fitted(lines, area.width.saturating_sub(1)), area);
    }
}

impl crate::tui::modes::teach::Teach {
    /// The screen in words on a hand-made tree (`:describe`): the node the
    /// search is at, its window and best so far from MAX's view, and the
    /// child being tried.
    pub fn tree_description(&self) -> Vec<String> {
        let _points = self.points();
        let Some(node) = self.ready().and_then(|(_, step)| step.current()) else {
            return vec!["Teach mode on a hand-made game tree, before the first step.".into()];
        };
        let max = node.ply.is_multiple_of(2);
        let (low, high) = if max {
            (node.alpha, node.beta)
        } else {
            (-node.beta, -node.alpha)
        };
        let mut lines = vec![format!(
            "Teach mode on a hand-made game tree: node {}, {} to move, window {} for MAX.",
            node.node_name().unwrap_or("?"),
            if max { "MAX" } else { "MIN" },
            node_window_text(low, high, 0, shakmaty::Color::White)
        )];
        if let Some((mv, value)) = node.best() {
            let value = if max { value } else { -value };
            lines.push(format!("Best so far: {} = {value}.", node.move_name(mv)));
        }
        if let Some(i) = node.current {
            lines.push(format!("Being tried: {}.", node.move_name(node.moves[i].mv)));
        }
        lines
    }
}
