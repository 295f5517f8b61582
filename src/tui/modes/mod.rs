//! The modes of the board. A mode is a type that implements [`BoardMode`]:
//! its own state, its keys, its command-line words, its mouse, what it does
//! with engine reports and background answers, the panels it shows beside
//! and under the board and how they are drawn, its help and key line, and
//! what happens when it is left and come back to. `App` holds one [`Mode`]
//! and hands it each message once.
//!
//! Adding a mode is one file (or folder) here with a type implementing
//! `BoardMode`, and one line in the `modes!` list below. How modes lead to
//! one another (a new game, the analysis board, a lesson) is in `switch.rs`.

pub mod switch;

use std::time::Instant;

use ratatui::Frame;
use ratatui::crossterm::event::{KeyEvent, MouseEvent};
use ratatui::layout::Rect;
use ratatui::text::Span;
use shakmaty::{Chess, Move};

use crate::engine::Report;
use crate::engine::movetables::TableWeights;
use crate::game::describe::Description;
use crate::game::{Game, GameEnd};

use super::layout::Screen;
use super::layout::panels::{Panel, Slot, compact};
use super::msg::Msg;
use super::overlays::{Confirm, Overlay};
use super::shared::Shared;
use super::theme::Theme;

/// What the board shows for a mode: the position, the last move's and a
/// suggested move's squares, and whether the cursor and selection show
/// (the board is for moving).
pub struct BoardShown<'a> {
    pub position: &'a Chess,
    pub last_move: Option<Move>,
    pub hint: Option<Move>,
    pub interactive: bool,
}

/// What every mode does. Defaults cover what most modes do alike.
pub trait BoardMode {
    // -- Input ------------------------------------------------------------

    /// A key the dialogs and the command line left over; false for the keys
    /// it leaves to the board (cursor, pick up, flip, help, command line).
    fn key(&mut self, cx: &mut Shared, key: KeyEvent, now: Instant) -> bool;

    /// A word typed on the command line; false when it is not one of the
    /// mode's (the board's own words and moves are tried next).
    fn command(&mut self, cx: &mut Shared, typed: &str, now: Instant) -> bool;

    /// A mouse action over the screen; false to leave it to the board.
    fn mouse(
        &mut self,
        _cx: &mut Shared,
        _screen: &Screen,
        _mouse: MouseEvent,
        _now: Instant,
    ) -> bool {
        false
    }

    /// A key while one of the mode's own dialogs is open (the dialog is
    /// taken out of `cx.overlay`; put it back to keep it open). `None` when
    /// the dialog is not the mode's; `Some(false)` when the key, the dialog
    /// closed, goes on to the board.
    fn dialog_key(
        &mut self,
        _cx: &mut Shared,
        _dialog: &Overlay,
        _key: KeyEvent,
        _now: Instant,
    ) -> Option<bool> {
        None
    }

    /// The answer to a question the mode asked (resign, delete...).
    fn answered(&mut self, _cx: &mut Shared, _question: Confirm, _yes: bool, _now: Instant) {}

    /// Play `m` for the side to move, from the board or the command line.
    fn play(&mut self, _cx: &mut Shared, _m: Move, _now: Instant) {}

    // -- The engine and the background ------------------------------------

    /// A report of the mode's own running search (the engine link has
    /// dropped every other).
    fn report(&mut self, _cx: &mut Shared, _report: Report, _now: Instant) {}

    /// An answer of a background task (a recording, a review...).
    fn task(&mut self, _cx: &mut Shared, _msg: Msg, _now: Instant) {}

    /// The clock ticked; true when the screen changed.
    fn tick(&mut self, _cx: &mut Shared, _now: Instant) -> bool {
        false
    }

    /// Whether the mode wants the clock's ticks (running clocks, auto-play).
    fn needs_ticks(&self) -> bool {
        false
    }

    // -- Coming and going ---------------------------------------------------

