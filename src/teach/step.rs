//! The state of a recorded search after some prefix of its events.
//!
//! A [`Step`] is what the search knew after some prefix of the log: the
//! stack of nodes from the root to the current one, each with its window,
//! its moves (tried, pending, cut off) and what the table said. Applying
//! one event to a step gives the next step. The record's
//! [`Replay`](super::replay::Replay) (`replay.rs`) keeps snapshots of steps
//! so that any step is quick to reach, and the tree (`tree.rs`) is built
//! from the steps as they go by; both use this file, which uses neither.

use std::collections::HashMap;
use std::sync::Arc;

use shakmaty::{Chess, Move, MoveList, Position, Role};

use super::game_tree::{self, GameTree};
use crate::engine::movetables::TableWeights;
use crate::engine::protocol::SearchOptions;
use crate::engine::search::MATE;
use crate::engine::stats::Counters;
use crate::engine::trace::{
    OrderReason, Pruning, ReSearchReason, Shortcut, TraceEvent, TtBound, TtEntry, WindowKind,
};

/// How a node was reached from its parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    Root,
    Move(Move),
    /// Null-move pruning: the parent passed.
    Pass,
    /// The singular-extension test: the parent's own position searched
    /// again, at a lower depth, without the move the table suggests (is
    /// that move the only good one?). The same position, the same ply and
    /// the same side to move; its value is no move's.
    Singular,
    /// The null move's verification: the null move held, and where
    /// zugzwang can hide the parent's own moves are searched again at the
    /// null move's reduced depth (that side's null moves off below); the
    /// cutoff stands only if they too reach beta. The same position, ply
    /// and side to move; its value is no move's.
    Verification,
}

impl Via {
    /// A search of the parent's own position again (a test, not a child
    /// reached by a move or a pass).
    pub fn is_test(self) -> bool {
        matches!(self, Via::Singular | Via::Verification)
    }
}

/// What has happened to one move of a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveStatus {
    /// Not reached yet.
    Pending,
    /// Its subtree is being searched.
    Searching,
    /// Searched; its value from the node's side to move.
    Searched(i32),
    /// Skipped because an earlier move reached beta.
    CutOff,
    /// Skipped by a pruning rule.
    Pruned(Pruning),
}

/// What a searched move's value says. Alpha-beta proves some moves only
/// worse than alpha (their value is at most the one returned: the search is
/// fail-soft and returns the best bound it found) and the move that cuts
/// off only good enough (at least its value).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Bound {
    #[default]
    Exact,
    /// The move failed low: its true value is at most this.
    AtMost,
    /// The move failed high: its true value is at least this.
    AtLeast,
}

impl Bound {
    /// The same bound seen from the other side (values change sign).
    pub fn flipped(self) -> Bound {
        match self {
            Bound::Exact => Bound::Exact,
            Bound::AtMost => Bound::AtLeast,
            Bound::AtLeast => Bound::AtMost,
        }
    }

    /// "≤ ", "≥ " or nothing, to put before a value.
    pub fn sign(self) -> &'static str {
        match self {
            Bound::Exact => "",
            Bound::AtMost => "≤ ",
            Bound::AtLeast => "≥ ",
        }
    }
}

/// One move of a node, as the replay knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveLine {
    pub mv: Move,
    pub status: MoveStatus,
    /// Why it was tried where it was (once tried).
    pub reason: Option<OrderReason>,
    /// The window of its latest search.
    pub window: Option<WindowKind>,
    /// Plies taken off its depth (late-move reductions).
    pub reduction: u8,
    /// Searches so far (more than one: re-searched).
    pub searches: u8,
    /// Its position was answered by the table, without a search.
    pub by_table: bool,
    /// Its position was at the horizon and went to quiescence search.
    pub quiescence: bool,
    /// Whether its value is exact or a bound (once searched).
    pub bound: Bound,
}

impl MoveLine {
    /// A move not reached yet.
    fn pending(mv: Move) -> MoveLine {
        MoveLine {
            mv,
            status: MoveStatus::Pending,
            reason: None,
            window: None,
            reduction: 0,
            searches: 0,
            by_table: false,
            quiescence: false,
            bound: Bound::Exact,
        }
    }
}

/// What the transposition table said about a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableProbe {
    pub hit: bool,
    pub cutoff: bool,
    /// The entry found, on a hit.
    pub entry: Option<TtEntry>,
}

