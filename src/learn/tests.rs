use super::chapter::{self, COUNT, SUMMARY};
use super::figures::{self, placeholders};
use super::progress::{self, Progress, Score};
use super::*;

/// A page's text, as the course screen shows it, fits this many rows of
/// this many columns (80 x 24 with the lesson pane); a longer one scrolls.
const ROWS: usize = 14;
const COLUMNS: usize = 76;

#[test]
fn the_nine_chapters_read_in_the_course_order() {
    assert_eq!(chapter::problems(), &[] as &[CourseError]);
    let titles: Vec<&str> = chapters().iter().map(|c| c.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Game trees and minimax",
            "Alpha-beta",
            "Move ordering",
            "The transposition table",
            "Quiescence and the horizon effect",
            "Iterative deepening and aspiration windows",
            "Principal-variation search",
            "Selective search",
            "Evaluation",
        ]
    );
    assert_eq!(chapters().len(), COUNT);
}

#[test]
fn every_chapter_has_pages_lessons_an_exercise_and_a_summary() {
    for c in chapters() {
        assert!(
            (2..=4).contains(&c.lessons.len()),
            "chapter {} has {} lessons",
            c.number,
            c.lessons.len()
        );
        assert!(
            c.exercises().count() >= 1,
            "chapter {} has no exercise",
            c.number
        );
        assert!(
            c.pages.len() >= 3,
            "chapter {}: two pages and a summary",
            c.number
        );
        assert_eq!(c.pages.last().map(|p| p.title.as_str()), Some(SUMMARY));
        // Textbook trees first, then chess positions.
        let first_chess = c
            .lessons
            .iter()
            .position(|l| !matches!(l.source, LessonSource::Tree(_)))
            .unwrap_or(c.lessons.len());
        assert!(
            c.lessons[first_chess..]
                .iter()
                .all(|l| !matches!(l.source, LessonSource::Tree(_))),
            "chapter {}: a game tree after a chess position",
            c.number
        );
        for l in &c.lessons {
            assert!(
                !l.about.is_empty(),
                "chapter {}: {} says nothing",
                c.number,
                l.name
            );
        }
    }
}

/// The rule that keeps typed figures out of the texts: outside a
/// placeholder and a `code span`, a chapter's prose holds no digit at all
/// (a figure is a placeholder; a move, a FEN, a tree or a command is code);
/// and no code span is a bare number (a figure dressed up as code).
const SPELLED: [&str; 13] = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve",
];
const COUNTED: [&str; 16] = [
    "ply",
    "plies",
    "node",
    "nodes",
    "leaf",
    "leaves",
    "cutoff",
    "cutoffs",
    "evaluations",
    "iterations",
    "steps",
    "hits",
    "re-searches",
    "positions",
    "deep",
    "ahead",
];

fn typed_figures(text: &str) -> Vec<String> {
    let mut bare = String::new();
    let mut last = 0;
    for (range, _) in placeholders(text) {
        bare.push_str(&text[last..range.start]);
        bare.push(' ');
        last = range.end;
    }
    bare.push_str(&text[last..]);
    let mut found = Vec::new();
    for (i, piece) in bare.split('`').enumerate() {
        let code = i % 2 == 1;
        let number = piece
            .trim()
            .trim_start_matches(['+', '-'])
            .trim_end_matches('%')
            .replace([',', '.'], "");
        // A key to press is no figure: "key `2`".
        let a_key = i > 0
            && bare
                .split('`')
                .nth(i - 1)
                .is_some_and(|before| before.trim_end().ends_with("key"));
        if code && !a_key && !number.is_empty() && number.chars().all(|c| c.is_ascii_digit()) {
            found.push(format!("`{piece}`"));
        }
        if !code {
            // A number in words before what a lesson counts is a figure too.
            let words: Vec<&str> = piece.split_whitespace().collect();
            for pair in words.windows(2) {
                let number = pair[0].to_lowercase();
                let counted = pair[1].trim_end_matches([',', '.', ':', ';', ')']);
                if SPELLED.contains(&number.as_str()) && COUNTED.contains(&counted) {
                    found.push(pair.join(" "));
                }
            }
            found.extend(
                piece
                    .split_whitespace()
                    .filter(|word| word.chars().any(|c| c.is_ascii_digit()))
                    .map(str::to_string),
            );
        }
    }
    found
}

