//! The chess engine: a library with no user interface.
//!
//! [`Engine`] runs searches on a thread of its own. A front end sends
//! [`Command`]s and reads [`Report`]s from a channel; nothing is shared but
//! the stop signal. For scripts and tests that want no thread,
//! [`search::search`] runs one search on the caller's thread.

pub mod chain_search;
mod correction;
pub mod draw_offer;
pub mod eval;
mod evalcache;
pub mod heuristics;
pub mod level;
pub mod movechains;
mod movegen;
pub mod movetables;
mod negamax;
pub mod nnue;
pub mod ordering;
pub mod params;
mod pawns;
pub mod protocol;
mod pst;
mod pvs;
mod qsearch;
#[cfg(test)]
mod random_walks;
mod root;
pub mod search;
mod searcher;
pub mod see;
mod selective;
mod smp;
pub mod stats;
pub mod time;
pub mod trace;
pub mod tt;
mod values;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender, bounded, unbounded};

pub use protocol::{
    Bound, Command, GoRequest, Limits, MoveSource, Report, Score, SearchInfo, SearchOptions,
    position_key, replay,
};
pub use smp::{MAX_THREADS, default_threads};

use crate::book::{Book, BookOptions};
use crate::core::Rng;
use crate::tablebase::Tablebases;
use heuristics::Heuristics;
use nnue::Network;
use search::{Progress, SearchContext};
use trace::NoTrace;
use tt::TranspositionTable;

/// Default transposition table size, MiB.
pub const DEFAULT_HASH_MB: usize = 64;
/// Largest table a user may ask for, MiB.
pub const MAX_HASH_MB: usize = 65_536;
/// Most lines (MultiPV) a front end may ask one search for.
pub const MAX_MULTIPV: usize = 64;
/// Progress reports that may wait unread before new ones are dropped.
/// `BestMove` is never dropped.
const INFO_QUEUE: usize = 1024;

/// The stop signal, shared with the engine thread.
///
/// It is one atomic number rather than a flag: every search with an id
/// below it must stop. A flag would race: a `Stop` sent just before a new
/// `Go` is dequeued could be cleared by that `Go`, or stop it. With ids,
/// `Stop` stops exactly the searches already sent, and a new `Go` stops all
/// older ones.
#[derive(Debug, Clone, Default)]
struct StopSignal(Arc<AtomicU64>);

impl StopSignal {
    fn stop_below(&self, search_id: u64) {
        self.0.fetch_max(search_id, Ordering::SeqCst);
    }

    fn is_stopped(&self, search_id: u64) -> bool {
        self.0.load(Ordering::Relaxed) > search_id
    }
}

/// A handle on the engine thread. Dropping it stops and joins the thread.
pub struct Engine {
    commands: Sender<Command>,
    reports: Receiver<Report>,
    stop: StopSignal,
    latest_search: AtomicU64,
    /// Set while the engine thread searches.
    searching: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Engine {
    /// Start the engine thread with a transposition table of `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> std::io::Result<Engine> {
        let (commands, command_rx) = unbounded();
        let (report_tx, reports) = bounded(INFO_QUEUE);
        let stop = StopSignal::default();
        let thread_stop = stop.clone();
        let searching = Arc::new(AtomicBool::new(false));
        let thread_searching = Arc::clone(&searching);
        let thread = std::thread::Builder::new()
            .name("kibitz-engine".into())
            .spawn(move || {
                run(
                    command_rx,
                    report_tx,
                    thread_stop,
                    &thread_searching,
                    hash_mb,
                )
            })?;
        Ok(Engine {
            commands,
            reports,
            stop,
            latest_search: AtomicU64::new(0),
            searching,
            thread: Some(thread),
        })
    }

    /// Send a command. `Stop` and `Quit` take effect at once, even while a
    /// search runs; the rest queue behind the running search.
    pub fn send(&self, command: Command) {
        match &command {
            Command::Go(request) => {
                self.latest_search
                    .fetch_max(request.search_id, Ordering::SeqCst);
                self.stop.stop_below(request.search_id);
            }
            Command::Stop | Command::Quit => {
                let latest = self.latest_search.load(Ordering::SeqCst);
                self.stop.stop_below(latest.saturating_add(1));
            }
            Command::NewGame
            | Command::SetHashSize(_)
            | Command::ClearHash
            | Command::SetThreads(_)
            | Command::Ping(_)
            | Command::SetBook { .. }
            | Command::SetTablebases(_)
            | Command::SetNetwork(_) => {}
        }
        // The thread only ends after Quit or when this handle is dropped, so
        // a failed send means it is already gone and there is no one to tell.
        let _ = self.commands.send(command);
    }

