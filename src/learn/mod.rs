//! The course (`kibitz learn`, `:course` in teach mode): nine chapters on
//! how a chess engine searches, in the order a learner needs them, from a
//! hand-made game tree to the evaluation.
//!
//! Each chapter is an editable Markdown file in `assets/course/` ([`chapter`]
//! reads it): a few screen-sized pages of text, two to four lessons (each a
//! recording teach mode replays), predict exercises with a pass mark, and a
//! summary. The texts never type a figure of a lesson: they write a
//! placeholder such as `{{lesson 1: leaves}}`, and [`figures`] fills it in by
//! recording that lesson, so a text cannot drift from what the search does.
//! [`progress`] keeps what the learner has done in the data folder, so the
//! course resumes where it stopped; [`export`] writes a chapter as Markdown
//! for teachers.
//!
//! Nothing here draws: `kibitz learn` and the board's course screen read it.

pub mod chapter;
pub mod export;
pub mod figures;
pub mod progress;

pub use chapter::{Chapter, Lesson, LessonSource, Page, chapters};
pub use figures::{ChapterFigures, LessonFigures};
pub use progress::{Progress, Score};

/// Why a chapter, a lesson or a figure could not be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CourseError {
    /// A chapter file that does not read: a fault of the shipped files,
    /// caught by the tests.
    #[error("{file}: {why}")]
    Chapter { file: String, why: String },
    #[error("there is no chapter {0}: the course has chapters 1 to {max}", max = chapter::COUNT)]
    NoChapter(usize),
    /// A lesson whose search could not be recorded.
    #[error("chapter {chapter}, lesson {lesson}: {why}")]
    Lesson {
        chapter: usize,
        lesson: usize,
        why: String,
    },
    /// A placeholder that names no lesson or no figure.
    #[error("chapter {chapter}: {why}")]
    Placeholder { chapter: usize, why: String },
}

#[cfg(test)]
mod tests;
