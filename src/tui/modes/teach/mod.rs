//! Teach mode: step through one real search of the engine, node by node.
//!
//! The search is recorded once, in the background (`Request::Record`),
//! with the techniques the learner switched on; every step forward or back
//! is a replay of that record (`teach::Replay`), never a new search. The
//! comparison of five methods on the same position and depth runs in the
//! background too (`Request::Compare`).

pub mod caption;
pub mod comparison;
pub mod course;
pub mod header;
mod goto;
pub mod iterations;
pub mod keys;
mod mode;
pub mod node_moves;
pub mod predict;
pub mod search_path;
pub mod tree_diagram;
pub mod tree_view;

use std::sync::Arc;
use std::time::Instant;

use shakmaty::{Chess, Move, Position};

use crate::engine::search::INFINITY;
use crate::engine::stats::{IterationStats, SearchStats};
use crate::engine::trace::TraceEvent;
use crate::teach::compare::{self, Outcome};
use crate::teach::{Replay, Setup, Step};

use super::Mode;
use crate::tui::layout::{Panel, Slot};
use crate::tui::shared::Shared;
use crate::tui::tasks::Request;

pub use keys::{HELP, KEY_LINES};

/// Auto-play speeds, steps per second.
pub const SPEEDS: [u32; 9] = [1, 2, 5, 10, 20, 50, 100, 200, 500];
const DEFAULT_SPEED: usize = 2;

/// The techniques a learner switches, in the order of their keys 1-7.
pub const TOGGLES: [&str; 7] = [
    "alpha-beta",
    "ordering",
    "transposition table",
    "quiescence",
    "PVS",
    "deepening",
    "selective",
];

/// The switches (of [`TOGGLES`]) that mean nothing on a hand-made tree:
/// the table, quiescence and the selective search.
pub const TREE_NEVER: [usize; 3] = [2, 3, 6];

/// The switches (of [`TOGGLES`]) Greer's move-chain search has no use for
/// (`kibitz teach --chains`): it is always alpha-beta, one search at the
/// depth, with no table, full windows and no selective rule but its own.
pub const CHAINS_NEVER: [usize; 5] = [0, 2, 4, 5, 6];

/// The end of the message a switch or a depth change leaves while the
/// search is recorded again.
pub const RECORDING: &str = ": recording the search again.";

/// Where the record is.
#[derive(Debug, Clone)]
pub enum Record {
    /// Being made in the background since then.
    Making { since: Instant },
    Ready {
        replay: Arc<Replay>,
        step: Box<Step>,
    },
    /// Refused or failed, with the reason.
    Failed(String),
}

/// The teach mode's state.
#[derive(Debug)]
pub struct Teach {
    pub setup: Setup,
    /// What the position is: a teaching position's name, "this position".
    pub title: String,
    /// Its one-line description, for a curated position.
    pub description: Option<String>,
    pub record: Record,
    /// The id of the record asked for last: older answers are dropped.
    pub record_id: u64,
    /// Auto-play: on since then, with the fraction of a step carried over.
    pub playing: Option<(Instant, f64)>,
    pub speed: usize,
    /// The comparison rows, as they come in, for `compare_key`.
    pub comparison: [Option<Outcome>; 5],
    pub compare_id: u64,
    /// The position and depth the comparison is for.
    compare_key: Option<(Chess, u32)>,
    /// Where Esc goes back to.
    pub back: Box<Mode>,
    /// The tree view (`v`).
    pub tree_view: tree_view::TreeView,
    /// The step to open the record at when it comes (`kibitz teach --step`).
    pub start_at: Option<usize>,
    /// Predict mode (`P`): questions before the step answers them.
    pub predict: predict::Predict,
    /// A line (SAN) to go to once the record comes (a reviewed mistake's
    /// lesson opens at the played move).
    pub goto_on_record: Option<String>,
    /// What the lesson is about, shown above every step's caption (a
    /// reviewed mistake: the move played and the better one).
    pub note: Option<String>,
    /// A lesson opened from the whole-file review's report: Esc goes back
    /// to the report as well as to the board.
    pub back_to_report: bool,
    /// The page of a long caption shown (`e`), with the step it is for:
    /// another step starts at the first page.
    pub caption_page: (usize, usize),
    /// The course's lesson open here, if one is (`:course`).
    pub course: Option<course::CourseLesson>,
}

impl PartialEq for Teach {
    fn eq(&self, other: &Teach) -> bool {
        self.setup == other.setup
            && self.record_id == other.record_id
            && self.applied() == other.applied()
    }
}

