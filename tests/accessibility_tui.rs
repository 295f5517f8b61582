//! The board without colour and the position in words (`D`, `:describe`):
//! `App` driven by messages, the screen drawn on ratatui's `TestBackend`.
//! With `NO_COLOR` (the app's `no_color`) the sides differ by shape and
//! every highlight has a mark that survives as plain text, which is what
//! the snapshots and the buffer assertions read.
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use kibitz::config::{Settings, ThemeName, TimeControl};
use kibitz::engine::{Command, MoveSource, Report, Score};
use kibitz::game::fen::parse_fen;
use kibitz::game::notation::parse_uci;
use kibitz::tui::app::{App, Overlay};
use kibitz::tui::msg::Msg;
use kibitz::tui::ui;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::style::Color as Colour;
use shakmaty::Square;

/// White to move with a rook, kings and castling rights; Black's queen
/// comes to d2 with check after White's first move.
const FEN: &str = "4k3/3q4/8/8/8/8/8/R3K2R w KQ - 0 1";

struct Harness {
    app: App,
    now: Instant,
}

impl Harness {
    fn new(size: (u16, u16), theme: ThemeName, fen: Option<&str>) -> Harness {
        let settings = Settings {
            theme,
            time_control: TimeControl::fischer(300, 3),
            ..Settings::default()
        };
        let fen = fen.map(|f| parse_fen(f).unwrap());
        let mut app = App::new(settings, None, fen, None, size);
        app.seed(1);
        app.no_color = true;
        Harness {
            app,
            now: Instant::now(),
        }
    }

    fn key(&mut self, code: KeyCode) {
        self.app
            .update(Msg::Key(KeyEvent::from(code), self.now), self.now);
    }

    fn typed(&mut self, text: &str) {
        self.key(KeyCode::Char(':'));
        for c in text.chars() {
            self.key(KeyCode::Char(c));
        }
        self.key(KeyCode::Enter);
    }

    fn wait(&mut self, ms: u64) {
        self.now += Duration::from_millis(ms);
        self.app.update(Msg::Tick, self.now);
    }

    /// The engine answers its last search with `uci`.
    fn engine_plays(&mut self, uci: &str) {
        let id = self
            .app
            .take_commands()
            .into_iter()
            .filter_map(|c| match c {
                Command::Go(request) => Some(request.search_id),
                _ => None,
            })
            .last()
            .expect("a search");
        let m = parse_uci(self.app.game.position(), uci).unwrap();
        let report = Report::BestMove {
            search_id: id,
            best_move: Some(m),
            ponder: None,
            score: Score::Centipawns(0),
            depth: 1,
            nodes: 1,
            source: MoveSource::Search,
        };
        self.app.update(Msg::Engine(report), self.now);
    }

    /// From the dialog (White against the engine): Ra2, the engine's Qd2+,
    /// and the rook picked up (its one legal move takes the queen).
    fn check_and_selection(size: (u16, u16), theme: ThemeName) -> Harness {
        let mut h = Harness::new(size, theme, Some(FEN));
        h.key(KeyCode::Enter);
        assert_eq!(h.app.overlay, Overlay::None);
        h.typed("Ra2");
        h.wait(1_500);
        h.engine_plays("d7d2");
        h.wait(2_000);
        h.app.cursor = Square::A2;
        h.key(KeyCode::Enter);
        assert_eq!(h.app.selected, Some(Square::A2));
        h
    }

    fn buffer(&self) -> Buffer {
        let (w, h) = self.app.size;
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        terminal
            .draw(|frame| ui::draw(frame, &self.app, self.now))
            .unwrap();
        terminal.backend().buffer().clone()
    }

