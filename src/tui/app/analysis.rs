//! The analysis board: a game tree to walk and edit, the engine analysing
//! the position on the board without end (several lines), and a game review
//! running beside it.
//!
//! The board, the book and tablebase panels and the move input are the play
//! mode's: `App::game` always holds the line from the start to the tree
//! node under the cursor, so everything that draws a game draws this one.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{KeyCode, KeyEvent};
use shakmaty::{Chess, Move, Position};

use crate::engine::level::Level;
use crate::engine::{Command, GoRequest, Limits, Report, Score, SearchOptions};
use crate::game::Game;
use crate::game::notation::san_line;
use crate::game::tree::GameTree;
use crate::review::{self, MoveReview, PositionEval};

use super::{App, Confirm, Overlay, Tone};

/// How many engine lines the analysis can show.
pub const MAX_LINES: usize = 5;
/// The review's thinking time per position unless the user says otherwise.
pub const REVIEW_MOVETIME_MS: u64 = 300;

/// One line of the engine's analysis, converted for display.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineLine {
    pub depth: u32,
    /// From White's point of view.
    pub score: Score,
    pub pv: Vec<Move>,
    pub san: Vec<String>,
    pub nodes: u64,
    pub nps: u64,
}

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
    pub lines: Vec<EngineLine>,
    /// How many lines to ask for (1-5).
    pub multipv: usize,
    /// The engine analyses (toggled with `a`).
    pub engine_on: bool,
    pub search: Option<u64>,
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
            lines: Vec::new(),
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
}

/// What the analysis board asks of the outside world (files and threads);
/// the event loop carries these out and answers with `Msg`s.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// Read the game list of a file in the background (a reader with an
    /// older id is stopped).
    ListGames {
        path: PathBuf,
        id: u64,
    },
    /// Read one game of a file.
    LoadGame {
        path: PathBuf,
        number: usize,
    },
    /// Review the main line at `movetime` per position.
    Review {
        id: u64,
        tree: Box<GameTree>,
        movetime: Duration,
    },
    StopReview,
    /// Put text on the clipboard (OSC 52, where the terminal supports it).
    Clipboard(String),
}

impl App {
    /// Switch to the analysis board with `tree`.
    pub fn analyse(&mut self, tree: GameTree, source: Option<GameSource>, now: Instant) {
        self.stop_search();
        self.stop_review();
        let mut analysis = Analysis::new(tree, source);
        // A game opens at its end when it is finished, like a scoresheet;
        // a position from a FEN at its start.
        analysis.cursor = 0;
        self.analysis = Some(Box::new(analysis));
        self.fresh_board();
        self.clock = None;
        self.flipped = false;
        self.sync_board(now);
    }

    /// Close the analysis board: its endless search and its review stop.
    pub(super) fn leave_analysis(&mut self) {
        self.stop_review();
        if let Some(analysis) = self.analysis.take()
            && analysis.search.is_some()
        {
            self.outbox.push(Command::Stop);
        }
    }

    /// Whether the analysis board is on.
    pub fn analysing(&self) -> bool {
        self.analysis.is_some()
    }

    /// The tree node under the cursor changed (or the tree did): rebuild
    /// the board's game and start analysing the new position.
    pub(super) fn sync_board(&mut self, now: Instant) {
        let Some(analysis) = &self.analysis else {
            return;
        };
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
        self.game = game;
        self.selected = None;
        self.dirty = true;
        self.restart_analysis(now);
    }

