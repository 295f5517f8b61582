//! Analyse mode: the analysis board. A game tree to walk and edit, the
//! engine analysing the position on the board without end (several
//! lines), and a game review running beside it.
//!
//! The board, the book and tablebase panels and the move input are shared
//! with play mode: `Shared::game` always holds the line from the start to
//! the tree node under the cursor, so everything that draws a game draws
//! this one.

pub mod eval_graph;
pub mod move_rows;
pub mod move_tree;
mod mode;
mod panels;
mod review;
mod save;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{KeyCode, KeyEvent};
use shakmaty::{Move, Position};

use crate::engine::level::Level;
use crate::engine::{Limits, Report, Score, SearchOptions};
use crate::tui::engine_link::{Search, SearchId};
use crate::game::Game;
use crate::game::tree::GameTree;
use crate::review::{MoveReview, PositionEval};
use crate::tui::engine_line::AnalysisLines;
use crate::tui::overlays::open_file::expand_home;
use crate::tui::overlays::{Confirm, Overlay};
use crate::tui::shared::{Shared, Tone};
use crate::tui::tasks::Request;

use crate::tui::layout::Panel;

/// What the game keys say on the analysis board.
const FOR_GAMES: &str = "That is for games; here Left goes back (:new starts a game).";
/// The review graph's rows, without its title.
const GRAPH_HEIGHT: u16 = 5;

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
    pub review: Option<ReviewState>,
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
        if self.engine_on {
            self.multipv as u16
        } else {
            1
        }
    }
}

/// The keys of the analysis board, for the help.
pub const HELP: &[(&str, &str)] = &[
    (
        "← →, Home End",
        "back and forward along the line; to its start and end",
    ),
    ("↑ ↓", "the other moves played here (variations)"),
    (
        "h j k l, Enter",
        "board cursor, pick up / put down (or mouse, or :move)",
    ),
    ("a, + -", "engine analysis on/off; 1-5 lines"),
    ("1-5", "play the first move of that engine line"),
    (
        "p, x",
        "promote the variation; delete the move and what follows",
    ),
    (
        "c, :nag ?!",
        "comment on the move; set a mark (! ? !! ?? !? ?!)",
    ),
    (
        "R, n N",
        "review the game (:review MS); next / previous marked move",
    ),
    (
        ":annotate",
        "write the review into the game ([%eval], ?! ? ??, lines)",
    ),
    ("b", "the evaluation, term by term"),
    (
        "Tab; PgUp PgDn",
        "next side panel where not all fit; scroll the tablebase",
    ),
    (
        "S, :stats",
        "search statistics: nodes per depth, cutoffs, TT hits",
    ),
    (
        "",
        "branching factor: N(d)/N(d-1), and root = (all nodes)^(1/d)",
    ),
    (
        "m M #, :map wn",
        "move-table map: table, importance/best, numbers; :map off",
    ),
    (
        "g, o",
        "the games of the file; open a file (or paste FEN/PGN)",
    ),
    (
        "T, :teach",
        "step through the engine's search of this position",
    ),
    (
        "s, :save PATH",
        "save into the file (all games); this game to PATH",
    ),
    (
        ":fen, :copy",
        "the position's FEN; the game's PGN (to the clipboard)",
    ),
    (
        "f, ?, D, q",
        "flip, this help, the position in words (:describe), quit",
    ),
];

/// The key line under the board, longest first: the first that fits the
/// width is shown (a compact terminal skips the first, to name Tab).
pub const KEY_LINES: [&str; 5] = [
    " ←→ moves · ↑↓ variations · a engine · +/- lines · R review · m map · o open · s save · ? help",
    " ←→ moves · ↑↓ variations · a engine · +- lines · R review · Tab panels · ? help",
    " ←→ moves · a engine · Tab panels · ? help",
    // Where Tab has nothing to switch.
    " ←→ moves · ↑↓ variations · a engine · +/- lines · R review · o open · ? help",
    " ←→ moves · a engine · ? help",
];

impl Analysis {
    /// The tree node under the cursor changed (or the tree did): rebuild
    /// the board's game and start analysing the new position.
    pub fn sync_board(&mut self, cx: &mut Shared, now: Instant) {
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
        self.restart_analysis(cx, now);
    }

    /// Ask the engine for the position on the board (or stop it when the
    /// analysis is off). Reports of the previous position carry an older
    /// search id and are dropped when they arrive.
    pub fn restart_analysis(&mut self, cx: &mut Shared, now: Instant) {
        let analysis = &mut *self;
        analysis.lines.clear();
        analysis.first_line = None;
        let position = cx.board.game.position();
        let playable = !position.legal_moves().is_empty();
        if !analysis.engine_on || !playable {
            cx.stats = None;
            if analysis.search.take().is_some() {
                cx.engine.stop();
            }
            return;
        }
        analysis.asked_at = Some(now);
        // The statistics shown are always those of the position on the board.
        cx.stats = None;
        let search = Search {
            position: position.clone(),
            history: cx.board.game.history_keys(),
            limits: Limits {
                infinite: true,
                ..Limits::default()
            },
            options: SearchOptions {
                multipv: analysis.multipv,
                ..cx.services.search_options()
            },
            level: Level::default(),
            book: false,
        };
        analysis.search = Some(cx.engine.go(search, now));
    }

