//! The move-table heat map's state: which of Greer's tables the board shows
//! (or their combination), in which view, with or without the numbers; and
//! the ranking of a table's squares into six bands. No drawing here: the
//! board and the legend widgets draw from what this works out.

use shakmaty::{Color, Move};

use crate::engine::movetables::{MapView, Scope, TableId, TableWeights};

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

/// Whose memory the map shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MapSource {
    /// Greer's move tables.
    #[default]
    Tables,
    /// The history heuristic: by colour, piece and destination square, what
    /// the search's quiet moves earned in cutoffs. The search orders by it.
    History,
    /// The counter-move: the quiet reply that last refuted the move just
    /// played.
    Counter,
}

/// The map's switches, shared by every mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MapState {
    /// The table shown; `None`: the map is off.
    pub shown: Option<MapTable>,
    pub view: MapView,
    /// Write each square's value in it.
    pub numbers: bool,
    /// The table `m` started at: it goes round the twelve from there, then
    /// to all of them.
    pub first: Option<TableId>,
    /// The game's tables or this search's.
    pub scope: Scope,
    pub source: MapSource,
}

/// What a square of the map holds: the number written in it (numbers
/// mode) and its band: none for a square left blank (see the legend).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeatMap {
    pub table: MapTable,
    pub view: MapView,
    pub scope: Scope,
    pub source: MapSource,
    /// a1..h8: the value shown.
    pub numbers: [i64; 64],
    /// a1..h8: the band, 0 = most. In the net view bands 0-2 are gains
    /// (0 the most) and 3-5 losses (5 the most).
    pub bands: [Option<u8>; 64],
    /// Whether the numbers are written in the squares.
    pub show_numbers: bool,
    /// Whether the memory shown holds anything yet.
    pub learned: bool,
    /// The strongest link of the table shown, in words (Greer's Fig. 2).
    pub link: Option<String>,
    /// The counter map's words: which move, and its reply.
    pub counter: Option<String>,
    /// The history shown is the search's at its end (teach mode).
    pub history_at_end: bool,
}

impl HeatMap {
    /// The mark of band `band` where squares carry one: 1 (most) to 6, or
    /// in the net view +3 (most gained) to -3 (most lost).
    pub fn band_label(&self, band: u8) -> String {
        match self.view {
            MapView::Net if band < 3 => format!("+{}", 3 - band),
            MapView::Net => format!("-{}", band - 2),
            MapView::Touches | MapView::Importance | MapView::Best => format!("{}", band + 1),
        }
    }
}

/// What a view of the history heuristic shows: its score, as a size, signed
/// or where positive.
pub fn history_label(view: MapView) -> &'static str {
    match view {
        MapView::Touches | MapView::Importance => "|score|",
        MapView::Net => "score",
        MapView::Best => "positive score",
    }
}

/// What `:map WORD` changed, for the status line; or why it did not.
pub type MapAnswer = Result<String, String>;

/// Every word of `:map`, with what it does: `:map` alone lists them (a
/// line each, so they read at any width).
pub const MAP_WORDS: [(&str, &str); 13] = [
    (
        ":map wn",
        "one table: colour w or b, then piece k q r b n p (:map bq, :map white knight)",
    ),
    (":map all", "all twelve tables combined"),
    (":map off", "the map off (m turns it on)"),
    (
        ":map touches",
        "kibitz's view: how often each square was considered, gains + losses",
    ),
    (
        ":map importance",
        "Greer's importance: the absolute weight, |gains - losses|",
    ),
    (
        ":map net",
        "gains - losses, signed: warm colours gained, blue lost",
    ),
    (
        ":map best",
        "Greer's best: the positive weights, squares of moves that kept working",
    ),
    (
        ":map numbers [on|off]",
        "each square's value written in it (# too)",
    ),
    (
        ":map scope search|game",
        "what this search learnt alone, or everything since the game began",
    ),
    (
        ":map history",
        "the history heuristic's twelve tables, in the same views",
    ),
    (
        ":map counter",
        "the counter-move to the last move: the reply that last refuted it",
    ),
    (":map tables", "back to Greer's move tables"),
    (
        ":map links",
        "the strongest links of the table shown (of all, when none is), in words",
    ),
];

/// What a word `:map` does not know is answered with: short enough for
/// the status line of 80 columns.
const MAP_USAGE: &str = ":map alone lists every word";

