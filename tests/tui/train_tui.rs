//! Train mode on the board: chosen in the new-game dialog, it shows the
//! schedule's due position from the side to move's view with the question;
//! a wrong move is refused and counted, `h` shows the piece then the
//! square, a right move is played and saved, `n` goes on, and at the end
//! the counts and when the next position is due.
#![allow(clippy::unwrap_used)]

use kibitz::config::Dirs;
use kibitz::train::schedule::{self, Schedule};
use kibitz::train::{Exercise, Kind};
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
        board.screen().contains("Right: Ra8# is the solution."),
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
