//! The panels beside and under the board, and the rules that give each its
//! rows: a mode lists the slots it wants, `stack` places them.

use super::side::Side;
use crate::engine::stats::SearchStats;

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
    /// The game database's moves for the position (`x`).
    Explorer,
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
    /// Teach mode on a hand-made tree: the whole tree, as the step sees it.
    GameTree,
    /// Teach mode: the current node's moves as an outline.
    NodeMoves,
    /// Teach mode: the explored tree as an outline, with the best line.
    Tree,
    /// Teach mode: what the step did and why.
    Caption,
    /// Teach mode: the same search by five methods.
    Comparison,
    /// Train mode: the question, the verdict and the counts.
    Train,
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
/// nothing. Nothing either until a search has reported (`stats`), or where
/// the panel is not `shown`.
pub fn stats_slots(stats: Option<&SearchStats>, shown: bool, width: u16, keep: u16) -> [Slot; 2] {
    let shown = shown && stats.is_some();
    let full = stats.map_or(0, stats_height);
    let wide = width >= STATS_FULL_WIDTH;
    // The brief form stands in only where the full panel was not placed.
    let placed = std::rc::Rc::new(std::cell::Cell::new(false));
    let placed_full = std::rc::Rc::clone(&placed);
    // The brief form: one line where the side panel is wide enough.
    let line_rows = if width >= STATS_LINE_WIDTH { 1 } else { 2 };
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
    side: &Side,
    available: &[Panel],
    keep: u16,
    slots_of: impl Fn(Panel, u16) -> Vec<Slot>,
) -> Vec<Slot> {
    let Some(shown) = side.shown(available) else {
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
