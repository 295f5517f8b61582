//! Play mode: a game against the engine (or two players on one board),
//! with clocks, hints, takebacks, draw offers and resignation. The game's
//! session (players, clocks, the end, the engine's thinking) is `Play`'s;
//! the moves are on the shared board. `session.rs` is the game's course,
//! this file the mode's keys, panels and words.

mod browse;
mod keys;
mod record;
mod session;
mod spoilers;

pub use keys::{HELP, KEY_LINES, game_over_key_line};

use std::time::{Duration, Instant};

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, MouseEvent};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Span;
use shakmaty::{Chess, Color, Move, Position};

use crate::config::TimeControl;
use crate::engine::level::Level;
use crate::engine::{MoveSource, Report, Score};
use crate::game::GameEnd;
use crate::tui::clock::Clock;
use crate::tui::engine_line::Thinking;
use crate::tui::layout::Screen;
use crate::tui::layout::panels::{self, Panel, Slot};
use crate::tui::msg::Msg;
use crate::tui::overlays::{self, Confirm, Overlay};
use crate::tui::save::{Players, date_and_time};
use crate::tui::shared::{Pending, Shared, Switch, Tone};
use crate::tui::theme::Theme;
use crate::tui::widgets::engine::{EnginePanel, SPOILER_KEY};
use crate::tui::widgets::move_list::MoveList;
use crate::tui::widgets::{players, side_name};

use super::{BoardMode, BoardShown, pick_key_line};

/// An untimed game gives the engine this long a move (lower levels stop
/// sooner at their own depth or node cap).
pub(super) const UNTIMED_MOVETIME: Duration = Duration::from_secs(3);
/// How long the engine thinks about a hint for the player.
pub(super) const HINT_MOVETIME: Duration = Duration::from_millis(1500);

/// Under this much time left a clock is drawn as a warning (and, with
/// `bell = true` in the config, the bell rings once for the player's).
const LOW_TIME: Duration = Duration::from_secs(10);

/// What the running search is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    EngineMove,
    Hint,
}

/// A game's session.
#[derive(Debug)]
pub struct Play {
    pub players: Players,
    pub time_control: TimeControl,
    pub clock: Option<Clock>,
    pub end: Option<GameEnd>,
    /// The engine's line for its move, while it thinks and after.
    pub thinking: Option<Thinking>,
    /// The engine's suggestion for the player's move (`i`).
    pub hint: Option<Move>,
    /// What the running search is for.
    purpose: Option<Purpose>,
    /// The engine's evaluation at its last move, its own point of view.
    engine_score: Option<Score>,
    /// Where the engine's last move came from (book or search), with its SAN.
    pub engine_source: Option<(String, MoveSource)>,
    /// The clock texts last drawn.
    shown_clocks: (String, String),
    /// The game's date, for its PGN headers.
    date: String,
    /// The PGN text of the game as last saved with `s`, if it was.
    saved_game: Option<String>,
    /// The player's clock has fallen under ten seconds (the bell rang).
    warned: bool,
    /// By ply: the mover's clock after the move (none where not known, as
    /// for the moves of a resumed game), for `[%clk]` in the saved PGN.
    clocks: Vec<Option<Duration>>,
    /// The analysis board the game was played on from (`P` there), to take
    /// the game back to as a variation.
    pub back_to: Option<Box<super::analyse::Analysis>>,
    /// ← and →: the plies on the board being looked at (`None`: the live
    /// position).
    viewing: Option<usize>,
}

impl Play {
    /// No game yet: the board before the new-game dialog's answer.
    pub fn new(level: Level) -> Play {
        Play {
            players: Players::VsEngine {
                human: Color::White,
                level,
            },
            time_control: TimeControl::Untimed,
            clock: None,
            end: None,
            thinking: None,
            hint: None,
            purpose: None,
            engine_score: None,
            engine_source: None,
            shown_clocks: (String::new(), String::new()),
            date: date_and_time().0,
            saved_game: None,
            clocks: Vec::new(),
            warned: false,
            back_to: None,
            viewing: None,
        }
    }

    /// Whether `color`'s clock is under ten seconds in a live game.
    pub fn low_time(&self, color: Color, now: Instant) -> bool {
        self.end.is_none()
            && self
                .clock
                .as_ref()
                .is_some_and(|clock| clock.remaining(color, now) < LOW_TIME)
    }

