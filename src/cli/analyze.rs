//! `kibitz analyze`: the engine's lines for a position, streamed as the
//! search deepens.

use std::io::Write;
use std::time::{Duration, Instant};

use clap::Args;
use serde_json::json;
use shakmaty::{Chess, Move, Position};

use super::flags::{JsonFlag, PositionArgs};
use super::{CliError, score_json, stats_json};
use crate::engine::search;
use crate::engine::stats::SearchStats;
use crate::engine::{
    Bound, Command, Engine, GoRequest, Limits, Report, Score, SearchInfo, SearchOptions,
};
use crate::game::notation::{san_line, uci};
use crate::text::score_text_white;

/// `kibitz analyze`: the position, one limit, lines, table size.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub limit: AnalyzeLimit,
    /// Number of lines to show.
    #[arg(long, default_value_t = 1)]
    pub multipv: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = crate::engine::DEFAULT_HASH_MB)]
    pub hash: usize,
    #[command(flatten)]
    pub output: JsonFlag,
}

/// How long `kibitz analyze` searches: exactly one of these.
#[derive(Args, Debug)]
#[group(required = true, multiple = false)]
pub struct AnalyzeLimit {
    /// Search to this depth (plies).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Search for this many milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Search this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
}

pub fn analyze(args: &AnalyzeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let (position, history) = args.position.setup()?;
    let opening = opening_of(&args.position)?;
    if let Some(depth) = args.limit.depth
        && !(1..=search::MAX_DEPTH).contains(&depth)
    {
        return Err(CliError::BadInput(format!(
            "depth {depth} is out of range 1..={}",
            search::MAX_DEPTH
        )));
    }
    if !(1..=crate::engine::MAX_MULTIPV).contains(&args.multipv) {
        return Err(CliError::BadInput(format!(
            "multipv {} is out of range 1..={}",
            args.multipv,
            crate::engine::MAX_MULTIPV
        )));
    }
    if !(1..=crate::engine::MAX_HASH_MB).contains(&args.hash) {
        return Err(CliError::BadInput(format!(
            "hash {} MiB is out of range 1..={}",
            args.hash,
            crate::engine::MAX_HASH_MB
        )));
    }
    // One rule with `review`: a search of no time or no nodes is no search.
    if args.limit.movetime == Some(0) {
        return Err(CliError::BadInput(
            "movetime 0 ms is out of range: give at least 1".into(),
        ));
    }
    if args.limit.nodes == Some(0) {
        return Err(CliError::BadInput(
            "nodes 0 is out of range: give at least 1".into(),
        ));
    }
    let limits = Limits {
        depth: args.limit.depth,
        nodes: args.limit.nodes,
        movetime: args.limit.movetime.map(Duration::from_millis),
        ..Limits::default()
    };
    if let (_, Some(cap)) = crate::engine::tt::hash_size(args.hash) {
        eprintln!("note: --hash: {cap}");
    }
    let engine = Engine::new(args.hash).map_err(CliError::Thread)?;
    // Wait until the engine has made its hash table: the search's time
    // (and so its nodes per second) counts from the request, and setting
    // up is not searching.
    engine.send(Command::Ping(0));
    while let Ok(report) = engine.reports().recv() {
        if matches!(report, Report::Pong(_)) {
            break;
        }
    }
    engine.send(Command::Go(Box::new(GoRequest {
        search_id: 1,
        position: position.clone(),
        history,
        limits,
        options: SearchOptions {
            multipv: args.multipv,
            ..SearchOptions::default()
        },
        level: crate::engine::level::Level::default(),
        book: false,
        received: Instant::now(),
    })));
    let side = position.turn();
    let mut latest_stats: Option<std::sync::Arc<SearchStats>> = None;
    let mut pending_stats: Option<(u32, String)> = None;
    // The depth of the last statistics line written: the search's final
    // statistics repeat its last finished iteration's.
    let mut stats_written: Option<u32> = None;
    // The last line written for each MultiPV index: a search cut short
    // ends by sending its lines again with the whole search's counts, and a
    // line that says nothing new (the counts are in the bestmove line) is
    // not written twice.
    let mut written: Vec<(usize, u32, Score, Bound, Vec<Move>)> = Vec::new();
    for report in engine.reports().iter() {
        match report {
            Report::Pong(_) => {}
            Report::Info(info) => {
                let key = (
                    info.multipv,
                    info.depth,
                    info.score,
                    info.bound,
                    info.pv.clone(),
                );
                if info.complete && !written.contains(&key) {
                    // Text: an iteration's statistics follow its lines.
                    if let Some((depth, line)) = &pending_stats
                        && info.depth > *depth
                    {
                        writeln!(out, "  {line}")?;
                        stats_written = Some(*depth);
                        pending_stats = None;
                    }
                    write_info(
                        out,
                        &position,
                        &info,
                        latest_stats.as_deref(),
                        args.output.json,
                    )?;
                    written.retain(|w| w.0 != info.multipv);
                    written.push(key);
                }
            }
            // The engine reports the statistics of each finished iteration
            // just before that iteration's last line.
            Report::Stats { stats, .. } => {
                if !args.output.json
                    && let Some(last) = stats.iterations.len().checked_sub(1)
                    && pending_stats
                        .as_ref()
                        .is_none_or(|(d, _)| *d != stats.iterations[last].depth)
                    && stats_written != Some(stats.iterations[last].depth)
                    && let Some(line) = stats.iteration_line(last)
                {
                    if let Some((depth, earlier)) = pending_stats.take() {
                        writeln!(out, "  {earlier}")?;
                        stats_written = Some(depth);
                    }
                    pending_stats = Some((stats.iterations[last].depth, line));
                }
                latest_stats = Some(stats);
            }
            Report::BestMove {
                best_move,
                ponder,
                score,
                bound,
                depth,
                nodes,
                ..
            } => {
                if let Some((_, line)) = pending_stats.take() {
                    writeln!(out, "  {line}")?;
                }
                if args.output.json {
                    writeln!(
                        out,
                        "{}",
                        json!({
                            "type": "bestmove",
                            "bestmove": best_move.map(uci),
                            "san": best_move.map(|m| san_line(&position, &[m]).join("")),
                            "ponder": ponder.map(uci),
                            "score": score_json(score),
                            "bound": bound_name(bound),
                            "depth": depth,
                            "nodes": nodes,
                            "opening": opening.map(|o| json!({"eco": o.eco, "name": o.name})),
                            // Why there is no move: a mate's 0 is no draw.
                            "no_move": best_move.is_none().then(|| game_over_reason(&position)),
                        })
                    )?;
                } else {
                    let named = opening
                        .map(|o| format!(" opening {} {}", o.eco, o.name))
                        .unwrap_or_default();
                    match best_move {
                        Some(m) => writeln!(
                            out,
                            "bestmove {} ({}) score {}{} depth {depth} nodes {nodes}{named}",
                            uci(m),
                            san_line(&position, &[m]).join(""),
                            score_text_white(score, side),
                            bound_text(bound),
                        )?,
                        None => writeln!(
                            out,
                            "bestmove none (no legal move: {})",
                            game_over_reason(&position)
                        )?,
                    }
                }
                break;
            }
        }
    }
    Ok(())
}

