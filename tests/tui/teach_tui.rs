//! Teach mode on the board without a terminal: `App` driven by messages,
//! its background requests (the record, the comparison) carried out by hand
//! on this thread, the screen drawn on ratatui's `TestBackend` and compared
//! with insta snapshots.
#![allow(clippy::unwrap_used)]

use kibitz::teach::{self, RecordError, Setup, compare};
use kibitz::tui::app::{Overlay, Request};
use kibitz::tui::modes::Mode;
use kibitz::tui::modes::teach::Record;
use kibitz::tui::msg::Msg;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::KeyCode;
use shakmaty::Chess;
use shakmaty::fen::Fen;

use crate::common::board::{Board, curated};
use crate::snapshot_names as insta;

fn fen_of(position: &Chess) -> String {
    Fen::from_position(position, shakmaty::EnPassantMode::Legal).to_string()
}

/// What a screen of teach mode must never show: the engine's raw values for
/// an infinite window or a mate (32000, 29999...), as numbers or as pawns
/// (+320.00, -299.99: no real value is a hundred pawns).
fn assert_no_raw_values(screen: &str) {
    let mut run = String::new();
    for c in screen.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() || c == '.' {
            run.push(c);
            continue;
        }
        if !run.is_empty() {
            let whole = run.split('.').next().unwrap_or("");
            let raw = if run.contains('.') {
                whole.len() >= 3
            } else {
                // Counts are written with separators; a bare number near
                // the mate values is a raw value.
                run.parse::<u64>()
                    .is_ok_and(|n| (28_000..=33_000).contains(&n))
            };
            assert!(!raw, "raw value {run} on screen:\n{screen}");
            run.clear();
        }
    }
}

/// The lines of the path panel, from its title down to the next panel.
fn path_panel(screen: &str) -> String {
    let lines: Vec<&str> = screen.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.contains("Path from the root"))
        .unwrap_or_else(|| panic!("no path panel:\n{screen}"));
    lines[start..]
        .iter()
        .take(8)
        .copied()
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_fork_step_by_step_at_120_by_40() {
    let mut board = Board::curated("fork", (120, 40));
    assert_eq!(board.step(), 0);

    // The start: the header names the algorithm and the step, the path is
    // the root with an infinite window.
    let start = board.screen();
    assert!(start.contains("step 0 of"), "{start}");
    assert!(
        start.contains("alpha-beta") || start.contains("principal-variation search"),
        "{start}"
    );
    assert!(start.contains("Path from the root"), "{start}");
    assert_no_raw_values(&start);
    insta::assert_snapshot!("teach_fork_start_120x40", start);

    // Two steps (the iteration, the root): the root, with the infinite
    // window written as such.
    board.key(KeyCode::Right);
    board.key(KeyCode::Right);
    let one = board.screen();
    let path = path_panel(&one);
    assert!(path.contains("root"), "{path}");
    assert!(path.contains("[-inf, +inf]"), "{path}");
    assert_no_raw_values(&one);

    // A few steps in: the path has gone down a move, in SAN.
    for _ in 0..2 {
        board.key(KeyCode::Right);
    }
    assert_eq!(board.step(), 4);
    let four = board.screen();
    assert!(four.contains("step 4 of"), "{four}");
    let path = path_panel(&four);
    assert!(path.contains("1. "), "a white move in the path:\n{path}");
    assert!(path.contains("-inf") || path.contains("+inf"), "{path}");
    assert_no_raw_values(&four);
    insta::assert_snapshot!("teach_fork_step_4_120x40", four);

    // The first cutoff.
    board.char('c');
    let at = board.step();
    assert!(at > 4 && at < board.steps(), "cutoff at step {at}");
    let cutoff = board.screen();
    assert!(cutoff.contains("Cutoff"), "the caption says so:\n{cutoff}");
    assert_no_raw_values(&cutoff);
    insta::assert_snapshot!("teach_fork_first_cutoff_120x40", cutoff);

    // The first cutoff here is on a node's last move; the next ones that
    // leave moves unsearched show them in the node's outline.
    let mut presses = 0;
    let cutoff = loop {
        board.char('c');
        presses += 1;
        let screen = board.screen();
        assert!(screen.contains("Cutoff"), "{screen}");
        assert_no_raw_values(&screen);
        if screen.contains("cut off, never searched") {
            break screen;
        }
        assert!(presses < 50, "no cutoff leaves a move unsearched");
    };
    assert!(
        cutoff.contains("cut off, never searched"),
        "the node's outline shows the moves cut off:\n{cutoff}"
    );
    insta::assert_snapshot!("teach_fork_cutoff_with_moves_cut_120x40", cutoff);

    // The end: the step counter is full and the best move is Nd6+.
    board.key(KeyCode::End);
    assert_eq!(board.step(), board.steps());
    let end = board.screen();
    let steps = teach::values::count_text(board.steps() as u64);
    assert!(end.contains(&format!("step {steps} of {steps}")), "{end}");
    assert!(end.contains("Nd6+"), "{end}");
    assert_no_raw_values(&end);
    insta::assert_snapshot!("teach_fork_end_120x40", end);

    // Home: back to the start screen (the message line aside).
    board.key(KeyCode::Home);
    assert_eq!(board.step(), 0);
}

