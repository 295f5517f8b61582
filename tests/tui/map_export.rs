//! The overlay of two tables (`:map wn+bq`) and `:map export FILE` on the
//! board: `App` driven by typed commands, the engine's tables sent by
//! hand, the screen drawn on ratatui's `TestBackend`, files written into a
//! temporary folder.
#![allow(clippy::unwrap_used)]

use kibitz::config::ThemeName;
use kibitz::engine::movetables::{TableUpdate, TableWeights};
use ratatui::crossterm::event::KeyCode;
use shakmaty::{Color, Move, Role, Square};

use crate::common::TempHome;
use crate::common::board::Board;
use crate::snapshot_names as insta;

fn said(board: &Board) -> String {
    board.status().map(|(text, _)| text).unwrap_or_default()
}

fn step(role: Role, from: Square, to: Square) -> Move {
    Move::Normal {
        role,
        from,
        capture: None,
        to,
        promotion: None,
    }
}

/// The white knight's and black queen's tables, counted by hand (the same
/// as the unit tests' `overlay::tests::hand_built`): wn g1 2 touches, f3 3,
/// e5 1, b1 1, c3 2, d5 1; bq d8 3, f6 6, f3 3, e5 1, a5 2, a4 1. Both:
/// f3 (3 and 3) and e5 (1 and 1). Links between them: wn g1→bq d8 ×2,
/// wn b1→bq d8 ×1, bq a5→wn c3 ×1; and wp e2→bp e7, not theirs.
fn hand_built() -> TableWeights {
    use Square::*;
    let (n, q, p) = (Role::Knight, Role::Queen, Role::Pawn);
    let mut weights = TableWeights::default();
    let mut teach = |color, line: Vec<Move>, others: Vec<Move>, times| {
        for _ in 0..times {
            weights.apply(&TableUpdate {
                color,
                line: line.clone(),
                others: others.clone(),
            });
        }
    };
    let (w, b) = (Color::White, Color::Black);
    teach(w, vec![step(n, G1, F3), step(q, D8, F6)], vec![], 2);
    teach(b, vec![step(q, F6, F3)], vec![], 3);
    teach(w, vec![], vec![step(n, F3, E5)], 1);
    teach(b, vec![step(q, F6, E5)], vec![], 1);
    teach(w, vec![step(n, B1, C3), step(q, D8, A5)], vec![], 1);
    teach(b, vec![step(q, A5, A4), step(n, C3, D5)], vec![], 1);
    teach(w, vec![step(p, E2, E4), step(p, E7, E5)], vec![], 1);
    weights
}

/// A game as White from the dialog, 1. e4 played, the engine's tables
/// those of [`hand_built`].
fn game(theme: ThemeName, size: (u16, u16)) -> Board {
    let mut board = Board::options(size).theme(theme).plain_text().build();
    board.key(KeyCode::Enter);
    board.typed("e4");
    let id = board.last_search();
    board.move_tables(id, hand_built());
    board
}

#[test]
fn the_overlay_at_80x24() {
    let mut board = game(ThemeName::Classic, (80, 24));
    board.typed("map wn+bq");
    assert_eq!(
        said(&board),
        "Move-table map: white knight ∩ black queen · 2 shared · 3 links · touches."
    );
    let bands = board.bands();
    // f3 (3 and 3) is the top band, red; e5 (1 and 1) the fourth, green;
    // every other square blank.
    assert_eq!(bands.lines().nth(3).unwrap(), "....G...", "{bands}");
    assert_eq!(bands.lines().nth(5).unwrap(), ".....R..", "{bands}");
    assert_eq!(board.coloured(), 2, "{bands}");
    let legend = board.legend();
    assert!(
        legend.starts_with(" Map: wn ∩ bq · touches · 2 shared · 3 links · most"),
        "{legend}"
    );
    insta::assert_snapshot!(
        "overlay_wn_bq_classic_80x24",
        format!("{bands}\n{}", board.screen())
    );
}

