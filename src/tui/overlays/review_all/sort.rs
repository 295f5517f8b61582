//! The orders of the whole-file review's tables: the players by name,
//! accuracy, blunders or games; the games by number (the file's order),
//! either player, result, either side's accuracy or blunders. `s` takes
//! the next order, `r` reverses it. State only: nothing here draws.

use crate::review::SideSummary;
use crate::review::batch::Player;

/// The order of the players' table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortBy {
    Name,
    Accuracy,
    Blunders,
    Games,
}

impl SortBy {
    pub fn next(self) -> SortBy {
        match self {
            SortBy::Name => SortBy::Accuracy,
            SortBy::Accuracy => SortBy::Blunders,
            SortBy::Blunders => SortBy::Games,
            SortBy::Games => SortBy::Name,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            SortBy::Name => "name",
            SortBy::Accuracy => "accuracy",
            SortBy::Blunders => "blunders",
            SortBy::Games => "games",
        }
    }
}

/// The order of the games' table, one for each column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GameSort {
    /// The file's order.
    #[default]
    Number,
    White,
    Black,
    /// White's wins, draws, Black's wins, then unfinished games.
    Result,
    WhiteAccuracy,
    BlackAccuracy,
    /// Both sides' blunders together, most first.
    Blunders,
}

impl GameSort {
    pub fn next(self) -> GameSort {
        match self {
            GameSort::Number => GameSort::White,
            GameSort::White => GameSort::Black,
            GameSort::Black => GameSort::Result,
            GameSort::Result => GameSort::WhiteAccuracy,
            GameSort::WhiteAccuracy => GameSort::BlackAccuracy,
            GameSort::BlackAccuracy => GameSort::Blunders,
            GameSort::Blunders => GameSort::Number,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            GameSort::Number => "number",
            GameSort::White => "White",
            GameSort::Black => "Black",
            GameSort::Result => "result",
            GameSort::WhiteAccuracy => "White's accuracy",
            GameSort::BlackAccuracy => "Black's accuracy",
            GameSort::Blunders => "blunders",
        }
    }
}

/// One reviewed game's row.
#[derive(Debug, Clone, PartialEq)]
pub struct GameRow {
    pub number: usize,
    pub white: String,
    pub black: String,
    pub result: String,
    pub plies: usize,
    pub sides: [SideSummary; 2],
}

/// A side's accuracy for sorting: a side without moves after every other.
fn accuracy(summary: &SideSummary) -> f64 {
    summary.accuracy().unwrap_or(-1.0)
}

/// The players (given in name order) in `by`'s order. Stable sorts over
/// the name order: ties stay alphabetical. The first of each order is the
/// one a reader looks for: the most accurate, the most blunders, the most
/// games.
pub fn players(mut players: Vec<&Player>, by: SortBy, reversed: bool) -> Vec<&Player> {
    match by {
        SortBy::Name => {}
        SortBy::Accuracy => {
            players.sort_by(|a, b| accuracy(&b.summary).total_cmp(&accuracy(&a.summary)));
        }
        SortBy::Blunders => {
            players.sort_by_key(|p| std::cmp::Reverse(p.summary.blunders));
        }
        SortBy::Games => players.sort_by_key(|p| std::cmp::Reverse(p.games)),
    }
    if reversed {
        players.reverse();
    }
    players
}

/// The games in `by`'s order. Stable sorts over the file's order: ties
/// keep it. Names A to Z (case aside), accuracy and blunders highest
/// first, as for the players.
pub fn games(games: &[GameRow], by: GameSort, reversed: bool) -> Vec<&GameRow> {
    let mut rows: Vec<&GameRow> = games.iter().collect();
    rows.sort_by_key(|g| g.number);
    let result_rank = |result: &str| match result {
        "1-0" => 0,
        "1/2-1/2" => 1,
        "0-1" => 2,
        _ => 3,
    };
    match by {
        GameSort::Number => {}
        GameSort::White => rows.sort_by_key(|g| g.white.to_lowercase()),
        GameSort::Black => rows.sort_by_key(|g| g.black.to_lowercase()),
        GameSort::Result => rows.sort_by_key(|g| result_rank(&g.result)),
        GameSort::WhiteAccuracy => {
            rows.sort_by(|a, b| accuracy(&b.sides[0]).total_cmp(&accuracy(&a.sides[0])));
        }
        GameSort::BlackAccuracy => {
            rows.sort_by(|a, b| accuracy(&b.sides[1]).total_cmp(&accuracy(&a.sides[1])));
        }
        GameSort::Blunders => {
            rows.sort_by_key(|g| std::cmp::Reverse(g.sides[0].blunders + g.sides[1].blunders))
        }
    }
    if reversed {
        rows.reverse();
    }
    rows
}
