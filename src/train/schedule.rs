//! When each exercise comes back: spaced repetition. A position solved
//! comes back after 1 day, then 3, then 7, then every 21; a position failed
//! comes back tomorrow and starts the climb again. Why these steps: each
//! right answer after a longer gap is stronger evidence the position is
//! known, so the gap grows; a failure says it is not, whatever came before.
//!
//! The schedule is the data folder's `train.json` (versioned), written
//! through `fsutil::write_atomic`. It is never lost:
//! - a file that cannot be read is moved aside to
//!   `train.damaged-SECONDS.json` and the player told where; if it cannot
//!   be moved, it is left alone and nothing is saved over it;
//! - a file another kibitz changed since this one read it is read again and
//!   merged (each position keeps its latest answer) before writing.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::Exercise;

/// The file's name in the data folder.
pub const FILE: &str = "train.json";
/// The version this program writes and reads.
pub const VERSION: u32 = 1;
/// The gaps after the first, second, third and later right answers in a
/// row, in days.
pub const INTERVALS_DAYS: [u64; 4] = [1, 3, 7, 21];
/// After a wrong answer: tomorrow.
pub const RETRY_DAYS: u64 = 1;
/// The largest schedule read (a schedule of 10,000 positions is about
/// 4 MB).
const MAX_BYTES: u64 = 256 * 1024 * 1024;

pub const DAY: u64 = 24 * 60 * 60;

/// One scheduled exercise and its history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Card {
    #[serde(flatten)]
    pub exercise: Exercise,
    /// When it was added and when it is next due (Unix seconds).
    pub added: u64,
    pub due: u64,
    /// When it was last answered (Unix seconds), if ever.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last: Option<u64>,
    /// Right answers in a row (which step of the intervals comes next).
    #[serde(default)]
    pub streak: u32,
    #[serde(default)]
    pub right: u32,
    #[serde(default)]
    pub wrong: u32,
}

impl Card {
    /// A new card, due at once.
    pub fn new(exercise: Exercise, now: u64) -> Card {
        Card {
            exercise,
            added: now,
            due: now,
            last: None,
            streak: 0,
            right: 0,
            wrong: 0,
        }
    }

    /// Known: answered right at the longest gap at least once.
    pub fn learned(&self) -> bool {
        self.streak as usize >= INTERVALS_DAYS.len()
    }
}

/// What the file holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    version: u32,
    cards: Vec<Card>,
}

/// The schedule, and what is known of the file it came from.
#[derive(Debug, Clone, Default)]
pub struct Schedule {
    pub cards: Vec<Card>,
    /// The file's text as last read or written: a different text at save
    /// time means another program wrote it since.
    seen: Option<String>,
    /// A damaged file that could not be moved aside: never written over.
    blocked: Option<String>,
}

/// Counts for a summary line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub total: usize,
    pub due: usize,
    pub learned: usize,
}

/// The schedule file in `data_dir`.
pub fn path(data_dir: &Path) -> PathBuf {
    data_dir.join(FILE)
}

fn parse(text: &str) -> Result<Vec<Card>, String> {
    let file: File =
        serde_json::from_str(text).map_err(|e| format!("not a training schedule: {e}"))?;
    if file.version != VERSION {
        return Err(format!(
            "version {} of the training schedule; this kibitz reads version {VERSION}",
            file.version
        ));
    }
    Ok(file.cards)
}

/// The version of a schedule newer than this kibitz reads, if the text is
/// one.
fn newer_version(text: &str) -> Option<u64> {
    #[derive(Deserialize)]
    struct Versioned {
        version: u64,
    }
    serde_json::from_str::<Versioned>(text)
        .ok()
        .map(|v| v.version)
        .filter(|&v| v > u64::from(VERSION))
}

/// How many positions of the schedule in `data_dir` are due at `now`,
/// read without changing anything (a damaged file is left where it is for
/// `Schedule::load` to report); `None` when it cannot be read. For the
/// new-game dialog's Train choice.
pub fn due_count(data_dir: &Path, now: u64) -> Option<usize> {
    let text = match crate::fsutil::read_text_capped(
        &path(data_dir),
        MAX_BYTES,
        "the training schedule",
    ) {
        Ok(text) => text,
        Err(e) if e.is_not_found() => return Some(0),
        Err(_) => return None,
    };
    let cards = parse(&text).ok()?;
    Some(cards.iter().filter(|c| c.due <= now).count())
}

impl Schedule {
    /// The schedule kept in `data_dir`, and what went wrong reading it (a
    /// missing file is an empty schedule, no problem).
    pub fn load(data_dir: &Path) -> (Schedule, Option<String>) {
        let file = path(data_dir);
        let text = match crate::fsutil::read_text_capped(&file, MAX_BYTES, "the training schedule")
        {
            Ok(text) => text,
            Err(e) if e.is_not_found() => return (Schedule::default(), None),
            Err(e) => return Schedule::damaged(&file, &e.why.to_string()),
        };
        // A schedule a newer kibitz wrote is not damaged: it is left where
        // it is, for that kibitz, and nothing is saved over it.
        if let Some(version) = newer_version(&text) {
            let message = format!(
                "{} was written by a newer kibitz (version {version}; this one reads version {VERSION}): left as it is, and training here is not saved",
                file.display()
            );
            return (
                Schedule {
                    blocked: Some(message.clone()),
                    ..Schedule::default()
                },
                Some(message),
            );
        }
        match parse(&text) {
            Ok(cards) => (
                Schedule {
                    cards,
                    seen: Some(text),
                    blocked: None,
                },
                None,
            ),
            Err(why) => Schedule::damaged(&file, &why),
        }
    }

