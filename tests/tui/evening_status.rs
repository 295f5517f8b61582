//! Issue 51, "a player's evening without surprises": the status line while
//! endgame tables are made in the background, the game list's and the
//! review's tables lined up under their headers, review-all's estimate,
//! the side panels' wording.

use kibitz::tui::msg::Msg;

use crate::common::board::Board;

/// Three pieces: the game is near the tables at once.
const KQK: &str = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1";

/// A game within five pieces, with no table on disk: background table
/// making is asked for (the default setting) and, as the loop does, started.
fn making_tables(size: (u16, u16)) -> (Board, std::sync::Arc<std::sync::atomic::AtomicBool>) {
    use kibitz::tablebase::{Builtin, Tablebases};
    let mut h = Board::blitz(size, Some(KQK));
    h.update(Msg::Tablebases(std::sync::Arc::new(Tablebases::new(
        Builtin::new(),
    ))));
    h.start();
    let stop = h
        .app
        .cx
        .services
        .start_tables()
        .expect("tables are made near the end of a game");
    (h, stop)
}

#[test]
fn the_status_line_says_which_table_is_made_and_how_to_stop_it() {
    use std::sync::atomic::Ordering;
    for size in [(80, 24), (120, 40)] {
        let (mut h, stop) = making_tables(size);
        h.update(Msg::TableProgress {
            table: "KQvKP".into(),
            fraction: 0.43,
        });
        // The game's message ("New game: …") keeps the left: the making is
        // on the right.
        assert!(h.status().is_some());
        let line = h.row_with("tables 43%");
        assert!(
            line.contains("tables 43% · :tables off stops \""),
            "{size:?}: {}",
            h.screen()
        );
        // With no message, the whole of it on the left.
        h.app.cx.message = None;
        let line = h.row_with("Making endgame tables");
        assert!(
            line.contains(" Making endgame tables: 43%, now KQvKP · :tables off stops"),
            "{size:?}: {}",
            h.screen()
        );
        // A message of the game comes first again.
        h.typed("Kb3");
        assert!(h.status().is_some(), "an illegal move is said");
        assert!(
            h.row_with("Making endgame tables").is_empty(),
            "{}",
            h.screen()
        );
        h.update(Msg::TableProgress {
            table: "KRvKP".into(),
            fraction: 0.5,
        });
        assert!(!h.row_with("tables 50%").is_empty(), "{}", h.screen());
        h.app.cx.message = None;
        assert!(
            !h.row_with("Making endgame tables: 50%, now KRvKP")
                .is_empty(),
            "{}",
            h.screen()
        );

        // `:tables off` stops the generating threads and says how to keep
        // it off for good.
        h.typed("tables off");
        assert!(
            stop.load(Ordering::Relaxed),
            "the generator is told to stop"
        );
        let (said, _) = h.status().expect("a message");
        assert!(
            said.starts_with("Endgame table making stopped for this session"),
            "{said}"
        );
        assert!(said.contains("tablebase_generation = \"off\""), "{said}");
        // Late news from the stopped threads changes nothing.
        h.app.cx.message = None;
        h.update(Msg::TableProgress {
            table: "KRvKP".into(),
            fraction: 0.6,
        });
        assert!(
            h.row_with("Making endgame tables").is_empty(),
            "{}",
            h.screen()
        );
        assert!(h.row_with("tables 60%").is_empty(), "{}", h.screen());
        // Off for the session: coming near the tables again starts nothing.
        h.app.cx.near_tables_reached();
        assert!(h.app.cx.services.start_tables().is_none());

        // `:tables on` starts again, with a flag of its own.
        h.typed("tables on");
        let again = h.app.cx.services.start_tables().expect("on again");
        assert!(!again.load(Ordering::Relaxed));
        h.update(Msg::TableProgress {
            table: "KPvKP".into(),
            fraction: 1.0,
        });
        let (said, _) = h.status().expect("a message");
        assert!(said.starts_with("Endgame tables ready"), "{said}");
        assert!(h.row_with("Making endgame tables").is_empty());
        assert!(h.row_with(":tables off stops").is_empty());
    }
}

