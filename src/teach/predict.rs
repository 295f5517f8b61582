//! Predict mode's questions: before the search enters a node, the learner
//! says what it will find there; the record's future holds the answer.
//!
//! One question for every node of the main search (quiescence nodes are
//! not asked about: their moves are captures tried in a fixed order), at
//! the step before the event that enters it (the parent's `MoveTried`, or
//! the root's `EnterNode`), first moves included. Which question a node
//! gets depends only on what the learner can see when it is asked, never
//! on its answer, and is chosen so that guessing does not pay:
//!
//! - a root: which move will the search choose? (typed);
//! - the first move a node tries, when the node has a beta to reach: will
//!   it cut the node off? (yes or no). With good ordering a cutoff comes
//!   from the first move nearly always, so "no" is mostly wrong here;
//! - a later move, or a first move below an unbounded beta, whose node
//!   searches replies of its own: which reply will refute it, that is cut
//!   the node after it off (typed, or `none`)? A later move is refuted
//!   most of the time; which reply does it has to be worked out on the
//!   board;
//! - any other move (its node is a leaf, a table answer, a re-search):
//!   will it come back at or above beta, at or below alpha, or inside the
//!   window?
//!
//! Everything here is a pure function of a [`Replay`] and a [`Step`]: the
//! board shows the question and collects the answer, `score` keeps count.

use shakmaty::{Chess, Move, Position};

use super::replay::Replay;
use super::step::{Bound, MoveStatus, Step, Via};
use super::tree::{NodeId, NodeKind, TreeNode};
use super::values::{in_points, no_upper_bound, side_name, side_value_text, value_text};
use crate::engine::trace::TraceEvent;

/// What a question asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// At a root: which move will the search choose? A move is typed.
    Choice,
    /// Before a node's first move: will it cut the node off? Yes or no.
    Cutoff,
    /// Before a move whose node searches replies: which reply will cut
    /// that node off? A move is typed, or `none`.
    Refutation,
    /// Will the move come back at or above beta, at or below alpha, or
    /// inside the window? One of three.
    Window,
    /// On a hand-made tree: what value will the node return, for MAX? A
    /// number is typed.
    Value,
    /// On a hand-made tree: which of the node's leaves will never be
    /// evaluated? Their names are typed, or `none`.
    Skipped,
}

/// Where a move's value lands against the window of the node that tries
/// it (from that node's side to move).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// At or above beta: a cutoff.
    High,
    /// At or below alpha: no better than what the node already has.
    Low,
    /// Strictly inside: the node's new best, alpha rises.
    Inside,
}

/// An answer, the learner's or the record's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Yes,
    No,
    Window(Outcome),
    Move(Move),
    /// No move (to "which reply will refute it?": none will).
    NoMove,
    /// A value, for MAX (a hand-made tree's node).
    Value(i32),
    /// Leaves of a hand-made tree's node, by their place among its
    /// children: bit `i` is child `i` (`0`: none).
    Leaves(u64),
}

/// A question, with what the learner sees when it is asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Question {
    /// The step it is asked at (events applied).
    pub at: usize,
    /// The node it is about: the one the next events enter.
    pub node: NodeId,
    pub kind: Kind,
    /// The move that leads to the node (none at a root).
    pub mv: Option<Move>,
    /// The node's name, as the learner reads it: the move that leads there
    /// in SAN, or a hand-made tree's textbook name (`C`, `B2`).
    pub name: String,
    /// The parent node in the record (none at a root).
    pub parent: Option<NodeId>,
    /// The record is of a hand-made tree: values are written as its
    /// numbers and the sides as MAX and MIN.
    pub points: bool,
    /// The position the move is played from (the root's at a root).
    pub position: Chess,
    /// That position's ply.
    pub ply: u32,
    /// Its window when the question is asked, from its side to move.
    pub alpha: i32,
    pub beta: i32,
    /// Its best move so far and its value.
    pub best: Option<(Move, i32)>,
}

/// What an answer was told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub right: bool,
    /// Right or wrong, and why, in words true to the record.
    pub text: String,
}

/// A running score: right, wrong and skipped answers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Score {
    pub right: u32,
    pub wrong: u32,
    pub skipped: u32,
}

impl Score {
    /// Count one answer.
    pub fn count(&mut self, right: bool) {
        if right {
            self.right += 1;
        } else {
            self.wrong += 1;
        }
    }

