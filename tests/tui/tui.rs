//! The terminal interface without a terminal: `App` driven by messages, the
//! screen drawn on ratatui's `TestBackend` and compared with insta snapshots
//! (clock readings and node rates filtered, since they depend on timing).
#![allow(clippy::unwrap_used)]

use std::time::Duration;

use kibitz::config::Dirs;
use kibitz::engine::{Bound, Command, Report, Score};
use kibitz::game::GameEnd;
use kibitz::game::notation::parse_uci;
use kibitz::tui::app::Overlay;
use kibitz::tui::msg::Msg;
use ratatui::crossterm::event::{KeyCode, MouseButton, MouseEventKind};
use shakmaty::{Color, Position, Square};

use crate::common;
use crate::common::board::{Board, Figures};
use crate::snapshot_names as insta;

const W: u16 = 100;
const H: u16 = 32;

/// A 5+3 game's board of the default size, from `fen`.
fn harness(fen: Option<&str>) -> Board {
    harness_at(fen, (W, H))
}

/// A 5+3 game's board of `size`, from `fen`; its engine lines are those of
/// a search of a second or so.
fn harness_at(fen: Option<&str>, size: (u16, u16)) -> Board {
    Board::options(size)
        .blitz()
        .fen(fen)
        .figures(Figures {
            depth: 12,
            seldepth: 19,
            nodes: 1_234_567,
            nps: 1_456_000,
            hashfull: 40,
            elapsed: Duration::from_millis(848),
        })
        .build()
}

macro_rules! snapshot {
    ($name:expr, $screen:expr) => {
        insta::with_settings!({filters => vec![
            // Clock readings (4:57, 0:09, 9.3) and engine speed depend on timing.
            (r"\b\d{1,2}:\d{2}(:\d{2})?\b", "[clock]"),
            (r"\b\d+\.\d\b(\s*s)?", "[time]"),
            (r"[\d.]+[kM]? n/s", "[nps]"),
        ]}, {
            insta::assert_snapshot!($name, $screen);
        });
    };
}

#[test]
fn start_screen_shows_the_new_game_dialog() {
    let h = harness(None);
    assert!(matches!(h.app.cx.overlay, Overlay::NewGame(_)));
    snapshot!("start_screen", h.screen());
}

#[test]
fn mid_game_with_the_engine_thinking() {
    let mut h = harness(None);
    h.start();
    // The engine's line and score wait for the game's end unless asked for.
    h.char('v');
    h.searches();
    h.typed("e4");
    let id = h.searches()[0];
    h.wait(400);
    h.engine_plays(id, "e7e5");
    h.wait(2_000);
    h.typed("Nf3");
    let id = h.searches()[0];
    h.wait(850);
    h.info(id, 1, -35, &["b8c6", "f1b5", "a7a6", "b5a4", "g8f6"]);
    assert!(h.app.mode.game().is_some_and(|p| p.engine_thinking()));
    let screen = h.screen();
    assert!(screen.contains("pv Nc6 Bb5 a6 Ba4 Nf6"), "{screen}");
    assert!(screen.contains("2. Nf3"), "{screen}");
    snapshot!("mid_game_engine_panel", screen);
}

#[test]
fn promotion_asks_which_piece() {
    let mut h = harness(Some("8/4P1k1/8/8/8/8/6K1/8 w - - 0 1"));
    h.start();
    h.set_cursor(Square::E7);
    h.key(KeyCode::Enter);
    h.key(KeyCode::Up);
    h.key(KeyCode::Enter);
    assert!(matches!(h.app.cx.overlay, Overlay::Promotion { .. }));
    snapshot!("promotion_dialog", h.screen());
    h.key(KeyCode::Char('n'));
    assert_eq!(h.app.cx.board.game.sans(), ["e8=N+"]);
}

#[test]
fn game_over_by_checkmate() {
    let mut h = harness(None);
    // Two players on one board.
    h.keys("lll");
    h.key(KeyCode::Enter);
    for san in ["f3", "e5", "g4", "Qh4#"] {
        h.typed(san);
        h.wait(1_000);
    }
    assert_eq!(
        h.app.mode.get().game_end(),
        Some(GameEnd::Checkmate {
            winner: Color::Black
        })
    );
    assert_eq!(h.app.cx.overlay, Overlay::GameOver);
    snapshot!("game_over", h.screen());
}

