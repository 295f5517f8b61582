//! Importing PGN into the database.
//!
//! The file is streamed through [`crate::game::parallel::map_games`]: the
//! calling thread splits it into games and the other threads read each
//! game, play its moves and list its positions ([`prepare`]); the calling
//! thread then writes the games in file order. A game already in the
//! database (same tags, same moves: the `hash` column) is not added again,
//! so importing a file twice adds nothing.
//!
//! Games and their index entries are written in batches, one transaction
//! each: a batch's entries are sorted and packed into a new segment of the
//! index, and the batch commits with its games, so the file always holds
//! whole batches, never a game without its positions. A stop (Ctrl-C)
//! writes the batch read so far and ends; a crash loses only the batch
//! being written (SQLite's journal rolls it back). After the last batch
//! the explorer's summary is rebuilt ([`super::summary`]).

use std::io::Read;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use shakmaty::{Chess, Position};
use siphasher::sip128::{Hasher128, SipHasher13};

use super::codec::{self, BlockWriter, Entry};
use super::{Database, DbError};
use crate::book::polyglot::encode_move;
use crate::game::tree::GameTree;

/// How an import runs.
#[derive(Debug, Clone)]
pub struct ImportOptions {
    /// Threads reading games beside the calling thread.
    pub workers: usize,
    /// Index entries per batch: a batch is one transaction and one segment
    /// of the index. Eight million entries are about 100,000 games and
    /// 130 MB of memory while they are sorted.
    pub batch_entries: usize,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions {
            workers: crate::game::parallel::default_workers(),
            batch_entries: 8_000_000,
        }
    }
}

/// Where an import is, for a progress line.
#[derive(Debug, Clone, Default)]
pub struct ImportProgress {
    pub bytes_read: u64,
    pub bytes_total: u64,
    pub games_read: u64,
    pub added: u64,
    pub duplicates: u64,
    pub skipped: u64,
    /// Seconds since the import started.
    pub seconds: f64,
}

/// What an import did.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct ImportReport {
    pub games_read: u64,
    pub added: u64,
    /// Games already in the database (or twice in the file), not added.
    pub duplicates: u64,
    /// Games that could not be read.
    pub skipped: u64,
    /// The first of them, named.
    pub bad_games: Vec<String>,
    /// Index entries written.
    pub positions: u64,
    /// Stopped before the end of the file: the games read before the stop
    /// were written.
    pub stopped: bool,
    /// A problem reading the file after some games (the games before it
    /// were written).
    pub read_error: Option<String>,
    pub seconds: f64,
}

/// A game read and ready to write.
pub struct NewGame {
    hash: [u8; 16],
    white: String,
    black: String,
    white_elo: Option<u32>,
    black_elo: Option<u32>,
    date: String,
    day: u32,
    result: String,
    eco: Option<String>,
    opening: Option<String>,
    event: Option<String>,
    site: Option<String>,
    round: Option<String>,
    fen: Option<String>,
    chess960: bool,
    tags: String,
    moves: Vec<u8>,
    plies: u32,
    /// The game's positions, each once (its first time): key, check, move.
    positions: Vec<(u64, u16, u16)>,
}

/// What reading one game gave.
pub enum Prepared {
    Game(Box<NewGame>),
    /// A game that could not be read, named.
    Bad(String),
    /// Nothing: no tags and no moves.
    Empty,
}

/// A rating from a tag: a whole number from 1 to 4,000.
fn rating(text: Option<&str>) -> Option<u32> {
    text?
        .trim()
        .parse::<u32>()
        .ok()
        .filter(|r| (1..=4000).contains(r))
}

/// A PGN date (`YYYY.MM.DD`, `?` for unknown digits) as a number that sorts
/// by date: YYYYMMDD, an unknown part 0, an unreadable date 0.
pub fn day_number(date: &str) -> u32 {
    let mut parts = date.trim().split(['.', '-', '/']);
    let mut part = |digits: usize, max: u32| -> Option<u32> {
        let text = parts.next()?;
        if text.len() == digits && text.bytes().all(|b| b.is_ascii_digit()) {
            text.parse().ok().filter(|v| *v <= max)
        } else {
            Some(0)
        }
    };
    let year = part(4, 9999).unwrap_or(0);
    if year == 0 {
        return 0;
    }
    let month = part(2, 12).unwrap_or(0);
    let day = part(2, 31).unwrap_or(0);
    year * 10000 + month * 100 + day
}

