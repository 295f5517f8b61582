//! Background work beside the engine thread: reading a file's game list,
//! loading one game, the clipboard, and the searches that need their own
//! table or tracer (a game review, teach mode's recording and its
//! comparison of methods). `App` asks with a `Request`; the event loop
//! starts the work here, which answers with `Msg`s. The searches carry an id
//! from the engine link's counter and stop with `Request::Cancel(id)`, as an
//! engine search is identified and stopped by its id.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::game::tree::GameTree;

use super::msg::{ListEvent, Msg};
use super::overlays::review_all::ReviewAllEvent;

/// Games per message while a game list is read.
const GAME_LIST_BATCH: usize = 500;
/// The review's own hash table (the analysis engine keeps its own).
const REVIEW_HASH_MB: usize = 32;
/// The table of the walk over a game (`:map game-history`): the size
/// `kibitz movetables --pgn` searches with, so the two learn the same.
pub const GAME_TABLES_HASH_MB: usize = 16;

/// What the interface asks of the outside world (files and threads);
/// the event loop carries these out and answers with `Msg`s.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// Read the game list of a file in the background (a reader with an
    /// older id is stopped).
    ListGames { path: PathBuf, id: u64 },
    /// Read one game of a file.
    LoadGame { path: PathBuf, number: usize },
    /// Review the main line at `movetime` per position.
    Review {
        id: u64,
        tree: Box<GameTree>,
        movetime: Duration,
        /// Search threads per position (Lazy SMP).
        threads: usize,
    },
    /// Review every game of a file, `threads` games at a time, after the
    /// first `skip` (reviewed before: a stopped review taken up again).
    ReviewAll {
        id: u64,
        path: PathBuf,
        movetime: Duration,
        threads: usize,
        skip: usize,
    },
    /// Record a search for teach mode (an older recording is stopped).
    Record {
        id: u64,
        setup: Box<crate::teach::Setup>,
    },
    /// Stop the background search with this id (a review, a recording, a
    /// comparison), if it still runs.
    Cancel(u64),
    /// Learn the move tables over a game (`:map game-history`): search the
    /// main line's positions in turn to `depth`, the tables kept from move
    /// to move, and send the tables after each search.
    GameTables {
        id: u64,
        /// The main line: the start, then the position after each move.
        line: Vec<shakmaty::Chess>,
        depth: u32,
        options: crate::engine::SearchOptions,
    },
    /// Teach mode's comparison: the position searched by each method.
    Compare {
        id: u64,
        position: Box<shakmaty::Chess>,
        history: Vec<u64>,
        depth: u32,
    },
    /// Put text on the clipboard (OSC 52, where the terminal supports it).
    Clipboard(String),
    /// Ring the terminal's bell (a clock fell under ten seconds).
    Bell,
    /// Ask the game database's worker (started at the first request).
    Db(super::db_worker::DbRequest),
}

/// A running task's id and stop flag.
type Running = Option<(u64, Arc<AtomicBool>)>;

/// The stop flags of the background tasks, one of each kind at a time.
#[derive(Debug, Default)]
pub struct Stops {
    pub review: Running,
    pub review_all: Running,
    pub list: Running,
    pub record: Running,
    pub compare: Running,
    pub game_tables: Running,
    /// The game database's worker, once asked for anything.
    pub db: Option<crossbeam_channel::Sender<super::db_worker::DbRequest>>,
}

impl Stops {
    /// Stop the search with `id`, whichever kind it is.
    fn cancel(&mut self, id: u64) {
        for slot in [
            &mut self.review,
            &mut self.review_all,
            &mut self.record,
            &mut self.compare,
            &mut self.game_tables,
        ] {
            if slot.as_ref().is_some_and(|(running, _)| *running == id) {
                stop(slot);
            }
        }
    }
}

/// Stop the background task in `slot`, if any.
fn stop(slot: &mut Running) {
    if let Some((_, flag)) = slot.take() {
        flag.store(true, Ordering::Relaxed);
    }
}

