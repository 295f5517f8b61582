//! Everything that can happen to the UI, as one message type: the event loop
//! turns key presses, mouse actions, resizes, engine reports and clock ticks
//! into `Msg`s and hands them to `App::update`.

use std::time::Instant;

use ratatui::crossterm::event::{KeyEvent, MouseEvent};

use crate::engine::Report;
use crate::game::summary::GameSummary;

#[derive(Debug, Clone)]
pub enum Msg {
    /// A key, with the moment the input thread read it (for latency figures).
    Key(KeyEvent, Instant),
    Mouse(MouseEvent),
    /// The terminal's new size, columns x rows.
    Resize(u16, u16),
    Engine(Report),
    /// The clock ticked: time to look at the clocks.
    Tick,
    /// Endgame tables finished loading (or generating) in the background.
    Tablebases(std::sync::Arc<crate::tablebase::Tablebases>),
    /// Background table making made progress: the table being made and the
    /// fraction of all the work done (at most a few times a second). At the
    /// end, the fraction is 1 and the table the last one made (empty if
    /// none was missing).
    TableProgress {
        table: String,
        fraction: f64,
    },
    /// Something a background task wants the user to know.
    Notice(String),
    /// Text pasted into the terminal.
    Paste(String),
    /// The game list's background reader made progress.
    GameList {
        /// The `ListGames` request this answers.
        id: u64,
        event: ListEvent,
    },
    /// A game asked for with `Request::LoadGame`.
    GameLoaded {
        path: std::path::PathBuf,
        number: usize,
        result: Result<Box<crate::game::tree::GameTree>, String>,
    },
    /// The review evaluated the position after `ply` moves.
    Review {
        id: u64,
        ply: usize,
        eval: crate::review::PositionEval,
    },
    /// The review of a whole file made progress.
    ReviewAll {
        id: u64,
        event: crate::tui::overlays::review_all::ReviewAllEvent,
    },
    /// The review finished (or was stopped).
    ReviewDone {
        id: u64,
    },
    /// The move tables learnt over the main line (`:map game-history`),
    /// after the search of the position after `ply` moves.
    GameTables {
        id: u64,
        ply: usize,
        tables: std::sync::Arc<crate::engine::movetables::TableWeights>,
    },
    /// The walk over the main line finished (or was stopped).
    GameTablesDone {
        id: u64,
    },
    /// Teach mode's record of a search, or why there is none.
    Recorded {
        id: u64,
        result: Result<std::sync::Arc<crate::teach::Replay>, crate::teach::RecordError>,
    },
    /// One row of teach mode's comparison.
    Compared {
        id: u64,
        index: usize,
        outcome: crate::teach::compare::Outcome,
    },
    /// The game database's worker answered.
    Db(Box<crate::tui::db_worker::DbReply>),
    /// The process was told to end (SIGTERM, SIGHUP, SIGQUIT): autosave
    /// the game and leave at once, as Ctrl-C does, without asking.
    Terminate,
}

/// Progress of the game list's background reader.
#[derive(Debug, Clone)]
pub enum ListEvent {
    Games(Vec<GameSummary>),
    /// Finished: the number of games, or why the file could not be read.
    Done(Result<usize, String>),
}
