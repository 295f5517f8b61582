//! The move-table heat map's state: which of Greer's tables the board shows
//! (or their combination), in which view, with or without the numbers; and
//! the ranking of a table's squares into six bands. No drawing here: the
//! board and the legend widgets draw from what this works out.

use crate::engine::movetables::{MapView, TableId, TableWeights};

/// Colour bands of the map, from the most weight (0: red) to the least
/// (5: dark blue), as Greer colours them.
pub const BANDS: usize = 6;

/// What the map shows: one table or all twelve summed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapTable {
    One(TableId),
    All,
}

impl MapTable {
    /// "white knight", "all tables".
    pub fn name(self) -> String {
        match self {
            MapTable::One(id) => id.name(),
            MapTable::All => "all tables".into(),
        }
    }
}

/// The map's switches, shared by every mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MapState {
    /// The table shown; `None`: the map is off.
    pub shown: Option<MapTable>,
    pub view: MapView,
    /// Write each square's weight in it.
    pub numbers: bool,
    /// The table `m` started at: it goes round the twelve from there, then
    /// to all of them.
    pub first: Option<TableId>,
}

/// What a square of the map holds: the number written in it (numbers
/// mode) and its band: none for a square never considered (importance) or
/// without a positive weight (best).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeatMap {
    pub table: MapTable,
    pub view: MapView,
    /// a1..h8: the value shown (a single table's raw weight, signed, in the
    /// importance view; otherwise the view's value).
    pub numbers: [i64; 64],
    /// a1..h8: the band, 0 = most.
    pub bands: [Option<u8>; 64],
    /// Whether the numbers are written in the squares.
    pub show_numbers: bool,
    /// Whether any square of the table was considered.
    pub learned: bool,
}

/// What `:map WORD` changed, for the status line; or why it did not.
pub type MapAnswer = Result<String, String>;

const MAP_USAGE: &str =
    ":map wn (colour w/b + piece k q r b n p), all, best, importance, numbers, off";

impl MapState {
    /// `m`: off, then the table with the most weight in `weights` (the
    /// first, the white king's, while nothing is learned), then the others
    /// in turn, then all of them, then off.
    pub fn cycle(&mut self, weights: Option<&TableWeights>) {
        self.shown = match self.shown {
            None => {
                let first = weights.map_or(TableId::ALL[0], heaviest);
                self.first = Some(first);
                Some(MapTable::One(first))
            }
            Some(MapTable::All) => None,
            Some(MapTable::One(id)) => {
                let at = TableId::ALL.iter().position(|&t| t == id).unwrap_or(0);
                let next = TableId::ALL[(at + 1) % TableId::ALL.len()];
                if next == self.first.unwrap_or(TableId::ALL[0]) {
                    Some(MapTable::All)
                } else {
                    Some(MapTable::One(next))
                }
            }
        };
    }

    /// The map's keys, the same in every mode: `m` the next table (see
    /// [`MapState::cycle`]), `M` importance or best, `#` the numbers.
    /// `None`: not a map key.
    pub fn key(&mut self, key: char, weights: Option<&TableWeights>) -> Option<MapAnswer> {
        match key {
            'm' => {
                self.cycle(weights);
                Some(Ok(self.describe()))
            }
            'M' => Some(self.command(match self.view {
                MapView::Importance => "best",
                MapView::Best => "importance",
            })),
            '#' => Some(self.command("numbers")),
            _ => None,
        }
    }

    /// What the map shows now, for the status line.
    pub fn describe(&self) -> String {
        match self.shown {
            None => "Move-table map off.".into(),
            Some(table) => format!(
                "Move-table map: {} · {}{}.",
                table.name(),
                self.view.name(),
                if self.numbers { " · numbers" } else { "" }
            ),
        }
    }

