//! The figures a chapter's text states, computed from its lessons: each
//! lesson is recorded once (the very search teach mode replays) and a
//! placeholder `{{lesson N: FIGURE}}` in the text is replaced by that
//! lesson's figure. A figure is never typed into a text, so editing a
//! lesson (another tree, another depth) cannot leave a wrong number behind.
//!
//! The figures: `value` (the root's value: a plain number on a game tree,
//! pawns or a mate on a chess position), `best` (the move chosen), `depth`,
//! `plies` (the depth in words: "1 ply", "3 plies"), `re-searches`,
//! `nodes`, `main nodes`, `quiescence nodes`, `leaves` (positions
//! evaluated), `cutoffs`, `first-move cutoffs`, `table hits`, `table
//! cutoffs`, `steps` (of the replay) and `iterations`; and a share of
//! another lesson's count, `{{lesson 2: nodes as a share of lesson 1}}`
//! ("37%").

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

use super::CourseError;
use super::chapter::{Chapter, Lesson, LessonSource};
use crate::teach::Recording;

/// What one lesson's recording counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LessonFigures {
    pub value: String,
    pub best: String,
    pub depth: u64,
    pub nodes: u64,
    pub main_nodes: u64,
    pub quiescence_nodes: u64,
    pub leaves: u64,
    pub cutoffs: u64,
    pub first_move_cutoffs: u64,
    pub table_hits: u64,
    pub table_cutoffs: u64,
    pub steps: u64,
    pub iterations: u64,
    /// Moves searched again with a wider window (PVS, reductions).
    pub re_searches: u64,
}

/// The figures of every lesson of a chapter, in lesson order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChapterFigures {
    pub chapter: usize,
    pub lessons: Vec<LessonFigures>,
}

impl LessonFigures {
    /// The counts of a recording.
    pub fn of(recording: &Recording, tree: bool) -> LessonFigures {
        let totals = &recording.stats.totals;
        let (value, best) = if tree {
            // A game tree's values are plain numbers from MAX's view.
            (
                recording.value.to_string(),
                recording
                    .best_move
                    .map(|m| recording.setup.root_move_name(m))
                    .unwrap_or_default(),
            )
        } else {
            (
                crate::teach::values::value_text(recording.value, 0),
                recording
                    .best_move
                    .map(|m| crate::teach::caption::san(&recording.setup.position, m))
                    .unwrap_or_default(),
            )
        };
        LessonFigures {
            value,
            best,
            depth: u64::from(recording.setup.depth),
            nodes: totals.nodes(),
            main_nodes: totals.main,
            quiescence_nodes: totals.quiescence,
            leaves: totals.leaves,
            cutoffs: totals.beta_cutoffs,
            first_move_cutoffs: totals.first_move_cutoffs,
            table_hits: totals.tt_hits,
            table_cutoffs: totals.tt_cutoffs,
            steps: recording.events.len() as u64,
            iterations: recording.stats.iterations.len().max(1) as u64,
            re_searches: recording
                .events
                .iter()
                .filter(|e| matches!(e, crate::engine::trace::TraceEvent::ReSearch { .. }))
                .count() as u64,
        }
    }

    /// A count by its name in a placeholder.
    fn count(&self, name: &str) -> Option<u64> {
        Some(match name {
            "depth" => self.depth,
            "nodes" => self.nodes,
            "main nodes" => self.main_nodes,
            "quiescence nodes" => self.quiescence_nodes,
            "leaves" => self.leaves,
            "cutoffs" => self.cutoffs,
            "first-move cutoffs" => self.first_move_cutoffs,
            "table hits" => self.table_hits,
            "table cutoffs" => self.table_cutoffs,
            "steps" => self.steps,
            "iterations" => self.iterations,
            "re-searches" => self.re_searches,
            _ => return None,
        })
    }
}

/// Record a lesson's search, as teach mode would.
pub fn record(lesson: &Lesson) -> Result<Recording, String> {
    crate::teach::record(&lesson.setup(), crate::teach::MAX_EVENTS, &|| false)
        .map_err(|e| e.to_string())
}

