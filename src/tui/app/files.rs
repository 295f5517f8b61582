//! Files on the analysis board: the game list of a PGN file (filled in the
//! background as the file is read), the open-file dialog with completion
//! and recent files, pasting a FEN or a PGN, and saving.

use std::path::{Path, PathBuf};
use std::time::Instant;

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use crate::game::fen::parse_fen;
use crate::game::summary::{GameSummary, matches_words};
use crate::game::tree::{GameTree, read_games};

use super::analysis::{GameSource, Request};
use super::{App, Confirm, Overlay, Tone};

/// How many recent files are remembered.
const RECENT_MAX: usize = 10;

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
    fn new(path: PathBuf, id: u64, open_single: bool) -> GameList {
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

    fn add(&mut self, batch: Vec<GameSummary>) {
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
    fn refilter(&mut self, narrowed: bool) {
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

/// Progress of the game list's background reader.
#[derive(Debug, Clone)]
pub enum ListEvent {
    Games(Vec<GameSummary>),
    /// Finished: the number of games, or why the file could not be read.
    Done(Result<usize, String>),
}

/// The open-file dialog.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OpenDialog {
    pub input: String,
    /// Completions of the input (or the recent files when it is empty).
    pub choices: Vec<String>,
    pub selected: Option<usize>,
}

/// Something to do once the user agrees to drop unsaved changes.
#[derive(Debug, Clone, PartialEq)]
pub enum Pending {
    Tree(Box<GameTree>),
    LoadGame(PathBuf, usize),
    /// The new-game dialog.
    NewGame,
}

/// Directory entries that complete `typed`: folders (with a trailing `/`)
/// and PGN files, sorted.
pub fn complete_path(typed: &str) -> Vec<String> {
    let expanded = super::analysis::expand_home(typed);
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

impl App {
    fn recent_file(&self) -> Option<PathBuf> {
        self.dirs.as_ref().map(|d| d.data.join("recent.txt"))
    }

    /// The recently opened files, newest first.
    pub fn recent_files(&self) -> &[PathBuf] {
        &self.recent
    }

    pub(super) fn load_recent(&mut self) {
        if let Some(path) = self.recent_file()
            && let Ok(text) = crate::fsutil::read_text_capped(
                &path,
                crate::fsutil::MAX_STATE_BYTES,
                "the recent-files list",
            )
        {
            self.recent = text
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(PathBuf::from)
                .take(RECENT_MAX)
                .collect();
        }
    }

    fn remember(&mut self, path: &Path) {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.recent.retain(|p| p != &path);
        self.recent.insert(0, path);
        self.recent.truncate(RECENT_MAX);
        if let Some(file) = self.recent_file() {
            let text: String = self
                .recent
                .iter()
                .map(|p| format!("{}\n", p.display()))
                .collect();
            // A lost recent-files list is not worth an error message.
            let _ = crate::fsutil::write_atomic(&file, text);
        }
    }

    // ----- opening --------------------------------------------------------

    /// Open a PGN file: game `number`, or the game list (a file of one game
    /// opens that game).
    pub fn open_path(&mut self, path: PathBuf, number: Option<usize>) {
        if let Err(e) = crate::fsutil::open_regular(&path) {
            self.say(
                format!("Cannot open {}: {}", path.display(), e.why),
                Tone::Error,
            );
            return;
        }
        self.list_id += 1;
        self.game_list = Some(GameList::new(path.clone(), self.list_id, number.is_none()));
        self.requests.push(Request::ListGames {
            path: path.clone(),
            id: self.list_id,
        });
        match number {
            // Showing the list replaces nothing; a game does, so that asks.
            Some(n) if self.unsaved() => {
                self.pending = Some(Pending::LoadGame(path, n));
                self.overlay = Overlay::Confirm(Confirm::Discard);
            }
            Some(n) => self.requests.push(Request::LoadGame { path, number: n }),
            None => self.overlay = Overlay::GameList,
        }
        self.dirty = true;
    }

    pub(super) fn open_game_list(&mut self) {
        match &self.game_list {
            Some(_) => self.overlay = Overlay::GameList,
            None => self.say("No file is open: o opens one (or paste a PGN).", Tone::Info),
        }
    }

    pub(super) fn open_dialog(&mut self) {
        let dialog = OpenDialog {
            choices: self
                .recent
                .iter()
                .map(|p| p.display().to_string())
                .collect(),
            ..OpenDialog::default()
        };
        self.overlay = Overlay::Open(dialog);
    }

    /// The game list's reader reported.
    pub(super) fn list_event(&mut self, id: u64, event: ListEvent) {
        let Some(list) = &mut self.game_list else {
            return;
        };
        // A reader of a file opened before this one.
        if list.id != id {
            return;
        }
        match event {
            ListEvent::Games(batch) => list.add(batch),
            ListEvent::Done(Ok(count)) => {
                list.done = true;
                if count == 0 {
                    list.error = Some("no games in this file".into());
                }
                if count == 1 && list.open_single && self.overlay == Overlay::GameList {
                    list.open_single = false;
                    let path = list.path.clone();
                    self.requests.push(Request::LoadGame { path, number: 1 });
                }
            }
            ListEvent::Done(Err(e)) => {
                list.done = true;
                list.error = Some(e);
            }
        }
        self.dirty = true;
    }

    /// A game requested with `LoadGame` arrived.
    pub(super) fn game_loaded(
        &mut self,
        path: PathBuf,
        number: usize,
        result: Result<Box<GameTree>, String>,
        now: Instant,
    ) {
        match result {
            Ok(tree) => {
                let tree = *tree;
                let error = tree.error.as_ref().map(ToString::to_string);
                let notes = tree.notes_summary();
                self.remember(&path);
                let name = path.display().to_string();
                self.analyse(tree, Some(GameSource { path, number }), now);
                match (error, notes) {
                    (Some(e), _) => self.say(e, Tone::Error),
                    (None, Some(note)) => {
                        self.say(format!("Game {number} of {name}: {note}"), Tone::Info);
                    }
                    (None, None) => self.say(format!("Game {number} of {name}"), Tone::Info),
                }
            }
            Err(e) => self.say(e, Tone::Error),
        }
    }

    pub(super) fn game_list_key(&mut self, key: KeyEvent) {
        let Some(list) = &mut self.game_list else {
            return;
        };
        let page = usize::from(self.size.1.saturating_sub(8)).max(1);
        match key.code {
            KeyCode::Esc => {
                // Nothing open yet: back to the start dialog, not a blank board.
                if !self.started {
                    self.overlay = Overlay::NewGame(super::NewGameForm::new(&self.settings, None));
                }
                return;
            }
            KeyCode::Up => list.selected = list.selected.saturating_sub(1),
            KeyCode::Down => {
                list.selected = (list.selected + 1).min(list.shown.len().saturating_sub(1));
            }
            KeyCode::PageUp => list.selected = list.selected.saturating_sub(page),
            KeyCode::PageDown => {
                list.selected = (list.selected + page).min(list.shown.len().saturating_sub(1));
            }
            KeyCode::Home => list.selected = 0,
            KeyCode::End => list.selected = list.shown.len().saturating_sub(1),
            KeyCode::Enter => {
                if let Some(game) = list.selected_game() {
                    let (path, number) = (list.path.clone(), game.number);
                    if self.unsaved() {
                        self.pending = Some(Pending::LoadGame(path, number));
                        self.overlay = Overlay::Confirm(Confirm::Discard);
                    } else {
                        self.requests.push(Request::LoadGame { path, number });
                    }
                    return;
                }
            }
            KeyCode::Backspace => {
                list.query.pop();
                list.refilter(false);
            }
            KeyCode::Char(c) => {
                // A space starts a new word: still only narrows.
                list.query.push(c);
                list.refilter(true);
            }
            _ => {}
        }
        self.overlay = Overlay::GameList;
    }

    pub(super) fn open_key(&mut self, mut dialog: OpenDialog, key: KeyEvent) {
        let refresh = |dialog: &mut OpenDialog, recent: &[PathBuf]| {
            dialog.selected = None;
            dialog.choices = if dialog.input.is_empty() {
                recent.iter().map(|p| p.display().to_string()).collect()
            } else {
                complete_path(&dialog.input)
            };
        };
        match key.code {
            KeyCode::Esc => return,
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
                refresh(&mut dialog, &self.recent);
            }
            KeyCode::Enter => {
                let chosen = match dialog.selected {
                    Some(i) => dialog.choices.get(i).cloned().unwrap_or_default(),
                    None => dialog.input.clone(),
                };
                let path = PathBuf::from(super::analysis::expand_home(chosen.trim()));
                if path.is_dir() {
                    let mut text = chosen.trim().to_string();
                    if !text.ends_with('/') {
                        text.push('/');
                    }
                    dialog.input = text;
                    refresh(&mut dialog, &self.recent);
                } else if !chosen.trim().is_empty() {
                    self.overlay = Overlay::None;
                    self.open_path(path, None);
                    return;
                }
            }
            KeyCode::Backspace => {
                dialog.input.pop();
                refresh(&mut dialog, &self.recent);
            }
            KeyCode::Char(c) => {
                dialog.input.push(c);
                refresh(&mut dialog, &self.recent);
            }
            _ => {}
        }
        self.overlay = Overlay::Open(dialog);
    }

    // ----- pasting ------------------------------------------------------------

    /// Text pasted into the terminal (bracketed paste).
    pub(super) fn paste(&mut self, text: String, now: Instant) {
        match &mut self.overlay {
            Overlay::Open(dialog) => {
                dialog.input.push_str(text.trim());
                return;
            }
            Overlay::GameList => {
                if let Some(list) = &mut self.game_list {
                    list.query.push_str(text.trim());
                    list.refilter(true);
                }
                return;
            }
            Overlay::None | Overlay::NewGame(_) | Overlay::GameOver => {}
            _ => return,
        }
        // While typing (a comment, a command), a paste is text to add.
        if self.input.is_none() && !self.in_progress() && self.load_text(&text, now) {
            return;
        }
        {
            let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
            match &mut self.input {
                Some(input) => input.push_str(&flat),
                None => self.input = Some(flat),
            }
        }
    }

    /// Load `text` if it is a FEN or a PGN; false when it is neither.
    pub(super) fn load_text(&mut self, text: &str, now: Instant) -> bool {
        let trimmed = text.trim();
        if trimmed.contains('/')
            && !trimmed.contains('[')
            && let Ok(position) = parse_fen(trimmed)
        {
            self.load_tree(crate::game::tree::GameTree::new(position), now);
            return true;
        }
        let looks_like_pgn = trimmed.starts_with('[') || trimmed.starts_with("1.");
        if !looks_like_pgn {
            return false;
        }
        let mut games = Vec::new();
        let read = read_games(trimmed.as_bytes(), &mut |tree| {
            games.push(tree);
            games.len() < 2
        });
        match (read, games.into_iter().next()) {
            (Ok(count), Some(tree)) if !tree.mainline().is_empty() || tree.error.is_some() => {
                let error = tree.error.as_ref().map(ToString::to_string);
                let notes = tree.notes_summary();
                self.load_tree(tree, now);
                match error.or(notes) {
                    Some(e) => self.say(e, Tone::Error),
                    None if count > 1 => {
                        self.say("Several games pasted: showing the first.", Tone::Info);
                    }
                    None => self.say("Pasted game loaded.", Tone::Info),
                }
                true
            }
            _ => false,
        }
    }

    /// Analyse `tree` (asking first if unsaved work would be dropped).
    pub(super) fn load_tree(&mut self, tree: GameTree, now: Instant) {
        if self.unsaved() {
            self.pending = Some(Pending::Tree(Box::new(tree)));
            self.overlay = Overlay::Confirm(Confirm::Discard);
            return;
        }
        self.analyse(tree, None, now);
    }

    /// The user agreed to drop unsaved changes: do what waited.
    /// The board's changes stay marked unsaved until something actually
    /// replaces them (a load can fail, a dialog can be left).
    pub(super) fn run_pending(&mut self, now: Instant) {
        match self.pending.take() {
            Some(Pending::Tree(tree)) => self.analyse(*tree, None, now),
            Some(Pending::LoadGame(path, number)) => {
                self.requests.push(Request::LoadGame { path, number });
            }
            Some(Pending::NewGame) => {
                self.overlay = Overlay::NewGame(super::NewGameForm::new(&self.settings, None));
            }
            None => {}
        }
    }

    // ----- saving ---------------------------------------------------------------

    /// Save the game. `path`: this game alone to that file (refusing to
    /// overwrite another file unless `force`); none: back into the file it
    /// came from (the whole file, the other games as they were read), or a
    /// new file in the data folder.
    pub(super) fn save_analysis(&mut self, path: Option<PathBuf>, force: bool) {
        let Some(analysis) = &self.analysis else {
            return;
        };
        let source = analysis.source.clone();
        let result = match (path, &source) {
            (Some(path), Some(src)) if same_file(&path, &src.path) => self
                .save_into(&src.path, src.number)
                .map(|(n, at)| (src.path.clone(), n, at)),
            (Some(path), _) => {
                if path.exists() && !force {
                    self.say(
                        format!(
                            "{} exists: :save! {} overwrites it",
                            path.display(),
                            path.display()
                        ),
                        Tone::Error,
                    );
                    return;
                }
                crate::fsutil::write_atomic(&path, analysis.tree.to_pgn())
                    .map(|()| (path, 1, 1))
                    .map_err(|e| e.to_string())
            }
            (None, Some(src)) => self
                .save_into(&src.path, src.number)
                .map(|(n, at)| (src.path.clone(), n, at)),
            (None, None) => {
                let Some(dirs) = &self.dirs else {
                    self.say("No data folder: save with :save PATH", Tone::Error);
                    return;
                };
                let (date, time) = super::date_and_time();
                let name = format!("analysis-{}-{time}.pgn", date.replace('.', ""));
                let path = dirs.data.join("games").join(name);
                crate::fsutil::write_atomic(&path, analysis.tree.to_pgn())
                    .map(|()| (path, 1, 1))
                    .map_err(|e| e.to_string())
            }
        };
        match result {
            Ok((path, games, number)) => {
                if let Some(analysis) = &mut self.analysis {
                    analysis.modified = false;
                    analysis.source = Some(GameSource {
                        path: path.clone(),
                        number,
                    });
                }
                let of = if games > 1 {
                    format!("game {number} of {games} in ")
                } else {
                    String::new()
                };
                self.say(format!("Saved {of}{}", path.display()), Tone::Info);
            }
            Err(e) => self.say(format!("Not saved: {e}"), Tone::Error),
        }
    }

    /// Write the file at `path` again with game `number` replaced by the
    /// tree on the board. Refuses when another game of the file has an
    /// unreadable move, since writing it back would cut that game short.
    /// Returns the number of games written and the game's number in them.
    fn save_into(&self, path: &Path, number: usize) -> Result<(usize, usize), String> {
        let Some(analysis) = &self.analysis else {
            return Err("nothing to save".into());
        };
        if let Some(error) = &analysis.tree.error {
            return Err(format!(
                "{error}; writing it back would drop the moves after it (save it alone with :save PATH)"
            ));
        }
        let bytes = crate::fsutil::read_capped(path, crate::fsutil::MAX_PGN_BYTES, "a PGN file")
            .map_err(|e| format!("{}: {}", path.display(), e.why))?;
        if std::str::from_utf8(&bytes).is_err() {
            return Err(format!(
                "{} is not UTF-8 text; writing it back would change the other games' names (save this game alone with :save PATH)",
                path.display()
            ));
        }
        let mut text = String::new();
        let mut count = 0;
        let mut problem = None;
        read_games(&bytes[..], &mut |tree| {
            count += 1;
            if count == number {
                text.push_str(&analysis.tree.to_pgn());
            } else if let Some(error) = &tree.error {
                problem = Some(format!(
                    "{error}; writing the file back would lose the rest of that game (save this game alone with :save PATH)"
                ));
                return false;
            } else {
                text.push_str(&tree.to_pgn());
            }
            text.push('\n');
            true
        })
        .map_err(|e| format!("{}: {e}", path.display()))?;
        if let Some(problem) = problem {
            return Err(problem);
        }
        let mut at = number;
        if count < number {
            // The game is new to the file (or the file shrank): append it.
            text.push_str(&analysis.tree.to_pgn());
            text.push('\n');
            count += 1;
            at = count;
        }
        crate::fsutil::write_atomic(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok((count, at))
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
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
