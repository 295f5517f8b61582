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
use crate::tui::widgets::node_moves::NodeMoves;
use crate::tui::widgets::search_path::SearchPath;
use crate::tui::widgets::stats::StatsPanel;

use super::caption::Caption;
use super::comparison::Comparison;
use super::header::TeachHeader;
use super::keys::Asked;
use super::{HELP, KEY_LINES, Teach};

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
            self.title = "this position".into();
            self.description = None;
        } else if let Some(p) = list.get(row - 1) {
            self.setup.position = p.position.clone();
            self.setup.history = Vec::new();
            self.setup.depth = p.depth;
            self.title = p.name.clone();
            self.description = Some(p.description.clone());
        }
        self.rerecord(cx, now);
        let title = self.title.clone();
        cx.say(format!("Teaching position: {title}."), Tone::Info);
    }
}

impl BoardMode for Teach {
    fn key(&mut self, cx: &mut Shared, key: KeyEvent, now: Instant) -> bool {
        let asked = self.on_key(cx, key, now);
        self.carry_out(cx, asked)
    }

    fn command(&mut self, cx: &mut Shared, typed: &str, now: Instant) -> bool {
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

    /// The replay's tables, as the cutoffs up to the current step taught
    /// them.
    fn map_tables<'a>(&'a self, _cx: &'a Shared) -> Option<&'a TableWeights> {
        self.ready().map(|(_, step)| &step.tables)
    }

    /// A node of the search, not the game.
    fn description(&self, _cx: &Shared, _now: Instant) -> Vec<String> {
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
        let step = self.ready().map(|(_, s)| s);
        match panel {
            Panel::TeachHeader => TeachHeader { teach: self, theme }.draw(frame, rect),
            Panel::SearchPath => SearchPath { step, theme }.draw(frame, rect),
            Panel::NodeMoves => NodeMoves { step, theme }.draw(frame, rect),
            Panel::Caption => Caption { teach: self, theme }.draw(frame, rect),
            Panel::Comparison => Comparison { teach: self, theme }.draw(frame, rect),
            Panel::Stats => {
                if let Some(stats) = self.stats() {
                    StatsPanel {
                        stats: &stats,
                        theme,
                    }
                    .draw(frame, rect);
                }
            }
            _ => return false,
        }
        true
    }

    fn draw_dialog(&self, cx: &Shared, frame: &mut Frame, area: Rect, theme: &Theme) -> bool {
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
        pick_key_line(&KEY_LINES, false, 0, cx.size)
    }

    fn tabs(&self) -> bool {
        false
    }
}
