//! `kibitz perft`: the leaf nodes of the move tree, a test of the move
//! generator.

use std::io::Write;
use std::time::Instant;

use clap::Args;
use serde_json::json;
use shakmaty::Move;

use super::flags::{FenArg, JsonFlag};
use super::{CliError, setup};
use crate::game::notation::uci;
use crate::perft;

/// `kibitz perft`: position, depth, per-move counts, output.
#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub position: FenArg,
    /// Depth in plies: count the move sequences this long.
    #[arg(long)]
    pub depth: u32,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    #[command(flatten)]
    pub output: JsonFlag,
}

impl PerftArgs {
    pub fn run(&self, out: &mut dyn Write) -> Result<(), CliError> {
        perft_command(
            self.position.fen.as_deref(),
            self.depth,
            self.divide,
            self.output.json,
            out,
        )
    }
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
