//! The explorer: what was played from a position, and how it scored.
//!
//! A position's moves come from the summary (positions many games reach,
//! [`super::summary`]) and from the index's entries of the games the
//! summary does not cover; with a filter (a player, dates, a result,
//! ratings) every entry of the position is read and each game checked.
//! Every move is checked to be legal in the position asked about: an
//! entry whose move is not (two positions sharing both hashes) is dropped
//! and counted.

use std::collections::{BTreeMap, HashMap};

use rusqlite::types::Value;
use shakmaty::{Chess, Color, Move, Position};

use super::codec::{self, Entry};
use super::summary::Counts;
use super::{Database, DbError};
use crate::book::polyglot::encode_move;

/// Which side a named player had.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayerSide {
    #[default]
    Any,
    White,
    Black,
}

/// Which games count.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// A player's name (letter case and spacing do not matter).
    pub player: Option<String>,
    pub side: PlayerSide,
    /// Games on or after this day (YYYYMMDD; an unknown month or day 0).
    pub since: Option<u32>,
    /// Games on or before this day.
    pub until: Option<u32>,
    /// Games with this result: 0 White won, 1 draw, 2 Black won.
    pub result: Option<u8>,
    /// The players' mean rating at least this (games with no rating are
    /// left out when a rating bound is set).
    pub min_elo: Option<u32>,
    pub max_elo: Option<u32>,
}

impl Filter {
    pub fn is_empty(&self) -> bool {
        *self == Filter::default()
    }

    /// The conditions as SQL over `games`, with their values.
    pub(crate) fn sql(&self) -> (String, Vec<Value>) {
        let mut clauses = Vec::new();
        let mut values = Vec::new();
        if let Some(player) = &self.player {
            let name = normal_name(player);
            match self.side {
                PlayerSide::White => clauses.push("white = ? COLLATE NOCASE".to_string()),
                PlayerSide::Black => clauses.push("black = ? COLLATE NOCASE".to_string()),
                PlayerSide::Any => {
                    clauses
                        .push("(white = ? COLLATE NOCASE OR black = ? COLLATE NOCASE)".to_string());
                    values.push(Value::Text(name.clone()));
                }
            }
            values.push(Value::Text(name));
        }
        if let Some(since) = self.since {
            clauses.push("day >= ?".to_string());
            values.push(Value::Integer(i64::from(since)));
        }
        if let Some(until) = self.until {
            clauses.push("day <= ? AND day > 0".to_string());
            values.push(Value::Integer(i64::from(until)));
        }
        if let Some(result) = self.result {
            clauses.push("result = ?".to_string());
            values.push(Value::Text(
                ["1-0", "1/2-1/2", "0-1"][usize::from(result.min(2))].to_string(),
            ));
        }
        let mean = "(CASE WHEN white_elo IS NULL THEN black_elo WHEN black_elo IS NULL THEN white_elo ELSE (white_elo + black_elo) / 2.0 END)";
        if let Some(min) = self.min_elo {
            clauses.push(format!("{mean} >= ?"));
            values.push(Value::Integer(i64::from(min)));
        }
        if let Some(max) = self.max_elo {
            clauses.push(format!("{mean} <= ?"));
            values.push(Value::Integer(i64::from(max)));
        }
        let sql = if clauses.is_empty() {
            "1".to_string()
        } else {
            clauses.join(" AND ")
        };
        (sql, values)
    }
}

