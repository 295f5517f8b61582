//! Teach mode's tree view (`v`, `:tree`), `:goto` and `:export`: the
//! explored tree as an outline at a cutoff, at a table answer, with PVS
//! re-searches, folded and unfolded, at 80 x 24 and 120 x 40; jumps to a
//! line; a lesson written as Markdown.

use kibitz::engine::trace::TraceEvent;
use kibitz::teach::tree::Row;
use ratatui::crossterm::event::KeyCode;

use crate::common::TempHome;
use crate::common::board::{Board, curated};
use crate::snapshot_names as insta;

const PAWN_ENDING: &str = "8/8/8/4k3/8/4K3/4P3/8 w - - 0 1";

/// What the status line says.
fn said(board: &Board) -> String {
    board.status().map(|(text, _)| text).unwrap_or_default()
}

fn pawn_ending(size: (u16, u16)) -> Board {
    let position = kibitz::game::fen::parse_fen(PAWN_ENDING).unwrap();
    Board::teach(position, 2, size)
}

/// The first step that shows an event matching `wanted`.
fn first_step(board: &Board, wanted: impl Fn(&TraceEvent) -> bool) -> usize {
    let (replay, _) = board.teach_state().ready().unwrap();
    replay.events().iter().position(wanted).unwrap() + 1
}

#[test]
fn at_a_cutoff_the_tree_shows_the_cut_branch_the_window_the_pv_and_the_caption() {
    for size in [(120, 40), (80, 24)] {
        let mut board = pawn_ending(size);
        board.char('v');
        let cutoff = first_step(&board, |e| matches!(e, TraceEvent::BetaCutoff { .. }));
        board.typed(&format!("step {cutoff}"));
        assert_eq!(board.step(), cutoff);
        let screen = board.screen();
        assert!(screen.contains("Search tree · node"), "{screen}");
        assert!(screen.contains("cut by Kf4, 7 skipped"), "{screen}");
        assert!(screen.contains("PV so far: Kf3"), "{screen}");
        assert!(
            screen.contains("[+0.92, +inf]"),
            "the window of the cut move: {screen}"
        );
        assert!(
            screen.contains("Cutoff"),
            "the caption says what happened: {screen}"
        );
        // The tree takes the place of the node's outline.
        assert!(!screen.contains("Ply 1 ·"), "{screen}");
        // Where the panel cuts the current node's line, it is written in
        // full under the outline.
        if size.0 == 80 {
            assert!(
                screen.contains("Kd2 … [+0.92, +inf] cut by Kf4, 7 skipped 2 nodes"),
                "{screen}"
            );
        }
        insta::assert_snapshot!(
            format!("tree_pawn_ending_cutoff_{}x{}", size.0, size.1),
            screen
        );
    }
}

#[test]
fn what_a_cutoff_skipped_is_one_folded_line_that_enter_unfolds() {
    let mut board = pawn_ending((80, 24));
    board.char('v');
    let cutoff = first_step(&board, |e| matches!(e, TraceEvent::BetaCutoff { .. }));
    board.typed(&format!("step {cutoff}"));
    let folded = board.screen();
    assert!(folded.contains("+ 7 skipped: cut off by Kf4"), "{folded}");
    assert!(
        !folded.contains("Kd4  cut off"),
        "folded by default: {folded}"
    );
    // The cursor from the cut node (Kd2) past its child Kf4 to the line.
    board.key(KeyCode::Down);
    board.key(KeyCode::Down);
    board.key(KeyCode::Enter);
    let unfolded = board.screen();
    assert!(
        unfolded.contains("- 7 skipped: cut off by Kf4"),
        "{unfolded}"
    );
    let named = ["Kd4", "Ke4", "Kd5", "Kf5", "Kd6", "Ke6", "Kf6"]
        .iter()
        .filter(|m| unfolded.contains(&format!("{m}  cut off by Kf4")))
        .count();
    // At 80 x 24 the tree shows what fits, the cursor's line in view.
    assert!(named >= 3, "{unfolded}");
    insta::assert_snapshot!("tree_pawn_ending_skipped_folded_80x24", folded);
    insta::assert_snapshot!("tree_pawn_ending_skipped_unfolded_80x24", unfolded);
    // Enter on one of the moves folds them again.
    board.key(KeyCode::Down);
    board.key(KeyCode::Enter);
    assert!(board.screen().contains("+ 7 skipped"), "{}", board.screen());
    assert!(
        !board.screen().contains("Kd4  cut off"),
        "{}",
        board.screen()
    );
}

