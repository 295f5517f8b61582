//! The analysis board as a mode: how the app's messages reach it, the
//! panels it draws and its title.

use std::time::Instant;

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Span;
use shakmaty::{Move, Position};

use crate::engine::Report;
use crate::engine::movetables::TableWeights;
use crate::tui::layout::{self, Panel, Screen, Slot};
use crate::tui::modes::{BoardMode, BoardShown, describe_board, pick_key_line};
use crate::tui::msg::Msg;
use crate::tui::overlays::Confirm;
use crate::tui::shared::Shared;
use crate::tui::theme::Theme;
use crate::tui::widgets::breakdown::Breakdown;
use crate::tui::widgets::engine_lines::EngineLines;
use crate::tui::widgets::eval_bar::EvalBar;
use crate::tui::widgets::side_name;

use super::eval_graph::EvalGraph;
use super::move_tree::MoveTree;
use super::{Analysis, KEY_LINES, HELP};

impl BoardMode for Analysis {
    fn key(&mut self, cx: &mut Shared, key: KeyEvent, now: Instant) -> bool {
        self.on_key(cx, key, now)
    }

    fn command(&mut self, cx: &mut Shared, typed: &str, now: Instant) -> bool {
        self.on_command(cx, typed, now)
    }

    /// Clicks on the side panel: a move of the tree goes there, an engine
    /// line plays its first move, an explorer move is played; the wheel steps through the line. False
    /// when the panel has nothing there (the board may).
    fn mouse(&mut self, cx: &mut Shared, screen: &Screen, mouse: MouseEvent, now: Instant) -> bool {
        if !screen.panel.contains((mouse.column, mouse.row).into()) {
            return false;
        }
        let placed = layout::stack(screen.panel, &self.slots(cx));
        let (column, row) = (mouse.column, mouse.row);
        match mouse.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                let node = layout::find(&placed, Panel::MoveTree)
                    .and_then(|rect| super::move_at(self, rect, column, row, cx.no_color));
                let line = layout::find(&placed, Panel::EngineLines)
                    .and_then(|rect| layout::line_at(rect, self.lines.shown.len(), column, row));
                let explored = layout::find(&placed, Panel::Explorer).and_then(|rect| {
                    crate::tui::widgets::explorer::move_at(&cx.explorer, rect, column, row)
                });
                if let Some(node) = node {
                    self.goto(cx, node, now);
                } else if let Some(index) = line {
                    self.play_line(cx, index, now);
                } else if let Some(index) = explored {
                    // A click on an explorer move plays it, as Enter does.
                    cx.explorer.pick(index);
                    self.explorer_key(cx, KeyEvent::from(KeyCode::Enter), now);
                }
                true
            }
            MouseEventKind::ScrollUp | MouseEventKind::ScrollDown => {
                let code = if mouse.kind == MouseEventKind::ScrollUp {
                    KeyCode::Left
                } else {
                    KeyCode::Right
                };
                self.on_key(cx, KeyEvent::from(code), now);
                true
            }
            _ => false,
        }
    }

    fn answered(&mut self, cx: &mut Shared, question: Confirm, yes: bool, now: Instant) {
        if question == Confirm::Delete && yes {
            self.delete_here(cx, now);
        }
    }

    fn play(&mut self, cx: &mut Shared, m: Move, now: Instant) {
        self.play_move(cx, m, now);
    }

    fn report(&mut self, cx: &mut Shared, report: Report, now: Instant) {
        if matches!(report, Report::BestMove { .. }) {
            self.search = None;
        }
        self.engine_report(cx, report, now);
    }

    fn task(&mut self, cx: &mut Shared, msg: Msg, _now: Instant) {
        match msg {
            Msg::Review { id, ply, eval } => self.review_progress(cx, id, ply, eval),
            Msg::ReviewDone { id } => self.review_done(cx, id),
            Msg::GameTables { id, ply, tables } => self.game_tables_progress(id, ply, tables),
            Msg::GameTablesDone { id } => self.game_tables_done(id),
            _ => {}
        }
    }

    /// The analysis stops once its time is up (`analysis_limit`).
    fn tick(&mut self, cx: &mut Shared, now: Instant) -> bool {
        self.check_time(cx, now)
    }

    fn needs_ticks(&self) -> bool {
        self.timed()
    }

    /// Back from a dialog or a lesson: the board follows the tree again and
    /// the analysis starts over.
    fn enter(&mut self, cx: &mut Shared, now: Instant) {
        // Back from a dialog: a game asked for with `P` was not started.
        self.play_on = None;
        self.sync_board(cx, now);
    }

    /// The endless search and the review stop.
    fn leave(&mut self, cx: &mut Shared, _now: Instant) {
        self.stop_review(cx);
        self.stop_game_tables(cx);
        if self.search.take().is_some() {
            cx.engine.stop();
        }
    }

    /// On the analysis board either side may move.
    fn human_to_move(&self, cx: &Shared) -> bool {
        !cx.board.game.position().legal_moves().is_empty()
    }

    fn unsaved(&self) -> bool {
        self.modified
    }

    /// With `:map game-history` on: the tables learnt over the game at the
    /// move the cursor is on (none where the walk has not got yet).
    fn map_tables<'a>(&'a self, cx: &'a Shared) -> Option<&'a TableWeights> {
        match &self.game_tables {
            Some(_) => self.shown_game_tables(),
            None => cx.engine_tables.as_deref(),
        }
    }

    fn map_note(&self, _cx: &Shared) -> Vec<String> {
        self.game_tables_note()
    }

    fn description(&self, cx: &Shared, _now: Instant) -> Vec<String> {
        let mut lines = vec![format!(
            "Analysis board, ply {}.",
            self.tree.ply(self.cursor)
        )];
        lines.extend(describe_board(&cx.board.game).lines());
        lines
    }

    fn position_name(&self) -> &'static str {
        "the analysis board's position"
    }

    /// The threat's first move, marked on the board.
    fn board<'a>(&'a self, cx: &'a Shared) -> BoardShown<'a> {
        BoardShown {
            position: cx.board.game.position(),
            last_move: cx.board.game.moves().last().copied(),
            hint: self
                .threat
                .as_ref()
                .and_then(|t| t.line.as_ref())
                .and_then(|line| line.pv.first().copied()),
            interactive: true,
        }
    }

    fn panels(&self, cx: &Shared) -> Vec<Slot> {
        self.slots(cx)
    }

    fn draw_panel(
        &self,
        cx: &Shared,
        frame: &mut Frame,
        panel: Panel,
        rect: Rect,
        theme: &Theme,
        _now: Instant,
    ) -> bool {
        let position = cx.board.game.position();
        match panel {
            Panel::Breakdown => Breakdown { position, theme }.draw(frame, rect),
            Panel::EvalBar => EvalBar {
                position,
                score: self.shown_score(),
                theme,
            }
            .draw(frame, rect),
            Panel::EngineLines => EngineLines {
                position,
                lines: &self.lines.shown,
                multipv: self.multipv,
                on: self.engine_on,
                threat: self
                    .threat
                    .as_ref()
                    .and_then(|t| t.line.as_ref().map(|line| (&t.position, line))),
                stopped: self.stopped,
                theme,
            }
            .draw(frame, rect),
            Panel::EvalGraph => {
                if let Some(review) = &self.review {
                    EvalGraph {
                        review,
                        cursor_ply: self.mainline_ply(),
                        theme,
                    }
                    .draw(frame, rect);
                }
            }
            Panel::Explorer => crate::tui::widgets::explorer::ExplorerView {
                panel: &cx.explorer,
                position,
                theme,
            }
            .draw(frame, rect),
            Panel::MoveTree => MoveTree {
                analysis: self,
                theme,
                no_color: cx.no_color,
            }
            .draw(frame, rect),
            _ => return false,
        }
        true
    }

    fn title(&self, cx: &Shared, theme: &Theme) -> Vec<Span<'static>> {
        let tag = |name: &str| {
            self.tree
                .headers
                .get(name)
                .filter(|v| !v.is_empty() && *v != "?")
                .map(str::to_string)
        };
        let position = cx.board.game.position();
        let ply = self.tree.ply(self.cursor);
        let mut spans = vec![Span::styled(
            format!(
                " Analysis · ply {ply}, {} to move",
                side_name(position.turn())
            ),
            Style::default().add_modifier(Modifier::BOLD),
        )];
        let mut text = String::new();
        if let (Some(white), Some(black)) = (tag("White"), tag("Black")) {
            text.push_str(&format!(" · {white} - {black} {}", self.tree.result));
        }
        if let Some(source) = &self.source {
            let name = source
                .path
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            text.push_str(&format!(" · {name} #{}", source.number));
        }
        spans.push(Span::raw(text));
        if self.modified {
            // "modified" is for a file changed since; a game never saved
            // to one is just that.
            let state = match self.source {
                Some(_) => " · modified",
                None => " · not saved",
            };
            spans.push(Span::styled(
                state,
                Style::default().fg(theme.accent),
            ));
        }
        spans
    }

    fn help(&self) -> &'static [(&'static str, &'static str)] {
        HELP
    }

    fn key_line(&self, cx: &Shared) -> &'static str {
        let forms: &[&'static str] = if self.explorer_in_view(cx) {
            &super::keys::EXPLORER_KEY_LINES
        } else {
            &KEY_LINES
        };
        pick_key_line(forms, true, self.extras(cx).len(), cx.size)
    }

    fn extras(&self, cx: &Shared) -> Vec<Panel> {
        self.tab_panels(cx)
    }
}
