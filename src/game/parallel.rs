//! Reading the games of a PGN stream on several threads, in file order.
//!
//! Splitting a file into games (the lexer) is about a quarter of the work
//! of reading it; the rest goes to playing the moves, building each tree and
//! summarising it. So the calling thread splits the stream into games, as
//! [`read_games`](super::import::read_games) does, and hands them in batches to
//! worker threads, which build and summarise them; the results come back to
//! the calling thread in file order. When batches pile up because the
//! workers are behind, the calling thread builds one itself, so one thread
//! per processor does everything without a third thread fighting two for
//! the processors. Game boundaries are exactly those of the one-thread
//! reader, since the same reader finds them.

use std::collections::BTreeMap;
use std::io::{BufReader, Read};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, Ordering};

use super::import::build;
use super::pgn_lexer::{GameReader, RawGame};
use super::tree::GameTree;

/// Games handed to a worker at once: large enough that the channels cost
/// nothing beside the games, small enough that the first results come back
/// at once (a game list shows its first games while the file is read).
const GAMES_PER_BATCH: usize = 32;

/// Batches read ahead of the oldest one not yet handed on, per worker:
/// bounds the memory held when the caller is slower than the workers.
const BATCHES_AHEAD_PER_WORKER: usize = 4;

/// What a worker sends back: a batch's number and its results, or the
/// panic that stopped it (raised again on the calling thread).
type Done<T> = (usize, std::thread::Result<Vec<T>>);

/// A batch of games to build: its number, the number of its first game,
/// and the games.
type Job = (usize, usize, Vec<RawGame>);

/// How many worker threads to use beside the calling thread: one per
/// processor but the caller's, none on one processor (the calling thread
/// then does everything).
pub fn default_workers() -> usize {
    match std::thread::available_parallelism() {
        Ok(n) => n.get() - 1,
        Err(_) => 0,
    }
}

/// Build and summarise one batch.
fn run<T>(
    work: &(dyn Fn(GameTree, usize) -> T + Sync),
    first: usize,
    games: Vec<RawGame>,
) -> Vec<T> {
    games
        .into_iter()
        .enumerate()
        .map(|(i, raw)| work(build(raw, first + i), first + i))
        .collect()
}

