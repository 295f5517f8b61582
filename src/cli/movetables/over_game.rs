//! `kibitz movetables --pgn FILE`: the move tables learnt over a whole
//! game, written after each searched move.
//!
//! Greer's tables are not reset between moves; this plays a game of a PGN
//! file through the engine, position by position, as the engine would search
//! them while playing it (see `engine::movetables::over_game`), and writes
//! the twelve tables after each search: one JSON line or 768 CSV rows a
//! snapshot, or a line of figures a ply and the last tables as grids.

use std::cell::{Cell, RefCell};
use std::io::Write;
use std::path::Path;

use serde_json::json;
use shakmaty::{EnPassantMode, Position, Square, fen::Fen};

use super::{HASH_MB, check_depth, grid, tables_json};
use crate::cli::{CliError, printable};
use crate::engine::SearchOptions;
use crate::engine::heuristics::Heuristics;
use crate::engine::movetables::over_game::learn_over_game;
use crate::engine::movetables::{Decrement, TableId, TableWeights};
use crate::engine::tt::TranspositionTable;
use crate::game::tree::GameTree;

/// How the snapshots are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A line a snapshot (ply, move, nodes, gains, losses), then the last
    /// snapshot's grids.
    Text,
    /// One JSON object a snapshot.
    Json,
    /// One row a snapshot, table and square.
    Csv,
}

/// What `movetables --pgn` was asked for.
#[derive(Debug, Clone, Copy)]
pub struct OverGame<'a> {
    pub pgn: &'a Path,
    /// 1-based, as `review --game`.
    pub game: usize,
    /// Keep the snapshots at plies that are multiples of this (the last
    /// searched ply always).
    pub every: usize,
    pub depth: u32,
    pub decrement: Decrement,
    /// Greer's move-chain search instead of the engine's.
    pub chains: bool,
    pub format: Format,
}

/// The CSV header: one row per snapshot, table and square.
pub const CSV_HEADER: &str = "ply,move,table,square,weight,touches,importance";

/// Play game `game` of the file through the engine and write the tables
/// after each searched move (those `every` keeps).
pub fn movetables_over_game(args: OverGame, out: &mut dyn Write) -> Result<(), CliError> {
    check_depth(args.depth)?;
    if args.every == 0 {
        return Err(CliError::BadInput("--every must be 1 or more".into()));
    }
    let tree = load(args.pgn, args.game)?;
    let line = tree.mainline_positions();
    let sans: Vec<String> = tree
        .mainline()
        .iter()
        .map(|&node| tree.nodes[node].san.to_string())
        .collect();
    // The last position searched: the last a move was played from that has
    // a legal move (a pass from a stalemate is a move with none).
    let Some(last) = (0..line.len().saturating_sub(1))
        .rev()
        .find(|&ply| !line[ply].legal_moves().is_empty())
    else {
        return Err(CliError::BadInput(format!(
            "game {} of {} has no move to search from",
            args.game,
            args.pgn.display()
        )));
    };
    let keep = |ply: usize| ply.is_multiple_of(args.every) || ply == last;
    let options = SearchOptions {
        table_decrement: args.decrement,
        move_chains: args.chains,
        ..SearchOptions::default()
    };
    match args.format {
        Format::Csv => writeln!(out, "{CSV_HEADER}")?,
        Format::Json => {}
        Format::Text => {
            let tag = |name: &str| printable(tree.headers.get(name).unwrap_or("?")).into_owned();
            writeln!(
                out,
                "Move tables over game {} of {} ({} - {}, {}): {} searched to depth {}{}, the tables kept from move to move; at a cutoff {}",
                args.game,
                args.pgn.display(),
                tag("White"),
                tag("Black"),
                tree.result,
                match line.len() - 1 {
                    1 => "1 position".to_string(),
                    n => format!("{n} positions"),
                },
                args.depth,
                if args.chains {
                    " by Greer's move-chain search (its chains kept too)"
                } else {
                    ""
                },
                match args.decrement {
                    Decrement::All => "every other legal move loses weight (--decrement all)",
                    Decrement::Tried => "the moves tried before it lose weight (--decrement tried)",
                },
            )?;
            writeln!(
                out,
                "{:>5}  {:<8}  {:>9}  {:>9}  {:>9}   (nodes: that search; gains, losses: since the game began)",
                "ply", "move", "nodes", "gains", "losses"
            )?;
        }
    }
    // A write that fails ends the walk (the stop closure reads it).
    let failed: RefCell<Option<std::io::Error>> = RefCell::new(None);
    let stop = Cell::new(false);
    let mut final_maps = None;
    let mut tt = TranspositionTable::new(HASH_MB);
    let mut heuristics = Box::<Heuristics>::default();
    learn_over_game(
        &line,
        args.depth,
        options,
        (&mut tt, &mut heuristics),
        &|| stop.get(),
        &mut |ply, result, heuristics| {
            if !keep(ply) {
                return;
            }
            let maps = heuristics.maps();
            let snapshot = Snapshot {
                ply,
                san: sans.get(ply).map_or("", String::as_str),
                fen: Fen::from_position(&line[ply], EnPassantMode::Legal).to_string(),
                nodes: result.nodes,
                maps: &maps,
                depth: args.depth,
                decrement: args.decrement,
                chains: result.stats.chains,
            };
            if let Err(e) = snapshot.write(args.format, out) {
                *failed.borrow_mut() = Some(e);
                stop.set(true);
            }
            if ply == last {
                final_maps = Some(maps);
            }
        },
    );
    if let Some(e) = failed.into_inner() {
        return Err(e.into());
    }
    if args.format == Format::Text
        && let Some(maps) = final_maps
    {
        writeln!(
            out,
            "\nThe tables after the last search (ply {last}, before {}): + squares of refuting moves, - squares of moves that failed; '.' never considered",
            sans.get(last).map_or("", String::as_str)
        )?;
        for id in TableId::ALL {
            writeln!(out)?;
            write!(out, "{}", grid(&maps, id))?;
        }
    }
    Ok(())
}

