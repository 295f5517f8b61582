//! Tuning the search's numbers in games: SPSA.
//!
//! Simultaneous perturbation stochastic approximation (Spall, 1992) finds
//! where a noisy function is highest without ever measuring its gradient.
//! Here the function is playing strength and the point is the search's
//! parameters (`engine::params`). Each iteration nudges *every* parameter
//! at once, each up or down at random by its step `c`, and plays the
//! nudged-up engine against the nudged-down one: a pair of games from the
//! same opening, each side White once. If the "up" side scored more, every
//! parameter moves a little towards its "up" value, and the other way if
//! not. One pair of games says almost nothing; thousands of them, averaged
//! by the small moves, point uphill in all the parameters together, since
//! a parameter whose nudge did not matter is pushed one way as often as
//! the other.
//!
//! The schedule is Spall's, in the form Stockfish's testing framework uses:
//! the step shrinks as `c_k = c / k^0.101`, the learning rate as `a_k = a /
//! (A + k)^0.602`, with `A` a tenth of the run, so the first iterations
//! explore and the last ones settle. `c` and `a` are chosen from what the
//! step and the learning rate should be at the *end* of the run (each
//! parameter's `step`, and `learning_rate`), which is easier to judge.
//!
//! The games are played in this process at a fixed number of nodes a move:
//! the same on any machine and however busy it is, so a tuning run can
//! share the processor with other work. (What fixed nodes cannot see is a
//! change's cost in speed; the parameters tuned here change which nodes
//! are searched, not how fast.)

use std::sync::Arc;

use shakmaty::{Chess, Color, KnownOutcome, Position};

use crate::core::{Rng, position_key};
use crate::engine::heuristics::Heuristics;
use crate::engine::nnue::Network;
use crate::engine::params::{SearchParams, TUNABLE};
use crate::engine::search::search_kept_with;
use crate::engine::trace::NoTrace;
use crate::engine::tt::TranspositionTable;
use crate::engine::{Limits, SearchOptions};
use crate::tune::selfplay::WinStreak;

/// Spall's exponents for the learning rate and the step.
const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;
/// Random moves from the start position that make an opening.
const OPENING_PLIES: u32 = 8;
/// An opening whose short search says one side is this far ahead is drawn
/// again: a lopsided game says nothing about the parameters.
const OPENING_MARGIN: i32 = 150;
const OPENING_NODES: u64 = 2_000;
/// Scores beyond this (centipawns) for several plies in a row end a game
/// as a win (`selfplay::WinStreak`); a game still going after `MAX_PLIES` is a draw.
const WIN_MARGIN: i32 = 1_000;
const MAX_PLIES: u32 = 300;
const TABLE_MB: usize = 16;

/// How a run is played.
#[derive(Debug, Clone)]
pub struct SpsaOptions {
    /// Game pairs to play (SPSA iterations).
    pub iterations: u64,
    /// Nodes each side searches a move.
    pub nodes: u64,
    /// The parameters tuned, as indices into `TUNABLE`.
    pub tuned: Vec<usize>,
    /// Where the run starts (the engine's defaults unless told).
    pub start: SearchParams,
    /// The learning rate at the end of the run: how far (in steps) one
    /// game pair's result moves a parameter then.
    pub learning_rate: f64,
    pub seed: u64,
    /// The evaluation both sides play with (`None`: the hand-written one).
    pub network: Option<Arc<Network>>,
}

/// Where a run stands.
#[derive(Debug, Clone, PartialEq)]
pub struct SpsaState {
    /// The tuned parameters' current values, unrounded, in the order of
    /// `SpsaOptions::tuned`.
    pub theta: Vec<f64>,
    /// Game pairs finished.
    pub iterations: u64,
    /// Wins, draws and losses of the nudged-up side.
    pub plus: [u64; 3],
}

impl SpsaState {
    pub fn new(options: &SpsaOptions) -> SpsaState {
        SpsaState {
            theta: options
                .tuned
                .iter()
                .map(|&i| f64::from((TUNABLE[i].get)(&options.start)))
                .collect(),
            iterations: 0,
            plus: [0; 3],
        }
    }

    /// The parameters as the engine would play them now: the start with
    /// the tuned values rounded in.
    pub fn params(&self, options: &SpsaOptions) -> SearchParams {
        with_values(&options.start, &options.tuned, &self.theta)
    }
}

