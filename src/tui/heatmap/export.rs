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

use crate::engine::movetables::Scope;

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
    // The mode's note on where the tables come from ("game ply 12/98"), as
    // a last column, when there is one.
    let note = heat.note.first();
    if note.is_some() {
        out.push_str(",note");
    }
    out.push('\n');
    // The view in the screen's words: the history's "|score|"; the
    // counter map has no table or view shown, so none is written.
    let (table, view) = match heat.source {
        MapSource::Tables => (heat.table.code(), heat.view.name()),
        MapSource::History => (heat.table.code(), history_label(heat.view)),
        MapSource::Counter => (String::new(), ""),
    };
    let (scope, source) = (scope_name(heat), source_name(heat.source));
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
        if let Some(note) = note {
            out.push_str(&format!(",{}", note.replace(',', ";")));
        }
        out.push('\n');
    }
    out
}

/// The map's first line: what it is.
pub fn title(heat: &HeatMap) -> String {
    let title = source_title(heat);
    // Where the mode says the tables come from (the analysis board's
    // `:map game-history`: "game ply 12/98"), so that two exports of the
    // same game can be told apart.
    match heat.note.first() {
        Some(note) => format!("{title} · {note}"),
        None => title,
    }
}

fn source_title(heat: &HeatMap) -> String {
    let scope = match (heat.history_at_end, heat.scope) {
        (false, Scope::Search) => "this search",
        (replay, scope) => words::scope_words(scope, replay),
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
        MapSource::Tables => words::shown_counts(heat),
        MapSource::History => history_label(heat.view).to_string(),
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
            format!(
                "Values: where {} and {} are both nonzero, the smaller of the two ({what}). Blank (.): {blank}.",
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
                words::links_count(n),
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

/// What follows `:map export`: whether to replace a file there (`!`, also
/// written apart, `:map export ! NAME`) and the file's name, one pair of
/// quotes around it taken off (`"a name.csv"`).
pub fn file_words(rest: &str) -> (bool, &str) {
    let rest = rest.trim();
    let (force, name) = match rest.strip_prefix('!') {
        Some(name) => (true, name.trim()),
        None => (false, rest),
    };
    let unquoted = ['"', '\'']
        .into_iter()
        .find_map(|q| name.strip_prefix(q)?.strip_suffix(q))
        .filter(|n| !n.is_empty());
    (force, unquoted.unwrap_or(name))
}

/// The file `name` stands for, `home` the home folder: `~/x` in it, a
/// bare `~` the folder itself (which the write refuses as a folder, rather
/// than make a file named "~").
pub fn path_of(name: &str, home: Option<&std::ffi::OsStr>) -> std::path::PathBuf {
    match (name, name.strip_prefix("~/"), home) {
        ("~", _, Some(home)) => std::path::PathBuf::from(home),
        (_, Some(rest), Some(home)) => Path::new(home).join(rest),
        _ => std::path::PathBuf::from(name),
    }
}

/// A folder on the status line is cut to this many characters, in the
/// middle, so the file's name and the verdict fit 80 columns.
const FOLDER_ROOM: usize = 24;

/// `folder` in at most `room` characters: its first part, "…" and as many
/// of its last parts as fit ("/home/…/kibitz/maps"); a last part too long
/// alone keeps its end ("…ong-folder-name").
pub fn short_folder(folder: &str, room: usize) -> String {
    if folder.chars().count() <= room {
        return folder.to_string();
    }
    let parts: Vec<&str> = folder.split('/').collect();
    let head = match parts.as_slice() {
        ["", first, ..] => format!("/{first}"),
        [first, ..] => (*first).to_string(),
        [] => String::new(),
    };
    let mut tail = String::new();
    for part in parts.iter().skip(2).rev() {
        let next = if tail.is_empty() {
            (*part).to_string()
        } else {
            format!("{part}/{tail}")
        };
        if head.chars().count() + 3 + next.chars().count() > room {
            break;
        }
        tail = next;
    }
    if tail.is_empty() {
        let chars: Vec<char> = folder.chars().collect();
        let end: String = chars[chars.len() - (room.saturating_sub(1)).min(chars.len())..]
            .iter()
            .collect();
        return format!("…{end}");
    }
    format!("{head}/…/{tail}")
}

/// The file's name, and its folder, short, where the path names one.
fn name_and_folder(path: &Path) -> (String, Option<String>) {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map(|p| short_folder(&p.display().to_string(), FOLDER_ROOM));
    (name, folder)
}

/// The map written, for the status line: "Map wn+bq", "History map bq",
/// "Counter-move map".
fn which(heat: &HeatMap) -> String {
    match heat.source {
        MapSource::Tables => format!("Map {}", heat.table.code()),
        MapSource::History => format!("History map {}", heat.table.code()),
        MapSource::Counter => "Counter-move map".into(),
    }
}

/// Write `heat` (the map shown; `None`: none is) to `path` as its name
/// says, through [`crate::fsutil`] as the board writes a file the person
/// named: its folder must be there, a folder or a FIFO is refused, a
/// device is written into, and a file there is kept unless `force`
/// (`:map export!`). The answer is the status line's words: the file's
/// name first, then the verdict, a long folder cut in the middle, so 80
/// columns keep what matters.
pub fn write(heat: Option<&HeatMap>, path: &Path, force: bool) -> Result<String, String> {
    let Some(heat) = heat else {
        return Err("No map is shown: m or :map wn shows one, then :map export FILE.".into());
    };
    let (name, folder) = name_and_folder(path);
    crate::fsutil::check_board_target(path).map_err(|why| shorten_paths(&why, path))?;
    if crate::fsutil::replaces_a_file(path) && !force {
        return Err(match folder {
            Some(folder) => format!("{name} exists in {folder}: :map export! replaces it."),
            None => format!("{name} exists: :map export! {name} replaces it."),
        });
    }
    let format = Format::of(path);
    let text = text(heat, format);
    crate::fsutil::write_user_file(path, &text).map_err(|why| shorten_paths(&why, path))?;
    let what = match format {
        Format::Csv => "CSV, 64 rows and a header".to_string(),
        Format::Diagram => format!("diagram, {} lines", text.lines().count()),
    };
    let inside = folder.map_or_else(String::new, |f| format!(" in {f}"));
    Ok(format!(
        "{} written to {name}{inside}: {what}.",
        which(heat)
    ))
}

/// A refusal's words, the file's name first and the paths in them
/// written short, so the status line keeps the reason ("x.txt not
/// written: /tmp/…/no/such: no such folder").
fn shorten_paths(why: &str, path: &Path) -> String {
    let full = path.display().to_string();
    let (name, folder) = name_and_folder(path);
    let mut why = match why.strip_prefix(&format!("cannot write {full}: ")) {
        Some(reason) => format!("{name} not written: {reason}"),
        None => why.to_string(),
    };
    let short = folder.map_or_else(|| name.clone(), |f| format!("{f}/{name}"));
    why = why.replace(&full, &short);
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        let parent = parent.display().to_string();
        why = why.replace(&parent, &short_folder(&parent, FOLDER_ROOM));
    }
    why
}
