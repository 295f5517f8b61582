//! `kibitz movetables experiment`: Greer's Table 1 reproduced. The
//! move-chain search (`engine/chain_search.rs`) alone, then with 1, 2 and 4
//! table moves, over the positions of one game searched in order (the
//! chains and the tables carried from each search to the next, as in a
//! game), with the paper's figures beside kibitz's.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;

use clap::Args;
use serde_json::json;
use shakmaty::{Chess, Move, Position};

use super::bench::{BENCH_GAMES_NAME, bench_games};
use super::{check_depth, parse_decrement};
use crate::cli::CliError;
use crate::cli::flags::JsonFlag;
use crate::engine::heuristics::Heuristics;
use crate::engine::movetables::Decrement;
use crate::engine::protocol::{MAX_TABLE_MOVES, MAX_TABLE_THRESHOLD};
use crate::engine::search::search_kept;
use crate::engine::stats::ChainStats;
use crate::engine::trace::NoTrace;
use crate::engine::tt::TranspositionTable;
use crate::engine::{Limits, SearchOptions, position_key};

/// The built-in positions: the 5th game of the bench's match (Kasparov -
/// Deep Blue, New York 1997, game 5, drawn), the one game there with 98
/// plies, as many positions as the paper's "full game containing 98
/// separate positions".
const BUILT_IN_GAME: usize = 4;
const BUILT_IN_PLIES: usize = 98;

/// The paper's Table 1: average nodes of the alpha-beta stage, by the
/// number of table moves (0: move chains alone).
pub const PAPER_NODES: [(u8, u64); 4] = [(0, 545), (1, 13_367), (2, 12_117), (4, 12_550)];
/// "move tables are used maybe only 30% of the time" (with tables).
pub const PAPER_TABLE_SHARE: f64 = 0.30;

#[derive(Args, Debug)]
#[command(mut_arg("json", |a| a.help("JSON lines: one {\"type\":\"row\"} per search setting, then {\"type\":\"total\"}")))]
pub struct ExperimentArgs {
    /// Depth (plies) of every search; the paper's is 5.
    #[arg(long, default_value_t = 5)]
    pub depth: u32,
    /// Numbers of table moves to compare with the chains alone (the
    /// paper's 1, 2 and 4), comma-separated; the chains alone (0) always
    /// come first.
    #[arg(long, value_delimiter = ',', default_value = "1,2,4")]
    pub table_moves: Vec<u8>,
    /// Positions to search in order, one FEN or 4-field EPD per line
    /// (`#` comments and blank lines skipped), instead of the built-in game.
    #[arg(long, value_name = "FILE")]
    pub epd: Option<PathBuf>,
    /// Which moves lose table weight at a cutoff: `all` (every other legal
    /// move, the paper's rule) or `tried`.
    #[arg(long, default_value = "all", value_parser = parse_decrement)]
    pub decrement: Decrement,
    /// A move is a table move only if its squares' weights add up to more
    /// than this.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub threshold: i32,
    #[command(flatten)]
    pub output: JsonFlag,
}

/// One search setting over all the positions.
#[derive(Debug, Clone)]
pub struct ExperimentRow {
    pub table_moves: u8,
    /// The move-chain search's own counts, summed over the positions.
    pub chains: ChainStats,
    /// Nodes of the quiescence search beyond the horizon, summed.
    pub quiescence: u64,
    /// The best move of each position's search.
    pub best_moves: Vec<Option<Move>>,
}

impl ExperimentRow {
    /// Table 1's figure: mean nodes of the alpha-beta stage a position.
    pub fn mean_nodes(&self, positions: usize) -> f64 {
        self.chains.alpha_beta_nodes() as f64 / positions.max(1) as f64
    }

    /// Share of interior nodes where at least one table move was searched.
    pub fn table_share(&self) -> f64 {
        self.chains.table_nodes as f64 / self.chains.interior.max(1) as f64
    }

    /// Positions where this setting chose the same move as `other`.
    pub fn same_moves(&self, other: &ExperimentRow) -> usize {
        self.agrees_with(&other.best_moves)
    }

