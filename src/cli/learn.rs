//! `kibitz learn`: the course. Without flags it opens the board on the
//! course screen, where the learner stopped; `--list` lists the chapters
//! with what is done, `--chapter N` prints a chapter, `--export N FILE`
//! writes one as Markdown for teachers.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use serde_json::json;

use super::CliError;
use super::board::{BoardArgs, BoardError};
use crate::learn::{self, Chapter, Progress};

/// `kibitz learn`: the course on how the engine searches, in nine chapters.
#[derive(Args, Debug)]
pub struct LearnArgs {
    /// List the chapters, with the ones done and the one to go on with.
    #[arg(long, conflicts_with_all = ["chapter", "export"])]
    pub list: bool,
    /// Print chapter N (1 to 9): its pages with every figure computed from
    /// its lessons, the lessons with the command that opens each, the
    /// exercises and the summary.
    #[arg(long, value_name = "N", conflicts_with = "export")]
    pub chapter: Option<String>,
    /// Write chapter N as Markdown to FILE (for teachers).
    #[arg(long, num_args = 2, value_names = ["N", "FILE"])]
    pub export: Option<Vec<String>>,
    /// One JSON object a line (with --list and --chapter).
    #[arg(long)]
    pub json: bool,
}

impl LearnArgs {
    /// Whether the course opens on the board (no flag asks for text).
    pub fn opens_board(&self) -> bool {
        !self.list && self.chapter.is_none() && self.export.is_none()
    }

    /// The headless forms: the list, a chapter, an export.
    pub fn run(&self, out: &mut dyn Write) -> Result<(), CliError> {
        let data = crate::config::Dirs::locate().map(|dirs| dirs.data);
        if let Some(words) = &self.export {
            let [number, file] = words.as_slice() else {
                return Err(CliError::BadInput("--export takes N and FILE".into()));
            };
            return export(number, Path::new(file), data.as_deref(), out);
        }
        let progress = load(data.as_deref());
        if let Some(number) = &self.chapter {
            let chapter = chapter_of(number)?;
            return print_chapter(chapter, self.json, out);
        }
        list(&progress, self.json, out)
    }

    /// Open the board on the course.
    pub fn open(&self, board: &BoardArgs, started: Instant) -> Result<Option<i32>, BoardError> {
        super::board::open_course(board, board.load(), started)
    }
}

/// The progress kept, a damaged file's fate said on stderr.
fn load(data: Option<&Path>) -> Progress {
    let Some(data) = data else {
        return Progress::default();
    };
    let (progress, problem) = Progress::load(data);
    if let Some(problem) = problem {
        eprintln!("note: {problem}");
    }
    progress
}

/// Chapter `N` from its word on the command line.
fn chapter_of(number: &str) -> Result<&'static Chapter, CliError> {
    let bad = || {
        CliError::BadInput(format!(
            "there is no chapter {}: the course has chapters 1 to {}",
            crate::text::echo::echo(number, false),
            learn::chapter::COUNT
        ))
    };
    let n: usize = number.trim().parse().map_err(|_| bad())?;
    learn::chapter::chapter(n).map_err(|_| bad())
}

fn list(progress: &Progress, json: bool, out: &mut dyn Write) -> Result<(), CliError> {
    for chapter in learn::chapters() {
        let done = progress.done(chapter);
        let current = progress.chapter == chapter.number;
        let exercises = chapter.exercises().count();
        let passed = chapter
            .exercises()
            .filter(|(n, l)| progress.passed(chapter.number, *n, l.exercise.unwrap_or(100)))
            .count();
        if json {
            writeln!(
                out,
                "{}",
                json!({
                    "chapter": chapter.number,
                    "title": chapter.title,
                    "pages": chapter.pages.len(),
                    "lessons": chapter.lessons.len(),
                    "exercises": exercises,
                    "passed": passed,
                    "done": done,
                    "current": current,
                })
            )?;
        } else {
            let state = match (done, current) {
                (true, _) => "done".to_string(),
                (false, true) => format!("you are here, page {}", progress.page + 1),
                (false, false) if passed > 0 => format!("{passed} of {exercises} exercises passed"),
                _ => String::new(),
            };
            writeln!(
                out,
                "{:>2}  {:<44} {}, {}  {state}",
                chapter.number,
                chapter.title,
                crate::core::counted(chapter.lessons.len() as u64, "lesson", "lessons"),
                crate::core::counted(exercises as u64, "exercise", "exercises"),
            )?;
        }
    }
    if !json {
        writeln!(
            out,
            "kibitz learn opens the course; --chapter N prints a chapter."
        )?;
    }
    Ok(())
}

fn print_chapter(chapter: &Chapter, json: bool, out: &mut dyn Write) -> Result<(), CliError> {
    let figures =
        learn::figures::of_chapter(chapter).map_err(|e| CliError::BadInput(e.to_string()))?;
    if !json {
        let text = learn::export::chapter_markdown(chapter, &figures)
            .map_err(|e| CliError::BadInput(e.to_string()))?;
        write!(out, "{text}")?;
        return Ok(());
    }
    let fill = |text: &str| {
        figures
            .fill(text)
            .map_err(|e| CliError::BadInput(e.to_string()))
    };
    let pages = chapter
        .pages
        .iter()
        .map(|p| Ok(json!({"title": p.title, "text": fill(&p.text)?})))
        .collect::<Result<Vec<_>, CliError>>()?;
    let lessons = chapter
        .lessons
        .iter()
        .zip(&figures.lessons)
        .map(|(l, f)| {
            Ok(json!({
                "name": l.name,
                "about": fill(&l.about)?,
                "command": l.command(),
                "exercise": l.exercise,
                "value": f.value,
                "best": f.best,
                "nodes": f.nodes,
                "leaves": f.leaves,
                "cutoffs": f.cutoffs,
                "steps": f.steps,
            }))
        })
        .collect::<Result<Vec<_>, CliError>>()?;
    writeln!(
        out,
        "{}",
        json!({
            "chapter": chapter.number,
            "title": chapter.title,
            "pages": pages,
            "lessons": lessons,
        })
    )?;
    Ok(())
}

/// `--export N FILE`: checked before the lessons are recorded, never over
/// the progress file, written as the user's file.
fn export(
    number: &str,
    file: &Path,
    data: Option<&Path>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let chapter = chapter_of(number)?;
    let progress_file: Option<PathBuf> = data.map(learn::progress::path);
    let inputs: Vec<&Path> = progress_file.iter().map(PathBuf::as_path).collect();
    crate::fsutil::check_output(file, &inputs).map_err(CliError::BadInput)?;
    let figures =
        learn::figures::of_chapter(chapter).map_err(|e| CliError::BadInput(e.to_string()))?;
    let text = learn::export::chapter_markdown(chapter, &figures)
        .map_err(|e| CliError::BadInput(e.to_string()))?;
    crate::fsutil::write_user_file(file, text).map_err(CliError::BadInput)?;
    writeln!(
        out,
        "chapter {}, {}, written to {}",
        chapter.number,
        chapter.title,
        file.display()
    )?;
    Ok(())
}