#[test]
fn the_rule_finds_a_typed_figure_and_passes_placeholders_and_code() {
    assert_eq!(typed_figures("minimax looks at 9 leaves"), ["9"]);
    assert_eq!(typed_figures("a value of `3`"), ["`3`"]);
    assert!(typed_figures("key `2` switches it").is_empty());
    assert_eq!(typed_figures("it wins (+3.20)"), ["(+3.20)"]);
    assert_eq!(
        typed_figures("Three plies deep, four leaves."),
        ["Three plies", "four leaves."]
    );
    assert!(typed_figures("{{lesson 1: leaves}} leaves of `((3 12 8))`, after `Kd3`").is_empty());
}

#[test]
fn no_chapter_types_a_figure() {
    for c in chapters() {
        let texts = c
            .pages
            .iter()
            .map(|p| (p.title.as_str(), p.text.as_str()))
            .chain(
                c.lessons
                    .iter()
                    .map(|l| (l.name.as_str(), l.about.as_str())),
            );
        for (title, text) in texts {
            let typed = typed_figures(&format!("{title} {text}"));
            assert!(typed.is_empty(), "{}, {title}: typed {typed:?}", c.file);
        }
    }
}

#[test]
fn every_lesson_records_and_every_placeholder_resolves() {
    for c in chapters() {
        let figures = figures::of_chapter(c).unwrap_or_else(|e| panic!("{e}"));
        for page in &c.pages {
            let filled = figures
                .fill(&page.text)
                .unwrap_or_else(|e| panic!("{}: {e}", c.file));
            assert!(!filled.contains("{{"), "{}: {filled}", c.file);
        }
        for l in &c.lessons {
            figures
                .fill(&l.about)
                .unwrap_or_else(|e| panic!("{}: {e}", c.file));
        }
    }
}

/// How many rows `line` takes broken between words at `width` columns.
fn rows_of(line: &str, width: usize) -> usize {
    let mut rows = 1;
    let mut used = 0;
    for word in line.split_whitespace() {
        let w = word.chars().count();
        if used > 0 && used + 1 + w > width {
            rows += 1;
            used = w;
        } else {
            used += w + usize::from(used > 0);
        }
    }
    rows
}

#[test]
fn every_page_fits_the_course_screen() {
    for c in chapters() {
        let figures = figures::of_chapter(c).unwrap_or_else(|e| panic!("{e}"));
        for page in &c.pages {
            let filled = figures.fill(&page.text).unwrap_or_default();
            let rows: usize = filled.lines().map(|line| rows_of(line, COLUMNS)).sum();
            assert!(rows <= ROWS, "{}, {}: {rows} rows", c.file, page.title);
        }
    }
}

#[test]
fn a_placeholder_that_names_nothing_is_an_error() {
    let figures = ChapterFigures {
        chapter: 1,
        lessons: vec![LessonFigures {
            value: "3".into(),
            best: "B".into(),
            depth: 2,
            nodes: 13,
            main_nodes: 13,
            quiescence_nodes: 0,
            leaves: 9,
            cutoffs: 0,
            first_move_cutoffs: 0,
            table_hits: 0,
            table_cutoffs: 0,
            steps: 40,
            iterations: 1,
            re_searches: 0,
        }],
    };
    assert_eq!(
        figures
            .fill("value {{lesson 1: value}}, {{lesson 1: leaves}} leaves")
            .as_deref(),
        Ok("value 3, 9 leaves")
    );
    assert_eq!(
        figures
            .fill("{{lesson 1: leaves as a share of lesson 1}}")
            .as_deref(),
        Ok("100%")
    );
    assert!(figures.fill("{{lesson 2: leaves}}").is_err());
    assert!(figures.fill("{{lesson 1: leafs}}").is_err());
    assert!(figures.fill("{{leaves}}").is_err());
}

