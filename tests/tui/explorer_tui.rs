//! The game database on the analysis board: the explorer panel (`x`), its
//! filters, and games of the database as the game list. Each test builds a
//! small database from a few games in a temporary folder.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use kibitz::config::Settings;
use kibitz::db::{Database, GameQuery, ImportOptions};
use kibitz::tui::app::Overlay;
use ratatui::crossterm::event::KeyCode;

use crate::common::TempHome;
use crate::common::board::{Board, MessageText};
use crate::snapshot_names as insta;

/// Five games: 1.e4 four times (two wins for White, a draw, a loss), 1.d4
/// once (a draw).
const GAMES: &str = r#"[Event "Test"]
[Date "2015.03.01"]
[White "Carlsen, Magnus"]
[Black "Anand, Viswanathan"]
[WhiteElo "2850"]
[BlackElo "2790"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 1-0

[Event "Test"]
[Date "2016.05.02"]
[White "Anand, Viswanathan"]
[Black "Carlsen, Magnus"]
[WhiteElo "2780"]
[BlackElo "2860"]
[Result "0-1"]

1. e4 c5 2. Nf3 d6 0-1

[Event "Test"]
[Date "2014.01.10"]
[White "Kramnik, Vladimir"]
[Black "Carlsen, Magnus"]
[WhiteElo "2800"]
[BlackElo "2840"]
[Result "1/2-1/2"]

1. d4 d5 2. c4 e6 1/2-1/2

[Event "Test"]
[Date "2017.07.07"]
[White "Caruana, Fabiano"]
[Black "Kramnik, Vladimir"]
[Result "1/2-1/2"]

1. e4 e5 2. Bc4 Nf6 1/2-1/2

[Event "Test"]
[Date "2018.08.08"]
[White "Carlsen, Magnus"]
[Black "Caruana, Fabiano"]
[WhiteElo "2840"]
[BlackElo "2820"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nf6 1-0
"#;

/// The five games imported into `games.sqlite` in `home`.
pub(crate) fn database(home: &TempHome) -> PathBuf {
    let pgn = home.join("games.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    let path = home.join("games.sqlite");
    let mut db = Database::open_or_create(&path).unwrap();
    let options = ImportOptions {
        workers: 1,
        ..ImportOptions::default()
    };
    let report = db
        .import(&pgn, &options, &AtomicBool::new(false), &mut |_| {})
        .unwrap();
    assert_eq!(report.added, 5, "{report:?}");
    db.rebuild_summary(true).unwrap();
    path
}

/// The analysis board reading the database at `path`.
pub(crate) fn board(size: (u16, u16), path: &Path) -> Board {
    let settings = Settings {
        database: Some(path.to_path_buf()),
        ..Settings::default()
    };
    Board::options(size).settings(settings).analysis()
}

/// `x`, and the database's answer.
pub(crate) fn show_explorer(h: &mut Board) {
    h.char('x');
    h.serve();
}

#[test]
fn the_explorer_lists_the_moves_most_played_first_at_both_sizes() {
    let home = TempHome::new("explorer-sizes");
    let path = database(&home);
    for size in [(80, 24), (120, 40)] {
        let mut h = board(size, &path);
        show_explorer(&mut h);
        let screen = h.screen();
        assert!(screen.contains("Explorer · 5 games"), "{screen}");
        let e4 = h.row_with("▶e4");
        // 4 games: 2 won by White, 1 drawn, 1 won by Black: White scores
        // (2 + ½) / 4 = 62.5%, printed 62% (round half to even).
        assert!(e4.contains("      4 "), "{e4}");
        assert!(e4.contains("62%"), "{e4}");
        // Mean of the rated players' mean ratings: (2820 + 2820 + 2830) / 3.
        assert!(e4.contains("2823"), "{e4}");
        let d4 = h.row_with(" d4 ");
        assert!(d4.contains("50%"), "{d4}");
        insta::assert_snapshot!(format!("explorer_{}x{}", size.0, size.1), screen);
    }
}

#[test]
fn enter_plays_the_picked_move_and_the_panel_follows() {
    let home = TempHome::new("explorer-enter");
    let path = database(&home);
    let mut h = board((120, 40), &path);
    show_explorer(&mut h);
    h.key(KeyCode::Down);
    assert!(h.row_with("▶d4").contains("d4"), "{}", h.screen());
    h.key(KeyCode::Enter);
    assert_eq!(h.tree().mainline().len(), 1, "d4 is on the board");
    assert_eq!(h.tree().nodes[h.cursor()].san, "d4");
    // The new position is asked about: until the answer comes, the title
    // says one is on its way.
    assert!(h.screen().contains("Explorer…"), "{}", h.screen());
    h.serve();
    let screen = h.screen();
    assert!(screen.contains("Explorer · 1 game"), "{screen}");
    assert!(h.row_with("▶d5").contains("50%"), "{screen}");
    // Back to the start: e4 is the first move again, picked.
    h.key(KeyCode::Left);
    h.serve();
    assert!(h.row_with("▶e4").contains("4"), "{}", h.screen());
    // Playing e4 from the start again adds it as a variation beside d4.
    h.key(KeyCode::Enter);
    assert_eq!(h.tree().nodes[0].children.len(), 2);
}

#[test]
fn filters_narrow_the_games_and_show_in_the_title() {
    let home = TempHome::new("explorer-filter");
    let path = database(&home);
    let mut h = board((120, 40), &path);
    show_explorer(&mut h);
    h.typed("explore player carlsen, magnus white");
    h.serve();
    let screen = h.screen();
    // The title is cut after a whole word; the status line says it all.
    assert!(
        screen.contains("Explorer · 2 games · carlsen, magnus as…"),
        "{screen}"
    );
    assert_eq!(h.message(), "Explorer: carlsen, magnus as White.");
    assert!(h.row_with("▶e4").contains("100%"), "{screen}");
    assert!(!screen.contains(" d4 "), "{screen}");
    h.typed("explore since 2018");
    h.serve();
    assert!(
        h.screen().contains("Explorer · 1 game · carlsen"),
        "{}",
        h.screen()
    );
    assert_eq!(
        h.message(),
        "Explorer: carlsen, magnus as White, since 2018."
    );
    h.typed("explore result 0-1");
    h.serve();
    let screen = h.screen();
    assert!(
        screen.contains("No game of the filter reached this position."),
        "{screen}"
    );
    h.typed("explore elo 3000-2900x");
    assert!(h.message().contains("elo takes"), "{}", h.message());
    h.typed("explore clear");
    h.serve();
    assert!(h.screen().contains("Explorer · 5 games "), "{}", h.screen());
}

#[test]
fn no_database_and_a_damaged_one_are_said_plainly() {
    // No database named and none in the data folder.
    let mut h = Board::analysis((80, 24));
    show_explorer(&mut h);
    let screen = h.screen();
    assert!(
        screen.contains("No game database: `kibitz db import"),
        "{screen}"
    );
    assert!(screen.contains("FILE.pgn` makes one"), "{screen}");
    insta::assert_snapshot!("explorer_missing_80x24", screen);
    h.key(KeyCode::Enter);
    assert!(h.message().contains("no database"), "{}", h.message());

    // A database named (--db, the setting, :db) that is not there: the
    // import must be told where; the panel cuts the long text after a
    // whole word, the status line says it all.
    let home = TempHome::new("explorer-missing");
    let missing = home.join("none.sqlite");
    let mut h = board((80, 24), &missing);
    show_explorer(&mut h);
    let full = format!(
        "no game database at {0}: `kibitz db import --db {0} FILE.pgn` makes one",
        missing.display()
    );
    assert_eq!(h.message(), full);
    assert!(h.screen().contains("No game database at"), "{}", h.screen());

    let damaged = home.join("damaged.sqlite");
    std::fs::write(
        &damaged,
        "SQLite format 3\0 but then nothing that makes sense".repeat(40),
    )
    .unwrap();
    h.typed(&format!("db {}", damaged.display()));
    h.serve();
    let screen = h.screen();
    assert!(h.message().contains("damaged.sqlite"), "{}", h.message());
    assert!(
        !screen.contains("Explorer · "),
        "no count from a damaged file: {screen}"
    );
    assert!(
        screen.contains("/damaged.sqlite") || screen.contains("…"),
        "{screen}"
    );
}

#[test]
fn without_colour_the_picked_move_is_marked() {
    let home = TempHome::new("explorer-nocolor");
    let path = database(&home);
    let settings = Settings {
        database: Some(path.clone()),
        ..Settings::default()
    };
    let mut h = Board::options((80, 24))
        .settings(settings)
        .no_color()
        .analysis();
    show_explorer(&mut h);
    h.key(KeyCode::Down);
    let screen = h.screen();
    assert!(h.row_with("▶d4").contains("1"), "{screen}");
    assert!(!h.row_with(" e4 ").contains('▶'), "{screen}");
    // The bar reads without colour: 4 games of e4 as wins, draws, losses.
    assert!(h.row_with(" e4 ").contains('█') && h.row_with(" e4 ").contains('▒'));
    insta::assert_snapshot!("explorer_no_color_80x24", screen);
}

#[test]
fn games_of_the_database_open_from_the_game_list_and_save_elsewhere() {
    let home = TempHome::new("explorer-list");
    let path = database(&home);
    let db = Database::open(&path, false).unwrap();
    let query = GameQuery {
        limit: 3,
        ..GameQuery::default()
    };
    let (rows, total) = db.games(&query).unwrap();
    assert_eq!((rows.len(), total), (3, 5));
    let mut h = Board::new((120, 40));
    h.app.open_db_list(path.clone(), &rows, total);
    assert_eq!(h.app.cx.overlay, Overlay::GameList);
    let screen = h.screen();
    assert!(screen.contains("the 3 most recent of 5 games"), "{screen}");
    assert!(!screen.contains("Ctrl-R"), "{screen}");
    // Most recent first: Carlsen - Caruana, 2018.
    assert!(h.row_with("▶").contains("Caruana"), "{screen}");
    insta::assert_snapshot!("db_game_list_120x40", screen);
    h.key(KeyCode::Enter);
    h.serve();
    let analysis = h.app.mode.analysis().expect("the analysis board");
    assert_eq!(analysis.tree.mainline().len(), 4);
    assert_eq!(analysis.source, None, "the game is not the database's file");
    assert!(
        h.message().contains("Game 5 of the database games.sqlite"),
        "{}",
        h.message()
    );
    let before = std::fs::read(&path).unwrap();
    h.key(KeyCode::Right);
    h.typed("nag !");
    h.char('s');
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the database is left as it was"
    );
}

#[test]
fn g_lists_the_games_that_reached_the_position_with_the_filter() {
    let home = TempHome::new("explorer-games");
    let path = database(&home);
    let mut h = board((120, 40), &path);
    show_explorer(&mut h);
    // 1. e4 from the explorer, then 1...e5: three games reached it.
    h.key(KeyCode::Enter);
    h.serve();
    h.key(KeyCode::Enter);
    h.serve();
    assert_eq!(h.tree().nodes[h.cursor()].san, "e5");
    h.char('G');
    h.serve();
    assert_eq!(h.app.cx.overlay, Overlay::GameList);
    let screen = h.screen();
    assert!(screen.contains("games.sqlite · 3 games"), "{screen}");
    assert!(
        !screen.contains("Anand, Viswanathan Carlsen"),
        "1...c5 is not listed: {screen}"
    );
    h.key(KeyCode::Esc);
    // With a filter: only Carlsen's games as White.
    h.typed("explore player Carlsen, Magnus white");
    h.typed("explore games");
    h.serve();
    let screen = h.screen();
    assert!(screen.contains("games.sqlite · 2 games"), "{screen}");
    // Opening one asks first: the board has moves not saved.
    h.key(KeyCode::Enter);
    assert_eq!(
        h.app.cx.overlay,
        Overlay::Confirm(kibitz::tui::app::Confirm::Discard)
    );
    h.char('y');
    h.serve();
    assert_eq!(h.tree().headers.get("Black"), Some("Caruana, Fabiano"));
}

#[test]
fn a_click_on_an_explorer_move_plays_it() {
    let home = TempHome::new("explorer-click");
    let path = database(&home);
    let mut h = board((120, 40), &path);
    show_explorer(&mut h);
    let screen = h.screen();
    let (row, line) = screen
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains(" d4 "))
        .unwrap();
    // The quoted screen's rows start with a quote mark.
    let column = line.chars().position(|c| c == 'd').unwrap() - 1;
    h.click(column as u16, row as u16);
    assert_eq!(h.tree().nodes[h.cursor()].san, "d4", "{screen}");
}
