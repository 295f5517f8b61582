//! Games from files and pastes onto the analysis board.

use std::path::PathBuf;
use std::time::Instant;

use crate::game::fen::parse_fen;
use crate::game::import::read_games;
use crate::game::tree::GameTree;
use crate::tui::modes::analyse::GameSource;
use crate::tui::overlays::{Confirm, Overlay};
use crate::tui::shared::{Pending, Tone};
use crate::tui::tasks::Request;

use super::App;

impl App {
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
                self.cx.services.remember(&path);
                let name = path.display().to_string();
                // The file as it is now, just read: a save into it later
                // checks that no other program has changed it since.
                let seen = crate::fsutil::Fingerprint::of_file(&path);
                self.analyse(tree, Some(GameSource { path, number, seen }), now);
                match (error, notes) {
                    (Some(e), _) => self.cx.say(e, Tone::Error),
                    (None, Some(note)) => {
                        self.cx
                            .say(format!("Game {number} of {name}: {note}"), Tone::Info);
                    }
                    (None, None) => self.cx.say(format!("Game {number} of {name}"), Tone::Info),
                }
            }
            Err(e) => self.cx.say(e, Tone::Error),
        }
    }

    /// Text pasted into the terminal (bracketed paste).
    pub(super) fn paste(&mut self, text: String, now: Instant) {
        match &mut self.cx.overlay {
            Overlay::Open(dialog) => {
                dialog.input.push_str(text.trim());
                return;
            }
            Overlay::GameList => {
                if let Some(list) = &mut self.cx.game_list {
                    list.query.push_str(text.trim());
                    list.refilter(true);
                }
                return;
            }
            Overlay::None | Overlay::NewGame(_) | Overlay::GameOver => {}
            _ => return,
        }
        // While typing (a comment, a command), a paste is text to add.
        if self.cx.input.is_none() && !self.in_progress() && self.load_text(&text, now) {
            return;
        }
        {
            let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
            match &mut self.cx.input {
                Some(input) => input.push_str(&flat),
                None => self.cx.input = Some(flat),
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
                    Some(e) => self.cx.say(e, Tone::Error),
                    None if count > 1 => {
                        self.cx
                            .say("Several games pasted: showing the first.", Tone::Info);
                    }
                    None => self.cx.say("Pasted game loaded.", Tone::Info),
                }
                true
            }
            _ => false,
        }
    }

    /// Analyse `tree` (asking first if unsaved work would be dropped).
    pub(super) fn load_tree(&mut self, tree: GameTree, now: Instant) {
        if self.unsaved() {
            self.cx.pending = Some(Pending::Tree(Box::new(tree)));
            self.cx.overlay = Overlay::Confirm(Confirm::Discard);
            return;
        }
        self.analyse(tree, None, now);
    }

    /// The user agreed to drop unsaved changes: do what waited.
    /// The board's changes stay marked unsaved until something actually
    /// replaces them (a load can fail, a dialog can be left).
    pub(super) fn run_pending(&mut self, now: Instant) {
        match self.cx.pending.take() {
            Some(Pending::Tree(tree)) => self.analyse(*tree, None, now),
            Some(Pending::LoadGame(path, number)) => {
                self.cx.request(Request::LoadGame { path, number });
            }
            Some(Pending::LoadDbGame(path, id, at)) => {
                self.cx
                    .request(Request::Db(crate::tui::db_worker::DbRequest::LoadGame {
                        path,
                        id,
                        at,
                    }));
            }
            Some(Pending::NewGame) => {
                self.cx.overlay = Overlay::NewGame(self.cx.services.new_game_form(None));
            }
            None => {}
        }
    }
}
