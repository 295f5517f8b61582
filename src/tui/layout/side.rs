//! The side panel's own state: which optional panel shows where they take
//! turns (a compact terminal, Tab switches), and how far the tablebase
//! panel is scrolled.

use super::Panel;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Side {
    /// The optional panel Tab (or a key that opens one) chose last.
    pub chosen: Option<Panel>,
    /// The first tablebase move shown (0: the best); back to 0 at every
    /// new position.
    pub tablebase_first: usize,
}

impl Side {
    /// The panel that shows among `available`: the one chosen if it is
    /// there, else the first.
    pub fn shown(&self, available: &[Panel]) -> Option<Panel> {
        self.chosen
            .filter(|p| available.contains(p))
            .or_else(|| available.first().copied())
    }

    /// Tab: the next of `available` after the one shown, round.
    pub fn next(&mut self, available: &[Panel]) -> Option<Panel> {
        let shown = self.shown(available)?;
        let at = available.iter().position(|p| *p == shown).unwrap_or(0);
        let next = available[(at + 1) % available.len()];
        self.chosen = Some(next);
        Some(next)
    }

    /// Scroll the tablebase list by `by` moves (negative: up), keeping a
    /// page of `rows` on screen out of `moves`.
    pub fn scroll_tablebase(&mut self, by: isize, rows: usize, moves: usize) {
        let last = moves.saturating_sub(rows.max(1));
        self.tablebase_first = self.tablebase_first.saturating_add_signed(by).min(last);
    }
}

/// The rows of a list of `len` items from `first` that fit in `rows`,
/// `first` pulled back so the last page is full.
pub fn page(first: usize, rows: usize, len: usize) -> std::ops::Range<usize> {
    let first = first.min(len.saturating_sub(rows));
    first..(first + rows).min(len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tab_goes_round_the_available_panels() {
        let mut side = Side::default();
        let all = [Panel::Stats, Panel::Book, Panel::Tablebase];
        assert_eq!(side.shown(&all), Some(Panel::Stats));
        assert_eq!(side.next(&all), Some(Panel::Book));
        assert_eq!(side.next(&all), Some(Panel::Tablebase));
        assert_eq!(side.next(&all), Some(Panel::Stats));
        // The chosen panel gone (out of the book): the first shows.
        side.chosen = Some(Panel::Book);
        assert_eq!(side.shown(&[Panel::Tablebase]), Some(Panel::Tablebase));
        assert_eq!(side.next(&[]), None);
    }

    #[test]
    fn the_tablebase_scrolls_within_its_moves() {
        let mut side = Side::default();
        side.scroll_tablebase(5, 4, 14);
        assert_eq!(side.tablebase_first, 5);
        side.scroll_tablebase(50, 4, 14);
        assert_eq!(side.tablebase_first, 10);
        side.scroll_tablebase(-50, 4, 14);
        assert_eq!(side.tablebase_first, 0);
        assert_eq!(page(12, 4, 14), 10..14);
        assert_eq!(page(0, 4, 2), 0..2);
    }
}
