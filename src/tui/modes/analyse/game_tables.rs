//! `:map game-history` on the analysis board: the move tables learnt over
//! the game's main line, a background walk searching each position in turn
//! as the engine would while playing the game (the tables kept from move to
//! move), and the map showing the tables of the move the cursor is on.
//!
//! Not `:map history`, which is the history heuristic (the search's own
//! move-ordering scores): this is Greer's tables (and the history and
//! counter-moves with them) as they stood at each ply of the game.

use std::sync::Arc;

use shakmaty::Move;

use crate::engine::movetables::TableWeights;
use crate::tui::shared::{Shared, Tone};
use crate::tui::tasks::Request;

use super::Analysis;

/// The depth of each search of the walk: Greer's Table 1 depth, and quick
/// (a game of 100 plies takes about a second).
pub const GAME_TABLES_DEPTH: u32 = 5;

/// The tables learnt over the main line, as far as the walk got.
#[derive(Debug, Clone, PartialEq)]
pub struct GameTables {
    pub id: u64,
    /// The main line's moves when the walk started: an edit that changes
    /// them drops the tables.
    pub line: Vec<Option<Move>>,
    /// `by_ply[k]`: the tables after the search of the position after `k`
    /// moves (one per move of the main line).
    pub by_ply: Vec<Option<Arc<TableWeights>>>,
    /// The walk ended (finished or stopped).
    pub done: bool,
}

impl GameTables {
    /// Plies learnt so far.
    pub fn learnt(&self) -> usize {
        self.by_ply.iter().filter(|t| t.is_some()).count()
    }

    /// The main line's plies.
    pub fn plies(&self) -> usize {
        self.by_ply.len()
    }

    /// The ply whose tables stand for `ply` of the main line: its own, or
    /// at the game's end (no move to search) the last search's.
    fn source_ply(&self, ply: usize) -> usize {
        ply.min(self.plies().saturating_sub(1))
    }

    /// The tables at main-line ply `ply`, once the walk got there.
    pub fn at(&self, ply: usize) -> Option<&TableWeights> {
        self.by_ply.get(self.source_ply(ply))?.as_deref()
    }

    /// What the legend says: where the tables shown were learnt, or how far
    /// the walk is; the first part short enough for 80 columns beside the
    /// table's name and the scale, the rest where there is room.
    pub fn note(&self, ply: usize, on_main: bool) -> Vec<String> {
        let plies = self.plies();
        let mut note = match (self.at(ply).is_some(), self.done) {
            (true, _) => vec![format!("game ply {ply}/{plies}")],
            (false, false) => vec![
                format!("learning… {}/{plies}", self.learnt()),
                "tables over the game".to_string(),
            ],
            (false, true) => vec![
                format!("learning stopped at {}/{plies}", self.learnt()),
                ":map game-history on starts again".to_string(),
            ],
        };
        if !on_main {
            note.push("the branch point of this line".into());
        }
        note
    }
}

impl Analysis {
    /// The main line's moves (a null move is `None`).
    fn mainline_moves(&self) -> Vec<Option<Move>> {
        self.tree
            .mainline()
            .iter()
            .map(|&node| self.tree.nodes[node].m)
            .collect()
    }

    /// The main-line ply whose tables the map shows for the cursor: its
    /// own on the main line, off it the ply where its line leaves the game.
    pub fn game_tables_ply(&self) -> (usize, bool) {
        let mut node = self.cursor;
        while !self.tree.on_mainline(node) {
            match self.tree.nodes[node].parent {
                Some(parent) => node = parent,
                None => break,
            }
        }
        (self.tree.ply(node), node == self.cursor)
    }

    /// The tables the map shows while `:map game-history` is on (none yet
    /// where the walk has not got to).
    pub fn shown_game_tables(&self) -> Option<&TableWeights> {
        let tables = self.game_tables.as_ref()?;
        tables.at(self.game_tables_ply().0)
    }

    /// The legend's words while `:map game-history` is on.
    pub fn game_tables_note(&self) -> Vec<String> {
        let Some(tables) = &self.game_tables else {
            return Vec::new();
        };
        let (ply, on_main) = self.game_tables_ply();
        tables.note(ply, on_main)
    }

