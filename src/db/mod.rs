//! The game database: games imported once from PGN into one SQLite file,
//! with an index of every position they reach, so that the explorer can
//! say what was played from a position and how it scored, and a search can
//! find the games that reached it.
//!
//! The file is SQLite (through rusqlite, the library bundled): other tools
//! can read it (`sqlite3`, DuckDB, Python), and SQLite's journal keeps it
//! whole through a crash or a Ctrl-C, which a file rewritten through a
//! temporary copy could not do at this size. The tables:
//! - `meta`: what the file is (`format` = `kibitz-games`, `version`).
//! - `games`: one row per game, its main tags as columns, the rest as text,
//!   its moves two bytes each, and a hash of its tags and moves that makes
//!   an import idempotent.
//! - `segments` and `blocks`: the position index, in sorted runs (one per
//!   batch of an import) packed as [`codec`] describes.
//! - `summary`: the explorer's counts for the positions that many games
//!   reach (so the start position does not mean reading a million entries).
//! - `reviews`: accuracy per game, from `kibitz review --all --db`.
//!
//! A position is known by Polyglot's Zobrist key and 16 bits of a second,
//! independent hash ([`position_key`]); the explorer also drops any move
//! that is not legal in the position asked about.

pub mod codec;
pub mod explore;
pub mod import;
pub mod search;
pub mod summary;

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags, OptionalExtension};
use shakmaty::zobrist::Zobrist128;
use shakmaty::{Chess, EnPassantMode, Position};

pub use explore::{Explorer, Filter, MoveStat, PlayerSide};
pub use import::{ImportOptions, ImportProgress, ImportReport};
pub use search::{GameQuery, GameRow, StoredReview};

/// What the `meta` table says a kibitz database is.
pub const FORMAT: &str = "kibitz-games";
/// The layout's version; a newer file is refused, never written.
pub const VERSION: u32 = 1;
/// The database's file name in the data folder.
pub const DEFAULT_FILE: &str = "games.sqlite";