    fn damaged(file: &Path, why: &str) -> (Schedule, Option<String>) {
        match aside(file) {
            Ok(kept) => (
                Schedule::default(),
                Some(format!(
                    "the training schedule was damaged ({why}); kept as {} and starting a new one",
                    kept.display()
                )),
            ),
            Err(e) => {
                let message = format!(
                    "{}: {why}; it could not be moved aside ({e}), so training is not saved until it is moved or mended",
                    file.display()
                );
                (
                    Schedule {
                        blocked: Some(message.clone()),
                        ..Schedule::default()
                    },
                    Some(message),
                )
            }
        }
    }

    /// Add an exercise due now; `false` when the same position of the same
    /// kind is already scheduled (its history stays).
    pub fn add(&mut self, exercise: Exercise, now: u64) -> bool {
        let key = exercise.key();
        if self.cards.iter().any(|c| c.exercise.key() == key) {
            return false;
        }
        self.cards.push(Card::new(exercise, now));
        true
    }

    /// Add many exercises due now (a file of puzzles, a review's
    /// mistakes): the same as [`Schedule::add`] one by one, with the keys
    /// looked up in a set so that 10,000 take milliseconds, not a scan of
    /// the schedule each. Returns how many were added and how many were
    /// there already.
    pub fn add_all(&mut self, exercises: Vec<Exercise>, now: u64) -> (usize, usize) {
        let mut keys: std::collections::HashSet<String> =
            self.cards.iter().map(|c| c.exercise.key()).collect();
        let (mut added, mut already) = (0, 0);
        for exercise in exercises {
            if keys.insert(exercise.key()) {
                self.cards.push(Card::new(exercise, now));
                added += 1;
            } else {
                already += 1;
            }
        }
        (added, already)
    }

    /// The cards due at `now`, the longest overdue first (then in the order
    /// they were added).
    pub fn due(&self, now: u64) -> Vec<usize> {
        let mut due: Vec<usize> = (0..self.cards.len())
            .filter(|&i| self.cards[i].due <= now)
            .collect();
        due.sort_by_key(|&i| self.cards[i].due);
        due
    }

    /// Record an answer to card `index` at `now`.
    pub fn record(&mut self, index: usize, solved: bool, now: u64) {
        let Some(card) = self.cards.get_mut(index) else {
            return;
        };
        card.last = Some(now);
        if solved {
            let step = (card.streak as usize).min(INTERVALS_DAYS.len() - 1);
            card.due = now + INTERVALS_DAYS[step] * DAY;
            card.streak += 1;
            card.right += 1;
        } else {
            card.due = now + RETRY_DAYS * DAY;
            card.streak = 0;
            card.wrong += 1;
        }
    }

    pub fn counts(&self, now: u64) -> Counts {
        Counts {
            total: self.cards.len(),
            due: self.cards.iter().filter(|c| c.due <= now).count(),
            learned: self.cards.iter().filter(|c| c.learned()).count(),
        }
    }

    /// Write the schedule to `data_dir`. Where another kibitz wrote the
    /// file since this one read it, the two are merged first: every
    /// position of either, each with its latest answer.
    pub fn save(&mut self, data_dir: &Path) -> Result<(), String> {
        if let Some(why) = &self.blocked {
            return Err(why.clone());
        }
        let file = path(data_dir);
        match crate::fsutil::read_text_capped(&file, MAX_BYTES, "the training schedule") {
            Ok(text) if self.seen.as_deref() != Some(text.as_str()) => match parse(&text) {
                Ok(theirs) => self.merge(theirs),
                // Damaged since it was read: keep it, as a load would.
                Err(why) => {
                    aside(&file).map_err(|e| {
                        format!(
                            "{}: {why}; not written over (it could not be moved aside: {e})",
                            file.display()
                        )
                    })?;
                }
            },
            Ok(_) => {}
            Err(e) if e.is_not_found() => {}
            Err(e) => return Err(format!("{}: {}", file.display(), e.why)),
        }
        let text = serde_json::to_string(&File {
            version: VERSION,
            cards: self.cards.clone(),
        })
        .map_err(|e| e.to_string())?
            + "\n";
        std::fs::create_dir_all(data_dir)
            .map_err(|e| format!("cannot make {}: {e}", data_dir.display()))?;
        crate::fsutil::write_atomic(&file, &text)
            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
        self.seen = Some(text);
        Ok(())
    }

    /// Take in another copy's cards: new positions are added, and a
    /// position both have keeps the copy answered last.
    fn merge(&mut self, theirs: Vec<Card>) {
        // Keys looked up in a map: two schedules of 10,000 merge at once,
        // not in a scan of ours for each of theirs.
        let mut at: std::collections::HashMap<String, usize> = self
            .cards
            .iter()
            .enumerate()
            .map(|(i, c)| (c.exercise.key(), i))
            .collect();
        for card in theirs {
            match at.get(&card.exercise.key()) {
                Some(&i) if card.last > self.cards[i].last => self.cards[i] = card,
                Some(_) => {}
                None => {
                    at.insert(card.exercise.key(), self.cards.len());
                    self.cards.push(card);
                }
            }
        }
    }
}

/// Move a damaged file aside, never over an earlier kept one.
fn aside(file: &Path) -> std::io::Result<PathBuf> {
    crate::fsutil::keep_damaged(file, "train")
}

/// Seconds since the Unix epoch now.
pub fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests;
