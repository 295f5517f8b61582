//! How the position index is laid out in the database file.
//!
//! The index holds one entry per position of every game: the position's
//! key, the game, the move played from it (or none, where the game ended)
//! and the game's result. A million games make some eighty million entries,
//! so their size decides the file's: stored as SQLite rows they would take
//! 20-45 bytes each (a key, a game number, a move and the row's own
//! overhead, twice with an index), several times the PGN they came from.
//! So entries are sorted by position and packed into blocks of a few
//! kilobytes, each a row of the `blocks` table: a position's entries sit
//! side by side, a key shared by many games is written once, and a key is
//! written as its distance from the one before it, which for sorted keys is
//! a few bytes instead of eight.
//!
//! A block is a run of entries; each entry is
//! - a head, varint: `2 * (key - previous key) + 1` when it starts a new
//!   position (the check follows), `0` when it has the previous entry's
//!   position (the game number is then the distance from the previous one);
//! - the check, 2 bytes little-endian, only after a head that is odd;
//! - the game number, varint (its distance from the previous entry's when
//!   the position is the same: entries of one position are sorted by game);
//! - `4 * move + result`, varint, with the move in Polyglot's encoding
//!   (0 where the game ended in this position) and the result 0 (White
//!   won), 1 (draw), 2 (Black won) or 3 (unknown).
//!
//! The first entry of a block counts its key's distance from the block's
//! first key (the row's `first_key`), so it is 0 and the block can be read
//! alone.

use std::cmp::Ordering;

use super::DbError;

/// An entry of the position index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// Polyglot's Zobrist key of the position.
    pub key: u64,
    /// 16 bits of a second, independent hash of the position: two
    /// positions that share a Polyglot key are told apart by it (a wrong
    /// match needs both to collide).
    pub check: u16,
    /// The game's number in the `games` table.
    pub game: u32,
    /// The move played from the position (Polyglot's encoding), 0 where
    /// the game ended there.
    pub mv: u16,
    /// 0 White won, 1 draw, 2 Black won, 3 unknown (`*`).
    pub result: u8,
}

impl Entry {
    /// The order of the index: by position, then by game.
    pub fn order(&self, other: &Entry) -> Ordering {
        (self.key, self.check, self.game).cmp(&(other.key, other.check, other.game))
    }

    /// Whether two entries are of the same position.
    pub fn same_position(&self, other: &Entry) -> bool {
        self.key == other.key && self.check == other.check
    }
}

/// The result's code in an entry.
pub fn result_code(result: &str) -> u8 {
    match result.trim() {
        "1-0" => 0,
        "1/2-1/2" => 1,
        "0-1" => 2,
        _ => 3,
    }
}

/// A block holds entries until its data reaches this size: small enough
/// that reading one to find a position costs microseconds, large enough
/// that the rows' own overhead is small beside them.
pub const BLOCK_BYTES: usize = 4096;

/// SQLite's integers are signed: a key is stored with its top bit flipped,
/// so that the stored numbers sort as the keys do.
pub fn stored_key(key: u64) -> i64 {
    (key ^ (1 << 63)) as i64
}

/// The key a stored number stands for.
pub fn key_of_stored(stored: i64) -> u64 {
    (stored as u64) ^ (1 << 63)
}

fn put_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn get_varint(data: &[u8], at: &mut usize) -> Result<u64, DbError> {
    let mut value = 0u64;
    let mut shift = 0;
    loop {
        let byte = *data
            .get(*at)
            .ok_or(DbError::Damaged("a block ends inside an entry"))?;
        *at += 1;
        if shift > 63 {
            return Err(DbError::Damaged("a number in a block is too long"));
        }
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
        shift += 7;
    }
}

/// Writes sorted entries into blocks.
pub struct BlockWriter {
    data: Vec<u8>,
    first_key: u64,
    previous: Option<Entry>,
}

impl Default for BlockWriter {
    fn default() -> Self {
        BlockWriter::new()
    }
}

impl BlockWriter {
    pub fn new() -> BlockWriter {
        BlockWriter {
            data: Vec::with_capacity(BLOCK_BYTES + 32),
            first_key: 0,
            previous: None,
        }
    }

