//! The tree a recorded search explored, as a foldable outline: one line a
//! node, indented by ply, with the move, its value and whether that value
//! is exact or a bound, the window the move was searched with, and what
//! happened there (a cutoff and how many moves it skipped, an answer from
//! the transposition table, quiescence and its stand-pat, a re-search, the
//! principal variation), its subtree's size, and under it the moves it
//! skipped unsearched, each with the rule that skipped it (the moves a
//! cutoff spared are named too: the step knows the node's whole list).
//!
//! The tree is built once, in the same walk over the record that makes the
//! replay's snapshots, by watching the same [`Step`] the replay uses: a
//! node's value and bound are exactly what the replay shows at its return.
//! What a step shows is then a question of event indices: a node is on
//! screen once its `EnterNode` is applied, its value once its `Return` is.

use shakmaty::{Chess, Color, Move, Position};

use std::sync::Arc;

use super::game_tree::{self, GameTree};
use super::step::{Bound, Step, Via};
use crate::engine::SearchOptions;
use crate::engine::trace::{Estimate, OrderReason, Pruning, ReSearchReason, Shortcut, TraceEvent};

/// A node's index in [`SearchTree::nodes`]: nodes are numbered in the order
/// the search entered them.
pub type NodeId = u32;

/// One node of the search.
#[derive(Debug, Clone, PartialEq)]
pub struct TreeNode {
    pub parent: Option<NodeId>,
    pub ply: u32,
    pub via: Via,
    /// The index of its `EnterNode` event: steps after it show the node.
    pub enter: u32,
    /// The index of its `Return` event, if it returned.
    pub end: Option<u32>,
    /// Plies left to the horizon when entered.
    pub depth: i32,
    /// The window it was entered with, from its own side to move.
    pub alpha: i32,
    pub beta: i32,
    pub quiescence: bool,
    /// What it returned, from its own side to move, and whether that is the
    /// value or a bound on it.
    pub value: Option<(i32, Bound)>,
    /// The iteration (depth) it belongs to, with iterative deepening.
    pub iteration: Option<i32>,
    /// When the transposition table answered it.
    pub table: Option<u32>,
    /// When it returned before searching its moves, and why.
    pub shortcut: Option<(u32, Shortcut)>,
    /// When a move reached beta, which move, and how many moves it skipped.
    pub cutoff: Option<(u32, Move, u32)>,
    /// When the static evaluation was asked here, and what it said (from
    /// the node's side to move): the stand-pat of a quiescence node, the
    /// value of a horizon leaf.
    pub evaluation: Option<(u32, i32)>,
    /// Nodes in its subtree, itself included (once the tree is built).
    pub size: u32,
    /// This search of the move repeats an earlier one, and why.
    pub research: Option<ReSearchReason>,
    /// Why the move into it was searched, when that is one of Greer's
    /// memories (a table move, a move chain): the tree marks those.
    pub greer: Option<OrderReason>,
    pub children: Vec<NodeId>,
    /// Its moves skipped without a search: `SearchTree::pruned[first..][..count]`.
    pruned_first: u32,
    pruned_count: u32,
    /// The moves its cutoff skipped: `SearchTree::cut_off[first..]`, as
    /// many as the cutoff says.
    cut_first: u32,
}

/// A move skipped without a search (by a pruning rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrunedMove {
    pub node: NodeId,
    /// The index of its `MovePruned` event.
    pub at: u32,
    pub mv: Move,
    pub rule: Pruning,
    /// For futility and delta pruning: the estimate the rule compared with
    /// alpha, and alpha then (both from the node's side to move).
    pub estimate: Option<(Estimate, i32)>,
}

impl TreeNode {
    /// Whether step `applied` (that many events applied) shows the node.
    pub fn seen(&self, applied: usize) -> bool {
        (self.enter as usize) < applied
    }

    /// Its value once step `applied` has seen it return.
    pub fn value_at(&self, applied: usize) -> Option<(i32, Bound)> {
        self.end
            .filter(|&end| (end as usize) < applied)
            .and(self.value)
    }
}

