//! The analysis board without a terminal: `App` driven by messages, its
//! requests carried out by hand, the screen drawn on ratatui's `TestBackend`
//! and compared with insta snapshots.
#![allow(clippy::unwrap_used)]

use std::time::Duration;

use kibitz::engine::{Bound, Command, Report, Score, SearchInfo};
use kibitz::game::import::read_games;
use kibitz::game::notation::parse_uci;
use kibitz::review::PositionEval;
use kibitz::tui::app::{Confirm, ListEvent, Overlay, Request};
use kibitz::tui::msg::Msg;
use kibitz::tui::overlays::review_all::ReviewAllEvent;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use shakmaty::{Chess, Color, Position};

use crate::common;
use crate::common::board::{Board, MessageText};
use crate::snapshot_names as insta;

const W: u16 = 110;
const H: u16 = 34;

/// A board with game `number` of a test-data file on the analysis board.
fn with_game(file: &str, number: usize) -> Board {
    let mut h = Board::new((W, H));
    let path = common::testdata(file);
    h.open(&path, Some(number));
    h
}

#[test]
fn opening_a_game_puts_it_on_the_analysis_board() {
    let h = with_game("pgn/kasparov-deep-blue-1997.pgn", 6);
    assert!(h.app.mode.analysis().is_some());
    assert_eq!(h.tree().mainline().len(), 37);
    assert_eq!(h.cursor(), 0);
    assert_eq!(h.app.cx.overlay, Overlay::None);
    assert!(h.message().contains("Game 6"), "{}", h.message());
}

#[test]
fn walking_the_main_line_and_its_ends() {
    let mut h = with_game("pgn/kasparov-deep-blue-1997.pgn", 6);
    for _ in 0..4 {
        h.key(KeyCode::Right);
    }
    assert_eq!(h.ply(), 4);
    assert_eq!(
        h.app.cx.board.game.len(),
        4,
        "the board shows the line to the cursor"
    );
    h.key(KeyCode::Left);
    assert_eq!(h.ply(), 3);
    h.key(KeyCode::End);
    assert_eq!(h.ply(), 37);
    h.key(KeyCode::Right);
    assert_eq!(h.ply(), 37, "no move after the end");
    h.key(KeyCode::Home);
    assert_eq!(h.ply(), 0);
    h.key(KeyCode::Left);
    assert_eq!(h.ply(), 0);
}

#[test]
fn every_move_restarts_the_analysis_and_old_reports_are_dropped() {
    let mut h = with_game("pgn/kasparov-deep-blue-1997.pgn", 6);
    let searches = h.go_requests();
    let (first, multipv, infinite) = *searches.last().unwrap();
    assert_eq!((multipv, infinite), (3, true));
    h.key(KeyCode::Right);
    let second = h.last_search();
    assert!(second > first);
    // A late report about the start position must not show on ply 1.
    h.update(Msg::Engine(Report::Info(Box::new(SearchInfo {
        search_id: first,
        multipv: 1,
        depth: 30,
        seldepth: 30,
        score: Score::Centipawns(999),
        bound: Bound::Exact,
        pv: vec![parse_uci(&Chess::default(), "d2d4").unwrap()],
        nodes: 1,
        nps: 1,
        hashfull: 0,
        elapsed: Duration::ZERO,
        complete: true,
    }))));
    assert!(h.app.mode.analysis().unwrap().lines.shown.is_empty());
    h.info(second, 1, -20, &["c7c6"]);
    h.info(second, 2, -30, &["e7e5"]);
    // Shown only when the iteration's three lines are all in.
    assert!(h.app.mode.analysis().unwrap().lines.shown.is_empty());
    assert!(h.app.mode.analysis().unwrap().first_line.is_none());
    h.info(second, 3, -40, &["d7d5"]);
    let lines = &h.app.mode.analysis().unwrap().lines.shown;
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0].san, vec!["c6"]);
    // The score is shown from White's side: -20 for Black to move is +0.20.
    assert_eq!(lines[0].score, Score::Centipawns(20));
    assert!(h.app.mode.analysis().unwrap().first_line.is_some());
}

#[test]
fn lines_can_be_added_removed_and_played() {
    let mut h = with_game("pgn/kasparov-deep-blue-1997.pgn", 6);
    h.searches();
    h.key(KeyCode::Char('+'));
    h.key(KeyCode::Char('+'));
    h.key(KeyCode::Char('+'));
    let (id, multipv, _) = *h.go_requests().last().unwrap();
    assert_eq!(multipv, 5, "at most five lines");
    h.key(KeyCode::Char('-'));
    let (id2, multipv, _) = *h.go_requests().last().unwrap();
    assert_eq!(multipv, 4);
    assert!(id2 > id);
    h.info(id2, 1, 20, &["d2d4", "d7d5"]);
    h.info(id2, 2, 10, &["c2c4"]);
    h.info(id2, 3, 5, &["g1f3"]);
    h.info(id2, 4, 0, &["b1c3"]);
    // Playing line 2 adds 1. c4 as a variation beside the game's 1. e4.
    h.key(KeyCode::Char('2'));
    assert_eq!(h.tree().nodes[h.cursor()].san, "c4");
    assert_eq!(h.tree().nodes[0].children.len(), 2);
    assert!(h.app.unsaved());
    h.key(KeyCode::Char('5'));
    assert!(h.message().contains("No engine line 5"), "{}", h.message());
}

#[test]
fn moves_add_variations_or_follow_existing_ones_and_can_be_promoted_and_deleted() {
    let mut h = with_game("pgn/kasparov-deep-blue-1997.pgn", 6);
    let nodes = h.tree().nodes.len();
    // 1. e4 is the game's move: following it adds nothing.
    h.typed("e4");
    assert_eq!(h.tree().nodes.len(), nodes);
    assert!(!h.app.unsaved());
    // 1... e5 instead of the game's 1... c6: a variation.
    h.typed("e5");
    assert_eq!(h.tree().nodes.len(), nodes + 1);
    let e5 = h.cursor();
    assert!(!h.tree().on_mainline(e5));
    assert!(h.message().contains("New variation e5"));
    h.typed("Nf3");
    assert_eq!(h.ply(), 3);
    // Up and Down step between 1... c6 and 1... e5.
    h.key(KeyCode::Left);
    h.key(KeyCode::Up);
    assert_eq!(h.tree().nodes[h.cursor()].san, "c6");
    h.key(KeyCode::Down);
    assert_eq!(h.cursor(), e5);
    // Promote: 1... e5 becomes the main line.
    h.key(KeyCode::Char('p'));
    assert!(h.tree().on_mainline(e5));
    assert_eq!(h.tree().mainline().len(), 3);
    // Promote it back down by promoting c6, then delete the e5 line.
    let c6 = h.tree().nodes[0].children[0];
    let c6 = h.tree().nodes[c6].children[1];
    h.goto(c6);
    h.key(KeyCode::Char('p'));
    assert_eq!(h.tree().mainline().len(), 37);
    h.goto(e5);
    h.key(KeyCode::Delete);
    assert_eq!(h.app.cx.overlay, Overlay::Confirm(Confirm::Delete));
    h.key(KeyCode::Char('y'));
    assert_eq!(h.tree().nodes.len(), nodes, "e5 and Nf3 are gone");
    assert_eq!(h.ply(), 1, "the cursor is on 1. e4");
    assert_eq!(h.tree().nodes[h.cursor()].san, "e4");
}

