//! Finding games: by a position they reached, a player, an opening code or
//! name, with the explorer's filters; most recent first. And a stored game
//! read back as a game tree, to open on the board or write as PGN.

use std::collections::HashSet;

use rusqlite::types::Value;
use shakmaty::{Chess, Position};

use super::codec;
use super::explore::Filter;
use super::{Database, DbError};
use crate::game::pgn::Headers;
use crate::game::tree::GameTree;

/// A review's figures kept in the database: White's and Black's.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredReview {
    pub accuracy: [Option<f64>; 2],
    pub acpl: [Option<f64>; 2],
    pub movetime_ms: u64,
    /// When it was made (seconds since 1970, as text).
    pub when: String,
}

/// What to look for.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GameQuery {
    /// Games that reached this position.
    pub position: Option<Chess>,
    /// ECO codes starting with this (`B9` finds B90-B99).
    pub eco: Option<String>,
    /// Words of the opening's name (letter case does not matter).
    pub opening: Option<String>,
    /// Player, side, dates, result and ratings.
    pub filter: Filter,
    pub limit: usize,
    pub offset: usize,
}

/// A game as a list shows it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct GameRow {
    pub id: i64,
    pub white: String,
    pub black: String,
    pub white_elo: Option<u32>,
    pub black_elo: Option<u32>,
    pub date: String,
    pub result: String,
    pub eco: Option<String>,
    pub opening: Option<String>,
    pub event: Option<String>,
    pub site: Option<String>,
    pub round: Option<String>,
    pub plies: u32,
    /// The accuracies `kibitz review --all --db` stored, if any.
    pub white_accuracy: Option<f64>,
    pub black_accuracy: Option<f64>,
}

/// Up to this many games found by position are looked up one by one;
/// more are found in one pass over the games table.
const CANDIDATE_LOOKUPS: usize = 20_000;

const COLUMNS: &str =
    "id, white, black, white_elo, black_elo, date, result, eco, opening, event, site, round, plies,
    (SELECT white_accuracy FROM reviews WHERE reviews.game = games.id),
    (SELECT black_accuracy FROM reviews WHERE reviews.game = games.id)";

fn row_of(row: &rusqlite::Row<'_>) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        id: row.get(0)?,
        white: row.get(1)?,
        black: row.get(2)?,
        white_elo: row.get(3)?,
        black_elo: row.get(4)?,
        date: row.get(5)?,
        result: row.get(6)?,
        eco: row.get(7)?,
        opening: row.get(8)?,
        event: row.get(9)?,
        site: row.get(10)?,
        round: row.get(11)?,
        plies: row.get(12)?,
        white_accuracy: row.get(13)?,
        black_accuracy: row.get(14)?,
    })
}