/// What kind of node a finished node turned out to be (Knuth and Moore's
/// names, as the textbook defines them by the value found): a PV node's
/// value fell strictly inside the window it was entered with, a cut node
/// failed high (a move reached beta, even a beta that mate-distance pruning
/// narrowed, or its value is at or above beta), an all node failed low
/// (its value is at or below alpha). A leaf is judged the same way, by its
/// value against its window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    Pv,
    Cut,
    All,
}

impl NodeKind {
    /// The kind of a node entered with `window` (`[alpha, beta]`, from its
    /// side to move) that returned `value`, which is `bound`; `cut`: a move
    /// reached beta there.
    pub fn of(value: i32, bound: Bound, window: (i32, i32), cut: bool) -> NodeKind {
        let (alpha, beta) = window;
        match bound {
            Bound::AtLeast => NodeKind::Cut,
            _ if cut => NodeKind::Cut,
            Bound::AtMost => NodeKind::All,
            Bound::Exact if value >= beta => NodeKind::Cut,
            Bound::Exact if value <= alpha => NodeKind::All,
            Bound::Exact => NodeKind::Pv,
        }
    }

    /// The letter the outline marks it with (never colour alone).
    pub fn letter(self) -> char {
        match self {
            NodeKind::Pv => 'P',
            NodeKind::Cut => 'C',
            NodeKind::All => 'A',
        }
    }
}

/// One line of the outline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row {
    Node(NodeId),
    /// What node `parent` skipped unsearched, in one line: how many moves
    /// and by which rule. It unfolds to the moves themselves.
    Skipped {
        parent: NodeId,
    },
    /// The `index`th pruned move of a node.
    Pruned {
        parent: NodeId,
        index: usize,
    },
    /// The `index`th move a node's beta cutoff skipped.
    CutOff {
        parent: NodeId,
        index: usize,
    },
}

/// How values are shown: negamax (each from the side that moved, the
/// engine's own view) or minimax (all from White's view, the side to
/// choose marked MAX or MIN).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Values {
    #[default]
    Negamax,
    Minimax,
}

/// The tree of one recorded search.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchTree {
    pub nodes: Vec<TreeNode>,
    /// Every pruned move, grouped by node (most nodes have none, so they
    /// are kept here rather than in each node).
    pruned: Vec<PrunedMove>,
    /// Every move a cutoff skipped, grouped by node.
    cut_off: Vec<Move>,
    /// Each iteration's root (one without iterative deepening).
    pub roots: Vec<NodeId>,
    pub(super) root: Chess,
    /// The hand-made tree searched, if the record is of one.
    pub game_tree: Option<Arc<GameTree>>,
}

impl SearchTree {
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn node(&self, id: NodeId) -> &TreeNode {
        &self.nodes[id as usize]
    }

    /// The moves node `id` skipped without a search, in the order it did.
    pub fn pruned(&self, id: NodeId) -> &[PrunedMove] {
        let node = self.node(id);
        let first = node.pruned_first as usize;
        self.pruned
            .get(first..first + node.pruned_count as usize)
            .unwrap_or_default()
    }

    /// The moves node `id`'s beta cutoff skipped, in the order the node
    /// would have tried them (none without a cutoff).
    pub fn cut_off(&self, id: NodeId) -> &[Move] {
        let node = self.node(id);
        let count = node.cutoff.map_or(0, |(_, _, skipped)| skipped as usize);
        let first = node.cut_first as usize;
        self.cut_off.get(first..first + count).unwrap_or_default()
    }

    /// How many nodes of the subtree of `id` step `applied` shows, `id`
    /// itself included: all of them once it returned. A subtree is a run of
    /// consecutive ids (nodes are numbered as the search enters them, and
    /// it enters a node's descendants before it leaves the node).
    pub fn size_at(&self, id: NodeId, applied: usize) -> u32 {
        let node = self.node(id);
        if !node.seen(applied) {
            return 0;
        }
        let end = id as usize + node.size as usize;
        let seen = self.nodes[..end].partition_point(|n| n.seen(applied));
        (seen - id as usize) as u32
    }

