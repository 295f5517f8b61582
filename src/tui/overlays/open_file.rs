//! The open-file dialog: a path with completion of folders and PGN files,
//! or (while nothing is typed) the recent files and the games saved in the
//! data folder's `games/`.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::tui::theme::Theme;

use super::popup;
use crate::tui::widgets::fitted::fitted;

/// How many saved games the dialog lists (the newest).
pub const SAVED_MAX: usize = 200;

/// A file the dialog offers: its path, and what to show instead of it (a
/// saved game: its date, players and result).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Choice {
    pub path: String,
    pub label: Option<String>,
}

impl Choice {
    fn path(path: String) -> Choice {
        Choice { path, label: None }
    }
}

/// The open-file dialog.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OpenDialog {
    pub input: String,
    /// Completions of the input (or `offered` when it is empty).
    pub choices: Vec<Choice>,
    pub selected: Option<usize>,
    /// What the dialog offers while nothing is typed: the recent files,
    /// then the saved games, newest first.
    pub offered: Vec<Choice>,
}

/// What a key did in the dialog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenKey {
    Keep,
    Close,
    Open(PathBuf),
}

impl OpenDialog {
    /// The dialog with nothing typed: the `recent` files, then the games
    /// saved in the data folder `data` (if any), newest first. A recent
    /// file that is a saved game is listed once, as a saved game.
    pub fn new(recent: &[PathBuf], data: Option<&Path>) -> OpenDialog {
        let saved = data.map(saved_games).unwrap_or_default();
        let mut offered: Vec<Choice> = recent
            .iter()
            .map(|p| p.display().to_string())
            .filter(|p| !saved.iter().any(|s| &s.path == p))
            .map(Choice::path)
            .collect();
        offered.extend(saved);
        OpenDialog {
            choices: offered.clone(),
            offered,
            ..OpenDialog::default()
        }
    }

    /// A key in the dialog.
    pub fn key(&mut self, key: KeyEvent) -> OpenKey {
        let dialog = self;
        let refresh = |dialog: &mut OpenDialog| {
            dialog.selected = None;
            dialog.choices = if dialog.input.is_empty() {
                dialog.offered.clone()
            } else {
                complete_path(&dialog.input)
                    .into_iter()
                    .map(Choice::path)
                    .collect()
            };
        };
        match key.code {
            KeyCode::Esc => return OpenKey::Close,
            KeyCode::Up => {
                dialog.selected = match dialog.selected {
                    None | Some(0) => None,
                    Some(i) => Some(i - 1),
                };
            }
            KeyCode::Down => {
                let last = dialog.choices.len().saturating_sub(1);
                dialog.selected = match dialog.selected {
                    None if !dialog.choices.is_empty() => Some(0),
                    None => None,
                    Some(i) => Some((i + 1).min(last)),
                };
            }
            KeyCode::Tab => {
                let completed = match dialog.selected {
                    Some(i) => dialog.choices.get(i).map(|c| c.path.clone()),
                    None => Some(common_prefix(
                        &dialog
                            .choices
                            .iter()
                            .map(|c| c.path.clone())
                            .collect::<Vec<_>>(),
                    )),
                };
                if let Some(text) = completed
                    && text.len() >= dialog.input.len()
                {
                    dialog.input = text;
                }
                refresh(dialog);
            }
            KeyCode::Enter => {
                let chosen = match dialog.selected {
                    Some(i) => dialog
                        .choices
                        .get(i)
                        .map(|c| c.path.clone())
                        .unwrap_or_default(),
                    None => dialog.input.clone(),
                };
                let path = PathBuf::from(expand_home(chosen.trim()));
                if path.is_dir() {
                    let mut text = chosen.trim().to_string();
                    if !text.ends_with('/') {
                        text.push('/');
                    }
                    dialog.input = text;
                    refresh(dialog);
                } else if !chosen.trim().is_empty() {
                    return OpenKey::Open(path);
                }
            }
            KeyCode::Backspace => {
                dialog.input.pop();
                refresh(dialog);
            }
            KeyCode::Char(c) => {
                dialog.input.push(c);
                refresh(dialog);
            }
            _ => {}
        }
        OpenKey::Keep
    }

    pub fn draw(&self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let dialog = self;
        let width = area.width.saturating_sub(8).clamp(40, 90);
        let inner = popup(frame, area, width, 14, "Open a PGN file", theme);
        let dim = Style::default().fg(theme.dim);
        let mut lines = vec![
            Line::from(vec![
                Span::styled(" path: ", Style::default().fg(theme.accent)),
                Span::raw(dialog.input.clone()),
                Span::styled("▏", Style::default().fg(theme.accent)),
            ]),
            Line::styled(
                if dialog.input.is_empty() {
                    " recent files, saved games (type a path; Tab completes; Enter opens)"
                } else {
                    " matching folders and .pgn files (Tab completes; Enter opens)"
                },
                dim,
            ),
        ];
        let rows = inner.height.saturating_sub(2) as usize;
        let first = dialog.selected.map_or(0, |s| (s + 1).saturating_sub(rows));
        for (i, choice) in dialog.choices.iter().enumerate().skip(first).take(rows) {
            let style = if Some(i) == dialog.selected {
                theme.highlight()
            } else {
                Style::default()
            };
            let text = choice.label.as_deref().unwrap_or(&choice.path);
            lines.push(Line::styled(format!("  {text}"), style));
        }
        if dialog.choices.is_empty() {
            lines.push(Line::styled("  (nothing matches)", dim));
        }
        frame.render_widget(fitted(lines, inner.width), inner);
    }
}

