//! `kibitz tune spsa`: the search's parameters tuned in self-play games
//! (`tune/spsa.rs` explains the method); `kibitz tune match`: two sets of
//! them played against each other, to check what a run found.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use clap::Args;
use serde_json::json;

use super::CliError;
use super::flags::{JsonFlag, RunFile, cores, in_range};
use crate::engine::nnue::Network;
use crate::engine::params::{SearchParams, TUNABLE};
use crate::tune::spsa::{
    SpsaOptions, SpsaState, match_score, opening, play, play_pair, probe, update,
};

/// The state file is rewritten after this many game pairs.
const SAVE_EVERY: u64 = 20;
/// The nodes a move `--nodes` accepts.
const NODES: std::ops::RangeInclusive<u64> = 100..=10_000_000;

// The flags `tune spsa` and `tune match` share: how many game pairs at
// once, which seed, which evaluation. (No doc comment: clap would take it
// for both commands' about text.)
#[derive(Args, Debug)]
pub struct GameFlags {
    /// Game pairs played at once (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Seed of the openings (and of SPSA's nudges): the same seed on one
    /// thread plays the same games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The evaluation both sides play with: builtin (the shipped network,
    /// as the engine plays), handwritten, or a network file.
    #[arg(long, default_value = "builtin")]
    pub eval: String,
}

impl GameFlags {
    /// `--threads`, by default one per core, checked.
    fn threads(&self) -> Result<usize, CliError> {
        let threads = self.threads.unwrap_or_else(cores);
        in_range("--threads", threads, 1..=256)?;
        Ok(threads)
    }

    /// `--eval`'s network (None: the hand-written evaluation).
    fn network(&self) -> Result<Option<std::sync::Arc<Network>>, CliError> {
        crate::engine::nnue::choose(&self.eval)
            .map_err(|e| CliError::BadInput(format!("--eval: {e}")))
    }
}

/// `kibitz tune spsa`: how long, which parameters, from where.
#[derive(Args, Debug)]
pub struct SpsaArgs {
    /// Game pairs to play (SPSA iterations; two games each).
    #[arg(long, default_value_t = 2000)]
    pub iterations: u64,
    /// Nodes each side searches a move.
    #[arg(long, default_value_t = 10_000)]
    pub nodes: u64,
    /// The parameters to tune, comma-separated (default: every one that is
    /// not 0, that is off; `--list` names them).
    #[arg(long)]
    pub params: Option<String>,
    /// Start from these values (`name=value,...`, as the run prints them)
    /// instead of the engine's.
    #[arg(long)]
    pub start: Option<String>,
    /// The learning rate at the end of the run, in steps per game pair.
    #[arg(long, default_value_t = 0.002)]
    pub learning_rate: f64,
    #[command(flatten)]
    pub games: GameFlags,
    /// Write the run's state here as it goes (JSON), so a stopped run can
    /// go on with `--start`.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// List the parameters, their values and ranges, and stop.
    #[arg(long)]
    pub list: bool,
    #[command(flatten)]
    pub output: JsonFlag,
}

/// The tuned parameters' indices from `--params`; without it, every
/// parameter that is on at the start (0 switches ProbCut and the
/// reduction switches off, and turning a rule on is a head-to-head's
/// question, not a step's).
fn tuned(names: Option<&str>, start: &SearchParams) -> Result<Vec<usize>, CliError> {
    let Some(names) = names else {
        return Ok((0..TUNABLE.len())
            .filter(|&i| (TUNABLE[i].get)(start) != 0)
            .collect());
    };
    let mut tuned = Vec::new();
    for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let index = TUNABLE.iter().position(|t| t.name == name).ok_or_else(|| {
            CliError::BadInput(format!(
                "--params: no search parameter is called `{name}` (`kibitz tune spsa --list` names them)"
            ))
        })?;
        if !tuned.contains(&index) {
            tuned.push(index);
        }
    }
    if tuned.is_empty() {
        return Err(CliError::BadInput("--params names no parameter".into()));
    }
    Ok(tuned)
}

/// The state as JSON: where the run is and each tuned value, unrounded.
fn state_json(args: &SpsaArgs, options: &SpsaOptions, state: &SpsaState, seconds: f64) -> String {
    let values: serde_json::Map<String, serde_json::Value> = options
        .tuned
        .iter()
        .zip(&state.theta)
        .map(|(&i, &v)| {
            (
                TUNABLE[i].name.to_string(),
                json!((v * 100.0).round() / 100.0),
            )
        })
        .collect();
    json!({
        "type": "spsa",
        "iterations": state.iterations,
        "of": args.iterations,
        "nodes": args.nodes,
        "seed": args.games.seed,
        "learning_rate": args.learning_rate,
        "plus_wins": state.plus[0],
        "draws": state.plus[1],
        "plus_losses": state.plus[2],
        "seconds": (seconds * 10.0).round() / 10.0,
        "values": values,
        "start": state.params(options).changed().join(","),
    })
    .to_string()
}