    /// A report of the running analysis (the engine link dropped the
    /// reports of the positions before).
    pub fn engine_report(&mut self, cx: &mut Shared, report: Report, now: Instant) {
        let position = cx.board.game.position().clone();
        let analysis = &mut *self;
        match report {
            Report::Info(info) => {
                let tables = cx.services.tablebases.as_deref();
                let changed = analysis
                    .lines
                    .accept(&position, analysis.multipv, &info, tables);
                if changed
                    && analysis.first_line.is_none()
                    && let Some(asked) = analysis.asked_at
                {
                    analysis.first_line = Some(now.saturating_duration_since(asked));
                }
            }
            Report::Stats { stats, tables, .. } => {
                cx.stats = Some(stats);
                cx.engine_tables = Some(tables);
            }
            Report::BestMove { .. } => analysis.search = None,
            Report::Pong(_) => {}
        }
    }

    /// Go to `node` of the tree.
    pub fn goto(&mut self, cx: &mut Shared, node: usize, now: Instant) {
        let analysis = &mut *self;
        if node >= analysis.tree.nodes.len() || node == analysis.cursor {
            return;
        }
        analysis.cursor = node;
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

    /// Keys of the analysis board. Returns false for keys it leaves to the
    /// board (cursor, pick up and put down, flip, help, command line).
    pub fn on_key(&mut self, cx: &mut Shared, key: KeyEvent, now: Instant) -> bool {
        let analysis = &*self;
        let cursor = analysis.cursor;
        let tree = &analysis.tree;
        let node = &tree.nodes[cursor];
        match key.code {
            KeyCode::Left => {
                if let Some(parent) = node.parent {
                    self.goto(cx, parent, now);
                }
            }
            KeyCode::Right => {
                if let Some(&next) = node.children.first() {
                    self.goto(cx, next, now);
                }
            }
            KeyCode::Up | KeyCode::Down => {
                // Step between the alternatives to this move.
                if let Some(parent) = node.parent {
                    let siblings = &tree.nodes[parent].children;
                    let index = siblings.iter().position(|&c| c == cursor).unwrap_or(0);
                    let next = if key.code == KeyCode::Down {
                        index + 1
                    } else {
                        index.wrapping_sub(1)
                    };
                    match siblings.get(next) {
                        Some(&sibling) => self.goto(cx, sibling, now),
                        None if siblings.len() == 1 => {
                            cx.say("No variation here.", Tone::Info);
                        }
                        None => {}
                    }
                }
            }
            KeyCode::Home => self.goto(cx, 0, now),
            KeyCode::End => {
                let end = tree.line_end(cursor);
                self.goto(cx, end, now);
            }
            KeyCode::Char('a') => {
                {
                    let analysis = &mut *self;
                    analysis.engine_on = !analysis.engine_on;
                    let state = if analysis.engine_on { "on" } else { "off" };
                    cx.say(format!("Analysis {state}."), Tone::Info);
                }
                self.restart_analysis(cx, now);
            }
            KeyCode::Char(c @ ('+' | '-')) => {
                {
                    let analysis = &mut *self;
                    let n = if c == '+' {
                        (analysis.multipv + 1).min(MAX_LINES)
                    } else {
                        analysis.multipv.saturating_sub(1).max(1)
                    };
                    analysis.multipv = n;
                    cx.say(format!("{n} engine line(s)."), Tone::Info);
                }
                self.restart_analysis(cx, now);
            }
            KeyCode::Char(c @ '1'..='5') => {
                let index = (c as usize) - ('1' as usize);
                self.play_line(cx, index, now);
            }
            KeyCode::Char('p') => self.promote(cx, now),
            KeyCode::Delete | KeyCode::Char('x') => {
                if cursor != 0 {
                    cx.overlay = Overlay::Confirm(Confirm::Delete);
                }
            }
            KeyCode::Char('c') => {
                let existing = node.comments.join(" ");
                cx.input = Some(format!("comment {existing}"));
            }
            KeyCode::Char('b') => {
                let analysis = &mut *self;
                analysis.breakdown = !analysis.breakdown;
                if analysis.breakdown {
                    cx.side.chosen = Some(Panel::Breakdown);
                }
            }
            KeyCode::Char('R') => self.toggle_review(cx),
            KeyCode::Char('u' | 'i' | 'd' | 'r') => cx.say(FOR_GAMES, Tone::Info),
            KeyCode::Char('n') => self.jump_to_mark(cx, true, now),
            KeyCode::Char('N') => self.jump_to_mark(cx, false, now),
            KeyCode::Char('g') => cx.open_game_list(),
            KeyCode::Char('o') => cx.open_dialog(),
            KeyCode::Char('s') => self.save_analysis(cx, None, false),
            KeyCode::Char('q') => {
                cx.overlay = Overlay::Confirm(if self.modified {
                    Confirm::QuitUnsaved
                } else {
                    Confirm::Quit
                });
            }
            _ => return false,
        }
        true
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

    /// Words of the command line that mean something on the analysis board.
    /// Returns false when the text is not one of them.
    pub fn on_command(&mut self, cx: &mut Shared, typed: &str, now: Instant) -> bool {
        let (word, rest) = match typed.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (typed, ""),
        };
        match word {
            "comment" => {
                let analysis = &mut *self;
                let node = &mut analysis.tree.nodes[analysis.cursor];
                node.comments = if rest.is_empty() {
                    Vec::new()
                } else {
                    vec![rest.to_string()]
                };
                analysis.modified = true;
                cx.say(
                    if rest.is_empty() {
                        "Comment removed."
                    } else {
                        "Comment set."
                    },
                    Tone::Info,
                );
            }
            "nag" => self.set_nag(cx, rest),
            "review" => {
                let movetime = if rest.is_empty() {
                    Ok(REVIEW_MOVETIME_MS)
                } else {
                    rest.parse::<u64>()
                };
                match movetime {
                    Ok(ms) if (10..=60_000).contains(&ms) => self.start_review(cx, ms),
                    _ => cx.say(
                        "review takes milliseconds per position, 10 to 60000",
                        Tone::Error,
                    ),
                }
            }
            "annotate" => self.annotate(cx, now),
            "copy" | "pgn" => {
                let analysis = &*self;
                let pgn = analysis.tree.to_pgn();
                cx.request(Request::Clipboard(pgn));
                cx.say("PGN copied (if the terminal allows).", Tone::Info);
            }
            "promote" => self.promote(cx, now),
            "delete" => {
                if self.cursor != 0 {
                    cx.overlay = Overlay::Confirm(Confirm::Delete);
                }
            }
            "lines" | "multipv" => match rest.parse::<usize>() {
                Ok(n) if (1..=MAX_LINES).contains(&n) => {
                    {
                        let analysis = &mut *self;
                        analysis.multipv = n;
                    }
                    self.restart_analysis(cx, now);
                }
                _ => cx.say("lines takes 1 to 5", Tone::Error),
            },
            "save" | "save!" => {
                let path = (!rest.is_empty()).then(|| PathBuf::from(expand_home(rest)));
                self.save_analysis(cx, path, word == "save!");
            }
            "open" if !rest.is_empty() => {
                cx.open_path(PathBuf::from(expand_home(rest)), None, self.modified)
            }
            "open" => cx.open_dialog(),
            "games" | "list" => cx.open_game_list(),
            "start" => self.goto(cx, 0, now),
            "undo" | "takeback" | "hint" | "draw" | "resign" => cx.say(FOR_GAMES, Tone::Info),
            "end" => {
                let a = &*self;
                let end = a.tree.line_end(a.cursor);
                self.goto(cx, end, now);
            }
            _ => return false,
        }
        true
    }

    /// Set or clear the move's NAG (`!`, `?`, `!!`, `??`, `!?`, `?!` or `$n`).
    pub fn set_nag(&mut self, cx: &mut Shared, text: &str) {
        let analysis = &mut *self;
        if analysis.cursor == 0 {
            cx.say("Go to a move first.", Tone::Error);
            return;
        }
        let value = match text {
            "" | "none" | "clear" => None,
            "!" => Some(1),
            "?" => Some(2),
            "!!" => Some(3),
            "??" => Some(4),
            "!?" => Some(5),
            "?!" => Some(6),
            n => match n.trim_start_matches('$').parse::<u8>() {
                Ok(v) => Some(v),
                Err(_) => {
                    cx.say(
                        "nag takes ! ? !! ?? !? ?! or $n (nag clear removes them)",
                        Tone::Error,
                    );
                    return;
                }
            },
        };
        let node = &mut analysis.tree.nodes[analysis.cursor];
        match value {
            // A move-quality mark replaces the one there; others add up.
            Some(v) if (1..=6).contains(&v) => {
                node.nags.retain(|n| !(1..=6).contains(n));
                node.nags.insert(0, v);
            }
            Some(v) if !node.nags.contains(&v) => node.nags.push(v),
            Some(_) => {}
            None => node.nags.clear(),
        }
        analysis.modified = true;
    }
}

/// The tree node of the move drawn at a terminal cell of the move tree
/// panel (`rect`), if any.
pub fn move_at(
    analysis: &Analysis,
    rect: ratatui::layout::Rect,
    column: u16,
    row: u16,
) -> Option<usize> {
    let inner = crate::tui::layout::below_title(rect);
    if !inner.contains((column, row).into()) {
        return None;
    }
    let rows = move_rows::move_rows(analysis, inner.width);
    let first = move_rows::scroll(&rows, analysis.cursor, inner.height as usize);
    let tokens = rows.get(first + usize::from(row - inner.y))?;
    let x = column - inner.x;
    tokens
        .iter()
        .find(|t| t.node.is_some() && x >= t.x && x < t.x + t.text.chars().count() as u16)
        .and_then(|t| t.node)
}
