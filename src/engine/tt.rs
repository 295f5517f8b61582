//! The transposition table: a large hash table of positions already searched.
//!
//! Chess trees are full of transpositions (the same position reached by
//! different move orders) and iterative deepening searches the same positions
//! again one ply deeper. Remembering, per position, the best move found and a
//! bound on its value lets the search (1) skip a subtree whose stored result
//! is deep enough and (2) try the stored best move first, which is the single
//! biggest win for move ordering.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use shakmaty::{Chess, Move, Position, Role, Square};

/// Scores at or beyond this magnitude are mates or tablebase wins; see
/// `values.rs`.
use super::values::TB_BOUND;

/// The kind of bound a transposition table entry holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TtBound {
    Exact,
    /// The position is worth at least the stored value (it failed high).
    Lower,
    /// The position is worth at most the stored value (it failed low).
    Upper,
}

/// One slot: 16 bytes, so four share a cache line.
///
/// Several search threads (Lazy SMP) read and write the table at once
/// without locks. A slot is two 64-bit words, each written atomically, but
/// not the pair: one thread may overwrite the data word while another has
/// written only its key word, or a reader may see one word old and one new
/// (a *torn* entry). Storing the key XOR the data, not the key itself,
/// catches that: a probe recomputes `key_xor_data ^ data` and gets the
/// position's key back only if both words come from the same store. A torn
/// entry then reads as a miss, never as another position's result. (The
/// trick is Hyatt and Mann's "lockless hashing".) Relaxed ordering is
/// enough: no other memory depends on a slot, and the check itself is what
/// guards against mixed words.
#[derive(Debug, Default)]
struct Entry {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

/// The data word of a slot, unpacked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Data {
    value: i16,
    best_move: PackedMove,
    depth: i8,
    /// Low 2 bits: bound (0 = empty). High 6 bits: the search generation that
    /// wrote it, so stale entries from earlier moves are replaced first.
    bound_and_generation: u8,
}

impl Data {
    /// Value in bits 0-15, move 16-31, depth 32-39, bound and generation
    /// 40-47.
    fn pack(self) -> u64 {
        u64::from(self.value as u16)
            | (u64::from(self.best_move.0) << 16)
            | (u64::from(self.depth as u8) << 32)
            | (u64::from(self.bound_and_generation) << 40)
    }

    fn unpack(word: u64) -> Data {
        Data {
            value: word as u16 as i16,
            best_move: PackedMove((word >> 16) as u16),
            depth: (word >> 32) as u8 as i8,
            bound_and_generation: (word >> 40) as u8,
        }
    }

    fn is_used(self) -> bool {
        self.bound_and_generation & 3 != 0
    }
}

impl Entry {
    /// The slot's key and data as one store left them; a torn pair gives a
    /// key that matches no position the search asks about.
    #[inline]
    fn load(&self) -> (u64, Data) {
        let data = self.data.load(Ordering::Relaxed);
        let key = self.key_xor_data.load(Ordering::Relaxed) ^ data;
        (key, Data::unpack(data))
    }

    #[inline]
    fn save(&self, key: u64, data: Data) {
        let data = data.pack();
        self.key_xor_data.store(key ^ data, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }
}

/// What a probe returns.
#[derive(Debug, Clone, Copy)]
pub struct TtHit {
    pub value: i32,
    pub depth: i32,
    pub bound: TtBound,
    pub best_move: PackedMove,
}

/// A move in 16 bits: from (6), to (6), promotion role (3). Castling is
/// stored as king to rook square, as shakmaty represents it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PackedMove(u16);

impl PackedMove {
    pub const NONE: PackedMove = PackedMove(0);

    pub fn new(m: Move) -> PackedMove {
        let from = m.from().map_or(0, u16::from);
        let to = u16::from(m.to());
        let promotion = m.promotion().map_or(0, |role| role as u16);
        PackedMove(from | (to << 6) | (promotion << 12))
    }

    /// The 16 bits, for ordering moves in a fixed way.
    pub fn raw(self) -> u16 {
        self.0
    }

    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    fn origin(self) -> Square {
        Square::new(u32::from(self.0 & 63))
    }

