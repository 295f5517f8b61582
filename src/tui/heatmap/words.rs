//! What a map's values and blank squares mean, in words: one source for the
//! legend under the board and the exported map (`:map export`), so the two
//! say the same.

use crate::engine::movetables::MapView;

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

/// An overlay's value, short, for the legend: "value min(wn, bq)", or in
/// the net view (where values have a sign) "value min(|wn|, |bq|)".
pub fn overlay_value(heat: &HeatMap) -> Option<String> {
    let MapTable::Overlay(a, b) = heat.table else {
        return None;
    };
    let (a, b) = (a.code(), b.code());
    Some(if heat.view == MapView::Net {
        format!("value min(|{a}|, |{b}|)")
    } else {
        format!("value min({a}, {b})")
    })
}

/// "2 links wn↔bq", "1 link wn↔bq", "no links wn↔bq": the links between
/// an overlay's two tables (none for the history, which keeps none).
pub fn overlay_links(heat: &HeatMap) -> Option<String> {
    let (MapTable::Overlay(a, b), Some(overlay)) = (heat.table, &heat.overlay) else {
        return None;
    };
    let (a, b) = (a.code(), b.code());
    overlay.links.map(|n| match n {
        0 => format!("no links {a}↔{b}"),
        1 => format!("1 link {a}↔{b}"),
        n => format!("{n} links {a}↔{b}"),
    })
}

/// "5 squares shared", "1 square shared".
pub fn overlay_shared(heat: &HeatMap) -> Option<String> {
    heat.overlay.as_ref().map(|o| match o.shared {
        1 => "1 square shared".to_string(),
        n => format!("{n} squares shared"),
    })
}
