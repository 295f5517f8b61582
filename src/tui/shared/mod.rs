//! What every mode shares, split by purpose: the board on screen
//! ([`BoardView`]), the services it draws on ([`Services`]: settings, book,
//! tables, recent files), the one [`EngineLink`], and the interface's own
//! state (dialog, command line, status message, which panels show, the
//! open file's game list, the requests for the event loop). A mode's own
//! session (a game's players and clocks, the analysis tree, a lesson) is
//! in the mode, not here.

pub mod board;
pub mod explorer;
pub mod lesson;
pub mod services;

pub use lesson::Lesson;

use std::path::PathBuf;
use std::sync::Arc;

use shakmaty::{Chess, Move, Position};

use crate::book::{Book, BookMove, BookOptions};
use crate::config::{Dirs, Settings};
use crate::engine::Command;
use crate::engine::movetables::TableWeights;
use crate::engine::stats::SearchStats;
use crate::game::notation::san_line;
use crate::game::tree::GameTree;
use crate::tablebase::TbProbe;

use super::engine_link::EngineLink;
use super::heatmap::MapState;
use super::layout::Panel;
use super::layout::side::Side;
use super::msg::ListEvent;
use super::overlays::game_list::GameList;
use super::overlays::{Confirm, OpenDialog, Overlay};
use super::tasks::Request;
pub use crate::game::notation::destination;

pub use board::BoardView;
pub use services::Services;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Info,
    Error,
}

/// Something to do once the user agrees to drop unsaved changes.
#[derive(Debug, Clone, PartialEq)]
pub enum Pending {
    Tree(Box<GameTree>),
    LoadGame(PathBuf, usize),
    /// A game of the game database (its file, the game's id).
    LoadDbGame(PathBuf, i64, Option<Box<shakmaty::Chess>>),
    /// The new-game dialog.
    NewGame,
}

/// A change of mode a mode asks for; the app carries it out after the
/// message (a mode cannot replace itself while it runs).
#[derive(Debug, Clone, PartialEq)]
pub enum Switch {
    /// Back to what the mode interrupted (teach mode's Esc).
    Back,
    /// The finished game to the analysis board.
    AnalyseGame,
    /// A lesson made of a reviewed move (`T` on a marked move).
    Lesson(Box<Lesson>),
}

pub struct Shared {
    pub board: BoardView,
    pub services: Services,
    pub engine: EngineLink,
    pub size: (u16, u16),
    pub overlay: Overlay,
    /// The command line, while it is open.
    pub input: Option<String>,
    pub message: Option<(String, Tone)>,
    /// The problems found while starting (config file, book, autosave),
    /// shown one at a time (Esc shows the next), and the one shown.
    pub problems: (Vec<String>, usize),
    pub engine_panel: bool,
    /// In a game against the engine, its line and score, the book and the
    /// tablebase show before the game's end (`v`; `spoilers` in the config).
    pub spoilers_shown: bool,
    /// Whether the search-statistics panel is shown: `None` leaves it to
    /// the mode (the analysis board shows it, a game does not), `S` decides.
    pub stats_panel: Option<bool>,
    /// The statistics of the engine's current (or last) search, as the
    /// engine reported them at its last finished iteration.
    pub stats: Option<Arc<SearchStats>>,
    /// The move-table map's switches (`m`, `M`, `#`, `:map`), for every mode.
    pub map: MapState,
    /// The engine's move tables at its last report (they build up over a
    /// game's searches; a new game clears them).
    pub engine_tables: Option<Arc<TableWeights>>,
    /// No colours for the map, digits only (`NO_COLOR` at start-up).
    pub no_color: bool,
    /// The terminal shows 24-bit colour (`COLORTERM` at start-up); else the
    /// themes use the 256-colour palette.
    pub true_colour: bool,
    pub quit: bool,
    /// Something was put on the board this session (a game started or
    /// resumed, a position or game opened for analysis).
    pub started: bool,
    /// Which optional panel shows beside the board and where the tablebase
    /// list is scrolled to.
    pub side: Side,
    /// The games of the last opened file.
    pub game_list: Option<GameList>,
    /// The analysis board's explorer panel (`x`): the game database's
    /// moves for the position.
    pub explorer: explorer::ExplorerPanel,
    /// The review of every game of a file (the game list's Ctrl-R).
    pub review_all: Option<super::overlays::review_all::ReviewAll>,
    /// Files and threads the event loop is asked for.
    pub(crate) requests: Vec<Request>,
    /// What waits for the answer to "drop unsaved changes?".
    pub(crate) pending: Option<Pending>,
    /// The id of the latest game list reading.
    pub(crate) list_id: u64,
    /// A change of mode asked for by the mode.
    pub(crate) switch: Option<Switch>,
}