    fn destination(self) -> Square {
        Square::new(u32::from((self.0 >> 6) & 63))
    }

    /// Turns the packed move back into a legal move of `position`, or `None`
    /// when it is not legal there (a hash collision or a stale entry).
    /// `in_check` says whether the side to move is in check: when it is
    /// not, a quick test of the one move does (see `is_legal_quickly`).
    pub fn unpack(self, position: &Chess, in_check: bool) -> Option<Move> {
        if self.is_none() {
            return None;
        }
        let board = position.board();
        let from = self.origin();
        let to = self.destination();
        let role = board.role_at(from)?;
        let us = position.turn();
        let m = if role == Role::King && board.by_piece(Role::Rook.of(us)).contains(to) {
            Move::Castle {
                king: from,
                rook: to,
            }
        } else if role == Role::Pawn && from.file() != to.file() && !board.occupied().contains(to) {
            Move::EnPassant { from, to }
        } else {
            let promotion = match self.0 >> 12 {
                0 => None,
                n => Role::try_from(u32::from(n)).ok(),
            };
            Move::Normal {
                role,
                from,
                capture: board.role_at(to),
                to,
                promotion,
            }
        };
        let legal = if in_check {
            position.is_legal(m)
        } else {
            super::movegen::is_legal_quickly(position, m)
        };
        legal.then_some(m)
    }
}

/// Shared by every search thread: all methods a search calls take `&self`.
pub struct TranspositionTable {
    entries: Vec<Entry>,
    /// Advanced by the main thread once per search, before any helper
    /// starts; read by every store.
    generation: AtomicU8,
}

/// The memory this machine can give a new allocation without swapping or
/// being killed, in bytes: `KIBITZ_MEMORY_MB` MiB where that is set (a
/// container whose limit `/proc/meminfo` does not show, or a test), else
/// Linux's estimate `MemAvailable` from `/proc/meminfo` (`MemTotal` on
/// kernels without it). `None` where neither is known.
pub fn available_memory() -> Option<u64> {
    if let Some(mb) = std::env::var("KIBITZ_MEMORY_MB")
        .ok()
        .and_then(|text| text.trim().parse::<u64>().ok())
    {
        return Some(mb.saturating_mul(1024 * 1024));
    }
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    meminfo_field(&text, "MemAvailable:").or_else(|| meminfo_field(&text, "MemTotal:"))
}

/// A `/proc/meminfo` line's figure (in kB there), in bytes.
fn meminfo_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|line| line.starts_with(name))?;
    let kb: u64 = line[name.len()..].split_whitespace().next()?.parse().ok()?;
    kb.checked_mul(1024)
}

/// A table never takes more than this share of the available memory: the
/// board, the search threads and the rest of the machine need the rest.
const HASH_SHARE_OF_AVAILABLE: u64 = 2;
/// Tables up to this size are made without asking the system.
const HASH_UNCHECKED_MB: usize = 256;
/// The cap where the available memory cannot be read (not Linux).
const HASH_FIXED_CAP_MB: usize = 4096;

/// Where a table of the size asked for would not fit in memory: the size
/// it gets instead, and what it is capped by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HashCap {
    pub asked_mb: usize,
    pub cap_mb: usize,
    /// The memory available when asked, MiB (`None`: unknown, so the
    /// fixed cap applies).
    pub available_mb: Option<u64>,
}

impl std::fmt::Display for HashCap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.available_mb {
            Some(available) => write!(
                f,
                "a {} MiB hash table does not fit in this machine's memory: using {} MiB \
                 (half of the {available} MiB available)",
                self.asked_mb, self.cap_mb
            ),
            None => write!(
                f,
                "a {} MiB hash table is more than kibitz allocates without knowing the \
                 machine's memory: using {} MiB",
                self.asked_mb, self.cap_mb
            ),
        }
    }
}

