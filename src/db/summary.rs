//! The explorer's summary: for each position that many games reach, the
//! moves played from it with their results and the sum of the players'
//! ratings, ready to read.
//!
//! Without it the explorer would read every entry of a position: a million
//! of them at the start position of a million games, and a rating looked
//! up for each. With it a popular position costs a few rows. A position
//! reached by fewer than [`SUMMARY_MIN`] games is read from the index,
//! which is as fast for so few.
//!
//! The summary covers the games up to `summary_upto` (in `meta`); the
//! explorer adds what the index holds of later games, so a summary left
//! behind by a stopped import is incomplete, never wrong. Rebuilding reads
//! every segment of the index in one merged pass; the same pass can merge
//! the segments into one, which keeps a query's lookups few.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, VecDeque};

use rusqlite::OptionalExtension;

use super::codec::{self, Entry};
use super::import::SegmentWriter;
use super::{Database, DbError};

/// A game's ratings, White's and Black's, where its tags give them.
pub type GameRatings = (Option<u32>, Option<u32>);

/// A position reached by at least this many games is summarised.
pub const SUMMARY_MIN: usize = 32;

/// Segments beyond this many are merged into one when the summary is
/// rebuilt: each segment costs a query two lookups.
pub const MAX_SEGMENTS: usize = 8;

/// Blocks read at a time from a segment.
const BLOCKS_PER_READ: i64 = 64;

/// Reads one segment's entries in order.
pub(crate) struct SegmentReader {
    segment: i64,
    after: Option<(i64, i64)>,
    pending: VecDeque<Entry>,
    done: bool,
}

impl SegmentReader {
    pub(crate) fn new(segment: i64) -> SegmentReader {
        SegmentReader {
            segment,
            after: None,
            pending: VecDeque::new(),
            done: false,
        }
    }

    /// The next entry, reading more blocks when needed.
    pub(crate) fn next(&mut self, db: &Database) -> Result<Option<Entry>, DbError> {
        while self.pending.is_empty() && !self.done {
            let (key, n) = self.after.unwrap_or((i64::MIN, -1));
            let mut statement = db.conn.prepare_cached(
                "SELECT first_key, n, data FROM blocks
                 WHERE seg = ?1 AND (first_key, n) > (?2, ?3)
                 ORDER BY first_key, n LIMIT ?4",
            )?;
            let mut rows = statement.query((self.segment, key, n, BLOCKS_PER_READ))?;
            let mut read = 0;
            while let Some(row) = rows.next()? {
                let first: i64 = row.get(0)?;
                let n: i64 = row.get(1)?;
                let data: Vec<u8> = row.get(2)?;
                codec::read_block(codec::key_of_stored(first), &data, &mut |e| {
                    self.pending.push_back(e);
                    true
                })?;
                self.after = Some((first, n));
                read += 1;
            }
            if read < BLOCKS_PER_READ {
                self.done = true;
            }
        }
        Ok(self.pending.pop_front())
    }
}

/// Each position's entries, from every segment, in the index's order.
pub(crate) struct Merged {
    readers: Vec<SegmentReader>,
    heap: BinaryHeap<Reverse<(u64, u16, u32, usize)>>,
    heads: Vec<Option<Entry>>,
}

impl Merged {
    pub(crate) fn new(db: &Database, segments: &[i64]) -> Result<Merged, DbError> {
        let mut merged = Merged {
            readers: segments.iter().map(|&s| SegmentReader::new(s)).collect(),
            heap: BinaryHeap::new(),
            heads: vec![None; segments.len()],
        };
        for i in 0..segments.len() {
            merged.refill(db, i)?;
        }
        Ok(merged)
    }

    fn refill(&mut self, db: &Database, i: usize) -> Result<(), DbError> {
        let next = self.readers[i].next(db)?;
        if let Some(e) = next {
            self.heap.push(Reverse((e.key, e.check, e.game, i)));
        }
        self.heads[i] = next;
        Ok(())
    }

    pub(crate) fn next(&mut self, db: &Database) -> Result<Option<Entry>, DbError> {
        let Some(Reverse((_, _, _, i))) = self.heap.pop() else {
            return Ok(None);
        };
        let entry = self.heads[i];
        self.refill(db, i)?;
        Ok(entry)
    }
}

/// The counts of one move (or of the games that ended in the position).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub white: u64,
    pub draws: u64,
    pub black: u64,
    pub unknown: u64,
    pub elo_sum: u64,
    pub elo_n: u64,
}

impl Counts {
    pub fn games(&self) -> u64 {
        self.white + self.draws + self.black + self.unknown
    }

    pub fn add_result(&mut self, result: u8) {
        match result {
            0 => self.white += 1,
            1 => self.draws += 1,
            2 => self.black += 1,
            _ => self.unknown += 1,
        }
    }

    pub fn add_ratings(&mut self, ratings: GameRatings) {
        for r in [ratings.0, ratings.1].into_iter().flatten() {
            self.elo_sum += u64::from(r);
            self.elo_n += 1;
        }
    }

    pub fn add(&mut self, other: &Counts) {
        self.white += other.white;
        self.draws += other.draws;
        self.black += other.black;
        self.unknown += other.unknown;
        self.elo_sum += other.elo_sum;
        self.elo_n += other.elo_n;
    }
}

