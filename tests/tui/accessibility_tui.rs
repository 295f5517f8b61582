//! The board without colour and the position in words (`D`, `:describe`):
//! `App` driven by messages, the screen drawn on ratatui's `TestBackend`.
//! With `NO_COLOR` (the app's `no_color`) the sides differ by shape and
//! every highlight has a mark that survives as plain text, which is what
//! the snapshots and the buffer assertions read.
#![allow(clippy::unwrap_used)]

use kibitz::config::ThemeName;
use kibitz::tui::app::Overlay;
use ratatui::crossterm::event::KeyCode;
use shakmaty::Square;

use crate::common::board::Board;
use crate::snapshot_names as insta;

/// White to move with a rook, kings and castling rights; Black's queen
/// comes to d2 with check after White's first move.
const FEN: &str = "4k3/3q4/8/8/8/8/8/R3K2R w KQ - 0 1";

/// A 5+3 game's board without colour (`NO_COLOR`), its screen read as
/// plain rows.
fn harness(size: (u16, u16), theme: ThemeName, fen: Option<&str>) -> Board {
    Board::options(size)
        .blitz()
        .theme(theme)
        .fen(fen)
        .no_color()
        .plain_text()
        .build()
}

/// From the dialog (White against the engine): Ra2, the engine's Qd2+,
/// and the rook picked up (its one legal move takes the queen).
fn check_and_selection(size: (u16, u16), theme: ThemeName) -> Board {
    let mut h = harness(size, theme, Some(FEN));
    h.key(KeyCode::Enter);
    assert_eq!(h.app.cx.overlay, Overlay::None);
    h.typed("Ra2");
    h.wait(1_500);
    h.engine_answers("d7d2");
    h.wait(2_000);
    h.set_cursor(Square::A2);
    h.key(KeyCode::Enter);
    assert_eq!(h.app.cx.board.selected, Some(Square::A2));
    h
}

macro_rules! snapshot {
    ($name:expr, $screen:expr) => {
        insta::with_settings!({filters => vec![
            // Clock readings depend on timing.
            (r"\b\d{1,2}:\d{2}(:\d{2})?\b", "[clock]"),
        ]}, {
            insta::assert_snapshot!($name, $screen);
        });
    };
}

fn assert_marks(h: &Board) {
    // The sides by shape: outlined White, filled Black.
    assert!(h.square_text(Square::E1).contains("+♔+"), "check on e1");
    assert!(h.square_text(Square::E8).contains('♚'));
    // The rook picked up, under the cursor; the capture it may make.
    let a2 = h.square_text(Square::A2);
    assert!(
        a2.contains(">♖<") && a2.starts_with('[') && a2.ends_with(']'),
        "{a2}"
    );
    assert!(h.square_text(Square::D2).contains("x♛x"));
    // The last move's first square (its second is the capture target).
    assert!(h.square_text(Square::D7).contains("( )"));
    assert!(h.square_text(Square::H1).contains('♖'));
    assert_eq!(h.coloured_board_cells(), 0, "NO_COLOR draws no colour");
}

#[test]
fn no_color_board_at_80x24_tells_sides_and_highlights_apart() {
    let h = check_and_selection((80, 24), ThemeName::Classic);
    assert_marks(&h);
    snapshot!("no_color_check_and_selection_80x24", h.screen());
}

#[test]
fn no_color_board_at_120x40_tells_sides_and_highlights_apart() {
    let h = check_and_selection((120, 40), ThemeName::Classic);
    assert_marks(&h);
    snapshot!("no_color_check_and_selection_120x40", h.screen());
}

#[test]
fn empty_targets_and_the_last_move_read_as_text() {
    let mut h = harness((80, 24), ThemeName::Classic, None);
    h.key(KeyCode::Enter);
    h.typed("e4");
    h.engine_answers("e7e5");
    h.set_cursor(Square::G1);
    h.key(KeyCode::Enter);
    assert!(h.square_text(Square::F3).contains('•'));
    assert!(h.square_text(Square::H3).contains('•'));
    assert!(h.square_text(Square::E5).contains("(♟)"));
    assert!(h.square_text(Square::E7).contains("( )"));
    assert!(h.square_text(Square::E4).contains('♙'));
}

#[test]
fn the_mono_theme_keeps_its_colours_and_adds_the_marks() {
    let mut h = check_and_selection((80, 24), ThemeName::Mono);
    h.set_no_color(false);
    assert!(h.square_text(Square::E1).contains("+♔+"));
    assert!(h.square_text(Square::A2).contains(">♖<"));
    assert!(h.coloured_board_cells() > 0);
}

