//! Counters a search keeps about itself, so a learner can see what each
//! technique saves: how many nodes each iteration cost, how often the first
//! move already refuted a position (a sign of good move ordering), how often
//! the transposition table answered.
//!
//! The search counts into running totals; at the end of each iteration of
//! iterative deepening it closes an [`IterationStats`] with what that
//! iteration alone cost, and reports the whole [`SearchStats`] (the engine
//! sends it as its own report, `Report::Stats`, per iteration and at the end).

use serde::Serialize;

/// The counters, as running totals or as one iteration's share of them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counters {
    /// Nodes of the main (full-width) search.
    pub main: u64,
    /// Nodes of the quiescence search.
    pub quiescence: u64,
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

impl Counters {
    pub fn nodes(&self) -> u64 {
        self.main + self.quiescence
    }

    /// What was counted since `earlier` (a snapshot of the same totals).
    pub fn since(&self, earlier: &Counters) -> Counters {
        Counters {
            main: self.main - earlier.main,
            quiescence: self.quiescence - earlier.quiescence,
            leaves: self.leaves - earlier.leaves,
            beta_cutoffs: self.beta_cutoffs - earlier.beta_cutoffs,
            first_move_cutoffs: self.first_move_cutoffs - earlier.first_move_cutoffs,
            tt_probes: self.tt_probes - earlier.tt_probes,
            tt_hits: self.tt_hits - earlier.tt_hits,
            tt_cutoffs: self.tt_cutoffs - earlier.tt_cutoffs,
        }
    }

    /// Share of beta cutoffs made by the first move: ideal ordering gives 1.
    pub fn first_move_cutoff_rate(&self) -> Option<f64> {
        ratio(self.first_move_cutoffs, self.beta_cutoffs)
    }

    pub fn tt_hit_rate(&self) -> Option<f64> {
        ratio(self.tt_hits, self.tt_probes)
    }

    /// Share of the nodes spent in quiescence search.
    pub fn quiescence_share(&self) -> Option<f64> {
        ratio(self.quiescence, self.nodes())
    }
}

fn ratio(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

/// One finished iteration of iterative deepening.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct IterationStats {
    pub depth: u32,
    /// What this iteration alone cost (not the iterations before it).
    #[serde(flatten)]
    pub counters: Counters,
    /// The deepest ply this iteration reached (quiescence and extensions go
    /// beyond `depth`).
    pub selective_depth: u32,
    /// Milliseconds from the start of the search to the end of this
    /// iteration.
    pub elapsed_ms: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SearchStats {
    /// One entry per finished iteration, shallowest first.
    pub iterations: Vec<IterationStats>,
    /// Totals over the whole search, including an unfinished last iteration.
    #[serde(flatten)]
    pub totals: Counters,
    pub selective_depth: u32,
    pub elapsed_ms: u64,
    /// Helper threads that searched beside the main thread (Lazy SMP; 0 =
    /// one thread). The counters above are the main thread's alone: each
    /// thread searches a tree of its own, sharing only the transposition
    /// table, so the main thread's cutoff and hit rates describe one real
    /// search, where sums over threads would mix trees of different
    /// depths. Its table hits include entries the helpers wrote.
    pub helper_threads: u32,
    /// What Greer's move-chain search did, when it was the search (see
    /// `chain_search.rs`); absent for the engine's own search.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chains: Option<ChainStats>,
}

/// The move-chain search's own counts (Greer's Table 1 is made of them).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct ChainStats {
    /// Nodes of the alpha-beta stage with depth left (the root included).
    pub interior: u64,
    /// Nodes of the alpha-beta stage at the horizon (depth 0), each handed
    /// to the quiescence search. Interior plus horizon is what Table 1
    /// counts ("the negamax alpha-beta search stage only").
    pub horizon: u64,
    /// Interior nodes where at least one table move was searched.
    pub table_nodes: u64,
    /// Table moves searched, over all interior nodes.
    pub table_moves: u64,
    /// Interior nodes whose best move was a table move.
    pub table_best: u64,
    /// Interior nodes where a chain applied, so moves without one were
    /// pruned.
    pub chain_nodes: u64,
    /// Moves searched because a chain started with them.
    pub chain_moves: u64,
    /// Moves searched because a chain being followed forced them.
    pub forced_moves: u64,
    /// Chains found illegal where they would have been used, and dropped.
    pub chains_invalid: u64,
    /// Chains stored (new or replacing one).
    pub chains_stored: u64,
    /// Moves forward-pruned unsearched.
    pub pruned: u64,
    /// Moves searched at interior nodes.
    pub moves_searched: u64,
}

impl std::ops::AddAssign for ChainStats {
    /// Sums over several searches (the experiment's positions).
    fn add_assign(&mut self, one: ChainStats) {
        self.interior += one.interior;
        self.horizon += one.horizon;
        self.table_nodes += one.table_nodes;
        self.table_moves += one.table_moves;
        self.table_best += one.table_best;
        self.chain_nodes += one.chain_nodes;
        self.chain_moves += one.chain_moves;
        self.forced_moves += one.forced_moves;
        self.chains_invalid += one.chains_invalid;
        self.chains_stored += one.chains_stored;
        self.pruned += one.pruned;
        self.moves_searched += one.moves_searched;
    }
}

impl ChainStats {
    /// Table 1's node count: the alpha-beta stage, without quiescence.
    pub fn alpha_beta_nodes(&self) -> u64 {
        self.interior + self.horizon
    }
}