    /// What node `id` skipped by step `applied`: its pruned moves (by
    /// index) and, after its cutoff, how many moves that skipped.
    pub fn skipped_at(&self, id: NodeId, applied: usize) -> (Vec<usize>, usize) {
        let pruned = self
            .pruned(id)
            .iter()
            .enumerate()
            .filter(|(_, p)| (p.at as usize) < applied)
            .map(|(i, _)| i)
            .collect();
        let cut = match self.node(id).cutoff {
            Some((at, _, _)) if (at as usize) < applied => self.cut_off(id).len(),
            _ => 0,
        };
        (pruned, cut)
    }

    /// The node the search is at after `applied` events: the last one
    /// entered, or the nearest ancestor still open (a node that returned
    /// stays current for the step of its return).
    pub fn current(&self, applied: usize) -> Option<NodeId> {
        let entered = self.nodes.partition_point(|n| n.seen(applied));
        let mut id = entered.checked_sub(1)? as NodeId;
        loop {
            let node = self.node(id);
            match (node.end, node.parent) {
                (Some(end), Some(parent)) if (end as usize) + 1 < applied => id = parent,
                _ => return Some(id),
            }
        }
    }

    /// The nodes from the root to `id`.
    pub fn path(&self, id: NodeId) -> Vec<NodeId> {
        let mut path = vec![id];
        let mut at = id;
        while let Some(parent) = self.node(at).parent {
            path.push(parent);
            at = parent;
        }
        path.reverse();
        path
    }

    /// How many nodes are above `id`: its ply, one more for each singular
    /// test on the way (see [`RowText::ply`](super::tree_text::RowText::ply)).
    pub fn level(&self, id: NodeId) -> u32 {
        let node = self.node(id);
        let tests = self
            .path(id)
            .iter()
            .filter(|&&n| self.node(n).via.is_test())
            .count();
        node.ply + tests as u32
    }

    /// Where node `id` is in the hand-made tree searched, if the record is
    /// of one.
    pub fn tree_node(&self, id: NodeId) -> Option<usize> {
        let tree = self.game_tree.as_ref()?;
        self.path(id)
            .iter()
            .try_fold(0, |at, &node| match self.node(node).via {
                Via::Move(m) => tree.child(at, game_tree::child_index(m)?),
                _ => Some(at),
            })
    }

    /// A move of node `id` as a learner reads it: SAN, or on a hand-made
    /// tree the child's name.
    pub fn move_name(&self, id: NodeId, mv: Move) -> String {
        match (&self.game_tree, self.tree_node(id)) {
            (Some(tree), Some(at)) => tree.move_name(at, mv),
            _ => shakmaty::san::SanPlus::from_move(self.position(id), mv).to_string(),
        }
    }

    /// The position at node `id` (on a hand-made tree, the record's root
    /// position, which nothing shows).
    pub fn position(&self, id: NodeId) -> Chess {
        let mut position = self.root.clone();
        if self.game_tree.is_some() {
            // MAX moves at even plies, MIN at odd (see `Step::apply`).
            if self.node(id).ply % 2 == 1 {
                position = game_tree::turn_passed(&position);
            }
            return position;
        }
        for node in self.path(id) {
            match self.node(node).via {
                Via::Move(m) => position.play_unchecked(m),
                Via::Pass => {
                    if let Ok(passed) = position.clone().swap_turn() {
                        position = passed;
                    }
                }
                Via::Root | Via::Singular | Via::Verification => {}
            }
        }
        position
    }

    /// A node's children in the order the search met them, then what it
    /// skipped: one line, and if `unfolded` the moves under it (the pruned
    /// ones in the order they were pruned, then those the cutoff skipped).
    pub fn rows_under(&self, id: NodeId, applied: usize, unfolded: bool) -> Vec<Row> {
        let mut rows: Vec<Row> = self
            .node(id)
            .children
            .iter()
            .filter(|&&c| self.node(c).seen(applied))
            .map(|&c| Row::Node(c))
            .collect();
        let (pruned, cut) = self.skipped_at(id, applied);
        if pruned.is_empty() && cut == 0 {
            return rows;
        }
        rows.push(Row::Skipped { parent: id });
        if unfolded {
            rows.extend(
                pruned
                    .into_iter()
                    .map(|index| Row::Pruned { parent: id, index }),
            );
            rows.extend((0..cut).map(|index| Row::CutOff { parent: id, index }));
        }
        rows
    }