#[test]
fn comments_and_nags_are_edited_and_saved_as_pgn() {
    let mut h = with_game("pgn/kasparov-deep-blue-1997.pgn", 6);
    h.key(KeyCode::Right);
    h.key(KeyCode::Char('c'));
    assert_eq!(h.app.cx.input.as_deref(), Some("comment "));
    h.keys("The king's pawn.");
    h.key(KeyCode::Enter);
    h.typed("nag !");
    h.typed("nag ?!");
    h.typed("nag $14");
    let node = &h.tree().nodes[h.cursor()];
    assert_eq!(node.comments, vec!["The king's pawn."]);
    assert_eq!(
        node.nags,
        vec![6, 14],
        "one quality mark, replaced; others add up"
    );
    let pgn = h.tree().to_pgn();
    assert!(pgn.contains("1. e4 $6 $14 { The king's pawn. }"), "{pgn}");
    // The edited tree reads back the same.
    let mut again = Vec::new();
    read_games(pgn.as_bytes(), &mut |t| {
        again.push(t);
        true
    })
    .unwrap();
    assert_eq!(again[0].nodes, h.tree().nodes);
    h.typed("nag bogus");
    assert!(h.message().contains("nag takes"));
}

/// The lines shown: `(first move in SAN, score from White's view in cp)`.
fn shown(h: &Board) -> Vec<(String, Score)> {
    h.app
        .mode
        .analysis()
        .unwrap()
        .lines
        .shown
        .iter()
        .map(|l| (l.san[0].clone(), l.score))
        .collect()
}

#[test]
fn the_lines_are_one_finished_iteration_exact_distinct_and_best_first() {
    // Ply 1 of the Deep Blue game: Black to move, three lines.
    let mut h = with_game("pgn/kasparov-deep-blue-1997.pgn", 6);
    h.key(KeyCode::Right);
    let id = h.last_search();
    let cp = |n| Score::Centipawns(n);
    h.report(id, 1, 10, -20, Bound::Exact, true, &["c7c6"]);
    h.report(id, 2, 10, -30, Bound::Exact, true, &["e7e5"]);
    h.report(id, 3, 10, -40, Bound::Exact, true, &["d7d5"]);
    let depth_10 = vec![
        ("c6".to_string(), cp(20)),
        ("e5".to_string(), cp(30)),
        ("d5".to_string(), cp(40)),
    ];
    assert_eq!(shown(&h), depth_10);
    // Depth 11: an aspiration failure is a bound, not a score; the new
    // best move (e5) may not sit beside the old line 2 (e5 again).
    h.report(id, 1, 11, 50, Bound::Lower, true, &["e7e5"]);
    h.report(id, 1, 11, 25, Bound::Exact, true, &["e7e5"]);
    // A heartbeat repeats the last line with fresh counts only.
    h.report(id, 1, 11, -20, Bound::Exact, false, &["c7c6"]);
    assert_eq!(shown(&h), depth_10);
    assert_eq!(h.app.mode.analysis().unwrap().lines.searching, Some(11));
    // Line 3 of depth 11 comes back better for Black than line 2: the
    // panel orders by score from the side to move.
    h.report(id, 2, 11, -35, Bound::Exact, true, &["c7c6"]);
    h.report(id, 3, 11, -30, Bound::Exact, true, &["d7d5"]);
    assert_eq!(
        shown(&h),
        vec![
            ("e5".to_string(), cp(-25)),
            ("d5".to_string(), cp(30)),
            ("c6".to_string(), cp(35)),
        ]
    );
    let screen = h.screen();
    assert!(screen.contains("depth 11"), "{screen}");
    assert!(
        !screen.contains("+0.50") && !screen.contains("-0.50"),
        "{screen}"
    );
}

#[test]
fn the_analysis_screen_with_three_lines() {
    let mut h = with_game("pgn/kasparov-deep-blue-1997.pgn", 6);
    for _ in 0..8 {
        h.key(KeyCode::Right);
    }
    h.typed("comment A sharp line.");
    let id = h.last_search();
    h.info(id, 1, 35, &["g1f3", "g8f6", "f1d3"]);
    h.info(id, 2, 20, &["f1d3", "g8f6"]);
    h.info(id, 3, -10, &["c2c3", "g8f6"]);
    insta::assert_snapshot!("analysis_multipv", h.screen());
}

#[test]
fn the_game_list_fills_searches_and_opens() {
    let mut h = Board::new((W, H));
    let path = common::testdata("pgn/kasparov-deep-blue-1997.pgn");
    h.open(&path, None);
    assert_eq!(h.app.cx.overlay, Overlay::GameList);
    let list = h.app.cx.game_list.as_ref().unwrap();
    assert!(list.done);
    assert_eq!(list.games.len(), 6);
    insta::assert_snapshot!("game_list", h.screen());
    h.keys("caro");
    assert_eq!(h.app.cx.game_list.as_ref().unwrap().shown.len(), 2);
    h.key(KeyCode::Down);
    h.key(KeyCode::Enter);
    let requests = h.app.take_requests();
    assert_eq!(
        requests,
        vec![Request::LoadGame {
            path: path.clone(),
            number: 6
        }]
    );
    h.key(KeyCode::Backspace);
}

#[test]
fn a_file_of_one_game_opens_that_game() {
    let mut h = Board::new((W, H));
    let path = common::testdata("pgn/anastasian-lewis.pgn");
    h.open(&path, None);
    h.serve();
    assert!(h.app.mode.analysis().is_some());
    assert_eq!(h.app.cx.overlay, Overlay::None);
    assert_eq!(h.tree().mainline().len(), 84);
}

#[test]
fn an_illegal_move_is_reported_when_the_game_opens() {
    let dir = common::TempHome::new("illegal");
    let path = dir.join("bad.pgn");
    std::fs::write(
        &path,
        "[White \"A\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n[White \"B\"]\n\n1. d4 *\n",
    )
    .unwrap();
    let mut h = Board::new((W, H));
    h.open(&path, Some(1));
    assert!(h.app.mode.analysis().is_some());
    assert_eq!(h.tree().mainline().len(), 2, "the moves before it are kept");
    assert!(
        h.message().contains("game 1, ply 3: 'Ke3'"),
        "{}",
        h.message()
    );
    // Saving back keeps the moves kibitz could not read, as text in a
    // comment where the game stops: nothing of the file is lost.
    // Editing the comment of the move where the game stops keeps them too.
    h.key(KeyCode::End);
    h.typed("comment checked");
    h.key(KeyCode::Char('s'));
    assert!(!h.app.unsaved(), "{}", h.message());
    let text = std::fs::read_to_string(&path).unwrap();
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains(
            "1. e4 e5 { checked } { kibitz could not read these moves, kept as text: 2. Ke3 Nc6 } *"
        ),
        "{text}"
    );
    assert!(text.contains("[White \"B\"]"), "{text}");
    assert!(text.contains("1. d4 *"), "{text}");
}

