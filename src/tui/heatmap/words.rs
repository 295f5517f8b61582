//! What a map's values and blank squares mean, in words: one source for the
//! legend under the board and the exported map (`:map export`), so the two
//! say the same.

use crate::engine::movetables::{MapView, Scope};

use super::{HeatMap, MapSource, MapTable};

/// What the view counts, exactly; "" for the history and counter maps
/// (the history's title names its score).
pub fn counts(source: MapSource, view: MapView) -> &'static str {
    match (source, view) {
        (MapSource::Tables, MapView::Touches) => "times considered",
        (MapSource::Tables, MapView::Importance) => "|gains - losses|",
        (MapSource::Tables, MapView::Net) => "gains - losses",
        (MapSource::Tables, MapView::Best) => "net gains",
        (MapSource::History | MapSource::Counter, _) => "",
    }
}

/// What a blank square means.
pub fn blank(heat: &HeatMap) -> &'static str {
    if let MapTable::Overlay(..) = heat.table {
        return "blank where either is 0";
    }
    match (heat.source, heat.view) {
        (MapSource::Tables, MapView::Touches) => "blank never considered",
        (MapSource::Tables, MapView::Importance) => "blank 0: never considered or back to 0",
        (MapSource::Tables, MapView::Net) => "blank 0 or never considered",
        // A square that lost as much as it gained is blank here too.
        (_, MapView::Best) => "blank no net gain",
        // A score is kept by destination, not counted: one that came
        // back to 0 looks like none.
        (_, MapView::Touches | MapView::Importance | MapView::Net) => {
            "blank 0: never scored or back to 0"
        }
    }
}

/// What the values of the map shown count: [`counts`], and for an
/// overlay's net view (whose values are magnitudes) "without its sign".
pub fn shown_counts(heat: &HeatMap) -> String {
    let counts = counts(heat.source, heat.view);
    match (heat.table, heat.view) {
        (MapTable::Overlay(..), MapView::Net) if !counts.is_empty() => {
            format!("{counts}, without its sign")
        }
        _ => counts.to_string(),
    }
}

/// An overlay's value, short, for the legend: "value min(wn, bq)", or in
/// the net view (where the tables' values have a sign, the overlay's
/// none) "value min(|wn|, |bq|), no sign".
pub fn overlay_value(heat: &HeatMap) -> Option<String> {
    let MapTable::Overlay(a, b) = heat.table else {
        return None;
    };
    let (a, b) = (a.code(), b.code());
    Some(if heat.view == MapView::Net {
        format!("value min(|{a}|, |{b}|), no sign")
    } else {
        format!("value min({a}, {b})")
    })
}

/// "2 shared · 3 links", "1 shared · no links", "5 shared" (the history,
/// which keeps no links): an overlay's counts short enough for 80
/// columns, in one part so a cut never leaves a number alone.
pub fn overlay_short(heat: &HeatMap) -> Option<String> {
    let overlay = heat.overlay.as_ref()?;
    let links = overlay
        .links
        .map_or_else(String::new, |n| format!(" · {}", links_count(n)));
    Some(format!("{} shared{links}", overlay.shared))
}

/// "no links", "1 link", "3 links".
pub fn links_count(n: usize) -> String {
    match n {
        0 => "no links".into(),
        1 => "1 link".into(),
        n => format!("{n} links"),
    }
}

/// "5 squares shared", "1 square shared".
pub fn overlay_shared(heat: &HeatMap) -> Option<String> {
    heat.overlay.as_ref().map(|o| match o.shared {
        1 => "1 square shared".to_string(),
        n => format!("{n} squares shared"),
    })
}

/// The scope of the tables shown, in words: teach mode's tables (the
/// replay's, which mark the history as the search's at its end) are those
/// of the one search being stepped, as its cutoffs up to the step shown
/// taught them, whatever `:map scope` says.
pub fn scope_words(scope: Scope, replay: bool) -> &'static str {
    match (replay, scope) {
        (true, _) => "the search replayed, up to this step",
        (false, Scope::Game) => "since the game began",
        (false, Scope::Search) => "in this search",
    }
}