    /// The outline at step `applied`: every node seen so far whose parent
    /// is `open`, depth first, in the order the search met them, with what
    /// each open node skipped named move by move.
    pub fn rows(&self, applied: usize, open: &dyn Fn(NodeId) -> bool) -> Vec<Row> {
        self.outline(applied, open, open)
    }

    /// The outline as [`SearchTree::rows`], with the moves an open node
    /// skipped named only where `unfolded` says so (else one line says
    /// how many, by which rule).
    pub fn outline(
        &self,
        applied: usize,
        open: &dyn Fn(NodeId) -> bool,
        unfolded: &dyn Fn(NodeId) -> bool,
    ) -> Vec<Row> {
        let mut rows = Vec::new();
        let mut stack: Vec<Row> = self
            .roots
            .iter()
            .rev()
            .filter(|&&r| self.node(r).seen(applied))
            .map(|&r| Row::Node(r))
            .collect();
        while let Some(row) = stack.pop() {
            rows.push(row);
            if let Row::Node(id) = row
                && open(id)
            {
                stack.extend(self.rows_under(id, applied, unfolded(id)).into_iter().rev());
            }
        }
        rows
    }

    /// The best line from `root` as step `applied` knows it: at each node
    /// the finished child that is best for the side to move there (the
    /// latest search of each move, never a null move), down to the
    /// horizon.
    pub fn pv(&self, root: NodeId, applied: usize) -> Vec<NodeId> {
        let mut line = Vec::new();
        let mut at = root;
        loop {
            let mut best: Option<(i32, NodeId)> = None;
            let children = &self.node(at).children;
            for (i, &child) in children.iter().enumerate() {
                let node = self.node(child);
                let later = children[i + 1..]
                    .iter()
                    .any(|&c| self.node(c).via == node.via && self.node(c).seen(applied));
                // A pass or a test is no move of the line.
                if node.via == Via::Pass || node.via.is_test() || later {
                    continue;
                }
                if let Some((value, _)) = node.value_at(applied)
                    && best.is_none_or(|(b, _)| -value > b)
                {
                    best = Some((-value, child));
                }
            }
            match best {
                // The line ends at the horizon: quiescence's captures are
                // not part of it.
                Some((_, child)) if self.node(child).quiescence => {
                    line.push(child);
                    return line;
                }
                Some((_, child)) => {
                    line.push(child);
                    at = child;
                }
                None => return line,
            }
        }
    }

    /// The running iteration's root and its best line at step `applied`:
    /// the nodes the outline marks `PV`.
    pub fn best_line(&self, applied: usize) -> Vec<NodeId> {
        let Some(root) = self.root_at(applied) else {
            return Vec::new();
        };
        let mut line = vec![root];
        line.extend(self.pv(root, applied));
        line
    }

    /// The root of the iteration running at step `applied`.
    pub fn root_at(&self, applied: usize) -> Option<NodeId> {
        self.roots
            .iter()
            .rev()
            .find(|&&r| self.node(r).seen(applied))
            .copied()
    }

    /// The side to move at node `id`.
    pub(super) fn turn_at(&self, id: NodeId) -> Color {
        // Every move and every pass hands the turn over (a singular
        // test searches its parent's position, with the same side to move).
        let plies = self
            .path(id)
            .iter()
            .filter(|&&n| self.node(n).via != Via::Root && !self.node(n).via.is_test())
            .count();
        if plies % 2 == 0 {
            self.root.turn()
        } else {
            !self.root.turn()
        }
    }
}

