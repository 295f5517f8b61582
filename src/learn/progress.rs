//! What the learner has done: the page reached, each exercise's best score,
//! the chapters done. Kept in the data folder as `course.json` (versioned),
//! written through `fsutil::write_atomic`, so the course resumes where the
//! learner stopped. A file that cannot be read is never lost: it is moved
//! aside, to `course.damaged-SECONDS.json` beside it, and the learner told
//! where it went; the course then starts again from the first chapter.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::chapter::Chapter;

/// The file's name in the data folder.
pub const FILE: &str = "course.json";
/// The version this program writes and reads.
pub const VERSION: u32 = 1;

/// The learner's progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Progress {
    pub version: u32,
    /// The chapter and page to resume at (chapter from 1, page from 0).
    pub chapter: usize,
    pub page: usize,
    /// The best score of each exercise tried.
    #[serde(default)]
    pub scores: Vec<Score>,
}

/// One exercise's best score: predict mode's count of answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Score {
    pub chapter: usize,
    /// The lesson's number in its chapter, from 1.
    pub lesson: usize,
    pub right: u32,
    pub wrong: u32,
    pub skipped: u32,
}

impl Score {
    /// Right answers as a share of the questions, per cent (rounded
    /// down, so a pass is never rounded into being). A skipped question
    /// counts as not right: skipping must not pay.
    pub fn percent(&self) -> u32 {
        let asked = self.right + self.wrong + self.skipped;
        if asked == 0 {
            return 0;
        }
        (u64::from(self.right) * 100 / u64::from(asked)) as u32
    }
}

impl Default for Progress {
    fn default() -> Progress {
        Progress {
            version: VERSION,
            chapter: 1,
            page: 0,
            scores: Vec::new(),
        }
    }
}

/// The progress file in `data_dir`.
pub fn path(data_dir: &Path) -> PathBuf {
    data_dir.join(FILE)
}

impl Progress {
    /// The progress kept in `data_dir`, and what went wrong reading it (a
    /// missing file is the start of the course, no problem). A damaged file
    /// is moved aside and the message says where.
    pub fn load(data_dir: &Path) -> (Progress, Option<String>) {
        let file = path(data_dir);
        let text = match crate::fsutil::read_text_capped(
            &file,
            crate::fsutil::MAX_STATE_BYTES,
            "the course's progress",
        ) {
            Ok(text) => text,
            Err(e) if e.is_not_found() => return (Progress::default(), None),
            Err(e) => return (Progress::default(), Some(aside(&file, &e.why.to_string()))),
        };
        match Progress::parse(&text) {
            Ok(progress) => (progress, None),
            Err(why) => (Progress::default(), Some(aside(&file, &why))),
        }
    }

    /// Progress from the file's text, checked.
    pub fn parse(text: &str) -> Result<Progress, String> {
        let progress: Progress =
            serde_json::from_str(text).map_err(|e| format!("not the course's progress: {e}"))?;
        if progress.version != VERSION {
            return Err(format!(
                "version {} of the progress file; this kibitz reads version {VERSION}",
                progress.version
            ));
        }
        if !(1..=super::chapter::COUNT).contains(&progress.chapter) {
            return Err(format!("there is no chapter {}", progress.chapter));
        }
        Ok(progress)
    }

    /// Write the progress to `data_dir`.
    pub fn save(&self, data_dir: &Path) -> Result<(), String> {
        let file = path(data_dir);
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        crate::fsutil::write_atomic(&file, text + "\n")
            .map_err(|e| format!("cannot write {}: {e}", file.display()))
    }

    /// Keep a score: an exercise's best one stays.
    pub fn record(&mut self, score: Score) {
        match self
            .scores
            .iter_mut()
            .find(|s| (s.chapter, s.lesson) == (score.chapter, score.lesson))
        {
            Some(kept) if kept.percent() >= score.percent() => {}
            Some(kept) => *kept = score,
            None => self.scores.push(score),
        }
    }

    /// The best score of an exercise, if it was tried.
    pub fn score(&self, chapter: usize, lesson: usize) -> Option<Score> {
        self.scores
            .iter()
            .find(|s| (s.chapter, s.lesson) == (chapter, lesson))
            .copied()
    }

    /// Whether the exercise passed its mark.
    pub fn passed(&self, chapter: usize, lesson: usize, mark: u32) -> bool {
        self.score(chapter, lesson)
            .is_some_and(|s| s.right + s.wrong + s.skipped > 0 && s.percent() >= mark)
    }

    /// A chapter is done when every one of its exercises passed.
    pub fn done(&self, chapter: &Chapter) -> bool {
        chapter
            .exercises()
            .all(|(n, l)| self.passed(chapter.number, n, l.exercise.unwrap_or(100)))
    }
}

/// Move a damaged file aside; the message says where it went, or why it
/// stays (the next save then replaces it, and the message says that too).
fn aside(file: &Path, why: &str) -> String {
    match crate::fsutil::keep_damaged(file, "course") {
        Ok(target) => format!(
            "course progress kept as {} ({why}); starting the course again",
            target.display()
        ),
        Err(e) => format!(
            "{}: {why}; it could not be moved aside ({e}) and the next save replaces it",
            file.display()
        ),
    }
}