impl MapState {
    /// `m`: off, then the table with the most weight in `weights` (the
    /// first, the white king's, while nothing is learned), then the others
    /// in turn, then all of them, then off.
    pub fn cycle(&mut self, weights: Option<&TableWeights>) {
        self.shown = match self.shown {
            None => {
                let first = weights.map_or(TableId::ALL[0], |w| heaviest(w, self.scope));
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
    /// [`MapState::cycle`]), `M` the next view (touches, importance, net,
    /// best), `#` the numbers. `None`: not a map key.
    pub fn key(&mut self, key: char, weights: Option<&TableWeights>) -> Option<MapAnswer> {
        match key {
            'm' => {
                self.cycle(weights);
                Some(Ok(self.describe()))
            }
            'M' => {
                // The history shows |score| for both touches and
                // importance: M goes on to a view that differs.
                let mut next = self.view.next();
                if self.source == MapSource::History && next == MapView::Importance {
                    next = next.next();
                }
                Some(self.command(next.name()))
            }
            '#' => Some(self.command("numbers")),
            _ => None,
        }
    }

    /// What the map shows now, for the status line.
    pub fn describe(&self) -> String {
        match (self.shown, self.source) {
            (None, _) => "Move-table map off.".into(),
            (Some(_), MapSource::Counter) => {
                "Map: the counter-move to the last move played.".into()
            }
            (Some(table), source) => format!(
                "{}: {} · {}{}{}.",
                match source {
                    MapSource::History => "History map",
                    _ => "Move-table map",
                },
                table.name(),
                match source {
                    MapSource::Tables => self.shown_view().title(),
                    _ => history_label(self.shown_view()),
                },
                match (source, self.scope) {
                    (MapSource::Tables, Scope::Search) => " · this search",
                    _ => "",
                },
                if self.numbers { " · numbers" } else { "" }
            ),
        }
    }

    /// The view drawn: the history heuristic has no touches (it keeps a
    /// score, not a count), so there its importance, |score|, stands in.
    pub fn shown_view(&self) -> MapView {
        match (self.source, self.view) {
            (MapSource::History, MapView::Touches) => MapView::Importance,
            (_, view) => view,
        }
    }

    /// The words of `:map`: a table ("wn", "white knight"), "all", a view,
    /// "numbers" (on, off or, alone, the other way), "scope search|game",
    /// "history", "counter", "tables", "off". ("links" is the app's: it
    /// needs the tables.)
    pub fn command(&mut self, rest: &str) -> MapAnswer {
        let rest = rest.trim().to_ascii_lowercase();
        let (word, arg) = match rest.split_once(char::is_whitespace) {
            Some((w, a)) => (w, a.trim()),
            None => (rest.as_str(), ""),
        };
        let show = |state: &mut MapState| {
            if state.shown.is_none() {
                state.shown = Some(MapTable::All);
            }
        };
        match (word, arg) {
            ("", _) => return Err(format!("{} {MAP_USAGE}.", self.describe())),
            ("off", "") => self.shown = None,
            ("all" | "combined", "") => self.shown = Some(MapTable::All),
            ("best", "") => self.view = MapView::Best,
            ("importance", "") => self.view = MapView::Importance,
            ("touches", "") => self.view = MapView::Touches,
            ("net", "") => self.view = MapView::Net,
            ("numbers", "") => self.numbers = !self.numbers,
            ("numbers", "on") => self.numbers = true,
            ("numbers", "off") => self.numbers = false,
            ("scope", "search") => self.scope = Scope::Search,
            ("scope", "game") => self.scope = Scope::Game,
            ("scope", _) => {
                return Err(format!(
                    "':map scope {arg}': the scope is search (this search only) or game (since the game began)."
                ));
            }
            ("history", "") => {
                self.source = MapSource::History;
                show(self);
            }
            ("counter" | "counters", "") => {
                self.source = MapSource::Counter;
                show(self);
            }
            ("tables" | "greer", "") => {
                self.source = MapSource::Tables;
                show(self);
            }
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
        if self.shown.is_none()
            && matches!(
                word,
                "best" | "importance" | "touches" | "net" | "numbers" | "scope"
            )
        {
            text.push_str(" (:map all or m shows it)");
        }
        if self.source == MapSource::Counter && word == "numbers" {
            text.push_str(" (the counter map has no numbers: :map tables returns)");
        }
        Ok(text)
    }

    /// The map of `weights` as the switches say, or `None` when it is off.
    /// `last`: the move that led to the position shown and its side, for
    /// the counter map.
    pub fn heat(
        &self,
        weights: Option<&TableWeights>,
        last: Option<(Color, Move)>,
    ) -> Option<HeatMap> {
        let table = self.shown?;
        let empty = TableWeights::default();
        let weights = weights.unwrap_or(&empty);
        let mut heat = HeatMap {
            table,
            view: self.shown_view(),
            scope: self.scope,
            source: self.source,
            numbers: [0; 64],
            bands: [None; 64],
            // The counter map marks two squares; it has no numbers.
            show_numbers: self.numbers && self.source != MapSource::Counter,
            learned: false,
            link: None,
            counter: None,
            history_at_end: weights.history_at_end,
        };
        match self.source {
            MapSource::Tables => self.tables_heat(&mut heat, weights),
            MapSource::History => self.history_heat(&mut heat, weights),
            MapSource::Counter => counter_heat(&mut heat, weights, last),
        }
        Some(heat)
    }

    fn tables_heat(&self, heat: &mut HeatMap, weights: &TableWeights) {
        let counts = weights.scope(self.scope);
        let (values, considered) = match heat.table {
            MapTable::One(id) => {
                heat.link = weights
                    .links_of_in(self.scope, id)
                    .next()
                    .map(|l| l.short());
                (counts.view(id, self.view), counts.considered_squares(id))
            }
            MapTable::All => {
                heat.link = weights.links_in(self.scope).first().map(|l| l.short());
                (counts.combined(self.view), counts.considered_by_any())
            }
        };
        heat.numbers = values;
        heat.learned = considered != 0;
        heat.bands = match self.view {
            // Every square considered, even one whose gains and losses
            // cancelled.
            MapView::Touches => bands(&values, considered),
            // Greer's: the absolute weight, blank where it is 0.
            MapView::Importance => bands(&values, positive(&values)),
            MapView::Net => diverging_bands(&values),
            MapView::Best => bands(&values, positive(&values)),
        };
    }

    fn history_heat(&self, heat: &mut HeatMap, weights: &TableWeights) {
        let mut values = [0i64; 64];
        let ids: Vec<TableId> = match heat.table {
            MapTable::One(id) => vec![id],
            MapTable::All => TableId::ALL.to_vec(),
        };
        for id in ids {
            for (total, &h) in values.iter_mut().zip(weights.history_table(id)) {
                *total += match self.shown_view() {
                    MapView::Touches | MapView::Importance => i64::from(h).abs(),
                    MapView::Net => i64::from(h),
                    MapView::Best => i64::from(h.max(0)),
                };
            }
        }
        heat.numbers = values;
        let nonzero = (0..64)
            .filter(|&i| values[i] != 0)
            .fold(0u64, |m, i| m | 1 << i);
        heat.learned = nonzero != 0;
        heat.bands = match self.shown_view() {
            MapView::Touches | MapView::Importance => bands(&values, nonzero),
            MapView::Net => diverging_bands(&values),
            MapView::Best => bands(&values, positive(&values)),
        };
    }
}

/// The counter map: the from and to squares of the reply the engine has
/// learnt to the move just played (band 0 and 1), and its words.
fn counter_heat(heat: &mut HeatMap, weights: &TableWeights, last: Option<(Color, Move)>) {
    let Some((mover, played)) = last else {
        heat.counter = Some("no move played yet".into());
        return;
    };
    let refuted = TableId::new(mover, played.role());
    let to = crate::tui::shared::destination(played);
    match weights.counter(refuted, played.to()) {
        Some(reply) => {
            heat.learned = true;
            if let Some(from) = reply.from() {
                heat.bands[from.to_usize()] = Some(1);
            }
            heat.bands[crate::tui::shared::destination(reply).to_usize()] = Some(0);
            heat.counter = Some(format!(
                "{} to {to}: last refuted by the {} to {}",
                refuted.name(),
                TableId::new(!mover, reply.role()).name(),
                crate::tui::shared::destination(reply)
            ));
        }
        None => {
            heat.counter = Some(format!(
                "none learnt yet for the {} to {to}",
                refuted.name()
            ));
        }
    }
}

/// The squares with a positive value: a bit per square, a1 = bit 0.
fn positive(values: &[i64; 64]) -> u64 {
    (0..64)
        .filter(|&i| values[i] > 0)
        .fold(0, |mask, i| mask | 1 << i)
}

/// The net view's bands: gains ranked among themselves into bands 0-2 (0
/// the most), losses among themselves into 3-5 (5 the most lost), so the
/// colour alone says which way a square went: red to yellow gained, light
/// to dark blue lost. A square at 0 is blank.
pub fn diverging_bands(values: &[i64; 64]) -> [Option<u8>; 64] {
    let gains = positive(values);
    let losses = (0..64)
        .filter(|&i| values[i] < 0)
        .fold(0u64, |mask, i| mask | 1 << i);
    let up = bands(values, gains);
    let negated: [i64; 64] = std::array::from_fn(|i| -values[i]);
    let down = bands(&negated, losses);
    std::array::from_fn(|i| match (up[i], down[i]) {
        (Some(band), _) => Some(band * 3 / BANDS as u8),
        // Bands of the losses from the most lost: 5, 4, 3.
        (_, Some(band)) => Some(5 - band * 3 / BANDS as u8),
        _ => None,
    })
}

/// The table the search considered most (the sum of its touches in
/// `scope`); the first in [`TableId::ALL`] among equals.
fn heaviest(weights: &TableWeights, scope: Scope) -> TableId {
    let counts = weights.scope(scope);
    let total = |id: TableId| -> u64 { counts.touches(id).iter().map(|&t| u64::from(t)).sum() };
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
                .contains("white knight · touches")
        );
        assert!(
            state
                .command("importance")
                .unwrap()
                .contains("white knight · importance (Greer's)")
        );
        assert_eq!(state.view, MapView::Importance);
        assert!(state.command("touches").unwrap().contains("touches"));
        assert_eq!(state.view, MapView::Touches);
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
        // It fits the status line of 80 columns, and says where the words
        // are.
        assert!(error.chars().count() <= 78, "{error}");
        assert!(error.contains(":map alone lists"), "{error}");
        assert!(state.command("off").unwrap().contains("off"));
        assert_eq!(state.shown, None);
    }

    #[test]
    fn a_single_table_shows_signed_weights_in_importance() {
        let state = MapState {
            shown: Some(MapTable::One(TableId::new(Color::White, Role::Knight))),
            ..MapState::default()
        };
        let heat = state.heat(None, None).unwrap();
        assert!(!heat.learned);
        assert!(heat.bands.iter().all(Option::is_none));
    }

    /// The net view: gains in bands 0-2, losses in 3-5 (the most lost in
    /// 5), zero blank; labels +3..+1 and -1..-3.
    #[test]
    fn the_net_view_diverges_around_zero() {
        let mut values = [0i64; 64];
        values[0] = 50;
        values[1] = 5;
        values[2] = -4;
        values[3] = -400;
        let bands = diverging_bands(&values);
        assert_eq!(bands[0], Some(0));
        assert!(matches!(bands[1], Some(0..=2)));
        assert!(matches!(bands[2], Some(3..=5)));
        assert_eq!(bands[3], Some(5));
        assert_eq!(bands[4], None);
        let heat = MapState {
            shown: Some(MapTable::All),
            view: MapView::Net,
            ..MapState::default()
        }
        .heat(None, None)
        .unwrap();
        assert_eq!(heat.band_label(0), "+3");
        assert_eq!(heat.band_label(5), "-3");
    }

    /// Greer's importance is the absolute weight, blank at 0; kibitz's
    /// touches count every change, so a square back at 0 still shows.
    #[test]
    fn greers_importance_is_the_absolute_weight_and_touches_are_kibitzs() {
        let knight = |from, to| Move::Normal {
            role: Role::Knight,
            from,
            capture: None,
            to,
            promotion: None,
        };
        let mut weights = TableWeights::default();
        let nf3 = vec![knight(Square::G1, Square::F3)];
        let na3 = vec![knight(Square::B1, Square::A3)];
        // g1-f3 refutes once and fails once: back at 0, touched twice;
        // b1-a3 fails three times: -3, touched three times.
        for (line, others) in [
            (nf3.clone(), vec![]),
            (vec![], nf3),
            (vec![], na3.clone()),
            (vec![], na3.clone()),
            (vec![], na3),
        ] {
            weights.apply(&TableUpdate {
                color: Color::White,
                line,
                others,
            });
        }
        let wn = TableId::new(Color::White, Role::Knight);
        let heat = |view: MapView| {
            MapState {
                shown: Some(MapTable::One(wn)),
                view,
                ..MapState::default()
            }
            .heat(Some(&weights), None)
            .unwrap()
        };
        let g1 = Square::G1.to_usize();
        let a3 = Square::A3.to_usize();
        let touches = heat(MapView::Touches);
        assert_eq!((touches.numbers[g1], touches.numbers[a3]), (2, 3));
        assert!(touches.bands[g1].is_some() && touches.bands[a3].is_some());
        let importance = heat(MapView::Importance);
        assert_eq!((importance.numbers[g1], importance.numbers[a3]), (0, 3));
        assert_eq!(importance.bands[g1], None, "|0| is blank in Greer's view");
        // b1 and a3 lost three times each: 3 and 3, one band.
        assert!(importance.bands[a3].is_some());
        assert_eq!(
            importance.bands[a3],
            importance.bands[Square::B1.to_usize()]
        );
    }

    /// The links the map names come from the scope it shows: a search that
    /// made none has none, whatever the game's.
    #[test]
    fn the_link_follows_the_scope() {
        use crate::engine::movetables::MoveTables;
        let start = shakmaty::Chess::default();
        let line: Vec<Move> = {
            let mut position = start.clone();
            ["e2e4", "e7e5"]
                .iter()
                .map(|uci| {
                    let m = uci
                        .parse::<shakmaty::uci::UciMove>()
                        .unwrap()
                        .to_move(&position)
                        .unwrap();
                    shakmaty::Position::play_unchecked(&mut position, m);
                    m
                })
                .collect()
        };
        let mut tables = MoveTables::default();
        tables.record(Color::White, &line, &[]);
        tables.new_search();
        tables.record(Color::White, &line[..1], &[]);
        let weights = tables.snapshot();
        let heat = |scope: Scope, table: MapTable| {
            MapState {
                shown: Some(table),
                scope,
                ..MapState::default()
            }
            .heat(Some(&weights), None)
            .unwrap()
        };
        let wp = MapTable::One(TableId::new(Color::White, Role::Pawn));
        for table in [wp, MapTable::All] {
            assert_eq!(heat(Scope::Search, table).link, None, "{table:?}");
            assert_eq!(
                heat(Scope::Game, table).link.as_deref(),
                Some("wp e2→bp e7 ×1")
            );
        }
        assert!(heat(Scope::Search, wp).learned);
    }

    /// The counter map marks two squares and has no numbers to write: `#`
    /// there writes nothing (it wrote a 0 on each).
    #[test]
    fn the_counter_map_writes_no_numbers() {
        let mut state = MapState::default();
        state.command("counter").unwrap();
        let answer = state.command("numbers").unwrap();
        assert!(answer.contains("no numbers"), "{answer}");
        let heat = state.heat(None, None).unwrap();
        assert!(!heat.show_numbers);
        state.command("tables").unwrap();
        assert!(state.heat(None, None).unwrap().show_numbers);
    }

    /// The history heuristic has no touches: its "touches" is |score|,
    /// named importance.
    #[test]
    fn history_shows_its_score_in_place_of_touches() {
        let mut state = MapState::default();
        state.command("history").unwrap();
        assert_eq!(state.shown_view(), MapView::Importance);
        let words = state.describe();
        assert!(words.contains("all tables · |score|."), "{words}");
        // M goes on to a view that looks different.
        state.key('M', None).unwrap().unwrap();
        assert_eq!(state.shown_view(), MapView::Net);
        state.key('M', None).unwrap().unwrap();
        state.key('M', None).unwrap().unwrap();
        assert_eq!(state.shown_view(), MapView::Importance);
        state.key('M', None).unwrap().unwrap();
        assert_eq!(state.shown_view(), MapView::Net);
    }

    /// `:map` words for the scope, the sources and the views.
    #[test]
    fn map_words_for_scope_history_counter_and_net() {
        let mut state = MapState::default();
        assert!(state.command("net").is_ok());
        assert_eq!(state.view, MapView::Net);
        assert!(state.command("scope search").is_ok());
        assert_eq!(state.scope, Scope::Search);
        assert!(state.command("scope week").is_err());
        assert!(state.command("history").unwrap().starts_with("History map"));
        assert_eq!(state.source, MapSource::History);
        assert!(state.shown.is_some(), "history shows the map");
        assert!(state.command("counter").is_ok());
        assert_eq!(state.source, MapSource::Counter);
        assert!(state.command("tables").unwrap().contains("this search"));
        assert_eq!(state.source, MapSource::Tables);
    }
}