    /// Add the next entry (in the index's order). Returns a finished block
    /// (its first key and data) when this entry would not fit.
    pub fn push(&mut self, entry: Entry) -> Option<(u64, Vec<u8>)> {
        let finished = if self.data.len() >= BLOCK_BYTES {
            self.finish()
        } else {
            None
        };
        match self.previous {
            None => {
                self.first_key = entry.key;
                put_varint(&mut self.data, 1);
                self.data.extend_from_slice(&entry.check.to_le_bytes());
                put_varint(&mut self.data, u64::from(entry.game));
            }
            Some(previous) if previous.same_position(&entry) => {
                put_varint(&mut self.data, 0);
                put_varint(
                    &mut self.data,
                    u64::from(entry.game.wrapping_sub(previous.game)),
                );
            }
            Some(previous) => {
                let distance = entry.key.wrapping_sub(previous.key);
                // A distance needs 64 bits and the head one more: a u128
                // keeps the arithmetic exact, and the varint takes 10 bytes
                // at most.
                let head = 2 * u128::from(distance) + 1;
                put_u128_varint(&mut self.data, head);
                self.data.extend_from_slice(&entry.check.to_le_bytes());
                put_varint(&mut self.data, u64::from(entry.game));
            }
        }
        put_varint(
            &mut self.data,
            4 * u64::from(entry.mv) + u64::from(entry.result & 3),
        );
        self.previous = Some(entry);
        finished
    }

    /// The block being filled, if it has any entry.
    pub fn finish(&mut self) -> Option<(u64, Vec<u8>)> {
        self.previous?;
        self.previous = None;
        let data = std::mem::replace(&mut self.data, Vec::with_capacity(BLOCK_BYTES + 32));
        Some((self.first_key, data))
    }
}

fn put_u128_varint(out: &mut Vec<u8>, mut value: u128) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn get_u128_varint(data: &[u8], at: &mut usize) -> Result<u128, DbError> {
    let mut value = 0u128;
    let mut shift = 0;
    loop {
        let byte = *data
            .get(*at)
            .ok_or(DbError::Damaged("a block ends inside an entry"))?;
        *at += 1;
        if shift > 70 {
            return Err(DbError::Damaged("a key distance in a block is too long"));
        }
        value |= u128::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
        shift += 7;
    }
}

/// Decode every entry of a block whose first key is `first_key`, handing
/// each to `each` (return false to stop early).
pub fn read_block(
    first_key: u64,
    data: &[u8],
    each: &mut dyn FnMut(Entry) -> bool,
) -> Result<(), DbError> {
    let mut at = 0;
    let mut previous: Option<Entry> = None;
    while at < data.len() {
        let head = get_u128_varint(data, &mut at)?;
        let (key, check, game) = if head == 0 {
            let previous = previous.ok_or(DbError::Damaged("a block starts with a repeat"))?;
            let step = get_varint(data, &mut at)?;
            let game = u64::from(previous.game)
                .checked_add(step)
                .and_then(|g| u32::try_from(g).ok())
                .ok_or(DbError::Damaged("a game number in a block is out of range"))?;
            (previous.key, previous.check, game)
        } else {
            if head % 2 == 0 {
                return Err(DbError::Damaged("a block's entry has a bad head"));
            }
            let distance = u64::try_from(head / 2)
                .map_err(|_| DbError::Damaged("a key distance in a block is too long"))?;
            let key = match previous {
                None => first_key.wrapping_add(distance),
                Some(previous) => previous.key.wrapping_add(distance),
            };
            let bytes = data
                .get(at..at + 2)
                .ok_or(DbError::Damaged("a block ends inside an entry"))?;
            at += 2;
            let check = u16::from_le_bytes([bytes[0], bytes[1]]);
            let game = u32::try_from(get_varint(data, &mut at)?)
                .map_err(|_| DbError::Damaged("a game number in a block is out of range"))?;
            (key, check, game)
        };
        let tail = get_varint(data, &mut at)?;
        let mv = u16::try_from(tail / 4)
            .map_err(|_| DbError::Damaged("a move in a block is out of range"))?;
        let entry = Entry {
            key,
            check,
            game,
            mv,
            result: (tail % 4) as u8,
        };
        previous = Some(entry);
        if !each(entry) {
            break;
        }
    }
    Ok(())
}

/// A game's moves as stored: two bytes each, Polyglot's encoding, big-endian.
pub fn encode_moves(moves: &[u16]) -> Vec<u8> {
    moves.iter().flat_map(|m| m.to_be_bytes()).collect()
}

/// The moves of a stored game.
pub fn decode_moves(data: &[u8]) -> Result<Vec<u16>, DbError> {
    if !data.len().is_multiple_of(2) {
        return Err(DbError::Damaged("a game's moves have an odd length"));
    }
    Ok(data
        .chunks_exact(2)
        .map(|pair| u16::from_be_bytes([pair[0], pair[1]]))
        .collect())
}

#[cfg(test)]
mod tests;