    /// Ask the engine for the position on the board (or stop it when the
    /// analysis is off). Reports of the previous position carry an older
    /// search id and are dropped when they arrive.
    fn restart_analysis(&mut self, now: Instant) {
        let Some(analysis) = &mut self.analysis else {
            return;
        };
        analysis.lines.clear();
        analysis.first_line = None;
        let position = self.game.position();
        let playable = !position.legal_moves().is_empty();
        if !analysis.engine_on || !playable {
            if analysis.search.take().is_some() {
                self.outbox.push(Command::Stop);
            }
            return;
        }
        self.next_search_id += 1;
        let id = self.next_search_id;
        analysis.search = Some(id);
        analysis.asked_at = Some(now);
        self.outbox.push(Command::Go(Box::new(GoRequest {
            search_id: id,
            position: position.clone(),
            history: self.game.history_keys(),
            limits: Limits {
                infinite: true,
                ..Limits::default()
            },
            options: SearchOptions {
                multipv: analysis.multipv,
                ..SearchOptions::default()
            },
            level: Level::default(),
            book: false,
            received: now,
        })));
    }

    /// An engine report while analysing.
    pub(super) fn analysis_report(&mut self, report: Report, now: Instant) {
        let position = self.game.position().clone();
        let Some(analysis) = &mut self.analysis else {
            return;
        };
        if analysis.search != Some(report.search_id()) {
            return;
        }
        match report {
            Report::Info(info) if !info.pv.is_empty() && info.multipv >= 1 => {
                let line = EngineLine {
                    depth: info.depth,
                    score: info.score.for_white(position.turn()),
                    san: san_line(&position, &info.pv),
                    pv: info.pv,
                    nodes: info.nodes,
                    nps: info.nps,
                };
                let index = info.multipv - 1;
                if index > analysis.lines.len() {
                    return;
                }
                if index == analysis.lines.len() {
                    analysis.lines.push(line);
                } else {
                    analysis.lines[index] = line;
                }
                // Heartbeats carry fresh counts: show them on every line.
                for l in &mut analysis.lines {
                    l.nodes = info.nodes;
                    l.nps = info.nps;
                }
                if analysis.first_line.is_none()
                    && let Some(asked) = analysis.asked_at
                {
                    analysis.first_line = Some(now.saturating_duration_since(asked));
                }
                self.dirty = true;
            }
            Report::BestMove { .. } => analysis.search = None,
            Report::Info(_) | Report::Stats { .. } | Report::Pong(_) => {}
        }
    }

    /// Go to `node` of the tree.
    pub fn goto(&mut self, node: usize, now: Instant) {
        let Some(analysis) = &mut self.analysis else {
            return;
        };
        if node >= analysis.tree.nodes.len() || node == analysis.cursor {
            return;
        }
        analysis.cursor = node;
        self.sync_board(now);
    }

    /// A move made on the board: follow it if the tree has it, else add it
    /// as a new variation (or as the continuation at the end of a line).
    pub(super) fn analysis_play(&mut self, m: Move, now: Instant) {
        let Some(analysis) = &mut self.analysis else {
            return;
        };
        let position = self.game.position().clone();
        if !position.is_legal(m) {
            self.say("That move is not legal here.", Tone::Error);
            return;
        }
        let before = analysis.tree.nodes.len();
        let node = analysis.tree.add_move_at(analysis.cursor, &position, m);
        if analysis.tree.nodes.len() != before {
            analysis.modified = true;
            let variation = analysis.tree.nodes[analysis.cursor].children.len() > 1;
            if variation {
                let san = analysis.tree.nodes[node].san.clone();
                self.message = Some((format!("New variation {san}"), Tone::Info));
            }
        }
        if let Some(analysis) = &mut self.analysis {
            analysis.cursor = node;
        }
        self.sync_board(now);
    }

    /// Forget the review: it was made for a main line that changed.
    fn drop_review(&mut self) {
        self.stop_review();
        if let Some(analysis) = &mut self.analysis {
            analysis.review = None;
        }
    }

    fn stop_review(&mut self) {
        if let Some(analysis) = &mut self.analysis
            && let Some(review) = &mut analysis.review
            && !review.done
        {
            review.done = true;
            self.requests.push(Request::StopReview);
        }
    }

