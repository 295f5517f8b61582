//! `D` and `:describe`: the position on the board in plain words, in every
//! mode (the words come from [`crate::game::describe`]).

use std::time::Instant;

use ratatui::crossterm::event::KeyEvent;
use shakmaty::{Color, Position};

use super::App;
use crate::game::describe::{Description, move_sentence, side_name};
use crate::tui::modes::Mode;
use crate::tui::overlays::Overlay;
use crate::tui::overlays::describe::{Answer, DescribeView};

impl App {
    /// The lines describing what the board shows now.
    pub fn description(&self, now: Instant) -> Vec<String> {
        // Teach mode shows a node of the search, not the game.
        if self.mode.teach().is_some() {
            return self.teach_description();
        }
        let game = &self.game;
        let mut description = Description::new(game.position());
        if let (Some(&m), Some(before)) = (
            game.moves().last(),
            game.len().checked_sub(1).and_then(|i| game.position_at(i)),
        ) {
            description = description.with_last_move(before, m);
        }
        let mut lines = Vec::new();
        match &self.mode {
            Mode::Play => {
                let clocks = self.clock.as_ref().map(|clock| {
                    (
                        clock.remaining(Color::White, now),
                        clock.remaining(Color::Black, now),
                    )
                });
                description = description.with_clocks(clocks).with_end(self.end);
            }
            Mode::Analyse(analysis) => lines.push(format!(
                "Analysis board, ply {}.",
                analysis.tree.ply(analysis.cursor)
            )),
            Mode::Teach(_) => {}
        }
        lines.extend(description.lines());
        lines
    }

    /// Teach mode: the node of the search on the board, the move that led
    /// there and the move being tried.
    fn teach_description(&self) -> Vec<String> {
        let Some(teach) = self.mode.teach() else {
            return Vec::new();
        };
        let (position, arrived, trying) = teach.board();
        let mut description = Description::new(position);
        let frames = teach.ready().map(|(_, step)| &step.frames[..]);
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

    /// Open the description over the board.
    pub fn describe(&mut self, now: Instant) {
        let lines = self.description(now);
        self.overlay = Overlay::Describe(DescribeView::new(lines));
    }

    /// A key while the description is open.
    pub(super) fn describe_key(&mut self, view: DescribeView, key: KeyEvent) {
        if let Answer::Open(view) = view.key(key, self.size) {
            self.overlay = Overlay::Describe(view);
        }
    }
}
