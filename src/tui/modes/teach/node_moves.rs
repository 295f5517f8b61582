//! Teach mode's outline of the current node: what the table said, then
//! each move with what happened to it (searched with its value, being
//! searched, cut off, pruned, pending), the best so far marked. Values are
//! shown from the side to move (as the search sees them, negamax) and from
//! White's view.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use shakmaty::Position;

use crate::engine::trace::{OrderReason, TtBound};
use crate::teach::replay::Bound;
use crate::teach::values::{node_window_text, side_value_text, value_text, white_view_text};
use crate::teach::{Frame as Node, MoveStatus, Step};
use crate::tui::theme::Theme;

use crate::tui::widgets::fitted::fitted;
use crate::tui::widgets::{section, side_name};

/// Pending moves listed by name before the rest are counted.
const PENDING_SHOWN: usize = 3;

pub struct NodeMoves<'a> {
    pub step: Option<&'a Step>,
    pub theme: &'a Theme,
}

impl NodeMoves<'_> {
    pub fn draw(&self, frame: &mut Frame, area: Rect) {
        let theme = self.theme;
        let Some(node) = self.step.and_then(Step::current) else {
            section(frame, " This node ", area, theme);
            return;
        };
        // On a tree the node's name, and whose view its window is in
        // (the diagram's is MAX's).
        let (name, view) = match node.node_name() {
            Some(name) => (
                format!("Node {name}"),
                format!(" for {}", side_name(node.position.turn())),
            ),
            None => (format!("Ply {}", node.ply), String::new()),
        };
        let title = format!(
            " {name} · {} to move · {}{view} ",
            side_name(node.position.turn()),
            node_window_text(node.alpha, node.beta, node.ply, node.position.turn())
        );
        let inner = section(frame, title, area, theme);
        let alpha_beta = self.step.is_some_and(Step::alpha_beta);
        let lines = outline(node, alpha_beta, theme);
        // Keep in view the move being searched, or once the node is done
        // its last lines (the cutoff, the value returned).
        let done = node.returned.is_some() || node.cutoff.is_some();
        let focus = lines
            .iter()
            .position(|(current, _)| *current)
            .unwrap_or(if done {
                lines.len().saturating_sub(1)
            } else {
                0
            });
        let height = usize::from(inner.height).max(1);
        let total = lines.len();
        let first = focus
            .saturating_sub(height.saturating_sub(2))
            .min(total.saturating_sub(height));
        let mut shown: Vec<Line> = lines
            .into_iter()
            .skip(first)
            .take(height)
            .map(|(_, l)| l)
            .collect();
        // Say what does not fit, instead of cutting the outline silently.
        let hidden_below = total - first - shown.len();
        let dim = Style::default().fg(theme.dim);
        if first > 0 && shown.len() > 2 {
            shown[0] = Line::styled(format!(" ⋮ {} more above", first + 1), dim);
        }
        if hidden_below > 0
            && shown.len() > 2
            && let Some(last) = shown.last_mut()
        {
            *last = Line::styled(format!(" ⋮ {} more below", hidden_below + 1), dim);
        }
        frame.render_widget(fitted(shown, inner.width), inner);
    }
}