    /// A sender for commands from another thread that only feeds the engine
    /// data (`SetTablebases`, `SetBook`). `Go`, `Stop` and `Quit` must go
    /// through [`Engine::send`], which keeps the stop signal right.
    pub fn feeder(&self) -> Sender<Command> {
        self.commands.clone()
    }

    /// A flag that is set while the engine searches (for background work
    /// that should make way, such as generating endgame tables).
    pub fn searching(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.searching)
    }

    /// The reports, in order. Clone the receiver to wait on it in a `select!`.
    pub fn reports(&self) -> &Receiver<Report> {
        &self.reports
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.send(Command::Quit);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The engine thread: owns the transposition table and move-ordering
/// history, which live from one search to the next.
fn run(
    commands: Receiver<Command>,
    reports: Sender<Report>,
    stop: StopSignal,
    searching: &AtomicBool,
    hash_mb: usize,
) {
    let mut tt = TranspositionTable::with_fallback(hash_mb.clamp(1, MAX_HASH_MB));
    let mut heuristics = Box::<Heuristics>::default();
    // The helper threads' move-ordering memory, one each; like the main
    // thread's, it lives from one search to the next.
    let mut helpers: Vec<Heuristics> = Vec::new();
    let mut rng = Rng::from_time();
    let mut book: Option<(Arc<Book>, BookOptions)> = None;
    let mut tablebases: Option<Arc<Tablebases>> = None;
    let mut network: Option<Arc<Network>> = nnue::default_network();
    // Whether the table and the move-ordering memory hold what a search
    // with the network learnt.
    let mut memory_from_network = false;
    while let Ok(command) = commands.recv() {
        match command {
            Command::Go(request) if book_move(&request, book.as_ref(), &mut rng, &reports) => {}
            Command::Go(request) if tablebase_move(&request, tablebases.as_deref(), &reports) => {}
            Command::Go(request) => {
                // Levels below the top search with the hand-written
                // evaluation even when a network is loaded; what the last
                // search remembered (cached evaluations, table scores,
                // corrections) belongs to the evaluation it used.
                let uses_network = network.is_some() && request.level.is_full_strength();
                if uses_network != memory_from_network {
                    tt.clear();
                    heuristics.clear();
                    helpers.iter_mut().for_each(Heuristics::clear);
                    memory_from_network = uses_network;
                }
                searching.store(true, Ordering::Relaxed);
                go(
                    *request,
                    &tt,
                    (&mut heuristics, &mut helpers),
                    &mut rng,
                    (tablebases.as_deref(), network.as_deref()),
                    &reports,
                    &stop,
                );
                searching.store(false, Ordering::Relaxed);
            }
            Command::Stop => {}
            Command::NewGame => {
                tt.clear();
                heuristics.clear();
                helpers.iter_mut().for_each(Heuristics::clear);
            }
            Command::SetHashSize(mb) => {
                // Free the old table first so both never live at once.
                drop(std::mem::replace(&mut tt, TranspositionTable::new(1)));
                tt = TranspositionTable::with_fallback(mb.clamp(1, MAX_HASH_MB));
            }
            Command::ClearHash => tt.clear(),
            Command::SetThreads(threads) => {
                helpers.resize_with(threads.clamp(1, MAX_THREADS) - 1, Heuristics::default);
            }
            Command::SetBook {
                book: new_book,
                options,
            } => book = new_book.map(|b| (b, options)),
            Command::SetTablebases(tables) => tablebases = tables,
            Command::SetNetwork(net) => {
                network = net;
                // Everything remembered holds the other evaluation's
                // values: the cached evaluations, the table's scores and
                // the corrections learnt from them.
                tt.clear();
                heuristics.clear();
                helpers.iter_mut().for_each(Heuristics::clear);
            }
            Command::Ping(token) => {
                let _ = reports.send(Report::Pong(token));
            }
            Command::Quit => break,
        }
    }
}

/// Answer `request` from the opening book if it allows that and the book
/// has a move for the position; `true` when it did.
fn book_move(
    request: &GoRequest,
    book: Option<&(Arc<Book>, BookOptions)>,
    rng: &mut Rng,
    reports: &Sender<Report>,
) -> bool {
    let Some((book, options)) = book else {
        return false;
    };
    if !request.book || request.limits.wants_search() {
        return false;
    }
    let probe = book.probe(&request.position);
    let ply = crate::book::ply_of(&request.position);
    let options = BookOptions {
        max_plies: options.max_plies.min(request.level.book_plies()),
        ..*options
    };
    let Some(chosen) = crate::book::choose(&probe, ply, options, rng) else {
        return false;
    };
    let total = probe
        .moves
        .iter()
        .fold(0u32, |sum, b| sum.saturating_add(b.weight));
    let _ = reports.send(Report::BestMove {
        search_id: request.search_id,
        best_move: Some(chosen.m),
        ponder: None,
        // A book move carries no search score.
        score: Score::Centipawns(0),
        bound: Bound::Exact,
        depth: 0,
        nodes: 0,
        source: MoveSource::Book {
            weight: chosen.weight,
            total,
        },
    });
    true
}

/// Answer `request` from the endgame tables when they cover the position
/// (game-style requests at full strength, as for the book): the shortest
/// win, the longest defence. `true` when they did.
fn tablebase_move(
    request: &GoRequest,
    tables: Option<&Tablebases>,
    reports: &Sender<Report>,
) -> bool {
    let Some(tables) = tables else {
        return false;
    };
    if request.limits.wants_search() || !request.level.is_full_strength() {
        return false;
    }
    let Some(probe) = tables.probe(&request.position) else {
        return false;
    };
    let Some(best_move) = probe.best_move else {
        return false;
    };
    let score = match probe.dtm {
        // A table mate: in moves, as UCI counts them.
        Some(d) if d != 0 => Score::Mate(if d > 0 { (d + 1) / 2 } else { d / 2 }),
        _ => match probe.wdl {
            crate::tablebase::Wdl::Win => Score::Centipawns(search::TB_WIN),
            crate::tablebase::Wdl::Loss => Score::Centipawns(-search::TB_WIN),
            _ => Score::Centipawns(0),
        },
    };
    // The reply to ponder on is the tables' best defence (or best win)
    // after the move: a GUI that ponders gets the same answer it would
    // from a search.
    let mut after = request.position.clone();
    shakmaty::Position::play_unchecked(&mut after, best_move);
    let ponder = tables.probe(&after).and_then(|reply| reply.best_move);
    let _ = reports.send(Report::BestMove {
        search_id: request.search_id,
        best_move: Some(best_move),
        ponder,
        score,
        bound: Bound::Exact,
        depth: 0,
        nodes: 0,
        source: MoveSource::Tablebase {
            wdl: probe.wdl,
            dtm: probe.dtm,
        },
    });
    true
}

fn go(
    request: GoRequest,
    tt: &TranspositionTable,
    (heuristics, helpers): (&mut Heuristics, &mut [Heuristics]),
    rng: &mut Rng,
    (tablebases, network): (Option<&Tablebases>, Option<&Network>),
    reports: &Sender<Report>,
    stop: &StopSignal,
) {
    let search_id = request.search_id;
    // A weaker level searches less and scores several moves to choose from.
    let spec = request.level.spec();
    let limits = request.level.limit(&request.limits);
    let mut options = request.options;
    options.multipv = options.multipv.max(spec.multipv);
    let stopped = || stop.is_stopped(search_id);
    // The node count of the last line sent, to tell whether the search
    // went on after it.
    let reported_nodes = std::cell::Cell::new(None);
    let mut on_info = |progress: Progress| {
        // A slow reader loses progress reports, never the search's time.
        let report = match progress {
            Progress::Line(info) => {
                reported_nodes.set(Some(info.nodes));
                Report::Info(Box::new(info))
            }
            Progress::Stats(stats, tables) => Report::Stats {
                search_id,
                stats: Arc::new(stats),
                tables,
                done: false,
            },
        };
        let _ = reports.try_send(report);
    };
    // A weaker level must play as it was measured to: on one thread, the
    // same tree every time.
    let helpers = if request.level.is_full_strength() {
        helpers
    } else {
        &mut []
    };
    let mut ctx = SearchContext {
        tt,
        heuristics,
        helpers,
        stop: &stopped,
        on_info: &mut on_info,
        search_id,
        clock_start: request.received,
        tablebases,
        // The levels below the top were measured with the hand-written
        // evaluation, and play with it.
        network: network.filter(|_| request.level.is_full_strength()),
    };
    let result = search::search(
        &request.position,
        &request.history,
        &limits,
        options,
        &mut ctx,
        &mut NoTrace,
    );
    // UCI: after `go infinite` the best move waits for `stop`.
    if request.limits.infinite {
        while !stopped() {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    let chosen = level::choose(&result.lines, &spec, rng);
    // Only the first line can be a bound (of an iteration cut short); a
    // weaker level's other choices come from finished iterations.
    let (best_move, ponder, score, bound) = match result.lines.get(chosen) {
        Some(line) if chosen > 0 => (
            line.pv.first().copied(),
            line.pv.get(1).copied(),
            line.score,
            Bound::Exact,
        ),
        _ => (result.best_move, result.ponder, result.score, result.bound),
    };
    // The depth that gave `score`: a bound from an iteration cut short is
    // that iteration's, one deeper than the last finished one, and saying
    // the finished depth beside it would name a search that never gave it.
    let depth = result
        .lines
        .get(chosen)
        .map_or(result.depth, |line| line.depth);
    let source = match best_move {
        None => MoveSource::NoMove,
        Some(_) if shakmaty::Position::legal_moves(&request.position).len() == 1 => {
            MoveSource::OnlyMove
        }
        Some(_) => MoveSource::Search,
    };
    // At full strength, when the search went on after its last report (an
    // iteration cut short by the clock or `stop`), its last word: its lines
    // again, with the nodes and time of the whole search. The live reports
    // go out as iterations finish, so the time after the last one (often a
    // third of a short search) was missing from their counts, and the cut
    // iteration may have changed the best line since. A line from such an
    // iteration says "lowerbound": moves it never reached might have done
    // better.
    //
    // Below full strength the panels set the move played beside the best
    // line: send only the best line of the same result, so that both
    // figures come from one iteration (the live reports may have been
    // dropped, or come from a deeper iteration that was cut short). A later
    // line of an iteration can come back better than its first (the search
    // is not perfectly stable): the best is the highest.
    let finals: Vec<(usize, &search::Line)> = if request.level.is_full_strength() {
        if reported_nodes.get() == Some(result.nodes) {
            Vec::new()
        } else {
            result.lines.iter().enumerate().collect()
        }
    } else {
        result
            .lines
            .iter()
            .enumerate()
            .min_by_key(|(_, line)| std::cmp::Reverse(line.value))
            .into_iter()
            .collect()
    };
    let nps = (u128::from(result.nodes) * 1_000_000 / result.elapsed.as_micros().max(1)) as u64;
    for (index, line) in finals {
        let multipv = if request.level.is_full_strength() {
            index + 1
        } else {
            1
        };
        let _ = reports.send(Report::Info(Box::new(SearchInfo {
            search_id,
            multipv,
            depth: line.depth,
            seldepth: line.seldepth,
            score: line.score,
            bound: if index == 0 {
                result.bound
            } else {
                Bound::Exact
            },
            pv: line.pv.clone(),
            nodes: result.nodes,
            nps,
            hashfull: ctx.tt.hashfull(),
            elapsed: result.elapsed,
            complete: true,
        })));
    }
    let tables = Arc::new(ctx.heuristics.maps());
    let _ = reports.send(Report::Stats {
        search_id,
        stats: Arc::new(result.stats),
        tables,
        done: true,
    });
    let _ = reports.send(Report::BestMove {
        search_id,
        best_move,
        ponder,
        score,
        bound,
        depth,
        nodes: result.nodes,
        source,
    });
}