/// The effective branching factor of one iteration, by both common
/// definitions. A full-width minimax tree of depth d with b moves a node has
/// about b^d leaves, so both are estimates of b: plain minimax pays about the
/// number of legal moves (~35 in the middlegame), alpha-beta with perfect
/// ordering about its square root (~6), and the selective pruning of a real
/// engine less still.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BranchingFactor {
    pub depth: u32,
    /// N(d) / N(d-1): how many times more nodes this iteration cost than the
    /// one before. Sensitive to odd/even depth and to what the table kept
    /// from the previous iteration; `None` at depth 1.
    pub ratio: Option<f64>,
    /// The d-th root of all nodes searched up to and including depth d:
    /// smoother, and defined from depth 1.
    pub root: f64,
}

impl SearchStats {
    pub fn nodes(&self) -> u64 {
        self.totals.nodes()
    }

    /// Nodes a second over the whole search.
    pub fn nodes_per_second(&self) -> u64 {
        self.nodes() * 1000 / self.elapsed_ms.max(1)
    }

    /// The branching factor of each finished iteration, shallowest first.
    pub fn branching_factors(&self) -> Vec<BranchingFactor> {
        let mut cumulative = 0u64;
        let mut previous: Option<u64> = None;
        self.iterations
            .iter()
            .map(|it| {
                let nodes = it.counters.nodes();
                cumulative += nodes;
                let ratio = previous.filter(|&p| p > 0).map(|p| nodes as f64 / p as f64);
                previous = Some(nodes);
                BranchingFactor {
                    depth: it.depth,
                    ratio,
                    root: (cumulative as f64).powf(1.0 / f64::from(it.depth.max(1))),
                }
            })
            .collect()
    }

    /// One line of plain text on finished iteration `index`: what that
    /// iteration cost and what saved work in it. `kibitz analyze` prints it
    /// and the board's compact statistics panel shows it.
    pub fn iteration_line(&self, index: usize) -> Option<String> {
        let it = self.iterations.get(index)?;
        let bf = self.branching_factors().get(index).copied()?;
        let c = &it.counters;
        let percent = |r: Option<f64>| r.map_or("-".to_string(), |r| format!("{:.0}%", r * 100.0));
        let ratio = bf
            .ratio
            .map(|r| format!("N{}/N{} {r:.2}, ", it.depth, it.depth - 1))
            .unwrap_or_default();
        let elapsed = it.elapsed_ms.max(1);
        let cumulative: u64 = self.iterations[..=index]
            .iter()
            .map(|i| i.counters.nodes())
            .sum();
        Some(format!(
            "depth {}: nodes {} (quiescence {}) | branching factor {ratio}(all nodes)^(1/{}) {:.2} | cutoffs {} ({} by the first move) | TT hits {} of {} probes ({}), {} cutoffs | seldepth {} | {} nodes/s",
            it.depth,
            c.nodes(),
            percent(c.quiescence_share()),
            it.depth,
            bf.root,
            c.beta_cutoffs,
            percent(c.first_move_cutoff_rate()),
            c.tt_hits,
            c.tt_probes,
            percent(c.tt_hit_rate()),
            c.tt_cutoffs,
            it.selective_depth,
            cumulative * 1000 / elapsed,
        ))
    }

    /// The last finished iteration's N(d)/N(d-1).
    pub fn effective_branching_factor(&self) -> Option<f64> {
        self.branching_factors().last().and_then(|b| b.ratio)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iteration(depth: u32, main: u64, quiescence: u64) -> IterationStats {
        IterationStats {
            depth,
            counters: Counters {
                main,
                quiescence,
                ..Counters::default()
            },
            ..IterationStats::default()
        }
    }

    #[test]
    fn branching_factor_by_both_definitions() {
        let stats = SearchStats {
            iterations: vec![
                iteration(1, 20, 0),
                iteration(2, 60, 20),
                iteration(3, 400, 0),
            ],
            ..SearchStats::default()
        };
        let b = stats.branching_factors();
        assert_eq!(b[0].ratio, None);
        assert_eq!(b[0].root, 20.0);
        assert_eq!(b[1].ratio, Some(4.0));
        assert!((b[1].root - 10.0).abs() < 1e-9, "sqrt(20 + 80)");
        assert_eq!(b[2].ratio, Some(5.0));
        assert!((b[2].root - 500f64.powf(1.0 / 3.0)).abs() < 1e-9);
        assert_eq!(stats.effective_branching_factor(), Some(5.0));
    }

    #[test]
    fn counters_since_a_snapshot_and_rates() {
        let before = Counters {
            main: 10,
            beta_cutoffs: 4,
            first_move_cutoffs: 3,
            ..Counters::default()
        };
        let after = Counters {
            main: 30,
            quiescence: 10,
            beta_cutoffs: 14,
            first_move_cutoffs: 12,
            tt_probes: 8,
            tt_hits: 2,
            ..Counters::default()
        };
        let delta = after.since(&before);
        assert_eq!((delta.main, delta.beta_cutoffs), (20, 10));
        assert_eq!(delta.first_move_cutoff_rate(), Some(0.9));
        assert_eq!(delta.quiescence_share(), Some(1.0 / 3.0));
        assert_eq!(delta.tt_hit_rate(), Some(0.25));
        assert_eq!(Counters::default().tt_hit_rate(), None);
    }
}