/// Every lesson of `chapter` recorded and counted. Kept once computed: a
/// recording is the same every time (one thread, a fresh table).
pub fn of_chapter(chapter: &Chapter) -> Result<Arc<ChapterFigures>, CourseError> {
    static DONE: OnceLock<Mutex<BTreeMap<usize, Arc<ChapterFigures>>>> = OnceLock::new();
    let done = DONE.get_or_init(Default::default);
    if let Some(found) = done
        .lock()
        .ok()
        .and_then(|d| d.get(&chapter.number).cloned())
    {
        return Ok(found);
    }
    let lessons = chapter
        .lessons
        .iter()
        .enumerate()
        .map(|(i, lesson)| {
            record(lesson)
                .map(|recording| {
                    let tree = matches!(lesson.source, LessonSource::Tree(_));
                    LessonFigures::of(&recording, tree)
                })
                .map_err(|why| CourseError::Lesson {
                    chapter: chapter.number,
                    lesson: i + 1,
                    why,
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let figures = Arc::new(ChapterFigures {
        chapter: chapter.number,
        lessons,
    });
    if let Ok(mut done) = done.lock() {
        done.insert(chapter.number, Arc::clone(&figures));
    }
    Ok(figures)
}

/// The placeholders of a text, in order: (byte range, what is inside).
pub fn placeholders(text: &str) -> Vec<(std::ops::Range<usize>, &str)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(start) = text[from..].find("{{").map(|i| i + from) {
        let Some(end) = text[start..].find("}}").map(|i| i + start + 2) else {
            break;
        };
        found.push((start..end, text[start + 2..end - 2].trim()));
        from = end;
    }
    found
}

impl ChapterFigures {
    /// `text` with every placeholder replaced by its figure.
    pub fn fill(&self, text: &str) -> Result<String, CourseError> {
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for (range, inside) in placeholders(text) {
            out.push_str(&text[last..range.start]);
            out.push_str(
                &self
                    .figure(inside)
                    .map_err(|why| CourseError::Placeholder {
                        chapter: self.chapter,
                        why: format!("{{{{{inside}}}}}: {why}"),
                    })?,
            );
            last = range.end;
        }
        out.push_str(&text[last..]);
        Ok(out)
    }

    /// The figure a placeholder names: `lesson N: FIGURE`.
    fn figure(&self, inside: &str) -> Result<String, String> {
        let (lesson, name) = self.lesson_of(inside)?;
        match name {
            "value" => return Ok(lesson.value.clone()),
            "best" => return Ok(lesson.best.clone()),
            "plies" => return Ok(crate::core::counted(lesson.depth, "ply", "plies")),
            _ => {}
        }
        if let Some((name, other)) = name.split_once(" as a share of ") {
            let count = lesson
                .count(name)
                .ok_or(format!("no figure is called {name:?}"))?;
            let (other, _) = self.lesson_of(&format!("{other}: {name}"))?;
            let whole = other.count(name).unwrap_or(0);
            if whole == 0 {
                return Err("a share of nothing".into());
            }
            let share = (count as f64 * 100.0 / whole as f64).round();
            return Ok(format!("{share}%"));
        }
        lesson
            .count(name)
            .map(crate::teach::values::count_text)
            .ok_or(format!("no figure is called {name:?}"))
    }

    /// The lesson and the figure's name of `lesson N: FIGURE`.
    fn lesson_of<'a>(&self, inside: &'a str) -> Result<(&LessonFigures, &'a str), String> {
        let (lesson, name) = inside
            .strip_prefix("lesson ")
            .and_then(|rest| rest.split_once(':'))
            .ok_or("a placeholder reads {{lesson N: figure}}")?;
        let number: usize = lesson
            .trim()
            .parse()
            .map_err(|_| format!("{lesson:?} is not a lesson's number"))?;
        let figures = number
            .checked_sub(1)
            .and_then(|i| self.lessons.get(i))
            .ok_or(format!("the chapter has no lesson {number}"))?;
        Ok((figures, name.trim()))
    }
}