impl Teach {
    /// Teach mode on `setup`, returning to `back`; asks for the record.
    pub fn new(cx: &mut Shared, setup: Setup, title: String, back: Mode) -> Teach {
        let mut teach = Teach {
            setup,
            title,
            description: None,
            record: Record::Failed(String::new()),
            record_id: 0,
            playing: None,
            speed: DEFAULT_SPEED,
            comparison: [None; 5],
            compare_id: 0,
            compare_key: None,
            back: Box::new(back),
            tree_view: tree_view::TreeView::default(),
            start_at: None,
            predict: predict::Predict::default(),
            goto_on_record: None,
            note: None,
            back_to_report: false,
            caption_page: (0, 0),
            course: None,
        };
        teach.rerecord(cx, Instant::now());
        teach
    }

    /// Back to a lesson left with Esc, returning to `back`: the record,
    /// the step, the depth and the switches are as they were. What was
    /// still being made when it was left (leaving stops the background
    /// work) is asked for again.
    pub fn resume(&mut self, cx: &mut Shared, back: Mode, now: Instant) {
        *self.back = back;
        self.playing = None;
        if self.comparison.iter().any(Option::is_none) {
            self.compare_key = None;
        }
        if self.ready().is_none() {
            self.rerecord(cx, now);
        } else {
            self.ask_comparison(cx);
        }
    }

    /// Ask for a new record of the setup (and the comparison, when the
    /// position or depth changed).
    pub fn rerecord(&mut self, cx: &mut Shared, now: Instant) {
        // A recording still being made is of no use any more.
        if matches!(self.record, Record::Making { .. }) {
            cx.engine.cancel(self.record_id);
        }
        // The tables learn by the rule the settings name, as in a game.
        self.setup.options.table_decrement = cx.services.settings.move_table_decrement;
        let setup = Box::new(self.setup.clone());
        self.record_id = cx.engine.start(|id| Request::Record { id, setup });
        self.record = Record::Making { since: now };
        self.playing = None;
        self.ask_comparison(cx);
    }

    /// Ask for the comparison unless it is for this position and depth.
    fn ask_comparison(&mut self, cx: &mut Shared) {
        if let Some(tree) = &self.setup.tree {
            // A tree is compared at once, here: it is small.
            if self.compare_key.is_some() && self.comparison.iter().any(Option::is_none) {
                cx.engine.cancel(self.compare_id);
            }
            let depth = self.setup.depth;
            self.comparison = compare::tree_methods().map(|m| Some(compare::run_tree(tree, depth, &m)));
            self.compare_key = None;
            return;
        }
        let key = (self.setup.position.clone(), self.setup.depth);
        if self.compare_key.as_ref() != Some(&key) {
            if self.compare_key.is_some() && self.comparison.iter().any(Option::is_none) {
                cx.engine.cancel(self.compare_id);
            }
            let position = Box::new(self.setup.position.clone());
            let history = self.setup.history.clone();
            let depth = self.setup.depth;
            self.compare_id = cx.engine.start(|id| Request::Compare {
                id,
                position,
                history,
                depth,
            });
            self.comparison = [None; 5];
            self.compare_key = Some(key);
        }
    }

    /// A record arrived from the background.
    pub fn recorded(
        &mut self,
        cx: &mut Shared,
        id: u64,
        result: Result<Arc<Replay>, crate::teach::RecordError>,
    ) {
        if id != self.record_id {
            return;
        }
        self.record = match result {
            Ok(replay) => {
                // A new record is a new lesson for predict mode's score.
                self.predict.reset();
                // `--step N` opens the lesson there, once.
                let first = self.start_at.take().unwrap_or(0);
                let step = Box::new(replay.step(first));
                Record::Ready { replay, step }
            }
            Err(e) => Record::Failed(e.to_string()),
        };
        // "Depth 4: recording the search again." is no longer true.
        if let Some((text, tone)) = &mut cx.message
            && let Some(what) = text.strip_suffix(RECORDING)
        {
            *text = match &self.record {
                Record::Ready { replay, .. } => format!(
                    "{what}: recorded, {} {}.",
                    crate::teach::values::count_text(replay.len() as u64),
                    if replay.len() == 1 { "step" } else { "steps" }
                ),
                _ => format!("{what}: no record (see below)."),
            };
            *tone = crate::tui::shared::Tone::Info;
        }
        if let Some(line) = self.goto_on_record.take()
            && self.ready().is_some()
        {
            self.goto_line(cx, &line);
        }
    }

    /// A row of the comparison arrived.
    pub fn compared(&mut self, id: u64, index: usize, outcome: Outcome) {
        if id == self.compare_id
            && let Some(row) = self.comparison.get_mut(index)
        {
            *row = Some(outcome);
        }
    }

