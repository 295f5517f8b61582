//! The analysis board's keys and command-line words.

use std::path::PathBuf;
use std::time::Instant;

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use crate::tui::layout::Panel;
use crate::tui::overlays::open_file::expand_home;
use crate::tui::overlays::{Confirm, Overlay};
use crate::tui::shared::{Shared, Tone};
use crate::tui::tasks::Request;

use super::{Analysis, FOR_GAMES, MAX_LINES, REVIEW_MOVETIME_MS};

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
    (
        "a, + -",
        "engine on/off (stopped at its limit: goes on); 1-5 lines",
    ),
    ("1-5", "play the first move of that engine line"),
    (
        "p, Del ⌫",
        "promote the variation; delete the move and what follows",
    ),
    (
        "x G, :explore",
        "database moves here (:db FILE); ↑↓ Enter play one; G games",
    ),
    (
        "t",
        "the threat: what the other side would play if it could move",
    ),
    (
        "P",
        "play on from here; after the game a puts it back as a line",
    ),
    (
        "K, :keep N",
        "keep engine line 1 (or N) as a variation, with [%eval]",
    ),
    (
        "c, :nag ?!",
        "comment on the move; set a mark (! ? !! ?? !? ?!)",
    ),
    (
        "R n N :annotate",
        "review (:review MS); n N its marks; :annotate writes it in",
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
        "m M #, :map",
        "table; touches/importance/net/best; numbers; :map lists",
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
        "show and copy the position's FEN; copy the game's PGN",
    ),
    (
        "f ? D q, :new",
        "flip, this help, the position in words; quit, a new game",
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

/// The key line while the explorer shows (↑↓ and Enter are its own).
pub const EXPLORER_KEY_LINES: [&str; 5] = [
    " ←→ moves · ↑↓ pick an explorer move · Enter plays it · G its games · :explore filters · x hides · ? help",
    " ←→ moves · ↑↓ pick an explorer move · Enter plays it · :explore filters · x hides · ? help",
    " ←→ moves · ↑↓ Enter explorer · G games · Tab panels · ? help",
    " ←→ moves · ↑↓ Enter explorer · Tab panels · ? help",
    " ←→ moves · ↑↓ Enter explorer · G games · x hides · ? help",
];

impl Analysis {
    /// Keys of the analysis board. Returns false for keys it leaves to the
    /// board (cursor, pick up and put down, flip, help, command line).
    pub fn on_key(&mut self, cx: &mut Shared, key: KeyEvent, now: Instant) -> bool {
        if self.explorer_key(cx, key, now) {
            return true;
        }
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
                        Some(&sibling) => {
                            // Says where it went: an older message (such as
                            // "No variation here.") would no longer be true.
                            let text = format!(
                                "Variation {} of {}: {}",
                                next + 1,
                                siblings.len(),
                                tree.nodes[sibling].san
                            );
                            self.goto(cx, sibling, now);
                            cx.say(text, Tone::Info);
                        }
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
            KeyCode::Char('a') => self.toggle_engine(cx, now),
            KeyCode::Char(c @ ('+' | '-')) => {
                {
                    let analysis = &mut *self;
                    let n = if c == '+' {
                        (analysis.multipv + 1).min(MAX_LINES)
                    } else {
                        analysis.multipv.saturating_sub(1).max(1)
                    };
                    let at_limit = n == analysis.multipv;
                    analysis.multipv = n;
                    let lines = crate::core::counted(n as u64, "engine line", "engine lines");
                    let text = match (at_limit, c) {
                        (true, '+') => format!("{lines}: the most there can be."),
                        (true, _) => format!("{lines}: the fewest there can be."),
                        _ => format!("{lines}."),
                    };
                    cx.say(text, Tone::Info);
                }
                self.restart_analysis(cx, now);
            }
            KeyCode::Char(c @ '1'..='5') => {
                let index = (c as usize) - ('1' as usize);
                self.play_line(cx, index, now);
            }
            KeyCode::Char('p') => self.promote(cx, now),
            KeyCode::Char('K') => self.keep_line(cx, 0),
            KeyCode::Char('t') => self.ask_threat(cx, now),
            KeyCode::Char('P') => self.play_on_from_here(cx),
            KeyCode::Char('x') => self.toggle_explorer(cx),
            KeyCode::Char('G') => self.list_explored_games(cx),
            // Backspace too: a laptop's Delete is often Fn-Backspace.
            KeyCode::Delete | KeyCode::Backspace => {
                if cursor != 0 {
                    cx.overlay = Overlay::Confirm(Confirm::Delete);
                }
            }
            KeyCode::Char('c') => {
                // The moves a file's game could not read are kept apart:
                // editing the comment never drops them.
                let existing = node
                    .comments
                    .iter()
                    .filter(|c| !c.starts_with(crate::game::import::UNREAD_PREFIX))
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(" ");
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
            // On a move the review marked: the lesson of why it fails
            // (elsewhere `T` teaches the position on the board).
            KeyCode::Char('T') => return self.mistake_lesson(cx),
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
                // Movetext the reader could not read stays (`c` leaves it
                // out of the text to edit).
                node.comments
                    .retain(|c| c.starts_with(crate::game::import::UNREAD_PREFIX));
                if !rest.is_empty() {
                    node.comments.insert(0, rest.to_string());
                }
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
            "keep" => match rest {
                "" => self.keep_line(cx, 0),
                n => match n.parse::<usize>() {
                    Ok(n) if (1..=MAX_LINES).contains(&n) => self.keep_line(cx, n - 1),
                    _ => cx.say("keep takes an engine line, 1 to 5", Tone::Error),
                },
            },
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
                // The explorer's database is no PGN file: writing a game
                // over it would lose every game in it.
                if let Some(path) = &path
                    && cx.explorer.is_database(path)
                {
                    let text = format!(
                        "{} is the explorer's game database, not a PGN file: save to a .pgn file (kibitz db import adds it to the database).",
                        path.display()
                    );
                    cx.say(text, Tone::Error);
                    return true;
                }
                self.save_analysis(cx, path, word == "save!");
            }
            "open" if !rest.is_empty() => {
                cx.open_path(PathBuf::from(expand_home(rest)), None, self.modified)
            }
            "open" => cx.open_dialog(),
            "games" | "list" => cx.open_game_list(),
            "explore" | "explorer" | "db" => self.explorer_command(cx, word, rest),
            "map" if rest.split_whitespace().next() == Some("game-history") => {
                let arg = rest["game-history".len()..].trim();
                self.game_history_command(cx, arg);
            }
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
        let marked = format!(
            "{}{}",
            node.san,
            node.nags.iter().map(|&n| super::move_rows::nag_text(n)).collect::<String>()
        );
        let text = match value {
            None => format!("Marks removed from {}.", node.san),
            Some(_) => format!("Marked {marked}."),
        };
        analysis.modified = true;
        cx.say(text, Tone::Info);
    }
}