/// One node on the path from the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub ply: u32,
    /// The chess position (on a hand-made tree, the record's root position,
    /// which nothing shows: `tree` says where the node is).
    pub position: Chess,
    /// On a hand-made game tree: the tree and this node's id in it.
    pub tree: Option<(Arc<GameTree>, usize)>,
    pub via: Via,
    /// Plies left to search (0 or less: the horizon).
    pub depth: i32,
    /// The window the node was entered with.
    pub entry_alpha: i32,
    pub entry_beta: i32,
    /// The window now: narrowed by mate-distance pruning, then alpha
    /// rises as moves improve on it.
    pub alpha: i32,
    pub beta: i32,
    pub quiescence: bool,
    /// The node's moves: first those reached, in the order the search took
    /// them, then the pending ones: in a `Replay`, those the search will
    /// reach in the order it will take them, then those it never reaches
    /// (cut off) in generation order. Quiescence nodes
    /// list only captures and promotions (all moves when in check); a
    /// horizon leaf lists none.
    pub moves: Vec<MoveLine>,
    /// How many of `moves` have been reached (tried or pruned).
    pub reached: usize,
    /// The move whose subtree is being searched, as an index into `moves`.
    pub current: Option<usize>,
    pub table: Option<TableProbe>,
    pub stored: Option<(i32, TtBound)>,
    pub stand_pat: Option<i32>,
    pub leaf_eval: Option<i32>,
    pub shortcut: Option<(Shortcut, i32)>,
    /// The null move was tried, and (once back) its value from this side.
    pub null_move: Option<Option<i32>>,
    /// The null move's cutoff has been verified (see [`Via::Verification`]).
    pub null_verified: bool,
    /// The move that reached beta, its value, and how many moves it spared
    /// (counted here: the moves not reached when it cut off).
    pub cutoff: Option<(Move, i32, u32)>,
    /// The node's value, once returned.
    pub returned: Option<i32>,
    /// How the next child will be reached.
    next_via: Via,
    /// The search's own index of the move tried last (it counts skipped
    /// moves too).
    tried_index: Option<u32>,
}

impl Frame {
    #[allow(clippy::too_many_arguments)]
    fn new(
        ply: u32,
        position: Chess,
        tree: Option<(Arc<GameTree>, usize)>,
        via: Via,
        depth: i32,
        window: (i32, i32),
        quiescence: bool,
        mate_distance: bool,
    ) -> Frame {
        // Mate-distance pruning (part of the selective search): below the
        // root, a main node narrows its window to what any line from it can
        // score, from being mated here to mating with the next move (as
        // `search::negamax` does).
        let (alpha, beta) = if mate_distance && ply > 0 && !quiescence && depth > 0 {
            (
                window.0.max(-MATE + ply as i32),
                window.1.min(MATE - ply as i32 - 1),
            )
        } else {
            window
        };
        let moves: MoveList = if let Some((tree, id)) = &tree {
            // A tree's node lists its children (none at a leaf or at the
            // depth limit), each as its placeholder move.
            let children = tree.node(*id).children.len();
            let mut moves = MoveList::new();
            if depth > 0 {
                moves.extend((0..children).map(game_tree::child_move));
            }
            moves
        } else if !quiescence && depth <= 0 {
            MoveList::new()
        } else if quiescence && !position.is_check() {
            // The moves quiescence search generates: captures and queen
            // promotions (see `qsearch::quiescence_moves`).
            let mut moves = position.legal_moves();
            moves.retain(|m| m.is_capture() || m.promotion() == Some(Role::Queen));
            moves
        } else {
            position.legal_moves()
        };
        Frame {
            ply,
            position,
            tree,
            via,
            depth,
            entry_alpha: window.0,
            entry_beta: window.1,
            alpha,
            beta,
            quiescence,
            moves: moves.into_iter().map(MoveLine::pending).collect(),
            reached: 0,
            current: None,
            table: None,
            stored: None,
            stand_pat: None,
            leaf_eval: None,
            shortcut: None,
            null_move: None,
            null_verified: false,
            cutoff: None,
            returned: None,
            next_via: Via::Root,
            tried_index: None,
        }
    }

