//! The search's tunable numbers: margins, depths and reductions.
//!
//! Every selective rule (`selective.rs`, `pvs.rs`, `qsearch.rs`) bets with
//! a number: how far above beta is "safe", how many quiet moves are enough,
//! how much shallower a late move may be searched. Each number trades
//! accuracy for depth, and the best trade is found in games, not by
//! reasoning: `kibitz tune spsa` (`tune/spsa.rs`) plays kibitz against
//! itself with the numbers nudged up and down and moves them towards the
//! side that wins. They live in one struct, carried by [`SearchOptions`],
//! so the two sides of a tuning game can search with different numbers in
//! one process; the defaults are what the engine plays with.
//!
//! The defaults were set by hand, each measured in games, and then moved
//! by one SPSA run (`kibitz tune spsa --iterations 4500 --nodes 15000
//! --learning-rate 0.005 --seed 57`, stopped after 3,671 game pairs): the
//! late-move reductions, reverse futility, futility, SEE pruning, delta
//! and aspiration values below are its, rounded. Its null-move base ended
//! at 2.49, on the edge between 2 and 3, and stays 3: the run could not
//! tell them apart, and a smaller reduction costs depth everywhere. A
//! second run, with the ninth network (`--iterations 2400 --nodes 15000
//! --learning-rate 0.005 --seed 130`, stopped after 1,519 pairs), moved
//! no value by as much as one of its steps (`lmr_base` 77 to 79.7,
//! `lmp_scale` 100 to 102.6, the others by less): the defaults stand.
//!
//! [`SearchOptions`]: super::SearchOptions

/// Declares the parameters once: the struct, its defaults, and the table
/// the tuner walks (name, range, and the step SPSA starts its probes with).
macro_rules! search_params {
    ($(
        $(#[doc = $doc:literal])*
        $field:ident: $default:literal, $min:literal..=$max:literal, step $step:literal;
    )*) => {
        /// The numbers the search's selective rules judge by (see the module
        /// comment). The defaults are the engine's.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct SearchParams {
            $( $(#[doc = $doc])* pub $field: i32, )*
        }

        impl Default for SearchParams {
            fn default() -> SearchParams {
                SearchParams { $( $field: $default, )* }
            }
        }

        /// Every parameter, for the tuner and for printing.
        pub const TUNABLE: &[Tunable] = &[
            $( Tunable {
                name: stringify!($field),
                default: $default,
                min: $min,
                max: $max,
                step: $step,
                get: |p: &SearchParams| p.$field,
                set: |p: &mut SearchParams, v: i32| p.$field = v,
            }, )*
        ];
    };
}

/// One parameter as the tuner sees it.
#[derive(Clone, Copy)]
pub struct Tunable {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// How far SPSA's probes reach at the end of a run: about the change
    /// that is worth a few Elo, neither lost in the noise nor reckless.
    pub step: f64,
    pub get: fn(&SearchParams) -> i32,
    pub set: fn(&mut SearchParams, i32),
}

impl std::fmt::Debug for Tunable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}..={}", self.name, self.min, self.max)
    }
}