/// What goes wrong with a database.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("{path}: {why}")]
    Open { path: PathBuf, why: String },
    #[error("{path} is not a kibitz game database: {why}")]
    Foreign { path: PathBuf, why: String },
    #[error(
        "{path} is a kibitz game database of version {found}, newer than this kibitz reads ({VERSION}): it is left as it is"
    )]
    Newer { path: PathBuf, found: u32 },
    #[error("the database is damaged: {0}")]
    Damaged(&'static str),
    #[error("database: {0}")]
    Sql(#[from] rusqlite::Error),
    #[error("{0}")]
    Input(String),
}

/// The key of a position in the index: Polyglot's Zobrist key, and 16 bits
/// of a second hash. shakmaty's 128-bit Zobrist hash holds Polyglot's key
/// in its low half and independent random numbers in its high half, so one
/// computation gives both.
pub fn position_key(position: &Chess) -> (u64, u16) {
    let hash = position
        .zobrist_hash::<Zobrist128>(EnPassantMode::PseudoLegal)
        .0;
    (hash as u64, (hash >> 64) as u16)
}

/// The default database: `games.sqlite` in the data folder.
pub fn default_path(data_dir: &Path) -> PathBuf {
    data_dir.join(DEFAULT_FILE)
}

/// An open database.
pub struct Database {
    conn: Connection,
    path: PathBuf,
}

const SCHEMA: &str = "
CREATE TABLE meta(name TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
CREATE TABLE games(
    id INTEGER PRIMARY KEY,
    hash BLOB NOT NULL UNIQUE,
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    white_elo INTEGER,
    black_elo INTEGER,
    date TEXT NOT NULL,
    day INTEGER NOT NULL,
    result TEXT NOT NULL,
    eco TEXT,
    opening TEXT,
    event TEXT,
    site TEXT,
    round TEXT,
    fen TEXT,
    chess960 INTEGER NOT NULL,
    tags TEXT NOT NULL,
    moves BLOB NOT NULL,
    plies INTEGER NOT NULL
) STRICT;
CREATE INDEX games_white ON games(white COLLATE NOCASE);
CREATE INDEX games_black ON games(black COLLATE NOCASE);
CREATE INDEX games_day ON games(day, id);
CREATE INDEX games_eco ON games(eco);
CREATE TABLE segments(
    id INTEGER PRIMARY KEY,
    first_game INTEGER NOT NULL,
    last_game INTEGER NOT NULL,
    entries INTEGER NOT NULL
) STRICT;
CREATE TABLE blocks(
    seg INTEGER NOT NULL,
    first_key INTEGER NOT NULL,
    n INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY(seg, first_key, n)
) STRICT, WITHOUT ROWID;
CREATE TABLE summary(
    key INTEGER NOT NULL,
    chk INTEGER NOT NULL,
    mv INTEGER NOT NULL,
    white INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    black INTEGER NOT NULL,
    unknown INTEGER NOT NULL,
    elo_sum INTEGER NOT NULL,
    elo_n INTEGER NOT NULL,
    PRIMARY KEY(key, chk, mv)
) STRICT, WITHOUT ROWID;
CREATE TABLE reviews(
    game INTEGER PRIMARY KEY REFERENCES games(id),
    white_accuracy REAL,
    black_accuracy REAL,
    white_acpl REAL,
    black_acpl REAL,
    movetime_ms INTEGER,
    reviewed TEXT NOT NULL
) STRICT;
";

impl Database {
    /// Open an existing database; `write` for an import or a review.
    pub fn open(path: &Path, write: bool) -> Result<Database, DbError> {
        let fail = |why: String| DbError::Open {
            path: path.to_path_buf(),
            why,
        };
        let metadata = std::fs::metadata(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                fail("there is no database there (`kibitz db import` makes one)".into())
            } else {
                fail(e.to_string())
            }
        })?;
        if !metadata.is_file() {
            return Err(fail("not a file".into()));
        }
        let flags = if write {
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX
        } else {
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX
        };
        if metadata.len() == 0 {
            return Err(DbError::Foreign {
                path: path.to_path_buf(),
                why: "it is an empty file".into(),
            });
        }
        let conn = Connection::open_with_flags(path, flags).map_err(|e| fail(e.to_string()))?;
        let db = Database {
            conn,
            path: path.to_path_buf(),
        };
        db.check_format()?;
        // SQLite opens a file it may not write read-only without a word;
        // an import or a review would fail only at its first write.
        if write && db.conn.is_readonly(rusqlite::MAIN_DB).unwrap_or(false) {
            return Err(fail("it is read-only: kibitz cannot write to it".into()));
        }
        db.tune()?;
        Ok(db)
    }

    /// Open the database at `path` for an import, making it (and its
    /// folder) when there is none. An existing file must be a kibitz
    /// database: anything else is refused and left as it is.
    pub fn open_or_create(path: &Path) -> Result<Database, DbError> {
        let fail = |why: String| DbError::Open {
            path: path.to_path_buf(),
            why,
        };
        match std::fs::symlink_metadata(path) {
            Ok(_) => return Database::open(path, true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(fail(e.to_string())),
        }
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .map_err(|e| fail(format!("cannot make its folder: {e}")))?;
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| fail(e.to_string()))?;
        let tx = conn.unchecked_transaction()?;
        tx.execute_batch(SCHEMA)?;
        tx.execute(
            "INSERT INTO meta(name, value) VALUES ('format', ?1), ('version', ?2), ('summary_upto', '0')",
            (FORMAT, VERSION.to_string()),
        )?;
        tx.commit()?;
        let db = Database {
            conn,
            path: path.to_path_buf(),
        };
        db.tune()?;
        Ok(db)
    }

    fn tune(&self) -> Result<(), DbError> {
        self.conn.busy_timeout(std::time::Duration::from_secs(10))?;
        // Pages in memory for the queries of one session: 64 MB.
        self.conn
            .execute_batch("PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY;")?;
        Ok(())
    }

    /// Refuse a file that is not a kibitz database, or one newer than this
    /// kibitz reads.
    fn check_format(&self) -> Result<(), DbError> {
        let foreign = |why: &str| DbError::Foreign {
            path: self.path.clone(),
            why: why.to_string(),
        };
        let has_meta: Option<String> = self
            .conn
            .query_row(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'",
                [],
                |row| row.get(0),
            )
            .optional()
            .map_err(|e| match e {
                rusqlite::Error::SqliteFailure(f, _)
                    if f.code == rusqlite::ErrorCode::NotADatabase =>
                {
                    foreign("it is not an SQLite file")
                }
                other => DbError::Sql(other),
            })?;
        if has_meta.is_none() {
            return Err(foreign(
                "it has no `meta` table (another program's SQLite file?)",
            ));
        }
        let format = self.meta("format")?;
        if format.as_deref() != Some(FORMAT) {
            return Err(foreign("its `meta` table does not say `kibitz-games`"));
        }
        let version: u32 = self
            .meta("version")?
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| foreign("its version is not a number"))?;
        if version > VERSION {
            return Err(DbError::Newer {
                path: self.path.clone(),
                found: version,
            });
        }
        Ok(())
    }

    pub(crate) fn meta(&self, name: &str) -> Result<Option<String>, DbError> {
        Ok(self
            .conn
            .query_row("SELECT value FROM meta WHERE name = ?1", [name], |row| {
                row.get(0)
            })
            .optional()?)
    }

    /// Where the database is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How many games it holds.
    pub fn game_count(&self) -> Result<u64, DbError> {
        let n: i64 = self
            .conn
            .query_row("SELECT count(*) FROM games", [], |row| row.get(0))?;
        Ok(n.max(0) as u64)
    }

    /// What the database holds, for `kibitz db info`.
    pub fn info(&self) -> Result<Info, DbError> {
        let one = |sql: &str| -> Result<i64, DbError> {
            Ok(self
                .conn
                .query_row(sql, [], |row| row.get::<_, Option<i64>>(0))?
                .unwrap_or(0))
        };
        Ok(Info {
            games: one("SELECT count(*) FROM games")?.max(0) as u64,
            positions: one("SELECT sum(entries) FROM segments")?.max(0) as u64,
            segments: one("SELECT count(*) FROM segments")?.max(0) as u64,
            summary_rows: one("SELECT count(*) FROM summary")?.max(0) as u64,
            reviewed: one("SELECT count(*) FROM reviews")?.max(0) as u64,
            bytes: std::fs::metadata(&self.path).map(|m| m.len()).unwrap_or(0),
        })
    }
}

/// What a database holds.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Info {
    pub games: u64,
    /// Entries of the position index: one per position of each game (a
    /// position a game reaches twice counts once).
    pub positions: u64,
    pub segments: u64,
    pub summary_rows: u64,
    pub reviewed: u64,
    pub bytes: u64,
}

#[cfg(test)]
mod tests;