impl Shared {
    /// The shared state at start-up. `dirs` = `None` keeps everything in
    /// memory (tests).
    pub fn new(
        settings: Settings,
        dirs: Option<Dirs>,
        overlay: Overlay,
        size: (u16, u16),
    ) -> Shared {
        // The database: the config's (or `--db`'s), else the data folder's.
        let database = match &settings.database {
            Some(path) => Some(PathBuf::from(super::overlays::open_file::expand_home(
                &path.to_string_lossy(),
            ))),
            None => dirs.as_ref().map(|d| crate::db::default_path(&d.data)),
        };
        Shared {
            explorer: explorer::ExplorerPanel::new(database, settings.database.is_some()),
            engine_panel: settings.engine_panel,
            spoilers_shown: settings.spoilers_shown,
            board: BoardView::default(),
            services: Services::new(settings, dirs),
            engine: EngineLink::default(),
            stats_panel: None,
            stats: None,
            map: MapState::default(),
            engine_tables: None,
            no_color: false,
            true_colour: true,
            size,
            overlay,
            input: None,
            message: None,
            problems: (Vec::new(), 0),
            quit: false,
            started: false,
            side: Side::default(),
            game_list: None,
            review_all: None,
            requests: Vec::new(),
            pending: None,
            list_id: 0,
            switch: None,
        }
    }

    /// Files to read and threads to start, asked for by the last updates.
    pub fn take_requests(&mut self) -> Vec<Request> {
        let mut requests = std::mem::take(&mut self.requests);
        requests.extend(self.engine.take_requests());
        requests
    }

    /// Ask the event loop for a file, a thread or the clipboard.
    pub fn request(&mut self, request: Request) {
        self.requests.push(request);
    }

    /// Ask for another mode once this message is handled.
    pub fn switch(&mut self, switch: Switch) {
        self.switch = Some(switch);
    }

    /// What the tables say about the current position, and about each move.
    pub fn tablebase_view(&self) -> Option<&(TbProbe, Vec<(Move, TbProbe)>)> {
        self.services.tablebase_view()
    }

    /// Work the tablebase panel out again if the position or the tables
    /// changed since the last time (its list then starts at the top).
    /// `position`: the one the panel is about (the mode's
    /// `panel_position`).
    pub fn refresh_tablebase_view(&mut self, position: &Chess) {
        if self.services.refresh_tablebase_view(position) {
            self.side.tablebase_first = 0;
        }
    }

    /// Use `book` (or none) for the book panel and the engine's moves.
    pub fn set_book(&mut self, book: Option<Arc<Book>>, options: BookOptions) {
        self.services.book = book.clone();
        self.engine.send(Command::SetBook { book, options });
    }

    /// The book's moves for the current position.
    pub fn book_moves(&self) -> Vec<BookMove> {
        self.services.book_moves(self.board.game.position())
    }

    /// The book's moves for `position` (a game looked back at).
    pub fn book_moves_at(&self, position: &Chess) -> Vec<BookMove> {
        self.services.book_moves(position)
    }

    /// Seed the random choices (side "Random") for repeatable tests.
    pub fn seed(&mut self, seed: u64) {
        self.services.rng = crate::engine::level::Rng::new(seed);
    }

    /// Commands for the engine produced by the last updates.
    pub fn take_commands(&mut self) -> Vec<Command> {
        self.engine.take_commands()
    }

    pub fn say(&mut self, text: impl Into<String>, tone: Tone) {
        self.message = Some((text.into(), tone));
    }

    /// Show the problems found while starting: the first in the status
    /// line, saying how many there are; each key shows the next.
    pub fn show_problems(&mut self, problems: Vec<String>) {
        self.problems = (problems, 0);
        self.show_problem();
    }

    /// Whether the status line shows a problem found while starting with
    /// more to come.
    pub fn showing_problem(&self) -> bool {
        let (problems, at) = &self.problems;
        *at + 1 < problems.len()
            && self.message.as_ref().map(|m| &m.0) == self.problem_text().as_ref()
    }

    /// After a key that left the problem shown (or cleared it): the next
    /// problem found while starting, if one is left. A key that said
    /// something of its own keeps its message.
    pub fn next_problem(&mut self) {
        let untouched = match &self.message {
            None => true,
            Some((text, _)) => Some(text) == self.problem_text().as_ref(),
        };
        let (problems, at) = &mut self.problems;
        if untouched && *at + 1 < problems.len() {
            *at += 1;
            self.show_problem();
        }
    }

    fn show_problem(&mut self) {
        if let Some(text) = self.problem_text() {
            self.say(text, Tone::Error);
        }
    }

    /// The problem shown now, with its place among them.
    fn problem_text(&self) -> Option<String> {
        let (problems, at) = &self.problems;
        let problem = problems.get(*at)?;
        Some(match problems.len() {
            1 => problem.clone(),
            n if at + 1 < n => format!("{} of {n} (any key: next): {problem}", at + 1),
            n => format!("{n} of {n}: {problem}"),
        })
    }

    /// The game came within five pieces: generate the missing tables as the
    /// `tablebase_generation` setting says.
    pub fn near_tables_reached(&mut self) {
        use crate::tablebase::Generation;
        let all = crate::tablebase::material::Material::all().len();
        let missing = self
            .services
            .tablebases
            .as_ref()
            .is_some_and(|t| t.builtin.len() < all);
        match self.services.settings.tablebase_generation {
            Generation::Background => self.services.wants_tables = true,
            Generation::Ask if missing => self.say(
                "Endgame tables are missing: type :tables to generate them in the background.",
                Tone::Info,
            ),
            Generation::Ask | Generation::Off => {}
        }
    }

