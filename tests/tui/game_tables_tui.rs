//! `:map game-history` on the analysis board: the move tables learnt over
//! the game's main line, the map following the move the cursor is on. The
//! walk's messages are fed by hand (no search runs in these tests but the
//! last, which runs the task itself on a short game).
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use kibitz::cli::movetables::over_game::{Format, OverGame, movetables_over_game};
use kibitz::engine::SearchOptions;
use kibitz::engine::movetables::{Decrement, TableId, TableUpdate, TableWeights};
use kibitz::tui::msg::Msg;
use kibitz::tui::tasks::Request;
use ratatui::crossterm::event::KeyCode;
use shakmaty::{Color, Move, Role, Square};

use crate::common::board::{Board, MessageText};
use crate::common::testdata;
use crate::snapshot_names as insta;

const MOLINARI: &str = "pgn/molinari-bordais-1979.pgn";

fn knight(from: Square, to: Square) -> Move {
    Move::Normal {
        role: Role::Knight,
        from,
        capture: None,
        to,
        promotion: None,
    }
}

/// Tables in which the white knight's `from`-`to` refuted `times` times.
fn tables(from: Square, to: Square, times: usize) -> Arc<TableWeights> {
    let mut weights = TableWeights::default();
    for _ in 0..times {
        weights.apply(&TableUpdate {
            color: Color::White,
            line: vec![knight(from, to)],
            others: vec![],
        });
    }
    Arc::new(weights)
}

/// The analysis board on Molinari - Bordais (10 plies), `:map
/// game-history on` asked, `:map wn` shown: the walk's id.
fn learning(size: (u16, u16), no_color: bool) -> (Board, u64) {
    let mut board = Board::options(size).plain_text().analysis();
    board.set_no_color(no_color);
    board.open(&testdata(MOLINARI), Some(1));
    board.typed("map game-history on");
    let asked: Vec<Request> = board
        .serve()
        .into_iter()
        .filter(|r| matches!(r, Request::GameTables { .. }))
        .collect();
    let [
        Request::GameTables {
            id, line, depth, ..
        },
    ] = asked.as_slice()
    else {
        panic!("one walk asked for: {asked:?}");
    };
    assert_eq!((line.len(), *depth), (11, 5));
    board.typed("map wn");
    (board, *id)
}

/// The walk's first five plies, as the task sends them: the knight's g1-f3
/// at ply 0 and 1, its b1-c3 from ply 2 on (so f3 goes blank there).
fn feed_five(board: &mut Board, id: u64) {
    for ply in 0..5 {
        let tables = match ply {
            0 | 1 => tables(Square::G1, Square::F3, ply + 1),
            _ => tables(Square::B1, Square::C3, ply),
        };
        board.update(Msg::GameTables { id, ply, tables });
    }
}

/// Walk the main line to ply `ply` from the start.
fn to_ply(board: &mut Board, ply: usize) {
    board.typed("start");
    for _ in 0..ply {
        board.key(KeyCode::Right);
    }
    assert_eq!(board.ply(), ply);
}

/// Whether `square` is drawn in a band colour.
fn banded(board: &Board, square: Square) -> bool {
    let bands = board.bands();
    let row = bands.lines().nth(7 - usize::from(square.rank())).unwrap();
    row.chars()
        .nth(usize::from(square.file()))
        .unwrap()
        .is_ascii_uppercase()
}

#[test]
fn the_map_follows_the_move_the_cursor_is_on() {
    let (mut board, id) = learning((120, 40), false);
    to_ply(&mut board, 0);
    assert!(
        board.legend().contains("learning… 0/10") && !board.legend().contains("nothing learned"),
        "{}",
        board.legend()
    );
    assert_eq!(board.coloured(), 0, "{}", board.bands());
    feed_five(&mut board, id);
    // At the start: the tables after the first search, g1-f3.
    assert!(
        board.legend().contains("game ply 0/10"),
        "{}",
        board.legend()
    );
    assert!(banded(&board, Square::F3) && banded(&board, Square::G1));
    assert!(!banded(&board, Square::C3) && !banded(&board, Square::B1));
    // Ply 3 (after 2. c4... before 2... Nc6): the b1-c3 tables; f3 blank.
    to_ply(&mut board, 3);
    assert!(
        board.legend().contains("game ply 3/10"),
        "{}",
        board.legend()
    );
    assert!(banded(&board, Square::C3) && banded(&board, Square::B1));
    assert!(!banded(&board, Square::F3) && !banded(&board, Square::G1));
    // Ply 7: not learnt yet.
    to_ply(&mut board, 7);
    assert!(
        board.legend().contains("learning… 5/10"),
        "{}",
        board.legend()
    );
    assert_eq!(board.coloured(), 0, "{}", board.bands());
    // Back to ply 1: g1-f3 again.
    to_ply(&mut board, 1);
    assert!(banded(&board, Square::F3) && !banded(&board, Square::C3));
    // Stopped half way: the legend says so where nothing was learnt.
    board.update(Msg::GameTablesDone { id });
    to_ply(&mut board, 8);
    assert!(
        board.legend().contains("learning stopped at 5/10"),
        "{}",
        board.legend()
    );
    // Messages of another walk change nothing.
    board.update(Msg::GameTables {
        id: id + 100,
        ply: 8,
        tables: tables(Square::G1, Square::H3, 1),
    });
    assert_eq!(board.coloured(), 0, "{}", board.bands());
}

