//! Minimax, alpha-beta, principal-variation search and iterative deepening
//! over a hand-made tree, recording the same trace events as the engine's
//! chess search, so that teach mode replays them the same way.
//!
//! The search is negamax, as the engine's is: every value is from the side
//! to move at its node, so a MIN node's values are the tree's numbers with
//! their sign changed, and each node takes the largest of its children's
//! values negated. It is fail-soft (a node returns the best value it saw,
//! which may lie outside its window), as the engine is, so the two read
//! the same on screen.
//!
//! What the switches mean on a tree:
//! - `alpha_beta` off: plain minimax, every child searched with no window.
//! - `move_ordering` on: children searched best first, by their true
//!   minimax values, which no real search knows: it shows alpha-beta's
//!   best case against the order the tree was written in.
//! - `pvs`: after the first child, a null window `(alpha, alpha + 1)`
//!   asks only "is this child better?"; a "yes" inside the window is
//!   searched again with the full window.
//! - `iterative_deepening`: depths 1, 2, … up to the search depth; a node
//!   at the depth limit that is not a leaf takes its estimate
//!   ([`GameTree::estimate`]), and each node tries first the child that was
//!   best in the previous iteration (the job the transposition table's move
//!   does in the chess search).
//!
//! The transposition table, quiescence and the selective search have no
//! meaning on a tree (no position is reached twice, nothing is captured)
//! and are ignored.

use std::collections::HashMap;

use super::{GameTree, child_move};
use crate::engine::protocol::SearchOptions;
use crate::engine::search::INFINITY;
use crate::engine::stats::{Counters, IterationStats, SearchStats};
use crate::engine::trace::{OrderReason, ReSearchReason, TraceEvent, Tracer, WindowKind};

/// What a search of a tree found.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The root's value (the root's side is MAX, so this is also MAX's).
    pub value: i32,
    /// The principal variation, as child indices from the root.
    pub pv: Vec<usize>,
    pub stats: SearchStats,
    /// The depth of the last iteration.
    pub depth: u32,
}

/// Search `tree` to `depth` plies with the switches in `options`,
/// recording every event in `tracer`.
pub fn search<T: Tracer>(
    tree: &GameTree,
    options: &SearchOptions,
    depth: u32,
    tracer: &mut T,
) -> Outcome {
    let depth = depth.max(1);
    let first = if options.iterative_deepening {
        1
    } else {
        depth
    };
    let mut search = TreeSearch {
        tree,
        options: *options,
        tracer,
        counters: Counters::default(),
        previous_best: HashMap::new(),
        best_now: HashMap::new(),
        pv: vec![Vec::new(); tree.height() as usize + 2],
        deepest: 0,
    };
    let mut stats = SearchStats::default();
    let mut value = 0;
    let mut pv = Vec::new();
    for iteration in first..=depth {
        if T::ENABLED {
            search.tracer.record(TraceEvent::Iteration {
                depth: iteration as i32,
            });
        }
        let before = search.counters;
        search.deepest = 0;
        search.best_now.clear();
        value = search.node(0, 0, iteration as i32, -INFINITY, INFINITY);
        pv = search.pv[0].clone();
        search.previous_best = std::mem::take(&mut search.best_now);
        stats.iterations.push(IterationStats {
            depth: iteration,
            counters: search.counters.since(&before),
            selective_depth: search.deepest,
            elapsed_ms: 0,
        });
        stats.selective_depth = stats.selective_depth.max(search.deepest);
    }
    stats.totals = search.counters;
    Outcome {
        value,
        pv,
        stats,
        depth,
    }
}

struct TreeSearch<'a, T: Tracer> {
    tree: &'a GameTree,
    options: SearchOptions,
    tracer: &'a mut T,
    counters: Counters,
    /// Each node's best child in the previous iteration, and in this one.
    previous_best: HashMap<usize, usize>,
    best_now: HashMap<usize, usize>,
    /// The principal variation below each ply (child indices).
    pv: Vec<Vec<usize>>,
    deepest: u32,
}