#[test]
fn saving_writes_the_whole_file_back_with_the_edited_game() {
    let dir = common::TempHome::new("save");
    let path = dir.join("two.pgn");
    let text = "[Event \"One\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 { first } 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n\
                [Event \"Two\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\n1. d4 d5 2. c4 *\n";
    std::fs::write(&path, text).unwrap();
    let mut h = Board::new((W, H));
    h.open(&path, Some(2));
    h.key(KeyCode::Right);
    h.typed("Nf6");
    assert!(h.app.unsaved());
    // Quitting asks first.
    h.key(KeyCode::Char('q'));
    assert_eq!(h.app.cx.overlay, Overlay::Confirm(Confirm::QuitUnsaved));
    h.key(KeyCode::Char('n'));
    assert!(!h.app.cx.quit);
    h.key(KeyCode::Char('s'));
    assert!(!h.app.unsaved(), "{}", h.message());
    assert!(h.message().contains("game 2 of 2"), "{}", h.message());
    let mut games = Vec::new();
    read_games(std::fs::File::open(&path).unwrap(), &mut |t| {
        games.push(t);
        true
    })
    .unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].mainline().len(), 7);
    assert_eq!(games[0].nodes[2].comments, vec!["first"]);
    assert_eq!(games[1].to_pgn(), h.tree().to_pgn(), "the edited game");
    assert_eq!(games[1].nodes[1].children.len(), 2);
    // This game alone to a new file; an existing file is not overwritten.
    let single = dir.join("single.pgn");
    h.typed(&format!("save {}", single.display()));
    let mut read = Vec::new();
    read_games(std::fs::File::open(&single).unwrap(), &mut |t| {
        read.push(t);
        true
    })
    .unwrap();
    assert_eq!(read.len(), 1);
    let other = dir.join("other.pgn");
    std::fs::write(&other, "keep me").unwrap();
    h.typed(&format!("save {}", other.display()));
    assert!(h.message().contains("exists"), "{}", h.message());
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "keep me");
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().contains("tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temp files left: {leftovers:?}");
}

#[test]
fn a_file_another_program_changed_is_not_written_over() {
    let dir = common::TempHome::new("outside-edit");
    let path = dir.join("mine.pgn");
    let mut h = Board::analysis((W, H));
    h.typed("e4");
    h.typed(&format!("save {}", path.display()));
    assert!(h.message().contains("Saved"), "{}", h.message());
    // Another program adds a comment: the next save keeps it and says why.
    let edited = std::fs::read_to_string(&path)
        .unwrap()
        .replace("1. e4", "1. e4 { added elsewhere }");
    std::fs::write(&path, &edited).unwrap();
    h.typed("e5");
    h.typed("save");
    assert!(
        h.message().contains("another program changed"),
        "{}",
        h.message()
    );
    assert!(h.message().contains(":save!"), "{}", h.message());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
    assert!(h.app.unsaved());
    // A game put in front of it: game 1 is that one now, not replaced.
    let prepended = format!("[Event \"First\"]\n\n1. d4 *\n\n{edited}");
    std::fs::write(&path, &prepended).unwrap();
    h.key(KeyCode::Char('s'));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), prepended);
    // `:save!` writes anyway, as it said.
    h.typed("save!");
    assert!(!h.app.unsaved(), "{}", h.message());
    assert!(std::fs::read_to_string(&path).unwrap().contains("e5"));
    // A file touched but not changed is the same file.
    let file = std::fs::File::options().write(true).open(&path).unwrap();
    file.set_modified(std::time::SystemTime::UNIX_EPOCH)
        .unwrap();
    drop(file);
    h.typed("Nf3");
    h.typed("save");
    assert!(!h.app.unsaved(), "{}", h.message());
    assert!(std::fs::read_to_string(&path).unwrap().contains("Nf3"));
}

#[test]
fn a_game_opened_from_a_file_changed_since_is_not_saved_over_it() {
    let dir = common::TempHome::new("outside-open");
    let path = dir.join("games.pgn");
    std::fs::write(&path, "[Event \"A\"]\n\n1. e4 e5 *\n").unwrap();
    let mut h = Board::new((W, H));
    h.open(&path, Some(1));
    h.key(KeyCode::End);
    h.typed("Nf3");
    let prepended = "[Event \"New\"]\n\n1. c4 *\n\n[Event \"A\"]\n\n1. e4 e5 *\n";
    std::fs::write(&path, prepended).unwrap();
    h.key(KeyCode::Char('s'));
    assert!(
        h.message().contains("another program changed"),
        "{}",
        h.message()
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), prepended);
    // Forced, the game is written where it now stands (found by its tags),
    // never over the game another program put in its place.
    h.typed("save!");
    let written = std::fs::read_to_string(&path).unwrap();
    let first = written.find("1. c4").unwrap();
    let second = written.find("Nf3").unwrap();
    assert!(first < second, "{written}");
    assert_eq!(written.matches("[Event").count(), 2, "{written}");
    assert!(written.contains("[Event \"New\"]"), "{written}");
}

#[test]
fn pasting_a_fen_or_a_pgn_loads_it() {
    let mut h = Board::new((W, H));
    let fen = "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1";
    h.update(Msg::Paste(format!("{fen}\n")));
    assert!(h.app.mode.analysis().is_some());
    assert_eq!(h.app.cx.board.game.fen(), fen);
    h.typed("e4");
    assert!(h.app.unsaved());
    // A pasted PGN would drop the unsaved move: asks first.
    h.update(Msg::Paste(
        "[Event \"x\"]\n\n1. f4 e5 2. g4 Qh4# 0-1\n".into(),
    ));
    assert_eq!(h.app.cx.overlay, Overlay::Confirm(Confirm::Discard));
    h.key(KeyCode::Char('y'));
    assert_eq!(h.tree().mainline().len(), 4);
    assert_eq!(h.tree().result, "0-1");
    // Text that is neither lands on the command line for editing.
    h.update(Msg::Paste("hello".into()));
    assert_eq!(h.app.cx.input.as_deref(), Some("hello"));
}

#[test]
fn review_results_mark_moves_and_are_written_into_the_game() {
    let dir = common::TempHome::new("review");
    let path = dir.join("scholar.pgn");
    std::fs::write(&path, "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n").unwrap();
    let mut h = Board::new((W, H));
    h.open(&path, Some(1));
    h.key(KeyCode::Char('R'));
    let requests = h.serve();
    let Some(Request::Review { id, tree, .. }) = requests.into_iter().next() else {
        panic!("a review request");
    };
    // The review's results, as the background pass would send them: White
    // keeps a small edge until 3... Nf6?? allows mate (the engine wanted
    // 3... g6).
    let scores = [30, 35, 30, 40, 20, 25];
    let positions = kibitz::review::mainline_positions(&tree);
    let mainline = tree.mainline();
    for (ply, (position, _)) in positions.iter().enumerate() {
        let played = mainline.get(ply).and_then(|&n| tree.nodes[n].m);
        let (score, pv) = match ply {
            5 => (
                Score::Centipawns(25),
                vec![parse_uci(position, "g7g6").unwrap()],
            ),
            6 => (Score::Mate(1), played.into_iter().collect()),
            7 => (Score::Centipawns(0), Vec::new()),
            _ => (Score::Centipawns(scores[ply]), played.into_iter().collect()),
        };
        let eval = PositionEval {
            score,
            pv,
            depth: 12,
            legal_moves: position.legal_moves().len(),
            mated: (ply == 7).then_some(Color::Black),
        };
        assert!(h.message().starts_with("Reviewing"), "{}", h.message());
        h.update(Msg::Review { id, ply, eval });
        // The status line follows the pass.
        let progress = format!("Reviewing: {} of {}", ply + 1, positions.len());
        assert!(h.message().contains(&progress), "{}", h.message());
    }
    h.update(Msg::ReviewDone { id });
    assert!(h.message().contains("1 blunder ("), "{}", h.message());
    h.key(KeyCode::Char('n'));
    assert_eq!(h.tree().nodes[h.cursor()].san, "Nf6");
    insta::assert_snapshot!("analysis_review", h.screen());
    h.typed("annotate");
    let pgn = h.tree().to_pgn();
    assert!(pgn.contains("Nf6 $4"), "{pgn}");
    assert!(pgn.contains("[%eval"), "{pgn}");
    let nf6 = h.cursor();
    let parent = h.tree().nodes[nf6].parent.unwrap();
    assert_eq!(
        h.tree().nodes[parent].children.len(),
        2,
        "the better move as a variation"
    );
    // Promoting the better line changes the main line: the review goes.
    let better = h.tree().nodes[parent].children[1];
    h.goto(better);
    h.key(KeyCode::Char('p'));
    assert!(h.app.mode.analysis().unwrap().review.is_none());
}

