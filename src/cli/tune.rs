//! `kibitz tune selfplay` and `kibitz tune fit`: the evaluation's weights
//! fitted to the results of kibitz's own games (Texel's method); `tune
//! spsa` is in `tune_spsa.rs`.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use clap::{Args, Subcommand};
use serde_json::json;

use super::CliError;
use super::flags::{JsonFlag, RunFile, cores, in_range};
use crate::core::Rng;
use crate::engine::eval::EvalParams;
use crate::fsutil::{check_output, read_text_capped, write_user_file};
use crate::tune::selfplay::{SelfPlayOptions, play_game, result_label};
use crate::tune::{Pass, parse_data, tune};

/// `kibitz tune`: self-play data, Texel's fit, the network.
#[derive(Subcommand, Debug)]
pub enum TuneCommand {
    /// Play kibitz against itself and write its quiet positions, each with
    /// its game's result and its search's score (`FEN;result;score`
    /// lines), for `tune fit` and `tune net`.
    Selfplay(SelfPlayArgs),
    /// Fit the evaluation's weights to a data file and print them.
    Fit(FitArgs),
    /// Train the evaluation network on `tune selfplay` data (FEN;result;score lines) and write it.
    Net(NetArgs),
    /// Tune the search's margins, depths and reductions in self-play games
    /// (SPSA) and print them.
    Spsa(super::tune_search::SpsaArgs),
    /// Play two sets of search parameters against each other in self-play
    /// games and print the Elo difference.
    Match(super::tune_search::MatchArgs),
}

impl TuneCommand {
    pub fn run(
        &self,
        stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
        out: &mut dyn Write,
    ) -> Result<(), CliError> {
        match self {
            TuneCommand::Selfplay(args) => selfplay(args, out),
            TuneCommand::Fit(args) => fit(args, out),
            TuneCommand::Net(args) => net(args, out),
            TuneCommand::Spsa(args) => super::tune_search::run(args, stop, out),
            TuneCommand::Match(args) => super::tune_search::run_match(args, stop, out),
        }
    }
}

/// The largest data file read (about 15 million positions).
const MAX_DATA_BYTES: u64 = 1024 * 1024 * 1024;
/// The data file is rewritten after this many games, so an interrupted run
/// keeps most of its work.
const SAVE_EVERY: u64 = 50;