/// Stop the task in `slot` and hand out the flag of `id`, replacing it.
fn replace_stop(slot: &mut Running, id: u64) -> Arc<AtomicBool> {
    stop(slot);
    let flag = Arc::new(AtomicBool::new(false));
    *slot = Some((id, Arc::clone(&flag)));
    flag
}

/// Carry out what the analysis board asked for, on background threads that
/// answer through `tx`.
pub fn background_request(
    request: Request,
    tx: &crossbeam_channel::Sender<Msg>,
    stops: &mut Stops,
    tables: Option<Arc<crate::tablebase::Tablebases>>,
) {
    let tx = tx.clone();
    let spawn = |name: &str, work: Box<dyn FnOnce() + Send>| {
        if let Err(e) = std::thread::Builder::new().name(name.into()).spawn(work) {
            let _ = tx.send(Msg::Notice(format!("cannot start a thread: {e}")));
        }
    };
    match request {
        Request::ListGames { path, id } => {
            // One reader at a time: a file opened again (or another file)
            // stops the reader before it.
            let stop = replace_stop(&mut stops.list, id);
            let tx = tx.clone();
            spawn(
                "kibitz-game-list",
                Box::new(move || {
                    let done = match crate::fsutil::open_regular(&path) {
                        Ok(file) => crate::game::summary::summaries(
                            std::io::BufReader::new(file),
                            GAME_LIST_BATCH,
                            &mut |batch| {
                                !stop.load(Ordering::Relaxed)
                                    && tx
                                        .send(Msg::GameList {
                                            id,
                                            event: ListEvent::Games(batch),
                                        })
                                        .is_ok()
                            },
                        )
                        .map_err(|e| format!("cannot read {}: {e}", path.display())),
                        Err(e) => Err(e.to_string()),
                    };
                    let _ = tx.send(Msg::GameList {
                        id,
                        event: ListEvent::Done(done),
                    });
                }),
            );
        }
        Request::LoadGame { path, number } => {
            let tx = tx.clone();
            spawn(
                "kibitz-load-game",
                Box::new(move || {
                    let result = crate::text::games::load_game(&path, number)
                        .map(Box::new)
                        .map_err(|e| e.to_string());
                    let _ = tx.send(Msg::GameLoaded {
                        path,
                        number,
                        result,
                    });
                }),
            );
        }
        Request::Review {
            id,
            tree,
            movetime,
            threads,
        } => {
            let stop = replace_stop(&mut stops.review, id);
            let tx = tx.clone();
            spawn(
                "kibitz-review",
                Box::new(move || {
                    let limits = crate::engine::Limits {
                        movetime: Some(movetime),
                        ..crate::engine::Limits::default()
                    };
                    let stopped = || stop.load(Ordering::Relaxed);
                    crate::review::review(
                        &tree,
                        &limits,
                        (REVIEW_HASH_MB, threads),
                        tables.as_deref(),
                        &stopped,
                        &mut |ply, eval| {
                            let _ = tx.send(Msg::Review {
                                id,
                                ply,
                                eval: eval.clone(),
                            });
                        },
                    );
                    let _ = tx.send(Msg::ReviewDone { id });
                }),
            );
        }
        Request::ReviewAll {
            id,
            path,
            movetime,
            threads,
            skip,
        } => {
            let stop = replace_stop(&mut stops.review_all, id);
            let tx = tx.clone();
            spawn(
                "kibitz-review-all",
                Box::new(move || {
                    let send = |event| tx.send(Msg::ReviewAll { id, event }).is_ok();
                    let result = crate::review::batch::count_games(&path).and_then(|total| {
                        send(ReviewAllEvent::Total(total));
                        let options = crate::review::batch::BatchOptions {
                            threads,
                            hash_mb: REVIEW_HASH_MB * threads,
                            movetime,
                            skip,
                        };
                        crate::review::batch::review_file(
                            &path,
                            &options,
                            tables,
                            &stop,
                            &mut |game| send(ReviewAllEvent::Game(Box::new(game))),
                        )
                    });
                    send(ReviewAllEvent::Done(result));
                }),
            );
        }
        Request::Clipboard(text) => {
            // OSC 52: the terminal puts the text on the system clipboard.
            let mut out = std::io::stdout();
            let _ = write!(out, "\x1b]52;c;{}\x07", base64(text.as_bytes()));
            let _ = out.flush();
        }
        Request::Cancel(id) => stops.cancel(id),
        Request::Db(request) => {
            if stops.db.is_none() {
                let replies = tx.clone();
                let send = move |reply| replies.send(Msg::Db(Box::new(reply))).is_ok();
                match super::db_worker::spawn(send) {
                    Ok(worker) => stops.db = Some(worker),
                    Err(e) => {
                        let _ = tx.send(Msg::Notice(format!("cannot start a thread: {e}")));
                        return;
                    }
                }
            }
            if let Some(worker) = &stops.db {
                let _ = worker.send(request);
            }
        }
        Request::Bell => {
            let mut out = std::io::stdout();
            let _ = write!(out, "\x07");
            let _ = out.flush();
        }
        Request::Record { id, setup } => {
            let stop = replace_stop(&mut stops.record, id);
            let tx = tx.clone();
            spawn(
                "kibitz-record",
                Box::new(move || {
                    let stopped = || stop.load(Ordering::Relaxed);
                    let result =
                        crate::teach::record_replay(&setup, crate::teach::MAX_EVENTS, &stopped);
                    if !stopped() {
                        let _ = tx.send(Msg::Recorded { id, result });
                    }
                }),
            );
        }
        Request::GameTables {
            id,
            line,
            depth,
            options,
        } => {
            let stop = replace_stop(&mut stops.game_tables, id);
            let tx = tx.clone();
            spawn(
                "kibitz-game-tables",
                Box::new(move || {
                    let stopped = || stop.load(Ordering::Relaxed);
                    learn_game_tables(id, &line, depth, options, &stopped, &mut |msg| {
                        tx.send(msg).is_ok()
                    });
                }),
            );
        }
        Request::Compare {
            id,
            position,
            history,
            depth,
        } => {
            let stop = replace_stop(&mut stops.compare, id);
            let tx = tx.clone();
            spawn(
                "kibitz-compare",
                Box::new(move || {
                    let stopped = || stop.load(Ordering::Relaxed);
                    for (index, method) in crate::teach::compare::methods().iter().enumerate() {
                        let outcome = crate::teach::compare::run(
                            &position,
                            &history,
                            depth,
                            method,
                            crate::teach::compare::NODE_CAP,
                            &stopped,
                        );
                        if stopped() || tx.send(Msg::Compared { id, index, outcome }).is_err() {
                            return;
                        }
                    }
                }),
            );
        }
    }
}

