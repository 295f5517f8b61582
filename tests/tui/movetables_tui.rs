//! The move-table heat map on the board: `App` driven by messages (keys,
//! typed `:map` commands, the engine's `Report::Stats`, teach mode's
//! record carried out by hand), the screen drawn on ratatui's `TestBackend`.
//! A text snapshot loses colour, so the snapshots carry an 8 x 8 grid of
//! each square's band as read from the cells' background colours.
#![allow(clippy::unwrap_used)]

use kibitz::config::{Settings, ThemeName};
use kibitz::engine::Command;
use kibitz::engine::movetables::{TableId, TableUpdate, TableWeights};
use kibitz::engine::trace::TraceEvent;
use kibitz::teach;
use kibitz::tui::msg::Msg;
use ratatui::crossterm::event::KeyCode;
use ratatui::style::Color as Colour;
use shakmaty::{Color, Move, Position, Role, Square};

use crate::common::board::{Board, MessageTone};
use crate::snapshot_names as insta;

/// A board of `size` in `theme`, its screen read as plain rows.
fn map_board(theme: ThemeName, size: (u16, u16)) -> Board {
    Board::options(size).theme(theme).plain_text().build()
}

/// A game as White from the dialog, 1. e4 played: the engine thinks.
fn game(theme: ThemeName, size: (u16, u16)) -> Board {
    let mut board = map_board(theme, size);
    board.key(KeyCode::Enter);
    board.typed("e4");
    assert!(board.app.mode.game().is_some_and(|p| p.engine_thinking()));
    board
}

/// The analysis board from the new-game dialog (its last choice).
fn analysis(size: (u16, u16)) -> Board {
    Board::options(size).plain_text().analysis()
}

fn knight(from: Square, to: Square) -> Move {
    Move::Normal {
        role: Role::Knight,
        from,
        capture: None,
        to,
        promotion: None,
    }
}

/// Weights for the white knight's table with a spread of values: g1 and f3
/// gain most, b1-c3 less, b1-a3 loses (a negative weight: it matters, but
/// it did not work), and a black pawn answers on e7-e5.
fn knight_weights(rounds: i32) -> TableWeights {
    let mut weights = TableWeights::default();
    let pawn = Move::Normal {
        role: Role::Pawn,
        from: Square::E7,
        capture: None,
        to: Square::E5,
        promotion: None,
    };
    let mut teach = |line: Vec<Move>, others: Vec<Move>, times: i32| {
        for _ in 0..times * rounds {
            weights.apply(&TableUpdate {
                color: Color::White,
                line: line.clone(),
                others: others.clone(),
            });
        }
    };
    teach(vec![knight(Square::G1, Square::F3), pawn], vec![], 12);
    teach(vec![knight(Square::F3, Square::G5)], vec![], 7);
    teach(vec![knight(Square::B1, Square::C3)], vec![], 4);
    teach(vec![knight(Square::C3, Square::D5)], vec![], 2);
    teach(
        vec![knight(Square::G5, Square::E6)],
        vec![knight(Square::B1, Square::A3)],
        1,
    );
    teach(vec![knight(Square::E6, Square::C7)], vec![], 2);
    weights
}

const WN: TableId = TableId {
    color: Color::White,
    role: Role::Knight,
};

#[test]
fn the_map_in_colour_256() {
    let mut board = game(ThemeName::Classic, (80, 24));
    let id = board.last_search();
    board.move_tables(id, knight_weights(1));
    board.typed("map wn");
    let legend = board.legend();
    assert!(
        legend.contains("Map: white knight · touches · most"),
        "{legend}"
    );
    board.typed("map net");
    assert!(
        board.legend().contains("white knight · net · gained"),
        "{}",
        board.legend()
    );
    let bands = board.bands();
    // The net view: f3 and g1 gained most: red; a3 only lost (once): dark
    // blue, the colour of losses; the squares never used stay blank.
    assert_eq!(bands.lines().nth(7).unwrap(), ".O....R.", "{bands}");
    assert_eq!(bands.lines().nth(5).unwrap(), "B.O..R..", "{bands}");
    insta::assert_snapshot!(
        "map_wn_classic_80x24",
        format!("{bands}\n{}", board.screen())
    );
}

#[test]
fn the_map_in_16_colours_and_digits_with_the_mono_theme() {
    let mut board = game(ThemeName::Mono, (80, 24));
    let id = board.last_search();
    board.move_tables(id, knight_weights(1));
    board.typed("map wn");
    let bands = board.bands();
    assert!(bands.contains('R') && bands.contains('B'), "{bands}");
    // The band's digit too: "1" (most) in g1's left cell beside the
    // knight.
    let screen = board.app.screen().unwrap();
    let g1 = screen.board.square_rect(Square::G1, false);
    let buffer = board.buffer();
    let cy = g1.y + g1.height / 2;
    assert_eq!(buffer[(g1.x, cy)].symbol(), "1");
    assert_eq!(buffer[(g1.x, cy)].bg, Colour::Red);
    insta::assert_snapshot!("map_wn_mono_80x24", format!("{bands}\n{}", board.screen()));
}