    /// Whether `value`, returned by this node, is its exact value or only
    /// a bound alpha-beta proved (from this node's side to move). A value
    /// is a bound only where the search stopped short of the truth: the
    /// node failed high (a cutoff, standing pat at beta, or a pruning rule
    /// that trusts beta is reached) or failed low after searching moves
    /// (fail-soft: the best it found, every move only proven worse). A
    /// checkmate, a draw, a static evaluation or an exact table entry is
    /// the value itself, whatever the window.
    pub fn value_bound(&self, value: i32, alpha_beta: bool) -> Bound {
        if !alpha_beta || self.leaf_eval.is_some() {
            return Bound::Exact;
        }
        if let Some((reason, _)) = self.shortcut {
            return match reason {
                Shortcut::Draw
                | Shortcut::Tablebase
                | Shortcut::Checkmate
                | Shortcut::Stalemate => Bound::Exact,
                Shortcut::ReverseFutility
                | Shortcut::NullMove
                | Shortcut::MultiCut
                | Shortcut::ProbCut => Bound::AtLeast,
                // Mate-distance pruning returns a bound on the side the
                // window was narrowed from.
                Shortcut::MateDistance if value >= self.entry_beta => Bound::AtLeast,
                Shortcut::MateDistance => Bound::AtMost,
            };
        }
        if let Some(probe) = self.table.filter(|probe| probe.cutoff) {
            return match probe.entry.map(|entry| entry.bound) {
                Some(TtBound::Lower) => Bound::AtLeast,
                Some(TtBound::Upper) => Bound::AtMost,
                Some(TtBound::Exact) | None => Bound::Exact,
            };
        }
        // Moves a pruning rule skipped count too: a node whose moves were
        // all skipped by futility returns the bound that covers them.
        let searched = self.moves[..self.reached]
            .iter()
            .any(|line| matches!(line.status, MoveStatus::Searched(_) | MoveStatus::Pruned(_)));
        if value >= self.entry_beta && (self.cutoff.is_some() || self.stand_pat.is_some()) {
            Bound::AtLeast
        } else if value <= self.entry_alpha && searched {
            Bound::AtMost
        } else {
            Bound::Exact
        }
    }

    /// A move of this node as a learner reads it: in SAN on a chess
    /// position, by the child's textbook name on a hand-made tree.
    pub fn move_name(&self, mv: Move) -> String {
        match &self.tree {
            Some((tree, id)) => tree.move_name(*id, mv),
            None => shakmaty::san::SanPlus::from_move(self.position.clone(), mv).to_string(),
        }
    }

    /// The node's textbook name on a hand-made tree.
    pub fn node_name(&self) -> Option<&str> {
        self.tree
            .as_ref()
            .map(|(tree, id)| tree.node(*id).name.as_str())
    }

    /// The best move searched so far and its value.
    pub fn best(&self) -> Option<(Move, i32)> {
        self.moves[..self.reached]
            .iter()
            .filter_map(|line| match line.status {
                MoveStatus::Searched(value) => Some((line.mv, value)),
                _ => None,
            })
            .fold(None, |best: Option<(Move, i32)>, (mv, value)| match best {
                Some((_, b)) if b >= value => best,
                _ => Some((mv, value)),
            })
    }

    /// Put the moves in `order` first, in that order, the others after
    /// them as they were (a stable sort).
    fn order_moves(&mut self, order: &[Move]) {
        self.moves[self.reached..].sort_by_key(|line| {
            order
                .iter()
                .position(|&m| m == line.mv)
                .unwrap_or(usize::MAX)
        });
    }

    /// Bring `mv` to the end of the reached moves; its index. A move the
    /// node did not list (which would be a fault of the record) is added.
    fn reach(&mut self, mv: Move) -> usize {
        let found = self.moves.iter().position(|line| line.mv == mv);
        let index = match found {
            Some(index) if index < self.reached => return index,
            Some(index) => index,
            None => {
                self.moves.push(MoveLine::pending(mv));
                self.moves.len() - 1
            }
        };
        let line = self.moves.remove(index);
        self.moves.insert(self.reached, line);
        self.reached += 1;
        self.reached - 1
    }
}