    /// Positions where this setting chose the move of `moves`.
    pub fn agrees_with(&self, moves: &[Option<Move>]) -> usize {
        self.best_moves
            .iter()
            .zip(moves)
            .filter(|(a, b)| a == b)
            .count()
    }
}

/// The experiment's result: rows in the order given, the chains alone
/// first.
#[derive(Debug, Clone)]
pub struct Experiment {
    /// Positions searched (those with a legal move).
    pub positions: usize,
    /// Positions with no legal move (mate or stalemate), left out.
    pub skipped: usize,
    /// Whether the positions are the built-in game's, as the paper's are
    /// one game's 98.
    pub built_in: bool,
    /// The best move of the engine's own search (full width, with its
    /// table and reductions) to the same depth: the move-quality check the
    /// paper leaves out.
    pub engine_moves: Vec<Option<Move>>,
    pub depth: u32,
    pub source: String,
    pub rows: Vec<ExperimentRow>,
}

impl Experiment {
    /// Whether this run is the paper's: the built-in 98 positions at depth
    /// 5, where its figures can stand beside kibitz's.
    pub fn is_papers(&self) -> bool {
        self.built_in && self.depth == 5 && self.positions == BUILT_IN_PLIES
    }
}

impl ExperimentArgs {
    pub fn run(&self, out: &mut dyn Write) -> Result<(), CliError> {
        check_depth(self.depth)?;
        if let Some(&bad) = self.table_moves.iter().find(|&&x| x > MAX_TABLE_MOVES) {
            return Err(CliError::BadInput(format!(
                "{bad} table moves is out of range 0..={MAX_TABLE_MOVES}"
            )));
        }
        if self.threshold.abs() > MAX_TABLE_THRESHOLD {
            return Err(CliError::BadInput(format!(
                "threshold {} is out of range -{MAX_TABLE_THRESHOLD}..={MAX_TABLE_THRESHOLD}",
                self.threshold
            )));
        }
        let (positions, source) = match &self.epd {
            Some(path) => (read_epd(path)?, path.display().to_string()),
            None => built_in_positions()?,
        };
        let experiment = run_experiment(
            &positions,
            self.epd.is_none(),
            &source,
            self.depth,
            &self.table_moves,
            self.decrement,
            self.threshold,
        );
        if self.output.json {
            write_json(&experiment, self.decrement, self.threshold, out)
        } else {
            write_table(&experiment, self.decrement, self.threshold, out)
        }
    }
}

/// The 98 positions of the built-in game, before each of its moves.
pub fn built_in_positions() -> Result<(Vec<Chess>, String), CliError> {
    let (games, _) = bench_games(None)?;
    let game = games
        .get(BUILT_IN_GAME)
        .filter(|g| g.len() == BUILT_IN_PLIES + 1)
        .ok_or_else(|| CliError::BadInput("the built-in game is missing".into()))?;
    let name = format!(
        "game 5 of {} ({BUILT_IN_PLIES} positions)",
        BENCH_GAMES_NAME.trim_end_matches(" (6 games)")
    );
    Ok((game[..BUILT_IN_PLIES].to_vec(), name))
}

/// Positions from an EPD or FEN file, in file order.
fn read_epd(path: &std::path::Path) -> Result<Vec<Chess>, CliError> {
    let file = crate::fsutil::open_regular(path).map_err(|e| CliError::BadInput(e.to_string()))?;
    let mut positions = Vec::new();
    for (index, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| {
            CliError::BadInput(format!("{}: line {}: {e}", path.display(), index + 1))
        })?;
        // (A byte-order mark some editors write is not part of the FEN.)
        let text = line.trim_start_matches('\u{feff}').trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        // EPD: the four fields of a FEN, then operations; a FEN has six.
        let fields: Vec<&str> = text.split_whitespace().collect();
        let fen = if fields.len() >= 6 && fields[4].parse::<u32>().is_ok() {
            fields[..6].join(" ")
        } else {
            fields[..fields.len().min(4)].join(" ")
        };
        let position = crate::game::fen::parse_fen(&fen).map_err(|e| {
            CliError::BadInput(format!("{}: line {}: {e}", path.display(), index + 1))
        })?;
        positions.push(position);
    }
    if positions.is_empty() {
        return Err(CliError::BadInput(format!(
            "{}: no position in the file",
            path.display()
        )));
    }
    Ok(positions)
}

