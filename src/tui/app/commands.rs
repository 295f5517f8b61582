//! The command line: typing, completion, and what a typed line asks for
//! (a word of the mode's, a word of the board's, or a move).

use std::time::Instant;

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use crate::game::notation::parse_move;
use crate::game::tree::GameTree;
use crate::tui::modes::switch;
use crate::tui::overlays::describe::DescribeView;
use crate::tui::overlays::{Confirm, Overlay};
use crate::tui::shared::{Pending, Tone};
use crate::tui::tasks::Request;

use super::App;

impl App {
    pub(super) fn input_key(&mut self, key: KeyEvent, now: Instant) {
        let completions = self.cx.completions();
        let Some(text) = &mut self.cx.input else {
            return;
        };
        match key.code {
            KeyCode::Esc => self.cx.input = None,
            // Backspace on an empty prompt keeps it open: only Esc (or Enter)
            // leaves it, so the letters typed next are never taken for keys.
            KeyCode::Backspace => {
                text.pop();
            }
            KeyCode::Tab => {
                if let [only] = completions.as_slice() {
                    *text = only.clone();
                }
            }
            KeyCode::Enter => {
                let typed = text.trim().to_string();
                self.cx.input = None;
                self.command(&typed, now);
            }
            KeyCode::Char(c) => text.push(c),
            _ => {}
        }
    }

    /// What the command line asked for: a word of the mode's, a word of the
    /// board's, or a move.
    fn command(&mut self, typed: &str, now: Instant) {
        let cx = &mut self.cx;
        if self.mode.get_mut().command(cx, typed, now) {
            return;
        }
        if typed == "describe" {
            return self.describe(now);
        }
        if typed == "map links" {
            return self.map_links();
        }
        if let Some(rest) = typed.strip_prefix("map export")
            && (rest.is_empty() || rest.starts_with(['!', ' ']))
        {
            return self.map_export(rest);
        }
        if typed == "map" || typed == "map help" {
            return self.map_words();
        }
        if typed == "map" || typed.starts_with("map ") {
            let answer = self.cx.map.command(&typed[3..]);
            let answer = answer.map(|text| self.overlay_counts(text));
            return self.cx.map_changed(answer);
        }
        if let Some(rest) = typed.strip_prefix("teach") {
            return self.teach_command(rest.trim(), now);
        }
        if let Some(text) = typed.strip_prefix("fen ") {
            return match crate::game::fen::parse_fen(text.trim()) {
                Ok(position) if !self.in_progress() => {
                    self.load_tree(GameTree::new(position), now);
                }
                Ok(_) => self
                    .cx
                    .say("Finish or leave the game first (n).", Tone::Error),
                Err(e) => self.cx.say(format!("Not a FEN: {e}"), Tone::Error),
            };
        }
        if !self.in_progress() && self.load_text(typed, now) {
            return;
        }
        let cx = &mut self.cx;
        match typed {
            "" => {}
            "analyse" | "analyze" | "analysis" => switch::analyse_game(&mut self.mode, cx, now),
            "open" => cx.open_dialog(),
            "games" => cx.open_game_list(),
            "new" if self.mode.get().unsaved() => {
                cx.pending = Some(Pending::NewGame);
                cx.overlay = Overlay::Confirm(Confirm::Discard);
            }
            "new" => {
                cx.overlay = Overlay::NewGame(cx.services.new_game_form(None));
            }
            "help" => cx.overlay = Overlay::Help(0),
            "tables" | "tables on" => {
                cx.services.making.turn_on();
                cx.services.wants_tables = true;
                cx.say(
                    "Generating the missing endgame tables in the background (:tables off stops).",
                    Tone::Info,
                );
            }
            "tables off" => {
                let was_running = cx.services.making.turn_off();
                cx.services.wants_tables = false;
                let what = if was_running {
                    "Endgame table making stopped"
                } else {
                    "Endgame table making is off"
                };
                cx.say(
                    format!(
                        "{what} for this session (:tables on goes on); tablebase_generation = \"off\" in config.toml keeps it off."
                    ),
                    Tone::Info,
                );
            }
            "flip" => cx.board.flipped = !cx.board.flipped,
            "stats" => {
                let by_default = self.mode.get().stats_by_default();
                let searched = self.mode.get().has_stats(cx);
                cx.toggle_stats(by_default, searched);
            }
            "fen" => {
                let fen = cx.board.game.fen();
                cx.request(Request::Clipboard(fen.clone()));
                cx.say(
                    format!("FEN: {fen} (copied, if the terminal allows)"),
                    Tone::Info,
                );
            }
            "quit" | "q" if self.mode.get().unsaved() => {
                cx.overlay = Overlay::Confirm(Confirm::QuitUnsaved);
            }
            "quit" | "q" => cx.overlay = Overlay::Confirm(Confirm::Quit),
            _ if !self.mode.get().human_to_move(cx) => {
                if let Some(why) = self.mode.get().why_no_move(cx, true) {
                    cx.say(why, Tone::Error);
                }
            }
            _ => match parse_move(cx.board.game.position(), typed) {
                Ok(m) => {
                    cx.message = None;
                    self.play(m, now);
                }
                Err(e) => cx.say(e.to_string(), Tone::Error),
            },
        }
    }

