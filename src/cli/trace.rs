//! `kibitz trace`: every event of one recorded search, and a summary.
//!
//! The text is for learners: it names the algorithm that actually ran,
//! labels every window and re-search, shows values as pawns and mates and
//! moves in SAN. `--json` keeps the engine's raw numbers for scripts.

use std::io::Write;

use clap::Args;
use serde_json::json;
use shakmaty::{Chess, Color, Move, Position};

use super::flags::{JsonFlag, PositionArgs};
use super::{CliError, score_json, stats_json};
use crate::engine::search::{self, value_to_score};
use crate::engine::stats::SearchStats;
use crate::engine::trace::{
    OrderReason, ReSearchReason, Recorder, TraceEvent, TtBound, WindowKind,
};
use crate::engine::{Limits, Score, SearchOptions};
use crate::game::notation::{san_line, uci};
use crate::teach::caption::san;
use crate::teach::replay::Step;
use crate::teach::values::{value_text, white_view_text, window_text};

/// `kibitz trace`: the position, depth and techniques of the search, and
/// how to print it.
#[derive(Args, Clone, Debug)]
#[command(mut_arg("json", |a| a.help("One JSON object per event and a summary object, with the engine's raw values")))]
pub struct TraceArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// A hand-made game tree instead of a position, in bracket notation:
    /// '((3 12 8) (2 4 6) (14 5 2))', or @FILE to read it from a file.
    #[arg(long, value_name = "TREE", conflicts_with_all = ["fen", "moves"])]
    pub game_tree: Option<String>,
    /// Search depth (plies), 1 to 10 (on a game tree: default its height).
    #[arg(long)]
    pub depth: Option<u32>,
    /// On a game tree: search each node's children best first, by their
    /// true values (alpha-beta's best case).
    #[arg(long, requires = "game_tree")]
    pub best_first: bool,
    /// Plain minimax: no alpha-beta cutoffs.
    #[arg(long, visible_alias = "no-alpha-beta")]
    pub no_pruning: bool,
    /// Search moves in generation order.
    #[arg(long)]
    pub no_ordering: bool,
    /// No transposition table.
    #[arg(long, visible_alias = "no-table")]
    pub no_tt: bool,
    /// Evaluate at the horizon without quiescence search.
    #[arg(long)]
    pub no_quiescence: bool,
    /// Also use null-move pruning, late-move reductions, futility pruning and the check extension.
    #[arg(long)]
    pub selective: bool,
    /// Principal-variation search: later moves get a null-window test, re-searched on failing high.
    #[arg(long)]
    pub pvs: bool,
    /// Iterative deepening: search depth 1, 2, ... up to --depth (default: one search at --depth).
    #[arg(long)]
    pub iterative: bool,
    /// Greer's move-chain search instead of alpha-beta: moves that start a
    /// stored chain (a line that cut off before) are searched and the others
    /// forward-pruned; one search at --depth, no transposition table.
    #[arg(long, conflicts_with_all = ["no_pruning", "pvs", "iterative", "selective", "game_tree"])]
    pub chains: bool,
    /// Search this many move-table moves first at each node (0 to 8).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=8))]
    pub table_moves: u8,
    /// Keep at most this many events (the rest are counted).
    #[arg(long, default_value_t = 200_000)]
    pub max_events: usize,
    /// Print only the summary.
    #[arg(long = "summary", visible_alias = "summary-only")]
    pub summary_only: bool,
    /// Moves in coordinates (e2e4) instead of SAN.
    #[arg(long)]
    pub uci: bool,
    #[command(flatten)]
    pub output: JsonFlag,
    /// The explored tree as an outline (one line a node, with the step that
    /// enters it, as teach mode's tree view shows it) instead of the events.
    #[arg(long, conflicts_with = "json")]
    pub tree: bool,
}