    /// Questions asked so far (skipped ones too).
    pub fn asked(&self) -> u32 {
        self.right + self.wrong + self.skipped
    }

    /// "Score: 3 right, 1 wrong, 2 skipped."
    pub fn text(&self) -> String {
        format!(
            "Score: {} right, {} wrong, {} skipped.",
            self.right, self.wrong, self.skipped
        )
    }
}

/// The question step `step` deserves, if the next event enters a node of
/// the main search reached by a move (or a root).
pub fn question(replay: &Replay, step: &Step) -> Option<Question> {
    let event = replay.events().get(step.applied)?;
    let (target, research) = match *event {
        TraceEvent::EnterNode { ply: 0, .. } => (step.applied, false),
        TraceEvent::MoveTried { .. } => (step.applied + 1, false),
        TraceEvent::ReSearch { .. } => (step.applied + 1, true),
        _ => return None,
    };
    let tree = &replay.tree;
    let id = tree.nodes.partition_point(|n| (n.enter as usize) < target);
    let node = tree.nodes.get(id)?;
    if node.enter as usize != target || node.quiescence {
        return None;
    }
    let id = id as NodeId;
    let points = tree.game_tree.is_some();
    match node.via {
        Via::Root => {
            let position = tree.position(id);
            // A root that searches no move (the table or a rule answered
            // it) chooses nothing to ask about.
            chosen(replay, node)?;
            Some(Question {
                at: step.applied,
                node: id,
                kind: if points { Kind::Value } else { Kind::Choice },
                mv: None,
                name: games::node_name(replay, id).unwrap_or_default(),
                parent: None,
                points,
                ply: 0,
                alpha: node.alpha,
                beta: node.beta,
                best: None,
                position,
            })
        }
        Via::Move(mv) => {
            // The node that tries the move, as the move's own step shows
            // it: a child that just returned is still on top of `step`,
            // and hands its value up only with the next event.
            let mut trying = step.clone();
            trying.apply(event);
            let parent = trying.current()?;
            let first = !research && parent.reached == 1;
            let bounded = !no_upper_bound(parent.beta, parent.ply);
            let searches_replies = node
                .children
                .iter()
                .any(|&c| matches!(tree.node(c).via, Via::Move(_)));
            let kind = if points && searches_replies {
                games::inner_kind(replay, id, first, research)
            } else if first && bounded {
                Kind::Cutoff
            } else if !research && searches_replies {
                Kind::Refutation
            } else {
                Kind::Window
            };
            Some(Question {
                at: step.applied,
                node: id,
                kind,
                mv: Some(mv),
                name: parent.move_name(mv),
                parent: node.parent,
                points,
                position: parent.position.clone(),
                ply: parent.ply,
                alpha: parent.alpha,
                beta: parent.beta,
                best: parent.best(),
            })
        }
        Via::Pass | Via::Singular | Via::Verification => None,
    }
}

/// The first step from `from` on that asks a question (see [`question`]):
/// the step before a root's `EnterNode`, or before the move that enters a
/// node of the main search.
pub fn next_question(replay: &Replay, from: usize) -> Option<usize> {
    let tree = &replay.tree;
    let first = tree.nodes.partition_point(|n| (n.enter as usize) < from);
    tree.nodes[first..].iter().find_map(|node| {
        let at = match node.via {
            _ if node.quiescence => return None,
            Via::Root => node.enter as usize,
            Via::Move(_) => (node.enter as usize).checked_sub(1)?,
            Via::Pass | Via::Singular | Via::Verification => return None,
        };
        (at >= from).then_some(at)
    })
}

/// The root's choice once it returned: its best move and value, as its
/// last step shows them.
fn chosen(replay: &Replay, root: &TreeNode) -> Option<(Move, i32)> {
    let end = root.end? as usize;
    replay.step(end + 1).current()?.best()
}

/// A value with its bound sign, at `ply`: "≤ +0.30".
fn valued(value: i32, bound: Bound, ply: u32) -> String {
    format!("{}{}", bound.sign(), value_text(value, ply))
}

/// "White" or "Black" (on a hand-made tree, "MAX" or "MIN").
fn side(position: &Chess) -> &'static str {
    side_name(position.turn())
}

impl Question {
    /// The question in words, with how to answer it.
    pub fn text(&self) -> String {
        in_points(self.points, || self.words())
    }

