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
    /// One stored game, to open on the board: where it first reached
    /// `at`, if given (a game listed by `G`), else at its start.
    LoadGame {
        path: PathBuf,
        id: i64,
        at: Option<Box<Chess>>,
    },
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
        query: Box<GameQuery>,
        result: Result<(Vec<GameRow>, u64), DbProblem>,
    },
    /// The game, and the node of its main line to open it at.
    GameLoaded {
        path: PathBuf,
        id: i64,
        result: Result<(Box<GameTree>, usize), DbProblem>,
    },
}

/// The worker's state: the database it has open, and what its file was
/// like when it was opened.
#[derive(Default)]
pub struct DbWorker {
    open: Option<Database>,
    stamp: Option<FileStamp>,
}

/// What tells one file at a path from another put there since (a rebuilt
/// database moved over the old one) or from the same file rewritten: its
/// size, its time of change and, on Unix, its inode.
#[derive(Debug, Clone, PartialEq, Eq)]
struct FileStamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
    inode: u64,
}

fn stamp(path: &Path) -> Option<FileStamp> {
    let meta = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&meta);
    #[cfg(not(unix))]
    let inode = 0;
    Some(FileStamp {
        len: meta.len(),
        modified: meta.modified().ok(),
        inode,
    })
}

impl DbWorker {
    /// The database at `path`, opened (read-only) unless it is the one
    /// open already and its file is still the one opened: a file replaced
    /// or rewritten since is opened again, so the answers are the new
    /// file's (an open handle would go on reading the old one, deleted).
    fn database(&mut self, path: &Path) -> Result<&Database, DbProblem> {
        let now = stamp(path);
        let same_file = self.open.as_ref().is_some_and(|db| db.path() == path)
            && now.is_some()
            && now == self.stamp;
        if !same_file {
            self.open = None;
            self.stamp = None;
            if now.is_none() {
                return Err(DbProblem::Missing(path.to_path_buf()));
            }
            self.open = Some(Database::open(path, false).map_err(problem)?);
            self.stamp = now;
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
                DbReply::Games {
                    path,
                    query,
                    result,
                }
            }
            DbRequest::LoadGame { path, id, at } => {
                let result = self.database(&path).and_then(|db| {
                    let tree = db.load_game(id).map_err(problem)?;
                    let node = at.map_or(0, |at| first_reached(&tree, &at));
                    Ok((Box::new(tree), node))
                });
                DbReply::GameLoaded { path, id, result }
            }
        }
    }
}

/// The node of `tree`'s main line where the game first reached `at` (as
/// the index compares positions: by key, so a transposition counts), or
/// its start.
pub fn first_reached(tree: &GameTree, at: &Chess) -> usize {
    let key = crate::db::position_key(at);
    let mut index = 0;
    let mut found = None;
    tree.walk_mainline(|position| {
        if found.is_none() && crate::db::position_key(position) == key {
            found = Some(index);
        }
        index += 1;
    });
    // Position i of the main line is the one after its i-th move.
    match found {
        Some(0) | None => 0,
        Some(i) => tree.mainline().get(i - 1).copied().unwrap_or(0),
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
