//! Teach mode's tree view (`v`, `:tree`): the tree the search has explored
//! up to the current step, as a foldable outline, with the best line as it
//! forms above it. Nodes the search has not reached yet are not shown; the
//! current node is highlighted and followed. By default the current path
//! is open and everything else folded (the current node is marked `▶`, the
//! cursor `▸`); Enter, Space or `z` fold and unfold
//! the node under the cursor, `Z` folds all but the current path again, ↑↓
//! move the cursor, `J` takes the step to the node under the cursor, `w`
//! shows every value from White's view (minimax) instead of the mover's.
//! What a node skipped unsearched is one line under its children ("7
//! skipped: 4 cut off by Kf4, 3 futility pruning"), folded: Enter (Space,
//! `z`) on it names the moves, each with the rule that skipped it.

use std::collections::HashSet;

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::teach::replay::Replay;
use crate::teach::tree::{NodeId, Row, SearchTree, Values};
use crate::teach::values::{count_text, value_text};
use crate::tui::theme::Theme;
use crate::tui::widgets::fitted::fitted;
use crate::tui::widgets::section;

/// The tree view's state: shown or not, which nodes the learner opened or
/// closed, where its cursor is, how values are shown.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TreeView {
    pub shown: bool,
    /// Opened by the learner (off the current path).
    opened: HashSet<NodeId>,
    /// Closed by the learner (on the current path).
    closed: HashSet<NodeId>,
    /// Nodes whose skipped moves the learner unfolded.
    skipped_open: HashSet<NodeId>,
    /// The row the learner moved to; `None` follows the current node.
    cursor: Option<Row>,
    pub values: Values,
}

/// What a tree key asks of the lesson.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TreeKey {
    /// Done in the view.
    Taken,
    /// Not a tree key.
    NotTaken,
    /// Go to the step after this many events.
    Seek(usize),
}

impl TreeView {
    /// Whether node `id` shows its children at step `applied`.
    fn open(&self, tree: &SearchTree, path: &[NodeId], id: NodeId) -> bool {
        if self.opened.contains(&id) {
            return true;
        }
        (!self.closed.contains(&id) && path.contains(&id)) || tree.node(id).children.is_empty()
    }

    /// The outline's rows at step `applied`, and the current node's path.
    pub fn rows(&self, tree: &SearchTree, applied: usize) -> (Vec<Row>, Vec<NodeId>) {
        let path = tree
            .current(applied)
            .map(|id| tree.path(id))
            .unwrap_or_default();
        let rows = tree.outline(
            applied,
            &|id| self.open(tree, &path, id),
            &|id| self.skipped_open.contains(&id),
        );
        (rows, path)
    }

    /// The row the cursor is on: the learner's, or the current node's.
    fn cursor_row(&self, rows: &[Row], path: &[NodeId]) -> Option<usize> {
        if let Some(cursor) = self.cursor
            && let Some(at) = rows.iter().position(|&r| r == cursor)
        {
            return Some(at);
        }
        // The deepest node of the path that is on screen.
        path.iter()
            .rev()
            .find_map(|&id| rows.iter().position(|&r| r == Row::Node(id)))
    }

    /// Stepping moved the search on: the cursor follows the current node.
    pub fn follow(&mut self) {
        self.cursor = None;
    }

