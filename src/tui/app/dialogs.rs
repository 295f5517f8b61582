//! The dialogs' keys: the new game, resuming, promotion, yes/no questions,
//! the game list and the open-file dialog. Each dialog turns a key into a
//! choice; this is where the app acts on it.

use std::time::Instant;

use ratatui::crossterm::event::KeyEvent;
use shakmaty::Square;

use crate::tui::modes::switch;
use crate::tui::overlays::game_list::ListKey;
use crate::tui::overlays::new_game::FormKey;
use crate::tui::overlays::open_file::OpenKey;
use crate::tui::overlays::promotion::{self, Choice};
use crate::tui::overlays::{Confirm, NewGameForm, OpenDialog, Overlay, resume};
use crate::tui::save::SavedGame;
use crate::tui::shared::{Pending, Tone};
use crate::tui::tasks::Request;

use super::App;

impl App {
    pub(super) fn new_game_key(&mut self, mut form: NewGameForm, key: KeyEvent, now: Instant) {
        match form.key(key, self.cx.started) {
            FormKey::Keep => self.cx.overlay = Overlay::NewGame(form),
            FormKey::Start => switch::start(&mut self.mode, &mut self.cx, &form, now),
            // Back to what the dialog interrupted.
            FormKey::Back => {
                let cx = &mut self.cx;
                self.mode.get_mut().enter(cx, now);
            }
            FormKey::Quit => self.cx.quit = true,
        }
    }

    pub(super) fn resume_key(&mut self, saved: SavedGame, key: KeyEvent, now: Instant) {
        let new_game = |app: &mut App| {
            app.cx.overlay = Overlay::NewGame(NewGameForm::new(&app.cx.services.settings, None));
        };
        match resume::answer(key) {
            Some(true) => match switch::resume(&mut self.mode, &mut self.cx, &saved, now) {
                Ok(()) => self.cx.say("Game resumed.", Tone::Info),
                Err(e) => {
                    self.cx.say(format!("Cannot resume: {e}"), Tone::Error);
                    new_game(self);
                }
            },
            Some(false) => new_game(self),
            None => self.cx.overlay = Overlay::Resume(Box::new(saved)),
        }
    }

    pub(super) fn promotion_key(
        &mut self,
        from: Square,
        to: Square,
        choice: usize,
        key: KeyEvent,
        now: Instant,
    ) {
        match promotion::key(choice, key) {
            Choice::Keep(choice) => self.cx.overlay = Overlay::Promotion { from, to, choice },
            Choice::Cancel => self.cx.board.selected = None,
            Choice::Pick(role) => {
                let m = self
                    .cx
                    .board
                    .moves_from(from)
                    .into_iter()
                    .find(|m| m.to() == to && m.promotion() == Some(role));
                if let Some(m) = m {
                    self.play(m, now);
                }
            }
        }
    }

    pub(super) fn confirm_key(&mut self, question: Confirm, key: KeyEvent, now: Instant) {
        let Some(yes) = Confirm::answer(key) else {
            self.cx.overlay = Overlay::Confirm(question);
            return;
        };
        match question {
            Confirm::Quit | Confirm::QuitUnsaved if yes => self.leave(now),
            Confirm::Quit | Confirm::QuitUnsaved => {}
            Confirm::Discard if yes => self.run_pending(now),
            Confirm::Discard => self.cx.pending = None,
            // The mode's own questions: resign, a draw, delete a move...
            _ => {
                let cx = &mut self.cx;
                self.mode.get_mut().answered(cx, question, yes, now);
            }
        }
    }

    pub(super) fn game_list_key(&mut self, key: KeyEvent) {
        let page = usize::from(self.cx.size.1.saturating_sub(8)).max(1);
        let unsaved = self.unsaved();
        let cx = &mut self.cx;
        let Some(list) = &mut cx.game_list else {
            return;
        };
        match list.key(key, page) {
            ListKey::Keep => cx.overlay = Overlay::GameList,
            ListKey::Close if !cx.started => {
                cx.overlay = Overlay::NewGame(NewGameForm::new(&cx.services.settings, None));
            }
            ListKey::Close => {}
            ListKey::Open(path, number) if unsaved => {
                cx.pending = Some(Pending::LoadGame(path, number));
                cx.overlay = Overlay::Confirm(Confirm::Discard);
            }
            ListKey::Open(path, number) => {
                cx.request(Request::LoadGame { path, number });
            }
        }
    }

    pub(super) fn open_key(&mut self, mut dialog: OpenDialog, key: KeyEvent) {
        match dialog.key(key, &self.cx.services.recent) {
            OpenKey::Keep => self.cx.overlay = Overlay::Open(dialog),
            OpenKey::Close => {}
            OpenKey::Open(path) => self.open_path(path, None),
        }
    }
}