#[test]
fn help_lists_the_keys() {
    let mut h = harness(None);
    h.start();
    h.key(KeyCode::Char('?'));
    let screen = h.screen();
    for key in [
        "takeback",
        "hint",
        "resign",
        "offer a draw",
        "flip",
        "new game",
        "save",
    ] {
        assert!(screen.contains(key), "{key}");
    }
    snapshot!("help", screen);
    h.key(KeyCode::Char('x'));
    assert_eq!(h.app.cx.overlay, Overlay::None);
}

#[test]
fn too_small_terminal_says_how_big_it_must_be() {
    let mut h = harness_at(None, (40, 12));
    let screen = h.screen();
    assert!(screen.contains("at least 60 x 18"), "{screen}");
    snapshot!("too_small", screen);
    h.update(Msg::Resize(W, H));
    assert!(h.screen().contains("New game"));
    h.update(Msg::Resize(40, 12));
    h.key(KeyCode::Char('q'));
    assert!(!h.app.cx.quit, "keys do nothing on the too-small screen");
    h.ctrl('c');
    assert!(h.app.cx.quit, "Ctrl-C quits");
}

#[test]
fn stale_engine_reports_are_dropped() {
    let mut h = harness(None);
    h.start();
    h.searches();
    h.typed("d4");
    let first = h.searches()[0];
    // Take the move back while the engine thinks, and play another.
    h.key(KeyCode::Char('u'));
    assert!(h.app.cx.board.game.is_empty());
    h.typed("e4");
    let second = h.searches()[0];
    assert!(second > first);
    // The old search's answer (a reply to 1.d4) must not be played.
    h.info(first, 1, -35, &["d7d5"]);
    h.engine_plays(first, "d7d5");
    assert_eq!(h.app.cx.board.game.sans(), ["e4"]);
    assert!(h.app.mode.game().expect("a game").thinking.is_none());
    h.engine_plays(second, "c7c5");
    assert_eq!(h.app.cx.board.game.sans(), ["e4", "c5"]);
}

#[test]
fn takeback_undoes_a_full_move() {
    let mut h = harness(None);
    h.start();
    h.typed("e4");
    let id = h.searches()[0];
    h.engine_plays(id, "e7e5");
    h.typed("Nf3");
    let id = h.searches()[0];
    h.engine_plays(id, "b8c6");
    h.key(KeyCode::Char('u'));
    assert_eq!(h.app.cx.board.game.sans(), ["e4", "e5"]);
    assert!(h.app.human_to_move());
}

#[test]
fn keys_mouse_click_and_drag_all_move() {
    let mut h = harness(None);
    h.key(KeyCode::Char('l'));
    h.key(KeyCode::Char('l'));
    h.key(KeyCode::Char('l'));
    h.key(KeyCode::Enter); // two players
    // Keys: the cursor starts on e2.
    h.keys(" kk ");
    // Click, click.
    h.mouse_on(MouseEventKind::Down(MouseButton::Left), Square::E7);
    h.mouse_on(MouseEventKind::Up(MouseButton::Left), Square::E7);
    h.mouse_on(MouseEventKind::Down(MouseButton::Left), Square::E5);
    // Drag.
    h.mouse_on(MouseEventKind::Down(MouseButton::Left), Square::G1);
    h.mouse_on(MouseEventKind::Drag(MouseButton::Left), Square::F3);
    h.mouse_on(MouseEventKind::Up(MouseButton::Left), Square::F3);
    assert_eq!(h.app.cx.board.game.sans(), ["e4", "e5", "Nf3"]);
    // Castling by clicking the king and its destination.
    for san in ["Nc6", "Bc4", "Nf6"] {
        h.typed(san);
    }
    h.mouse_on(MouseEventKind::Down(MouseButton::Left), Square::E1);
    h.mouse_on(MouseEventKind::Up(MouseButton::Left), Square::E1);
    h.mouse_on(MouseEventKind::Down(MouseButton::Left), Square::G1);
    assert_eq!(
        h.app.cx.board.game.sans().last().map(String::as_str),
        Some("O-O")
    );
}

#[test]
fn illegal_and_ambiguous_typed_moves_explain_themselves() {
    let mut h = harness(None);
    h.start();
    h.typed("Nf4");
    let (message, _) = h.app.cx.message.clone().unwrap();
    assert!(
        message.contains("Nf3") && message.contains("f4"),
        "{message}"
    );
    assert!(h.app.cx.board.game.is_empty());
    h.typed("e4");
    assert_eq!(h.app.cx.board.game.sans(), ["e4"]);
}

