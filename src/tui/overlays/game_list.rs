//! The games of a PGN file, filled in as the background reader goes, with
//! a search over players, event, date and opening.

use std::path::PathBuf;

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::game::summary::{GameSummary, matches_words};
use crate::tui::theme::Theme;
use crate::tui::widgets::fit;

use super::popup;
use crate::tui::widgets::fitted::fitted;
use crate::tui::widgets::thousands;

/// The games of a file, as far as they have been read.
#[derive(Debug, Clone, PartialEq)]
pub struct GameList {
    pub path: PathBuf,
    /// Which reading of the file this is (a reopened file starts another).
    pub id: u64,
    pub games: Vec<GameSummary>,
    /// Each game's `search_text`.
    texts: Vec<String>,
    /// Indices into `games` that match `query`.
    pub shown: Vec<usize>,
    pub query: String,
    /// Index into `shown`.
    pub selected: usize,
    pub done: bool,
    pub error: Option<String>,
    /// Open the game by itself if the file turns out to hold only one.
    pub open_single: bool,
    /// The games come from the game database at `path` (their numbers are
    /// its ids), not from a PGN file: how many matched in all.
    pub database: Option<u64>,
    /// Games listed by `G` on the board: the position they reached (a game
    /// opens where it first got there) and the explorer's filter in words.
    pub reached: Option<shakmaty::Chess>,
    pub filter: String,
}

impl GameList {
    pub fn new(path: PathBuf, id: u64, open_single: bool) -> GameList {
        GameList {
            path,
            id,
            games: Vec::new(),
            texts: Vec::new(),
            shown: Vec::new(),
            query: String::new(),
            selected: 0,
            done: false,
            error: None,
            open_single,
            database: None,
            reached: None,
            filter: String::new(),
        }
    }

    /// The games a query of the game database at `path` found (`total`
    /// matched in all, these being the most recent), numbered by their ids.
    pub fn from_database(
        path: PathBuf,
        id: u64,
        rows: &[crate::db::GameRow],
        total: u64,
    ) -> GameList {
        let mut list = GameList::new(path, id, false);
        list.add(rows.iter().map(db_summary).collect());
        list.done = true;
        list.database = Some(total);
        if rows.is_empty() {
            list.error = Some("no game in the database matches".into());
        }
        list
    }

    pub fn add(&mut self, batch: Vec<GameSummary>) {
        let query = self.query.to_lowercase();
        for game in batch {
            let text = game.search_text();
            if matches_words(&text, &query) {
                self.shown.push(self.games.len());
            }
            self.games.push(game);
            self.texts.push(text);
        }
    }

    /// Filter again after the query changed. A longer query only narrows
    /// what is shown, so only the shown games need looking at.
    pub fn refilter(&mut self, narrowed: bool) {
        let query = self.query.to_lowercase();
        let texts = &self.texts;
        self.shown = if narrowed {
            self.shown
                .iter()
                .copied()
                .filter(|&i| matches_words(&texts[i], &query))
                .collect()
        } else {
            (0..texts.len())
                .filter(|&i| matches_words(&texts[i], &query))
                .collect()
        };
        self.selected = self.selected.min(self.shown.len().saturating_sub(1));
    }

    pub fn selected_game(&self) -> Option<&GameSummary> {
        self.games.get(*self.shown.get(self.selected)?)
    }
}

/// What a key did in the game list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListKey {
    Keep,
    Close,
    Open(PathBuf, usize),
}

impl GameList {
    /// A key in the list; `page` rows for Page Up and Down.
    pub fn key(&mut self, key: KeyEvent, page: usize) -> ListKey {
        match key.code {
            KeyCode::Esc => return ListKey::Close,
            KeyCode::Up => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down => {
                self.selected = (self.selected + 1).min(self.shown.len().saturating_sub(1));
            }
            KeyCode::PageUp => self.selected = self.selected.saturating_sub(page),
            KeyCode::PageDown => {
                self.selected = (self.selected + page).min(self.shown.len().saturating_sub(1));
            }
            KeyCode::Home => self.selected = 0,
            KeyCode::End => self.selected = self.shown.len().saturating_sub(1),
            KeyCode::Enter => {
                if let Some(game) = self.selected_game() {
                    return ListKey::Open(self.path.clone(), game.number);
                }
            }
            KeyCode::Backspace => {
                self.query.pop();
                self.refilter(false);
            }
            KeyCode::Char(c) => {
                // A space starts a new word: still only narrows.
                self.query.push(c);
                self.refilter(true);
            }
            _ => {}
        }
        ListKey::Keep
    }

