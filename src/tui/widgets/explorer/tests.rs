use super::bar;
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
