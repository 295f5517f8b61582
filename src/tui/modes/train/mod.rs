//! Train mode: the training schedule's due positions on the board, one at
//! a time, the longest overdue first (see `crate::train`). The player
//! answers with a move as in play mode (cursor, mouse or typed); `h` hints
//! (the piece, then the square), `s` plays the solution on the board, `T`
//! opens the position's search lesson in teach mode, `n` goes on. Every
//! answer is saved at once. This file holds the state and what the keys do
//! to it; `mode.rs` is its place among the modes, `panel.rs` draws.

mod mode;
mod panel;

use std::path::PathBuf;

use shakmaty::{Chess, Move, Position};

use crate::game::Game;
use crate::game::notation::{parse_uci, san_line};
use crate::train::schedule::{self, Schedule};
use crate::train::{Exercise, Kind, check, lesson};
use crate::tui::overlays::Overlay;
use crate::tui::shared::lesson::{Lesson, Mistake};
use crate::tui::shared::{Shared, Switch, Tone};

pub use mode::HELP;

/// Where the player is with the position shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Waiting for an answer.
    Asking,
    /// Solved, or the solution shown: `n` goes on.
    Done,
    /// Every position served.
    Finished,
}

#[derive(Debug)]
pub struct Train {
    pub schedule: Schedule,
    /// Where the schedule is saved (`None`: kept in memory, as in tests).
    data: Option<PathBuf>,
    /// The cards to serve (indices into the schedule) and the one shown.
    pub queue: Vec<usize>,
    pub at: usize,
    pub stage: Stage,
    /// The answer to the position shown is recorded (a first answer, a
    /// hint or the solution decide it).
    recorded: bool,
    pub hints: u32,
    /// The hint's squares: the piece (1), then its move (2).
    pub hint_move: Option<Move>,
    /// The last verdict or hint, in words.
    pub said: Option<String>,
    pub solved: usize,
    pub failed: usize,
    /// Positions left with `n` before any answer (they stay due).
    pub skipped: usize,
    /// Why the last answer is not saved: shown (status line and panel)
    /// until an answer is saved.
    pub unsaved: Option<String>,
    /// A problem reading the schedule, said once.
    pub problem: Option<String>,
}

impl Train {
    /// Training on the schedule kept in `data` (none: an empty one in
    /// memory), its due positions at `now`.
    pub fn new(data: Option<PathBuf>, now: u64) -> Train {
        let (schedule, problem) = match &data {
            Some(dir) => Schedule::load(dir),
            None => (Schedule::default(), None),
        };
        Train::with_schedule(schedule, data, problem, now)
    }

    pub fn with_schedule(
        schedule: Schedule,
        data: Option<PathBuf>,
        problem: Option<String>,
        now: u64,
    ) -> Train {
        let queue = schedule.due(now);
        Train {
            schedule,
            data,
            queue,
            at: 0,
            stage: Stage::Asking,
            recorded: false,
            hints: 0,
            hint_move: None,
            said: None,
            solved: 0,
            failed: 0,
            skipped: 0,
            unsaved: None,
            problem,
        }
    }

    /// The exercise shown, if any.
    pub fn exercise(&self) -> Option<&Exercise> {
        let index = *self.queue.get(self.at)?;
        self.schedule.cards.get(index).map(|c| &c.exercise)
    }

    /// Put the position shown on the board (from the side to move's view);
    /// a position that cannot be read is skipped.
    pub fn show(&mut self, cx: &mut Shared) {
        self.recorded = false;
        self.hints = 0;
        self.hint_move = None;
        self.said = None;
        // The last position's verdict is not this one's.
        self.status(cx);
        loop {
            let Some(exercise) = self.exercise() else {
                self.stage = Stage::Finished;
                return;
            };
            match check::position(exercise).and_then(|p| check::solution_move(exercise).map(|_| p)) {
                Ok(position) => {
                    cx.board.flipped = position.turn().is_black();
                    cx.board.game = Game::new(position);
                    cx.board.selected = None;
                    self.stage = Stage::Asking;
                    return;
                }
                Err(e) => {
                    cx.say(format!("Skipped a position: {e}"), Tone::Error);
                    self.at += 1;
                }
            }
        }
    }

