//! `kibitz bench --movetables`: Greer's Table 1 for kibitz, how the tables
//! change the size of the full engine's search over every position of real
//! games.

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;
use shakmaty::Chess;

use super::{HASH_MB, check_depth};
use crate::cli::CliError;
use crate::engine::SearchOptions;
use crate::engine::heuristics::Heuristics;
use crate::engine::movetables::over_game::learn_over_game;
use crate::engine::protocol::MAX_TABLE_MOVES;
use crate::engine::tt::TranspositionTable;
use crate::game::import::read_games;

/// The games `kibitz bench --movetables` walks by default: the six games of
/// Kasparov against Deep Blue, New York 1997.
pub(super) const BENCH_GAMES: &str =
    include_str!("../../../assets/games/kasparov-deep-blue-1997.pgn");
pub(super) const BENCH_GAMES_NAME: &str = "Kasparov - Deep Blue, New York 1997 (6 games)";

/// One row of the table: a setting and what it cost.
struct Row {
    table_moves: u8,
    history: bool,
    nodes: u64,
    time: Duration,
}

/// Greer's Table 1 for kibitz: every position of every game searched to
/// `depth`, the games played through as the engine would play them (one
/// transposition table and one set of move tables per game, kept between
/// its moves, cleared for the next game), once for each number of table
/// moves, with the history heuristic and without.
pub fn bench_movetables(
    counts: &[u8],
    depth: u32,
    pgn: Option<&Path>,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    check_depth(depth)?;
    if counts.is_empty() {
        return Err(CliError::BadInput(
            "--movetables needs at least one number of table moves, as in 0,1,2,4".into(),
        ));
    }
    if let Some(&bad) = counts.iter().find(|&&x| x > MAX_TABLE_MOVES) {
        return Err(CliError::BadInput(format!(
            "{bad} table moves is out of range 0..={MAX_TABLE_MOVES}"
        )));
    }
    let (games, source) = bench_games(pgn)?;
    let positions: usize = games.iter().map(|g| g.len().saturating_sub(1)).sum();
    if positions == 0 {
        return Err(CliError::BadInput(format!("{source}: no game has a move")));
    }
    let mut rows = Vec::new();
    for history in [true, false] {
        for &table_moves in counts {
            let options = SearchOptions {
                table_moves,
                history_heuristic: history,
                ..SearchOptions::default()
            };
            let mut nodes = 0;
            let mut time = Duration::ZERO;
            let mut tt = TranspositionTable::new(HASH_MB);
            let mut heuristics = Box::<Heuristics>::default();
            for game in &games {
                // A new game for each: the walk clears the table and the
                // heuristics, then keeps them between the game's moves.
                let mut start = Instant::now();
                learn_over_game(
                    game,
                    depth,
                    options,
                    (&mut tt, &mut heuristics),
                    &|| false,
                    &mut |_, result, _| {
                        time += result.elapsed.min(start.elapsed());
                        nodes += result.nodes;
                        start = Instant::now();
                    },
                );
            }
            rows.push(Row {
                table_moves,
                history,
                nodes,
                time,
            });
        }
    }
    let baseline = |history: bool| {
        rows.iter()
            .find(|r| r.history == history && r.table_moves == 0)
            .or_else(|| rows.iter().find(|r| r.history == history))
            .map_or(1, |r| r.nodes.max(1))
    };
    if json {
        for row in &rows {
            writeln!(
                out,
                "{}",
                json!({
                    "type": "row",
                    "table_moves": row.table_moves,
                    "history": row.history,
                    "nodes": row.nodes,
                    "mean_nodes": row.nodes / positions as u64,
                    "ratio": row.nodes as f64 / baseline(row.history) as f64,
                    "nps": nps(row),
                })
            )?;
        }
        writeln!(
            out,
            "{}",
            json!({"type": "total", "games": games.len(), "positions": positions, "depth": depth, "source": source})
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "Move tables: nodes to depth {depth}, {positions} positions of {source}"
    )?;
    writeln!(
        out,
        "(one table and one set of move tables per game, kept between its moves; full engine otherwise)"
    )?;
    writeln!(
        out,
        "{:>11}  {:>8}  {:>12}  {:>9}  {:>10}  {:>9}",
        "table moves", "history", "nodes", "mean", "vs 0 moves", "nps"
    )?;
    for row in &rows {
        writeln!(
            out,
            "{:>11}  {:>8}  {:>12}  {:>9}  {:>10.3}  {:>9}",
            row.table_moves,
            if row.history { "on" } else { "off" },
            row.nodes,
            row.nodes / positions as u64,
            row.nodes as f64 / baseline(row.history) as f64,
            nps(row)
        )?;
    }
    Ok(())
}

fn nps(row: &Row) -> u64 {
    (u128::from(row.nodes) * 1_000_000 / row.time.as_micros().max(1)) as u64
}

/// The main lines of the bench's games, as positions (start first).
pub(super) fn bench_games(pgn: Option<&Path>) -> Result<(Vec<Vec<Chess>>, String), CliError> {
    let mut games = Vec::new();
    let mut collect = |tree: crate::game::tree::GameTree| {
        games.push(tree.mainline_positions());
        true
    };
    let source = match pgn {
        None => {
            read_games(BENCH_GAMES.as_bytes(), &mut collect)?;
            BENCH_GAMES_NAME.to_string()
        }
        Some(path) => {
            let file =
                crate::fsutil::open_regular(path).map_err(|e| CliError::BadInput(e.to_string()))?;
            read_games(file, &mut collect)?;
            format!("{} ({} games)", path.display(), games.len())
        }
    };
    Ok((games, source))
}
