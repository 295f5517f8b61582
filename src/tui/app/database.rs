//! The game database on the board: the explorer panel's queries and
//! answers, and games of the database as the game list (`kibitz db games
//! --open`) and on the analysis board.

use std::path::PathBuf;
use std::time::Instant;

use crate::db::GameRow;
use crate::tui::db_worker::DbReply;
use crate::tui::overlays::Overlay;
use crate::tui::overlays::game_list::GameList;
use crate::tui::shared::Tone;
use crate::tui::tasks::Request;

use super::App;

impl App {
    /// After every message: ask the database about the position on the
    /// analysis board if the explorer shows and has not asked yet.
    pub(super) fn refresh_explorer(&mut self) {
        if self.mode.analysis().is_none() {
            return;
        }
        let position = self.mode.get().panel_position(&self.cx).clone();
        if let Some(request) = self.cx.explorer.refresh(&position) {
            self.cx.request(Request::Db(request));
        }
    }

    /// The database's worker answered.
    pub(super) fn db_reply(&mut self, reply: DbReply, now: Instant) {
        match reply {
            DbReply::Explored { generation, result } => {
                let explorer = &mut self.cx.explorer;
                // A new problem is said in full in the status line too (the
                // panel may have to cut it).
                if explorer.reply(generation, result)
                    && let Some(problem) = explorer.new_problem.take()
                {
                    let text = explorer.problem_text(&problem);
                    self.cx.say(text, Tone::Error);
                }
            }
            DbReply::Games {
                path,
                query,
                result,
            } => match result {
                Ok((rows, total)) => {
                    self.open_db_list(path, &rows, total);
                    if let Some(list) = &mut self.cx.game_list {
                        list.reached = query.position.clone();
                        list.filter = crate::tui::shared::explorer::filter_text(&query.filter);
                    }
                    self.cx.message = None;
                }
                Err(problem) => {
                    let text = self.cx.explorer.problem_text(&problem);
                    self.cx.say(text, Tone::Error);
                }
            },
            DbReply::GameLoaded { path, id, result } => match result {
                Ok((tree, node)) => {
                    // No source: the game came from no PGN file, so a save
                    // never writes over one (`:save PATH`, or a new file in
                    // the data folder).
                    self.analyse(*tree, None, now);
                    // A game listed by `G`: where it reached the position.
                    if node != 0
                        && let Some(analysis) = self.mode.analysis_mut()
                    {
                        analysis.goto(&mut self.cx, node, now);
                    }
                    let name = path.file_name().map_or_else(
                        || path.display().to_string(),
                        |n| n.to_string_lossy().into(),
                    );
                    self.cx.say(
                        format!("Game {id} of the database {name} (s saves it as a new file)"),
                        Tone::Info,
                    );
                }
                Err(problem) => {
                    let text = self.cx.explorer.problem_text(&problem);
                    self.cx.say(text, Tone::Error);
                }
            },
        }
    }

    /// Show games of the database at `path` as the game list (`total`
    /// matched in all); Enter opens one.
    pub fn open_db_list(&mut self, path: PathBuf, rows: &[GameRow], total: u64) {
        let cx = &mut self.cx;
        cx.list_id += 1;
        cx.game_list = Some(GameList::from_database(path, cx.list_id, rows, total));
        cx.overlay = Overlay::GameList;
        self.dirty = true;
    }
}
