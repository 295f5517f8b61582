//! Every screen of the board at the two sizes that matter most: 80 x 24,
//! the default of most terminals, and 120 x 40. `App` is driven by
//! messages as in tests/tui/tui.rs; engine output, reviews, records and file
//! reads are fed in by hand, so the screens are the same on every run.
//! Besides the snapshots, each test checks on the text that what matters at
//! that size is on screen and not cut.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use kibitz::book::default_book;
use kibitz::game::fen::parse_fen;
use kibitz::tablebase::{Builtin, Tablebases};
use kibitz::tui::app::{Confirm, Overlay};
use kibitz::tui::msg::Msg;
use kibitz::tui::save::SavedGame;
use ratatui::crossterm::event::{KeyCode, MouseEventKind};
use shakmaty::{Chess, Position};

use crate::common;
use crate::common::board::{Board, MessageText};
use crate::snapshot_names as insta;

/// The two sizes every screen is drawn at.
const SIZES: [(u16, u16); 2] = [(80, 24), (120, 40)];

/// The snapshot of a screen, named after it and its size, with clock
/// readings, times and node rates filtered out.
fn snapshot(name: &str, size: (u16, u16), screen: &str) {
    insta::with_settings!({filters => vec![
        (r"\b\d{1,2}:\d{2}(:\d{2})?\b", "[clock]"),
        (r"\b\d+\.\d\b(\s*s)?", "[time]"),
        (r"[\d.]+[kM]? n/s", "[nps]"),
    ]}, {
        insta::assert_snapshot!(format!("{name}_{}x{}", size.0, size.1), screen);
    });
}

/// The rows of a screen, without the trailing quote marks and padding of
/// `TestBackend`'s text.
fn rows(screen: &str) -> Vec<String> {
    screen
        .lines()
        .map(|l| l.trim_matches('"').trim_end().to_string())
        .collect()
}

/// The key line: the bottom row.
fn key_line(screen: &str) -> String {
    rows(screen).last().cloned().unwrap_or_default()
}

/// The key line fits: it ends with the help key (each mode's forms end
/// with it, and a cut one would not).
fn assert_key_line(screen: &str) {
    let line = key_line(screen);
    assert!(line.ends_with("? help"), "key line cut: {line:?}\n{screen}");
}

/// The rows of the screen from the one holding `title` on, as far as
/// `count` rows.
fn rows_from(screen: &str, title: &str, count: usize) -> Vec<String> {
    let rows = rows(screen);
    let start = rows
        .iter()
        .position(|r| r.contains(title))
        .unwrap_or_else(|| panic!("no {title:?} on screen:\n{screen}"));
    rows[start..].iter().take(count).cloned().collect()
}

/// Seven moves into a Sicilian, the engine thinking with a long line.
fn play_mid_game(size: (u16, u16)) -> Board {
    let mut h = Board::blitz(size, None);
    h.start();
    h.searches();
    for (mine, reply) in [("e4", "c7c5"), ("Nf3", "d7d6"), ("d4", "c5d4")] {
        h.typed(mine);
        let id = h.searches()[0];
        h.wait(400);
        h.engine_plays(id, reply);
        h.wait(1_000);
    }
    h.typed("Nxd4");
    let id = h.searches()[0];
    h.wait(850);
    h.info(
        id,
        1,
        -35,
        &[
            "g8f6", "b1c3", "a7a6", "c1e3", "e7e5", "d4b3", "c8e6", "f2f3", "f8e7", "d1d2",
        ],
    );
    h
}

#[test]
fn play_mode_mid_game() {
    for size in SIZES {
        let h = play_mid_game(size);
        let screen = h.screen();
        assert!(screen.contains("Engine"), "{screen}");
        assert!(screen.contains("4. Nxd4"), "{screen}");
        assert_key_line(&screen);
        // At 80 x 24 one optional panel at most has something here: Tab
        // would only say "No other panel", so the key line does not offer it.
        assert!(!key_line(&screen).contains("Tab panels"), "{screen}");
        snapshot("play", size, &screen);
    }
}

/// The snapshot of the screen as it is; its text for more checks.
fn dump(name: &str, h: &Board) -> String {
    let screen = h.screen();
    snapshot(name, h.size, &screen);
    screen
}