#[test]
fn no_color_draws_digits_and_no_band_colours() {
    let mut board = game(ThemeName::Classic, (80, 24));
    board.set_no_color(true);
    let id = board.last_search();
    board.move_tables(id, knight_weights(1));
    board.typed("map wn");
    assert_eq!(board.coloured(), 0, "{}", board.bands());
    let legend = board.legend();
    assert!(legend.contains("1 most … 6 least"), "{legend}");
    insta::assert_snapshot!("map_wn_no_color_80x24", board.screen());
}

#[test]
fn pieces_keep_the_board_colour_under_them_on_a_band() {
    let mut board = game(ThemeName::Classic, (80, 24));
    let id = board.last_search();
    board.move_tables(id, knight_weights(1));
    board.typed("map wn");
    let screen = board.app.screen().unwrap();
    let g1 = screen.board.square_rect(Square::G1, false);
    let buffer = board.buffer();
    let (cx, cy) = (g1.x + g1.width / 2, g1.y + g1.height / 2);
    assert_eq!(buffer[(cx, cy)].symbol(), "♞");
    assert_eq!(buffer[(g1.x, g1.y)].bg, Colour::Indexed(196));
    assert_ne!(buffer[(cx, cy)].bg, Colour::Indexed(196));
}

#[test]
fn map_commands_each_do_what_they_say() {
    let mut board = game(ThemeName::Classic, (80, 24));
    let id = board.last_search();
    board.move_tables(id, knight_weights(1));
    let key_line = board.legend();

    board.typed("map wn");
    assert_eq!(
        board.message(),
        ("Move-table map: white knight · touches.".into(), false)
    );
    assert!(board.legend().contains("white knight · touches"));
    let one = board.bands();

    board.typed("map all");
    assert!(
        board.legend().contains("Map: all tables · touches"),
        "{}",
        board.legend()
    );
    // The pawn's e7 and e5 count in the sum, not in the knight's table.
    assert_eq!(&one.lines().nth(1).unwrap()[4..5], ".");
    assert_ne!(&board.bands().lines().nth(1).unwrap()[4..5], ".");

    board.typed("map wn");
    board.typed("map best");
    assert!(
        board.legend().contains("white knight · best"),
        "{}",
        board.legend()
    );
    // a3 only lost weight: important, but never best.
    let a3 = |bands: &str| bands.lines().nth(5).unwrap()[0..1].to_string();
    assert_eq!(a3(&board.bands()), ".");
    board.typed("map importance");
    assert!(
        board
            .legend()
            .contains("white knight · importance (Greer's)")
    );
    assert_ne!(a3(&board.bands()), ".");
    board.typed("map touches");
    assert!(board.legend().contains("white knight · touches"));
    assert_ne!(a3(&board.bands()), ".");

    board.typed("map numbers");
    assert!(board.legend().contains("numbers"), "{}", board.legend());
    let screen = board.app.screen().unwrap();
    let a3_rect = screen.board.square_rect(Square::A3, false);
    let a3_row = |board: &Board| -> String {
        let buffer = board.buffer();
        (a3_rect.x..a3_rect.right())
            .map(|x| buffer[(x, a3_rect.y)].symbol().to_string())
            .collect()
    };
    // Touches: how often a3 was considered (it lost once: 1 touch).
    let touches = knight_weights(1).touches(WN)[Square::A3.to_usize()];
    assert_eq!(touches, 1);
    let row = a3_row(&board);
    assert_eq!(row.trim(), touches.to_string(), "a3 shows {row:?}");
    // Net: its weight, signed.
    board.typed("map net");
    let weight = knight_weights(1).weight(WN, Square::A3);
    assert!(weight < 0);
    let row = a3_row(&board);
    assert!(
        row.contains(&weight.to_string()),
        "a3 shows {row:?}, weight {weight}"
    );
    board.typed("map importance");
    board.key(KeyCode::Char('#'));
    assert!(!board.legend().contains("numbers:"));

    board.typed("map off");
    assert_eq!(board.message(), ("Move-table map off.".into(), false));
    assert_eq!(board.legend(), key_line);
    assert_eq!(board.coloured(), 0);

    board.typed("map zz");
    let (text, error) = board.message();
    assert!(error, "{text}");
    assert!(
        text.contains("':map zz' is not a table or a view"),
        "{text}"
    );
    assert!(text.contains(":map alone lists every word"), "{text}");
}

#[test]
fn keys_m_capital_m_and_hash_in_a_game_and_on_the_analysis_board() {
    for mut board in [game(ThemeName::Classic, (100, 32)), analysis((100, 32))] {
        assert!(board.legend().contains("m map"), "{}", board.legend());
        board.key(KeyCode::Char('m'));
        assert!(
            board.legend().contains("white king · touches"),
            "{}",
            board.legend()
        );
        assert!(board.legend().contains("nothing learned"));
        for _ in 0..4 {
            board.key(KeyCode::Char('m'));
        }
        assert!(board.legend().contains("white knight"));
        board.key(KeyCode::Char('M'));
        assert!(
            board
                .legend()
                .contains("white knight · importance (Greer's)")
        );
        board.key(KeyCode::Char('M'));
        assert!(board.legend().contains("white knight · net"));
        board.key(KeyCode::Char('M'));
        assert!(board.legend().contains("white knight · best"));
        board.key(KeyCode::Char('M'));
        assert!(board.legend().contains("white knight · touches"));
        board.key(KeyCode::Char('#'));
        assert!(board.legend().contains("numbers"));
        for _ in 0..8 {
            board.key(KeyCode::Char('m'));
        }
        assert!(board.legend().contains("all tables"));
        board.key(KeyCode::Char('m'));
        assert!(
            board.legend().contains("m map"),
            "off again: {}",
            board.legend()
        );
    }
}