#[test]
fn the_overlay_at_120x40_says_what_its_value_is() {
    let mut board = game(ThemeName::Classic, (120, 40));
    board.typed("map overlay wn bq");
    let legend = board.legend();
    for part in [
        "wn ∩ bq",
        "2 shared · 3 links",
        "value min(wn, bq)",
        "m next, M view, # numbers",
    ] {
        assert!(legend.contains(part), "{part}: {legend}");
    }
    board.typed("map net");
    let legend = board.legend();
    // A magnitude has no sign: the overlay's net view is ranked 1 to 6,
    // not gained and lost.
    assert!(
        legend.contains("value min(|wn|, |bq|), no sign"),
        "{legend}"
    );
    assert!(legend.contains("most"), "{legend}");
    assert!(!legend.contains("gained"), "{legend}");
    board.typed("map touches");
    insta::assert_snapshot!(
        "overlay_wn_bq_classic_120x40",
        format!("{}\n{}", board.bands(), board.screen())
    );
}

#[test]
fn the_overlay_under_no_color() {
    let mut board = game(ThemeName::Classic, (80, 24));
    board.set_no_color(true);
    board.typed("map wn+bq");
    assert_eq!(board.coloured(), 0);
    // The band's digit marks the two squares: 1 on f3, 4 on e5.
    assert!(
        board.square_text(Square::F3).contains('1'),
        "{}",
        board.screen()
    );
    assert!(
        board.square_text(Square::E5).contains('4'),
        "{}",
        board.screen()
    );
    assert!(
        board.legend().contains("1 most … 6 least"),
        "{}",
        board.legend()
    );
    insta::assert_snapshot!("overlay_wn_bq_no_color_80x24", board.screen());
    // With the numbers on, the cursor's square has no row for its band's
    // digit: the legend says it.
    board.set_cursor(Square::F3);
    board.key(KeyCode::Char('#'));
    let legend = board.legend();
    assert!(legend.contains(" · f3 1"), "{legend}");
    board.set_cursor(Square::A8);
    assert!(!board.legend().contains(" · a8"), "{}", board.legend());
}

#[test]
fn m_and_map_all_leave_the_overlay_and_map_links_lists_its_links() {
    let mut board = game(ThemeName::Classic, (120, 40));
    board.typed("map wn+bq");
    board.typed("map links");
    assert_eq!(
        said(&board),
        "3 links between the white knight and black queen since the game began."
    );
    board.key(KeyCode::Esc);
    // `:map` alone: the overlay's legend whole, which 80 columns cut.
    board.typed("map");
    let screen = board.screen();
    assert!(
        screen.contains("2 squares shared; 3 links between wn and bq"),
        "{screen}"
    );
    board.key(KeyCode::Esc);
    board.key(KeyCode::Char('m'));
    assert!(
        board.legend().contains("Map: white knight · touches"),
        "{}",
        board.legend()
    );
    board.typed("map wn+bq");
    board.typed("map all");
    assert!(
        board.legend().contains("Map: all tables"),
        "{}",
        board.legend()
    );
    board.typed("map wn+wn");
    assert!(
        said(&board).contains("two different tables"),
        "{}",
        said(&board)
    );
}

#[test]
fn export_writes_the_map_shown_as_csv_or_a_diagram() {
    let home = TempHome::new("map-export");
    let mut board = game(ThemeName::Classic, (80, 24));
    let csv = home.join("overlay.csv");
    board.typed(&format!("map export {}", csv.display()));
    assert!(
        said(&board).starts_with("No map is shown"),
        "{}",
        said(&board)
    );
    assert!(!csv.exists());

    board.typed("map wn+bq");
    board.typed(&format!("map export {}", csv.display()));
    assert!(
        said(&board).starts_with("Map wn+bq written to overlay.csv in "),
        "{}",
        said(&board)
    );
    assert!(
        said(&board).ends_with(": CSV, 64 rows and a header."),
        "{}",
        said(&board)
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().count(), 65);
    assert_eq!(
        text.lines().next().unwrap(),
        "square,value,band,table,view,scope,source,wn,bq"
    );
    assert!(
        text.contains("\nf3,3,1,wn+bq,touches,game,tables,3,3\n"),
        "{text}"
    );
    assert!(
        text.contains("\ne5,1,4,wn+bq,touches,game,tables,1,1\n"),
        "{text}"
    );

    // Any other name: the diagram, as the board shows the map.
    let diagram = home.join("overlay.txt");
    board.typed(&format!("map export {}", diagram.display()));
    assert!(
        said(&board).ends_with(": diagram, 13 lines."),
        "{}",
        said(&board)
    );
    let text = std::fs::read_to_string(&diagram).unwrap();
    assert!(
        text.starts_with("Move-table map: white knight ∩ black queen · touches"),
        "{text}"
    );
    assert!(text.contains("\n3 . . . . . 3 . .\n"), "{text}");
}

