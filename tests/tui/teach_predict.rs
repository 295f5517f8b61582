//! Teach mode's predict mode (`P`): a question before each node of the
//! main search, answered with a key or a typed move, a verdict that says
//! why and goes with its step, a running score, at 80 x 24 without colour.

use kibitz::teach::caption::san;
use kibitz::teach::predict::{Answer, Kind, Outcome, Question};
use ratatui::crossterm::event::KeyCode;
use shakmaty::Position;

use crate::common::board::{Board, curated};
use crate::snapshot_names as insta;

/// What the status line says.
fn said(board: &Board) -> String {
    board.status().map(|(text, _)| text).unwrap_or_default()
}

/// The stalemate trap at 80 x 24 without colour, predict mode on.
fn trap() -> Board {
    let p = curated("stalemate trap");
    let mut board = Board::options((80, 24))
        .no_color()
        .teach(p.position, p.depth);
    board.char('P');
    board
}

/// The question waiting at the step shown.
fn pending(board: &Board) -> Option<Question> {
    let teach = board.teach_state();
    let (replay, step) = teach.ready()?;
    teach.predict.pending(replay, step)
}

fn truth(board: &Board, question: &Question) -> Answer {
    question.truth(board.teach_state().ready().unwrap().0)
}

/// Step on (skipping nothing) to the next question.
fn to_next_question(board: &mut Board) -> Question {
    for _ in 0..40 {
        if let Some(question) = pending(board) {
            return question;
        }
        board.key(KeyCode::Right);
    }
    panic!("no question: {}", board.screen());
}

/// Answer `question` with `answer` as a learner does: a key or a typed move.
fn give(board: &mut Board, question: &Question, answer: Answer) {
    match answer {
        Answer::Yes => board.char('y'),
        Answer::No => board.char('n'),
        Answer::Window(Outcome::High) => board.char('>'),
        Answer::Window(Outcome::Low) => board.char('<'),
        Answer::Window(Outcome::Inside) => board.char('i'),
        Answer::NoMove | Answer::Leaves(0) => board.typed("none"),
        Answer::Value(v) => board.typed(&v.to_string()),
        Answer::Leaves(bits) => {
            let (replay, _) = board.teach_state().ready().unwrap();
            let tree = replay.tree.game_tree.clone().unwrap();
            let at = replay.tree.tree_node(question.node).unwrap();
            let names: Vec<String> = tree
                .node(at)
                .children
                .iter()
                .enumerate()
                .filter(|(i, _)| bits & (1 << i) != 0)
                .map(|(_, &c)| tree.node(c).name.clone())
                .collect();
            board.typed(&names.join(" "));
        }
        Answer::Move(m) => {
            let position = match question.kind {
                Kind::Refutation => {
                    let (replay, _) = board.teach_state().ready().unwrap();
                    replay.tree.position(question.node)
                }
                _ => question.position.clone(),
            };
            board.typed(&san(&position, m));
        }
    }
}

fn score(board: &Board) -> (u32, u32, u32) {
    let s = board.teach_state().predict.score;
    (s.right, s.wrong, s.skipped)
}

#[test]
fn a_question_a_wrong_answer_with_why_and_the_next_step_without_it() {
    let mut board = trap();
    // The root is asked about before the search enters it: at the first
    // step, "the search starts".
    assert!(pending(&board).is_none(), "nothing to ask before the start");
    board.key(KeyCode::Right);
    assert_eq!(board.step(), 1);
    let question = pending(&board).expect("a question at the root");
    assert_eq!(question.kind, Kind::Choice);
    let screen = board.screen();
    assert!(
        screen.contains("Predict: which move will White"),
        "{screen}"
    );
    assert!(screen.contains("0 right, 0 wrong, 0 skipped"), "{screen}");
    insta::assert_snapshot!("predict_question_80x24", screen);
    // A move the search does not choose, on purpose.
    let Answer::Move(best) = truth(&board, &question) else {
        panic!("the root chooses a move");
    };
    let wrong = question
        .position
        .legal_moves()
        .into_iter()
        .find(|&m| m != best)
        .unwrap();
    board.typed(&san(&question.position, wrong));
    assert_eq!(board.step(), 2, "the answer reveals the step");
    assert_eq!(score(&board), (0, 1, 0));
    let screen = board.screen();
    let chooses = format!("White chooses {}", san(&question.position, best));
    assert!(screen.contains("No: "), "{screen}");
    assert!(screen.contains(&chooses), "{screen}");
    assert!(screen.contains("0 right, 1 wrong, 0 skipped"), "{screen}");
    insta::assert_snapshot!("predict_wrong_answer_80x24", screen);
    // The next step: the verdict is gone, the score stays. Here the root's
    // first move is asked about at once; the right answer counts.
    let question = pending(&board).expect("a question before the first move");
    assert!(
        matches!(
            board.teach_state().ready().unwrap().0.events()[question.at],
            kibitz::engine::trace::TraceEvent::MoveTried { index: 0, .. }
        ),
        "the first move tried"
    );
    let right = truth(&board, &question);
    give(&mut board, &question, right);
    assert_eq!(board.step(), question.at + 1);
    assert_eq!(score(&board), (1, 1, 0));
    let screen = board.screen();
    assert!(!screen.contains("No: "), "{screen}");
    assert!(!screen.contains(&chooses), "{screen}");
    assert!(screen.contains("Right: "), "{screen}");
    assert!(screen.contains("1 right, 1 wrong, 0 skipped"), "{screen}");
    insta::assert_snapshot!("predict_right_answer_80x24", screen);
    // One step on, no verdict is left.
    if pending(&board).is_none() {
        board.key(KeyCode::Right);
        let screen = board.screen();
        assert!(!screen.contains("Right: "), "{screen}");
        insta::assert_snapshot!("predict_next_step_80x24", screen);
    }
    // → without an answer skips the next question and steps on.
    let question = to_next_question(&mut board);
    board.key(KeyCode::Right);
    assert_eq!(board.step(), question.at + 1);
    assert_eq!(score(&board), (1, 1, 1));
    let screen = board.screen();
    assert!(screen.contains("1 right, 1 wrong, 1 skipped"), "{screen}");
    assert!(!screen.contains("Right: "), "{screen}");
    // Back at an answered question: asked once, not again.
    board.key(KeyCode::Left);
    assert!(pending(&board).is_none());
}