    /// The replay and the step shown, once recorded.
    pub fn ready(&self) -> Option<(&Replay, &Step)> {
        match &self.record {
            Record::Ready { replay, step } => Some((replay, step)),
            _ => None,
        }
    }

    /// Whether the lesson is a hand-made game tree.
    pub fn is_tree(&self) -> bool {
        self.setup.tree.is_some()
    }

    /// Values written as the lesson's kind wants them while the guard
    /// lives (plain numbers and MAX/MIN on a tree; see
    /// `teach::values::in_points`).
    pub fn points(&self) -> crate::teach::values::PointsGuard {
        crate::teach::values::PointsGuard::new(self.is_tree())
    }

    /// Events applied so far (0 before the record).
    pub fn applied(&self) -> usize {
        self.ready().map_or(0, |(_, step)| step.applied)
    }

    /// Go to the step after `applied` events.
    pub fn seek(&mut self, applied: usize) {
        if let Record::Ready { replay, step } = &mut self.record {
            replay.seek(step, applied);
        }
    }

    /// The page of the caption to show at this step (`e` turns them).
    pub fn caption_page(&self) -> usize {
        match self.caption_page {
            (applied, page) if applied == self.applied() => page,
            _ => 0,
        }
    }

    /// `e`: the caption's next page (after the last, the first again).
    pub fn next_caption_page(&mut self) {
        self.caption_page = (self.applied(), self.caption_page() + 1);
    }

    /// Whether the auto-play wants the clock's ticks.
    pub fn needs_ticks(&self) -> bool {
        self.playing.is_some()
    }

    /// The clock ticked: auto-play moves on by the steps that fell due;
    /// true when it did.
    pub fn auto_play(&mut self, now: Instant) -> bool {
        let Some((since, carry)) = self.playing else {
            return false;
        };
        let due = now.saturating_duration_since(since).as_secs_f64()
            * f64::from(SPEEDS[self.speed])
            + carry;
        let steps = due.floor();
        if steps < 1.0 {
            return false;
        }
        self.playing = Some((now, due - steps));
        let mut target = self.applied() + steps as usize;
        // Predict mode: play stops at the next question, to be answered.
        if let Some((replay, step)) = self.ready()
            && let Some(at) = self.predict.next_stop(replay, step.applied + 1, target)
        {
            target = at;
            self.playing = None;
        }
        self.seek(target);
        if let Some((replay, step)) = self.ready()
            && step.applied >= replay.len()
        {
            self.playing = None;
        }
        true
    }

    /// The toggles, in the order of [`TOGGLES`].
    pub fn toggles(&self) -> [bool; 7] {
        let o = &self.setup.options;
        [
            o.alpha_beta,
            o.move_ordering,
            o.transposition_table,
            o.quiescence,
            o.pvs,
            o.iterative_deepening,
            o.selective,
        ]
    }

    /// Whether switch `index` (of [`TOGGLES`]) changes the search: with
    /// alpha-beta off, plain minimax runs and the others do not apply.
    pub fn applies(&self, index: usize) -> bool {
        if self.is_tree() && TREE_NEVER.contains(&index) {
            return false;
        }
        if self.setup.options.move_chains && CHAINS_NEVER.contains(&index) {
            return false;
        }
        index == 0 || self.setup.options.alpha_beta
    }

