//! One line per game of a PGN file, for the game list: read in a stream, so
//! a large file shows its first games while the rest is still being read.

use std::io::Read;

use super::openings::Openings;

use super::parallel::{default_workers, map_games};
use super::tree::GameTree;

/// What the game list shows of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSummary {
    /// 1-based number in the file.
    pub number: usize,
    pub white: String,
    pub black: String,
    pub result: String,
    pub event: String,
    pub date: String,
    /// ECO code and opening name: the file's tags, or else the built-in
    /// opening names.
    pub opening: String,
    pub plies: usize,
    /// An unreadable move, if the game has one.
    pub error: Option<String>,
}

impl GameSummary {
    pub fn of(number: usize, tree: &GameTree) -> GameSummary {
        let tag = |name: &str| {
            tree.headers
                .get(name)
                .filter(|v| !v.is_empty() && *v != "?")
                .unwrap_or("")
                .to_string()
        };
        let line = tree.mainline();
        let opening = match (tag("ECO"), tag("Opening")) {
            (eco, name) if !name.is_empty() => format!("{eco} {name}").trim().to_string(),
            (eco, _) => match Openings::builtin().name_of_mainline(tree).0 {
                Some(o) => format!("{} {}", o.eco, o.name),
                None => eco,
            },
        };
        GameSummary {
            number,
            white: tag("White"),
            black: tag("Black"),
            result: tree.result.clone(),
            event: tag("Event"),
            date: tag("Date"),
            opening,
            plies: line.len(),
            error: tree.error.as_ref().map(ToString::to_string),
        }
    }

    /// Whether the game matches a search: every word of `query` appears in
    /// a player's name, the event, the date or the opening (any case).
    pub fn matches(&self, query: &str) -> bool {
        matches_words(&self.search_text(), &query.to_lowercase())
    }

    /// What a search looks through, lower-cased (the game list keeps it,
    /// so typing in a list of 100,000 games does not rebuild it per key).
    pub fn search_text(&self) -> String {
        format!(
            "{} {} {} {} {}",
            self.white, self.black, self.event, self.date, self.opening
        )
        .to_lowercase()
    }
}

/// Whether every word of a lower-cased query is in a lower-cased text.
pub fn matches_words(text: &str, query: &str) -> bool {
    query.split_whitespace().all(|word| text.contains(word))
}

impl GameSummary {}

/// Summarise every game of a stream, handing them over in file order in
/// batches of `batch` (return `false` to stop); games are summarised on
/// worker threads. Returns the number of games read.
pub fn summaries(
    source: impl Read,
    batch: usize,
    each: &mut dyn FnMut(Vec<GameSummary>) -> bool,
) -> std::io::Result<usize> {
    let mut pending = Vec::with_capacity(batch);
    let mut go_on = true;
    let summarise = |tree: GameTree, number| GameSummary::of(number, &tree);
    let count = map_games(source, default_workers(), &summarise, &mut |summary| {
        pending.push(summary);
        if pending.len() >= batch {
            go_on = each(std::mem::take(&mut pending));
        }
        go_on
    })?;
    if go_on && !pending.is_empty() {
        each(pending);
    }
    Ok(count)
}
