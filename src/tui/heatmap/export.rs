//! `:map export FILE`: the map shown on the board, taken out of kibitz.
//! `FILE.csv` gets a CSV, a row per square a1..h8; any other name a text
//! diagram, ranks 8 to 1 and files a to h, the values a reader sees with
//! `#`, `.` where the board leaves a square blank. Both say what the map
//! is (table, view, scope, source) and, for an overlay, the two tables'
//! own values.

#[cfg(test)]
mod tests;

use std::path::Path;

use shakmaty::Square;

use crate::engine::movetables::{MapView, Scope};

use super::{HeatMap, MapSource, MapTable, history_label, words};

/// How a file is written: by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Csv,
    Diagram,
}

impl Format {
    /// `.csv` (any case): CSV; anything else: the diagram.
    pub fn of(path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some(ext) if ext.eq_ignore_ascii_case("csv") => Format::Csv,
            _ => Format::Diagram,
        }
    }
}

/// The map as text in `format`.
pub fn text(heat: &HeatMap, format: Format) -> String {
    match format {
        Format::Csv => csv(heat),
        Format::Diagram => diagram(heat),
    }
}

fn source_name(source: MapSource) -> &'static str {
    match source {
        MapSource::Tables => "tables",
        MapSource::History => "history",
        MapSource::Counter => "counter",
    }
}

/// The scope's name where the map has one: only Greer's tables keep a
/// game's and a search's.
fn scope_name(heat: &HeatMap) -> &'static str {
    match heat.source {
        MapSource::Tables => heat.scope.name(),
        MapSource::History | MapSource::Counter => "",
    }
}

/// What a square's cell says: its value, or for the counter map "to" and
/// "from"; `None` where the board leaves it blank.
fn cell(heat: &HeatMap, i: usize) -> Option<String> {
    let band = heat.bands[i]?;
    Some(match heat.source {
        MapSource::Counter if band == 0 => "to".into(),
        MapSource::Counter => "from".into(),
        MapSource::Tables | MapSource::History => heat.numbers[i].to_string(),
    })
}

/// The CSV: a header, then a row per square a1, b1, … h8:
/// `square,value,band,table,view,scope,source`, and for an overlay the
/// two tables' own values under their codes. `band` is the mark the board
/// writes in mono (1 most to 6 least; the net view +3 to -3), empty where
/// the square is blank; `scope` is empty where the map has none (history,
/// counter); the counter map has no values, its band is "to" or "from".
pub fn csv(heat: &HeatMap) -> String {
    let mut out = String::from("square,value,band,table,view,scope,source");
    // The counter map keeps the table chosen but shows none of it.
    if let (MapTable::Overlay(a, b), Some(_)) = (heat.table, &heat.overlay) {
        out.push_str(&format!(",{},{}", a.code(), b.code()));
    }
    out.push('\n');
    let (table, view, scope, source) = (
        heat.table.code(),
        heat.view.name(),
        scope_name(heat),
        source_name(heat.source),
    );
    for (i, square) in Square::ALL.into_iter().enumerate() {
        let (value, band) = match heat.source {
            MapSource::Counter => (String::new(), cell(heat, i).unwrap_or_default()),
            MapSource::Tables | MapSource::History => (
                heat.numbers[i].to_string(),
                heat.bands[i].map_or_else(String::new, |b| heat.band_label(b)),
            ),
        };
        out.push_str(&format!(
            "{square},{value},{band},{table},{view},{scope},{source}"
        ));
        if let Some(overlay) = &heat.overlay {
            out.push_str(&format!(",{},{}", overlay.first[i], overlay.second[i]));
        }
        out.push('\n');
    }
    out
}

/// The map's first line: what it is.
pub fn title(heat: &HeatMap) -> String {
    let scope = match heat.scope {
        Scope::Game => "since the game began",
        Scope::Search => "this search",
    };
    match heat.source {
        MapSource::Tables => format!(
            "Move-table map: {} · {} · {scope}",
            heat.table.name(),
            heat.view.title()
        ),
        MapSource::History => format!(
            "History map{}: {} · {}",
            if heat.history_at_end {
                " at the search's end"
            } else {
                ""
            },
            heat.table.name(),
            history_label(heat.view)
        ),
        MapSource::Counter => format!(
            "Counter-move map: {}",
            heat.counter.as_deref().unwrap_or("none")
        ),
    }
}