#[test]
fn dialogs_of_a_game() {
    for size in SIZES {
        let h = Board::blitz(size, None);
        let screen = dump("new_game", &h);
        assert_key_line(&screen);

        let mut h = play_mid_game(size);
        h.key(KeyCode::Char('r'));
        assert_eq!(h.app.cx.overlay, Overlay::Confirm(Confirm::Resign));
        let screen = dump("confirm_resign", &h);
        assert!(screen.contains("Resign this game?"), "{screen}");
        assert!(screen.contains("(Enter: no)"), "{screen}");
        // Enter takes the dialog's default, "no": typing a move and
        // pressing Enter into a dialog that just opened loses nothing.
        h.typed("d4");
        assert_eq!(h.app.cx.overlay, Overlay::None);
        assert_eq!(h.app.mode.get().game_end(), None, "Enter must not resign");
        h.key(KeyCode::Char('r'));
        h.key(KeyCode::Char('n'));
        assert_eq!(h.app.mode.get().game_end(), None);
        h.key(KeyCode::Char('?'));
        let screen = dump("help_play", &h);
        assert!(screen.contains("Keys (any key closes)"), "{screen}");
        assert!(screen.contains("Tab; PgUp PgDn"), "{screen}");

        let mut h = Board::blitz(size, Some("8/4P1k1/8/8/8/8/6K1/8 w - - 0 1"));
        h.start();
        h.set_cursor(shakmaty::Square::E7);
        h.key(KeyCode::Enter);
        h.key(KeyCode::Up);
        h.key(KeyCode::Enter);
        assert!(matches!(h.app.cx.overlay, Overlay::Promotion { .. }));
        let screen = dump("promotion", &h);
        assert!(screen.contains("♛ Q  ♜ R  ♝ B  ♞ N"), "{screen}");

        let mut h = Board::blitz(size, None);
        h.keys("lll");
        h.key(KeyCode::Enter);
        for san in ["f3", "e5", "g4", "Qh4#"] {
            h.typed(san);
            h.wait(1_000);
        }
        assert_eq!(h.app.cx.overlay, Overlay::GameOver);
        let screen = dump("game_over", &h);
        assert!(screen.contains("Black wins by checkmate"), "{screen}");
    }
}

#[test]
fn resume_dialog() {
    for size in SIZES {
        let saved = SavedGame {
            version: 1,
            start_fen: None,
            chess960: false,
            moves: ["e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4"]
                .iter()
                .map(|m| m.to_string())
                .collect(),
            players: "black".to_string(),
            level: 10,
            time_control: "15+10".to_string(),
            white_ms: 800_000,
            black_ms: 850_000,
            finished: false,
        };
        let h = Board::options(size).resume(saved).seed(1).build();
        let screen = dump("resume", &h);
        assert!(screen.contains("against level 10,"), "{screen}");
        assert!(screen.contains("15+10, 4 moves played"), "{screen}");
        assert!(screen.contains("An unfinished game"), "{screen}");
        assert!(!screen.contains("u takeback"), "{screen}");
    }
}

#[test]
fn every_unfinished_game_of_an_ended_board_is_offered_in_turn() {
    use kibitz::tui::save::{AutosaveSlot, read_unfinished};
    let home = common::TempHome::new("offers");
    let dirs = kibitz::config::Dirs {
        config: home.join("config"),
        data: home.join("data"),
        cache: home.join("cache"),
    };
    let game = |moves: &[&str]| SavedGame {
        version: 1,
        start_fen: None,
        chess960: false,
        moves: moves.iter().map(|m| m.to_string()).collect(),
        players: "two".to_string(),
        level: 0,
        time_control: "untimed".to_string(),
        white_ms: 0,
        black_ms: 0,
        finished: false,
    };
    // Two boards ended with a game each (a crash frees the lock as well).
    for moves in [&["e2e4"][..], &["d2d4", "d7d5"]] {
        let slot = AutosaveSlot::claim(&dirs.data).unwrap();
        slot.write(&game(moves)).unwrap();
    }
    let (offered, problems) = read_unfinished(&dirs.data);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(offered.len(), 2);
    let first = offered[0].saved.clone();
    let mut h = Board::options((80, 24))
        .dirs(dirs.clone())
        .resume(first)
        .seed(1)
        .build();
    h.app.cx.services.autosave = Some(AutosaveSlot::claim(&dirs.data).unwrap());
    h.app.cx.services.unfinished = offered.into();
    let screen = h.screen();
    assert!(screen.contains("(1 after it)"), "{screen}");
    assert!(
        screen.contains("n keep it in games/, show the next"),
        "{screen}"
    );
    // n: kept as a PGN in games/, and the next one is offered.
    h.char('n');
    let kept = h.message();
    assert!(
        kept.starts_with("Not resumed: kept as games/unfinished-"),
        "{kept}"
    );
    let games: Vec<_> = std::fs::read_dir(dirs.data.join("games"))
        .unwrap()
        .collect();
    assert_eq!(games.len(), 1);
    let screen = h.screen();
    assert!(screen.contains("Resume this unfinished game?"), "{screen}");
    assert!(
        screen.contains("n new game, this one kept in games/"),
        "{screen}"
    );
    // y: resumed, its file now this board's autosave; nothing else left.
    h.char('y');
    assert!(h.message().contains("Game resumed"), "{}", h.message());
    let own = h
        .app
        .cx
        .services
        .autosave
        .as_ref()
        .unwrap()
        .path()
        .to_path_buf();
    assert!(own.exists());
    let autosaves: Vec<_> = std::fs::read_dir(&dirs.data)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".json"))
        .collect();
    assert_eq!(autosaves.len(), 1, "{autosaves:?}");
}

