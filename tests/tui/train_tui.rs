//! Train mode on the board: chosen in the new-game dialog, it shows the
//! schedule's due position from the side to move's view with the question;
//! a wrong move is refused and counted, `h` shows the piece then the
//! square, a right move is played and saved, `n` goes on, and at the end
//! the counts and when the next position is due.
#![allow(clippy::unwrap_used)]

use kibitz::config::Dirs;
use kibitz::train::schedule::{self, Schedule};
use kibitz::train::{Exercise, Kind};
use kibitz::tui::app::Overlay;
use ratatui::crossterm::event::KeyCode;
use shakmaty::Square;

use crate::common::TempHome;
use crate::common::board::Board;
use crate::snapshot_names as insta;

fn dirs(home: &TempHome) -> Dirs {
    Dirs {
        config: home.join("config"),
        data: home.join("data"),
        cache: home.join("cache"),
    }
}

fn puzzle(fen: &str, solution: &str, san: &str, theme: Option<&str>, source: &str) -> Exercise {
    Exercise {
        kind: Kind::Puzzle,
        fen: fen.into(),
        solution: vec![solution.into()],
        solution_san: vec![san.into()],
        also: Vec::new(),
        played: None,
        margin_cp: None,
        theme: theme.map(str::to_string),
        line: Vec::new(),
        source: source.into(),
    }
}

/// A schedule of two puzzles due now in `home`'s data folder: a back-rank
/// mate for White, then Black's queen to save.
fn schedule(home: &TempHome) {
    let mut s = Schedule::default();
    let now = schedule::now();
    s.add(
        puzzle(
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
            "a1a8",
            "Ra8#",
            Some("mate in 1"),
            "puzzle of found.jsonl, game 3 ply 41",
        ),
        now - 10,
    );
    s.add(
        puzzle(
            "rnb1kbnr/ppp1pppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR b KQkq - 1 3",
            "d5a5",
            "Qa5",
            None,
            "puzzle of found.jsonl, game 1 ply 6",
        ),
        now - 5,
    );
    s.save(&home.join("data")).unwrap();
}

/// The board in train mode, chosen as the dialog's last choice.
fn training(home: &TempHome, size: (u16, u16)) -> Board {
    let mut board = Board::options(size).dirs(dirs(home)).build();
    for _ in 0..6 {
        board.key(KeyCode::Right);
    }
    board.key(KeyCode::Enter);
    assert!(board.app.mode.training().is_some(), "{}", board.screen());
    board
}

#[test]
fn the_dialog_opens_training_on_the_due_position() {
    let home = TempHome::new("tui-train");
    schedule(&home);
    let board = training(&home, (100, 32));
    let screen = board.screen();
    insta::assert_snapshot!("train_first_position_100x32", screen);
    assert!(
        screen.contains("White to play and win (mate in 1)."),
        "{screen}"
    );
    assert!(screen.contains("Train · position 1 of 2"), "{screen}");
}

#[test]
fn answers_hints_and_the_next_position_are_kept() {
    let home = TempHome::new("tui-train-answers");
    schedule(&home);
    let mut board = training(&home, (120, 40));
    // A wrong move: refused, counted, the board stays.
    board.typed("Ra7");
    let screen = board.screen();
    assert!(
        screen.contains("Not right: Ra7 is not the solution."),
        "{screen}"
    );
    assert!(screen.contains("0 solved, 1 failed"), "{screen}");
    assert_eq!(board.app.cx.board.game.moves().len(), 0);
    // Then right: played on the board.
    board.typed("Ra8");
    assert!(
        board
            .screen()
            .contains("Right: Ra8# is the solution; it comes back in"),
        "{}",
        board.screen()
    );
    assert_eq!(board.app.cx.board.game.moves().len(), 1);
    // n: Black's position, seen from Black's side, with a hint.
    board.char('n');
    assert!(board.app.cx.board.flipped);
    assert!(board.screen().contains("Black to play and win."));
    board.char('h');
    assert_eq!(board.app.cx.board.selected, Some(Square::D5));
    assert!(
        board.screen().contains("Hint: move the queen on d5"),
        "{}",
        board.screen()
    );
    board.char('h');
    assert!(board.screen().contains("goes to a5"), "{}", board.screen());
    board.char('s');
    assert!(
        board.screen().contains("The solution: Qa5."),
        "{}",
        board.screen()
    );
    board.char('n');
    let screen = board.screen();
    assert!(screen.contains("Every position due is done."), "{screen}");
    assert!(
        screen.contains("0 solved, 2 failed; next due: in 1 day"),
        "{screen}"
    );
    // Everything answered is in the file.
    let (saved, problem) = Schedule::load(&home.join("data"));
    assert_eq!(problem, None);
    assert_eq!(saved.cards[0].wrong, 1);
    assert_eq!(saved.cards[1].wrong, 1);
    assert!(saved.due(schedule::now()).is_empty());
}

