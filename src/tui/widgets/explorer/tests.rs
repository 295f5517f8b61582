use super::{bar, wrapped};
use crate::db::summary::Counts;

#[test]
fn the_bar_shares_its_cells_by_result() {
    let counts = Counts {
        white: 5,
        draws: 3,
        black: 2,
        ..Counts::default()
    };
    assert_eq!(bar(&counts, 10), "█████▒▒▒░░");
    assert_eq!(bar(&Counts::default(), 4), "    ");
    let all_black = Counts {
        black: 7,
        unknown: 3,
        ..Counts::default()
    };
    assert_eq!(bar(&all_black, 5), "░░░░░");
}

#[test]
fn a_message_wraps_and_is_cut_after_a_whole_word() {
    let text = "no game database: `kibitz db import FILE.pgn` makes one";
    assert_eq!(
        wrapped(text, 36, 3),
        ["no game database: `kibitz db import", "FILE.pgn` makes one"]
    );
    assert_eq!(
        wrapped(text, 20, 2),
        ["no game database:", "`kibitz db import…"]
    );
}
