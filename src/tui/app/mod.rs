//! `App`: the shared state, the mode, and the one place they change
//! (`update`). Drawing reads it and never changes it. `App` talks to the
//! engine only through the engine link's outbox, which the event loop
//! sends, so the whole interface can be driven in tests without a thread or
//! a terminal.
//!
//! A message goes to the open dialog first, then the command line, then the
//! mode (once: `mode.get_mut()`), and what the mode leaves to the board's
//! shared keys. The screen is drawn again after every message but a clock
//! tick that changed nothing or a report of a stale search.

mod backdrop;
mod commands;
pub mod database;
mod describe;
mod dialogs;
mod files;
mod map_export;
mod side;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;
use shakmaty::{Chess, Move, Position, Square};

use crate::book::{Book, BookOptions};
use crate::config::{Dirs, Settings};
use crate::engine::movetables::TableWeights;
use crate::engine::{Command, Report};
use crate::game::tree::GameTree;

use super::layout::{self, Screen};
use super::modes::Mode;
use super::modes::play::Play;
use super::modes::switch::{self, Lesson};
use super::msg::Msg;
use super::save::SavedGame;
use super::shared::{Shared, destination};

pub use super::msg::ListEvent;
pub use super::overlays::promotion::PROMOTION_ROLES;
pub use super::overlays::{Confirm, NewGameForm, OpenDialog, Overlay};
pub use super::shared::Tone;
pub use super::tasks::Request;

pub struct App {
    /// What every mode shares.
    pub cx: Shared,
    pub mode: Mode,
    /// The lesson left with Esc (see `modes/switch.rs`).
    lesson: Lesson,
    /// The screen must be drawn again.
    dirty: bool,
}

impl App {
    /// A new interface. `dirs` = `None` keeps everything in memory (tests).
    /// `fen_start` is a position given on the command line.
    pub fn new(
        settings: Settings,
        dirs: Option<Dirs>,
        fen_start: Option<Chess>,
        resume: Option<SavedGame>,
        size: (u16, u16),
    ) -> App {
        let mode = Play::new(settings.level).into();
        let mut cx = Shared::new(settings, dirs, Overlay::None, size);
        cx.services.given = fen_start.clone();
        // The dialog starts with the last game's choices, read with the
        // data folder.
        let form = cx.services.new_game_form(fen_start);
        cx.overlay = match resume {
            Some(saved) if form.fen_start.is_none() => Overlay::Resume(Box::new(saved)),
            _ => Overlay::NewGame(form),
        };
        let mut app = App {
            cx,
            mode,
            lesson: None,
            dirty: true,
        };
        app.backdrop();
        app
    }

    /// The mode has changes that are not saved.
    pub fn unsaved(&self) -> bool {
        self.mode.get().unsaved()
    }

    /// A game is on and not finished.
    pub fn in_progress(&self) -> bool {
        self.mode.get().in_progress(&self.cx)
    }

    /// Whether the person at the keyboard may move now.
    pub fn human_to_move(&self) -> bool {
        self.mode.get().human_to_move(&self.cx)
    }

    /// The screen's layout for the terminal's size (as the last resize
    /// said) and the mode.
    pub fn screen(&self) -> Option<Screen> {
        let (width, height) = self.cx.size;
        self.screen_in(Rect::new(0, 0, width, height))
    }

    /// The screen's layout in `area` for the mode. Drawing lays out in the
    /// frame it is given: a terminal resized again since its last resize
    /// event has a frame of another size than the one the board heard of.
    pub fn screen_in(&self, area: Rect) -> Option<Screen> {
        layout::screen_sized(area, self.mode.get().max_square(area.height))
    }

    /// Whether the event loop should send ticks: running clocks, auto-play.
    pub fn needs_ticks(&self) -> bool {
        self.mode.get().needs_ticks()
    }

    /// The move tables the map shows.
    pub fn map_tables(&self) -> Option<&TableWeights> {
        self.mode.get().map_tables(&self.cx)
    }