#[test]
fn flag_fall_ends_the_game_on_time() {
    let mut h = harness(None);
    h.start();
    h.typed("e4");
    let id = h.searches()[0];
    h.engine_plays(id, "e7e5");
    h.wait(299_000);
    assert!(h.app.mode.get().game_end().is_none());
    h.wait(1_100);
    assert_eq!(
        h.app.mode.get().game_end(),
        Some(GameEnd::Time {
            loser: Color::White,
            winner: Some(Color::Black)
        })
    );
    // The dialog and the key line do not offer the takeback a flag rules out.
    let screen = h.screen();
    assert!(screen.contains("Game over"), "{screen}");
    assert!(!screen.contains("u takeback"), "{screen}");
    // The engine is not left thinking, and no takeback after a flag.
    h.key(KeyCode::Esc);
    assert!(!h.screen().contains("u takeback"));
    h.key(KeyCode::Char('u'));
    assert_eq!(h.app.cx.board.game.len(), 2);
}

#[test]
fn copy_in_a_game_copies_the_pgn_so_far() {
    let mut h = harness(None);
    h.start();
    h.typed("e4");
    let id = h.searches()[0];
    h.engine_plays(id, "e7e5");
    h.typed("copy");
    let copied: Vec<String> = h
        .app
        .take_requests()
        .into_iter()
        .filter_map(|r| match r {
            kibitz::tui::app::Request::Clipboard(text) => Some(text),
            _ => None,
        })
        .collect();
    assert_eq!(copied.len(), 1, "{:?}", h.app.cx.message);
    // Each move with the mover's clock after it; the opening named.
    assert!(
        copied[0].contains("1. e4 {[%clk 0:05:00]} e5 {[%clk 0:05:03]} *"),
        "{}",
        copied[0]
    );
    assert!(copied[0].contains("[ECO \"C20\"]"), "{}", copied[0]);
    assert!(
        copied[0].contains("[TimeControl \"300+3\"]"),
        "{}",
        copied[0]
    );
    assert!(h.app.cx.message.as_ref().unwrap().0.contains("copied"));
}

#[test]
fn hint_shows_the_engine_suggestion() {
    let mut h = harness(None);
    h.start();
    h.searches();
    h.key(KeyCode::Char('i'));
    let id = h.searches()[0];
    assert!(h.app.mode.game().is_some_and(|p| p.hint_pending()));
    h.engine_plays(id, "g1f3");
    assert_eq!(h.app.cx.board.game.len(), 0, "a hint is shown, not played");
    assert!(h.app.mode.game().expect("a game").hint.is_some());
    assert!(h.app.cx.message.clone().unwrap().0.contains("Hint: Nf3"));
}

/// A hint from a search cut short in the middle of an iteration says its
/// score is only a bound, turned to White's view: Black's lower bound is
/// White's upper one.
#[test]
fn a_hint_scored_on_a_bound_says_so() {
    let mut h = harness(None);
    h.start();
    h.searches();
    h.key(KeyCode::Char('i'));
    let id = h.searches()[0];
    let m = h.line(&["g1f3"])[0];
    h.update(Msg::Engine(Report::BestMove {
        search_id: id,
        best_move: Some(m),
        ponder: None,
        score: Score::Centipawns(35),
        bound: Bound::Lower,
        depth: 9,
        nodes: 50_000,
        source: kibitz::engine::MoveSource::Search,
    }));
    let said = h.app.cx.message.clone().unwrap().0;
    assert!(said.contains("Hint: Nf3 (≥ +0.35)"), "{said}");
}

#[test]
fn resign_and_draw_offers() {
    let mut h = harness(None);
    h.start();
    h.typed("e4");
    let id = h.searches()[0];
    h.engine_plays(id, "e7e5");
    // The engine thinks it is better (+0.20 for it): it declines.
    h.key(KeyCode::Char('d'));
    h.key(KeyCode::Char('y'));
    assert!(h.app.mode.get().game_end().is_none());
    assert!(h.app.cx.message.clone().unwrap().0.contains("declines"));
    h.key(KeyCode::Char('r'));
    h.key(KeyCode::Char('y'));
    assert_eq!(
        h.app.mode.get().game_end(),
        Some(GameEnd::Resignation {
            winner: Color::Black
        })
    );
}