#[test]
fn nothing_due_says_so_and_how_to_add_positions() {
    let home = TempHome::new("tui-train-empty");
    let board = training(&home, (100, 32));
    let screen = board.screen();
    assert!(screen.contains("Nothing is due."), "{screen}");
    assert!(
        screen.contains("Nothing is due. Add positions with"),
        "{screen}"
    );
    assert!(screen.contains("Train · nothing due"), "{screen}");
}

#[test]
fn t_opens_the_positions_lesson_and_esc_comes_back_to_the_question() {
    let home = TempHome::new("tui-train-lesson");
    schedule(&home);
    let mut board = training(&home, (120, 40));
    board.char('T');
    assert!(board.teaching(), "{}", board.screen());
    board.serve();
    assert!(board.ready());
    board.key(KeyCode::Esc);
    assert!(board.app.mode.training().is_some(), "{}", board.screen());
    assert!(
        board
            .screen()
            .contains("White to play and win (mate in 1).")
    );
    // The lesson counts nothing: the question is still open.
    board.typed("Ra8");
    assert!(
        board.screen().contains("1 solved, 0 failed"),
        "{}",
        board.screen()
    );
}

/// The data folder's schedule replaced by `exercises`, all due now.
fn only(home: &TempHome, exercises: Vec<Exercise>) {
    let mut s = Schedule::default();
    let now = schedule::now();
    for (i, e) in exercises.into_iter().enumerate() {
        s.add(e, now - 10 + i as u64);
    }
    s.save(&home.join("data")).unwrap();
}

/// The screen's last two rows: the status line and the key bar.
fn bottom(board: &Board) -> String {
    let screen = board.screen();
    let lines: Vec<&str> = screen.lines().collect();
    lines[lines.len().saturating_sub(2)..].join("\n")
}

#[test]
fn a_failed_save_stays_on_the_status_line_and_in_the_panel() {
    let home = TempHome::new("tui-train-unsaved");
    schedule(&home);
    let mut board = training(&home, (120, 40));
    // The data folder becomes a file: the schedule cannot be written.
    std::fs::remove_dir_all(home.join("data")).unwrap();
    std::fs::write(home.join("data"), "not a folder").unwrap();
    board.typed("Ra8");
    let screen = board.screen();
    assert!(
        bottom(&board).contains("The answer is not saved"),
        "{screen}"
    );
    assert_eq!(
        screen.matches("The answer is not saved").count(),
        2,
        "the status line and the panel: {screen}"
    );
    // Still there on the next position, until an answer is saved, and
    // on the done screen.
    board.char('n');
    assert!(
        bottom(&board).contains("The answer is not saved"),
        "{}",
        board.screen()
    );
    board.char('s');
    board.char('n');
    let screen = board.screen();
    assert!(screen.contains("Every position due is done."), "{screen}");
    assert_eq!(
        screen.matches("The answer is not saved").count(),
        2,
        "the status line and the panel: {screen}"
    );
}

#[test]
fn esc_and_q_leave_training_for_the_new_game_dialog() {
    let home = TempHome::new("tui-train-leave");
    schedule(&home);
    let mut board = training(&home, (120, 40));
    board.char('?');
    assert!(
        board.screen().contains("leave training"),
        "{}",
        board.screen()
    );
    board.key(KeyCode::Esc);
    assert_eq!(board.app.cx.overlay, Overlay::None);
    // Esc first puts down a piece picked up, then leaves.
    board.char('h');
    assert!(board.app.cx.board.selected.is_some());
    board.key(KeyCode::Esc);
    assert!(board.app.cx.board.selected.is_none());
    assert_eq!(board.app.cx.overlay, Overlay::None);
    board.key(KeyCode::Esc);
    assert!(
        matches!(board.app.cx.overlay, Overlay::NewGame(_)),
        "{}",
        board.screen()
    );
    // Back (Esc in the dialog), then q leaves too.
    board.key(KeyCode::Esc);
    assert!(board.app.mode.training().is_some());
    board.char('q');
    assert!(
        matches!(board.app.cx.overlay, Overlay::NewGame(_)),
        "{}",
        board.screen()
    );
}

