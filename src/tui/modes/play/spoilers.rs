//! Spoiler-free play: what a game against the engine keeps back until it
//! ends (the engine's line and score, the book, the tablebase), `v` to
//! show it, and the board drawn behind the first dialog.

use std::time::Duration;

use shakmaty::Color;

use crate::config::TimeControl;
use crate::game::Game;
use crate::tui::clock::Clock;
use crate::tui::layout::panels::Panel;
use crate::tui::save::Players;
use crate::tui::shared::{Shared, Tone};
use crate::tui::widgets::engine::Spoilers;

use super::Play;
use crate::tui::modes::BoardMode;

impl Play {
    /// Whether the engine's line and score, the book and the tablebase are
    /// kept back: during a game against the engine, unless the player
    /// asked for them (`v`, or `spoilers = "show"` in the config). Before
    /// any game (behind the first dialog) the engine has no line to hide,
    /// and `v` would not answer there: the panel says nothing of them.
    pub fn spoilers(&self, cx: &Shared) -> Spoilers {
        if !cx.started {
            return Spoilers::Free;
        }
        match (self.players, self.end) {
            (Players::VsEngine { .. }, None) if cx.spoilers_shown => Spoilers::Shown,
            (Players::VsEngine { .. }, None) => Spoilers::Hidden,
            _ => Spoilers::Free,
        }
    }

    /// Whether the panels that suggest moves (book, tablebase) may show:
    /// not while the spoilers are kept back, nor when `e` hid the engine's
    /// thinking (a book or table move list would give the same moves away).
    /// Behind the first dialog they never show: nothing is played yet, and
    /// the game about to start (or to be resumed) may be one against the
    /// engine.
    pub(super) fn spoilers_shown(&self, cx: &Shared) -> bool {
        cx.started && cx.engine_panel && self.spoilers(cx) != Spoilers::Hidden
    }

    /// The optional panels of a game that have something to show, in the
    /// order Tab visits them.
    pub fn extras(&self, cx: &Shared) -> Vec<Panel> {
        let mut panels = Vec::new();
        if self.spoilers_shown(cx) && cx.tablebase_view().is_some() {
            panels.push(Panel::Tablebase);
        }
        if self.spoilers_shown(cx) && !cx.book_moves_at(self.board(cx).position).is_empty() {
            panels.push(Panel::Book);
        }
        if cx.stats_shown(false) && cx.stats.is_some() {
            panels.push(Panel::Stats);
        }
        panels
    }

    /// Before anything is on the board: draw what the dialog over it is
    /// about, `game` between `players` (the new game's start, or the
    /// unfinished game offered, with its clocks as saved: `times`).
    pub fn backdrop(
        &mut self,
        cx: &mut Shared,
        game: Game,
        players: Players,
        time_control: TimeControl,
        times: Option<(Duration, Duration)>,
    ) {
        if cx.started {
            return;
        }
        cx.board.game = game;
        // Stopped clocks: only a game started from the dialog runs them.
        self.clock = match (time_control, times) {
            (TimeControl::Fischer { increment, .. }, Some((white, black))) => {
                Some(Clock::with_remaining(white, black, increment))
            }
            _ => None,
        };
        cx.board.flipped = matches!(
            players,
            Players::VsEngine {
                human: Color::Black,
                ..
            }
        );
        self.players = players;
        self.time_control = time_control;
    }

    /// `v`: show the spoilers during the game, or hide them again.
    pub(super) fn toggle_spoilers(&mut self, cx: &mut Shared) {
        if self.spoilers(cx) == Spoilers::Free {
            cx.say(
                "Nothing to hide: spoilers are kept back only during a game against the engine.",
                Tone::Info,
            );
            return;
        }
        cx.spoilers_shown = !cx.spoilers_shown;
        let text = if cx.spoilers_shown {
            "Spoilers shown: engine line and score, book, tablebase · v hides them."
        } else {
            "Spoilers hidden until the game ends · v shows them."
        };
        cx.say(text, Tone::Info);
    }
}