#[test]
fn clicking_a_move_in_the_list_goes_there() {
    let mut h = with_game("pgn/kasparov-deep-blue-1997.pgn", 6);
    let screen = h.screen();
    // Find "Nc3" (3. Nc3) on screen and click it.
    let (row, line) = screen
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("3. Nc3"))
        .unwrap();
    let col = line.chars().collect::<Vec<_>>();
    let text: String = col.iter().collect();
    let byte = text.find("Nc3").unwrap();
    let column = text[..byte].chars().count() as u16;
    h.click(column + 1, row as u16);
    assert_eq!(h.tree().nodes[h.cursor()].san, "Nc3");
    assert_eq!(h.ply(), 5);
}

#[test]
fn the_analysis_board_from_the_new_game_dialog_and_from_a_finished_game() {
    let mut h = Board::new((W, H));
    // Side: White, Black, Random, Two players, Analysis board.
    for _ in 0..4 {
        h.key(KeyCode::Right);
    }
    h.key(KeyCode::Enter);
    assert!(h.app.mode.analysis().is_some());
    assert_eq!(h.app.cx.board.game.position().turn(), Color::White);
    h.typed("f3");
    h.typed("e5");
    h.typed("g4");
    h.typed("Qh4#");
    assert!(h.screen().contains("mate"));
    assert!(!h.app.human_to_move(), "no moves after mate");
}

#[test]
fn a_new_game_from_the_analysis_board_stops_the_analysis_and_asks_about_unsaved_work() {
    let mut h = with_game("pgn/kasparov-deep-blue-1997.pgn", 6);
    h.typed("d4");
    assert!(h.app.unsaved());
    h.typed("new");
    assert_eq!(h.app.cx.overlay, Overlay::Confirm(Confirm::Discard));
    h.key(KeyCode::Char('y'));
    assert!(matches!(h.app.cx.overlay, Overlay::NewGame(_)));
    h.app.take_commands();
    h.key(KeyCode::Enter);
    assert!(h.app.mode.analysis().is_none());
    let commands = h.app.take_commands();
    assert!(
        commands.iter().any(|c| matches!(c, Command::Stop)),
        "the endless analysis is stopped: {commands:?}"
    );
    // Ctrl-C with unsaved analysis asks once, then quits.
    let mut h = with_game("pgn/kasparov-deep-blue-1997.pgn", 6);
    h.typed("d4");
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    h.update(Msg::Key(ctrl_c, h.now));
    assert_eq!(h.app.cx.overlay, Overlay::Confirm(Confirm::QuitUnsaved));
    assert!(!h.app.cx.quit);
    h.update(Msg::Key(ctrl_c, h.now));
    assert!(h.app.cx.quit);
}

#[test]
fn what_could_lose_work_is_refused_or_asked() {
    // A file that is not UTF-8: writing it back would change the other
    // game's names, so saving into it is refused and the file kept.
    let dir = common::TempHome::new("latin1");
    let path = dir.join("latin1.pgn");
    let mut bytes = b"[White \"M".to_vec();
    bytes.push(0xfc); // ü in Latin-1
    bytes.extend_from_slice(b"ller\"]\n\n1. e4 *\n\n[White \"B\"]\n\n1. d4 *\n");
    std::fs::write(&path, &bytes).unwrap();
    let mut h = Board::new((W, H));
    h.open(&path, Some(2));
    h.key(KeyCode::Right);
    h.typed("d5");
    h.key(KeyCode::Char('s'));
    assert!(h.message().contains("not UTF-8"), "{}", h.message());
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    assert!(h.app.unsaved());

    // A `}` typed into a comment cannot end the comment early in the PGN.
    h.typed("comment see {this} line");
    let pgn = h.tree().to_pgn();
    let mut again = Vec::new();
    read_games(pgn.as_bytes(), &mut |t| {
        again.push(t);
        true
    })
    .unwrap();
    assert_eq!(again[0].mainline().len(), 2, "{pgn}");
    assert!(
        again[0]
            .nodes
            .iter()
            .any(|n| n.comments == ["see {this) line"]),
        "{pgn}"
    );

    // Pasting while typing adds to the text, it does not load a game.
    h.key(KeyCode::Char('c'));
    h.update(Msg::Paste("1. d4 is better".into()));
    assert_eq!(
        h.app.cx.input.as_deref(),
        Some("comment see {this} line1. d4 is better")
    );
    h.key(KeyCode::Esc);

    // Opening the file's list replaces nothing; leaving it keeps the work
    // marked unsaved.
    h.open(&path, None);
    assert_eq!(h.app.cx.overlay, Overlay::GameList);
    h.key(KeyCode::Esc);
    assert!(h.app.unsaved());
    // A game from the list asks first; "no" keeps the board.
    h.open(&path, None);
    h.key(KeyCode::Enter);
    assert_eq!(h.app.cx.overlay, Overlay::Confirm(Confirm::Discard));
    h.key(KeyCode::Char('n'));
    assert!(h.app.unsaved());
    assert_eq!(h.tree().mainline().len(), 2);
    // A typed FEN asks too.
    h.typed("fen 8/8/8/4k3/8/8/4P3/4K3 w - - 0 1");
    assert_eq!(h.app.cx.overlay, Overlay::Confirm(Confirm::Discard));
    h.key(KeyCode::Char('y'));
    assert_eq!(h.app.cx.board.game.fen(), "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1");
    assert!(!h.app.unsaved());
}

#[test]
fn a_stale_game_list_reader_is_ignored() {
    let mut h = Board::new((W, H));
    let path = common::testdata("pgn/kasparov-deep-blue-1997.pgn");
    h.app.open_path(path.clone(), None);
    let first = h.app.take_requests();
    h.app.open_path(path, None);
    h.serve();
    assert_eq!(h.app.cx.game_list.as_ref().unwrap().games.len(), 6);
    // The first reading's games arrive late: not added twice.
    let Request::ListGames { id, .. } = &first[0] else {
        panic!("a list request: {first:?}");
    };
    let batch = h.app.cx.game_list.as_ref().unwrap().games.clone();
    h.update(Msg::GameList {
        id: *id,
        event: ListEvent::Games(batch),
    });
    assert_eq!(h.app.cx.game_list.as_ref().unwrap().games.len(), 6);
}