#[test]
fn mate_in_two_at_80_by_24() {
    let mut board = Board::curated("mate in 2", (80, 24));
    let start = board.screen();
    assert!(start.contains("step 0 of"), "{start}");
    assert_no_raw_values(&start);
    insta::assert_snapshot!("teach_mate_in_2_start_80x24", start);

    for _ in 0..3 {
        board.key(KeyCode::Right);
    }
    let three = board.screen();
    assert!(three.contains("step 3 of"), "{three}");
    assert_no_raw_values(&three);
    insta::assert_snapshot!("teach_mate_in_2_step_3_80x24", three);

    board.char('c');
    assert!(board.step() < board.steps(), "a cutoff before the end");
    let cutoff = board.screen();
    assert!(cutoff.contains("Cutoff"), "{cutoff}");
    assert_no_raw_values(&cutoff);
    insta::assert_snapshot!("teach_mate_in_2_first_cutoff_80x24", cutoff);

    board.key(KeyCode::End);
    let end = board.screen();
    assert!(end.contains("mate in 2"), "{end}");
    assert_no_raw_values(&end);
    insta::assert_snapshot!("teach_mate_in_2_end_80x24", end);
}

#[test]
fn mate_in_one_has_no_cutoff_and_ends_on_rd8() {
    // Depth 1: every root move is searched, there is nothing to cut.
    let mut board = Board::curated("mate in 1", (120, 40));
    board.char('c');
    assert_eq!(board.step(), board.steps());
    let end = board.screen();
    assert!(end.contains("Rd8#"), "{end}");
    assert!(end.contains("mate in 1"), "{end}");
    assert_no_raw_values(&end);
}

#[test]
fn no_raw_values_on_any_step_of_the_mates() {
    // Mates and infinite windows are the values most likely to leak.
    for (name, size) in [("mate in 1", (120, 40)), ("mate in 2", (80, 24))] {
        let mut board = Board::curated(name, size);
        let steps = board.steps();
        // Every step of a small record, every 7th of a larger one.
        let stride = (steps / 400).max(1);
        let mut at = 0;
        while at <= steps {
            board.typed(&format!("step {at}"));
            assert_eq!(board.step(), at, "{name}");
            let screen = board.screen();
            assert_no_raw_values(&screen);
            at += stride;
        }
    }
}

#[test]
fn one_step_back_draws_what_the_step_before_drew() {
    for (name, size) in [("fork", (120, 40)), ("move ordering", (80, 24))] {
        let mut board = Board::curated(name, size);
        let steps = board.steps();
        for k in [1, 2, 3, 7, 20, steps / 2, steps] {
            board.key(KeyCode::Home);
            for _ in 0..k - 1 {
                board.key(KeyCode::Right);
            }
            let before = board.buffer();
            board.key(KeyCode::Right);
            assert_eq!(board.step(), k);
            board.key(KeyCode::Left);
            assert_eq!(board.step(), k - 1);
            let after = board.buffer();
            assert!(
                before == after,
                "{name}: step {k} then back differs from step {}:\nbefore\n{}\nafter\n{}",
                k - 1,
                board_text(&before),
                board_text(&after)
            );
        }
    }
}

fn board_text(buffer: &Buffer) -> String {
    let mut text = String::new();
    for y in 0..buffer.area.height {
        for x in 0..buffer.area.width {
            text.push_str(buffer[(x, y)].symbol());
        }
        text.push('\n');
    }
    text
}