pub fn run(
    args: &SpsaArgs,
    stop: Option<std::sync::Arc<AtomicBool>>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let mut start = SearchParams::default();
    if let Some(pairs) = &args.start {
        start
            .apply(pairs)
            .map_err(|e| CliError::BadInput(format!("--start: {e}")))?;
    }
    if args.list {
        for t in TUNABLE {
            writeln!(
                out,
                "{:<20} {:>5}  range {}..={}  step {}{}",
                t.name,
                (t.get)(&start),
                t.min,
                t.max,
                t.step,
                if (t.get)(&start) == t.default {
                    String::new()
                } else {
                    format!("  (the engine's: {})", t.default)
                }
            )?;
        }
        return Ok(());
    }
    in_range("--iterations", args.iterations, 1..=10_000_000)?;
    in_range("--nodes", args.nodes, NODES)?;
    if !(args.learning_rate > 0.0 && args.learning_rate <= 1.0) {
        return Err(CliError::BadInput(format!(
            "--learning-rate {} is out of range (0, 1]",
            args.learning_rate
        )));
    }
    let threads = args.games.threads()?;
    if let Some(path) = &args.out {
        crate::fsutil::check_output(path, &[]).map_err(CliError::BadInput)?;
    }
    let network = args.games.network()?;
    let options = SpsaOptions {
        iterations: args.iterations,
        nodes: args.nodes,
        tuned: tuned(args.params.as_deref(), &start)?,
        start,
        learning_rate: args.learning_rate,
        seed: args.games.seed,
        network,
    };
    let stopped = || stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
    let started = Instant::now();
    let show_progress = std::io::stderr().is_terminal() && !args.output.json;
    // The state and the next iteration to hand out.
    let shared = Mutex::new((SpsaState::new(&options), 1u64));
    let file = RunFile::new(args.out.as_deref());
    let save = |state: &SpsaState| {
        if args.out.is_some() {
            file.save(state_json(args, &options, state, started.elapsed().as_secs_f64()) + "\n");
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let planned = {
                        let Ok(mut guard) = shared.lock() else { break };
                        let (state, next) = &mut *guard;
                        if *next > options.iterations || stopped() {
                            break;
                        }
                        let planned = probe(&options, state, *next);
                        *next += 1;
                        planned
                    };
                    let games = play_pair(&options, &planned, &stopped);
                    // A pair cut short by a stop is not a result.
                    if stopped() {
                        break;
                    }
                    let Ok(mut guard) = shared.lock() else { break };
                    let (state, _) = &mut *guard;
                    update(&options, state, &planned, games);
                    if state.iterations % SAVE_EVERY == 0 {
                        save(state);
                    }
                    if show_progress {
                        eprint!(
                            "\rpair {}/{}  +{} ={} -{}  {:.0} s   ",
                            state.iterations,
                            options.iterations,
                            state.plus[0],
                            state.plus[1],
                            state.plus[2],
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
    let (state, _) = shared
        .into_inner()
        .map_err(|_| CliError::BadInput("a tuning thread failed".into()))?;
    save(&state);
    file.finish()?;
    let seconds = started.elapsed().as_secs_f64();
    let stopped_early = state.iterations < args.iterations;
    // A stop keeps what was played: the state so far is printed (and
    // saved), then the exit code says the run did not finish.
    let stopped_error = || {
        CliError::Stopped(format!(
            "stopped: {} of {} game pairs played{}",
            state.iterations,
            args.iterations,
            args.out.as_ref().map_or(String::new(), |p| format!(
                "; {} holds the state",
                p.display()
            ))
        ))
    };
    if args.output.json {
        writeln!(out, "{}", state_json(args, &options, &state, seconds))?;
        return if stopped_early {
            Err(stopped_error())
        } else {
            Ok(())
        };
    }
    let tuned = state.params(&options);
    writeln!(
        out,
        "{} game pairs at {} nodes a move in {:.0} s{}; the nudged-up side +{} ={} -{}",
        state.iterations,
        args.nodes,
        seconds,
        if stopped_early { " (stopped)" } else { "" },
        state.plus[0],
        state.plus[1],
        state.plus[2]
    )?;
    for (&i, &value) in options.tuned.iter().zip(&state.theta) {
        let t = &TUNABLE[i];
        writeln!(
            out,
            "{:<20} {:>5} -> {:>5}  ({value:.1})",
            t.name,
            (t.get)(&options.start),
            (t.get)(&tuned)
        )?;
    }
    writeln!(out, "--start {}", tuned.changed().join(","))?;
    if stopped_early {
        return Err(stopped_error());
    }
    Ok(())
}

/// `kibitz tune match`: two parameter sets, how many pairs, how deep.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The first side's parameters (`name=value,...`; default: the
    /// engine's own).
    #[arg(long, default_value = "")]
    pub a: String,
    /// The second side's parameters (default: the engine's own).
    #[arg(long, default_value = "")]
    pub b: String,
    /// Game pairs to play (each opening twice, each side White once).
    #[arg(long, default_value_t = 500)]
    pub pairs: u64,
    /// Nodes each side searches a move.
    #[arg(long, default_value_t = 10_000)]
    pub nodes: u64,
    #[command(flatten)]
    pub games: GameFlags,
    #[command(flatten)]
    pub output: JsonFlag,
}

pub fn run_match(
    args: &MatchArgs,
    stop: Option<std::sync::Arc<AtomicBool>>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let side = |flag: &str, pairs: &str| {
        let mut params = SearchParams::default();
        params
            .apply(pairs)
            .map(|()| params)
            .map_err(|e| CliError::BadInput(format!("{flag}: {e}")))
    };
    let (a, b) = (side("--a", &args.a)?, side("--b", &args.b)?);
    in_range("--pairs", args.pairs, 1..=10_000_000)?;
    in_range("--nodes", args.nodes, NODES)?;
    let threads = args.games.threads()?;
    let network = args.games.network()?;
    let stopped = || stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
    let started = Instant::now();
    let show_progress = std::io::stderr().is_terminal() && !args.output.json;
    let next = std::sync::atomic::AtomicU64::new(0);
    // Each pair's points for A (0..=2), A's wins, draws and losses, and
    // the pairs whose two games were move for move the same.
    let results = Mutex::new((Vec::new(), [0u64; 3], 0u64));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= args.pairs || stopped() {
                        break;
                    }
                    let start = opening(
                        crate::core::Rng::for_item(args.games.seed, index + 1),
                        network.as_deref(),
                    );
                    let a_white = play(&a, &b, &start, args.nodes, network.as_deref(), &stopped);
                    let b_white = play(&b, &a, &start, args.nodes, network.as_deref(), &stopped);
                    if stopped() {
                        break;
                    }
                    let (first, second) = (a_white.score, 1.0 - b_white.score);
                    let Ok(mut guard) = results.lock() else { break };
                    let (pairs, wdl, same) = &mut *guard;
                    pairs.push(first + second);
                    *same += u64::from(a_white.moves == b_white.moves);
                    for game in [first, second] {
                        wdl[if game > 0.75 {
                            0
                        } else if game > 0.25 {
                            1
                        } else {
                            2
                        }] += 1;
                    }
                    if show_progress {
                        let m = match_score(pairs);
                        eprint!(
                            "\rpair {}/{}  +{} ={} -{}  {:+.0} Elo   ",
                            pairs.len(),
                            args.pairs,
                            wdl[0],
                            wdl[1],
                            wdl[2],
                            m.elo
                        );
                    }
                }
            });
        }
    });
    if show_progress {
        eprintln!();
    }
    let (pairs, wdl, same) = results
        .into_inner()
        .map_err(|_| CliError::BadInput("a match thread failed".into()))?;
    if pairs.is_empty() {
        return Err(CliError::Stopped(
            "stopped before a game pair was played".into(),
        ));
    }
    let m = match_score(&pairs);
    let round = |x: f64| (x * 10.0).round() / 10.0;
    let stopped_early = (pairs.len() as u64) < args.pairs;
    if args.output.json {
        writeln!(
            out,
            "{}",
            json!({
                "type": "match",
                "a": a.changed().join(","),
                "b": b.changed().join(","),
                "pairs": pairs.len(),
                "nodes": args.nodes,
                "wins": wdl[0],
                "draws": wdl[1],
                "losses": wdl[2],
                "score": (m.score * 10_000.0).round() / 10_000.0,
                "elo": round(m.elo),
                "elo_low": round(m.low),
                "elo_high": round(m.high),
                "same_games": same,
                "seconds": round(started.elapsed().as_secs_f64()),
            })
        )?;
    } else {
        let name = |p: &SearchParams| {
            let changed = p.changed();
            if changed.is_empty() {
                "the engine's".to_string()
            } else {
                changed.join(",")
            }
        };
        writeln!(
            out,
            "A ({}) against B ({}): +{} ={} -{} in {} games at {} nodes a move, {:.1}%, {:+.0} Elo (95%: {:+.0} to {:+.0}){}",
            name(&a),
            name(&b),
            wdl[0],
            wdl[1],
            wdl[2],
            pairs.len() * 2,
            args.nodes,
            m.score * 100.0,
            m.elo,
            m.low,
            m.high,
            if stopped_early { " (stopped)" } else { "" }
        )?;
        // Two settings that play the same moves score exactly level: say
        // so, or "+0 Elo (95%: +0 to +0)" would read as a measured tie.
        if same == pairs.len() as u64 && a == b {
            writeln!(
                out,
                "A and B are the same settings: they played the same moves in every game."
            )?;
        } else if same == pairs.len() as u64 {
            writeln!(
                out,
                "Both played the same moves in every game: at {} nodes a move the difference never changed a move.",
                args.nodes
            )?;
        } else if same > 0 {
            writeln!(
                out,
                "{same} of the {} pairs were the same game with either setting.",
                pairs.len()
            )?;
        }
    }
    if stopped_early {
        return Err(CliError::Stopped(format!(
            "stopped: {} of {} game pairs played; the score above is theirs",
            pairs.len(),
            args.pairs
        )));
    }
    Ok(())
}
