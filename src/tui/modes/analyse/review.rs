//! The review on the analysis board: a background pass evaluates every
//! position of the main line; its verdicts mark the moves, fill the graph
//! and can be written into the game.

use std::time::{Duration, Instant};

use crate::core::counted;
use crate::review::{self, PositionEval};
use crate::tui::shared::lesson::Mistake;
use crate::tui::shared::{Lesson, Shared, Switch, Tone};
use crate::tui::tasks::Request;

use super::{Analysis, REVIEW_MOVETIME_MS, ReviewState};

impl Analysis {
    /// Forget the review: it was made for a main line that changed.
    pub fn drop_review(&mut self, cx: &mut Shared) {
        self.stop_review(cx);
        {
            let analysis = &mut *self;
            analysis.review = None;
        }
    }

    pub fn stop_review(&mut self, cx: &mut Shared) {
        if let Some(review) = &mut self.review
            && !review.done
        {
            review.done = true;
            cx.engine.cancel(review.id);
        }
    }

    /// Start (or restart) the review of the main line.
    pub fn start_review(&mut self, cx: &mut Shared, movetime_ms: u64) {
        self.stop_review(cx);
        let analysis = &mut *self;
        let tree = Box::new(analysis.tree.clone());
        let movetime = Duration::from_millis(movetime_ms);
        let threads = cx.services.settings.search_threads();
        let id = cx.engine.start(|id| Request::Review {
            id,
            tree,
            movetime,
            threads,
        });
        // Up to a null move, where the review stops.
        let positions = review::null_move_ply(&analysis.tree)
            .unwrap_or(analysis.tree.mainline().len() + 1);
        analysis.review = Some(ReviewState {
            id,
            evals: vec![None; positions],
            moves: Vec::new(),
            done: false,
            movetime_ms,
            written: 0,
            times: crate::game::clocks::move_times(&analysis.tree),
        });
        // Where the panels take turns, the graph comes to the front.
        cx.side.chosen = Some(crate::tui::layout::Panel::EvalGraph);
        if let Some(review) = &analysis.review {
            cx.say(reviewing_text(review), Tone::Info);
        }
    }

    /// A reviewed position arrived from the background pass.
    pub fn review_progress(&mut self, cx: &mut Shared, id: u64, ply: usize, eval: PositionEval) {
        let analysis = &mut *self;
        let Some(review) = &mut analysis.review else {
            return;
        };
        if review.id != id || ply >= review.evals.len() {
            return;
        }
        review.evals[ply] = Some(eval);
        review.moves = review::judge(&analysis.tree, &review.evals);
        // The status line follows the pass while it still speaks of it.
        if cx
            .message
            .as_ref()
            .is_some_and(|(text, _)| text.starts_with("Reviewing"))
        {
            cx.say(reviewing_text(review), Tone::Info);
        }
    }

    pub fn review_done(&mut self, cx: &mut Shared, id: u64) {
        let analysis = &mut *self;
        let Some(review) = &mut analysis.review else {
            return;
        };
        if review.id != id {
            return;
        }
        let finished = review.evaluated() == review.evals.len();
        review.done = true;
        let count = |class| {
            review
                .moves
                .iter()
                .filter(|m| m.class == Some(class))
                .count()
        };
        let text = format!(
            "Review {}: {}, {}, {} (n/N jump between them; :annotate writes them into the game)",
            if finished { "done" } else { "stopped" },
            counted(
                count(review::Class::Inaccuracy) as u64,
                "inaccuracy",
                "inaccuracies"
            ),
            counted(count(review::Class::Mistake) as u64, "mistake", "mistakes"),
            counted(count(review::Class::Blunder) as u64, "blunder", "blunders"),
        );
        cx.say(text, Tone::Info);
    }

