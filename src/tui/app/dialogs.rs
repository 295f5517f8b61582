//! The dialogs' keys: the new game, resuming, promotion, yes/no questions,
//! the game list and the open-file dialog. Each dialog turns a key into a
//! choice; this is where the app acts on it.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use shakmaty::san::San;
use shakmaty::{Chess, Position, Square};

use crate::review::batch::{self, Study};
use crate::tui::modes::analyse::REVIEW_MOVETIME_MS;

use crate::tui::db_worker::DbRequest;
use crate::tui::modes::switch;
use crate::tui::overlays::game_list::ListKey;
use crate::tui::overlays::new_game::FormKey;
use crate::tui::overlays::open_file::OpenKey;
use crate::tui::overlays::promotion::{self, Choice};
use crate::tui::overlays::review_all::{ReviewAll, ReviewAllKey};
use crate::tui::overlays::{Confirm, NewGameForm, OpenDialog, Overlay, resume};
use crate::tui::save::SavedGame;
use crate::tui::shared::lesson::Mistake;
use crate::tui::shared::{Lesson, Pending, Switch, Tone};
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
            app.cx.overlay = Overlay::NewGame(app.cx.services.new_game_form(None));
        };
        match resume::answer(key) {
            Some(true) => match switch::resume(&mut self.mode, &mut self.cx, &saved, now) {
                Ok(()) => {
                    let services = &mut self.cx.services;
                    let mut said = "Game resumed.".to_string();
                    // Its file becomes this board's autosave (renamed, so
                    // the game is in a file all along).
                    if let Some(unfinished) = services.unfinished.pop_front()
                        && let Some(slot) = &services.autosave
                    {
                        let from = unfinished.path.display().to_string();
                        if let Err(e) = slot.adopt(unfinished) {
                            said = format!("Game resumed; {from} stays as it was ({e}).");
                        }
                    }
                    // The others are offered at the next start.
                    let more = services.unfinished.len();
                    if more > 0 {
                        said.push_str(&format!(
                            " {} offered at the next start.",
                            crate::core::counted(
                                more as u64,
                                "more unfinished game is",
                                "more unfinished games are"
                            )
                        ));
                    }
                    services.unfinished.clear();
                    self.cx.say(said, Tone::Info);
                }
                Err(e) => {
                    self.cx.say(format!("Cannot resume: {e}"), Tone::Error);
                    new_game(self);
                }
            },
            Some(false) => {
                // Not resumed: kept as a PGN in games/, not offered again.
                if let Some(unfinished) = self.cx.services.unfinished.pop_front()
                    && let Some(dirs) = &self.cx.services.dirs
                {
                    let from = unfinished.path.display().to_string();
                    match unfinished.keep_as_pgn(&dirs.data) {
                        Ok(kept) => self.cx.say(
                            format!(
                                "Not resumed: kept as games/{}",
                                kept.file_name().unwrap_or_default().to_string_lossy()
                            ),
                            Tone::Info,
                        ),
                        Err(e) => self.cx.say(
                            format!("The unfinished game stays in {from}: {e}"),
                            Tone::Error,
                        ),
                    }
                }
                match self.cx.services.unfinished.front() {
                    Some(next) => self.cx.overlay = Overlay::Resume(Box::new(next.saved.clone())),
                    None => new_game(self),
                }
            }
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
            Confirm::StopReviewAll => self.stop_review_all(yes),
            // The mode's own questions: resign, a draw, delete a move...
            _ => {
                let cx = &mut self.cx;
                self.mode.get_mut().answered(cx, question, yes, now);
            }
        }
    }

    pub(super) fn game_list_key(&mut self, key: KeyEvent, now: Instant) {
        let page = usize::from(self.cx.size.1.saturating_sub(8)).max(1);
        let unsaved = self.unsaved();
        let cx = &mut self.cx;
        let Some(list) = &mut cx.game_list else {
            return;
        };
        let database = list.database.is_some();
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('r') {
            if database {
                cx.overlay = Overlay::GameList;
                cx.say(
                    "Ctrl-R reviews the games of a PGN file; these are from the database.",
                    Tone::Info,
                );
                return;
            }
            let path = list.path.clone();
            self.review_all(path, now);
            return;
        }
        match list.key(key, page) {
            // A game of the database: its number is its id.
            ListKey::Open(path, id) if database => {
                let id = i64::try_from(id).unwrap_or(0);
                let at = list.reached.clone().map(Box::new);
                if unsaved {
                    cx.pending = Some(Pending::LoadDbGame(path, id, at));
                    cx.overlay = Overlay::Confirm(Confirm::Discard);
                } else {
                    if !cx.started {
                        cx.overlay = Overlay::GameList;
                    }
                    cx.request(Request::Db(DbRequest::LoadGame { path, id, at }));
                }
            }
            ListKey::Keep => cx.overlay = Overlay::GameList,
            // `kibitz db games --open`: the list was all there was to do.
            ListKey::Close if !cx.started && database => cx.quit = true,
            ListKey::Close if !cx.started => {
                cx.overlay = Overlay::NewGame(cx.services.new_game_form(None));
            }
            ListKey::Close => {}
            ListKey::Open(path, number) if unsaved => {
                cx.pending = Some(Pending::LoadGame(path, number));
                cx.overlay = Overlay::Confirm(Confirm::Discard);
            }
            ListKey::Open(path, number) => {
                // Before anything is on the board, the list stays until
                // the game is there (or says why it is not).
                if !cx.started {
                    cx.overlay = Overlay::GameList;
                }
                cx.request(Request::LoadGame { path, number });
            }
        }
    }

    /// The game list's Ctrl-R: review every game of its file. The same
    /// file's review, under way or complete, is shown again; a stopped one
    /// goes on from the game after the last one it finished.
    fn review_all(&mut self, path: PathBuf, now: Instant) {
        let cx = &mut self.cx;
        cx.overlay = Overlay::ReviewAll;
        let movetime = Duration::from_millis(REVIEW_MOVETIME_MS);
        let threads = batch::default_threads();
        match cx.review_all.as_mut() {
            Some(review) if review.path == path && !review.stopped() => {}
            Some(review) if review.path == path => {
                let skip = review.games.len();
                let id = cx.engine.start(|id| Request::ReviewAll {
                    id,
                    path: path.clone(),
                    movetime: review.movetime,
                    threads: review.threads,
                    skip,
                });
                review.resume(id, now);
                cx.say(
                    format!("Review taken up again after game {skip}."),
                    Tone::Info,
                );
            }
            _ => {
                if let Some(old) = cx.review_all.take() {
                    cx.engine.cancel(old.id);
                }
                let id = cx.engine.start(|id| Request::ReviewAll {
                    id,
                    path: path.clone(),
                    movetime,
                    threads,
                    skip: 0,
                });
                // The game list read the whole file: the review's length is
                // known before its first game is done.
                let plies = cx
                    .game_list
                    .as_ref()
                    .filter(|list| list.path == path && list.done && list.error.is_none())
                    .map(|list| list.games.iter().map(|g| g.plies).collect());
                let review = ReviewAll::new(path, id, movetime, threads, now)
                    .with_aliases(&cx.services.settings.aliases);
                cx.review_all = Some(match plies {
                    Some(plies) => review.with_plies(plies),
                    None => review,
                });
            }
        }
    }

    pub(super) fn review_all_key(&mut self, key: KeyEvent) {
        let page = usize::from(self.cx.size.1.saturating_sub(8)).max(1);
        let unsaved = self.unsaved();
        let cx = &mut self.cx;
        let Some(review) = &mut cx.review_all else {
            return;
        };
        match review.key(key, page) {
            ReviewAllKey::Keep => cx.overlay = Overlay::ReviewAll,
            // Closing a review under way stops it: asked first.
            ReviewAllKey::Close if !review.done => {
                cx.overlay = Overlay::Confirm(Confirm::StopReviewAll);
            }
            // Back to the game list it was opened from.
            ReviewAllKey::Close => cx.overlay = Overlay::GameList,
            ReviewAllKey::OpenGame(path, number) if unsaved => {
                cx.pending = Some(Pending::LoadGame(path, number));
                cx.overlay = Overlay::Confirm(Confirm::Discard);
            }
            ReviewAllKey::OpenGame(path, number) => {
                cx.request(Request::LoadGame { path, number });
            }
            ReviewAllKey::Study(study) => match study_lesson(&study) {
                Ok(mut lesson) => {
                    // Esc from the lesson comes back to this report.
                    lesson.back_to_report = true;
                    cx.switch(Switch::Lesson(Box::new(lesson)));
                }
                Err(e) => {
                    cx.overlay = Overlay::ReviewAll;
                    cx.say(e, Tone::Error);
                }
            },
        }
    }

    /// The answer to "stop the review?": yes stops it and goes back to the
    /// game list (Ctrl-R there takes it up again), no goes back to its
    /// report.
    fn stop_review_all(&mut self, yes: bool) {
        let cx = &mut self.cx;
        let Some(review) = &cx.review_all else {
            return;
        };
        if !yes {
            cx.overlay = Overlay::ReviewAll;
            return;
        }
        // Back to the game list, where Ctrl-R takes the review up again.
        cx.overlay = Overlay::GameList;
        if review.done {
            return;
        }
        cx.engine.cancel(review.id);
        let reviewed = review.games.len();
        let total = review
            .total
            .map_or_else(String::new, |t| format!(" of {t}"));
        cx.say(
            format!(
                "Review stopped at {reviewed}{total} games; Ctrl-R in the game list resumes it."
            ),
            Tone::Info,
        );
    }

    pub(super) fn open_key(&mut self, mut dialog: OpenDialog, key: KeyEvent) {
        match dialog.key(key) {
            OpenKey::Keep => self.cx.overlay = Overlay::Open(dialog),
            OpenKey::Close => {}
            OpenKey::Open(path) => self.open_path(path, None),
        }
    }
}

/// The lesson of a position to study from the whole-file review.
fn study_lesson(study: &Study) -> Result<Lesson, String> {
    let position: Chess = crate::game::fen::parse_fen(&study.fen)
        .map_err(|e| format!("Cannot open the position: {e}"))?;
    let find = |san: &str| -> Option<shakmaty::Move> {
        let plain = san.trim_end_matches(['+', '#', '!', '?']);
        San::from_ascii(plain.as_bytes())
            .ok()?
            .to_move(&position)
            .ok()
    };
    let played = find(&study.played);
    let best = study.best.as_deref().and_then(find);
    let (Some(played), Some(best)) = (played, best) else {
        return Err(format!(
            "No lesson for {}: the review named no better move there.",
            study.played
        ));
    };
    Ok(Lesson::of_mistake(Mistake {
        position: &position,
        history: Vec::new(),
        played,
        best,
        class: study.class,
        move_number: study.move_number,
        mover: position.turn(),
        margin_cp: study.margin_cp,
    }))
}