    fn screen(&self) -> String {
        let buffer = self.buffer();
        let (w, h) = self.app.size;
        (0..h)
            .map(|y| {
                let line: String = (0..w).map(|x| buffer[(x, y)].symbol()).collect();
                line.trim_end().to_string()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The text of a square's middle row (where the piece and its marks are).
    fn square_text(&self, square: Square) -> String {
        let screen = self.app.screen().unwrap();
        let rect = screen.board.square_rect(square, self.app.flipped);
        let buffer = self.buffer();
        let y = rect.y + rect.height / 2;
        (rect.x..rect.right())
            .map(|x| buffer[(x, y)].symbol().to_string())
            .collect()
    }

    /// Cells of the board with a colour of their own.
    fn coloured_board_cells(&self) -> usize {
        let screen = self.app.screen().unwrap();
        let board = screen.board_area;
        let buffer = self.buffer();
        let mut count = 0;
        for y in board.y..board.bottom() {
            for x in board.x..board.right() {
                let cell = &buffer[(x, y)];
                if cell.fg != Colour::Reset || cell.bg != Colour::Reset {
                    count += 1;
                }
            }
        }
        count
    }
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

fn assert_marks(h: &Harness) {
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
    let h = Harness::check_and_selection((80, 24), ThemeName::Classic);
    assert_marks(&h);
    snapshot!("no_color_check_and_selection_80x24", h.screen());
}

#[test]
fn no_color_board_at_120x40_tells_sides_and_highlights_apart() {
    let h = Harness::check_and_selection((120, 40), ThemeName::Classic);
    assert_marks(&h);
    snapshot!("no_color_check_and_selection_120x40", h.screen());
}

#[test]
fn empty_targets_and_the_last_move_read_as_text() {
    let mut h = Harness::new((80, 24), ThemeName::Classic, None);
    h.key(KeyCode::Enter);
    h.typed("e4");
    h.engine_plays("e7e5");
    h.app.cursor = Square::G1;
    h.key(KeyCode::Enter);
    assert!(h.square_text(Square::F3).contains('•'));
    assert!(h.square_text(Square::H3).contains('•'));
    assert!(h.square_text(Square::E5).contains("(♟)"));
    assert!(h.square_text(Square::E7).contains("( )"));
    assert!(h.square_text(Square::E4).contains('♙'));
}

#[test]
fn the_mono_theme_keeps_its_colours_and_adds_the_marks() {
    let mut h = Harness::check_and_selection((80, 24), ThemeName::Mono);
    h.app.no_color = false;
    assert!(h.square_text(Square::E1).contains("+♔+"));
    assert!(h.square_text(Square::A2).contains(">♖<"));
    assert!(h.coloured_board_cells() > 0);
}

#[test]
fn coloured_themes_draw_no_marks() {
    let mut h = Harness::check_and_selection((80, 24), ThemeName::Classic);
    h.app.no_color = false;
    assert_eq!(h.square_text(Square::E1).trim(), "♚");
    assert_eq!(h.square_text(Square::A2), "[ ♜ ]");
    assert_eq!(h.square_text(Square::D7).trim(), "");
}

/// The overlay's text, top to bottom, joined into one string per row.
fn describe_screen(h: &Harness) -> String {
    assert!(matches!(h.app.overlay, Overlay::Describe(_)));
    h.screen()
}

#[test]
fn describe_overlay_at_80x24() {
    let mut h = Harness::check_and_selection((80, 24), ThemeName::Classic);
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
    assert_eq!(h.app.overlay, Overlay::None);
}

#[test]
fn describe_overlay_at_120x40_by_key() {
    let mut h = Harness::check_and_selection((120, 40), ThemeName::Classic);
    h.key(KeyCode::Esc);
    h.key(KeyCode::Char('D'));
    let screen = describe_screen(&h);
    assert!(screen.contains("White is in check."), "{screen}");
    snapshot!("describe_120x40", screen);
    h.key(KeyCode::Char('q'));
    assert_eq!(h.app.overlay, Overlay::None);
    assert!(!h.app.quit);
}

#[test]
fn describe_after_the_game_ends() {
    let mut h = Harness::new((80, 24), ThemeName::Classic, None);
    // Two players on one board.
    for _ in 0..3 {
        h.key(KeyCode::Char('l'));
    }
    h.key(KeyCode::Enter);
    for san in ["f3", "e5", "g4", "Qh4#"] {
        h.typed(san);
    }
    assert_eq!(h.app.overlay, Overlay::GameOver);
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
    let mut h = Harness::new((80, 24), ThemeName::Classic, None);
    for _ in 0..4 {
        h.key(KeyCode::Right);
    }
    h.key(KeyCode::Enter);
    assert!(h.app.analysing());
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
    let mut h = Harness::new((80, 24), ThemeName::Classic, None);
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
    h.engine_plays("d7d5");
    h.typed("exd5");
    h.engine_plays("d8d5");
    let screen = h.screen();
    assert!(screen.contains("Taken by White ♟"), "{screen}");
    assert!(screen.contains("Taken by Black ♙"), "{screen}");
}