/// Whether each header label of `header` starts (left-aligned columns) or
/// ends (right-aligned ones) where a cell of `row` does. `labels`: the
/// header's words, with `true` for the right-aligned ones.
fn lined_up(header: &str, row: &str, labels: &[(&str, bool)]) -> Result<(), String> {
    let header: Vec<char> = header.chars().collect();
    let row: Vec<char> = row.chars().collect();
    let blank = |at: usize| row.get(at).is_none_or(|c| *c == ' ');
    let mut from = 0;
    for &(label, right) in labels {
        let word: Vec<char> = label.chars().collect();
        let start = (from..header.len())
            .find(|&i| header[i..].starts_with(&word))
            .ok_or_else(|| format!("no {label:?} in the header"))?;
        from = start + word.len();
        let ok = if right {
            let end = start + word.len();
            !blank(end - 1) && blank(end)
        } else {
            !blank(start) && blank(start - 1)
        };
        if !ok {
            return Err(format!(
                "{label:?} is not over its column:\n{}\n{}",
                header.iter().collect::<String>(),
                row.iter().collect::<String>()
            ));
        }
    }
    Ok(())
}

#[test]
fn the_game_list_header_is_over_its_columns() {
    for size in [(80, 24), (120, 40)] {
        let mut h = Board::new(size);
        h.open(
            &crate::common::testdata("pgn/kasparov-deep-blue-1997.pgn"),
            None,
        );
        let screen = h.screen();
        let header = h.row_with(" White ");
        let mut labels = vec![
            ("#", true),
            ("White", false),
            ("Black", false),
            ("Res", false),
            ("ply", true),
        ];
        if size.0 >= 120 {
            labels.push(("Date", false));
        }
        labels.push(("Opening", false));
        let rows: Vec<&str> = screen
            .lines()
            .filter(|l| l.contains("Deep Blue") && !l.contains(" White "))
            .collect();
        assert_eq!(rows.len(), 6, "{screen}");
        for row in rows {
            if let Err(e) = lined_up(&header, row, &labels) {
                panic!("{size:?}: {e}\n{screen}");
            }
        }
    }
}

#[test]
fn the_review_positions_table_is_under_its_header() {
    use ratatui::crossterm::event::KeyCode;
    for size in [(80, 24), (120, 40)] {
        let mut h = Board::new(size);
        h.open(&crate::common::testdata("pgn/review-three.pgn"), None);
        h.ctrl('r');
        h.serve();
        // Bob's positions: 3...Nf6?? among them.
        h.key(KeyCode::Down);
        h.key(KeyCode::Enter);
        let screen = h.screen();
        assert!(screen.contains("Bob: positions to study"), "{screen}");
        let header = h.row_with(" played ");
        let row = h.row_with("Nf6??");
        assert!(!row.is_empty(), "{screen}");
        let labels = [
            ("game", true),
            ("move", false),
            ("played", false),
            ("better", false),
        ];
        if let Err(e) = lined_up(&header, &row, &labels) {
            panic!("{size:?}: {e}\n{screen}");
        }
    }
}

/// Review-all tells how long it will take from the start, from the game
/// list's lengths, before the first game is done.
#[test]
fn review_all_gives_an_estimate_from_the_start() {
    let mut h = Board::new((120, 40));
    h.open(&crate::common::testdata("pgn/review-three.pgn"), None);
    h.ctrl('r');
    let screen = h.screen();
    assert!(
        screen.contains("reviewing… 0 of 3 games, about "),
        "{screen}"
    );
}

/// Tab where every panel fits says so plainly, and when it would switch.
#[test]
fn tab_in_a_tall_terminal_says_all_panels_fit() {
    use ratatui::crossterm::event::KeyCode;
    let mut h = Board::blitz((120, 40), None);
    h.start();
    h.key(KeyCode::Tab);
    let (said, _) = h.status().expect("a message");
    assert_eq!(
        said,
        "All panels fit; in a terminal under 30 rows, Tab switches between them."
    );
    assert!(h.screen().contains(&said), "{}", h.screen());
}

// Part B of the user trial: small texts and marks.

mod trial {
    use std::sync::Arc;

    use kibitz::book::default_book;
    use kibitz::config::Settings;
    use kibitz::tui::app::Overlay;
    use ratatui::crossterm::event::KeyCode;
    use ratatui::style::{Color, Modifier};

    use crate::common::board::{Board, MessageText};
    use crate::common::testdata;

    fn deep_blue_game_6(size: (u16, u16), no_color: bool) -> Board {
        let mut options = Board::options(size);
        if no_color {
            options = options.no_color();
        }
        let mut h = options.build();
        h.open(&testdata("pgn/kasparov-deep-blue-1997.pgn"), Some(6));
        h
    }

