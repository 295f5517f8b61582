//! Training the evaluation network (`src/engine/nnue.rs`) from self-play
//! data, on the CPU, in plain Rust.
//!
//! **What it learns from.** `kibitz tune selfplay` writes quiet positions,
//! each with two labels: the value kibitz's search gave it (a few thousand
//! nodes, so a little tactics is already folded in) and the result of the
//! game. The target mixes them, `λ × p(score) + (1 − λ) × result`, where
//! `p` turns centipawns into an expected result with the logistic curve
//! `1 / (1 + e^(−cp / σ))`. The score is precise but only as wise as the
//! search; the result is noisy but says what finally happened. σ is fitted
//! first, so that the curve turns the data's scores into its results as well
//! as it can: the network's centipawns then mean what the search's mean.
//!
//! **How.** Plain gradient descent with Adam, the network in 32-bit floats:
//! each batch of positions goes forward through the network, the squared
//! error between its expected result and the target goes backward as
//! gradients, and Adam moves every weight a little. Because a position
//! lights only about 30 of the 768 inputs, a position's forward and
//! backward pass touch only those inputs' rows of the first layer (each a
//! shared row and its king bucket's, see [`FloatNet`]): about 30,000
//! additions a view. Adam then moves all 0.9 million weights once a batch,
//! so two cores train on a million positions in about 15 seconds an epoch.
//!
//! **Held out.** Every 50th game is never trained on; its error, printed
//! beside the training error after each epoch, shows whether the network
//! learns chess or memorises games.
//!
//! At the end the weights are rounded to the engine's integers (see
//! [`crate::engine::nnue`]) and the rounded network's values are compared
//! with the float network's.

use std::io::BufRead;
use std::path::Path;

use shakmaty::fen::Fen;
use shakmaty::{Color, Piece, Square};
use thiserror::Error;

use crate::core::Rng;
use crate::engine::nnue::{
    HIDDEN, INPUTS, KING_BUCKETS, Network, OUTPUT_BUCKETS, QA, QB, ROWS, SCALE, feature, input,
    output_bucket, relative_king_bucket,
};

/// At most this many pieces on a board (kings included).
const MAX_PIECES: usize = 32;
/// Every weight stays within this, so the engine's integers cannot
/// overflow: 32 first-layer rows and the bias, each at most 1.98 × 255,
/// stay inside an `i16`, and so does an output weight of 1.98 × 1024.
const WEIGHT_LIMIT: f32 = 1.98;
/// Held out: games whose number is a multiple of this.
pub const HELD_OUT_EVERY: u32 = 50;
/// The first input of a view's own king (type 6, its own half).
const OWN_KING: u16 = 5 * 64;

/// One training position.
#[derive(Clone)]
pub struct NetSample {
    /// The lit inputs as White sees the board (Black's view is the mirror,
    /// see [`flip`]).
    inputs: [u16; MAX_PIECES],
    count: u8,
    white_to_move: bool,
    /// The search's value, centipawns from White's side.
    score: i16,
    /// 0 Black won, 1 draw, 2 White won.
    result: u8,
    game: u32,
}

impl NetSample {
    fn inputs(&self) -> &[u16] {
        &self.inputs[..usize::from(self.count)]
    }
}

/// A White-view input as Black sees it: the other half (own and other
/// swap) and the board turned round (rank r becomes 9 - r).
#[inline]
fn flip(index: u16) -> u16 {
    let swapped = if index < 384 {
        index + 384
    } else {
        index - 384
    };
    swapped ^ 56
}

#[derive(Debug, Error)]
pub enum NetDataError {
    #[error("{file}: cannot read it: {why}")]
    Read { file: String, why: String },
    #[error("{file} line {line}: {why}")]
    BadLine {
        file: String,
        line: usize,
        why: String,
    },
    #[error("no positions with a score in the data (tune selfplay writes FEN;result;score)")]
    Empty,
}