/// Read one game: its tags, its main line, its positions. A null move ends
/// the main line there (the positions after it are not the game's).
pub fn prepare(tree: GameTree) -> Prepared {
    if let Some(error) = &tree.error {
        // The reader's words say where the game stops; the database takes
        // all of a game or none of it.
        let text = error.to_string();
        let text = text
            .strip_suffix("; the game stops before it")
            .unwrap_or(&text);
        return Prepared::Bad(format!("{text} (the game is not imported)"));
    }
    if tree.headers.0.is_empty() && tree.nodes.len() <= 1 {
        return Prepared::Empty;
    }
    let tag = |name: &str| {
        tree.headers
            .get(name)
            .map(str::trim)
            .filter(|v| !v.is_empty())
    };
    let chess960 = tag("Variant").is_some_and(crate::game::chess960::is_chess960_variant);
    let mut position: Chess = tree.start.clone();
    let mut moves = Vec::new();
    let mut positions = Vec::new();
    let mut named = crate::game::openings::Openings::builtin().get(&position);
    let mut at = 0;
    let mut ply: u32 = 0;
    loop {
        let (key, check) = super::position_key(&position);
        let next = tree.nodes[at].children.first().copied();
        let m = next.and_then(|n| tree.nodes[n].m);
        let code = m.map_or(0, encode_move);
        positions.push((key, check, ply, code));
        let (Some(node), Some(m)) = (next, m) else {
            break;
        };
        moves.push(code);
        position.play_unchecked(m);
        if let Some(opening) = crate::game::openings::Openings::builtin().get(&position) {
            named = Some(opening);
        }
        ply += 1;
        at = node;
    }
    // Each position once, at its first time: sort by position and ply and
    // keep the first of each run.
    positions.sort_unstable_by_key(|&(key, check, ply, _)| (key, check, ply));
    positions.dedup_by(|later, first| later.0 == first.0 && later.1 == first.1);
    let positions = positions
        .into_iter()
        .map(|(key, check, _, mv)| (key, check, mv))
        .collect();

    let hash = hash_of(&tree.headers, &moves);

    let mut tags = String::new();
    for (name, value) in &tree.headers.0 {
        tags.push_str(name);
        tags.push('\t');
        tags.push_str(&value.replace(['\t', '\n', '\r'], " "));
        tags.push('\n');
    }
    let date = tag("Date")
        .or(tag("UTCDate"))
        .unwrap_or("????.??.??")
        .to_string();
    Prepared::Game(Box::new(NewGame {
        hash,
        white: tag("White").unwrap_or("?").to_string(),
        black: tag("Black").unwrap_or("?").to_string(),
        white_elo: rating(tag("WhiteElo")),
        black_elo: rating(tag("BlackElo")),
        day: day_number(&date),
        date,
        result: tree.result.clone(),
        eco: tag("ECO")
            .map(str::to_string)
            .or_else(|| named.map(|o| o.eco.clone())),
        opening: tag("Opening")
            .map(str::to_string)
            .or_else(|| named.map(|o| o.name.clone())),
        event: tag("Event").map(str::to_string),
        site: tag("Site").map(str::to_string),
        round: tag("Round").map(str::to_string),
        fen: tag("FEN").map(|_| crate::game::fen::fen_of(&tree.start)),
        chess960,
        tags,
        plies: ply,
        moves: codec::encode_moves(&moves),
        positions,
    }))
}

/// A game's identity in the database: a 128-bit hash of its tags (names
/// and values, in order) and its main line's moves (up to a null move).
/// The same game read from two files has the same hash; a game whose tags
/// differ (another event, a corrected name) is another game.
pub fn game_hash(tree: &GameTree) -> [u8; 16] {
    let mut moves = Vec::new();
    let mut at = 0;
    while let Some(&node) = tree.nodes[at].children.first() {
        let Some(m) = tree.nodes[node].m else { break };
        moves.push(encode_move(m));
        at = node;
    }
    hash_of(&tree.headers, &moves)
}

