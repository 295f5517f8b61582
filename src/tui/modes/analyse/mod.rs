//! Analyse mode: the analysis board. A game tree to walk and edit, the
//! engine analysing the position on the board (several lines) until the
//! `analysis_limit` setting (or `a`) stops it, and a game review running
//! beside it.
//!
//! The board, the book and tablebase panels and the move input are shared
//! with play mode: `Shared::game` always holds the line from the start to
//! the tree node under the cursor, so everything that draws a game draws
//! this one.

pub mod eval_graph;
pub mod game_tables;
pub mod move_rows;
pub mod move_tree;
mod engine;
mod explorer;
mod keys;
mod mode;
mod panels;
mod review;
mod save;

pub use engine::Threat;
pub use keys::{HELP, KEY_LINES};

use std::path::PathBuf;
use std::time::{Duration, Instant};

use shakmaty::{Move, Position};

use crate::config::AnalysisLimit;
use crate::engine::Score;
use crate::tui::engine_link::SearchId;
use crate::game::Game;
use crate::game::tree::GameTree;
use crate::review::{MoveReview, PositionEval};
use crate::tui::engine_line::AnalysisLines;
use crate::tui::shared::{Shared, Tone};


/// What the game keys say on the analysis board.
pub(super) const FOR_GAMES: &str = "That is for games; here Left goes back (:new starts a game).";
/// The review graph's rows, without its title.
const GRAPH_HEIGHT: u16 = 5;
/// Rows the move-time chart adds below the graph: a caption and two rows
/// of bars.
const TIME_CHART_HEIGHT: u16 = 3;

/// How many engine lines the analysis can show.
pub const MAX_LINES: usize = 5;
/// The review's thinking time per position unless the user says otherwise.
pub const REVIEW_MOVETIME_MS: u64 = 300;

/// Where the game on the board came from.
#[derive(Debug, Clone, PartialEq)]
pub struct GameSource {
    pub path: PathBuf,
    /// 1-based number of the game in the file.
    pub number: usize,
    /// The file as kibitz last read or wrote it: a save into a file that
    /// another program has changed since is refused (`:save!` forces).
    pub seen: Option<crate::fsutil::Fingerprint>,
}


/// The review of the main line, filled in as the background pass goes.
#[derive(Debug, Clone, PartialEq)]
pub struct ReviewState {
    pub id: u64,
    /// `evals[ply]`: the position after `ply` moves of the main line.
    pub evals: Vec<Option<PositionEval>>,
    pub moves: Vec<MoveReview>,
    pub done: bool,
    pub movetime_ms: u64,
    /// How many evaluated positions were written into the game (by
    /// `:annotate` or a save); a save writes the review again only when it
    /// has more.
    pub written: usize,
    /// The time each move took, from the game's `[%clk]` comments (none
    /// when it has no clocks).
    pub times: Option<Vec<Option<std::time::Duration>>>,
}

impl ReviewState {
    /// Positions evaluated so far.
    pub fn evaluated(&self) -> usize {
        self.evals.iter().filter(|e| e.is_some()).count()
    }
}

/// The state of the analysis board.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    pub tree: GameTree,
    /// The node on the board.
    pub cursor: usize,
    /// The engine's lines for the position on the board, best first.
    pub lines: AnalysisLines,
    /// How many lines to ask for (1-5).
    pub multipv: usize,
    /// The engine analyses (toggled with `a`).
    pub engine_on: bool,
    /// The running analysis, for stopping it.
    pub search: Option<SearchId>,
    /// When the running analysis was asked for, and how long its first line
    /// took to arrive (the figure "move to first analysis line").
    pub asked_at: Option<Instant>,
    pub first_line: Option<Duration>,
    pub source: Option<GameSource>,
    /// Changed since loaded or saved.
    pub modified: bool,
    /// Show the evaluation breakdown instead of the move list's top.
    pub breakdown: bool,
    /// The threat (`t`): the position with the turn passed, and what the
    /// engine found there (once it has).
    pub threat: Option<Threat>,
    /// `P` asked for a game from this node: the new-game dialog is open.
    pub play_on: Option<usize>,
    pub review: Option<ReviewState>,
    /// `:map game-history`: the move tables learnt over the main line.
    pub game_tables: Option<game_tables::GameTables>,
    /// `a` said to go on past the analysis limit in this position (moving
    /// to another position brings the limit back).
    pub going_on: bool,
    /// The analysis stopped at its limit (`analysis_limit`): the depth of
    /// the lines shown then (0: none yet).
    pub stopped: Option<u32>,
    /// The limit of the running analysis, as it was asked for.
    pub running_limit: AnalysisLimit,
}

