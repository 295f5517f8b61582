//! Going into teach mode and out of it, and what it asks of the app.

use std::time::Instant;

use ratatui::crossterm::event::KeyEvent;
use shakmaty::{Chess, Position};

use super::App;
use crate::engine::Command;
use crate::teach::{DEFAULT_DEPTH, Setup, positions};
use crate::tui::modes::Mode;
use crate::tui::modes::teach::Teach;
use crate::tui::modes::teach::keys::Asked;
use crate::tui::overlays::Overlay;
use crate::tui::overlays::teach_positions::{Picked, TeachPicker};
use crate::tui::shared::Tone;
use crate::tui::tasks::Request;

impl App {
    /// Teach the search on `position` at `depth`; Esc comes back to what is
    /// on the board now (a game is paused meanwhile).
    pub fn teach(&mut self, position: Chess, history: Vec<u64>, depth: u32, now: Instant) {
        if position.legal_moves().is_empty() {
            self.say(
                "The game is over in this position: there is no search to watch.",
                Tone::Error,
            );
            return;
        }
        let back = self.pause_for_teach(now);
        let setup = Setup {
            history,
            ..Setup::new(position, depth)
        };
        let teach = Teach::new(&mut self.cx, setup, "this position".into(), back);
        self.mode = Mode::Teach(Box::new(teach));
        self.cx.selected = None;
        self.say(
            "Teach mode: → steps through the search, ? lists the keys, p the positions.",
            Tone::Info,
        );
    }

    /// Teach the position on the board (the `T` key and `:teach`): the
    /// lesson left with Esc, as it was, while the board still shows its
    /// position; else a new one.
    pub fn teach_board(&mut self, now: Instant) {
        if let Mode::Teach(_) = self.mode {
            self.overlay = Overlay::TeachPositions(TeachPicker { choice: 0 });
            return;
        }
        let position = self.game.position().clone();
        if let Some(mut lesson) = self.lesson.take()
            && lesson.setup.position == position
        {
            let back = self.pause_for_teach(now);
            lesson.resume(&mut self.cx, back, now);
            let depth = lesson.setup.depth;
            let step = lesson.applied();
            self.mode = Mode::Teach(lesson);
            self.cx.selected = None;
            self.say(
                format!("Teach mode: back to the lesson, depth {depth}, step {step}."),
                Tone::Info,
            );
            return;
        }
        let history = self.game.history_keys();
        self.teach(position, history, DEFAULT_DEPTH, now);
    }

    /// Stop what runs on the board and hand back the mode to return to.
    fn pause_for_teach(&mut self, now: Instant) -> Mode {
        let mode = std::mem::replace(&mut self.mode, Mode::Play);
        match mode {
            Mode::Teach(old) => {
                self.cx.requests.push(Request::StopTeach);
                *old.back
            }
            Mode::Analyse(mut analysis) => {
                analysis.stop_review(&mut self.cx);
                if analysis.search.take().is_some() {
                    self.cx.outbox.push(Command::Stop);
                }
                Mode::Analyse(analysis)
            }
            Mode::Play => {
                self.cx.stop_search();
                if let Some(clock) = &mut self.cx.clock {
                    clock.pause(now);
                }
                Mode::Play
            }
        }
    }

    /// Back from teach mode to the game or analysis it interrupted.
    pub fn leave_teach(&mut self, now: Instant) {
        let Mode::Teach(mut teach) = std::mem::replace(&mut self.mode, Mode::Play) else {
            return;
        };
        self.cx.requests.push(Request::StopTeach);
        // The lesson is kept (depth, switches, step) for `T` to come back
        // to while the board shows its position.
        self.mode = std::mem::replace(&mut *teach.back, Mode::Play);
        teach.playing = None;
        self.lesson = Some(teach);
        self.message = None;
        self.dirty = true;
        match &mut self.mode {
            Mode::Analyse(analysis) => analysis.sync_board(&mut self.cx, now),
            Mode::Play if self.cx.started_game() => self.cx.continue_game(now),
            Mode::Play => {}
            Mode::Teach(_) => {}
        }
    }

    /// A key in teach mode; false when the board's shared keys may take it.
    pub(super) fn teach_key(&mut self, key: KeyEvent, now: Instant) -> bool {
        let Mode::Teach(teach) = &mut self.mode else {
            return false;
        };
        let asked = teach.key(&mut self.cx, key, now);
        self.teach_asked(asked, now)
    }

    /// Carry out what teach mode asked for; false when it took nothing.
    pub(super) fn teach_asked(&mut self, asked: Asked, now: Instant) -> bool {
        match asked {
            Asked::Taken => {}
            Asked::NotTaken => return false,
            Asked::Leave => self.leave_teach(now),
            Asked::Positions => {
                self.overlay = Overlay::TeachPositions(TeachPicker { choice: 0 });
            }
            Asked::Quit => {
                self.overlay = Overlay::Confirm(crate::tui::overlays::Confirm::Quit);
            }
        }
        true
    }

    /// A key in the list of teaching positions.
    pub(super) fn teach_positions_key(&mut self, mut picker: TeachPicker, key: KeyEvent) {
        let list = positions();
        match picker.key(key, list.len() + 1) {
            Picked::Keep => self.overlay = Overlay::TeachPositions(picker),
            Picked::Cancel => {}
            Picked::Row(row) => {
                let now = Instant::now();
                if let Mode::Teach(teach) = &mut self.mode {
                    let back_position = match &*teach.back {
                        Mode::Analyse(_) | Mode::Play => self.cx.game.position().clone(),
                        Mode::Teach(_) => teach.setup.position.clone(),
                    };
                    if row == 0 {
                        teach.setup.position = back_position;
                        teach.setup.history = self.cx.game.history_keys();
                        teach.title = "this position".into();
                        teach.description = None;
                    } else if let Some(p) = list.get(row - 1) {
                        teach.setup.position = p.position.clone();
                        teach.setup.history = Vec::new();
                        teach.setup.depth = p.depth;
                        teach.title = p.name.clone();
                        teach.description = Some(p.description.clone());
                    }
                    teach.rerecord(&mut self.cx, now);
                    let title = teach.title.clone();
                    self.say(format!("Teaching position: {title}."), Tone::Info);
                }
            }
        }
    }
}