/// The search after some prefix of its events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// How many events have been applied.
    pub applied: usize,
    /// From the root to the current node.
    pub frames: Vec<Frame>,
    /// The iteration running (the depth), with iterative deepening.
    pub iteration: Option<i32>,
    /// The counters so far, counted from the events as the search counts.
    pub counters: Counters,
    /// The best root move so far and its value.
    pub root_best: Option<(Move, i32)>,
    /// The deepest ply entered so far (quiescence goes past the depth).
    pub deepest: u32,
    /// Each iteration begun so far (one without iterative deepening): its
    /// depth, the counters when it began and the deepest ply it entered,
    /// for the statistics' row per iteration.
    pub iterations: Vec<(i32, Counters, u32)>,
    /// The move tables' weights, as the cutoffs so far taught them.
    pub tables: TableWeights,
    root: Chess,
    /// The hand-made tree searched, if the record is of one.
    tree: Option<Arc<GameTree>>,
    alpha_beta: bool,
    /// Whether the search narrows windows to mate distances.
    mate_distance: bool,
    /// In a `Replay`, the order in which each node reaches its moves.
    pub(super) orders: Option<Arc<NodeOrders>>,
}

/// For each node of a record, by the index of its `EnterNode` event, the
/// moves it reaches (tries or prunes) in the order it reaches them. The
/// move picker orders lazily, by knowledge the record does not keep
/// (history, killers), so the order of pending moves is read from the
/// record's future instead.
pub type NodeOrders = HashMap<usize, Vec<Move>>;

/// Walk the record once and note each node's order of moves.
pub(super) fn node_orders(events: &[TraceEvent]) -> NodeOrders {
    let mut orders = NodeOrders::new();
    // The nodes on the path: (ply, index of the node's `EnterNode`). A
    // singular-extension test is a node at its parent's own ply: it is
    // entered above the parent and leaves with its `Return`, so that the
    // parent's moves after it are the parent's again.
    let mut path: Vec<(u32, usize)> = Vec::new();
    for (i, event) in events.iter().enumerate() {
        match *event {
            TraceEvent::Iteration { .. } => path.clear(),
            TraceEvent::EnterNode { ply, .. } => {
                if ply == 0 {
                    path.clear();
                }
                path.retain(|&(p, _)| p <= ply);
                path.push((ply, i));
            }
            TraceEvent::Return { ply, .. } if path.last().is_some_and(|&(p, _)| p == ply) => {
                path.pop();
            }
            TraceEvent::MoveTried { ply, mv, .. } | TraceEvent::MovePruned { ply, mv, .. } => {
                if let Some(&(_, at)) = path.iter().rev().find(|&&(p, _)| p == ply) {
                    let order: &mut Vec<Move> = orders.entry(at).or_default();
                    if !order.contains(&mv) {
                        order.push(mv);
                    }
                }
            }
            _ => {}
        }
    }
    orders
}

impl Step {
    /// The step before the first event of a search from `root`, for
    /// replaying a log event by event without a `Replay` (as `kibitz
    /// trace` does, to know each event's position). `alpha_beta`: whether
    /// the search raised alpha (off for minimax).
    pub fn new(root: &Chess, options: &SearchOptions) -> Step {
        Step {
            mate_distance: options.alpha_beta && options.selective,
            ..Step::start(root, options.alpha_beta)
        }
    }

    fn start(root: &Chess, alpha_beta: bool) -> Step {
        Step {
            mate_distance: false,
            orders: None,
            applied: 0,
            frames: Vec::new(),
            iteration: None,
            counters: Counters::default(),
            root_best: None,
            deepest: 0,
            iterations: Vec::new(),
            tables: TableWeights::default(),
            root: root.clone(),
            tree: None,
            alpha_beta,
        }
    }

    /// The step before the first event of a search of a hand-made tree
    /// (see [`Step::new`]).
    pub fn for_tree(root: &Chess, tree: Arc<GameTree>, options: &SearchOptions) -> Step {
        Step {
            tree: Some(tree),
            ..Step::start(root, options.alpha_beta)
        }
    }

    /// The hand-made tree searched, if the record is of one.
    pub fn game_tree(&self) -> Option<&Arc<GameTree>> {
        self.tree.as_ref()
    }

    /// Whether the search raises alpha (off: plain minimax).
    pub fn alpha_beta(&self) -> bool {
        self.alpha_beta
    }

    /// The node the search is at (none before the first event).
    pub fn current(&self) -> Option<&Frame> {
        self.frames.last()
    }

    /// The moves from the root to the current node (a pass as `None`).
    pub fn path(&self) -> Vec<Option<Move>> {
        self.frames
            .iter()
            .skip(1)
            .filter(|frame| !frame.via.is_test())
            .map(|frame| match frame.via {
                Via::Move(m) => Some(m),
                Via::Root | Via::Pass | Via::Singular | Via::Verification => None,
            })
            .collect()
    }

