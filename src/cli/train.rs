//! `kibitz train`: the due positions of the training schedule, one at a
//! time, in the terminal; and `review --train`, which puts a review's
//! mistakes and blunders into that schedule.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use clap::Args;
use serde_json::json;
use shakmaty::Color;

use super::CliError;
use super::flags::{JsonFlag, parse_color};
use super::train_session::{Ended, Session, until};
use crate::game::tree::GameTree;
use crate::review::MoveReview;
use crate::review::batch::ReviewedGame;
use crate::train::Exercise;
use crate::train::mistakes::{self, GameSource};
use crate::train::schedule::{self, Schedule};

/// `kibitz train`: serve the due positions, after taking in puzzles or a
/// repertoire if asked; or list the schedule.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Add the puzzles of this file (`kibitz puzzles --json` / `--out`) to the schedule first.
    #[arg(long, value_name = "FILE")]
    pub puzzles: Option<PathBuf>,
    /// Add the positions of this repertoire (PGN or Polyglot book) where --color is to move, and drill them in line order.
    #[arg(long, value_name = "FILE", requires = "color")]
    pub repertoire: Option<PathBuf>,
    /// The side the repertoire is for: white or black.
    #[arg(long, value_parser = parse_color, requires = "repertoire")]
    pub color: Option<Color>,
    /// Print the schedule (due, kind, streak, source) instead of training.
    #[arg(long)]
    pub list: bool,
    #[command(flatten)]
    pub output: JsonFlag,
    /// Serve (or with --list, list) at most N positions.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
}

