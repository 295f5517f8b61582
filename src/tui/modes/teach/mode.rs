//! Teach mode as a mode: how the app's messages reach it, what it asks of
//! the app (leave, the positions, quit), its panels, board and title.

use std::time::Instant;

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Span;
use shakmaty::Position;

use crate::engine::movetables::TableWeights;
use crate::game::describe::{Description, move_sentence, side_name};
use crate::teach::positions;
use crate::tui::layout::{Panel, Screen, Slot};
use crate::tui::modes::{BoardMode, BoardShown, pick_key_line};
use crate::tui::msg::Msg;
use crate::tui::overlays::teach_positions::{Picked, TeachPicker};
use crate::tui::overlays::{Confirm, Overlay};
use crate::tui::shared::{Shared, Switch, Tone};
use crate::tui::theme::Theme;
use super::node_moves::NodeMoves;
use super::search_path::SearchPath;

use super::caption::Caption;
use super::comparison::Comparison;
use super::header::TeachHeader;
use super::keys::Asked;
use super::tree_diagram::{TreeCard, TreeDiagram};
use super::tree_view::TreeKey;
use super::{HELP, KEY_LINES, Record, Teach};

impl Teach {
    /// Carry out what a key or a word asked for; false when it took nothing.
    fn carry_out(&mut self, cx: &mut Shared, asked: Asked) -> bool {
        match asked {
            Asked::Taken => {}
            Asked::NotTaken => return false,
            Asked::Leave => cx.switch(Switch::Back),
            Asked::Positions => {
                cx.overlay = Overlay::TeachPositions(TeachPicker { choice: 0 });
            }
            Asked::Quit => cx.overlay = Overlay::Confirm(Confirm::Quit),
        }
        true
    }

    /// A row of the teaching positions was picked: 0 is the position the
    /// lesson was opened on, the others the curated ones.
    fn pick_position(&mut self, cx: &mut Shared, row: usize, now: Instant) {
        let list = positions();
        if row == 0 {
            // The board under a lesson keeps the position it came from
            // (a lesson is never put aside for another lesson).
            self.setup.position = cx.board.game.position().clone();
            self.setup.history = cx.board.game.history_keys();
            if self.setup.tree.take().is_some() {
                // From a tree back to chess: the chess lesson's switches.
                self.setup.options = crate::engine::SearchOptions::textbook();
            }
            self.title = "this position".into();
            self.description = None;
        } else if let Some(p) = list.get(row - 1) {
            // A lesson brings its own switches when it changes kind (a
            // tree's mean other things) or names some.
            let options = self.setup.options;
            self.setup = p.setup();
            if p.tree.is_none() && self.setup.tree.is_none() && p.options == crate::engine::SearchOptions::textbook() {
                self.setup.options = options;
            }
            self.title = p.name.clone();
            self.description = Some(p.description.clone());
        }
        self.rerecord(cx, now);
        let title = self.title.clone();
        cx.say(format!("Teaching position: {title}."), Tone::Info);
    }
}

impl Teach {
    /// `P`: predict mode on or off.
    fn toggle_predict(&mut self, cx: &mut Shared) {
        let predict = &mut self.predict;
        predict.on = !predict.on;
        let text = if predict.on {
            "Predict mode on: a question before each node is searched; → skips."
        } else {
            "Predict mode off."
        };
        cx.say(text, Tone::Info);
    }

    /// A key in predict mode; true when it was the question's. → without
    /// an answer skips the question and steps on.
    fn predict_key(&mut self, cx: &mut Shared, key: KeyEvent) -> bool {
        let Record::Ready { replay, step } = &self.record else {
            return false;
        };
        let replay = std::sync::Arc::clone(replay);
        let Some(question) = self.predict.pending(&replay, step) else {
            return false;
        };
        if matches!(key.code, KeyCode::Right | KeyCode::Char('l')) {
            self.predict.skip(&question);
            return false;
        }
        match super::predict::key_answer(&question, key.code) {
            Some(Some(answer)) => {
                self.predict.answer(&replay, &question, answer);
                // What was said about an earlier try is no longer true.
                cx.message = None;
                self.reveal();
                true
            }
            Some(None) => {
                cx.say(question.expected(), Tone::Error);
                true
            }
            None => false,
        }
    }