/// What the values are, in a sentence.
fn value_line(heat: &HeatMap) -> String {
    let what = match heat.source {
        MapSource::Tables => words::counts(heat.source, heat.view),
        MapSource::History => history_label(heat.view),
        MapSource::Counter => return "to: where the reply lands; from: where it starts.".into(),
    };
    // "blank 0: never considered…" → "0, never considered…".
    let blank = words::blank(heat)
        .trim_start_matches("blank ")
        .replacen(": ", ", ", 1);
    match heat.table {
        MapTable::One(_) => format!("Values: {what}. Blank (.): {blank}."),
        MapTable::All => {
            format!("Values: {what}, summed over the twelve tables. Blank (.): {blank}.")
        }
        MapTable::Overlay(a, b) => {
            let net = if heat.view == MapView::Net {
                ", without its sign"
            } else {
                ""
            };
            format!(
                "Values: where {} and {} are both nonzero, the smaller of the two ({what}{net}). Blank (.): {blank}.",
                a.code(),
                b.code()
            )
        }
    }
}

/// The diagram: the title, what the values are, then ranks 8 to 1 with
/// files a to h, each value right-aligned in a column as wide as the
/// widest, `.` for a blank square; an overlay adds its count of shared
/// squares and links.
pub fn diagram(heat: &HeatMap) -> String {
    let mut lines = vec![title(heat), value_line(heat)];
    if let (Some(shared), MapTable::Overlay(a, b)) = (words::overlay_shared(heat), heat.table) {
        let links = match heat.overlay.as_ref().and_then(|o| o.links) {
            Some(n) => format!(
                "; {} between {} and {}{}",
                match n {
                    1 => "1 link".to_string(),
                    n => format!("{n} links"),
                },
                a.code(),
                b.code(),
                heat.link
                    .as_ref()
                    .map_or_else(String::new, |l| format!(", the strongest {l}"))
            ),
            None => String::new(),
        };
        lines.push(format!("{}{links}.", capital(&shared)));
    }
    if !heat.learned {
        lines.push("Nothing learned yet.".into());
    }
    let cells: Vec<String> = (0..64)
        .map(|i| cell(heat, i).unwrap_or_else(|| ".".into()))
        .collect();
    let width = cells.iter().map(|c| c.chars().count()).max().unwrap_or(1);
    let row = |label: &str, texts: &mut dyn Iterator<Item = String>| -> String {
        let body: Vec<String> = texts.map(|t| format!("{t:>width$}")).collect();
        format!("{label} {}", body.join(" "))
    };
    let files = || ('a'..='h').map(|f| f.to_string());
    lines.push(row(" ", &mut files()));
    for rank in (0..8).rev() {
        lines.push(row(
            &(rank + 1).to_string(),
            &mut (0..8).map(|file| cells[rank * 8 + file].clone()),
        ));
    }
    lines.push(row(" ", &mut files()));
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

fn capital(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().chain(chars).collect::<String>()
    })
}

/// Write `heat` (the map shown; `None`: none is) to `path` as its name
/// says, through [`crate::fsutil`] as the board writes a file the person
/// named: its folder must be there, a folder or a FIFO is refused, a
/// device is written into, and a file there is kept unless `force`
/// (`:map export!`). The answer is the status line's words.
pub fn write(heat: Option<&HeatMap>, path: &Path, force: bool) -> Result<String, String> {
    let Some(heat) = heat else {
        return Err("No map is shown: m or :map wn shows one, then :map export FILE.".into());
    };
    crate::fsutil::check_board_target(path)?;
    if crate::fsutil::replaces_a_file(path) && !force {
        return Err(format!(
            "{} exists: :map export! {} replaces it.",
            path.display(),
            path.display()
        ));
    }
    let format = Format::of(path);
    let text = text(heat, format);
    crate::fsutil::write_user_file(path, &text)?;
    let what = match format {
        Format::Csv => "CSV, 64 rows (a square each) under a header".to_string(),
        Format::Diagram => format!("diagram, {} lines", text.lines().count()),
    };
    Ok(format!(
        "Map ({}) written to {}: {what}.",
        heat.table.code(),
        path.display()
    ))
}
