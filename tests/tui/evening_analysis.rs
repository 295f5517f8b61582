//! Issue 51, the analysis board: a review that survives `:save`, the saved
//! games in `o`, an analysis that stops at its limit, the cursor's move
//! marked by shape under `NO_COLOR`, kept lines numbered as people write
//! them, messages that follow the keys, the evaluation terms' total, move
//! numbers kept with their moves, and the help.
#![allow(clippy::unwrap_used)]

use std::time::{Duration, SystemTime};

use kibitz::config::{AnalysisLimit, Dirs, Settings};
use kibitz::engine::Command;
use kibitz::tui::app::{Overlay, Request};
use kibitz::tui::modes::analyse::move_rows::{Kind, move_rows};
use ratatui::crossterm::event::KeyCode;
use shakmaty::Position;

use crate::common::board::{Board, MessageText};
use crate::common::{self, TempHome};

const SCHOLAR: &str = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n";

/// A board of `size` with the PGN `text` (saved as `name` in `home`) on
/// the analysis board.
fn with_pgn(home: &TempHome, name: &str, text: &str, size: (u16, u16)) -> Board {
    let path = home.join(name);
    std::fs::write(&path, text).unwrap();
    let mut h = Board::new(size);
    h.open(&path, Some(1));
    assert!(h.app.mode.analysis().is_some());
    h
}

/// `R` with the scripted results of [`crate::scripted::review_scholars_mate`].
fn review_scholars_mate(h: &mut Board) {
    crate::scripted::review_scholars_mate(h);
    assert!(h.message().contains("1 blunder ("), "{}", h.message());
}

/// Item 1: after `R`, `:save PATH` writes the review's marks and
/// evaluations into the file, so reopening it shows the review.
#[test]
fn saving_after_a_review_keeps_its_marks_and_evaluations() {
    let home = TempHome::new("save-review");
    let mut h = with_pgn(&home, "scholar.pgn", SCHOLAR, (110, 34));
    review_scholars_mate(&mut h);
    let saved = home.join("reviewed.pgn");
    h.typed(&format!("save {}", saved.display()));
    assert!(h.message().starts_with("Saved"), "{}", h.message());
    assert!(
        h.message().contains("with the review (1 mark)"),
        "{}",
        h.message()
    );
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(text.contains("Nf6 $4"), "the blunder's mark: {text}");
    assert!(text.contains("[%eval"), "the evaluations: {text}");
    // Reopened, the move list shows the mark and the review graph's
    // evaluations are there again.
    let mut again = Board::new((110, 34));
    again.open(&saved, Some(1));
    let tree = again.tree();
    let nf6 = tree
        .mainline()
        .into_iter()
        .find(|&n| tree.nodes[n].san == "Nf6")
        .unwrap();
    assert_eq!(tree.nodes[nf6].nags, vec![4]);
    assert!(again.screen().contains("Nf6??"), "{}", again.screen());
    // A second save writes nothing twice.
    h.typed(&format!("save! {}", saved.display()));
    let twice = std::fs::read_to_string(&saved).unwrap();
    assert_eq!(twice.matches("$4").count(), 1, "{twice}");
    assert!(!h.message().contains("with the review"), "{}", h.message());
}

/// A saved game in `dir`, written at `mtime`.
fn saved_game(
    dir: &std::path::Path,
    name: &str,
    white: &str,
    date: &str,
    result: &str,
    mtime: SystemTime,
) {
    let path = dir.join(name);
    let text = format!(
        "[Event \"Casual\"]\n[Date \"{date}\"]\n[White \"{white}\"]\n[Black \"kibitz level 5\"]\n[Result \"{result}\"]\n\n1. e4 e5 {result}\n"
    );
    std::fs::write(&path, text).unwrap();
    let file = std::fs::File::options().write(true).open(&path).unwrap();
    file.set_modified(mtime).unwrap();
}

