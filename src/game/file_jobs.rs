//! Every game of a PGN file through slow work (an engine's: a review, a
//! puzzle search), games in parallel, one game per thread at a time. The
//! file is streamed: a reader thread hands the games out through a small
//! queue, so only a few are in memory at a time however long the file is.
//! Results come back in the file's order. A stop keeps the games already
//! finished.
//!
//! [`super::parallel::map_games`] is the other way through a file: there
//! the work per game is small (reading it), so games go out in batches and
//! the calling thread works too; here a game takes seconds, so each thread
//! takes one game at a time and the calling thread only hands results on.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use super::import::read_games;
use super::tree::GameTree;

/// The work on one game: its number in the file (from 1), the game, and a
/// question the work asks now and then ("stop now?"). `None`: stopped
/// before the end, the game's result is dropped.
pub type GameWork<'a, T> = dyn Fn(usize, GameTree, &dyn Fn() -> bool) -> Option<T> + Sync + 'a;

/// Run `work` on every game of the file at `path` (after the first `skip`,
/// which are read past) on `threads` threads, handing each result to
/// `on_result` in the file's order as soon as it and those before it are
/// done. `on_result` returns false to stop. Setting `stop` stops too; the
/// game being worked on then is dropped (and any after it), the ones
/// handed out stay. `Ok` carries a warning when the file could not be read
/// to its end.
pub fn each_game<T: Send>(
    path: &Path,
    threads: usize,
    skip: usize,
    stop: &AtomicBool,
    work: &GameWork<'_, T>,
    on_result: &mut dyn FnMut(T) -> bool,
) -> Result<Option<String>, String> {
    let file = crate::fsutil::open_regular(path).map_err(|e| e.to_string())?;
    let threads = threads.clamp(1, 64);
    let (jobs_tx, jobs_rx) = crossbeam_channel::bounded::<(usize, GameTree)>(threads * 2);
    let (done_tx, done_rx) = crossbeam_channel::unbounded::<(usize, Option<T>)>();
    std::thread::scope(|scope| {
        let reader = scope.spawn(move || {
            let mut number = 0;
            read_games(std::io::BufReader::new(file), &mut |tree| {
                number += 1;
                !stop.load(Ordering::Relaxed)
                    && (number <= skip || jobs_tx.send((number, tree)).is_ok())
            })
            .map_err(|e| format!("cannot read {}: {e}", path.display()))
        });
        for _ in 0..threads {
            let jobs = jobs_rx.clone();
            let done = done_tx.clone();
            scope.spawn(move || {
                let stopped = || stop.load(Ordering::Relaxed);
                for (number, tree) in jobs.iter() {
                    let result = work(number, tree, &stopped);
                    if done.send((number, result)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done_tx);
        drop(jobs_rx);
        // Results come in any order; they are handed out in the file's.
        // The games handed out are always the first ones not skipped, with
        // no gap: after a game cut short by a stop none is handed out, so
        // that work taken up again starts right after the last one.
        let mut waiting: BTreeMap<usize, Option<T>> = BTreeMap::new();
        let mut next = skip + 1;
        let mut cut = false;
        for (number, result) in done_rx.iter() {
            waiting.insert(number, result);
            while let Some(result) = waiting.remove(&next) {
                next += 1;
                match result {
                    Some(result) if !cut => {
                        if !on_result(result) {
                            // The threads see the stop and end.
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                    Some(_) => {}
                    None => cut = true,
                }
            }
        }
        Ok(reader.join().ok().and_then(Result::err))
    })
}
