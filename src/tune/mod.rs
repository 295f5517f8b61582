//! Tuning the evaluation's weights from games (Texel's method).
//!
//! The idea, from Peter Österlund's Texel engine: a good evaluation
//! predicts the result of the game a position came from. Map the score to
//! an expected result with a logistic curve, `1 / (1 + 10^(-K * score / 400))`,
//! and measure the mean squared difference from the real results over many
//! positions. Then change the weights one at a time, a step up or down, and
//! keep every change that lowers that error, until none does.
//!
//! Only the weights in [`EvalParams`] are tuned; the material and
//! piece-square tables are PeSTO's, already tuned the same way. K is fitted
//! first, to the default weights, and then held: it only converts
//! centipawns to an expected result.
//!
//! One game in ten is held out and never used to choose a change; its
//! error is reported beside the training error, so overfitting shows.
//! Whole games, not single positions: the positions of one game share its
//! result, so a held-out position from a training game would flatter the
//! fit.

pub mod net;
pub mod selfplay;
pub mod spsa;

use shakmaty::{Board, Position};
use thiserror::Error;

use crate::engine::eval::{EvalParams, evaluate_white_with};
use crate::game::fen::parse_fen;

/// A position and the result of its game, 1.0 = White won.
#[derive(Debug, Clone)]
pub struct Sample {
    pub board: Board,
    pub result: f64,
    /// The game it came from (a `# game` line in the data starts the
    /// next); without such lines every position is a game of its own.
    pub game: usize,
    /// The search's value of the position, centipawns from White's side,
    /// when the data has one (`kibitz tune selfplay` writes it).
    pub score: Option<i32>,
}

#[derive(Debug, Error)]
pub enum DataError {
    #[error("line {line}: {why}")]
    BadLine { line: usize, why: String },
    #[error("no positions in the data")]
    Empty,
}

/// Parse the data file: one `FEN;result` or `FEN;result;score` per line
/// (`1-0`, `0-1` or `1/2-1/2`; the score in centipawns from White's side),
/// as `kibitz tune selfplay` writes it, each game's positions
/// after a `# game N` line. Empty lines and other lines starting with `#`
/// are skipped.
pub fn parse_data(text: &str) -> Result<Vec<Sample>, DataError> {
    let mut samples = Vec::new();
    let mut game = 0;
    let mut marked = false;
    // A byte-order mark (some editors write one) is not data.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.starts_with("# game") {
            marked = true;
            game += 1;
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if !marked {
            game = index;
        }
        let bad = |why: String| DataError::BadLine {
            line: index + 1,
            why,
        };
        let mut fields = line.split(';');
        let fen = fields.next().unwrap_or_default();
        let result = fields
            .next()
            .ok_or_else(|| bad("expected FEN;result".to_string()))?;
        let score = match fields.next() {
            None => None,
            Some(text) => Some(
                text.trim()
                    .parse::<i32>()
                    .ok()
                    .filter(|v| v.abs() < 100_000)
                    .ok_or_else(|| {
                        bad(format!(
                            "score {text:?} is not a whole number of centipawns below 100000"
                        ))
                    })?,
            ),
        };
        if fields.next().is_some() {
            return Err(bad("expected FEN;result or FEN;result;score".to_string()));
        }
        let result = match result.trim() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            other => return Err(bad(format!("result {other:?} is not 1-0, 0-1 or 1/2-1/2"))),
        };
        let position = parse_fen(fen.trim()).map_err(|e| bad(e.to_string()))?;
        samples.push(Sample {
            board: position.board().clone(),
            result,
            game,
            score,
        });
    }
    if samples.is_empty() {
        return Err(DataError::Empty);
    }
    Ok(samples)
}

/// The expected result for White of a White-view score.
fn expected(score: i32, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * f64::from(score) / 400.0))
}

/// Mean squared error of the predictions over `samples`, on `threads`
/// threads.
pub fn error(samples: &[Sample], params: &EvalParams, k: f64, threads: usize) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum_of = |chunk: &[Sample]| {
        chunk
            .iter()
            .map(|s| {
                let diff = s.result - expected(evaluate_white_with(&s.board, params), k);
                diff * diff
            })
            .sum::<f64>()
    };
    let threads = threads.max(1);
    let total: f64 = if threads == 1 {
        sum_of(samples)
    } else {
        let chunk = samples.len().div_ceil(threads);
        std::thread::scope(|scope| {
            let handles: Vec<_> = samples
                .chunks(chunk)
                .map(|part| scope.spawn(move || sum_of(part)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or(f64::NAN))
                .sum()
        })
    };
    total / samples.len() as f64
}

/// The K that makes the default weights' predictions best, by golden-section
/// search over 0.2..3 (the error is smooth and has one minimum there).
pub fn fit_k(samples: &[Sample], params: &EvalParams, threads: usize) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut low, mut high) = (0.2f64, 3.0f64);
    for _ in 0..30 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if error(samples, params, a, threads) < error(samples, params, b, threads) {
            high = b;
        } else {
            low = a;
        }
    }
    (low + high) / 2.0
}

/// What one pass of the local search did.
#[derive(Debug, Clone)]
pub struct Pass {
    pub number: u32,
    pub step: i32,
    pub changed: usize,
    pub training_error: f64,
    pub held_out_error: f64,
}

