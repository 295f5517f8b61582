//! The explorer panel's keys and commands on the analysis board: `x` shows
//! it, ↑↓ pick one of its moves and Enter plays it (as a move made on the
//! board: it follows the game's move or adds a variation), `:explore`
//! sets its filter and `:db FILE` reads another database; `G` (`:explore
//! games`) lists the database's games that reached the position.

use std::path::PathBuf;
use std::time::Instant;

use ratatui::crossterm::event::{KeyCode, KeyEvent};

use crate::db::GameQuery;
use crate::tui::db_worker::DbRequest;
use crate::tui::layout::Panel;
use crate::tui::overlays::open_file::expand_home;
use crate::tui::shared::explorer::MISSING;
use crate::tui::shared::{Shared, Tone};
use crate::tui::tasks::Request;

/// At most this many games are listed by `G` (the most recent).
const GAMES_LISTED: usize = 1000;

use super::Analysis;

impl Analysis {
    /// `x`: show or hide the explorer.
    pub fn toggle_explorer(&mut self, cx: &mut Shared) {
        let explorer = &mut cx.explorer;
        explorer.shown = !explorer.shown;
        if explorer.shown {
            cx.side.chosen = Some(Panel::Explorer);
            // Del (or Backspace) deletes a move: said for who pressed x
            // out of another program's habit.
            cx.say(
                "Explorer: ↑↓ pick, Enter plays, G games, x hides. (Del or ⌫ deletes a move.)",
                Tone::Info,
            );
        } else {
            cx.say("Explorer hidden (↑↓ walk the variations again).", Tone::Info);
        }
    }

    /// The explorer shows and is the panel in view: where the side panels
    /// take turns (a compact terminal, Tab), another may be in its place.
    pub fn explorer_in_view(&self, cx: &Shared) -> bool {
        cx.explorer.shown
            && (!crate::tui::layout::panels::compact(cx.size)
                || cx.side.shown(&self.tab_panels(cx)) == Some(Panel::Explorer))
    }

    /// The keys the explorer takes while it is in view: ↑↓ pick a move,
    /// Enter plays it (unless a piece is picked up on the board: Enter puts
    /// it down). False for the others (hidden behind another panel, ↑↓
    /// walk the variations and Enter picks up a piece as before).
    pub(super) fn explorer_key(&mut self, cx: &mut Shared, key: KeyEvent, now: Instant) -> bool {
        if !self.explorer_in_view(cx) {
            return false;
        }
        match key.code {
            KeyCode::Up => cx.explorer.select(-1),
            KeyCode::Down => cx.explorer.select(1),
            KeyCode::Enter if cx.board.selected.is_none() => {
                let position = cx.board.game.position().clone();
                match cx.explorer.picked(&position) {
                    Ok(m) => self.play_move(cx, m, now),
                    Err(why) => cx.say(why, Tone::Info),
                }
            }
            _ => return false,
        }
        true
    }

    /// `G`: the games of the database that reached the position on the
    /// board (with the explorer's filter), most recent first, as the game
    /// list.
    pub fn list_explored_games(&mut self, cx: &mut Shared) {
        let Some(path) = cx.explorer.path.clone() else {
            cx.say(MISSING, Tone::Error);
            return;
        };
        let query = GameQuery {
            position: Some(cx.board.game.position().clone()),
            filter: cx.explorer.filter.clone(),
            limit: GAMES_LISTED,
            ..GameQuery::default()
        };
        cx.request(Request::Db(DbRequest::Games {
            path,
            query: Box::new(query),
        }));
        cx.say("Looking for the games that reached this position…", Tone::Info);
    }

    /// `:explore WORDS` and `:db FILE`.
    pub(super) fn explorer_command(&mut self, cx: &mut Shared, word: &str, rest: &str) {
        match word {
            "db" if rest.is_empty() => {
                let text = format!("Explorer's database: {}", cx.explorer.file_name());
                cx.say(text, Tone::Info);
            }
            "db" => {
                let path = PathBuf::from(expand_home(rest));
                let text = cx.explorer.set_database(&path);
                cx.side.chosen = Some(Panel::Explorer);
                cx.say(text, Tone::Info);
            }
            _ if rest == "games" => self.list_explored_games(cx),
            // `:explore` alone: as `x`, show or hide the panel.
            _ if rest.is_empty() => self.toggle_explorer(cx),
            _ => match cx.explorer.command(rest) {
                Ok(text) => {
                    cx.side.chosen = Some(Panel::Explorer);
                    cx.say(text, Tone::Info);
                }
                Err(why) => cx.say(why, Tone::Error),
            },
        }
    }
}