    pub fn draw(&self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let list = self;
        let width = area.width.saturating_sub(4).max(40);
        let height = area.height.saturating_sub(2).max(8);
        let name = list.path.file_name().map_or_else(
            || list.path.display().to_string(),
            |n| n.to_string_lossy().to_string(),
        );
        let state = if let Some(total) = list.database.filter(|t| *t > list.games.len() as u64) {
            format!(
                "the {} most recent of {} games",
                thousands(list.games.len() as u64),
                thousands(total)
            )
        } else if list.database.is_some() {
            let n = list.games.len() as u64;
            format!("{} {}", thousands(n), if n == 1 { "game" } else { "games" })
        } else if list.done {
            crate::core::counted(list.games.len() as u64, "game", "games")
        } else {
            format!(
                "{} so far, reading…",
                crate::core::counted(list.games.len() as u64, "game", "games")
            )
        };
        let inner = popup(
            frame,
            area,
            width,
            height,
            &if list.filter.is_empty() {
                format!("{name} · {state}")
            } else {
                format!("{name} · {state} · {}", list.filter)
            },
            theme,
        );
        let dim = Style::default().fg(theme.dim);
        let mut lines = vec![Line::from(vec![
            Span::styled(" search: ", dim),
            Span::raw(list.query.clone()),
            Span::styled("▏", Style::default().fg(theme.accent)),
            Span::styled(
                format!(
                    "   {} shown · ↑↓ · Enter opens{} · Esc closes",
                    list.shown.len(),
                    if list.database.is_some() {
                        ""
                    } else {
                        " · Ctrl-R review all"
                    }
                ),
                dim,
            ),
        ])];
        if let Some(error) = &list.error {
            lines.push(Line::styled(
                format!(" {error}"),
                Style::default().fg(theme.check),
            ));
        }
        let w = inner.width as usize;
        let largest = list.games.iter().map(|g| g.number).max().unwrap_or(0);
        let columns = Columns::for_width(w, largest);
        lines.push(Line::styled(
            columns.header(),
            dim.add_modifier(Modifier::BOLD),
        ));
        let rows = (inner.height as usize).saturating_sub(lines.len());
        let first = if list.selected >= rows {
            list.selected + 1 - rows
        } else {
            0
        };
        for (i, &index) in list.shown.iter().enumerate().skip(first).take(rows) {
            let pointer = if i == list.selected { "▶" } else { " " };
            let text = format!("{pointer}{}", columns.row(&list.games[index]));
            let text = fit(&text, w);
            let style = if i == list.selected {
                theme.highlight()
            } else {
                Style::default()
            };
            lines.push(Line::styled(text, style));
        }
        frame.render_widget(fitted(lines, inner.width), inner);
    }
}