#[test]
fn the_map_follows_the_engine_live_in_a_game() {
    let mut board = game(ThemeName::Classic, (80, 24));
    let id = board.last_search();
    board.typed("map wn");
    assert_eq!(board.coloured(), 0);
    // The first iteration taught the tables a little, the next more.
    let mut early = TableWeights::default();
    early.apply(&TableUpdate {
        color: Color::White,
        line: vec![knight(Square::G1, Square::F3)],
        others: vec![],
    });
    board.move_tables(id, early);
    assert_eq!(board.coloured(), 2, "{}", board.bands());
    board.move_tables(id, knight_weights(1));
    let later = board.coloured();
    assert!(later > 2, "{}", board.bands());
    // A report of a search that is over changes nothing.
    board.move_tables(id + 100, TableWeights::default());
    assert_eq!(board.coloured(), later);
}

#[test]
fn the_map_follows_the_analysis() {
    let mut board = analysis((100, 32));
    let first = board.last_search();
    board.typed("map all");
    board.move_tables(first, knight_weights(1));
    let before = board.bands();
    assert_ne!(before.matches('.').count(), 64);
    // A move: the analysis of the new position reports; the old one's
    // reports are dropped.
    board.typed("e4");
    let second = board.last_search();
    assert_ne!(first, second);
    board.move_tables(first, TableWeights::default());
    assert_eq!(board.bands(), before, "a stale report");
    board.move_tables(second, knight_weights(3));
    assert!(board.legend().contains("all tables"));
    let screen = board.screen();
    assert!(!screen.contains("nothing learned"), "{screen}");
}

#[test]
fn a_new_game_clears_the_tables_shown() {
    let mut board = game(ThemeName::Classic, (80, 24));
    let id = board.last_search();
    board.move_tables(id, knight_weights(1));
    board.typed("map wn");
    assert!(board.coloured() > 0);
    board.typed("new");
    board.key(KeyCode::Char('y'));
    board.key(KeyCode::Enter);
    assert!(
        board
            .app
            .take_commands()
            .iter()
            .any(|c| matches!(c, Command::NewGame)),
        "the engine is told"
    );
    assert_eq!(board.coloured(), 0, "{}", board.bands());
    assert!(
        board.legend().contains("nothing learned"),
        "{}",
        board.legend()
    );
}

/// Opening another game on the analysis board is a new game for the engine:
/// its move tables start empty, and the map shows nothing learned.
#[test]
fn another_game_on_the_analysis_board_clears_the_tables() {
    let mut board = analysis((80, 24));
    let first = board.last_search();
    board.move_tables(first, knight_weights(1));
    board.typed("map wn");
    assert!(board.coloured() > 0);
    let tree = kibitz::game::tree::GameTree::new(shakmaty::Chess::default());
    board.update(Msg::GameLoaded {
        path: "other.pgn".into(),
        number: 1,
        result: Ok(Box::new(tree)),
    });
    let commands = board.app.take_commands();
    let new_game = commands
        .iter()
        .position(|c| matches!(c, Command::NewGame))
        .expect("the engine is told of the new game");
    let go = commands
        .iter()
        .position(|c| matches!(c, Command::Go(_)))
        .expect("the new game is analysed");
    assert!(new_game < go, "the tables are cleared before the search");
    assert_eq!(board.coloured(), 0, "{}", board.bands());
    assert!(
        board.legend().contains("nothing learned"),
        "{}",
        board.legend()
    );
}

/// The game just played, taken to the analysis board, keeps what the engine
/// learned of it.
#[test]
fn the_game_taken_to_the_analysis_board_keeps_its_tables() {
    let mut board = game(ThemeName::Classic, (80, 24));
    let id = board.last_search();
    board.move_tables(id, knight_weights(1));
    board.typed("map wn");
    let before = board.bands();
    board.key(KeyCode::Char('r'));
    board.key(KeyCode::Char('y'));
    board.key(KeyCode::Esc);
    board.key(KeyCode::Char('a'));
    assert!(board.app.mode.analysis().is_some(), "{}", board.screen());
    assert!(
        !board
            .app
            .take_commands()
            .iter()
            .any(|c| matches!(c, Command::NewGame))
    );
    assert_eq!(board.bands(), before);
}