    /// `:teach` (the lesson of the position on the board) and `:teach N`
    /// (a new one at depth N).
    fn teach_command(&mut self, rest: &str, now: Instant) {
        if rest.is_empty() {
            return self.teach_board(now);
        }
        match rest.parse::<u32>() {
            Ok(depth) if (crate::teach::MIN_DEPTH..=crate::teach::MAX_DEPTH).contains(&depth) => {
                let position = self.cx.board.game.position().clone();
                let history = self.cx.board.game.history_keys();
                self.teach(position, history, depth, now);
            }
            _ => self.cx.say(
                format!(
                    ":teach takes a depth from {} to {}.",
                    crate::teach::MIN_DEPTH,
                    crate::teach::MAX_DEPTH
                ),
                Tone::Error,
            ),
        }
    }
}

impl App {
    /// `:map links`: the strongest links of the table shown (of all of
    /// them, when none is) in the map's scope, in words, a line each in
    /// the plain-lines view (so they read at any width), with why links
    /// are few.
    fn map_links(&mut self) {
        if let Some(crate::tui::heatmap::MapTable::Overlay(a, b)) = self.cx.map.shown {
            return self.overlay_links(a, b);
        }
        let table = match self.cx.map.shown {
            Some(crate::tui::heatmap::MapTable::One(id)) => Some(id),
            _ => None,
        };
        let scope = self.cx.map.scope;
        let Some(tables) = self.map_tables() else {
            self.cx
                .say("No move tables yet: a search fills them.", Tone::Info);
            return;
        };
        const SHOWN: usize = 12;
        let all: Vec<&crate::engine::movetables::TableLink> = match table {
            Some(id) => tables.links_of_in(scope, id).collect(),
            None => tables.links_in(scope).iter().collect(),
        };
        let whose = table.map_or_else(|| "all tables".to_string(), |id| id.name());
        let when = match scope {
            crate::engine::movetables::Scope::Game => "since the game began",
            crate::engine::movetables::Scope::Search => "in this search",
        };
        let mut lines = vec![match all.len() {
            0 => format!("No links yet for {whose} {when}."),
            n if n > SHOWN => format!("{n} links for {whose} {when}; the {SHOWN} strongest:"),
            1 => format!("1 link for {whose} {when}:"),
            n => format!("{n} links for {whose} {when}, strongest first:"),
        }];
        lines.extend(all.iter().take(SHOWN).map(|l| format!("- {}.", l.words())));
        lines.push(String::new());
        lines.extend(LINKS_WHY.iter().map(|l| l.to_string()));
        let count = all.len();
        self.cx.overlay = Overlay::Describe(DescribeView::titled(
            format!("Move-table links: {whose}"),
            lines,
        ));
        self.cx.say(
            match count {
                0 => format!("No links yet for {whose} {when}."),
                1 => format!("1 link for {whose} {when}."),
                n => format!("{n} links for {whose} {when}."),
            },
            Tone::Info,
        );
    }

    /// `:map` alone (or `:map help`): every word of `:map`, a line each.
    fn map_words(&mut self) {
        let mut lines = vec![self.cx.map.describe(), String::new()];
        // An overlay's legend in full, which a narrow screen cuts.
        if let Some(heat) = self.heat_shown().filter(|h| h.overlay.is_some()) {
            let diagram = crate::tui::heatmap::export::diagram(&heat);
            lines.extend(diagram.lines().skip(1).take(2).map(str::to_string));
            lines.push(String::new());
        }
        lines.extend(
            crate::tui::heatmap::MAP_WORDS
                .iter()
                .map(|(word, what)| format!("{word}: {what}")),
        );
        lines.push("Keys: m the next table, M the next view, # the numbers.".into());
        self.cx.overlay = Overlay::Describe(DescribeView::titled("The map's words", lines));
    }
}

/// Why a map shows few links, however long the search (shown under them).
const LINKS_WHY: [&str; 2] = [
    "A link joins a move of a refuting line to the reply after it (Greer's Fig. 2). Most refuting lines are one move long: below the move that cut off, the other side found nothing better than it already had, so the search keeps no line after it and makes no link.",
    "A line goes on, and links are made, only where the position after the cutoff move was answered by the transposition table, which adds its stored move. So links are few: teach mode's search, one depth with few table answers, makes almost none.",
];