#[test]
fn coloured_themes_draw_no_marks() {
    let mut h = check_and_selection((80, 24), ThemeName::Classic);
    h.set_no_color(false);
    assert_eq!(h.square_text(Square::E1).trim(), "♚");
    assert_eq!(h.square_text(Square::A2), "[ ♜ ]");
    assert_eq!(h.square_text(Square::D7).trim(), "");
}

/// The overlay's text, top to bottom, joined into one string per row.
fn describe_screen(h: &Board) -> String {
    assert!(matches!(h.app.cx.overlay, Overlay::Describe(_)));
    h.screen()
}

#[test]
fn describe_overlay_at_80x24() {
    let mut h = check_and_selection((80, 24), ThemeName::Classic);
    h.typed("describe");
    let screen = describe_screen(&h);
    for line in [
        "Move 2, White to move.",
        "Last move: Black played queen from d7 to d2 (Qd2+).",
        "White: king e1, rooks a2 h1.",
        "Black: king e8, queen d2.",
        "White is in check.",
        "Castling rights: White kingside.",
        "Clocks: White 4 minutes 58 seconds, Black 5 minutes 1 second.",
    ] {
        assert!(screen.contains(line), "{line}\n{screen}");
    }
    assert!(!screen.contains('♔'), "nothing of the board shows through");
    snapshot!("describe_80x24", screen);
    h.key(KeyCode::Esc);
    assert_eq!(h.app.cx.overlay, Overlay::None);
}

#[test]
fn describe_overlay_at_120x40_by_key() {
    let mut h = check_and_selection((120, 40), ThemeName::Classic);
    h.key(KeyCode::Esc);
    h.key(KeyCode::Char('D'));
    let screen = describe_screen(&h);
    assert!(screen.contains("White is in check."), "{screen}");
    snapshot!("describe_120x40", screen);
    h.key(KeyCode::Char('q'));
    assert_eq!(h.app.cx.overlay, Overlay::None);
    assert!(!h.app.cx.quit);
}

#[test]
fn describe_after_the_game_ends() {
    let mut h = harness((80, 24), ThemeName::Classic, None);
    // Two players on one board.
    for _ in 0..3 {
        h.key(KeyCode::Char('l'));
    }
    h.key(KeyCode::Enter);
    for san in ["f3", "e5", "g4", "Qh4#"] {
        h.typed(san);
    }
    assert_eq!(h.app.cx.overlay, Overlay::GameOver);
    h.key(KeyCode::Char('D'));
    let screen = describe_screen(&h);
    assert!(screen.contains("Checkmate: Black wins."), "{screen}");
    assert!(
        screen.contains("Result: 0-1, Black wins by checkmate."),
        "{screen}"
    );
}

#[test]
fn describe_on_the_analysis_board_and_in_teach_mode() {
    let mut h = harness((80, 24), ThemeName::Classic, None);
    for _ in 0..4 {
        h.key(KeyCode::Right);
    }
    h.key(KeyCode::Enter);
    assert!(h.app.mode.analysis().is_some());
    h.typed("e4");
    h.key(KeyCode::Char('D'));
    let screen = describe_screen(&h);
    assert!(screen.contains("Analysis board, ply 1."), "{screen}");
    assert!(screen.contains("Last move: White played pawn from e2 to e4 (e4)."));
    h.key(KeyCode::Esc);

    h.typed("teach");
    assert!(h.app.mode.teach().is_some());
    h.key(KeyCode::Char('D'));
    let screen = describe_screen(&h);
    assert!(
        screen.contains("Teach mode: the search's node at ply 0."),
        "{screen}"
    );
    assert!(screen.contains("Move 1, Black to move."), "{screen}");
}

#[test]
fn without_colour_the_focus_and_the_captured_pieces_read_by_shape() {
    let mut h = harness((80, 24), ThemeName::Classic, None);
    // The new-game dialog marks the field with the focus, not by colour alone.
    let screen = h.screen();
    assert!(screen.contains("▸Play as"), "{screen}");
    h.key(KeyCode::Down);
    let screen = h.screen();
    assert!(!screen.contains("▸Play as"), "{screen}");
    assert!(screen.contains("▸Level"), "{screen}");
    h.key(KeyCode::Up);
    h.key(KeyCode::Enter);
    // Captured pieces: White's outlined, Black's filled, as on the board.
    h.typed("e4");
    h.engine_answers("d7d5");
    h.typed("exd5");
    h.engine_answers("d8d5");
    let screen = h.screen();
    assert!(screen.contains("Taken by White ♟"), "{screen}");
    assert!(screen.contains("Taken by Black ♙"), "{screen}");
}