#[test]
fn the_searches_carry_the_move_table_settings() {
    let settings = Settings {
        move_table_moves: 3,
        move_table_threshold: -25,
        ..Settings::default()
    };
    let mut board = Board::options((100, 32)).settings(settings).build();
    board.key(KeyCode::Enter);
    board.typed("e4");
    let go = board.app.take_commands().into_iter().find_map(|c| match c {
        Command::Go(request) => Some(request),
        _ => None,
    });
    let options = go.map(|g| g.options);
    let (moves, threshold) = options
        .map(|o| (o.table_moves, o.table_threshold))
        .unwrap_or_default();
    assert_eq!((moves, threshold), (3, -25));
    board.analyse(shakmaty::Chess::default());
    let options = board
        .app
        .take_commands()
        .into_iter()
        .find_map(|c| match c {
            Command::Go(request) => Some(request.options),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        (
            options.table_moves,
            options.table_threshold,
            options.multipv
        ),
        (3, -25, 3)
    );
}

/// Teach mode on a curated position, its record made on this thread.
fn teach_board(size: (u16, u16)) -> Board {
    let lesson = teach::positions()
        .into_iter()
        .next()
        .expect("a teaching position");
    let mut board = map_board(ThemeName::Classic, size);
    board.analyse(lesson.position.clone());
    board.start_teach(lesson.position, lesson.depth);
    board.serve_records();
    assert!(board.ready());
    board
}

/// The position of issue 32, where the numbers ran together.
const ISSUE_FEN: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 1 9";

/// The white knight's table with these weights, each even: an update here
/// counts its square twice, as the knight's 'from' and 'to'.
fn knight_table(weights: &[(Square, i32)]) -> TableWeights {
    let mut tables = TableWeights::default();
    for &(square, weight) in weights {
        let stay = vec![knight(square, square)];
        let (line, others) = if weight > 0 {
            (stay, vec![])
        } else {
            (vec![], stay)
        };
        for _ in 0..weight.abs() / 2 {
            tables.apply(&TableUpdate {
                color: Color::White,
                line: line.clone(),
                others: others.clone(),
            });
        }
    }
    tables
}

/// The analysis board on `fen` with `tables` reported and `:map wn` on.
fn analysis_map(
    theme: ThemeName,
    no_color: bool,
    size: (u16, u16),
    fen: &str,
    tables: TableWeights,
) -> Board {
    let mut board = map_board(theme, size);
    board.set_no_color(no_color);
    let position: shakmaty::Chess = fen
        .parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap();
    board.analyse(position);
    let id = board.last_search();
    board.move_tables(id, tables);
    board.typed("map wn");
    board
}

#[test]
fn numbers_stay_apart_and_leave_the_pieces_at_every_size() {
    // Rank 7 of the issue's position: pawns on a7 b7 f7 g7 h7, a bishop on
    // e7, c7 and d7 empty.
    let rank7 = [
        (Square::A7, -44),
        (Square::B7, 1712),
        (Square::C7, 10_352),
        (Square::D7, 13_856),
        (Square::E7, 4482),
        (Square::F7, -2),
        (Square::G7, 120_000),
        (Square::H7, -123_456),
    ];
    let styles = [
        ("no_color", ThemeName::Classic, true),
        ("mono", ThemeName::Mono, false),
        ("classic", ThemeName::Classic, false),
    ];
    for size in [(60, 20), (70, 20), (80, 24), (120, 40)] {
        for (name, theme, no_color) in styles {
            let mut board = analysis_map(theme, no_color, size, ISSUE_FEN, knight_table(&rank7));
            // The net view: the signed weights, the widest numbers.
            board.typed("map net");
            board.typed("map numbers");
            let what = format!("{name} {}x{}", size.0, size.1);
            let screen = board.app.screen().unwrap();
            let buffer = board.buffer();
            let text = |y: u16, from: u16, to: u16| -> String {
                (from..to).map(|x| buffer[(x, y)].symbol()).collect()
            };
            let position = board.app.cx.board.game.position().clone();
            let digits = theme == ThemeName::Mono || no_color;
            let a7 = screen.board.square_rect(Square::A7, false);
            let h7 = screen.board.square_rect(Square::H7, false);
            let top_row = text(a7.y, a7.x, h7.right());
            let centre_row = text(a7.y + a7.height / 2, a7.x, h7.right());
            for (square, weight) in rank7 {
                let rect = screen.board.square_rect(square, false);
                let centre = buffer[(rect.x + rect.width / 2, rect.y + rect.height / 2)].symbol();
                if position.board().piece_at(square).is_some() {
                    assert!(
                        !centre.is_ascii(),
                        "{what}: {square} keeps its piece: {centre_row:?}"
                    );
                }
                if digits {
                    // The band's digit, apart from the number.
                    let y = if rect.height > 1 {
                        rect.y + rect.height / 2
                    } else {
                        rect.y
                    };
                    // The net view's band: +3 (most gained) to -3, the
                    // digit in the far corner of a narrow square.
                    let sign = buffer[(rect.x, y)].symbol();
                    let digit_x = if rect.width < 5 {
                        rect.right() - 1
                    } else {
                        rect.x + 1
                    };
                    let digit = buffer[(digit_x, y)].symbol();
                    assert!(
                        matches!(sign, "+" | "-") && matches!(digit, "1" | "2" | "3"),
                        "{what}: {square}'s band {sign:?}{digit:?} in {centre_row:?}"
                    );
                    assert_eq!(sign == "-", weight < 0, "{what}: {square}");
                }
                if rect.height > 1 {
                    let cells = text(rect.y, rect.x, rect.right());
                    let width = usize::from(rect.width) - 1;
                    assert_eq!(
                        cells.trim_start(),
                        format!(
                            "{} ",
                            kibitz::tui::heatmap::compact(i64::from(weight), width)
                        ),
                        "{what}: {square} in {top_row:?}"
                    );
                }
            }
            if screen.board.sq_h > 1 {
                let numbers: Vec<&str> = top_row.split_whitespace().collect();
                assert_eq!(numbers.len(), 8, "{what}: {top_row:?}");
                assert!(!board.legend().contains("no room"), "{what}");
            } else {
                let legend = board.legend();
                assert!(legend.contains("no room for numbers"), "{what}: {legend}");
            }
            if no_color && size != (70, 20) {
                insta::assert_snapshot!(
                    format!("map_numbers_no_color_{}x{}", size.0, size.1),
                    board.screen()
                );
            }
        }
    }
}

#[test]
fn a_square_whose_gains_and_losses_cancel_is_not_blank() {
    // g1-f3 refuted once, then failed once: g1 and f3 are back at 0, but
    // the search did consider them.
    let mut tables = TableWeights::default();
    let nf3 = vec![knight(Square::G1, Square::F3)];
    for (line, others) in [(nf3.clone(), vec![]), (vec![], nf3)] {
        tables.apply(&TableUpdate {
            color: Color::White,
            line,
            others,
        });
    }
    assert_eq!(tables.weight(WN, Square::G1), 0);
    for size in [(60, 20), (80, 24), (120, 40)] {
        let mut board = analysis_map(
            ThemeName::Classic,
            false,
            size,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            tables.clone(),
        );
        let bands = board.bands();
        // Tied as the strongest: the top band, red.
        assert_eq!(bands.lines().nth(7).unwrap(), "......R.", "{bands}");
        assert_eq!(bands.lines().nth(5).unwrap(), ".....R..", "{bands}");
        let legend = board.legend();
        assert!(!legend.contains("nothing learned"), "{legend}");
        if size.0 >= 120 {
            assert!(legend.contains("blank never considered"), "{legend}");
        }
        // The best view keeps only net gains: neither square.
        board.typed("map best");
        assert_eq!(board.coloured(), 0, "{}", board.bands());
        if size.0 >= 120 {
            let legend = board.legend();
            assert!(legend.contains("blank no net gain"), "{legend}");
        }
    }
}

#[test]
fn m_starts_at_the_table_with_the_most_weight() {
    let mut board = game(ThemeName::Classic, (80, 24));
    let id = board.last_search();
    board.move_tables(id, knight_weights(1));
    board.key(KeyCode::Char('m'));
    assert_eq!(
        board.message(),
        ("Move-table map: white knight · touches.".into(), false)
    );
    assert!(board.coloured() > 0, "{}", board.bands());
    // Round the twelve from there, then all of them, then off.
    for _ in 0..11 {
        board.key(KeyCode::Char('m'));
    }
    assert!(
        board.legend().contains("white bishop"),
        "{}",
        board.legend()
    );
    board.key(KeyCode::Char('m'));
    assert!(board.legend().contains("all tables"), "{}", board.legend());
    board.key(KeyCode::Char('m'));
    assert_eq!(board.message(), ("Move-table map off.".into(), false));
}

#[test]
fn the_map_follows_teach_mode_step_by_step() {
    let mut board = teach_board((80, 24));
    assert!(board.legend().contains("m map"), "{}", board.legend());
    board.typed("map all");
    board.typed("map numbers");
    assert!(board.legend().contains("nothing learned"));
    assert_eq!(board.coloured(), 0);
    // The first cutoff's lesson for the tables, and the step just after it.
    let (first, second) = {
        let (replay, _) = board.app.mode.teach().unwrap().ready().unwrap();
        let mut updates = replay
            .events()
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e, TraceEvent::MoveTables { .. }))
            .map(|(i, _)| i + 1);
        (updates.next().expect("a table update"), updates.next())
    };
    board.typed(&format!("step {}", first - 1));
    let before = board.screen();
    assert_eq!(board.coloured(), 0, "{}", board.bands());
    board.key(KeyCode::Char('l'));
    let after = board.bands();
    assert!(board.coloured() > 0, "the update shows: {after}");
    assert_ne!(board.screen(), before);
    insta::assert_snapshot!(
        "map_teach_first_update_numbers_80x24",
        format!("{after}\n{}", board.screen())
    );
    // Stepping back takes the lesson back.
    board.key(KeyCode::Char('h'));
    assert_eq!(board.coloured(), 0);
    assert_eq!(board.screen(), before);
    // At the next update the numbers change again.
    if let Some(second) = second {
        board.typed(&format!("step {second}"));
        let numbers = board.screen();
        board.typed(&format!("step {first}"));
        assert_ne!(
            board.screen(),
            numbers,
            "the numbers differ between updates"
        );
    }
    // While a new record is made, the map's keys still work.
    board.key(KeyCode::Char(']'));
    assert!(board.app.mode.teach().unwrap().ready().is_none());
    board.key(KeyCode::Char('m'));
    assert_eq!(board.message(), ("Move-table map off.".into(), false));
}