#[test]
fn quit_asks_first_during_a_game() {
    let mut h = harness(None);
    h.start();
    h.typed("e4");
    h.key(KeyCode::Char('q'));
    assert!(!h.app.cx.quit);
    h.key(KeyCode::Char('n'));
    assert!(!h.app.cx.quit);
    h.key(KeyCode::Char('q'));
    h.key(KeyCode::Char('y'));
    assert!(h.app.cx.quit);
}

#[test]
fn threefold_repetition_is_declared() {
    let mut h = harness(None);
    h.keys("lll");
    h.key(KeyCode::Enter);
    for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"] {
        h.typed(san);
    }
    assert_eq!(
        h.app.mode.get().game_end(),
        Some(GameEnd::ThreefoldRepetition)
    );
    assert!(h.screen().contains("threefold"));
}

#[test]
fn playing_black_the_engine_opens_and_the_board_is_flipped() {
    let mut h = harness(None);
    h.key(KeyCode::Char('l'));
    h.key(KeyCode::Enter);
    assert!(h.app.cx.board.flipped);
    let ids = h.searches();
    assert_eq!(ids.len(), 1, "the engine moves first");
    h.engine_plays(ids[0], "d2d4");
    assert!(h.app.human_to_move());
    assert_eq!(h.app.cx.board.game.position().turn(), Color::Black);
}

#[test]
fn a_move_after_the_flag_fell_loses_on_time() {
    let mut h = harness(None);
    h.start();
    h.typed("e4");
    let id = h.searches()[0];
    h.engine_plays(id, "e7e5");
    // No tick arrives between the flag and the move: the move must not count.
    h.now += Duration::from_millis(303_500);
    h.typed("Nf3");
    assert_eq!(h.app.cx.board.game.len(), 2);
    assert!(matches!(
        h.app.mode.get().game_end(),
        Some(GameEnd::Time {
            loser: Color::White,
            ..
        })
    ));
}

#[test]
fn takeback_after_a_finished_game_restarts_the_clock() {
    let mut h = harness(None);
    h.keys("lll");
    h.key(KeyCode::Enter);
    for san in ["f3", "e5", "g4", "Qh4#"] {
        h.typed(san);
    }
    assert!(h.app.mode.get().game_end().is_some());
    h.key(KeyCode::Esc);
    h.key(KeyCode::Char('u'));
    assert!(h.app.mode.get().game_end().is_none());
    assert_eq!(
        h.app
            .mode
            .game()
            .expect("a game")
            .clock
            .as_ref()
            .and_then(|c| c.running()),
        Some(Color::Black)
    );
    assert!(h.app.needs_ticks());
}

#[test]
fn abandoning_pauses_the_game_and_escape_resumes_it() {
    let mut h = harness(None);
    h.start();
    h.typed("e4");
    let id = h.searches()[0];
    h.engine_plays(id, "e7e5");
    h.key(KeyCode::Char('n'));
    h.key(KeyCode::Char('y'));
    assert!(matches!(h.app.cx.overlay, Overlay::NewGame(_)));
    assert!(
        !h.app.needs_ticks(),
        "the clocks stop while the dialog is open"
    );
    h.key(KeyCode::Esc);
    assert_eq!(h.app.cx.overlay, Overlay::None);
    assert!(h.app.needs_ticks());
    assert_eq!(h.app.cx.board.game.len(), 2);
}

#[test]
fn captured_pieces_count_from_the_start_and_promotions() {
    // A game from a FEN: the pieces missing from the full set were never
    // taken in this game. Promoting the b-pawn takes nothing either; taking
    // the rook does.
    let mut h = harness(Some("r3k3/1P6/8/8/8/8/8/Q3K3 w - - 0 1"));
    h.start();
    let taken = |h: &Board, by: &str| {
        let row = h.row_with(&format!("Taken by {by}"));
        let at = row.find(by).unwrap() + by.len();
        row[at..]
            .trim_matches(|c: char| c == ' ' || c == '"')
            .to_string()
    };
    assert_eq!(taken(&h, "White"), "");
    assert_eq!(taken(&h, "Black"), "");
    h.typed("b8=Q+");
    assert_eq!(h.app.cx.board.game.sans(), ["b8=Q+"]);
    assert_eq!(taken(&h, "Black"), "");
    assert_eq!(taken(&h, "White"), "");
    h.update(Msg::Tick);
    let id = h.searches()[0];
    h.engine_plays(id, "a8b8");
    // The new queen was the b-pawn: what White lost since the start is a
    // pawn, drawn outlined as White's pieces are.
    assert_eq!(taken(&h, "Black"), "♙");
    assert_eq!(taken(&h, "White"), "");
}

