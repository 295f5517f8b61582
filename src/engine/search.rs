//! The search: which move is best?
//!
//! ## Glossary
//! - *ply*: one move by one side; *depth*: how many plies remain before the
//!   search stops branching and asks the quiescence search for a value.
//! - *negamax*: minimax written once for both sides. A position's value for
//!   the side to move is the maximum over its moves of minus the value of
//!   the resulting position for the opponent.
//! - *alpha, beta*: the window. `alpha` is what the side to move is already
//!   guaranteed elsewhere in the tree, `beta` what the opponent is
//!   guaranteed; a move scoring `>= beta` proves the opponent will never
//!   allow this position, so its remaining moves need not be searched (a
//!   *beta cutoff*).
//! - *PV* (principal variation): the line both sides are expected to play.
//!   *PV node*: a node searched with an open window (`beta - alpha > 1`).
//! - *fail-soft*: a node may return a value outside its window; that value
//!   is still a valid bound and tightens later searches.
//!
//! This file holds the entry points ([`search`] and its variants), which
//! run the search on this thread or as a team (`smp.rs`). The `Searcher`
//! that every part of the search shares, and its bookkeeping (counting
//! nodes, watching the clock, asking and filling the transposition table),
//! is in `searcher.rs`. The tree below the root (`negamax`) is in
//! `negamax.rs`; iterative deepening, aspiration windows and the root are
//! in `root.rs`, the quiescence search in `qsearch.rs`, move ordering in
//! `ordering.rs` (with `see.rs` and `heuristics.rs`), the engine's own
//! move generation and the board facts it asks (does a move check, the
//! child's key) in `movegen.rs`, the window each move
//! is searched with (PVS, reductions) in `pvs.rs`, and the rules that
//! prune or extend (null move, futility, singular extensions) in
//! `selective.rs`. The value scale (mate, draw) is in `values.rs`.
//!
//! ## The pieces, and why each is there
//! - Iterative deepening: search depth 1, 2, 3, ... until time runs out. The
//!   shallow searches are cheap and fill the transposition table and history
//!   with move-ordering knowledge, so the deep search is faster than a
//!   direct one, and there is always a finished answer to play.
//! - Aspiration windows: the next iteration's value is usually close to the
//!   last one, so search with a narrow window around it; more cutoffs. If
//!   the value falls outside, widen and search again.
//! - PVS (principal variation search): after the first move, assume it was
//!   best and only *prove* each later move worse with a null window
//!   `(alpha, alpha + 1)`; re-search with the full window when the proof
//!   fails.
//! - Transposition table (tt.rs): skip positions already searched deeply
//!   enough, and try their stored best move first.
//! - Null-move pruning: if passing the move still leaves us above beta
//!   after a reduced search, a real move almost surely would too. Unsound in
//!   zugzwang, so not used without pieces or in check.
//! - Late-move reductions: moves ordered late are rarely best; search them
//!   shallower first and re-search only if they surprise. A ply more at a
//!   node expected to fail high (a cut node), where one refutation is all
//!   the search needs and the first moves tried are the likely ones.
//! - ProbCut (selective.rs): a capture that stays well above beta in a
//!   search a few plies shallower is trusted to stay above beta in the
//!   full one, and the node fails high at once.
//! - Check extension: a side in check has few replies and the line is
//!   forcing; search it one ply deeper so mates are not cut off at the
//!   horizon.
//! - Singular extension: when the table's move is the only good one (every
//!   other move, searched at half depth, stays clearly below its value),
//!   search it a ply deeper; a position that hangs on one move is where a
//!   shallow search goes wrong. If other moves are good enough too, the
//!   node fails high at once (multi-cut); if they only match the table's
//!   move, which is expected to fail high anyway, that move is searched a
//!   ply shallower (a negative extension).
//! - Correction history (correction.rs): the static evaluation errs in
//!   patterned ways. Each node's result teaches how far off it was, averaged
//!   by pawn structure, and the pruning rules use the evaluation corrected
//!   by that average.
//! - Mate-distance pruning: once a mate in N is known, no line longer than
//!   N can improve on it.
//! - Repetitions and the fifty-move rule are draws: a side that is worse
//!   will use them, so the search must see them (against the game history
//!   too, not just the current line).

use std::time::Instant;

use shakmaty::Chess;

use super::heuristics::Heuristics;
use super::protocol::{Limits, SearchOptions};
use super::searcher::{Role, Searcher};
use super::trace::Tracer;
use super::tt::TranspositionTable;

/// What a search is given and gives back, named here for front ends.
pub use super::searcher::{Line, MAX_DEPTH, Progress, SearchContext, SearchResult, value_to_score};
/// The value scale lives in `values.rs`, a leaf the table and the move
/// ordering share; the search is where front ends name it.
pub use super::values::{DRAW, INFINITY, MATE, MATE_BOUND, MAX_PLY, TB_BOUND, TB_WIN};

