//! What the board draws on besides the game: the settings and folders, the
//! opening book, the endgame tables (and the tablebase panel's view of the
//! position), the recently opened files and the random numbers.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use shakmaty::{Chess, Move};

use crate::book::{Book, BookMove};
use crate::config::{Dirs, Settings};
use crate::engine::SearchOptions;
use crate::engine::level::Rng;
use crate::tablebase::{Tablebases, TbProbe};
use crate::tui::overlays::new_game::{Choices, NewGameForm};

/// How many recent files are remembered.
const RECENT_MAX: usize = 10;

pub struct Services {
    pub settings: Settings,
    /// `None` keeps everything in memory (tests).
    pub dirs: Option<Dirs>,
    /// The opening book (shown in the book panel; the engine has its own copy).
    pub book: Option<Arc<Book>>,
    /// Endgame tables, once loaded in the background.
    pub tablebases: Option<Arc<Tablebases>>,
    /// Set when the game came within five pieces (with generation in the
    /// background) or the user typed `:tables`: the loop then starts
    /// generating the missing tables (once).
    pub wants_tables: bool,
    /// Background table making: whether it runs, how far it is, and the
    /// flag that stops it.
    pub making: TableMaking,
    /// The game came within five pieces (the loop then reads the tables it
    /// can reach, before the search needs them).
    pub near_tables: bool,
    /// The tablebase panel's contents, worked out once per position (a
    /// Syzygy probe of every move is too slow to repeat on every frame).
    tb_view: Option<(TbProbe, Vec<(Move, TbProbe)>)>,
    /// The position and tables `tb_view` was made for.
    tb_view_for: Option<(u64, usize)>,
    pub recent: Vec<PathBuf>,
    pub rng: Rng,
    /// This board's own autosave (`None`: no data folder, or none could be
    /// had; then `autosave.json` is written as before).
    pub autosave: Option<crate::tui::save::AutosaveSlot>,
    /// Unfinished games of boards that no longer run, offered one after
    /// another at the start; the first is the one the resume dialog shows.
    pub unfinished: std::collections::VecDeque<crate::tui::save::Unfinished>,
    /// The last new game's choices, which the next new-game dialog starts
    /// with (read from the data folder at the start).
    pub new_game: Option<Choices>,
    /// The position given with `--fen`: every new-game dialog of the
    /// session offers it ("the given position").
    pub given: Option<Chess>,
}

/// Where background table making is.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Making {
    /// Not started.
    #[default]
    Idle,
    /// Running: the table being made and the fraction of all the work done.
    Running { table: String, fraction: f64 },
    /// Every missing table was made.
    Done,
    /// Turned off for this session (`:tables off`).
    Off,
}

/// Background table making, as the board sees it.
#[derive(Debug, Default)]
pub struct TableMaking {
    pub state: Making,
    /// Shared with the generating threads: set, they stop.
    stop: Arc<AtomicBool>,
}

impl TableMaking {
    /// What the status line says while tables are made.
    pub fn status(&self) -> Option<String> {
        match &self.state {
            Making::Running { table, fraction } => {
                let at = if table.is_empty() {
                    String::new()
                } else {
                    format!(", now {table}")
                };
                Some(format!(
                    "Making endgame tables: {:.0}%{at} · :tables off stops",
                    fraction * 100.0
                ))
            }
            _ => None,
        }
    }

    /// The status line's right side while a message holds its left: the
    /// percentage, and the way to stop it (left out where there is no room).
    pub fn short_status(&self) -> Option<(String, &'static str)> {
        match &self.state {
            Making::Running { fraction, .. } => Some((
                format!("tables {:.0}%", fraction * 100.0),
                "· :tables off stops",
            )),
            _ => None,
        }
    }

    /// The generator's news: how far it is (`fraction` 1 when it ended,
    /// with the last table made, or none). Ignored unless it runs. True
    /// when it ended after making tables.
    pub fn progress(&mut self, table: String, fraction: f64) -> bool {
        if !matches!(self.state, Making::Running { .. }) {
            return false;
        }
        if fraction >= 1.0 {
            self.state = Making::Done;
            return !table.is_empty();
        }
        self.state = Making::Running { table, fraction };
        false
    }

    /// `:tables off`: stop the running generation, and start none again in
    /// this session. True if one was running.
    pub fn turn_off(&mut self) -> bool {
        let was_running = matches!(self.state, Making::Running { .. });
        self.stop.store(true, Ordering::Relaxed);
        self.state = Making::Off;
        was_running
    }

    /// `:tables on` after `:tables off`: allowed again (with a new flag, so
    /// that the stopped threads stay stopped).
    pub fn turn_on(&mut self) {
        if self.state == Making::Off {
            self.state = Making::Idle;
            self.stop = Arc::new(AtomicBool::new(false));
        }
    }
}

impl Services {
    /// The loop's question: start generating now? Yes (with the flag that
    /// stops it) when tables are wanted and none are being made or turned
    /// off; then they count as being made, and the wish is granted.
    pub fn start_tables(&mut self) -> Option<Arc<AtomicBool>> {
        if !self.wants_tables || !matches!(self.making.state, Making::Idle | Making::Done) {
            return None;
        }
        self.wants_tables = false;
        self.making.state = Making::Running {
            table: String::new(),
            fraction: 0.0,
        };
        Some(Arc::clone(&self.making.stop))
    }

