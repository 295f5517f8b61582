//! Before any game: the board behind the first dialogs is a picture of
//! what the dialog offers (the start position, the unfinished game), and
//! never a game to play.

use std::time::Duration;

use shakmaty::Color;

use crate::engine::level::Level;
use crate::game::Game;
use crate::tui::overlays::Overlay;
use crate::tui::save::Players;

use super::App;

impl App {
    /// Before anything is on the board, the board behind the new-game
    /// dialog shows the position the game will start from, and the board
    /// behind the resume dialog the game it offers.
    pub(super) fn backdrop(&mut self) {
        if self.cx.started {
            return;
        }
        let shown = match &self.cx.overlay {
            Overlay::NewGame(form) => {
                let players = match form.side {
                    1 => Players::VsEngine {
                        human: Color::Black,
                        level: Level::new(form.level).unwrap_or_default(),
                    },
                    3 => Players::TwoHumans,
                    _ => Players::VsEngine {
                        human: Color::White,
                        level: Level::new(form.level).unwrap_or_default(),
                    },
                };
                Some((
                    Game::new(form.shown_start()),
                    players,
                    form.time_control(),
                    None,
                ))
            }
            Overlay::Resume(saved) => saved.restore().ok().map(|(game, players, time_control)| {
                let times = (
                    Duration::from_millis(saved.white_ms),
                    Duration::from_millis(saved.black_ms),
                );
                (game, players, time_control, Some(times))
            }),
            _ => None,
        };
        if let Some((game, players, time_control, times)) = shown
            && let Some(play) = self.mode.game_mut()
        {
            play.backdrop(&mut self.cx, game, players, time_control, times);
        }
    }

    /// Before anything is on the board, the game drawn there is only the
    /// picture behind a dialog: it never becomes a game to play. A dialog
    /// that closed with nothing behind it leaves the new-game dialog (Esc
    /// there quits, as at the start).
    pub(super) fn dialog_before_anything(&mut self) {
        let cx = &mut self.cx;
        // (A lesson opened from the whole-file review is no such picture.)
        if !cx.started && !cx.quit && cx.overlay == Overlay::None && self.mode.game().is_some() {
            cx.overlay = Overlay::NewGame(cx.services.new_game_form(None));
        }
    }
}