#[test]
fn book_panel_and_book_moves_are_shown() {
    use kibitz::book::default_book;
    let mut h = harness(None);
    let book = std::sync::Arc::new(default_book().unwrap());
    h.set_book(book);
    h.start();
    // The book waits for the game's end unless asked for.
    h.char('v');
    let screen = h.screen();
    assert!(screen.contains("Book"), "{screen}");
    let book_line = screen
        .lines()
        .find(|l| l.contains("d4 ") && l.contains('%'))
        .unwrap_or("");
    assert!(book_line.contains('█'), "{screen}");
    // The engine answers 1.e4 from its book: the panel says so, with the weight.
    h.typed("e4");
    let id = h.searches()[0];
    let m = parse_uci(h.app.cx.board.game.position(), "c7c5").unwrap();
    h.update(Msg::Engine(Report::BestMove {
        search_id: id,
        best_move: Some(m),
        ponder: None,
        score: Score::Centipawns(0),
        bound: Bound::Exact,
        depth: 0,
        nodes: 0,
        source: kibitz::engine::MoveSource::Book {
            weight: 122,
            total: 387,
        },
    }));
    let screen = h.screen();
    assert!(screen.contains("book move  c5"), "{screen}");
    assert!(screen.contains("weight 122 of 387 (32%)"), "{screen}");
    assert!(screen.contains("B20 Sicilian Defence"), "{screen}");
}

#[test]
fn tablebase_panel_shows_the_verdict_and_the_moves() {
    use kibitz::tablebase::{Builtin, Tablebases};
    let mut builtin = Builtin::new();
    builtin
        .generate(&"KQvK".parse().unwrap(), &mut |_| {
            std::ops::ControlFlow::Continue(())
        })
        .unwrap();
    let tables = std::sync::Arc::new(Tablebases::new(builtin));
    let mut h = harness(Some("8/8/8/4k3/8/8/8/KQ6 w - - 0 1"));
    h.update(Msg::Tablebases(tables));
    h.start();
    // The tablebase waits for the game's end unless asked for.
    h.char('v');
    assert!(
        h.app.cx.services.wants_tables,
        "three pieces: time to make the tables"
    );
    let screen = h.screen();
    assert!(screen.contains("Tablebase"), "{screen}");
    assert!(
        screen.contains("White: win, mate in 9 moves (17 plies)"),
        "{screen}"
    );
    assert!(screen.contains("Qf1     win, mate in 9 moves"), "{screen}");
    assert!(
        h.app
            .take_commands()
            .iter()
            .any(|c| matches!(c, Command::SetTablebases(Some(_)))),
        "the engine gets the tables too"
    );
}

#[test]
fn near_the_tables_generation_follows_the_setting() {
    use kibitz::tablebase::{Builtin, Generation, Tablebases};
    for mode in [Generation::Background, Generation::Off, Generation::Ask] {
        let mut h = harness(Some("8/8/8/4k3/8/8/8/KQ6 w - - 0 1"));
        h.app.cx.services.settings.tablebase_generation = mode;
        // No table on disk: all are missing.
        let none = std::sync::Arc::new(Tablebases::new(Builtin::new()));
        h.update(Msg::Tablebases(none));
        h.start();
        assert!(h.app.cx.services.near_tables, "{mode:?}: three pieces");
        assert_eq!(
            h.app.cx.services.wants_tables,
            mode == Generation::Background,
            "{mode:?}: generate at once only in the background mode"
        );
        let asked = h
            .app
            .cx
            .message
            .as_ref()
            .is_some_and(|(text, _)| text.contains(":tables"));
        assert_eq!(
            asked,
            mode == Generation::Ask,
            "{mode:?}: {:?}",
            h.app.cx.message
        );
        // Typed, the command generates in any mode.
        h.typed("tables");
        assert!(h.app.cx.services.wants_tables, "{mode:?}");
    }
}