    /// A key while the view is shown.
    pub fn key(&mut self, replay: &Replay, applied: usize, key: KeyEvent) -> TreeKey {
        let tree = &replay.tree;
        let (rows, path) = self.rows(tree, applied);
        let at = self.cursor_row(&rows, &path);
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => {
                if let Some(at) = at {
                    self.cursor = rows.get(at.saturating_sub(1)).copied();
                }
            }
            KeyCode::Down | KeyCode::Char('j') => {
                if let Some(at) = at {
                    self.cursor = rows.get((at + 1).min(rows.len().saturating_sub(1))).copied();
                }
            }
            KeyCode::Enter | KeyCode::Char(' ' | 'z') => {
                match at.and_then(|at| rows.get(at)).copied() {
                    Some(Row::Node(id)) => {
                        self.cursor = Some(Row::Node(id));
                        if self.open(tree, &path, id) {
                            self.opened.remove(&id);
                            self.closed.insert(id);
                        } else {
                            self.closed.remove(&id);
                            self.opened.insert(id);
                        }
                    }
                    // On the skipped line or one of its moves: unfold or
                    // fold the moves, the cursor on the line.
                    Some(
                        Row::Skipped { parent }
                        | Row::Pruned { parent, .. }
                        | Row::CutOff { parent, .. },
                    ) => {
                        self.cursor = Some(Row::Skipped { parent });
                        if !self.skipped_open.remove(&parent) {
                            self.skipped_open.insert(parent);
                        }
                    }
                    None => {}
                }
            }
            KeyCode::Char('Z') => {
                self.opened.clear();
                self.closed.clear();
                self.skipped_open.clear();
                self.cursor = None;
            }
            KeyCode::Char('J') => {
                let target = match at.and_then(|at| rows.get(at)).copied() {
                    Some(row) => tree.row_step(row) as usize + 1,
                    None => return TreeKey::Taken,
                };
                self.cursor = None;
                return TreeKey::Seek(target);
            }
            KeyCode::Char('w') => {
                self.values = match self.values {
                    Values::Negamax => Values::Minimax,
                    Values::Minimax => Values::Negamax,
                };
            }
            _ => return TreeKey::NotTaken,
        }
        TreeKey::Taken
    }

    /// Draw the view: the best line and, with iterative deepening, each
    /// finished depth's; then the outline around the cursor.
    pub fn draw(&self, replay: &Replay, applied: usize, frame: &mut Frame, area: Rect, theme: &Theme) {
        let tree = &replay.tree;
        let (rows, path) = self.rows(tree, applied);
        let current = path.last().copied();
        // Whose view the values are, where it fits: a node's own panel and
        // caption speak for its side to move, the tree for the side that
        // moved into it (so a bound's sign turns between them).
        let view = match self.values {
            Values::Negamax => " · values for the side that moved",
            Values::Minimax => " · values from White's view",
        };
        let count = match current {
            Some(id) => format!(
                " · node {} of {}",
                count_text(u64::from(id) + 1),
                count_text(tree.len() as u64)
            ),
            None => String::new(),
        };
        // In a narrow panel the view is said in fewer words, not dropped.
        let short_view = match self.values {
            Values::Negamax => " · mover's values",
            Values::Minimax => " · White's view",
        };
        let title = [
            format!(" Search tree{count}{view} "),
            format!(" Search tree{count}{short_view} "),
            format!(" Tree{count}{short_view} "),
        ]
        .into_iter()
        .find(|t| t.chars().count() + 2 <= usize::from(area.width))
        .unwrap_or_else(|| format!(" Search tree{count} "));
        let inner = section(frame, title, area, theme);
        if inner.height == 0 {
            return;
        }
        let mut lines = self.pv_lines(tree, applied);
        // The PV strip keeps at most a third of the room.
        lines.truncate(usize::from(inner.height / 3).max(1));
        let pv = tree.best_line(applied);
        let focus = self.cursor_row(&rows, &path).unwrap_or(0);
        // The focus row in full under the outline where the panel cuts it
        // (a narrow panel cuts the marks; moving the cursor reads any row).
        let detail = rows
            .get(focus)
            .map(|&row| tree.row_text(row, applied, self.values, &pv))
            .filter(|parts| {
                parts.line().chars().count() + 1 > usize::from(inner.width)
            })
            .map(|parts| {
                let full = parts.line();
                wrap_words(full.trim_start(), usize::from(inner.width).saturating_sub(2))
            })
            .unwrap_or_default();
        let detail: Vec<String> = detail
            .into_iter()
            .take(usize::from(inner.height / 4))
            .collect();
        let room = usize::from(inner.height)
            .saturating_sub(lines.len() + detail.len())
            .max(1);
        // The focus a third of the way down: the search goes deeper below.
        let first = focus
            .saturating_sub(room / 3)
            .min(rows.len().saturating_sub(room));
        for (at, &row) in rows.iter().enumerate().skip(first).take(room) {
            let mut parts = tree.row_text(row, applied, self.values, &pv);
            // The skipped line says whether it is folded, as an outline's
            // `+` and `-` do.
            if let Row::Skipped { parent } = row {
                let sign = if self.skipped_open.contains(&parent) {
                    '-'
                } else {
                    '+'
                };
                parts.label = format!("{sign} {}", parts.label);
            }
            let text = parts.line();
            let is_current = matches!(row, Row::Node(id) if Some(id) == current);
            let is_cursor = self.cursor.is_some() && at == focus;
            // The current node is marked by shape as well as by its
            // highlight, which a terminal without colour may not show.
            let marker = if is_current {
                "▶"
            } else if is_cursor {
                "▸"
            } else {
                " "
            };
            let style = if is_current {
                theme.highlight()
            } else if !matches!(row, Row::Node(_)) {
                Style::default().fg(theme.dim)
            } else {
                Style::default()
            };
            let style = if is_cursor {
                style.add_modifier(Modifier::BOLD)
            } else {
                style
            };
            lines.push(Line::from(vec![
                Span::raw(marker),
                Span::styled(text, style),
            ]));
        }
        let detail_style = Style::default().fg(theme.dim).add_modifier(Modifier::ITALIC);
        let under = usize::from(inner.height).saturating_sub(detail.len());
        for (y, line) in lines.into_iter().enumerate().take(under) {
            let rect = Rect::new(inner.x, inner.y + y as u16, inner.width, 1);
            frame.render_widget(fitted(line, inner.width), rect);
        }
        for (i, text) in detail.into_iter().enumerate() {
            let y = inner.y + (under + i) as u16;
            let rect = Rect::new(inner.x, y, inner.width, 1);
            let line = Line::styled(format!("  {text}"), detail_style);
            frame.render_widget(fitted(line, inner.width), rect);
        }
    }

    /// The best line now, then (with iterative deepening) each finished
    /// depth's, newest first.
    fn pv_lines(&self, tree: &SearchTree, applied: usize) -> Vec<Line<'static>> {
        let mut lines = Vec::new();
        let roots: Vec<NodeId> = tree
            .roots
            .iter()
            .copied()
            .filter(|&r| tree.node(r).seen(applied))
            .collect();
        for (i, &root) in roots.iter().rev().enumerate() {
            let line = tree.pv(root, applied);
            let finished = tree.node(root).value_at(applied);
            let label = match (i, tree.node(root).iteration) {
                (0, _) if finished.is_none() => "PV so far".to_string(),
                (_, Some(depth)) => format!("PV depth {depth}"),
                (_, None) => "PV".to_string(),
            };
            let value = match finished {
                Some((value, bound)) => format!(" ({}{})", bound.sign(), value_text(value, 0)),
                None => String::new(),
            };
            let moves = match tree.line_text(&line) {
                text if text.is_empty() => "no move finished yet".to_string(),
                text => text,
            };
            lines.push(Line::from(vec![
                Span::styled(
                    format!(" {label}: "),
                    Style::default().add_modifier(Modifier::BOLD),
                ),
                Span::raw(format!("{moves}{value}")),
            ]));
        }
        lines
    }
}

/// `text` in rows of at most `width` columns, broken between words (a word
/// wider than a row keeps a row of its own, cut by the panel).
fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let mut rows: Vec<String> = Vec::new();
    let mut row = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let len = row.chars().count();
        if len > 0 && len + 1 + word.chars().count() > width {
            rows.push(std::mem::take(&mut row));
        }
        if !row.is_empty() {
            row.push(' ');
        }
        row.push_str(word);
    }
    if !row.is_empty() {
        rows.push(row);
    }
    rows
}
