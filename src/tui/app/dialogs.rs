//! What the answers in the dialogs do.

use std::time::{Duration, Instant};

use ratatui::crossterm::event::KeyEvent;
use shakmaty::{Chess, Position, Square};

use crate::game::GameEnd;
use crate::tui::modes::Mode;
use crate::tui::overlays::game_list::ListKey;
use crate::tui::overlays::new_game::{ANALYSIS_CHOICE, FormKey, TEACH_CHOICE};
use crate::tui::overlays::open_file::OpenKey;
use crate::tui::overlays::promotion::{self, Choice};
use crate::tui::overlays::{Confirm, NewGameForm, OpenDialog, Overlay, resume};
use crate::tui::save::{Players, SavedGame};
use crate::tui::shared::{Pending, Tone};
use crate::tui::tasks::Request;

use super::App;

impl App {
    pub(super) fn new_game_key(&mut self, mut form: NewGameForm, key: KeyEvent, now: Instant) {
        match form.key(key, self.started) {
            FormKey::Keep => self.overlay = Overlay::NewGame(form),
            FormKey::Start => self.start_game(&form, now),
            FormKey::Back => self.continue_game(now),
            FormKey::Quit => self.quit = true,
        }
    }

    fn start_game(&mut self, form: &NewGameForm, now: Instant) {
        if form.side == TEACH_CHOICE {
            let start = match (&form.fen_start, form.use_fen) {
                (Some(position), true) => position.clone(),
                _ => Chess::default(),
            };
            // Esc from teach mode leads to the analysis board of the position.
            self.analyse_position(start.clone(), now);
            self.teach(start, Vec::new(), crate::teach::DEFAULT_DEPTH, now);
            if let Mode::Teach(_) = self.mode {
                self.overlay =
                    Overlay::TeachPositions(crate::tui::overlays::teach_positions::TeachPicker {
                        choice: 0,
                    });
            }
            return;
        }
        if form.side == ANALYSIS_CHOICE {
            let start = match (&form.fen_start, form.use_fen) {
                (Some(position), true) => position.clone(),
                _ => Chess::default(),
            };
            self.analyse_position(start, now);
            self.say(
                "Analysis board: move for either side; ? lists the keys.",
                Tone::Info,
            );
            return;
        }
        self.leave_analysis();
        self.cx.start_game(form, now);
    }

    pub(super) fn resume_key(&mut self, saved: SavedGame, key: KeyEvent, now: Instant) {
        match resume::answer(key) {
            Some(true) => match saved.restore() {
                Ok((game, players, time_control)) => {
                    let times = (
                        Duration::from_millis(saved.white_ms),
                        Duration::from_millis(saved.black_ms),
                    );
                    self.cx.begin(game, players, time_control, Some(times), now);
                    self.say("Game resumed.", Tone::Info);
                }
                Err(e) => {
                    self.say(format!("Cannot resume: {e}"), Tone::Error);
                    self.overlay = Overlay::NewGame(NewGameForm::new(&self.settings, None));
                }
            },
            Some(false) => {
                self.overlay = Overlay::NewGame(NewGameForm::new(&self.settings, None));
            }
            None => self.overlay = Overlay::Resume(Box::new(saved)),
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
            Choice::Keep(choice) => self.overlay = Overlay::Promotion { from, to, choice },
            Choice::Cancel => self.selected = None,
            Choice::Pick(role) => {
                let m = self
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
        match Confirm::answer(key) {
            None => self.overlay = Overlay::Confirm(question),
            Some(false) if question == Confirm::DrawOffer => {
                self.say("The draw offer is declined.", Tone::Info);
            }
            Some(false) if question == Confirm::Discard => self.pending = None,
            Some(false) => {}
            Some(true) => self.confirmed(question, now),
        }
    }

    fn confirmed(&mut self, question: Confirm, now: Instant) {
        match question {
            Confirm::Quit | Confirm::QuitUnsaved => self.leave(now),
            Confirm::Discard => self.run_pending(now),
            Confirm::Delete => {
                if let Mode::Analyse(analysis) = &mut self.mode {
                    analysis.delete_here(&mut self.cx, now);
                }
            }
            Confirm::Abandon => {
                // The old game waits, clocks stopped, while the dialog is open.
                self.cx.stop_search();
                if let Some(clock) = &mut self.cx.clock {
                    clock.pause(now);
                }
                self.overlay = Overlay::NewGame(NewGameForm::new(&self.settings, None));
            }
            Confirm::Resign => {
                let resigner = match self.players {
                    Players::VsEngine { human, .. } => human,
                    Players::TwoHumans => self.game.position().turn(),
                };
                self.cx
                    .finish(GameEnd::Resignation { winner: !resigner }, now);
            }
            Confirm::DrawOffer => self.cx.finish(GameEnd::Agreement, now),
        }
    }

    pub(super) fn game_list_key(&mut self, key: KeyEvent) {
        let page = usize::from(self.size.1.saturating_sub(8)).max(1);
        let unsaved = self.unsaved();
        let started = self.started;
        let Some(list) = &mut self.cx.game_list else {
            return;
        };
        match list.key(key, page) {
            ListKey::Keep => self.overlay = Overlay::GameList,
            // Nothing open yet: back to the start dialog, not a blank board.
            ListKey::Close if !started => {
                self.overlay = Overlay::NewGame(NewGameForm::new(&self.settings, None));
            }
            ListKey::Close => {}
            ListKey::Open(path, number) if unsaved => {
                self.pending = Some(Pending::LoadGame(path, number));
                self.overlay = Overlay::Confirm(Confirm::Discard);
            }
            ListKey::Open(path, number) => {
                self.requests.push(Request::LoadGame { path, number });
            }
        }
    }

    pub(super) fn open_key(&mut self, mut dialog: OpenDialog, key: KeyEvent) {
        match dialog.key(key, &self.cx.recent) {
            OpenKey::Keep => self.overlay = Overlay::Open(dialog),
            OpenKey::Close => {}
            OpenKey::Open(path) => self.open_path(path, None),
        }
    }
}