    /// Item 1: under `NO_COLOR` the frame holds no colour. (The terminal
    /// library writes each change of colour there as `ESC[;m`, which resets
    /// bold and underline too: the main line's weight was random.) The
    /// main line's moves are all one weight.
    #[test]
    fn no_color_frames_hold_no_colour_and_the_main_line_one_weight() {
        let mut h = deep_blue_game_6((80, 24), true);
        for _ in 0..14 {
            h.key(KeyCode::Right);
        }
        for size in [(80, 24), (100, 30)] {
            h.resize(size);
            let buffer = h.buffer();
            for (i, cell) in buffer.content().iter().enumerate() {
                assert_eq!(
                    (cell.fg, cell.bg, cell.underline_color),
                    (Color::Reset, Color::Reset, Color::Reset),
                    "{size:?}: cell {i} {:?} in {}",
                    cell.symbol(),
                    h.screen()
                );
            }
            // The main line's moves (here 6. Bd3 and 9. O-O) are bold.
            let area = buffer.area;
            for san in ["Bd3", "O-O"] {
                let found = (area.top()..area.bottom()).find_map(|y| {
                    let row: String = (area.left()..area.right())
                        .map(|x| buffer[(x, y)].symbol().to_string())
                        .collect();
                    // A column: the characters before it (pieces take
                    // more than a byte).
                    row.find(&format!(" {san} "))
                        .map(|at| (row[..at].chars().count() + 1, y))
                });
                let (x, y) = found.unwrap_or_else(|| panic!("{san} in {}", h.screen()));
                let cell = &buffer[(x as u16, y)];
                assert!(
                    cell.modifier.contains(Modifier::BOLD),
                    "{size:?}: {san} at {x},{y} in {}",
                    h.screen()
                );
            }
        }
    }

    /// Item 2: a message answering a key goes when the position changes.
    #[test]
    fn a_message_about_the_last_position_goes_with_it() {
        let mut h = deep_blue_game_6((80, 24), false);
        for _ in 0..8 {
            h.key(KeyCode::Right);
        }
        h.key(KeyCode::Down);
        assert_eq!(h.message(), "No variation here.");
        h.key(KeyCode::Right);
        assert_eq!(h.message(), "", "{}", h.screen());
        assert!(!h.screen().contains("No variation here."));
        h.char('n');
        assert_eq!(h.message(), "No review yet: R reviews the game.");
        h.key(KeyCode::Right);
        assert!(!h.screen().contains("No review yet"), "{}", h.screen());
    }

