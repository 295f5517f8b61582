//! A small hash table of evaluations already computed.
//!
//! The static evaluation is the most expensive step of a quiescence node
//! (a few thousand instructions: every piece's attacks for mobility and king
//! safety), and the search meets the same positions again and again: each
//! iteration of iterative deepening revisits the previous one's leaves, and
//! re-searches (PVS, reductions, aspiration windows) revisit their own. The
//! evaluation depends on the board alone, so a position's hash key is enough
//! to find it, and a hit returns exactly the value that evaluating would.
//! It serves the hand-written evaluation only: the network's value, kept
//! up to date move by move, is cheaper to make than to look up here
//! (`Searcher::evaluate`).

/// 2^16 entries of 8 bytes: 512 KiB, small enough to stay mostly in cache.
const BITS: u32 = 16;
const MASK: u64 = (1 << BITS) - 1;

/// Evaluations from White's side, by position key.
#[derive(Clone)]
pub struct EvalCache {
    /// The key's high 48 bits (the low 16 are the slot's index), then the
    /// value in the low 16 bits. A slot is empty when it holds `EMPTY`.
    slots: Vec<u64>,
}

/// No key's high bits with this value fill a slot: an empty slot never
/// matches (a key whose high 48 bits are all ones is simply not cached).
const EMPTY: u64 = u64::MAX;

impl Default for EvalCache {
    fn default() -> EvalCache {
        EvalCache {
            slots: vec![EMPTY; 1 << BITS],
        }
    }
}

impl EvalCache {
    pub fn get(&self, key: u64) -> Option<i32> {
        let slot = self.slots[(key & MASK) as usize];
        (slot != EMPTY && slot & !MASK == key & !MASK).then_some(i32::from(slot as u16 as i16))
    }

    /// Remember `value` for `key` (values beyond 16 bits are not kept).
    pub fn put(&mut self, key: u64, value: i32) {
        if key & !MASK == EMPTY & !MASK {
            return;
        }
        if let Ok(value) = i16::try_from(value) {
            self.slots[(key & MASK) as usize] = (key & !MASK) | u64::from(value as u16);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn returns_what_was_put_and_nothing_else() {
        let mut cache = EvalCache::default();
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(cache.get(key), None);
        cache.put(key, -321);
        assert_eq!(cache.get(key), Some(-321));
        // Same slot, another key: a miss, until it replaces the first.
        let other = key ^ (1 << 40);
        assert_eq!(cache.get(other), None);
        cache.put(other, 17);
        assert_eq!(cache.get(other), Some(17));
        assert_eq!(cache.get(key), None);
        // Too large for the slot: not kept.
        cache.put(key, 40_000);
        assert_eq!(cache.get(key), None);
        // A value of -1 fills every bit of the low half: still a value.
        cache.put(key, -1);
        assert_eq!(cache.get(key), Some(-1));
    }
}
