//! The chapters' files: `assets/course/NN-name.md`, embedded in the
//! program. A file begins with its settings between `+++` lines (TOML: the
//! title, and one `[[lesson]]` table a lesson), then the pages, each
//! beginning with a `## ` heading; the last page is the summary.
//!
//! ```text
//! +++
//! title = "Alpha-beta"
//! [[lesson]]
//! name = "The three-ply tree, pruned"
//! position = "classic tree"  # a lesson of assets/teaching.txt, or tree = "((3 12 8) ...)"
//! exercise = 60        # a predict exercise: pass mark, per cent
//! [[lesson]]
//! name = "A crowded middlegame"
//! position = "move ordering"   # a name of assets/teaching.txt, or fen = "..."
//! depth = 3
//! switches = ["no-ordering"]   # as kibitz teach's flags, without the dashes
//!                              # (and "aspiration", which teach has no flag for)
//! +++
//! ## Cutting the tree
//! ...{{lesson 1: leaves}}...
//! ```

use std::sync::OnceLock;

use serde::Deserialize;
use shakmaty::Chess;

use super::CourseError;
use crate::engine::SearchOptions;
use crate::game::fen::parse_fen;
use crate::teach::GameTree;

/// How many chapters the course has.
pub const COUNT: usize = 9;

/// The chapters' files, in the course's order.
const FILES: [(&str, &str); COUNT] = [
    (
        "01-minimax.md",
        include_str!("../../assets/course/01-minimax.md"),
    ),
    (
        "02-alpha-beta.md",
        include_str!("../../assets/course/02-alpha-beta.md"),
    ),
    (
        "03-move-ordering.md",
        include_str!("../../assets/course/03-move-ordering.md"),
    ),
    (
        "04-transposition-table.md",
        include_str!("../../assets/course/04-transposition-table.md"),
    ),
    (
        "05-quiescence.md",
        include_str!("../../assets/course/05-quiescence.md"),
    ),
    (
        "06-iterative-deepening.md",
        include_str!("../../assets/course/06-iterative-deepening.md"),
    ),
    ("07-pvs.md", include_str!("../../assets/course/07-pvs.md")),
    (
        "08-selective-search.md",
        include_str!("../../assets/course/08-selective-search.md"),
    ),
    (
        "09-evaluation.md",
        include_str!("../../assets/course/09-evaluation.md"),
    ),
];

/// The heading of the page every chapter ends with.
pub const SUMMARY: &str = "Summary";

/// One chapter, as its file says.
#[derive(Debug, Clone, PartialEq)]
pub struct Chapter {
    /// 1 to [`COUNT`].
    pub number: usize,
    /// The file's name in `assets/course/`.
    pub file: &'static str,
    pub title: String,
    pub lessons: Vec<Lesson>,
    /// The pages in order, the summary last; their text still holds the
    /// placeholders ([`super::figures`] fills them in).
    pub pages: Vec<Page>,
}

/// A screen of a chapter's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    pub title: String,
    /// Markdown, with `{{lesson N: figure}}` placeholders.
    pub text: String,
}

/// A lesson: a search to record and replay in teach mode.
#[derive(Debug, Clone, PartialEq)]
pub struct Lesson {
    pub name: String,
    pub source: LessonSource,
    /// Plies; for a game tree, its height.
    pub depth: u32,
    /// The switches as written (`no-alpha-beta`, `pvs`...), for the
    /// command line that opens the lesson.
    pub switches: Vec<String>,
    pub options: SearchOptions,
    /// A predict exercise: the share of right answers, per cent, that
    /// passes it.
    pub exercise: Option<u32>,
    /// One line on what to watch, shown above the lesson's captions.
    pub about: String,
}

