//! A player's evening against the engine (issue 51): a draw offer asks
//! first, nothing spoils the player's turn, the new-game choices are
//! remembered, the dialogs draw the position they are about, looking back
//! shows the viewed position's material, nothing of the last game stays,
//! and the small texts say what they count and what their keys do.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use kibitz::book::default_book;
use kibitz::config::{Dirs, Settings, TimeControl};
use kibitz::engine::stats::{Counters, IterationStats, SearchStats};
use kibitz::game::GameEnd;
use kibitz::tablebase::{Builtin, Tablebases};
use kibitz::tui::app::Overlay;
use kibitz::tui::msg::Msg;
use kibitz::tui::save::SavedGame;
use ratatui::crossterm::event::KeyCode;
use shakmaty::Square;

use crate::common;
use crate::common::TempHome;
use crate::common::board::{Board, MessageText, Options};

/// One iteration of a search, enough for the statistics line to show.
fn some_stats() -> SearchStats {
    let counters = Counters {
        main: 900,
        quiescence: 800,
        leaves: 800,
        beta_cutoffs: 140,
        first_move_cutoffs: 120,
        tt_probes: 1_684,
        tt_hits: 1_096,
        tt_cutoffs: 769,
    };
    let mut stats = SearchStats::default();
    stats.iterations.push(IterationStats {
        depth: 1,
        counters,
        selective_depth: 2,
        elapsed_ms: 10,
    });
    stats.totals = counters;
    stats.selective_depth = 2;
    stats.elapsed_ms = 10;
    stats
}

/// A 5+3 game as White at `size`: 1. e4 and the engine's 1... e5, which it
/// scores `cp` for itself.
fn after_e4_e5(size: (u16, u16), cp: i32) -> Board {
    let mut board = Board::options(size).blitz().build();
    board.start();
    board.searches();
    board.typed("e4");
    let id = board.last_search();
    board.engine_plays_scored(id, "e7e5", cp);
    board
}

#[test]
fn a_draw_offer_asks_first() {
    // The engine stands clearly worse (-4.55 for it): it would accept.
    let mut board = after_e4_e5((100, 32), -455);
    board.char('d');
    assert_eq!(
        board.app.mode.get().game_end(),
        None,
        "d alone ended the game"
    );
    assert!(
        matches!(board.app.cx.overlay, Overlay::Confirm(_)),
        "{:?}",
        board.app.cx.overlay
    );
    assert!(
        board.screen().contains("Offer kibitz a draw?"),
        "{}",
        board.screen()
    );
    // Enter answers no, as in every question that ends something.
    board.key(KeyCode::Enter);
    assert_eq!(board.app.mode.get().game_end(), None);
    assert_eq!(board.app.cx.overlay, Overlay::None);
    board.char('d');
    board.char('y');
    assert_eq!(board.app.mode.get().game_end(), Some(GameEnd::Agreement));
    assert!(board.message().contains("accepts"), "{}", board.message());
}

#[test]
fn a_new_game_drops_the_last_games_statistics() {
    let mut board = Board::options((80, 24)).blitz().build();
    board.start();
    board.searches();
    board.char('S');
    board.typed("e4");
    let id = board.last_search();
    board.stats(id, some_stats());
    board.engine_plays(id, "e7e5");
    assert!(
        board.screen().contains("branching factor"),
        "{}",
        board.screen()
    );
    // Abandon it for a new game, in which the player moves first.
    board.char('n');
    board.char('y');
    board.start();
    let screen = board.screen();
    assert!(!screen.contains("branching factor"), "{screen}");
}

/// The settings of a game where the spoilers show from the start, as
/// `spoilers = "show"` in config.toml gives them.
fn spoilers_shown_settings() -> Settings {
    let (mut settings, problems) = Settings::parse("spoilers = \"show\"\n");
    assert!(problems.is_empty(), "{problems:?}");
    settings.time_control = TimeControl::fischer(300, 3);
    settings
}

/// The engine's 1... c5 after 1. e4, its line going on with 2. Nf3 d6
/// (the player's best reply in it), scored +0.35 for itself; the book open.
fn after_e4_c5(options: Options) -> Board {
    let mut board = options.build();
    board.set_book(Arc::new(default_book().unwrap()));
    board.start();
    board.searches();
    board.typed("e4");
    let id = board.last_search();
    board.info(id, 1, 35, &["c7c5", "g1f3", "d7d6"]);
    board.engine_plays_scored(id, "c7c5", 35);
    board
}

