//! The course screen (`:course` in teach mode, `kibitz learn`): a chapter's
//! page with its figures computed, its lessons, a lesson opened in teach
//! mode, an exercise scored at its end, the progress kept in the data
//! folder.
#![allow(clippy::unwrap_used)]

use kibitz::config::Dirs;
use kibitz::tui::app::Overlay;
use ratatui::crossterm::event::KeyCode;

use crate::common::TempHome;
use crate::common::board::{Board, curated};
use crate::snapshot_names as insta;

fn dirs(home: &TempHome) -> Dirs {
    Dirs {
        config: home.join("config"),
        data: home.join("data"),
        cache: home.join("cache"),
    }
}

#[test]
fn the_course_screen_fits_80x24_and_its_pages_state_computed_figures() {
    let mut board = Board::curated("fork", (80, 24));
    board.typed("course");
    assert!(matches!(board.app.cx.overlay, Overlay::Course(_)));
    let screen = board.screen();
    assert!(
        screen.contains("Course · chapter 1 of 9: Game trees and minimax"),
        "{screen}"
    );
    assert!(
        screen.contains("1 The classic tree, by minimax (tree)"),
        "{screen}"
    );
    insta::assert_snapshot!("course_chapter_1_80x24", screen);
    // The next page: the tree's value and leaves, from its recording.
    board.key(KeyCode::Right);
    let screen = board.screen();
    assert!(
        screen.contains("Page 2 of 4: Backing values up"),
        "{screen}"
    );
    assert!(screen.contains("is 3, reached by the move B."), "{screen}");
    assert!(
        screen.contains("Minimax looks at every leaf: 9 leaves here, and 13 nodes"),
        "{screen}"
    );
    // Every page of every chapter shows whole at 80 x 24, or says how to
    // read the rest; no placeholder is ever shown.
    for _ in 0..40 {
        board.key(KeyCode::Right);
        let screen = board.screen();
        assert!(!screen.contains("{{"), "{screen}");
        assert!(!screen.contains("could not be computed"), "{screen}");
    }
    assert!(board.screen().contains("chapter 9 of 9: Evaluation"));
    board.key(KeyCode::Esc);
    assert_eq!(board.app.cx.overlay, Overlay::None);
    assert!(board.teaching(), "Esc goes back to teach mode");
}

#[test]
fn a_lesson_opens_in_teach_mode_and_an_exercise_is_scored_at_its_end() {
    let home = TempHome::new("course-exercise");
    let options = Board::options((120, 40)).dirs(dirs(&home));
    let mut board = options.teach(curated("fork").position, 3);
    board.typed("course");
    // Lesson 1 of chapter 1, an exercise on the classic tree.
    board.char('1');
    assert_eq!(board.app.cx.overlay, Overlay::None);
    let teach = board.teach_state();
    assert!(teach.setup.tree.is_some());
    assert!(!teach.setup.options.alpha_beta, "the minimax lesson");
    assert!(teach.predict.on, "an exercise opens in predict mode");
    assert_eq!(teach.title, "The classic tree, by minimax");
    board.serve();
    assert!(board.ready());
    // Three answers of four right, then the end of the search.
    let teach = board.app.mode.teach_mut().unwrap();
    teach.predict.score.right = 3;
    teach.predict.score.wrong = 1;
    board.key(KeyCode::End);
    let said = board.app.cx.message.clone().unwrap().0;
    assert!(
        said.starts_with("Exercise: 3 of 4 right (75%); 60% passes: passed."),
        "{said}"
    );
    let kept = std::fs::read_to_string(home.join("data").join("course.json")).unwrap();
    assert!(kept.contains("\"right\": 3"), "{kept}");
    // The course screen shows it, and the progress is read back by a new board.
    board.typed("course");
    assert!(
        board.screen().contains("exercise: 75% passed"),
        "{}",
        board.screen()
    );
    board.key(KeyCode::Right);
    board.key(KeyCode::Right);
    let mut again = Board::options((120, 40))
        .dirs(dirs(&home))
        .teach(curated("fork").position, 3);
    again.typed("course");
    let screen = again.screen();
    assert!(
        screen.contains("Page 3 of 4: The same on a chessboard"),
        "{screen}"
    );
    assert!(screen.contains("exercise: 75% passed"), "{screen}");
}

#[test]
fn a_damaged_progress_file_is_kept_aside_and_said() {
    let home = TempHome::new("course-damaged");
    std::fs::create_dir_all(home.join("data")).unwrap();
    std::fs::write(home.join("data").join("course.json"), "{ not json").unwrap();
    let mut board = Board::options((120, 40))
        .dirs(dirs(&home))
        .teach(curated("fork").position, 3);
    board.typed("course");
    let said = board.app.cx.message.clone().unwrap().0;
    assert!(said.starts_with("course progress kept as "), "{said}");
    let kept: Vec<String> = std::fs::read_dir(home.join("data"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        kept.iter().any(|n| n.starts_with("course.damaged-")),
        "{kept:?}"
    );
    assert!(board.screen().contains("chapter 1 of 9"));
}