#[test]
fn folding_and_unfolding_and_back_to_the_path() {
    for (w, h) in [(120, 40), (80, 24)] {
        let mut board = pawn_ending((w, h));
        board.char('v');
        board.key(KeyCode::End);
        let folded = board.screen();
        insta::assert_snapshot!(format!("tree_pawn_ending_end_folded_{w}x{h}"), folded);
        // At the end the root is current; the first ply-1 move below it is
        // folded (off the current path).
        board.key(KeyCode::Down);
        let quiescence = |screen: &str| screen.lines().filter(|l| l.contains("quiescence")).count();
        let rows_before = quiescence(&board.screen());
        board.char('z');
        let unfolded = board.screen();
        assert!(
            quiescence(&unfolded) > rows_before,
            "z opened a subtree:\n{unfolded}"
        );
        insta::assert_snapshot!(format!("tree_pawn_ending_end_unfolded_{w}x{h}"), unfolded);
        board.char('z');
        assert_eq!(quiescence(&board.screen()), rows_before);
        board.char('z');
        board.char('Z');
        assert_eq!(board.screen(), folded, "Z folds all but the current path");
    }
}

#[test]
fn j_takes_the_step_to_the_node_under_the_cursor() {
    let mut board = pawn_ending((120, 40));
    board.char('v');
    board.key(KeyCode::End);
    board.key(KeyCode::Down);
    board.char('J');
    let (replay, step) = board.teach_state().ready().unwrap();
    let tree = &replay.tree;
    let current = tree.current(step.applied).unwrap();
    assert_eq!(step.applied, tree.node(current).enter as usize + 1);
    assert!(board.screen().contains("node "), "{}", board.screen());
}

#[test]
fn a_table_answer_is_marked() {
    let p = curated("transpositions");
    let mut board = Board::teach(p.position, 4, (120, 40));
    board.char('v');
    let hit = first_step(&board, |e| {
        matches!(e, TraceEvent::TtProbe { cutoff: true, .. })
    });
    // The step after the probe: the node has returned its table value.
    board.typed(&format!("step {}", hit + 1));
    let screen = board.screen();
    assert!(screen.contains("table answered"), "{screen}");
    insta::assert_snapshot!("tree_transpositions_table_120x40", screen);
}

#[test]
fn pvs_re_searches_are_marked() {
    let p = curated("move ordering");
    let mut board = Board::teach(p.position, 3, (120, 40));
    board.char('5');
    board.serve();
    assert!(board.ready());
    board.char('v');
    let research = first_step(&board, |e| matches!(e, TraceEvent::ReSearch { .. }));
    // The re-searched node entered: two steps on.
    board.typed(&format!("step {}", research + 1));
    let screen = board.screen();
    assert!(screen.contains("re-search"), "{screen}");
    insta::assert_snapshot!("tree_move_ordering_pvs_research_120x40", screen);
}

#[test]
fn the_view_lists_only_what_the_search_has_reached() {
    let mut board = pawn_ending((120, 40));
    board.char('v');
    for _ in 0..20 {
        board.key(KeyCode::Right);
        let (replay, step) = board.teach_state().ready().unwrap();
        let tree = &replay.tree;
        let (rows, _) = board.teach_state().tree_view.rows(tree, step.applied);
        for row in rows {
            if let Row::Node(id) = row {
                assert!(tree.node(id).seen(step.applied));
            }
        }
    }
}

#[test]
fn goto_moves_to_the_first_step_that_reaches_the_line() {
    let mut board = pawn_ending((120, 40));
    board.typed("goto Kd3 Kd5");
    let (replay, step) = board.teach_state().ready().unwrap();
    let tree = &replay.tree;
    let current = tree.current(step.applied).unwrap();
    assert_eq!(tree.line_text(&tree.path(current)[1..]), "Kd3 Kd5");
    let first = (0..tree.len() as u32)
        .find(|&id| tree.node(id).ply == 2 && tree.line_text(&tree.path(id)[1..]) == "Kd3 Kd5")
        .unwrap();
    assert_eq!(step.applied, tree.node(first).enter as usize + 1);
    assert!(said(&board).contains("reaches Kd3 Kd5"), "{}", said(&board));
    board.typed("goto e4");
    assert!(said(&board).contains(":goto e4"), "{}", said(&board));
    board.typed("goto Kd3 Kd5 Kc3");
    assert!(said(&board).contains("never reaches"), "{}", said(&board));
}

