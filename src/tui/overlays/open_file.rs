//! The open-file dialog: a path with completion of folders and PGN files,
//! or the recent files.

use std::path::PathBuf;

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::tui::theme::Theme;

use super::popup;
use crate::tui::widgets::fitted::fitted;

/// The open-file dialog.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OpenDialog {
    pub input: String,
    /// Completions of the input (or the recent files when it is empty).
    pub choices: Vec<String>,
    pub selected: Option<usize>,
}

/// What a key did in the dialog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenKey {
    Keep,
    Close,
    Open(PathBuf),
}

impl OpenDialog {
    /// A key in the dialog; `recent` fills it when the input is empty.
    pub fn key(&mut self, key: KeyEvent, recent: &[PathBuf]) -> OpenKey {
        let dialog = self;
        let refresh = |dialog: &mut OpenDialog, recent: &[PathBuf]| {
            dialog.selected = None;
            dialog.choices = if dialog.input.is_empty() {
                recent.iter().map(|p| p.display().to_string()).collect()
            } else {
                complete_path(&dialog.input)
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
                    Some(i) => dialog.choices.get(i).cloned(),
                    None => Some(common_prefix(&dialog.choices)),
                };
                if let Some(text) = completed
                    && text.len() >= dialog.input.len()
                {
                    dialog.input = text;
                }
                refresh(dialog, recent);
            }
            KeyCode::Enter => {
                let chosen = match dialog.selected {
                    Some(i) => dialog.choices.get(i).cloned().unwrap_or_default(),
                    None => dialog.input.clone(),
                };
                let path = PathBuf::from(expand_home(chosen.trim()));
                if path.is_dir() {
                    let mut text = chosen.trim().to_string();
                    if !text.ends_with('/') {
                        text.push('/');
                    }
                    dialog.input = text;
                    refresh(dialog, recent);
                } else if !chosen.trim().is_empty() {
                    return OpenKey::Open(path);
                }
            }
            KeyCode::Backspace => {
                dialog.input.pop();
                refresh(dialog, recent);
            }
            KeyCode::Char(c) => {
                dialog.input.push(c);
                refresh(dialog, recent);
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
                    " recent files (type a path; Tab completes; Enter opens)"
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
            lines.push(Line::styled(format!("  {choice}"), style));
        }
        if dialog.choices.is_empty() {
            lines.push(Line::styled("  (nothing matches)", dim));
        }
        frame.render_widget(fitted(lines, inner.width), inner);
    }
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