/// What a screen shows of the engine's line and score and of the book.
fn spoils(screen: &str) -> Vec<&'static str> {
    ["pv c5 Nf3", "-0.35", "%"]
        .into_iter()
        .filter(|text| screen.contains(text))
        .collect()
}

#[test]
fn the_players_turn_shows_no_line_score_or_book_until_v_or_the_end() {
    let mut board = after_e4_c5(Board::options((120, 40)).blitz());
    let screen = board.screen();
    assert!(board.app.human_to_move());
    assert_eq!(spoils(&screen), Vec::<&str>::new(), "{screen}");
    assert!(!screen.contains("Nf3"), "{screen}");
    // The panel says what it keeps back and how to see it.
    assert!(screen.contains("last move  depth 17/24"), "{screen}");
    assert!(
        screen.contains("hidden: score, line, book, tablebase"),
        "{screen}"
    );
    assert!(
        screen.contains("Engine · spoilers hidden · v shows"),
        "{screen}"
    );
    // Asked for: shown, and the panel says how to hide them again.
    board.char('v');
    let screen = board.screen();
    assert_eq!(spoils(&screen), ["pv c5 Nf3", "-0.35", "%"], "{screen}");
    assert!(
        screen.contains("Engine · spoilers shown · v hides"),
        "{screen}"
    );
    assert!(
        board
            .message()
            .contains("Spoilers shown: engine line and score, book, tablebase"),
        "{}",
        board.message()
    );
    // Where the panel is wide enough, its title says what is shown.
    board.resize((160, 40));
    let screen = board.screen();
    assert!(
        screen.contains("Engine · spoilers shown: engine line, book, tablebase · v hides"),
        "{screen}"
    );
    board.char('v');
    assert_eq!(spoils(&board.screen()), Vec::<&str>::new());
    // Shown on request, they stay shown for this game only.
    board.char('v');
    assert_eq!(spoils(&board.screen()), ["pv c5 Nf3", "-0.35", "%"]);
    let mut next = after_e4_c5(Board::options((120, 40)).blitz());
    next.char('v');
    next.char('n');
    next.char('y');
    next.start();
    next.typed("e4");
    let id = next.last_search();
    next.info(id, 1, 35, &["c7c5", "g1f3", "d7d6"]);
    next.engine_plays_scored(id, "c7c5", 35);
    assert_eq!(
        spoils(&next.screen()),
        Vec::<&str>::new(),
        "{}",
        next.screen()
    );
    board.char('v');
    // The game over, everything shows (the book; the engine panel gives
    // the result).
    board.char('r');
    board.char('y');
    board.key(KeyCode::Esc);
    let screen = board.screen();
    assert!(screen.contains('%'), "{screen}");
    assert!(!screen.contains("hidden"), "{screen}");
}

#[test]
fn the_tablebase_verdict_waits_too_and_the_title_fits_80_by_24() {
    let mut tables = Tablebases::new(Builtin::new());
    tables.add_syzygy(&common::testdata("syzygy")).unwrap();
    let mut board = Board::blitz((80, 24), Some("8/8/4k3/8/2r5/8/1Q6/K7 w - - 0 1"));
    board.update(Msg::Tablebases(Arc::new(tables)));
    board.start();
    let screen = board.screen();
    assert!(!screen.contains("White: win"), "{screen}");
    assert!(!screen.contains("DTZ"), "{screen}");
    assert!(screen.contains("Engine · v shows spoilers"), "{screen}");
    assert!(
        screen.contains("hidden: score, line, book, tablebase"),
        "{screen}"
    );
    board.char('v');
    let screen = board.screen();
    assert!(screen.contains("White: win"), "{screen}");
    assert!(
        screen.contains("Engine · spoilers shown · v hides"),
        "{screen}"
    );
}

#[test]
fn spoilers_show_from_the_start_with_the_setting_and_always_on_the_analysis_board() {
    let board = after_e4_c5(Board::options((120, 40)).settings(spoilers_shown_settings()));
    let screen = board.screen();
    assert_eq!(spoils(&screen), ["pv c5 Nf3", "-0.35", "%"], "{screen}");

    let mut analysis = Board::options((120, 40)).analysis();
    analysis.set_book(Arc::new(default_book().unwrap()));
    analysis.typed("e4");
    let screen = analysis.screen();
    assert!(screen.contains('%') && screen.contains("c5"), "{screen}");
    assert!(!screen.contains("hidden"), "{screen}");
}

