//! `kibitz train`'s questions in lines of text: each due position with its
//! board (from the side to move's view), the question, and the answers
//! checked; `h` hint, `s` solution, `t` the search lesson's command, `q`
//! quit. Every answer is saved at once, so a quit, the end of the input or
//! Ctrl-C loses nothing.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError};
use shakmaty::{Chess, Position};

use super::CliError;
use crate::game::describe::{diagram, side_name};
use crate::game::notation::{parse_move, parse_uci, san_line};
use crate::train::schedule::{self, Schedule};
pub use crate::train::until;
use crate::train::{Exercise, Kind, check, lesson};

/// How often the wait for a line looks at the Ctrl-C flag.
const POLL: Duration = Duration::from_millis(100);

const KEYS: &str = "a move (SAN or UCI), h hint, s solution, t lesson, q quit";

/// What ended a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// Every position served, or `q`.
    Done,
    /// The input ended.
    Eof,
    /// Ctrl-C.
    Stopped,
}

enum Input {
    Line(String),
    Eof,
    Stopped,
}

/// How one position went.
enum Served {
    Next,
    Quit(Ended),
}

pub struct Session<'a> {
    pub schedule: Schedule,
    pub data: PathBuf,
    pub lines: Receiver<String>,
    pub stop: Arc<AtomicBool>,
    pub out: &'a mut dyn Write,
    pub solved: usize,
    pub failed: usize,
}

impl Session<'_> {
    fn say(&mut self, text: impl AsRef<str>) -> Result<(), CliError> {
        writeln!(self.out, "{}", text.as_ref())?;
        Ok(())
    }

    fn read(&mut self) -> Result<Input, CliError> {
        self.out.flush()?;
        loop {
            if self.stop.load(Ordering::Relaxed) {
                return Ok(Input::Stopped);
            }
            match self.lines.recv_timeout(POLL) {
                Ok(line) => return Ok(Input::Line(line)),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Ok(Input::Eof),
            }
        }
    }

    /// Serve the cards `queue` (indices into the schedule) in order.
    pub fn run(&mut self, queue: &[usize]) -> Result<Ended, CliError> {
        for (n, &index) in queue.iter().enumerate() {
            if let Served::Quit(how) = self.serve(n + 1, queue.len(), index)? {
                return Ok(how);
            }
        }
        Ok(Ended::Done)
    }

    /// Record the answer to card `index` and save at once.
    fn record(&mut self, index: usize, solved: bool) {
        self.schedule.record(index, solved, schedule::now());
        if solved {
            self.solved += 1;
        } else {
            self.failed += 1;
        }
        if let Err(e) = self.schedule.save(&self.data) {
            eprintln!("warning: the answer is not saved: {e}");
        }
    }

    fn serve(&mut self, n: usize, total: usize, index: usize) -> Result<Served, CliError> {
        let Some(card) = self.schedule.cards.get(index) else {
            return Ok(Served::Next);
        };
        let exercise = card.exercise.clone();
        let position = match check::position(&exercise).and_then(|p| {
            check::solution_move(&exercise)?;
            Ok(p)
        }) {
            Ok(position) => position,
            Err(e) => {
                self.say(format!("[{n}/{total}] skipped ({}): {e}", exercise.source))?;
                return Ok(Served::Next);
            }
        };
        self.say(format!(
            "\n[{n}/{total}] {} · {}",
            exercise.kind.name(),
            exercise.source
        ))?;
        if !exercise.line.is_empty() {
            self.say(format!("after {}", numbered_line(&exercise.line, 1, true)))?;
        }
        let board = diagram(&position, position.turn().is_black());
        self.say(board.trim_end())?;
        self.say(format!(
            "{} to move. {}",
            side_name(position.turn()),
            question(&exercise, &position)
        ))?;
        let mut recorded = false;
        let mut hints = 0;
        loop {
            self.say(format!("your answer ({KEYS}):"))?;
            let typed = match self.read()? {
                Input::Line(line) => line,
                Input::Eof => return Ok(Served::Quit(Ended::Eof)),
                Input::Stopped => return Ok(Served::Quit(Ended::Stopped)),
            };
            match typed.trim() {
                "" => {}
                "q" | "quit" => return Ok(Served::Quit(Ended::Done)),
                "h" | "hint" => {
                    hints += 1;
                    match check::hint(&exercise, hints).ok().flatten() {
                        Some(hint) if !recorded => {
                            self.say(format!(
                                "hint: {hint} (with a hint the position counts as not solved)"
                            ))?;
                            self.record(index, false);
                            recorded = true;
                        }
                        Some(hint) => self.say(format!("hint: {hint}"))?,
                        None => self.say("no more hints: s shows the solution")?,
                    }
                }
                "s" | "solution" => {
                    self.say(format!("solution: {}", solution_text(&exercise, &position)))?;
                    if !recorded {
                        self.record(index, false);
                    }
                    return Ok(Served::Next);
                }
                "t" | "lesson" => {
                    let depth = lesson::depth(&exercise);
                    self.say(format!(
                        "the search lesson of this position: {}",
                        lesson::teach_command(&exercise, depth)
                    ))?;
                }
                text => {
                    let m = match parse_move(&position, text) {
                        Ok(m) => m,
                        Err(e) => {
                            self.say(super::printable(&e.to_string()))?;
                            continue;
                        }
                    };
                    let verdict = match check::check(&exercise, m) {
                        Ok(verdict) => verdict,
                        Err(e) => {
                            self.say(e.to_string())?;
                            continue;
                        }
                    };
                    if verdict.right {
                        let first = !recorded;
                        if first {
                            self.record(index, true);
                        }
                        let when = if first {
                            format!("; it comes back {}", due_text(&self.schedule, index))
                        } else {
                            String::new()
                        };
                        self.say(format!("right: {}{when}", verdict.reason))?;
                        self.say(format!("the line: {}", solution_text(&exercise, &position)))?;
                        return Ok(Served::Next);
                    }
                    self.say(format!("not right: {}", verdict.reason))?;
                    if !recorded {
                        self.record(index, false);
                        recorded = true;
                        self.say("it comes back tomorrow; try again, or h for a hint, s for the solution")?;
                    }
                }
            }
        }
    }
}

