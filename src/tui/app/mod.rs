//! `App`: the shared state, the mode and the one place they change
//! (`update`). Drawing reads it and never changes it. `App` talks to the
//! engine only by leaving `Command`s in an outbox that the event loop sends,
//! so the whole interface can be driven in tests without a thread or a
//! terminal.
//!
//! A message goes to the open dialog first, then the command line, then the
//! mode, and what the mode leaves to the board's shared keys.

mod describe;
mod dialogs;
mod files;
mod side;
mod teach;

use std::ops::{Deref, DerefMut};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;
use shakmaty::{Chess, Move, Position, Square};

use crate::config::{Dirs, Settings};
use crate::engine::movetables::TableWeights;
use crate::engine::{Command, Report};
use crate::game::GameEnd;
use crate::game::notation::parse_move;
use crate::game::tree::GameTree;

use super::layout::Panel;
use super::layout::{self, Screen};
use super::modes::analyse::{Analysis, GameSource};
use super::modes::teach::Teach;
use super::modes::{Mode, play};
use super::msg::Msg;
use super::save::SavedGame;
use super::shared::{Pending, Shared, destination};

pub use super::msg::ListEvent;
pub use super::overlays::promotion::PROMOTION_ROLES;
pub use super::overlays::{Confirm, NewGameForm, OpenDialog, Overlay};
pub use super::shared::Tone;
pub use super::tasks::Request;

pub struct App {
    /// What every mode shares (`App` derefs to it).
    pub cx: Shared,
    pub mode: Mode,
    /// The lesson left with Esc, to come back to with `T` while the board
    /// shows its position (see `app/teach.rs`).
    pub(super) lesson: Option<Box<Teach>>,
}

impl Deref for App {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.cx
    }
}