impl TrainArgs {
    /// Take in what was asked, then list or train, answers read from
    /// stdin; `stop` is set by Ctrl-C.
    pub fn run(&self, stop: Option<Arc<AtomicBool>>, out: &mut dyn Write) -> Result<(), CliError> {
        if self.output.json && !self.list {
            return Err(CliError::BadInput(
                "--json goes with --list (training itself is a conversation)".to_string(),
            ));
        }
        if self.limit == Some(0) {
            return Err(CliError::BadInput("--limit must be 1 or more".to_string()));
        }
        let data = data_dir()?;
        let mut schedule = load(&data);
        let now = schedule::now();
        if let Some(file) = &self.puzzles {
            let text = crate::fsutil::read_text_capped(file, 256 * 1024 * 1024, "the puzzles file")
                .map_err(|e| CliError::BadInput(format!("{}: {}", file.display(), e.why)))?;
            let exercises = crate::train::import::puzzles(&text, file)
                .map_err(|e| CliError::BadInput(e.to_string()))?;
            let counts = mistakes::add_all(&mut schedule, exercises, now);
            save(&mut schedule, &data)?;
            say_added(out, self.output.json, "puzzles", counts)?;
        }
        let mut drill = None;
        if let (Some(file), Some(color)) = (&self.repertoire, self.color) {
            let repertoire = crate::train::repertoire::read(file, color)
                .map_err(|e| CliError::BadInput(e.to_string()))?;
            for warning in &repertoire.warnings {
                eprintln!("warning: {}", super::printable(warning));
            }
            let exercises = repertoire.exercises;
            let keys: Vec<String> = exercises.iter().map(Exercise::key).collect();
            let counts = mistakes::add_all(&mut schedule, exercises, now);
            save(&mut schedule, &data)?;
            say_added(out, self.output.json, "repertoire", counts)?;
            drill = Some(keys);
        }
        if self.list {
            return list(&schedule, now, (self.output.json, self.limit), out);
        }
        let mut queue = match &drill {
            // The repertoire's positions in line order, those due.
            Some(keys) => keys
                .iter()
                .filter_map(|key| {
                    schedule
                        .cards
                        .iter()
                        .position(|c| &c.exercise.key() == key && c.due <= now)
                })
                .collect(),
            None => schedule.due(now),
        };
        if let Some(limit) = self.limit {
            queue.truncate(limit);
        }
        if queue.is_empty() {
            writeln!(out, "{}", nothing_due(&schedule, now))?;
            return Ok(());
        }
        let (sender, lines) = crossbeam_channel::unbounded();
        // Lines are read on a thread of their own, so a Ctrl-C is seen
        // while waiting for one.
        std::thread::spawn(move || {
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stop = stop.unwrap_or_else(|| Arc::new(AtomicBool::new(false)));
        train(schedule, data, &queue, lines, stop, out)
    }
}

/// Serve `queue` and end with the summary; a Ctrl-C is [`CliError::Stopped`].
pub fn train(
    schedule: Schedule,
    data: PathBuf,
    queue: &[usize],
    lines: crossbeam_channel::Receiver<String>,
    stop: Arc<AtomicBool>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    writeln!(
        out,
        "{} to train (SAN or UCI; h hint, s solution, t lesson, q quit)",
        crate::core::counted(queue.len() as u64, "position", "positions")
    )?;
    let mut session = Session {
        schedule,
        data,
        lines,
        stop,
        out,
        solved: 0,
        failed: 0,
    };
    let ended = session.run(queue)?;
    let summary = format!(
        "{} solved, {} failed; next due: {}",
        session.solved,
        session.failed,
        next_due(&session.schedule, schedule::now())
    );
    match ended {
        Ended::Stopped => Err(CliError::Stopped(format!(
            "\nstopped: {summary}; every answer is saved"
        ))),
        Ended::Done | Ended::Eof => {
            writeln!(session.out, "\n{summary}")?;
            Ok(())
        }
    }
}

/// When the next positions are due: "in 2 days (3 positions)", or "now
/// (N positions)" when some are left.
fn next_due(schedule: &Schedule, now: u64) -> String {
    let Some(first) = schedule.cards.iter().map(|c| c.due).min() else {
        return "nothing scheduled".to_string();
    };
    // Those due now, or else those due within a day of the first.
    let (when, by) = if first <= now {
        ("now".to_string(), now + 1)
    } else {
        (until(first - now), first + schedule::DAY)
    };
    let count = schedule.cards.iter().filter(|c| c.due < by).count();
    format!(
        "{when} ({})",
        crate::core::counted(count as u64, "position", "positions")
    )
}

/// What `kibitz train` says when nothing is due.
fn nothing_due(schedule: &Schedule, now: u64) -> String {
    if schedule.cards.is_empty() {
        return "the training schedule is empty: add positions with `kibitz review --pgn FILE --train`, `kibitz train --puzzles FILE` or `kibitz train --repertoire FILE --color white|black`".to_string();
    }
    format!("nothing is due; next due: {}", next_due(schedule, now))
}

fn save(schedule: &mut Schedule, data: &Path) -> Result<(), CliError> {
    schedule
        .save(data)
        .map_err(|e| CliError::Io(std::io::Error::other(e)))
}

fn say_added(
    out: &mut dyn Write,
    json: bool,
    what: &str,
    counts: mistakes::Added,
) -> Result<(), CliError> {
    let already = match counts.already {
        0 => String::new(),
        n => format!(" ({n} already there)"),
    };
    let line = format!(
        "{what}: {} added{already}",
        crate::core::counted(counts.added as u64, "position", "positions")
    );
    if json {
        eprintln!("{line}");
    } else {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// The schedule, soonest due first: a table, or one JSON object a card.
fn list(
    schedule: &Schedule,
    now: u64,
    (json, limit): (bool, Option<usize>),
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let mut order: Vec<usize> = (0..schedule.cards.len()).collect();
    order.sort_by_key(|&i| schedule.cards[i].due);
    order.truncate(limit.unwrap_or(usize::MAX));
    if !json {
        writeln!(out, "{:<14} {:<11} {:>6}  source", "due", "kind", "streak")?;
    }
    for i in order {
        let card = &schedule.cards[i];
        let due = if card.due <= now {
            "now".to_string()
        } else {
            until(card.due - now)
        };
        if json {
            writeln!(
                out,
                "{}",
                json!({
                    "due": card.due,
                    "due_now": card.due <= now,
                    "kind": card.exercise.kind.name(),
                    "source": card.exercise.source,
                    "fen": card.exercise.fen,
                    "solution": card.exercise.solution,
                    "streak": card.streak,
                    "right": card.right,
                    "wrong": card.wrong,
                    "learned": card.learned(),
                })
            )?;
        } else {
            writeln!(
                out,
                "{due:<14} {:<11} {:>6}  {}",
                card.exercise.kind.name(),
                card.streak,
                super::printable(&card.exercise.source)
            )?;
        }
    }
    if !json {
        let counts = schedule.counts(now);
        writeln!(
            out,
            "{}, {} due now, {} learned",
            crate::core::counted(counts.total as u64, "position", "positions"),
            counts.due,
            counts.learned
        )?;
    }
    Ok(())
}

/// The data folder, where the schedule lives.
pub(crate) fn data_dir() -> Result<PathBuf, CliError> {
    crate::config::Dirs::locate()
        .map(|dirs| dirs.data)
        .ok_or_else(|| {
            CliError::BadInput(
                "there is no home folder to keep the training schedule in".to_string(),
            )
        })
}

/// The schedule kept in `data`, a damaged file's fate said on stderr.
pub(crate) fn load(data: &std::path::Path) -> Schedule {
    let (schedule, problem) = Schedule::load(data);
    if let Some(problem) = problem {
        eprintln!("note: {problem}");
    }
    schedule
}

/// The mistakes of game `game` of `pgn`, reviewed (`review --pgn FILE
/// --train`).
pub fn game_mistakes(
    (pgn, game): (&Path, usize),
    tree: &GameTree,
    reviews: &[MoveReview],
) -> Vec<Exercise> {
    let positions: Vec<_> = crate::review::mainline_positions(tree)
        .into_iter()
        .map(|(position, _)| position)
        .collect();
    let tag = |name: &str| tree.headers.get(name).unwrap_or("?").to_string();
    let (white, black) = (tag("White"), tag("Black"));
    let source = GameSource {
        file: pgn,
        game,
        white: &white,
        black: &black,
    };
    mistakes::of_game(reviews, &positions, &source)
}

/// The mistakes of one game of a whole-file review of `pgn` (`--all
/// --train`), only `player`'s where given: the player as the report names
/// them, every spelling it merges (`players` knows the aliases).
pub fn batch_mistakes(
    pgn: &Path,
    game: &ReviewedGame,
    player: Option<&str>,
    players: &crate::review::batch::Players,
) -> Vec<Exercise> {
    let source = GameSource {
        file: pgn,
        game: game.number,
        white: &game.white,
        black: &game.black,
    };
    let keep = |tag: &str, color: shakmaty::Color| {
        player.is_some_and(|name| players.is(name, tag, game.number, color))
    };
    let keep: Option<mistakes::KeepSide> = match player {
        Some(_) => Some(&keep),
        None => None,
    };
    mistakes::of_studies(&game.study, &source, keep)
}

/// Put a review's mistakes into the schedule and save it; say how many
/// were added (on stderr under `--json`, whose output stays the review's).
pub fn schedule_mistakes(
    exercises: Vec<Exercise>,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let data = data_dir()?;
    let mut schedule = load(&data);
    let now = schedule::now();
    let counts = mistakes::add_all(&mut schedule, exercises, now);
    schedule
        .save(&data)
        .map_err(|e| CliError::Io(std::io::Error::other(e)))?;
    let file = schedule::path(&data);
    let already = match counts.already {
        0 => String::new(),
        n => format!(" ({n} already there)"),
    };
    let line = format!(
        "training: {} added{already} to {}; `kibitz train` serves them",
        crate::core::counted(counts.added as u64, "position", "positions"),
        file.display()
    );
    if json {
        eprintln!("{line}");
    } else {
        writeln!(out, "{line}")?;
    }
    Ok(())
}
