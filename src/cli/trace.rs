//! `kibitz trace`: every event of one recorded search, and a summary.

use std::io::Write;

use serde_json::json;
use shakmaty::{Chess, Move, Position};

use super::{CliError, format_score_white, score_json, setup, stats_json};
use crate::engine::search::{self, value_to_score};
use crate::engine::stats::SearchStats;
use crate::engine::trace::{Recorder, TraceEvent};
use crate::engine::{Limits, Score, SearchOptions};
use crate::game::notation::{san_line, uci};

pub struct TraceArgs {
    pub fen: Option<String>,
    pub moves: Vec<String>,
    pub depth: u32,
    pub no_pruning: bool,
    pub no_ordering: bool,
    pub no_tt: bool,
    pub no_quiescence: bool,
    pub selective: bool,
    pub max_events: usize,
    pub summary_only: bool,
    pub json: bool,
}

impl TraceArgs {
    /// The search the trace records. By default a plain alpha-beta search:
    /// selective pruning (null move, reductions, futility) and aspiration
    /// windows change the tree in ways a learner should switch on knowingly.
    pub fn options(&self) -> SearchOptions {
        SearchOptions {
            alpha_beta: !self.no_pruning,
            move_ordering: !self.no_ordering,
            transposition_table: !self.no_tt,
            quiescence: !self.no_quiescence,
            selective: self.selective && !self.no_pruning,
            pvs: false,
            iterative_deepening: false,
            aspiration: false,
            multipv: 1,
        }
    }
}

pub const MAX_TRACE_DEPTH: u32 = 10;

/// What `trace` reports at the end, also used by tests.
pub struct TraceSummary {
    pub value: i32,
    pub score: Score,
    pub pv: Vec<Move>,
    pub nodes: u64,
    pub leaves: u64,
    pub beta_cutoffs: u64,
    pub stats: SearchStats,
}

/// Run a traced search (no output).
pub fn run_trace(
    position: &Chess,
    history: &[u64],
    depth: u32,
    options: SearchOptions,
    recorder: &mut Recorder,
) -> TraceSummary {
    let result = search::search_fresh(
        position,
        history,
        &Limits::depth(depth),
        options,
        16,
        recorder,
    );
    let pv = result
        .lines
        .first()
        .map(|l| l.pv.clone())
        .unwrap_or_default();
    TraceSummary {
        value: result.value,
        score: value_to_score(result.value),
        pv,
        nodes: result.nodes,
        leaves: result.stats.totals.leaves,
        beta_cutoffs: result.stats.totals.beta_cutoffs,
        stats: result.stats,
    }
}

fn window(value: i32) -> String {
    if value >= search::INFINITY {
        "+inf".into()
    } else if value <= -search::INFINITY {
        "-inf".into()
    } else {
        value.to_string()
    }
}

fn describe_event(event: &TraceEvent) -> (u32, String) {
    match event {
        TraceEvent::Iteration { depth } => (0, format!("== iteration: depth {depth} ==")),
        TraceEvent::EnterNode {
            ply,
            depth,
            alpha,
            beta,
            quiescence,
        } => (
            *ply,
            if *quiescence {
                format!(
                    "quiescence node, window ({}, {})",
                    window(*alpha),
                    window(*beta)
                )
            } else {
                format!(
                    "node depth {depth}, window ({}, {})",
                    window(*alpha),
                    window(*beta)
                )
            },
        ),
        TraceEvent::TtProbe { ply, hit, cutoff } => (
            *ply,
            match (hit, cutoff) {
                (false, _) => "table: miss".to_string(),
                (true, false) => "table: hit (move for ordering only)".to_string(),
                (true, true) => "table: hit, cutoff".to_string(),
            },
        ),
        TraceEvent::TtStore {
            ply,
            depth,
            value,
            bound,
        } => (
            *ply,
            format!("table: store {value} ({bound:?} bound) at depth {depth}"),
        ),
        TraceEvent::MoveTried {
            ply,
            mv,
            index,
            reason,
            ..
        } => (
            *ply,
            format!("try #{} {} ({})", index + 1, uci(*mv), reason.label()),
        ),
        TraceEvent::StandPat { ply, value } => (*ply, format!("stand pat {value}")),
        TraceEvent::LeafEval { ply, value } => (*ply, format!("leaf eval {value}")),
        TraceEvent::AlphaRaised { ply, mv, value } => {
            (*ply, format!("best so far {} = {value}", uci(*mv)))
        }
        TraceEvent::BetaCutoff {
            ply,
            mv,
            value,
            moves_left,
        } => (
            *ply,
            format!(
                "beta cutoff by {} = {value}, {moves_left} moves left unsearched",
                uci(*mv)
            ),
        ),
        TraceEvent::Return { ply, value } => (*ply, format!("return {value}")),
        other => (other.ply().unwrap_or(0), format!("{other:?}")),
    }
}