/// Search every position once per setting, in order, with one set of
/// chains and tables per setting carried from each search to the next.
pub fn run_experiment(
    all_positions: &[Chess],
    built_in: bool,
    source: &str,
    depth: u32,
    table_moves: &[u8],
    decrement: Decrement,
    threshold: i32,
) -> Experiment {
    // A position with no legal move (mate, stalemate) has nothing to
    // search: it is left out and counted. Its key stays in the history, as
    // a game's would.
    let searched: Vec<(usize, &Chess)> = all_positions
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.legal_moves().is_empty())
        .collect();
    let positions: Vec<Chess> = searched.iter().map(|(_, p)| (*p).clone()).collect();
    let keys_before: Vec<Vec<u64>> = searched
        .iter()
        .map(|&(i, _)| all_positions[..i].iter().map(position_key).collect())
        .collect();
    // The chains alone first, then each number of table moves once.
    let mut settings = vec![0u8];
    for &count in table_moves {
        if !settings.contains(&count) {
            settings.push(count);
        }
    }
    let rows = settings
        .iter()
        .map(|&count| {
            let options = SearchOptions {
                move_chains: true,
                table_moves: count,
                table_threshold: threshold,
                table_decrement: decrement,
                ..SearchOptions::default()
            };
            // The chain search asks no table; the smallest one will do.
            let mut tt = TranspositionTable::new(1);
            let mut heuristics = Box::<Heuristics>::default();
            let mut chains = ChainStats::default();
            let mut quiescence = 0;
            let mut best_moves = Vec::with_capacity(positions.len());
            for (position, keys) in positions.iter().zip(&keys_before) {
                let result = search_kept(
                    position,
                    keys,
                    &Limits::depth(depth),
                    options,
                    (&mut tt, &mut heuristics),
                    &|| false,
                    &mut NoTrace,
                );
                let stats = result.stats.chains.unwrap_or_default();
                quiescence += result.nodes - stats.alpha_beta_nodes();
                chains += stats;
                best_moves.push(result.best_move);
            }
            ExperimentRow {
                table_moves: count,
                chains,
                quiescence,
                best_moves,
            }
        })
        .collect();
    Experiment {
        positions: positions.len(),
        skipped: all_positions.len() - positions.len(),
        built_in,
        engine_moves: engine_moves(&positions, &keys_before, depth),
        depth,
        source: source.to_string(),
        rows,
    }
}

/// The engine's own best move in each position, searched in order as in a
/// game (one table and one set of heuristics kept between the moves).
fn engine_moves(positions: &[Chess], keys: &[Vec<u64>], depth: u32) -> Vec<Option<Move>> {
    let mut tt = TranspositionTable::new(16);
    let mut heuristics = Box::<Heuristics>::default();
    positions
        .iter()
        .zip(keys)
        .map(|(position, keys)| {
            search_kept(
                position,
                keys,
                &Limits::depth(depth),
                SearchOptions::default(),
                (&mut tt, &mut heuristics),
                &|| false,
                &mut NoTrace,
            )
            .best_move
        })
        .collect()
}

fn paper_nodes(table_moves: u8) -> Option<u64> {
    PAPER_NODES
        .iter()
        .find(|(count, _)| *count == table_moves)
        .map(|&(_, nodes)| nodes)
}

fn label(table_moves: u8) -> String {
    match table_moves {
        0 => "move chains alone".into(),
        1 => "+ tables, 1 move".into(),
        n => format!("+ tables, {n} moves"),
    }
}

