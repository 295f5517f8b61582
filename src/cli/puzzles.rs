//! `kibitz puzzles --pgn FILE`: puzzles found in every game of a file
//! (someone's mistake, then one move that wins clearly), games in parallel
//! (one search per thread). Text for people, or one JSON object per puzzle
//! with `--json`; `--out FILE` writes the JSON lines `kibitz train
//! --puzzles` reads. Progress on stderr; a stop (Ctrl-C) keeps the puzzles
//! of the games finished and says so.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::Args;

use super::flags::JsonFlag;
use super::{CliError, printable};
use crate::review::batch;
use crate::train::find::{self, FindOptions, Puzzle};

/// `kibitz puzzles`: the file, the time per position, the threads, where
/// the puzzles go.
#[derive(Args, Debug)]
pub struct PuzzlesArgs {
    /// The PGN file whose games are searched.
    #[arg(long)]
    pub pgn: PathBuf,
    /// Thinking time per position, milliseconds (the scan of each game and
    /// each step of a puzzle's line).
    #[arg(long, default_value_t = 200)]
    pub movetime: u64,
    /// Games searched at once, one search each (default: all cores but one).
    #[arg(long)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub output: JsonFlag,
    /// Write the puzzles here as JSON lines (what `kibitz train --puzzles` reads).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Minutes and seconds: "3m20s".
fn duration_text(d: Duration) -> String {
    let s = d.as_secs();
    match s / 60 {
        0 => format!("{s}s"),
        m => format!("{m}m{:02}s", s % 60),
    }
}

/// Find the puzzles of every game of `args.pgn`. `stop`, set by Ctrl-C,
/// ends the search keeping the games finished.
pub fn run(
    args: &PuzzlesArgs,
    stop: Option<Arc<AtomicBool>>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    if !(1..=60_000).contains(&args.movetime) {
        return Err(CliError::BadInput(format!(
            "movetime {} ms is out of range 1..=60000",
            args.movetime
        )));
    }
    if let Some(threads) = args.threads
        && !(1..=64).contains(&threads)
    {
        return Err(CliError::BadInput(format!(
            "threads {threads} is out of range 1..=64"
        )));
    }
    if let Some(path) = &args.out {
        crate::fsutil::check_output(path, &[&args.pgn]).map_err(CliError::BadInput)?;
    }
    let total = batch::count_games(&args.pgn).map_err(CliError::BadInput)?;
    let threads = args.threads.unwrap_or_else(batch::default_threads);
    let options = FindOptions {
        movetime: Duration::from_millis(args.movetime),
        depth: None,
        hash_mb: super::review::HASH_MB / threads,
    };
    let stop = stop.unwrap_or_else(|| Arc::new(AtomicBool::new(false)));
    let started = Instant::now();
    let mut found: Vec<Puzzle> = Vec::new();
    let mut done = 0;
    let mut write_error = None;
    let read_error = find::find_in_file(&args.pgn, &options, threads, &stop, &mut |game| {
        done += 1;
        for puzzle in &game.puzzles {
            if let Err(e) = report(args, puzzle, out) {
                write_error = Some(e);
                return false;
            }
        }
        found.extend(game.puzzles);
        let minutes = started.elapsed().as_secs_f64() / 60.0;
        eprintln!(
            "{done} of {total} games, {}, {:.1} games a minute",
            crate::core::counted(found.len() as u64, "puzzle", "puzzles"),
            done as f64 / minutes.max(1e-9)
        );
        true
    })
    .map_err(CliError::BadInput)?;
    if let Some(e) = write_error {
        return Err(e);
    }
    if let Some(e) = read_error {
        eprintln!("warning: {}", printable(&e));
    }
    let stopped = stop.load(Ordering::Relaxed);
    if !args.output.json {
        writeln!(
            out,
            "{} in {done} of {total} games, {} on {threads} thread(s), {} ms a position",
            crate::core::counted(found.len() as u64, "puzzle", "puzzles"),
            duration_text(started.elapsed()),
            args.movetime
        )?;
    }
    // Stopped before any game was finished: nothing to write, and an
    // existing file is not replaced by an empty one.
    let out_path = args.out.as_ref().filter(|_| !(stopped && done == 0));
    if let Some(path) = out_path {
        let lines: String = found
            .iter()
            .map(|puzzle| puzzle.to_json_line() + "\n")
            .collect();
        crate::fsutil::write_user_file(path, lines).map_err(CliError::BadInput)?;
        if !args.output.json {
            writeln!(out, "puzzles written to {}", path.display())?;
        }
    }
    if stopped {
        let kept = match (&args.out, out_path) {
            (_, Some(path)) => format!("; {} holds their puzzles", path.display()),
            (Some(path), None) => format!("; {} is not written", path.display()),
            (None, None) => "; the puzzles above are theirs".to_string(),
        };
        return Err(CliError::Stopped(format!(
            "stopped: {done} of {total} games searched{kept}"
        )));
    }
    Ok(())
}

/// One puzzle, as text or as a JSON line.
fn report(args: &PuzzlesArgs, puzzle: &Puzzle, out: &mut dyn Write) -> Result<(), CliError> {
    if args.output.json {
        writeln!(out, "{}", puzzle.to_json_line())?;
        return Ok(());
    }
    let after = if puzzle.after.is_empty() {
        String::new()
    } else {
        format!(", after {}", printable(&puzzle.after))
    };
    writeln!(
        out,
        "game {}, ply {}{after}: {}\n  fen {}\n  solution {}",
        puzzle.game,
        puzzle.ply,
        puzzle.theme.as_deref().unwrap_or("no plain theme"),
        puzzle.fen,
        puzzle.solution_san.join(" ")
    )?;
    Ok(())
}