fn analysis_with_lines(size: (u16, u16)) -> Board {
    let mut h = Board::blitz(size, None);
    h.analyse(Chess::default());
    for san in ["e4", "c5", "Nf3", "d6"] {
        h.typed(san);
    }
    h.keys("++");
    let id = h.searches().last().copied().unwrap();
    let lines: [(i32, &[&str]); 5] = [
        (
            35,
            &[
                "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6", "c1e3", "e7e5", "d4b3", "c8e6",
            ],
        ),
        (
            30,
            &["f1b5", "c8d7", "b5d7", "d8d7", "e1g1", "g8f6", "f1e1"],
        ),
        (22, &["b1c3", "g8f6", "d2d4", "c5d4", "f3d4", "a7a6"]),
        (15, &["c2c3", "g8f6", "f1e2", "b8c6", "e1g1"]),
        (-8, &["f1c4", "g8f6", "d2d3", "e7e6"]),
    ];
    for (i, (cp, pv)) in lines.iter().enumerate() {
        h.info(id, i + 1, *cp, pv);
    }
    h
}

#[test]
fn analysis_board_with_five_lines() {
    for size in SIZES {
        let h = analysis_with_lines(size);
        let screen = dump("analysis", &h);
        assert_key_line(&screen);
        // Every line keeps its number, its score and its first moves; a
        // line cut ends with "…" after a whole move.
        let lines = rows_from(&screen, "Engine · depth 17", 6);
        for (row, (score, first)) in lines[1..].iter().zip([
            ("+0.35", "3.d4 cxd4 4.Nxd4"),
            ("+0.30", "3.Bb5+ Bd7"),
            ("+0.22", "3.Nc3 Nf6"),
            ("+0.15", "3.c3 Nf6"),
            ("-0.08", "3.Bc4 Nf6"),
        ]) {
            assert!(row.contains(score) && row.contains(first), "{row:?}");
        }
        if size == (80, 24) {
            assert!(lines[1].ends_with('…'), "{:?}", lines[1]);
            assert!(
                !lines[1].contains("5.Nc3 a…"),
                "no half move: {:?}",
                lines[1]
            );
        } else {
            assert!(lines[1].contains("5.Nc3 a6"), "{:?}", lines[1]);
        }
    }
}

#[test]
fn book_and_tablebase_panels() {
    for size in SIZES {
        let mut h = Board::blitz(size, None);
        h.set_book(Arc::new(default_book().unwrap()));
        h.analyse(Chess::default());
        h.typed("e4");
        let screen = dump("book_analysis", &h);
        assert!(screen.contains("e5     █"), "{screen}");
        assert_key_line(&screen);
        // The evaluation terms join the book: at 80 x 24 they take turns,
        // the one just opened in front, Tab going round.
        h.key(KeyCode::Char('b'));
        let screen = dump("book_and_terms", &h);
        if size == (80, 24) {
            assert!(screen.contains("Tab Book · Terms"), "{screen}");
            assert!(!screen.contains("e5     █"), "{screen}");
            h.key(KeyCode::Tab);
            let screen = h.screen();
            assert!(screen.contains("e5     █"), "{screen}");
            assert!(h.app.cx.message.as_ref().unwrap().0.contains("Book"));
        } else {
            assert!(!screen.contains("Tab Book"), "{screen}");
            assert!(screen.contains("e5     █"), "{screen}");
            h.key(KeyCode::Tab);
            assert!(
                h.app
                    .cx
                    .message
                    .as_ref()
                    .unwrap()
                    .0
                    .contains("All panels fit")
            );
        }
    }
}

