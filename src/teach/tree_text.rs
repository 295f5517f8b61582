//! The words of the search tree's outline: each row's move, value,
//! window and marks (a cutoff, a table answer, a pruned move), and the
//! whole outline as text for `kibitz trace --tree`. The tree itself, its
//! nodes and which of them a step shows, is in `tree.rs`; the teach mode's
//! tree view draws these rows.

use shakmaty::{Color, Move, Position};

use super::step::{Bound, Via};
use super::tree::{NodeId, NodeKind, PrunedMove, Row, SearchTree, Values};
use super::values::{count_text, value_text, window_text};
use crate::engine::trace::{Estimate, OrderReason, Pruning, ReSearchReason, Shortcut};
use crate::game::notation::san_line;

impl SearchTree {
    /// A line of nodes in SAN, from the position before the first.
    pub fn line_text(&self, line: &[NodeId]) -> String {
        let Some(&first) = line.first() else {
            return String::new();
        };
        if self.game_tree.is_some() {
            // A tree's line: its nodes' names.
            return line
                .iter()
                .filter_map(|&id| match (self.node(id).via, self.node(id).parent) {
                    (Via::Move(m), Some(parent)) => Some(self.move_name(parent, m)),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join(" ");
        }
        let start = match self.node(first).parent {
            Some(parent) => self.position(parent),
            None => self.root.clone(),
        };
        let moves: Vec<Move> = line
            .iter()
            .filter_map(|&id| match self.node(id).via {
                Via::Move(m) => Some(m),
                _ => None,
            })
            .collect();
        san_line(&start, &moves).join(" ")
    }

    /// The text of one row at step `applied`: the kind letter (once known),
    /// the move, the value as `values` shows it, the window the move was
    /// searched with, and what happened. `pv`: the nodes of the best line.
    pub fn row_text(&self, row: Row, applied: usize, values: Values, pv: &[NodeId]) -> RowText {
        let skipped_row = |parent: NodeId, label: String, marks: String| RowText {
            ply: self.level(parent) + 1,
            kind: ' ',
            label,
            value: String::new(),
            window: String::new(),
            size: String::new(),
            marks,
        };
        match row {
            Row::Skipped { parent } => {
                skipped_row(parent, self.skipped_text(parent, applied), String::new())
            }
            Row::Pruned { parent, index } => {
                let PrunedMove {
                    mv, rule, estimate, ..
                } = self.pruned(parent)[index];
                let mut marks = format!("pruned: {}", rule.label());
                if let Some((estimate, alpha)) = estimate {
                    marks.push_str(": ");
                    marks.push_str(&self.estimate_text(parent, estimate, alpha, values));
                }
                skipped_row(parent, self.move_name(parent, mv), marks)
            }
            Row::CutOff { parent, index } => {
                let mv = self.cut_off(parent).get(index).copied();
                let by = self.node(parent).cutoff.map(|(_, by, _)| by);
                let san = |m: Move| self.move_name(parent, m);
                skipped_row(
                    parent,
                    mv.map(san).unwrap_or_default(),
                    match by {
                        Some(by) => format!("cut off by {} (beta reached)", san(by)),
                        None => "cut off".to_string(),
                    },
                )
            }
            Row::Node(id) => self.node_text(id, applied, values, pv),
        }
    }

    /// The line that sums up what node `id` skipped by step `applied`:
    /// `7 skipped: 4 cut off by Kf4, 2 late-move pruning, 1 futility
    /// pruning` (rules in the order they first struck), or with one rule
    /// `7 skipped: cut off by Kf4`.
    pub fn skipped_text(&self, id: NodeId, applied: usize) -> String {
        let (pruned, cut) = self.skipped_at(id, applied);
        let mut parts: Vec<(String, usize)> = Vec::new();
        if cut > 0
            && let Some((_, by, _)) = self.node(id).cutoff
        {
            parts.push((format!("cut off by {}", self.move_name(id, by)), cut));
        }
        for &index in &pruned {
            let rule = self.pruned(id)[index].rule.label();
            match parts.iter_mut().find(|(r, _)| r == rule) {
                Some((_, n)) => *n += 1,
                None => parts.push((rule.to_string(), 1)),
            }
        }
        let total = count_text((pruned.len() + cut) as u64);
        match parts.as_slice() {
            [(rule, _)] => format!("{total} skipped: {rule}"),
            _ => {
                let parts: Vec<String> = parts
                    .iter()
                    .map(|(rule, n)| format!("{} {rule}", count_text(*n as u64)))
                    .collect();
                format!("{total} skipped: {}", parts.join(", "))
            }
        }
    }

    /// A pruned move's estimate in its parts, from the side to move at
    /// node `id` (the side that would have played it): `static +0.10 +
    /// margin 1.20 = +1.30 ≤ alpha +1.75`. In White's view a Black node's
    /// says whose view it is.
    fn estimate_text(&self, id: NodeId, estimate: Estimate, alpha: i32, values: Values) -> String {
        let ply = self.node(id).ply;
        let what = if self.node(id).quiescence {
            "stand pat"
        } else {
            "static"
        };
        let gain = match estimate.gain {
            0 => String::new(),
            gain => format!(" + capture {}", unsigned(i32::from(gain))),
        };
        let text = format!(
            "{what} {}{gain} + margin {} = {} ≤ alpha {}",
            value_text(estimate.static_eval, ply),
            unsigned(i32::from(estimate.margin)),
            value_text(estimate.bound(), ply),
            value_text(alpha, ply),
        );
        match values {
            Values::Minimax if !self.turn_at(id).is_white() => format!("{text} (Black's view)"),
            _ => text,
        }
    }

    fn node_text(&self, id: NodeId, applied: usize, values: Values, pv: &[NodeId]) -> RowText {
        let node = self.node(id);
        // The side that chose the move into this node, and the ply its
        // values are read at: the parent's (the root speaks for itself).
        let (mover, view_ply, sign) = match node.parent {
            Some(_) => (!self.turn_at(id), node.ply - 1, -1),
            None => (self.turn_at(id), 0, 1),
        };
        let label = match (node.via, node.parent) {
            (Via::Move(m), Some(parent)) => self.move_name(parent, m),
            (Via::Pass, _) => "pass".to_string(),
            (Via::Singular, _) => "singular test: without the table's move".to_string(),
            (Via::Verification, _) => {
                "null move verified: the real moves, no null move below".to_string()
            }
            _ => match node.iteration {
                Some(depth) => format!("root, depth {depth}"),
                None => "root".to_string(),
            },
        };
        let label = match (values, node.parent) {
            (Values::Minimax, Some(_)) => {
                format!("{} {label}", if mover.is_white() { "MAX" } else { "MIN" })
            }
            _ => label,
        };
        let finished = node.value_at(applied);
        let kind = finished.map_or(' ', |(value, bound)| {
            let cut = node
                .cutoff
                .is_some_and(|(at, _, _)| (at as usize) < applied);
            NodeKind::of(value, bound, (node.alpha, node.beta), cut).letter()
        });
        let value = match finished {
            None => "…".to_string(),
            Some((value, bound)) => {
                // From the mover's view the sign turns and so does the bound.
                let (shown, bound) = match sign {
                    1 => (value, bound),
                    _ => (-value, bound.flipped()),
                };
                match values {
                    Values::Negamax => format!("{}{}", bound.sign(), value_text(shown, view_ply)),
                    Values::Minimax => {
                        let white = if mover.is_white() { shown } else { -shown };
                        let bound = if mover.is_white() {
                            bound
                        } else {
                            bound.flipped()
                        };
                        format!("{}{}", bound.sign(), value_text(white, view_ply))
                    }
                }
            }
        };
        let (low, high) = match sign {
            1 => (node.alpha, node.beta),
            _ => (-node.beta, -node.alpha),
        };
        let window = match values {
            Values::Negamax => window_text(low, high, view_ply, mover),
            Values::Minimax if mover.is_white() => window_text(low, high, view_ply, mover),
            Values::Minimax => window_text(-high, -low, view_ply, Color::White),
        };
        // A value from the node's own side to move, as this row shows
        // values.
        let in_view = |v: i32| {
            let shown = sign * v;
            match values {
                Values::Minimax if !mover.is_white() => value_text(-shown, view_ply),
                _ => value_text(shown, view_ply),
            }
        };
        let mut marks = Vec::new();
        if pv.contains(&id) {
            marks.push("PV".to_string());
        }
        if let Some((at, mv, skipped)) = node.cutoff
            && (at as usize) < applied
        {
            let san = self.move_name(id, mv);
            marks.push(match skipped {
                0 => format!("cut by {san}"),
                n => format!("cut by {san}, {} skipped", count_text(u64::from(n))),
            });
        }
        if node.table.is_some_and(|at| (at as usize) < applied) {
            marks.push("table answered".to_string());
        }
        if let Some((at, reason)) = node.shortcut
            && (at as usize) < applied
        {
            marks.push(reason.label().to_string());
        }
        if let Some(mark) = self.game_over_mark(id, applied) {
            marks.push(mark);
        }
        if let Some((value, Bound::AtMost)) = finished
            && let Some(mark) = self.futility_mark(id, value, applied)
        {
            marks.push(mark);
        }
        if node.quiescence {
            marks.push("quiescence".to_string());
        }
        if let Some((at, value)) = node.evaluation
            && (at as usize) < applied
        {
            let what = if node.quiescence {
                "stand pat"
            } else {
                "static"
            };
            marks.push(format!("{what} {}", in_view(value)));
        }
        match node.greer {
            Some(OrderReason::TableMove) => marks.push("table move".to_string()),
            Some(OrderReason::MoveChain) => marks.push("move chain".to_string()),
            _ => {}
        }
        match node.research {
            Some(ReSearchReason::FailedHigh) => marks.push("re-search, full window".to_string()),
            Some(ReSearchReason::Reduced) => marks.push("re-search, full depth".to_string()),
            None => {}
        }
        let decided = node
            .cutoff
            .is_some_and(|(at, _, _)| (at as usize) < applied)
            || node.shortcut.is_some_and(|(at, _)| (at as usize) < applied)
            || node.table.is_some_and(|at| (at as usize) < applied);
        if finished.is_none() && !decided {
            marks.push("searching".to_string());
        }
        let size = self.size_at(id, applied);
        RowText {
            ply: self.level(id),
            kind,
            label,
            value,
            window,
            size: match size {
                1 => "1 node".to_string(),
                n => format!("{} nodes", count_text(u64::from(n))),
            },
            marks: marks.join(", "),
        }
    }

    /// A node whose position is checkmate or stalemate but that the search
    /// ended by another rule first (the selective search's null move or
    /// reverse futility, quiescence standing pat, the table, the horizon):
    /// what the position really is, once the node returned.
    fn game_over_mark(&self, id: NodeId, applied: usize) -> Option<String> {
        let node = self.node(id);
        node.value_at(applied)?;
        if node
            .shortcut
            .is_some_and(|(_, r)| matches!(r, Shortcut::Checkmate | Shortcut::Stalemate))
        {
            return None;
        }
        let position = self.position(id);
        if !position.legal_moves().is_empty() {
            return None;
        }
        let what = if position.is_check() {
            "checkmate"
        } else {
            "stalemate"
        };
        let by = match node.shortcut {
            Some((_, reason)) => reason.label(),
            None if node.table.is_some() => "the table's answer",
            None if node.quiescence => "standing pat",
            None => "the static evaluation",
        };
        Some(format!("in fact {what}, not tested: {by} came first"))
    }

    /// A node that failed low with a value above every move it searched:
    /// the value is the futility bound that covers the moves futility
    /// pruning skipped (the static evaluation plus a margin, the most they
    /// could score), which the outline says, since its children do not
    /// show it.
    fn futility_mark(&self, id: NodeId, value: i32, applied: usize) -> Option<String> {
        let node = self.node(id);
        if !self.pruned(id).iter().any(|p| p.rule == Pruning::Futility) {
            return None;
        }
        let best_child = node
            .children
            .iter()
            .filter(|&&c| matches!(self.node(c).via, Via::Move(_)))
            .filter_map(|&c| self.node(c).value_at(applied))
            .map(|(v, _)| -v)
            .max();
        if best_child.is_some_and(|best| best >= value) {
            return None;
        }
        let side = if self.turn_at(id).is_white() {
            "White"
        } else {
            "Black"
        };
        Some(format!(
            "futility: its skipped moves could reach {} for {side}",
            value_text(value, node.ply)
        ))
    }

    /// The whole tree as text, one line a node with the step that enters
    /// it: what `kibitz trace --tree` prints.
    pub fn outline_text(&self, values: Values) -> String {
        let applied = usize::MAX;
        let rows = self.rows(applied, &|_| true);
        let pv = self.best_line(applied);
        let mut text = String::new();
        for row in rows {
            let step = self.row_step(row) + 1;
            let line = self.row_text(row, applied, values, &pv).line();
            text.push_str(&format!("{step:>7}  {line}\n"));
        }
        text
    }
}

impl SearchTree {
    /// The index of the event that shows row `row`: a node's entry, a
    /// pruned move's pruning, the cutoff that skipped the rest (for the
    /// line that sums up what a node skipped, the last of these).
    pub fn row_step(&self, row: Row) -> u32 {
        let cutoff = |parent: NodeId| self.node(parent).cutoff.map_or(0, |(at, _, _)| at);
        match row {
            Row::Node(id) => self.node(id).enter,
            Row::Pruned { parent, index } => self.pruned(parent)[index].at,
            Row::CutOff { parent, .. } => cutoff(parent),
            Row::Skipped { parent } => {
                let pruned = self.pruned(parent).last().map_or(0, |p| p.at);
                pruned.max(cutoff(parent))
            }
        }
    }
}

/// Centipawns as pawns without a sign: a margin, a gain.
fn unsigned(centipawns: i32) -> String {
    let text = super::values::pawns(centipawns);
    text.trim_start_matches('+').to_string()
}

/// The parts of one outline line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowText {
    /// How deep the row is in the tree: its ply, one more under each
    /// singular test above it (a test searches its parent's own position,
    /// and its row goes under the parent's).
    pub ply: u32,
    /// `P`, `C` or `A` once the node returned (see [`NodeKind`]).
    pub kind: char,
    pub label: String,
    pub value: String,
    pub window: String,
    /// The nodes of its subtree seen so far, itself included (a node row).
    pub size: String,
    pub marks: String,
}

impl RowText {
    /// The line as the outline writes it: two columns of indent a ply.
    pub fn line(&self) -> String {
        let indent = "  ".repeat(self.ply as usize);
        let mut line = format!("{indent}{} {}", self.kind, self.label);
        // The size last: what happened at the node matters more where a
        // narrow panel cuts the line.
        for part in [&self.value, &self.window, &self.marks, &self.size] {
            if !part.is_empty() {
                line.push_str("  ");
                line.push_str(part);
            }
        }
        line
    }
}