search_params! {
    /// Late-move reductions: a late quiet move at depth d, move number m,
    /// is searched `base + ln d * ln m / divisor` plies shallower, in
    /// hundredths. (Reducing less, dividing by 2.5, scored 48.1% over 188
    /// games against 2.25; a ply more for quiet moves when the table's move
    /// is a capture, 46.0% over 187.)
    lmr_base: 77, 0..=200, step 10.0;
    lmr_divisor: 219, 120..=500, step 15.0;
    /// Late-move reductions start at this move number (and depth 3).
    lmr_min_move: 3, 1..=8, step 0.6;
    /// Whether killers and the counter-move are reduced too (1), a ply
    /// less than other quiet moves, or never (0). (On: +4.6 Elo, 95% -11.2
    /// to +20.5, over 600 game pairs at 15,000 nodes: not kept.)
    lmr_killers: 0, 0..=1, step 0.5;
    /// Plies less of reduction at a PV node. (1: -14.2 Elo, 95% -29.0 to
    /// +0.6, over 600 game pairs at 15,000 nodes: not kept.)
    lmr_pv: 0, 0..=2, step 0.5;
    /// Plies more of reduction at an expected cut node (see `pvs.rs`).
    /// (2: +0 Elo, 95% -15 to +16, over 600 game pairs at 15,000 nodes.
    /// A ply less at nodes that are or were on a principal variation, by
    /// a flag in the table's entries as Stockfish keeps it: -8, -24 to
    /// +7, the same way. Neither kept.)
    lmr_cut: 1, 0..=3, step 0.5;
    /// A quiet move's reduction shifts a ply per this many points of its
    /// history, at most two either way (history runs to +-16,384). 0: off.
    /// (2,048: -1.7 Elo, 95% -6.6 to +3.1, over 600 game pairs at 15,000
    /// nodes; the history's values seldom reach it, since its bonuses are
    /// depth squared and it is halved each search. 768: +6.1, -8.1 to
    /// +20.3; 256: +4.6, -10.8 to +20.0. Neither is beyond its error bar:
    /// not kept, and the next to measure with more games.)
    lmr_history: 0, 0..=16384, step 500.0;
    /// How much a quiet move's continuation history (as the answer to the
    /// opponent's last move, see `heuristics.rs`) adds to its history in
    /// the order, in eighths; 0: none. (Measured at 15,000 nodes a move
    /// over 600 game pairs: 8, +21 Elo, 95% +6 to +36; 16, -9, -24 to +7.
    /// At 8 in games, at 4% fewer nodes a second: +201 =396 -203, -1 Elo,
    /// 95% -18 to +16, over 800 games at 2+0.02. Not kept; a parameter so
    /// that the next tuning run can try it.)
    continuation: 0, 0..=16, step 2.0;
    /// Reverse futility: at depth <= this, a static evaluation this far
    /// above beta per ply of depth is trusted to hold. (Judging by whether
    /// the side to move is "improving", its static evaluation above its
    /// last turn's, as many engines do: a ply less of margin, half the late
    /// moves kept and a ply more of reduction where it is not. Depth 11.6
    /// on average against 11.0, yet 47.5%, -17 +/- 25 Elo, over 400 games
    /// at 2+0.02 against the build without it: not kept.)
    rfp_depth: 6, 2..=10, step 0.6;
    rfp_margin: 84, 30..=200, step 8.0;
    /// The three bets above, one at a time, with "improving" judged at
    /// every node, PV nodes included (`Searcher::improving`), each over 600
    /// game pairs at 15,000 nodes against the defaults; none kept:
    /// whether reverse futility's margin is a ply less where the side to
    /// move is improving (1: +1 Elo, 95% -15 to +17);
    improving_rfp: 0, 0..=1, step 0.5;
    /// whether late-move pruning keeps half the quiet moves where it is
    /// not (1: -15, -31 to +0);
    improving_lmp: 0, 0..=1, step 0.5;
    /// plies more of late-move reduction where it is not (1: -10, -25 to
    /// +5).
    improving_lmr: 0, 0..=2, step 0.5;
    /// Futility: at depth <= this, quiet moves that cannot lift the
    /// evaluation to alpha even with this margin per ply are skipped.
    futility_depth: 5, 1..=10, step 0.6;
    futility_margin: 115, 40..=300, step 10.0;
    /// Late-move pruning: at depth <= this, quiet moves after the first
    /// `(base + depth^2) * scale / 100` quiet moves are skipped.
    lmp_depth: 6, 2..=10, step 0.6;
    lmp_base: 3, 1..=10, step 0.6;
    /// (A scale of 60, about the counts of engines that prune harder:
    /// -13.9 Elo, 95% -29.4 to +1.6, over 600 game pairs at 15,000 nodes:
    /// not kept.)
    lmp_scale: 100, 30..=200, step 6.0;
    /// At depth <= this, captures losing more than the margin per ply by
    /// static exchange evaluation are skipped. (Quiet moves skipped the
    /// same way at depth <= 5, when they put a piece where it is lost by
    /// more than 60 per ply of depth and give no check, scored 49.9%, -1
    /// +/- 26 Elo, over 400 games at 2+0.02 against the build without it:
    /// not kept.)
    see_pruning_depth: 3, 1..=8, step 0.6;
    see_pruning_margin: 97, 20..=300, step 10.0;
    /// Null move: reduce by `base` plus one ply per `divisor` of depth.
    null_base: 3, 1..=6, step 0.5;
    null_divisor: 4, 2..=10, step 0.6;
    /// And a ply more per this many centipawns the static evaluation
    /// stands above beta, at most three. 0: off (see `selective.rs` for
    /// the mate it once hid). (200: +0 Elo, 95% -13 to +13, over 600 game
    /// pairs at 15,000 nodes: not kept.)
    null_eval: 0, 0..=600, step 40.0;
    /// Whether a side in check is searched a ply deeper (1) or not (0).
    /// (Without it: -26 Elo, 95% -41 to -10, over 600 game pairs at 15,000
    /// nodes. Stockfish dropped its check extension; here it pays.)
    check_extension: 1, 0..=1, step 0.5;
    /// Singular extensions: how far below the table's value every other
    /// move must stay, in eighths of a centipawn per ply of depth, for the
    /// table's move to count as singular.
    singular_margin: 16, 4..=64, step 2.0;
    /// Whether PV nodes teach the correction history (1) too, not only
    /// the null-window nodes (0). (1: -3 Elo, 95% -17 to +12, over 600
    /// game pairs at 15,000 nodes: not kept.)
    correction_pv: 0, 0..=1, step 0.5;
    /// Quiescence: a capture that cannot lift the evaluation to alpha even
    /// with its gain and this margin is skipped (delta pruning).
    delta_margin: 205, 50..=400, step 15.0;
    /// ProbCut (see `selective.rs`): a capture whose shallow search stays
    /// this far above beta ends the node. 0: off. (150 against off: +9.6
    /// Elo, 95% -5.8 to +25.0, over 600 game pairs at 15,000 nodes.)
    probcut_margin: 150, 0..=400, step 15.0;
    /// The first aspiration window's half-width, doubled after each failure.
    aspiration_window: 24, 8..=80, step 3.0;
}