    /// The position asked about (not the board, which may show the
    /// solution played).
    fn position(&self) -> Option<Chess> {
        check::position(self.exercise()?).ok()
    }

    /// Record the answer to the position shown, once, and save.
    fn record(&mut self, cx: &mut Shared, solved: bool) {
        if self.recorded {
            return;
        }
        self.recorded = true;
        let Some(&index) = self.queue.get(self.at) else {
            return;
        };
        self.schedule.record(index, solved, schedule::now());
        if solved {
            self.solved += 1;
        } else {
            self.failed += 1;
        }
        if let Some(dir) = &self.data {
            self.unsaved = self
                .schedule
                .save(dir)
                .err()
                .map(|e| format!("The answer is not saved: {e}"));
        }
        self.status(cx);
    }

    /// The status line cleared of a stale message; a save error stays
    /// there until an answer is saved.
    fn status(&self, cx: &mut Shared) {
        match &self.unsaved {
            Some(error) => cx.say(error.clone(), Tone::Error),
            None => cx.message = None,
        }
    }

    /// When the position shown comes back, in words ("in 1 day").
    fn comes_back(&self) -> Option<String> {
        let index = *self.queue.get(self.at)?;
        let due = self.schedule.cards.get(index)?.due;
        Some(crate::train::until(due.saturating_sub(schedule::now())))
    }

    /// A move played on the board: right or wrong.
    pub fn answer(&mut self, cx: &mut Shared, m: Move) {
        if self.stage != Stage::Asking {
            return;
        }
        let Some(exercise) = self.exercise().cloned() else {
            return;
        };
        match check::check(&exercise, m) {
            Ok(verdict) if verdict.right => {
                self.record(cx, true);
                let back = self
                    .comes_back()
                    .map(|when| format!("; it comes back {when}"))
                    .unwrap_or_default();
                // The solution's first move answered: the rest of its
                // line is played too, so the solver sees where it leads
                // (the mate, the piece won).
                let rest = match (self.position(), check::solution_move(&exercise)) {
                    (Some(position), Ok(first)) if first == m => {
                        let line = moves(&exercise, &position);
                        let san = san_line(&position, &line);
                        for &next in &line {
                            cx.board.game.play(next);
                        }
                        if line.len() > 1 {
                            format!(" The line: {}.", san.join(" "))
                        } else {
                            String::new()
                        }
                    }
                    _ => {
                        cx.board.game.play(m);
                        String::new()
                    }
                };
                self.stage = Stage::Done;
                self.said = Some(format!("Right: {}{back}.{rest}", verdict.reason));
                if self.unsaved.is_none() {
                    cx.say(format!("Right{back}. n: the next position."), Tone::Info);
                }
            }
            Ok(verdict) => {
                let first = !self.recorded;
                self.record(cx, false);
                let again = if first {
                    " It comes back tomorrow; try again (h hint, s solution)."
                } else {
                    " Try again (h hint, s solution)."
                };
                self.said = Some(format!("Not right: {}.{again}", verdict.reason));
                if self.unsaved.is_none() {
                    cx.say("Not right: try again.", Tone::Error);
                }
            }
            Err(e) => cx.say(e.to_string(), Tone::Error),
        }
    }

    /// `h`: the piece, then the square; a hint counts as not solved.
    pub fn hint(&mut self, cx: &mut Shared) {
        let Some(exercise) = self.exercise().cloned() else {
            return;
        };
        if self.stage != Stage::Asking {
            return;
        }
        self.hints = (self.hints + 1).min(2);
        let Ok(Some(text)) = check::hint(&exercise, self.hints) else {
            return;
        };
        let m = check::solution_move(&exercise).ok();
        if self.hints == 1 {
            if let Some(from) = m.and_then(|m| m.from()) {
                cx.board.cursor = from;
                cx.board.selected = Some(from);
            }
        } else {
            self.hint_move = m;
        }
        self.record(cx, false);
        self.status(cx);
        self.said = Some(format!("Hint: {text} (a hint counts as not solved)."));
    }

