//! The move-table heat map's state: which of Greer's tables the board shows
//! (or their combination), in which view, with or without the numbers; and
//! the ranking of a table's squares into six bands. No drawing here: the
//! board and the legend widgets draw from what this works out.

use shakmaty::{Color, Move};

use crate::engine::movetables::{MapView, Scope, TableId, TableWeights};

mod bands;
pub mod export;
pub mod overlay;
#[cfg(test)]
mod tests;
pub mod words;

use bands::positive;
pub use bands::{BANDS, bands, compact, diverging_bands};

/// What the map shows: one table, all twelve summed, or where two
/// intersect (see [`overlay`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MapTable {
    One(TableId),
    All,
    Overlay(TableId, TableId),
}

impl MapTable {
    /// "white knight", "all tables", "white knight ∩ black queen".
    pub fn name(self) -> String {
        match self {
            MapTable::One(id) => id.name(),
            MapTable::All => "all tables".into(),
            MapTable::Overlay(a, b) => format!("{} ∩ {}", a.name(), b.name()),
        }
    }

    /// In the tables' codes: "wn", "all", "wn+bq" (as `:map` takes it).
    pub fn code(self) -> String {
        match self {
            MapTable::One(id) => id.code(),
            MapTable::All => "all".into(),
            MapTable::Overlay(a, b) => format!("{}+{}", a.code(), b.code()),
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
    /// An overlay's two tables' values, shared squares and links.
    pub overlay: Option<overlay::Overlay>,
    /// Where the tables shown were learnt, when the mode says (the
    /// analysis board's `:map game-history`: "game ply 12/98"),
    /// the most needed first.
    pub note: Vec<String>,
}

impl HeatMap {
    /// The mark of band `band` where squares carry one: 1 (most) to 6, or
    /// in the net view +3 (most gained) to -3 (most lost).
    pub fn band_label(&self, band: u8) -> String {
        match self.diverging() {
            true if band < 3 => format!("+{}", 3 - band),
            true => format!("-{}", band - 2),
            false => format!("{}", band + 1),
        }
    }

    /// Whether the bands are the net view's gains and losses: an overlay's
    /// values are magnitudes, ranked 1 to 6 in every view.
    pub fn diverging(&self) -> bool {
        self.view == MapView::Net && !matches!(self.table, MapTable::Overlay(..))
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
pub const MAP_WORDS: [(&str, &str); 16] = [
    (
        ":map wn",
        "one table: colour w or b, then piece k q r b n p (:map bq, :map white knight)",
    ),
    (":map all", "all twelve tables combined"),
    (
        ":map wn+bq",
        "where two tables intersect: squares nonzero in both, each the smaller value (:map overlay wn bq)",
    ),
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
        "the history heuristic's twelve tables (the search's move-ordering scores), in the same views",
    ),
    (
        ":map game-history [on|off]",
        "analysis board: the tables learnt over the game's main line, at the move you are on (not :map history)",
    ),
    (
        ":map counter",
        "the counter-move to the last move: the reply that last refuted it",
    ),
    (":map tables", "back to Greer's move tables"),
    (
        ":map links",
        "the strongest links of the table shown (of all, when none is; on an overlay, those between its two tables), in words",
    ),
    (
        ":map export FILE",
        "the map shown to FILE: FILE.csv a CSV, any other name a text diagram (:map export! replaces)",
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
            // Leaving an overlay: its first table, from where `m` goes on.
            Some(MapTable::Overlay(first, _)) => {
                self.first = Some(first);
                Some(MapTable::One(first))
            }
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
            ("game-history", _) => {
                return Err("':map game-history' works on the analysis board (:analyse).".into());
            }
            ("tables" | "greer", "") => {
                self.source = MapSource::Tables;
                show(self);
            }
            _ if word == "overlay" || rest.contains(['+', '∩']) => match overlay::parse(&rest) {
                Ok(Some((a, b))) => self.shown = Some(MapTable::Overlay(a, b)),
                Ok(None) => return Err(format!("':map {rest}': {MAP_USAGE}.")),
                Err(why) => return Err(why),
            },
            _ => match overlay::table(&rest) {
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
            overlay: None,
            note: Vec::new(),
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
            MapTable::Overlay(a, b) => {
                let links = overlay::links_between(weights.links_in(self.scope), a, b);
                heat.link = links.first().map(|l| l.short());
                let considered = counts.considered_squares(a) | counts.considered_squares(b);
                let (first, second) = (counts.view(a, self.view), counts.view(b, self.view));
                return overlay_heat(heat, first, second, considered, Some(links.len()));
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
        let view = self.shown_view();
        let table_of = |ids: &[TableId]| {
            let mut values = [0i64; 64];
            for &id in ids {
                for (total, &h) in values.iter_mut().zip(weights.history_table(id)) {
                    *total += match view {
                        MapView::Touches | MapView::Importance => i64::from(h).abs(),
                        MapView::Net => i64::from(h),
                        MapView::Best => i64::from(h.max(0)),
                    };
                }
            }
            values
        };
        let nonzero = |values: &[i64; 64]| {
            (0..64)
                .filter(|&i| values[i] != 0)
                .fold(0u64, |m, i| m | 1 << i)
        };
        let values = match heat.table {
            MapTable::One(id) => table_of(&[id]),
            MapTable::All => table_of(&TableId::ALL),
            MapTable::Overlay(a, b) => {
                let (first, second) = (table_of(&[a]), table_of(&[b]));
                let scored = nonzero(&first) | nonzero(&second);
                // The history keeps no links.
                return overlay_heat(heat, first, second, scored, None);
            }
        };
        heat.numbers = values;
        let nonzero = nonzero(&values);
        heat.learned = nonzero != 0;
        heat.bands = match self.shown_view() {
            MapView::Touches | MapView::Importance => bands(&values, nonzero),
            MapView::Net => diverging_bands(&values),
            MapView::Best => bands(&values, positive(&values)),
        };
    }
}

/// An overlay's map from its two tables' values (`learned`: the squares
/// either table holds anything on).
fn overlay_heat(
    heat: &mut HeatMap,
    first: [i64; 64],
    second: [i64; 64],
    learned: u64,
    links: Option<usize>,
) {
    let (values, bands) = overlay::intersect(&first, &second);
    heat.numbers = values;
    heat.bands = bands;
    heat.learned = learned != 0;
    heat.overlay = Some(overlay::Overlay {
        first,
        second,
        shared: bands.iter().flatten().count() as u32,
        links,
    });
}

/// The counter map: the from and to squares of the reply the engine has
/// learnt to the move just played (band 0 and 1), and its words.
fn counter_heat(heat: &mut HeatMap, weights: &TableWeights, last: Option<(Color, Move)>) {
    let Some((mover, played)) = last else {
        heat.counter = Some("no move played yet".into());
        return;
    };
    let refuted = TableId::new(mover, played.role());
    let to = crate::game::notation::destination(played);
    match weights.counter(refuted, played.to()) {
        Some(reply) => {
            heat.learned = true;
            if let Some(from) = reply.from() {
                heat.bands[from.to_usize()] = Some(1);
            }
            heat.bands[crate::game::notation::destination(reply).to_usize()] = Some(0);
            heat.counter = Some(format!(
                "{} to {to}: last refuted by the {} to {}",
                refuted.name(),
                TableId::new(!mover, reply.role()).name(),
                crate::game::notation::destination(reply)
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
