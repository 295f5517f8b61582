//! Teach mode's keys and command-line words.

use std::time::Instant;

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use super::{RECORDING, Record, SPEEDS, TOGGLES, Teach};
use crate::teach::replay::Landmark;
use crate::teach::{MAX_DEPTH, MIN_DEPTH};
use crate::tui::shared::{Shared, Tone};

pub const HELP: &[(&str, &str)] = &[
    ("→ l, ← h", "one step forward, one step back"),
    ("↓ j", "step over: past the subtree of the move being tried"),
    ("↑ k", "step out: to where this node returns its value"),
    ("c C", "next / previous cutoff"),
    ("b B", "next / previous new best move at the root"),
    ("t T", "next / previous transposition table hit"),
    ("Home g, End G", "the start, the end of the search"),
    ("Space, + -", "auto-play on/off; faster, slower"),
    ("e", "the rest of a long caption (page by page)"),
    (
        "1-7",
        "switch a technique on or off (the header lists them)",
    ),
    ("[ ], :depth N", "search shallower, deeper (1 to 6)"),
    ("p, :course", "the teaching positions (:positions); the course"),
    (
        "v, :tree; J, w",
        "tree (↑↓ z Z; Enter on skipped); go to node; White's view",
    ),
    (
        ":goto, :export",
        "first step reaching a line (:goto e4 e5); lesson as Markdown",
    ),
    (
        "P; y n > < i",
        "predict mode; answers: yes/no, ≥ beta/≤ alpha/inside, :move",
    ),
    ("S", "show or hide the statistics: a row per iteration"),
    (
        "",
        "nodes leaves cuts 1st% (by 1st move) hits qs% ply N/N-1",
    ),
    (
        "m M #, :map",
        "table; touches/importance/net/best; numbers; :map lists",
    ),
    ("f", "flip the board"),
    ("Esc", "back to the game or analysis"),
    ("?, D", "this help; the position in words (:describe)"),
    ("q, Ctrl-C", "quit"),
];

/// The key line under the board, longest first: the first that fits the
/// width is shown.
pub const KEY_LINES: [&str; 3] = [
    " ←→ step · ↓ over · ↑ out · c cutoff · t table · m map · Space play · 1-7 switch · p positions · Esc back · ? help",
    " ←→ step · ↓ over · ↑ out · c cutoff · Space play · m map · Esc back · ? help",
    " ←→ step · Space play · Esc back · ? help",
];

/// The key line while the tree view is shown, longest first.
pub const TREE_KEY_LINES: [&str; 3] = [
    " ↑↓ tree · Enter/z fold · Z path only · J go there · w minimax · ←→ step · c cutoff · v hide tree · ? help",
    " ↑↓ tree · z fold · J go there · w minimax · ←→ step · v hide · ? help",
    " ↑↓ tree · z fold · J go · v hide · ? help",
];

/// Whether a landmark lies ahead of (or behind) the step after `applied`.
fn landmark_found(
    replay: &crate::teach::Replay,
    applied: usize,
    mark: Landmark,
    forward: bool,
) -> bool {
    if forward {
        replay.find_forward(applied, |e| mark.matches(e)).is_some()
    } else {
        replay.find_backward(applied, |e| mark.matches(e)).is_some()
    }
}

/// What a key asks of the app beyond the mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asked {
    /// Done here.
    Taken,
    /// Not a teach key: the board's shared keys may take it.
    NotTaken,
    /// Leave teach mode.
    Leave,
    /// Show the teaching positions.
    Positions,
    /// Ask whether to quit.
    Quit,
}