/// `kibitz tune selfplay`: how many games, how deep, where to write.
#[derive(Args, Debug)]
pub struct SelfPlayArgs {
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Games played at once (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Seed of the random openings: the same seed, the same games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The evaluation both sides play with: handwritten, builtin (the
    /// shipped network) or a network file.
    #[arg(long, default_value = "handwritten")]
    pub eval: String,
    /// The data file to write.
    #[arg(long)]
    pub out: PathBuf,
    #[command(flatten)]
    pub output: JsonFlag,
}

struct Collected {
    header: String,
    /// Each game's lines by its number, so the file lists the games in
    /// order whichever thread finished first.
    lines: std::collections::BTreeMap<u64, String>,
    games: u64,
    thrown_away: u64,
    positions: u64,
    results: [u64; 3],
}

/// Play `games` games of kibitz against itself and write their quiet
/// positions, each with its game's result, to `out`.
pub fn selfplay(args: &SelfPlayArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let threads = args.threads.unwrap_or_else(cores);
    if args.games == 0 {
        return Err(CliError::BadInput("--games must be at least 1".into()));
    }
    in_range("--nodes", args.nodes, 100..=10_000_000)?;
    in_range("--threads", threads, 1..=256)?;
    // A network file read for the games is not the file they are written to.
    let eval_file = match args.eval.trim() {
        "" | "<empty>" | crate::engine::nnue::HANDWRITTEN | crate::engine::nnue::BUILTIN_NAME => {
            Vec::new()
        }
        name => vec![Path::new(name)],
    };
    check_output(&args.out, &eval_file).map_err(CliError::BadInput)?;
    let network = crate::engine::nnue::choose(&args.eval)
        .map_err(|e| CliError::BadInput(format!("--eval: {e}")))?;
    let started = Instant::now();
    let show_progress = std::io::stderr().is_terminal() && !args.output.json;
    let collected = Mutex::new(Collected {
        header: format!(
            "# kibitz tune selfplay --games {} --nodes {} --seed {} --eval {}: FEN;result;score (centipawns, White's view)\n",
            args.games,
            args.nodes,
            args.seed,
            match args.eval.trim() {
                "" | "<empty>" => crate::engine::nnue::HANDWRITTEN,
                name => name,
            }
        ),
        lines: std::collections::BTreeMap::new(),
        games: 0,
        thrown_away: 0,
        positions: 0,
        results: [0; 3],
    });
    let next_game = std::sync::atomic::AtomicU64::new(0);
    let file = RunFile::new(Some(&args.out));
    let save = |c: &Collected| {
        let mut text = c.header.clone();
        text.extend(c.lines.values().map(String::as_str));
        file.save(text);
    };
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let index = next_game.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if index >= args.games {
                        break;
                    }
                    // Each game its own seed, so a game is the same whatever
                    // thread plays it.
                    let options = SelfPlayOptions {
                        nodes: args.nodes,
                        network: network.clone(),
                        ..SelfPlayOptions::default()
                    };
                    let mut rng = Rng::for_item(args.seed, index + 1);
                    let game = play_game(&options, &mut rng);
                    let Ok(mut c) = collected.lock() else { break };
                    let Some(game) = game else {
                        c.thrown_away += 1;
                        continue;
                    };
                    c.games += 1;
                    let label = result_label(game.result);
                    c.results[match label {
                        "1-0" => 0,
                        "1/2-1/2" => 1,
                        _ => 2,
                    }] += 1;
                    let mut lines = format!("# game {}\n", index + 1);
                    for (fen, score) in &game.positions {
                        lines.push_str(&format!("{fen};{label};{score}\n"));
                    }
                    c.lines.insert(index, lines);
                    c.positions += game.positions.len() as u64;
                    if c.games % SAVE_EVERY == 0 {
                        save(&c);
                    }
                    if show_progress {
                        eprint!(
                            "\r{} games, {} positions, {:.0} s   ",
                            c.games,
                            c.positions,
                            started.elapsed().as_secs_f64()
                        );
                    }
                }
            });
        }
    });
    if show_progress {
        eprintln!();
    }
    let c = collected
        .into_inner()
        .map_err(|_| CliError::BadInput("a self-play thread failed".into()))?;
    save(&c);
    file.finish()?;
    let seconds = started.elapsed().as_secs_f64();
    if args.output.json {
        writeln!(
            out,
            "{}",
            json!({
                "type": "selfplay",
                "games": c.games,
                "thrown_away": c.thrown_away,
                "white_wins": c.results[0],
                "draws": c.results[1],
                "black_wins": c.results[2],
                "positions": c.positions,
                "seconds": seconds,
                "out": args.out.display().to_string(),
            })
        )?;
    } else {
        writeln!(
            out,
            "{} games (+{} ={} -{} for White; {} lopsided openings thrown away), {} positions in {:.1} s -> {}",
            c.games,
            c.results[0],
            c.results[1],
            c.results[2],
            c.thrown_away,
            c.positions,
            seconds,
            args.out.display()
        )?;
    }
    Ok(())
}

/// `kibitz tune fit`: the data, which weights, how long.
#[derive(Args, Debug)]
pub struct FitArgs {
    /// `FEN;result` or `FEN;result;score` lines, as `tune selfplay` writes
    /// them (the score is not used).
    #[arg(long)]
    pub data: PathBuf,
    /// At most this many passes over the weights.
    #[arg(long, default_value_t = 100)]
    pub passes: u32,
    /// Tune only these weights (names or prefixes, e.g. threat_by_pawn,passed_pawn).
    #[arg(long, value_delimiter = ',', num_args = 1..)]
    pub weights: Vec<String>,
    /// Threads evaluating (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub output: JsonFlag,
}