    /// Whether the screen must be drawn again; clears the flag.
    pub fn take_dirty(&mut self) -> bool {
        std::mem::replace(&mut self.dirty, false)
    }

    /// Files to read and threads to start, asked for by the last updates.
    pub fn take_requests(&mut self) -> Vec<Request> {
        self.cx.take_requests()
    }

    /// Commands for the engine produced by the last updates.
    pub fn take_commands(&mut self) -> Vec<Command> {
        self.cx.take_commands()
    }

    /// Use `book` (or none) for the book panel and the engine's moves.
    pub fn set_book(&mut self, book: Option<Arc<Book>>, options: BookOptions) {
        self.cx.set_book(book, options);
        self.dirty = true;
    }

    /// Seed the random choices (side "Random") for repeatable tests.
    pub fn seed(&mut self, seed: u64) {
        self.cx.seed(seed);
    }

    /// Open a PGN file: game `number`, or the game list (a file of one game
    /// opens that game).
    pub fn open_path(&mut self, path: PathBuf, number: Option<usize>) {
        let unsaved = self.unsaved();
        self.cx.open_path(path, number, unsaved);
        self.dirty = true;
    }

    /// Start a fresh analysis from `position`.
    pub fn analyse_position(&mut self, position: Chess, now: Instant) {
        switch::analyse(
            &mut self.mode,
            &mut self.cx,
            GameTree::new(position),
            None,
            true,
            now,
        );
        self.dirty = true;
    }

    /// The analysis board with `tree`, another game than the one before.
    fn analyse(
        &mut self,
        tree: GameTree,
        source: Option<super::modes::analyse::GameSource>,
        now: Instant,
    ) {
        switch::analyse(&mut self.mode, &mut self.cx, tree, source, true, now);
    }

    /// Teach the search on `position` at `depth`; Esc comes back to what is
    /// on the board now.
    pub fn teach(&mut self, position: Chess, history: Vec<u64>, depth: u32, now: Instant) {
        let setup = crate::teach::Setup {
            history,
            ..crate::teach::Setup::new(position, depth)
        };
        self.teach_lesson(setup, None, now);
    }

    /// The course screen (`kibitz learn`), over teach mode on the start
    /// position; Esc from the lesson leads to its analysis board.
    pub fn open_course(&mut self, now: Instant) {
        let start = shakmaty::Chess::default();
        self.analyse_position(start.clone(), now);
        let setup = crate::teach::Setup::new(start, crate::teach::DEFAULT_DEPTH);
        self.teach_lesson(setup, None, now);
        if let Some(teach) = self.mode.teach_mut() {
            teach.open_course(&mut self.cx);
        }
    }

    /// Teach `setup` (its techniques as given), opening at `step` once
    /// recorded.
    pub fn teach_lesson(&mut self, setup: crate::teach::Setup, step: Option<usize>, now: Instant) {
        switch::teach(&mut self.mode, &mut self.cx, setup, step, now);
        self.dirty = true;
    }

    /// The lesson open in teach mode is about one move: its title and
    /// note, and it opens where the search tries the move once recorded
    /// (as a reviewed mistake's lesson does).
    pub fn focus_lesson(&mut self, focus: crate::teach::Focus) {
        if let Some(teaching) = self.mode.teach_mut() {
            teaching.title = focus.title;
            teaching.note = Some(focus.note);
            teaching.goto_on_record = Some(focus.goto);
        }
    }

    /// Teach the position on the board (`T`, `:teach`).
    fn teach_board(&mut self, now: Instant) {
        switch::teach_board(&mut self.mode, &mut self.lesson, &mut self.cx, now);
    }