    /// Another game on the board: the engine forgets its hash and its move
    /// tables, and so does the map.
    pub fn new_engine_game(&mut self) {
        self.engine.send(Command::NewGame);
        self.engine_tables = None;
        // The last game's search statistics are not this one's.
        self.stats = None;
    }

    /// A new game or analysis is on the board: nothing of the last one's
    /// selection, command line or dialogs stays.
    pub fn fresh_board(&mut self) {
        self.started = true;
        self.overlay = Overlay::None;
        self.board.selected = None;
        self.input = None;
    }

    /// A map key (`m`, `M`, `#`) or a `:map` word changed the map.
    pub fn map_changed(&mut self, answer: Result<String, String>) {
        match answer {
            Ok(text) => self.say(text, Tone::Info),
            Err(text) => self.say(text, Tone::Error),
        }
    }

    /// Whether the statistics panel is shown, where the mode shows it by
    /// default or not.
    pub fn stats_shown(&self, by_default: bool) -> bool {
        self.stats_panel.unwrap_or(by_default)
    }

    /// `S`: show or hide the statistics panel (`by_default`: the mode's
    /// choice until now; `searched`: whether a search has reported
    /// anything to show).
    pub fn toggle_stats(&mut self, by_default: bool, searched: bool) {
        let shown = !self.stats_shown(by_default);
        self.stats_panel = Some(shown);
        if shown {
            self.side.chosen = Some(Panel::Stats);
        }
        // Nothing is drawn before a search has reported: say so rather
        // than "shown" over an unchanged screen.
        let text = match (shown, searched) {
            (true, true) => "Search statistics shown.",
            (true, false) => "Search statistics will show once the engine has searched.",
            (false, _) => "Search statistics hidden.",
        };
        self.say(text, Tone::Info);
    }

    /// Legal moves (SAN) that begin with what is typed, for the command line.
    pub fn completions(&self) -> Vec<String> {
        let Some(typed) = self.input.as_deref() else {
            return Vec::new();
        };
        let typed = typed.trim();
        if typed.is_empty() {
            return Vec::new();
        }
        let position = self.board.game.position();
        let mut sans: Vec<String> = position
            .legal_moves()
            .iter()
            .map(|&m| san_line(position, &[m]).join(""))
            .filter(|san| san.starts_with(typed))
            .collect();
        sans.sort();
        sans
    }

    /// The recently opened files, newest first.
    pub fn recent_files(&self) -> &[PathBuf] {
        &self.services.recent
    }

    pub fn open_game_list(&mut self) {
        match &self.game_list {
            Some(_) => self.overlay = Overlay::GameList,
            None => self.say("No file is open: o opens one (or paste a PGN).", Tone::Info),
        }
    }

    /// `o`: the open-file dialog, offering the recent files and the games
    /// saved in the data folder.
    pub fn open_dialog(&mut self) {
        let data = self.services.dirs.as_ref().map(|d| d.data.as_path());
        let dialog = OpenDialog::new(&self.services.recent, data);
        self.overlay = Overlay::Open(dialog);
    }

    /// The game list's reader reported.
    pub fn list_event(&mut self, id: u64, event: ListEvent) {
        let Some(list) = &mut self.game_list else {
            return;
        };
        // A reader of a file opened before this one.
        if list.id != id {
            return;
        }
        match event {
            ListEvent::Games(batch) => list.add(batch),
            ListEvent::Done(Ok(count)) => {
                list.done = true;
                if count == 0 {
                    list.error = Some("no games in this file".into());
                }
                if count == 1 && list.open_single && self.overlay == Overlay::GameList {
                    list.open_single = false;
                    let path = list.path.clone();
                    self.requests.push(Request::LoadGame { path, number: 1 });
                }
            }
            ListEvent::Done(Err(e)) => {
                list.done = true;
                list.error = Some(e);
            }
        }
    }

    /// Open a PGN file: game `number`, or the game list (a file of one game
    /// opens that game). `unsaved`: the board has changes a game would drop.
    pub fn open_path(&mut self, path: PathBuf, number: Option<usize>, unsaved: bool) {
        if let Err(e) = crate::fsutil::open_regular(&path) {
            self.say(
                format!("Cannot open {}: {}", path.display(), e.why),
                Tone::Error,
            );
            return;
        }
        self.list_id += 1;
        self.game_list = Some(GameList::new(path.clone(), self.list_id, number.is_none()));
        self.requests.push(Request::ListGames {
            path: path.clone(),
            id: self.list_id,
        });
        match number {
            // Showing the list replaces nothing; a game does, so that asks.
            Some(n) if unsaved => {
                self.pending = Some(Pending::LoadGame(path, n));
                self.overlay = Overlay::Confirm(Confirm::Discard);
            }
            Some(n) => self.requests.push(Request::LoadGame { path, number: n }),
            None => self.overlay = Overlay::GameList,
        }
    }
}