#[test]
fn key_1_switches_alpha_beta_off_and_the_header_says_minimax() {
    let mut board = Board::curated("fork", (120, 40));
    assert!(!board.screen().contains("minimax,"));
    board.char('1');
    let requests = board.app.take_requests();
    let setup: Vec<&Setup> = requests
        .iter()
        .filter_map(|r| match r {
            Request::Record { setup, .. } => Some(&**setup),
            _ => None,
        })
        .collect();
    assert_eq!(setup.len(), 1, "{requests:?}");
    assert!(!setup[0].options.alpha_beta);
    assert!(!setup[0].options.pvs && !setup[0].options.selective);
    assert_eq!(setup[0].depth, curated("fork").depth);
    // While it records the header says so; then minimax is what runs.
    let recording = board.screen();
    assert!(recording.contains("recording the search"), "{recording}");
    assert!(recording.contains("1-alpha-beta"), "{recording}");
    // Answer the request (the same position and depth: no new comparison).
    assert!(
        !requests
            .iter()
            .any(|r| matches!(r, Request::Compare { .. })),
        "{requests:?}"
    );
    for request in requests {
        if let Request::Record { id, setup } = request {
            let result = teach::record_replay(&setup, teach::MAX_EVENTS, &|| false);
            board.update(Msg::Recorded { id, result });
        }
    }
    let screen = board.screen();
    assert!(screen.contains("minimax"), "{screen}");
    assert!(screen.contains("step 0 of"), "{screen}");
    // Minimax has no cutoffs: c says so rather than jumping silently.
    board.char('c');
    let screen = board.screen();
    assert!(screen.contains("Minimax has no cutoffs"), "{screen}");
    assert_no_raw_values(&screen);

    // And on again: alpha-beta once more.
    board.char('1');
    board.serve();
    assert!(board.teach_state().setup.options.alpha_beta);
    assert!(!board.screen().contains("minimax,"));
}

#[test]
fn every_switch_records_again_and_the_screen_draws() {
    let mut board = Board::curated("horizon", (120, 40));
    for c in '1'..='7' {
        let before = board.teach_state().toggles();
        board.char(c);
        let requests = board.app.take_requests();
        assert!(
            requests.iter().any(|r| matches!(r, Request::Record { .. })),
            "key {c}: {requests:?}"
        );
        for request in requests {
            if let Request::Record { id, setup } = request {
                let result = teach::record_replay(&setup, teach::MAX_EVENTS, &|| false);
                board.update(Msg::Recorded { id, result });
            }
        }
        let after = board.teach_state().toggles();
        let i = c as usize - '1' as usize;
        assert_ne!(before[i], after[i], "key {c} switches {i}");
        board.key(KeyCode::End);
        let screen = board.screen();
        assert_no_raw_values(&screen);
        for k in ['c', 'C', 'j', 'k', 'b', 'B', 't', 'T', 'g'] {
            board.char(k);
            board.screen();
        }
    }
}

#[test]
fn brackets_change_the_depth_within_1_to_6() {
    let mut board = Board::curated("mate in 1", (120, 40));
    assert_eq!(board.teach_state().setup.depth, 1);
    // Below 1: refused, nothing recorded.
    board.char('[');
    assert_eq!(board.teach_state().setup.depth, 1);
    assert!(
        !board
            .app
            .take_requests()
            .iter()
            .any(|r| matches!(r, Request::Record { .. }))
    );
    assert!(
        board.screen().contains("Depth 1 is the shallowest"),
        "{}",
        board.screen()
    );
    board.char(']');
    let requests = board.app.take_requests();
    let depths: Vec<u32> = requests
        .iter()
        .filter_map(|r| match r {
            Request::Record { setup, .. } => Some(setup.depth),
            _ => None,
        })
        .collect();
    assert_eq!(depths, [2]);
    // A new depth is a new comparison too.
    assert!(
        requests
            .iter()
            .any(|r| matches!(r, Request::Compare { depth: 2, .. }))
    );
    for _ in 0..10 {
        board.char(']');
    }
    assert_eq!(board.teach_state().setup.depth, 6);
    board.app.take_requests();
    board.typed("depth 9");
    assert_eq!(board.teach_state().setup.depth, 6);
    assert!(board.screen().contains("Depth is a number from 1 to 6"));
    board.typed("depth 2");
    assert_eq!(board.teach_state().setup.depth, 2);
    board.serve();
    assert!(board.ready());
    assert!(board.screen().contains("depths 1 to 2") || board.screen().contains("depth 2"));
}