    /// The position where the current node is (the root before the start).
    pub fn position(&self) -> &Chess {
        self.frames
            .last()
            .map_or(&self.root, |frame| &frame.position)
    }

    /// Apply the next event of the log.
    pub fn apply(&mut self, event: &TraceEvent) {
        // A node that returned stays on screen for the step of its return;
        // the next event hands its value up to the parent.
        if self.frames.last().is_some_and(|f| f.returned.is_some()) {
            self.pop();
        }
        self.applied += 1;
        match *event {
            TraceEvent::Iteration { depth } => {
                self.iteration = Some(depth);
                self.iterations.push((depth, self.counters, 0));
                self.frames.clear();
            }
            TraceEvent::EnterNode {
                ply,
                depth,
                alpha,
                beta,
                quiescence,
            } => {
                if quiescence {
                    self.counters.quiescence += 1;
                } else {
                    self.counters.main += 1;
                }
                self.deepest = self.deepest.max(ply);
                if let Some((_, _, deepest)) = self.iterations.last_mut() {
                    *deepest = (*deepest).max(ply);
                }
                if ply == 0 {
                    self.frames.clear();
                    let mut frame = Frame::new(
                        0,
                        self.root.clone(),
                        self.tree.clone().map(|tree| (tree, 0)),
                        Via::Root,
                        depth,
                        (alpha, beta),
                        false,
                        self.mate_distance,
                    );
                    if let Some(order) = self.node_order() {
                        frame.order_moves(order);
                    }
                    self.frames.push(frame);
                } else if let Some(parent) = self.frames.last() {
                    // A node entered at its parent's own ply is no child
                    // reached by a move: a test searches the parent's
                    // position again. Right after a null move that held,
                    // the first is the null move's verification; any other
                    // is the singular-extension test.
                    let via = if ply == parent.ply {
                        let null_held = parent
                            .null_move
                            .flatten()
                            .is_some_and(|value| value >= parent.beta);
                        if null_held && !parent.null_verified {
                            Via::Verification
                        } else {
                            Via::Singular
                        }
                    } else {
                        parent.next_via
                    };
                    let mut position = parent.position.clone();
                    // On a tree, the child the placeholder move names.
                    let tree = parent.tree.as_ref().and_then(|(tree, id)| {
                        let Via::Move(m) = via else { return None };
                        let child = tree.child(*id, game_tree::child_index(m)?)?;
                        Some((Arc::clone(tree), child))
                    });
                    match via {
                        // A tree's record keeps a position only for the
                        // side to move: MIN's nodes are the root's with
                        // the turn passed, so side names come out right.
                        Via::Move(_) if tree.is_some() => {
                            position = game_tree::turn_passed(&position)
                        }
                        Via::Move(m) => position.play_unchecked(m),
                        Via::Pass => {
                            if let Ok(passed) = position.clone().swap_turn() {
                                position = passed;
                            }
                        }
                        Via::Root | Via::Singular | Via::Verification => {}
                    }
                    let mut frame = Frame::new(
                        ply,
                        position,
                        tree,
                        via,
                        depth,
                        (alpha, beta),
                        quiescence,
                        self.mate_distance,
                    );
                    if let Some(order) = self.node_order() {
                        frame.order_moves(order);
                    }
                    self.frames.push(frame);
                }
            }
            TraceEvent::TtProbe {
                hit, cutoff, entry, ..
            } => {
                self.counters.tt_probes += 1;
                self.counters.tt_hits += u64::from(hit);
                self.counters.tt_cutoffs += u64::from(cutoff);
                if let Some(top) = self.frames.last_mut() {
                    top.table = Some(TableProbe { hit, cutoff, entry });
                }
            }
            TraceEvent::TtStore { value, bound, .. } => {
                if let Some(top) = self.frames.last_mut() {
                    top.stored = Some((value, bound));
                }
            }
            TraceEvent::MoveTried {
                mv,
                index: tried_index,
                reason,
                window,
                reduction,
                ..
            } => {
                if let Some(top) = self.frames.last_mut() {
                    let index = top.reach(mv);
                    let line = &mut top.moves[index];
                    line.status = MoveStatus::Searching;
                    line.reason = Some(reason);
                    line.window = Some(window);
                    line.reduction = reduction;
                    line.searches = 1;
                    top.current = Some(index);
                    top.tried_index = Some(tried_index);
                    top.next_via = Via::Move(mv);
                }
            }
            TraceEvent::ReSearch {
                mv, window, reason, ..
            } => {
                if let Some(top) = self.frames.last_mut() {
                    let index = top.reach(mv);
                    let line = &mut top.moves[index];
                    line.status = MoveStatus::Searching;
                    line.window = Some(window);
                    if reason == ReSearchReason::Reduced {
                        line.reduction = 0;
                    }
                    line.searches = line.searches.saturating_add(1);
                    top.current = Some(index);
                    top.next_via = Via::Move(mv);
                }
            }
            TraceEvent::MovePruned { mv, reason, .. } => {
                if let Some(top) = self.frames.last_mut() {
                    let index = top.reach(mv);
                    top.moves[index].status = MoveStatus::Pruned(reason);
                }
            }
            TraceEvent::NullMove { .. } => {
                if let Some(top) = self.frames.last_mut() {
                    top.null_move = Some(None);
                    top.current = None;
                    top.next_via = Via::Pass;
                }
            }
            TraceEvent::Shortcut { reason, value, .. } => {
                if let Some(top) = self.frames.last_mut() {
                    top.shortcut = Some((reason, value));
                }
            }
            TraceEvent::StandPat { value, .. } => {
                self.counters.leaves += 1;
                let alpha_beta = self.alpha_beta;
                if let Some(top) = self.frames.last_mut() {
                    top.stand_pat = Some(value);
                    if alpha_beta && value > top.alpha {
                        top.alpha = value;
                    }
                }
            }
            TraceEvent::LeafEval { value, .. } => {
                self.counters.leaves += 1;
                if let Some(top) = self.frames.last_mut() {
                    top.leaf_eval = Some(value);
                }
            }
            TraceEvent::AlphaRaised { ply, mv, value } => {
                let alpha_beta = self.alpha_beta;
                if let Some(top) = self.frames.last_mut()
                    && alpha_beta
                {
                    top.alpha = top.alpha.max(value);
                }
                if ply == 0 {
                    self.root_best = Some((mv, value));
                }
            }
            TraceEvent::BetaCutoff { mv, value, .. } => {
                // The event's `moves_left` is not used: after a cutoff by
                // the table's move the search has not generated the other
                // moves yet and reports none left. The node's own list
                // knows what was skipped.
                self.counters.beta_cutoffs += 1;
                if let Some(top) = self.frames.last_mut() {
                    if top.tried_index == Some(0) {
                        self.counters.first_move_cutoffs += 1;
                    }
                    let skipped = top.moves.len() - top.reached;
                    top.cutoff = Some((mv, value, skipped as u32));
                    for line in &mut top.moves[top.reached..] {
                        line.status = MoveStatus::CutOff;
                    }
                }
            }
            TraceEvent::MoveTables { ref update, .. } => self.tables.apply(update),
            TraceEvent::Return { value, .. } => {
                if let Some(top) = self.frames.last_mut() {
                    top.returned = Some(value);
                    top.current = None;
                }
            }
        }
    }

