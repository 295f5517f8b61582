//! The state every mode shares: the game on the board, the players and
//! clocks, the selection and cursor, the command line, the status message,
//! the book and tables, the dialogs, and the outboxes to the engine and to
//! the background tasks. Modes change it; widgets draw from it.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Color, Move, Position, Square};

use crate::book::openings::{Opening, Openings};
use crate::book::{Book, BookMove, BookOptions};
use crate::config::{Dirs, Settings, TimeControl};
use crate::engine::level::{Level, Rng};
use crate::engine::movetables::TableWeights;
use crate::engine::stats::SearchStats;
use crate::engine::{Command, GoRequest, Limits, MoveSource, Score, SearchOptions};
use crate::game::notation::san_line;
use crate::game::tree::GameTree;
use crate::game::{Game, GameEnd};
use crate::tablebase::{Tablebases, TbProbe};

use super::clock::{Clock, format_clock};
use super::engine_line::Thinking;
use super::heatmap::MapState;
use super::layout::Panel;
use super::layout::side::Side;
use super::msg::ListEvent;
use super::overlays::game_list::GameList;
use super::overlays::{Confirm, OpenDialog, Overlay};
use super::save::{Players, date_and_time};
use super::tasks::Request;

/// How many recent files are remembered.
const RECENT_MAX: usize = 10;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Info,
    Error,
}

/// What the running search is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    EngineMove,
    Hint,
}

/// Something to do once the user agrees to drop unsaved changes.
#[derive(Debug, Clone, PartialEq)]
pub enum Pending {
    Tree(Box<GameTree>),
    LoadGame(PathBuf, usize),
    /// The new-game dialog.
    NewGame,
}

