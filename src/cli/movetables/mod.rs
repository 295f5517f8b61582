//! `kibitz movetables` (the twelve move tables after a search, or after each
//! move of a game with `--pgn`: `over_game.rs`) and
//! `kibitz bench --movetables` (Greer's Table 1 for kibitz: how the tables
//! change the size of the search over every position of real games).

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde_json::json;
use shakmaty::{Chess, Position, Square};

use super::flags::{JsonFlag, PositionArgs};
use super::{CliError, setup};
use crate::engine::heuristics::Heuristics;
use crate::engine::movetables::{Decrement, TableId, TableWeights};
use crate::engine::search;
use crate::engine::trace::NoTrace;
use crate::engine::tt::TranspositionTable;
use crate::engine::{Limits, SearchOptions};

pub(super) const HASH_MB: usize = 16;
pub const MAX_MOVETABLES_DEPTH: u32 = 20;

/// `kibitz movetables`: the position, the depth, the output and the rule
/// for which moves lose weight at a cutoff.
#[derive(Args, Debug)]
#[command(mut_arg("json", |a| a.help("JSON: 12 tables, each with colour, piece, 64 weights and 64 touches a1..h8; the links; the history heuristic's 12 tables (with --pgn: one line a snapshot, with ply, move, fen, nodes, tables and links)")))]
#[command(mut_arg("fen", |a| a.conflicts_with("pgn")))]
#[command(mut_arg("moves", |a| a.conflicts_with("pgn")))]
#[command(
    subcommand_negates_reqs = true,
    args_conflicts_with_subcommands = true,
    disable_help_subcommand = true
)]
pub struct MovetablesArgs {
    #[command(subcommand)]
    pub command: Option<MovetablesCommand>,
    #[command(flatten)]
    pub position: PositionArgs,
    /// Play through a game of this PGN file, searching each position as
    /// the engine would in the game (the tables kept from move to move),
    /// and write the tables after each searched move.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// With --pgn: which game of the file (1 = the first; default 1).
    #[arg(long, value_name = "N", requires = "pgn", value_parser = parse_count)]
    pub game: Option<usize>,
    /// With --pgn: keep the tables after the plies that are multiples of N
    /// (ply 0 is the game's first position), and always after the last
    /// (default 1: every ply).
    #[arg(long, value_name = "N", requires = "pgn", value_parser = parse_count)]
    pub every: Option<usize>,
    /// With --pgn: CSV, one row per snapshot, table and square:
    /// ply,move,table,square,weight,touches,importance.
    #[arg(long, requires = "pgn", conflicts_with = "json")]
    pub csv: bool,
    /// Search depth (plies), 1 to 20.
    #[arg(long, required = true)]
    pub depth: Option<u32>,
    #[command(flatten)]
    pub output: JsonFlag,
    /// Which moves lose weight at a cutoff: `tried` (the moves searched
    /// before the cutoff) or `all` (every other legal move, Greer's rule);
    /// default `tried`, or `all` with --chains, as in the paper.
    #[arg(long, value_parser = parse_decrement)]
    pub decrement: Option<Decrement>,
    /// With --pgn: search each position with Greer's move-chain search
    /// (its chains kept from move to move, like the tables) instead of the
    /// engine's.
    #[arg(long, requires = "pgn")]
    pub chains: bool,
}

impl MovetablesArgs {
    /// The rule asked for, or the default: the paper's with its search.
    fn decrement(&self) -> Decrement {
        self.decrement.unwrap_or(if self.chains {
            Decrement::All
        } else {
            Decrement::Tried
        })
    }
}

/// `kibitz movetables` subcommands.
#[derive(Subcommand, Debug)]
pub enum MovetablesCommand {
    /// Greer's Table 1 reproduced: nodes of the move-chain search alone and with 1, 2 and 4 table moves, over the 98 positions of a game, beside the paper's figures.
    Experiment(ExperimentArgs),
}

impl MovetablesArgs {
    pub fn run(&self, out: &mut dyn Write) -> Result<(), CliError> {
        if let Some(MovetablesCommand::Experiment(args)) = &self.command {
            return args.run(out);
        }
        let depth = self
            .depth
            .ok_or_else(|| CliError::BadInput("movetables needs --depth".into()))?;
        if let Some(pgn) = &self.pgn {
            let format = match (self.output.json, self.csv) {
                (true, _) => over_game::Format::Json,
                (false, true) => over_game::Format::Csv,
                (false, false) => over_game::Format::Text,
            };
            return over_game::movetables_over_game(
                over_game::OverGame {
                    pgn,
                    game: self.game.unwrap_or(1),
                    every: self.every.unwrap_or(1),
                    depth,
                    decrement: self.decrement(),
                    chains: self.chains,
                    format,
                },
                out,
            );
        }
        movetables(
            self.position.fen(),
            &self.position.moves,
            depth,
            self.decrement(),
            self.output.json,
            out,
        )
    }
}

/// `--game N` and `--every N`: a whole number from 1.
fn parse_count(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("'{text}' is not a whole number from 1")),
    }
}

/// `--decrement tried|all`.
pub(super) fn parse_decrement(text: &str) -> Result<Decrement, String> {
    Decrement::parse(text).ok_or_else(|| format!("'{text}' is not a decrement rule: tried or all"))
}