/// The tree of a search from `root` with `options`, from its events.
pub fn build(root: &Chess, options: &SearchOptions, events: &[TraceEvent]) -> SearchTree {
    let mut step = Step::new(root, options);
    let mut tree = TreeBuilder::new(root);
    for (i, event) in events.iter().enumerate() {
        tree.before(&step, i, event);
        step.apply(event);
        tree.after(&step, i, event);
    }
    tree.finish(&step)
}

/// Builds the tree while a [`Step`] walks the record: call
/// [`TreeBuilder::before`] before each event is applied and
/// [`TreeBuilder::after`] after it.
#[derive(Debug)]
pub struct TreeBuilder {
    tree: SearchTree,
    /// The nodes of the step's frames, root first.
    path: Vec<NodeId>,
    iteration: Option<i32>,
    research: Option<ReSearchReason>,
    /// The reason of the last move tried, if a table move or a chain.
    greer: Option<OrderReason>,
}

impl TreeBuilder {
    pub fn new(root: &Chess) -> TreeBuilder {
        TreeBuilder {
            tree: SearchTree {
                nodes: Vec::new(),
                pruned: Vec::new(),
                cut_off: Vec::new(),
                roots: Vec::new(),
                root: root.clone(),
                game_tree: None,
            },
            path: Vec::new(),
            iteration: None,
            research: None,
            greer: None,
        }
    }

    fn top(&mut self) -> Option<&mut TreeNode> {
        let id = *self.path.last()?;
        self.tree.nodes.get_mut(id as usize)
    }

    /// Before `event` (number `index`) is applied to `step`.
    pub fn before(&mut self, step: &Step, index: usize, event: &TraceEvent) {
        let at = index as u32;
        // A node that returned leaves the step when the next event comes:
        // its value and bound are final now.
        if let Some(frame) = step.frames.last()
            && let Some(value) = frame.returned
        {
            let bound = frame.value_bound(value, step.alpha_beta());
            if let Some(node) = self.top() {
                node.value = Some((value, bound));
            }
            self.path.pop();
        }
        match *event {
            TraceEvent::Iteration { depth } => self.iteration = Some(depth),
            TraceEvent::MoveTried { reason, .. } => {
                self.research = None;
                self.greer = matches!(reason, OrderReason::TableMove | OrderReason::MoveChain)
                    .then_some(reason);
            }
            TraceEvent::NullMove { .. } => {
                self.research = None;
                self.greer = None;
            }
            TraceEvent::ReSearch { reason, .. } => self.research = Some(reason),
            TraceEvent::TtProbe { cutoff: true, .. } => {
                if let Some(node) = self.top() {
                    node.table = Some(at);
                }
            }
            TraceEvent::MovePruned {
                mv,
                reason,
                estimate,
                ..
            } => {
                if let Some(&node) = self.path.last() {
                    // Alpha is read once the step has applied the event
                    // (see `after`): a child that just returned is still
                    // the step's top frame now.
                    self.tree.pruned.push(PrunedMove {
                        node,
                        at,
                        mv,
                        rule: reason,
                        estimate: estimate.map(|e| (e, 0)),
                    });
                }
            }
            TraceEvent::StandPat { value, .. } | TraceEvent::LeafEval { value, .. } => {
                if let Some(node) = self.top() {
                    node.evaluation = Some((at, value));
                }
            }
            TraceEvent::Shortcut { reason, .. } => {
                if let Some(node) = self.top() {
                    node.shortcut = Some((at, reason));
                }
            }
            TraceEvent::Return { .. } => {
                if let Some(node) = self.top() {
                    node.end = Some(at);
                }
            }
            _ => {}
        }
    }