    /// `T` on a move the review marked: teach mode on the position before
    /// it, at the smallest depth whose search sees the played move fall
    /// short of the better one, opening where the search tries the played
    /// move. False where the move under the cursor is not marked.
    pub fn mistake_lesson(&mut self, cx: &mut Shared) -> bool {
        let Some(verdict) = self
            .verdict(self.cursor)
            .filter(|v| v.class.is_some())
            .cloned()
        else {
            return false;
        };
        let (Some(played), Some(best), Some(class)) =
            (self.tree.nodes[self.cursor].m, verdict.better, verdict.class)
        else {
            return false;
        };
        // The board is at the move: one back is the position it was played in.
        let mut game = cx.board.game.clone();
        game.undo();
        let lesson = Lesson::of_mistake(Mistake {
            position: game.position(),
            history: game.history_keys(),
            played,
            best,
            class,
            move_number: verdict.move_number,
            mover: verdict.mover,
            margin_cp: review::lesson_margin(verdict.mover, verdict.before, verdict.after),
        });
        cx.switch(Switch::Lesson(Box::new(lesson)));
        true
    }

    /// Jump to the next (or previous) classified move of the review.
    pub fn jump_to_mark(&mut self, cx: &mut Shared, forward: bool, now: Instant) {
        let analysis = &*self;
        let Some(review) = &analysis.review else {
            cx.say("No review yet: R reviews the game.", Tone::Info);
            return;
        };
        let here = analysis.tree.ply(analysis.cursor);
        let marks = review.moves.iter().filter(|m| m.class.is_some());
        let target = if forward {
            marks.clone().find(|m| m.ply > here)
        } else {
            marks.clone().rfind(|m| m.ply < here)
        };
        match target {
            Some(m) => {
                let note = m.note.map_or(String::new(), |n| format!("; {}", n.text()));
                let text = format!(
                    "{}{}: {} ({:.0}% lost{note}), best {}",
                    m.san,
                    m.class.map_or("", review::Class::symbol),
                    m.class.map_or("", review::Class::name),
                    m.lost,
                    m.better_line
                        .iter()
                        .take(3)
                        .cloned()
                        .collect::<Vec<_>>()
                        .join(" ")
                );
                let node = m.node;
                self.goto(cx, node, now);
                cx.say(text, Tone::Info);
            }
            None => cx.say("No more marked moves that way.", Tone::Info),
        }
    }

    /// Write the finished review into the tree.
    pub fn annotate(&mut self, cx: &mut Shared, now: Instant) {
        let Some(review) = &self.review else {
            cx.say("No review to write: R reviews the game first.", Tone::Error);
            return;
        };
        if review.evaluated() == 0 {
            cx.say("The review has no results yet.", Tone::Error);
            return;
        }
        let marked = self.write_review().unwrap_or_default();
        cx.say(
            format!("Review written into the game: evaluations, {marked} marks and better lines."),
            Tone::Info,
        );
        self.sync_board(cx, now);
    }

    /// Write the review's results into the tree (as `:annotate` does) if it
    /// has results not written yet: `[%eval]`s, marks, better lines. The
    /// number of moves it marks, or `None` when there was nothing new (no
    /// review, no results, or written already: a mark removed since stays
    /// removed).
    pub fn write_review(&mut self) -> Option<usize> {
        let review = self.review.as_mut()?;
        let evaluated = review.evaluated();
        if evaluated == 0 || review.written == evaluated {
            return None;
        }
        review.written = evaluated;
        let (moves, evals) = (review.moves.clone(), review.evals.clone());
        review::annotate(&mut self.tree, &moves, &evals);
        self.modified = true;
        Some(moves.iter().filter(|m| m.class.is_some()).count())
    }

    pub fn toggle_review(&mut self, cx: &mut Shared) {
        let running = self.review.as_ref().is_some_and(|r| !r.done);
        if running {
            self.stop_review(cx);
            cx.say("Review stopped.", Tone::Info);
        } else {
            self.start_review(cx, REVIEW_MOVETIME_MS);
        }
    }
}

/// The status line while the review runs: how far it is and the time left.
fn reviewing_text(review: &ReviewState) -> String {
    let total = review.evals.len();
    let done = review.evaluated();
    let seconds = (total - done.min(total)) as u64 * review.movetime_ms / 1000;
    if done == 0 {
        format!("Reviewing {total} positions, about {seconds} s...")
    } else {
        format!("Reviewing: {done} of {total} positions, about {seconds} s left...")
    }
}