/// A game of the database as the list shows it, numbered by its id.
fn db_summary(row: &crate::db::GameRow) -> GameSummary {
    let opening = [row.eco.as_deref(), row.opening.as_deref()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
    GameSummary {
        number: usize::try_from(row.id).unwrap_or(0),
        white: row.white.clone(),
        black: row.black.clone(),
        result: row.result.clone(),
        event: row.event.clone().unwrap_or_default(),
        date: row.date.clone(),
        opening,
        plies: row.plies as usize,
        error: None,
    }
}

/// The list's columns for an inner width: number, White, Black, result,
/// plies, then the date (where there is room) and the opening, with the
/// event after it where there is room. A narrow list (80 columns) writes
/// draws as ½-½ and shortens names rather than cutting the opening.
struct Columns {
    /// The game numbers' width: the largest number's digits, at least 4.
    number: usize,
    name: usize,
    result: usize,
    wide: bool,
}

/// Lists at least this wide (inner columns) show the date and the event.
const WIDE_LIST: usize = 100;

impl Columns {
    fn for_width(width: usize, largest_number: usize) -> Columns {
        let wide = width >= WIDE_LIST;
        Columns {
            number: largest_number.to_string().len().max(4),
            name: if wide {
                (width.saturating_sub(60) / 3).clamp(12, 22)
            } else {
                (width.saturating_sub(44) / 2).clamp(8, 16)
            },
            result: if wide { 7 } else { 3 },
            wide,
        }
    }

    /// The columns before the opening: number, White, Black, result,
    /// plies, and the date in a wide list.
    fn columns(&self) -> Vec<Column> {
        let mut columns = vec![
            Column::right(self.number),
            Column::left(self.name),
            Column::left(self.name),
            Column::left(self.result),
            Column::right(4),
        ];
        if self.wide {
            columns.push(Column::left(10));
        }
        columns
    }

    /// The header, over the pointer and mark columns and the rows' cells.
    fn header(&self) -> String {
        // "Result" where it fits, else its short form.
        let result = if self.result >= 6 { "Result" } else { "Res" };
        let (date, about) = if self.wide {
            ("Date", "Opening · event")
        } else {
            ("", "Opening")
        };
        let texts = ["#", "White", "Black", result, "ply", date];
        format!("  {}{about}", cells(&self.columns(), &texts))
    }

    /// A game's row, after the pointer column.
    fn row(&self, g: &GameSummary) -> String {
        let mark = if g.error.is_some() { "!" } else { " " };
        let result = if self.wide || g.result != "1/2-1/2" {
            g.result.clone()
        } else {
            "½-½".to_string()
        };
        let date: String = g.date.chars().take(10).collect();
        let texts = [
            g.number.to_string(),
            short_name(&g.white, self.name),
            short_name(&g.black, self.name),
            result,
            g.plies.to_string(),
            date,
        ];
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        let about = match (g.opening.is_empty(), g.event.is_empty()) {
            (false, false) if self.wide => format!("{} · {}", g.opening, g.event),
            (false, _) => g.opening.clone(),
            _ => g.event.clone(),
        };
        format!("{mark}{}{about}", cells(&self.columns(), &texts))
    }
}

/// A column of a table: its width, and whether its texts keep to the right.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    pub width: usize,
    pub right: bool,
}

impl Column {
    pub fn left(width: usize) -> Column {
        Column {
            width,
            right: false,
        }
    }

    pub fn right(width: usize) -> Column {
        Column { width, right: true }
    }
}

/// A line of a table: each text in its column (cut with "…" if longer),
/// each column followed by a space. Headers and rows made with the same
/// columns line up.
pub fn cells(columns: &[Column], texts: &[&str]) -> String {
    let mut line = String::new();
    for (column, text) in columns.iter().zip(texts) {
        let text = fit(text, column.width);
        let pad = " ".repeat(column.width.saturating_sub(text.chars().count()));
        if column.right {
            line.push_str(&pad);
            line.push_str(&text);
        } else {
            line.push_str(&text);
            line.push_str(&pad);
        }
        line.push(' ');
    }
    line
}

/// A player's name in `width` columns: as it is if it fits, else without
/// a bracketed note ("Deep Blue (Computer)"), then "Surname, G." or
/// "G. Surname" for the given names, then the surname alone, then cut.
pub fn short_name(name: &str, width: usize) -> String {
    let name = name.trim();
    if name.chars().count() <= width {
        return name.to_string();
    }
    let bare = match name.find(" (") {
        Some(at) => name[..at].trim(),
        None => name,
    };
    let (surname, given) = match bare.split_once(',') {
        Some((surname, given)) => (surname.trim(), given.trim()),
        None => match bare.rsplit_once(' ') {
            Some((given, surname)) => (surname, given.trim()),
            None => (bare, ""),
        },
    };
    let initials: String = given
        .split_whitespace()
        .filter_map(|word| word.chars().next())
        .map(|c| format!("{c}."))
        .collect();
    let with_initials = if initials.is_empty() {
        surname.to_string()
    } else if bare.contains(',') {
        format!("{surname}, {initials}")
    } else {
        format!("{initials} {surname}")
    };
    [bare, &with_initials, surname]
        .into_iter()
        .find(|candidate| candidate.chars().count() <= width)
        .map_or_else(|| fit(surname, width), str::to_string)
}

#[cfg(test)]
mod tests {
    use super::short_name;

    #[test]
    fn names_are_shortened_from_the_given_names_first() {
        assert_eq!(short_name("Garry Kasparov", 16), "Garry Kasparov");
        assert_eq!(short_name("Deep Blue (Computer)", 16), "Deep Blue");
        assert_eq!(short_name("Kasparov, Garry Kimovich", 16), "Kasparov, G.K.");
        assert_eq!(short_name("Kasparov, Garry Kimovich", 10), "Kasparov");
        assert_eq!(short_name("Garry Kimovich Kasparov", 14), "G.K. Kasparov");
        assert_eq!(short_name("Nepomniachtchi, Ian", 10), "Nepomniac…");
    }
}