    pub fn update(&mut self, msg: Msg, now: Instant) {
        let redraw = match msg {
            Msg::Key(key, _) => {
                let pressed = key.kind != KeyEventKind::Release;
                if pressed {
                    let problem = self.cx.showing_problem();
                    self.key(key, now);
                    // The problems found while starting, one a key, unless
                    // the key had something of its own to say.
                    if problem {
                        self.cx.next_problem();
                    }
                }
                pressed
            }
            Msg::Mouse(mouse) => {
                self.mouse(mouse, now);
                // A pointer moving over the screen changes nothing drawn.
                mouse.kind != MouseEventKind::Moved
            }
            Msg::Resize(w, h) => {
                self.cx.size = (w, h);
                true
            }
            Msg::Engine(report) => self.report(report, now),
            Msg::Tick => {
                let cx = &mut self.cx;
                self.mode.get_mut().tick(cx, now)
            }
            msg @ (Msg::Recorded { .. }
            | Msg::Compared { .. }
            | Msg::Review { .. }
            | Msg::ReviewDone { .. }
            | Msg::GameTables { .. }
            | Msg::GameTablesDone { .. }) => {
                let cx = &mut self.cx;
                self.mode.get_mut().task(cx, msg, now);
                true
            }
            Msg::Notice(text) => {
                self.cx.say(text, Tone::Error);
                true
            }
            Msg::TableProgress { table, fraction } => {
                if self.cx.services.making.progress(table, fraction) {
                    self.cx.say(
                        "Endgame tables ready: the engine and the tables panel use them.",
                        Tone::Info,
                    );
                }
                true
            }
            Msg::Tablebases(tables) => {
                self.cx.services.tablebases = Some(Arc::clone(&tables));
                self.cx.engine.send(Command::SetTablebases(Some(tables)));
                true
            }
            Msg::Paste(text) => {
                self.paste(text, now);
                true
            }
            Msg::ReviewAll { id, event } => {
                if let Some(review) = self.cx.review_all.as_mut().filter(|r| r.id == id) {
                    review.event(event, now);
                }
                true
            }
            Msg::GameList { id, event } => {
                self.cx.list_event(id, event);
                true
            }
            Msg::GameLoaded {
                path,
                number,
                result,
            } => {
                self.game_loaded(path, number, result, now);
                true
            }
            Msg::Db(reply) => {
                self.db_reply(*reply, now);
                true
            }
            Msg::Terminate => {
                self.leave(now);
                true
            }
        };
        if let Some(asked) = self.cx.switch.take() {
            switch::carry_out(&mut self.mode, &mut self.lesson, &mut self.cx, asked, now);
        }
        self.dialog_before_anything();
        self.backdrop();
        let services = &mut self.cx.services;
        // (Not for a position only drawn behind a dialog.)
        if self.cx.started
            && !services.near_tables
            && self.cx.board.game.position().board().occupied().count() <= 5
        {
            services.near_tables = true;
            self.cx.near_tables_reached();
        }
        let position = self.mode.get().panel_position(&self.cx).clone();
        self.cx.refresh_tablebase_view(&position);
        self.refresh_explorer();
        self.dirty |= redraw;
    }

    /// A report of the engine: the mode hears it if it answers its running
    /// search. True when it did (the screen may change).
    fn report(&mut self, report: Report, now: Instant) -> bool {
        if !self.cx.engine.accept(&report) {
            return false;
        }
        let cx = &mut self.cx;
        self.mode.get_mut().report(cx, report, now);
        true
    }

    /// Play `m` for the side to move (already known legal or refused here).
    fn play(&mut self, m: Move, now: Instant) {
        let cx = &mut self.cx;
        self.mode.get_mut().play(cx, m, now);
    }

    /// Quit, letting the mode keep what must be kept (a game in progress
    /// is autosaved with its clocks as they stand).
    fn leave(&mut self, now: Instant) {
        let cx = &mut self.cx;
        self.mode.get_mut().quit(cx, now);
        self.cx.quit = true;
    }