impl SearchParams {
    /// The late-move reduction table, `[depth][move number]`, in plies.
    pub fn reductions(&self) -> Vec<[i32; 64]> {
        let base = f64::from(self.lmr_base) / 100.0;
        let divisor = f64::from(self.lmr_divisor.max(1)) / 100.0;
        (0..64)
            .map(|depth: usize| {
                let mut row = [0; 64];
                for (index, r) in row.iter_mut().enumerate() {
                    if depth > 0 && index > 0 {
                        // Deeper nodes and later moves: reduce more, slowly.
                        *r = (base + (depth as f64).ln() * (index as f64).ln() / divisor) as i32;
                    }
                }
                row
            })
            .collect()
    }

    /// `name=value` for each parameter that differs from the default.
    pub fn changed(&self) -> Vec<String> {
        TUNABLE
            .iter()
            .filter(|t| (t.get)(self) != t.default)
            .map(|t| format!("{}={}", t.name, (t.get)(self)))
            .collect()
    }

    /// Parse `name=value` pairs (as `changed` prints them) onto these.
    pub fn apply(&mut self, pairs: &str) -> Result<(), String> {
        for pair in pairs.split([',', ' ']).filter(|p| !p.trim().is_empty()) {
            let (name, value) = pair
                .split_once('=')
                .ok_or_else(|| format!("`{pair}` is not name=value"))?;
            let tunable = TUNABLE
                .iter()
                .find(|t| t.name == name.trim())
                .ok_or_else(|| format!("no search parameter is called `{}`", name.trim()))?;
            let value: i32 = value
                .trim()
                .parse()
                .map_err(|_| format!("`{}` is not a whole number", value.trim()))?;
            if !(tunable.min..=tunable.max).contains(&value) {
                return Err(format!(
                    "{} {value} is out of range {}..={}",
                    tunable.name, tunable.min, tunable.max
                ));
            }
            (tunable.set)(self, value);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