fn dirs(home: &TempHome) -> Dirs {
    Dirs {
        config: home.join("config"),
        data: home.join("data"),
        cache: home.join("cache"),
    }
}

/// Item 2: `o` lists the games saved in the data folder's `games/`,
/// newest first, with date, players and result; Enter opens one. A data
/// folder without `games/` lists none and says nothing wrong.
#[test]
fn open_lists_the_saved_games_newest_first() {
    let home = TempHome::new("saved-games");
    let games = home.join("data").join("games");
    std::fs::create_dir_all(&games).unwrap();
    let day = SystemTime::UNIX_EPOCH + Duration::from_secs(1_790_000_000);
    let hour = Duration::from_secs(3600);
    saved_game(&games, "game-1.pgn", "Oldest", "2026.11.21", "0-1", day);
    saved_game(
        &games,
        "game-2.pgn",
        "Newest",
        "2026.11.23",
        "1-0",
        day + 2 * hour,
    );
    saved_game(
        &games,
        "game-3.pgn",
        "Middle",
        "2026.11.22",
        "1/2-1/2",
        day + hour,
    );
    std::fs::write(games.join("notes.txt"), "not a game").unwrap();
    let mut h = Board::options((80, 24)).dirs(dirs(&home)).analysis();
    h.char('o');
    let screen = h.screen();
    assert!(
        screen.contains("recent files, saved games (type a path; Tab completes; Enter opens)"),
        "{screen}"
    );
    let newest = screen.find("Newest - kibitz level 5  1-0").expect(&screen);
    let middle = screen
        .find("Middle - kibitz level 5  1/2-1/2")
        .expect(&screen);
    let oldest = screen.find("Oldest - kibitz level 5  0-1").expect(&screen);
    assert!(newest < middle && middle < oldest, "{screen}");
    assert!(screen.contains("2026.11.21  Oldest"), "the date: {screen}");
    assert!(!screen.contains("notes.txt"), "{screen}");
    // Down to the second, Enter: that game is on the board.
    h.key(KeyCode::Down);
    h.key(KeyCode::Down);
    h.key(KeyCode::Enter);
    h.serve();
    assert_eq!(h.app.cx.overlay, Overlay::None, "{}", h.screen());
    assert_eq!(h.tree().headers.get("White"), Some("Middle"));

    // No games/ folder: the dialog opens, empty, without an error.
    let bare = TempHome::new("no-games");
    let mut h = Board::options((110, 34)).dirs(dirs(&bare)).analysis();
    h.char('o');
    assert!(matches!(h.app.cx.overlay, Overlay::Open(_)));
    assert!(h.screen().contains("(nothing matches)"), "{}", h.screen());
}

/// Whether a `Stop` was sent since the last look.
fn stopped(h: &mut Board) -> bool {
    h.app
        .take_commands()
        .into_iter()
        .any(|c| matches!(c, Command::Stop))
}

fn with_limit(limit: AnalysisLimit) -> Board {
    let settings = Settings {
        analysis_limit: limit,
        ..Settings::default()
    };
    Board::options((80, 24)).settings(settings).analysis()
}

