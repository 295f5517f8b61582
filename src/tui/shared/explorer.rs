//! The explorer panel's state (`x` on the analysis board): which database
//! it reads, its filter, the last answer and the move picked in it. The
//! queries go to the database worker ([`crate::tui::db_worker`]); this only
//! decides when to ask and which answer is current.

use std::path::{Path, PathBuf};

use shakmaty::{Chess, Color, Move, Position};

use crate::db::{Explorer, Filter, PlayerSide};
use crate::tui::db_worker::{DbProblem, DbRequest};

/// The position an answer is about: its index key (see
/// [`crate::db::position_key`]).
type PositionKey = (u64, u16);

/// What the explorer asked last.
#[derive(Debug, Clone, PartialEq)]
struct Asked {
    position: PositionKey,
    turn: Color,
    filter: Filter,
    path: Option<PathBuf>,
}

/// What the board says when there is no database file.
pub const MISSING: &str = "no game database: `kibitz db import FILE.pgn` makes one";

/// The same for a database named with `--db`, `database` or `:db`, which
/// the import must be told of.
pub fn missing_text(path: &Path, named: bool) -> String {
    if named {
        let shown = path.display();
        // A path with spaces is quoted in the command to copy.
        let arg = if shown.to_string().contains(char::is_whitespace) {
            format!("\"{shown}\"")
        } else {
            shown.to_string()
        };
        format!("no game database at {shown}: `kibitz db import --db {arg} FILE.pgn` makes one")
    } else {
        MISSING.to_string()
    }
}

/// The database's answer about one position.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    position: PositionKey,
    /// The side to move there (the score is theirs).
    pub turn: Color,
    pub result: Result<Explorer, DbProblem>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct ExplorerPanel {
    pub shown: bool,
    /// The database file; `None` where no data folder is known and none
    /// was named.
    pub path: Option<PathBuf>,
    /// The file was named (`--db`, the `database` setting, `:db`) rather
    /// than the data folder's.
    pub named: bool,
    pub filter: Filter,
    /// The number of the last query: an answer to an older one is stale.
    generation: u64,
    asked: Option<Asked>,
    /// The last answer (about the position on the board, or about the one
    /// before while a new answer is on its way).
    pub answer: Option<Answer>,
    /// A query is on its way.
    pub waiting: bool,
    /// The move picked in the list (0: the most played).
    pub selected: usize,
    /// The last answer was a problem the one before did not have (the
    /// status line says it in full).
    pub new_problem: Option<DbProblem>,
}

impl ExplorerPanel {
    /// The panel reading `path`.
    pub fn new(path: Option<PathBuf>, named: bool) -> ExplorerPanel {
        ExplorerPanel {
            path,
            named,
            ..ExplorerPanel::default()
        }
    }

    /// The query to send for `position`, if the panel is shown and has not
    /// asked about it with this filter and database yet.
    pub fn refresh(&mut self, position: &Chess) -> Option<DbRequest> {
        if !self.shown {
            return None;
        }
        let asked = Asked {
            position: crate::db::position_key(position),
            turn: position.turn(),
            filter: self.filter.clone(),
            path: self.path.clone(),
        };
        if self.asked.as_ref() == Some(&asked) {
            return None;
        }
        self.generation += 1;
        let Some(path) = self.path.clone() else {
            // No data folder and no database named: nothing to ask.
            self.answer = Some(Answer {
                position: asked.position,
                turn: asked.turn,
                result: Err(DbProblem::Missing(PathBuf::from(crate::db::DEFAULT_FILE))),
            });
            self.asked = Some(asked);
            self.waiting = false;
            return None;
        };
        self.asked = Some(asked);
        self.waiting = true;
        Some(DbRequest::Explore {
            generation: self.generation,
            path,
            position: Box::new(position.clone()),
            filter: self.filter.clone(),
        })
    }

    /// The worker's answer to query `generation`: kept if it is the last
    /// one asked (true: the panel changed).
    pub fn reply(&mut self, generation: u64, result: Result<Explorer, DbProblem>) -> bool {
        self.new_problem = match (&result, &self.answer) {
            (
                Err(problem),
                Some(Answer {
                    result: Err(old), ..
                }),
            ) if problem == old => None,
            (Err(problem), _) => Some(problem.clone()),
            (Ok(_), _) => None,
        };
        let Some(asked) = self
            .asked
            .as_ref()
            .filter(|_| generation == self.generation)
        else {
            return false;
        };
        let same_position = self
            .answer
            .as_ref()
            .is_some_and(|a| a.position == asked.position);
        if !same_position {
            self.selected = 0;
        }
        self.answer = Some(Answer {
            position: asked.position,
            turn: asked.turn,
            result,
        });
        self.waiting = false;
        let moves = self.moves_len();
        self.selected = self.selected.min(moves.saturating_sub(1));
        true
    }