impl Analysis {
    pub fn new(tree: GameTree, source: Option<GameSource>) -> Analysis {
        Analysis {
            tree,
            cursor: 0,
            lines: AnalysisLines::default(),
            multipv: 3,
            engine_on: true,
            search: None,
            asked_at: None,
            first_line: None,
            source,
            modified: false,
            breakdown: false,
            review: None,
            game_tables: None,
            threat: None,
            play_on: None,
            going_on: false,
            stopped: None,
            running_limit: AnalysisLimit::None,
        }
    }

    /// The review's verdict on a node, if it has one.
    pub fn verdict(&self, node: usize) -> Option<&MoveReview> {
        self.review.as_ref()?.moves.iter().find(|m| m.node == node)
    }

    /// The evaluation shown in the bar: the engine's best line, or the
    /// review's evaluation of this position.
    pub fn shown_score(&self) -> Option<Score> {
        if let Some(line) = self.lines.shown.first() {
            return Some(line.score);
        }
        let review = self.review.as_ref()?;
        let ply = self.tree.ply(self.cursor);
        let on_main = self.tree.on_mainline(self.cursor);
        let eval = review.evals.get(ply)?.as_ref().filter(|_| on_main)?;
        Some(eval.score)
    }

    /// The ply on the board, when it is on the main line (the review
    /// graph marks it).
    pub fn mainline_ply(&self) -> Option<usize> {
        self.tree
            .on_mainline(self.cursor)
            .then(|| self.tree.ply(self.cursor))
    }

    /// Rows the engine lines panel shows, below its title.
    pub fn engine_rows(&self) -> u16 {
        let threat = u16::from(self.threat.as_ref().is_some_and(|t| t.line.is_some()));
        let stopped = u16::from(self.stopped.is_some());
        if self.engine_on {
            self.multipv as u16 + threat + stopped
        } else {
            1 + threat
        }
    }
}

impl Analysis {
    /// The tree node under the cursor changed (or the tree did): rebuild
    /// the board's game and start analysing the new position.
    pub fn sync_board(&mut self, cx: &mut Shared, now: Instant) {
        // Tables learnt over another main line (a move added at its end, a
        // variation promoted, a move deleted, a game played on) go.
        self.check_game_tables(cx);
        let analysis = &*self;
        let tree = &analysis.tree;
        let mut game = Game::new(tree.start.clone());
        for node in tree.path(analysis.cursor) {
            match tree.nodes[node].m {
                Some(m) => {
                    game.play(m);
                }
                // A null move: the board restarts from the position after it
                // (Game keeps real moves only).
                None => game = Game::new(tree.position(node)),
            }
        }
        cx.board.game = game;
        cx.board.selected = None;
        // A threat belongs to the position it was asked in; so does going
        // on past the analysis limit.
        self.threat = None;
        self.going_on = false;
        self.restart_analysis(cx, now);
    }

    /// Go to `node` of the tree.
    pub fn goto(&mut self, cx: &mut Shared, node: usize, now: Instant) {
        let analysis = &mut *self;
        if node >= analysis.tree.nodes.len() || node == analysis.cursor {
            return;
        }
        analysis.cursor = node;
        // A message answering a key was about the position left ("No
        // variation here.", "No review yet"): it goes with it. Errors stay
        // until the next key says something.
        if matches!(cx.message, Some((_, Tone::Info))) {
            cx.message = None;
        }
        self.sync_board(cx, now);
    }

    /// A move made on the board: follow it if the tree has it, else add it
    /// as a new variation (or as the continuation at the end of a line).
    pub fn play_move(&mut self, cx: &mut Shared, m: Move, now: Instant) {
        let analysis = &mut *self;
        let position = cx.board.game.position().clone();
        if !position.is_legal(m) {
            cx.say("That move is not legal here.", Tone::Error);
            return;
        }
        let before = analysis.tree.nodes.len();
        let node = analysis.tree.add_move_at(analysis.cursor, &position, m);
        if analysis.tree.nodes.len() != before {
            analysis.modified = true;
            let variation = analysis.tree.nodes[analysis.cursor].children.len() > 1;
            if variation {
                let san = analysis.tree.nodes[node].san.clone();
                cx.message = Some((format!("New variation {san}"), Tone::Info));
            }
        }
        {
            let analysis = &mut *self;
            analysis.cursor = node;
        }
        self.sync_board(cx, now);
    }

    /// Play the first move of engine line `index` (as a variation if new).
    pub fn play_line(&mut self, cx: &mut Shared, index: usize, now: Instant) {
        let first = self
            .lines
            .shown
            .get(index)
            .and_then(|l| l.pv.first().copied());
        match first {
            Some(m) => self.play_move(cx, m, now),
            None => cx.say(format!("No engine line {}.", index + 1), Tone::Info),
        }
    }