    fn words(&self) -> String {
        let window = format!(
            "[{}, {}]",
            value_text(self.alpha, self.ply),
            value_text(self.beta, self.ply)
        );
        let name = |_: Move| self.name.clone();
        match (self.kind, self.mv) {
            (Kind::Value, _) => format!(
                "Predict: what value will {} return, for MAX? Type a whole number after :; → skips.",
                self.name
            ),
            (Kind::Skipped, _) => format!(
                "Predict: which leaves under {} will never be evaluated? Type their names after :, or :none; → skips.",
                self.name
            ),
            (Kind::Choice, _) => format!(
                "Predict: which move will {} choose? Type it after : (as :Nf3); → skips.",
                side(&self.position)
            ),
            (Kind::Cutoff, Some(m)) => format!(
                "Predict: will {}, the first move here, reach beta {} and cut off? y or n; → skips.",
                name(m),
                value_text(self.beta, self.ply)
            ),
            (Kind::Refutation, Some(m)) => format!(
                "Predict: which reply will refute {} (cut the node after it off)? :move or :none; → skips.",
                name(m)
            ),
            (Kind::Window, Some(m)) => format!(
                "Predict: {} in {}'s window {window} comes back ≥ beta (>), ≤ alpha (<) or inside (i)? → skips.",
                name(m),
                side(&self.position)
            ),
            (_, None) => String::new(),
        }
    }