    /// The key line once the game is over, else the mode's.
    fn keys(&self, cx: &Shared) -> &'static str {
        if self.viewed(&cx.board.game).is_some() {
            return browse::BROWSE_KEY_LINE;
        }
        match self.end {
            Some(end) => game_over_key_line(end),
            None => pick_key_line(&KEY_LINES, true, self.extras(cx).len(), cx.size),
        }
    }
}


impl Play {
    /// The panels beside the board, top to bottom, and how high each is for
    /// the room left below it.
    fn slots(&self, cx: &Shared) -> Vec<Slot> {
        let show_engine = matches!(self.players, Players::VsEngine { .. });
        // The tablebase panel's list: the verdict, then every move.
        let tablebase_rows = match self.spoilers_shown(cx) {
            true => cx.tablebase_view().map_or(0, |(_, moves)| moves.len() + 1),
            false => 0,
        };
        let book_moves = match self.spoilers_shown(cx) {
            true => cx.book_moves_at(self.panel_position(cx)).len(),
            false => 0,
        };
        let mut slots = vec![
            // The players' rows and a blank row under them.
            Slot::new(Panel::Players, |_| Some(6)),
            Slot::new(Panel::Engine, move |room| {
                (show_engine && room >= 6).then(|| 5.min(room / 2).max(4))
            }),
        ];
        if panels::compact(cx.size) {
            // One optional panel at a time; the move list keeps 4 rows.
            slots.extend(panels::tabbed(
                &cx.side,
                &self.extras(cx),
                4,
                |panel, keep| match panel {
                    Panel::Stats => {
                        panels::stats_slots(cx.stats.as_deref(), cx.stats_shown(false), cx.size.0, keep)
                            .into()
                    }
                    Panel::Tablebase => vec![Slot::new(Panel::Tablebase, move |room| {
                        panels::list_height(tablebase_rows, room, keep, 3)
                    })],
                    Panel::Book => vec![Slot::new(Panel::Book, move |room| {
                        panels::list_height(book_moves, room, keep, 2)
                    })],
                    _ => Vec::new(),
                },
            ));
        } else {
            // The move list keeps at least 4 rows below the statistics.
            let [stats_full, stats_line] =
                panels::stats_slots(cx.stats.as_deref(), cx.stats_shown(false), cx.size.0, 4);
            slots.extend([
                stats_full,
                stats_line,
                Slot::new(Panel::Tablebase, move |room| {
                    panels::list_height(tablebase_rows, room / 2, 0, 3)
                }),
                Slot::new(Panel::Book, move |room| {
                    panels::list_height(book_moves.min(4), room / 2, 0, 2)
                }),
            ]);
        }
        slots.push(Slot::new(Panel::MoveList, |room| {
            (room >= 3).then_some(room)
        }));
        slots
    }
}

impl BoardMode for Play {
    fn key(&mut self, cx: &mut Shared, key: KeyEvent, now: Instant) -> bool {
        if self.browse_key(cx, key) {
            return true;
        }
        match key.code {
            // After a game the dialog's next steps stay on the keys (and on
            // the key line) once it is closed.
            KeyCode::Char('a') if self.end.is_some() => cx.switch(Switch::AnalyseGame),
            KeyCode::Char('u') => self.takeback(cx, now),
            KeyCode::Char('i') => self.ask_hint(cx, now),
            KeyCode::Char('d') => self.offer_draw(cx),
            KeyCode::Char(SPOILER_KEY) => self.toggle_spoilers(cx),
            KeyCode::Char('r') if self.end.is_none() && cx.started => {
                cx.overlay = Overlay::Confirm(Confirm::Resign);
            }
            KeyCode::Char('n') => {
                cx.overlay = if self.game_in_progress(cx) {
                    Overlay::Confirm(Confirm::Abandon)
                } else if self.unsaved() {
                    // The analysis board this game came from has changes:
                    // a new game would drop them, so it asks.
                    cx.pending = Some(Pending::NewGame);
                    Overlay::Confirm(Confirm::Discard)
                } else {
                    Overlay::NewGame(cx.services.new_game_form(None))
                };
            }
            KeyCode::Char('s') => self.save_pgn(cx, now),
            KeyCode::Char('q') if self.unsaved() => {
                cx.overlay = Overlay::Confirm(Confirm::QuitUnsaved);
            }
            KeyCode::Char('q') => cx.overlay = Overlay::Confirm(Confirm::Quit),
            _ => return false,
        }
        true
    }