#[test]
fn export_writes_the_lesson_as_markdown() {
    let home = TempHome::new("export");
    let mut board = pawn_ending((120, 40));
    let cutoff = first_step(&board, |e| matches!(e, TraceEvent::BetaCutoff { .. }));
    board.typed(&format!("step {cutoff}"));
    let path = home.join("lesson.md");
    board.typed(&format!("export {}", path.display()));
    assert!(said(&board).contains("Lesson written"), "{}", said(&board));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("cut by Kf4, 7 skipped"), "{text}");
    assert!(text.contains("<- here"), "{text}");
    insta::assert_snapshot!("lesson_pawn_ending_cutoff", text);
    // An existing file is kept unless `:export!` says to replace it.
    std::fs::write(&path, "mine").unwrap();
    board.typed(&format!("export {}", path.display()));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "mine");
    assert!(said(&board).contains("exists"), "{}", said(&board));
    board.typed(&format!("export! {}", path.display()));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

#[test]
fn export_agrees_with_out_on_folders_and_devices() {
    let home = TempHome::new("export-where");
    let mut board = pawn_ending((120, 40));
    // A missing folder is refused and named, as `--out` does; none is made.
    let missing = home.join("no/such");
    board.typed(&format!("export {}", missing.join("lesson.md").display()));
    let why = said(&board);
    assert!(
        why.contains(&format!("{}: no such folder", missing.display())),
        "{why}"
    );
    assert!(!home.join("no").exists(), "no folder was made");
    // A device is written into, not replaced: no `:export!` is asked for.
    board.typed("export /dev/null");
    assert!(
        said(&board).contains("Lesson written to /dev/null"),
        "{}",
        said(&board)
    );
    board.typed("export! /dev/null");
    assert!(
        said(&board).contains("Lesson written to /dev/null"),
        "{}",
        said(&board)
    );
    // One that takes no write says so at once.
    board.typed("export /dev/full");
    assert!(
        said(&board).contains("cannot write /dev/full"),
        "{}",
        said(&board)
    );
}

#[test]
fn t_on_a_reviewed_blunder_opens_its_lesson_at_the_move_played() {
    use kibitz::engine::Score;
    use kibitz::review::PositionEval;
    use kibitz::tui::app::Request;
    use kibitz::tui::msg::Msg;
    use shakmaty::{Color, Position};
    let dir = TempHome::new("mistake-lesson");
    let path = dir.join("scholar.pgn");
    std::fs::write(
        &path,
        "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n",
    )
    .unwrap();
    let mut board = Board::new((120, 40));
    board.open(&path, Some(1));
    board.char('R');
    let Some(Request::Review { id, tree, .. }) = board.serve().into_iter().next() else {
        panic!("a review request");
    };
    // The review's verdicts, as the background pass sends them: 3... Nf6??
    // allows mate where the engine wanted 3... g6.
    let positions = kibitz::review::mainline_positions(&tree);
    let mainline = tree.mainline();
    for (ply, (position, _)) in positions.iter().enumerate() {
        let played = mainline.get(ply).and_then(|&n| tree.nodes[n].m);
        let g6 = kibitz::game::notation::parse_move(position, "g6");
        let (score, pv) = match ply {
            5 => (Score::Centipawns(25), vec![g6.unwrap()]),
            6 => (Score::Mate(1), played.into_iter().collect()),
            7 => (Score::Centipawns(0), Vec::new()),
            _ => (Score::Centipawns(30), played.into_iter().collect()),
        };
        let eval = PositionEval {
            score,
            pv,
            depth: 12,
            legal_moves: position.legal_moves().len(),
            mated: (ply == 7).then_some(Color::Black),
        };
        board.update(Msg::Review { id, ply, eval });
    }
    board.update(Msg::ReviewDone { id });
    board.char('n');
    board.char('T');
    board.serve();
    assert!(board.teaching(), "{}", board.screen());
    let lesson = board.teach_state();
    assert_eq!(lesson.title, "3... Nf6??");
    // One ply is enough: quiescence follows the capture Qxf7 and finds it
    // is mate.
    assert_eq!(lesson.setup.depth, 1);
    let (replay, step) = lesson.ready().unwrap();
    let tree = &replay.tree;
    let here = tree.current(step.applied).unwrap();
    assert_eq!(
        tree.line_text(&tree.path(here)[1..]),
        "Nf6",
        "opens where Nf6 is searched"
    );
    let note = lesson.note.clone().unwrap();
    assert!(
        note.contains("Nf6 was a blunder: the review prefers g6"),
        "{note}"
    );
    let screen = board.screen();
    assert!(screen.contains("In the game Nf6 was a blunder"), "{screen}");
    // Esc: back to the analysis board.
    board.key(KeyCode::Esc);
    assert!(board.app.mode.analysis().is_some());
}