    /// The mode is on the board again (back from a dialog or a lesson).
    fn enter(&mut self, _cx: &mut Shared, _now: Instant) {}

    /// The mode is put aside (for a lesson) or left: its searches stop, its
    /// clocks stop.
    fn leave(&mut self, _cx: &mut Shared, _now: Instant) {}

    /// The program ends: keep what must be kept.
    fn quit(&mut self, _cx: &mut Shared, _now: Instant) {}

    // -- Questions ------------------------------------------------------------

    /// Whether the person at the keyboard may move on the board now.
    fn human_to_move(&self, cx: &Shared) -> bool;

    /// Why a move is refused (`typed`: on the command line), if the status
    /// line should say.
    fn why_no_move(&self, cx: &Shared, typed: bool) -> Option<&'static str> {
        match typed {
            true => Some("It is the engine's turn."),
            false => cx.started.then_some("Wait for the engine's move."),
        }
    }

    /// A game is on and not finished.
    fn in_progress(&self, _cx: &Shared) -> bool {
        false
    }

    /// The mode has changes that are not saved.
    fn unsaved(&self) -> bool {
        false
    }

    /// How the game on the board ended, if it did.
    fn game_end(&self) -> Option<GameEnd> {
        None
    }

    /// The move tables the map shows.
    fn map_tables<'a>(&'a self, cx: &'a Shared) -> Option<&'a TableWeights> {
        cx.engine_tables.as_deref()
    }

    /// What the map's legend adds about the tables shown (where they were
    /// learnt), the most needed first.
    fn map_note(&self, _cx: &Shared) -> Vec<String> {
        Vec::new()
    }

    /// The position in words, for `D`.
    fn description(&self, cx: &Shared, now: Instant) -> Vec<String>;

    /// The teaching positions' first row: what "this position" is.
    fn position_name(&self) -> &'static str {
        "the game's position"
    }

    // -- Drawing ------------------------------------------------------------

    /// The panels beside the board, top to bottom.
    fn panels(&self, cx: &Shared) -> Vec<Slot>;

    /// The panels under the board.
    fn below(&self, _size: (u16, u16)) -> Vec<Slot> {
        Vec::new()
    }

    /// The tallest square the mode wants, in rows.
    fn max_square(&self, _height: u16) -> u16 {
        crate::tui::layout::MAX_SQUARE_HEIGHT
    }

    /// Draw one of the mode's own panels; false for the panels every mode
    /// draws alike (book, tablebase, statistics...).
    fn draw_panel(
        &self,
        cx: &Shared,
        frame: &mut Frame,
        panel: Panel,
        rect: Rect,
        theme: &Theme,
        now: Instant,
    ) -> bool;

    /// Draw something else than the board where the board goes (teach
    /// mode on a hand-made tree, which has no position); false: the board.
    fn draw_board_area(
        &self,
        _cx: &Shared,
        _frame: &mut Frame,
        _area: Rect,
        _theme: &Theme,
    ) -> bool {
        false
    }

    /// Draw one of the mode's own dialogs; false when it is not one.
    fn draw_dialog(&self, _cx: &Shared, _frame: &mut Frame, _area: Rect, _theme: &Theme) -> bool {
        false
    }

    /// What the board shows.
    fn board<'a>(&'a self, cx: &'a Shared) -> BoardShown<'a> {
        BoardShown {
            position: cx.board.game.position(),
            last_move: cx.board.game.moves().last().copied(),
            hint: None,
            interactive: true,
        }
    }

    /// The top line after the program's name.
    fn title(&self, cx: &Shared, theme: &Theme) -> Vec<Span<'static>>;

    /// The mode's keys, for the help.
    fn help(&self) -> &'static [(&'static str, &'static str)];

    /// The key line under the board.
    fn key_line(&self, cx: &Shared) -> &'static str;

    /// The optional panels that have something to show, in the order Tab
    /// visits them (none: Tab is not the mode's).
    fn extras(&self, _cx: &Shared) -> Vec<Panel> {
        Vec::new()
    }

    /// Whether Tab switches the side panels here.
    fn tabs(&self) -> bool {
        true
    }

    /// The prompt of the command line.
    fn prompt(&self) -> &'static str {
        " > "
    }

    /// Whether the mode shows the statistics panel until `S` says otherwise.
    fn stats_by_default(&self) -> bool {
        true
    }

    /// The position the book and tablebase panels are about: the board's
    /// (a game looked back at: the position looked at).
    fn panel_position<'a>(&'a self, cx: &'a Shared) -> &'a Chess {
        cx.board.game.position()
    }

    /// Whether a search has reported statistics the panel can show.
    fn has_stats(&self, cx: &Shared) -> bool {
        cx.stats.is_some()
    }
}