    /// Start (or restart) the review of the main line.
    fn start_review(&mut self, movetime_ms: u64) {
        self.stop_review();
        self.next_search_id += 1;
        let id = self.next_search_id;
        let Some(analysis) = &mut self.analysis else {
            return;
        };
        let positions = analysis.tree.mainline().len() + 1;
        analysis.review = Some(ReviewState {
            id,
            evals: vec![None; positions],
            moves: Vec::new(),
            done: false,
            movetime_ms,
        });
        self.requests.push(Request::Review {
            id,
            tree: Box::new(analysis.tree.clone()),
            movetime: Duration::from_millis(movetime_ms),
        });
        let seconds = positions as u64 * movetime_ms / 1000;
        self.say(
            format!("Reviewing {positions} positions, about {seconds} s..."),
            Tone::Info,
        );
    }

    /// A reviewed position arrived from the background pass.
    pub(super) fn review_progress(&mut self, id: u64, ply: usize, eval: PositionEval) {
        let Some(analysis) = &mut self.analysis else {
            return;
        };
        let Some(review) = &mut analysis.review else {
            return;
        };
        if review.id != id || ply >= review.evals.len() {
            return;
        }
        review.evals[ply] = Some(eval);
        review.moves = review::judge(&analysis.tree, &review.evals);
        self.dirty = true;
    }