    /// The words of `:map`: a table ("wn", "white knight"), "all", a view,
    /// "numbers" (on, off or, alone, the other way), "off".
    pub fn command(&mut self, rest: &str) -> MapAnswer {
        let rest = rest.trim().to_ascii_lowercase();
        let (word, arg) = match rest.split_once(char::is_whitespace) {
            Some((w, a)) => (w, a.trim()),
            None => (rest.as_str(), ""),
        };
        match (word, arg) {
            ("", _) => return Err(format!("{} Try {MAP_USAGE}.", self.describe())),
            ("off", "") => self.shown = None,
            ("all" | "combined", "") => self.shown = Some(MapTable::All),
            ("best", "") => self.view = MapView::Best,
            ("importance", "") => self.view = MapView::Importance,
            ("numbers", "") => self.numbers = !self.numbers,
            ("numbers", "on") => self.numbers = true,
            ("numbers", "off") => self.numbers = false,
            _ => match TableId::parse(&rest) {
                Some(id) => {
                    self.shown = Some(MapTable::One(id));
                    self.first = Some(id);
                }
                None => {
                    return Err(format!(
                        "':map {rest}' is not a table or a view: {MAP_USAGE}."
                    ));
                }
            },
        }
        let mut text = self.describe();
        if self.shown.is_none() && matches!(word, "best" | "importance" | "numbers") {
            text.push_str(" (:map all or m shows it)");
        }
        Ok(text)
    }

    /// The map of `weights` as the switches say, or `None` when it is off.
    pub fn heat(&self, weights: Option<&TableWeights>) -> Option<HeatMap> {
        let table = self.shown?;
        let empty = TableWeights::default();
        let weights = weights.unwrap_or(&empty);
        let mut numbers = [0i64; 64];
        let mut values = [0i64; 64];
        let considered = match table {
            MapTable::One(id) => {
                for ((number, value), &w) in
                    numbers.iter_mut().zip(&mut values).zip(weights.table(id))
                {
                    *value = self.view.value(w);
                    *number = match self.view {
                        // The sign says whether the square's moves worked.
                        MapView::Importance => i64::from(w),
                        MapView::Best => *value,
                    };
                }
                weights.considered_squares(id)
            }
            MapTable::All => {
                values = weights.combined(self.view);
                numbers = values;
                weights.considered_by_any()
            }
        };
        // Importance bands every square considered, even one whose gains
        // and losses cancelled; best only the squares that gained.
        let banded = match self.view {
            MapView::Importance => considered,
            MapView::Best => (0..64)
                .filter(|&i| values[i] > 0)
                .fold(0, |mask, i| mask | 1 << i),
        };
        Some(HeatMap {
            table,
            view: self.view,
            numbers,
            bands: bands(&values, banded),
            show_numbers: self.numbers,
            learned: considered != 0,
        })
    }
}

/// The table with the most weight (the sum of its absolute weights); the
/// first in [`TableId::ALL`] among equals.
fn heaviest(weights: &TableWeights) -> TableId {
    let total = |id: TableId| -> i64 {
        weights
            .table(id)
            .iter()
            .map(|&w| MapView::Importance.value(w))
            .sum()
    };
    TableId::ALL
        .into_iter()
        .rev()
        .max_by_key(|&id| total(id))
        .unwrap_or(TableId::ALL[0])
}

/// Rank the squares of `banded` (a bit per square, a1 = bit 0) into
/// [`BANDS`] bands by their value's rank among them, so one huge square
/// does not push all the others into the last band; equal values share a
/// band. The other squares get none: they are left blank.
pub fn bands(values: &[i64; 64], banded: u64) -> [Option<u8>; 64] {
    let in_band = |i: usize| banded & (1 << i) != 0;
    let mut sorted = [0i64; 64];
    let mut count = 0;
    for (i, &v) in values.iter().enumerate() {
        if in_band(i) {
            sorted[count] = v;
            count += 1;
        }
    }
    let sorted = &mut sorted[..count];
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    let mut out = [None; 64];
    for (i, (band, &v)) in out.iter_mut().zip(values).enumerate() {
        if in_band(i) {
            // Equal values share the middle of the places they take
            // together: one square above eighteen equal ones leaves those
            // in the middle bands, not all at the top.
            let first = sorted.partition_point(|&s| s > v);
            let last = sorted.partition_point(|&s| s >= v) - 1;
            *band = Some(((first + last) * BANDS / (2 * count)) as u8);
        }
    }
    out
}

