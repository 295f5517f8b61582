//! Questions that need a yes or no.

use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use crate::tui::theme::Theme;

use super::popup;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirm {
    Quit,
    Resign,
    /// Start a new game while one is in progress.
    Abandon,
    /// Two players on one board: the other one accepts the draw?
    DrawOffer,
    /// Against the engine: offer it a draw (if it accepts, the game ends)?
    OfferDraw,
    /// Quit the analysis board with unsaved changes.
    QuitUnsaved,
    /// Open something else and drop the unsaved changes.
    Discard,
    /// Delete the move under the cursor and what follows it.
    Delete,
    /// Stop the review of a whole file that is under way.
    StopReviewAll,
}

impl Confirm {
    pub fn question(self, game_in_progress: bool) -> &'static str {
        match self {
            Confirm::Quit if game_in_progress => {
                "Quit? The game is autosaved and offered again at the next start."
            }
            Confirm::Quit => "Quit kibitz?",
            Confirm::Resign => "Resign this game?",
            Confirm::Abandon => "Abandon this game and start a new one?",
            Confirm::DrawOffer => "A draw is offered. Accept it?",
            Confirm::OfferDraw => "Offer kibitz a draw? If it accepts, the game ends drawn.",
            Confirm::QuitUnsaved => "The analysis has unsaved changes (s saves). Quit anyway?",
            Confirm::Discard => "The analysis has unsaved changes. Drop them?",
            Confirm::Delete => "Delete this move and everything after it?",
            Confirm::StopReviewAll => {
                "Stop the review? Games reviewed are kept; Ctrl-R resumes it."
            }
        }
    }

    /// The answer a key gives: yes, no, or none (the question stays).
    ///
    /// Every question here ends something (a game, the program, unsaved
    /// work, a line of moves), so only `y` says yes. Enter takes the
    /// highlighted default, which is "no": a player who presses Enter out
    /// of habit, e.g. after typing a move into a dialog that just opened,
    /// must not lose the game to it.
    pub fn answer(key: KeyEvent) -> Option<bool> {
        match key.code {
            KeyCode::Char('y' | 'Y') => Some(true),
            KeyCode::Char('n' | 'N') | KeyCode::Esc | KeyCode::Enter => Some(false),
            _ => None,
        }
    }

    /// The key line of the dialog: which key does what, with the default
    /// (what Enter does) marked.
    pub const KEYS: &'static str = " y yes · n no (Enter: no)";

    pub fn draw(self, frame: &mut Frame, game_in_progress: bool, area: Rect, theme: &Theme) {
        let text = self.question(game_in_progress);
        let width = (text.chars().count() as u16 + 4).clamp(30, area.width);
        let title = match self {
            Confirm::DrawOffer => "Draw offer",
            _ => "Confirm",
        };
        let inner = popup(frame, area, width, 6, title, theme);
        let lines = vec![
            Line::from(format!(" {text}")),
            Line::styled(Self::KEYS, Style::default().add_modifier(Modifier::BOLD)),
        ];
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), inner);
    }
}