impl TraceArgs {
    /// The search the trace records. By default the textbook one: a single
    /// full-window alpha-beta search at the asked depth. PVS, iterative
    /// deepening and selective pruning change the tree in ways a learner
    /// should switch on knowingly; aspiration windows are never used, as
    /// they would add re-searches at the root the flags do not ask for.
    /// `--no-pruning` is plain minimax, as alpha-beta off is in teach mode
    /// (`teach::effective_options`): no ordering, table or quiescence.
    pub fn options(&self) -> SearchOptions {
        crate::teach::effective_options(SearchOptions {
            alpha_beta: !self.no_pruning,
            move_ordering: !self.no_ordering,
            transposition_table: !self.no_tt,
            quiescence: !self.no_quiescence,
            pvs: self.pvs,
            selective: self.selective,
            iterative_deepening: self.iterative,
            move_chains: self.chains,
            table_moves: self.table_moves,
            // The chain search's tables learn by the paper's rule, as in
            // `kibitz movetables experiment`.
            table_decrement: if self.chains {
                crate::engine::movetables::Decrement::All
            } else {
                crate::engine::movetables::Decrement::Tried
            },
            ..SearchOptions::textbook()
        })
    }

    /// What a trace of the game tree `tree` asks for.
    fn tree_request<'a>(&self, tree: &'a str) -> super::trace_tree::TreeTrace<'a> {
        let meaningless = [
            (self.no_ordering, "--no-ordering"),
            (self.no_tt, "--no-tt"),
            (self.no_quiescence, "--no-quiescence"),
            (self.selective, "--selective"),
            (self.uci, "--uci"),
        ];
        super::trace_tree::TreeTrace {
            tree,
            depth: self.depth,
            alpha_beta: !self.no_pruning,
            pvs: self.pvs,
            iterative: self.iterative,
            best_first: self.best_first,
            meaningless: super::trace_tree::flags_given(&meaningless),
            json: self.output.json,
            summary_only: self.summary_only,
            outline: self.tree,
        }
    }

    /// Flags asked for that the search cannot use (the summary says so,
    /// rather than leaving the learner to think they had an effect).
    fn unused_flags(&self) -> Vec<&'static str> {
        let mut unused = Vec::new();
        if self.no_pruning && self.pvs {
            unused.push("--pvs");
        }
        if self.no_pruning && self.selective {
            unused.push("--selective");
        }
        if self.no_pruning && self.iterative {
            unused.push("--iterative");
        }
        unused
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

/// The algorithm that ran, in words: "alpha-beta (full window), move
/// ordering, transposition table, quiescence; one search at depth 3". Only
/// what is on is named, so a search without the table or quiescence does
/// not mention them.
fn search_description(options: &SearchOptions, depth: u32) -> String {
    let mut parts: Vec<&str> = vec![if options.move_chains {
        if options.table_moves > 0 {
            "Greer's move-chain search (forward-pruned alpha-beta, full window), table moves first (at a cutoff every other legal move loses table weight)"
        } else {
            "Greer's move-chain search (forward-pruned alpha-beta, full window)"
        }
    } else if !options.alpha_beta {
        "plain minimax"
    } else if options.pvs {
        "principal-variation search"
    } else {
        "alpha-beta (full window)"
    }];
    parts.push(if options.move_ordering {
        "move ordering"
    } else {
        "moves in generation order"
    });
    if options.transposition_table {
        parts.push("transposition table");
    }
    parts.push(if options.quiescence {
        "quiescence"
    } else {
        "static evaluation at the horizon"
    });
    if options.selective {
        parts.push(
            "selective: null move, reductions, futility, check extension, no table in quiescence",
        );
    }
    let schedule = if options.iterative_deepening {
        format!("iterative deepening 1..{depth}")
    } else {
        format!("one search at depth {depth}")
    };
    format!("{}; {schedule}", parts.join(", "))
}

/// Turns events into lines. It replays the events as it goes, because an
/// event names a move but not the position it is played in, and SAN needs
/// that position.
struct Narrator {
    step: Step,
    options: SearchOptions,
    uci: bool,
}

impl Narrator {
    fn new(root: &Chess, options: SearchOptions, uci: bool) -> Narrator {
        Narrator {
            step: Step::new(root, &options),
            options,
            uci,
        }
    }