    fn command(&mut self, cx: &mut Shared, typed: &str, now: Instant) -> bool {
        match typed {
            "undo" | "takeback" => self.takeback(cx, now),
            "hint" => self.ask_hint(cx, now),
            "draw" => self.offer_draw(cx),
            "spoilers" => self.toggle_spoilers(cx),
            "resign" if self.end.is_none() && cx.started => {
                cx.overlay = Overlay::Confirm(Confirm::Resign);
            }
            "resign" => {}
            "save" => self.save_pgn(cx, now),
            "copy" | "pgn" => self.copy_pgn(cx),
            "new" => {
                return self.key(cx, KeyEvent::from(KeyCode::Char('n')), now);
            }
            _ => return false,
        }
        true
    }

    fn dialog_key(
        &mut self,
        cx: &mut Shared,
        dialog: &Overlay,
        key: KeyEvent,
        now: Instant,
    ) -> Option<bool> {
        if *dialog != Overlay::GameOver {
            return None;
        }
        Some(match key.code {
            KeyCode::Char('a') => {
                cx.switch(Switch::AnalyseGame);
                true
            }
            // Saving answers in the status line and leaves the dialog with
            // its next steps.
            KeyCode::Char('s') => {
                cx.overlay = Overlay::GameOver;
                self.save_pgn(cx, now);
                true
            }
            // The next steps it names go on to the board, the dialog closed.
            KeyCode::Char('n' | 'q' | 'u' | 'f' | '?' | 'D') => false,
            _ => true,
        })
    }

    fn answered(&mut self, cx: &mut Shared, question: Confirm, yes: bool, now: Instant) {
        match (question, yes) {
            (Confirm::DrawOffer, false) => cx.say("The draw offer is declined.", Tone::Info),
            (Confirm::DrawOffer, true) => self.finish(cx, GameEnd::Agreement, now),
            (Confirm::OfferDraw, true) => self.engine_answers_draw(cx, now),
            (Confirm::Abandon, true) => {
                self.stop_search(cx);
                if let Some(clock) = &mut self.clock {
                    clock.pause(now);
                }
                cx.overlay = Overlay::NewGame(cx.services.new_game_form(None));
            }
            (Confirm::Resign, true) => {
                let resigner = match self.players {
                    Players::VsEngine { human, .. } => human,
                    Players::TwoHumans => cx.board.game.position().turn(),
                };
                self.finish(cx, GameEnd::Resignation { winner: !resigner }, now);
            }
            _ => {}
        }
    }

    fn mouse(&mut self, cx: &mut Shared, screen: &Screen, mouse: MouseEvent, _now: Instant) -> bool {
        self.browse_mouse(cx, screen, mouse)
    }

    fn play(&mut self, cx: &mut Shared, m: Move, now: Instant) {
        // A move is made on the live position: the board shows it again.
        self.viewing = None;
        self.play_move(cx, m, now);
    }

    fn report(&mut self, cx: &mut Shared, report: Report, now: Instant) {
        self.game_report(cx, report, now);
    }

    fn task(&mut self, _cx: &mut Shared, _msg: Msg, _now: Instant) {}

    fn tick(&mut self, cx: &mut Shared, now: Instant) -> bool {
        self.clock_tick(cx, now)
    }

    fn needs_ticks(&self) -> bool {
        self.end.is_none() && self.clock.as_ref().is_some_and(|c| c.running().is_some())
    }

    fn enter(&mut self, cx: &mut Shared, now: Instant) {
        self.continue_game(cx, now);
    }

    fn leave(&mut self, cx: &mut Shared, now: Instant) {
        self.stop_search(cx);
        if let Some(clock) = &mut self.clock {
            clock.pause(now);
        }
    }

    /// Quitting saves the clocks as they stand, so a resumed game does not
    /// give back the time thought since the last move.
    fn quit(&mut self, cx: &mut Shared, now: Instant) {
        if self.game_in_progress(cx) {
            self.autosave(cx, now);
        }
    }

    fn human_to_move(&self, cx: &Shared) -> bool {
        self.human_to_move_in_game(cx)
    }

