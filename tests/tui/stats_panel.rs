//! The search-statistics panel on the board: drawn from the engine's
//! `Report::Stats`, in full where there is room and in one line where there
//! is not, shown or hidden with `S`, and never from a search that is over.
#![allow(clippy::unwrap_used)]

use kibitz::engine::stats::{Counters, IterationStats, SearchStats};
use ratatui::crossterm::event::KeyCode;

use crate::common::board::Board;
use crate::snapshot_names as insta;

/// The full panel's title.
const PANEL: &str = "Search statistics (S hides)";

/// Five iterations of a search, with fixed figures (and time, so the node
/// rate is fixed too).
fn five_iterations() -> SearchStats {
    let rows = [
        (1, 20, 25, 0, 0, 19, 2, 0),
        (2, 61, 80, 22, 20, 100, 40, 1),
        (3, 150, 210, 45, 43, 213, 80, 13),
        (4, 400, 500, 188, 167, 576, 263, 85),
        (5, 900, 800, 140, 120, 1_684, 1_096, 769),
    ];
    let mut stats = SearchStats::default();
    let mut elapsed = 0;
    for (depth, main, quiescence, cutoffs, first, probes, hits, tt_cutoffs) in rows {
        elapsed += 10 * depth;
        let counters = Counters {
            main,
            quiescence,
            leaves: quiescence,
            beta_cutoffs: cutoffs,
            first_move_cutoffs: first,
            tt_probes: probes,
            tt_hits: hits,
            tt_cutoffs,
        };
        stats.iterations.push(IterationStats {
            depth,
            counters,
            selective_depth: 2 * depth,
            elapsed_ms: u64::from(elapsed),
        });
        let t = &mut stats.totals;
        t.main += main;
        t.quiescence += quiescence;
        t.leaves += quiescence;
        t.beta_cutoffs += cutoffs;
        t.first_move_cutoffs += first;
        t.tt_probes += probes;
        t.tt_hits += hits;
        t.tt_cutoffs += tt_cutoffs;
    }
    stats.selective_depth = 10;
    stats.elapsed_ms = u64::from(elapsed);
    stats
}

#[test]
fn the_full_panel_on_the_analysis_board() {
    let mut board = Board::analysis((120, 40));
    let id = board.last_search();
    assert!(!board.screen().contains(PANEL), "nothing before a report");
    board.stats(id, five_iterations());
    let screen = board.screen();
    for words in [PANEL, "cutoffs", "TT hits", "N/N-1", "root"] {
        assert!(screen.contains(words), "{words}:\n{screen}");
    }
    insta::assert_snapshot!("stats_panel_full", screen);
}

#[test]
fn one_line_at_80_by_24() {
    let mut board = Board::analysis((80, 24));
    let id = board.last_search();
    board.stats(id, five_iterations());
    let screen = board.screen();
    assert!(!screen.contains(PANEL), "{screen}");
    for words in ["branching factor", "cutoffs", "TT hits"] {
        assert!(screen.contains(words), "{words}:\n{screen}");
    }
    insta::assert_snapshot!("stats_panel_compact", screen);
}

#[test]
fn s_hides_and_shows_it_and_a_game_starts_hidden() {
    let mut board = Board::analysis((120, 40));
    let id = board.last_search();
    board.stats(id, five_iterations());
    assert!(board.screen().contains(PANEL));
    board.key(KeyCode::Char('S'));
    assert!(!board.screen().contains(PANEL));
    board.typed("stats");
    assert!(board.screen().contains(PANEL));

    // A game against the engine: hidden until asked for, then live during
    // the engine's turn.
    let mut game = Board::new((120, 40));
    game.key(KeyCode::Enter);
    game.app.take_commands();
    game.typed("e4");
    let id = game.last_search();
    game.stats(id, five_iterations());
    assert!(!game.screen().contains(PANEL));
    game.key(KeyCode::Char('S'));
    assert!(game.screen().contains(PANEL), "{}", game.screen());
}

#[test]
fn statistics_of_an_older_search_are_dropped() {
    let mut board = Board::analysis((120, 40));
    let first = board.last_search();
    // A move on the board starts a new search; the old one's report is late.
    board.typed("e4");
    let second = board.last_search();
    assert!(second > first);
    board.stats(first, five_iterations());
    assert!(!board.screen().contains(PANEL));
    board.stats(second, five_iterations());
    assert!(board.screen().contains(PANEL));
    // And a new position clears the old statistics until its own arrive.
    board.typed("e5");
    assert!(!board.screen().contains(PANEL));
}