    /// What the question is answered with, said when something else was
    /// typed or pressed.
    pub fn expected(&self) -> &'static str {
        match self.kind {
            Kind::Choice => {
                "Not an answer here: type a legal move after : (as :Nf3 or :g1f3); → skips."
            }
            Kind::Refutation => {
                "Not an answer here: type a legal reply after : (as :Nf6 or :g8f6), or :none; → skips."
            }
            Kind::Cutoff => "This question is answered with y or n; → skips it.",
            Kind::Window => "Answer with > (≥ beta), < (≤ alpha) or i (inside); → skips.",
            Kind::Value => "Not an answer here: type a whole number after :, such as :-2; → skips.",
            Kind::Skipped => {
                "Not an answer here: type the names of leaves under this node after :, or :none; → skips."
            }
        }
    }

    /// Whether the question takes a typed answer (after `:`).
    pub fn typed(&self) -> bool {
        matches!(
            self.kind,
            Kind::Choice | Kind::Refutation | Kind::Value | Kind::Skipped
        )
    }

    /// A typed answer read, or what was expected instead.
    pub fn parse(&self, replay: &Replay, typed: &str) -> Result<Answer, String> {
        let typed = typed.trim();
        let position = match self.kind {
            Kind::Choice => self.position.clone(),
            Kind::Refutation => {
                if typed.eq_ignore_ascii_case("none") {
                    return Ok(Answer::NoMove);
                }
                replay.tree.position(self.node)
            }
            Kind::Value | Kind::Skipped => return games::parse(self, replay, typed),
            Kind::Cutoff | Kind::Window => return Err(self.expected().to_string()),
        };
        crate::game::notation::parse_move(&position, typed)
            .map(Answer::Move)
            .map_err(|e| format!("{typed}: {e}. {}", self.expected()))
    }

    /// The record's answer.
    pub fn truth(&self, replay: &Replay) -> Answer {
        let tree = &replay.tree;
        let node = tree.node(self.node);
        match self.kind {
            Kind::Choice => chosen(replay, node).map_or(Answer::NoMove, |(m, _)| Answer::Move(m)),
            Kind::Cutoff => {
                if self
                    .outcome(replay)
                    .is_some_and(|(o, _, _)| o == Outcome::High)
                {
                    Answer::Yes
                } else {
                    Answer::No
                }
            }
            Kind::Refutation => match node.cutoff {
                Some((_, reply, _)) => Answer::Move(reply),
                None => Answer::NoMove,
            },
            Kind::Window => self
                .outcome(replay)
                .map_or(Answer::NoMove, |(o, _, _)| Answer::Window(o)),
            Kind::Value => games::value(replay, self.node).map_or(Answer::NoMove, Answer::Value),
            Kind::Skipped => Answer::Leaves(games::skipped(replay, self.node)),
        }
    }

    /// The move's value where it is tried, from that side (the last
    /// search of it, re-searches included), its bound, and where it lands
    /// against the window the question showed.
    fn outcome(&self, replay: &Replay) -> Option<(Outcome, i32, Bound)> {
        let tree = &replay.tree;
        let node = tree.node(self.node);
        let last = node
            .parent
            .map(|p| {
                tree.node(p)
                    .children
                    .iter()
                    .copied()
                    .filter(|&c| tree.node(c).via == node.via && c >= self.node)
                    .max()
                    .unwrap_or(self.node)
            })
            .unwrap_or(self.node);
        let (value, bound) = tree.node(last).value?;
        let (value, bound) = (-value, bound.flipped());
        let outcome = if value >= self.beta {
            Outcome::High
        } else if value <= self.alpha {
            Outcome::Low
        } else {
            Outcome::Inside
        };
        Some((outcome, value, bound))
    }

    /// Judge an answer: right or wrong, and why.
    pub fn judge(&self, replay: &Replay, answer: Answer) -> Verdict {
        let truth = self.truth(replay);
        // Where alpha-beta proves only a bound, the tree's true value is
        // as right as the number returned.
        let right = answer == truth
            || (self.kind == Kind::Value
                && matches!(answer, Answer::Value(v) if games::true_value(replay, self.node) == Some(v)));
        let why = in_points(self.points, || match self.kind {
            Kind::Choice => self.choice_words(replay, answer),
            Kind::Cutoff | Kind::Window => self.outcome_words(replay),
            Kind::Refutation => self.refutation_words(replay, answer),
            Kind::Value => games::value_words(self, replay),
            Kind::Skipped => games::skipped_words(self, replay),
        });
        Verdict {
            right,
            text: format!("{} {why}", if right { "Right:" } else { "No:" }),
        }
    }

    /// Why the move landed where it did.
    fn outcome_words(&self, replay: &Replay) -> String {
        let (Some(_), Some((outcome, value, bound))) = (self.mv, self.outcome(replay)) else {
            return "the record does not say what the move returned.".to_string();
        };
        let ply = self.ply;
        let name = &self.name;
        // On a tree, MIN's values are said from MAX's view too, as the
        // tree is written.
        let got = if self.points {
            format!(
                "{}{}",
                bound.sign(),
                side_value_text(value, ply, self.position.turn())
            )
        } else {
            format!("{} for {}", valued(value, bound, ply), side(&self.position))
        };
        let alpha = value_text(self.alpha, ply);
        let beta = value_text(self.beta, ply);
        match outcome {
            Outcome::High => {
                let spared = replay
                    .tree
                    .node(self.node)
                    .parent
                    .and_then(|p| replay.tree.node(p).cutoff)
                    .map_or(0, |(_, _, skipped)| skipped);
                format!(
                    "{name} came back {got}, at or above beta {beta}: a cutoff, {}.",
                    match spared {
                        0 => "though no move was left to skip".to_string(),
                        1 => "1 move is never searched".to_string(),
                        n => format!("{n} moves are never searched"),
                    }
                )
            }
            // At or below alpha: no better than what the side already has
            // elsewhere (which of this node's moves ends up its best is a
            // question of bounds, not said here).
            Outcome::Low => format!(
                "{name} came back {got}, at or below alpha {alpha}: no better than what {} already has elsewhere.",
                side(&self.position)
            ),
            Outcome::Inside => match self.best.filter(|&(_, best)| value <= best) {
                // Inside the window but not above the best so far (plain
                // minimax searches every move with no window): nothing
                // rises.
                Some((best, best_value)) => {
                    let best_name = self
                        .parent
                        .map_or(String::new(), |p| replay.tree.move_name(p, best));
                    format!(
                        "{name} came back {got}, no better for {} than {best_name} ({}): {best_name} stays the best move, no cutoff.",
                        side(&self.position),
                        value_text(best_value, ply)
                    )
                }
                None => format!(
                    "{name} came back {got}, above alpha {alpha} and below beta {beta}: the new best move, alpha rises to {}, no cutoff.",
                    value_text(value, ply)
                ),
            },
        }
    }

    /// Why the root chose its move, and what became of the one guessed.
    fn choice_words(&self, replay: &Replay, answer: Answer) -> String {
        let node = replay.tree.node(self.node);
        let Some((best, value)) = chosen(replay, node) else {
            return "the search chose no move here.".to_string();
        };
        let chose = format!(
            "{} chooses {} ({}).",
            side(&self.position),
            replay.tree.move_name(self.node, best),
            value_text(value, 0),
        );
        match answer {
            Answer::Move(guess) if guess != best => {
                format!("{chose} {}", self.fate(replay, self.node, guess, 0))
            }
            _ => chose,
        }
    }

    /// Why the reply refuted the move, or why none did.
    fn refutation_words(&self, replay: &Replay, answer: Answer) -> String {
        let tree = &replay.tree;
        let node = tree.node(self.node);
        let Some(m) = self.mv else {
            return String::new();
        };
        let after = tree.position(self.node);
        let name = replay.tree.move_name(node.parent.unwrap_or(self.node), m);
        let ply = node.ply;
        let replier = side(&after);
        let truth = match node.cutoff {
            Some((_, reply, skipped)) => {
                let value = node.value.map_or(String::new(), |(v, b)| {
                    format!(" ({} for {replier}", valued(v, b, ply))
                });
                let beta = value_text(node.beta, ply);
                format!(
                    "{} refutes {name}: it reaches beta {beta} after it{}{}, so {name} is no good and {} other {} never searched.",
                    replay.tree.move_name(self.node, reply),
                    value,
                    if value.is_empty() { "" } else { ")" },
                    skipped,
                    if skipped == 1 {
                        "reply is"
                    } else {
                        "replies are"
                    }
                )
            }
            None => match NodeKind::of(
                node.value.map_or(0, |(v, _)| v),
                node.value.map_or(Bound::Exact, |(_, b)| b),
                (node.alpha, node.beta),
                false,
            ) {
                NodeKind::Cut => format!(
                    "no reply had to: {replier}'s side reached beta after {name} without a move (a rule or the table answered)."
                ),
                _ => {
                    let words = self.outcome_words(replay);
                    format!("no reply refutes it, none reaches beta after it. {words}")
                }
            },
        };
        match answer {
            Answer::Move(guess) if Some(guess) != node.cutoff.map(|(_, r, _)| r) => {
                format!("{truth} {}", self.fate(replay, self.node, guess, ply))
            }
            _ => truth,
        }
    }

    /// What became of `guess` at node `at` (from the node's side, at
    /// `ply`): its value, or why it was never searched.
    fn fate(&self, replay: &Replay, at: NodeId, guess: Move, ply: u32) -> String {
        let tree = &replay.tree;
        let node = tree.node(at);
        let position = tree.position(at);
        let name = tree.move_name(at, guess);
        let searched = node
            .children
            .iter()
            .rev()
            .find(|&&c| tree.node(c).via == Via::Move(guess))
            .and_then(|&c| tree.node(c).value);
        if let Some((value, bound)) = searched {
            return format!(
                "{name} came back {} for {}.",
                valued(-value, bound.flipped(), ply),
                side(&position)
            );
        }
        if let Some(end) = node.end {
            let last = replay.step(end as usize + 1);
            if let Some(line) = last
                .current()
                .and_then(|f| f.moves.iter().find(|l| l.mv == guess))
            {
                return match line.status {
                    MoveStatus::CutOff => {
                        format!("{name} was never searched: the cutoff came first.")
                    }
                    MoveStatus::Pruned(rule) => {
                        format!("{name} was never searched: {} skipped it.", rule.label())
                    }
                    _ => format!("{name} was never searched."),
                };
            }
        }
        format!("{name} was never searched.")
    }

    /// What someone answering without looking would say: "no", the first
    /// of the three choices (at or above beta), the first legal move of
    /// the position the answer is a move of; on a tree, the first number
    /// under the node, and no leaf skipped. The test that guessing does
    /// not pay answers with these.
    pub fn default_answer(&self, replay: &Replay) -> Answer {
        let first = |position: Chess| {
            position
                .legal_moves()
                .first()
                .copied()
                .map_or(Answer::NoMove, Answer::Move)
        };
        match self.kind {
            Kind::Cutoff => Answer::No,
            Kind::Window => Answer::Window(Outcome::High),
            Kind::Choice => first(self.position.clone()),
            Kind::Refutation => first(replay.tree.position(self.node)),
            Kind::Value => {
                games::first_leaf(replay, self.node).map_or(Answer::NoMove, Answer::Value)
            }
            Kind::Skipped => Answer::Leaves(0),
        }
    }
}

mod games;
#[cfg(test)]
mod tests;