#[test]
fn the_export_states_the_figures_of_its_lessons() {
    let c = chapter::chapter(5).unwrap_or_else(|e| panic!("{e}"));
    let figures = figures::of_chapter(c).unwrap_or_else(|e| panic!("{e}"));
    let text = export::chapter_markdown(c, &figures).unwrap_or_else(|e| panic!("{e}"));
    assert!(text.starts_with("# Chapter 5: Quiescence and the horizon effect\n"));
    assert!(!text.contains("{{"));
    // Without quiescence the one-ply search takes the pawn; with it, not.
    assert_eq!(figures.lessons[0].best, "Qxd7");
    assert_ne!(figures.lessons[1].best, "Qxd7");
    assert!(text.contains("Its verdict: Qxd7, worth +"), "{text}");
    assert!(text.contains(
        "kibitz teach --fen '3q4/3p4/8/6k1/8/8/8/3QK3 w - - 0 1' --depth 1 --no-quiescence"
    ));
    assert!(text.ends_with("positions full of captures.\n"), "{text}");
}

#[test]
fn a_score_passes_its_mark_rounded_down_and_the_best_is_kept() {
    let score = |right, wrong, skipped| Score {
        chapter: 2,
        lesson: 1,
        right,
        wrong,
        skipped,
    };
    assert_eq!(score(2, 1, 0).percent(), 66);
    assert_eq!(score(0, 0, 0).percent(), 0);
    // Skipping is not right.
    assert_eq!(score(3, 0, 3).percent(), 50);
    let mut progress = Progress::default();
    progress.record(score(3, 2, 0));
    progress.record(score(1, 4, 0));
    assert_eq!(progress.score(2, 1), Some(score(3, 2, 0)));
    assert!(progress.passed(2, 1, 60));
    assert!(!progress.passed(2, 1, 61));
    let two = chapter::chapter(2).unwrap_or_else(|e| panic!("{e}"));
    assert!(!progress.done(two), "one exercise of two passed");
    for (n, l) in two.exercises() {
        progress.record(Score {
            lesson: n,
            ..score(l.exercise.unwrap_or(100), 0, 0)
        });
    }
    assert!(progress.done(two));
}

#[test]
fn progress_survives_a_restart_and_a_damaged_file_is_kept_aside() {
    let dir = std::env::temp_dir().join(format!("kibitz-course-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (fresh, problem) = Progress::load(&dir);
    assert_eq!((fresh.clone(), problem), (Progress::default(), None));
    let mut progress = Progress {
        chapter: 3,
        page: 2,
        ..fresh
    };
    progress.record(Score {
        chapter: 1,
        lesson: 1,
        right: 4,
        wrong: 1,
        skipped: 0,
    });
    progress.save(&dir).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(Progress::load(&dir), (progress, None));
    std::fs::write(progress::path(&dir), "{\"version\": 1, \"chapter\": ").unwrap_or_default();
    let (again, problem) = Progress::load(&dir);
    assert_eq!(again, Progress::default());
    let problem = problem.unwrap_or_default();
    assert!(problem.starts_with("course progress kept as "), "{problem}");
    let kept: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(
        std::fs::read_to_string(&kept[0]).unwrap_or_default(),
        "{\"version\": 1, \"chapter\": "
    );
    assert!(problem.contains(&kept[0].display().to_string()));
    // A newer version's file is not this one's to read, nor to replace.
    std::fs::write(
        progress::path(&dir),
        "{\"version\": 2, \"chapter\": 1, \"page\": 0}",
    )
    .unwrap_or_default();
    let (_, problem) = Progress::load(&dir);
    assert!(problem.unwrap_or_default().contains("version 2"));
    let _ = std::fs::remove_dir_all(&dir);
}
