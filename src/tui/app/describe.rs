//! `D` and `:describe`: the position on the board in plain words, in every
//! mode (the words come from [`crate::game::describe`]; the mode says what
//! its board shows).

use std::time::Instant;

use ratatui::crossterm::event::KeyEvent;

use super::App;
use crate::tui::overlays::Overlay;
use crate::tui::overlays::describe::{Answer, DescribeView};

impl App {
    /// The position on the board in words.
    pub fn description(&self, now: Instant) -> Vec<String> {
        self.mode.get().description(&self.cx, now)
    }

    pub fn describe(&mut self, now: Instant) {
        let lines = self.description(now);
        self.cx.overlay = Overlay::Describe(DescribeView::new(lines));
    }

    pub(super) fn describe_key(&mut self, view: DescribeView, key: KeyEvent) {
        if let Answer::Open(view) = view.key(key, self.cx.size) {
            self.cx.overlay = Overlay::Describe(view);
        }
    }
}
