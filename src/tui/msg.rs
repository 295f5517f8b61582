//! Everything that can happen to the UI, as one message type: the event loop
//! turns key presses, mouse actions, resizes, engine reports and clock ticks
//! into `Msg`s and hands them to `App::update`.

use std::time::Instant;

use ratatui::crossterm::event::{KeyEvent, MouseEvent};

use crate::engine::Report;

#[derive(Debug, Clone)]
pub enum Msg {
    /// A key, with the moment the input thread read it (for latency figures).
    Key(KeyEvent, Instant),
    Mouse(MouseEvent),
    /// The terminal's new size, columns x rows.
    Resize(u16, u16),
    Engine(Report),
    /// The clock ticked: time to look at the clocks.
    Tick,
    /// Endgame tables finished loading (or generating) in the background.
    Tablebases(std::sync::Arc<crate::tablebase::Tablebases>),
    /// Something a background task wants the user to know.
    Notice(String),
}