    /// After `event` (number `index`) was applied to `step`.
    pub fn after(&mut self, step: &Step, index: usize, event: &TraceEvent) {
        let at = index as u32;
        // The step dropped frames: a new root starts afresh, a new
        // iteration or a popped node leaves fewer.
        if matches!(*event, TraceEvent::EnterNode { ply: 0, .. }) {
            self.path.clear();
        }
        self.path.truncate(step.frames.len());
        match *event {
            TraceEvent::EnterNode {
                ply,
                depth,
                alpha,
                beta,
                quiescence,
            } if step.frames.len() == self.path.len() + 1 => {
                let id = self.tree.nodes.len() as NodeId;
                let parent = self.path.last().copied();
                // How the step reached the node it just entered.
                let via = match (parent, step.current()) {
                    (Some(_), Some(frame)) => frame.via,
                    _ => Via::Root,
                };
                self.tree.nodes.push(TreeNode {
                    parent,
                    ply,
                    via,
                    enter: at,
                    end: None,
                    depth,
                    alpha,
                    beta,
                    quiescence,
                    value: None,
                    iteration: self.iteration,
                    table: None,
                    shortcut: None,
                    cutoff: None,
                    evaluation: None,
                    size: 1,
                    research: if parent.is_some() && !via.is_test() {
                        self.research.take()
                    } else {
                        None
                    },
                    greer: if parent.is_some() && !via.is_test() {
                        self.greer.take()
                    } else {
                        None
                    },
                    children: Vec::new(),
                    pruned_first: 0,
                    pruned_count: 0,
                    cut_first: 0,
                });
                match parent {
                    Some(parent) => self.tree.nodes[parent as usize].children.push(id),
                    None => self.tree.roots.push(id),
                }
                self.path.push(id);
            }
            TraceEvent::MovePruned {
                estimate: Some(_), ..
            } => {
                // The alpha the rule compared with: the node's own as it
                // stands (pruning a move does not change it).
                let alpha = step.current().map(|frame| frame.alpha);
                if let Some(pruned) = self.tree.pruned.last_mut()
                    && let (Some((_, at_alpha)), Some(alpha)) = (&mut pruned.estimate, alpha)
                {
                    *at_alpha = alpha;
                }
            }
            TraceEvent::BetaCutoff { mv, .. } => {
                // The moves the node had not reached: the step marked them
                // cut off, in the order the node would have tried them.
                let first = self.tree.cut_off.len() as u32;
                let mut skipped = 0;
                if let Some(frame) = step.current() {
                    let left = frame.moves.get(frame.reached..).unwrap_or_default();
                    self.tree.cut_off.extend(left.iter().map(|line| line.mv));
                    skipped = frame.cutoff.map_or(0, |(_, _, skipped)| skipped);
                }
                if let Some(node) = self.top() {
                    node.cutoff = Some((at, mv, skipped));
                    node.cut_first = first;
                }
            }
            _ => {}
        }
    }

    /// The tree, once the whole record was applied to `step`: the nodes
    /// still on the step that returned get their values.
    pub fn finish(mut self, step: &Step) -> SearchTree {
        self.tree.game_tree = step.game_tree().cloned();
        for (frame, &id) in step.frames.iter().zip(&self.path) {
            if let Some(value) = frame.returned {
                let bound = frame.value_bound(value, step.alpha_beta());
                self.tree.nodes[id as usize].value = Some((value, bound));
            }
        }
        // Each node's pruned moves together, in the order they were met.
        let tree = &mut self.tree;
        tree.pruned.sort_by_key(|p| (p.node, p.at));
        let mut at = 0;
        while at < tree.pruned.len() {
            let node = tree.pruned[at].node;
            let count = tree.pruned[at..]
                .iter()
                .take_while(|p| p.node == node)
                .count();
            let entry = &mut tree.nodes[node as usize];
            entry.pruned_first = at as u32;
            entry.pruned_count = count as u32;
            at += count;
        }
        for node in &mut tree.nodes {
            node.children.shrink_to_fit();
        }
        // Each node's subtree size, children before parents: a child's id
        // is always above its parent's.
        for id in (0..tree.nodes.len()).rev() {
            let (size, parent) = (tree.nodes[id].size, tree.nodes[id].parent);
            if let Some(parent) = parent {
                tree.nodes[parent as usize].size += size;
            }
        }
        tree.nodes.shrink_to_fit();
        tree.pruned.shrink_to_fit();
        tree.cut_off.shrink_to_fit();
        self.tree
    }
}