#[test]
fn at_the_end_the_last_search_and_off_the_main_line_the_branch_point() {
    let (mut board, id) = learning((120, 40), false);
    for ply in 0..10 {
        let tables = tables(Square::G1, Square::F3, 1 + ply / 9);
        board.update(Msg::GameTables { id, ply, tables });
    }
    // Ply 9 has the last search's tables, with f3 gained twice.
    board.update(Msg::GameTables {
        id,
        ply: 9,
        tables: tables(Square::B1, Square::A3, 2),
    });
    board.update(Msg::GameTablesDone { id });
    // The final position (after the mate): no search there, the last one's.
    to_ply(&mut board, 10);
    assert!(
        board.legend().contains("game ply 10/10"),
        "{}",
        board.legend()
    );
    assert!(banded(&board, Square::A3) && !banded(&board, Square::F3));
    // A variation from ply 4 (3. Nc3 instead of 3. Ne2): the map is ply
    // 4's and says where the line leaves the game.
    to_ply(&mut board, 4);
    board.typed("Nc3");
    assert_eq!(board.ply(), 5);
    let legend = board.legend();
    assert!(
        legend.contains("game ply 4/10 · the branch point of this line"),
        "{legend}"
    );
    assert!(
        board.app.mode.analysis().unwrap().game_tables.is_some(),
        "a variation leaves the main line as it was"
    );
    assert!(banded(&board, Square::F3) && !banded(&board, Square::A3));
    // Promoted, the variation changes the main line: the tables go.
    board.key(KeyCode::Char('p'));
    assert!(board.app.mode.analysis().unwrap().game_tables.is_none());
    assert!(
        !board.legend().contains("over the game"),
        "{}",
        board.legend()
    );
    assert!(
        board.message().contains("The main line changed"),
        "{}",
        board.message()
    );
}

#[test]
fn off_goes_back_to_the_engines_tables_and_other_modes_say_where_it_works() {
    let (mut board, id) = learning((120, 40), false);
    feed_five(&mut board, id);
    board.typed("map game-history off");
    assert!(board.app.mode.analysis().unwrap().game_tables.is_none());
    assert!(
        !board.legend().contains("over the game"),
        "{}",
        board.legend()
    );
    // The walk was stopped.
    assert!(
        board.serve().iter().any(|r| *r == Request::Cancel(id)),
        "the walk is cancelled"
    );
    // :map game-history alone turns it on again, with a new walk.
    board.typed("map game-history");
    assert!(board.app.mode.analysis().unwrap().game_tables.is_some());
}

#[test]
fn game_history_snapshots() {
    for (name, size, no_color) in [
        ("game_history_80x24", (80, 24), false),
        ("game_history_120x40", (120, 40), false),
        ("game_history_no_color_80x24", (80, 24), true),
    ] {
        let (mut board, id) = learning(size, no_color);
        feed_five(&mut board, id);
        to_ply(&mut board, 3);
        let legend = board.legend();
        assert!(legend.contains("ply 3/10"), "{name}: {legend}");
        insta::assert_snapshot!(name, format!("{}\n{}", board.bands(), board.screen()));
    }
}