/// Read `FEN;result;score` lines (as `kibitz tune selfplay` writes them)
/// from each file in turn, appending to `samples`. Lines without a score
/// are refused: the network learns from the score.
pub fn read_data(path: &Path, samples: &mut Vec<NetSample>) -> Result<(), NetDataError> {
    let file = path.display().to_string();
    let handle = crate::fsutil::open_regular(path).map_err(|e| NetDataError::Read {
        file: file.clone(),
        // The reason alone: the message names the file once, before it.
        why: e.why.to_string(),
    })?;
    let games_before = samples.last().map_or(0, |s| s.game + 1);
    let mut game = games_before;
    let mut line_text = String::new();
    let mut reader = std::io::BufReader::new(handle);
    let mut number = 0;
    loop {
        line_text.clear();
        let read = reader
            .read_line(&mut line_text)
            .map_err(|e| NetDataError::Read {
                file: file.clone(),
                why: e.to_string(),
            })?;
        if read == 0 {
            break;
        }
        number += 1;
        // A byte-order mark (some editors write one) is not data.
        let text = match number {
            1 => line_text.strip_prefix('\u{feff}').unwrap_or(&line_text),
            _ => &line_text,
        };
        let line = text.trim();
        if line.starts_with("# game") {
            game += 1;
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: String| NetDataError::BadLine {
            file: file.clone(),
            line: number,
            why,
        };
        let mut fields = line.split(';');
        let (Some(fen), Some(result), Some(score), None) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(bad("expected FEN;result;score".into()));
        };
        let result = match result.trim() {
            "1-0" => 2,
            "1/2-1/2" => 1,
            "0-1" => 0,
            other => return Err(bad(format!("result {other:?} is not 1-0, 0-1 or 1/2-1/2"))),
        };
        let score: i16 = score
            .trim()
            .parse::<i32>()
            .ok()
            .and_then(|s| i16::try_from(s.clamp(-20_000, 20_000)).ok())
            .ok_or_else(|| bad(format!("score {score:?} is not a whole number")))?;
        let setup = Fen::from_ascii(fen.trim().as_bytes())
            .map_err(|e| bad(format!("FEN: {e}")))?
            .into_setup();
        let mut sample = NetSample {
            inputs: [0; MAX_PIECES],
            count: 0,
            white_to_move: setup.turn == Color::White,
            score,
            result,
            game,
        };
        for (square, piece) in &setup.board {
            if usize::from(sample.count) == MAX_PIECES {
                return Err(bad("more than 32 pieces".into()));
            }
            sample.inputs[usize::from(sample.count)] = input(Color::White, piece, square) as u16;
            sample.count += 1;
        }
        samples.push(sample);
    }
    Ok(())
}

/// The king bucket of a view whose lit inputs (in its own view, see
/// [`flip`]) are `inputs`: where its own king stands.
fn view_bucket(inputs: impl Iterator<Item = u16>) -> usize {
    inputs
        .filter(|i| (OWN_KING..OWN_KING + 64).contains(i))
        .map(|i| relative_king_bucket(usize::from(i - OWN_KING)))
        .next()
        .unwrap_or(0)
}

/// The network in floats, as it is trained.
///
/// The first layer is trained factorised: the row the engine uses for
/// input `i` with the king in bucket `b` is `shared[i] + rows[(b, i)]`.
/// The shared part learns from every position, whatever the king's
/// bucket, and each bucket's part only what differs there, so the eight
/// buckets need no more data than one layer would to learn what they have
/// in common (and a network without buckets is the start where every
/// bucket's part is 0). The engine gets the sums.
#[derive(Clone)]
pub struct FloatNet {
    /// `shared[i * HIDDEN + j]`: input `i`'s weight into neuron `j`, in
    /// every king bucket.
    shared: Vec<f32>,
    /// `rows[feature(b, i) * HIDDEN + j]`: what king bucket `b` adds to it.
    rows: Vec<f32>,
    bias: Vec<f32>,
    /// For each output: the side to move's neurons' weights, then the
    /// other side's.
    output: Vec<f32>,
    output_bias: Vec<f32>,
    /// 1 (one output for every position) or [`OUTPUT_BUCKETS`] (chosen
    /// by the number of pieces, as the engine does).
    outputs: usize,
}