impl DerefMut for App {
    fn deref_mut(&mut self) -> &mut Shared {
        &mut self.cx
    }
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
        let form = NewGameForm::new(&settings, fen_start);
        let overlay = match resume {
            Some(saved) if form.fen_start.is_none() => Overlay::Resume(Box::new(saved)),
            _ => Overlay::NewGame(form),
        };
        App {
            cx: Shared::new(settings, dirs, overlay, size),
            mode: Mode::Play,
            lesson: None,
        }
    }

    /// The analysis board, when it is on.
    pub fn analysis(&self) -> Option<&Analysis> {
        self.mode.analysis()
    }

    /// Whether the analysis board is on.
    pub fn analysing(&self) -> bool {
        matches!(self.mode, Mode::Analyse(_))
    }

    /// The analysis has changes that are not saved.
    pub fn unsaved(&self) -> bool {
        self.analysis().is_some_and(|a| a.modified)
    }

    /// A game is on and not finished.
    pub fn in_progress(&self) -> bool {
        matches!(self.mode, Mode::Play) && self.cx.game_in_progress()
    }

    /// Whether the person at the keyboard may move now.
    pub fn human_to_move(&self) -> bool {
        match self.mode {
            // On the analysis board either side may move.
            Mode::Analyse(_) => !self.game.position().legal_moves().is_empty(),
            Mode::Play => self.cx.game_human_to_move(),
            // The board shows the search, not a game.
            Mode::Teach(_) => false,
        }
    }

    /// The screen's layout for the terminal's size and the mode.
    pub fn screen(&self) -> Option<Screen> {
        let area = Rect::new(0, 0, self.size.0, self.size.1);
        layout::screen_sized(area, self.mode.max_square(self.size.1))
    }

    /// Whether the event loop should send ticks: running clocks, auto-play.
    pub fn needs_ticks(&self) -> bool {
        self.cx.needs_ticks() || self.mode.teach().is_some_and(Teach::needs_ticks)
    }

    /// The move tables the map shows: in teach mode the replay's, as the
    /// cutoffs up to the current step taught them; elsewhere the engine's.
    pub fn map_tables(&self) -> Option<&TableWeights> {
        match self.mode.teach() {
            Some(teach) => teach.ready().map(|(_, step)| &step.tables),
            None => self.cx.engine_tables.as_deref(),
        }
    }

    /// Open a PGN file: game `number`, or the game list (a file of one game
    /// opens that game).
    pub fn open_path(&mut self, path: PathBuf, number: Option<usize>) {
        let unsaved = self.unsaved();
        self.cx.open_path(path, number, unsaved);
    }

    pub fn update(&mut self, msg: Msg, now: Instant) {
        match msg {
            Msg::Key(key, _) => {
                if key.kind != KeyEventKind::Release {
                    self.dirty = true;
                    self.key(key, now);
                }
            }
            Msg::Mouse(mouse) => self.mouse(mouse, now),
            Msg::Resize(w, h) => {
                self.size = (w, h);
                self.dirty = true;
            }
            Msg::Engine(report) => self.report(report, now),
            Msg::Tick => {
                self.cx.tick(now);
                if let Mode::Teach(teach) = &mut self.mode {
                    teach.tick(&mut self.cx, now);
                }
            }
            Msg::Recorded { id, result } => {
                if let Mode::Teach(teach) = &mut self.mode {
                    teach.recorded(&mut self.cx, id, result);
                }
            }
            Msg::Compared { id, index, outcome } => {
                if let Mode::Teach(teach) = &mut self.mode {
                    teach.compared(&mut self.cx, id, index, outcome);
                }
            }
            Msg::Notice(text) => {
                self.say(text, Tone::Error);
                self.dirty = true;
            }
            Msg::Tablebases(tables) => {
                self.tablebases = Some(Arc::clone(&tables));
                self.outbox.push(Command::SetTablebases(Some(tables)));
                self.dirty = true;
            }
            Msg::Paste(text) => {
                self.dirty = true;
                self.paste(text, now);
            }
            Msg::GameList { id, event } => self.cx.list_event(id, event),
            Msg::GameLoaded {
                path,
                number,
                result,
            } => self.game_loaded(path, number, result, now),
            Msg::Review { id, ply, eval } => {
                if let Mode::Analyse(analysis) = &mut self.mode {
                    analysis.review_progress(&mut self.cx, id, ply, eval);
                }
            }
            Msg::ReviewDone { id } => {
                if let Mode::Analyse(analysis) = &mut self.mode {
                    analysis.review_done(&mut self.cx, id);
                }
            }
            Msg::Terminate => self.leave(now),
        }
        if !self.near_tables && self.game.position().board().occupied().count() <= 5 {
            self.near_tables = true;
            self.near_tables_reached();
        }
        self.refresh_tablebase_view();
    }

    fn report(&mut self, report: Report, now: Instant) {
        match &mut self.mode {
            Mode::Play => self.cx.game_report(report, now),
            Mode::Analyse(analysis) => analysis.report(&mut self.cx, report, now),
            // The game is paused and teach mode records its own searches;
            // a stopped search's last words are not wanted.
            Mode::Teach(_) => {}
        }
    }

    /// Play `m` for the side to move (already known legal or refused here).
    fn play(&mut self, m: Move, now: Instant) {
        match &mut self.mode {
            Mode::Play => self.cx.play_move(m, now),
            Mode::Analyse(analysis) => analysis.play(&mut self.cx, m, now),
            Mode::Teach(_) => {}
        }
    }

    /// Go to `node` of the analysis board's tree.
    pub fn goto(&mut self, node: usize, now: Instant) {
        if let Mode::Analyse(analysis) = &mut self.mode {
            analysis.goto(&mut self.cx, node, now);
        }
    }

    /// Play the first move of engine line `index` on the analysis board.
    pub fn play_line(&mut self, index: usize, now: Instant) {
        if let Mode::Analyse(analysis) = &mut self.mode {
            analysis.play_line(&mut self.cx, index, now);
        }
    }

    /// Switch to the analysis board with `tree`, another game than the one
    /// before: the engine starts it with empty move tables.
    pub fn analyse(&mut self, tree: GameTree, source: Option<GameSource>, now: Instant) {
        self.show_tree(tree, source, true, now);
    }

    /// The analysis board with `tree`; `new_game`: the engine forgets what it
    /// learned of the game before.
    fn show_tree(
        &mut self,
        tree: GameTree,
        source: Option<GameSource>,
        new_game: bool,
        now: Instant,
    ) {
        self.cx.stop_search();
        if let Mode::Analyse(old) = &mut self.mode {
            old.stop_review(&mut self.cx);
        }
        if new_game {
            self.cx.new_engine_game();
        }
        // A game opens at its start, a position from a FEN at its start.
        let mut analysis = Box::new(Analysis::new(tree, source));
        self.cx.fresh_board();
        self.cx.clock = None;
        self.cx.flipped = false;
        analysis.sync_board(&mut self.cx, now);
        self.mode = Mode::Analyse(analysis);
    }

    /// Start a fresh analysis from `position`.
    pub fn analyse_position(&mut self, position: Chess, now: Instant) {
        self.analyse(GameTree::new(position), None, now);
    }

    /// Close the analysis board: its endless search and its review stop.
    fn leave_analysis(&mut self) {
        if let Mode::Analyse(analysis) = &mut self.mode {
            analysis.stop_review(&mut self.cx);
            if analysis.search.is_some() {
                self.cx.outbox.push(Command::Stop);
            }
        }
        if let Mode::Teach(_) = self.mode {
            self.cx.requests.push(Request::StopTeach);
        }
        self.mode = Mode::Play;
    }

    /// Take the game on the board to the analysis board.
    fn analyse_game(&mut self, now: Instant) {
        if self.analysing() {
            self.say("This is the analysis board already.", Tone::Info);
            return;
        }
        if self.in_progress() {
            self.say("Finish the game first (or resign with r).", Tone::Error);
            return;
        }
        let mut tree = GameTree::new(self.game.start().clone());
        let mut at = 0;
        for &m in self.game.moves() {
            at = tree.add_move(at, m);
        }
        tree.headers = self.cx.headers();
        tree.result = self.end.map_or("*", GameEnd::result).to_string();
        let last = at;
        // A game saved as it stands is not an unsaved change.
        let modified = !self.game.is_empty() && !self.cx.game_saved();
        // The game just played: what the engine learned of it still holds.
        self.show_tree(tree, None, false, now);
        if let Mode::Analyse(analysis) = &mut self.mode {
            analysis.modified = modified;
        }
        self.goto(last, now);
    }

    /// Quit, saving the clocks as they stand so a resumed game does not
    /// give back the time thought since the last move.
    fn leave(&mut self, now: Instant) {
        if self.in_progress() {
            self.cx.autosave(now);
        }
        self.quit = true;
    }

    /// Back from the new-game dialog to what it interrupted.
    fn continue_game(&mut self, now: Instant) {
        match &mut self.mode {
            Mode::Analyse(analysis) => analysis.sync_board(&mut self.cx, now),
            Mode::Play => self.cx.continue_game(now),
            Mode::Teach(_) => {}
        }
    }

    /// Try to move the selected piece to `to`: plays it, asks for the
    /// promotion piece, or returns false when it is not a legal target.
    fn try_move(&mut self, from: Square, to: Square, now: Instant) -> bool {
        let candidates: Vec<Move> = self
            .moves_from(from)
            .into_iter()
            .filter(|&m| destination(m) == to || (m.is_castle() && m.to() == to))
            .collect();
        match candidates.as_slice() {
            [] => false,
            [m] => {
                self.play(*m, now);
                true
            }
            _ => {
                // Several moves between the same squares: a promotion.
                self.overlay = Overlay::Promotion {
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
            if self.end.is_none() && self.started {
                self.say("Wait for the engine's move.", Tone::Info);
            }
            return;
        }
        let selected = self.selected;
        match selected {
            Some(from) if from == square => self.selected = None,
            Some(from) if self.try_move(from, square, now) => {}
            _ if self.own_piece(square) => {
                self.selected = Some(square);
                if self.moves_from(square).is_empty() {
                    self.say("That piece has no legal move.", Tone::Info);
                }
            }
            Some(_) => self.selected = None,
            None => {}
        }
    }

    fn key(&mut self, key: KeyEvent, now: Instant) {
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            // Ctrl-C leaves at once; the autosave keeps the game. Unsaved
            // analysis is not autosaved: the first Ctrl-C asks, a second
            // one quits.
            if self.unsaved() && self.overlay != Overlay::Confirm(Confirm::QuitUnsaved) {
                self.overlay = Overlay::Confirm(Confirm::QuitUnsaved);
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
        match std::mem::replace(&mut self.overlay, Overlay::None) {
            Overlay::None => {}
            Overlay::NewGame(form) => return self.new_game_key(form, key, now),
            Overlay::Resume(saved) => return self.resume_key(*saved, key, now),
            Overlay::Promotion { from, to, choice } => {
                return self.promotion_key(from, to, choice, key, now);
            }
            Overlay::Confirm(question) => return self.confirm_key(question, key, now),
            Overlay::Help(first) => {
                // Any key closes the help, but for the ones that scroll it.
                let keys = self.mode.help().len();
                let rows = super::overlays::help::rows(keys, self.size.1);
                if let Some(first) = super::overlays::help::key(key, first, keys, rows) {
                    self.overlay = Overlay::Help(first);
                }
                return;
            }
            Overlay::GameOver => match key.code {
                KeyCode::Char('a') => return self.analyse_game(now),
                // Saving answers in the status line and leaves the dialog
                // with its next steps.
                KeyCode::Char('s') => {
                    self.overlay = Overlay::GameOver;
                    return self.cx.save_pgn(now);
                }
                KeyCode::Char('n' | 'q' | 'u' | 'f' | '?' | 'D') => {}
                _ => return,
            },
            Overlay::GameList => return self.game_list_key(key),
            Overlay::Open(dialog) => return self.open_key(dialog, key),
            Overlay::TeachPositions(picker) => return self.teach_positions_key(picker, key),
            Overlay::Describe(view) => return self.describe_key(view, key),
        }
        if self.input.is_some() {
            return self.input_key(key, now);
        }
        // After a game the dialog's next steps stay on the keys (and on the
        // key line) once it is closed.
        if matches!(self.mode, Mode::Play) && self.end.is_some() && key.code == KeyCode::Char('a') {
            return self.analyse_game(now);
        }
        if self.side_key(key) {
            return;
        }
        let taken = match &mut self.mode {
            Mode::Play => play::key(&mut self.cx, key, now),
            Mode::Analyse(analysis) => analysis.key(&mut self.cx, key, now),
            Mode::Teach(_) => self.teach_key(key, now),
        };
        if !taken {
            self.board_key(key, now);
        }
    }

    fn board_key(&mut self, key: KeyEvent, now: Instant) {
        let (up, right): (i32, i32) = match key.code {
            KeyCode::Up | KeyCode::Char('k') => (1, 0),
            KeyCode::Down | KeyCode::Char('j') => (-1, 0),
            KeyCode::Left | KeyCode::Char('h') => (0, -1),
            KeyCode::Right | KeyCode::Char('l') => (0, 1),
            _ => (0, 0),
        };
        if (up, right) != (0, 0) {
            // Up is up the screen: towards rank 8, or rank 1 when flipped.
            let sign = if self.flipped { -1 } else { 1 };
            let file = (i32::from(self.cursor.file()) + right * sign).clamp(0, 7);
            let rank = (i32::from(self.cursor.rank()) + up * sign).clamp(0, 7);
            self.cursor = Square::from_coords(
                shakmaty::File::new(file as u32),
                shakmaty::Rank::new(rank as u32),
            );
            return;
        }
        match key.code {
            KeyCode::Enter | KeyCode::Char(' ') => self.activate(self.cursor, now),
            KeyCode::Esc => {
                self.selected = None;
                self.message = None;
            }
            KeyCode::Char(':' | '/') => self.input = Some(String::new()),
            KeyCode::Char('?') => self.overlay = Overlay::Help(0),
            KeyCode::Char('f') => self.flipped = !self.flipped,
            KeyCode::Char('e') => {
                self.engine_panel = !self.engine_panel;
                let state = if self.engine_panel { "shown" } else { "hidden" };
                self.say(format!("Engine panel {state}."), Tone::Info);
            }
            KeyCode::Char('S') => {
                let by_default = self.mode.stats_by_default();
                self.cx.toggle_stats(by_default);
            }
            KeyCode::Char('o') => self.open_dialog(),
            KeyCode::Char('g') => self.open_game_list(),
            KeyCode::Char('T') => self.teach_board(now),
            KeyCode::Char('D') => self.describe(now),
            KeyCode::Char(c @ ('m' | 'M' | '#')) => {
                let tables = self.map_tables().cloned();
                if let Some(answer) = self.cx.map.key(c, tables.as_ref()) {
                    self.cx.map_changed(answer);
                }
            }
            _ => {}
        }
    }

    fn input_key(&mut self, key: KeyEvent, now: Instant) {
        let Some(text) = &mut self.input else {
            return;
        };
        match key.code {
            KeyCode::Esc => self.input = None,
            // Backspace on an empty prompt keeps it open: only Esc (or Enter)
            // leaves it, so the letters typed next are never taken for keys.
            KeyCode::Backspace => {
                text.pop();
            }
            KeyCode::Tab => {
                if let [only] = self.completions().as_slice() {
                    self.input = Some(only.clone());
                }
            }
            KeyCode::Enter => {
                let typed = text.trim().to_string();
                self.input = None;
                self.command(&typed, now);
            }
            KeyCode::Char(c) => text.push(c),
            _ => {}
        }
    }

    /// What the command line asked for: a word command or a move.
    fn command(&mut self, typed: &str, now: Instant) {
        let taken = match &mut self.mode {
            Mode::Play => play::command(&mut self.cx, typed, now),
            Mode::Analyse(analysis) => analysis.command(&mut self.cx, typed, now),
            Mode::Teach(teach) => match teach.command(&mut self.cx, typed, now) {
                Some(asked) => self.teach_asked(asked, now),
                None => false,
            },
        };
        if taken {
            return;
        }
        if typed == "describe" {
            return self.describe(now);
        }
        if typed == "map" || typed.starts_with("map ") {
            let answer = self.cx.map.command(&typed[3..]);
            return self.cx.map_changed(answer);
        }
        if let Some(rest) = typed.strip_prefix("teach") {
            let rest = rest.trim();
            if rest.is_empty() {
                return self.teach_board(now);
            }
            if let Mode::Teach(_) = self.mode {
                return self.say("In teach mode: :depth N, :step N, :positions.", Tone::Error);
            }
            return match rest.parse::<u32>() {
                Ok(depth)
                    if (crate::teach::MIN_DEPTH..=crate::teach::MAX_DEPTH).contains(&depth) =>
                {
                    let position = self.game.position().clone();
                    let history = self.game.history_keys();
                    self.teach(position, history, depth, now)
                }
                _ => self.say(
                    format!(
                        ":teach takes a depth from {} to {}.",
                        crate::teach::MIN_DEPTH,
                        crate::teach::MAX_DEPTH
                    ),
                    Tone::Error,
                ),
            };
        }
        if let Some(text) = typed.strip_prefix("fen ") {
            return match crate::game::fen::parse_fen(text.trim()) {
                Ok(position) if !self.in_progress() => {
                    self.load_tree(GameTree::new(position), now);
                }
                Ok(_) => self.say("Finish or leave the game first (n).", Tone::Error),
                Err(e) => self.say(format!("Not a FEN: {e}"), Tone::Error),
            };
        }
        if !self.in_progress() && self.load_text(typed, now) {
            return;
        }
        match typed {
            "" => {}
            "analyse" | "analyze" | "analysis" => self.analyse_game(now),
            "open" => self.open_dialog(),
            "games" => self.open_game_list(),
            "new" if self.unsaved() => {
                self.pending = Some(Pending::NewGame);
                self.overlay = Overlay::Confirm(Confirm::Discard);
            }
            "help" => self.overlay = Overlay::Help(0),
            "tables" => {
                self.wants_tables = true;
                self.say(
                    "Generating the missing endgame tables in the background.",
                    Tone::Info,
                );
            }
            "flip" => self.flipped = !self.flipped,
            "stats" => {
                let by_default = self.mode.stats_by_default();
                self.cx.toggle_stats(by_default);
            }
            "new" => {
                play::key(&mut self.cx, KeyEvent::from(KeyCode::Char('n')), now);
            }
            "fen" => {
                let fen = self.game.fen();
                self.requests.push(Request::Clipboard(fen.clone()));
                self.say(
                    format!("FEN: {fen} (copied, if the terminal allows)"),
                    Tone::Info,
                );
            }
            "quit" | "q" if self.unsaved() => {
                self.overlay = Overlay::Confirm(Confirm::QuitUnsaved);
            }
            "quit" | "q" => self.overlay = Overlay::Confirm(Confirm::Quit),
            _ if !self.human_to_move() => {
                let why = if self.end.is_some() {
                    "The game is over."
                } else {
                    "It is the engine's turn."
                };
                self.say(why, Tone::Error);
            }
            _ => match parse_move(self.game.position(), typed) {
                Ok(m) => {
                    self.message = None;
                    self.play(m, now);
                }
                Err(e) => self.say(e.to_string(), Tone::Error),
            },
        }
    }

    /// Clicks on the analysis panel: a move in the list goes there, an
    /// engine line plays its first move; the wheel steps through the line.
    /// Clicks on the side panel: a move of the tree goes there, an engine
    /// line plays its first move; the wheel steps through the line. False
    /// when the panel has nothing there (the board may).
    fn panel_mouse(&mut self, screen: &Screen, mouse: MouseEvent, now: Instant) -> bool {
        let Mode::Analyse(analysis) = &mut self.mode else {
            return false;
        };
        let inside = screen.panel.contains((mouse.column, mouse.row).into());
        if !inside {
            return false;
        }
        let placed = layout::stack(screen.panel, &analysis.panels(&self.cx));
        let (column, row) = (mouse.column, mouse.row);
        match mouse.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                let node = layout::find(&placed, Panel::MoveTree).and_then(|rect| {
                    crate::tui::modes::analyse::move_at(analysis, rect, column, row)
                });
                let line = layout::find(&placed, Panel::EngineLines).and_then(|rect| {
                    layout::line_at(rect, analysis.lines.shown.len(), column, row)
                });
                if let Some(node) = node {
                    analysis.goto(&mut self.cx, node, now);
                } else if let Some(index) = line {
                    analysis.play_line(&mut self.cx, index, now);
                }
                self.cx.dirty = true;
                true
            }
            MouseEventKind::ScrollUp | MouseEventKind::ScrollDown => {
                let code = if mouse.kind == MouseEventKind::ScrollUp {
                    KeyCode::Left
                } else {
                    KeyCode::Right
                };
                analysis.key(&mut self.cx, KeyEvent::from(code), now);
                true
            }
            _ => false,
        }
    }

    fn mouse(&mut self, mouse: MouseEvent, now: Instant) {
        let Some(screen) = self.screen() else {
            return;
        };
        if self.overlay != Overlay::None || self.input.is_some() || self.side_mouse(mouse) {
            return;
        }
        if let Mode::Teach(teach) = &mut self.mode {
            // The wheel steps through the search; the board is for looking.
            let code = match mouse.kind {
                MouseEventKind::ScrollUp => KeyCode::Left,
                MouseEventKind::ScrollDown => KeyCode::Right,
                _ => return,
            };
            teach.key(&mut self.cx, KeyEvent::from(code), now);
            self.cx.dirty = true;
            return;
        }
        if self.panel_mouse(&screen, mouse, now) {
            return;
        }
        let square = screen
            .board
            .square_at(mouse.column, mouse.row, self.flipped);
        match mouse.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                let Some(square) = square else {
                    return;
                };
                self.cursor = square;
                self.dirty = true;
                let was_selected = self.selected;
                self.activate(square, now);
                // Pressing on a piece may begin a drag.
                if self.selected == Some(square) && was_selected != Some(square) {
                    self.drag_from = Some(square);
                }
            }
            MouseEventKind::Up(MouseButton::Left) => {
                if let (Some(from), Some(to)) = (self.drag_from.take(), square)
                    && from != to
                    && self.selected == Some(from)
                {
                    self.cursor = to;
                    if !self.try_move(from, to, now) {
                        self.selected = None;
                    }
                    self.dirty = true;
                }
            }
            MouseEventKind::Drag(MouseButton::Left) => {
                if let Some(square) = square
                    && square != self.cursor
                {
                    self.cursor = square;
                    self.dirty = true;
                }
            }
            _ => {}
        }
    }
}