pub struct Shared {
    pub settings: Settings,
    pub(crate) dirs: Option<Dirs>,
    pub size: (u16, u16),
    pub overlay: Overlay,
    pub game: Game,
    pub players: Players,
    pub time_control: TimeControl,
    pub clock: Option<Clock>,
    pub end: Option<GameEnd>,
    pub flipped: bool,
    pub cursor: Square,
    pub selected: Option<Square>,
    pub(crate) drag_from: Option<Square>,
    /// The command line, while it is open.
    pub input: Option<String>,
    pub message: Option<(String, Tone)>,
    pub engine_panel: bool,
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
    /// The PGN text of the game as last saved with `s`, if it was.
    pub saved_game: Option<String>,
    pub thinking: Option<Thinking>,
    pub hint: Option<Move>,
    pub(crate) search: Option<(u64, Purpose)>,
    pub(crate) next_search_id: u64,
    /// The engine's evaluation at its last move, its own point of view.
    pub(crate) engine_score: Option<Score>,
    pub(crate) outbox: Vec<Command>,
    pub quit: bool,
    pub(crate) dirty: bool,
    pub(crate) shown_clocks: (String, String),
    pub(crate) rng: Rng,
    pub(crate) date: String,
    /// A game was started this session (or resumed).
    pub(crate) started: bool,
    /// The opening book (shown in the book panel; the engine has its own copy).
    pub book: Option<Arc<Book>>,
    /// Where the engine's last move came from (book or search), with its SAN.
    pub engine_source: Option<(String, MoveSource)>,
    /// Endgame tables, once loaded in the background.
    pub tablebases: Option<Arc<Tablebases>>,
    /// Set when the game came within five pieces (with generation in the
    /// background) or the user typed `:tables`: the loop then starts
    /// generating the missing tables (once).
    pub wants_tables: bool,
    /// The game came within five pieces (the loop then reads the tables it
    /// can reach, before the search needs them).
    pub near_tables: bool,
    /// The tablebase panel's contents, worked out once per position (a
    /// Syzygy probe of every move is too slow to repeat on every frame).
    pub(crate) tb_view: Option<(TbProbe, Vec<(Move, TbProbe)>)>,
    /// The position and tables `tb_view` was made for.
    pub(crate) tb_view_for: Option<(u64, usize)>,
    /// Which optional panel shows beside the board and where the tablebase
    /// list is scrolled to.
    pub side: Side,
    /// The games of the last opened file.
    pub game_list: Option<GameList>,
    /// Files and threads the event loop is asked for.
    pub(crate) requests: Vec<Request>,
    pub(crate) recent: Vec<PathBuf>,
    /// What waits for the answer to "drop unsaved changes?".
    pub(crate) pending: Option<Pending>,
    /// The id of the latest game list reading.
    pub(crate) list_id: u64,
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
        let level = settings.level;
        let mut shared = Shared {
            engine_panel: settings.engine_panel,
            stats_panel: None,
            stats: None,
            map: MapState::default(),
            engine_tables: None,
            no_color: false,
            true_colour: true,
            saved_game: None,
            settings,
            dirs,
            size,
            overlay,
            game: Game::default(),
            players: Players::VsEngine {
                human: Color::White,
                level,
            },
            time_control: TimeControl::Untimed,
            clock: None,
            end: None,
            flipped: false,
            cursor: Square::E2,
            selected: None,
            drag_from: None,
            input: None,
            message: None,
            thinking: None,
            hint: None,
            search: None,
            next_search_id: 0,
            engine_score: None,
            outbox: Vec::new(),
            quit: false,
            dirty: true,
            shown_clocks: (String::new(), String::new()),
            rng: Rng::from_time(),
            date: date_and_time().0,
            started: false,
            book: None,
            engine_source: None,
            tablebases: None,
            wants_tables: false,
            near_tables: false,
            tb_view: None,
            tb_view_for: None,
            side: Side::default(),
            game_list: None,
            requests: Vec::new(),
            recent: Vec::new(),
            pending: None,
            list_id: 0,
        };
        shared.load_recent();
        shared
    }

    /// A game is on and not finished (on the game board).
    pub fn game_in_progress(&self) -> bool {
        self.started && self.end.is_none() && !self.game.is_empty()
    }

    /// Whether the person at the keyboard may move now in a game.
    pub fn game_human_to_move(&self) -> bool {
        self.started
            && self.end.is_none()
            && !self.players.engine_plays(self.game.position().turn())
    }

    /// Files to read and threads to start, asked for by the last updates.
    pub fn take_requests(&mut self) -> Vec<Request> {
        std::mem::take(&mut self.requests)
    }

    /// What the tables say about the current position, and about each move.
    pub fn tablebase_view(&self) -> Option<&(TbProbe, Vec<(Move, TbProbe)>)> {
        self.tb_view.as_ref()
    }

    /// Work the tablebase panel out again if the position or the tables
    /// changed since the last time.
    pub fn refresh_tablebase_view(&mut self) {
        let Some(tables) = &self.tablebases else {
            return;
        };
        let position = self.game.position();
        let key = (
            crate::engine::position_key(position),
            Arc::as_ptr(tables) as usize,
        );
        if self.tb_view_for == Some(key) {
            return;
        }
        self.tb_view_for = Some(key);
        self.side.tablebase_first = 0;
        self.tb_view = tables.probe(position).map(|probe| {
            let moves = tables.probe_moves(position).unwrap_or_default();
            (probe, moves)
        });
    }

    /// Use `book` (or none) for the book panel and the engine's moves.
    pub fn set_book(&mut self, book: Option<Arc<Book>>, options: BookOptions) {
        self.book = book.clone();
        self.outbox.push(Command::SetBook { book, options });
        self.dirty = true;
    }

    /// The book's moves for the current position.
    pub fn book_moves(&self) -> Vec<BookMove> {
        self.book
            .as_ref()
            .map(|book| book.probe(self.game.position()).moves)
            .unwrap_or_default()
    }

    /// The name of the opening on the board: the deepest named position of
    /// the game so far.
    pub fn opening(&self) -> Option<&'static Opening> {
        let positions = (0..=self.game.len()).filter_map(|i| self.game.position_at(i));
        Openings::builtin().name_of_game(positions)
    }

    /// Seed the random choices (side "Random") for repeatable tests.
    pub fn seed(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }

    /// Commands for the engine produced by the last updates.
    pub fn take_commands(&mut self) -> Vec<Command> {
        std::mem::take(&mut self.outbox)
    }

    /// Whether the screen must be drawn again; clears the flag.
    pub fn take_dirty(&mut self) -> bool {
        std::mem::replace(&mut self.dirty, false)
    }

    /// Whether clock ticks are needed (a clock runs in a live game).
    pub fn needs_ticks(&self) -> bool {
        self.end.is_none() && self.clock.as_ref().is_some_and(|c| c.running().is_some())
    }

    pub fn started_game(&self) -> bool {
        self.started
    }

    pub fn engine_thinking(&self) -> bool {
        matches!(self.search, Some((_, Purpose::EngineMove)))
    }

    pub fn hint_pending(&self) -> bool {
        matches!(self.search, Some((_, Purpose::Hint)))
    }

    pub fn say(&mut self, text: impl Into<String>, tone: Tone) {
        self.message = Some((text.into(), tone));
    }

    /// The game came within five pieces: generate the missing tables as the
    /// `tablebase_generation` setting says.
    pub fn near_tables_reached(&mut self) {
        use crate::tablebase::Generation;
        let all = crate::tablebase::material::Material::all().len();
        let missing = self
            .tablebases
            .as_ref()
            .is_some_and(|t| t.builtin.len() < all);
        match self.settings.tablebase_generation {
            Generation::Background => self.wants_tables = true,
            Generation::Ask if missing => self.say(
                "Endgame tables are missing: type :tables to generate them in the background.",
                Tone::Info,
            ),
            Generation::Ask | Generation::Off => {}
        }
    }

    /// The clock texts as shown (White, Black).
    pub fn clock_texts(&self, now: Instant) -> (String, String) {
        match &self.clock {
            Some(clock) => (
                format_clock(clock.remaining(Color::White, now)),
                format_clock(clock.remaining(Color::Black, now)),
            ),
            None => ("-".into(), "-".into()),
        }
    }

    /// Another game on the board: the engine forgets its hash and its move
    /// tables, and so does the map.
    pub fn new_engine_game(&mut self) {
        self.outbox.push(Command::NewGame);
        self.engine_tables = None;
    }

    /// Set up a game (new or resumed) and get it going.
    /// A new game or analysis is on the board: nothing of the last one's
    /// selection, hint, engine output or dialogs stays.
    pub fn fresh_board(&mut self) {
        self.end = None;
        self.started = true;
        self.overlay = Overlay::None;
        self.selected = None;
        self.hint = None;
        self.thinking = None;
        self.engine_source = None;
        self.engine_score = None;
        self.input = None;
    }

    pub fn go(&mut self, limits: Limits, level: Level, purpose: Purpose, now: Instant) {
        self.next_search_id += 1;
        self.search = Some((self.next_search_id, purpose));
        if purpose == Purpose::EngineMove {
            self.stats = None;
        }
        self.outbox.push(Command::Go(Box::new(GoRequest {
            search_id: self.next_search_id,
            position: self.game.position().clone(),
            history: self.game.history_keys(),
            limits,
            options: self.search_options(),
            level,
            // A hint is the search's suggestion, not a random book pick.
            book: purpose == Purpose::EngineMove,
            received: now,
        })));
    }

    /// The search options every search of the board starts from: the
    /// defaults with the move-table settings of the config file.
    pub fn search_options(&self) -> SearchOptions {
        SearchOptions {
            table_moves: self.settings.move_table_moves,
            table_threshold: self.settings.move_table_threshold,
            ..SearchOptions::default()
        }
    }

    /// A map key (`m`, `M`, `#`) or a `:map` word changed the map.
    pub fn map_changed(&mut self, answer: Result<String, String>) {
        match answer {
            Ok(text) => self.say(text, Tone::Info),
            Err(text) => self.say(text, Tone::Error),
        }
        self.dirty = true;
    }

    /// Whether the statistics panel is shown, where the mode shows it by
    /// default or not.
    pub fn stats_shown(&self, by_default: bool) -> bool {
        self.stats_panel.unwrap_or(by_default)
    }

    /// `S`: show or hide the statistics panel (`by_default`: the mode's
    /// choice until now).
    pub fn toggle_stats(&mut self, by_default: bool) {
        let shown = !self.stats_shown(by_default);
        self.stats_panel = Some(shown);
        if shown {
            self.side.chosen = Some(Panel::Stats);
        }
        let state = if shown { "shown" } else { "hidden" };
        self.say(format!("Search statistics {state}."), Tone::Info);
    }

    pub fn stop_search(&mut self) {
        if self.search.take().is_some() {
            self.outbox.push(Command::Stop);
        }
        if let Some(thinking) = &mut self.thinking {
            thinking.live = false;
        }
    }

    /// Legal moves of the piece on `from`.
    pub fn moves_from(&self, from: Square) -> Vec<Move> {
        self.game
            .position()
            .legal_moves()
            .into_iter()
            .filter(|m| m.from() == Some(from))
            .collect()
    }

    pub fn own_piece(&self, square: Square) -> bool {
        let position = self.game.position();
        position.board().color_at(square) == Some(position.turn())
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
        let position = self.game.position();
        let mut sans: Vec<String> = position
            .legal_moves()
            .iter()
            .map(|&m| san_line(position, &[m]).join(""))
            .filter(|san| san.starts_with(typed))
            .collect();
        sans.sort();
        sans
    }

    pub fn recent_file(&self) -> Option<PathBuf> {
        self.dirs.as_ref().map(|d| d.data.join("recent.txt"))
    }

    /// The recently opened files, newest first.
    pub fn recent_files(&self) -> &[PathBuf] {
        &self.recent
    }

    pub fn load_recent(&mut self) {
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

    pub fn remember(&mut self, path: &Path) {
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
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

    pub fn open_game_list(&mut self) {
        match &self.game_list {
            Some(_) => self.overlay = Overlay::GameList,
            None => self.say("No file is open: o opens one (or paste a PGN).", Tone::Info),
        }
    }

    pub fn open_dialog(&mut self) {
        let dialog = OpenDialog {
            choices: self
                .recent
                .iter()
                .map(|p| p.display().to_string())
                .collect(),
            ..OpenDialog::default()
        };
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
        self.dirty = true;
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
        self.dirty = true;
    }
}

/// The destination square a person thinks of for `m` (castling: the king's
/// square, not the rook's).
pub fn destination(m: Move) -> Square {
    match m.to_uci(CastlingMode::Standard) {
        UciMove::Normal { to, .. } => to,
        _ => m.to(),
    }
}