fn write_json(
    experiment: &Experiment,
    decrement: Decrement,
    threshold: i32,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let Some(base) = experiment.rows.first() else {
        return Ok(());
    };
    let positions = experiment.positions;
    for row in &experiment.rows {
        writeln!(
            out,
            "{}",
            json!({
                "type": "row",
                "table_moves": row.table_moves,
                "nodes": row.chains.alpha_beta_nodes(),
                "mean_nodes": round1(row.mean_nodes(positions)),
                "quiescence_nodes": row.quiescence,
                "ratio": round3(ratio(row.mean_nodes(positions), base.mean_nodes(positions))),
                "table_share": round3(row.table_share()),
                "table_moves_searched": row.chains.table_moves,
                "table_best": row.chains.table_best,
                "chain_nodes": row.chains.chain_nodes,
                "pruned": row.chains.pruned,
                "same_move": row.same_moves(base),
                "engine_move": row.agrees_with(&experiment.engine_moves),
                "paper_mean_nodes": if experiment.is_papers() { paper_nodes(row.table_moves) } else { None },
            })
        )?;
    }
    writeln!(
        out,
        "{}",
        json!({
            "type": "total",
            "positions": positions,
            "depth": experiment.depth,
            "source": experiment.source,
            "skipped": experiment.skipped,
            "decrement": decrement.name(),
            "threshold": threshold,
            "paper_table_share": PAPER_TABLE_SHARE,
        })
    )?;
    Ok(())
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn write_table(
    experiment: &Experiment,
    decrement: Decrement,
    threshold: i32,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let Some(base) = experiment.rows.first() else {
        return Ok(());
    };
    let positions = experiment.positions;
    let rule = match decrement {
        Decrement::All => "every other legal move loses table weight (the paper's rule)",
        Decrement::Tried => "the moves tried before it lose table weight",
    };
    let mut title = format!(
        "Greer's Table 1: the move-chain search to depth {} over {}; chains and tables kept from each search to the next; at a cutoff {rule}; table threshold {threshold}.",
        experiment.depth, experiment.source,
    );
    if experiment.skipped > 0 {
        title.push_str(&format!(
            " {} with no legal move skipped.",
            count_words(experiment.skipped, "position")
        ));
    }
    for line in wrap(&title, 78) {
        writeln!(out, "{line}")?;
    }
    writeln!(out)?;
    let paper = experiment.is_papers();
    writeln!(
        out,
        "{:<18} {:>8} {:>6} {:>6} {:>5} {:>6}{}",
        "search",
        "nodes",
        "ratio",
        "tables",
        "same",
        "engine",
        if paper { "   paper  ratio" } else { "" }
    )?;
    let paper_base = paper_nodes(0).unwrap_or(1) as f64;
    for row in &experiment.rows {
        let mean = row.mean_nodes(positions);
        let mut line = format!(
            "{:<18} {:>8.1} {:>5.2}x {:>5.1}% {:>5} {:>6}",
            label(row.table_moves),
            mean,
            ratio(mean, base.mean_nodes(positions)),
            row.table_share() * 100.0,
            row.same_moves(base),
            row.agrees_with(&experiment.engine_moves),
        );
        if paper {
            let nodes = paper_nodes(row.table_moves);
            line.push_str(&format!(
                " {:>7} {:>6}",
                nodes.map_or("-".to_string(), |n| n.to_string()),
                nodes.map_or("-".to_string(), |n| format!(
                    "{:.1}x",
                    n as f64 / paper_base
                )),
            ));
        }
        writeln!(out, "{line}")?;
    }
    writeln!(out)?;
    let notes = format!(
        "nodes: the mean a position of the alpha-beta stage (interior and horizon nodes, as the paper counts). ratio: against the chains alone. tables: the interior nodes where a table move was searched (the paper: about 30%). same: positions where the setting chose the chains' own move; engine: where it chose the move of kibitz's full search to the same depth (of {}).{}",
        experiment.positions,
        if paper {
            " paper: the paper's mean nodes and their ratio to its chains alone (98 positions of one game, depth 5)."
        } else {
            " The paper's figures are for 98 positions of one game at depth 5, so they are not shown beside these."
        }
    );
    for line in wrap(&notes, 78) {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// `a` against `b`, with nothing against nothing as 1.
fn ratio(a: f64, b: f64) -> f64 {
    if b == 0.0 { 1.0 } else { a / b }
}

fn count_words(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `text` in lines of at most `width` characters, broken between words.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}