/// Item 3: the analysis stops at its time limit and says so; `a` goes on
/// without one; another position brings the limit back.
#[test]
fn the_analysis_stops_at_its_time_limit_and_a_goes_on() {
    let mut h = with_limit(AnalysisLimit::Seconds(2));
    let id = h.last_search();
    h.info(id, 1, 30, &["e2e4", "e7e5"]);
    h.info(id, 2, 20, &["d2d4", "d7d5"]);
    h.info(id, 3, 10, &["g1f3", "g8f6"]);
    h.wait(1000);
    assert!(!stopped(&mut h), "not before its time");
    assert!(!h.screen().contains("stopped"));
    h.wait(1100);
    assert!(stopped(&mut h), "the engine is told to stop");
    let screen = h.screen();
    assert!(
        screen.contains("stopped at depth 17 · a goes on"),
        "{screen}"
    );
    assert!(screen.contains("e4"), "the lines stay: {screen}");
    assert!(!h.app.needs_ticks(), "no ticks once it stopped");
    // `a` goes on, without a limit.
    h.char('a');
    let goes_on = h.go_requests();
    assert_eq!(goes_on.len(), 1, "one new search");
    assert!(goes_on[0].2, "an endless one");
    assert!(h.message().contains("goes on"), "{}", h.message());
    assert!(!h.screen().contains("stopped at"), "{}", h.screen());
    h.wait(10_000);
    assert!(!stopped(&mut h), "no limit after a");
    // A move: the new position has the limit again.
    h.typed("e4");
    assert_eq!(h.ply(), 1);
    let id = h.last_search();
    h.info(id, 1, 20, &["e7e5"]);
    h.info(id, 2, 10, &["c7c5"]);
    h.info(id, 3, 0, &["e7e6"]);
    h.wait(2100);
    assert!(stopped(&mut h), "the limit is back for a new position");
    assert!(h.screen().contains("stopped at depth 17"), "{}", h.screen());
}

/// Item 3: a depth limit stops the analysis once its lines reach it.
#[test]
fn the_analysis_stops_at_its_depth_limit() {
    let mut h = with_limit(AnalysisLimit::Depth(12));
    let id = h.last_search();
    for depth in [10, 11] {
        for (multipv, pv) in [(1, "e2e4"), (2, "d2d4"), (3, "g1f3")] {
            h.report(
                id,
                multipv,
                depth,
                20,
                kibitz::engine::Bound::Exact,
                true,
                &[pv],
            );
        }
    }
    assert!(!stopped(&mut h), "not before its depth");
    for (multipv, pv) in [(1, "e2e4"), (2, "d2d4"), (3, "g1f3")] {
        h.report(
            id,
            multipv,
            12,
            20,
            kibitz::engine::Bound::Exact,
            true,
            &[pv],
        );
    }
    assert!(stopped(&mut h), "stopped at depth 12");
    assert!(
        h.screen().contains("stopped at depth 12 · a goes on"),
        "{}",
        h.screen()
    );
    // With no limit the engine never stops by itself.
    let mut h = with_limit(AnalysisLimit::None);
    let id = h.last_search();
    h.info(id, 1, 30, &["e2e4"]);
    h.wait(120_000);
    assert!(!stopped(&mut h));
    assert!(!h.app.needs_ticks());
}

/// Item 3: with the default settings the analysis stops too (after 30 s),
/// so that the board left open does not keep a core busy.
#[test]
fn the_default_analysis_stops_after_half_a_minute() {
    let mut h = Board::analysis((80, 24));
    let id = h.last_search();
    h.info(id, 1, 30, &["e2e4", "e7e5"]);
    h.info(id, 2, 20, &["d2d4", "d7d5"]);
    h.info(id, 3, 10, &["g1f3", "g8f6"]);
    h.wait(29_000);
    assert!(
        !h.app
            .take_commands()
            .into_iter()
            .any(|c| matches!(c, kibitz::engine::Command::Stop))
    );
    h.wait(1_100);
    assert!(
        h.app
            .take_commands()
            .into_iter()
            .any(|c| matches!(c, kibitz::engine::Command::Stop)),
        "stopped after 30 s"
    );
    assert!(h.screen().contains("stopped at depth 17"), "{}", h.screen());
}

/// The rows of the move list as text, at `width` columns.
fn move_text(h: &Board, width: u16) -> Vec<String> {
    let rows = move_rows(h.app.mode.analysis().unwrap(), width);
    rows.iter()
        .map(|row| {
            let mut line = String::new();
            for t in row {
                while line.chars().count() < usize::from(t.x) {
                    line.push(' ');
                }
                line.push_str(&t.text);
            }
            line
        })
        .collect()
}

