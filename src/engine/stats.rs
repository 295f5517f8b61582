//! Counters a search keeps about itself, so a learner can see what each
//! technique saves: how many nodes each iteration cost, how often the first
//! move already refuted a position (a sign of good move ordering), how often
//! the transposition table answered.

use serde::Serialize;

/// Nodes spent by one iteration of iterative deepening.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct IterationNodes {
    pub depth: u32,
    /// Nodes of the main (full-width) search.
    pub main: u64,
    /// Nodes of the quiescence search.
    pub quiescence: u64,
}

impl IterationNodes {
    pub fn total(&self) -> u64 {
        self.main + self.quiescence
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SearchStats {
    /// One entry per finished iteration, shallowest first.
    pub iterations: Vec<IterationNodes>,
    pub main_nodes: u64,
    pub quiescence_nodes: u64,
    /// Positions scored by the static evaluation at the end of a line.
    pub leaves: u64,
    /// Nodes where a move scored at least beta, so the remaining moves were
    /// skipped.
    pub beta_cutoffs: u64,
    /// Of those, the cutoffs produced by the first move searched.
    pub first_move_cutoffs: u64,
    pub tt_probes: u64,
    /// Probes that found an entry for this position.
    pub tt_hits: u64,
    /// Hits whose stored bound answered the node without a search.
    pub tt_cutoffs: u64,
}

impl SearchStats {
    pub fn nodes(&self) -> u64 {
        self.main_nodes + self.quiescence_nodes
    }

    /// Share of beta cutoffs made by the first move: ideal ordering gives 1.
    pub fn first_move_cutoff_rate(&self) -> Option<f64> {
        (self.beta_cutoffs > 0).then(|| self.first_move_cutoffs as f64 / self.beta_cutoffs as f64)
    }

    pub fn tt_hit_rate(&self) -> Option<f64> {
        (self.tt_probes > 0).then(|| self.tt_hits as f64 / self.tt_probes as f64)
    }

    /// Effective branching factor: how many times more nodes the last
    /// iteration cost than the one before. Minimax pays about the number of
    /// legal moves (~35); a well-ordered alpha-beta search pays its square
    /// root or less.
    pub fn effective_branching_factor(&self) -> Option<f64> {
        match self.iterations.as_slice() {
            [.., previous, last] if previous.total() > 0 => {
                Some(last.total() as f64 / previous.total() as f64)
            }
            _ => None,
        }
    }

    /// Share of all nodes spent in quiescence search.
    pub fn quiescence_share(&self) -> Option<f64> {
        (self.nodes() > 0).then(|| self.quiescence_nodes as f64 / self.nodes() as f64)
    }
}