/// The size a table of `megabytes` MiB gets on this machine, and the cap
/// when that is less than asked. A huge size is refused up front: under
/// Linux's overcommit the allocation itself succeeds and the process is
/// killed later, when the table's pages are written.
pub fn hash_size(megabytes: usize) -> (usize, Option<HashCap>) {
    let megabytes = megabytes.max(1);
    if megabytes <= HASH_UNCHECKED_MB {
        return (megabytes, None);
    }
    let available_mb = available_memory().map(|bytes| bytes / (1024 * 1024));
    let cap_mb = match available_mb {
        Some(available) => {
            usize::try_from(available / HASH_SHARE_OF_AVAILABLE).unwrap_or(usize::MAX)
        }
        None => HASH_FIXED_CAP_MB,
    }
    .max(HASH_UNCHECKED_MB);
    if megabytes <= cap_mb {
        return (megabytes, None);
    }
    (
        cap_mb,
        Some(HashCap {
            asked_mb: megabytes,
            cap_mb,
            available_mb,
        }),
    )
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one entry), at most
    /// what this machine can hold ([`hash_size`]). Probes read it at
    /// random, so its pages matter: under the program's allocator
    /// (mimalloc, see `main.rs`) it gets 2 MiB pages where the system
    /// allows, and a probe rarely misses the TLB.
    pub fn new(megabytes: usize) -> TranspositionTable {
        let (megabytes, _) = hash_size(megabytes);
        let count = (megabytes.max(1) * 1024 * 1024 / std::mem::size_of::<Entry>()).max(1);
        let mut entries = Vec::with_capacity(count);
        entries.resize_with(count, Entry::default);
        TranspositionTable {
            entries,
            generation: AtomicU8::new(0),
        }
    }

    /// A table of `megabytes` MiB, or the largest power-of-two fraction of
    /// it the system will allocate (a huge Hash setting must not abort).
    pub fn with_fallback(megabytes: usize) -> TranspositionTable {
        let mut megabytes = hash_size(megabytes).0;
        loop {
            let count = (megabytes * 1024 * 1024 / std::mem::size_of::<Entry>()).max(1);
            let mut entries = Vec::new();
            if entries.try_reserve_exact(count).is_ok() {
                entries.resize_with(count, Entry::default);
                return TranspositionTable {
                    entries,
                    generation: AtomicU8::new(0),
                };
            }
            if megabytes == 1 {
                return TranspositionTable::new(1);
            }
            megabytes /= 2;
        }
    }

    pub fn clear(&mut self) {
        for entry in &mut self.entries {
            *entry.key_xor_data.get_mut() = 0;
            *entry.data.get_mut() = 0;
        }
        *self.generation.get_mut() = 0;
    }

    /// Called once per search (by the main thread, before helpers start),
    /// so entries of earlier searches age.
    pub fn new_search(&self) {
        let next = (self.generation.load(Ordering::Relaxed) + 1) & 63;
        self.generation.store(next, Ordering::Relaxed);
    }

    /// The first slot of the key's bucket. A bucket is two neighbouring
    /// slots (32 bytes, within one cache line): one tends to keep a deep
    /// result, the other takes the stream of shallow ones.
    fn bucket(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto the table without a slow modulo.
        let index = ((u128::from(key) * self.entries.len() as u128) >> 64) as usize;
        (index & !1).min(self.entries.len().saturating_sub(2))
    }

    /// Ask the processor to start loading the key's bucket into its cache.
    /// The table is far larger than any cache, so nearly every probe waits
    /// on main memory; issued while the move is still being made on the
    /// board, the load overlaps that work instead of stalling the probe.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let slot = self.entries.as_ptr().wrapping_add(self.bucket(key));
            // SAFETY: a prefetch is only a hint. It never faults and reads
            // nothing into the program's memory, whatever the address; this
            // one is inside the table anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(slot.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    fn slots(&self, key: u64) -> &[Entry] {
        let first = self.bucket(key);
        &self.entries[first..(first + 2).min(self.entries.len())]
    }

    pub fn probe(&self, key: u64, ply: u32) -> Option<TtHit> {
        let entry = self
            .slots(key)
            .iter()
            .map(Entry::load)
            .find(|&(stored, data)| stored == key && data.is_used())?
            .1;
        let bound = match entry.bound_and_generation & 3 {
            1 => TtBound::Exact,
            2 => TtBound::Lower,
            3 => TtBound::Upper,
            _ => return None,
        };
        Some(TtHit {
            value: value_from_tt(i32::from(entry.value), ply),
            depth: i32::from(entry.depth),
            bound,
            best_move: entry.best_move,
        })
    }

    pub fn store(
        &self,
        key: u64,
        ply: u32,
        depth: i32,
        value: i32,
        bound: TtBound,
        best_move: PackedMove,
    ) {
        let generation = self.generation.load(Ordering::Relaxed);
        let slots = self.slots(key);
        let mut loaded = [(0u64, Data::default()); 2];
        for (seen, slot) in loaded.iter_mut().zip(slots) {
            *seen = slot.load();
        }
        let loaded = &loaded[..slots.len()];
        // The slot for this position if it has one; otherwise the one whose
        // loss costs least: empty, then left over from an earlier search,
        // then the shallower. Another thread may write the bucket between
        // this look and the store below; then one of the two results is
        // lost, which costs a little search, never a wrong answer.
        let index = loaded
            .iter()
            .position(|&(stored, data)| stored == key && data.is_used())
            .unwrap_or_else(|| {
                (0..loaded.len())
                    .min_by_key(|&i| {
                        let data = loaded[i].1;
                        let current = (data.bound_and_generation >> 2) == generation;
                        (data.is_used(), current, data.depth)
                    })
                    .unwrap_or(0)
            });
        let (stored, old) = loaded[index];
        let same = stored == key;
        // A much deeper result for the same position is worth more than a
        // shallow bound on it.
        if same && i32::from(old.depth) > depth + 3 && bound != TtBound::Exact {
            return;
        }
        // Keep the old best move when this store has none for the same position.
        let best_move = if best_move.is_none() && same {
            old.best_move
        } else {
            best_move
        };
        let bound_bits = match bound {
            TtBound::Exact => 1,
            TtBound::Lower => 2,
            TtBound::Upper => 3,
        };
        slots[index].save(
            key,
            Data {
                value: value_to_tt(value, ply) as i16,
                best_move,
                depth: depth.clamp(-1, i32::from(i8::MAX)) as i8,
                bound_and_generation: bound_bits | (generation << 2),
            },
        );
    }

    /// Per mille of a sample of slots written by the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.entries.len().min(1000);
        let used = self.entries[..sample]
            .iter()
            .filter(|e| {
                let data = e.load().1;
                data.is_used() && (data.bound_and_generation >> 2) == generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

/// Mate and tablebase-win scores count plies from the root, but a table
/// entry may be reached at another ply; store them as distance from the node and convert back.
fn value_to_tt(value: i32, ply: u32) -> i32 {
    let ply = ply as i32;
    if value >= TB_BOUND {
        value + ply
    } else if value <= -TB_BOUND {
        value - ply
    } else {
        value
    }
}

fn value_from_tt(value: i32, ply: u32) -> i32 {
    let ply = ply as i32;
    if value >= TB_BOUND {
        value - ply
    } else if value <= -TB_BOUND {
        value + ply
    } else {
        value
    }
}

#[cfg(test)]
mod memory_tests {
    use super::*;

    #[test]
    fn meminfo_figures_are_read_in_bytes() {
        let text = "MemTotal:       24683420 kB\nMemFree:        15547392 kB\nMemAvailable:   21176600 kB\n";
        assert_eq!(
            meminfo_field(text, "MemAvailable:"),
            Some(21_176_600 * 1024)
        );
        assert_eq!(meminfo_field(text, "MemTotal:"), Some(24_683_420 * 1024));
        assert_eq!(meminfo_field(text, "SwapTotal:"), None);
    }

    #[test]
    fn small_tables_are_never_capped_and_huge_ones_are() {
        assert_eq!(hash_size(64), (64, None));
        assert_eq!(hash_size(0), (1, None));
        let (mb, cap) = hash_size(usize::MAX / (1024 * 1024));
        let cap = cap.unwrap();
        assert_eq!(mb, cap.cap_mb);
        assert!(cap.cap_mb >= HASH_UNCHECKED_MB && cap.cap_mb < cap.asked_mb);
        if let Some(available) = cap.available_mb {
            assert_eq!(cap.cap_mb as u64, (available / 2).max(256));
            assert!(
                cap.to_string()
                    .contains(&format!("{available} MiB available"))
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn every_legal_move_survives_packing() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/8/8/3pP3/8/8/8/k6K w - d6 0 1",
        ] {
            let pos = position(fen);
            for m in pos.legal_moves() {
                assert_eq!(
                    PackedMove::new(m).unpack(&pos, pos.is_check()),
                    Some(m),
                    "{fen} {m:?}"
                );
            }
        }
    }

    /// Any 16 bits a table slot can hold (a collision's move, a stale
    /// one) unpack to a move exactly when shakmaty calls it legal: every
    /// origin, destination and promotion, over random games from the perft
    /// suite's positions, in check and not.
    #[test]
    fn any_packed_move_unpacks_only_when_legal() {
        let (mut legal, mut refused) = (0, 0);
        super::super::random_walks::walk(
            &super::super::random_walks::TRICKY,
            0x9e37_79b9_7f4a_7c15,
            |pos, _| {
                let in_check = pos.is_check();
                for bits in (0..1u32 << 16).step_by(37) {
                    let packed = PackedMove(bits as u16);
                    let Some(m) = packed.unpack(pos, in_check) else {
                        refused += 1;
                        continue;
                    };
                    assert!(
                        pos.is_legal(m),
                        "{m:?} in {}",
                        Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
                    );
                    legal += 1;
                }
                // And every legal move comes back from its packing.
                for m in pos.legal_moves() {
                    assert_eq!(PackedMove::new(m).unpack(pos, in_check), Some(m));
                }
            },
        );
        assert!(legal > 1_000 && refused > 100_000, "{legal} {refused}");
    }

    #[test]
    fn store_then_probe_keeps_mate_distance_relative_to_the_node() {
        let tt = TranspositionTable::new(1);
        let mate_in_3_plies_from_root = super::super::values::MATE - 3;
        tt.store(
            42,
            1,
            5,
            mate_in_3_plies_from_root,
            TtBound::Exact,
            PackedMove::NONE,
        );
        // The same position met two plies deeper is two plies further from the root.
        let hit = tt.probe(42, 3).unwrap();
        assert_eq!(hit.value, mate_in_3_plies_from_root - 2);
        assert!(tt.probe(43, 1).is_none());
    }

    #[test]
    fn an_entry_is_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<Entry>(), 16);
    }

    #[test]
    fn data_word_round_trips() {
        let data = Data {
            value: -31_000,
            best_move: PackedMove(0xbeef),
            depth: -1,
            bound_and_generation: 0b1111_1110,
        };
        assert_eq!(Data::unpack(data.pack()), data);
    }

    /// Two threads storing to one slot at once can leave the key word of
    /// one store beside the data word of the other. The probe must see a
    /// miss, not the other position's value and move.
    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        tt.store(key, 0, 7, 150, TtBound::Exact, PackedMove(0x0a0b));
        let hit = tt.probe(key, 0).expect("just stored");
        assert_eq!((hit.value, hit.depth), (150, 7));
        let slot = tt
            .slots(key)
            .iter()
            .find(|e| e.load().0 == key)
            .expect("the stored slot");
        // Another store's data word lands, its key word does not.
        let other = Data {
            value: -300,
            best_move: PackedMove(0x0c0d),
            depth: 9,
            bound_and_generation: 2 | (1 << 2),
        };
        slot.data.store(other.pack(), Ordering::Relaxed);
        assert!(tt.probe(key, 0).is_none());
        // And the other way round: the new key word over the old data.
        tt.store(key, 0, 7, 150, TtBound::Exact, PackedMove(0x0a0b));
        let slot = tt
            .slots(key)
            .iter()
            .find(|e| e.load().0 == key)
            .expect("the stored slot");
        let other_key = key ^ 0xff;
        slot.key_xor_data
            .store(other_key ^ other.pack(), Ordering::Relaxed);
        assert!(tt.probe(key, 0).is_none());
        assert!(tt.probe(other_key, 0).is_none());
    }
}