    /// `:map game-history [on|off]` (alone: the other way).
    pub fn game_history_command(&mut self, cx: &mut Shared, arg: &str) {
        let on = match arg {
            "" => self.game_tables.is_none(),
            "on" => true,
            "off" => false,
            _ => {
                cx.say(
                    format!("':map game-history {arg}': on or off."),
                    Tone::Error,
                );
                return;
            }
        };
        if !on {
            self.drop_game_tables(cx);
            cx.say(
                "Map: the engine's tables again, not those learnt over the game.",
                Tone::Info,
            );
            return;
        }
        // Already learnt (or learning) over this main line: nothing to
        // start again.
        if arg == "on"
            && let Some(tables) = &self.game_tables
        {
            cx.say(
                format!(
                    ":map game-history is on ({} of {} learnt).",
                    tables.learnt(),
                    plies_text(tables.plies())
                ),
                Tone::Info,
            );
            return;
        }
        let line = self.tree.mainline_positions();
        if line.len() < 2 {
            cx.say(
                "The game has no move yet: nothing to learn over (play or open a game).",
                Tone::Info,
            );
            return;
        }
        self.drop_game_tables(cx);
        let options = cx.services.search_options();
        let id = cx.engine.start(|id| Request::GameTables {
            id,
            line: line.clone(),
            depth: GAME_TABLES_DEPTH,
            options,
        });
        let plies = line.len() - 1;
        self.game_tables = Some(GameTables {
            id,
            line: self.mainline_moves(),
            by_ply: vec![None; plies],
            done: false,
        });
        // The map shows them at once, as `:map history` does.
        if cx.map.shown.is_none() {
            cx.map.shown = Some(crate::tui::heatmap::MapTable::All);
        }
        // The walk searches as the engine does, with the settings' table
        // options: a setting away from the defaults is named, since it
        // changes what is learnt (and `movetables --pgn` has no such
        // setting).
        let defaults = crate::engine::SearchOptions::default();
        let mut settings = Vec::new();
        if options.table_moves != defaults.table_moves {
            settings.push(format!("{} table moves", options.table_moves));
        }
        if options.table_decrement != defaults.table_decrement {
            settings.push(format!("rule {}", options.table_decrement.name()));
        }
        if options.table_threshold != defaults.table_threshold {
            settings.push(format!("threshold {}", options.table_threshold));
        }
        let settings = if settings.is_empty() {
            String::new()
        } else {
            format!(", {}", settings.join(", "))
        };
        cx.say(
            format!(
                "Learning the game's tables ({}, depth {GAME_TABLES_DEPTH}{settings}): the map follows your move.",
                plies_text(plies)
            ),
            Tone::Info,
        );
    }

    /// Stop the walk, keeping what it learnt.
    pub fn stop_game_tables(&mut self, cx: &mut Shared) {
        if let Some(tables) = &mut self.game_tables
            && !tables.done
        {
            tables.done = true;
            cx.engine.cancel(tables.id);
        }
    }

    /// Forget the tables learnt over the game.
    pub fn drop_game_tables(&mut self, cx: &mut Shared) {
        self.stop_game_tables(cx);
        self.game_tables = None;
    }

    /// After an edit: tables learnt over a main line that is not the game's
    /// any more go, and the status line says so.
    pub fn check_game_tables(&mut self, cx: &mut Shared) {
        let changed = self
            .game_tables
            .as_ref()
            .is_some_and(|t| t.line != self.mainline_moves());
        if changed {
            self.drop_game_tables(cx);
            cx.say(
                "The main line changed: the tables learnt over it are dropped (:map game-history on learns the new one).",
                Tone::Info,
            );
        }
    }

    /// The tables after one more search of the walk.
    pub fn game_tables_progress(&mut self, id: u64, ply: usize, tables: Arc<TableWeights>) {
        if let Some(learnt) = self.game_tables.as_mut().filter(|t| t.id == id)
            && let Some(slot) = learnt.by_ply.get_mut(ply)
        {
            *slot = Some(tables);
        }
    }

    pub fn game_tables_done(&mut self, id: u64) {
        if let Some(learnt) = self.game_tables.as_mut().filter(|t| t.id == id) {
            learnt.done = true;
        }
    }
}

/// "1 ply", "98 plies".
fn plies_text(plies: usize) -> String {
    if plies == 1 {
        "1 ply".to_string()
    } else {
        format!("{plies} plies")
    }
}