    /// The order of moves of the node whose `EnterNode` was applied last.
    fn node_order(&self) -> Option<&[Move]> {
        let orders = self.orders.as_ref()?;
        let at = self.applied.checked_sub(1)?;
        orders.get(&at).map(Vec::as_slice)
    }

    /// Hand the returned top node's value to its parent, negated: the
    /// child's side to move is the parent's opponent.
    fn pop(&mut self) {
        let Some(child) = self.frames.pop() else {
            return;
        };
        let value = child.returned.unwrap_or(0);
        // What the child proved about itself, turned round with the sign:
        // a child that failed high gives its parent an upper bound.
        let bound = child.value_bound(value, self.alpha_beta).flipped();
        let Some(parent) = self.frames.last_mut() else {
            return;
        };
        match child.via {
            Via::Pass => parent.null_move = Some(Some(-value)),
            Via::Move(m) => {
                if let Some(line) = parent.moves.iter_mut().find(|l| l.mv == m) {
                    line.status = MoveStatus::Searched(-value);
                    line.by_table = child.table.is_some_and(|t| t.cutoff);
                    line.quiescence = child.quiescence;
                    line.bound = bound;
                }
            }
            // The test's value is the position's without one move: the
            // parent's search goes on, and its moves keep their own values.
            Via::Root | Via::Singular => {}
            Via::Verification => parent.null_verified = true,
        }
    }
}

#[cfg(test)]
mod tests;
