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