impl Database {
    /// The games `query` finds, most recent first (by date, then by the
    /// order they were imported, last first), and how many it finds in
    /// all.
    pub fn games(&self, query: &GameQuery) -> Result<(Vec<GameRow>, u64), DbError> {
        let (mut sql, mut values) = query.filter.sql();
        if let Some(eco) = &query.eco {
            sql.push_str(" AND eco LIKE ? ESCAPE '\\'");
            values.push(Value::Text(format!("{}%", like_escape(eco.trim()))));
        }
        if let Some(opening) = &query.opening {
            for word in opening.split_whitespace() {
                sql.push_str(" AND opening LIKE ? ESCAPE '\\'");
                values.push(Value::Text(format!("%{}%", like_escape(word))));
            }
        }
        let limit = query.limit.max(1);
        let Some(position) = &query.position else {
            let total: i64 = self.conn.query_row(
                &format!("SELECT count(*) FROM games WHERE {sql}"),
                rusqlite::params_from_iter(values.iter()),
                |row| row.get(0),
            )?;
            let mut statement = self.conn.prepare(&format!(
                "SELECT {COLUMNS} FROM games WHERE {sql} ORDER BY day DESC, id DESC LIMIT ? OFFSET ?"
            ))?;
            values.push(Value::Integer(limit as i64));
            values.push(Value::Integer(query.offset as i64));
            let rows = statement.query_map(rusqlite::params_from_iter(values), row_of)?;
            return Ok((rows.collect::<Result<_, _>>()?, total.max(0) as u64));
        };
        // By position: the index names the games, the rest of the query
        // narrows them, and each game listed is checked by replaying it
        // to the position (two positions could share both hashes).
        let (key, check) = super::position_key(position);
        let candidates: HashSet<u32> = self
            .entries_of(key, check, 0)?
            .iter()
            .map(|e| e.game)
            .collect();
        let mut found: Vec<(i64, GameRow)> = Vec::new();
        let mut total = 0u64;
        let wanted = query.offset + limit;
        if candidates.len() <= CANDIDATE_LOOKUPS {
            // Each candidate's date (and whether it passes the query), then
            // the rows of those listed only.
            let mut statement = self
                .conn
                .prepare(&format!("SELECT day FROM games WHERE id = ? AND ({sql})"))?;
            let mut dated: Vec<(i64, i64)> = Vec::new();
            for &id in &candidates {
                let mut params = vec![Value::Integer(i64::from(id))];
                params.extend(values.iter().cloned());
                let mut rows = statement.query(rusqlite::params_from_iter(params))?;
                if let Some(row) = rows.next()? {
                    dated.push((row.get(0)?, i64::from(id)));
                }
            }
            dated.sort_unstable_by(|a, b| b.cmp(a));
            total = dated.len() as u64;
            let mut one = self
                .conn
                .prepare_cached(&format!("SELECT {COLUMNS}, day FROM games WHERE id = ?1"))?;
            for (_, id) in dated.into_iter().take(wanted) {
                let mut rows = one.query([id])?;
                if let Some(row) = rows.next()? {
                    found.push((row.get(15)?, row_of(row)?));
                }
            }
        } else {
            // Too many to look up one by one: one pass over the games'
            // numbers in the list's order (the date index holds them),
            // keeping the candidates, then the rows of those shown.
            let mut statement = self.conn.prepare(&format!(
                "SELECT id FROM games WHERE {sql} ORDER BY day DESC, id DESC"
            ))?;
            let mut ids = statement.query(rusqlite::params_from_iter(values.iter()))?;
            let mut picked = Vec::new();
            while let Some(row) = ids.next()? {
                let id: i64 = row.get(0)?;
                if u32::try_from(id).is_ok_and(|id| candidates.contains(&id)) {
                    total += 1;
                    if picked.len() < wanted {
                        picked.push(id);
                    }
                }
            }
            let mut one = self
                .conn
                .prepare_cached(&format!("SELECT {COLUMNS}, day FROM games WHERE id = ?1"))?;
            for id in picked {
                let mut rows = one.query([id])?;
                if let Some(row) = rows.next()? {
                    found.push((row.get(15)?, row_of(row)?));
                }
            }
        }
        let mut rows = Vec::new();
        for (_, row) in found.into_iter().skip(query.offset) {
            if rows.len() == limit {
                break;
            }
            if self.game_reaches(row.id, position)? {
                rows.push(row);
            } else {
                total -= 1;
            }
        }
        Ok((rows, total))
    }