/// What a lesson searches.
#[derive(Debug, Clone, PartialEq)]
pub enum LessonSource {
    /// A hand-made game tree, as written in bracket notation.
    Tree(std::sync::Arc<GameTree>),
    /// A chess position (a teaching position's name resolved to its FEN).
    Position { fen: String, position: Chess },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Settings {
    title: String,
    #[serde(default)]
    lesson: Vec<LessonSettings>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LessonSettings {
    name: String,
    tree: Option<String>,
    position: Option<String>,
    fen: Option<String>,
    depth: Option<u32>,
    #[serde(default)]
    switches: Vec<String>,
    exercise: Option<u32>,
    #[serde(default)]
    about: String,
}

/// Every chapter, read once. A file that does not read is left out and
/// its fault kept for [`problems`] (the tests check there is none).
pub fn chapters() -> &'static [Chapter] {
    &read_all().0
}

/// The shipped files' faults, if any.
pub fn problems() -> &'static [CourseError] {
    &read_all().1
}

/// Chapter `number` (1 to [`COUNT`]).
pub fn chapter(number: usize) -> Result<&'static Chapter, CourseError> {
    chapters()
        .iter()
        .find(|c| c.number == number)
        .ok_or(CourseError::NoChapter(number))
}

fn read_all() -> &'static (Vec<Chapter>, Vec<CourseError>) {
    static ALL: OnceLock<(Vec<Chapter>, Vec<CourseError>)> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut chapters = Vec::new();
        let mut problems = Vec::new();
        for (i, (file, text)) in FILES.iter().enumerate() {
            match parse(i + 1, file, text) {
                Ok(chapter) => chapters.push(chapter),
                Err(why) => problems.push(CourseError::Chapter {
                    file: (*file).to_string(),
                    why,
                }),
            }
        }
        (chapters, problems)
    })
}

