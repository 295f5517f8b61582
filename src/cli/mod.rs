//! Headless commands: analyze, bench, perft, trace, describe. Each prints
//! text for people by default and one JSON object per line with `--json`.
//! And the line mode (`kibitz --plain`), a game in lines of text.

pub mod book;
pub mod describe;
mod movetables;
pub mod pgn;
pub mod plain;
pub mod review;
pub mod review_all;
pub mod tb;
mod trace;
pub mod tune;

pub use movetables::{MAX_MOVETABLES_DEPTH, bench_movetables, movetables};
pub use trace::{MAX_TRACE_DEPTH, TraceArgs, TraceSummary, run_trace, trace};

use std::io::Write;
use std::time::{Duration, Instant};

use serde_json::json;
use shakmaty::{Chess, Move, Position};
use thiserror::Error;

use crate::engine::search;
use crate::engine::stats::SearchStats;
use crate::engine::{
    Bound, Command, Engine, GoRequest, Limits, Report, Score, SearchInfo, SearchOptions,
    position_key,
};
use crate::game::fen::{FenError, parse_fen};
use crate::game::notation::{MoveError, parse_move, san_line, uci};
use crate::perft;
use crate::text::score_text_white;

/// Errors of the headless commands. `BadInput` means the user asked for
/// something impossible (exit code 2); `Io` means the output failed.
#[derive(Debug, Error)]
pub enum CliError {
    #[error("{0}")]
    Fen(#[from] FenError),
    #[error("move {index} {source}")]
    Move {
        index: usize,
        #[source]
        source: MoveError,
    },
    #[error("{0}")]
    BadInput(String),
    #[error("cannot start the engine thread: {0}")]
    Thread(std::io::Error),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("{0}")]
    Book(#[from] crate::book::BookError),
    #[error("{0}")]
    BookBuild(#[from] crate::book::build::BuildError),
    /// Stopped by Ctrl-C, what was finished kept: said as it is (no
    /// "error:"), exit 130 as a shell gives a process ended by SIGINT.
    #[error("{0}")]
    Stopped(String),
}

impl CliError {
    /// The process exit code: 2 for bad input, 130 for a stop by Ctrl-C,
    /// 1 for anything else.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Fen(_)
            | CliError::Move { .. }
            | CliError::BadInput(_)
            | CliError::Book(_)
            | CliError::BookBuild(_) => 2,
            CliError::Thread(_) | CliError::Io(_) => 1,
            CliError::Stopped(_) => 130,
        }
    }
}

const BENCH_POSITIONS: &str = include_str!("../../assets/bench.fen");
/// Transposition table per bench position: small, so allocating it does not
/// dominate the short searches, and cleared for each position so the node
/// count does not depend on the order.
const BENCH_HASH_MB: usize = 16;
pub const DEFAULT_BENCH_DEPTH: u32 = 9;
/// `kibitz bench --movetables`: Greer measured at 5 plies; the full engine
/// reaches 6 in a few milliseconds a position.
pub const DEFAULT_TABLE_BENCH_DEPTH: u32 = 6;

/// A position from an optional FEN (default: the start position) and moves in
/// UCI notation played from it. Returns the position and the history keys.
pub fn setup(fen: Option<&str>, moves: &[String]) -> Result<(Chess, Vec<u64>), CliError> {
    let (position, line) = play_line(fen, moves)?;
    let history = line
        .iter()
        .map(|(before, _)| position_key(before))
        .collect();
    Ok((position, history))
}

/// The position that `--fen` and `--moves` give, and each move played with
/// the position before it. Every command reads `--moves` here, so all take
/// the same words: SAN or UCI (`Nf3`, `g1f3`, `O-O`, `e8=Q`).
pub fn play_line(
    fen: Option<&str>,
    moves: &[String],
) -> Result<(Chess, Vec<(Chess, Move)>), CliError> {
    let mut position = match fen {
        Some(fen) => parse_fen(fen)?,
        None => Chess::default(),
    };
    let mut line = Vec::with_capacity(moves.len());
    for (index, text) in moves.iter().enumerate() {
        let m = parse_move(&position, text).map_err(|source| CliError::Move {
            index: index + 1,
            source,
        })?;
        line.push((position.clone(), m));
        position.play_unchecked(m);
    }
    Ok((position, line))
}