#[test]
fn esc_goes_back_to_the_analysis_board() {
    let mut board = Board::curated("fork", (120, 40));
    board.key(KeyCode::Right);
    board.key(KeyCode::Esc);
    assert!(
        board.app.mode.analysis().is_some(),
        "back on the analysis board"
    );
    assert!(
        board.left.iter().any(|r| matches!(r, Request::Cancel(_)))
            || board
                .app
                .take_requests()
                .iter()
                .any(|r| matches!(r, Request::Cancel(_)))
    );
    let screen = board.screen();
    assert!(screen.contains("Analysis"), "{screen}");
    assert!(!screen.contains("Path from the root"), "{screen}");
    // The analysis board's position is the one taught.
    assert_eq!(
        fen_of(board.app.cx.board.game.position()),
        curated("fork").fen
    );
}

#[test]
fn t_on_the_analysis_board_teaches_its_position_and_esc_comes_back() {
    let mut board = Board::new((120, 40));
    // The analysis board from the new-game dialog, then two moves on it.
    for _ in 0..4 {
        board.key(KeyCode::Right);
    }
    board.key(KeyCode::Enter);
    assert!(board.app.mode.analysis().is_some());
    board.typed("e4");
    board.typed("e5");
    let position = board.app.cx.board.game.position().clone();
    board.char('T');
    assert!(board.teaching());
    assert_eq!(board.teach_state().setup.position, position);
    assert_eq!(board.teach_state().setup.depth, teach::DEFAULT_DEPTH);
    assert_eq!(board.teach_state().title, "this position");
    board.serve();
    assert!(board.ready());
    let screen = board.screen();
    assert!(screen.contains("step 0 of"), "{screen}");
    board.key(KeyCode::Esc);
    assert!(board.app.mode.analysis().is_some());
    assert_eq!(board.app.cx.board.game.position(), &position);
}

#[test]
fn teach_typed_with_a_depth_from_the_analysis_board() {
    let mut board = Board::new((120, 40));
    for _ in 0..4 {
        board.key(KeyCode::Right);
    }
    board.key(KeyCode::Enter);
    board.typed("teach 2");
    assert!(board.teaching());
    assert_eq!(board.teach_state().setup.depth, 2);
    board.key(KeyCode::Esc);
    board.typed("teach 9");
    assert!(!board.teaching());
    assert!(board.screen().contains(":teach takes a depth from 1 to 6"));
}

#[test]
fn from_a_game_esc_goes_back_to_play() {
    let mut board = Board::new((120, 40));
    // The default new game: White against the engine.
    board.key(KeyCode::Enter);
    board.app.take_commands();
    board.typed("e4");
    assert!(board.app.in_progress());
    board.char('T');
    assert!(board.teaching(), "T teaches from a game");
    assert!(!board.app.in_progress(), "the game waits meanwhile");
    board.serve();
    assert!(board.ready());
    board.key(KeyCode::Right);
    board.key(KeyCode::Esc);
    assert!(matches!(board.app.mode, Mode::Play(_)), "back to the game");
    assert!(board.app.in_progress());
    let screen = board.screen();
    assert!(!screen.contains("Path from the root"), "{screen}");
}

#[test]
fn the_teach_choice_of_the_new_game_dialog() {
    let mut board = Board::new((120, 40));
    for _ in 0..5 {
        board.key(KeyCode::Right);
    }
    board.key(KeyCode::Enter);
    assert!(board.teaching());
    // It opens on the list of teaching positions.
    assert!(matches!(board.app.cx.overlay, Overlay::TeachPositions(_)));
    assert!(board.screen().contains("Teaching positions"));
}

#[test]
fn a_refused_record_says_why_and_keys_do_nothing_harmful() {
    let mut board = Board::new((120, 40));
    let p = curated("move ordering");
    board.analyse(p.position.clone());
    board.start_teach(p.position, 6);
    let requests = board.app.take_requests();
    let id = requests
        .iter()
        .find_map(|r| match r {
            Request::Record { id, .. } => Some(*id),
            _ => None,
        })
        .unwrap();
    let error = RecordError::TooLarge {
        max: teach::MAX_EVENTS,
        depth: 6,
        advice: "lower the depth or switch quiescence off",
    };
    let message = error.to_string();
    board.update(Msg::Recorded {
        id,
        result: Err(error),
    });
    assert!(matches!(board.teach_state().record, Record::Failed(_)));
    let screen = board.screen();
    assert!(screen.contains("no record"), "{screen}");
    // The message wraps: look for its parts.
    assert!(screen.contains("too large to follow"), "{screen}");
    // The advice, however the caption wraps it.
    let words: Vec<&str> = screen
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    assert!(
        words.windows(3).any(|w| w == ["lower", "the", "depth"]),
        "{message}\n{screen}"
    );
    assert_no_raw_values(&screen);
    for code in [
        KeyCode::Right,
        KeyCode::Left,
        KeyCode::Down,
        KeyCode::Up,
        KeyCode::Home,
        KeyCode::End,
        KeyCode::Char('c'),
        KeyCode::Char('C'),
        KeyCode::Char('b'),
        KeyCode::Char('t'),
        KeyCode::Char(' '),
        KeyCode::Char('+'),
        KeyCode::Char('-'),
        KeyCode::Char('f'),
        KeyCode::Char('S'),
    ] {
        board.key(code);
        board.update(Msg::Tick);
        board.screen();
    }
    board.typed("step 5");
    board.screen();
    // A shallower depth is asked for and recorded.
    board.char('[');
    board.serve();
    assert_eq!(board.teach_state().setup.depth, 5);
    let _ = board.left.drain(..);
    // A late answer to the old request is dropped.
    board.update(Msg::Recorded {
        id,
        result: Err(RecordError::Cancelled),
    });
    assert!(!matches!(board.teach_state().record, Record::Failed(_)));
    for size in [(80, 24), (60, 18)] {
        board.resize(size);
        board.screen();
    }
}