/// A weight in at most `width` cells: 975, -975, 1.2k, -12k, 3.4M.
pub fn compact(value: i64, width: usize) -> String {
    let plain = value.to_string();
    if plain.len() <= width {
        return plain;
    }
    let sign = if value < 0 { "-" } else { "" };
    let magnitude = value.unsigned_abs() as f64;
    for (unit, scale) in [
        ("k", 1e3),
        ("M", 1e6),
        ("G", 1e9),
        ("T", 1e12),
        ("P", 1e15),
        ("E", 1e18),
    ] {
        let x = magnitude / scale;
        // "1000k" says less than "1.0M": each unit only under 1000.
        if x.round() >= 1000.0 {
            continue;
        }
        let tenths = format!("{sign}{x:.1}{unit}");
        if tenths.len() <= width && x < 999.95 {
            return tenths;
        }
        // "-0.1M" without its 0 still reads: -.1M.
        if x < 0.95 && tenths.len() == width + 1 && x >= 0.05 {
            return tenths.replacen("0.", ".", 1);
        }
        let whole = format!("{sign}{x:.0}{unit}");
        // "0M" would hide the value: only a unit it is at least 1 of.
        if whole.len() <= width && x.round() >= 1.0 {
            return whole;
        }
    }
    "#".repeat(width)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::movetables::TableUpdate;
    use shakmaty::{Color, Move, Role, Square};

    fn nonzero(values: &[i64; 64]) -> u64 {
        (0..64)
            .filter(|&i| values[i] != 0)
            .fold(0, |mask, i| mask | 1 << i)
    }

    #[test]
    fn bands_go_by_rank_not_by_size() {
        let mut values = [0i64; 64];
        // One huge square and eleven small ones: the small ones still spread.
        values[0] = 1_000_000;
        for (i, v) in values.iter_mut().enumerate().skip(1).take(11) {
            *v = i as i64;
        }
        let bands = bands(&values, nonzero(&values));
        assert_eq!(bands[0], Some(0));
        assert_eq!(
            bands[11],
            Some(0),
            "the second largest of 12 is in the top sixth"
        );
        assert_eq!(bands[1], Some(5), "the smallest is in the last band");
        assert_eq!(bands[12], None, "a square not banded is blank");
        let used: std::collections::BTreeSet<_> = bands.iter().flatten().collect();
        assert_eq!(used.len(), BANDS);
    }

    #[test]
    fn ties_share_a_band_and_one_value_is_the_top() {
        let mut values = [0i64; 64];
        values[3] = 5;
        values[4] = 5;
        values[5] = 1;
        let bands = bands(&values, nonzero(&values));
        assert_eq!(bands[3], bands[4]);
        assert_eq!(bands[3], Some(1), "places 0 and 1 of 3: the middle is 0.5");
        assert_eq!(bands[5], Some(4));
        let mut one = [0i64; 64];
        one[9] = -3;
        assert_eq!(super::bands(&one, nonzero(&one))[9], Some(0));
    }

    #[test]
    fn one_square_above_many_equal_ones() {
        let mut values = [0i64; 64];
        values[..19].fill(1);
        values[6] = 2;
        let bands = bands(&values, nonzero(&values));
        assert_eq!(bands[6], Some(0));
        assert_eq!(bands[0], Some(3), "the eighteen share the middle");
        let all_equal = super::bands(&[7; 64], u64::MAX);
        assert!(all_equal.iter().all(|b| *b == all_equal[0]));
    }

    #[test]
    fn numbers_fit_their_cells() {
        assert_eq!(compact(975, 4), "975");
        assert_eq!(compact(-975, 4), "-975");
        assert_eq!(compact(1234, 4), "1234");
        assert_eq!(compact(12_345, 4), "12k");
        assert_eq!(compact(123_456, 5), "123k");
        assert_eq!(compact(1234, 3), "1k");
        assert_eq!(compact(-12_345, 4), "-12k");
        assert_eq!(compact(-975, 3), "-1k");
        assert_eq!(compact(999_999, 4), "1.0M");
        assert_eq!(compact(5_600_000, 4), "5.6M");
        assert_eq!(compact(-123_456, 4), "-.1M", "not -0M");
        assert_eq!(compact(-12_345_678, 4), "-12M");
        assert_eq!(compact(-12_345, 3), "###", "not -0M");
        for v in [0, 7, -7, 99_999, -99_999, i64::MAX / 3, i64::MIN / 3] {
            for w in 3..8 {
                assert!(compact(v, w).len() <= w, "{v} in {w}: {}", compact(v, w));
            }
        }
    }

    #[test]
    fn m_cycles_through_the_twelve_and_all_then_off() {
        let mut state = MapState::default();
        let mut seen = Vec::new();
        loop {
            state.cycle(None);
            match state.shown {
                Some(table) => seen.push(table),
                None => break,
            }
        }
        assert_eq!(seen.len(), 13);
        assert_eq!(
            seen[0],
            MapTable::One(TableId::new(Color::White, Role::King))
        );
        assert_eq!(
            seen[11],
            MapTable::One(TableId::new(Color::Black, Role::Pawn))
        );
        assert_eq!(seen[12], MapTable::All);
    }

    #[test]
    fn m_starts_at_the_table_with_the_most_weight_and_goes_round() {
        let knight = |from, to| Move::Normal {
            role: Role::Knight,
            from,
            capture: None,
            to,
            promotion: None,
        };
        let mut weights = TableWeights::default();
        for _ in 0..3 {
            weights.apply(&TableUpdate {
                color: Color::White,
                line: vec![knight(Square::G1, Square::F3)],
                others: vec![],
            });
        }
        let mut state = MapState::default();
        let mut seen = Vec::new();
        loop {
            state.cycle(Some(&weights));
            match state.shown {
                Some(MapTable::One(id)) => seen.push(id),
                Some(MapTable::All) => break,
                None => panic!("off before all tables"),
            }
        }
        let wn = TableId::new(Color::White, Role::Knight);
        assert_eq!(seen[0], wn);
        assert_eq!(seen[1], TableId::new(Color::White, Role::Pawn));
        assert_eq!(seen[2], TableId::new(Color::Black, Role::King));
        assert_eq!(seen.len(), 12, "each table once: {seen:?}");
        state.cycle(Some(&weights));
        assert_eq!(state.shown, None);
        // A table named with :map: m goes on from it.
        state.command("bq").unwrap();
        state.cycle(Some(&weights));
        assert_eq!(
            state.shown,
            Some(MapTable::One(TableId::new(Color::Black, Role::Rook)))
        );
    }

    #[test]
    fn map_words() {
        let mut state = MapState::default();
        assert!(
            state
                .command("wn")
                .unwrap()
                .contains("white knight · importance")
        );
        assert!(state.command("best").unwrap().contains("best"));
        assert_eq!(state.view, MapView::Best);
        assert!(state.command("all").unwrap().contains("all tables"));
        assert!(state.command("numbers").unwrap().contains("numbers"));
        assert!(state.numbers);
        state.command("numbers off").unwrap();
        assert!(!state.numbers);
        assert!(state.command("black queen").is_ok());
        assert_eq!(
            state.shown,
            Some(MapTable::One(TableId::new(Color::Black, Role::Queen)))
        );
        let error = state.command("zz").unwrap_err();
        assert!(error.contains("':map zz' is not a table"), "{error}");
        assert!(state.command("off").unwrap().contains("off"));
        assert_eq!(state.shown, None);
    }

    #[test]
    fn a_single_table_shows_signed_weights_in_importance() {
        let state = MapState {
            shown: Some(MapTable::One(TableId::new(Color::White, Role::Knight))),
            ..MapState::default()
        };
        let heat = state.heat(None).unwrap();
        assert!(!heat.learned);
        assert!(heat.bands.iter().all(Option::is_none));
    }
}