/// Item 4: under `NO_COLOR` the cursor's move is in brackets, at every ply
/// and after a resize.
#[test]
fn no_color_marks_the_current_move_by_shape() {
    let mut h = Board::options((80, 24)).no_color().build();
    h.open(
        &common::testdata("pgn/kasparov-deep-blue-1997.pgn"),
        Some(6),
    );
    let sans: Vec<String> = h
        .tree()
        .mainline()
        .iter()
        .map(|&n| h.tree().nodes[n].san.to_string())
        .collect();
    for ply in 1..=12 {
        h.key(KeyCode::Right);
        let screen = h.screen();
        let marked = format!("[{}]", sans[ply - 1]);
        assert!(screen.contains(&marked), "ply {ply}: {marked} in {screen}");
        if ply > 1 && sans[ply - 2] != sans[ply - 1] {
            let before = format!("[{}]", sans[ply - 2]);
            assert!(!screen.contains(&before), "ply {ply}: {before} in {screen}");
        }
    }
    for size in [(100, 30), (80, 24), (120, 40)] {
        h.resize(size);
        let screen = h.screen();
        assert!(
            screen.contains(&format!("[{}]", sans[11])),
            "{size:?}: {screen}"
        );
    }
    // With colours the move list is as before.
    h.set_no_color(false);
    assert!(!h.screen().contains(&format!("[{}]", sans[11])));
}

/// Item 5: a kept engine line reads `2. Nc3 Nc6 3. Nf3`: no number before
/// Black's reply (the `[%eval]` the first move carries is not shown).
#[test]
fn a_kept_engine_line_numbers_only_whites_moves() {
    let home = TempHome::new("kept-line");
    let mut h = with_pgn(&home, "short.pgn", "1. e4 e5 2. Nf3 *\n", (110, 34));
    h.key(KeyCode::Right);
    h.key(KeyCode::Right);
    let id = h.last_search();
    h.info(id, 1, 30, &["b1c3", "b8c6", "g1f3"]);
    h.info(id, 2, 20, &["g1f3", "b8c6"]);
    h.info(id, 3, 10, &["d2d4", "e5d4"]);
    h.char('K');
    assert!(
        h.message().contains("Kept engine line 1"),
        "{}",
        h.message()
    );
    let text = move_text(&h, 40).join("\n");
    assert!(text.contains("(2. Nc3 Nc6 3. Nf3)"), "{text}");
    assert!(!text.contains("2..."), "{text}");
    // A line that starts with Black's move does take its number.
    let mut h = with_pgn(&home, "short2.pgn", "1. e4 e5 2. Nf3 *\n", (110, 34));
    h.key(KeyCode::Right);
    let id = h.last_search();
    h.info(id, 1, 30, &["c7c5", "g1f3", "d7d6"]);
    h.info(id, 2, 20, &["e7e5", "g1f3"]);
    h.info(id, 3, 10, &["e7e6", "d2d4"]);
    h.char('K');
    let text = move_text(&h, 40).join("\n");
    assert!(text.contains("(1... c5 2. Nf3 d6)"), "{text}");
}

/// Item 6: each key or command says what it did; an older message does
/// not stay to say something no longer true.
#[test]
fn messages_follow_the_variation_keys_and_nag() {
    let home = TempHome::new("stale");
    let mut h = with_pgn(
        &home,
        "vars.pgn",
        "1. e4 (1. d4 d5) e5 2. Nf3 *\n",
        (110, 34),
    );
    h.key(KeyCode::Right);
    h.key(KeyCode::Right);
    h.key(KeyCode::Down);
    assert_eq!(h.message(), "No variation here.");
    h.key(KeyCode::Left);
    h.key(KeyCode::Down);
    assert_eq!(h.tree().nodes[h.cursor()].san.to_string(), "d4");
    assert_eq!(h.message(), "Variation 2 of 2: d4");
    h.key(KeyCode::Up);
    assert_eq!(h.message(), "Variation 1 of 2: e4");
    h.typed("comment A good start");
    assert_eq!(h.message(), "Comment set.");
    h.typed("nag !?");
    assert_eq!(h.message(), "Marked e4!?.");
    h.typed("nag clear");
    assert_eq!(h.message(), "Marks removed from e4.");
}

