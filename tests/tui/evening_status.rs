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