/// A queen against a rook: 24 moves for White, each with its outcome.
fn tablebase_game(size: (u16, u16)) -> Board {
    let mut tables = Tablebases::new(Builtin::new());
    tables.add_syzygy(&common::testdata("syzygy")).unwrap();
    let mut h = Board::blitz(size, Some(TABLEBASE_FEN));
    h.update(Msg::Tablebases(Arc::new(tables)));
    h.start();
    // The tablebase waits for the game's end unless asked for.
    h.key(KeyCode::Char('v'));
    h
}

const TABLEBASE_FEN: &str = "8/8/4k3/8/2r5/8/1Q6/K7 w - - 0 1";

#[test]
fn the_tablebase_panel_pages_through_every_move() {
    let moves = parse_fen(TABLEBASE_FEN).unwrap().legal_moves().len();
    for size in SIZES {
        let mut h = tablebase_game(size);
        let screen = dump("tablebase_play", &h);
        assert!(screen.contains("White: win"), "{screen}");
        let title = rows_from(&screen, "Tablebase", 1).remove(0);
        let shown = if size == (80, 24) {
            // The panel shows what the room allows and says which moves.
            assert!(
                title.contains(&format!("Tablebase 1-4 of {moves} · PgDn")),
                "{title}"
            );
            4
        } else {
            assert!(
                title.contains(&format!("Tablebase 1-11 of {moves} · PgDn")),
                "{title}"
            );
            11
        };
        let first = rows_from(&screen, "Tablebase", 3)[2].clone();
        // PgDn shows the next page, PgUp goes back.
        h.key(KeyCode::PageDown);
        let screen = h.screen();
        let title = rows_from(&screen, "Tablebase", 1).remove(0);
        assert!(
            title.contains(&format!("Tablebase {}-", shown + 1)) && title.contains("PgUp"),
            "{title}"
        );
        snapshot("tablebase_play_page_2", size, &screen);
        // To the end: the last move is there, PgDn stops.
        for _ in 0..20 {
            h.key(KeyCode::PageDown);
        }
        let screen = h.screen();
        let title = rows_from(&screen, "Tablebase", 1).remove(0);
        assert!(
            title.contains(&format!("-{moves} of {moves} · PgUp")),
            "{title}"
        );
        for _ in 0..20 {
            h.key(KeyCode::PageUp);
        }
        assert_eq!(rows_from(&h.screen(), "Tablebase", 3)[2], first);
        // The wheel over the panel scrolls it a move at a time.
        let (x, y) = position_of(&h.screen(), "Tablebase");
        h.mouse(MouseEventKind::ScrollDown, x, y + 2);
        let title = rows_from(&h.screen(), "Tablebase", 1).remove(0);
        assert!(title.contains("Tablebase 2-"), "{title}");
        h.mouse(MouseEventKind::ScrollUp, x, y + 2);

        // The analysis board: at 120 x 40 many more than the two of before.
        h.analyse(parse_fen(TABLEBASE_FEN).unwrap());
        let screen = dump("tablebase_analysis", &h);
        let title = rows_from(&screen, "Tablebase", 1).remove(0);
        assert!(title.contains(&format!("of {moves} · PgDn")), "{title}");
        if size == (120, 40) {
            assert!(title.contains("Tablebase 1-22 of"), "{title}");
        }
        assert_key_line(&screen);
    }
}

/// Column and row of the first cell of `text` on the screen.
fn position_of(screen: &str, text: &str) -> (u16, u16) {
    for (y, row) in rows(screen).iter().enumerate() {
        if let Some(at) = row.find(text) {
            return (row[..at].chars().count() as u16, y as u16);
        }
    }
    panic!("no {text:?} on screen:\n{screen}");
}

#[test]
fn review_screen() {
    for size in SIZES {
        let dir = common::TempHome::new("screens-review");
        let path = dir.join("scholar.pgn");
        std::fs::write(&path, "[White \"Anderssen, Adolf\"]\n[Black \"Kieseritzky, Lionel\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n").unwrap();
        let mut h = Board::blitz(size, None);
        h.open(&path, Some(1));
        crate::scripted::review_scholars_mate(&mut h);
        h.key(KeyCode::Char('n'));
        let screen = dump("review", &h);
        assert!(screen.contains("Review · W"), "{screen}");
        assert!(screen.contains("Nf6??"), "{screen}");
        assert_key_line(&screen);
        h.key(KeyCode::Char('?'));
        let screen = dump("help_analysis", &h);
        assert!(screen.contains("Tab; PgUp PgDn"), "{screen}");
    }
}