    /// Apply the next event: call before describing it, so that the node
    /// it belongs to is the replay's current frame (a child that returned
    /// is only popped when the next event is applied).
    fn apply(&mut self, event: &TraceEvent) {
        self.step.apply(event);
    }

    /// `mv` in SAN, played at the node of `ply`. `None` when the replay's
    /// current node is not that node or the move is not legal there:
    /// coordinates are then the honest fallback.
    fn san(&self, ply: u32, mv: Move) -> Option<String> {
        let frame = self.step.current().filter(|f| f.ply == ply)?;
        frame
            .position
            .is_legal(mv)
            .then(|| san(&frame.position, mv))
    }

    fn mv(&self, ply: u32, mv: Move) -> String {
        if self.uci {
            return uci(mv);
        }
        self.san(ply, mv).unwrap_or_else(|| uci(mv))
    }

    /// The indentation (the event's ply) and the line for an applied event.
    fn describe(&self, event: &TraceEvent) -> (u32, String) {
        let ply = event.ply().unwrap_or(0);
        let value = |v: i32| value_text(v, ply);
        let text = match *event {
            TraceEvent::Iteration { depth } => {
                if self.options.iterative_deepening {
                    format!("== iteration: depth {depth} ==")
                } else {
                    format!("== one search at depth {depth} ==")
                }
            }
            TraceEvent::EnterNode {
                depth,
                alpha,
                beta,
                quiescence,
                ..
            } => {
                // PVS asks "better than alpha?" with windows one unit wide.
                // Full-window alpha-beta meets such windows too, by chance
                // (alpha and beta a centipawn apart); naming them there would
                // suggest a test that never happened.
                let window = if self.options.pvs && beta.saturating_sub(alpha) == 1 {
                    "null window"
                } else {
                    "window"
                };
                // The node just entered is the replay's current one.
                let turn = self
                    .step
                    .current()
                    .map_or(Color::White, |f| f.position.turn());
                let window = format!("{window} {}", window_text(alpha, beta, ply, turn));
                if quiescence {
                    format!("quiescence node, {window}")
                } else if depth <= 0 {
                    format!("horizon leaf, {window}")
                } else if let Some(test) = self
                    .step
                    .current()
                    .map(|f| f.via)
                    .filter(|via| via.is_test())
                {
                    let what = if test == crate::teach::Via::Verification {
                        "null move verified: the same position's real moves, no null move below"
                    } else {
                        "singular test: the same position without the table's move"
                    };
                    format!("{what}, depth {depth}, {window}")
                } else {
                    format!("node depth {depth}, {window}")
                }
            }
            TraceEvent::TtProbe {
                hit, cutoff, entry, ..
            } => match (hit, cutoff, entry) {
                (false, ..) => "transposition table: miss".to_string(),
                (true, answers, Some(entry)) => {
                    let bound = match entry.bound {
                        TtBound::Exact => "exact",
                        TtBound::Lower => "lower bound",
                        TtBound::Upper => "upper bound",
                    };
                    let node = self.step.current();
                    let needed = node.map_or(0, |f| f.depth.max(0));
                    let full_window = node.is_some_and(|f| f.beta.saturating_sub(f.alpha) > 1);
                    let verdict = if answers {
                        "cutoff (the stored value answers)".to_string()
                    } else if entry.depth < needed {
                        format!("too shallow for depth {needed}")
                    } else if self.options.pvs && full_window {
                        "a principal-variation node takes no table answer".to_string()
                    } else {
                        "its bound does not settle the window".to_string()
                    };
                    let tried = if entry.has_move && !answers && self.options.move_ordering {
                        "; its move goes first"
                    } else if !entry.has_move {
                        "; no move stored"
                    } else {
                        ""
                    };
                    format!(
                        "transposition table: hit, {bound} {} at depth {}: {verdict}{tried}",
                        value(entry.value),
                        entry.depth
                    )
                }
                (true, false, None) => "transposition table: hit, not enough to answer".to_string(),
                (true, true, None) => {
                    "transposition table: hit, cutoff (the stored value answers)".to_string()
                }
            },
            TraceEvent::TtStore {
                depth,
                value: v,
                bound,
                ..
            } => {
                let bound = match bound {
                    TtBound::Exact => "exact",
                    TtBound::Lower => "lower bound: failed high",
                    TtBound::Upper => "upper bound: failed low",
                };
                format!(
                    "transposition table: store {} ({bound}) at depth {depth}",
                    value(v)
                )
            }
            TraceEvent::MoveTried {
                mv,
                index,
                reason,
                window,
                reduction,
                ..
            } => {
                // In check every move is an evasion, whatever its class.
                let in_check = self
                    .step
                    .current()
                    .is_some_and(|f| f.ply == ply && f.position.is_check());
                let class = if in_check && reason != OrderReason::Evasion {
                    format!("check evasion, {}", reason.label())
                } else {
                    reason.label().to_string()
                };
                let mut text = format!("try #{} {} ({class})", index + 1, self.mv(ply, mv));
                match window {
                    WindowKind::Null => text.push_str(", null-window test: can it beat alpha?"),
                    // Only worth saying where other moves get null windows.
                    WindowKind::Full if self.options.pvs => text.push_str(", full window"),
                    WindowKind::Full | WindowKind::Infinite => {}
                }
                if reduction > 0 {
                    text.push_str(&format!(", reduced by {}", plies(reduction)));
                }
                text
            }
            TraceEvent::ReSearch {
                mv, window, reason, ..
            } => {
                let mut text = format!("re-search {}", self.mv(ply, mv));
                if reason == ReSearchReason::Reduced {
                    text.push_str(" at full depth");
                }
                match window {
                    WindowKind::Full => text.push_str(" with the full window"),
                    WindowKind::Null => text.push_str(" with the null window"),
                    WindowKind::Infinite => {}
                }
                text.push_str(match reason {
                    ReSearchReason::FailedHigh => ": the null-window test failed high",
                    ReSearchReason::Reduced => ": the reduced search beat alpha",
                });
                text
            }
            TraceEvent::MovePruned { mv, reason, .. } => {
                format!("skip {}: {}", self.mv(ply, mv), reason.label())
            }
            TraceEvent::NullMove { reduction, .. } => format!(
                "null move: pass; the reply is searched {} shallower than usual, with a null window at beta",
                plies(reduction)
            ),
            TraceEvent::Shortcut { reason, .. } => format!("ends early: {}", reason.label()),
            TraceEvent::StandPat { value: v, .. } => format!("stand pat {}", value(v)),
            TraceEvent::LeafEval { value: v, .. } => format!("leaf eval {}", value(v)),
            TraceEvent::AlphaRaised { mv, value: v, .. } => {
                format!("best so far {} = {}", self.mv(ply, mv), value(v))
            }
            TraceEvent::BetaCutoff { mv, value: v, .. } => {
                // The replay's count of the moves spared (the event's
                // `moves_left` misses those not generated yet after a
                // cutoff by the table's move; see `Step::apply`).
                let skipped = self
                    .step
                    .current()
                    .and_then(|f| f.cutoff)
                    .map_or(0, |(_, _, skipped)| skipped);
                format!(
                    "beta cutoff by {} = {}, {skipped} move{} left unsearched",
                    self.mv(ply, mv),
                    value(v),
                    if skipped == 1 { "" } else { "s" }
                )
            }
            TraceEvent::MoveTables { ref update, .. } => {
                let line = if self.uci {
                    update
                        .line
                        .iter()
                        .map(|&m| uci(m))
                        .collect::<Vec<_>>()
                        .join(" ")
                } else {
                    san_line(self.step.position(), &update.line).join(" ")
                };
                format!(
                    "move tables: +{line}, -{} other move{}",
                    update.others.len(),
                    if update.others.len() == 1 { "" } else { "s" }
                )
            }
            TraceEvent::Return { value: v, .. } => format!("return {}", value(v)),
        };
        (ply, text)
    }