fn hash_of(headers: &crate::game::pgn::Headers, moves: &[u16]) -> [u8; 16] {
    use std::hash::Hasher;
    let mut hasher = SipHasher13::new_with_keys(0x6b69_6269_747a_6462, 0x6761_6d65_7331_0000);
    for (name, value) in &headers.0 {
        hasher.write(name.as_bytes());
        hasher.write(&[0]);
        hasher.write(value.as_bytes());
        hasher.write(&[0]);
    }
    hasher.write(&[1]);
    for code in moves {
        hasher.write(&code.to_be_bytes());
    }
    hasher.finish128().as_bytes()
}

/// A reader that counts the bytes read through it.
struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// How many bad games an import names (the rest are counted).
const NAMED_BAD_GAMES: usize = 100;

/// The batch being written: its games are in the open transaction, its
/// entries wait to be sorted into a segment.
struct Batch {
    entries: Vec<Entry>,
    first_game: Option<u32>,
    last_game: u32,
}

impl Database {
    /// Import the games of the PGN file at `pgn`. `stop` ends the import
    /// early (keeping the games read so far); `progress` is told where it
    /// is now and then. The summary is not rebuilt here: call
    /// [`Database::finish_import`] after the last file.
    pub fn import(
        &mut self,
        pgn: &Path,
        options: &ImportOptions,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&ImportProgress),
    ) -> Result<ImportReport, DbError> {
        let file = crate::fsutil::open_regular(pgn).map_err(|e| DbError::Input(e.to_string()))?;
        let bytes_total = file.metadata().map(|m| m.len()).unwrap_or(0);
        let count = Arc::new(AtomicU64::new(0));
        let source = Counting {
            inner: file,
            count: Arc::clone(&count),
        };
        let started = Instant::now();
        let mut report = ImportReport::default();
        let mut batch = Batch {
            entries: Vec::new(),
            first_game: None,
            last_game: 0,
        };
        let mut failure: Option<DbError> = None;
        let mut last_progress = Instant::now();
        self.conn.execute_batch("BEGIN IMMEDIATE")?;
        let work = |tree: GameTree, _number: usize| prepare(tree);
        let mut each = |prepared: Prepared| -> bool {
            report.games_read += 1;
            let outcome = match prepared {
                Prepared::Empty => {
                    report.games_read -= 1;
                    Ok(())
                }
                Prepared::Bad(why) => {
                    report.skipped += 1;
                    if report.bad_games.len() < NAMED_BAD_GAMES {
                        report.bad_games.push(why);
                    }
                    Ok(())
                }
                Prepared::Game(game) => self.add_game(&game, &mut batch, &mut report),
            };
            if let Err(e) = outcome {
                failure = Some(e);
                return false;
            }
            if batch.entries.len() >= options.batch_entries
                && let Err(e) = self.write_batch(&mut batch)
            {
                failure = Some(e);
                return false;
            }
            if last_progress.elapsed() >= Duration::from_millis(200) {
                last_progress = Instant::now();
                progress(&ImportProgress {
                    bytes_read: count.load(Ordering::Relaxed),
                    bytes_total,
                    games_read: report.games_read,
                    added: report.added,
                    duplicates: report.duplicates,
                    skipped: report.skipped,
                    seconds: started.elapsed().as_secs_f64(),
                });
            }
            !stop.load(Ordering::Relaxed)
        };
        let read = crate::game::parallel::map_games(source, options.workers, &work, &mut each);
        if let Some(e) = failure {
            let _ = self.conn.execute_batch("ROLLBACK");
            return Err(e);
        }
        if let Err(e) = read {
            report.read_error = Some(format!("cannot read {}: {e}", pgn.display()));
        }
        if let Err(e) = self.write_batch(&mut batch) {
            let _ = self.conn.execute_batch("ROLLBACK");
            return Err(e);
        }
        self.conn.execute_batch("COMMIT")?;
        report.stopped = stop.load(Ordering::Relaxed);
        report.seconds = started.elapsed().as_secs_f64();
        progress(&ImportProgress {
            bytes_read: count.load(Ordering::Relaxed),
            bytes_total,
            games_read: report.games_read,
            added: report.added,
            duplicates: report.duplicates,
            skipped: report.skipped,
            seconds: report.seconds,
        });
        Ok(report)
    }

    /// Add one game to the open transaction, its entries to the batch; a
    /// game already there is counted, not added.
    fn add_game(
        &self,
        game: &NewGame,
        batch: &mut Batch,
        report: &mut ImportReport,
    ) -> Result<(), DbError> {
        let mut insert = self.conn.prepare_cached(
            "INSERT OR IGNORE INTO games(hash, white, black, white_elo, black_elo, date, day, result,
                eco, opening, event, site, round, fen, chess960, tags, moves, plies)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)",
        )?;
        let changed = insert.execute(rusqlite::params![
            &game.hash[..],
            game.white,
            game.black,
            game.white_elo,
            game.black_elo,
            game.date,
            game.day,
            game.result,
            game.eco,
            game.opening,
            game.event,
            game.site,
            game.round,
            game.fen,
            game.chess960,
            game.tags,
            game.moves,
            game.plies,
        ])?;
        if changed == 0 {
            report.duplicates += 1;
            return Ok(());
        }
        let id = u32::try_from(self.conn.last_insert_rowid()).map_err(|_| {
            DbError::Input("the database holds more games than kibitz can index (4 billion)".into())
        })?;
        report.added += 1;
        report.positions += game.positions.len() as u64;
        batch.first_game.get_or_insert(id);
        batch.last_game = id;
        let result = codec::result_code(&game.result);
        batch
            .entries
            .extend(game.positions.iter().map(|&(key, check, mv)| Entry {
                key,
                check,
                game: id,
                mv,
                result,
            }));
        Ok(())
    }

    /// Sort the batch's entries into a new segment and commit it with its
    /// games; a new transaction is then open.
    fn write_batch(&self, batch: &mut Batch) -> Result<(), DbError> {
        let Some(first_game) = batch.first_game.take() else {
            return Ok(());
        };
        // Sorted in place and cleared, not dropped: the next batch reuses
        // the memory instead of asking the system for it again.
        batch.entries.sort_unstable_by(Entry::order);
        self.write_segment(&batch.entries, first_game, batch.last_game)?;
        batch.entries.clear();
        self.conn.execute_batch("COMMIT; BEGIN IMMEDIATE")?;
        Ok(())
    }

    /// Write sorted entries as a new segment (in the open transaction);
    /// its number.
    pub(crate) fn write_segment(
        &self,
        sorted: &[Entry],
        first_game: u32,
        last_game: u32,
    ) -> Result<i64, DbError> {
        self.conn.execute(
            "INSERT INTO segments(first_game, last_game, entries) VALUES (?1, ?2, ?3)",
            (first_game, last_game, sorted.len() as i64),
        )?;
        let segment = self.conn.last_insert_rowid();
        let mut writer = SegmentWriter::new(self, segment)?;
        for &entry in sorted {
            writer.push(entry)?;
        }
        writer.finish()?;
        Ok(segment)
    }
}