    pub(super) fn review_done(&mut self, id: u64) {
        let Some(analysis) = &mut self.analysis else {
            return;
        };
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
            "Review {}: {} inaccuracies, {} mistakes, {} blunders (n/N jump between them; :annotate writes them into the game)",
            if finished { "done" } else { "stopped" },
            count(review::Class::Inaccuracy),
            count(review::Class::Mistake),
            count(review::Class::Blunder),
        );
        self.say(text, Tone::Info);
        self.dirty = true;
    }

    /// Jump to the next (or previous) classified move of the review.
    fn jump_to_mark(&mut self, forward: bool, now: Instant) {
        let Some(analysis) = &self.analysis else {
            return;
        };
        let Some(review) = &analysis.review else {
            self.say("No review yet: R reviews the game.", Tone::Info);
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
                let text = format!(
                    "{}{}: {} ({:.0}% lost), best {}",
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
                self.goto(node, now);
                self.say(text, Tone::Info);
            }
            None => self.say("No more marked moves that way.", Tone::Info),
        }
    }

    /// Write the finished review into the tree.
    fn annotate(&mut self, now: Instant) {
        let Some(analysis) = &mut self.analysis else {
            return;
        };
        let Some(review) = &analysis.review else {
            self.say("No review to write: R reviews the game first.", Tone::Error);
            return;
        };
        if review.evaluated() == 0 {
            self.say("The review has no results yet.", Tone::Error);
            return;
        }
        let (moves, evals) = (review.moves.clone(), review.evals.clone());
        review::annotate(&mut analysis.tree, &moves, &evals);
        analysis.modified = true;
        let marked = moves.iter().filter(|m| m.class.is_some()).count();
        self.say(
            format!("Review written into the game: evaluations, {marked} marks and better lines."),
            Tone::Info,
        );
        self.sync_board(now);
    }

    /// Keys of the analysis board. Returns false for keys it leaves to the
    /// board (cursor, pick up and put down, flip, help, command line).
    pub(super) fn analysis_key(&mut self, key: KeyEvent, now: Instant) -> bool {
        let Some(analysis) = &self.analysis else {
            return false;
        };
        let cursor = analysis.cursor;
        let tree = &analysis.tree;
        let node = &tree.nodes[cursor];
        match key.code {
            KeyCode::Left => {
                if let Some(parent) = node.parent {
                    self.goto(parent, now);
                }
            }
            KeyCode::Right => {
                if let Some(&next) = node.children.first() {
                    self.goto(next, now);
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
                        Some(&sibling) => self.goto(sibling, now),
                        None if siblings.len() == 1 => {
                            self.say("No variation here.", Tone::Info);
                        }
                        None => {}
                    }
                }
            }
            KeyCode::Home => self.goto(0, now),
            KeyCode::End => {
                let end = tree.line_end(cursor);
                self.goto(end, now);
            }
            KeyCode::Char('a') => {
                if let Some(analysis) = &mut self.analysis {
                    analysis.engine_on = !analysis.engine_on;
                    let state = if analysis.engine_on { "on" } else { "off" };
                    self.say(format!("Analysis {state}."), Tone::Info);
                }
                self.restart_analysis(now);
            }
            KeyCode::Char(c @ ('+' | '-')) => {
                if let Some(analysis) = &mut self.analysis {
                    let n = if c == '+' {
                        (analysis.multipv + 1).min(MAX_LINES)
                    } else {
                        analysis.multipv.saturating_sub(1).max(1)
                    };
                    analysis.multipv = n;
                    self.say(format!("{n} engine line(s)."), Tone::Info);
                }
                self.restart_analysis(now);
            }
            KeyCode::Char(c @ '1'..='5') => {
                let index = (c as usize) - ('1' as usize);
                self.play_line(index, now);
            }
            KeyCode::Char('p') => self.promote(now),
            KeyCode::Delete | KeyCode::Char('x') => {
                if cursor != 0 {
                    self.overlay = Overlay::Confirm(Confirm::Delete);
                }
            }
            KeyCode::Char('c') => {
                let existing = node.comments.join(" ");
                self.input = Some(format!("comment {existing}"));
            }
            KeyCode::Char('b') => {
                if let Some(analysis) = &mut self.analysis {
                    analysis.breakdown = !analysis.breakdown;
                }
            }
            KeyCode::Char('R') => self.toggle_review(),
            KeyCode::Char('n') => self.jump_to_mark(true, now),
            KeyCode::Char('N') => self.jump_to_mark(false, now),
            KeyCode::Char('g') => self.open_game_list(),
            KeyCode::Char('o') => self.open_dialog(),
            KeyCode::Char('s') => self.save_analysis(None, false),
            KeyCode::Char('q') => {
                self.overlay = Overlay::Confirm(if self.unsaved() {
                    Confirm::QuitUnsaved
                } else {
                    Confirm::Quit
                });
            }
            _ => return false,
        }
        true
    }

    fn toggle_review(&mut self) {
        let running = self
            .analysis
            .as_ref()
            .and_then(|a| a.review.as_ref())
            .is_some_and(|r| !r.done);
        if running {
            self.stop_review();
            self.say("Review stopped.", Tone::Info);
        } else {
            self.start_review(REVIEW_MOVETIME_MS);
        }
    }

    /// Play the first move of engine line `index` (as a variation if new).
    pub fn play_line(&mut self, index: usize, now: Instant) {
        let first = self
            .analysis
            .as_ref()
            .and_then(|a| a.lines.get(index))
            .and_then(|l| l.pv.first().copied());
        match first {
            Some(m) => self.analysis_play(m, now),
            None => self.say(format!("No engine line {}.", index + 1), Tone::Info),
        }
    }

    fn promote(&mut self, now: Instant) {
        let Some(analysis) = &mut self.analysis else {
            return;
        };
        if analysis.tree.promote(analysis.cursor) {
            analysis.modified = true;
            self.drop_review();
            let Some(analysis) = &mut self.analysis else {
                return;
            };
            let main = analysis.tree.on_mainline(analysis.cursor);
            let text = if main {
                "The line is the main line now."
            } else {
                "The variation moved up a level."
            };
            self.say(text, Tone::Info);
            self.sync_board(now);
        } else {
            self.say("This move is on the main line already.", Tone::Info);
        }
    }

    /// Delete the move under the cursor and all that follows it.
    pub(super) fn delete_here(&mut self, now: Instant) {
        let Some(analysis) = &mut self.analysis else {
            return;
        };
        let san = analysis.tree.nodes[analysis.cursor].san.clone();
        if let Some(parent) = analysis.tree.delete(analysis.cursor) {
            analysis.cursor = parent;
            analysis.modified = true;
            // The review's node numbers are gone with the old arena.
            self.drop_review();
            self.say(format!("Deleted {san} and what followed."), Tone::Info);
            self.sync_board(now);
        }
    }

    /// Words of the command line that mean something on the analysis board.
    /// Returns false when the text is not one of them.
    pub(super) fn analysis_command(&mut self, typed: &str, now: Instant) -> bool {
        let (word, rest) = match typed.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (typed, ""),
        };
        match word {
            "comment" => {
                let Some(analysis) = &mut self.analysis else {
                    return false;
                };
                let node = &mut analysis.tree.nodes[analysis.cursor];
                node.comments = if rest.is_empty() {
                    Vec::new()
                } else {
                    vec![rest.to_string()]
                };
                analysis.modified = true;
                self.say(
                    if rest.is_empty() {
                        "Comment removed."
                    } else {
                        "Comment set."
                    },
                    Tone::Info,
                );
            }
            "nag" => self.set_nag(rest),
            "review" => {
                let movetime = if rest.is_empty() {
                    Ok(REVIEW_MOVETIME_MS)
                } else {
                    rest.parse::<u64>()
                };
                match movetime {
                    Ok(ms) if (10..=60_000).contains(&ms) => self.start_review(ms),
                    _ => self.say(
                        "review takes milliseconds per position, 10 to 60000",
                        Tone::Error,
                    ),
                }
            }
            "annotate" => self.annotate(now),
            "copy" | "pgn" => {
                if let Some(analysis) = &self.analysis {
                    let pgn = analysis.tree.to_pgn();
                    self.requests.push(Request::Clipboard(pgn));
                    self.say("PGN copied (if the terminal allows).", Tone::Info);
                }
            }
            "promote" => self.promote(now),
            "delete" => {
                if self.analysis.as_ref().is_some_and(|a| a.cursor != 0) {
                    self.overlay = Overlay::Confirm(Confirm::Delete);
                }
            }
            "lines" | "multipv" => match rest.parse::<usize>() {
                Ok(n) if (1..=MAX_LINES).contains(&n) => {
                    if let Some(analysis) = &mut self.analysis {
                        analysis.multipv = n;
                    }
                    self.restart_analysis(now);
                }
                _ => self.say("lines takes 1 to 5", Tone::Error),
            },
            "save" | "save!" => {
                let path = (!rest.is_empty()).then(|| PathBuf::from(expand_home(rest)));
                self.save_analysis(path, word == "save!");
            }
            "open" if !rest.is_empty() => self.open_path(PathBuf::from(expand_home(rest)), None),
            "open" => self.open_dialog(),
            "games" | "list" => self.open_game_list(),
            "start" => self.goto(0, now),
            "end" => {
                if let Some(a) = &self.analysis {
                    let end = a.tree.line_end(a.cursor);
                    self.goto(end, now);
                }
            }
            _ => return false,
        }
        true
    }

    /// Set or clear the move's NAG (`!`, `?`, `!!`, `??`, `!?`, `?!` or `$n`).
    fn set_nag(&mut self, text: &str) {
        let Some(analysis) = &mut self.analysis else {
            return;
        };
        if analysis.cursor == 0 {
            self.say("Go to a move first.", Tone::Error);
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
                    self.say(
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
        self.dirty = true;
    }

    /// The analysis has changes that are not saved.
    pub fn unsaved(&self) -> bool {
        self.analysis.as_ref().is_some_and(|a| a.modified)
    }

    /// Start a fresh analysis from `position`.
    pub fn analyse_position(&mut self, position: Chess, now: Instant) {
        let tree = GameTree::new(position);
        self.analyse(tree, None, now);
    }
}

/// `~/x` as the home folder's `x`.
pub fn expand_home(path: &str) -> String {
    match (path.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => format!("{}/{rest}", home.to_string_lossy()),
        _ => path.to_string(),
    }
}
