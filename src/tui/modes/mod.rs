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

use crate::engine::stats::SearchStats;

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

/// The panels beside the board. Each is drawn by its widget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Panel {
    /// Names, clocks and material of a game.
    Players,
    /// The engine's search for its own move in a game.
    Engine,
    /// The analysis lines.
    EngineLines,
    EvalBar,
    EvalGraph,
    Breakdown,
    Book,
    Tablebase,
    /// A game's moves in pairs.
    MoveList,
    /// The analysis board's tree of moves.
    MoveTree,
    /// The engine's search statistics, in full.
    Stats,
    /// The same in one line, where there is no room for more.
    StatsLine,
    /// Teach mode: the algorithm, its switches and where the replay is.
    TeachHeader,
    /// Teach mode: the moves from the root, each ply with its window.
    SearchPath,
    /// Teach mode: the current node's moves as an outline.
    NodeMoves,
    /// Teach mode: what the step did and why.
    Caption,
    /// Teach mode: the same search by five methods.
    Comparison,
    /// A compact terminal: the names of the optional panels that take
    /// turns in one place (Tab switches).
    Tabs,
}

/// A panel a mode shows, and its height for the room left (none: not
/// shown in that room).
pub struct Slot {
    pub panel: Panel,
    pub height: Box<dyn Fn(u16) -> Option<u16>>,
}

impl Slot {
    pub fn new(panel: Panel, height: impl Fn(u16) -> Option<u16> + 'static) -> Slot {
        Slot {
            panel,
            height: Box::new(height),
        }
    }
}

/// At most this many iterations get a bar of their own (the deepest).
pub const STATS_BARS: usize = 8;

/// Terminals this wide leave the side panel room for the brief statistics
/// in one line.
const STATS_LINE_WIDTH: u16 = 110;

/// Terminals narrower than this (80 columns) leave the side panel too
/// narrow for the full statistics' lines: the brief form stands in.
const STATS_FULL_WIDTH: u16 = 90;

/// Rows of the full statistics panel: the title, a header, a bar per
/// iteration (up to [`STATS_BARS`]) and three rows of figures.
pub fn stats_height(stats: &SearchStats) -> u16 {
    2 + stats.iterations.len().clamp(1, STATS_BARS) as u16 + 3
}

/// The statistics panel's slots: the full panel where the room left allows
/// it and still leaves `keep` rows for what comes after, else one line, else
/// nothing. Nothing either until a search has reported.
pub fn stats_slots(cx: &Shared, by_default: bool, keep: u16) -> [Slot; 2] {
    let shown = cx.stats_shown(by_default) && cx.stats.is_some();
    let full = cx.stats.as_ref().map_or(0, |s| stats_height(s));
    let wide = cx.size.0 >= STATS_FULL_WIDTH;
    // The brief form stands in only where the full panel was not placed.
    let placed = std::rc::Rc::new(std::cell::Cell::new(false));
    let placed_full = std::rc::Rc::clone(&placed);
    // The brief form: one line where the side panel is wide enough.
    let line_rows = if cx.size.0 >= STATS_LINE_WIDTH { 1 } else { 2 };
    [
        Slot::new(Panel::Stats, move |room| {
            let fits = shown && wide && room >= full + keep;
            placed_full.set(fits);
            fits.then_some(full)
        }),
        Slot::new(Panel::StatsLine, move |room| {
            (shown && !placed.get() && room >= keep + line_rows).then_some(line_rows)
        }),
    ]
}

/// Terminals lower than this are compact: the optional panels beside the
/// board (book, tablebase, review graph, evaluation terms, statistics) take
/// turns in one place, Tab switching between them. 80 x 24 is compact;
/// 100 x 32 and 120 x 40 show them all.
pub const COMPACT_HEIGHT: u16 = 30;

pub fn compact(size: (u16, u16)) -> bool {
    size.1 < COMPACT_HEIGHT
}

/// In a compact terminal, the slots of the optional panels: the row of
/// their names where more than one has something to show, then the one
/// shown, as high as `slot` makes it for the room left minus `keep` rows
/// (for the panel after it).
pub fn tabbed(
    cx: &Shared,
    available: &[Panel],
    keep: u16,
    slots_of: impl Fn(Panel, u16) -> Vec<Slot>,
) -> Vec<Slot> {
    let Some(shown) = cx.side.shown(available) else {
        return Vec::new();
    };
    let mut slots = Vec::new();
    if available.len() > 1 {
        slots.push(Slot::new(Panel::Tabs, move |room| {
            (room > keep + 2).then_some(1)
        }));
    }
    slots.extend(slots_of(shown, keep));
    slots
}

/// The rows a list of `len` rows under a title gets from `room`, leaving
/// `keep`: none where fewer than `least` rows (title included) are left.
pub fn list_height(len: usize, room: u16, keep: u16, least: u16) -> Option<u16> {
    let height = (len as u16)
        .saturating_add(1)
        .min(room.saturating_sub(keep));
    (len > 0 && height >= least).then_some(height)
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