    /// `P`: a game against the engine from the position on the board; the
    /// new-game dialog opens with it, and once the game is over `a` brings
    /// its moves back into this tree as a variation.
    pub fn play_on_from_here(&mut self, cx: &mut Shared) {
        let position = cx.board.game.position().clone();
        if position.legal_moves().is_empty() {
            cx.say("The game is over in this position: nothing to play on.", Tone::Info);
            return;
        }
        self.play_on = Some(self.cursor);
        let form = cx.services.new_game_form(Some(position));
        cx.overlay = crate::tui::overlays::Overlay::NewGame(form);
    }

    /// A game played on from node `at` (`P`): its moves join the tree there
    /// as a variation (or its continuation), and the board goes to its end.
    pub fn take_back_game(&mut self, at: usize, moves: &[Move]) {
        let mut position = self.tree.position(at);
        let mut node = at;
        for &m in moves {
            if !position.is_legal(m) {
                break;
            }
            node = self.tree.add_move_at(node, &position, m);
            position.play_unchecked(m);
        }
        self.modified = true;
        self.cursor = node;
    }

    /// Keep engine line `index` in the game as a variation from the
    /// position on the board, the first new move carrying the line's score
    /// as `[%eval]`, so the analysis is saved with the game. The game's own
    /// moves are never rewritten: at the end of a line the variation
    /// branches off at its last move (`GameTree::keep_line`). The board
    /// stays where it is.
    pub fn keep_line(&mut self, cx: &mut Shared, index: usize) {
        let Some(line) = self.lines.shown.get(index).cloned() else {
            cx.say(format!("No engine line {} to keep.", index + 1), Tone::Info);
            return;
        };
        let had_moves = !self.tree.nodes[0].children.is_empty();
        let kept = self.tree.keep_line(self.cursor, &line.pv);
        let Some(first) = kept.first_new else {
            cx.say(
                format!(
                    "Engine line {} is in the game already: nothing added.",
                    index + 1
                ),
                Tone::Info,
            );
            return;
        };
        let eval = crate::review::comment_eval(line.score);
        self.tree.nodes[first]
            .comments
            .push(crate::game::annotations::with_eval("", eval));
        self.modified = true;
        let san = line.san.first().cloned().unwrap_or_default();
        let moves = crate::core::counted(kept.added as u64, "new move", "new moves");
        let text = if kept.repeated {
            format!(
                "Kept engine line {} as a variation on the line's last move ({moves}).",
                index + 1
            )
        } else if had_moves {
            format!("Kept engine line {} ({san}…) as a variation ({moves}).", index + 1)
        } else {
            format!("Kept engine line {} ({san}…) as the game's moves ({moves}).", index + 1)
        };
        cx.say(text, Tone::Info);
    }

    pub fn promote(&mut self, cx: &mut Shared, now: Instant) {
        let analysis = &mut *self;
        if analysis.tree.promote(analysis.cursor) {
            analysis.modified = true;
            self.drop_review(cx);
            let analysis = &mut *self;
            let main = analysis.tree.on_mainline(analysis.cursor);
            let text = if main {
                "The line is the main line now."
            } else {
                "The variation moved up a level."
            };
            cx.say(text, Tone::Info);
            self.sync_board(cx, now);
        } else {
            cx.say("This move is on the main line already.", Tone::Info);
        }
    }

    /// Delete the move under the cursor and all that follows it.
    pub fn delete_here(&mut self, cx: &mut Shared, now: Instant) {
        let analysis = &mut *self;
        let san = analysis.tree.nodes[analysis.cursor].san.clone();
        if let Some(parent) = analysis.tree.delete(analysis.cursor) {
            analysis.cursor = parent;
            analysis.modified = true;
            // The review's node numbers are gone with the old arena.
            self.drop_review(cx);
            cx.say(format!("Deleted {san} and what followed."), Tone::Info);
            self.sync_board(cx, now);
        }
    }

}

/// The tree node of the move drawn at a terminal cell of the move tree
/// panel (`rect`), if any.
pub fn move_at(
    analysis: &Analysis,
    rect: ratatui::layout::Rect,
    column: u16,
    row: u16,
    no_color: bool,
) -> Option<usize> {
    let inner = crate::tui::layout::below_title(rect);
    if !inner.contains((column, row).into()) {
        return None;
    }
    let rows = move_rows::move_rows_marked(analysis, inner.width, no_color);
    let first = move_rows::scroll(&rows, analysis.cursor, inner.height as usize);
    let tokens = rows.get(first + usize::from(row - inner.y))?;
    let x = column - inner.x;
    tokens
        .iter()
        .find(|t| t.node.is_some() && x >= t.x && x < t.x + t.text.chars().count() as u16)
        .and_then(|t| t.node)
}