/// A name as stored names are compared: spacing collapsed (letter case is
/// left to SQLite's NOCASE).
pub fn normal_name(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One move from the position, with how its games ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveStat {
    pub mv: Move,
    pub uci: String,
    pub san: String,
    pub counts: Counts,
}

impl MoveStat {
    pub fn games(&self) -> u64 {
        self.counts.games()
    }
}

/// Score in percent from `side`'s view: a win 1, a draw ½, over the games
/// with a known result. `None` when no game has one.
pub fn score_percent(counts: &Counts, side: Color) -> Option<f64> {
    let decided = counts.white + counts.draws + counts.black;
    if decided == 0 {
        return None;
    }
    let wins = match side {
        Color::White => counts.white,
        Color::Black => counts.black,
    };
    Some((wins as f64 + counts.draws as f64 / 2.0) * 100.0 / decided as f64)
}

/// The players' mean rating over the games that gave one.
pub fn mean_rating(counts: &Counts) -> Option<u32> {
    (counts.elo_n > 0).then(|| ((counts.elo_sum + counts.elo_n / 2) / counts.elo_n) as u32)
}

/// What the explorer says of a position.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Explorer {
    /// The moves played from it, most played first.
    pub moves: Vec<MoveStat>,
    /// The games that ended in it.
    pub ended: Counts,
    /// Entries dropped because their move is not legal here.
    pub dropped: u64,
}

impl Explorer {
    /// Games that reached the position.
    pub fn games(&self) -> u64 {
        self.moves.iter().map(MoveStat::games).sum::<u64>() + self.ended.games()
    }
}

/// Games' ratings (White's, Black's) by game number.
type Ratings = HashMap<u32, super::summary::GameRatings>;

/// Up to this many entries a filter is checked with a lookup per game;
/// above it (and always for a player, whose games the name's index finds
/// at once) with one query for the games that pass it.
const LOOKUPS_MAX: usize = 2_000;

impl Database {
    /// The entries of a position (by its key and check) in every segment,
    /// of games numbered above `after`.
    pub(crate) fn entries_of(
        &self,
        key: u64,
        check: u16,
        after: u32,
    ) -> Result<Vec<Entry>, DbError> {
        let stored = codec::stored_key(key);
        let mut out = Vec::new();
        for (segment, _, last) in self.segments()? {
            if last <= after {
                continue;
            }
            // One walk down the segment's blocks from the key backwards:
            // the blocks that start at the key, then the one before them
            // (where the key's entries may start). One descent of the
            // index instead of two, which is what a cold query pays for.
            let mut blocks: Vec<(i64, Vec<u8>)> = Vec::new();
            let mut walk = self.conn.prepare_cached(
                "SELECT first_key, data FROM blocks WHERE seg = ?1 AND first_key <= ?2
                 ORDER BY first_key DESC, n DESC",
            )?;
            let mut rows = walk.query((segment, stored))?;
            while let Some(row) = rows.next()? {
                let first: i64 = row.get(0)?;
                blocks.push((first, row.get(1)?));
                if first < stored {
                    break;
                }
            }
            blocks.reverse();
            for (first, data) in blocks {
                codec::read_block(codec::key_of_stored(first), &data, &mut |e| {
                    if e.key == key && e.check == check && e.game > after {
                        out.push(e);
                    }
                    e.key <= key
                })?;
            }
        }
        Ok(out)
    }

    /// The ratings of the games `ids`.
    fn ratings_of(&self, ids: impl Iterator<Item = u32>) -> Result<Ratings, DbError> {
        let mut statement = self
            .conn
            .prepare_cached("SELECT white_elo, black_elo FROM games WHERE id = ?1")?;
        let mut out = HashMap::new();
        for id in ids {
            if let std::collections::hash_map::Entry::Vacant(slot) = out.entry(id) {
                let ratings = statement
                    .query_row([id], |row| Ok((row.get(0)?, row.get(1)?)))
                    .unwrap_or((None, None));
                slot.insert(ratings);
            }
        }
        Ok(out)
    }