/// Text from a file, safe to print to a terminal: control characters (an
/// escape sequence could retitle the window or clear it, a carriage return
/// overwrite the line) and bidirectional overrides are shown escaped, as
/// `\u{1b}` or `\r`, instead of acting.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    let acts =
        |c: char| c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    if !text.chars().any(acts) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if acts(c) && c.is_ascii() {
            out.extend(c.escape_debug());
        } else if acts(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

fn score_json(score: Score) -> serde_json::Value {
    match score {
        Score::Centipawns(cp) => json!({"cp": cp}),
        Score::Mate(n) => json!({"mate": n}),
    }
}

fn bound_name(bound: Bound) -> &'static str {
    match bound {
        Bound::Exact => "exact",
        Bound::Lower => "lower",
        Bound::Upper => "upper",
    }
}

fn stats_json(stats: &SearchStats) -> serde_json::Value {
    let totals = &stats.totals;
    json!({
        "main_nodes": totals.main,
        "quiescence_nodes": totals.quiescence,
        "leaves": totals.leaves,
        "beta_cutoffs": totals.beta_cutoffs,
        "first_move_cutoffs": totals.first_move_cutoffs,
        "first_move_cutoff_rate": totals.first_move_cutoff_rate(),
        "tt_probes": totals.tt_probes,
        "tt_hits": totals.tt_hits,
        "tt_cutoffs": totals.tt_cutoffs,
        "quiescence_share": totals.quiescence_share(),
        "selective_depth": stats.selective_depth,
        "elapsed_ms": stats.elapsed_ms,
        "nodes_per_second": stats.nodes_per_second(),
        "effective_branching_factor": stats.effective_branching_factor(),
        "branching_factors": stats.branching_factors(),
        "iterations": stats.iterations,
    })
}