impl FloatNet {
    fn zeros(outputs: usize) -> FloatNet {
        FloatNet {
            shared: vec![0.0; INPUTS * HIDDEN],
            rows: vec![0.0; ROWS * HIDDEN],
            bias: vec![0.0; HIDDEN],
            output: vec![0.0; outputs * 2 * HIDDEN],
            output_bias: vec![0.0; outputs],
            outputs,
        }
    }

    /// Which output a sample's value comes from.
    fn output_of(&self, sample: &NetSample) -> usize {
        if self.outputs == 1 {
            0
        } else {
            output_bucket(usize::from(sample.count))
        }
    }

    /// Small random weights: the first layer's sums start near a third
    /// of their 0..1 range, where SCReLU has a gradient.
    pub fn random(rng: &mut Rng, outputs: usize) -> FloatNet {
        let mut uniform = |limit: f32| {
            let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (unit * 2.0 - 1.0) * limit
        };
        let mut net = FloatNet::zeros(outputs);
        for w in &mut net.shared {
            *w = uniform(0.1);
        }
        for w in &mut net.output {
            *w = uniform(0.1);
        }
        net
    }

    /// The floats an integer network stands for: each weight divided by
    /// its scale, so the float network rounds back to the same integers.
    /// Training from here fine-tunes a network on new games instead of
    /// learning everything again. The shared part of the first layer is
    /// each weight's mean over the king buckets: for a network read from a
    /// file without buckets (every bucket the same), all of it.
    pub fn from_network(network: &Network) -> FloatNet {
        let (rows, bias, output, output_bias) = network.parts();
        let (qa, qb) = (QA as f32, QB as f32);
        let rows: Vec<f32> = rows.iter().flatten().map(|&w| f32::from(w) / qa).collect();
        let mut shared = vec![0.0f32; INPUTS * HIDDEN];
        for bucket in rows.chunks(INPUTS * HIDDEN) {
            for (s, w) in shared.iter_mut().zip(bucket) {
                *s += w / KING_BUCKETS as f32;
            }
        }
        let rows = rows
            .chunks(INPUTS * HIDDEN)
            .flat_map(|bucket| bucket.iter().zip(&shared).map(|(w, s)| w - s))
            .collect();
        FloatNet {
            shared,
            rows,
            bias: bias.iter().map(|&w| f32::from(w) / qa).collect(),
            output: output
                .iter()
                .flatten()
                .map(|&w| f32::from(w) / qb)
                .collect(),
            output_bias: output_bias.iter().map(|&w| w as f32 / qb).collect(),
            outputs: OUTPUT_BUCKETS,
        }
    }

    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.shared
            .iter_mut()
            .chain(&mut self.rows)
            .chain(&mut self.bias)
            .chain(&mut self.output)
            .chain(&mut self.output_bias)
    }

    /// The first layer's sums of one view, whose lit inputs are `inputs`
    /// (in its own view); returns its king bucket.
    fn accumulate(
        &self,
        inputs: impl Iterator<Item = u16> + Clone,
        sums: &mut [f32; HIDDEN],
    ) -> usize {
        let bucket = view_bucket(inputs.clone());
        sums.copy_from_slice(&self.bias);
        for i in inputs {
            let i = usize::from(i);
            let shared = &self.shared[i * HIDDEN..][..HIDDEN];
            let own = &self.rows[feature(bucket, i) * HIDDEN..][..HIDDEN];
            for ((s, w), b) in sums.iter_mut().zip(shared).zip(own) {
                *s += w + b;
            }
        }
        bucket
    }

    /// The output (centipawns / SCALE) for the side to move, and both
    /// views' sums (side to move first) for the backward pass.
    fn forward(&self, sample: &NetSample, us: &mut [f32; HIDDEN], them: &mut [f32; HIDDEN]) -> f32 {
        self.forward_mirrored(sample, 0, us, them).0
    }

    /// [`FloatNet::forward`] with the board mirrored left to right when
    /// `mirror` is 7 (files a-h become h-a; 0 leaves it), and both views'
    /// king buckets (side to move first).
    fn forward_mirrored(
        &self,
        sample: &NetSample,
        mirror: u16,
        us: &mut [f32; HIDDEN],
        them: &mut [f32; HIDDEN],
    ) -> (f32, [usize; 2]) {
        let white = sample.inputs().iter().map(|&i| i ^ mirror);
        let black = sample.inputs().iter().map(|&i| flip(i ^ mirror));
        let buckets = if sample.white_to_move {
            [self.accumulate(white, us), self.accumulate(black, them)]
        } else {
            [self.accumulate(black, us), self.accumulate(white, them)]
        };
        let bucket = self.output_of(sample);
        let mut out = self.output_bias[bucket];
        let weights = &self.output[bucket * 2 * HIDDEN..][..2 * HIDDEN];
        for (v, w) in us.iter().chain(them.iter()).zip(weights) {
            let a = v.clamp(0.0, 1.0);
            out += a * a * w;
        }
        (out, buckets)
    }

    /// The value in centipawns for the side to move.
    fn centipawns(&self, sample: &NetSample) -> f32 {
        let (mut us, mut them) = ([0.0; HIDDEN], [0.0; HIDDEN]);
        self.forward(sample, &mut us, &mut them) * SCALE as f32
    }

    /// The engine's integer network: each weight times its scale, rounded.
    pub fn quantize(&self) -> Network {
        let q = |w: f32, scale: i32| (w * scale as f32).round() as i16;
        let mut rows = crate::engine::nnue::zero_rows();
        for (f, row) in rows.iter_mut().enumerate() {
            let shared = &self.shared[(f % INPUTS) * HIDDEN..][..HIDDEN];
            for (j, w) in row.iter_mut().enumerate() {
                // The sum keeps the limit each part has, so the engine's
                // sums stay inside an `i16` (see `WEIGHT_LIMIT`).
                let sum = shared[j] + self.rows[f * HIDDEN + j];
                *w = q(sum.clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT), QA);
            }
        }
        let bias = std::array::from_fn(|j| q(self.bias[j], QA));
        // Bucket b takes trained output b; a single trained output serves
        // every bucket.
        let from = |bucket: usize| bucket.min(self.outputs - 1);
        let output = Box::new(std::array::from_fn(|b| {
            std::array::from_fn(|j| q(self.output[from(b) * 2 * HIDDEN + j], QB))
        }));
        let output_bias =
            std::array::from_fn(|b| (self.output_bias[from(b)] * QB as f32).round() as i32);
        Network::from_parts(rows, bias, output, output_bias)
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What the network is trained to predict for `sample`: the expected
/// result for the side to move.
fn target(sample: &NetSample, sigma: f32, lambda: f32) -> f32 {
    let (score, result) = if sample.white_to_move {
        (f32::from(sample.score), f32::from(sample.result) / 2.0)
    } else {
        (
            -f32::from(sample.score),
            1.0 - f32::from(sample.result) / 2.0,
        )
    };
    lambda * sigmoid(score / sigma) + (1.0 - lambda) * result
}