/// A chapter from its file's text.
pub fn parse(number: usize, file: &'static str, text: &str) -> Result<Chapter, String> {
    let rest = text
        .strip_prefix("+++\n")
        .ok_or("the file does not begin with its settings between +++ lines")?;
    let (settings, body) = rest
        .split_once("\n+++\n")
        .ok_or("the settings have no closing +++ line")?;
    let settings: Settings = toml::from_str(settings).map_err(|e| e.to_string())?;
    let lessons = settings
        .lesson
        .into_iter()
        .enumerate()
        .map(|(i, l)| lesson(l).map_err(|why| format!("lesson {}: {why}", i + 1)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut pages = Vec::new();
    for line in body.lines() {
        if let Some(title) = line.strip_prefix("## ") {
            pages.push(Page {
                title: title.trim().to_string(),
                text: String::new(),
            });
        } else if let Some(page) = pages.last_mut() {
            page.text.push_str(line);
            page.text.push('\n');
        } else if !line.trim().is_empty() {
            return Err("text before the first page's `## ` heading".into());
        }
    }
    for page in &mut pages {
        page.text = page.text.trim().to_string();
    }
    if pages.last().is_none_or(|p| p.title != SUMMARY) {
        return Err(format!("the last page is not `## {SUMMARY}`"));
    }
    Ok(Chapter {
        number,
        file,
        title: settings.title,
        lessons,
        pages,
    })
}

/// A lesson from its settings: one source, the switches known.
fn lesson(l: LessonSettings) -> Result<Lesson, String> {
    let source = match (&l.tree, &l.position, &l.fen) {
        (Some(tree), None, None) => LessonSource::Tree(std::sync::Arc::new(
            GameTree::parse(tree).map_err(|e| e.to_string())?,
        )),
        (None, Some(name), None) => {
            let found = crate::teach::positions()
                .into_iter()
                .find(|p| &p.name == name)
                .ok_or(format!("no teaching position is called {name:?}"))?;
            // A built-in lesson may be a hand-made tree; its switches are
            // the chapter's to state.
            match found.tree {
                Some(tree) => LessonSource::Tree(tree),
                None => LessonSource::Position {
                    fen: found.fen,
                    position: found.position,
                },
            }
        }
        (None, None, Some(fen)) => LessonSource::Position {
            fen: fen.clone(),
            position: parse_fen(fen).map_err(|e| e.to_string())?,
        },
        _ => return Err("give one of tree, position and fen".into()),
    };
    let depth = match (&source, l.depth, &l.position) {
        (LessonSource::Tree(tree), None, _) => tree.height(),
        (LessonSource::Tree(tree), Some(depth), _) if (1..=tree.height()).contains(&depth) => depth,
        (LessonSource::Tree(_), Some(depth), _) => {
            return Err(format!("depth {depth} is deeper than the tree"));
        }
        (_, Some(depth), _) => depth,
        (LessonSource::Position { .. }, None, Some(name)) => crate::teach::positions()
            .into_iter()
            .find(|p| &p.name == name)
            .map_or(crate::teach::DEFAULT_DEPTH, |p| p.depth),
        _ => return Err("a lesson on a FEN needs its depth".into()),
    };
    if !matches!(source, LessonSource::Tree(_))
        && !(crate::teach::MIN_DEPTH..=crate::teach::MAX_DEPTH).contains(&depth)
    {
        return Err(format!("depth {depth} is out of teach mode's range"));
    }
    if l.exercise.is_some_and(|mark| !(1..=100).contains(&mark)) {
        return Err("an exercise's pass mark is a share from 1 to 100 per cent".into());
    }
    Ok(Lesson {
        options: match source {
            LessonSource::Tree(_) => tree_options(&l.switches)?,
            LessonSource::Position { .. } => options(&l.switches)?,
        },
        name: l.name,
        source,
        depth,
        switches: l.switches,
        exercise: l.exercise,
        about: l.about,
    })
}

/// The techniques a lesson's switches leave on, from teach mode's
/// defaults (as `kibitz teach`'s flags of the same names do).
pub fn options(switches: &[String]) -> Result<SearchOptions, String> {
    let mut o = SearchOptions::textbook();
    for switch in switches {
        match switch.as_str() {
            "no-alpha-beta" => o.alpha_beta = false,
            "no-ordering" => o.move_ordering = false,
            "no-table" => o.transposition_table = false,
            "no-quiescence" => o.quiescence = false,
            "pvs" => o.pvs = true,
            "iterative" => o.iterative_deepening = true,
            "aspiration" => {
                o.iterative_deepening = true;
                o.aspiration = true;
            }
            "selective" => o.selective = true,
            other => return Err(format!("no switch is called {other:?}")),
        }
    }
    Ok(o)
}

/// The techniques a game-tree lesson's switches leave on, from the
/// tree's defaults (plain alpha-beta in the written order), as `kibitz
/// teach --game-tree` takes them: a tree has no table, captures or
/// pruning rules, so only these mean something.
pub fn tree_options(switches: &[String]) -> Result<SearchOptions, String> {
    let mut o = crate::teach::game_tree::default_options();
    for switch in switches {
        match switch.as_str() {
            "no-alpha-beta" => o.alpha_beta = false,
            "pvs" => o.pvs = true,
            "iterative" => o.iterative_deepening = true,
            "best-first" => o.move_ordering = true,
            other => return Err(format!("{other:?} does not apply to a game tree")),
        }
    }
    Ok(o)
}

impl Chapter {
    /// The lessons that are predict exercises, with their numbers (from 1).
    pub fn exercises(&self) -> impl Iterator<Item = (usize, &Lesson)> {
        self.lessons
            .iter()
            .enumerate()
            .filter(|(_, l)| l.exercise.is_some())
            .map(|(i, l)| (i + 1, l))
    }
}

impl Lesson {
    /// The command line that opens the lesson in teach mode.
    pub fn command(&self) -> String {
        let mut words = vec!["kibitz teach".to_string()];
        match &self.source {
            LessonSource::Tree(tree) => words.push(format!("--game-tree '{}'", tree.text())),
            LessonSource::Position { fen, .. } => {
                words.push(format!("--fen '{fen}' --depth {}", self.depth));
            }
        }
        // `aspiration` has no flag of teach's: it is said in the lesson.
        words.extend(
            self.switches
                .iter()
                .filter(|s| *s != "aspiration")
                .map(|s| format!("--{s}")),
        );
        words.join(" ")
    }

    /// The setup teach mode records.
    pub fn setup(&self) -> crate::teach::Setup {
        match &self.source {
            LessonSource::Position { position, .. } => crate::teach::Setup {
                position: position.clone(),
                tree: None,
                history: Vec::new(),
                depth: self.depth,
                options: self.options,
            },
            LessonSource::Tree(tree) => crate::teach::Setup {
                depth: self.depth,
                options: self.options,
                ..crate::teach::Setup::game_tree(GameTree::clone(tree), Some(self.depth))
            },
        }
    }
}
