//! How modes lead to one another: the new-game dialog starts a game, the
//! analysis board or a lesson; a file or a pasted game opens the analysis
//! board; a finished game goes to the analysis board; `T` puts what is on
//! the board aside for a lesson and Esc brings it back. Each change stops
//! what the mode left runs (`BoardMode::leave`) and starts the new one.

use std::time::{Duration, Instant};

use shakmaty::Position;

use crate::engine::level::Level;
use crate::game::GameEnd;
use crate::game::tree::GameTree;
use crate::teach::{DEFAULT_DEPTH, Setup};
use crate::tui::overlays::Overlay;
use crate::tui::overlays::new_game::{ANALYSIS_CHOICE, NewGameForm, TEACH_CHOICE, TRAIN_CHOICE};
use crate::tui::overlays::teach_positions::TeachPicker;
use crate::tui::save::SavedGame;
use crate::tui::shared::{Shared, Switch, Tone};

use super::Mode;
use super::analyse::{Analysis, GameSource};
use super::play::Play;
use super::teach::Teach;

/// The lesson left with Esc, to come back to with `T` while the board
/// shows its position.
pub type Lesson = Option<Box<Teach>>;

/// A mode that stands in for a moment while the real one is moved.
fn placeholder() -> Mode {
    Play::new(Level::default()).into()
}

/// Carry out a change a mode asked for.
pub fn carry_out(
    mode: &mut Mode,
    lesson: &mut Lesson,
    cx: &mut Shared,
    switch: Switch,
    now: Instant,
) {
    match switch {
        Switch::Back => back(mode, lesson, cx, now),
        Switch::AnalyseGame => analyse_game(mode, cx, now),
        Switch::Lesson(lesson) => {
            let lesson = *lesson;
            teach(mode, cx, lesson.setup, None, now);
            if let Some(teaching) = mode.teach_mut() {
                teaching.title = lesson.title;
                teaching.note = Some(lesson.description);
                teaching.goto_on_record = Some(lesson.goto);
                teaching.back_to_report = lesson.back_to_report;
            }
        }
    }
}

/// Start what the new-game dialog asks for: a game, the analysis board or
/// teach mode (on the analysis board of the position, with the list of
/// teaching positions open).
pub fn start(mode: &mut Mode, cx: &mut Shared, form: &NewGameForm, now: Instant) {
    let start = form.start_position(&mut cx.services.rng);
    if form.side == TEACH_CHOICE {
        analyse(mode, cx, GameTree::new(start.clone()), None, true, now);
        teach(mode, cx, Setup::new(start, DEFAULT_DEPTH), None, now);
        if mode.teach().is_some() {
            cx.overlay = Overlay::TeachPositions(TeachPicker { choice: 0 });
        }
        return;
    }
    if form.side == TRAIN_CHOICE {
        train(mode, cx, now);
        return;
    }
    if form.side == ANALYSIS_CHOICE {
        analyse(mode, cx, GameTree::new(start), None, true, now);
        cx.say(
            "Analysis board: move for either side; ? lists the keys.",
            Tone::Info,
        );
        return;
    }
    mode.get_mut().leave(cx, now);
    let mut play = Play::new(Level::default());
    // A game played on from the analysis board (`P` there) keeps the board
    // to come back to.
    if form.uses_fen()
        && mode.analysis().is_some_and(|a| a.play_on.is_some())
        && let Mode::Analyse(analysis) = std::mem::replace(mode, placeholder())
    {
        play.back_to = Some(analysis);
    }
    play.start_game(cx, form, start, now);
    *mode = play.into();
}

/// Train: the schedule's due positions, one at a time.
pub fn train(mode: &mut Mode, cx: &mut Shared, now: Instant) {
    mode.get_mut().leave(cx, now);
    let data = cx.services.dirs.as_ref().map(|d| d.data.clone());
    let mut training = super::train::Train::new(data, crate::train::schedule::now());
    cx.fresh_board();
    training.show(cx);
    let count = training.queue.len();
    if let Some(problem) = training.problem.clone() {
        cx.say(problem, Tone::Error);
    } else if count == 0 {
        cx.say("Nothing is due for training.", Tone::Info);
    } else {
        cx.say(
            format!(
                "Training: {} due. Move to answer; h hint, s solution, ? the keys.",
                crate::core::counted(count as u64, "position", "positions")
            ),
            Tone::Info,
        );
    }
    cx.started = true;
    *mode = training.into();
}

/// Take up the autosaved game.
pub fn resume(
    mode: &mut Mode,
    cx: &mut Shared,
    saved: &SavedGame,
    now: Instant,
) -> Result<(), String> {
    let (game, players, time_control) = saved.restore()?;
    let times = (
        Duration::from_millis(saved.white_ms),
        Duration::from_millis(saved.black_ms),
    );
    mode.get_mut().leave(cx, now);
    let mut play = Play::new(Level::default());
    play.begin(cx, game, players, time_control, Some(times), now);
    *mode = play.into();
    Ok(())
}

/// The analysis board with `tree`; `new_game`: another game than the one
/// before, so the engine forgets what it learned (hash, move tables).
pub fn analyse(
    mode: &mut Mode,
    cx: &mut Shared,
    tree: GameTree,
    source: Option<GameSource>,
    new_game: bool,
    now: Instant,
) {
    mode.get_mut().leave(cx, now);
    if new_game {
        cx.new_engine_game();
    }
    // A game opens at its start, a position from a FEN at its start.
    let mut analysis = Analysis::new(tree, source);
    cx.fresh_board();
    cx.board.flipped = false;
    analysis.sync_board(cx, now);
    *mode = analysis.into();
}