    fn why_no_move(&self, cx: &Shared, typed: bool) -> Option<&'static str> {
        match (typed, self.end) {
            (true, Some(_)) => Some("The game is over."),
            (true, None) => Some("It is the engine's turn."),
            (false, Some(_)) => None,
            (false, None) => cx.started.then_some("Wait for the engine's move."),
        }
    }

    fn in_progress(&self, cx: &Shared) -> bool {
        self.game_in_progress(cx)
    }

    /// A game played on from the analysis board holds that board's
    /// changes until `a` puts the game back.
    fn unsaved(&self) -> bool {
        self.back_to.as_ref().is_some_and(|analysis| analysis.modified)
    }

    fn game_end(&self) -> Option<GameEnd> {
        self.end
    }

    fn description(&self, cx: &Shared, now: Instant) -> Vec<String> {
        let clocks = self.clock.as_ref().map(|clock| {
            (
                clock.remaining(Color::White, now),
                clock.remaining(Color::Black, now),
            )
        });
        super::describe_board(&cx.board.game)
            .with_clocks(clocks)
            .with_end(self.end)
            .lines()
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
        now: Instant,
    ) -> bool {
        let position = cx.board.game.position();
        match panel {
            Panel::Players => players::Players {
                players: self.players,
                start: cx.board.game.start(),
                position,
                // Material and what was taken follow the board: while
                // looking back, the position looked at.
                shown: self.board(cx).position,
                clocks: self.clock_texts(now),
                running: self.end.is_none() && cx.started,
                low: (
                    self.low_time(Color::White, now),
                    self.low_time(Color::Black, now),
                ),
                pieces: cx.services.settings.pieces,
                theme,
            }
            .draw(frame, rect),
            Panel::Engine => EnginePanel {
                hidden: !cx.engine_panel,
                spoilers: self.spoilers(cx),
                thinking: self.thinking.as_ref(),
                source: self.engine_source.as_ref(),
                searching: self.engine_thinking(),
                end: self.end,
                theme,
            }
            .draw(frame, rect),
            Panel::MoveList => MoveList {
                game: &cx.board.game,
                viewing: self.viewed(&cx.board.game),
                no_color: cx.no_color,
                theme,
            }
            .draw(frame, rect),
            _ => return false,
        }
        true
    }

    fn draw_dialog(&self, cx: &Shared, frame: &mut Frame, area: Rect, theme: &Theme) -> bool {
        match (&cx.overlay, self.end) {
            (Overlay::GameOver, Some(end)) => {
                overlays::game_over::draw(frame, end, cx.board.game.len(), area, theme);
                true
            }
            (Overlay::GameOver, None) => true,
            _ => false,
        }
    }

    /// While looking back, the book and the tablebase follow the board,
    /// as Material and Taken do.
    fn panel_position<'a>(&'a self, cx: &'a Shared) -> &'a Chess {
        self.board(cx).position
    }

    fn board<'a>(&'a self, cx: &'a Shared) -> BoardShown<'a> {
        let game = &cx.board.game;
        if let Some(plies) = self.viewed(game)
            && let Some(position) = game.position_at(plies)
        {
            return BoardShown {
                position,
                last_move: Self::browsed_last_move(game, plies),
                hint: None,
                interactive: false,
            };
        }
        BoardShown {
            position: cx.board.game.position(),
            last_move: cx.board.game.moves().last().copied(),
            hint: self.hint,
            interactive: true,
        }
    }

    fn title(&self, cx: &Shared, theme: &Theme) -> Vec<Span<'static>> {
        let who = match self.players {
            Players::VsEngine { human, level } => format!(
                " You ({}) vs kibitz level {}",
                side_name(human),
                level.get()
            ),
            Players::TwoHumans => " Two players".to_string(),
        };
        let state = self
            .browse_title(&cx.board.game)
            .unwrap_or_else(|| match self.end {
                Some(end) => format!("{} {}", end.result(), end.describe()),
                None if self.engine_thinking() => "kibitz is thinking".to_string(),
                None => {
                    let position = cx.board.game.position();
                    let check = if position.is_check() {
                        ", in check"
                    } else {
                        ""
                    };
                    format!("{} to move{check}", side_name(position.turn()))
                }
            });
        // Looking back is marked in the accent colour: the board is not
        // the game's position.
        let state_style = match self.viewed(&cx.board.game) {
            Some(_) => Style::default().fg(theme.accent).add_modifier(Modifier::BOLD | Modifier::REVERSED),
            None => Style::default().add_modifier(Modifier::BOLD),
        };
        vec![
            Span::raw(who),
            Span::styled(" · ", Style::default().fg(theme.dim)),
            Span::raw(self.time_control.to_string()),
            Span::styled(" · ", Style::default().fg(theme.dim)),
            Span::styled(state, state_style),
        ]
    }

    fn help(&self) -> &'static [(&'static str, &'static str)] {
        HELP
    }

    fn key_line(&self, cx: &Shared) -> &'static str {
        self.keys(cx)
    }

    fn extras(&self, cx: &Shared) -> Vec<Panel> {
        Play::extras(self, cx)
    }

    fn prompt(&self) -> &'static str {
        " move> "
    }

    fn stats_by_default(&self) -> bool {
        false
    }
}