/// The tuner's result.
#[derive(Debug, Clone)]
pub struct Tuned {
    pub params: EvalParams,
    pub k: f64,
    pub training: usize,
    pub held_out: usize,
    pub start_training_error: f64,
    pub start_held_out_error: f64,
    pub passes: Vec<Pass>,
}

/// Split off every tenth game as the held-out set.
pub fn split(samples: Vec<Sample>) -> (Vec<Sample>, Vec<Sample>) {
    let mut training = Vec::with_capacity(samples.len());
    let mut held_out = Vec::with_capacity(samples.len() / 10 + 1);
    for sample in samples {
        if sample.game % 10 == 9 {
            held_out.push(sample);
        } else {
            training.push(sample);
        }
    }
    (training, held_out)
}

/// Texel's local search from `start`: each weight a step up, else a step
/// down, kept when the training error falls. Passes repeat while anything
/// changes; then the step halves, down to 1. Only the weights `chosen`
/// allows are changed. `on_pass` hears each pass.
pub fn tune(
    samples: Vec<Sample>,
    start: &EvalParams,
    chosen: &dyn Fn(&str) -> bool,
    max_passes: u32,
    threads: usize,
    on_pass: &mut dyn FnMut(&Pass),
) -> Tuned {
    let (training, held_out) = split(samples);
    let k = fit_k(&training, start, threads);
    let mut params = start.clone();
    let mut best = error(&training, &params, k, threads);
    let start_training_error = best;
    let start_held_out_error = error(&held_out, &params, k, threads);
    let mut passes = Vec::new();
    let mut step = 4;
    let slots: Vec<usize> = params
        .clone()
        .slots()
        .iter()
        .enumerate()
        .filter(|(_, (name, _))| chosen(name))
        .map(|(index, _)| index)
        .collect();
    for number in 1..=max_passes {
        let mut changed = 0;
        for &slot in &slots {
            for delta in [step, -step] {
                let mut trial = params.clone();
                if let Some((_, value)) = trial.slots().into_iter().nth(slot) {
                    *value += delta;
                }
                let e = error(&training, &trial, k, threads);
                if e < best {
                    best = e;
                    params = trial;
                    changed += 1;
                    break;
                }
            }
        }
        let pass = Pass {
            number,
            step,
            changed,
            training_error: best,
            held_out_error: error(&held_out, &params, k, threads),
        };
        on_pass(&pass);
        passes.push(pass);
        if changed == 0 {
            if step == 1 {
                break;
            }
            step /= 2;
        }
    }
    Tuned {
        params,
        k,
        training: training.len(),
        held_out: held_out.len(),
        start_training_error,
        start_held_out_error,
        passes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_lines_are_named_by_number() {
        let text = "# comment\n\n4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1-0\nnot a fen;0-1\n";
        match parse_data(text) {
            Err(DataError::BadLine { line: 4, .. }) => {}
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse_data("4k3/8/8/8/8/8/8/3QK3 w - - 0 1;2-0"),
            Err(DataError::BadLine { line: 1, .. })
        ));
        assert!(matches!(parse_data("# only\n"), Err(DataError::Empty)));
        let scored = parse_data("4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1-0;912\n").unwrap();
        assert_eq!(scored[0].score, Some(912));
        for bad in ["1-0;x", "1-0;12;3", "1-0;"] {
            let text = format!("4k3/8/8/8/8/8/8/3QK3 w - - 0 1;{bad}");
            assert!(
                matches!(parse_data(&text), Err(DataError::BadLine { line: 1, .. })),
                "{bad}"
            );
        }
    }

    #[test]
    fn slots_reach_every_tuned_weight_once() {
        let mut params = EvalParams::DEFAULT;
        let names: Vec<String> = params.slots().into_iter().map(|(n, _)| n).collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len());
        for (_, value) in params.slots() {
            *value += 1;
        }
        assert_eq!(params.bishop_pair, (29, 51));
        assert_eq!(params.mobility[0], (0, 0), "a pawn's mobility is not tuned");
    }

    #[test]
    fn the_tuner_moves_a_weight_towards_the_results() {
        // White has the bishop pair and wins every one of these games: the
        // tuner should raise the bishop pair's weight.
        let mut text = String::new();
        for fen in [
            "4k3/pppp4/8/8/8/8/PPPP4/2B1KB2 w - - 0 1",
            "2b1k3/pppp4/8/8/8/8/PPPP4/2B1KB2 w - - 0 1",
            "2n1k3/pppp4/8/8/8/8/PPPP4/2B1KB2 w - - 0 1",
        ] {
            for _ in 0..4 {
                text.push_str(&format!("{fen};1-0\n"));
            }
        }
        text.push_str("4k3/8/8/8/8/8/8/4K3 w - - 0 1;1/2-1/2\n");
        let samples = parse_data(&text).unwrap();
        let tuned = tune(samples, &EvalParams::DEFAULT, &|_| true, 3, 1, &mut |_| {});
        let last = tuned.passes.last().unwrap();
        assert!(last.training_error < tuned.start_training_error);
        assert!(tuned.params.bishop_pair.0 + tuned.params.bishop_pair.1 > 28 + 50);
    }
}
