//! `kibitz train`: the due positions of the training schedule, one at a
//! time, in the terminal; and `review --train`, which puts a review's
//! mistakes and blunders into that schedule.

use std::io::Write;
use std::path::PathBuf;

use super::CliError;
use super::review::ReviewArgs;
use crate::game::tree::GameTree;
use crate::review::MoveReview;
use crate::review::batch::ReviewedGame;
use crate::train::Exercise;
use crate::train::mistakes::{self, GameSource};
use crate::train::schedule::{self, Schedule};

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

/// The mistakes of one reviewed game (`review --pgn FILE --train`).
pub fn game_mistakes(args: &ReviewArgs, tree: &GameTree, reviews: &[MoveReview]) -> Vec<Exercise> {
    let positions: Vec<_> = crate::review::mainline_positions(tree)
        .into_iter()
        .map(|(position, _)| position)
        .collect();
    let tag = |name: &str| tree.headers.get(name).unwrap_or("?").to_string();
    let (white, black) = (tag("White"), tag("Black"));
    let source = GameSource {
        file: &args.pgn,
        game: args.game,
        white: &white,
        black: &black,
    };
    mistakes::of_game(reviews, &positions, &source)
}

/// The mistakes of one game of a whole-file review (`--all --train`),
/// only `--player`'s where given.
pub fn batch_mistakes(args: &ReviewArgs, game: &ReviewedGame) -> Vec<Exercise> {
    let source = GameSource {
        file: &args.pgn,
        game: game.number,
        white: &game.white,
        black: &game.black,
    };
    mistakes::of_studies(&game.study, &source, args.player.as_deref())
}

/// Put a review's mistakes into the schedule and save it; say how many
/// were added (on stderr under `--json`, whose output stays the review's).
pub fn schedule_mistakes(
    args: &ReviewArgs,
    exercises: Vec<Exercise>,
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
    if args.output.json {
        eprintln!("{line}");
    } else {
        writeln!(out, "{line}")?;
    }
    Ok(())
}