/// `start` with the tuned parameters set to `values`, rounded and kept in
/// range.
fn with_values(start: &SearchParams, tuned: &[usize], values: &[f64]) -> SearchParams {
    let mut params = *start;
    for (&i, &value) in tuned.iter().zip(values) {
        let t = &TUNABLE[i];
        let rounded = value.round().clamp(f64::from(t.min), f64::from(t.max)) as i32;
        (t.set)(&mut params, rounded);
    }
    params
}

/// One iteration's plan: the step, the signs and the two sides.
#[derive(Debug, Clone)]
pub struct Probe {
    pub iteration: u64,
    /// Each tuned parameter's step this iteration.
    c: Vec<f64>,
    /// Each tuned parameter's learning rate this iteration.
    a: Vec<f64>,
    /// +1 or -1 for each tuned parameter.
    signs: Vec<f64>,
    pub plus: SearchParams,
    pub minus: SearchParams,
    /// The seed of the pair's opening.
    pub opening_seed: u64,
}

/// Plan iteration `k` (1-based) from the state now: the same `k` and seed
/// always draw the same signs and the same opening.
pub fn probe(options: &SpsaOptions, state: &SpsaState, k: u64) -> Probe {
    let n = options.iterations.max(1) as f64;
    let big_a = 0.1 * n;
    let k_f = k.max(1) as f64;
    let mut rng = Rng::for_item(options.seed, k);
    let mut c = Vec::new();
    let mut a = Vec::new();
    let mut signs = Vec::new();
    for &i in &options.tuned {
        let step = TUNABLE[i].step;
        // c and a from what they should be at the end of the run (k = n).
        let c_start = step * n.powf(GAMMA);
        let a_end = options.learning_rate * step * step;
        let a_start = a_end * (big_a + n).powf(ALPHA);
        c.push(c_start / k_f.powf(GAMMA));
        a.push(a_start / (big_a + k_f).powf(ALPHA));
        signs.push(if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 });
    }
    let nudged = |sign: f64| -> Vec<f64> {
        state
            .theta
            .iter()
            .zip(&c)
            .zip(&signs)
            .map(|((theta, c), s)| theta + sign * c * s)
            .collect()
    };
    Probe {
        iteration: k,
        plus: with_values(&options.start, &options.tuned, &nudged(1.0)),
        minus: with_values(&options.start, &options.tuned, &nudged(-1.0)),
        c,
        a,
        signs,
        opening_seed: rng.next_u64(),
    }
}

/// Move the state by a pair's result: what the nudged-up side scored in
/// each of the two games (1, 0.5 or 0).
pub fn update(options: &SpsaOptions, state: &mut SpsaState, probe: &Probe, games: [f64; 2]) {
    let result = games[0] + games[1] - 1.0;
    for (slot, (&i, ((c, a), sign))) in state.theta.iter_mut().zip(
        options
            .tuned
            .iter()
            .zip(probe.c.iter().zip(&probe.a).zip(&probe.signs)),
    ) {
        let t = &TUNABLE[i];
        // The gradient's estimate is result / (2 c sign); the move is the
        // learning rate times that (sign = 1 / sign, as it is +-1).
        *slot = (*slot + a * result * sign / c).clamp(f64::from(t.min), f64::from(t.max));
    }
    state.iterations += 1;
    for game in games {
        let slot = if game >= 0.75 {
            0
        } else if game >= 0.25 {
            1
        } else {
            2
        };
        state.plus[slot] += 1;
    }
}

/// A balanced opening of random moves for a probe: its position and the
/// keys of the positions before it (for repetitions).
pub fn opening(mut rng: Rng, network: Option<&Network>) -> (Chess, Vec<u64>) {
    let mut fallback = None;
    for _ in 0..100 {
        let mut position = Chess::default();
        let mut keys = Vec::new();
        let mut over = false;
        for _ in 0..OPENING_PLIES {
            let moves = position.legal_moves();
            if moves.is_empty() {
                over = true;
                break;
            }
            let pick = (rng.next_u64() % moves.len() as u64) as usize;
            keys.push(position_key(&position));
            position.play_unchecked(moves[pick]);
        }
        if over || position.legal_moves().is_empty() {
            continue;
        }
        let mut tt = TranspositionTable::new(1);
        let mut heuristics = Box::<Heuristics>::default();
        let found = search_kept_with(
            &position,
            &keys,
            &Limits {
                nodes: Some(OPENING_NODES),
                ..Limits::default()
            },
            SearchOptions::default(),
            (&mut tt, &mut heuristics),
            &|| false,
            &mut NoTrace,
            network,
        );
        if found.value.abs() <= OPENING_MARGIN {
            return (position, keys);
        }
        fallback.get_or_insert((position, keys));
    }
    fallback.unwrap_or_else(|| (Chess::default(), Vec::new()))
}