#[test]
fn the_current_node_is_marked_by_shape_without_colour() {
    for no_color in [true, false] {
        let mut board = pawn_ending((120, 40));
        board.set_no_color(no_color);
        board.char('v');
        let cutoff = first_step(&board, |e| matches!(e, TraceEvent::BetaCutoff { .. }));
        board.typed(&format!("step {cutoff}"));
        let screen = board.screen();
        // The node that cut off is the current one: its row, and only
        // its row, carries the mark.
        let marked: Vec<&str> = screen.lines().filter(|l| l.contains('▶')).collect();
        assert_eq!(marked.len(), 1, "{screen}");
        assert!(marked[0].contains("cut by"), "{screen}");
        // Another step, another current node: the mark follows.
        board.key(KeyCode::Right);
        board.key(KeyCode::Right);
        let screen = board.screen();
        assert_eq!(
            screen.lines().filter(|l| l.contains('▶')).count(),
            1,
            "{screen}"
        );
    }
}

#[test]
fn a_reviewed_inaccuracy_takes_an() {
    use kibitz::review::Class;
    use kibitz::tui::shared::lesson::{Lesson, Mistake};
    let position = shakmaty::Chess::default();
    let played = kibitz::game::notation::parse_move(&position, "a3").unwrap();
    let best = kibitz::game::notation::parse_move(&position, "e4").unwrap();
    for (class, article) in [
        (Class::Inaccuracy, "was an inaccuracy"),
        (Class::Mistake, "was a mistake"),
    ] {
        let lesson = Lesson::of_mistake(Mistake {
            position: &position,
            history: Vec::new(),
            played,
            best,
            class,
            move_number: 1,
            mover: shakmaty::Color::White,
            margin_cp: 1,
        });
        assert!(
            lesson.description.contains(article),
            "{}",
            lesson.description
        );
    }
}

#[test]
fn a_failed_low_node_says_its_bound_from_both_sides() {
    let mut board = Board::curated("fork", (120, 40));
    // The return of the first node that failed low after searching moves.
    let at = {
        let (replay, _) = board.teach_state().ready().unwrap();
        (1..=replay.len())
            .find(|&at| {
                let step = replay.step(at);
                matches!(replay.event_at(at), Some(TraceEvent::Return { ply, value }) if *ply > 0
                    && step.current().is_some_and(|f| f.value_bound(*value, true)
                        == kibitz::teach::replay::Bound::AtMost))
            })
            .unwrap()
    };
    board.typed(&format!("step {at}"));
    let screen = board.screen();
    // The node's own view and its parent's, each named: "≤" for the side
    // to move here is the "≥" the mover sees.
    assert!(screen.contains("returns ≤ "), "{screen}");
    assert!(screen.contains("(its parent sees ≥ "), "{screen}");
    let (replay, step) = board.teach_state().ready().unwrap();
    let words = kibitz::teach::caption::caption(replay, step);
    assert!(words.contains("At most "), "{words}");
    assert!(words.contains(" is at least "), "{words}");
    assert!(
        words.contains("as the tree and the parent's list show it"),
        "{words}"
    );
    // The tree says whose view its values are.
    board.char('v');
    let screen = board.screen();
    assert!(
        screen.contains("values for the side that moved"),
        "{screen}"
    );
    board.char('w');
    let screen = board.screen();
    assert!(screen.contains("values from White's view"), "{screen}");
}

#[test]
fn on_a_hand_made_tree_the_view_names_the_leaves_a_cutoff_skipped() {
    let tree = kibitz::teach::GameTree::parse("((3 12 8) (2 4 6) (14 5 2))").unwrap();
    let mut board = Board::analysis((80, 24));
    let now = board.now;
    board
        .app
        .teach_lesson(kibitz::teach::Setup::game_tree(tree, None), None, now);
    board.serve();
    assert!(board.ready());
    board.char('v');
    board.key(KeyCode::End);
    // At the end the root is current and B, C, D folded: open C.
    let screen = board.screen();
    // The root's subtree: itself, B, C, D and the 7 leaves evaluated.
    assert!(screen.contains("PV  11 nodes"), "{screen}");
    board.key(KeyCode::Down);
    board.key(KeyCode::Down);
    board.key(KeyCode::Enter);
    let screen = board.screen();
    assert!(screen.contains("+ 2 skipped: cut off by C1"), "{screen}");
    assert!(!screen.contains("C2  cut off"), "{screen}");
    // Past C1 to the skipped line, and Enter.
    board.key(KeyCode::Down);
    board.key(KeyCode::Down);
    board.key(KeyCode::Enter);
    let screen = board.screen();
    assert!(screen.contains("- 2 skipped: cut off by C1"), "{screen}");
    assert!(
        screen.contains("C2  cut off by C1 (beta reached)"),
        "{screen}"
    );
    assert!(
        screen.contains("C3  cut off by C1 (beta reached)"),
        "{screen}"
    );
}
