//! Lazy SMP: searching on several threads at once.
//!
//! Splitting one alpha-beta tree between threads is hard: the tree's shape
//! is only known as it is searched, and a thread that takes a subtree
//! before its siblings have raised alpha searches it with a worse window.
//! Lazy SMP does not split the tree at all. Every thread searches the same
//! root position on its own, with its own killers, history, move stack and
//! statistics, and the threads share one thing: the transposition table.
//! What one thread stores, the others find. A helper that has just searched
//! a subtree leaves its value and best move behind; the main thread, coming
//! to the same positions, takes the value as a cutoff or tries the move
//! first, and so reaches each depth sooner. The helpers' own results are
//! thrown away.
//!
//! Why it works at all, when the threads search "the same tree": they do
//! not, quite. Small differences (which thread stored first, a history
//! table that learned other moves) send them down different move orders,
//! and a helper a ply deeper than the main thread fills the table with
//! results the main thread will want next. To spread them out on purpose,
//! helpers skip some depths of iterative deepening (`skips_depth`), so at
//! any moment the team is working at two or three different depths.
//!
//! The rules of the team:
//! - The main thread decides: its result is the answer, it alone sends
//!   progress reports, and it alone watches the clock and the stop signal.
//!   When it finishes, it raises a flag and the helpers stop within a few
//!   thousand nodes.
//! - The table is shared without locks (see `tt.rs` for how a torn entry is
//!   caught). Nothing else is shared but the flag and a node counter.
//! - `nodes` and `nps` count every thread; the statistics and the move
//!   tables are the main thread's (see `stats.rs`).
//! - A search with a trace recorder (teaching) or a node limit (the
//!   strength levels) never gets here: each must give the same tree every
//!   time, and threads racing for the table cannot promise that.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use shakmaty::Chess;

use super::heuristics::Heuristics;
use super::protocol::{Limits, SearchOptions};
use super::searcher::{Progress, Role, SearchContext, SearchResult, Searcher};
use super::trace::{NoTrace, Tracer};

/// Most search threads a front end may ask for (UCI `Threads`).
pub const MAX_THREADS: usize = 256;

/// The board's and the review's default: every core but one, so the
/// interface (and whatever else runs) keeps one; at least one.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1))
}

/// The depth-skipping pattern repeats after this many helpers: groups of
/// 2, 4, 6 and 8 helpers skipping blocks of 1, 2, 3 and 4 depths.
const SKIP_PATTERN_HELPERS: usize = 20;

/// Search with the main thread on the caller's thread and one helper
/// thread per entry of `helpers`; see the module comment.
pub(super) fn search_together<T: Tracer>(
    position: &Chess,
    history: &[u64],
    limits: &Limits,
    options: SearchOptions,
    ctx: &mut SearchContext<'_>,
    tracer: &mut T,
    helpers: &mut [Heuristics],
) -> SearchResult {
    let helper_nodes = AtomicU64::new(0);
    let main_done = AtomicBool::new(false);
    let tt = ctx.tt;
    let tablebases = ctx.tablebases;
    let network = ctx.network;
    let search_id = ctx.search_id;
    let clock_start = ctx.clock_start;
    let mut started = 0u32;
    let mut result = std::thread::scope(|scope| {
        for (slot, heuristics) in helpers.iter_mut().enumerate() {
            let index = slot + 1;
            let (helper_nodes, main_done) = (&helper_nodes, &main_done);
            let helper = move || {
                // The main thread's search has already aged the table and
                // its own history; each helper ages its own.
                heuristics.new_search();
                let stop = || main_done.load(Ordering::Relaxed);
                let mut ignore = |_: Progress| {};
                let mut ctx = SearchContext {
                    tt,
                    heuristics,
                    helpers: &mut [],
                    stop: &stop,
                    on_info: &mut ignore,
                    search_id,
                    clock_start,
                    tablebases,
                    network,
                };
                // No depth, time or mate limit: a helper searches until the
                // main thread is done, among the same root moves.
                let unlimited = Limits {
                    search_moves: limits.search_moves.clone(),
                    ..Limits::default()
                };
                let role = Role::Helper {
                    index,
                    nodes: helper_nodes,
                    published: 0,
                };
                let mut tracer = NoTrace;
                let mut searcher = Searcher::new(
                    position,
                    history,
                    &unlimited,
                    options,
                    &mut ctx,
                    &mut tracer,
                    role,
                );
                searcher.iterate(position, &unlimited);
                searcher.publish_nodes();
            };
            // A helper the system will not start only costs its help.
            if std::thread::Builder::new()
                .name(format!("kibitz-helper-{index}"))
                .spawn_scoped(scope, helper)
                .is_ok()
            {
                started += 1;
            }
        }
        let role = Role::Main {
            helper_nodes: Some(&helper_nodes),
        };
        let mut searcher = Searcher::new(position, history, limits, options, ctx, tracer, role);
        searcher.stats.helper_threads = started;
        let result = searcher.iterate(position, limits);
        main_done.store(true, Ordering::Relaxed);
        result
        // Leaving the scope waits for every helper to stop.
    });
    result.nodes += helper_nodes.load(Ordering::Relaxed);
    result
}

impl<T: Tracer> Searcher<'_, '_, T> {
    /// Whether this thread leaves out iteration `depth`: never the main
    /// thread; a helper as `helper_skips_depth` says.
    pub(super) fn skips_depth(&self, depth: u32) -> bool {
        match self.role {
            Role::Helper { index, .. } => helper_skips_depth(index, depth),
            Role::Main { .. } => false,
        }
    }
}

/// Whether helper `index` (from 1) leaves out iteration `depth`.
///
/// Helpers come in groups: the first two skip every other depth (one the
/// odd depths, one the even), the next four skip blocks of two depths in
/// four phases, then six with blocks of three, eight with blocks of four;
/// then the pattern repeats. With one helper (two threads) it searches
/// depths 2, 4, 6, ...: while the main thread works on an odd depth the
/// helper is a ply ahead, storing the results the main thread's next
/// iteration needs.
fn helper_skips_depth(index: usize, depth: u32) -> bool {
    let mut slot = index.saturating_sub(1) % SKIP_PATTERN_HELPERS;
    let mut block = 1;
    // Group `block` has 2 * block helpers, one per phase.
    while slot >= 2 * block {
        slot -= 2 * block;
        block += 1;
    }
    let (phase, block) = (slot as u32, block as u32);
    ((depth + phase) / block) % 2 == 1
}

#[cfg(test)]
mod tests {
    use super::helper_skips_depth;

    fn searched(index: usize) -> Vec<u32> {
        (1..=12)
            .filter(|&d| !helper_skips_depth(index, d))
            .collect()
    }

    #[test]
    fn helpers_spread_over_the_depths() {
        assert_eq!(searched(1), [2, 4, 6, 8, 10, 12]);
        assert_eq!(searched(2), [1, 3, 5, 7, 9, 11]);
        // The second group skips pairs of depths, each helper shifted by one.
        assert_eq!(searched(3), [1, 4, 5, 8, 9, 12]);
        assert_eq!(searched(4), [3, 4, 7, 8, 11, 12]);
        assert_eq!(searched(5), [2, 3, 6, 7, 10, 11]);
        assert_eq!(searched(6), [1, 2, 5, 6, 9, 10]);
        // The pattern repeats after twenty helpers.
        assert_eq!(searched(21), searched(1));
        // Every helper searches about half the depths.
        for index in 1..=40 {
            let count = searched(index).len();
            assert!((4..=8).contains(&count), "helper {index}: {count}");
        }
    }
}