    /// A typed answer to the question waiting: true when it was one (what
    /// does not read as one goes on to the other commands, and to
    /// [`BoardMode::why_no_move`], which says what the question wants).
    fn predict_typed(&mut self, cx: &mut Shared, typed: &str) -> bool {
        let Record::Ready { replay, step } = &self.record else {
            return false;
        };
        let replay = std::sync::Arc::clone(replay);
        let Some(question) = self.predict.pending(&replay, step) else {
            return false;
        };
        // A list of leaves has spaces; no other answer does (`:goto e4 e5`
        // is a command).
        let list = question.kind == crate::teach::predict::Kind::Skipped;
        if !question.typed() || (!list && typed.contains(char::is_whitespace)) {
            return false;
        }
        match question.parse(&replay, typed) {
            Ok(answer) => {
                self.predict.answer(&replay, &question, answer);
                cx.message = None;
                self.reveal();
                true
            }
            Err(_) => false,
        }
    }

    /// Show the step the question was about.
    fn reveal(&mut self) {
        let next = self.applied() + 1;
        self.playing = None;
        self.seek(next);
        self.tree_view.follow();
    }

    /// `v`, `:tree`: show or hide the tree view (in the place of the
    /// node's outline).
    fn toggle_tree(&mut self, cx: &mut Shared) {
        self.tree_view.shown = !self.tree_view.shown;
        self.tree_view.follow();
        let text = if self.tree_view.shown {
            "Tree view: ↑↓ move, Enter/z fold a node or name its skipped moves, Z fold all but the path, J go to the node, w White's view, v hides."
        } else {
            "Tree view hidden: the current node's moves again (v shows the tree)."
        };
        cx.say(text, Tone::Info);
    }
}

impl Teach {
    /// `:export [PATH]`: the lesson at this step as Markdown, to PATH or to
    /// the data folder's `lessons/`. An existing file is kept unless
    /// `:export! PATH` says to replace it.
    fn export(&mut self, cx: &mut Shared, path: &str, force: bool) {
        let Some((replay, step)) = self.ready() else {
            cx.say("The search is still being recorded: nothing to export yet.", Tone::Info);
            return;
        };
        let text = crate::teach::export::lesson_markdown(replay, step, &self.title, &self.comparison);
        let is_default = path.is_empty();
        let path = if is_default {
            let Some(dirs) = &cx.services.dirs else {
                cx.say("No data folder: :export PATH names the file.", Tone::Error);
                return;
            };
            let (date, time) = crate::tui::save::date_and_time();
            let stamp = format!("{date}-{time}").replace([':', '.', ' '], "");
            dirs.data.join("lessons").join(format!("lesson-{stamp}-step-{}.md", step.applied))
        } else {
            std::path::PathBuf::from(crate::tui::overlays::open_file::expand_home(path))
        };
        // A path of the person's own is written as `--out` writes one: its
        // folder must be there, a device is written into (nothing to
        // replace, so no `!` is asked for), a file there is kept unless
        // `!` says to replace it. The data folder's `lessons/` is made.
        let named = !is_default;
        if named && let Err(why) = crate::fsutil::check_board_target(&path) {
            cx.say(why, Tone::Error);
            return;
        }
        if crate::fsutil::replaces_a_file(&path) && !force {
            cx.say(
                format!("{} exists: :export! {} replaces it.", path.display(), path.display()),
                Tone::Error,
            );
            return;
        }
        let written = if named {
            crate::fsutil::write_user_file(&path, text)
        } else {
            crate::fsutil::write_atomic(&path, text)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))
        };
        match written {
            Ok(()) => cx.say(format!("Lesson written to {}", path.display()), Tone::Info),
            Err(why) => cx.say(why, Tone::Error),
        }
    }
}

impl BoardMode for Teach {
    /// Teach mode shows the recorded search's figures, not the engine's.
    fn has_stats(&self, _cx: &Shared) -> bool {
        self.stats().is_some()
    }

    fn key(&mut self, cx: &mut Shared, key: KeyEvent, now: Instant) -> bool {
        let _points = self.points();
        if key.code == KeyCode::Char('v') {
            self.toggle_tree(cx);
            return true;
        }
        if key.code == KeyCode::Char('P') {
            self.toggle_predict(cx);
            return true;
        }
        if self.predict.on && self.predict_key(cx, key) {
            self.score_exercise(cx);
            return true;
        }
        if self.tree_view.shown
            && let Record::Ready { replay, step } = &self.record
        {
            let (replay, applied) = (std::sync::Arc::clone(replay), step.applied);
            match self.tree_view.key(&replay, applied, key) {
                TreeKey::Taken => return true,
                TreeKey::Seek(applied) => {
                    self.playing = None;
                    self.seek(applied);
                    return true;
                }
                TreeKey::NotTaken => {}
            }
        }
        let asked = self.on_key(cx, key, now);
        // Stepping moves the search on: the tree's cursor follows it.
        self.tree_view.follow();
        self.score_exercise(cx);
        self.carry_out(cx, asked)
    }

