//! A chapter as one Markdown file, for teachers (`kibitz learn --export N
//! FILE`): its pages with the figures filled in, each lesson with the
//! command that opens it and what it counted, the exercises with their pass
//! marks, and the summary.

use super::CourseError;
use super::chapter::{Chapter, LessonSource, SUMMARY};
use super::figures::ChapterFigures;

/// The chapter in Markdown, every figure computed from its lesson.
pub fn chapter_markdown(
    chapter: &Chapter,
    figures: &ChapterFigures,
) -> Result<String, CourseError> {
    let mut out = format!("# Chapter {}: {}\n\n", chapter.number, chapter.title);
    let (summary, pages) = match chapter.pages.split_last() {
        Some((last, rest)) if last.title == SUMMARY => (Some(last), rest),
        _ => (None, &chapter.pages[..]),
    };
    for page in pages {
        out.push_str(&format!(
            "## {}\n\n{}\n\n",
            page.title,
            figures.fill(&page.text)?
        ));
    }
    out.push_str("## Lessons\n\n");
    for (i, (lesson, counted)) in chapter.lessons.iter().zip(&figures.lessons).enumerate() {
        out.push_str(&format!("### Lesson {}: {}\n\n", i + 1, lesson.name));
        if !lesson.about.is_empty() {
            out.push_str(&format!("{}\n\n", figures.fill(&lesson.about)?));
        }
        out.push_str(&format!("```sh\n{}\n```\n\n", lesson.command()));
        if lesson.switches.iter().any(|s| s == "aspiration") {
            out.push_str("With aspiration windows (the course's lesson switches them on).\n\n");
        }
        let what = match lesson.source {
            LessonSource::Tree(_) => "leaves evaluated",
            LessonSource::Position { .. } => "positions evaluated",
        };
        let count = crate::teach::values::count_text;
        let cutoffs = match counted.cutoffs {
            1 => "1 cutoff".to_string(),
            n => format!("{} cutoffs", count(n)),
        };
        out.push_str(&format!(
            "- value {}, best move {}\n- {} nodes, {} {what}, {cutoffs}, {} steps to step through\n",
            counted.value,
            counted.best,
            count(counted.nodes),
            count(counted.leaves),
            count(counted.steps),
        ));
        if let Some(mark) = lesson.exercise {
            out.push_str(&format!(
                "- exercise: step through it in predict mode (`P`); {mark}% right answers pass\n"
            ));
        }
        out.push('\n');
    }
    if let Some(summary) = summary {
        out.push_str(&format!(
            "## {}\n\n{}\n",
            summary.title,
            figures.fill(&summary.text)?
        ));
    }
    Ok(out)
}