/// Forward and backward over `batch`, adding the gradients into `grad`;
/// returns the summed squared error.
fn backward(
    net: &FloatNet,
    samples: &[NetSample],
    batch: &[u32],
    sigma: f32,
    lambda: f32,
    salt: Option<u32>,
    grad: &mut FloatNet,
) -> f64 {
    let mut loss = 0.0f64;
    let (mut us, mut them) = ([0.0f32; HIDDEN], [0.0f32; HIDDEN]);
    let (mut d_us, mut d_them) = ([0.0f32; HIDDEN], [0.0f32; HIDDEN]);
    let k = SCALE as f32 / sigma;
    for &index in batch {
        let sample = &samples[index as usize];
        // Mirrored left to right half the time (a different half each
        // epoch), when asked: a position and its mirror image are worth
        // the same once castling is over, and the mirror shows each
        // pattern on more squares than the games did.
        let mirror = match salt {
            Some(salt) if (index ^ salt) & 1 == 1 => 7,
            _ => 0,
        };
        let (out, [us_bucket, them_bucket]) =
            net.forward_mirrored(sample, mirror, &mut us, &mut them);
        let p = sigmoid(out * k);
        let t = target(sample, sigma, lambda);
        loss += f64::from((p - t) * (p - t));
        // d(error)/d(out): the square's 2(p - t), the sigmoid's p(1 - p),
        // and the scale inside it.
        let g = 2.0 * (p - t) * p * (1.0 - p) * k;
        let bucket = net.output_of(sample);
        grad.output_bias[bucket] += g;
        for (view, (sums, d)) in [(&us, &mut d_us), (&them, &mut d_them)]
            .into_iter()
            .enumerate()
        {
            let at = bucket * 2 * HIDDEN + view * HIDDEN;
            let weights = &net.output[at..][..HIDDEN];
            let grads = &mut grad.output[at..][..HIDDEN];
            for j in 0..HIDDEN {
                let v = sums[j];
                let a = v.clamp(0.0, 1.0);
                grads[j] += g * a * a;
                // SCReLU's slope is 2a inside 0..1 and flat outside.
                d[j] = if v > 0.0 && v < 1.0 {
                    g * weights[j] * 2.0 * v
                } else {
                    0.0
                };
            }
        }
        for j in 0..HIDDEN {
            grad.bias[j] += d_us[j] + d_them[j];
        }
        for &i in sample.inputs() {
            let i = i ^ mirror;
            let (for_us, for_them) = if sample.white_to_move {
                (i, flip(i))
            } else {
                (flip(i), i)
            };
            for (input, bucket, d) in [
                (usize::from(for_us), us_bucket, &d_us),
                (usize::from(for_them), them_bucket, &d_them),
            ] {
                let row = &mut grad.shared[input * HIDDEN..][..HIDDEN];
                for (r, d) in row.iter_mut().zip(d) {
                    *r += d;
                }
                let row = &mut grad.rows[feature(bucket, input) * HIDDEN..][..HIDDEN];
                for (r, d) in row.iter_mut().zip(d) {
                    *r += d;
                }
            }
        }
    }
    loss
}