    /// The games among `entries` that pass `filter`, with their ratings.
    fn passing(&self, entries: &[Entry], filter: &Filter) -> Result<Ratings, DbError> {
        let (sql, values) = filter.sql();
        let mut out = HashMap::new();
        if entries.len() <= LOOKUPS_MAX && filter.player.is_none() {
            let mut statement = self.conn.prepare_cached(&format!(
                "SELECT white_elo, black_elo FROM games WHERE id = ? AND ({sql})"
            ))?;
            for e in entries {
                let mut params = vec![Value::Integer(i64::from(e.game))];
                params.extend(values.iter().cloned());
                if let Some(row) = statement
                    .query_row(rusqlite::params_from_iter(params), |row| {
                        Ok((row.get(0)?, row.get(1)?))
                    })
                    .map(Some)
                    .or_else(|e| match e {
                        rusqlite::Error::QueryReturnedNoRows => Ok(None),
                        other => Err(other),
                    })?
                {
                    out.insert(e.game, row);
                }
            }
        } else {
            let wanted: std::collections::HashSet<u32> = entries.iter().map(|e| e.game).collect();
            let mut statement = self.conn.prepare_cached(&format!(
                "SELECT id, white_elo, black_elo FROM games WHERE {sql}"
            ))?;
            let mut rows = statement.query(rusqlite::params_from_iter(values))?;
            while let Some(row) = rows.next()? {
                let id: i64 = row.get(0)?;
                if let Ok(id) = u32::try_from(id)
                    && wanted.contains(&id)
                {
                    out.insert(id, (row.get(1)?, row.get(2)?));
                }
            }
        }
        Ok(out)
    }

    /// What was played from `position` in the games `filter` lets through.
    pub fn explore(&self, position: &Chess, filter: &Filter) -> Result<Explorer, DbError> {
        let (key, check) = super::position_key(position);
        let mut by_move: BTreeMap<u16, Counts> = BTreeMap::new();
        if filter.is_empty() {
            let upto = self.summary_upto()?;
            let mut summarised = false;
            let mut statement = self.conn.prepare_cached(
                "SELECT mv, white, draws, black, unknown, elo_sum, elo_n FROM summary
                 WHERE key = ?1 AND chk = ?2",
            )?;
            let mut rows = statement.query((codec::stored_key(key), check))?;
            while let Some(row) = rows.next()? {
                summarised = true;
                let get = |i| row.get::<_, i64>(i).map(|v| v.max(0) as u64);
                let counts = by_move.entry(row.get(0)?).or_default();
                counts.add(&Counts {
                    white: get(1)?,
                    draws: get(2)?,
                    black: get(3)?,
                    unknown: get(4)?,
                    elo_sum: get(5)?,
                    elo_n: get(6)?,
                });
            }
            let entries = self.entries_of(key, check, if summarised { upto } else { 0 })?;
            let ratings = self.ratings_of(entries.iter().map(|e| e.game))?;
            for e in &entries {
                let counts = by_move.entry(e.mv).or_default();
                counts.add_result(e.result);
                counts.add_ratings(ratings.get(&e.game).copied().unwrap_or((None, None)));
            }
        } else {
            let entries = self.entries_of(key, check, 0)?;
            let passing = self.passing(&entries, filter)?;
            for e in &entries {
                if let Some(ratings) = passing.get(&e.game) {
                    let counts = by_move.entry(e.mv).or_default();
                    counts.add_result(e.result);
                    counts.add_ratings(*ratings);
                }
            }
        }
        Ok(finish(position, by_move))
    }
}

/// Turn counts by encoded move into the explorer's answer: moves checked
/// legal, with SAN, most played first.
fn finish(position: &Chess, by_move: BTreeMap<u16, Counts>) -> Explorer {
    let legal = position.legal_moves();
    let mut explorer = Explorer::default();
    for (code, counts) in by_move {
        if code == 0 {
            explorer.ended.add(&counts);
            continue;
        }
        match legal.iter().find(|m| encode_move(**m) == code) {
            Some(m) => explorer.moves.push(MoveStat {
                mv: *m,
                uci: m.to_uci(position.castles().mode()).to_string(),
                san: shakmaty::san::SanPlus::from_move(position.clone(), *m).to_string(),
                counts,
            }),
            None => explorer.dropped += counts.games(),
        }
    }
    explorer
        .moves
        .sort_by(|a, b| b.games().cmp(&a.games()).then_with(|| a.uci.cmp(&b.uci)));
    explorer
}