impl<T: Tracer> TreeSearch<'_, T> {
    fn record(&mut self, event: TraceEvent) {
        if T::ENABLED {
            self.tracer.record(event);
        }
    }

    /// The value of node `id` for its side to move, searched `depth` plies
    /// deep with the window `(alpha, beta)`.
    fn node(&mut self, id: usize, ply: u32, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        self.counters.main += 1;
        self.deepest = self.deepest.max(ply);
        self.pv[ply as usize].clear();
        self.record(TraceEvent::EnterNode {
            ply,
            depth,
            alpha,
            beta,
            quiescence: false,
        });
        let node = self.tree.node(id);
        if node.is_leaf() || depth <= 0 {
            // A leaf, or the depth limit: the value is read, not searched.
            // The tree's numbers are MAX's; MIN's side is their negation.
            let for_max = self.tree.estimate(id);
            let value = if ply.is_multiple_of(2) {
                for_max
            } else {
                -for_max
            };
            self.counters.leaves += 1;
            self.record(TraceEvent::LeafEval { ply, value });
            self.record(TraceEvent::Return { ply, value });
            return value;
        }
        let order = self.order(id);
        let mut best = -INFINITY;
        for (index, &(child, reason)) in order.iter().enumerate() {
            let window = if !self.options.alpha_beta {
                WindowKind::Infinite
            } else if index > 0 && self.options.pvs {
                WindowKind::Null
            } else {
                WindowKind::Full
            };
            self.record(TraceEvent::MoveTried {
                ply,
                mv: child_move(child),
                index: index as u32,
                reason,
                window,
                reduction: 0,
            });
            let child_id = node.children[child];
            let value = match window {
                WindowKind::Infinite => {
                    -self.node(child_id, ply + 1, depth - 1, -INFINITY, INFINITY)
                }
                WindowKind::Full => -self.node(child_id, ply + 1, depth - 1, -beta, -alpha),
                WindowKind::Null => {
                    // Only "better than alpha?" is asked; a yes that stays
                    // below beta may be the new best, so its exact value
                    // needs the full window.
                    let test = -self.node(child_id, ply + 1, depth - 1, -alpha - 1, -alpha);
                    // A leaf (or a node at the depth limit) returns its
                    // value itself, whatever the window: nothing to search
                    // again.
                    let exact = self.tree.node(child_id).is_leaf() || depth - 1 <= 0;
                    if test > alpha && test < beta && !exact {
                        self.record(TraceEvent::ReSearch {
                            ply,
                            mv: child_move(child),
                            window: WindowKind::Full,
                            reason: ReSearchReason::FailedHigh,
                        });
                        -self.node(child_id, ply + 1, depth - 1, -beta, -alpha)
                    } else {
                        test
                    }
                }
            };
            if value > best {
                best = value;
                self.best_now.insert(id, child);
                if value > alpha {
                    alpha = value;
                    let below = self.pv[ply as usize + 1].clone();
                    let line = &mut self.pv[ply as usize];
                    line.clear();
                    line.push(child);
                    line.extend(below);
                    self.record(TraceEvent::AlphaRaised {
                        ply,
                        mv: child_move(child),
                        value,
                    });
                    // A cutoff skips the children not yet searched: at
                    // the last child there are none, and the node's value
                    // is the exact one, every child seen.
                    if self.options.alpha_beta && value >= beta && index + 1 < order.len() {
                        // The opponent, one ply up, already has a way to
                        // hold the game below this value: it will never
                        // let the game reach this node, so the children
                        // not yet searched cannot matter.
                        self.counters.beta_cutoffs += 1;
                        if index == 0 {
                            self.counters.first_move_cutoffs += 1;
                        }
                        self.record(TraceEvent::BetaCutoff {
                            ply,
                            mv: child_move(child),
                            value,
                            moves_left: (order.len() - index - 1) as u32,
                        });
                        break;
                    }
                }
            }
        }
        self.record(TraceEvent::Return { ply, value: best });
        best
    }

    /// The order node `id` searches its children in, with the reason for
    /// each place: the previous iteration's best first, then best first by
    /// true value (the ordering switch) or the tree's own order.
    fn order(&self, id: usize) -> Vec<(usize, OrderReason)> {
        let node = self.tree.node(id);
        let mut children: Vec<usize> = (0..node.children.len()).collect();
        let mut reason = OrderReason::Unordered;
        if self.options.move_ordering {
            // The mover's best first: MAX wants large values, MIN small.
            let max = self.tree.max_to_move(id);
            children.sort_by_key(|&c| {
                let value = self.tree.minimax(node.children[c]);
                if max { -value } else { value }
            });
            reason = OrderReason::BestFirst;
        }
        let mut order: Vec<(usize, OrderReason)> = Vec::with_capacity(children.len());
        if let Some(&previous) = self.previous_best.get(&id) {
            order.push((previous, OrderReason::PreviousBest));
        }
        for c in children {
            if order.first().is_none_or(|&(first, _)| first != c) {
                order.push((c, reason));
            }
        }
        order
    }
}