/// The named opening of the game given by a start FEN and moves: the
/// deepest named position along it.
fn opening_of(
    position: &PositionArgs,
) -> Result<Option<&'static crate::book::openings::Opening>, CliError> {
    let (last, line) = position.play_line()?;
    let mut positions: Vec<Chess> = line.into_iter().map(|(before, _)| before).collect();
    positions.push(last);
    Ok(crate::book::openings::Openings::builtin().name_of_game(positions.iter()))
}

fn game_over_reason(position: &Chess) -> &'static str {
    if position.is_checkmate() {
        "checkmate"
    } else {
        "stalemate"
    }
}

fn write_info(
    out: &mut dyn Write,
    position: &Chess,
    info: &SearchInfo,
    stats: Option<&SearchStats>,
    json: bool,
) -> Result<(), CliError> {
    let san = san_line(position, &info.pv);
    if json {
        writeln!(
            out,
            "{}",
            json!({
                "type": "info",
                "multipv": info.multipv,
                "depth": info.depth,
                "seldepth": info.seldepth,
                "score": score_json(info.score),
                "bound": bound_name(info.bound),
                "nodes": info.nodes,
                "nps": info.nps,
                "hashfull": info.hashfull,
                "time_ms": info.elapsed.as_millis() as u64,
                "pv": info.pv.iter().map(|&m| uci(m)).collect::<Vec<_>>(),
                "pv_san": san,
                "stats": stats.map(stats_json),
            })
        )?;
    } else {
        let bound = bound_text(info.bound);
        writeln!(
            out,
            "depth {:>2}/{:<2} line {} score {:>7}{bound} nodes {:>7} nps {:>7} time {:>6.2}s  {}",
            info.depth,
            info.seldepth,
            info.multipv,
            score_text_white(info.score, position.turn()),
            human_count(info.nodes),
            human_count(info.nps),
            info.elapsed.as_secs_f64(),
            san.join(" ")
        )?;
    }
    Ok(())
}

/// What the text output writes after a score that is a bound.
fn bound_text(bound: Bound) -> &'static str {
    match bound {
        Bound::Exact => "",
        Bound::Lower => " (lower bound)",
        Bound::Upper => " (upper bound)",
    }
}

fn bound_name(bound: Bound) -> &'static str {
    match bound {
        Bound::Exact => "exact",
        Bound::Lower => "lower",
        Bound::Upper => "upper",
    }
}

fn human_count(n: u64) -> String {
    match n {
        0..10_000 => n.to_string(),
        10_000..10_000_000 => format!("{:.1}k", n as f64 / 1e3),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}
