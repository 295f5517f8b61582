//! What the user trial of the board's explorer found: each test is one
//! finding, fixed.

use kibitz::db::{Database, GameQuery};
use kibitz::tui::app::{Confirm, Overlay};
use ratatui::crossterm::event::KeyCode;

use crate::common::TempHome;
use crate::common::board::{Board, MessageText};
use crate::explorer_tui::{board, database, show_explorer};

#[test]
fn naming_the_open_database_again_reads_it_again() {
    let home = TempHome::new("trial-same-db");
    let path = database(&home);
    let mut h = board((80, 24), &path);
    show_explorer(&mut h);
    assert!(h.screen().contains("Explorer · 5 games"), "{}", h.screen());
    h.typed(&format!("db {}", path.display()));
    h.serve();
    let screen = h.screen();
    assert!(!screen.contains("Asking the database"), "{screen}");
    assert!(screen.contains("Explorer · 5 games"), "{screen}");
}

#[test]
fn arrows_and_enter_are_the_explorers_only_while_it_is_in_view() {
    let home = TempHome::new("trial-tabbed");
    let path = database(&home);
    let mut h = board((80, 24), &path);
    show_explorer(&mut h);
    assert!(h.screen().contains("↑↓ Enter explorer"), "{}", h.screen());
    // The evaluation terms take the explorer's place (80 x 24: the side
    // panels take turns).
    h.char('b');
    let screen = h.screen();
    assert!(!screen.contains("Explorer · 5 games"), "{screen}");
    assert!(
        !screen.contains("explorer"),
        "no explorer keys in the footer: {screen}"
    );
    h.key(KeyCode::Down);
    h.key(KeyCode::Enter);
    assert_eq!(h.app.cx.explorer.selected, 0, "the hidden explorer took ↓");
    assert!(
        h.tree().mainline().is_empty(),
        "the hidden explorer played a move"
    );
    // Tab back to it: its keys again.
    h.key(KeyCode::Tab);
    assert!(h.screen().contains("Explorer · 5 games"), "{}", h.screen());
    h.key(KeyCode::Down);
    assert_eq!(h.app.cx.explorer.selected, 1);
}

#[test]
fn the_players_side_word_is_read_in_any_case() {
    let home = TempHome::new("trial-player");
    let path = database(&home);
    let mut h = board((120, 40), &path);
    show_explorer(&mut h);
    h.typed("explore player carlsen, magnus White");
    h.serve();
    assert_eq!(h.message(), "Explorer: carlsen, magnus as White.");
    assert!(h.screen().contains("Explorer · 2 games"), "{}", h.screen());
    h.typed("explore player \"Carlsen, Magnus\"");
    h.serve();
    assert_eq!(h.message(), "Explorer: Carlsen, Magnus.");
    assert!(h.screen().contains("Explorer · 4 games"), "{}", h.screen());
}

#[test]
fn a_game_listed_by_g_opens_where_it_reached_the_position() {
    let home = TempHome::new("trial-g-ply");
    let path = database(&home);
    let mut h = board((120, 40), &path);
    show_explorer(&mut h);
    // 1. e4 e5 from the explorer: three games reached it.
    h.key(KeyCode::Enter);
    h.serve();
    h.key(KeyCode::Enter);
    h.serve();
    h.char('G');
    h.serve();
    assert_eq!(h.app.cx.overlay, Overlay::GameList);
    h.key(KeyCode::Enter);
    h.char('y');
    h.serve();
    // The most recent, Carlsen - Caruana 2018 (1. e4 e5 2. Nf3 Nf6): on
    // 1...e5, ply 2, not at its start.
    assert_eq!(h.tree().headers.get("Black"), Some("Caruana, Fabiano"));
    assert_eq!(h.tree().nodes[h.cursor()].san, "e5", "{}", h.screen());
    assert_eq!(h.tree().mainline().len(), 4);
}