    /// Try to move the selected piece to `to`: plays it, asks for the
    /// promotion piece, or returns false when it is not a legal target.
    fn try_move(&mut self, from: Square, to: Square, now: Instant) -> bool {
        let mut candidates: Vec<Move> = self
            .cx
            .board
            .moves_from(from)
            .into_iter()
            .filter(|&m| destination(m) == to || (m.is_castle() && m.to() == to))
            .collect();
        // In Chess960 the king's castling square can also be an ordinary
        // king move: the square then means that move, and castling is the
        // king put onto its rook.
        if candidates.iter().any(|m| !m.is_castle()) {
            candidates.retain(|m| !m.is_castle() || m.to() == to);
        }
        match candidates.as_slice() {
            [] => false,
            [m] => {
                self.play(*m, now);
                true
            }
            _ => {
                // Several moves between the same squares: a promotion.
                self.cx.overlay = Overlay::Promotion {
                    from,
                    to,
                    choice: 0,
                };
                true
            }
        }
    }

    /// Enter or Space on the cursor, or a click: pick up or put down.
    fn activate(&mut self, square: Square, now: Instant) {
        if !self.human_to_move() {
            if let Some(why) = self.mode.get().why_no_move(&self.cx, false) {
                self.cx.say(why, Tone::Info);
            }
            return;
        }
        let selected = self.cx.board.selected;
        match selected {
            Some(from) if from == square => self.cx.board.selected = None,
            Some(from) if self.try_move(from, square, now) => {}
            _ if self.cx.board.own_piece(square) => {
                self.cx.board.selected = Some(square);
                if self.cx.board.moves_from(square).is_empty() {
                    self.cx.say("That piece has no legal move.", Tone::Info);
                }
            }
            Some(_) => self.cx.board.selected = None,
            None => {}
        }
    }