/// Search once and print the twelve tables: as grids (rank 8 at the top,
/// as a board is drawn), or as JSON with 64 weights a1..h8 per table.
pub fn movetables(
    fen: Option<&str>,
    moves: &[String],
    depth: u32,
    decrement: Decrement,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    check_depth(depth)?;
    let (position, history) = setup(fen, moves)?;
    if position.legal_moves().is_empty() {
        return Err(CliError::BadInput(
            "the game is over in this position: there is nothing to search".into(),
        ));
    }
    let mut tt = TranspositionTable::new(HASH_MB);
    let mut heuristics = Box::<Heuristics>::default();
    let options = SearchOptions {
        table_decrement: decrement,
        ..SearchOptions::default()
    };
    let result = search_with(
        &position,
        &history,
        depth,
        options,
        &mut tt,
        &mut heuristics,
    );
    let maps = heuristics.maps();
    let weights = &maps;
    let (gains, losses) = weights.gains_and_losses();
    if json {
        let (tables, history, links) = tables_json(weights);
        writeln!(
            out,
            "{}",
            json!({
                "fen": shakmaty::fen::Fen::from_position(&position, shakmaty::EnPassantMode::Legal).to_string(),
                "depth": depth,
                "nodes": result.nodes,
                "squares": "a1..h8",
                "decrement": decrement.name(),
                "gains": gains,
                "losses": losses,
                "tables": tables,
                "links": links,
                "history": history,
            })
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "Move tables after a search to depth {depth} ({} nodes); + squares of refuting moves, - squares of moves that failed; '.' never considered",
        result.nodes
    )?;
    writeln!(
        out,
        "Gains {gains}, losses {losses} ({}); at a cutoff {}",
        ratio_words(losses, gains),
        match decrement {
            Decrement::Tried => "the moves tried before it lose weight (--decrement tried)",
            Decrement::All => "every other legal move loses weight (--decrement all, Greer's rule)",
        }
    )?;
    for id in TableId::ALL {
        writeln!(out)?;
        write!(out, "{}", grid(weights, id))?;
    }
    Ok(())
}

/// The twelve tables, the history heuristic's twelve and the links, as
/// JSON: one object per table (colour, piece, code, 64 weights a1..h8, and
/// for Greer's tables the touches and the importance).
pub(super) fn tables_json(
    weights: &TableWeights,
) -> (
    Vec<serde_json::Value>,
    Vec<serde_json::Value>,
    Vec<serde_json::Value>,
) {
    // One object per table, the same shape for Greer's tables and for
    // the history heuristic's.
    let table_json = |id: TableId, values: &[i32; 64]| {
        json!({
            "color": id.color_name(),
            "piece": id.piece_name(),
            "code": id.code(),
            "weights": values.to_vec(),
        })
    };
    let tables: Vec<_> = TableId::ALL
        .iter()
        .map(|&id| {
            let mut table = table_json(id, weights.table(id));
            table["touches"] = json!(weights.touches(id).to_vec());
            // Greer's importance: the absolute weight.
            table["importance"] = json!(
                weights
                    .table(id)
                    .iter()
                    .map(|w| w.unsigned_abs())
                    .collect::<Vec<_>>()
            );
            table
        })
        .collect();
    let history: Vec<_> = TableId::ALL
        .iter()
        .map(|&id| table_json(id, weights.history_table(id)))
        .collect();
    let links: Vec<_> = weights
        .links
        .iter()
        .map(|l| {
            json!({
                "after": l.after.code(),
                "after_from": l.after_from.to_string(),
                "answer": l.answer.code(),
                "answer_from": l.answer_from.to_string(),
                "weight": l.weight,
                "words": l.words(),
            })
        })
        .collect();
    (tables, history, links)
}

/// Losses beside gains in words: "18% of the gains", "29 times the gains".
fn ratio_words(losses: u64, gains: u64) -> String {
    if gains == 0 {
        return "no gains".into();
    }
    let ratio = losses as f64 / gains as f64;
    if ratio < 1.0 {
        format!("{:.0}% of the gains", ratio * 100.0)
    } else {
        format!("{ratio:.0} times the gains")
    }
}

/// One table as text: a title, then rank 8 to rank 1.
fn grid(weights: &TableWeights, id: TableId) -> String {
    let table = weights.table(id);
    let width = table
        .iter()
        .map(|w| w.to_string().len())
        .max()
        .unwrap_or(1)
        .max(2);
    let mut text = format!("{} ({})\n", id.name(), id.code());
    for rank in (0..8u32).rev() {
        text.push_str(&format!("{} ", rank + 1));
        for file in 0..8u32 {
            let square = Square::new(rank * 8 + file);
            let w = table[square.to_usize()];
            let cell = if !weights.considered(id, square) {
                ".".to_string()
            } else {
                w.to_string()
            };
            text.push_str(&format!(" {cell:>width$}"));
        }
        text.push('\n');
    }
    text.push_str("  ");
    for file in "abcdefgh".chars() {
        text.push_str(&format!(" {file:>width$}"));
    }
    text.push('\n');
    text
}

pub(super) fn search_with(
    position: &Chess,
    history: &[u64],
    depth: u32,
    options: SearchOptions,
    tt: &mut TranspositionTable,
    heuristics: &mut Heuristics,
) -> search::SearchResult {
    search::search_kept(
        position,
        history,
        &Limits::depth(depth),
        options,
        (tt, heuristics),
        &|| false,
        &mut NoTrace,
    )
}

pub(super) fn check_depth(depth: u32) -> Result<(), CliError> {
    if (1..=MAX_MOVETABLES_DEPTH).contains(&depth) {
        Ok(())
    } else {
        Err(CliError::BadInput(format!(
            "depth {depth} is out of range 1..={MAX_MOVETABLES_DEPTH}"
        )))
    }
}

mod bench;
pub mod experiment;
pub use bench::bench_movetables;
use experiment::ExperimentArgs;
pub mod over_game;

#[cfg(test)]
mod tests;