    /// The name of switch `index` for this lesson: on a tree, ordering
    /// sorts children best first.
    pub fn toggle_name(&self, index: usize) -> &'static str {
        match (self.is_tree(), index) {
            (true, 1) => "best first",
            _ => TOGGLES[index],
        }
    }

    /// The deepest this lesson may search: a tree's height, or
    /// `teach::MAX_DEPTH`.
    pub fn max_depth(&self) -> u32 {
        self.setup
            .tree
            .as_ref()
            .map_or(crate::teach::MAX_DEPTH, |tree| tree.height().max(1))
    }

    /// The algorithm in words: what the header says is running (the
    /// search that runs, not the switches: see `teach::effective_options`).
    pub fn algorithm(&self) -> String {
        let text = crate::teach::algorithm_text(self.setup.options);
        if self.is_tree() {
            text.replace(" + ordering", " + best first")
        } else {
            text
        }
    }

    /// The depth the lesson searches, for the header: it goes first there,
    /// so a narrow terminal cuts the list of methods, not the depth.
    pub fn depth_text(&self) -> String {
        crate::teach::depth_text(self.setup.options, self.setup.depth)
    }

    /// The board's view: the current node's position, the move that led
    /// there and the move being tried.
    pub fn board_view(&self) -> (&Chess, Option<Move>, Option<Move>) {
        let Some((_, step)) = self.ready() else {
            return (&self.setup.position, None, None);
        };
        let Some(frame) = step.current() else {
            return (&self.setup.position, None, None);
        };
        let arrived = match frame.via {
            crate::teach::Via::Move(m) => Some(m),
            _ => None,
        };
        let trying = frame.current.map(|i| frame.moves[i].mv);
        (&frame.position, arrived, trying)
    }

    /// The statistics so far, in the form the statistics panel draws.
    pub fn stats(&self) -> Option<SearchStats> {
        let (_, step) = self.ready()?;
        let counters = step.counters;
        // A row per iteration begun so far (one without iterative
        // deepening), each with what it alone cost.
        let mut iterations: Vec<IterationStats> = step
            .iterations
            .iter()
            .enumerate()
            .map(|(i, &(depth, start, deepest))| {
                let end = step.iterations.get(i + 1).map_or(counters, |next| next.1);
                IterationStats {
                    depth: depth.max(1) as u32,
                    counters: end.since(&start),
                    selective_depth: deepest,
                    elapsed_ms: 0,
                }
            })
            .collect();
        if iterations.is_empty() {
            iterations.push(IterationStats {
                depth: step.iteration.map_or(self.setup.depth, |d| d.max(1) as u32),
                counters,
                selective_depth: step.deepest,
                elapsed_ms: 0,
            });
        }
        Some(SearchStats {
            iterations,
            totals: counters,
            selective_depth: step.deepest,
            elapsed_ms: 0,
            // Teach mode replays a recorded, single-threaded search.
            helper_threads: 0,
            chains: None,
        })
    }

    /// The panels beside the board.
    pub fn slots(&self, cx: &Shared) -> Vec<Slot> {
        let path = self.ready().map_or(1, |(_, step)| step.frames.len() as u16);
        let shown = cx.stats_shown(true);
        let small = small_screen(cx.size);
        let mut slots = vec![Slot::new(Panel::TeachHeader, |_| Some(4))];
        if small {
            // Under a small board there is only room for the comparison: the
            // caption comes up here.
            slots.push(Slot::new(Panel::Caption, |room| Some(5.min(room))));
        }
        if let Some((replay, _)) = self.ready().filter(|_| self.is_tree()) {
            // A tree shows itself whole; its path is the bold line in it.
            let rows = tree_diagram::rows_needed(replay);
            slots.push(Slot::new(Panel::GameTree, move |room| {
                Some(rows.min(room / 2).max(3))
            }));
        } else {
            slots.push(Slot::new(Panel::SearchPath, move |room| {
                Some((path + 1).clamp(2, (room / 3).max(2)))
            }));
        }
        // The node takes what is left, so the statistics stay put at the
        // bottom from step to step.
        let node_panel = if self.tree_view.shown {
            Panel::Tree
        } else {
            Panel::NodeMoves
        };
        slots.push(Slot::new(node_panel, move |room| {
            let keep = if shown && room >= 11 { 8 } else { 0 };
            Some(room - keep)
        }));
        slots.push(Slot::new(Panel::Stats, move |room| {
            (shown && room >= 8).then_some(8)
        }));
        slots
    }

    /// The panels under the board.
    pub fn slots_below(&self, size: (u16, u16)) -> Vec<Slot> {
        if small_screen(size) {
            return vec![Slot::new(Panel::Comparison, |room| {
                (room >= 7).then_some(7)
            })];
        }
        // The caption first; the comparison where 7 rows remain for it.
        vec![
            Slot::new(Panel::Caption, |room| {
                Some(if room >= 14 { room - 7 } else { room })
            }),
            Slot::new(Panel::Comparison, |room| (room >= 7).then_some(7)),
        ]
    }

    /// The event shown, if any.
    pub fn event(&self) -> Option<&TraceEvent> {
        let (replay, step) = self.ready()?;
        replay.event_at(step.applied)
    }
}

/// Whether the terminal is too low for the caption under the board (the
/// board then has squares of one row).
fn small_screen(size: (u16, u16)) -> bool {
    size.1 < 34
}

/// Whether a window bound is infinite.
pub fn infinite(value: i32) -> bool {
    value.abs() >= INFINITY
}

/// The legal moves of a position, for the depth clamp on positions with
/// none (no search, nothing to teach).
pub fn has_moves(position: &Chess) -> bool {
    !position.legal_moves().is_empty()
}

/// The comparison's method labels, in row order.
pub fn method_labels(tree: bool) -> [&'static str; 5] {
    if tree {
        compare::tree_methods().map(|m| m.label)
    } else {
        compare::methods().map(|m| m.label)
    }
}