#[test]
fn nested_variations_are_indented_and_closed() {
    let dir = common::TempHome::new("nested");
    let path = dir.join("vars.pgn");
    std::fs::write(
        &path,
        "[White \"W\"]\n[Black \"B\"]\n\n{Start} 1. e4 e5 (1... c5 {Sicilian} 2. Nf3 (2. c3 d5 (2... Nf6)) 2... d6) \
         2. Nf3 {[%clk 0:04:58] Develops.} Nc6 $1 *\n",
    )
    .unwrap();
    let mut h = Board::new((W, H));
    h.open(&path, Some(1));
    let analysis = h.app.mode.analysis().unwrap();
    let rows = kibitz::tui::modes::analyse::move_rows::move_rows(analysis, 40);
    let text: Vec<String> = rows
        .iter()
        .map(|row| {
            let mut line = String::new();
            for t in row {
                while line.chars().count() < usize::from(t.x) {
                    line.push(' ');
                }
                line.push_str(&t.text);
            }
            line
        })
        .collect();
    assert_eq!(
        text,
        vec![
            "Start 1. e4 e5",
            "  (1... c5 Sicilian 2. Nf3",
            "    (2. c3 d5",
            "      (2... Nf6))",
            "  2... d6)",
            "2. Nf3 [4:58] Develops. 2... Nc6!",
        ]
    );
    // The tokens name their nodes: every move of the tree is clickable.
    let moves = rows.iter().flatten().filter(|t| t.node.is_some()).count();
    assert_eq!(moves, analysis.tree.nodes.len() - 1);
}

#[test]
fn every_terminal_size_draws_without_panicking() {
    let mut h = with_game("pgn/kasparov-deep-blue-1997.pgn", 2);
    for _ in 0..30 {
        h.key(KeyCode::Right);
    }
    h.typed("comment a long comment with several words to wrap around the narrow panel");
    let id = h.last_search();
    h.info(id, 1, 35, &[]);
    h.key(KeyCode::Char('b'));
    h.key(KeyCode::Char('R'));
    let requests = h.serve();
    let Some(Request::Review { id, .. }) = requests.into_iter().next() else {
        panic!("a review request");
    };
    h.update(Msg::Review {
        id,
        ply: 3,
        eval: PositionEval {
            score: Score::Mate(-4),
            pv: Vec::new(),
            depth: 1,
            legal_moves: 20,
            mated: None,
        },
    });
    for (w, hgt) in [
        (60, 18),
        (61, 19),
        (80, 24),
        (100, 30),
        (200, 60),
        (59, 17),
        (20, 5),
        (1, 1),
    ] {
        h.update(Msg::Resize(w, hgt));
        h.buffer();
        // Clicks anywhere land somewhere sensible or nowhere.
        for (x, y) in [
            (0, 0),
            (w - 1, hgt - 1),
            (w / 2, hgt / 2),
            (w * 3 / 4, hgt / 3),
        ] {
            h.click(x, y);
        }
    }
}

/// The analysis panel's lines over real searches: for every report a
/// search sends (finished lines, aspiration failures, heartbeats), the
/// lines shown never repeat a first move, are ordered best first for the
/// side to move, and where Syzygy tables cover the position never
/// contradict them. Middlegames from the Bratko-Kopec suite, and random
/// endings of three to five pieces.
mod lines_property {
    use std::sync::{Mutex, OnceLock};
    use std::time::Instant;

    use kibitz::engine::level::Level;
    use kibitz::engine::{Command, Engine, GoRequest, Limits, Report, Score, SearchOptions};
    use kibitz::game::fen::parse_fen;
    use kibitz::tablebase::{Builtin, Tablebases};
    use kibitz::text::score_rank;
    use kibitz::tui::engine_line::AnalysisLines;
    use proptest::prelude::*;
    use shakmaty::{
        Bitboard, Board, CastlingMode, Chess, Color, EnPassantMode, Piece, Position, Role, Setup,
        Square,
    };

    struct Fixture {
        engine: Engine,
        tables: std::sync::Arc<Tablebases>,
        /// An independent reader of the same tables, for the verdicts.
        syzygy: shakmaty_syzygy::Tablebase<Chess>,
        next_id: u64,
    }

    fn fixture() -> &'static Mutex<Fixture> {
        static FIXTURE: OnceLock<Mutex<Fixture>> = OnceLock::new();
        FIXTURE.get_or_init(|| {
            let dir = super::common::testdata("syzygy");
            let mut tables = Tablebases::new(Builtin::new());
            tables.add_syzygy(&dir).unwrap();
            let tables = std::sync::Arc::new(tables);
            let engine = Engine::new(16).unwrap();
            engine.send(Command::SetTablebases(Some(std::sync::Arc::clone(&tables))));
            let mut syzygy = shakmaty_syzygy::Tablebase::new();
            syzygy.add_directory(&dir).unwrap();
            Mutex::new(Fixture {
                engine,
                tables,
                syzygy,
                next_id: 0,
            })
        })
    }

    /// Analyse `position` as the board does and check the lines after every
    /// report; the number of reports seen.
    fn check(position: &Chess, depth: u32, multipv: usize) -> usize {
        let mut f = fixture().lock().unwrap_or_else(|e| e.into_inner());
        f.next_id += 1;
        let id = f.next_id;
        f.engine.send(Command::Go(Box::new(GoRequest {
            search_id: id,
            position: position.clone(),
            history: Vec::new(),
            limits: Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            options: SearchOptions {
                multipv,
                ..SearchOptions::default()
            },
            level: Level::default(),
            book: false,
            received: Instant::now(),
        })));
        let mut lines = AnalysisLines::default();
        let mut reports = 0;
        let turn = position.turn();
        loop {
            let report = f.engine.reports().recv().unwrap();
            if report.search_id() != id {
                continue;
            }
            match report {
                Report::Info(info) => {
                    reports += 1;
                    lines.accept(position, multipv, &info, Some(&f.tables));
                }
                Report::BestMove { .. } => return reports,
                _ => continue,
            }
            let firsts: Vec<_> = lines.shown.iter().map(|l| l.pv[0]).collect();
            for (i, m) in firsts.iter().enumerate() {
                assert!(!firsts[..i].contains(m), "{m} twice: {:?}", lines.shown);
            }
            let ranks: Vec<i64> = lines
                .shown
                .iter()
                .map(|l| score_rank(l.score.for_white(turn)))
                .collect();
            assert!(
                ranks.windows(2).all(|w| w[0] >= w[1]),
                "not best first: {:?}",
                lines.shown
            );
            let depths: Vec<u32> = lines.shown.iter().map(|l| l.depth).collect();
            assert!(depths.windows(2).all(|w| w[0] == w[1]), "{depths:?}");
            for line in &lines.shown {
                let mut child = position.clone();
                child.play_unchecked(line.pv[0]);
                let verdict = if child.is_checkmate() {
                    Some(1)
                } else {
                    f.syzygy
                        .probe_wdl(&child)
                        .ok()
                        .and_then(|w| w.unambiguous())
                        .map(|w| match w {
                            shakmaty_syzygy::Wdl::Win => -1,
                            shakmaty_syzygy::Wdl::Loss => 1,
                            _ => 0,
                        })
                };
                let Some(verdict) = verdict else { continue };
                let score = line.score.for_white(turn);
                let sign = match score {
                    Score::Mate(n) => n.signum(),
                    Score::Centipawns(cp) => cp.signum(),
                };
                assert_eq!(
                    sign,
                    verdict,
                    "{}: {} scored {score:?} against the table",
                    shakmaty::fen::Fen::from_position(position, EnPassantMode::Legal),
                    line.san[0]
                );
            }
        }
    }

    #[test]
    fn middlegames_of_the_bratko_kopec_suite() {
        let suite =
            std::fs::read_to_string(super::common::testdata("epd/bratko-kopec.epd")).unwrap();
        for (i, record) in suite.lines().enumerate() {
            let fen: Vec<&str> = record.split_whitespace().take(4).collect();
            let position = parse_fen(&format!("{} 0 1", fen.join(" "))).unwrap();
            let reports = check(&position, 5, 1 + i % 3);
            assert!(reports > 0);
        }
    }

    /// Pieces of the random endings, beside the two kings.
    const MATERIAL: [&[(Color, Role)]; 8] = [
        &[(Color::White, Role::Queen)],
        &[(Color::White, Role::Rook)],
        &[(Color::White, Role::Pawn)],
        &[(Color::White, Role::Bishop), (Color::White, Role::Knight)],
        &[(Color::White, Role::Rook), (Color::Black, Role::Pawn)],
        &[(Color::White, Role::Queen), (Color::Black, Role::Rook)],
        &[(Color::White, Role::Pawn), (Color::Black, Role::Pawn)],
        &[
            (Color::Black, Role::Rook),
            (Color::White, Role::Pawn),
            (Color::White, Role::Rook),
        ],
    ];

    fn ending(material: usize, squares: &[u32], black: bool) -> Option<Chess> {
        let mut board = Board::empty();
        let pieces = [(Color::White, Role::King), (Color::Black, Role::King)]
            .into_iter()
            .chain(MATERIAL[material].iter().copied());
        for ((color, role), &square) in pieces.zip(squares) {
            let square = Square::new(square);
            if board.occupied().contains(square)
                || (role == Role::Pawn && (Bitboard::BACKRANKS).contains(square))
            {
                return None;
            }
            board.set_piece_at(square, Piece { color, role });
        }
        let mut setup = Setup::empty();
        setup.board = board;
        setup.turn = if black { Color::Black } else { Color::White };
        let position: Chess = setup.position(CastlingMode::Standard).ok()?;
        (!position.legal_moves().is_empty()).then_some(position)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
        #[test]
        fn endings_agree_with_the_tables(
            material in 0..MATERIAL.len(),
            squares in proptest::collection::vec(0u32..64, 5),
            black in any::<bool>(),
            multipv in 1usize..=3,
        ) {
            let position = ending(material, &squares, black);
            prop_assume!(position.is_some());
            let position = position.unwrap();
            check(&position, 8, multipv);
        }
    }
}