#[test]
fn g_and_backspace_are_in_the_help_and_backspace_deletes() {
    let home = TempHome::new("trial-help");
    let path = database(&home);
    for size in [(80, 24), (120, 40)] {
        let mut h = board(size, &path);
        h.char('?');
        let screen = h.screen();
        assert!(screen.contains("x G, :explore"), "{screen}");
        assert!(screen.contains("G games"), "{screen}");
        assert!(screen.contains("p, Del ⌫"), "{screen}");
    }
    let mut h = board((80, 24), &path);
    show_explorer(&mut h);
    // Who pressed x to delete learns the key.
    assert!(
        h.message().contains("Del or ⌫ deletes a move"),
        "{}",
        h.message()
    );
    assert!(h.screen().contains("G games"), "{}", h.screen());
    h.key(KeyCode::Enter);
    h.serve();
    h.key(KeyCode::Backspace);
    assert_eq!(h.app.cx.overlay, Overlay::Confirm(Confirm::Delete));
}

#[test]
fn the_g_list_counts_with_separators_and_names_the_filter() {
    let home = TempHome::new("trial-g-title");
    let path = database(&home);
    let mut h = board((120, 40), &path);
    show_explorer(&mut h);
    h.typed("explore player Carlsen, Magnus white");
    h.char('G');
    h.serve();
    let screen = h.screen();
    assert!(
        screen.contains("games.sqlite · 2 games · Carlsen, Magnus as White"),
        "{screen}"
    );
}

#[test]
fn explore_alone_shows_and_hides_the_panel() {
    let home = TempHome::new("trial-explore-alone");
    let path = database(&home);
    let mut h = board((120, 40), &path);
    h.typed("explore");
    h.serve();
    assert!(h.app.cx.explorer.shown);
    assert!(h.screen().contains("Explorer · 5 games"), "{}", h.screen());
    h.typed("explore");
    assert!(!h.app.cx.explorer.shown);
    assert!(!h.screen().contains("Explorer · 5 games"), "{}", h.screen());
}

#[test]
fn esc_in_the_list_of_db_games_open_quits() {
    let home = TempHome::new("trial-db-open-esc");
    let path = database(&home);
    let db = Database::open(&path, false).unwrap();
    let (rows, total) = db.games(&GameQuery::default()).unwrap();
    let mut h = Board::new((80, 24));
    h.app.open_db_list(path, &rows, total);
    h.key(KeyCode::Esc);
    assert!(
        !matches!(h.app.cx.overlay, Overlay::NewGame(_)),
        "not the New game dialog"
    );
    assert!(h.app.cx.quit, "Esc leaves `kibitz db games --open`");
}

#[test]
fn saving_over_the_explorers_database_is_refused() {
    let home = TempHome::new("trial-save-db");
    let path = database(&home);
    let before = std::fs::read(&path).unwrap();
    let mut h = board((80, 24), &path);
    h.key(KeyCode::Right);
    h.char('e');
    h.typed("move e2e4");
    for command in ["save!", "save"] {
        h.typed(&format!("{command} {}", path.display()));
        assert!(
            h.message().contains("is the explorer's game database"),
            "{}",
            h.message()
        );
        assert_eq!(
            std::fs::read(&path).unwrap(),
            before,
            "the database is kept"
        );
    }
}

#[test]
fn a_long_problem_is_read_whole_in_the_panel() {
    let home = TempHome::new("trial-long-problem");
    let missing = home.join("my games").join("none.sqlite");
    for size in [(80, 24), (120, 40)] {
        let mut h = board(size, &missing);
        show_explorer(&mut h);
        let screen = h.screen();
        // The whole message, wrapped, ends in the panel; the path with a
        // space is quoted in the command.
        assert!(screen.contains("makes one"), "{screen}");
        assert!(h.message().contains("--db \""), "{}", h.message());
        let panel: String = screen
            .lines()
            .skip_while(|l| !l.contains("Explorer ─"))
            .take_while(|l| !l.contains("Moves ─"))
            .map(|l| l.chars().skip(44).collect::<String>())
            .collect::<Vec<_>>()
            .join(" ");
        assert!(panel.contains("FILE.pgn` makes one"), "{screen}");
        assert!(!panel.contains('…'), "nothing cut: {screen}");
    }
}