#[test]
fn the_engine_panel_says_when_a_level_plays_another_move_than_its_best_line() {
    for size in [(80, 24), (120, 40)] {
        let mut h = harness_at(None, size);
        h.start();
        // The engine's line and score wait for the game's end unless asked for.
        h.char('v');
        h.searches();
        h.typed("e4");
        let id = h.searches()[0];
        // Its search thinks d5 best (-0.35 for White: Black stands better)...
        h.info(id, 1, -35, &["d7d5", "e4d5", "d8d5"]);
        let screen = h.screen();
        assert!(screen.contains("thinking"), "{screen}");
        // ...and level 5 picks e5 among the near-best moves.
        h.engine_plays_scored(id, "e7e5", -50);
        let screen = h.screen();
        assert!(screen.contains("played  e5  +0.50"), "{screen}");
        assert!(
            screen.contains("level 5 picks among near-best moves"),
            "{screen}"
        );
        assert!(screen.contains("best +0.35 d5 exd5 Qxd5"), "{screen}");
        assert!(!screen.contains("pv d5"), "{screen}");
        snapshot!(
            format!("level_plays_another_move_{}x{}", size.0, size.1),
            screen
        );
    }
}

#[test]
fn a_search_cut_short_shows_the_line_of_its_move_as_a_bound() {
    let mut h = harness(None);
    h.start();
    // The engine's line and score wait for the game's end unless asked for.
    h.char('v');
    h.searches();
    h.typed("e4");
    let id = h.searches()[0];
    // Depth 12 finished with d5 best (-0.35 for White)...
    h.info(id, 1, 35, &["d7d5", "e4d5", "d8d5"]);
    // ...then depth 13, cut short by the clock, found c5 at least as good
    // for Black: its last word is that line, a lower bound for Black.
    h.report(id, 1, 13, 40, Bound::Lower, true, &["c7c5", "g1f3"]);
    let screen = h.screen();
    assert!(
        screen.contains("-0.35"),
        "until the move, the proved line: {screen}"
    );
    h.engine_plays_scored(id, "c7c5", 40);
    let screen = h.screen();
    // Full strength picked nothing among near-best moves: it played the
    // line it found, whose score for White is at most -0.40.
    assert!(!screen.contains("near-best"), "{screen}");
    assert!(screen.contains("≤ -0.40"), "{screen}");
    assert!(screen.contains("pv c5 Nf3"), "{screen}");
}

#[test]
fn the_engine_panel_shows_the_line_it_followed_and_then_the_game_result() {
    let mut h = harness(None);
    h.start();
    // The engine's line and score wait for the game's end unless asked for.
    h.char('v');
    h.searches();
    h.typed("f3");
    let id = h.searches()[0];
    h.info(id, 1, -35, &["e7e5", "g2g4"]);
    h.engine_plays_scored(id, "e7e5", 35);
    let screen = h.screen();
    assert!(screen.contains("last move"), "{screen}");
    assert!(screen.contains("pv e5 g4"), "{screen}");
    assert!(!screen.contains("picks among"), "{screen}");
    h.typed("g4");
    let id = h.searches()[0];
    h.info(id, 1, -35, &["d8h4"]);
    h.engine_plays_scored(id, "d8h4", 32_000);
    assert!(h.app.mode.get().game_end().is_some());
    h.key(KeyCode::Esc);
    let screen = h.screen();
    // The last search is history: the panel gives the result instead.
    assert!(screen.contains("game over  0-1"), "{screen}");
    assert!(!screen.contains("pv Qh4"), "{screen}");
}

#[test]
fn after_a_game_its_next_steps_stay_reachable() {
    let mut h = harness(None);
    h.keys("lll");
    h.key(KeyCode::Enter);
    for san in ["f3", "e5", "g4", "Qh4#"] {
        h.typed(san);
    }
    assert_eq!(h.app.cx.overlay, Overlay::GameOver);
    assert!(h.screen().contains("after 2 moves"));
    // Saving answers in the status line and keeps the dialog.
    h.key(KeyCode::Char('s'));
    assert_eq!(h.app.cx.overlay, Overlay::GameOver);
    assert!(h.screen().contains("No data directory"));
    h.key(KeyCode::Esc);
    assert_eq!(h.app.cx.overlay, Overlay::None);
    let keys = h.row_with("a analyse");
    assert!(keys.contains("n new game"), "{keys}");
    h.key(KeyCode::Char('a'));
    assert!(h.app.mode.analysis().is_some());
}

