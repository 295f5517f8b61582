//! `kibitz movetables` (the twelve move tables after a search) and
//! `kibitz bench --movetables` (Greer's Table 1 for kibitz: how the tables
//! change the size of the search over every position of real games).

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use clap::Args;
use serde_json::json;
use shakmaty::{Chess, Position, Square};

use super::flags::{JsonFlag, PositionArgs};
use super::{CliError, setup};
use crate::engine::heuristics::Heuristics;
use crate::engine::movetables::{Decrement, TableId, TableWeights};
use crate::engine::protocol::MAX_TABLE_MOVES;
use crate::engine::search;
use crate::engine::trace::NoTrace;
use crate::engine::tt::TranspositionTable;
use crate::engine::{Limits, SearchOptions, position_key};
use crate::game::import::read_games;

/// The games `kibitz bench --movetables` walks by default: the six games of
/// Kasparov against Deep Blue, New York 1997.
const BENCH_GAMES: &str = include_str!("../../assets/games/kasparov-deep-blue-1997.pgn");
const BENCH_GAMES_NAME: &str = "Kasparov - Deep Blue, New York 1997 (6 games)";
const HASH_MB: usize = 16;
pub const MAX_MOVETABLES_DEPTH: u32 = 20;

/// `kibitz movetables`: the position, the depth, the output and the rule
/// for which moves lose weight at a cutoff.
#[derive(Args, Debug)]
#[command(mut_arg("json", |a| a.help("JSON: 12 tables, each with colour, piece, 64 weights and 64 touches a1..h8; the links; the history heuristic's 12 tables")))]
pub struct MovetablesArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Search depth (plies), 1 to 20.
    #[arg(long)]
    pub depth: u32,
    #[command(flatten)]
    pub output: JsonFlag,
    /// Which moves lose weight at a cutoff: `tried` (the moves searched
    /// before the cutoff) or `all` (every other legal move, Greer's rule).
    #[arg(long, default_value = "tried", value_parser = parse_decrement)]
    pub decrement: Decrement,
}

impl MovetablesArgs {
    pub fn run(&self, out: &mut dyn Write) -> Result<(), CliError> {
        movetables(
            self.position.fen(),
            &self.position.moves,
            self.depth,
            self.decrement,
            self.output.json,
            out,
        )
    }
}

/// `--decrement tried|all`.
fn parse_decrement(text: &str) -> Result<Decrement, String> {
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

fn search_with(
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

fn check_depth(depth: u32) -> Result<(), CliError> {
    if (1..=MAX_MOVETABLES_DEPTH).contains(&depth) {
        Ok(())
    } else {
        Err(CliError::BadInput(format!(
            "depth {depth} is out of range 1..={MAX_MOVETABLES_DEPTH}"
        )))
    }
}

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
                tt.clear();
                heuristics.clear();
                let mut keys = Vec::new();
                // The last position is where the game ended: no move to find.
                for position in &game[..game.len() - 1] {
                    if !position.legal_moves().is_empty() {
                        let start = Instant::now();
                        let result =
                            search_with(position, &keys, depth, options, &mut tt, &mut heuristics);
                        time += result.elapsed.min(start.elapsed());
                        nodes += result.nodes;
                    }
                    keys.push(position_key(position));
                }
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
fn bench_games(pgn: Option<&Path>) -> Result<(Vec<Vec<Chess>>, String), CliError> {
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
            let file = crate::fsutil::open_regular(path)
                .map_err(|e| CliError::BadInput(format!("cannot read {}: {e}", path.display())))?;
            read_games(file, &mut collect)?;
            format!("{} ({} games)", path.display(), games.len())
        }
    };
    Ok((games, source))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::movetables::TableUpdate;
    use shakmaty::{Color, Move, Role};

    #[test]
    fn a_square_back_at_zero_is_written_0_not_never_considered() {
        let nf3 = vec![Move::Normal {
            role: Role::Knight,
            from: Square::G1,
            capture: None,
            to: Square::F3,
            promotion: None,
        }];
        let mut weights = TableWeights::default();
        for (line, others) in [(nf3.clone(), vec![]), (vec![], nf3)] {
            weights.apply(&TableUpdate {
                color: Color::White,
                line,
                others,
            });
        }
        let text = grid(&weights, TableId::new(Color::White, Role::Knight));
        let rank = |n: usize| text.lines().nth(9 - n).unwrap_or_default().to_string();
        assert_eq!(rank(1), "1   .  .  .  .  .  .  0  .", "{text}");
        assert_eq!(rank(3), "3   .  .  .  .  .  0  .  .", "{text}");
        assert_eq!(weights.gains_and_losses(), (2, 2));
    }

    #[test]
    fn losses_are_said_beside_the_gains() {
        assert_eq!(ratio_words(4118, 22_774), "18% of the gains");
        assert_eq!(ratio_words(664_986, 22_774), "29 times the gains");
        assert_eq!(ratio_words(0, 0), "no gains");
    }
}
