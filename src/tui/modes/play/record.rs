//! A game's record: its PGN headers, the PGN to the clipboard or to a
//! file in the data folder's `games/`, and the autosave after every move.

use std::time::{Duration, Instant};

use shakmaty::Color;

use crate::game::archive::{game_headers, save_in_games};
use crate::game::GameEnd;
use crate::game::pgn::{Headers, write_pgn_clocked};
use crate::tui::save::SavedGame;
use crate::tui::shared::{Shared, Tone};
use crate::tui::tasks::Request;

use super::Play;

impl Play {
    pub fn headers(&self) -> Headers {
        game_headers(
            &self.players.name(Color::White),
            &self.players.name(Color::Black),
            &self.date,
            self.end,
            &self.time_control.pgn(),
        )
    }

    /// The game so far as PGN, to the clipboard (as the analysis board's
    /// `:copy` does).
    pub fn copy_pgn(&mut self, cx: &mut Shared) {
        let text = self.game_pgn(cx);
        cx.requests.push(Request::Clipboard(text));
        cx.say(
            "PGN of the game so far copied (if the terminal allows).",
            Tone::Info,
        );
    }

    /// The game as `s` writes it: with the opening's ECO code and name and
    /// each move's clock.
    pub fn game_pgn(&self, cx: &Shared) -> String {
        let result = self.end.map_or("*", GameEnd::result);
        let mut headers = self.headers();
        if let Some(opening) = cx.board.opening() {
            headers.set("ECO", opening.eco.clone());
            headers.set("Opening", opening.name.clone());
        }
        let clocks = &self.clocks[..self.clocks.len().min(cx.board.game.len())];
        write_pgn_clocked(&cx.board.game, &headers, result, clocks)
    }

    /// The game as it stands has been saved (`s`), so taking it to the
    /// analysis board leaves nothing unsaved.
    pub fn game_saved(&self, cx: &Shared) -> bool {
        self.saved_game
            .as_ref()
            .is_some_and(|saved| *saved == self.game_pgn(cx))
    }

    pub fn save_pgn(&mut self, cx: &mut Shared, _now: Instant) {
        if !cx.started {
            return;
        }
        let Some(dirs) = &cx.services.dirs else {
            cx.say("No data directory: nothing can be saved.", Tone::Error);
            return;
        };
        let text = self.game_pgn(cx);
        match save_in_games(&dirs.data, "kibitz", &text) {
            Ok(path) => {
                cx.say(format!("Saved {}", path.display()), Tone::Info);
                self.saved_game = Some(text);
            }
            Err(e) => cx.say(
                format!("Cannot save {}: {}", e.path.display(), e.source),
                Tone::Error,
            ),
        }
    }

    pub fn autosave(&mut self, cx: &mut Shared, now: Instant) {
        if cx.services.dirs.is_none() && cx.services.autosave.is_none() {
            return;
        }
        let times = match &self.clock {
            Some(clock) => (
                clock.remaining(Color::White, now),
                clock.remaining(Color::Black, now),
            ),
            None => (Duration::ZERO, Duration::ZERO),
        };
        let saved = SavedGame::new(
            &cx.board.game,
            self.players,
            self.time_control,
            times,
            self.end.is_some(),
        );
        if let Err(e) = cx.services.write_autosave(&saved) {
            cx.say(format!("Autosave failed: {e}"), Tone::Error);
        }
    }
}