#[test]
fn the_new_game_choices_are_remembered_in_the_data_folder() {
    let home = TempHome::new("new-game-choices");
    let dirs = Dirs {
        config: home.join("config"),
        data: home.join("data"),
        cache: home.join("cache"),
    };
    let form = |board: &Board| match &board.app.cx.overlay {
        Overlay::NewGame(form) => form.clone(),
        other => panic!("no new-game dialog: {other:?}"),
    };
    let mut board = Board::options((100, 32)).dirs(dirs.clone()).seed(1).build();
    let defaults = form(&board);
    // Black, level 8, the time control before 5+3, a Chess960 start.
    board.key(KeyCode::Right);
    board.key(KeyCode::Down);
    board.keys("8");
    board.key(KeyCode::Down);
    board.key(KeyCode::Left);
    board.key(KeyCode::Down);
    board.key(KeyCode::Right);
    let chosen = form(&board);
    assert_eq!(chosen.side, 1);
    assert_eq!(chosen.level, 8);
    assert_ne!(chosen.time, defaults.time);
    assert_ne!(chosen.start, defaults.start);
    board.start();
    // The next dialog of this board starts with them...
    board.char('n');
    let again = form(&board);
    assert_eq!(
        (again.side, again.level, again.time, again.start),
        (chosen.side, chosen.level, chosen.time, chosen.start)
    );
    assert!(board.screen().contains("[Black]"), "{}", board.screen());
    // ...and so does the next start of kibitz.
    let next = Board::options((100, 32)).dirs(dirs.clone()).build();
    let again = form(&next);
    assert_eq!(
        (again.side, again.level, again.time, again.start),
        (chosen.side, chosen.level, chosen.time, chosen.start)
    );
    assert!(
        next.screen().contains("You (Black) vs kibitz level 8"),
        "{}",
        next.screen()
    );
    // The config file is not written.
    assert!(!dirs.config.join("config.toml").exists());
    // A file that is not what kibitz wrote gives the defaults.
    std::fs::write(
        dirs.data.join("new-game.toml"),
        "side = [1, 2\nlevel = \"x\"",
    )
    .unwrap();
    let spoilt = Board::options((100, 32)).dirs(dirs.clone()).build();
    assert_eq!(form(&spoilt), defaults);
    std::fs::write(dirs.data.join("new-game.toml"), [0xff, 0xfe, 0x00]).unwrap();
    let spoilt = Board::options((100, 32)).dirs(dirs).build();
    assert_eq!(form(&spoilt), defaults);
}

/// A queen against a rook, given with `--fen`.
const FEN: &str = "8/8/4k3/8/2r5/8/1Q6/K7 w - - 0 1";

#[test]
fn the_new_game_dialog_over_a_fen_start_draws_that_position() {
    let board = Board::blitz((120, 40), Some(FEN));
    let screen = board.screen();
    assert!(matches!(board.app.cx.overlay, Overlay::NewGame(_)));
    // The queen against the rook, not the standard start.
    assert!(screen.contains("Material White +4"), "{screen}");
    assert!(board.square_text(Square::B2).contains('♛'), "{screen}");
    assert!(board.square_text(Square::E2).trim().is_empty(), "{screen}");
    // Nor the standard start's book moves, where the book shows.
    let mut board = Board::options((120, 40))
        .settings(spoilers_shown_settings())
        .fen(Some(FEN))
        .build();
    board.set_book(Arc::new(default_book().unwrap()));
    let screen = board.screen();
    assert!(screen.contains("Material White +4"), "{screen}");
    assert!(!screen.contains('%'), "{screen}");
}

#[test]
fn the_resume_dialog_draws_the_game_it_offers() {
    let saved = SavedGame {
        version: 1,
        start_fen: None,
        chess960: false,
        moves: ["e2e4", "d7d5", "e4d5"]
            .iter()
            .map(|m| m.to_string())
            .collect(),
        players: "black".to_string(),
        level: 7,
        time_control: "15+10".to_string(),
        white_ms: 800_000,
        black_ms: 850_000,
        finished: false,
    };
    let board = Board::options((120, 40)).resume(saved).seed(1).build();
    let screen = board.screen();
    assert!(matches!(board.app.cx.overlay, Overlay::Resume(_)));
    assert!(screen.contains("Material White +1"), "{screen}");
    assert!(screen.contains("Taken by White ♟"), "{screen}");
    // Played as Black: seen from Black's side, as the game will be.
    assert!(board.app.cx.board.flipped);
    assert!(board.square_text(Square::E2).trim().is_empty(), "{screen}");
    assert!(board.square_text(Square::D7).trim().is_empty(), "{screen}");
    assert!(board.square_text(Square::F2).contains('♟'), "{screen}");
    // And it says which key resumes.
    assert!(screen.contains("Enter or y resumes"), "{screen}");
}