/// Fit the evaluation's weights to the data and print them.
pub fn fit(args: &FitArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let threads = args.threads.unwrap_or_else(cores);
    in_range("--threads", threads, 1..=256)?;
    let text = read_text_capped(&args.data, MAX_DATA_BYTES, "tuning data")
        .map_err(|e| CliError::BadInput(e.to_string()))?;
    let samples = parse_data(&text)
        .map_err(|e| CliError::BadInput(format!("{}: {e}", args.data.display())))?;
    drop(text);
    let started = Instant::now();
    let json_output = args.output.json;
    let mut report = |pass: &Pass| {
        let line = if json_output {
            json!({
                "type": "pass",
                "pass": pass.number,
                "step": pass.step,
                "changed": pass.changed,
                "training_error": pass.training_error,
                "held_out_error": pass.held_out_error,
            })
            .to_string()
        } else {
            format!(
                "pass {:>2}  step {}  changed {:>2}  error {:.6}  held out {:.6}",
                pass.number, pass.step, pass.changed, pass.training_error, pass.held_out_error
            )
        };
        let _ = writeln!(out, "{line}");
    };
    let names: Vec<String> = EvalParams::DEFAULT
        .clone()
        .slots()
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    for prefix in &args.weights {
        if !names.iter().any(|n| n.starts_with(prefix.as_str())) {
            return Err(CliError::BadInput(format!(
                "--weights {prefix}: no such weight (they are {})",
                names.join(", ")
            )));
        }
    }
    let chosen = |name: &str| {
        args.weights.is_empty() || args.weights.iter().any(|p| name.starts_with(p.as_str()))
    };
    let tuned = tune(
        samples,
        &EvalParams::DEFAULT,
        &chosen,
        args.passes,
        threads,
        &mut report,
    );
    let end = tuned.passes.last();
    let (train_end, held_end) = end.map_or(
        (tuned.start_training_error, tuned.start_held_out_error),
        |p| (p.training_error, p.held_out_error),
    );
    let mut changes = Vec::new();
    let mut old = EvalParams::DEFAULT;
    let mut new = tuned.params.clone();
    for ((name, before), (_, after)) in old.slots().into_iter().zip(new.slots()) {
        if *before != *after {
            changes.push((name, *before, *after));
        }
    }
    if args.output.json {
        writeln!(
            out,
            "{}",
            json!({
                "type": "result",
                "k": tuned.k,
                "training_positions": tuned.training,
                "held_out_positions": tuned.held_out,
                "training_error": [tuned.start_training_error, train_end],
                "held_out_error": [tuned.start_held_out_error, held_end],
                "changes": changes.iter().map(|(n, a, b)| json!({"weight": n, "from": a, "to": b})).collect::<Vec<_>>(),
                "params": tuned.params.to_rust(),
                "seconds": started.elapsed().as_secs_f64(),
            })
        )?;
    } else {
        writeln!(
            out,
            "{} positions ({} held out, by game), K {:.3}: error {:.6} -> {:.6}, held out {:.6} -> {:.6}, {:.1} s",
            tuned.training + tuned.held_out,
            tuned.held_out,
            tuned.k,
            tuned.start_training_error,
            train_end,
            tuned.start_held_out_error,
            held_end,
            started.elapsed().as_secs_f64()
        )?;
        for (name, before, after) in &changes {
            writeln!(out, "  {name}: {before} -> {after}")?;
        }
        writeln!(
            out,
            "the weights (copy each changed value into its line of the eval_params! table in src/engine/eval.rs):"
        )?;
        writeln!(out, "{}", tuned.params.to_rust())?;
    }
    Ok(())
}

/// `kibitz tune net`: the data, the network file, how to train.
#[derive(Args, Debug)]
pub struct NetArgs {
    /// Data files, as `tune selfplay` writes them (one or more).
    #[arg(long, num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    /// The network file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Passes over the data.
    #[arg(long, default_value_t = 30)]
    pub epochs: u32,
    /// Weight of the search's score in the target, 0-1 (the rest: the game's result).
    #[arg(long, default_value_t = 0.75)]
    pub lambda: f32,
    /// Adam's step size (a tenth of it for the last third of the epochs).
    #[arg(long, default_value_t = 0.001)]
    pub learning_rate: f32,
    /// Positions per step.
    #[arg(long, default_value_t = 4096)]
    pub batch: usize,
    /// Threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Seed of the starting weights and the order of the positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also learn from left-right mirror images of half the positions.
    #[arg(long)]
    pub mirror: bool,
    /// One output for every position instead of one per material stage
    /// (eight, chosen by the number of pieces).
    #[arg(long)]
    pub one_output: bool,
    /// Start from this network (a file `tune net` wrote, or builtin)
    /// instead of random weights: fine-tuning it on new games. Epoch 0 is
    /// the network as it was, kept if no epoch predicts the held-out games
    /// better.
    #[arg(long, conflicts_with = "one_output")]
    pub init: Option<String>,
    #[command(flatten)]
    pub output: JsonFlag,
}

impl NetArgs {
    /// The training the flags ask for.
    fn options(&self) -> crate::tune::net::TrainOptions {
        crate::tune::net::TrainOptions {
            epochs: self.epochs,
            batch: self.batch,
            learning_rate: self.learning_rate,
            lambda: self.lambda,
            threads: self.threads.unwrap_or_else(cores),
            seed: self.seed,
            mirror: self.mirror,
            one_output: self.one_output,
            init: None,
        }
    }
}