impl Teach {
    pub fn on_key(&mut self, cx: &mut Shared, key: KeyEvent, now: Instant) -> Asked {
        match key.code {
            KeyCode::Esc => return Asked::Leave,
            KeyCode::Char('q') => return Asked::Quit,
            KeyCode::Char('p') => return Asked::Positions,
            KeyCode::Char('e') => {
                self.next_caption_page();
                return Asked::Taken;
            }
            KeyCode::Char(c @ '1'..='7') => {
                let index = c as usize - '1' as usize;
                self.toggle(cx, index, now);
                return Asked::Taken;
            }
            KeyCode::Char('[') => {
                self.set_depth(cx, self.setup.depth.saturating_sub(1), now);
                return Asked::Taken;
            }
            KeyCode::Char(']') => {
                self.set_depth(cx, self.setup.depth + 1, now);
                return Asked::Taken;
            }
            KeyCode::Char('+' | '=') => {
                self.speed = (self.speed + 1).min(SPEEDS.len() - 1);
                cx.say(
                    format!(
                        "Auto-play: {} a second.",
                        crate::core::counted(SPEEDS[self.speed], "step", "steps")
                    ),
                    Tone::Info,
                );
                return Asked::Taken;
            }
            KeyCode::Char('-') => {
                self.speed = self.speed.saturating_sub(1);
                cx.say(
                    format!(
                        "Auto-play: {} a second.",
                        crate::core::counted(SPEEDS[self.speed], "step", "steps")
                    ),
                    Tone::Info,
                );
                return Asked::Taken;
            }
            _ => {}
        }
        let Record::Ready { replay, step } = &self.record else {
            return match key.code {
                // The map's keys too: the map is there before the record.
                KeyCode::Char('f' | 'S' | '?' | 'D' | ':' | '/' | 'm' | 'M' | '#') => {
                    Asked::NotTaken
                }
                _ => {
                    if let Record::Making { .. } = self.record {
                        cx.say("The search is still being recorded.", Tone::Info);
                    }
                    Asked::Taken
                }
            };
        };
        let applied = step.applied;
        let landmark = |mark: Landmark, forward: bool| {
            if forward {
                replay.find_forward(applied, |e| mark.matches(e))
            } else {
                replay.find_backward(applied, |e| mark.matches(e))
            }
        };
        let target = match key.code {
            KeyCode::Right | KeyCode::Char('l') => Some(applied + 1),
            KeyCode::Left | KeyCode::Char('h') => Some(applied.saturating_sub(1)),
            KeyCode::Down | KeyCode::Char('j') => Some(replay.over(step)),
            KeyCode::Up | KeyCode::Char('k') => Some(replay.out(step)),
            KeyCode::Home | KeyCode::Char('g') => Some(0),
            KeyCode::End | KeyCode::Char('G') => Some(replay.len()),
            KeyCode::Char('c') => landmark(Landmark::Cutoff, true).or(Some(replay.len())),
            KeyCode::Char('C') => landmark(Landmark::Cutoff, false).or(Some(0)),
            KeyCode::Char('b') => landmark(Landmark::RootBest, true).or(Some(replay.len())),
            KeyCode::Char('B') => landmark(Landmark::RootBest, false).or(Some(0)),
            KeyCode::Char('t') => landmark(Landmark::TableHit, true).or(Some(replay.len())),
            KeyCode::Char('T') => landmark(Landmark::TableHit, false).or(Some(0)),
            KeyCode::Char(' ') => {
                self.playing = match self.playing {
                    Some(_) => None,
                    None if applied >= replay.len() => {
                        // At the end, play starts again from the start.
                        self.seek(0);
                        Some((now, 0.0))
                    }
                    None => Some((now, 0.0)),
                };
                return Asked::Taken;
            }
            _ => None,
        };
        match target {
            Some(target) => {
                let landmark = match key.code {
                    KeyCode::Char('c' | 'C') => Some(("cutoff", Landmark::Cutoff)),
                    KeyCode::Char('b' | 'B') => {
                        Some(("new best move at the root", Landmark::RootBest))
                    }
                    KeyCode::Char('t' | 'T') => {
                        Some(("transposition table hit", Landmark::TableHit))
                    }
                    _ => None,
                };
                let ahead = matches!(key.code, KeyCode::Char('c' | 'b' | 't'));
                let found =
                    landmark.is_none_or(|(_, mark)| landmark_found(replay, applied, mark, ahead));
                let missing = match key.code {
                    KeyCode::Char('t' | 'T') if !self.setup.options.transposition_table => {
                        Some("The transposition table is off (key 3 switches it on).".to_string())
                    }
                    KeyCode::Char('c' | 'C') if !self.setup.options.alpha_beta => {
                        Some("Minimax has no cutoffs (key 1 switches alpha-beta on).".to_string())
                    }
                    _ if !found => landmark.map(|(what, _)| {
                        format!(
                            "No {what} {}: at the {} of the search.",
                            if ahead { "ahead" } else { "before this step" },
                            if ahead { "end" } else { "start" }
                        )
                    }),
                    _ => None,
                };
                if let Some(text) = missing {
                    cx.say(text, Tone::Info);
                }
                self.playing = None;
                self.seek(target);
                Asked::Taken
            }
            None => Asked::NotTaken,
        }
    }