/// The engine's memory after a real search of the start position and one
/// after 1. e4 e5: Greer's tables in both scopes (the second search alone
/// in "search"), their links, the history and the counter-moves.
fn engine_memory() -> TableWeights {
    use kibitz::engine::heuristics::Heuristics;
    use kibitz::engine::trace::NoTrace;
    use kibitz::engine::tt::TranspositionTable;
    use kibitz::engine::{Limits, SearchOptions, search};
    let mut tt = TranspositionTable::new(16);
    let mut heuristics = Box::<Heuristics>::default();
    let start = shakmaty::Chess::default();
    let mut after = start.clone();
    for uci in ["e2e4", "e7e5"] {
        let m = uci
            .parse::<shakmaty::uci::UciMove>()
            .unwrap()
            .to_move(&after)
            .unwrap();
        after.play_unchecked(m);
    }
    for position in [start, after] {
        search::search_kept(
            &position,
            &[],
            &Limits::depth(5),
            SearchOptions::default(),
            (&mut tt, &mut heuristics),
            &|| false,
            &mut NoTrace,
        );
    }
    heuristics.maps()
}

/// `:map history`, `:map scope`, the net view, `:map links` and `:map
/// counter` in a game, on the analysis board and in teach mode, at 80x24
/// and 120x40, in colour, in the mono theme and under NO_COLOR.
#[test]
fn history_scope_net_links_and_counter_in_every_mode_and_palette() {
    use kibitz::engine::movetables::Scope;
    let memory = engine_memory();
    // The two scopes differ: the second search alone is smaller.
    let touches = |scope| -> u64 {
        TableId::ALL
            .iter()
            .map(|&id| {
                memory
                    .scope(scope)
                    .touches(id)
                    .iter()
                    .map(|&t| u64::from(t))
                    .sum::<u64>()
            })
            .sum()
    };
    assert!(touches(Scope::Search) > 0 && touches(Scope::Search) < touches(Scope::Game));
    assert!(!memory.links.is_empty());
    let styles = [
        ("classic", ThemeName::Classic, false),
        ("mono", ThemeName::Mono, false),
        ("no_color", ThemeName::Classic, true),
    ];
    for mode in ["play", "analysis", "teach"] {
        for size in [(80, 24), (120, 40)] {
            for (style, theme, no_color) in styles {
                let what = format!("{mode} {style} {}x{}", size.0, size.1);
                let mut board = match mode {
                    "play" => {
                        let mut board = game(theme, size);
                        let id = board.last_search();
                        board.move_tables(id, memory.clone());
                        board
                    }
                    "analysis" => {
                        let mut board = map_board(theme, size);
                        board.analyse(shakmaty::Chess::default());
                        let id = board.last_search();
                        board.move_tables(id, memory.clone());
                        board
                    }
                    _ => {
                        let mut board = teach_board(size);
                        if theme == ThemeName::Mono {
                            board = {
                                let mut mono =
                                    Board::options(size).theme(theme).plain_text().build();
                                let lesson = teach::positions().into_iter().next().unwrap();
                                mono.analyse(lesson.position.clone());
                                mono.start_teach(lesson.position, lesson.depth);
                                mono.serve_records();
                                let end = mono.app.mode.teach().unwrap().ready().unwrap().0.len();
                                mono.typed(&format!("step {end}"));
                                mono
                            };
                        } else {
                            let end = board.app.mode.teach().unwrap().ready().unwrap().0.len();
                            board.typed(&format!("step {end}"));
                        }
                        board
                    }
                };
                board.set_no_color(no_color);
                let heat =
                    |board: &Board| board.app.cx.map.heat(board.app.map_tables(), None).unwrap();
                // The history heuristic's tables, all twelve summed.
                board.typed("map history");
                let legend = board.legend();
                assert!(legend.contains("History"), "{what}: {legend}");
                if mode == "teach" {
                    assert!(legend.contains("at the search's end"), "{what}: {legend}");
                }
                assert!(heat(&board).learned, "{what}: no history");
                assert!(heat(&board).bands.iter().any(Option::is_some), "{what}");
                board.typed("map net");
                let net = heat(&board);
                // Gains in bands 0-2, losses in 3-5: the sign decides.
                for (i, band) in net.bands.iter().enumerate() {
                    if let Some(band) = band {
                        assert_eq!(*band < 3, net.numbers[i] > 0, "{what}: square {i}");
                    }
                }
                insta::assert_snapshot!(
                    format!("map_history_net_{mode}_{style}_{}x{}", size.0, size.1),
                    format!("{}\n{}", board.bands(), board.screen())
                );
                // Back to Greer's tables: this search's, in the net view.
                board.typed("map tables");
                board.typed("map scope search");
                let legend = board.legend();
                assert!(legend.contains("net"), "{what}: {legend}");
                assert!(legend.contains("this search"), "{what}: {legend}");
                let search_heat = heat(&board);
                board.typed("map scope game");
                assert!(!board.legend().contains("this search"));
                if mode != "teach" {
                    // The engine's two scopes differ; teach mode's record
                    // is one search, so its two are the same.
                    assert_ne!(search_heat.numbers, heat(&board).numbers, "{what}");
                }
                // The links, in words, a line each in the plain-lines view.
                board.typed("map links");
                let (text, error) = board.message();
                assert!(!error, "{what}: {text}");
                // (This lesson's refutations are single moves: no links.)
                let expected = match mode {
                    "teach" => "No links yet for all tables since the game began.".to_string(),
                    _ => match memory.links.len() {
                        1 => "1 link for all tables since the game began.".to_string(),
                        n => format!("{n} links for all tables since the game began."),
                    },
                };
                assert_eq!(text, expected, "{what}");
                let lines = overlay_lines(&board);
                assert!(
                    lines.iter().any(|l| l.starts_with("A link joins")),
                    "{what}: {lines:?}"
                );
                if mode != "teach" {
                    assert!(lines[1].starts_with("- after the "), "{what}: {lines:?}");
                }
                board.key(KeyCode::Esc);
                // The counter-move to the last move on the board.
                board.typed("map counter");
                let legend = board.legend();
                assert!(legend.contains("Counter-move"), "{what}: {legend}");
                assert!(
                    legend.contains("last refuted by")
                        || legend.contains("none learnt yet")
                        || legend.contains("no move played"),
                    "{what}: {legend}"
                );
                board.typed("map tables");
                board.typed("map off");
            }
        }
    }
}