#[test]
fn k_keeps_the_engine_line_in_the_game_with_its_eval() {
    let mut h = Board::analysis((W, H));
    let id = h.last_search();
    h.info(id, 1, 30, &["e2e4", "e7e5", "g1f3"]);
    h.info(id, 2, 20, &["d2d4", "d7d5"]);
    h.info(id, 3, 10, &["c2c4"]);
    assert_eq!(h.app.mode.analysis().unwrap().lines.shown.len(), 3);
    h.char('K');
    assert!(
        h.message().contains("Kept engine line 1"),
        "{}",
        h.message()
    );
    let pgn = h.tree().to_pgn();
    assert!(
        pgn.contains("1. e4 { [%eval 0.30] } 1... e5 2. Nf3"),
        "{pgn}"
    );
    // :keep 2 adds the second line as a variation beside the first.
    h.typed("keep 2");
    let pgn = h.tree().to_pgn();
    assert!(pgn.contains("( 1. d4 { [%eval 0.20] } 1... d5 )"), "{pgn}");
    assert!(h.app.mode.analysis().unwrap().modified);
    // The board stays where it was.
    assert_eq!(h.cursor(), 0);
    h.typed("keep 9");
    assert!(
        h.message().contains("keep takes an engine line"),
        "{}",
        h.message()
    );
}

#[test]
fn t_shows_the_threat_of_the_side_not_to_move() {
    let mut h = Board::analysis((W, H));
    // After 3. Qh5 Black is to move, and White threatens Qxf7#.
    h.typed("fen r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3");
    h.go_requests();
    h.char('t');
    let requests = h.go_requests();
    let &(id, _, infinite) = requests.last().expect("the threat's search");
    assert!(!infinite, "the threat is searched for a while, not forever");
    assert!(h.message().contains("White's threat"), "{}", h.message());
    let passed = h
        .app
        .mode
        .analysis()
        .unwrap()
        .threat
        .clone()
        .unwrap()
        .position;
    assert!(passed.turn().is_white(), "the turn passed to White");
    let qxf7 = parse_uci(&passed, "h5f7").unwrap();
    h.update(Msg::Engine(Report::Info(Box::new(SearchInfo {
        search_id: id,
        multipv: 1,
        depth: 3,
        seldepth: 3,
        score: Score::Mate(1),
        bound: Bound::Exact,
        pv: vec![qxf7],
        nodes: 100,
        nps: 1000,
        hashfull: 0,
        elapsed: Duration::ZERO,
        complete: true,
    }))));
    h.update(Msg::Engine(Report::BestMove {
        search_id: id,
        best_move: Some(qxf7),
        ponder: None,
        score: Score::Mate(1),
        bound: Bound::Exact,
        depth: 3,
        nodes: 100,
        source: kibitz::engine::MoveSource::Search,
    }));
    assert!(h.message().contains("Threat: Qxf7#"), "{}", h.message());
    let screen = h.screen();
    assert!(screen.contains("threat: 4.Qxf7#"), "{screen}");
    // The analysis goes on afterwards.
    let again = h.go_requests();
    assert!(
        again.last().is_some_and(|&(_, _, infinite)| infinite),
        "{again:?}"
    );
    // Another position: the threat is gone.
    h.typed("g6");
    assert!(h.app.mode.analysis().unwrap().threat.is_none());
}

#[test]
fn play_on_from_here_and_the_game_comes_back_as_a_line() {
    let mut h = Board::analysis((W, H));
    h.typed("e4");
    h.typed("e5");
    assert_eq!(h.ply(), 2);
    h.char('P');
    let Overlay::NewGame(form) = &h.app.cx.overlay else {
        panic!("the new-game dialog: {:?}", h.app.cx.overlay);
    };
    assert!(form.uses_fen(), "the game starts from the board's position");
    h.start();
    assert!(h.app.mode.game().is_some(), "a game against the engine");
    assert_eq!(
        h.app.cx.board.game.moves().len(),
        0,
        "from the position on the board"
    );
    h.typed("Nf3");
    let id = h.last_search();
    h.engine_plays(id, "b8c6");
    h.char('r');
    h.char('y');
    assert!(h.app.mode.get().game_end().is_some());
    // The analysis board's changes wait in the game: a new game asks first.
    h.key(KeyCode::Esc);
    h.char('n');
    assert_eq!(h.app.cx.overlay, Overlay::Confirm(Confirm::Discard));
    h.char('n');
    assert_eq!(h.app.cx.overlay, Overlay::None);
    h.char('a');
    let analysis = h.app.mode.analysis().expect("back on the analysis board");
    let sans: Vec<String> = analysis
        .tree
        .mainline()
        .iter()
        .map(|&n| analysis.tree.nodes[n].san.to_string())
        .collect();
    assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6"]);
    assert!(analysis.modified);
    assert_eq!(h.ply(), 4, "at the game's last move");
    assert!(h.message().contains("2 moves are back"), "{}", h.message());
}

