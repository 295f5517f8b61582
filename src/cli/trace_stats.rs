//! `kibitz trace --summary`'s row per iteration of iterative deepening:
//! what each iteration alone cost (nodes, leaves, cutoffs and the share the
//! first move made, table hits, the share of nodes in quiescence, the
//! deepest ply), as text and as JSON. The rows add up to the summary's
//! totals.

use std::io::Write;

use serde_json::{Value, json};

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
/// the summary's totals already say it all).
pub(crate) fn write_iterations(out: &mut dyn Write, stats: &SearchStats) -> std::io::Result<()> {
    if stats.iterations.len() < 2 {
        return Ok(());
    }
    writeln!(
        out,
        "per iteration: depth  nodes  leaves  cutoffs  first move  table hits  quiescence  deepest ply"
    )?;
    for it in &stats.iterations {
        let c = &it.counters;
        writeln!(
            out,
            "               {:>5}  {:>5}  {:>6}  {:>7}  {:>10}  {:>10}  {:>10}  {:>11}",
            it.depth,
            c.nodes(),
            c.leaves,
            c.beta_cutoffs,
            percent(c.first_move_cutoff_rate()),
            c.tt_hits,
            percent(c.quiescence_share()),
            it.selective_depth,
        )?;
    }
    Ok(())
}
