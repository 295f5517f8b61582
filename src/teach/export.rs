//! A lesson written out (`:export` in teach mode): the position, the
//! settings, the path from the root with its windows, the tree around the
//! current node, what the step did, the statistics and the comparison, as
//! Markdown a teacher can hand out or paste into notes.

use std::fmt::Write;

use shakmaty::EnPassantMode;
use shakmaty::fen::Fen;
use shakmaty::{Color, Position};

use super::caption::caption;
use super::compare::{Outcome, methods};
use super::replay::Replay;
use super::step::{Step, Via};
use super::tree::{Row, Values};
use super::values::{count_of, count_text, node_window_text, value_text};
use crate::game::describe::diagram;

/// How deep below the current node the exported tree goes.
pub const TREE_DEPTH: u32 = 2;

/// The lesson at `step` of `replay`, titled `title`, with the comparison's
/// rows as far as they came in.
pub fn lesson_markdown(
    replay: &Replay,
    step: &Step,
    title: &str,
    comparison: &[Option<Outcome>],
) -> String {
    let setup = &replay.recording.setup;
    let mut md = String::new();
    let _ = writeln!(md, "# kibitz lesson: {title}\n");
    match &setup.tree {
        Some(tree) => {
            let _ = writeln!(md, "- Game tree: `{}` (values for MAX)", tree.text());
        }
        None => {
            let fen = Fen::from_position(&setup.position, EnPassantMode::Legal).to_string();
            let _ = writeln!(md, "- Position: `{fen}`");
        }
    }
    let _ = writeln!(
        md,
        "- Search: {}, {}",
        super::algorithm_text(setup.options),
        super::depth_text(setup.options, setup.depth)
    );
    let _ = writeln!(
        md,
        "- Step {} of {}",
        count_text(step.applied as u64),
        count_text(replay.len() as u64)
    );
    let picture = match super::game_tree::diagram::diagram(replay, step.applied) {
        // A tree as the step sees it; a position as a board.
        Some(tree) => tree.text().join("\n") + "\n",
        None => diagram(&setup.position, false),
    };
    let _ = writeln!(md, "\n```text\n{picture}```\n");

    let _ = writeln!(md, "## Path from the root\n");
    let _ = writeln!(md, "| ply | move | to move | depth | window |");
    let _ = writeln!(md, "|---|---|---|---|---|");
    for (i, node) in step.frames.iter().enumerate() {
        let reached = match (node.via, i.checked_sub(1)) {
            (Via::Move(m), Some(parent)) => step.frames[parent].move_name(m),
            (Via::Pass, _) => "(pass)".to_string(),
            (Via::Singular, _) => "(singular test)".to_string(),
            (Via::Verification, _) => "(null move verified)".to_string(),
            _ => "root".to_string(),
        };
        let depth = if node.quiescence {
            "quiescence".to_string()
        } else {
            node.depth.to_string()
        };
        let turn = node.position.turn();
        let _ = writeln!(
            md,
            "| {} | {reached} | {} | {depth} | {} |",
            node.ply,
            side(turn),
            node_window_text(node.alpha, node.beta, node.ply, turn)
        );
    }

    let tree = &replay.tree;
    let _ = writeln!(
        md,
        "\n## The tree around the current node\n\nEach line: P pv node, C cut node, A all node (once the node returned), the move, its value from the side that moved (≤ ≥: a bound), the window it was searched with, what happened.\n"
    );
    let _ = writeln!(md, "```text");
    if let Some(current) = tree.current(step.applied) {
        let path = tree.path(current);
        let depth_of = |id| tree.node(id).ply;
        let limit = depth_of(current) + TREE_DEPTH;
        let open =
            |id| path.contains(&id) || (tree.path(id).contains(&current) && depth_of(id) < limit);
        let pv = tree.best_line(step.applied);
        for row in tree.rows(step.applied, &open) {
            let mut line = tree
                .row_text(row, step.applied, Values::Negamax, &pv)
                .line();
            if row == Row::Node(current) {
                line.push_str("   <- here");
            }
            let _ = writeln!(md, "{line}");
        }
    }
    let _ = writeln!(md, "```\n");

    let _ = writeln!(md, "## What happened\n\n{}\n", caption(replay, step));

    let c = &step.counters;
    let _ = writeln!(md, "## Statistics so far\n");
    let _ = writeln!(
        md,
        "- Nodes: {} ({} in quiescence), leaves {}",
        count_text(c.main + c.quiescence),
        count_text(c.quiescence),
        count_text(c.leaves)
    );
    let _ = writeln!(
        md,
        "- Beta cutoffs: {} ({} by the first move)",
        count_text(c.beta_cutoffs),
        count_text(c.first_move_cutoffs)
    );
    let _ = writeln!(
        md,
        "- Transposition table: {}, {}, {} answered the node",
        count_of(c.tt_probes, "probe", "probes"),
        count_of(c.tt_hits, "hit", "hits"),
        count_text(c.tt_cutoffs)
    );

    let (what, methods) = match setup.tree {
        Some(_) => ("tree", super::compare::tree_methods()),
        None => ("position", methods()),
    };
    let _ = writeln!(
        md,
        "\n## The same {what} by five methods, depth {}\n",
        setup.depth
    );
    let _ = writeln!(md, "| method | value | nodes | leaves |");
    let _ = writeln!(md, "|---|---|---|---|");
    for (method, outcome) in methods.iter().zip(comparison) {
        let row = match outcome {
            Some(Outcome::Done {
                value,
                nodes,
                leaves,
            }) => format!(
                "{} | {} | {}",
                value_text(*value, 0),
                count_text(*nodes),
                count_text(*leaves)
            ),
            Some(Outcome::TooLarge { cap }) => {
                format!("- | more than {} | -", count_text(*cap))
            }
            Some(Outcome::Cancelled) | None => "not finished | - | -".to_string(),
        };
        let _ = writeln!(md, "| {} | {row} |", method.label);
    }
    md
}

fn side(color: Color) -> &'static str {
    super::values::side_name(color)
}