/// The task itself, on this thread: its last tables are `kibitz movetables
/// --pgn`'s last snapshot (the same walk, the same table size).
#[test]
fn the_walk_sends_each_ply_and_its_last_tables_are_the_clis_last_snapshot() {
    let path = testdata(MOLINARI);
    let tree = kibitz::text::games::load_game(&path, 1).unwrap();
    let mut sent = Vec::new();
    kibitz::tui::tasks::learn_game_tables(
        7,
        &tree.mainline_positions(),
        5,
        SearchOptions::default(),
        &|| false,
        &mut |msg| {
            sent.push(msg);
            true
        },
    );
    let plies: Vec<usize> = sent
        .iter()
        .filter_map(|m| match m {
            Msg::GameTables { id: 7, ply, .. } => Some(*ply),
            _ => None,
        })
        .collect();
    assert_eq!(plies, (0..10).collect::<Vec<_>>());
    assert!(matches!(sent.last(), Some(Msg::GameTablesDone { id: 7 })));
    let Some(Msg::GameTables { tables: last, .. }) = sent.iter().rev().nth(1) else {
        panic!("the last tables");
    };
    let mut out = Vec::new();
    movetables_over_game(
        OverGame {
            pgn: &path,
            game: 1,
            every: 100,
            depth: 5,
            decrement: Decrement::Tried,
            chains: false,
            format: Format::Json,
        },
        &mut out,
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    let snapshot: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(snapshot["ply"], 9);
    for (table, id) in snapshot["tables"]
        .as_array()
        .unwrap()
        .iter()
        .zip(TableId::ALL)
    {
        let weights: Vec<i64> = last.table(id).iter().map(|&w| i64::from(w)).collect();
        let touches: Vec<i64> = last.touches(id).iter().map(|&t| i64::from(t)).collect();
        assert_eq!(
            table["weights"],
            serde_json::json!(weights),
            "{}",
            id.code()
        );
        assert_eq!(
            table["touches"],
            serde_json::json!(touches),
            "{}",
            id.code()
        );
    }
    assert_eq!(
        snapshot["links"].as_array().unwrap().len(),
        last.links.len()
    );
    let (gains, losses) = last.gains_and_losses();
    assert_eq!(
        (snapshot["gains"].as_u64(), snapshot["losses"].as_u64()),
        (Some(gains), Some(losses))
    );
    // A listener gone stops the walk: no more messages after the first.
    let mut count = 0;
    kibitz::tui::tasks::learn_game_tables(
        8,
        &tree.mainline_positions(),
        5,
        SearchOptions::default(),
        &|| false,
        &mut |_| {
            count += 1;
            false
        },
    );
    assert_eq!(count, 1);
}

/// An export under `:map game-history` says which ply of the game its
/// tables come from, in the diagram's title and a CSV column.
#[test]
fn an_export_names_the_game_ply_its_tables_come_from() {
    let (mut board, id) = learning((120, 40), false);
    feed_five(&mut board, id);
    to_ply(&mut board, 3);
    let home = crate::common::TempHome::new("game-history-export");
    let diagram = home.join("ply3.txt");
    let csv = home.join("ply3.csv");
    board.typed(&format!("map export {}", diagram.display()));
    board.typed(&format!("map export {}", csv.display()));
    let text = std::fs::read_to_string(&diagram).unwrap();
    assert!(
        text.lines().next().unwrap().ends_with("· game ply 3/10"),
        "{text}"
    );
    let rows = std::fs::read_to_string(&csv).unwrap();
    let mut lines = rows.lines();
    assert!(lines.next().unwrap().ends_with(",note"), "{rows}");
    assert!(lines.all(|l| l.ends_with(",game ply 3/10")), "{rows}");
}

/// A second `on` says it is on instead of starting over; a move-table
/// setting away from the defaults is named, since it changes what the walk
/// learns.
#[test]
fn on_again_keeps_the_walk_and_settings_away_from_the_defaults_are_named() {
    let (mut board, _) = learning((120, 40), false);
    board.typed("map game-history on");
    assert!(
        !board
            .serve()
            .iter()
            .any(|r| matches!(r, Request::GameTables { .. })),
        "no second walk"
    );
    let (said, _) = board.status().unwrap();
    assert!(
        said.contains(":map game-history is on (0 of 10 plies learnt)"),
        "{said}"
    );

    let settings = kibitz::config::Settings {
        move_table_moves: 2,
        move_table_decrement: Decrement::All,
        ..kibitz::config::Settings::default()
    };
    let mut board = Board::options((120, 40))
        .settings(settings)
        .plain_text()
        .analysis();
    board.open(&testdata(MOLINARI), Some(1));
    board.typed("map game-history on");
    let (said, _) = board.status().unwrap();
    assert!(
        said.contains("(10 plies, depth 5, 2 table moves, rule all)"),
        "{said}"
    );
}
