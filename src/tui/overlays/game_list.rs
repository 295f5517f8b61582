//! The games of a PGN file, filled in as the background reader goes, with
//! a search over players, event, date and opening.

use std::path::PathBuf;

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::game::summary::{GameSummary, matches_words};
use crate::tui::theme::Theme;

use super::popup;

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
        }
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
        let state = if list.done {
            format!("{} games", list.games.len())
        } else {
            format!("{} games so far, reading…", list.games.len())
        };
        let inner = popup(
            frame,
            area,
            width,
            height,
            &format!("{name} · {state}"),
            theme,
        );
        let dim = Style::default().fg(theme.dim);
        let mut lines = vec![Line::from(vec![
            Span::styled(" search: ", dim),
            Span::raw(list.query.clone()),
            Span::styled("▏", Style::default().fg(theme.accent)),
            Span::styled(
                format!(
                    "   {} shown · ↑↓ PgUp PgDn · Enter opens · Esc closes",
                    list.shown.len()
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
        // Columns: number, White, Black, result, plies, date, event, opening.
        let name_w = (w.saturating_sub(40) / 4).clamp(8, 22);
        lines.push(Line::styled(
            format!(
                "  {:>4} {:<nw$} {:<nw$} {:<7} {:>4} {:<10} {}",
                "#",
                "White",
                "Black",
                "Result",
                "ply",
                "Date",
                "Event / opening",
                nw = name_w
            ),
            dim.add_modifier(Modifier::BOLD),
        ));
        let rows = (inner.height as usize).saturating_sub(lines.len());
        let first = if list.selected >= rows {
            list.selected + 1 - rows
        } else {
            0
        };
        for (i, &index) in list.shown.iter().enumerate().skip(first).take(rows) {
            let g = &list.games[index];
            let clip = |s: &str, n: usize| s.chars().take(n).collect::<String>();
            let about = match (g.event.is_empty(), g.opening.is_empty()) {
                (false, false) => format!("{} · {}", g.event, g.opening),
                (false, true) => g.event.clone(),
                _ => g.opening.clone(),
            };
            let pointer = if i == list.selected { "▶" } else { " " };
            let mark = if g.error.is_some() { "!" } else { " " };
            let text = format!(
                "{pointer}{mark}{:>4} {:<nw$} {:<nw$} {:<7} {:>4} {:<10} {}",
                g.number,
                clip(&g.white, name_w),
                clip(&g.black, name_w),
                g.result,
                g.plies,
                clip(&g.date, 10),
                about,
                nw = name_w
            );
            let text: String = text.chars().take(w).collect();
            let style = if i == list.selected {
                theme.highlight()
            } else {
                Style::default()
            };
            lines.push(Line::styled(text, style));
        }
        frame.render_widget(Paragraph::new(lines), inner);
    }
}