#[test]
fn a_saved_game_taken_to_the_analysis_board_is_not_unsaved() {
    let home = common::TempHome::new("saved");
    let dirs = Dirs {
        config: home.join("config"),
        data: home.join("data"),
        cache: home.join("cache"),
    };
    let mut h = Board::options((W, H)).dirs(dirs).build();
    h.keys("lll");
    h.key(KeyCode::Enter);
    for san in ["f3", "e5", "g4", "Qh4#"] {
        h.typed(san);
    }
    h.key(KeyCode::Char('s'));
    assert!(h.screen().contains("Saved "), "{}", h.screen());
    h.key(KeyCode::Char('a'));
    assert!(h.app.mode.analysis().is_some());
    assert!(!h.app.unsaved(), "the game was saved as it stands");
}

#[test]
fn a_game_of_one_move_ends_after_1_move() {
    let mut h = harness(Some("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1"));
    h.keys("lll");
    h.key(KeyCode::Enter);
    h.typed("Qg7#");
    assert_eq!(h.app.cx.overlay, Overlay::GameOver);
    let screen = h.screen();
    assert!(screen.contains("after 1 move "), "{screen}");
}

#[test]
fn backspace_on_an_empty_prompt_keeps_it_open() {
    let mut h = harness(None);
    h.start();
    h.key(KeyCode::Char(':'));
    h.key(KeyCode::Backspace);
    h.key(KeyCode::Backspace);
    // Still the prompt: the letters are typed, not taken for keys.
    h.keys("f");
    assert_eq!(h.app.cx.input.as_deref(), Some("f"));
    assert!(!h.app.cx.board.flipped);
    assert!(h.row_with("move>").contains("move> f"));
    h.key(KeyCode::Esc);
    assert_eq!(h.app.cx.input, None);
}

#[test]
fn the_status_line_follows_the_game() {
    let mut h = harness(None);
    h.start();
    h.searches();
    assert!(h.row_with("New game:").contains("You vs kibitz"));
    h.typed("e4");
    // The player's move answered it.
    assert!(!h.screen().contains("New game:"));
    let id = h.searches()[0];
    h.engine_plays(id, "c7c5");
    h.key(KeyCode::Char('u'));
    assert!(
        h.screen()
            .contains("Took back your move and kibitz's reply."),
        "{}",
        h.screen()
    );
    // A long message and the opening's name keep apart.
    h.typed("e4");
    let id = h.searches()[0];
    h.engine_plays(id, "c7c5");
    h.typed("thisisnotamoveoracommand");
    let row = h.row_with("B20");
    assert!(row.contains("is not a move"), "{}", h.screen());
    assert!(
        row.trim_end_matches('"').ends_with("  B20 Sicilian… "),
        "{row}"
    );
    let at = row.find("B20").unwrap();
    assert!(row[..at].ends_with("  "), "{row}");
}

#[test]
fn the_start_screen_shows_every_choice_and_its_header_follows_the_dialog() {
    for size in [(80, 24), (120, 40)] {
        let mut h = harness_at(None, size);
        let screen = h.screen();
        for choice in [
            "White",
            "Black",
            "Random",
            "Two players",
            "Analysis board",
            "Teach the search",
        ] {
            assert!(screen.contains(choice), "{choice}\n{screen}");
        }
        // The header describes what the dialog would start (5+3), not a game
        // nobody started.
        assert!(
            h.row_with("kibitz ")
                .contains("New game: You (White) vs kibitz level 5 · 5+3"),
            "{screen}"
        );
        assert!(!screen.contains("untimed"), "{screen}");
        // No piece of a covered word beside the dialog.
        for line in screen.lines() {
            if let Some(at) = line.rfind('│') {
                let after: String = line[at + '│'.len_utf8()..].chars().take(2).collect();
                assert!(
                    !after.starts_with(|c: char| c.is_ascii_alphabetic()),
                    "{line}"
                );
            }
        }
        h.key(KeyCode::Right);
        h.key(KeyCode::Right);
        h.key(KeyCode::Right);
        assert!(h.row_with("kibitz ").contains("New game: Two players"));
        h.key(KeyCode::Right);
        assert!(h.row_with("[Analysis board]").contains("or open"));
        snapshot!(
            format!("new_game_dialog_analysis_{}x{}", size.0, size.1),
            h.screen()
        );
    }
}