pub fn trace(args: &TraceArgs, out: &mut dyn Write) -> Result<(), CliError> {
    if !(1..=MAX_TRACE_DEPTH).contains(&args.depth) {
        return Err(CliError::BadInput(format!(
            "depth {} is out of range 1..={MAX_TRACE_DEPTH}",
            args.depth
        )));
    }
    let (position, history) = setup(args.fen.as_deref(), &args.moves)?;
    let mut recorder = Recorder::new(args.max_events);
    let summary = run_trace(
        &position,
        &history,
        args.depth,
        args.options(),
        &mut recorder,
    );
    if !args.summary_only {
        for event in recorder.events() {
            if args.json {
                writeln!(
                    out,
                    "{}",
                    serde_json::to_string(event).map_err(|e| CliError::BadInput(e.to_string()))?
                )?;
            } else {
                let (ply, text) = describe_event(event);
                writeln!(out, "{:indent$}{text}", "", indent = 2 * ply as usize)?;
            }
        }
    }
    let pv_san = san_line(&position, &summary.pv);
    if args.json {
        writeln!(
            out,
            "{}",
            json!({
                "type": "summary",
                "value": summary.value,
                "score": score_json(summary.score),
                "pv": summary.pv.iter().map(|&m| uci(m)).collect::<Vec<_>>(),
                "pv_san": pv_san,
                "nodes": summary.nodes,
                "leaves": summary.leaves,
                "beta_cutoffs": summary.beta_cutoffs,
                "events": recorder.events().len(),
                "events_dropped": recorder.dropped(),
                "stats": stats_json(&summary.stats),
            })
        )?;
    } else {
        let options = args.options();
        writeln!(out, "-- summary --")?;
        writeln!(
            out,
            "search: {}{}{}{}{}",
            if options.alpha_beta {
                "alpha-beta"
            } else {
                "minimax"
            },
            if options.move_ordering {
                ", ordering"
            } else {
                ", no ordering"
            },
            if options.transposition_table {
                ", table"
            } else {
                ", no table"
            },
            if options.quiescence {
                ", quiescence"
            } else {
                ", no quiescence"
            },
            if options.selective {
                ", null move/LMR"
            } else {
                ""
            },
        )?;
        writeln!(
            out,
            "root value {} for the side to move ({}; {} from White's view), pv {}",
            summary.value,
            search_side(&position),
            format_score_white(summary.score, position.turn()),
            pv_san.join(" ")
        )?;
        writeln!(
            out,
            "nodes {} (quiescence {}), leaves {}, beta cutoffs {}{}",
            summary.nodes,
            summary.stats.totals.quiescence,
            summary.leaves,
            summary.beta_cutoffs,
            summary
                .stats
                .totals
                .first_move_cutoff_rate()
                .map(|r| format!(" ({:.0}% by the first move)", r * 100.0))
                .unwrap_or_default()
        )?;
        writeln!(
            out,
            "table probes {}, hits {}, cutoffs {}; events recorded {}, dropped {}",
            summary.stats.totals.tt_probes,
            summary.stats.totals.tt_hits,
            summary.stats.totals.tt_cutoffs,
            recorder.events().len(),
            recorder.dropped()
        )?;
    }
    Ok(())
}

fn search_side(position: &Chess) -> &'static str {
    if position.turn().is_white() {
        "White to move"
    } else {
        "Black to move"
    }
}