fn human_count(n: u64) -> String {
    match n {
        0..10_000 => n.to_string(),
        10_000..10_000_000 => format!("{:.1}k", n as f64 / 1e3),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

pub struct AnalyzeArgs {
    pub fen: Option<String>,
    pub moves: Vec<String>,
    pub depth: Option<u32>,
    pub movetime: Option<u64>,
    pub nodes: Option<u64>,
    pub multipv: usize,
    pub hash_mb: usize,
    pub json: bool,
}

pub fn analyze(args: &AnalyzeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let (position, history) = setup(args.fen.as_deref(), &args.moves)?;
    let opening = opening_of(args.fen.as_deref(), &args.moves)?;
    if let Some(depth) = args.depth
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
    if !(1..=crate::engine::MAX_HASH_MB).contains(&args.hash_mb) {
        return Err(CliError::BadInput(format!(
            "hash {} MiB is out of range 1..={}",
            args.hash_mb,
            crate::engine::MAX_HASH_MB
        )));
    }
    // One rule with `review`: a search of no time or no nodes is no search.
    if args.movetime == Some(0) {
        return Err(CliError::BadInput(
            "movetime 0 ms is out of range: give at least 1".into(),
        ));
    }
    if args.nodes == Some(0) {
        return Err(CliError::BadInput(
            "nodes 0 is out of range: give at least 1".into(),
        ));
    }
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        ..Limits::default()
    };
    if let (_, Some(cap)) = crate::engine::tt::hash_size(args.hash_mb) {
        eprintln!("note: --hash: {cap}");
    }
    let engine = Engine::new(args.hash_mb).map_err(CliError::Thread)?;
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
                    write_info(out, &position, &info, latest_stats.as_deref(), args.json)?;
                    written.retain(|w| w.0 != info.multipv);
                    written.push(key);
                }
            }
            // The engine reports the statistics of each finished iteration
            // just before that iteration's last line.
            Report::Stats { stats, .. } => {
                if !args.json
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
                depth,
                nodes,
                ..
            } => {
                if let Some((_, line)) = pending_stats.take() {
                    writeln!(out, "  {line}")?;
                }
                if args.json {
                    writeln!(
                        out,
                        "{}",
                        json!({
                            "type": "bestmove",
                            "bestmove": best_move.map(uci),
                            "san": best_move.map(|m| san_line(&position, &[m]).join("")),
                            "ponder": ponder.map(uci),
                            "score": score_json(score),
                            "depth": depth,
                            "nodes": nodes,
                            "opening": opening.map(|o| json!({"eco": o.eco, "name": o.name})),
                        })
                    )?;
                } else {
                    let named = opening
                        .map(|o| format!(" opening {} {}", o.eco, o.name))
                        .unwrap_or_default();
                    match best_move {
                        Some(m) => writeln!(
                            out,
                            "bestmove {} ({}) score {} depth {depth} nodes {nodes}{named}",
                            uci(m),
                            san_line(&position, &[m]).join(""),
                            score_text_white(score, side),
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
    fen: Option<&str>,
    moves: &[String],
) -> Result<Option<&'static crate::book::openings::Opening>, CliError> {
    let (last, line) = play_line(fen, moves)?;
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
        let bound = match info.bound {
            Bound::Exact => "",
            Bound::Lower => " (lower bound)",
            Bound::Upper => " (upper bound)",
        };
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

/// The positions `kibitz bench` searches.
pub fn bench_positions() -> Result<Vec<Chess>, CliError> {
    BENCH_POSITIONS
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|fen| parse_fen(fen).map_err(CliError::from))
        .collect()
}

/// `kibitz bench`: every bench position searched to `depth` on `threads`
/// threads. With one thread the total node count is the engine's
/// signature, the same on every run; with more it varies (the threads race
/// through a shared table), and nps counts the nodes of every thread.
pub fn bench(
    depth: u32,
    threads: usize,
    eval: &str,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    if !(1..=30).contains(&depth) {
        return Err(CliError::BadInput(format!(
            "depth {depth} is out of range 1..=30"
        )));
    }
    if !(1..=crate::engine::MAX_THREADS).contains(&threads) {
        return Err(CliError::BadInput(format!(
            "threads {threads} is out of range 1..={}",
            crate::engine::MAX_THREADS
        )));
    }
    let network = crate::engine::nnue::choose(eval)
        .map_err(|e| CliError::BadInput(format!("--eval: {e}")))?;
    let positions = bench_positions()?;
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    for (index, position) in positions.iter().enumerate() {
        let start = Instant::now();
        let result = search::search_fresh_threads(
            position,
            &Limits::depth(depth),
            SearchOptions::default(),
            BENCH_HASH_MB,
            threads,
            network.as_deref(),
        );
        // Table allocation is not search time.
        let elapsed = result.elapsed.min(start.elapsed());
        total_nodes += result.nodes;
        total_time += elapsed;
        if json {
            writeln!(
                out,
                "{}",
                json!({
                    "type": "position",
                    "index": index + 1,
                    "fen": shakmaty::fen::Fen::from_position(position, shakmaty::EnPassantMode::Legal).to_string(),
                    "bestmove": result.best_move.map(uci),
                    "score": score_json(result.score),
                    "nodes": result.nodes,
                    "time_ms": elapsed.as_millis() as u64,
                })
            )?;
        } else {
            writeln!(
                out,
                "position {:>2}/{}  best {:<6} score {:>7}  nodes {:>9}",
                index + 1,
                positions.len(),
                result.best_move.map(uci).unwrap_or_else(|| "none".into()),
                score_text_white(result.score, position.turn()),
                result.nodes
            )?;
        }
    }
    let nps = (u128::from(total_nodes) * 1_000_000 / total_time.as_micros().max(1)) as u64;
    if json {
        writeln!(
            out,
            "{}",
            json!({"type": "total", "depth": depth, "threads": threads, "positions": positions.len(), "nodes": total_nodes, "nps": nps, "time_ms": total_time.as_millis() as u64})
        )?;
    } else {
        writeln!(out, "nodes {total_nodes} nps {nps}")?;
    }
    Ok(())
}

pub fn perft_command(
    fen: Option<&str>,
    depth: u32,
    divide: bool,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    if !(1..=12).contains(&depth) {
        return Err(CliError::BadInput(format!(
            "depth {depth} is out of range 1..=12"
        )));
    }
    let (position, _) = setup(fen, &[])?;
    let start = Instant::now();
    let (nodes, split): (u64, Vec<(Move, u64)>) = if divide {
        let split = perft::divide(&position, depth);
        (split.iter().map(|(_, n)| n).sum(), split)
    } else {
        (perft::perft(&position, depth), Vec::new())
    };
    let elapsed = start.elapsed();
    let nps = (u128::from(nodes) * 1_000_000 / elapsed.as_micros().max(1)) as u64;
    if json {
        let divide: serde_json::Map<String, serde_json::Value> =
            split.iter().map(|&(m, n)| (uci(m), json!(n))).collect();
        let mut object = json!({"type": "perft", "depth": depth, "nodes": nodes, "time_ms": elapsed.as_millis() as u64, "nps": nps});
        if !split.is_empty() {
            object["divide"] = serde_json::Value::Object(divide);
        }
        writeln!(out, "{object}")?;
    } else {
        for (m, n) in &split {
            writeln!(out, "{}: {n}", uci(*m))?;
        }
        writeln!(out, "nodes {nodes}")?;
        writeln!(out, "time {:.3}s nps {nps}", elapsed.as_secs_f64())?;
    }
    Ok(())
}
