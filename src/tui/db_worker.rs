//! The game database off the interface's thread: one worker thread owns
//! the open [`Database`] and answers [`DbRequest`]s with [`DbReply`]s (one
//! message type each way). A query over a big database with a filter can
//! take a second; the board never waits for it.
//!
//! Explorer queries carry a generation number: the panel shows only the
//! answer to the last one it asked. The worker also skips the explorer
//! queries that a newer one has overtaken in its queue, so stepping
//! quickly through a game asks about the position reached, not each one
//! passed on the way.

use std::path::{Path, PathBuf};

use crossbeam_channel::{Receiver, Sender, unbounded};
use shakmaty::Chess;

use crate::db::{Database, DbError, Explorer, Filter, GameQuery, GameRow};
use crate::game::tree::GameTree;

/// What the interface asks of the database.
#[derive(Debug, Clone, PartialEq)]
pub enum DbRequest {
    /// The explorer's moves from `position` in the database at `path`.
    Explore {
        generation: u64,
        path: PathBuf,
        position: Box<Chess>,
        filter: Filter,
    },
    /// Games for the game list, most recent first.
    Games {
        path: PathBuf,
        query: Box<GameQuery>,
    },
    /// One stored game, to open on the board.
    LoadGame { path: PathBuf, id: i64 },
}

/// Why the database gave no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DbProblem {
    /// There is no file at the path.
    Missing(PathBuf),
    /// The file could not be read as a kibitz database (damaged, foreign,
    /// newer), or a query failed: the library's message.
    Failed(String),
}

/// What the database answered.
#[derive(Debug, Clone, PartialEq)]
pub enum DbReply {
    Explored {
        generation: u64,
        result: Result<Explorer, DbProblem>,
    },
    /// The games found, and how many match in all.
    Games {
        path: PathBuf,
        result: Result<(Vec<GameRow>, u64), DbProblem>,
    },
    GameLoaded {
        path: PathBuf,
        id: i64,
        result: Result<Box<GameTree>, DbProblem>,
    },
}

/// The worker's state: the database it has open.
#[derive(Default)]
pub struct DbWorker {
    open: Option<Database>,
}

impl DbWorker {
    /// The database at `path`, opened (read-only) unless it is the one
    /// open already.
    fn database(&mut self, path: &Path) -> Result<&Database, DbProblem> {
        if self.open.as_ref().is_none_or(|db| db.path() != path) {
            self.open = None;
            if !path.exists() {
                return Err(DbProblem::Missing(path.to_path_buf()));
            }
            self.open = Some(Database::open(path, false).map_err(problem)?);
        }
        self.open
            .as_ref()
            .ok_or_else(|| DbProblem::Failed("the database is not open".into()))
    }

    /// Answer one request (on the worker thread, or at once in tests).
    pub fn answer(&mut self, request: DbRequest) -> DbReply {
        match request {
            DbRequest::Explore {
                generation,
                path,
                position,
                filter,
            } => DbReply::Explored {
                generation,
                result: self
                    .database(&path)
                    .and_then(|db| db.explore(&position, &filter).map_err(problem)),
            },
            DbRequest::Games { path, query } => {
                let result = self
                    .database(&path)
                    .and_then(|db| db.games(&query).map_err(problem));
                DbReply::Games { path, result }
            }
            DbRequest::LoadGame { path, id } => {
                let result = self
                    .database(&path)
                    .and_then(|db| db.load_game(id).map(Box::new).map_err(problem));
                DbReply::GameLoaded { path, id, result }
            }
        }
    }
}

fn problem(e: DbError) -> DbProblem {
    DbProblem::Failed(e.to_string())
}

/// Start the worker; it hands each reply to `send` (false: nobody
/// listens any more, and it ends) and ends when the returned sender is
/// dropped.
pub fn spawn(
    send: impl Fn(DbReply) -> bool + Send + 'static,
) -> std::io::Result<Sender<DbRequest>> {
    let (requests, rx) = unbounded::<DbRequest>();
    std::thread::Builder::new()
        .name("kibitz-database".into())
        .spawn(move || serve(&rx, &send))?;
    Ok(requests)
}

fn serve(rx: &Receiver<DbRequest>, send: &dyn Fn(DbReply) -> bool) {
    let mut worker = DbWorker::default();
    while let Ok(first) = rx.recv() {
        for request in latest(first, rx) {
            if !send(worker.answer(request)) {
                return;
            }
        }
    }
}

/// `first` and the requests queued behind it, in order, without the
/// explorer queries that a later one overtakes (only the last position
/// asked about is still on screen).
fn latest(first: DbRequest, rx: &Receiver<DbRequest>) -> Vec<DbRequest> {
    let mut queued = vec![first];
    queued.extend(rx.try_iter());
    let last_explore = queued
        .iter()
        .rposition(|r| matches!(r, DbRequest::Explore { .. }));
    queued
        .into_iter()
        .enumerate()
        .filter(|(i, r)| !matches!(r, DbRequest::Explore { .. }) || Some(*i) == last_explore)
        .map(|(_, r)| r)
        .collect()
}

#[cfg(test)]
mod tests;
