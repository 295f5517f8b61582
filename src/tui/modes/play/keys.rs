//! The keys of a game: its help and the key lines under the board.

use crate::game::GameEnd;

/// The keys of a game, for the help.
pub const HELP: &[(&str, &str)] = &[
    ("↑ ↓, h j k l", "move the cursor"),
    (
        "← →, Home End",
        "look back through the moves played; End returns to the game",
    ),
    (
        "Enter, Space",
        "pick up a piece / put it down; or click, or drag it",
    ),
    (
        ": or /",
        "type a move (Nf3, exd5, O-O, e8=Q, g1f3); Tab completes",
    ),
    ("u", "take back your last move"),
    ("i", "hint: the engine's suggestion, shown on the board"),
    ("d", "offer a draw"),
    ("r", "resign"),
    ("n", "new game"),
    ("s", "save the game as PGN"),
    ("f", "flip the board"),
    (
        "e, v",
        "show or hide the engine panel (e), its spoilers (v)",
    ),
    (
        "S, :stats",
        "search statistics: nodes per depth, cutoffs, TT hits",
    ),
    (
        "",
        "branching factor: N(d)/N(d-1), and root = (all nodes)^(1/d)",
    ),
    (
        "m M #, :map",
        "table; touches/importance/net/best; numbers; :map lists",
    ),
    (
        "Tab; PgUp PgDn",
        "next side panel where not all fit; scroll the tablebase",
    ),
    ("Esc", "cancel a selection or a dialog"),
    ("?, D", "this help; the position in words (:describe)"),
    ("q, Ctrl-C", "quit (the game is autosaved)"),
    ("o, g", "open a PGN file; the games of the open file"),
    (
        "T, :teach",
        "step through the engine's search of this position",
    ),
    (
        ":analyse",
        "the game to the analysis board: once over, or before a move",
    ),
];

/// The key line under the board, longest first: the first that fits the
/// width is shown (a compact terminal skips the first, to name Tab).
pub const KEY_LINES: [&str; 6] = [
    " hjkl/mouse/: move · ← → back · u takeback · i hint · d draw · m map · q quit · ? help",
    " hjkl/mouse/: move · u takeback · i hint · d draw · m map · q quit · ? help",
    " : move · u takeback · i hint · d draw · m map · Tab panels · q quit · ? help",
    " : move · u takeback · Tab panels · ? help",
    // Where Tab has nothing to switch.
    " : move · u takeback · i hint · d draw · m map · q quit · ? help",
    " : move · u takeback · ? help",
];

/// The key line once the game is over: the game-over dialog's next steps.
/// A game lost on time cannot be taken back, so `u` is not offered then.
pub fn game_over_key_line(end: GameEnd) -> &'static str {
    match end {
        GameEnd::Time { .. } => " n new game · s save · a analyse · ? help · q quit",
        _ => " n new game · s save · u takeback · a analyse · ? help · q quit",
    }
}