/// The game list's Ctrl-R reviews every game of the file: a players' table
/// sortable by name, accuracy, blunders and games; a games' table; a
/// player's positions to study, each of which opens as a lesson in teach
/// mode with the move played and the better one named.
#[test]
fn review_all_from_the_game_list_reports_players_games_and_lessons() {
    let mut h = Board::new((W, H));
    h.open(&common::testdata("pgn/review-three.pgn"), None);
    assert_eq!(h.app.cx.overlay, Overlay::GameList);
    assert!(h.screen().contains("Ctrl-R review all"), "{}", h.screen());
    h.app.update(
        Msg::Key(
            KeyEvent::new(KeyCode::Char('r'), KeyModifiers::CONTROL),
            std::time::Instant::now(),
        ),
        std::time::Instant::now(),
    );
    h.serve();
    assert_eq!(h.app.cx.overlay, Overlay::ReviewAll);
    let screen = h.screen();
    assert!(screen.contains("3 of 3 games reviewed"), "{screen}");
    assert!(screen.contains("Players, by name"), "{screen}");
    // Name order: Ann, Bob, Cleo; Bob played 3 games, 1 blunder (3...Nf6??).
    let row = |h: &Board, name: &str| {
        h.screen()
            .lines()
            .find(|l| l.contains(&format!(" {name} ")) && l.contains('%'))
            .unwrap_or_else(|| panic!("{name}: {}", h.screen()))
            .to_string()
    };
    let at = |h: &Board, name: &str| h.screen().find(&row(h, name)).unwrap();
    assert!(at(&h, "Ann") < at(&h, "Bob") && at(&h, "Bob") < at(&h, "Cleo"));
    let bob: Vec<String> = row(&h, "Bob")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let from_name = bob.iter().position(|w| w == "Bob").unwrap();
    assert_eq!(bob[from_name + 1], "3", "games: {bob:?}");
    assert_eq!(bob[from_name + 6], "1", "blunders: {bob:?}");
    // s: by accuracy, then by blunders: Bob (or Cleo, one each) first,
    // Ann (none) last.
    h.char('s');
    assert!(h.screen().contains("Players, by accuracy"));
    h.char('s');
    assert!(h.screen().contains("Players, by blunders"));
    assert!(at(&h, "Ann") > at(&h, "Bob"));
    h.char('r');
    assert!(h.screen().contains("(reversed)"));
    assert!(at(&h, "Ann") < at(&h, "Bob"));
    // Tab: the games' table, in the file's order.
    h.key(KeyCode::Tab);
    let screen = h.screen();
    assert!(screen.contains("Games, by number · s sort"), "{screen}");
    assert!(screen.find("Ann").unwrap() < screen.find("Cleo").unwrap());
    // Back to the players by name; Enter on Bob lists his positions.
    h.key(KeyCode::Tab);
    h.char('s');
    assert!(h.screen().contains("Players, by games"));
    h.char('s');
    assert!(h.screen().contains("Players, by name"));
    h.key(KeyCode::Down);
    h.key(KeyCode::Enter);
    let screen = h.screen();
    assert!(screen.contains("Bob: positions to study"), "{screen}");
    assert!(screen.contains("Nf6??"), "{screen}");
    // Enter: the lesson of 3...Nf6??, in teach mode.
    h.key(KeyCode::Enter);
    h.serve();
    assert!(h.teaching(), "{}", h.screen());
    let teach = h.teach_state();
    assert_eq!(teach.title, "3... Nf6??");
    let note = teach.note.clone().unwrap_or_default();
    assert!(note.contains("Nf6") && note.contains("blunder"), "{note}");
}

/// A legal line of `plies` moves from `position`, in UCI (the first legal
/// move each time): any line an engine might give.
fn some_line(position: &Chess, plies: usize) -> Vec<String> {
    let mut position = position.clone();
    let mut line = Vec::new();
    for _ in 0..plies {
        let Some(m) = position.legal_moves().first().copied() else {
            break;
        };
        line.push(m.to_uci(shakmaty::CastlingMode::Standard).to_string());
        position.play_unchecked(m);
    }
    line
}

#[test]
fn k_at_the_end_of_a_game_keeps_a_variation_and_never_extends_the_game() {
    let dir = common::TempHome::new("keep-end");
    let path = dir.join("kasparov.pgn");
    std::fs::copy(common::testdata("pgn/kasparov-deep-blue-1997.pgn"), &path).unwrap();
    let mut h = Board::new((W, H));
    h.open(&path, Some(6));
    assert_eq!(h.tree().mainline().len(), 37);
    h.key(KeyCode::End);
    assert_eq!(h.ply(), 37);
    let id = h.last_search();
    let line = some_line(h.app.cx.board.game.position(), 25);
    assert_eq!(line.len(), 25);
    let uci: Vec<&str> = line.iter().map(String::as_str).collect();
    h.info(id, 1, -450, &uci);
    // The other two lines of the three the board asks for.
    let position = h.app.cx.board.game.position().clone();
    for (i, m) in position.legal_moves().iter().skip(1).take(2).enumerate() {
        let uci = m.to_uci(shakmaty::CastlingMode::Standard).to_string();
        h.info(id, i + 2, -500, &[uci.as_str()]);
    }
    h.char('K');
    assert!(
        h.message().contains("Kept engine line 1 as a variation"),
        "{}",
        h.message()
    );
    // The board stays at the end of the game.
    assert_eq!(h.ply(), 37);
    h.key(KeyCode::Char('s'));
    assert!(!h.app.unsaved(), "{}", h.message());
    let mut games = Vec::new();
    read_games(std::fs::File::open(&path).unwrap(), &mut |t| {
        games.push(t);
        true
    })
    .unwrap();
    assert_eq!(games.len(), 6);
    let game = &games[5];
    assert_eq!(game.mainline().len(), 37, "{}", game.to_pgn());
    assert_eq!(game.result, "1-0");
    // The line is a variation beside the game's last move, which it plays
    // again: 19. c4 ( 19. c4 ... ), 26 moves in all.
    let last = *game.mainline().last().unwrap();
    let parent = game.nodes[last].parent.unwrap();
    assert_eq!(game.nodes[parent].children.len(), 2);
    let variation = game.nodes[parent].children[1];
    assert_eq!(game.nodes[variation].m, game.nodes[last].m);
    let mut plies = 0;
    let mut at = variation;
    while let Some(&next) = game.nodes[at].children.first() {
        plies += 1;
        at = next;
    }
    assert_eq!(plies, 25);
    // K again adds nothing: the line is there.
    h.char('K');
    assert!(h.message().contains("nothing added"), "{}", h.message());
    assert!(!h.app.unsaved());
}