#[test]
fn an_answer_that_is_not_one_says_what_is_expected() {
    let mut board = trap();
    let question = to_next_question(&mut board);
    // Not a move of this position.
    board.typed("Ke9");
    assert_eq!(said(&board), question.expected());
    assert!(said(&board).contains("type a legal move after :"));
    // A key of another kind of question.
    board.char('y');
    assert_eq!(said(&board), question.expected());
    assert_eq!(board.step(), question.at);
    assert_eq!(score(&board), (0, 0, 0));
    // A typed move where y or n is wanted.
    let mut cutoff = None;
    for _ in 0..10 {
        board.key(KeyCode::Right);
        if let Some(q) = pending(&board).filter(|q| q.kind == Kind::Cutoff) {
            cutoff = Some(q);
            break;
        }
    }
    let cutoff = cutoff.expect("a cutoff question");
    let mv = cutoff.mv.unwrap();
    board.typed(&san(&cutoff.position, mv));
    assert_eq!(
        said(&board),
        "This question is answered with y or n; → skips it."
    );
    assert!(!said(&board).contains("engine's turn"));
    // Between questions, a typed move is told there is no question.
    board.char('n');
    assert!(pending(&board).is_none());
    board.typed("Kg6");
    assert!(
        said(&board).starts_with("No question waits"),
        "{}",
        said(&board)
    );
}

#[test]
fn a_new_recording_starts_a_new_score_and_auto_play_stops_at_questions() {
    let mut board = trap();
    let question = to_next_question(&mut board);
    let right = truth(&board, &question);
    give(&mut board, &question, right);
    assert_eq!(score(&board), (1, 0, 0));
    // Auto-play stops where the next question waits.
    board.char(' ');
    for _ in 0..20 {
        board.wait(500);
    }
    let next = pending(&board).expect("play stopped at a question");
    assert_eq!(board.step(), next.at);
    assert!(board.teach_state().playing.is_none());
    // Another depth is another recording: the score starts again.
    board.char('[');
    board.serve();
    assert!(board.ready());
    assert_eq!(score(&board), (0, 0, 0));
    assert!(board.teach_state().predict.on, "predict mode stays on");
    assert!(board.screen().contains("0 right, 0 wrong, 0 skipped"));
}

#[test]
fn on_the_three_ply_tree_values_are_typed_and_skipped_leaves_named() {
    let p = curated("stalemate trap");
    let mut board = Board::options((80, 24))
        .no_color()
        .teach(p.position, p.depth);
    let tree = kibitz::teach::GameTree::parse("((3 12 8) (2 4 6) (14 5 2))").unwrap();
    let now = board.now;
    board
        .app
        .teach_lesson(kibitz::teach::Setup::game_tree(tree, None), None, now);
    board.serve();
    assert!(board.ready());
    board.char('P');
    // The root: what value will A return? 12 is the largest leaf of B,
    // not A's value.
    let question = to_next_question(&mut board);
    assert_eq!(question.kind, Kind::Value);
    assert!(board.screen().contains("Predict: what value will A return"));
    board.typed("x");
    assert_eq!(said(&board), question.expected());
    board.typed("12");
    assert_eq!(score(&board), (0, 1, 0));
    let screen = board.screen();
    assert!(
        screen.contains("No: A returns 3 for MAX: MAX takes the largest of its"),
        "{screen}"
    );
    // The message about the answer that was not one went with it.
    assert!(!screen.contains("Not an answer here"), "{screen}");
    // On to C: which of its leaves will alpha-beta never evaluate?
    let mut found = None;
    for _ in 0..60 {
        match pending(&board) {
            Some(q) if q.kind == Kind::Skipped && q.name == "C" => {
                found = Some(q);
                break;
            }
            Some(q) => {
                let right = truth(&board, &q);
                give(&mut board, &q, right);
            }
            None => board.key(KeyCode::Right),
        }
    }
    let c = found.expect("the question about C");
    assert!(board.screen().contains("Predict: which leaves under C"));
    board.typed("C2 C3");
    assert!(
        board
            .screen()
            .contains("Right: C2 and C3 were never evaluated")
    );
    let (right, wrong, skipped) = score(&board);
    assert_eq!((wrong, skipped), (1, 0));
    assert!(right >= 2);
    assert_eq!(board.step(), c.at + 1);
}
