//! Train mode among the modes: its keys, its panel, its title and help.

use std::time::Instant;

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Span;
use shakmaty::{Move, Position};

use crate::tui::layout::{Panel, Slot};
use crate::tui::modes::{BoardMode, BoardShown, describe_board, pick_key_line};
use crate::tui::shared::Shared;
use crate::tui::theme::Theme;
use crate::tui::widgets::side_name;

use super::{Stage, Train};

/// The keys of train mode, for `?` (docs/training.md names each).
pub const HELP: &[(&str, &str)] = &[
    (
        "← → ↑ ↓, Enter",
        "board cursor, pick up / put down (or mouse, or type the move after :)",
    ),
    ("h", "a hint: the piece, then the square it goes to"),
    ("s", "the solution, played on the board (counts as not solved)"),
    ("T", "the position's search lesson in teach mode (Esc comes back)"),
    ("n", "the next position"),
    ("f", "flip the board"),
    ("Esc, q", "leave training: back to the new-game dialog"),
    ("?", "this help"),
];

/// The key bar while a position waits for its answer.
const ASKING_KEYS: [&str; 2] = [
    " move to answer · h hint · s solution · T lesson · n next · Esc leave · ? help",
    " h hint · s solution · T lesson · n next · Esc leave · ? help",
];

/// Answered or solution shown: no hint to give.
const DONE_KEYS: [&str; 2] = [
    " s solution · T lesson · n next · Esc leave · ? help",
    " s solution · n next · Esc leave · ? help",
];

/// Every position served, or nothing due: only leaving is left.
const FINISHED_KEYS: [&str; 1] = [" Esc leave: the new-game dialog · ? help"];

impl BoardMode for Train {
    fn key(&mut self, cx: &mut Shared, key: KeyEvent, _now: Instant) -> bool {
        match key.code {
            KeyCode::Char('h') => self.hint(cx),
            KeyCode::Char('s') => self.solution(cx),
            KeyCode::Char('n') => self.next(cx),
            KeyCode::Char('T') => self.lesson(cx),
            // Esc first puts down a piece picked up (the board does that).
            KeyCode::Esc if cx.board.selected.is_some() => return false,
            KeyCode::Esc | KeyCode::Char('q') => self.leave(cx),
            _ => return false,
        }
        true
    }

    fn command(&mut self, cx: &mut Shared, typed: &str, _now: Instant) -> bool {
        match typed.trim() {
            "hint" => self.hint(cx),
            "solution" => self.solution(cx),
            "next" => self.next(cx),
            _ => return false,
        }
        true
    }

    fn play(&mut self, cx: &mut Shared, m: Move, _now: Instant) {
        self.answer(cx, m);
    }

    fn enter(&mut self, cx: &mut Shared, _now: Instant) {
        // Back from a lesson: the question's position again, as it was.
        if self.stage == Stage::Asking
            && let Some(position) = self.position()
        {
            cx.board.game = crate::game::Game::new(position);
        }
    }

    fn human_to_move(&self, _cx: &Shared) -> bool {
        self.stage == Stage::Asking
    }

    fn why_no_move(&self, _cx: &Shared, _typed: bool) -> Option<&'static str> {
        Some(match self.stage {
            Stage::Finished => "Every position due is done.",
            _ => "Answered: n for the next position.",
        })
    }

    fn description(&self, cx: &Shared, _now: Instant) -> Vec<String> {
        let mut lines = vec![self.question_line()];
        lines.extend(describe_board(&cx.board.game).lines());
        lines
    }

    fn position_name(&self) -> &'static str {
        "the training position"
    }

    fn panels(&self, _cx: &Shared) -> Vec<Slot> {
        vec![Slot::new(Panel::Train, Some)]
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
        if panel != Panel::Train {
            return false;
        }
        super::panel::TrainPanel { train: self, theme }.draw(frame, rect);
        true
    }

    fn board<'a>(&'a self, cx: &'a Shared) -> BoardShown<'a> {
        BoardShown {
            position: cx.board.game.position(),
            last_move: cx.board.game.moves().last().copied(),
            hint: self.hint_move,
            interactive: self.stage == Stage::Asking,
        }
    }

    fn title(&self, cx: &Shared, _theme: &Theme) -> Vec<Span<'static>> {
        let text = match self.stage {
            Stage::Finished if self.queue.is_empty() => " Train · nothing due".to_string(),
            Stage::Finished => format!(" Train · done: {}", self.summary()),
            _ => format!(
                " Train · position {} of {} · {} to move",
                self.at + 1,
                self.queue.len(),
                // The side asked to move, not the board's after the
                // answer (and the solution's line) is played.
                side_name(
                    self.position()
                        .map_or(cx.board.game.position().turn(), |p| p.turn())
                )
            ),
        };
        vec![Span::styled(
            text,
            Style::default().add_modifier(Modifier::BOLD),
        )]
    }

    fn help(&self) -> &'static [(&'static str, &'static str)] {
        HELP
    }

    fn key_line(&self, cx: &Shared) -> &'static str {
        match self.stage {
            Stage::Asking => pick_key_line(&ASKING_KEYS, false, 0, cx.size),
            Stage::Done => pick_key_line(&DONE_KEYS, false, 0, cx.size),
            Stage::Finished => pick_key_line(&FINISHED_KEYS, false, 0, cx.size),
        }
    }

    fn tabs(&self) -> bool {
        false
    }

    fn stats_by_default(&self) -> bool {
        false
    }
}