/// The words every mode begins `D` with: the position and the move that
/// led to it.
pub fn describe_board(game: &Game) -> Description {
    let mut description = Description::new(game.position());
    if let (Some(&m), Some(before)) = (
        game.moves().last(),
        game.len().checked_sub(1).and_then(|i| game.position_at(i)),
    ) {
        description = description.with_last_move(before, m);
    }
    description
}

/// The key line for a terminal of `cx.size` from a mode's `forms`, longest
/// first: the longest that fits the width. Where the panels take turns
/// (`tabs`, a compact terminal, two panels or more) the line names Tab: the
/// forms before the first that names it (the widest) are skipped. Where fewer than two
/// panels would take turns, Tab does nothing, and the line does not say it.
pub fn pick_key_line(
    forms: &[&'static str],
    tabs: bool,
    extras: usize,
    size: (u16, u16),
) -> &'static str {
    let tab_acts = tabs && compact(size) && extras >= 2;
    let width = usize::from(size.0);
    // Where Tab switches panels, the forms from the first that names Tab
    // on; elsewhere, the forms that do not name it.
    let candidates: Vec<&'static str> = forms
        .iter()
        .copied()
        .skip_while(|form| tab_acts && !form.contains("Tab"))
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

/// The list of modes: the enum `Mode` with a variant per mode, access to
/// the current one as a `BoardMode`, and typed access for tests.
macro_rules! modes {
    ($($(#[$doc:meta])* $variant:ident($module:ident::$ty:ident), $get:ident, $get_mut:ident;)*) => {
        $(pub mod $module;)*

        /// What is on the board: one of the modes.
        #[derive(Debug)]
        pub enum Mode {
            $($(#[$doc])* $variant(Box<$module::$ty>),)*
        }

        impl Mode {
            /// The current mode, to hand a message to.
            pub fn get(&self) -> &dyn BoardMode {
                match self {
                    $(Mode::$variant(mode) => &**mode,)*
                }
            }

            pub fn get_mut(&mut self) -> &mut dyn BoardMode {
                match self {
                    $(Mode::$variant(mode) => &mut **mode,)*
                }
            }

            $(
                pub fn $get(&self) -> Option<&$module::$ty> {
                    match self {
                        Mode::$variant(mode) => Some(mode),
                        #[allow(unreachable_patterns)]
                        _ => None,
                    }
                }

                pub fn $get_mut(&mut self) -> Option<&mut $module::$ty> {
                    match self {
                        Mode::$variant(mode) => Some(mode),
                        #[allow(unreachable_patterns)]
                        _ => None,
                    }
                }
            )*
        }

        $(
            impl From<$module::$ty> for Mode {
                fn from(mode: $module::$ty) -> Mode {
                    Mode::$variant(Box::new(mode))
                }
            }
        )*
    };
}

modes! {
    /// A game against the engine or between two players.
    Play(play::Play), game, game_mut;
    /// The analysis board.
    Analyse(analyse::Analysis), analysis, analysis_mut;
    /// Stepping through a recorded search.
    Teach(teach::Teach), teach, teach_mut;
    /// The training schedule's due positions.
    Train(train::Train), training, training_mut;
}
