//! `kibitz trace --game-tree TREE`: the search of a hand-made tree, event
//! by event, in words (or one JSON object per event), then a summary whose
//! last line gives the value, the leaves evaluated and the nodes.
//!
//! Everything is said as textbooks say it: nodes by their names (A, B,
//! B1…), values and windows from MAX's view (the root's side), so that a
//! learner can check each line against the tree on paper.

use std::io::Write;

use serde_json::json;

use super::{CliError, stats_json};
use crate::engine::trace::{ReSearchReason, TraceEvent, WindowKind};
use crate::teach::replay::Step;
use crate::teach::values::{in_points, window_text};
use crate::teach::{GameTree, Setup, tree::Values};

/// What `trace` asks of a tree (from its own flags; see `trace.rs`).
pub struct TreeTrace<'a> {
    pub tree: &'a str,
    pub depth: Option<u32>,
    pub alpha_beta: bool,
    pub pvs: bool,
    pub iterative: bool,
    pub best_first: bool,
    /// Flags given that have no meaning on a tree.
    pub meaningless: Vec<&'static str>,
    pub json: bool,
    pub summary_only: bool,
    pub outline: bool,
}

/// The flags of `(given, name)` pairs that were given, by name.
pub fn flags_given(flags: &[(bool, &'static str)]) -> Vec<&'static str> {
    flags
        .iter()
        .filter(|(given, _)| *given)
        .map(|&(_, name)| name)
        .collect()
}

/// The setup a tree trace records: the tree read and checked, the switches
/// applied. Bad input is a one-line message (exit code 2).
pub fn setup(request: &TreeTrace) -> Result<Setup, CliError> {
    let tree = GameTree::load(request.tree)
        .map_err(|e| CliError::BadInput(format!("--game-tree: {e}")))?;
    if let Some(flag) = request.meaningless.first() {
        return Err(CliError::BadInput(format!(
            "{flag} does not apply to a game tree: a hand-made tree has no table, captures, \
             pruning rules or chess moves (its order is the tree's own; --best-first sorts it)"
        )));
    }
    let height = tree.height();
    if let Some(depth) = request.depth
        && !(1..=height).contains(&depth)
    {
        return Err(CliError::BadInput(format!(
            "depth {depth} is out of range: 1 to {height}, the tree is {height} plies deep"
        )));
    }
    let mut setup = Setup::game_tree(tree, request.depth);
    setup.options.alpha_beta = request.alpha_beta;
    setup.options.pvs = request.pvs && request.alpha_beta;
    setup.options.iterative_deepening = request.iterative;
    setup.options.move_ordering = request.best_first;
    Ok(setup)
}

/// Record the tree's search and write it.
pub fn trace(request: &TreeTrace, out: &mut dyn Write) -> Result<(), CliError> {
    let setup = setup(request)?;
    let recording = crate::teach::record(&setup, usize::MAX, &|| false)
        .map_err(|e| CliError::BadInput(e.to_string()))?;
    in_points(true, || write_trace(request, recording, out))
}

fn write_trace(
    request: &TreeTrace,
    recording: crate::teach::Recording,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let setup = recording.setup.clone();
    let Some(tree) = setup.tree.clone() else {
        return Err(CliError::BadInput("no game tree was given".into()));
    };
    let description = format!(
        "{}, {}, children {}",
        crate::teach::algorithm_text(setup.options).replace(" + ordering", ""),
        crate::teach::depth_text(setup.options, setup.depth),
        if setup.options.move_ordering {
            "best first"
        } else {
            "in the tree's order"
        }
    );
    let pv: Vec<String> = {
        let mut at = 0;
        recording
            .pv
            .iter()
            .map(|&m| {
                let name = tree.move_name(at, m);
                at = crate::teach::game_tree::child_index(m)
                    .and_then(|i| tree.child(at, i))
                    .unwrap_or(at);
                name
            })
            .collect()
    };
    let totals = recording.stats.totals;
    if request.outline && !request.json && !request.summary_only {
        let replay = crate::teach::Replay::new(recording.clone());
        writeln!(
            out,
            "   step  the search tree: P pv node, C cut node, A all node; values from MAX's view"
        )?;
        write!(out, "{}", replay.tree.outline_text(Values::Minimax))?;
    } else if !request.summary_only {
        let mut step = setup.first_step();
        for event in &recording.events {
            step.apply(event);
            if request.json {
                writeln!(out, "{}", event_json(&step, event)?)?;
            } else {
                let (ply, text) = describe(&step, event, setup.options.iterative_deepening);
                writeln!(out, "{:indent$}{text}", "", indent = 2 * ply as usize)?;
            }
        }
    }
    if request.json {
        writeln!(
            out,
            "{}",
            json!({
                "type": "summary",
                "game_tree": tree.text(),
                "search": description,
                "options": {
                    "alpha_beta": setup.options.alpha_beta,
                    "pvs": setup.options.pvs,
                    "iterative_deepening": setup.options.iterative_deepening,
                    "best_first": setup.options.move_ordering,
                },
                "depth": setup.depth,
                "value": recording.value,
                "minimax_value": tree.minimax(0),
                "pv": pv,
                "nodes": totals.nodes(),
                "leaves": totals.leaves,
                "tree_leaves": tree.leaves(),
                "beta_cutoffs": totals.beta_cutoffs,
                "events": recording.events.len(),
                "stats": stats_json(&recording.stats),
            })
        )?;
        return Ok(());
    }
    writeln!(out, "-- summary --")?;
    writeln!(out, "tree: {}", tree.text())?;
    writeln!(out, "search: {description}")?;
    writeln!(
        out,
        "value {} for MAX; pv {}",
        recording.value,
        if pv.is_empty() {
            "(none)".to_string()
        } else {
            pv.join(" ")
        }
    )?;
    writeln!(
        out,
        "leaf evaluations {} ({} leaves in the tree), nodes {}, beta cutoffs {}",
        totals.leaves,
        tree.leaves(),
        totals.nodes(),
        totals.beta_cutoffs
    )?;
    Ok(())
}

/// A value of the node at `ply` (from its side to move) from MAX's view.
fn for_max(value: i32, ply: u32) -> i32 {
    if ply.is_multiple_of(2) { value } else { -value }
}

/// The name of the node the search is at, "?" if none.
fn here(step: &Step) -> String {
    step.current()
        .and_then(|f| f.node_name())
        .unwrap_or("?")
        .to_string()
}

/// One event in words, with the ply to indent it by. `after` is the step
/// with the event applied: its current node is the event's own (a child
/// that returned leaves the step at the next event).
fn describe(after: &Step, event: &TraceEvent, iterative: bool) -> (u32, String) {
    let name_in = |step: &Step, mv| {
        step.current()
            .map_or_else(|| "?".to_string(), |f| f.move_name(mv))
    };
    match *event {
        TraceEvent::Iteration { depth } if after.iterations.len() > 1 || iterative => {
            (0, format!("iteration {depth}"))
        }
        TraceEvent::Iteration { depth } => (0, format!("search to depth {depth}")),
        TraceEvent::EnterNode {
            ply,
            depth,
            alpha,
            beta,
            ..
        } => {
            let side = if ply.is_multiple_of(2) { "MAX" } else { "MIN" };
            let (low, high) = if ply.is_multiple_of(2) {
                (alpha, beta)
            } else {
                (-beta, -alpha)
            };
            let leaf = after
                .current()
                .and_then(|f| f.tree.as_ref().map(|(t, id)| t.node(*id).is_leaf()))
                .unwrap_or(false);
            let what = if leaf {
                "leaf".to_string()
            } else if depth <= 0 {
                "at the depth limit".to_string()
            } else {
                format!("{side} to move")
            };
            (
                ply,
                format!(
                    "enter {} ({what}), window {}",
                    here(after),
                    window_text(low, high, 0, shakmaty::Color::White)
                ),
            )
        }
        TraceEvent::MoveTried {
            ply,
            mv,
            window,
            reason,
            ..
        } => {
            let how = match window {
                WindowKind::Full => "full window",
                WindowKind::Null => "null window: is it better than the best so far?",
                WindowKind::Infinite => "no window",
            };
            let order = match reason {
                crate::engine::trace::OrderReason::PreviousBest => {
                    ", first: best in the previous iteration"
                }
                crate::engine::trace::OrderReason::BestFirst => ", best first",
                _ => "",
            };
            (
                ply,
                format!(
                    "{} tries {} ({how}{order})",
                    here(after),
                    name_in(after, mv)
                ),
            )
        }
        TraceEvent::ReSearch {
            ply, mv, reason, ..
        } => {
            let why = match reason {
                ReSearchReason::FailedHigh => {
                    "the null window failed high, so its exact value needs the full window"
                }
                ReSearchReason::Reduced => "the reduced search beat alpha",
            };
            (
                ply,
                format!(
                    "{} searches {} again: {why}",
                    here(after),
                    name_in(after, mv)
                ),
            )
        }
        TraceEvent::LeafEval { ply, value } => {
            let estimate = after
                .current()
                .and_then(|f| f.tree.as_ref().map(|(t, id)| !t.node(*id).is_leaf()))
                .unwrap_or(false);
            let note = if estimate {
                " (its estimate: the depth limit stops here)"
            } else {
                ""
            };
            (
                ply,
                format!("{} = {}{note}", here(after), for_max(value, ply)),
            )
        }
        TraceEvent::AlphaRaised { ply, mv, value } => (
            ply,
            format!(
                "{}: new best {} = {}",
                here(after),
                name_in(after, mv),
                for_max(value, ply)
            ),
        ),
        TraceEvent::BetaCutoff {
            ply,
            mv,
            value,
            moves_left,
        } => {
            let skipped: Vec<String> = after
                .current()
                .map(|f| {
                    f.moves[f.reached..]
                        .iter()
                        .map(|line| f.move_name(line.mv))
                        .collect()
                })
                .unwrap_or_default();
            let other = if ply.is_multiple_of(2) { "MIN" } else { "MAX" };
            let skipped = match moves_left {
                0 => "nothing left to skip".to_string(),
                _ => format!("{} skipped", skipped.join(", ")),
            };
            (
                ply,
                format!(
                    "{}: cutoff by {} = {}: {other} has a better choice above, so {skipped}",
                    here(after),
                    name_in(after, mv),
                    for_max(value, ply)
                ),
            )
        }
        TraceEvent::Return { ply, value } => {
            let bound = after
                .current()
                .map(|f| f.value_bound(value, after.alpha_beta()))
                .unwrap_or_default();
            let bound = if ply.is_multiple_of(2) {
                bound
            } else {
                bound.flipped()
            };
            (
                ply,
                format!(
                    "{} returns {}{}",
                    here(after),
                    bound.sign(),
                    for_max(value, ply)
                ),
            )
        }
        ref other => (other.ply().unwrap_or(0), format!("{other:?}")),
    }
}

/// One event as JSON: the engine's event with moves named as the tree
/// names them, the node it happened at, and its value from MAX's view.
fn event_json(after: &Step, event: &TraceEvent) -> Result<serde_json::Value, CliError> {
    let mut value = serde_json::to_value(event)
        .map_err(|e| CliError::BadInput(format!("cannot write the event: {e}")))?;
    let at = after;
    if let Some(object) = value.as_object_mut() {
        if let Some(name) = at.current().and_then(|frame| frame.node_name()) {
            object.insert("node".into(), json!(name));
        }
        let mv = match *event {
            TraceEvent::MoveTried { mv, .. }
            | TraceEvent::ReSearch { mv, .. }
            | TraceEvent::AlphaRaised { mv, .. }
            | TraceEvent::BetaCutoff { mv, .. } => Some(mv),
            _ => None,
        };
        if let (Some(mv), Some(frame)) = (mv, after.current()) {
            object.insert("mv".into(), json!(frame.move_name(mv)));
        }
        let scored = match *event {
            TraceEvent::LeafEval { ply, value }
            | TraceEvent::AlphaRaised { ply, value, .. }
            | TraceEvent::BetaCutoff { ply, value, .. }
            | TraceEvent::Return { ply, value } => Some(for_max(value, ply)),
            _ => None,
        };
        if let Some(v) = scored {
            object.insert("value_max".into(), json!(v));
        }
    }
    Ok(value)
}