    pub fn new(settings: Settings, dirs: Option<Dirs>) -> Services {
        let mut services = Services {
            settings,
            dirs,
            book: None,
            tablebases: None,
            wants_tables: false,
            making: TableMaking::default(),
            near_tables: false,
            tb_view: None,
            tb_view_for: None,
            recent: Vec::new(),
            rng: Rng::from_time(),
            autosave: None,
            unfinished: std::collections::VecDeque::new(),
            new_game: None,
            given: None,
        };
        services.load_recent();
        services.new_game = services.load_new_game();
        services
    }

    /// The book's moves for `position`.
    pub fn book_moves(&self, position: &Chess) -> Vec<BookMove> {
        self.book
            .as_ref()
            .map(|book| book.probe(position).moves)
            .unwrap_or_default()
    }

    /// What the tables say about the position, and about each move.
    pub fn tablebase_view(&self) -> Option<&(TbProbe, Vec<(Move, TbProbe)>)> {
        self.tb_view.as_ref()
    }

    /// Work the tablebase panel out again if the position or the tables
    /// changed since the last time; true when it did.
    pub fn refresh_tablebase_view(&mut self, position: &Chess) -> bool {
        let Some(tables) = &self.tablebases else {
            return false;
        };
        let key = (
            crate::engine::position_key(position),
            Arc::as_ptr(tables) as usize,
        );
        if self.tb_view_for == Some(key) {
            return false;
        }
        self.tb_view_for = Some(key);
        self.tb_view = tables.probe(position).map(|probe| {
            let moves = tables.probe_moves(position).unwrap_or_default();
            (probe, moves)
        });
        true
    }

    /// The search options every search of the board starts from: the
    /// defaults with the move-table settings of the config file.
    pub fn search_options(&self) -> SearchOptions {
        SearchOptions {
            table_moves: self.settings.move_table_moves,
            table_threshold: self.settings.move_table_threshold,
            table_decrement: self.settings.move_table_decrement,
            ..SearchOptions::default()
        }
    }

    fn recent_file(&self) -> Option<PathBuf> {
        self.dirs.as_ref().map(|d| d.data.join("recent.txt"))
    }

    fn new_game_file(&self) -> Option<PathBuf> {
        self.dirs.as_ref().map(|d| d.data.join(Choices::FILE))
    }

    /// The choices kept in the data folder; none (the defaults) when the
    /// file is missing, unreadable or not one of ours.
    fn load_new_game(&self) -> Option<Choices> {
        let path = self.new_game_file()?;
        let text = crate::fsutil::read_text_capped(
            &path,
            crate::fsutil::MAX_STATE_BYTES,
            "the last new game's choices",
        )
        .ok()?;
        Choices::parse(&text)
    }

    /// The new-game dialog, starting with the last game's choices.
    /// The new-game dialog, offering `fen_start` (`P` on the analysis
    /// board) or else the position given with `--fen`.
    pub fn new_game_form(&self, fen_start: Option<Chess>) -> NewGameForm {
        let fen_start = fen_start.or_else(|| self.given.clone());
        let mut form = NewGameForm::remembered(&self.settings, fen_start, self.new_game.as_ref());
        // Cheap enough to read each time (10,000 positions: about 30 ms).
        form.due = self.dirs.as_ref().and_then(|d| {
            crate::train::schedule::due_count(&d.data, crate::train::schedule::now())
        });
        form
    }

    /// Remember a new game's choices for the next dialog and the next start.
    pub fn remember_new_game(&mut self, choices: Choices) {
        self.new_game = Some(choices);
        if let Some(file) = self.new_game_file() {
            // Losing them costs only the defaults: not worth an error.
            let _ = crate::fsutil::write_atomic(&file, choices.to_text());
        }
    }

    fn load_recent(&mut self) {
        if let Some(path) = self.recent_file()
            && let Ok(text) = crate::fsutil::read_text_capped(
                &path,
                crate::fsutil::MAX_STATE_BYTES,
                "the recent-files list",
            )
        {
            self.recent = text
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(PathBuf::from)
                .take(RECENT_MAX)
                .collect();
        }
    }

    /// Put `path` first in the recent files (and in their file, read again
    /// first so that another board's files are kept).
    pub fn remember(&mut self, path: &Path) {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.load_recent();
        self.recent.retain(|p| p != &path);
        self.recent.insert(0, path);
        self.recent.truncate(RECENT_MAX);
        if let Some(file) = self.recent_file() {
            let text: String = self
                .recent
                .iter()
                .map(|p| format!("{}\n", p.display()))
                .collect();
            // A lost recent-files list is not worth an error message.
            let _ = crate::fsutil::write_atomic(&file, text);
        }
    }
}

impl Services {
    /// Write the game's autosave: to this board's own file, or where it has
    /// none to `autosave.json`. `Ok(false)`: no data folder.
    pub fn write_autosave(&self, saved: &crate::tui::save::SavedGame) -> std::io::Result<bool> {
        match (&self.autosave, &self.dirs) {
            (Some(slot), _) => slot.write(saved).map(|()| true),
            (None, Some(dirs)) => {
                crate::tui::save::write_autosave(&dirs.data, saved).map(|()| true)
            }
            (None, None) => Ok(false),
        }
    }
}