/// The node's lines; `true` marks the move being searched.
fn outline(node: &Node, alpha_beta: bool, theme: &Theme) -> Vec<(bool, Line<'static>)> {
    let dim = Style::default().fg(theme.dim);
    let accent = Style::default().fg(theme.accent);
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let ply = node.ply;
    let turn = node.position.turn();
    let mut lines: Vec<(bool, Line)> = Vec::new();
    let note = |text: String, style: Style| (false, Line::styled(format!(" {text}"), style));
    if let Some(table) = node.table {
        let entry = table.entry.map(|entry| {
            let bound = match entry.bound {
                TtBound::Exact => "exact",
                TtBound::Lower => "lower bound",
                TtBound::Upper => "upper bound",
            };
            format!(
                "{bound} {}, depth {}",
                value_text(entry.value, ply),
                entry.depth.max(0)
            )
        });
        let first = node
            .moves
            .first()
            .filter(|line| line.reason == Some(OrderReason::HashMove));
        let text = match (table.hit, table.cutoff, entry, table.entry) {
            (false, ..) => "transposition table: not seen before".to_string(),
            (true, true, Some(entry), _) => {
                format!("transposition table: {entry}: answers, no search needed")
            }
            (true, false, Some(text), Some(entry)) => {
                let why = if entry.depth < node.depth.max(0) {
                    "too shallow"
                } else {
                    "does not settle the window"
                };
                let mut text = format!("transposition table: {text}: {why}");
                if let Some(line) = first {
                    text.push_str(&format!(
                        "; its move {} first",
                        node.move_name(line.mv)
                    ));
                } else if !entry.has_move {
                    text.push_str("; no move stored");
                }
                text
            }
            (true, true, ..) => "transposition table: answers, no search needed".to_string(),
            (true, false, ..) => "transposition table: seen, does not settle this node".to_string(),
        };
        lines.push(note(text, dim));
    }
    if let Some(value) = node.stand_pat {
        lines.push(note(format!("stand pat {}", value_text(value, ply)), dim));
    }
    if let Some(value) = node.leaf_eval {
        let text = match &node.tree {
            // A tree's leaf carries its value, MAX's; at the depth limit
            // an inner node takes its estimate.
            Some((tree, id)) if tree.node(*id).is_leaf() => format!(
                "leaf value {} for {} ({} for MAX)",
                value_text(value, ply),
                side_name(turn),
                white_view_text(value, ply, turn)
            ),
            Some(_) => format!(
                "the depth limit: its estimate {} for {} ({} for MAX)",
                value_text(value, ply),
                side_name(turn),
                white_view_text(value, ply, turn)
            ),
            None => format!(
                "static evaluation {} (White {})",
                value_text(value, ply),
                white_view_text(value, ply, turn)
            ),
        };
        lines.push(note(text, bold));
    }
    if let Some(null) = node.null_move {
        let text = match null {
            Some(value) => format!("null move: {} after passing", value_text(value, ply)),
            None => "null move: passing…".to_string(),
        };
        lines.push(note(text, dim));
    }
    if let Some((reason, value)) = node.shortcut {
        lines.push(note(
            format!("{}: {}", reason.label(), value_text(value, ply)),
            bold,
        ));
    }
    let best = node.best().map(|(m, _)| m);
    let reached = &node.moves[..node.reached];
    let last = node.moves.len();
    for (i, line) in reached.iter().enumerate() {
        let branch = if i + 1 == last { "└" } else { "├" };
        let name = node.move_name(line.mv);
        // In check every move is an evasion, whatever its ordering class.
        let why = match line.reason {
            Some(OrderReason::Unordered) if node.tree.is_some() => "tree order".to_string(),
            Some(OrderReason::Evasion) | None => line
                .reason
                .map(|r| r.label().to_string())
                .unwrap_or_default(),
            Some(reason) if node.position.is_check() => {
                format!("check evasion, {}", reason.label())
            }
            Some(reason) => reason.label().to_string(),
        };
        let current = node.current == Some(i);
        let (mark, status, style) = match line.status {
            MoveStatus::Searching => {
                let window = line.window.map(|w| w.label()).unwrap_or_default();
                let again = if line.searches > 1 { ", again" } else { "" };
                (
                    "▶",
                    format!("searching ({window}{again})"),
                    accent.add_modifier(Modifier::BOLD),
                )
            }
            MoveStatus::Searched(value) => {
                // A bound from White's view turns round with the sign.
                let white_bound = match (line.bound, turn.is_white()) {
                    (bound, true) => bound,
                    (Bound::AtMost, false) => Bound::AtLeast,
                    (Bound::AtLeast, false) => Bound::AtMost,
                    (Bound::Exact, false) => Bound::Exact,
                };
                // A mate names its side already; pawns need "White".
                let white = white_view_text(value, ply, turn);
                let white = if white.contains("mate") {
                    format!("{}{white}", white_bound.sign())
                } else {
                    format!(
                        "{} {}{white}",
                        side_name(shakmaty::Color::White),
                        white_bound.sign()
                    )
                };
                let mut text = format!(
                    "{:>10}  {white}",
                    format!("{}{}", line.bound.sign(), value_text(value, ply)),
                );
                if line.by_table {
                    text.push_str(" · table");
                }
                if line.quiescence {
                    text.push_str(" · quiescence");
                }
                let style = if Some(line.mv) == best {
                    bold
                } else {
                    Style::default()
                };
                (if Some(line.mv) == best { "★" } else { "✓" }, text, style)
            }
            MoveStatus::Pruned(reason) => ("×", format!("skipped: {}", reason.label()), dim),
            MoveStatus::CutOff | MoveStatus::Pending => ("·", String::new(), dim),
        };
        lines.push((
            current,
            Line::from(vec![
                Span::styled(format!(" {branch}{mark} "), style),
                Span::styled(format!("{name:<7} "), style),
                Span::styled(status, style),
                Span::styled(
                    if why.is_empty() {
                        String::new()
                    } else {
                        format!("  {why}")
                    },
                    dim,
                ),
            ]),
        ));
    }
    let rest = &node.moves[node.reached..];
    if !rest.is_empty() {
        let names: Vec<String> = rest
            .iter()
            .take(PENDING_SHOWN)
            .map(|l| node.move_name(l.mv))
            .collect();
        let more = if rest.len() > PENDING_SHOWN {
            " …"
        } else {
            ""
        };
        let cut = rest.iter().all(|l| l.status == MoveStatus::CutOff);
        let text = if cut {
            format!(
                " └✂ {} move{} cut off, never searched: {}{more}",
                rest.len(),
                if rest.len() == 1 { "" } else { "s" },
                names.join(" ")
            )
        } else {
            format!(" └· {} pending: {}{more}", rest.len(), names.join(" "))
        };
        lines.push((false, Line::styled(text, if cut { accent } else { dim })));
    }
    if let Some(value) = node.returned {
        let text = if ply == 0 {
            // The root has no parent: its value is the search's result.
            format!("the search's value: {}", side_value_text(value, 0, turn))
        } else {
            // A bound turns round with the sign: each side is named, so
            // "≤" here and "≥" beside the move in the parent's list (and in
            // the tree) read as the one fact they are.
            let bound = node.value_bound(value, alpha_beta);
            format!(
                "returns {}{} for {} (its parent sees {}{} for {})",
                bound.sign(),
                value_text(value, ply),
                side_name(turn),
                bound.flipped().sign(),
                value_text(-value, ply - 1),
                side_name(!turn)
            )
        };
        lines.push(note(text, bold));
    }
    lines
}