    /// The explorer's answer, if it is about `position`.
    pub fn about(&self, position: &Chess) -> Option<&Answer> {
        let key = crate::db::position_key(position);
        self.answer.as_ref().filter(|a| a.position == key)
    }

    fn moves_len(&self) -> usize {
        match &self.answer {
            Some(Answer { result: Ok(e), .. }) => e.moves.len(),
            _ => 0,
        }
    }

    /// Pick the move at `index` of the list.
    pub fn pick(&mut self, index: usize) {
        self.selected = index.min(self.moves_len().saturating_sub(1));
    }

    /// Move the pick up (negative) or down the list.
    pub fn select(&mut self, by: isize) {
        let last = self.moves_len().saturating_sub(1);
        self.selected = self.selected.saturating_add_signed(by).min(last);
    }

    /// The move picked, if the answer on show is about `position`.
    pub fn picked(&self, position: &Chess) -> Result<Move, &'static str> {
        match self.about(position).map(|a| &a.result) {
            None => Err("The explorer is still looking at this position."),
            Some(Ok(explorer)) => explorer
                .moves
                .get(self.selected)
                .map(|m| m.mv)
                .ok_or("The explorer has no move to play here."),
            Some(Err(_)) => Err("The explorer has no database to read (see its panel)."),
        }
    }

    /// What the panel says of a problem with the database.
    pub fn problem_text(&self, problem: &DbProblem) -> String {
        match problem {
            DbProblem::Missing(path) => missing_text(path, self.named),
            DbProblem::Failed(why) => why.clone(),
        }
    }

    /// The database file named for the user.
    pub fn file_name(&self) -> String {
        match &self.path {
            Some(path) => path.display().to_string(),
            None => crate::db::DEFAULT_FILE.to_string(),
        }
    }

    /// `path` names the database the explorer reads (the same file, by
    /// whatever path).
    pub fn is_database(&self, path: &Path) -> bool {
        let Some(database) = &self.path else {
            return false;
        };
        let absolute = |p: &Path| std::fs::canonicalize(p).ok();
        database == path || absolute(database).is_some_and(|d| Some(d) == absolute(path))
    }

    /// The filter in a few words ("" when there is none).
    pub fn filter_text(&self) -> String {
        filter_text(&self.filter)
    }

    /// `:db FILE`: read another database, or the same one again (after a
    /// rebuild: the answers kept are dropped and the position asked about
    /// anew).
    pub fn set_database(&mut self, path: &Path) -> String {
        self.path = Some(path.to_path_buf());
        self.named = true;
        self.shown = true;
        self.answer = None;
        self.asked = None;
        format!("Explorer: reading {}.", path.display())
    }

    /// `:explore WORDS`: change the filter (or show the panel). The
    /// message to show, or why the words were not understood.
    pub fn command(&mut self, words: &str) -> Result<String, String> {
        let (word, rest) = match words.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (words, ""),
        };
        let filter = &mut self.filter;
        match word {
            "" => {}
            "clear" | "all" => *filter = Filter::default(),
            "player" => {
                let (name, side) = player_words(rest)?;
                filter.player = (!name.is_empty()).then(|| name.to_string());
                filter.side = if name.is_empty() {
                    PlayerSide::Any
                } else {
                    side
                };
            }
            "since" | "until" => {
                let day = if rest.is_empty() {
                    None
                } else {
                    Some(parse_day(rest, word == "until").ok_or_else(|| {
                        format!("{word} takes a date: YYYY, YYYY.MM or YYYY.MM.DD")
                    })?)
                };
                let (since, until) = if word == "since" {
                    (day, filter.until)
                } else {
                    (filter.since, day)
                };
                if let (Some(since), Some(until)) = (since, until)
                    && since > until
                {
                    return Err(format!(
                        "since {} is after until {}: no game is in between (explore {} clears it)",
                        day_text(since),
                        until_text(until),
                        if word == "since" { "until" } else { "since" }
                    ));
                }
                filter.since = since;
                filter.until = until;
            }
            "result" => {
                filter.result = match rest {
                    "" => None,
                    "1-0" | "white" => Some(0),
                    "draw" | "1/2-1/2" | "½-½" => Some(1),
                    "0-1" | "black" => Some(2),
                    _ => return Err("result takes 1-0, 0-1 or draw".into()),
                };
            }
            "elo" | "rating" => {
                let (min, max) = parse_elo(rest)
                    .ok_or("elo takes MIN, MIN-MAX or -MAX (the players' mean rating)")?;
                if let (Some(low), Some(high)) = (min, max)
                    && low > high
                {
                    return Err(format!(
                        "elo {low}-{high}: the lower rating comes first ({high}-{low})"
                    ));
                }
                filter.min_elo = min;
                filter.max_elo = max;
            }
            _ => {
                return Err(
                    "explore takes player NAME [white|black], since DATE, until DATE, result 1-0|0-1|draw, elo MIN-MAX or clear"
                        .into(),
                );
            }
        }
        self.shown = true;
        let text = self.filter_text();
        Ok(if text.is_empty() {
            "Explorer: all games.".to_string()
        } else {
            format!("Explorer: {text}.")
        })
    }
}