    /// The event as JSON: the engine's fields, raw, plus the move in SAN
    /// for events that name one.
    fn json(&self, event: &TraceEvent) -> Result<serde_json::Value, CliError> {
        let mut value =
            serde_json::to_value(event).map_err(|e| CliError::BadInput(e.to_string()))?;
        let named = match *event {
            TraceEvent::MoveTried { ply, mv, .. }
            | TraceEvent::ReSearch { ply, mv, .. }
            | TraceEvent::MovePruned { ply, mv, .. }
            | TraceEvent::AlphaRaised { ply, mv, .. }
            | TraceEvent::BetaCutoff { ply, mv, .. } => Some((ply, mv)),
            _ => None,
        };
        if let Some((ply, mv)) = named
            && let Some(san) = self.san(ply, mv)
            && let Some(object) = value.as_object_mut()
        {
            object.insert("san".into(), json!(san));
        }
        Ok(value)
    }
}

fn plies(n: u8) -> String {
    if n == 1 {
        "1 ply".into()
    } else {
        format!("{n} plies")
    }
}

pub fn trace(args: &TraceArgs, out: &mut dyn Write) -> Result<(), CliError> {
    if let Some(tree) = &args.game_tree {
        return super::trace_tree::trace(&args.tree_request(tree), out);
    }
    let Some(depth) = args.depth else {
        return Err(CliError::BadInput(format!(
            "--depth is needed: how many plies to search, 1 to {MAX_TRACE_DEPTH}"
        )));
    };
    if !(1..=MAX_TRACE_DEPTH).contains(&depth) {
        return Err(CliError::BadInput(format!(
            "depth {depth} is out of range 1..={MAX_TRACE_DEPTH}"
        )));
    }
    let (position, history) = args.position.setup()?;
    if position.legal_moves().is_empty() {
        let side = if position.turn().is_white() {
            "White"
        } else {
            "Black"
        };
        let state = if position.is_check() {
            "checkmated"
        } else {
            "stalemated"
        };
        return Err(CliError::BadInput(format!(
            "the game is over in this position ({side} is {state}): there is no move to search"
        )));
    }
    // Every event kept is in memory: a limit the machine cannot hold is
    // refused before the search, not met by the system killing it.
    if let Some((most, available_mb)) = crate::engine::trace::max_events_in_memory()
        && args.max_events as u64 > most
    {
        return Err(CliError::BadInput(format!(
            "--max-events {} does not fit in this machine's memory: at most {most} events \
             ({} bytes each) fit in half of the {available_mb} MiB available",
            args.max_events,
            crate::engine::trace::EVENT_BYTES,
        )));
    }
    let options = args.options();
    // The same cap as teach mode: a search too large to follow is stopped
    // and refused with advice, rather than running on without a word.
    let cap = crate::teach::MAX_EVENTS.max(args.max_events);
    let mut recorder = Recorder::capped(args.max_events, cap as u64);
    let summary = run_trace(&position, &history, depth, options, &mut recorder);
    if recorder.capped_out() {
        return Err(CliError::BadInput(
            crate::teach::RecordError::TooLarge {
                max: cap,
                depth,
                advice: crate::teach::advice(&options),
            }
            .to_string(),
        ));
    }
    if args.tree && !args.output.json && !args.summary_only {
        if recorder.dropped() > 0 {
            return Err(CliError::BadInput(format!(
                "the tree needs every event: this search has {} (raise --max-events)",
                recorder.events().len() as u64 + recorder.dropped()
            )));
        }
        let tree = crate::teach::tree::build(&position, &options, recorder.events());
        writeln!(
            out,
            "   step  the search tree: P pv node, C cut node, A all node; values from the side that moved"
        )?;
        write!(
            out,
            "{}",
            tree.outline_text(crate::teach::tree::Values::Negamax)
        )?;
    } else if !args.summary_only {
        let mut narrator = Narrator::new(&position, options, args.uci);
        for event in recorder.events() {
            narrator.apply(event);
            if args.output.json {
                writeln!(out, "{}", narrator.json(event)?)?;
            } else {
                let (ply, text) = narrator.describe(event);
                writeln!(out, "{:indent$}{text}", "", indent = 2 * ply as usize)?;
            }
        }
    }
    let description = search_description(&options, depth);
    let pv_san = san_line(&position, &summary.pv);
    let pv_uci: Vec<String> = summary.pv.iter().map(|&m| uci(m)).collect();
    if args.output.json {
        writeln!(
            out,
            "{}",
            json!({
                "type": "summary",
                "search": description,
                "options": {
                    "alpha_beta": options.alpha_beta,
                    "pvs": options.pvs,
                    "iterative_deepening": options.iterative_deepening,
                    "move_ordering": options.move_ordering,
                    "transposition_table": options.transposition_table,
                    "quiescence": options.quiescence,
                    "selective": options.selective,
                    "move_chains": options.move_chains,
                    "table_moves": options.table_moves,
                    "table_decrement": options.table_decrement.name(),
                },
                "unused_flags": args.unused_flags(),
                "value": summary.value,
                "value_text": value_text(summary.value, 0),
                "score": score_json(summary.score),
                "pv": pv_uci,
                "pv_san": pv_san,
                "nodes": summary.nodes,
                "leaves": summary.leaves,
                "beta_cutoffs": summary.beta_cutoffs,
                "events": recorder.events().len(),
                "events_dropped": recorder.dropped(),
                "stats": stats_json(&summary.stats),
                "per_iteration": super::trace_stats::iterations_json(&summary.stats),
            })
        )?;
        return Ok(());
    }
    let totals = &summary.stats.totals;
    writeln!(out, "-- summary --")?;
    writeln!(out, "search: {description}")?;
    let unused = args.unused_flags();
    if !unused.is_empty() {
        writeln!(
            out,
            "note: {} had no effect: --no-pruning is plain minimax, which has no windows, move ordering, table or quiescence",
            unused.join(" and ")
        )?;
    }
    let pv = if args.uci { pv_uci } else { pv_san };
    let side = if position.turn().is_white() {
        "White"
    } else {
        "Black"
    };
    // A mate already names its winner; pawns need the point of view.
    let white = white_view_text(summary.value, 0, position.turn());
    let white = if white.starts_with("White") || white.starts_with("Black") {
        white
    } else {
        format!("{white} from White's view")
    };
    writeln!(
        out,
        "root value {} for {side}, the side to move ({white}); pv {}",
        value_text(summary.value, 0),
        pv.join(" ")
    )?;
    let quiescence = if options.quiescence {
        format!(" ({} in quiescence)", totals.quiescence)
    } else {
        String::new()
    };
    writeln!(
        out,
        "nodes {}{quiescence}, leaves {}, beta cutoffs {}{}",
        summary.nodes,
        summary.leaves,
        summary.beta_cutoffs,
        totals
            .first_move_cutoff_rate()
            .map(|r| format!(" ({:.0}% by the first move)", r * 100.0))
            .unwrap_or_default()
    )?;
    if options.transposition_table {
        writeln!(
            out,
            "transposition table probes {}, hits {}, cutoffs {}",
            totals.tt_probes, totals.tt_hits, totals.tt_cutoffs,
        )?;
    }
    if let Some(chains) = &summary.stats.chains {
        writeln!(
            out,
            "move chains: {} alpha-beta nodes ({} interior, {} at the horizon), chains applied at {} nodes, {} moves pruned, {} chains stored, {} dropped as illegal; table moves searched {} (at {} nodes)",
            chains.alpha_beta_nodes(),
            chains.interior,
            chains.horizon,
            chains.chain_nodes,
            chains.pruned,
            chains.chains_stored,
            chains.chains_invalid,
            chains.table_moves,
            chains.table_nodes,
        )?;
    }
    super::trace_stats::write_iterations(out, &summary.stats, &options)?;
    writeln!(
        out,
        "events recorded {}, dropped {}{}",
        recorder.events().len(),
        recorder.dropped(),
        if recorder.dropped() > 0 {
            " (raise --max-events to see them)"
        } else {
            ""
        }
    )?;
    Ok(())
}

#[cfg(test)]
mod tests;