    fn command(&mut self, cx: &mut Shared, typed: &str, now: Instant) -> bool {
        let _points = self.points();
        if typed == "tree" {
            self.toggle_tree(cx);
            return true;
        }
        if self.predict_typed(cx, typed) {
            return true;
        }
        if let Some(rest) = typed.strip_prefix("goto") {
            self.goto_line(cx, rest.trim());
            return true;
        }
        if let Some(rest) = typed.strip_prefix("export") {
            let (force, path) = match rest.strip_prefix('!') {
                Some(path) => (true, path.trim()),
                None => (false, rest.trim()),
            };
            self.export(cx, path, force);
            return true;
        }
        if typed == "course" {
            self.open_course(cx);
            return true;
        }
        if typed == "teach" {
            cx.overlay = Overlay::TeachPositions(TeachPicker { choice: 0 });
            return true;
        }
        if typed.starts_with("teach") {
            cx.say("In teach mode: :depth N, :step N, :positions.", Tone::Error);
            return true;
        }
        match self.on_command(cx, typed, now) {
            Some(asked) => self.carry_out(cx, asked),
            None => false,
        }
    }

    /// The wheel steps through the search; the board is for looking.
    fn mouse(&mut self, cx: &mut Shared, _screen: &Screen, mouse: MouseEvent, now: Instant) -> bool {
        let code = match mouse.kind {
            MouseEventKind::ScrollUp => KeyCode::Left,
            MouseEventKind::ScrollDown => KeyCode::Right,
            _ => return true,
        };
        self.on_key(cx, KeyEvent::from(code), now);
        true
    }

    fn dialog_key(
        &mut self,
        cx: &mut Shared,
        dialog: &Overlay,
        key: KeyEvent,
        now: Instant,
    ) -> Option<bool> {
        if let Overlay::Course(view) = dialog {
            self.course_key(cx, (**view).clone(), key, now);
            return Some(true);
        }
        let Overlay::TeachPositions(picker) = dialog else {
            return None;
        };
        let mut picker = picker.clone();
        match picker.key(key, positions().len() + 1) {
            Picked::Keep => cx.overlay = Overlay::TeachPositions(picker),
            Picked::Cancel => {}
            Picked::Row(row) => self.pick_position(cx, row, now),
        }
        Some(true)
    }

    fn task(&mut self, cx: &mut Shared, msg: Msg, _now: Instant) {
        match msg {
            Msg::Recorded { id, result } => self.recorded(cx, id, result),
            Msg::Compared { id, index, outcome } => self.compared(id, index, outcome),
            _ => {}
        }
    }

    fn tick(&mut self, _cx: &mut Shared, now: Instant) -> bool {
        self.auto_play(now)
    }

    fn needs_ticks(&self) -> bool {
        self.playing.is_some()
    }

    /// The recording and the comparison stop (a lesson taken up again asks
    /// for what was not finished).
    fn leave(&mut self, cx: &mut Shared, _now: Instant) {
        cx.engine.cancel(self.record_id);
        cx.engine.cancel(self.compare_id);
        self.playing = None;
    }

    /// The board shows the search, not a game.
    fn human_to_move(&self, _cx: &Shared) -> bool {
        false
    }