/// The work of `Request::GameTables`, on the caller's thread: the move
/// tables learnt over `line` (see `engine::movetables::over_game`), sent
/// as `Msg::GameTables` after each search and `Msg::GameTablesDone` at the
/// end (stopped or not). `send` returns false when nobody listens any more,
/// which stops the walk too.
pub fn learn_game_tables(
    id: u64,
    line: &[shakmaty::Chess],
    depth: u32,
    options: crate::engine::SearchOptions,
    stop: &dyn Fn() -> bool,
    send: &mut dyn FnMut(Msg) -> bool,
) {
    use crate::engine::movetables::over_game::learn_over_game;
    let gone = std::cell::Cell::new(false);
    let mut tt = crate::engine::tt::TranspositionTable::new(GAME_TABLES_HASH_MB);
    let mut heuristics = Box::<crate::engine::heuristics::Heuristics>::default();
    learn_over_game(
        line,
        depth,
        options,
        (&mut tt, &mut heuristics),
        &|| gone.get() || stop(),
        &mut |ply, _, heuristics| {
            let tables = Arc::new(heuristics.maps());
            if !send(Msg::GameTables { id, ply, tables }) {
                gone.set(true);
            }
        },
    );
    if !gone.get() {
        send(Msg::GameTablesDone { id });
    }
}

/// Standard base64 (RFC 4648) with padding, for OSC 52.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_matches_the_rfc_examples() {
        // RFC 4648, section 10.
        let cases = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in cases {
            assert_eq!(super::base64(plain.as_bytes()), encoded);
        }
    }
}