/// Take the game on the board to the analysis board.
pub fn analyse_game(mode: &mut Mode, cx: &mut Shared, now: Instant) {
    if mode.analysis().is_some() {
        cx.say("This is the analysis board already.", Tone::Info);
        return;
    }
    if mode.get().in_progress(cx) {
        cx.say("Finish the game first (or resign with r).", Tone::Error);
        return;
    }
    // A game played on from the analysis board goes back into its tree.
    if let Some(mut analysis) = mode.game_mut().and_then(|play| play.back_to.take()) {
        let moves = cx.board.game.moves().to_vec();
        let Some(at) = analysis.play_on.take() else {
            return;
        };
        analysis.take_back_game(at, &moves);
        cx.fresh_board();
        analysis.sync_board(cx, now);
        *mode = Mode::Analyse(analysis);
        cx.say(
            format!(
                "The game's {} back on the analysis board as a variation.",
                crate::core::counted(moves.len() as u64, "move is", "moves are")
            ),
            Tone::Info,
        );
        return;
    }
    let Some(play) = mode.game() else {
        cx.say("Leave the lesson first (Esc).", Tone::Info);
        return;
    };
    let mut tree = GameTree::new(cx.board.game.start().clone());
    let mut at = 0;
    for &m in cx.board.game.moves() {
        at = tree.add_move(at, m);
    }
    tree.headers = play.headers();
    tree.result = play.end.map_or("*", GameEnd::result).to_string();
    // A game saved as it stands is not an unsaved change.
    let modified = !cx.board.game.is_empty() && !play.game_saved(cx);
    // The game just played: what the engine learned of it still holds.
    analyse(mode, cx, tree, None, false, now);
    if let Some(analysis) = mode.analysis_mut() {
        analysis.modified = modified;
        analysis.goto(cx, at, now);
    }
}

/// Stop what runs on the board and hand back the mode to return to (a
/// lesson returns to what it interrupted, not to itself).
fn pause(mode: &mut Mode, cx: &mut Shared, now: Instant) -> Mode {
    let mut current = std::mem::replace(mode, placeholder());
    current.get_mut().leave(cx, now);
    match current {
        Mode::Teach(old) => *old.back,
        other => other,
    }
}

/// Teach the search of `setup`, opening at `step` once recorded; Esc comes
/// back to what is on the board now (a game is paused meanwhile).
pub fn teach(mode: &mut Mode, cx: &mut Shared, setup: Setup, step: Option<usize>, now: Instant) {
    if setup.position.legal_moves().is_empty() {
        cx.say(
            "The game is over in this position: there is no search to watch.",
            Tone::Error,
        );
        return;
    }
    let back = pause(mode, cx, now);
    let title = match &setup.tree {
        Some(_) => "a game tree",
        None => "this position",
    };
    let mut lesson = Teach::new(cx, setup, title.into(), back);
    lesson.start_at = step;
    *mode = lesson.into();
    cx.board.selected = None;
    cx.say(
        "Teach mode: → steps the search, v the tree, p the positions, ? the keys.",
        Tone::Info,
    );
}

/// Teach the position on the board (the `T` key and `:teach`): the lesson
/// left with Esc, as it was, while the board still shows its position;
/// else a new one. In teach mode: the teaching positions.
pub fn teach_board(mode: &mut Mode, lesson: &mut Lesson, cx: &mut Shared, now: Instant) {
    if mode.teach().is_some() {
        cx.overlay = Overlay::TeachPositions(TeachPicker { choice: 0 });
        return;
    }
    let position = cx.board.game.position().clone();
    if let Some(mut kept) = lesson.take()
        && kept.setup.position == position
    {
        let back = pause(mode, cx, now);
        kept.resume(cx, back, now);
        let depth = kept.setup.depth;
        let step = kept.applied();
        *mode = Mode::Teach(kept);
        cx.board.selected = None;
        cx.say(
            format!("Teach mode: back to the lesson, depth {depth}, step {step}."),
            Tone::Info,
        );
        return;
    }
    let setup = Setup {
        history: cx.board.game.history_keys(),
        ..Setup::new(position, DEFAULT_DEPTH)
    };
    teach(mode, cx, setup, None, now);
}

/// Back from teach mode to the game or analysis it interrupted; the lesson
/// is kept (depth, switches, step) for `T`.
fn back(mode: &mut Mode, lesson: &mut Lesson, cx: &mut Shared, now: Instant) {
    if mode.teach().is_none() {
        return;
    }
    let Mode::Teach(mut teach) = std::mem::replace(mode, placeholder()) else {
        return;
    };
    super::BoardMode::leave(&mut *teach, cx, now);
    *mode = std::mem::replace(&mut *teach.back, placeholder());
    let to_report = teach.back_to_report && cx.review_all.is_some();
    *lesson = Some(teach);
    cx.message = None;
    mode.get_mut().enter(cx, now);
    if to_report {
        // A lesson from the whole-file review: back to its report.
        cx.overlay = Overlay::ReviewAll;
    }
}
