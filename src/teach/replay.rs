//! Replaying a recorded search: any step of it, and the jumps a learner
//! makes through it.
//!
//! A [`Step`] (`step.rs`) is what the search knew after some prefix of the
//! log. Going forward applies events to it; going back is a replay from
//! the nearest snapshot a [`Replay`] keeps, so any step costs at most
//! [`SNAPSHOT_INTERVAL`] events of work, however long the record.

use std::sync::Arc;

use super::Recording;
use super::step::node_orders;
use super::tree::{SearchTree, TreeBuilder};
use crate::engine::trace::TraceEvent;

/// A step's parts, named here too: a replay hands them out.
pub use super::step::{Bound, Frame, MoveLine, MoveStatus, NodeOrders, Step, TableProbe, Via};

/// A snapshot of the step is kept every this many events.
pub const SNAPSHOT_INTERVAL: usize = 2048;

/// A recording with the snapshots that make any step quick to reach.
#[derive(Debug)]
pub struct Replay {
    pub recording: Recording,
    snapshots: Vec<Step>,
    /// The tree the search explored, for the tree view.
    pub tree: SearchTree,
}

impl Replay {
    /// Walk the whole record once, keeping a snapshot every
    /// [`SNAPSHOT_INTERVAL`] events.
    pub fn new(recording: Recording) -> Replay {
        let mut step = recording.setup.first_step();
        step.orders = Some(Arc::new(node_orders(&recording.events)));
        // The history and counter-moves as the search left them: the record
        // follows the move tables event by event, these only at the end.
        step.tables.history = recording.memory.history;
        step.tables.counters = recording.memory.counters.clone();
        step.tables.history_at_end = true;
        let mut snapshots = vec![step.clone()];
        let mut tree = TreeBuilder::new(&recording.setup.position);
        for (i, event) in recording.events.iter().enumerate() {
            tree.before(&step, i, event);
            step.apply(event);
            tree.after(&step, i, event);
            if (i + 1) % SNAPSHOT_INTERVAL == 0 {
                snapshots.push(step.clone());
            }
        }
        let tree = tree.finish(&step);
        Replay {
            recording,
            snapshots,
            tree,
        }
    }

    pub fn events(&self) -> &[TraceEvent] {
        &self.recording.events
    }

    pub fn len(&self) -> usize {
        self.recording.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.recording.events.is_empty()
    }

    /// The step after the first `applied` events (clamped to the record).
    pub fn step(&self, applied: usize) -> Step {
        let applied = applied.min(self.len());
        let snapshot = (applied / SNAPSHOT_INTERVAL).min(self.snapshots.len() - 1);
        let mut step = self.snapshots[snapshot].clone();
        for event in &self.recording.events[step.applied..applied] {
            step.apply(event);
        }
        step
    }

    /// Move `step` to `applied` events: forward by applying the events in
    /// between when that is shorter than a replay, else from a snapshot.
    pub fn seek(&self, step: &mut Step, applied: usize) {
        let applied = applied.min(self.len());
        if applied >= step.applied && applied - step.applied <= SNAPSHOT_INTERVAL {
            for event in &self.recording.events[step.applied..applied] {
                step.apply(event);
            }
        } else {
            *step = self.step(applied);
        }
    }

    /// The event applied last at `applied` (none at the start).
    pub fn event_at(&self, applied: usize) -> Option<&TraceEvent> {
        applied
            .checked_sub(1)
            .and_then(|i| self.recording.events.get(i))
    }

    /// Step over: from a move just tried (or the current node), to the next
    /// event of the current node, past the whole subtree of its move.
    pub fn over(&self, step: &Step) -> usize {
        let Some(ply) = step
            .current()
            .filter(|f| f.returned.is_none())
            .map(|f| f.ply)
        else {
            return (step.applied + 1).min(self.len());
        };
        self.find_forward(step.applied, |e| e.ply().is_none_or(|p| p <= ply))
            .unwrap_or(self.len())
    }

    /// Step out: to the return of the current node (from a return, to the
    /// return of its parent).
    pub fn out(&self, step: &Step) -> usize {
        let Some(frame) = step.current() else {
            return self.len();
        };
        let ply = if frame.returned.is_some() {
            frame.ply.saturating_sub(1)
        } else {
            frame.ply
        };
        self.find_forward(step.applied, |e| {
            matches!(*e, TraceEvent::Return { ply: p, .. } if p == ply)
                || matches!(e, TraceEvent::Iteration { .. })
        })
        .unwrap_or(self.len())
    }

    /// The step that shows the next event matching `wanted` after
    /// `applied` (the event applied last): its index plus one.
    pub fn find_forward(
        &self,
        applied: usize,
        wanted: impl Fn(&TraceEvent) -> bool,
    ) -> Option<usize> {
        self.recording
            .events
            .iter()
            .enumerate()
            .skip(applied)
            .find(|(_, e)| wanted(e))
            .map(|(i, _)| i + 1)
    }

    /// The same, backwards: the last matching event before the one applied
    /// last.
    pub fn find_backward(
        &self,
        applied: usize,
        wanted: impl Fn(&TraceEvent) -> bool,
    ) -> Option<usize> {
        let before = applied.saturating_sub(1).min(self.len());
        self.recording.events[..before]
            .iter()
            .rposition(wanted)
            .map(|i| i + 1)
    }
}

/// The kinds of event a learner can jump between.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Landmark {
    /// A beta cutoff.
    Cutoff,
    /// A new best move at the root.
    RootBest,
    /// The table knew the position.
    TableHit,
}

impl Landmark {
    pub fn matches(self, event: &TraceEvent) -> bool {
        match self {
            Landmark::Cutoff => matches!(event, TraceEvent::BetaCutoff { .. }),
            Landmark::RootBest => matches!(event, TraceEvent::AlphaRaised { ply: 0, .. }),
            Landmark::TableHit => matches!(event, TraceEvent::TtProbe { hit: true, .. }),
        }
    }
}