/// How the network is trained.
#[derive(Debug, Clone)]
pub struct TrainOptions {
    pub epochs: u32,
    pub batch: usize,
    pub learning_rate: f32,
    /// Weight of the search's score in the target (the rest: the result).
    pub lambda: f32,
    pub threads: usize,
    pub seed: u64,
    /// Train on left-right mirror images of half the positions.
    pub mirror: bool,
    /// One output for every position instead of one per material stage
    /// (for little data, or to compare).
    pub one_output: bool,
    /// Start from this network instead of random weights (fine-tuning);
    /// it has an output per material stage, so `one_output` is ignored.
    pub init: Option<std::sync::Arc<Network>>,
}

impl Default for TrainOptions {
    fn default() -> TrainOptions {
        TrainOptions {
            epochs: 30,
            batch: 4_096,
            learning_rate: 0.001,
            lambda: 0.75,
            threads: 1,
            seed: 1,
            mirror: false,
            one_output: false,
            init: None,
        }
    }
}

/// One epoch's report.
#[derive(Debug, Clone)]
pub struct Epoch {
    pub number: u32,
    pub learning_rate: f32,
    pub training_error: f64,
    /// NaN when no game is held out.
    pub held_out_error: f64,
}

/// What training produced.
pub struct Trained {
    pub net: FloatNet,
    pub sigma: f32,
    pub training: usize,
    pub held_out: usize,
    pub epochs: Vec<Epoch>,
    /// Mean |integer network − float network| over the held-out
    /// positions (the training ones when none is held out), centipawns.
    pub rounding_error: f64,
    /// The epoch whose network was kept: the lowest held-out error (the
    /// last when nothing is held out).
    pub best_epoch: u32,
    /// The hand-written evaluation's error on the held-out positions,
    /// against the same target: the figure a network must beat (NaN when
    /// no game is held out).
    pub classical_held_out_error: f64,
}

