//! `kibitz trace --summary`'s row per iteration of iterative deepening:
//! what each iteration alone cost (nodes, leaves, cutoffs and the share the
//! first move made, table hits, the share of nodes in quiescence, the
//! deepest ply), as text and as JSON. The rows add up to the summary's
//! totals.

use std::io::Write;

use serde_json::{Value, json};

use crate::engine::SearchOptions;
use crate::engine::stats::SearchStats;

/// The rows as JSON, one object an iteration.
pub(crate) fn iterations_json(stats: &SearchStats) -> Value {
    stats
        .iterations
        .iter()
        .map(|it| {
            let c = &it.counters;
            json!({
                "depth": it.depth,
                "nodes": c.nodes(),
                "leaves": c.leaves,
                "beta_cutoffs": c.beta_cutoffs,
                "first_move_cutoff_rate": c.first_move_cutoff_rate(),
                "tt_hits": c.tt_hits,
                "quiescence_share": c.quiescence_share(),
                "deepest_ply": it.selective_depth,
            })
        })
        .collect()
}

fn percent(rate: Option<f64>) -> String {
    rate.map_or_else(|| "-".into(), |r| format!("{:.0}%", r * 100.0))
}

/// The rows as a table, where there is more than one iteration (with one,
/// the summary's totals already say it all). A search without the table
/// or quiescence (`options`) has no column for them, as the rest of the
/// summary does not mention them.
pub(crate) fn write_iterations(
    out: &mut dyn Write,
    stats: &SearchStats,
    options: &SearchOptions,
) -> std::io::Result<()> {
    if stats.iterations.len() < 2 {
        return Ok(());
    }
    let (table, quiescence) = (options.transposition_table, options.quiescence);
    let mut head = "per iteration: depth  nodes  leaves  cutoffs  first move".to_string();
    if table {
        head.push_str("  table hits");
    }
    if quiescence {
        head.push_str("  quiescence");
    }
    writeln!(out, "{head}  deepest ply")?;
    for it in &stats.iterations {
        let c = &it.counters;
        let mut row = format!(
            "               {:>5}  {:>5}  {:>6}  {:>7}  {:>10}",
            it.depth,
            c.nodes(),
            c.leaves,
            c.beta_cutoffs,
            percent(c.first_move_cutoff_rate()),
        );
        if table {
            row.push_str(&format!("  {:>10}", c.tt_hits));
        }
        if quiescence {
            row.push_str(&format!("  {:>10}", percent(c.quiescence_share())));
        }
        writeln!(out, "{row}  {:>11}", it.selective_depth)?;
    }
    Ok(())
}
