//! Predict mode (`P`): before the search enters a node, the learner says
//! what it will find there. The questions, their answers and the
//! explanations are the library's (`teach::predict`); this keeps the
//! score, which questions were answered, and the verdict of the last one,
//! which belongs to the step that reveals it and goes with it.

use std::collections::BTreeSet;

use ratatui::crossterm::event::KeyCode;

use crate::teach::predict::{
    Answer, Kind, Outcome, Question, Score, Verdict, next_question, question,
};
use crate::teach::{Replay, Step};

/// The predict mode's state.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Predict {
    pub on: bool,
    /// Right, wrong and skipped answers in this lesson's record.
    pub score: Score,
    /// The steps whose question was answered or skipped: each is asked
    /// once.
    pub resolved: BTreeSet<usize>,
    /// The verdict on the last answer and the step it is shown at.
    pub verdict: Option<(usize, Verdict)>,
}

impl Predict {
    /// The question waiting at `step`, if predict mode is on and it has
    /// not been answered or skipped.
    pub fn pending(&self, replay: &Replay, step: &Step) -> Option<Question> {
        if !self.on || self.resolved.contains(&step.applied) {
            return None;
        }
        question(replay, step)
    }

    /// The verdict to show at step `applied`: only at the step it revealed.
    pub fn verdict_at(&self, applied: usize) -> Option<&Verdict> {
        self.verdict
            .as_ref()
            .filter(|(at, _)| *at == applied)
            .map(|(_, verdict)| verdict)
    }

    /// Judge `answer` to `question`, count it, and keep the verdict for the
    /// step that reveals it.
    pub fn answer(&mut self, replay: &Replay, question: &Question, answer: Answer) {
        let verdict = question.judge(replay, answer);
        self.score.count(verdict.right);
        self.resolved.insert(question.at);
        self.verdict = Some((question.at + 1, verdict));
    }

    /// → past a question without an answer.
    pub fn skip(&mut self, question: &Question) {
        self.score.skipped += 1;
        self.resolved.insert(question.at);
    }

    /// The first step from `from` to `to` whose question waits, where
    /// auto-play stops (none while predict mode is off).
    pub fn next_stop(&self, replay: &Replay, from: usize, to: usize) -> Option<usize> {
        if !self.on {
            return None;
        }
        let mut from = from;
        loop {
            let at = next_question(replay, from).filter(|&at| at <= to)?;
            if !self.resolved.contains(&at) {
                return Some(at);
            }
            from = at + 1;
        }
    }

    /// A new record: a new score.
    pub fn reset(&mut self) {
        *self = Predict {
            on: self.on,
            ..Predict::default()
        };
    }
}

/// What `key` answers to `question`: `Some(None)` when it is an answer
/// key of another kind of question (the learner is told what is
/// expected), `None` when it is no answer key at all.
pub fn key_answer(question: &Question, key: KeyCode) -> Option<Option<Answer>> {
    let KeyCode::Char(c @ ('y' | 'n' | '>' | '<' | 'i')) = key else {
        return None;
    };
    Some(match (question.kind, c) {
        (Kind::Cutoff, 'y') => Some(Answer::Yes),
        (Kind::Cutoff, 'n') => Some(Answer::No),
        (Kind::Window, '>') => Some(Answer::Window(Outcome::High)),
        (Kind::Window, '<') => Some(Answer::Window(Outcome::Low)),
        (Kind::Window, 'i') => Some(Answer::Window(Outcome::Inside)),
        _ => None,
    })
}
