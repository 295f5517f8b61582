//! The course screen (`kibitz learn`, `:course` in teach mode): a chapter's
//! pages, with its figures computed from its lessons, and the lessons to
//! open in teach mode. An exercise lesson opens with predict mode on; at
//! the end of its search the answers are scored against the pass mark and
//! kept in the data folder's `course.json`, with the page reached, so the
//! course resumes where the learner stopped.

use std::path::Path;
use std::time::Instant;

use ratatui::Frame;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use crate::learn::{self, Chapter, LessonSource, Progress, Score};
use crate::tui::overlays::course::{CourseKey, CourseView};
use crate::tui::overlays::{Overlay, popup};
use crate::tui::shared::{Shared, Tone};
use crate::tui::theme::Theme;

use super::Teach;
use super::predict::Predict;

/// The key line at the foot of the screen, longest first.
const KEY_LINES: [&str; 2] = [
    " ←→ page · ↑↓ scroll · [ ] chapter · 1-4 open a lesson · Esc back to teach mode",
    " ←→ page · ↑↓ scroll · [ ] chapter · 1-4 lesson · Esc back",
];

/// Predict mode's answers so far: right, wrong, skipped. The one place
/// the course reads predict mode's score.
pub fn answers(predict: &Predict) -> (u32, u32, u32) {
    let score = predict.score;
    (score.right, score.wrong, score.skipped)
}

/// A lesson of the course open in teach mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CourseLesson {
    pub chapter: usize,
    /// From 1.
    pub lesson: usize,
    /// The exercise's pass mark, per cent.
    pub mark: Option<u32>,
    /// The score is kept already (the end was reached).
    pub scored: bool,
}

/// The course screen, drawn over teach mode.
pub struct CourseScreen<'a>(pub &'a CourseView);

impl CourseScreen<'_> {
    /// The page's text in rows of `width`, its figures filled in (or the
    /// reason they could not be).
    pub fn rows(&self, width: usize) -> Vec<String> {
        let Some(chapter) = self.0.chapter() else {
            return Vec::new();
        };
        let Some(page) = chapter.pages.get(self.0.progress.page) else {
            return Vec::new();
        };
        let text = match learn::figures::of_chapter(chapter).and_then(|f| f.fill(&page.text)) {
            Ok(text) => text,
            Err(e) => format!("The figures of this page could not be computed: {e}"),
        };
        let mut rows = Vec::new();
        for line in text.replace('`', "").lines() {
            match line.strip_prefix("- ") {
                Some(item) => {
                    for (i, row) in super::caption::wrap(item, width.saturating_sub(2)).into_iter().enumerate() {
                        rows.push(format!("{}{row}", if i == 0 { "• " } else { "  " }));
                    }
                }
                None if line.trim().is_empty() => rows.push(String::new()),
                None => rows.extend(super::caption::wrap(line, width)),
            }
        }
        rows
    }

    pub fn draw(&self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let Some(chapter) = self.0.chapter() else {
            return;
        };
        let title = format!(
            "Course · chapter {} of {}: {}",
            chapter.number,
            learn::chapter::COUNT,
            chapter.title
        );
        let inner = popup(frame, area, area.width, area.height, &title, theme);
        let width = usize::from(inner.width.saturating_sub(2));
        let dim = Style::default().fg(theme.dim);
        let page = chapter.pages.get(self.0.progress.page);
        let mut lines = vec![Line::styled(
            crate::tui::widgets::fit(
                &format!(
                    " Page {} of {}: {}",
                    self.0.progress.page + 1,
                    chapter.pages.len(),
                    page.map_or("", |p| p.title.as_str())
                ),
                width + 1,
            ),
            Style::default().add_modifier(Modifier::BOLD),
        )];
        // The lesson pane: a heading and a row a lesson.
        let pane = chapter.lessons.len() + 1;
        let room = usize::from(inner.height).saturating_sub(1 + 1 + pane + 1);
        let rows = self.rows(width);
        let first = self.0.scroll.min(rows.len().saturating_sub(room.max(1)));
        let more = rows.len() > first + room;
        let shown = if more { room.saturating_sub(1) } else { room };
        for row in rows.iter().skip(first).take(shown) {
            lines.push(Line::from(format!(" {row}")));
        }
        if more {
            lines.push(Line::styled(" … ↓ (j) for the rest of the page", dim));
        }
        while lines.len() < 1 + room {
            lines.push(Line::from(""));
        }
        lines.push(Line::from(""));
        lines.push(Line::styled(
            " Lessons (the digit opens one in teach mode):",
            Style::default().fg(theme.accent),
        ));
        for (i, lesson) in chapter.lessons.iter().enumerate() {
            let kind = match lesson.source {
                LessonSource::Tree(_) => "tree",
                LessonSource::Position { .. } => "chess",
            };
            let score = lesson.exercise.map(|mark| {
                match self.0.progress.score(chapter.number, i + 1) {
                    Some(s) if s.percent() >= mark => {
                        format!(" · exercise: {}% passed", s.percent())
                    }
                    Some(s) => format!(" · exercise: {}%, {mark}% passes", s.percent()),
                    None => format!(" · exercise, {mark}% passes"),
                }
            });
            lines.push(Line::from(crate::tui::widgets::fit(
                &format!(
                    " {} {} ({kind}){}",
                    i + 1,
                    lesson.name,
                    score.unwrap_or_default()
                ),
                width + 1,
            )));
        }
        let keys = KEY_LINES
            .iter()
            .find(|k| k.chars().count() <= usize::from(inner.width))
            .unwrap_or(&KEY_LINES[1]);
        let foot = Rect::new(inner.x, inner.bottom().saturating_sub(1), inner.width, 1);
        frame.render_widget(Paragraph::new(lines), inner);
        frame.render_widget(Paragraph::new(Line::styled(*keys, dim)), foot);
    }
}