/// The lines of the plain-lines view on show (`:map`, `:map links`, `D`).
fn overlay_lines(board: &Board) -> Vec<String> {
    match &board.app.cx.overlay {
        kibitz::tui::overlays::Overlay::Describe(view) => view.lines.clone(),
        _ => panic!("no plain-lines view on show:\n{}", board.screen()),
    }
}

/// The legend keeps the map's keys and its strongest link at 80 and 120
/// columns (the link, in words, pushed the keys off both): the link in
/// the tables' codes, the parts left off the least needed first.
#[test]
fn the_legend_keeps_its_keys_and_the_link_at_80_and_120_columns() {
    for size in [(80, 24), (120, 40)] {
        for no_color in [false, true] {
            let mut board = game(ThemeName::Classic, size);
            board.set_no_color(no_color);
            let id = board.last_search();
            board.move_tables(id, knight_weights(1));
            board.typed("map wn");
            let legend = board.legend();
            let what = format!("{}x{} no_color {no_color}", size.0, size.1);
            assert!(
                legend.contains("m next, M view, # numbers"),
                "{what}: {legend}"
            );
            assert!(
                legend.trim_end().chars().count() <= usize::from(size.0),
                "{what}"
            );
            if size.0 >= 120 {
                assert!(legend.contains("link wn g1→bp e7 ×12"), "{what}: {legend}");
            }
            // Something had to go: it says so.
            assert!(legend.contains('…'), "{what}: {legend}");
        }
    }
}