    /// `s`: the solution line played on the board.
    pub fn solution(&mut self, cx: &mut Shared) {
        let (Some(exercise), Some(position)) = (self.exercise().cloned(), self.position()) else {
            return;
        };
        if self.stage == Stage::Finished {
            return;
        }
        self.record(cx, false);
        self.status(cx);
        let mut game = Game::new(position.clone());
        for uci in &exercise.solution {
            let Ok(m) = parse_uci(game.position(), uci) else {
                break;
            };
            game.play(m);
        }
        cx.board.game = game;
        cx.board.selected = None;
        self.hint_move = None;
        self.stage = Stage::Done;
        self.said = Some(format!(
            "The solution: {}.",
            san_line(&position, &moves(&exercise, &position)).join(" ")
        ));
    }

    /// `n`: the next position (the one shown counts as it was answered;
    /// left unanswered, it stays due).
    pub fn next(&mut self, cx: &mut Shared) {
        if self.stage == Stage::Finished {
            return;
        }
        if !self.recorded {
            self.skipped += 1;
        }
        self.at += 1;
        self.show(cx);
    }

    /// `Esc`/`q`: leave training for the new-game dialog, as `:new` does
    /// in the other modes (every answer is already saved).
    pub fn leave(&mut self, cx: &mut Shared) {
        cx.message = None;
        cx.overlay = Overlay::NewGame(cx.services.new_game_form(None));
    }

    /// `T`: the search lesson of the position, in teach mode (Esc comes
    /// back here).
    pub fn lesson(&mut self, cx: &mut Shared) {
        let (Some(exercise), Some(position)) = (self.exercise().cloned(), self.position()) else {
            return;
        };
        let played = exercise
            .played
            .as_deref()
            .and_then(|m| parse_uci(&position, m).ok());
        let best = check::solution_move(&exercise).ok();
        let lesson = match (exercise.kind, played, best) {
            (Kind::Mistake, Some(played), Some(best)) => Lesson::of_mistake(Mistake {
                position: &position,
                history: Vec::new(),
                played,
                best,
                class: marked_class(&exercise.source),
                move_number: position.fullmoves().get(),
                mover: position.turn(),
                margin_cp: exercise.margin_cp.unwrap_or(check::DEFAULT_MARGIN_CP),
            }),
            _ => {
                let depth = lesson::depth(&exercise);
                Lesson {
                    setup: crate::teach::Setup::new(position.clone(), depth),
                    title: "the training position".to_string(),
                    description: format!(
                        "The search of the training position at depth {depth}: watch it find the answer."
                    ),
                    goto: String::new(),
                    back_to_report: false,
                }
            }
        };
        cx.switch(Switch::Lesson(Box::new(lesson)));
    }

    /// The summary once every position is served.
    pub fn summary(&self) -> String {
        let now = schedule::now();
        let next = self
            .schedule
            .cards
            .iter()
            .map(|c| c.due)
            .min()
            .map_or("nothing scheduled".to_string(), |due| {
                crate::train::until(due.saturating_sub(now))
            });
        let skipped = match self.skipped {
            0 => String::new(),
            n => format!(", {n} skipped (still due)"),
        };
        format!(
            "{} solved, {} failed{skipped}; next due: {next}",
            self.solved, self.failed
        )
    }
}

/// The class of a reviewed move from its mark in the exercise's source
/// (`3... Nf6??` a blunder, `?!` an inaccuracy, `?` or none a mistake).
fn marked_class(source: &str) -> crate::review::Class {
    use crate::review::Class;
    // The move is before the players' names, which may hold `?` too.
    let mv = source.split(" (").next().unwrap_or(source).trim_end();
    if mv.ends_with("??") {
        Class::Blunder
    } else if mv.ends_with("?!") {
        Class::Inaccuracy
    } else {
        Class::Mistake
    }
}

/// The solution's moves in the position.
fn moves(exercise: &Exercise, position: &Chess) -> Vec<Move> {
    let mut at = position.clone();
    let mut out = Vec::new();
    for uci in &exercise.solution {
        let Ok(m) = parse_uci(&at, uci) else { break };
        out.push(m);
        at.play_unchecked(m);
    }
    out
}