/// When card `index` is due next, in words.
fn due_text(schedule: &Schedule, index: usize) -> String {
    schedule.cards.get(index).map_or(String::new(), |card| {
        until(card.due.saturating_sub(schedule::now()))
    })
}

/// What is asked.
fn question(exercise: &Exercise, position: &Chess) -> String {
    match exercise.kind {
        Kind::Mistake => {
            let played = exercise
                .played
                .as_deref()
                .and_then(|m| parse_uci(position, m).ok())
                .map(|m| san_line(position, &[m]).join(""));
            match played {
                Some(san) => format!("Find a better move than {}.", numbered(position, &san)),
                None => "Find a better move than the one played.".to_string(),
            }
        }
        Kind::Puzzle => match &exercise.theme {
            Some(theme) => format!("{} to play and win ({theme}).", side_name(position.turn())),
            None => format!("{} to play and win.", side_name(position.turn())),
        },
        Kind::Repertoire => "Your move in the repertoire.".to_string(),
    }
}

/// A move with its number as written: `12. Nf3` / `12... Nf6`.
fn numbered(position: &Chess, san: &str) -> String {
    let dots = if position.turn().is_white() {
        "."
    } else {
        "..."
    };
    format!("{}{dots} {san}", position.fullmoves())
}

/// The solution line, numbered from the position.
fn solution_text(exercise: &Exercise, position: &Chess) -> String {
    numbered_line(
        &exercise.solution_san,
        position.fullmoves().get(),
        position.turn().is_white(),
    )
}

/// SAN moves numbered from move `number`, the first by White or not.
fn numbered_line(moves: &[String], number: u32, white_first: bool) -> String {
    let mut out = Vec::new();
    let mut number = number;
    let mut white = white_first;
    for (i, san) in moves.iter().enumerate() {
        if white {
            out.push(format!("{number}. {san}"));
        } else if i == 0 {
            out.push(format!("{number}... {san}"));
        } else {
            out.push(san.clone());
        }
        if !white {
            number += 1;
        }
        white = !white;
    }
    out.join(" ")
}

#[cfg(test)]
mod tests;