/// Read every game of a PGN stream, turn each into a `T` with `work` (given
/// the tree and its 1-based number) on the calling thread and `workers`
/// more, and hand the results to `each` in file order (return `false` to
/// stop). With no workers it all happens on the calling thread, one game
/// at a time. Returns the number of games handed to `each`, and an error of
/// the stream after handing on the games read before it, as
/// [`read_games`](super::import::read_games) does.
pub fn map_games<T: Send>(
    source: impl Read,
    workers: usize,
    work: &(dyn Fn(GameTree, usize) -> T + Sync),
    each: &mut dyn FnMut(T) -> bool,
) -> std::io::Result<usize> {
    let mut reader = GameReader::new(BufReader::new(source));
    if workers == 0 {
        let mut count = 0;
        while let Some(raw) = reader.next_game()? {
            count += 1;
            if !each(work(build(raw, count), count)) {
                break;
            }
        }
        return Ok(count);
    }
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        // The channels live inside the scope: should the calling thread
        // panic, they are dropped as it unwinds, and the workers, finding
        // no more jobs, end (the scope waits for them).
        let (job_send, job_receive) = crossbeam_channel::unbounded::<Job>();
        let (done_send, done_receive) = crossbeam_channel::unbounded::<Done<T>>();
        for _ in 0..workers {
            let (jobs, done, stop) = (job_receive.clone(), done_send.clone(), &stop);
            scope.spawn(move || {
                for (batch, first, games) in jobs {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let results = catch_unwind(AssertUnwindSafe(|| run(work, first, games)));
                    if done.send((batch, results)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done_send);
        let mut order = InOrder {
            next: 0,
            waiting: BTreeMap::new(),
            handed: 0,
            go_on: true,
        };
        // A batch taken off the queue and built on the calling thread.
        let help = |order: &mut InOrder<T>, each: &mut dyn FnMut(T) -> bool| match job_receive
            .try_recv()
        {
            Ok((batch, first, games)) => {
                order.take((batch, Ok(run(work, first, games))), each);
                true
            }
            Err(_) => false,
        };
        let ahead = (workers + 1) * BATCHES_AHEAD_PER_WORKER;
        let mut sent = 0;
        let mut read = 0;
        let mut outcome = Ok(());
        'read: while order.go_on {
            let mut games = Vec::with_capacity(GAMES_PER_BATCH);
            while games.len() < GAMES_PER_BATCH {
                match reader.next_game() {
                    Ok(Some(raw)) => games.push(raw),
                    Ok(None) => break,
                    Err(e) => {
                        outcome = Err(e);
                        break;
                    }
                }
            }
            let last = games.len() < GAMES_PER_BATCH;
            if !games.is_empty() {
                let first = read + 1;
                read += games.len();
                if job_send.send((sent, first, games)).is_err() {
                    break 'read;
                }
                sent += 1;
            }
            // More batches wait than the workers will start on next: the
            // workers are behind, so build one here (leaving one each
            // waiting, so that no worker finds the queue empty).
            while order.go_on && job_receive.len() > workers {
                help(&mut order, each);
            }
            // Hand on what is ready; wait when too far ahead.
            while order.go_on {
                let received = if sent - order.next >= ahead {
                    done_receive.recv().ok()
                } else {
                    done_receive.try_recv().ok()
                };
                match received {
                    Some(done) => order.take(done, each),
                    None => break,
                }
            }
            if last {
                break;
            }
        }
        drop(job_send);
        // The file is read: build what is left beside the workers.
        while order.go_on && help(&mut order, each) {}
        while order.go_on && order.next < sent {
            match done_receive.recv() {
                Ok(done) => order.take(done, each),
                Err(_) => break,
            }
        }
        stop.store(true, Ordering::Relaxed);
        outcome.map(|()| order.handed)
    })
}

/// Results put back in file order.
struct InOrder<T> {
    /// The batch to hand on next.
    next: usize,
    waiting: BTreeMap<usize, Vec<T>>,
    /// Results handed on.
    handed: usize,
    /// `each` has not asked to stop.
    go_on: bool,
}

impl<T> InOrder<T> {
    fn take(&mut self, (batch, results): Done<T>, each: &mut dyn FnMut(T) -> bool) {
        match results {
            Ok(results) => {
                self.waiting.insert(batch, results);
            }
            Err(panic) => resume_unwind(panic),
        }
        while let Some(results) = self.waiting.remove(&self.next) {
            self.next += 1;
            for result in results {
                self.handed += 1;
                if !each(result) {
                    self.go_on = false;
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A panic in `work`, on a worker or on the calling thread (which
    /// builds batches too), reaches the caller: the workers end instead of
    /// waiting for jobs that will never come, so nothing hangs.
    #[test]
    fn a_panic_in_work_reaches_the_caller_and_nothing_hangs() {
        let text: String = (1..=400)
            .map(|n| format!("[Event \"{n}\"]\n\n1. e4 e5 *\n\n"))
            .collect();
        for workers in [1, 2, 3] {
            for bad in [1, 33, 200, 400] {
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    map_games(
                        text.as_bytes(),
                        workers,
                        &|_, number| assert_ne!(number, bad, "game {bad} fails"),
                        &mut |()| true,
                    )
                }));
                assert!(outcome.is_err(), "{workers} workers, game {bad}");
            }
        }
    }

    #[test]
    fn results_come_in_file_order_and_stop_when_asked() {
        let text: String = (1..=200)
            .map(|n| format!("[Event \"{n}\"]\n\n1. e4 e5 {{ {n} }} *\n\n"))
            .collect();
        let events = |workers: usize, limit: usize| {
            let mut seen = Vec::new();
            let count = map_games(
                text.as_bytes(),
                workers,
                &|tree, number| (number, tree.headers.get("Event").map(str::to_string)),
                &mut |result| {
                    seen.push(result);
                    seen.len() < limit
                },
            )
            .unwrap();
            (count, seen)
        };
        let (count, all) = events(3, usize::MAX);
        assert_eq!(count, 200);
        assert_eq!(all, events(0, usize::MAX).1);
        for (i, (number, event)) in all.iter().enumerate() {
            assert_eq!(*number, i + 1);
            assert_eq!(event.as_deref(), Some((i + 1).to_string().as_str()));
        }
        let (count, some) = events(2, 45);
        assert_eq!(count, 45);
        assert_eq!(some, all[..45]);
    }
}