/// `:map` alone lists every word, a line each, readable at 80 columns; a
/// word it does not know is answered in a line that fits; `:map links`
/// gives the links in words, whole, at any width.
#[test]
fn map_alone_lists_every_word_and_the_links_read_whole_at_80_columns() {
    let mut board = game(ThemeName::Classic, (80, 24));
    let id = board.last_search();
    board.move_tables(id, knight_weights(1));
    board.typed("map");
    let lines = overlay_lines(&board);
    for word in [
        ":map wn",
        ":map all",
        ":map off",
        ":map touches",
        ":map importance: Greer's importance",
        ":map net",
        ":map best: Greer's best",
        ":map numbers",
        ":map scope search|game",
        ":map history",
        ":map counter",
        ":map tables",
        ":map links",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(word)),
            "{word}: {lines:?}"
        );
    }
    let screen = board.screen();
    assert!(screen.contains("The map's words"), "{screen}");
    assert!(!screen.contains('…'), "{screen}");
    board.key(KeyCode::Esc);
    board.typed("map zz");
    let (text, error) = board.message();
    assert!(error);
    let status = board
        .screen()
        .lines()
        .nth(22)
        .unwrap_or_default()
        .to_string();
    assert!(status.contains(&text), "{status}");
    board.typed("map wn");
    board.typed("map links");
    let lines = overlay_lines(&board);
    assert!(
        lines.contains(
            &"- after the white knight leaves g1, the black pawn from e7 answered 12 times."
                .to_string()
        ),
        "{lines:?}"
    );
    let screen = board.screen();
    assert!(
        screen.contains("Move-table links: white knight"),
        "{screen}"
    );
    assert!(screen.contains("answered 12 times."), "{screen}");
    assert!(!screen.contains('…'), "{screen}");
    board.key(KeyCode::Esc);
    // This search alone made no link: the scope applies.
    board.typed("map scope search");
    let mut search_only = knight_weights(1);
    search_only.search_links.clear();
    board.move_tables(id, search_only);
    board.typed("map links");
    assert_eq!(
        board.message().0,
        "No links yet for white knight in this search."
    );
    board.key(KeyCode::Esc);
    assert!(!board.legend().contains("link "), "{}", board.legend());
}