/// `NAME [white|black]` (the side word in any case), or `"NAME" [side]`:
/// a quoted name keeps a last word that names a colour ("Barry White").
fn player_words(text: &str) -> Result<(&str, PlayerSide), String> {
    let side_of = |word: &str| match word.to_lowercase().as_str() {
        "white" => Some(PlayerSide::White),
        "black" => Some(PlayerSide::Black),
        _ => None,
    };
    if let Some(quoted) = text.strip_prefix('"') {
        let Some((name, after)) = quoted.split_once('"') else {
            return Err("player: the quoted name has no closing \"".into());
        };
        let after = after.trim();
        return match (after, side_of(after)) {
            ("", _) => Ok((name.trim(), PlayerSide::Any)),
            (_, Some(side)) => Ok((name.trim(), side)),
            _ => Err(format!(
                "player \"{}\" takes white or black after the name, not {after}",
                name.trim()
            )),
        };
    }
    Ok(match text.rsplit_once(char::is_whitespace) {
        Some((name, word)) => match side_of(word) {
            Some(side) => (name.trim(), side),
            None => (text, PlayerSide::Any),
        },
        None => (text, PlayerSide::Any),
    })
}

/// A date as the filter keeps it (YYYYMMDD): `YYYY`, `YYYY.MM` or
/// `YYYY.MM.DD` (also with `-` or `/`). A date left open is the start of
/// its year or month, or for `end` its end.
pub fn parse_day(text: &str, end: bool) -> Option<u32> {
    let parts: Vec<&str> = text.split(['.', '-', '/']).collect();
    let number = |i: usize, range: std::ops::RangeInclusive<u32>| -> Option<Option<u32>> {
        match parts.get(i) {
            None => Some(None),
            Some(p) => p
                .parse::<u32>()
                .ok()
                .filter(|n| range.contains(n))
                .map(Some),
        }
    };
    if parts.len() > 3 || parts[0].len() != 4 {
        return None;
    }
    let year = number(0, 1..=9999)??;
    let month = number(1, 1..=12)?;
    let day = number(2, 1..=31)?;
    let open = if end { (12, 31) } else { (0, 0) };
    let month_day = match (month, day) {
        (None, _) => open,
        (Some(m), None) => (m, open.1),
        (Some(m), Some(d)) => (m, d),
    };
    Some(year * 10_000 + month_day.0 * 100 + month_day.1)
}

/// `MIN`, `MIN-MAX` or `-MAX` (empty: no bound).
fn parse_elo(text: &str) -> Option<(Option<u32>, Option<u32>)> {
    let bound = |t: &str| -> Option<Option<u32>> {
        let t = t.trim();
        if t.is_empty() {
            Some(None)
        } else {
            t.parse::<u32>().ok().filter(|n| *n <= 4000).map(Some)
        }
    };
    match text.split_once('-') {
        Some((min, max)) => Some((bound(min)?, bound(max)?)),
        None => Some((bound(text)?, None)),
    }
}

/// A day of the filter as it is written (`2015`, `2015.06`, `2015.06.01`).
fn day_text(day: u32) -> String {
    let (year, month, d) = (day / 10_000, day / 100 % 100, day % 100);
    match (month, d) {
        (0, _) => format!("{year}"),
        (m, 0) => format!("{year}.{m:02}"),
        (m, d) => format!("{year}.{m:02}.{d:02}"),
    }
}

/// An end date as it was given: `2016.06` is kept as the end of June
/// (20160631) and `2016` as the end of the year, and shown so.
fn until_text(day: u32) -> String {
    let (year, month, d) = (day / 10_000, day / 100 % 100, day % 100);
    match (month, d) {
        (12, 31) => format!("{year}"),
        (m, 31) => format!("{year}.{m:02}"),
        _ => day_text(day),
    }
}

/// The filter in a few words, as the panel's title shows it.
pub fn filter_text(filter: &Filter) -> String {
    let mut parts = Vec::new();
    if let Some(player) = &filter.player {
        parts.push(match filter.side {
            PlayerSide::Any => player.clone(),
            PlayerSide::White => format!("{player} as White"),
            PlayerSide::Black => format!("{player} as Black"),
        });
    }
    if let Some(since) = filter.since {
        parts.push(format!("since {}", day_text(since)));
    }
    if let Some(until) = filter.until {
        parts.push(format!("until {}", until_text(until)));
    }
    if let Some(result) = filter.result {
        parts.push(["won by White", "draws", "won by Black"][usize::from(result.min(2))].into());
    }
    match (filter.min_elo, filter.max_elo) {
        (Some(min), Some(max)) => parts.push(format!("Elo {min}-{max}")),
        (Some(min), None) => parts.push(format!("Elo {min}+")),
        (None, Some(max)) => parts.push(format!("Elo up to {max}")),
        (None, None) => {}
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests;