#[test]
fn a_search_over_before_the_record_is_taken() {
    // Keys while the record is being made do not move, and say why.
    let mut board = Board::new((120, 40));
    let p = curated("fork");
    board.analyse(p.position.clone());
    board.start_teach(p.position, p.depth);
    board.key(KeyCode::Right);
    board.key(KeyCode::End);
    board.char('c');
    let screen = board.screen();
    assert!(screen.contains("recording the search"), "{screen}");
    assert!(screen.contains("still being recorded"), "{screen}");
    board.serve();
    assert_eq!(board.step(), 0);
}

#[test]
fn the_positions_list_opens_with_p_and_picking_records_its_fen() {
    let mut board = Board::curated("fork", (120, 40));
    board.char('p');
    assert!(matches!(board.app.cx.overlay, Overlay::TeachPositions(_)));
    let screen = board.screen();
    assert!(screen.contains("Teaching positions"), "{screen}");
    // The list scrolls; walk it and see every name.
    let list = teach::positions();
    let mut seen = screen.clone();
    for _ in 0..list.len() {
        board.key(KeyCode::Down);
        seen.push_str(&board.screen());
    }
    for p in &list {
        assert!(seen.contains(&p.name), "{} is listed:\n{seen}", p.name);
    }
    insta::assert_snapshot!("teach_positions_list_120x40", screen);
    board.key(KeyCode::Esc);
    assert!(matches!(board.app.cx.overlay, Overlay::None));
    assert!(board.teaching(), "Esc closes only the list");

    // Pick "mate in 2" by its digit: a record of its FEN at its depth.
    let index = list.iter().position(|p| p.name == "mate in 2").unwrap();
    board.char('p');
    board.char(char::from_digit(index as u32 + 1, 10).unwrap());
    assert!(matches!(board.app.cx.overlay, Overlay::None));
    let requests = board.app.take_requests();
    let setup = requests
        .iter()
        .find_map(|r| match r {
            Request::Record { setup, .. } => Some(setup.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("a record: {requests:?}"));
    assert_eq!(fen_of(&setup.position), list[index].fen);
    assert_eq!(setup.depth, list[index].depth);
    for request in requests {
        match request {
            Request::Record { id, setup } => {
                let result = teach::record_replay(&setup, teach::MAX_EVENTS, &|| false);
                board.update(Msg::Recorded { id, result });
            }
            Request::Compare { .. } => {}
            other => board.left.push(other),
        }
    }
    assert_eq!(board.teach_state().title, "mate in 2");
    let screen = board.screen();
    assert!(screen.contains("step 0 of"), "{screen}");

    // Enter on row 0: back to the position teach mode opened on.
    board.char('p');
    board.key(KeyCode::Home);
    board.key(KeyCode::Enter);
    assert_eq!(
        fen_of(&board.teach_state().setup.position),
        curated("fork").fen
    );
    assert_eq!(board.teach_state().title, "this position");
}

#[test]
fn auto_play_moves_on_with_the_ticks_and_stops_at_the_end() {
    let mut board = Board::curated("mate in 1", (120, 40));
    board.char(' ');
    assert!(board.app.needs_ticks());
    assert!(board.screen().contains("playing"));
    let start = board.now;
    board.now = start + std::time::Duration::from_millis(1500);
    board.update(Msg::Tick);
    assert!(board.step() > 0);
    board.now = start + std::time::Duration::from_secs(3600);
    board.update(Msg::Tick);
    assert_eq!(board.step(), board.steps());
    assert!(!board.app.needs_ticks(), "play stops at the end");
}

#[test]
fn tiny_terminals_draw_without_panicking() {
    let mut board = Board::curated("fork", (120, 40));
    board.char('c');
    for size in [
        (60, 18),
        (50, 15),
        (40, 12),
        (30, 10),
        (20, 5),
        (10, 3),
        (1, 1),
        (0, 0),
        (200, 3),
        (3, 100),
    ] {
        board.resize(size);
        board.buffer();
        board.char('p');
        board.buffer();
        board.key(KeyCode::Esc);
        board.char('?');
        board.buffer();
        board.key(KeyCode::Esc);
        board.key(KeyCode::End);
        board.buffer();
        board.key(KeyCode::Home);
        board.key(KeyCode::Right);
    }
    board.resize((60, 18));
    let screen = board.screen();
    assert_no_raw_values(&screen);
    insta::assert_snapshot!("teach_fork_60x18", screen);
}

#[test]
fn the_positions_are_all_recordable_at_their_depth_and_draw() {
    // Every curated position at its own depth, walked to the end with the
    // landmark keys, at both sizes.
    let fork = curated("fork");
    let mut board = Board::teach(fork.position, fork.depth, (80, 24));
    for (i, p) in teach::positions().into_iter().enumerate() {
        board.resize((80, 24));
        board.char('p');
        if i < 9 {
            board.char(char::from_digit(i as u32 + 1, 10).unwrap());
        } else {
            // Past the digits: the arrows and Enter.
            board.key(KeyCode::Home);
            for _ in 0..=i {
                board.key(KeyCode::Down);
            }
            board.key(KeyCode::Enter);
        }
        board.serve();
        assert!(board.ready(), "{}", p.name);
        match &p.tree {
            Some(tree) => assert_eq!(board.teach_state().setup.tree.as_deref(), Some(&**tree)),
            None => assert_eq!(fen_of(&board.teach_state().setup.position), p.fen),
        }
        assert_eq!(board.teach_state().setup.depth, p.depth);
        for k in ['c', 'b', 't', 'j', 'k', 'G', 'C', 'B', 'T', 'g'] {
            board.char(k);
            let screen = board.screen();
            assert_no_raw_values(&screen);
        }
        board.resize((120, 40));
        board.key(KeyCode::End);
        let screen = board.screen();
        assert_no_raw_values(&screen);
        assert!(
            screen.contains(&p.name),
            "{}: the title is shown\n{screen}",
            p.name
        );
    }
}

/// Issue 32's pawn race.
const PAWN_RACE: &str = "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1";

fn position(fen: &str) -> Chess {
    kibitz::game::fen::parse_fen(fen).unwrap()
}

#[test]
fn alpha_beta_off_runs_plain_minimax_and_the_header_says_the_rest_do_not_apply() {
    let mut board = Board::teach(position(PAWN_RACE), 4, (120, 40));
    board.char('1');
    board.serve();
    board.key(KeyCode::End);
    let screen = board.screen();
    // What ran, and only that: no "minimax + ordering + table".
    assert!(screen.contains("Teach · depth 4 ·"), "{screen}");
    assert!(screen.contains("· minimax"), "{screen}");
    assert!(!screen.contains("minimax +"), "{screen}");
    assert!(
        screen.contains("plain minimax: 2-7 do not apply"),
        "{screen}"
    );
    // The record is done: the message no longer says it is being made.
    assert!(!screen.contains("recording the search again"), "{screen}");
    assert!(screen.contains("alpha-beta off: recorded,"), "{screen}");
    // The record is the comparison's minimax row: the same nodes.
    let teach = board.teach_state();
    let (replay, _) = teach.ready().unwrap();
    let totals = replay.recording.stats.totals;
    let Some(compare::Outcome::Done { nodes, value, .. }) = teach.comparison[0] else {
        panic!("{:?}", teach.comparison[0])
    };
    assert_eq!(totals.main + totals.quiescence, nodes);
    assert_eq!(replay.recording.value, value);
    assert_no_raw_values(&screen);
    insta::assert_snapshot!("teach_pawn_race_minimax_end_120x40", screen);
}

#[test]
fn the_root_has_no_parent_and_exact_values_carry_no_bound_mark() {
    // The horizon without quiescence at depth 4, at the end: the root's
    // moves are exact where they were searched in full.
    let mut board = Board::curated("horizon", (120, 40));
    board.char('4');
    board.typed("depth 4");
    board.serve();
    board.key(KeyCode::End);
    let screen = board.screen();
    assert!(!screen.contains("parent sees"), "{screen}");
    assert!(screen.contains("the search's value:"), "{screen}");
    insta::assert_snapshot!("teach_horizon_no_quiescence_depth_4_end_120x40", screen);
}

#[test]
fn esc_then_t_comes_back_to_the_lesson_as_it_was() {
    let mut board = Board::new((120, 40));
    for _ in 0..4 {
        board.key(KeyCode::Right);
    }
    board.key(KeyCode::Enter);
    assert!(board.app.mode.analysis().is_some());
    board.typed("e4");
    board.char('T');
    board.serve();
    // A lesson of its own: depth 2, quiescence off, a few steps in.
    board.char('[');
    board.char('4');
    board.serve();
    for _ in 0..5 {
        board.key(KeyCode::Right);
    }
    let setup = board.teach_state().setup.clone();
    assert_eq!(setup.depth, 2);
    assert!(!setup.options.quiescence);
    board.key(KeyCode::Esc);
    assert!(board.app.mode.analysis().is_some());
    // Back with T: the same depth, switches and step, without a new record.
    board.char('T');
    assert!(board.teaching());
    assert_eq!(board.teach_state().setup, setup);
    assert_eq!(board.step(), 5);
    assert!(
        !board
            .app
            .take_requests()
            .iter()
            .any(|r| matches!(r, Request::Record { .. }))
    );
    assert!(board.screen().contains("back to the lesson"));
    // Another position on the board: a new lesson with the defaults.
    board.key(KeyCode::Esc);
    board.typed("e5");
    board.char('T');
    assert_eq!(board.teach_state().setup.depth, teach::DEFAULT_DEPTH);
    assert!(board.teach_state().setup.options.quiescence);
    assert_eq!(board.step(), 0);
}

#[test]
fn alpha_beta_off_and_on_again_keeps_pvs_and_the_selective_search() {
    let mut board = Board::curated("fork", (120, 40));
    board.char('5');
    board.serve();
    board.char('7');
    board.serve();
    let o = board.teach_state().setup.options;
    assert!(o.alpha_beta && o.pvs && o.selective, "{o:?}");
    // Off: plain minimax runs, the two switches wait for alpha-beta.
    board.char('1');
    board.serve();
    let screen = board.screen();
    assert!(
        screen.contains("plain minimax: 2-7 do not apply"),
        "{screen}"
    );
    // On again: the learner's settings are back.
    board.char('1');
    board.serve();
    let o = board.teach_state().setup.options;
    assert!(o.alpha_beta && o.pvs && o.selective, "{o:?}");
    let screen = board.screen();
    assert!(screen.contains("principal-variation search"), "{screen}");
    assert!(screen.contains("selective"), "{screen}");
}

/// The rows of the caption panel on `screen`: from "What happened" to the
/// next panel's title or the end.
fn caption_rows(screen: &str) -> Vec<String> {
    let lines: Vec<Vec<char>> = screen.lines().map(|l| l.chars().collect()).collect();
    let start = lines
        .iter()
        .position(|l| l.iter().collect::<String>().contains("What happened"))
        .unwrap_or_else(|| panic!("no caption:\n{screen}"));
    // The panel's columns: from its title to the end of its rule (the
    // board may be on its left, the tree on its right).
    let title: String = lines[start].iter().collect();
    let column = title[..title.find(" What happened").unwrap()]
        .chars()
        .count();
    let end = lines[start].iter().rposition(|&c| c == '─').unwrap() + 1;
    lines[start + 1..]
        .iter()
        .map(|l| l.iter().take(end).skip(column).collect::<String>())
        .take_while(|l| !l.contains("──"))
        .map(|l| l.trim_end_matches(['"', ' ']).to_string())
        .collect()
}

#[test]
fn a_long_caption_is_cut_after_a_word_with_the_key_that_shows_the_rest() {
    {
        let size = (80, 24);
        let mut board = Board::curated("fork", size);
        board.key(KeyCode::End);
        let whole = {
            let (replay, step) = board.teach_state().ready().unwrap();
            teach::caption::caption(replay, step)
        };
        let last_words = "Home watches it again.";
        assert!(whole.ends_with(last_words), "{whole}");
        let screen = board.screen();
        let rows = caption_rows(&screen);
        let shown = rows.join(" ");
        assert!(!shown.contains(last_words), "{size:?}: fits?\n{screen}");
        // The cut is said, after a whole word, with the key.
        let cut = rows
            .iter()
            .find(|r| r.contains("… (e: more)"))
            .unwrap_or_else(|| panic!("{size:?}: cut silently:\n{screen}"));
        let before = cut.split("… (e: more)").next().unwrap().trim_end();
        let word = before.rsplit(' ').next().unwrap();
        assert!(
            whole.split_whitespace().any(|w| w == word),
            "{size:?}: '{word}' is part of a word:\n{screen}"
        );
        // e shows the rest, page by page, then the start again.
        let mut pages = 1;
        loop {
            board.char('e');
            let screen = board.screen();
            let shown = caption_rows(&screen).join(" ");
            if shown.contains(last_words) {
                break;
            }
            pages += 1;
            assert!(pages < 10, "{size:?}: the end never shows:\n{screen}");
        }
        board.char('e');
        let again = caption_rows(&board.screen()).join(" ");
        assert!(again.contains("The root returns"), "{size:?}: {again}");
        // Another step starts at its first page.
        board.key(KeyCode::Left);
        board.key(KeyCode::Right);
        assert!(board.screen().contains("… (e: more)"), "{size:?}");
    }
}

#[test]
fn with_iterative_deepening_the_statistics_have_a_row_per_iteration() {
    let mut board = Board::curated("fork", (120, 40));
    board.char('6');
    board.serve();
    board.key(KeyCode::End);
    let teach = board.teach_state();
    let stats = teach.stats().unwrap();
    let depths: Vec<u32> = stats.iterations.iter().map(|i| i.depth).collect();
    assert_eq!(depths, [1, 2, 3]);
    // Each row is what its iteration cost; together, the whole search.
    let nodes: u64 = stats.iterations.iter().map(|i| i.counters.nodes()).sum();
    assert_eq!(nodes, stats.totals.nodes());
    let (replay, _) = teach.ready().unwrap();
    assert_eq!(stats.totals.nodes(), replay.recording.stats.totals.nodes());
    assert!(stats.iterations.iter().all(|i| i.counters.nodes() > 0));
    // On screen: a row per depth with what it cost, and the total.
    let screen = board.screen();
    assert!(
        screen.contains("d  nodes leaves  cuts 1st%  hits  qs% ply  N/N-1"),
        "{screen}"
    );
    for (iteration, row) in stats.iterations.iter().zip(["  1 ", "  2 ", "  3 "]) {
        let nodes = format!(" {} ", iteration.counters.nodes());
        assert!(
            screen
                .lines()
                .any(|l| l.contains(row) && l.contains(&nodes)),
            "no row for depth{row}:\n{screen}"
        );
    }
    let all = format!("all {:>6} ", stats.totals.nodes());
    assert!(screen.contains(&all), "{all}: {screen}");
    // The help says what the columns are.
    board.char('?');
    let help = board.screen();
    assert!(help.contains("1st% (by 1st move)"), "{help}");
}

#[test]
fn one_step_a_second_is_singular() {
    let mut board = Board::curated("fork", (120, 40));
    for _ in 0..5 {
        board.char('-');
    }
    let said = board.status().unwrap().0;
    assert_eq!(said, "Auto-play: 1 step a second.");
    board.char('+');
    assert_eq!(board.status().unwrap().0, "Auto-play: 2 steps a second.");
}

#[test]
fn every_caption_is_shown_whole_or_says_it_is_cut() {
    for size in [(80, 24), (120, 40)] {
        let mut board = Board::curated("fork", size);
        // The tree view leaves the caption a narrow panel; the selective
        // search's captions are long.
        board.char('v');
        for key in ['5', '6', '7'] {
            board.char(key);
            board.serve();
        }
        let (mut whole, mut cut) = (0, 0);
        for at in 0..=board.steps() {
            board.typed(&format!("step {at}"));
            let caption = {
                let (replay, step) = board.teach_state().ready().unwrap();
                teach::caption::caption(replay, step)
            };
            let screen = board.screen();
            let rows = caption_rows(&screen);
            let shown = rows.join(" ");
            let words: Vec<&str> = caption.split_whitespace().collect();
            if shown
                .split_whitespace()
                .collect::<Vec<_>>()
                .ends_with(&words)
            {
                whole += 1;
                continue;
            }
            cut += 1;
            let last = rows.iter().rev().find(|r| !r.trim().is_empty()).unwrap();
            assert!(
                last.ends_with("… (e: more)"),
                "{size:?} step {at}: cut silently:\n{screen}"
            );
        }
        assert!(whole > 0, "{size:?}");
        if size == (80, 24) {
            assert!(cut > 0, "{size:?}: no caption too long for the panel");
        }
    }
}