/// The games saved in the data folder `data` (its `games/`, where `s`,
/// `:save` and the games archive put them), newest first (by the time the
/// file was written), at most [`SAVED_MAX`]: each shown with its date,
/// players and result as its first game's tags give them. A folder that
/// is missing or cannot be read lists nothing.
pub fn saved_games(data: &Path) -> Vec<Choice> {
    let dir = crate::game::archive::games_dir(data);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<(SystemTime, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .to_lowercase()
                .ends_with(".pgn")
        })
        .filter_map(|e| {
            let meta = e.metadata().ok()?;
            meta.is_file()
                .then(|| (meta.modified().unwrap_or(SystemTime::UNIX_EPOCH), e.path()))
        })
        .collect();
    // Newest first; the same second: by name, newest name first.
    files.sort_by(|a, b| b.cmp(a));
    files
        .into_iter()
        .take(SAVED_MAX)
        .map(|(_, path)| Choice {
            label: Some(saved_label(&path)),
            path: path.display().to_string(),
        })
        .collect()
}

/// What the dialog shows of a saved game: "2026.11.28  You - kibitz level
/// 5  1-0  (name.pgn)", from its first game's tags (only the tags are
/// read, at most a few kilobytes).
fn saved_label(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut bytes = Vec::new();
    if let Ok(file) = crate::fsutil::open_regular(path) {
        let _ = std::io::Read::read_to_end(&mut std::io::Read::take(file, 8 * 1024), &mut bytes);
    }
    let head = String::from_utf8_lossy(&bytes);
    let tag = |wanted: &str| {
        head.lines()
            .map(str::trim)
            .take_while(|l| l.starts_with('[') || l.is_empty())
            .filter_map(|l| {
                let inner = l.strip_prefix('[')?.strip_suffix(']')?;
                let (key, value) = inner.split_once(char::is_whitespace)?;
                (key == wanted).then(|| value.trim().trim_matches('"').to_string())
            })
            .find(|v| !v.is_empty() && v != "?")
    };
    let players = match (tag("White"), tag("Black")) {
        (Some(w), Some(b)) => format!("{w} - {b}"),
        (Some(w), None) => format!("{w} - ?"),
        (None, Some(b)) => format!("? - {b}"),
        (None, None) => "?".to_string(),
    };
    let date = tag("Date").unwrap_or_else(|| "????.??.??".into());
    let result = tag("Result").unwrap_or_else(|| "*".into());
    format!("{date}  {players}  {result}  ({name})")
}

/// Directory entries that complete `typed`: folders (with a trailing `/`)
/// and PGN files, sorted.
pub fn complete_path(typed: &str) -> Vec<String> {
    let expanded = expand_home(typed);
    let (dir, prefix) = match expanded.rfind('/') {
        Some(i) => (&expanded[..=i], &expanded[i + 1..]),
        None => ("", expanded.as_str()),
    };
    let read_dir = if dir.is_empty() { "." } else { dir };
    let Ok(entries) = std::fs::read_dir(read_dir) else {
        return Vec::new();
    };
    let mut out: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().to_string();
            if !name.starts_with(prefix) || (name.starts_with('.') && !prefix.starts_with('.')) {
                return None;
            }
            let is_dir = entry.file_type().ok()?.is_dir()
                || std::fs::metadata(entry.path()).is_ok_and(|m| m.is_dir());
            if is_dir {
                Some(format!("{dir}{name}/"))
            } else if name.to_lowercase().ends_with(".pgn") {
                Some(format!("{dir}{name}"))
            } else {
                None
            }
        })
        .collect();
    out.sort();
    out
}

fn common_prefix(items: &[String]) -> String {
    let Some(first) = items.first() else {
        return String::new();
    };
    let mut end = first.len();
    for item in &items[1..] {
        end = end.min(
            first
                .char_indices()
                .zip(item.chars())
                .take_while(|((_, a), b)| a == b)
                .last()
                .map_or(0, |((i, a), _)| i + a.len_utf8()),
        );
    }
    first[..end].to_string()
}

/// `~/x` as the home folder's `x`.
pub fn expand_home(path: &str) -> String {
    match (path.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => format!("{}/{rest}", home.to_string_lossy()),
        _ => path.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_prefix_of_names() {
        let items = vec!["games/a1.pgn".to_string(), "games/a2.pgn".to_string()];
        assert_eq!(common_prefix(&items), "games/a");
        assert_eq!(common_prefix(&[]), "");
        assert_eq!(common_prefix(&items[..1]), "games/a1.pgn");
    }
}