#[test]
fn export_keeps_a_file_unless_told_to_replace_it() {
    let home = TempHome::new("map-export-replace");
    let mut board = game(ThemeName::Classic, (80, 24));
    board.typed("map wn");
    let path = home.join("map.txt");
    std::fs::write(&path, "mine").unwrap();
    board.typed(&format!("map export {}", path.display()));
    assert!(
        said(&board).starts_with("map.txt exists in "),
        "{}",
        said(&board)
    );
    assert!(
        said(&board).ends_with(": :map export! replaces it."),
        "{}",
        said(&board)
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "mine");
    board.typed(&format!("map export! {}", path.display()));
    assert!(said(&board).contains("written to"), "{}", said(&board));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with("Move-table map: white knight · touches"),
        "{text}"
    );
}

#[test]
fn export_refuses_a_missing_folder_a_folder_and_a_fifo() {
    let home = TempHome::new("map-export-where");
    let mut board = game(ThemeName::Classic, (80, 24));
    board.typed("map all");
    let missing = home.join("no/such");
    board.typed(&format!("map export {}", missing.join("map.csv").display()));
    assert!(
        said(&board).ends_with("/no/such: no such folder"),
        "{}",
        said(&board)
    );
    assert!(!home.join("no").exists(), "no folder was made");
    board.typed(&format!("map export {}", home.path().display()));
    assert!(
        said(&board).contains("it is a directory"),
        "{}",
        said(&board)
    );
    let fifo = home.join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    board.typed(&format!("map export {}", fifo.display()));
    assert!(said(&board).contains("FIFO"), "{}", said(&board));
    board.typed("map export");
    assert!(said(&board).contains("FILE.csv"), "{}", said(&board));
    // A word that only starts like it is not an export.
    board.typed(&format!("map exportx {}", home.join("x.csv").display()));
    assert!(said(&board).contains("is not a table"), "{}", said(&board));
    assert!(!home.join("x.csv").exists());
}

/// The analysis board and teach mode export the map they show.
#[test]
fn export_from_the_analysis_board_and_teach_mode() {
    let home = TempHome::new("map-export-modes");
    let mut board = Board::options((80, 24)).plain_text().analysis();
    let id = board.last_search();
    board.move_tables(id, hand_built());
    board.typed("map bq");
    let path = home.join("analysis.txt");
    board.typed(&format!("map export {}", path.display()));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\n6 . . . . . 6 . .\n"), "{text}");

    let position = kibitz::game::fen::parse_fen("8/8/4k3/8/8/4K3/4P3/8 w - - 0 1").unwrap();
    let mut board = Board::teach(position, 2, (80, 24));
    board.typed("map all");
    let path = home.join("teach.csv");
    board.typed(&format!("map export {}", path.display()));
    assert!(said(&board).contains("written to"), "{}", said(&board));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(",all,touches,game,tables\n"), "{text}");
    // Teach mode steps one search: its map is not the game's.
    let path = home.join("teach.txt");
    board.typed(&format!("map export {}", path.display()));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with(
            "Move-table map: all tables · touches · the search replayed, up to this step\n"
        ),
        "{text}"
    );
}

/// The status line's row on the screen (above the legend).
fn status_row(board: &Board) -> String {
    let screen = board.screen();
    screen.lines().rev().nth(1).unwrap_or("").to_string()
}