#[test]
fn under_ten_seconds_the_clock_warns_and_the_bell_rings_once() {
    let settings = kibitz::config::Settings {
        bell: true,
        time_control: kibitz::config::TimeControl::fischer(300, 3),
        ..kibitz::config::Settings::default()
    };
    let mut h = Board::options((120, 40)).settings(settings).seed(1).build();
    h.start();
    h.typed("e4");
    let id = h.searches()[0];
    h.engine_plays(id, "e7e5");
    h.wait(289_000);
    let bells = |h: &mut Board| {
        h.app
            .take_requests()
            .into_iter()
            .filter(|r| matches!(r, kibitz::tui::app::Request::Bell))
            .count()
    };
    assert_eq!(bells(&mut h), 0, "eleven seconds left");
    assert!(!h.screen().contains("!"), "{}", h.screen());
    h.wait(2_000);
    assert_eq!(bells(&mut h), 1, "under ten seconds: the bell");
    let screen = h.screen();
    assert!(
        screen.contains(" 9.0! "),
        "the clock warns, not by colour alone: {screen}"
    );
    h.wait(1_000);
    assert_eq!(bells(&mut h), 0, "once");
}

/// ← and → during a game: the board shows a past position, marked in the
/// title and the move list and not movable; the engine's move does not pull
/// the board away; End, a click on the board or a cursor key returns.
#[test]
fn arrows_look_back_through_the_game_and_any_move_key_returns() {
    let mut h = harness(None);
    h.start();
    h.typed("e4");
    let id = h.searches()[0];
    h.engine_plays(id, "e7e5");
    h.typed("Nf3");
    let id = h.searches()[0];
    h.engine_plays(id, "b8c6");
    let shown = |h: &Board| h.app.mode.get().board(&h.app.cx).position.clone();
    let game = h.app.cx.board.game.clone();
    h.key(KeyCode::Left);
    assert_eq!(&shown(&h), game.position_at(3).unwrap());
    assert!(
        h.screen()
            .contains("looking back: after 2. Nf3 (ply 3 of 4)")
    );
    assert!(!h.app.mode.get().board(&h.app.cx).interactive);
    insta::assert_snapshot!("looking_back_during_a_game", h.screen());
    // The move into the position shown is marked in the move list: Nf3
    // (row 14, after "  2. ") is reversed, Nc6 beside it is not.
    let buffer = h.buffer();
    let row = 14;
    let line: String = (0..W)
        .map(|x| buffer[(x, row)].symbol().to_string())
        .collect();
    let nf3 = line.find("Nf3").unwrap() as u16;
    let nc6 = line.find("Nc6").unwrap() as u16;
    let reversed = |x: u16| {
        buffer[(x, row)]
            .modifier
            .contains(ratatui::style::Modifier::REVERSED)
    };
    assert!(reversed(nf3) && !reversed(nc6));
    h.key(KeyCode::Home);
    assert_eq!(&shown(&h), game.start());
    assert!(h.screen().contains("looking back: the start (ply 0 of 4)"));
    // Past the live position → stops there, and the mark goes.
    for _ in 0..6 {
        h.key(KeyCode::Right);
    }
    assert_eq!(&shown(&h), game.position());
    assert!(!h.screen().contains("looking back"));
    // A click on the board returns and does not pick up a piece.
    h.key(KeyCode::Left);
    h.key(KeyCode::Left);
    h.mouse_on(MouseEventKind::Down(MouseButton::Left), Square::E4);
    assert_eq!(&shown(&h), game.position());
    assert_eq!(h.app.cx.board.selected, None);
    // A cursor key returns too, and then moves the cursor.
    h.key(KeyCode::Left);
    h.char('k');
    assert_eq!(&shown(&h), game.position());
    // While looking back, the engine's move arrives: the board stays in the
    // past and the game goes on underneath.
    h.typed("Bc4");
    let id = h.searches()[0];
    h.key(KeyCode::Left);
    h.key(KeyCode::Left);
    h.engine_plays(id, "g8f6");
    assert_eq!(h.app.cx.board.game.len(), 6);
    assert_eq!(&shown(&h), h.app.cx.board.game.position_at(3).unwrap());
    assert!(h.screen().contains("(ply 3 of 6)"));
    h.key(KeyCode::End);
    assert_eq!(&shown(&h), h.app.cx.board.game.position());
    assert!(h.app.human_to_move());
}