    /// A typed word no command took: in predict mode, what the question
    /// waiting wants; else that no move is played here.
    fn why_no_move(&self, _cx: &Shared, typed: bool) -> Option<&'static str> {
        if !typed {
            return None;
        }
        if self.predict.on {
            let waiting = self
                .ready()
                .and_then(|(replay, step)| self.predict.pending(replay, step));
            return Some(match waiting {
                Some(question) => question.expected(),
                None => "No question waits at this step: predict mode asks before the search enters a node (→ goes on).",
            });
        }
        Some("Teach mode replays a recorded search: no move is played here (:goto e4 e5 goes to a line).")
    }

    /// The replay's tables, as the cutoffs up to the current step taught
    /// them.
    fn map_tables<'a>(&'a self, _cx: &'a Shared) -> Option<&'a TableWeights> {
        self.ready().map(|(_, step)| &step.tables)
    }

    /// A node of the search, not the game.
    fn description(&self, _cx: &Shared, _now: Instant) -> Vec<String> {
        if self.is_tree() {
            return self.tree_description();
        }
        let (position, arrived, trying) = self.board_view();
        let mut description = Description::new(position);
        let frames = self.ready().map(|(_, step)| &step.frames[..]);
        if let (Some(m), Some([.., parent, _])) = (arrived, frames) {
            description = description.with_last_move(&parent.position, m);
        }
        let ply = frames.map_or(0, |f| f.len().saturating_sub(1));
        let mut lines = vec![format!("Teach mode: the search's node at ply {ply}.")];
        lines.extend(description.lines());
        if let Some(m) = trying {
            let side = side_name(position.turn());
            lines.push(format!(
                "Being tried: {}.",
                move_sentence(side, "tries", "tries castling", m)
            ));
        }
        lines
    }

    fn position_name(&self) -> &'static str {
        self.back.get().position_name()
    }

    fn panels(&self, cx: &Shared) -> Vec<Slot> {
        self.slots(cx)
    }

    fn below(&self, size: (u16, u16)) -> Vec<Slot> {
        self.slots_below(size)
    }

    /// Teach mode keeps the board small to leave room for the search.
    fn max_square(&self, height: u16) -> u16 {
        if height >= 34 { 2 } else { 1 }
    }

    fn draw_panel(
        &self,
        _cx: &Shared,
        frame: &mut Frame,
        panel: Panel,
        rect: Rect,
        theme: &Theme,
        _now: Instant,
    ) -> bool {
        let _points = self.points();
        let step = self.ready().map(|(_, s)| s);
        match panel {
            Panel::TeachHeader => TeachHeader { teach: self, theme }.draw(frame, rect),
            Panel::GameTree => {
                if let Some((replay, step)) = self.ready() {
                    TreeDiagram {
                        replay,
                        applied: step.applied,
                        theme,
                    }
                    .draw(frame, rect);
                }
            }
            Panel::SearchPath => SearchPath { step, theme }.draw(frame, rect),
            Panel::NodeMoves => NodeMoves { step, theme }.draw(frame, rect),
            Panel::Tree => {
                if let Some((replay, step)) = self.ready() {
                    self.tree_view
                        .draw(replay, step.applied, frame, rect, theme);
                }
            }
            Panel::Caption => Caption { teach: self, theme }.draw(frame, rect),
            Panel::Comparison => Comparison { teach: self, theme }.draw(frame, rect),
            Panel::Stats => {
                if let Some(stats) = self.stats() {
                    // What the search ran with (the switches as they
                    // apply: none of the table or quiescence on a tree).
                    let options = crate::teach::effective_options(self.setup.options);
                    let tree = self.setup.tree.is_some();
                    super::iterations::IterationsPanel {
                        stats: &stats,
                        table: options.transposition_table && !tree,
                        quiescence: options.quiescence && !tree,
                        theme,
                    }
                    .draw(frame, rect);
                }
            }
            _ => return false,
        }
        true
    }

    /// A hand-made tree has no board: the card of the node searched.
    fn draw_board_area(&self, _cx: &Shared, frame: &mut Frame, area: Rect, theme: &Theme) -> bool {
        if !self.is_tree() {
            return false;
        }
        let _points = self.points();
        let step = self.ready().map(|(_, s)| s);
        TreeCard { step, theme }.draw(frame, area);
        true
    }

    fn draw_dialog(&self, cx: &Shared, frame: &mut Frame, area: Rect, theme: &Theme) -> bool {
        if let Overlay::Course(view) = &cx.overlay {
            super::course::CourseScreen(view).draw(frame, area, theme);
            return true;
        }
        let Overlay::TeachPositions(picker) = &cx.overlay else {
            return false;
        };
        picker.draw(frame, self.position_name(), &positions(), area, theme);
        true
    }

    /// The node being searched, the move that led there, the move tried.
    fn board<'a>(&'a self, _cx: &'a Shared) -> BoardShown<'a> {
        let (position, arrived, trying) = self.board_view();
        BoardShown {
            position,
            last_move: arrived,
            hint: trying,
            interactive: false,
        }
    }

    fn title(&self, _cx: &Shared, _theme: &Theme) -> Vec<Span<'static>> {
        vec![Span::styled(
            format!(
                " Teach · {} · {} · {}",
                self.depth_text(),
                self.title,
                self.algorithm()
            ),
            Style::default().add_modifier(Modifier::BOLD),
        )]
    }

    fn help(&self) -> &'static [(&'static str, &'static str)] {
        HELP
    }

    fn key_line(&self, cx: &Shared) -> &'static str {
        let forms: &[&'static str] = match self.tree_view.shown {
            true => &super::keys::TREE_KEY_LINES,
            false => &KEY_LINES,
        };
        pick_key_line(forms, false, 0, cx.size)
    }

    fn tabs(&self) -> bool {
        false
    }
}