/// Under NO_COLOR at 80 x 24 (squares two rows tall) a band's mark sits
/// beside its own piece, on the row of the rank's label, not in the row
/// under the rank above; the last move's brackets leave it whole.
#[test]
fn no_color_band_marks_sit_beside_their_piece_and_brackets_leave_them() {
    let mut board = game(ThemeName::Classic, (80, 24));
    board.set_no_color(true);
    let id = board.last_search();
    let pawn = Move::Normal {
        role: Role::Pawn,
        from: Square::E2,
        capture: None,
        to: Square::E4,
        promotion: None,
    };
    let mut tables = knight_weights(1);
    tables.apply(&TableUpdate {
        color: Color::White,
        line: vec![pawn],
        others: vec![],
    });
    board.move_tables(id, tables);
    // The cursor away from the squares read.
    board.set_cursor(Square::A8);
    board.typed("map wp");
    let screen = board.app.screen().unwrap();
    let buffer = board.buffer();
    let row = |rect: ratatui::layout::Rect, y: u16| -> String {
        (rect.x..rect.right())
            .map(|x| buffer[(x, y)].symbol().to_string())
            .collect()
    };
    let e4 = screen.board.square_rect(Square::E4, false);
    assert_eq!(e4.height, 2);
    let cy = e4.y + e4.height / 2;
    // The rank's label is on the piece's row.
    assert_eq!(buffer[(0, cy)].symbol(), "4");
    // e2 and e4 were considered once each: tied as the strongest, the
    // top band.
    assert_eq!(row(e4, cy), "1(♙) ", "e4's piece row");
    assert_eq!(
        row(e4, e4.y).trim(),
        "",
        "nothing in the row above the piece"
    );
    // The net view's signed marks: a sign and a digit, both whole beside
    // the brackets.
    board.typed("map net");
    let buffer = board.buffer();
    let row = |rect: ratatui::layout::Rect, y: u16| -> String {
        (rect.x..rect.right())
            .map(|x| buffer[(x, y)].symbol().to_string())
            .collect()
    };
    // Beside the last move's brackets in a square five wide there is no
    // room for both: the mark goes to the row above the piece, whole.
    assert_eq!(row(e4, cy), " (♙) ", "e4's piece row");
    assert_eq!(row(e4, e4.y), "+3   ", "e4's row above the piece");
    // The same where the cursor's brackets take the corners.
    board.set_cursor(Square::E4);
    let buffer = board.buffer();
    let row = |rect: ratatui::layout::Rect, y: u16| -> String {
        (rect.x..rect.right())
            .map(|x| buffer[(x, y)].symbol().to_string())
            .collect()
    };
    assert_eq!(row(e4, cy), "[(♙)]", "e4's piece row under the cursor");
    assert_eq!(row(e4, e4.y), "+3   ", "e4's row above the piece");

    insta::assert_snapshot!("map_wp_net_no_color_80x24", board.screen());
}

/// The history heuristic keeps a score: a square at 0 was never scored, or
/// its bonuses and penalties cancelled.
#[test]
fn the_history_legend_says_a_score_back_at_0_is_blank_too() {
    let mut board = game(ThemeName::Classic, (120, 40));
    let id = board.last_search();
    board.move_tables(id, engine_memory());
    board.typed("map history");
    let legend = board.legend();
    assert!(
        legend.contains("blank 0: never scored or back to 0"),
        "{legend}"
    );
    assert!(!legend.contains("never considered"), "{legend}");
    board.typed("map net");
    assert!(
        board
            .legend()
            .contains("blank 0: never scored or back to 0")
    );
}

/// `?` names every view of the map.
#[test]
fn the_help_names_every_view() {
    for mut board in [
        game(ThemeName::Classic, (80, 24)),
        analysis((80, 24)),
        teach_board((80, 24)),
    ] {
        board.key(KeyCode::Char('?'));
        let screen = board.screen();
        assert!(screen.contains("touches/importance/net/best"), "{screen}");
    }
}

/// Teach mode's tables learn by the rule the settings name: under
/// `move_table_decrement = "all"` every other legal move at a cutoff loses
/// weight, and the caption says so.
#[test]
fn teach_mode_learns_by_the_decrement_the_settings_name() {
    use kibitz::engine::movetables::Decrement;
    let lesson = teach::positions().into_iter().next().unwrap();
    let losses = |decrement: Decrement| {
        let settings = Settings {
            move_table_decrement: decrement,
            ..Settings::default()
        };
        let mut board = Board::options((120, 40))
            .settings(settings)
            .plain_text()
            .build();
        board.analyse(lesson.position.clone());
        board.start_teach(lesson.position.clone(), lesson.depth);
        board.serve_records();
        assert!(board.ready());
        let teach = board.app.mode.teach().unwrap();
        assert_eq!(teach.setup.options.table_decrement, decrement);
        let (replay, _) = teach.ready().unwrap();
        // Each update's losers: every other legal move under "all".
        let mut step = replay.step(0);
        let mut checked = 0;
        for (i, event) in replay.events().iter().enumerate() {
            if let TraceEvent::MoveTables { update, .. } = event {
                replay.seek(&mut step, i);
                let position = &step.current().unwrap().position;
                if decrement == Decrement::All {
                    assert_eq!(update.others.len() + 1, position.legal_moves().len());
                    let caption = teach::caption::caption(replay, &replay.step(i + 1));
                    assert!(caption.contains("other legal move"), "{caption}");
                }
                checked += 1;
            }
        }
        assert!(checked > 0);
        replay.step(replay.len()).tables.gains_and_losses().1
    };
    let tried = losses(Decrement::Tried);
    let all = losses(Decrement::All);
    assert!(all > tried, "all {all}, tried {tried}");
}