/// Writes a segment's blocks as sorted entries come.
pub(crate) struct SegmentWriter<'a> {
    statement: rusqlite::CachedStatement<'a>,
    segment: i64,
    blocks: BlockWriter,
    n: i64,
}

impl<'a> SegmentWriter<'a> {
    pub(crate) fn new(db: &'a Database, segment: i64) -> Result<SegmentWriter<'a>, DbError> {
        Ok(SegmentWriter {
            statement: db.conn.prepare_cached(
                "INSERT INTO blocks(seg, first_key, n, data) VALUES (?1, ?2, ?3, ?4)",
            )?,
            segment,
            blocks: BlockWriter::new(),
            n: 0,
        })
    }

    pub(crate) fn push(&mut self, entry: Entry) -> Result<(), DbError> {
        if let Some((first_key, data)) = self.blocks.push(entry) {
            self.write(first_key, &data)?;
        }
        Ok(())
    }

    fn write(&mut self, first_key: u64, data: &[u8]) -> Result<(), DbError> {
        self.statement
            .execute((self.segment, codec::stored_key(first_key), self.n, data))?;
        self.n += 1;
        Ok(())
    }

    pub(crate) fn finish(mut self) -> Result<(), DbError> {
        if let Some((first_key, data)) = self.blocks.finish() {
            self.write(first_key, &data)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
