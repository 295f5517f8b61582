//! `kibitz bench`: a fixed set of positions searched to a depth; the total
//! node count is the search's signature. With `--movetables`, Greer's
//! Table 1 instead (see [`super::movetables::bench_movetables`]).

use std::io::Write;
use std::time::{Duration, Instant};

use clap::Args;
use serde_json::json;
use shakmaty::{Chess, Position};

use super::{CliError, score_json};
use crate::engine::search;
use crate::engine::{Limits, SearchOptions};
use crate::game::fen::parse_fen;
use crate::game::notation::uci;
use crate::text::score_text_white;

const BENCH_POSITIONS: &str = include_str!("../../assets/bench.fen");
/// Transposition table per bench position: small, so allocating it does not
/// dominate the short searches, and cleared for each position so the node
/// count does not depend on the order.
const BENCH_HASH_MB: usize = 16;
pub const DEFAULT_BENCH_DEPTH: u32 = 9;
/// `kibitz bench --movetables`: Greer measured at 5 plies; the full engine
/// reaches 6 in a few milliseconds a position.
pub const DEFAULT_TABLE_BENCH_DEPTH: u32 = 6;

/// `kibitz bench`: depth, output, and either the engine's bench (threads,
/// evaluation) or Greer's table moves (`--movetables`, games).
#[derive(Args, Debug)]
#[command(mut_arg("json", |a| a.help("One JSON object per line")))]
pub struct BenchArgs {
    /// Search depth per position (default 9; 6 with --movetables).
    #[arg(long)]
    pub depth: Option<u32>,
    #[command(flatten)]
    pub output: super::flags::JsonFlag,
    /// Instead: Greer's Table 1, nodes to --depth (default 6) over every position of real games for each number of table moves, as in 0,1,2,4.
    #[arg(long, value_delimiter = ',', num_args = 1..)]
    pub movetables: Option<Vec<u8>>,
    /// The games for --movetables (default: Kasparov - Deep Blue 1997, built in).
    #[arg(long, requires = "movetables")]
    pub pgn: Option<std::path::PathBuf>,
    /// Search threads, 1-256 (default 1). nps counts every thread; with
    /// more than one the node count differs from run to run.
    #[arg(long, default_value_t = 1, conflicts_with = "movetables")]
    pub threads: usize,
    /// The evaluation: handwritten (the default, whose node count is the
    /// search's signature), builtin (the shipped network) or a network file.
    #[arg(long, default_value = "handwritten", conflicts_with = "movetables")]
    pub eval: String,
}

impl BenchArgs {
    pub fn run(&self, out: &mut dyn Write) -> Result<(), CliError> {
        match &self.movetables {
            Some(counts) => super::movetables::bench_movetables(
                counts,
                self.depth.unwrap_or(DEFAULT_TABLE_BENCH_DEPTH),
                self.pgn.as_deref(),
                self.output.json,
                out,
            ),
            None => bench(
                self.depth.unwrap_or(DEFAULT_BENCH_DEPTH),
                self.threads,
                &self.eval,
                self.output.json,
                out,
            ),
        }
    }
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