/// The σ that turns the data's scores into its results best (golden
/// section over 50..1000 centipawns: the error has one minimum there).
pub fn fit_sigma(samples: &[NetSample]) -> f32 {
    let error = |sigma: f32| {
        samples
            .iter()
            .map(|s| {
                let e = sigmoid(f32::from(s.score) / sigma) - f32::from(s.result) / 2.0;
                f64::from(e * e)
            })
            .sum::<f64>()
    };
    let ratio = (5f32.sqrt() - 1.0) / 2.0;
    let (mut low, mut high) = (50.0f32, 1000.0f32);
    for _ in 0..40 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if error(a) < error(b) {
            high = b;
        } else {
            low = a;
        }
    }
    (low + high) / 2.0
}

fn mean_error(net: &FloatNet, samples: &[NetSample], sigma: f32, lambda: f32) -> f64 {
    if samples.is_empty() {
        // No positions, no error: "not a number" rather than a perfect 0
        // (fewer games than one in `HELD_OUT_EVERY` hold none out).
        return f64::NAN;
    }
    let k = SCALE as f32 / sigma;
    let (mut us, mut them) = ([0.0f32; HIDDEN], [0.0f32; HIDDEN]);
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let p = sigmoid(net.forward(s, &mut us, &mut them) * k);
            let t = target(s, sigma, lambda);
            f64::from((p - t) * (p - t))
        })
        .sum();
    sum / samples.len() as f64
}