impl Database {
    /// The segments of the index, oldest first.
    pub(crate) fn segments(&self) -> Result<Vec<(i64, u32, u32)>, DbError> {
        let mut statement = self
            .conn
            .prepare_cached("SELECT id, first_game, last_game FROM segments ORDER BY id")?;
        let rows = statement.query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The games the summary covers: those numbered up to this.
    pub(crate) fn summary_upto(&self) -> Result<u32, DbError> {
        Ok(self
            .meta("summary_upto")?
            .and_then(|v| v.parse().ok())
            .unwrap_or(0))
    }

    /// Every game's ratings, by number.
    fn ratings(&self) -> Result<Vec<GameRatings>, DbError> {
        let max: Option<i64> = self
            .conn
            .query_row("SELECT max(id) FROM games", [], |row| row.get(0))
            .optional()?
            .flatten();
        let mut out = vec![(None, None); usize::try_from(max.unwrap_or(0)).unwrap_or(0) + 1];
        let mut statement = self
            .conn
            .prepare("SELECT id, white_elo, black_elo FROM games")?;
        let mut rows = statement.query([])?;
        while let Some(row) = rows.next()? {
            let id: i64 = row.get(0)?;
            if let Some(slot) = usize::try_from(id).ok().and_then(|i| out.get_mut(i)) {
                *slot = (row.get(1)?, row.get(2)?);
            }
        }
        Ok(out)
    }

    /// Rebuild the summary from the whole index, merging the segments into
    /// one when there are more than [`MAX_SEGMENTS`] (or `merge` says so),
    /// in one transaction.
    pub fn rebuild_summary(&mut self, merge: bool) -> Result<(), DbError> {
        let segments = self.segments()?;
        let merge = (merge && segments.len() > 1) || segments.len() > MAX_SEGMENTS;
        let ratings = self.ratings()?;
        let upto = segments.iter().map(|s| s.2).max().unwrap_or(0);
        self.conn.execute_batch("BEGIN IMMEDIATE")?;
        let outcome = self.rebuild_in_transaction(&segments, merge, &ratings, upto);
        match outcome {
            Ok(()) => {
                self.conn.execute_batch("COMMIT")?;
                Ok(())
            }
            Err(e) => {
                let _ = self.conn.execute_batch("ROLLBACK");
                Err(e)
            }
        }
    }

    fn rebuild_in_transaction(
        &self,
        segments: &[(i64, u32, u32)],
        merge: bool,
        ratings: &[GameRatings],
        upto: u32,
    ) -> Result<(), DbError> {
        self.conn.execute("DELETE FROM summary", [])?;
        let ids: Vec<i64> = segments.iter().map(|s| s.0).collect();
        let mut merged = Merged::new(self, &ids)?;
        let mut writer = None;
        let mut total = 0i64;
        if merge {
            let first = segments.iter().map(|s| s.1).min().unwrap_or(0);
            self.conn.execute(
                "INSERT INTO segments(first_game, last_game, entries) VALUES (?1, ?2, 0)",
                (first, upto),
            )?;
            writer = Some(SegmentWriter::new(self, self.conn.last_insert_rowid())?);
        }
        let new_segment = self.conn.last_insert_rowid();
        let mut insert = self.conn.prepare_cached(
            "INSERT INTO summary(key, chk, mv, white, draws, black, unknown, elo_sum, elo_n)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        )?;
        let mut group: Vec<Entry> = Vec::new();
        let mut flush = |group: &mut Vec<Entry>| -> Result<(), DbError> {
            if group.len() >= SUMMARY_MIN {
                let mut by_move: BTreeMap<u16, Counts> = BTreeMap::new();
                for e in group.iter() {
                    let counts = by_move.entry(e.mv).or_default();
                    counts.add_result(e.result);
                    if let Some(r) = ratings.get(e.game as usize) {
                        counts.add_ratings(*r);
                    }
                }
                let first = group[0];
                for (mv, c) in by_move {
                    insert.execute(rusqlite::params![
                        codec::stored_key(first.key),
                        first.check,
                        mv,
                        c.white as i64,
                        c.draws as i64,
                        c.black as i64,
                        c.unknown as i64,
                        c.elo_sum as i64,
                        c.elo_n as i64,
                    ])?;
                }
            }
            group.clear();
            Ok(())
        };
        while let Some(entry) = merged.next(self)? {
            if let Some(w) = writer.as_mut() {
                w.push(entry)?;
                total += 1;
            }
            if group.first().is_some_and(|g| !g.same_position(&entry)) {
                flush(&mut group)?;
            }
            group.push(entry);
        }
        flush(&mut group)?;
        if let Some(w) = writer {
            w.finish()?;
            for id in &ids {
                self.conn
                    .execute("DELETE FROM blocks WHERE seg = ?1", [id])?;
                self.conn
                    .execute("DELETE FROM segments WHERE id = ?1", [id])?;
            }
            self.conn.execute(
                "UPDATE segments SET entries = ?1 WHERE id = ?2",
                (total, new_segment),
            )?;
        }
        self.conn.execute(
            "INSERT INTO meta(name, value) VALUES ('summary_upto', ?1)
             ON CONFLICT(name) DO UPDATE SET value = excluded.value",
            [upto.to_string()],
        )?;
        Ok(())
    }
}