    /// Whether game `id`'s main line reaches `position`.
    fn game_reaches(&self, id: i64, position: &Chess) -> Result<bool, DbError> {
        let (start, moves) = self.stored_moves(id)?;
        let mut at = start;
        if same_position(&at, position) {
            return Ok(true);
        }
        for code in moves {
            let Some(m) = decode(&at, code) else {
                return Err(DbError::Damaged(
                    "a stored game has a move that is not legal",
                ));
            };
            at.play_unchecked(m);
            if same_position(&at, position) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// A stored game's start position and moves.
    fn stored_moves(&self, id: i64) -> Result<(Chess, Vec<u16>), DbError> {
        let (fen, chess960, moves): (Option<String>, bool, Vec<u8>) = self
            .conn
            .query_row(
                "SELECT fen, chess960, moves FROM games WHERE id = ?1",
                [id],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
            )
            .map_err(|e| match e {
                rusqlite::Error::QueryReturnedNoRows => {
                    DbError::Input(format!("there is no game {id} in the database"))
                }
                other => DbError::Sql(other),
            })?;
        let start = match fen {
            Some(fen) => crate::game::import::start_from_fen(&fen, chess960)
                .map(|(p, _)| p)
                .map_err(|_| DbError::Damaged("a stored game's start position is not a FEN"))?,
            None if chess960 => crate::game::chess960::standard_start(),
            None => Chess::default(),
        };
        Ok((start, codec::decode_moves(&moves)?))
    }

    /// A stored game as a game tree: its tags and main line.
    pub fn load_game(&self, id: i64) -> Result<GameTree, DbError> {
        let (start, moves) = self.stored_moves(id)?;
        let (tags, result): (String, String) = self.conn.query_row(
            "SELECT tags, result FROM games WHERE id = ?1",
            [id],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )?;
        let mut tree = GameTree::new(start.clone());
        tree.headers = Headers(
            tags.lines()
                .filter_map(|line| line.split_once('\t'))
                .map(|(name, value)| (name.to_string(), value.to_string()))
                .collect(),
        );
        tree.result = result;
        let mut position = start;
        let mut node = 0;
        for code in moves {
            let Some(m) = decode(&position, code) else {
                return Err(DbError::Damaged(
                    "a stored game has a move that is not legal",
                ));
            };
            node = tree.push_played(node, &mut position, m);
        }
        Ok(tree)
    }

    /// Keep a review's figures beside the game with `hash` (from
    /// [`super::import::game_hash`]); false when no game has that hash.
    pub fn store_review(&self, hash: &[u8; 16], review: &StoredReview) -> Result<bool, DbError> {
        let id: Option<i64> = self
            .conn
            .query_row("SELECT id FROM games WHERE hash = ?1", [&hash[..]], |row| {
                row.get(0)
            })
            .map(Some)
            .or_else(|e| match e {
                rusqlite::Error::QueryReturnedNoRows => Ok(None),
                other => Err(other),
            })?;
        let Some(id) = id else { return Ok(false) };
        self.conn.execute(
            "INSERT INTO reviews(game, white_accuracy, black_accuracy, white_acpl, black_acpl, movetime_ms, reviewed)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT(game) DO UPDATE SET white_accuracy = excluded.white_accuracy,
                black_accuracy = excluded.black_accuracy, white_acpl = excluded.white_acpl,
                black_acpl = excluded.black_acpl, movetime_ms = excluded.movetime_ms,
                reviewed = excluded.reviewed",
            rusqlite::params![
                id,
                review.accuracy[0],
                review.accuracy[1],
                review.acpl[0],
                review.acpl[1],
                review.movetime_ms,
                review.when,
            ],
        )?;
        Ok(true)
    }

    /// A stored game as PGN text.
    pub fn game_pgn(&self, id: i64) -> Result<String, DbError> {
        Ok(self.load_game(id)?.to_pgn())
    }
}

/// Whether two positions are the same as the index tells them apart: the
/// pieces, the side to move, the castling rights and an en passant square
/// where a pawn stands to take (the move counters do not count).
pub fn same_position(a: &Chess, b: &Chess) -> bool {
    a.board() == b.board()
        && a.turn() == b.turn()
        && a.castles().castling_rights() == b.castles().castling_rights()
        && a.ep_square(shakmaty::EnPassantMode::PseudoLegal)
            == b.ep_square(shakmaty::EnPassantMode::PseudoLegal)
}

/// The legal move of `position` with Polyglot encoding `code`.
pub fn decode(position: &Chess, code: u16) -> Option<shakmaty::Move> {
    position
        .legal_moves()
        .into_iter()
        .find(|m| crate::book::polyglot::encode_move(*m) == code)
}

/// `text` with LIKE's wildcards taken literally.
fn like_escape(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}