/// Train a network on `samples`; `on_epoch` hears each epoch.
pub fn train(
    samples: Vec<NetSample>,
    options: &TrainOptions,
    on_epoch: &mut dyn FnMut(&Epoch),
) -> Result<Trained, NetDataError> {
    let (held_out, training): (Vec<NetSample>, Vec<NetSample>) = samples
        .into_iter()
        .partition(|s| s.game % HELD_OUT_EVERY == HELD_OUT_EVERY - 1);
    if training.is_empty() {
        return Err(NetDataError::Empty);
    }
    let sigma = fit_sigma(&training);
    let mut rng = Rng::new(options.seed);
    // A network started from brings its own outputs, one per material
    // stage, whatever `one_output` says.
    let mut net = match &options.init {
        Some(network) => FloatNet::from_network(network),
        None if options.one_output => FloatNet::random(&mut rng, 1),
        None => FloatNet::random(&mut rng, OUTPUT_BUCKETS),
    };
    let outputs = net.outputs;
    let threads = options.threads.max(1);
    let mut grads = vec![FloatNet::zeros(outputs); threads];
    let mut moment = FloatNet::zeros(outputs);
    let mut velocity = FloatNet::zeros(outputs);
    let (beta1, beta2, epsilon) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    let mut order: Vec<u32> = (0..training.len() as u32).collect();
    let mut epochs = Vec::new();
    let mut best: Option<(f64, u32, FloatNet)> = None;
    if options.init.is_some() {
        // Epoch 0 is the starting network: if no epoch predicts the
        // held-out games better, fine-tuning changed nothing worth keeping
        // and the network is written back as it was.
        let epoch = Epoch {
            number: 0,
            learning_rate: 0.0,
            training_error: mean_error(&net, &training, sigma, options.lambda),
            held_out_error: mean_error(&net, &held_out, sigma, options.lambda),
        };
        best = Some((epoch.held_out_error, 0, net.clone()));
        on_epoch(&epoch);
        epochs.push(epoch);
    }
    for number in 1..=options.epochs {
        // The step shrinks tenfold for the last third: big steps find the
        // valley, small ones settle in it.
        let learning_rate = if number * 3 > options.epochs * 2 {
            options.learning_rate / 10.0
        } else {
            options.learning_rate
        };
        for i in (1..order.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        let mut loss = 0.0f64;
        for batch in order.chunks(options.batch.max(1)) {
            let part = batch.len().div_ceil(threads);
            loss += std::thread::scope(|scope| {
                let handles: Vec<_> = grads
                    .iter_mut()
                    .zip(batch.chunks(part))
                    .map(|(grad, chunk)| {
                        let net = &net;
                        let training = &training;
                        scope.spawn(move || {
                            for g in grad.params_mut() {
                                *g = 0.0;
                            }
                            let salt = options
                                .mirror
                                .then_some(number.wrapping_mul(0x9E37_79B9) >> 7);
                            backward(net, training, chunk, sigma, options.lambda, salt, grad)
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or(f64::NAN))
                    .sum::<f64>()
            });
            let used = batch.chunks(part).count();
            step += 1;
            let correction1 = 1.0 - beta1.powi(step);
            let correction2 = 1.0 - beta2.powi(step);
            let scale = 1.0 / batch.len() as f32;
            let (first, rest) = grads.split_at_mut(1);
            let summed = &mut first[0];
            for other in rest.iter_mut().take(used.saturating_sub(1)) {
                for (s, o) in summed.params_mut().zip(other.params_mut()) {
                    *s += *o;
                }
            }
            for (((w, g), m), v) in net
                .params_mut()
                .zip(summed.params_mut())
                .zip(moment.params_mut())
                .zip(velocity.params_mut())
            {
                let g = *g * scale;
                *m = beta1 * *m + (1.0 - beta1) * g;
                *v = beta2 * *v + (1.0 - beta2) * g * g;
                let update = (*m / correction1) / ((*v / correction2).sqrt() + epsilon);
                *w = (*w - learning_rate * update).clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT);
            }
        }
        let epoch = Epoch {
            number,
            learning_rate,
            training_error: loss / training.len() as f64,
            held_out_error: mean_error(&net, &held_out, sigma, options.lambda),
        };
        // The network kept is the one that predicts the held-out games
        // best: past that epoch it only learns the training games by heart.
        if best
            .as_ref()
            .is_none_or(|(error, _, _)| epoch.held_out_error < *error)
        {
            best = Some((epoch.held_out_error, number, net.clone()));
        }
        on_epoch(&epoch);
        epochs.push(epoch);
    }
    let (best_epoch, net) = match best {
        Some((_, number, kept)) if !held_out.is_empty() => (number, kept),
        _ => (options.epochs, net),
    };
    let quantized = net.quantize();
    let mean_over = |samples: &[NetSample], of: &dyn Fn(&NetSample) -> f64| {
        if samples.is_empty() {
            f64::NAN
        } else {
            samples.iter().map(of).sum::<f64>() / samples.len() as f64
        }
    };
    let mean = |of: &dyn Fn(&NetSample) -> f64| mean_over(&held_out, of);
    // Rounding is no question of generalising: with nothing held out, it
    // is measured on the training positions.
    let rounded = if held_out.is_empty() {
        &training
    } else {
        &held_out
    };
    let rounding_error = mean_over(rounded, &|s| {
        let turn = if s.white_to_move {
            Color::White
        } else {
            Color::Black
        };
        let integer = quantized.evaluate(&board_of(s), turn) as f32;
        f64::from((integer - net.centipawns(s)).abs())
    });
    let classical_held_out_error = mean(&|s| {
        let white = crate::engine::eval::evaluate_white(&board_of(s)) as f32;
        let own = if s.white_to_move { white } else { -white };
        let e = sigmoid(own / sigma) - target(s, sigma, options.lambda);
        f64::from(e * e)
    });
    Ok(Trained {
        best_epoch,
        classical_held_out_error,
        net,
        sigma,
        training: training.len(),
        held_out: held_out.len(),
        epochs,
        rounding_error,
    })
}

/// The board of a training sample.
fn board_of(sample: &NetSample) -> shakmaty::Board {
    let mut board = shakmaty::Board::empty();
    for &i in sample.inputs() {
        let i = usize::from(i);
        let color = if i < 384 { Color::White } else { Color::Black };
        let role = shakmaty::Role::ALL[(i % 384) / 64];
        let square = Square::new((i % 64) as u32);
        board.set_piece_at(square, Piece { color, role });
    }
    board
}

#[cfg(test)]
mod tests;
