//! Predict mode (`P`): before the step reveals it, the learner says what
//! the search will do. At a node about to try its first move: "which move
//! will the search try first?" (typed after `:`, as a move is); before a
//! later move: "will it cause a cutoff here?" (`y` or `n`). The step then
//! shows the answer and the score counts. → without an answer skips the
//! question. Quiescence nodes, whose moves are captures tried in a fixed
//! order, are not asked about.

use shakmaty::{Chess, Move};

use crate::engine::trace::TraceEvent;
use crate::teach::caption::san;
use crate::teach::replay::{Replay, Step};

/// A question waiting for the learner's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question {
    /// Which move will the node try first?
    FirstMove { answer: Move },
    /// Will `mv` cut the node off?
    Cutoff { mv: Move, answer: bool },
}

/// The predict mode's state.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Predict {
    pub on: bool,
    pub question: Option<Question>,
    /// Right answers, and questions answered.
    pub right: u32,
    pub asked: u32,
    /// What the last answer was told.
    pub verdict: Option<String>,
}

impl Predict {
    /// The question the next step deserves, if any: the next event is a
    /// move about to be tried at a node of the main search.
    pub fn question_before(replay: &Replay, step: &Step) -> Option<Question> {
        let node = step.current()?;
        if node.quiescence || node.returned.is_some() {
            return None;
        }
        let TraceEvent::MoveTried { ply, mv, index, .. } = *replay.events().get(step.applied)? else {
            return None;
        };
        if ply != node.ply {
            return None;
        }
        if index == 0 {
            return Some(Question::FirstMove { answer: mv });
        }
        // Past this move's subtree, the node's next word on it: a cutoff by
        // it, or another move, or its return.
        let answer = replay.events()[step.applied + 1..]
            .iter()
            .find_map(|e| match *e {
                TraceEvent::BetaCutoff { ply: p, mv: by, .. } if p == ply => Some(by == mv),
                TraceEvent::MoveTried { ply: p, .. } | TraceEvent::Return { ply: p, .. }
                    if p == ply =>
                {
                    Some(false)
                }
                _ => None,
            })
            .unwrap_or(false);
        Some(Question::Cutoff { mv, answer })
    }

    /// The question in words, at the node's position.
    pub fn text(question: Question, position: &Chess) -> String {
        match question {
            Question::FirstMove { .. } => {
                "Predict: which move will the search try first here? Type it after : (as :Nf3); → skips.".to_string()
            }
            Question::Cutoff { mv, .. } => format!(
                "Predict: will {} reach beta and cut this node off? y or n; → skips.",
                san(position, mv)
            ),
        }
    }

    /// Score an answer; the verdict in words.
    pub fn answer(&mut self, question: Question, right: bool, position: &Chess) -> String {
        self.asked += 1;
        self.right += u32::from(right);
        self.question = None;
        let truth = match question {
            Question::FirstMove { answer } => {
                format!("the search tries {} first", san(position, answer))
            }
            Question::Cutoff { mv, answer: true } => {
                format!("{} does cut the node off", san(position, mv))
            }
            Question::Cutoff { mv, answer: false } => {
                format!("{} does not cut the node off", san(position, mv))
            }
        };
        let verdict = format!(
            "{}: {truth}. Score {} of {}.",
            if right { "Right" } else { "Not this time" },
            self.right,
            self.asked
        );
        self.verdict = Some(verdict.clone());
        verdict
    }
}
