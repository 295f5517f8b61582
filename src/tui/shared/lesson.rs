//! A lesson of a reviewed mistake: the search of the position before the
//! move, at the smallest depth that shows the move falling short of the
//! better one, opening where the search tries the move played. The game
//! review's `T` and the whole-file review's positions to study make one.

use std::time::Duration;

use shakmaty::{Chess, Color, Move};

use crate::review::{self, Class};

/// How long the search for the lesson's depth may take.
const DEPTH_SEARCH_TIME: Duration = Duration::from_secs(1);

/// A lesson: what teach mode records, the words that say what it shows
/// and the line to open at.
#[derive(Debug, Clone, PartialEq)]
pub struct Lesson {
    pub setup: crate::teach::Setup,
    pub title: String,
    pub description: String,
    /// The moves (SAN) from the lesson's position to the node it opens at.
    pub goto: String,
    /// Opened from the whole-file review's report: Esc comes back to it.
    pub back_to_report: bool,
}

/// A reviewed mistake: where, what was played, what the review prefers.
pub struct Mistake<'a> {
    pub position: &'a Chess,
    /// Keys of the positions before, for repetitions.
    pub history: Vec<u64>,
    pub played: Move,
    pub best: Move,
    pub class: Class,
    /// The move's number as written (`12` of `12.` / `12...`).
    pub move_number: u32,
    pub mover: Color,
    /// The margin the lesson's depth must show (`review::lesson_margin`).
    pub margin_cp: i32,
}

impl Lesson {
    /// The lesson of `mistake`. Where no depth a lesson can step through
    /// shows the difference, it says so rather than claim it does.
    pub fn of_mistake(mistake: Mistake) -> Lesson {
        let position = mistake.position;
        let max_depth = crate::teach::MAX_DEPTH;
        let seen = review::refutation_depth(
            position,
            &mistake.history,
            mistake.played,
            mistake.best,
            mistake.margin_cp,
            max_depth,
            DEPTH_SEARCH_TIME,
        );
        let played_san = crate::teach::caption::san(position, mistake.played);
        let best_san = crate::teach::caption::san(position, mistake.best);
        let (depth, sees) = match seen {
            Some(depth) => (
                depth,
                format!(
                    "At depth {depth} the search already sees {played_san} fall short of {best_san}"
                ),
            ),
            None => (
                3,
                format!(
                    "No search up to depth {max_depth} (in a second) showed {played_san} falling short of {best_san}; the lesson searches depth 3"
                ),
            ),
        };
        let dots = if mistake.mover.is_white() { "." } else { "..." };
        let class = mistake.class;
        Lesson {
            setup: crate::teach::Setup {
                history: mistake.history,
                ..crate::teach::Setup::new(position.clone(), depth)
            },
            title: format!(
                "{}{dots} {played_san}{}",
                mistake.move_number,
                class.symbol()
            ),
            description: format!(
                "In the game {played_san} was {}: the review prefers {best_san}. {sees}; the lesson opens where it tries {played_san} (Home: the start).",
                with_article(class.name())
            ),
            goto: played_san,
            back_to_report: false,
        }
    }
}

/// "a mistake", "an inaccuracy": the article a word takes (by its first
/// letter, which is right for the review's classes).
fn with_article(word: &str) -> String {
    let vowel = word
        .chars()
        .next()
        .is_some_and(|c| "aeiouAEIOU".contains(c));
    format!("{} {word}", if vowel { "an" } else { "a" })
}