#[test]
fn the_dialogs_train_choice_says_how_many_positions_are_due() {
    let home = TempHome::new("tui-train-dialog");
    schedule(&home);
    let mut board = Board::options((100, 32)).dirs(dirs(&home)).build();
    for _ in 0..6 {
        board.key(KeyCode::Right);
    }
    let screen = board.screen();
    let top = screen.lines().next().unwrap_or_default();
    assert!(top.contains("Train: 2 positions due"), "{screen}");
    assert!(!top.contains("teach the search"), "{screen}");
    assert!(screen.contains("[Train: 2 positions due]"), "{screen}");
    // The focus mark is on the row of the choice made.
    assert!(screen.contains("▸  "), "{screen}");
    assert!(!screen.contains("▸Play as"), "{screen}");
}

#[test]
fn the_status_line_and_key_bar_follow_the_position() {
    let home = TempHome::new("tui-train-status");
    schedule(&home);
    let mut board = training(&home, (120, 40));
    board.typed("Ra8");
    assert!(bottom(&board).contains("Right"), "{}", board.screen());
    // Answered: no hint to give.
    assert!(!bottom(&board).contains("h hint"), "{}", board.screen());
    board.char('n');
    let shown = bottom(&board);
    assert!(!shown.contains("Right"), "{shown}");
    assert!(shown.contains("h hint"), "{shown}");
    board.char('s');
    assert!(!bottom(&board).contains("h hint"), "{}", board.screen());
    board.char('n');
    // Done: only the keys that work.
    let shown = bottom(&board);
    for gone in ["h hint", "s solution", "T lesson", "n next"] {
        assert!(!shown.contains(gone), "{gone}: {shown}");
    }
    assert!(shown.contains("Esc"), "{shown}");
}

#[test]
fn nothing_due_offers_only_the_keys_that_work() {
    let home = TempHome::new("tui-train-empty-keys");
    let board = training(&home, (100, 32));
    let shown = bottom(&board);
    assert!(!shown.contains("h hint"), "{shown}");
    assert!(!shown.contains("n next"), "{shown}");
}

#[test]
fn the_done_screen_counts_the_positions_skipped() {
    let home = TempHome::new("tui-train-skipped");
    schedule(&home);
    let mut board = training(&home, (120, 40));
    board.char('n');
    board.char('n');
    let screen = board.screen();
    assert!(
        screen.contains("0 solved, 0 failed, 2 skipped (still due); next due: now"),
        "{screen}"
    );
}

#[test]
fn a_right_answer_says_when_it_comes_back_and_plays_the_line() {
    let home = TempHome::new("tui-train-line");
    // Rd8+ Rxd8 Rxd8#: the mate is two moves away.
    let mut mate = puzzle(
        "2r3k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1",
        "d2d8",
        "Rd8+",
        Some("mate in 2"),
        "puzzle of p.jsonl, game 1 ply 30",
    );
    mate.solution = vec!["d2d8".into(), "c8d8".into(), "d1d8".into()];
    mate.solution_san = vec!["Rd8+".into(), "Rxd8".into(), "Rxd8#".into()];
    only(&home, vec![mate]);
    let mut board = training(&home, (120, 40));
    board.typed("Rd8+");
    let screen = board.screen();
    assert!(
        screen.contains("Right: Rd8+ is the solution; it comes back in"),
        "{screen}"
    );
    assert!(
        bottom(&board).contains("Right; it comes back in 1 day."),
        "{screen}"
    );
    // The title still names the side that was asked to move.
    assert!(screen.contains("White to move"), "{screen}");
    assert!(screen.contains("The line: Rd8+ Rxd8 Rxd8#."), "{screen}");
    assert_eq!(board.app.cx.board.game.moves().len(), 3);
}

#[test]
fn the_lesson_of_a_blunder_calls_it_a_blunder() {
    let home = TempHome::new("tui-train-blunder");
    only(
        &home,
        vec![Exercise {
            kind: Kind::Mistake,
            fen: "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3".into(),
            solution: vec!["g7g6".into()],
            solution_san: vec!["g6".into()],
            also: Vec::new(),
            played: Some("g8f6".into()),
            margin_cp: Some(100),
            theme: None,
            line: Vec::new(),
            source: "game 1 of g.pgn, 3... Nf6?? (Ann - Bob)".into(),
        }],
    );
    let mut board = training(&home, (120, 40));
    board.char('T');
    assert!(board.teaching(), "{}", board.screen());
    let screen = board.screen();
    // The title has the review's mark: `??`, not a mistake's `?`.
    assert!(screen.contains("3... Nf6?? ·"), "{screen}");
}

#[test]
fn the_source_names_the_kind_once() {
    let home = TempHome::new("tui-train-source");
    schedule(&home);
    let board = training(&home, (120, 40));
    let screen = board.screen();
    assert!(screen.contains("puzzle of found.jsonl"), "{screen}");
    assert!(!screen.contains("puzzle · puzzle"), "{screen}");
}
