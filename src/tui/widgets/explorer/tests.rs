use super::{bar, games_column, wrapped};
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

#[test]
fn a_long_path_is_broken_across_lines_not_cut() {
    let text = "no game database at /home/someone/chess/games.sqlite: import";
    assert_eq!(
        wrapped(text, 16, 6),
        [
            "no game database",
            "at",
            "/home/someone/ch",
            "ess/games.sqlite",
            ": import"
        ]
    );
}

#[test]
fn a_moves_games_are_exact_where_the_column_fits_them() {
    assert_eq!(games_column(1_048), "1,048");
    assert_eq!(games_column(99_999), "99,999");
    assert_eq!(games_column(123_456), "123.5k");
}