    /// A two-player game (the dialog's fourth side) with the book, after
    /// 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6.
    fn ruy_lopez(no_color: bool) -> Board {
        let mut options = Board::options((80, 24));
        if no_color {
            options = options.no_color();
        }
        let mut h = options.build();
        h.set_book(Arc::new(default_book().unwrap()));
        h.keys("lll");
        h.key(KeyCode::Enter);
        assert_eq!(h.app.cx.overlay, Overlay::None);
        for san in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"] {
            h.typed(san);
        }
        assert_eq!(h.app.cx.board.game.len(), 6);
        h
    }

    /// Item 3: looking back, the book panel shows the position looked at.
    #[test]
    fn the_book_panel_follows_the_position_looked_at() {
        let mut h = ruy_lopez(true);
        let live = h.screen();
        assert!(live.contains("Ba4"), "{live}");
        for _ in 0..3 {
            h.key(KeyCode::Left);
        }
        let screen = h.screen();
        assert!(screen.contains("ply 3 of 6"), "{screen}");
        assert!(!screen.contains("Ba4"), "{screen}");
        // After 2. Nf3 the book answers with Black's second moves.
        assert!(screen.contains("Nc6"), "{screen}");
        let book = h
            .app
            .cx
            .book_moves_at(h.app.cx.board.game.position_at(3).unwrap());
        assert!(!book.is_empty());
    }

    /// Item 4: in a game, under `NO_COLOR`, the looked-at move is in
    /// brackets too (with colour, reverse video alone).
    #[test]
    fn the_game_move_list_marks_the_move_looked_at_by_shape() {
        let mut h = ruy_lopez(true);
        for _ in 0..3 {
            h.key(KeyCode::Left);
        }
        assert!(h.screen().contains("2. [Nf3]"), "{}", h.screen());
        h.key(KeyCode::Left);
        assert!(h.screen().contains("[e5]"), "{}", h.screen());
        assert!(!h.screen().contains("[Nf3]"), "{}", h.screen());
        h.set_no_color(false);
        assert!(!h.screen().contains("[e5]"), "{}", h.screen());
    }

    /// Item 5: `S` before any search says when the statistics will show.
    #[test]
    fn search_statistics_are_not_said_shown_before_a_search() {
        let mut h = Board::blitz((80, 24), None);
        h.start();
        h.char('S');
        assert_eq!(
            h.message(),
            "Search statistics will show once the engine has searched."
        );
        assert!(
            !h.screen().contains("Search statistics ("),
            "{}",
            h.screen()
        );
        h.char('S');
        assert_eq!(h.message(), "Search statistics hidden.");
    }

    /// Item 6: every problem of the config file is shown, one at a time,
    /// and none is cut inside a word.
    #[test]
    fn every_config_problem_is_shown_in_turn() {
        let (_, problems) = Settings::parse("spoilers = \"maybe\"\nanalysis_limit = \"banana\"\n");
        assert_eq!(problems.len(), 2, "{problems:?}");
        for size in [(120, 40), (80, 24)] {
            let mut h = Board::analysis(size);
            h.app.cx.show_problems(problems.clone());
            let first = h.message();
            assert!(
                first.starts_with("1 of 2 (any key: next): config: "),
                "{first}"
            );
            let status = h
                .screen()
                .lines()
                .nth(usize::from(size.1) - 2)
                .unwrap()
                .to_string();
            if size.0 == 120 {
                assert!(status.contains(&first), "{status}");
            } else {
                // Cut after a whole word, with "…".
                let status = status.trim_end_matches(['"', ' ']);
                assert!(status.ends_with("…"), "{status}");
                let kept = status.trim_end_matches('…').trim_start_matches(['"', ' ']);
                let next = first[kept.len()..].chars().next();
                assert_eq!(next, Some(' '), "{status}");
            }
            // A key that says nothing of its own (here the board's cursor).
            h.key(KeyCode::Char('l'));
            let second = h.message();
            assert!(second.starts_with("2 of 2: config: "), "{second}");
            let mut shown = vec![first, second];
            shown.sort();
            for problem in &problems {
                assert!(
                    shown.iter().any(|s| s.ends_with(problem.as_str())),
                    "{problem} in {shown:?}"
                );
            }
            h.key(KeyCode::Esc);
            assert_eq!(h.message(), "");
        }
        // A key that says something keeps its message; Esc, which clears
        // the status line, shows the next problem.
        let mut h = Board::analysis((120, 40));
        h.app.cx.show_problems(problems);
        h.char('+');
        assert_eq!(h.message(), "4 engine lines.");
        let mut h = Board::analysis((120, 40));
        h.app
            .cx
            .show_problems(Settings::parse("spoilers = 1\nthreads = 0\n").1);
        h.key(KeyCode::Esc);
        assert!(
            h.message().starts_with("2 of 2: config: threads"),
            "{}",
            h.message()
        );
    }

    /// Item 7: `+` at five lines says five is the most.
    #[test]
    fn plus_at_five_lines_says_it_is_the_most() {
        let mut h = Board::analysis((80, 24));
        for _ in 0..2 {
            h.char('+');
        }
        assert_eq!(h.message(), "5 engine lines.");
        h.char('+');
        assert_eq!(h.message(), "5 engine lines: the most there can be.");
        for _ in 0..4 {
            h.char('-');
        }
        assert_eq!(h.message(), "1 engine line.");
        h.char('-');
        assert_eq!(h.message(), "1 engine line: the fewest there can be.");
    }

    /// Item 8: review-all's title fits its box: the estimate shortened, no
    /// token cut.
    #[test]
    fn the_review_all_title_fits_without_a_cut_token() {
        let mut h = Board::new((80, 24));
        h.open(&testdata("pgn/kasparov-deep-blue-1997.pgn"), None);
        h.ctrl('r');
        let screen = h.screen();
        let top = screen
            .lines()
            .find(|l| l.contains("reviewing…"))
            .unwrap_or_else(|| panic!("{screen}"));
        assert!(top.contains("0 of 6 games, ~"), "{top}");
        assert!(top.contains(" left ─"), "{top}");
    }
}