/// The side panel's rows from the one holding `text`, `count` of them.
fn rows_from(screen: &str, text: &str, count: usize) -> Vec<String> {
    let lines: Vec<&str> = screen.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains(text))
        .unwrap_or_else(|| panic!("no {text:?} in {screen}"));
    lines[at..(at + count).min(lines.len())]
        .iter()
        .map(|l| l.to_string())
        .collect()
}

/// Item 7: the evaluation terms panel shows its total, the hand-written
/// evaluation's value of the position, and says the engine lines' scores
/// come from the network.
#[test]
fn the_terms_panel_shows_the_total_and_where_engine_scores_come_from() {
    let home = TempHome::new("terms");
    for size in [(110, 34), (80, 24)] {
        let mut h = with_pgn(
            &home,
            "italian.pgn",
            "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. d3 *\n",
            size,
        );
        h.key(KeyCode::End);
        h.char('b');
        let position = h.app.cx.board.game.position().clone();
        let total = kibitz::engine::eval::evaluate_white(position.board());
        assert_eq!(kibitz::engine::eval::breakdown(&position).total, total);
        assert_ne!(total, 0, "a position with something to add up");
        let screen = h.screen();
        let rows = rows_from(&screen, "hand-written", 3);
        let sum = rows[1].trim_end_matches(['"', ' ']);
        assert!(sum.contains("total"), "{size:?}: {screen}");
        assert!(
            sum.ends_with(&format!(" {total}")),
            "{size:?}: {sum:?} in {screen}"
        );
        assert!(
            rows[2].contains("engine lines: scored by a network"),
            "{screen}"
        );
    }
}

/// Item 8: a move number never ends a row with its move on the next.
#[test]
fn a_move_number_stays_with_its_move() {
    let mut h = Board::new((80, 24));
    h.open(
        &common::testdata("pgn/kasparov-deep-blue-1997.pgn"),
        Some(6),
    );
    h.key(KeyCode::End);
    let analysis = h.app.mode.analysis().unwrap();
    for width in 12..=60 {
        for row in move_rows(analysis, width) {
            let last = row.last().unwrap();
            assert_ne!(last.kind, Kind::Number, "width {width}: {row:?}");
        }
    }
    for size in [(80, 24), (100, 30)] {
        h.resize(size);
        for _ in 0..40 {
            h.key(KeyCode::Left);
            let screen = h.screen();
            for line in screen.lines() {
                let line = line.trim_end_matches(['"', ' ']);
                let last = line.rsplit(' ').next().unwrap_or_default();
                let number = last
                    .strip_suffix('.')
                    .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
                assert!(!number, "{size:?}: {line:?} in {screen}");
            }
        }
    }
}

/// Item 9: one engine line, two engine lines.
#[test]
fn the_number_of_engine_lines_is_said_in_words() {
    let mut h = Board::analysis((80, 24));
    h.char('-');
    assert_eq!(h.message(), "2 engine lines.");
    h.char('-');
    assert_eq!(h.message(), "1 engine line.");
}

/// Item 10: the analysis help says what `:copy` does and how to start a
/// new game.
#[test]
fn the_analysis_help_says_how_to_start_a_game_and_what_copy_does() {
    let mut h = Board::analysis((80, 24));
    h.char('?');
    let screen = h.screen();
    assert!(screen.contains("f ? D q, :new"), "{screen}");
    assert!(screen.contains("quit, a new game"), "{screen}");
    assert!(
        screen.contains("show and copy the position's FEN; copy the game's PGN"),
        "{screen}"
    );
    // What `:copy` says it does, it does: the PGN goes to the clipboard.
    h.key(KeyCode::Esc);
    h.typed("copy");
    assert!(
        h.serve().iter().any(|r| matches!(r, Request::Clipboard(_))),
        "the PGN to the clipboard"
    );
}