#[test]
fn looking_back_counts_the_material_of_the_position_looked_at() {
    let mut board = Board::options((100, 32)).blitz().build();
    board.start();
    board.searches();
    board.typed("e4");
    let id = board.last_search();
    board.engine_plays(id, "d7d5");
    board.typed("exd5");
    assert!(board.screen().contains("Material White +1"));
    assert!(board.screen().contains("Taken by White ♟"));
    // Back to before the capture.
    board.key(KeyCode::Left);
    let screen = board.screen();
    assert!(screen.contains("looking back"), "{screen}");
    assert!(screen.contains("Material even"), "{screen}");
    assert!(!screen.contains("Taken by White ♟"), "{screen}");
    board.key(KeyCode::End);
    assert!(board.screen().contains("Material White +1"));
}

#[test]
fn the_small_texts_say_what_they_count_and_what_their_keys_do() {
    let mut board = after_e4_e5((100, 32), 20);
    board.typed("Nf3");
    let id = board.last_search();
    board.engine_plays(id, "b8c6");
    // Looking back counts plies, and says so.
    board.key(KeyCode::Left);
    let screen = board.screen();
    assert!(
        screen.contains("looking back: after 2. Nf3 (ply 3 of 4)"),
        "{screen}"
    );
    board.key(KeyCode::End);
    // The game-over dialog counts moves and plies, and says what Esc does.
    board.char('r');
    board.char('y');
    let screen = board.screen();
    assert!(screen.contains("after 2 moves (4 plies)"), "{screen}");
    assert!(
        screen.contains("Esc closes this; the key line keeps these keys"),
        "{screen}"
    );
    assert!(!screen.contains("· Esc "), "{screen}");
    // A game never saved is "not saved" on the analysis board, not
    // "modified".
    board.key(KeyCode::Esc);
    board.typed("analyse");
    let title = board.screen().lines().next().unwrap().to_string();
    assert!(title.contains("not saved"), "{title}");
    assert!(!title.contains("modified"), "{title}");
}

#[test]
fn the_game_help_says_analyse_works_before_the_first_move_too() {
    let mut board = Board::options((120, 40)).blitz().build();
    board.start();
    board.char('?');
    let row = board.row_with(":analyse");
    assert!(row.contains("once over, or before a move"), "{row}");
    // And it does.
    board.key(KeyCode::Esc);
    board.typed("analyse");
    assert!(board.app.mode.analysis().is_some(), "{}", board.message());
}

/// Whether a dialog is open (any: the board behind it is only a picture
/// before anything is on it).
fn dialog_open(board: &Board) -> bool {
    board.app.cx.overlay != Overlay::None
}

#[test]
fn leaving_review_all_before_any_game_goes_back_to_the_game_list() {
    let path = common::testdata("pgn/review-three.pgn");
    // Reviewed to the end, then Esc.
    let mut board = Board::options((80, 24)).blitz().build();
    board.open(&path, None);
    assert_eq!(board.app.cx.overlay, Overlay::GameList);
    board.ctrl('r');
    board.serve();
    assert!(
        board.screen().contains("3 of 3 games reviewed"),
        "{}",
        board.screen()
    );
    board.key(KeyCode::Esc);
    assert_eq!(board.app.cx.overlay, Overlay::GameList);
    let screen = board.screen();
    assert!(screen.contains("Choose a game"), "{screen}");
    assert!(!screen.contains("to move"), "{screen}");
    // Esc from the list: the new-game dialog, as at the start.
    board.key(KeyCode::Esc);
    assert!(
        matches!(board.app.cx.overlay, Overlay::NewGame(_)),
        "{:?}",
        board.app.cx.overlay
    );
    assert!(board.screen().contains("New game"), "{}", board.screen());

    // Stopped during the review: y goes back to the list too.
    let mut board = Board::options((80, 24)).blitz().build();
    board.open(&path, None);
    board.ctrl('r');
    board.app.take_requests();
    board.key(KeyCode::Esc);
    assert!(board.screen().contains("Stop the review?"));
    board.char('y');
    assert_eq!(board.app.cx.overlay, Overlay::GameList);
    let screen = board.screen();
    assert!(screen.contains("Choose a game"), "{screen}");
    assert!(!screen.contains("to move"), "{screen}");
    // Esc from the list: the new-game dialog.
    board.key(KeyCode::Esc);
    assert!(
        matches!(board.app.cx.overlay, Overlay::NewGame(_)),
        "{:?}",
        board.app.cx.overlay
    );
}

