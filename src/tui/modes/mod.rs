//! The modes of the board. Each mode is one file: its own state, its keys,
//! its command-line words, what it does with engine reports, and which
//! panels it shows beside the board. `App` holds one `Mode` and hands it
//! what the dialogs and the shared board keys leave over.
//!
//! A new mode is a new file here plus a variant of `Mode` and its arm in
//! each `match` of this file and of `app/mod.rs` (the compiler lists them).

pub mod analyse;
pub mod play;
pub mod teach;

use analyse::Analysis;
use teach::Teach;

use super::layout::panels::{Panel, Slot, compact};
use super::shared::Shared;

/// What is on the board.
#[derive(Debug, Clone, PartialEq)]
pub enum Mode {
    /// A game against the engine or between two players.
    Play,
    /// The analysis board.
    Analyse(Box<Analysis>),
    /// Stepping through a recorded search.
    Teach(Box<Teach>),
}

impl Mode {
    /// The panels the mode shows, top to bottom.
    pub fn panels(&self, cx: &Shared) -> Vec<Slot> {
        match self {
            Mode::Play => play::panels(cx),
            Mode::Analyse(analysis) => analysis.panels(cx),
            Mode::Teach(teach) => teach.panels(cx),
        }
    }

    /// The panels under the board (where the mode has any).
    pub fn below(&self, size: (u16, u16)) -> Vec<Slot> {
        match self {
            Mode::Teach(teach) => teach.below(size),
            Mode::Play | Mode::Analyse(_) => Vec::new(),
        }
    }

    /// The tallest square the mode wants, in rows: teach mode keeps the
    /// board small to leave room for the search.
    pub fn max_square(&self, height: u16) -> u16 {
        match self {
            Mode::Teach(_) if height >= 34 => 2,
            Mode::Teach(_) => 1,
            Mode::Play | Mode::Analyse(_) => crate::tui::layout::MAX_SQUARE_HEIGHT,
        }
    }

    /// The mode's keys, for the help.
    pub fn help(&self) -> &'static [(&'static str, &'static str)] {
        match self {
            Mode::Play => play::HELP,
            Mode::Analyse(_) => analyse::HELP,
            Mode::Teach(_) => teach::HELP,
        }
    }

    /// The key line under the board for a terminal of `size`: the
    /// longest form that fits its width.
    pub fn key_line(&self, cx: &Shared) -> &'static str {
        let size = cx.size;
        let (forms, tabs) = match self {
            Mode::Play => (&play::KEY_LINES[..], true),
            Mode::Analyse(_) => (&analyse::KEY_LINES[..], true),
            Mode::Teach(_) => (&teach::KEY_LINES[..], false),
        };
        // Where the panels take turns the line names Tab: the first form
        // (the widest, without it) is skipped. Where fewer than two panels
        // would take turns, Tab does nothing, and the line does not say it.
        let tab_acts = tabs && compact(size) && self.extras(cx).len() >= 2;
        let width = usize::from(size.0);
        let candidates: Vec<&'static str> = forms
            .iter()
            .skip(usize::from(tab_acts))
            .copied()
            .filter(|form| tab_acts || !form.contains("Tab"))
            .collect();
        candidates
            .iter()
            .find(|form| form.chars().count() <= width)
            .or(candidates.last())
            .or(forms.last())
            .copied()
            .unwrap_or_default()
    }

    /// The optional panels that have something to show, in the order Tab
    /// visits them.
    pub fn extras(&self, cx: &Shared) -> Vec<Panel> {
        match self {
            Mode::Play => play::extras(cx),
            Mode::Analyse(analysis) => analysis.extras(cx),
            Mode::Teach(_) => Vec::new(),
        }
    }

    /// The prompt of the command line.
    pub fn prompt(&self) -> &'static str {
        match self {
            Mode::Play => " move> ",
            Mode::Analyse(_) | Mode::Teach(_) => " > ",
        }
    }

    /// Whether the mode shows the statistics panel until `S` says otherwise.
    pub fn stats_by_default(&self) -> bool {
        matches!(self, Mode::Analyse(_) | Mode::Teach(_))
    }

    pub fn analysis(&self) -> Option<&Analysis> {
        match self {
            Mode::Analyse(analysis) => Some(analysis),
            Mode::Play | Mode::Teach(_) => None,
        }
    }

    pub fn teach(&self) -> Option<&Teach> {
        match self {
            Mode::Teach(teach) => Some(teach),
            Mode::Play | Mode::Analyse(_) => None,
        }
    }
}