/// The tables after one search of the walk.
struct Snapshot<'a> {
    ply: usize,
    /// The move the game played from the position (SAN).
    san: &'a str,
    fen: String,
    /// The search's nodes.
    nodes: u64,
    maps: &'a TableWeights,
    depth: u32,
    decrement: Decrement,
    /// The move-chain search's counts, when it was the search.
    chains: Option<crate::engine::stats::ChainStats>,
}

impl Snapshot<'_> {
    fn write(&self, format: Format, out: &mut dyn Write) -> std::io::Result<()> {
        let (gains, losses) = self.maps.gains_and_losses();
        match format {
            Format::Json => {
                let (tables, history, links) = tables_json(self.maps);
                let mut line = json!({
                    "ply": self.ply,
                    "move": self.san,
                    "fen": self.fen,
                    "depth": self.depth,
                    "decrement": self.decrement.name(),
                    "nodes": self.nodes,
                    "gains": gains,
                    "losses": losses,
                    "tables": tables,
                    "links": links,
                    "history": history,
                });
                if let (Some(chains), Some(object)) = (self.chains, line.as_object_mut()) {
                    object.insert("chains".into(), json!(chains));
                }
                writeln!(out, "{line}")
            }
            Format::Csv => {
                for id in TableId::ALL {
                    let (weights, touches) = (self.maps.table(id), self.maps.touches(id));
                    for index in 0..64u32 {
                        let square = Square::new(index);
                        let i = square.to_usize();
                        writeln!(
                            out,
                            "{},{},{},{square},{},{},{}",
                            self.ply,
                            self.san,
                            id.code(),
                            weights[i],
                            touches[i],
                            weights[i].unsigned_abs()
                        )?;
                    }
                }
                Ok(())
            }
            Format::Text => writeln!(
                out,
                "{:>5}  {:<8}  {:>9}  {:>9}  {:>9}",
                self.ply, self.san, self.nodes, gains, losses
            ),
        }
    }
}

/// Game `number` of the file, refused with a reason a user can act on:
/// no such game (and how many the file has), not PGN, no move, a move the
/// reader could not play.
fn load(path: &Path, number: usize) -> Result<GameTree, CliError> {
    let tree = match crate::text::games::load_game(path, number) {
        Ok(tree) => tree,
        Err(error) => {
            // Past the end of a readable file: say how far it goes.
            return Err(CliError::BadInput(
                match crate::review::batch::count_games(path) {
                    Ok(count) if count < number => format!(
                        "{} has {count} game{}: there is no game {number}",
                        path.display(),
                        if count == 1 { "" } else { "s" }
                    ),
                    Err(reason) => reason,
                    Ok(_) => error.0,
                },
            ));
        }
    };
    let moves = tree.mainline().len();
    if moves == 0 && tree.headers.0.is_empty() {
        // No tag and no move: a file that is not PGN (a binary file reads as
        // one long word that is not a move), or text between games.
        crate::review::batch::count_games(path).map_err(CliError::BadInput)?;
    }
    if let Some(error) = &tree.error {
        let said = format!("{}: {}", path.display(), printable(&error.to_string()));
        if moves == 0 {
            return Err(CliError::BadInput(said));
        }
        // The board opens such a game up to the bad move: so does this,
        // and says where it stopped.
        eprintln!(
            "note: {said}; the tables are learnt over the {} before it",
            plies_words(moves)
        );
    }
    if moves == 0 {
        return Err(CliError::BadInput(format!(
            "game {number} of {} has no move: there is nothing to search",
            path.display()
        )));
    }
    Ok(tree)
}

/// "1 ply", "98 plies".
fn plies_words(n: usize) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

#[cfg(test)]
mod tests;