#[test]
fn a_game_chosen_in_the_list_before_any_game_keeps_the_list_until_it_is_there() {
    let mut board = Board::options((80, 24)).blitz().build();
    board.open(&common::testdata("pgn/review-three.pgn"), None);
    board.key(KeyCode::Enter);
    // The game is being read: the list stays, no game to play shows.
    assert!(dialog_open(&board), "{}", board.screen());
    board.serve();
    assert_eq!(board.app.cx.overlay, Overlay::None);
    assert!(board.app.mode.analysis().is_some());
}

/// The Italian game after 4 moves, given with `--fen`.
const ITALIAN: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

#[test]
fn the_given_position_is_offered_for_the_whole_session() {
    let given = kibitz::game::fen::parse_fen(ITALIAN).unwrap();
    let mut board = Board::blitz((80, 24), Some(ITALIAN));
    assert!(board.screen().contains("the given position"));
    board.start();
    // n before a move: the next dialog still offers (and picks) it.
    board.char('n');
    let form = match &board.app.cx.overlay {
        Overlay::NewGame(form) => form.clone(),
        other => panic!("no new-game dialog: {other:?}"),
    };
    assert!(form.uses_fen(), "{form:?}");
    let screen = board.screen();
    assert!(screen.contains("the given position"), "{screen}");
    assert!(!screen.contains("the standard position"), "{screen}");
    board.key(KeyCode::Enter);
    assert_eq!(board.app.cx.board.game.position(), &given);

    // On the analysis board (`--analyse`), `:new` offers it too.
    let mut board = Board::options((80, 24))
        .blitz()
        .fen(Some(ITALIAN))
        .analysis();
    assert_eq!(board.app.cx.board.game.position(), &given);
    board.typed("new");
    let screen = board.screen();
    assert!(screen.contains("the given position"), "{screen}");
    // Played as White from it.
    board.key(KeyCode::Enter);
    assert!(board.app.mode.game().is_some());
    assert_eq!(board.app.cx.board.game.position(), &given);
}

#[test]
fn the_resume_dialog_shows_the_saved_clocks_and_no_book() {
    // The resume dialog: the offered game's clocks as saved, no book.
    let saved = SavedGame {
        version: 1,
        start_fen: None,
        chess960: false,
        moves: ["e2e4", "d7d5", "e4d5"]
            .iter()
            .map(|m| m.to_string())
            .collect(),
        players: "white".to_string(),
        level: 5,
        time_control: "5+3".to_string(),
        white_ms: 296_997,
        black_ms: 281_000,
        finished: false,
    };
    let mut board = Board::options((80, 24)).resume(saved).seed(1).build();
    board.set_book(Arc::new(default_book().unwrap()));
    assert!(!board.app.cx.book_moves().is_empty());
    let screen = board.screen();
    assert!(matches!(board.app.cx.overlay, Overlay::Resume(_)));
    assert!(screen.contains("4:56"), "{screen}");
    assert!(screen.contains("4:41"), "{screen}");
    assert!(!screen.contains('%'), "{screen}");
}

#[test]
fn the_first_new_game_dialog_has_no_book_beside_it() {
    let mut board = Board::options((80, 24)).blitz().build();
    board.set_book(Arc::new(default_book().unwrap()));
    let screen = board.screen();
    assert!(!screen.contains('%'), "{screen}");
    assert!(!screen.contains("Book"), "{screen}");
}

#[test]
fn the_first_new_game_dialog_hides_the_tablebase_verdict_of_a_fen_ending() {
    let mut tables = Tablebases::new(Builtin::new());
    tables.add_syzygy(&common::testdata("syzygy")).unwrap();
    let mut board = Board::blitz((80, 24), Some(FEN));
    board.update(Msg::Tablebases(Arc::new(tables)));
    assert!(board.app.cx.tablebase_view().is_some());
    let screen = board.screen();
    assert!(!screen.contains("win"), "{screen}");
    assert!(!screen.contains("Tablebase"), "{screen}");
}