/// The progress in the data folder, and a damaged file's fate.
fn load(cx: &Shared) -> (Progress, Option<String>) {
    match &cx.services.dirs {
        Some(dirs) => Progress::load(&dirs.data),
        None => (Progress::default(), None),
    }
}

fn save(cx: &mut Shared, progress: &Progress) {
    let Some(data) = cx.services.dirs.as_ref().map(|d| d.data.clone()) else {
        return;
    };
    if let Err(why) = progress.save(Path::new(&data)) {
        cx.say(why, Tone::Error);
    }
}

impl Teach {
    /// `:course`: the course screen, where the learner stopped.
    pub fn open_course(&mut self, cx: &mut Shared) {
        self.score_exercise(cx);
        let (progress, problem) = load(cx);
        cx.overlay = Overlay::Course(Box::new(CourseView {
            progress,
            scroll: 0,
        }));
        if let Some(problem) = problem {
            cx.say(problem, Tone::Error);
        }
    }

    /// A key on the course screen.
    pub(super) fn course_key(&mut self, cx: &mut Shared, mut view: CourseView, key: KeyEvent, now: Instant) {
        match view.key(key) {
            CourseKey::Keep => cx.overlay = Overlay::Course(Box::new(view)),
            CourseKey::Moved => {
                save(cx, &view.progress);
                cx.overlay = Overlay::Course(Box::new(view));
            }
            CourseKey::Close => {}
            CourseKey::Open(n) => {
                if let Some(chapter) = view.chapter() {
                    self.open_lesson(cx, chapter, n, now);
                }
            }
        }
    }

    /// Open lesson `n` of `chapter` in teach mode: its search recorded,
    /// its note above the captions, predict mode on for an exercise.
    fn open_lesson(&mut self, cx: &mut Shared, chapter: &Chapter, n: usize, now: Instant) {
        let Some(lesson) = chapter.lessons.get(n - 1) else {
            return;
        };
        self.score_exercise(cx);
        self.setup = lesson.setup();
        self.title = lesson.name.clone();
        self.description = None;
        self.note = Some(
            learn::figures::of_chapter(chapter)
                .and_then(|f| f.fill(&lesson.about))
                .unwrap_or_else(|_| lesson.about.clone()),
        );
        self.predict = Predict {
            on: lesson.exercise.is_some(),
            ..Predict::default()
        };
        self.course = Some(CourseLesson {
            chapter: chapter.number,
            lesson: n,
            mark: lesson.exercise,
            scored: false,
        });
        self.rerecord(cx, now);
        let text = match lesson.exercise {
            Some(mark) => format!(
                "Exercise: predict each step (→ asks); {mark}% right passes, scored at the end."
            ),
            None => format!("Lesson: {}; :course goes back to the course.", lesson.name),
        };
        cx.say(text, Tone::Info);
    }

    /// Keep an exercise's score once its search has been stepped to the
    /// end (a score of part of the search would let a learner stop after
    /// a lucky start): the best score of each exercise is kept.
    pub(super) fn score_exercise(&mut self, cx: &mut Shared) {
        let Some(lesson) = self.course else {
            return;
        };
        let (Some(mark), false) = (lesson.mark, lesson.scored) else {
            return;
        };
        let at_end = self
            .ready()
            .is_some_and(|(replay, step)| step.applied >= replay.len());
        let (right, wrong, skipped) = answers(&self.predict);
        if !at_end || right + wrong + skipped == 0 {
            return;
        }
        let score = Score {
            chapter: lesson.chapter,
            lesson: lesson.lesson,
            right,
            wrong,
            skipped,
        };
        let (mut progress, _) = load(cx);
        progress.record(score);
        save(cx, &progress);
        self.course = Some(CourseLesson {
            scored: true,
            ..lesson
        });
        let verdict = if score.percent() >= mark { "passed" } else { "not passed yet" };
        cx.say(
            format!(
                "Exercise: {right} of {} right ({}%); {mark}% passes: {verdict}. :course goes on.",
                right + wrong + skipped,
                score.percent()
            ),
            Tone::Info,
        );
    }
}
