//! A game's accuracy and average centipawn loss, computed as lichess
//! publishes them, so a player can set kibitz's figures beside lichess's.
//!
//! Both start from the evaluation of every position of the main line (the
//! start and after each ply, White's view), which `review --json` writes as
//! `evals`, so anyone can recompute them:
//!
//! - An evaluation becomes White's winning chance
//!   `50 + 50 * (2 / (1 + exp(-0.00368208 * cp)) - 1)`, with `cp` held to
//!   ±1000 and a forced mate counted as ±1000 (a mate on the board too).
//! - A move's accuracy is `103.1668 * exp(-0.04354 * lost) - 3.1669`, plus
//!   1 for the analysis's own uncertainty, held to 0-100, where `lost` is
//!   the mover's winning chance before minus after (100 when it did not
//!   drop).
//! - Each move is weighted by how volatile the game was around it: the
//!   standard deviation of the winning chances in a window of
//!   `plies / 10` positions (at least 2, at most 8), held to 0.5-12. Why:
//!   a slip in a quiet position says more about a player than one in a
//!   wild position where every move is hard.
//! - A side's game accuracy is the mean of that weighted mean and the
//!   harmonic mean of its moves' accuracies (each at least 1). Why the
//!   harmonic mean: one blunder drags it down far more than an average
//!   would, as one blunder decides a game.
//! - The average centipawn loss is the mean over a side's moves of what
//!   the move lost, in centipawns held to ±1000, never below 0.
//!
//! One difference from lichess, by design: lichess starts every game from
//! a fixed +0.15, kibitz from its own evaluation of the start (a game may
//! start from any position).

use shakmaty::Color;

use crate::engine::Score;

/// Centipawns beyond which an evaluation counts the same (a mate counts as
/// this).
pub const CEILING: i32 = 1000;

/// One evaluated position, White's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eval {
    Score(Score),
    /// Checkmate on the board: this side is mated.
    Mated(Color),
}

impl Eval {
    /// White's centipawns held to ±[`CEILING`].
    pub fn ceiled_cp(self) -> i32 {
        match self {
            Eval::Score(Score::Centipawns(cp)) => cp.clamp(-CEILING, CEILING),
            Eval::Score(Score::Mate(n)) if n > 0 => CEILING,
            Eval::Score(Score::Mate(_)) => -CEILING,
            Eval::Mated(Color::Black) => CEILING,
            Eval::Mated(Color::White) => -CEILING,
        }
    }

    /// White's winning chance, 0-100.
    pub fn white_win_percent(self) -> f64 {
        let cp = f64::from(self.ceiled_cp());
        50.0 + 50.0 * (2.0 / (1.0 + (-0.003_682_08 * cp).exp()) - 1.0)
    }
}

/// A move's accuracy from the mover's winning chance before and after it.
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let lost = before - after;
    (103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * lost).exp() - 3.166_924_740_191_411 + 1.0)
        .clamp(0.0, 100.0)
}

/// A side's figures for one game.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SideFigures {
    /// Game accuracy, 0-100 (none without a move).
    pub accuracy: Option<f64>,
    /// Average centipawn loss.
    pub acpl: Option<f64>,
    /// The moves counted.
    pub moves: usize,
}

/// White's and Black's figures for a line of evaluations: `evals[0]` the
/// start, `evals[i]` after ply `i`; `first` is the side that moved first.
pub fn game_figures(evals: &[Eval], first: Color) -> [SideFigures; 2] {
    let plies = evals.len().saturating_sub(1);
    if plies == 0 {
        return [SideFigures::default(); 2];
    }
    let wins: Vec<f64> = evals.iter().map(|e| e.white_win_percent()).collect();
    let weights = volatility_weights(&wins, plies);
    let mut accuracies: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    let mut losses: [Vec<i32>; 2] = [Vec::new(), Vec::new()];
    for ply in 0..plies {
        let mover = if ply % 2 == 0 { first } else { !first };
        let side = usize::from(mover.is_black());
        let (before, after) = match mover {
            Color::White => (wins[ply], wins[ply + 1]),
            Color::Black => (100.0 - wins[ply], 100.0 - wins[ply + 1]),
        };
        accuracies[side].push((move_accuracy(before, after), weights[ply]));
        let sign = if mover.is_white() { 1 } else { -1 };
        let lost = sign * (evals[ply].ceiled_cp() - evals[ply + 1].ceiled_cp());
        losses[side].push(lost.max(0));
    }
    let figures = |side: usize| {
        let moves = &accuracies[side];
        if moves.is_empty() {
            return SideFigures::default();
        }
        let weight: f64 = moves.iter().map(|(_, w)| w).sum();
        let weighted = moves.iter().map(|(a, w)| a * w).sum::<f64>() / weight;
        let harmonic =
            moves.len() as f64 / moves.iter().map(|(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
        let loss = &losses[side];
        SideFigures {
            accuracy: Some((weighted + harmonic) / 2.0),
            acpl: Some(loss.iter().map(|&l| f64::from(l)).sum::<f64>() / loss.len() as f64),
            moves: moves.len(),
        }
    };
    [figures(0), figures(1)]
}

/// One weight per move: the standard deviation of the winning chances in a
/// window around it. The window slides over the positions; the first moves,
/// which have no full window before them, share the first window.
fn volatility_weights(wins: &[f64], plies: usize) -> Vec<f64> {
    let size = (plies / 10).clamp(2, 8).min(wins.len());
    let mut windows: Vec<&[f64]> = vec![&wins[..size]; size.saturating_sub(2)];
    windows.extend(wins.windows(size));
    windows
        .iter()
        .take(plies)
        .map(|w| standard_deviation(w).clamp(0.5, 12.0))
        .collect()
}

/// The population standard deviation.
fn standard_deviation(values: &[f64]) -> f64 {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt()
}

#[cfg(test)]
mod tests;