    fn key(&mut self, key: KeyEvent, now: Instant) {
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            // Ctrl-C leaves at once; the autosave keeps the game. Unsaved
            // analysis is not autosaved: the first Ctrl-C asks, a second
            // one quits.
            if self.unsaved() && self.cx.overlay != Overlay::Confirm(Confirm::QuitUnsaved) {
                self.cx.overlay = Overlay::Confirm(Confirm::QuitUnsaved);
                return;
            }
            self.leave(now);
            return;
        }
        if self.screen().is_none() {
            // Only the "too small" message is on screen: nothing acts (Ctrl-C,
            // above, still quits, keeping the game in the autosave).
            return;
        }
        if self.dialog_key(key, now) {
            return;
        }
        if self.cx.input.is_some() {
            return self.input_key(key, now);
        }
        if self.side_key(key) {
            return;
        }
        let cx = &mut self.cx;
        if !self.mode.get_mut().key(cx, key, now) {
            self.board_key(key, now);
        }
    }

    /// A key while a dialog is open: true when the dialog took it (the key
    /// then goes no further).
    fn dialog_key(&mut self, key: KeyEvent, now: Instant) -> bool {
        let dialog = std::mem::replace(&mut self.cx.overlay, Overlay::None);
        if dialog == Overlay::None {
            return false;
        }
        let cx = &mut self.cx;
        if let Some(taken) = self.mode.get_mut().dialog_key(cx, &dialog, key, now) {
            return taken;
        }
        match dialog {
            Overlay::NewGame(form) => self.new_game_key(form, key, now),
            Overlay::Resume(saved) => self.resume_key(*saved, key, now),
            Overlay::Promotion { from, to, choice } => {
                self.promotion_key(from, to, choice, key, now);
            }
            Overlay::Confirm(question) => self.confirm_key(question, key, now),
            Overlay::Help(first) => {
                // Any key closes the help, but for the ones that scroll it.
                let keys = self.mode.get().help().len();
                let rows = super::overlays::help::rows(keys, self.cx.size.1);
                if let Some(first) = super::overlays::help::key(key, first, keys, rows) {
                    self.cx.overlay = Overlay::Help(first);
                }
            }
            Overlay::GameList => self.game_list_key(key, now),
            Overlay::ReviewAll => self.review_all_key(key),
            Overlay::Open(dialog) => self.open_key(dialog, key),
            Overlay::Describe(view) => self.describe_key(view, key),
            // A mode's own dialog that the mode no longer has: closed.
            Overlay::None | Overlay::GameOver | Overlay::TeachPositions(_) | Overlay::Course(_) => {
            }
        }
        true
    }

    fn board_key(&mut self, key: KeyEvent, now: Instant) {
        let (up, right): (i32, i32) = match key.code {
            KeyCode::Up | KeyCode::Char('k') => (1, 0),
            KeyCode::Down | KeyCode::Char('j') => (-1, 0),
            KeyCode::Left | KeyCode::Char('h') => (0, -1),
            KeyCode::Right | KeyCode::Char('l') => (0, 1),
            _ => (0, 0),
        };
        let cx = &mut self.cx;
        if (up, right) != (0, 0) {
            // Up is up the screen: towards rank 8, or rank 1 when flipped.
            let board = &mut cx.board;
            let sign = if board.flipped { -1 } else { 1 };
            let file = (i32::from(board.cursor.file()) + right * sign).clamp(0, 7);
            let rank = (i32::from(board.cursor.rank()) + up * sign).clamp(0, 7);
            board.cursor = Square::from_coords(
                shakmaty::File::new(file as u32),
                shakmaty::Rank::new(rank as u32),
            );
            return;
        }
        match key.code {
            KeyCode::Enter | KeyCode::Char(' ') => {
                let cursor = cx.board.cursor;
                self.activate(cursor, now);
            }
            KeyCode::Esc => {
                cx.board.selected = None;
                cx.message = None;
            }
            KeyCode::Char(':' | '/') => cx.input = Some(String::new()),
            KeyCode::Char('?') => cx.overlay = Overlay::Help(0),
            KeyCode::Char('f') => cx.board.flipped = !cx.board.flipped,
            KeyCode::Char('e') => {
                cx.engine_panel = !cx.engine_panel;
                let state = if cx.engine_panel { "shown" } else { "hidden" };
                cx.say(format!("Engine panel {state}."), Tone::Info);
            }
            KeyCode::Char('S') => {
                let by_default = self.mode.get().stats_by_default();
                let searched = self.mode.get().has_stats(cx);
                cx.toggle_stats(by_default, searched);
            }
            KeyCode::Char('o') => cx.open_dialog(),
            KeyCode::Char('g') => cx.open_game_list(),
            KeyCode::Char('T') => self.teach_board(now),
            KeyCode::Char('D') => self.describe(now),
            KeyCode::Char(c @ ('m' | 'M' | '#')) => {
                let tables = self.map_tables().cloned();
                if let Some(answer) = self.cx.map.key(c, tables.as_ref()) {
                    // `M` and `#` on an overlay keep its counts said.
                    let answer = answer.map(|text| self.overlay_counts(text));
                    self.cx.map_changed(answer);
                }
            }
            _ => {}
        }
    }

    fn mouse(&mut self, mouse: MouseEvent, now: Instant) {
        let Some(screen) = self.screen() else {
            return;
        };
        if self.cx.overlay != Overlay::None || self.cx.input.is_some() || self.side_mouse(mouse) {
            return;
        }
        let cx = &mut self.cx;
        if self.mode.get_mut().mouse(cx, &screen, mouse, now) {
            return;
        }
        let square = screen
            .board
            .square_at(mouse.column, mouse.row, self.cx.board.flipped);
        match mouse.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                let Some(square) = square else {
                    return;
                };
                self.cx.board.cursor = square;
                let was_selected = self.cx.board.selected;
                self.activate(square, now);
                // Pressing on a piece may begin a drag.
                let board = &mut self.cx.board;
                if board.selected == Some(square) && was_selected != Some(square) {
                    board.drag_from = Some(square);
                }
            }
            MouseEventKind::Up(MouseButton::Left) => {
                let board = &mut self.cx.board;
                if let (Some(from), Some(to)) = (board.drag_from.take(), square)
                    && from != to
                    && board.selected == Some(from)
                {
                    board.cursor = to;
                    if !self.try_move(from, to, now) {
                        self.cx.board.selected = None;
                    }
                }
            }
            MouseEventKind::Drag(MouseButton::Left) => {
                if let Some(square) = square {
                    self.cx.board.cursor = square;
                }
            }
            _ => {}
        }
    }
}