/// Train the evaluation network on self-play data and write it to `out`.
pub fn net(args: &NetArgs, out: &mut dyn Write) -> Result<(), CliError> {
    use crate::tune::net::{Epoch, read_data, train};
    let mut options = args.options();
    if let Some(init) = &args.init {
        options.init = Some(
            crate::engine::nnue::choose(init)
                .map_err(|e| CliError::BadInput(format!("--init: {e}")))?
                .ok_or_else(|| {
                    CliError::BadInput(
                        "--init: the hand-written evaluation is not a network to start from".into(),
                    )
                })?,
        );
    }
    let options = &options;
    in_range("--threads", options.threads, 1..=256)?;
    in_range("--epochs", options.epochs, 1..=10_000)?;
    in_range("--lambda", options.lambda, 0.0..=1.0)?;
    if !(options.learning_rate > 0.0 && options.learning_rate <= 1.0) {
        return Err(CliError::BadInput(format!(
            "--learning-rate {} is out of range (0, 1]",
            options.learning_rate
        )));
    }
    in_range("--batch", options.batch, 1..=1_000_000)?;
    if args.data.is_empty() {
        return Err(CliError::BadInput("--data: give at least one file".into()));
    }
    // The network started from is an input too: never written over.
    let init_file = args
        .init
        .as_deref()
        .filter(|name| Path::new(name).exists())
        .map(Path::new);
    let inputs: Vec<&Path> = args
        .data
        .iter()
        .map(std::path::PathBuf::as_path)
        .chain(init_file)
        .collect();
    check_output(&args.out, &inputs).map_err(CliError::BadInput)?;
    let started = Instant::now();
    let mut samples = Vec::new();
    for path in &args.data {
        read_data(path, &mut samples).map_err(|e| CliError::BadInput(e.to_string()))?;
    }
    let read_seconds = started.elapsed().as_secs_f64();
    let json_output = args.output.json;
    let mut report = |epoch: &Epoch| {
        let line = if json_output {
            json!({
                "type": "epoch",
                "epoch": epoch.number,
                "learning_rate": epoch.learning_rate,
                "training_error": epoch.training_error,
                "held_out_error": epoch.held_out_error,
                "seconds": started.elapsed().as_secs_f64(),
            })
            .to_string()
        } else {
            format!(
                "epoch {:>3}  rate {:.5}  error {:.6}  held out {}  {:.0} s",
                epoch.number,
                epoch.learning_rate,
                epoch.training_error,
                error_text(epoch.held_out_error),
                started.elapsed().as_secs_f64()
            )
        };
        let _ = writeln!(out, "{line}");
    };
    let trained =
        train(samples, options, &mut report).map_err(|e| CliError::BadInput(e.to_string()))?;
    let network = trained.net.quantize();
    write_user_file(&args.out, network.to_bytes()).map_err(CliError::BadInput)?;
    let seconds = started.elapsed().as_secs_f64();
    if args.output.json {
        writeln!(
            out,
            "{}",
            json!({
                "type": "result",
                "training_positions": trained.training,
                "held_out_positions": trained.held_out,
                "sigma": trained.sigma,
                "rounding_error_cp": trained.rounding_error,
                "kept_epoch": trained.best_epoch,
                "held_out_error": trained.epochs.iter().find(|e| e.number == trained.best_epoch).map(|e| e.held_out_error),
                "classical_held_out_error": trained.classical_held_out_error,
                "read_seconds": read_seconds,
                "seconds": seconds,
                "out": args.out.display().to_string(),
            })
        )?;
    } else {
        let kept = if trained.held_out == 0 {
            format!(
                "none held out: every {every}th game is, and the data has fewer than {every} games, so there is no held-out error; kept the last epoch, {}",
                trained.best_epoch,
                every = crate::tune::net::HELD_OUT_EVERY,
            )
        } else {
            format!(
                "{} held out, by game; kept epoch {}, held out error {} (the hand-written evaluation's: {})",
                trained.held_out,
                trained.best_epoch,
                error_text(
                    trained
                        .epochs
                        .iter()
                        .find(|e| e.number == trained.best_epoch)
                        .map_or(f64::NAN, |e| e.held_out_error)
                ),
                error_text(trained.classical_held_out_error),
            )
        };
        writeln!(
            out,
            "{} positions ({kept}), sigma {:.0} cp; integer network within {:.1} cp of the float one on average, read in {:.1} s, {:.1} s in all -> {}",
            trained.training + trained.held_out,
            trained.sigma,
            trained.rounding_error,
            read_seconds,
            seconds,
            args.out.display()
        )?;
    }
    Ok(())
}

/// An error for the text output: six decimals, or "-" when there is none
/// (nothing held out).
fn error_text(error: f64) -> String {
    if error.is_nan() {
        "-".to_string()
    } else {
        format!("{error:.6}")
    }
}