#[test]
fn teach_mode_and_its_positions() {
    for size in SIZES {
        let mut h = Board::blitz(size, None);
        let position = Chess::default();
        h.analyse(position.clone());
        h.start_teach(position, 3);
        h.serve();
        for _ in 0..12 {
            h.key(KeyCode::Right);
        }
        let screen = dump("teach", &h);
        assert_key_line(&screen);
        assert!(
            screen.contains(
                "Teach mode: → steps the search, v the tree, p the positions, ? the keys."
            ),
            "{screen}"
        );
        h.key(KeyCode::Char('p'));
        dump("teach_positions", &h);
        h.key(KeyCode::Esc);
        h.key(KeyCode::Char('?'));
        let screen = dump("help_teach", &h);
        assert!(screen.contains("Keys (any key closes)"), "{screen}");
        assert!(screen.contains("q, Ctrl-C"), "{screen}");
        h.key(KeyCode::Char('x'));
        assert_eq!(h.app.cx.overlay, Overlay::None);
    }
}

#[test]
fn a_help_taller_than_the_screen_scrolls() {
    let size = (80, 18);
    let mut h = Board::blitz(size, None);
    h.start();
    h.key(KeyCode::Char('?'));
    let keys = kibitz::tui::modes::play::HELP.len();
    let screen = h.screen();
    assert!(
        screen.contains(&format!("Keys 1-16 of {keys} · ↑↓ PgUp PgDn")),
        "{screen}"
    );
    assert!(!screen.contains(":analyse"), "{screen}");
    h.key(KeyCode::PageDown);
    let screen = h.screen();
    assert!(screen.contains(&format!("-{keys} of {keys}")), "{screen}");
    assert!(screen.contains(":analyse"), "{screen}");
    snapshot("help_play_end", size, &screen);
    h.key(KeyCode::Up);
    assert!(h.screen().contains(&format!("Keys {}-", keys - 16)));
    h.key(KeyCode::Char('x'));
    assert_eq!(h.app.cx.overlay, Overlay::None);
}

#[test]
fn game_list_and_open_dialog() {
    for size in SIZES {
        let mut h = Board::blitz(size, None);
        let path = common::testdata("pgn/kasparov-deep-blue-1997.pgn");
        h.open(&path, None);
        assert_eq!(h.app.cx.overlay, Overlay::GameList);
        let screen = dump("game_list", &h);
        // Nothing is open yet: no header or key line of a game.
        assert!(screen.contains("Choose a game"), "{screen}");
        assert!(!screen.contains("u takeback"), "{screen}");
        // Whole names (a note in brackets dropped where it does not fit),
        // the opening with its ECO code.
        let header = rows_from(&screen, "# White", 1).remove(0);
        assert!(header.contains("Opening"), "{header}");
        let first = rows_from(&screen, "# White", 2).remove(1);
        assert!(first.contains("Garry Kasparov"), "{first}");
        assert!(first.contains("Deep Blue"), "{first}");
        assert!(first.contains("A07 King's Indian Attack"), "{first}");
        if size == (80, 24) {
            assert!(screen.contains("½-½"), "{screen}");
        } else {
            assert!(first.contains("1997.??.??"), "{first}");
            assert!(first.contains("IBM Man-Machine"), "{first}");
        }
        // The list has its own keys; the key line of a game is not shown.
        assert_eq!(key_line(&screen).trim_matches(['"', ' ']), "");
        h.key(KeyCode::Esc);
        h.key(KeyCode::Esc);
        h.key(KeyCode::Char('o'));
        h.keys("tests/data/pgn/");
        let screen = dump("open_file", &h);
        assert!(screen.contains("kasparov-deep-blue-1997.pgn"), "{screen}");
    }
}

#[test]
fn hiding_the_engine_panel_hides_the_book_too() {
    for size in SIZES {
        let mut h = Board::blitz(size, None);
        h.set_book(Arc::new(default_book().unwrap()));
        h.start();
        // The book waits for the game's end unless asked for.
        h.key(KeyCode::Char('v'));
        let screen = h.screen();
        assert!(screen.contains("Book"), "{screen}");
        // Spoiler-free: no panel lists moves for the player.
        h.key(KeyCode::Char('e'));
        let screen = h.screen();
        assert!(!screen.contains("Book"), "{screen}");
        assert!(!screen.contains("e4     █"), "{screen}");
        h.key(KeyCode::Char('e'));
        assert!(h.screen().contains("Book"));
    }
}