/// A long folder: the status line keeps the file's name and the verdict,
/// the folder cut in the middle; a refusal is never a lone "…".
#[test]
fn a_long_path_keeps_the_name_and_the_verdict_at_80_columns() {
    let home = TempHome::new("map-export-long");
    let folder = home.join("a-rather-long-folder-name/with/another/level/of/maps");
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join("map.csv");
    let mut board = game(ThemeName::Classic, (80, 24));
    board.typed("map wn+bq");
    board.typed(&format!("map export {}", path.display()));
    let row = status_row(&board);
    assert!(
        row.starts_with(" Map wn+bq written to map.csv in "),
        "{row}"
    );
    assert!(path.exists());
    board.typed(&format!("map export {}", path.display()));
    let row = status_row(&board);
    assert!(
        row.starts_with(" map.csv exists in ") && row.contains(": :map export! replaces it."),
        "{row}"
    );
    // A folder that is not there: the reason stays on the line.
    board.typed(&format!(
        "map export {}",
        folder.join("no/such/x.txt").display()
    ));
    let row = status_row(&board);
    assert!(
        row.starts_with(" x.txt not written: ") && row.contains(": no such folder "),
        "{row}"
    );
}

/// `"a name.csv"` loses its quotes; `! y.csv` replaces y.csv.
#[test]
fn export_reads_quotes_and_a_spaced_bang() {
    let home = TempHome::new("map-export-names");
    let mut board = game(ThemeName::Classic, (80, 24));
    board.typed("map wn");
    let quoted = home.join("quoted name.csv");
    board.typed(&format!("map export \"{}\"", quoted.display()));
    assert!(quoted.exists(), "{}", said(&board));
    let y = home.join("y.csv");
    std::fs::write(&y, "mine").unwrap();
    board.typed(&format!("map export ! {}", y.display()));
    assert!(
        said(&board).contains("written to y.csv"),
        "{}",
        said(&board)
    );
    assert_ne!(std::fs::read_to_string(&y).unwrap(), "mine");
    let names: Vec<String> = std::fs::read_dir(home.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names
            .iter()
            .all(|n| !n.starts_with('"') && !n.starts_with('!')),
        "{names:?}"
    );
}

/// The status line says which map was written: the history's, the
/// counter-move's.
#[test]
fn export_names_the_history_and_counter_maps() {
    let home = TempHome::new("map-export-sources");
    let mut board = game(ThemeName::Classic, (80, 24));
    board.typed("map wn+bq");
    board.typed("map history");
    board.typed(&format!("map export {}", home.join("h.csv").display()));
    assert!(
        said(&board).starts_with("History map wn+bq written to h.csv"),
        "{}",
        said(&board)
    );
    let text = std::fs::read_to_string(home.join("h.csv")).unwrap();
    assert!(text.contains(",wn+bq,|score|,,history,"), "{text}");
    board.typed("map counter");
    board.typed(&format!("map export {}", home.join("c.csv").display()));
    assert!(
        said(&board).starts_with("Counter-move map written to c.csv"),
        "{}",
        said(&board)
    );
}

/// `M` and `#` on an overlay keep its counts on the status line; at 60
/// columns with `#` the legend keeps its colour scale.
#[test]
fn keys_keep_the_overlay_counts_and_the_scale_stays() {
    let mut board = game(ThemeName::Classic, (60, 20));
    board.typed("map wn+bq");
    board.key(KeyCode::Char('M'));
    assert!(
        said(&board).contains("· 2 shared · 3 links · importance"),
        "{}",
        said(&board)
    );
    board.key(KeyCode::Char('#'));
    assert!(
        said(&board).contains("· 2 shared · 3 links ·"),
        "{}",
        said(&board)
    );
    let legend = board.legend();
    assert!(
        legend.contains("most") && legend.contains("least"),
        "{legend}"
    );
}

/// The overlay's net view says its value has no sign.
#[test]
fn the_overlay_net_legend_says_it_has_no_sign() {
    let mut board = game(ThemeName::Classic, (120, 40));
    board.typed("map wn+bq");
    board.typed("map net");
    let legend = board.legend();
    assert!(
        legend.contains("value min(|wn|, |bq|), no sign"),
        "{legend}"
    );
}