/// A game `play` played: White's score (1, 0.5 or 0) and a hash of its
/// moves, so that a match can tell when two settings played the same game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Played {
    pub score: f64,
    pub moves: u64,
}

/// Play one game from `start` between two parameter sets, each side with
/// its own table and move memory, as two engines would.
pub fn play(
    white: &SearchParams,
    black: &SearchParams,
    start: &(Chess, Vec<u64>),
    nodes: u64,
    network: Option<&Network>,
    stop: &dyn Fn() -> bool,
) -> Played {
    let (mut position, mut keys) = start.clone();
    let mut tables = [
        TranspositionTable::new(TABLE_MB),
        TranspositionTable::new(TABLE_MB),
    ];
    let mut memories = [Box::<Heuristics>::default(), Box::<Heuristics>::default()];
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut streak = WinStreak::default();
    let mut ply = 0;
    let mut moves = 0u64;
    let played = |score: f64, moves: u64| Played { score, moves };
    loop {
        if let Some(outcome) = position.outcome().known() {
            let score = match outcome {
                KnownOutcome::Decisive { winner } => white_score(winner),
                KnownOutcome::Draw => 0.5,
            };
            return played(score, moves);
        }
        let key = position_key(&position);
        if position.halfmoves() >= 100
            || keys.iter().filter(|&&k| k == key).count() >= 2
            || ply >= MAX_PLIES
            || stop()
        {
            return played(0.5, moves);
        }
        let (params, side) = match position.turn() {
            Color::White => (white, 0),
            Color::Black => (black, 1),
        };
        let (tt, heuristics) = (&mut tables[side], &mut memories[side]);
        let found = search_kept_with(
            &position,
            &keys,
            &limits,
            SearchOptions {
                params: *params,
                ..SearchOptions::default()
            },
            (tt, heuristics),
            &|| false,
            &mut NoTrace,
            network,
        );
        let Some(best) = found.best_move else {
            return played(0.5, moves);
        };
        if let Some(side) = streak.record(position.turn(), found.value, WIN_MARGIN) {
            return played(white_score(side), moves);
        }
        // FNV-1a over (from, to, promotion): a game's moves, as one number.
        let code = best.to() as u64
            | best.from().map_or(64, |sq| sq as u64) << 6
            | best.promotion().map_or(0, |role| role as u64) << 13;
        moves = (moves ^ code).wrapping_mul(0x0000_0100_0000_01B3);
        keys.push(key);
        position.play_unchecked(best);
        ply += 1;
    }
}

fn white_score(winner: Color) -> f64 {
    match winner {
        Color::White => 1.0,
        Color::Black => 0.0,
    }
}

/// Play one probe's pair of games, each side White once from the same
/// opening: the nudged-up side's score in each.
pub fn play_pair(options: &SpsaOptions, probe: &Probe, stop: &dyn Fn() -> bool) -> [f64; 2] {
    let network = options.network.as_deref();
    let start = opening(Rng::new(probe.opening_seed), network);
    let first = play(
        &probe.plus,
        &probe.minus,
        &start,
        options.nodes,
        network,
        stop,
    );
    let second = play(
        &probe.minus,
        &probe.plus,
        &start,
        options.nodes,
        network,
        stop,
    );
    [first.score, 1.0 - second.score]
}

/// A head-to-head's score and Elo difference with its 95% interval, from
/// the scores of its game pairs (each 0, 0.5, ..., 2 for the first side).
/// The pairs, not the games, are the independent trials: the two games of
/// a pair share an opening, and a lopsided opening tends to win both.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatchScore {
    /// The first side's share of the points, 0..=1.
    pub score: f64,
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

/// The Elo difference a score means under the logistic model.
pub fn elo_of(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    // (Adding 0 turns the -0 that an even score gives into 0, which
    // prints without a sign.)
    -400.0 * (1.0 / s - 1.0).log10() + 0.0
}

pub fn match_score(pairs: &[f64]) -> MatchScore {
    let n = pairs.len().max(1) as f64;
    let per_pair: Vec<f64> = pairs.iter().map(|p| p / 2.0).collect();
    let score = per_pair.iter().sum::<f64>() / n;
    let variance = per_pair.iter().map(|p| (p - score).powi(2)).sum::<f64>() / n;
    let margin = 1.96 * (variance / n).sqrt();
    MatchScore {
        score,
        elo: elo_of(score),
        low: elo_of(score - margin),
        high: elo_of(score + margin),
    }
}

#[cfg(test)]
mod tests;