    /// Switch technique `index` (of [`TOGGLES`]) and record again.
    fn toggle(&mut self, cx: &mut Shared, index: usize, now: Instant) {
        if self.is_tree() && super::TREE_NEVER.contains(&index) {
            cx.say(
                format!(
                    "{}: no such thing on a hand-made tree.",
                    TOGGLES[index]
                ),
                Tone::Info,
            );
            return;
        }
        if self.setup.options.move_chains && super::CHAINS_NEVER.contains(&index) {
            cx.say(
                format!(
                    "{}: not a switch of the move-chain search.",
                    TOGGLES[index]
                ),
                Tone::Info,
            );
            return;
        }
        let name = self.toggle_name(index);
        let o = &mut self.setup.options;
        let flag = match index {
            0 => &mut o.alpha_beta,
            1 => &mut o.move_ordering,
            2 => &mut o.transposition_table,
            3 => &mut o.quiescence,
            4 => &mut o.pvs,
            5 => &mut o.iterative_deepening,
            _ => &mut o.selective,
        };
        *flag = !*flag;
        let on = *flag;
        // Principal-variation search and the selective search are kinds of
        // alpha-beta: without it they mean nothing. Switching alpha-beta off
        // keeps them as the learner set them (plain minimax ignores them:
        // see `teach::effective_options`), so switching it on again brings
        // them back.
        let mut note = String::new();
        if on && matches!(index, 4 | 6) && !o.alpha_beta {
            o.alpha_beta = true;
            note = " (alpha-beta too)".into();
        }
        cx.say(
            format!(
                "{} {}{note}{RECORDING}",
                name,
                if on { "on" } else { "off" }
            ),
            Tone::Info,
        );
        self.rerecord(cx, now);
    }

    fn set_depth(&mut self, cx: &mut Shared, depth: u32, now: Instant) {
        let deepest = self.max_depth();
        let depth = depth.clamp(MIN_DEPTH, deepest);
        if depth == self.setup.depth {
            let text = if depth == MIN_DEPTH {
                format!(
                    "Depth {MIN_DEPTH} is the shallowest: the search looks at least one ply ahead."
                )
            } else if self.is_tree() {
                format!("Depth {deepest} reaches the tree's deepest leaves.")
            } else {
                format!(
                    "Depth {MAX_DEPTH} is the deepest teach mode offers: deeper trees are too large to follow."
                )
            };
            cx.say(text, Tone::Info);
            return;
        }
        self.setup.depth = depth;
        cx.say(format!("Depth {depth}{RECORDING}"), Tone::Info);
        self.rerecord(cx, now);
    }

    /// A typed command; false when it is not teach mode's.
    pub fn on_command(&mut self, cx: &mut Shared, typed: &str, now: Instant) -> Option<Asked> {
        let mut words = typed.split_whitespace();
        match (words.next()?, words.next()) {
            ("depth", Some(n)) => match n.parse::<u32>() {
                Ok(depth) if (MIN_DEPTH..=self.max_depth()).contains(&depth) => {
                    self.set_depth(cx, depth, now);
                }
                _ => cx.say(
                    format!("Depth is a number from {MIN_DEPTH} to {}.", self.max_depth()),
                    Tone::Error,
                ),
            },
            ("step", Some(n)) => match (n.parse::<usize>(), self.ready()) {
                (Ok(n), Some((replay, _))) if n <= replay.len() => {
                    self.playing = None;
                    self.seek(n);
                }
                (_, Some((replay, _))) => {
                    let last = crate::teach::values::count_text(replay.len() as u64);
                    cx.say(format!("Steps go from 0 to {last}."), Tone::Error)
                }
                (_, None) => cx.say("The search is still being recorded.", Tone::Info),
            },
            ("positions", None) => return Some(Asked::Positions),
            ("back" | "leave", None) => return Some(Asked::Leave),
            _ => return None,
        }
        Some(Asked::Taken)
    }
}