/// A reviewed game of `review-three.pgn` as the background review hands it
/// over (figures made up; Bob's 3...Nf6?? to study in game 1).
fn reviewed_game(number: usize) -> kibitz::review::batch::ReviewedGame {
    use kibitz::review::batch::{ReviewedGame, Study};
    let players = [("Ann", "Bob"), ("Bob", "Ann"), ("Cleo", "Bob")];
    let (white, black) = players[number - 1];
    let study = if number == 1 {
        vec![Study {
            game: 1,
            ply: 6,
            move_number: 3,
            fen: "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3".into(),
            played: "Nf6".into(),
            best: Some("g6".into()),
            better_line: vec!["g6".into()],
            class: kibitz::review::Class::Blunder,
            margin_cp: 300,
        }]
    } else {
        Vec::new()
    };
    ReviewedGame {
        hash: [0; 16],
        number,
        white: white.into(),
        black: black.into(),
        result: "*".into(),
        plies: 4,
        sides: Default::default(),
        study: [Vec::new(), study],
        pgn: String::new(),
        error: None,
        kept_marks: Vec::new(),
        evals: Vec::new(),
        start_turn: shakmaty::Color::White,
    }
}

/// The review of a whole file (Ctrl-R) asks before Esc stops it; a stopped
/// review, taken up again with Ctrl-R, goes on after the games it finished
/// (they stay); Esc from a lesson opened from the report comes back to it.
#[test]
fn a_stopped_review_of_a_file_asks_first_and_resumes_where_it_stopped() {
    let mut h = Board::new((W, H));
    let path = common::testdata("pgn/review-three.pgn");
    h.open(&path, None);
    h.ctrl('r');
    // The test plays the background review: game 1, then the user's Esc.
    let review_request = |h: &mut Board| {
        let requests = h.app.take_requests();
        requests
            .iter()
            .find_map(|r| match r {
                Request::ReviewAll { id, skip, .. } => Some((*id, *skip)),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{requests:?}"))
    };
    let (id, skip) = review_request(&mut h);
    assert_eq!(skip, 0);
    let event = |h: &mut Board, id: u64, event: ReviewAllEvent| {
        h.update(Msg::ReviewAll { id, event });
    };
    event(&mut h, id, ReviewAllEvent::Total(3));
    event(&mut h, id, ReviewAllEvent::Game(Box::new(reviewed_game(1))));
    assert!(
        h.screen().contains("reviewing… 1 of 3 games"),
        "{}",
        h.screen()
    );
    // Esc asks; n goes back to the report, the review still running.
    h.key(KeyCode::Esc);
    assert_eq!(h.app.cx.overlay, Overlay::Confirm(Confirm::StopReviewAll));
    assert!(h.screen().contains("Stop the review?"), "{}", h.screen());
    // Whole at 80x24 too.
    h.resize((80, 24));
    let words = h.screen().split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("Games reviewed are kept; Ctrl-R resumes it."),
        "{}",
        h.screen()
    );
    h.resize((W, H));
    h.char('n');
    assert_eq!(h.app.cx.overlay, Overlay::ReviewAll);
    assert!(!h.app.take_requests().contains(&Request::Cancel(id)));
    // y stops it and goes back to the game list.
    h.key(KeyCode::Esc);
    h.char('y');
    assert_eq!(h.app.cx.overlay, Overlay::GameList);
    assert!(h.app.take_requests().contains(&Request::Cancel(id)));
    event(&mut h, id, ReviewAllEvent::Done(Ok(None)));
    assert!(
        h.message().contains("Review stopped at 1 of 3 games"),
        "{}",
        h.message()
    );
    // Ctrl-R in the game list again: on from game 2, game 1 kept.
    h.open(&path, None);
    h.ctrl('r');
    let (again, skip) = review_request(&mut h);
    assert!(again > id);
    assert_eq!(skip, 1);
    assert_eq!(h.app.cx.overlay, Overlay::ReviewAll);
    assert!(
        h.screen().contains("reviewing… 1 of 3 games"),
        "{}",
        h.screen()
    );
    // A late word from the stopped review is not counted.
    event(&mut h, id, ReviewAllEvent::Game(Box::new(reviewed_game(2))));
    event(&mut h, again, ReviewAllEvent::Total(3));
    event(
        &mut h,
        again,
        ReviewAllEvent::Game(Box::new(reviewed_game(2))),
    );
    event(
        &mut h,
        again,
        ReviewAllEvent::Game(Box::new(reviewed_game(3))),
    );
    event(&mut h, again, ReviewAllEvent::Done(Ok(None)));
    let screen = h.screen();
    assert!(screen.contains("3 of 3 games reviewed"), "{screen}");
    assert!(!screen.contains("stopped"), "{screen}");
    let review = h.app.cx.review_all.as_ref().unwrap();
    let numbers: Vec<usize> = review.games.iter().map(|g| g.number).collect();
    assert_eq!(numbers, [1, 2, 3]);
    // Bob's positions; Enter opens the lesson, Esc comes back here.
    h.key(KeyCode::Down);
    h.key(KeyCode::Enter);
    assert!(
        h.screen().contains("Bob: positions to study"),
        "{}",
        h.screen()
    );
    h.key(KeyCode::Enter);
    h.serve();
    assert!(h.teaching(), "{}", h.screen());
    h.key(KeyCode::Esc);
    assert!(!h.teaching());
    assert_eq!(h.app.cx.overlay, Overlay::ReviewAll);
    assert!(
        h.screen().contains("Bob: positions to study"),
        "{}",
        h.screen()
    );
    // Esc on a finished review goes back to the game list without a
    // question.
    h.key(KeyCode::Esc);
    h.key(KeyCode::Esc);
    assert_eq!(h.app.cx.overlay, Overlay::GameList);
}

/// A game with `[%clk]` comments gets a move-time chart under the review's
/// graph: the move on the board and its think, the longest think, bars.
#[test]
fn a_review_of_a_game_with_clocks_charts_the_time_each_move_took() {
    let dir = common::TempHome::new("review-clocks");
    let path = dir.join("clocks.pgn");
    std::fs::write(
        &path,
        "[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n[TimeControl \"180+2\"]\n\n\
         1. e4 { [%clk 0:02:59] } e5 { [%clk 0:03:00] } 2. Nf3 { [%clk 0:02:01] } \
         Nc6 { [%clk 0:02:55] } 3. Bb5 { [%clk 0:01:58] } a6 { [%clk 0:02:50] } *\n",
    )
    .unwrap();
    let mut h = Board::new((120, 40));
    h.open(&path, Some(1));
    h.key(KeyCode::Char('R'));
    let requests = h.serve();
    let Some(Request::Review { id, tree, .. }) = requests.into_iter().next() else {
        panic!("a review request");
    };
    let positions = kibitz::review::mainline_positions(&tree);
    let mainline = tree.mainline();
    for (ply, (position, _)) in positions.iter().enumerate() {
        let played = mainline.get(ply).and_then(|&n| tree.nodes[n].m);
        let eval = PositionEval {
            score: Score::Centipawns(20),
            pv: played.into_iter().collect(),
            depth: 12,
            legal_moves: position.legal_moves().len(),
            mated: None,
        };
        h.update(Msg::Review { id, ply, eval });
    }
    h.update(Msg::ReviewDone { id });
    // On 2. Nf3: 2:59 + 2 s - 2:01 = 60 s; the longest think too.
    h.goto(mainline[2]);
    let screen = h.screen();
    assert!(
        screen.contains("time: 2. Nf3 1m00s · longest: 2. Nf3 1m00s"),
        "{screen}"
    );
    insta::assert_snapshot!("analysis_review_clocks", screen);
}