/// Search `position` within `limits`. `history` holds the keys of the
/// game's earlier positions, oldest first.
///
/// With helpers in `ctx` the search runs on several threads (Lazy SMP, see
/// `smp.rs`), except where it must be reproducible: a recorded trace
/// (teaching) and a node limit (the strength levels rely on it) always
/// search on this thread alone, node for node as before.
pub fn search<T: Tracer>(
    position: &Chess,
    history: &[u64],
    limits: &Limits,
    options: SearchOptions,
    ctx: &mut SearchContext<'_>,
    tracer: &mut T,
) -> SearchResult {
    ctx.tt.new_search();
    ctx.heuristics.new_search();
    // Greer's move-chain search (`chain_search.rs`) is a research tool:
    // one fixed-depth search, on this thread.
    if options.move_chains {
        let role = Role::Main { helper_nodes: None };
        return Searcher::new(position, history, limits, options, ctx, tracer, role)
            .chain_iterate(position, limits);
    }
    let helpers = std::mem::take(&mut ctx.helpers);
    if helpers.is_empty() || T::ENABLED || limits.nodes.is_some() {
        let role = Role::Main { helper_nodes: None };
        return Searcher::new(position, history, limits, options, ctx, tracer, role)
            .iterate(position, limits);
    }
    super::smp::search_together(position, history, limits, options, ctx, tracer, helpers)
}

/// One search on the caller's thread with a fresh table of `hash_mb` MiB
/// and fresh move-ordering history: what scripts, tests and benches want
/// when each search must not depend on the one before.
pub fn search_fresh<T: Tracer>(
    position: &Chess,
    history: &[u64],
    limits: &Limits,
    options: SearchOptions,
    hash_mb: usize,
    tracer: &mut T,
) -> SearchResult {
    search_fresh_until(
        position,
        history,
        limits,
        options,
        hash_mb,
        &|| false,
        tracer,
    )
}

/// The same, stopped early when `stop` says so (polled every few thousand
/// nodes).
pub fn search_fresh_until<T: Tracer>(
    position: &Chess,
    history: &[u64],
    limits: &Limits,
    options: SearchOptions,
    hash_mb: usize,
    stop: &dyn Fn() -> bool,
    tracer: &mut T,
) -> SearchResult {
    let mut tt = TranspositionTable::new(hash_mb);
    let mut heuristics = Box::<Heuristics>::default();
    search_kept(
        position,
        history,
        limits,
        options,
        (&mut tt, &mut heuristics),
        stop,
        tracer,
    )
}

/// One search with a fresh table of `hash_mb` MiB on `threads` threads
/// (Lazy SMP; 1 = [`search_fresh`] exactly), for `kibitz bench --threads`.
/// With more than one thread the node count differs from run to run: the
/// threads race through the shared table.
pub fn search_fresh_threads(
    position: &Chess,
    limits: &Limits,
    options: SearchOptions,
    hash_mb: usize,
    threads: usize,
    network: Option<&super::nnue::Network>,
) -> SearchResult {
    let tt = TranspositionTable::new(hash_mb);
    let mut heuristics = Box::<Heuristics>::default();
    let mut helpers: Vec<Heuristics> = Vec::new();
    helpers.resize_with(threads.saturating_sub(1), Heuristics::default);
    let mut ignore = |_: Progress| {};
    let mut ctx = SearchContext {
        tt: &tt,
        heuristics: &mut heuristics,
        helpers: &mut helpers,
        stop: &|| false,
        on_info: &mut ignore,
        search_id: 0,
        clock_start: Instant::now(),
        tablebases: None,
        network,
    };
    search(
        position,
        &[],
        limits,
        options,
        &mut ctx,
        &mut super::trace::NoTrace,
    )
}

/// One search on the caller's thread with a table and move-ordering
/// knowledge the caller keeps between searches, as the engine thread does
/// through a game (the move tables, for one, are meant to last a game).
pub fn search_kept<T: Tracer>(
    position: &Chess,
    history: &[u64],
    limits: &Limits,
    options: SearchOptions,
    (tt, heuristics): (&mut TranspositionTable, &mut Heuristics),
    stop: &dyn Fn() -> bool,
    tracer: &mut T,
) -> SearchResult {
    search_kept_with(
        position,
        history,
        limits,
        options,
        (tt, heuristics),
        stop,
        tracer,
        None,
    )
}

/// [`search_kept`] with a choice of evaluation: the network given, or the
/// hand-written evaluation for `None` (self-play data made by either).
#[allow(clippy::too_many_arguments)]
pub fn search_kept_with<T: Tracer>(
    position: &Chess,
    history: &[u64],
    limits: &Limits,
    options: SearchOptions,
    (tt, heuristics): (&mut TranspositionTable, &mut Heuristics),
    stop: &dyn Fn() -> bool,
    tracer: &mut T,
    network: Option<&super::nnue::Network>,
) -> SearchResult {
    let mut ignore = |_: Progress| {};
    let mut ctx = SearchContext {
        tt,
        heuristics,
        helpers: &mut [],
        stop,
        on_info: &mut ignore,
        search_id: 0,
        clock_start: Instant::now(),
        tablebases: None,
        network,
    };
    search(position, history, limits, options, &mut ctx, tracer)
}
