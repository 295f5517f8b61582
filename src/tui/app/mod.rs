//! `App`: all the state of the user interface and the one place it changes
//! (`update`). Drawing reads it and never changes it. `App` talks to the
//! engine only by leaving `Command`s in an outbox that the event loop sends,
//! so the whole interface can be driven in tests without a thread or a
//! terminal.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Move, Position, Role, Square};

use crate::book::openings::{Opening, Openings};
use crate::book::{Book, BookMove, BookOptions};
use crate::config::{Dirs, Settings, TimeControl};
use crate::engine::level::{Level, Rng};
use crate::engine::{
    Command, GoRequest, Limits, MoveSource, Report, Score, SearchInfo, SearchOptions,
};
use crate::game::notation::{parse_move, san_line};
use crate::game::pgn::{Headers, write_pgn};
use crate::game::tree::GameTree;
use crate::game::{Game, GameEnd};
use crate::tablebase::{Tablebases, TbProbe};

mod analysis;
mod files;

pub use analysis::{
    Analysis, EngineLine, GameSource, MAX_LINES, REVIEW_MOVETIME_MS, Request, ReviewState,
};
pub use files::{GameList, ListEvent, OpenDialog, Pending, complete_path};

use super::clock::{Clock, format_clock};
use super::layout;
use super::msg::Msg;
use super::save::{Players, SavedGame, date_and_time, write_autosave};

/// An untimed game gives the engine this long a move (lower levels stop
/// sooner at their own depth or node cap).
const UNTIMED_MOVETIME: Duration = Duration::from_secs(3);
/// How long the engine thinks about a hint for the player.
const HINT_MOVETIME: Duration = Duration::from_millis(1500);
/// The engine accepts a draw when it thinks it stands this badly or worse
/// (centipawns, its own view)...
const DRAW_ACCEPT_WORSE: i32 = -30;
/// ...or, after this many plies, when the position is about level.
const DRAW_ACCEPT_LEVEL_AFTER: usize = 60;
const DRAW_ACCEPT_LEVEL: i32 = 15;

/// The promotion pieces in the order the dialog offers them.
pub const PROMOTION_ROLES: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Info,
    Error,
}

/// Questions that need a yes or no.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirm {
    Quit,
    Resign,
    /// Start a new game while one is in progress.
    Abandon,
    /// Two players on one board: the other one accepts the draw?
    DrawOffer,
    /// Quit the analysis board with unsaved changes.
    QuitUnsaved,
    /// Open something else and drop the unsaved changes.
    Discard,
    /// Delete the move under the cursor and what follows it.
    Delete,
}

impl Confirm {
    pub fn question(self, game_in_progress: bool) -> &'static str {
        match self {
            Confirm::Quit if game_in_progress => {
                "Quit? The game is autosaved and offered again at the next start."
            }
            Confirm::Quit => "Quit kibitz?",
            Confirm::Resign => "Resign this game?",
            Confirm::Abandon => "Abandon this game and start a new one?",
            Confirm::DrawOffer => "A draw is offered. Accept it?",
            Confirm::QuitUnsaved => "The analysis has unsaved changes (s saves). Quit anyway?",
            Confirm::Discard => "The analysis has unsaved changes. Drop them?",
            Confirm::Delete => "Delete this move and everything after it?",
        }
    }
}

/// Who plays whom in the new-game dialog.
pub const SIDE_CHOICES: [&str; 5] = ["White", "Black", "Random", "Two players", "Analysis board"];
/// The side choice that opens the analysis board instead of a game.
const ANALYSIS_CHOICE: usize = 4;

#[derive(Debug, Clone, PartialEq)]
pub struct NewGameForm {
    pub field: usize,
    pub side: usize,
    pub level: u8,
    /// Index into `TimeControl::presets()`, or one past it for custom.
    pub time: usize,
    /// Custom base time, seconds.
    pub custom_seconds: u32,
    pub custom_increment: u32,
    /// A start position given with `--fen`, and whether to use it.
    pub fen_start: Option<Chess>,
    pub use_fen: bool,
}

impl NewGameForm {
    pub const FIELDS: [&'static str; 6] = [
        "Play as",
        "Level",
        "Time",
        "Minutes",
        "Increment",
        "Start from",
    ];

    fn new(settings: &Settings, fen_start: Option<Chess>) -> NewGameForm {
        let presets = TimeControl::presets();
        let (time, seconds, increment) = match presets
            .iter()
            .position(|(_, tc)| *tc == settings.time_control)
        {
            Some(index) => (index, 300, 3),
            None => match settings.time_control {
                TimeControl::Fischer { base, increment } => (
                    presets.len(),
                    base.as_secs().clamp(15, 3 * 3600) as u32,
                    increment.as_secs().min(60) as u32,
                ),
                TimeControl::Untimed => (presets.len() - 1, 300, 3),
            },
        };
        NewGameForm {
            field: 0,
            side: 0,
            level: settings.level.get(),
            time,
            custom_seconds: seconds,
            custom_increment: increment,
            use_fen: fen_start.is_some(),
            fen_start,
        }
    }

    pub fn is_custom(&self) -> bool {
        self.time >= TimeControl::presets().len()
    }

    /// Whether a field is shown (and can be selected).
    pub fn shows(&self, field: usize) -> bool {
        match field {
            1 => self.side < 3,
            2 => self.side != ANALYSIS_CHOICE,
            3 | 4 => self.is_custom() && self.side != ANALYSIS_CHOICE,
            5 => self.fen_start.is_some(),
            _ => field < Self::FIELDS.len(),
        }
    }

    pub fn time_control(&self) -> TimeControl {
        match TimeControl::presets().get(self.time) {
            Some((_, tc)) => *tc,
            None => TimeControl::fischer(
                u64::from(self.custom_seconds),
                u64::from(self.custom_increment),
            ),
        }
    }

    /// The text of a field's value.
    pub fn value(&self, field: usize) -> String {
        match field {
            0 => SIDE_CHOICES[self.side].to_string(),
            1 => format!("{} / 10", self.level),
            2 => match TimeControl::presets().get(self.time) {
                Some((family, TimeControl::Untimed)) => (*family).to_string(),
                Some((family, tc)) => format!("{tc} ({family})"),
                None => "custom".to_string(),
            },
            3 => match self.custom_seconds {
                s if s % 60 == 0 => format!("{} min", s / 60),
                s => format!("{}:{:02} min", s / 60, s % 60),
            },
            4 => format!("{} s", self.custom_increment),
            5 => if self.use_fen {
                "the given position"
            } else {
                "the standard position"
            }
            .to_string(),
            _ => String::new(),
        }
    }

    fn step(&mut self, delta: i32) {
        let bump = |value: u32, min: u32, max: u32| {
            (i64::from(value) + i64::from(delta)).clamp(i64::from(min), i64::from(max)) as u32
        };
        let presets = TimeControl::presets().len() as u32;
        match self.field {
            0 => self.side = bump(self.side as u32, 0, ANALYSIS_CHOICE as u32) as usize,
            1 => self.level = bump(u32::from(self.level), 1, 10) as u8,
            2 => self.time = bump(self.time as u32, 0, presets) as usize,
            3 => {
                // Whole minutes, in quarter minutes below two.
                let step = if self.custom_seconds < 120 { 15 } else { 60 };
                let next = i64::from(self.custom_seconds) + i64::from(delta) * step;
                let next = if step == 60 { next - next % 60 } else { next };
                self.custom_seconds = next.clamp(15, 3 * 3600) as u32;
            }
            4 => self.custom_increment = bump(self.custom_increment, 0, 60),
            5 => self.use_fen = !self.use_fen,
            _ => {}
        }
    }

    fn move_field(&mut self, delta: i32) {
        let mut field = self.field as i32;
        loop {
            field += delta;
            if field < 0 || field >= Self::FIELDS.len() as i32 {
                return;
            }
            if self.shows(field as usize) {
                self.field = field as usize;
                return;
            }
        }
    }

    /// Typing digits into the minutes or increment field.
    fn digit(&mut self, d: u32) {
        let edit = |value: u32, max: u32| {
            let typed = value * 10 + d;
            if typed > max { d } else { typed }
        };
        match self.field {
            3 => self.custom_seconds = edit(self.custom_seconds / 60, 180).max(1) * 60,
            4 => self.custom_increment = edit(self.custom_increment, 60),
            // "1" then "0" is level 10.
            1 if d == 0 && self.level == 1 => self.level = 10,
            1 if (1..=9).contains(&d) => self.level = d as u8,
            _ => {}
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Overlay {
    None,
    NewGame(NewGameForm),
    Resume(Box<SavedGame>),
    Promotion {
        from: Square,
        to: Square,
        choice: usize,
    },
    Confirm(Confirm),
    Help,
    GameOver,
    /// The games of the open file.
    GameList,
    Open(OpenDialog),
}

/// What the running search is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    EngineMove,
    Hint,
}

/// What the engine panel shows: the latest report of the engine's own move
/// search, converted for display when it arrived.
#[derive(Debug, Clone, PartialEq)]
pub struct Thinking {
    pub depth: u32,
    pub seldepth: u32,
    /// From White's point of view.
    pub score: Score,
    pub pv: Vec<String>,
    pub nodes: u64,
    pub nps: u64,
    pub elapsed: Duration,
    /// Still searching (false: this was the search of its last move).
    pub live: bool,
}

pub struct App {
    pub settings: Settings,
    dirs: Option<Dirs>,
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
    drag_from: Option<Square>,
    /// The command line, while it is open.
    pub input: Option<String>,
    pub message: Option<(String, Tone)>,
    pub engine_panel: bool,
    pub thinking: Option<Thinking>,
    pub hint: Option<Move>,
    search: Option<(u64, Purpose)>,
    next_search_id: u64,
    /// The engine's evaluation at its last move, its own point of view.
    engine_score: Option<Score>,
    outbox: Vec<Command>,
    pub quit: bool,
    dirty: bool,
    shown_clocks: (String, String),
    rng: Rng,
    date: String,
    /// A game was started this session (or resumed).
    started: bool,
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
    tb_view: Option<(TbProbe, Vec<(Move, TbProbe)>)>,
    /// The position and tables `tb_view` was made for.
    tb_view_for: Option<(u64, usize)>,
    /// The analysis board, when it is on instead of a game.
    pub analysis: Option<Box<Analysis>>,
    /// The games of the last opened file.
    pub game_list: Option<GameList>,
    /// Files and threads the event loop is asked for.
    requests: Vec<Request>,
    recent: Vec<PathBuf>,
    /// What waits for the answer to "drop unsaved changes?".
    pending: Option<Pending>,
    /// The id of the latest game list reading.
    list_id: u64,
}

impl App {
    /// A new interface. `dirs` = `None` keeps everything in memory (tests).
    /// `fen_start` is a position given on the command line.
    pub fn new(
        settings: Settings,
        dirs: Option<Dirs>,
        fen_start: Option<Chess>,
        resume: Option<SavedGame>,
        size: (u16, u16),
    ) -> App {
        let form = NewGameForm::new(&settings, fen_start);
        let overlay = match resume {
            Some(saved) if form.fen_start.is_none() => Overlay::Resume(Box::new(saved)),
            _ => Overlay::NewGame(form),
        };
        let level = settings.level;
        let mut app = App {
            engine_panel: settings.engine_panel,
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
            analysis: None,
            game_list: None,
            requests: Vec::new(),
            recent: Vec::new(),
            pending: None,
            list_id: 0,
        };
        app.load_recent();
        app
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
    fn refresh_tablebase_view(&mut self) {
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

    /// A game is on and not finished.
    pub fn in_progress(&self) -> bool {
        self.analysis.is_none() && self.started && self.end.is_none() && !self.game.is_empty()
    }

    /// Whether the person at the keyboard may move now.
    pub fn human_to_move(&self) -> bool {
        if self.analysis.is_some() {
            // On the analysis board either side may move.
            return !self.game.position().legal_moves().is_empty();
        }
        self.started
            && self.end.is_none()
            && !self.players.engine_plays(self.game.position().turn())
    }

    fn say(&mut self, text: impl Into<String>, tone: Tone) {
        self.message = Some((text.into(), tone));
    }

    pub fn update(&mut self, msg: Msg, now: Instant) {
        match msg {
            Msg::Key(key, _) => {
                if key.kind != KeyEventKind::Release {
                    self.dirty = true;
                    self.key(key, now);
                }
            }
            Msg::Mouse(mouse) => self.mouse(mouse, now),
            Msg::Resize(w, h) => {
                self.size = (w, h);
                self.dirty = true;
            }
            Msg::Engine(report) => self.report(report, now),
            Msg::Tick => self.tick(now),
            Msg::Notice(text) => {
                self.say(text, Tone::Error);
                self.dirty = true;
            }
            Msg::Tablebases(tables) => {
                self.tablebases = Some(Arc::clone(&tables));
                self.outbox.push(Command::SetTablebases(Some(tables)));
                self.dirty = true;
            }
            Msg::Paste(text) => {
                self.dirty = true;
                self.paste(text, now);
            }
            Msg::GameList { id, event } => self.list_event(id, event),
            Msg::GameLoaded {
                path,
                number,
                result,
            } => self.game_loaded(path, number, result, now),
            Msg::Review { id, ply, eval } => self.review_progress(id, ply, eval),
            Msg::ReviewDone { id } => self.review_done(id),
            Msg::Terminate => self.leave(now),
        }
        if !self.near_tables && self.game.position().board().occupied().count() <= 5 {
            self.near_tables = true;
            self.near_tables_reached();
        }
        self.refresh_tablebase_view();
    }

    /// The game came within five pieces: generate the missing tables as the
    /// `tablebase_generation` setting says.
    fn near_tables_reached(&mut self) {
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

    // ----- clocks -------------------------------------------------------

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

    fn tick(&mut self, now: Instant) {
        if self.end.is_some() {
            return;
        }
        if let Some(loser) = self.clock.as_ref().and_then(|c| c.flagged(now)) {
            let end = self.game.flag(loser);
            self.finish(end, now);
            return;
        }
        let texts = self.clock_texts(now);
        if texts != self.shown_clocks {
            self.shown_clocks = texts;
            self.dirty = true;
        }
    }

    // ----- starting and ending games --------------------------------------

    fn start_game(&mut self, form: &NewGameForm, now: Instant) {
        if form.side == ANALYSIS_CHOICE {
            let start = match (&form.fen_start, form.use_fen) {
                (Some(position), true) => position.clone(),
                _ => Chess::default(),
            };
            self.analyse_position(start, now);
            self.say(
                "Analysis board: move for either side; ? lists the keys.",
                Tone::Info,
            );
            return;
        }
        self.leave_analysis();
        self.stop_search();
        let players = match form.side {
            3 => Players::TwoHumans,
            side => {
                let human = match side {
                    0 => Color::White,
                    1 => Color::Black,
                    _ if self.rng.next_u64() & 1 == 0 => Color::White,
                    _ => Color::Black,
                };
                Players::VsEngine {
                    human,
                    level: Level::new(form.level).unwrap_or_default(),
                }
            }
        };
        let start = match (&form.fen_start, form.use_fen) {
            (Some(position), true) => position.clone(),
            _ => Chess::default(),
        };
        self.begin(Game::new(start), players, form.time_control(), None, now);
        self.say(
            format!(
                "New game: {} vs {}, {}",
                self.players.name(Color::White),
                self.players.name(Color::Black),
                self.time_control
            ),
            Tone::Info,
        );
    }

    /// Set up a game (new or resumed) and get it going.
    /// A new game or analysis is on the board: nothing of the last one's
    /// selection, hint, engine output or dialogs stays.
    fn fresh_board(&mut self) {
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

    /// Take the game on the board to the analysis board.
    fn analyse_game(&mut self, now: Instant) {
        if self.analysis.is_some() {
            self.say("This is the analysis board already.", Tone::Info);
            return;
        }
        if self.in_progress() {
            self.say("Finish the game first (or resign with r).", Tone::Error);
            return;
        }
        let mut tree = GameTree::new(self.game.start().clone());
        let mut at = 0;
        for &m in self.game.moves() {
            at = tree.add_move(at, m);
        }
        tree.headers = self.headers();
        tree.result = self.end.map_or("*", GameEnd::result).to_string();
        let last = at;
        self.analyse(tree, None, now);
        if let Some(analysis) = &mut self.analysis {
            analysis.modified = !self.game.is_empty();
        }
        self.goto(last, now);
    }

    fn begin(
        &mut self,
        game: Game,
        players: Players,
        time_control: TimeControl,
        times: Option<(Duration, Duration)>,
        now: Instant,
    ) {
        self.outbox.push(Command::NewGame);
        self.game = game;
        self.players = players;
        self.time_control = time_control;
        self.clock = match time_control {
            TimeControl::Untimed => None,
            TimeControl::Fischer { base, increment } => Some(match times {
                Some((white, black)) => Clock::with_remaining(white, black, increment),
                None => Clock::new(base, increment),
            }),
        };
        // A resumed game's clock runs at once; a new game's starts with the
        // first move, so nobody loses time reading the board.
        if times.is_some()
            && let Some(clock) = &mut self.clock
        {
            clock.start(self.game.position().turn(), now);
        }
        self.fresh_board();
        self.flipped = matches!(
            players,
            Players::VsEngine {
                human: Color::Black,
                ..
            }
        );
        let turn = self.game.position().turn();
        self.cursor = if turn.is_white() {
            Square::E2
        } else {
            Square::E7
        };
        self.shown_clocks = self.clock_texts(now);
        self.dirty = true;
        self.after_move(now);
    }

    /// The position changed: the rules may end the game; otherwise the
    /// engine may be to move, and the game is autosaved.
    fn after_move(&mut self, now: Instant) {
        if let Some(end) = self.game.rules_end() {
            self.finish(end, now);
            return;
        }
        self.engine_turn(now);
        self.autosave(now);
    }

    fn finish(&mut self, end: GameEnd, now: Instant) {
        self.end = Some(end);
        self.stop_search();
        if let Some(clock) = &mut self.clock {
            clock.pause(now);
        }
        self.selected = None;
        self.overlay = Overlay::GameOver;
        self.say(end.describe(), Tone::Info);
        self.autosave(now);
        self.dirty = true;
    }

    // ----- moves ----------------------------------------------------------

    /// Play `m` for the side to move (already known legal or refused here).
    fn play(&mut self, m: Move, now: Instant) {
        if self.analysis.is_some() {
            return self.analysis_play(m, now);
        }
        // A flag that fell before this move arrived decides the game, even
        // if the tick that would have noticed it has not come yet.
        if let Some(loser) = self.clock.as_ref().and_then(|c| c.flagged(now)) {
            let end = self.game.flag(loser);
            self.finish(end, now);
            return;
        }
        if self.hint_pending() {
            self.stop_search();
        }
        let mover = self.game.position().turn();
        if !self.game.play(m) {
            self.say("That move is not legal here.", Tone::Error);
            return;
        }
        if let Some(clock) = &mut self.clock {
            if clock.running() == Some(mover) {
                clock.moved(mover, now);
            } else {
                clock.start(!mover, now);
            }
        }
        self.selected = None;
        self.hint = None;
        self.dirty = true;
        self.after_move(now);
    }

    /// If the engine is to move, start its search.
    fn engine_turn(&mut self, now: Instant) {
        if self.analysis.is_some() {
            return;
        }
        let turn = self.game.position().turn();
        let Players::VsEngine { level, .. } = self.players else {
            return;
        };
        if self.end.is_some() || !self.players.engine_plays(turn) {
            return;
        }
        let limits = match &self.clock {
            Some(clock) => Limits {
                white_time: Some(clock.remaining(Color::White, now)),
                black_time: Some(clock.remaining(Color::Black, now)),
                white_increment: Some(clock.increment()),
                black_increment: Some(clock.increment()),
                ..Limits::default()
            },
            None => Limits {
                movetime: Some(UNTIMED_MOVETIME),
                ..Limits::default()
            },
        };
        self.go(limits, level, Purpose::EngineMove, now);
        self.thinking = None;
    }

    fn go(&mut self, limits: Limits, level: Level, purpose: Purpose, now: Instant) {
        self.next_search_id += 1;
        self.search = Some((self.next_search_id, purpose));
        self.outbox.push(Command::Go(Box::new(GoRequest {
            search_id: self.next_search_id,
            position: self.game.position().clone(),
            history: self.game.history_keys(),
            limits,
            options: SearchOptions::default(),
            level,
            // A hint is the search's suggestion, not a random book pick.
            book: purpose == Purpose::EngineMove,
            received: now,
        })));
    }

    fn stop_search(&mut self) {
        if self.search.take().is_some() {
            self.outbox.push(Command::Stop);
        }
        if let Some(thinking) = &mut self.thinking {
            thinking.live = false;
        }
    }

    fn report(&mut self, report: Report, now: Instant) {
        if self.analysis.is_some() {
            return self.analysis_report(report, now);
        }
        let Some((id, purpose)) = self.search else {
            return;
        };
        // Reports of a search that was stopped or replaced are stale.
        if report.search_id() != id {
            return;
        }
        match report {
            Report::Info(info) if purpose == Purpose::EngineMove && info.multipv == 1 => {
                self.thinking = Some(self.thinking_from(&info));
                self.dirty = true;
            }
            Report::BestMove {
                best_move,
                score,
                source,
                ..
            } => {
                self.search = None;
                self.dirty = true;
                match (purpose, best_move) {
                    (Purpose::EngineMove, Some(m)) => {
                        let san = san_line(self.game.position(), &[m]).join("");
                        self.engine_source = Some((san, source));
                        // A book move has no score: keep the last searched one.
                        if !matches!(source, MoveSource::Book { .. }) {
                            self.engine_score = Some(score);
                        }
                        if let Some(thinking) = &mut self.thinking {
                            thinking.live = false;
                        }
                        self.play(m, now);
                    }
                    (Purpose::Hint, Some(m)) => {
                        let san = san_line(self.game.position(), &[m]).join("");
                        let side = self.game.position().turn();
                        self.say(
                            format!(
                                "Hint: {san} ({})",
                                crate::cli::format_score_white(score, side)
                            ),
                            Tone::Info,
                        );
                        self.hint = Some(m);
                    }
                    (_, None) => {}
                }
            }
            Report::Info(_) | Report::Stats { .. } | Report::Pong(_) => {}
        }
    }

    fn thinking_from(&self, info: &SearchInfo) -> Thinking {
        let position = self.game.position();
        Thinking {
            depth: info.depth,
            seldepth: info.seldepth,
            score: info.score.for_white(position.turn()),
            pv: san_line(position, &info.pv),
            nodes: info.nodes,
            nps: info.nps,
            elapsed: info.elapsed,
            live: true,
        }
    }

    /// The destination square a person thinks of for `m` (castling: the
    /// king's square, not the rook's).
    pub fn destination(m: Move) -> Square {
        match m.to_uci(CastlingMode::Standard) {
            UciMove::Normal { to, .. } => to,
            _ => m.to(),
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

    /// Try to move the selected piece to `to`: plays it, asks for the
    /// promotion piece, or returns false when it is not a legal target.
    fn try_move(&mut self, from: Square, to: Square, now: Instant) -> bool {
        let candidates: Vec<Move> = self
            .moves_from(from)
            .into_iter()
            .filter(|&m| Self::destination(m) == to || (m.is_castle() && m.to() == to))
            .collect();
        match candidates.as_slice() {
            [] => false,
            [m] => {
                self.play(*m, now);
                true
            }
            _ => {
                // Several moves between the same squares: a promotion.
                self.overlay = Overlay::Promotion {
                    from,
                    to,
                    choice: 0,
                };
                true
            }
        }
    }

    fn own_piece(&self, square: Square) -> bool {
        let position = self.game.position();
        position.board().color_at(square) == Some(position.turn())
    }

    /// Enter or Space on the cursor, or a click: pick up or put down.
    fn activate(&mut self, square: Square, now: Instant) {
        if !self.human_to_move() {
            if self.end.is_none() && self.started {
                self.say("Wait for the engine's move.", Tone::Info);
            }
            return;
        }
        let selected = self.selected;
        match selected {
            Some(from) if from == square => self.selected = None,
            Some(from) if self.try_move(from, square, now) => {}
            _ if self.own_piece(square) => {
                self.selected = Some(square);
                if self.moves_from(square).is_empty() {
                    self.say("That piece has no legal move.", Tone::Info);
                }
            }
            Some(_) => self.selected = None,
            None => {}
        }
    }

    // ----- keys -------------------------------------------------------------

    fn key(&mut self, key: KeyEvent, now: Instant) {
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            // Ctrl-C leaves at once; the autosave keeps the game. Unsaved
            // analysis is not autosaved: the first Ctrl-C asks, a second
            // one quits.
            if self.unsaved() && self.overlay != Overlay::Confirm(Confirm::QuitUnsaved) {
                self.overlay = Overlay::Confirm(Confirm::QuitUnsaved);
                return;
            }
            self.leave(now);
            return;
        }
        let area = Rect::new(0, 0, self.size.0, self.size.1);
        if layout::screen(area).is_none() {
            // Only the "too small" message is on screen: nothing acts (Ctrl-C,
            // above, still quits, keeping the game in the autosave).
            return;
        }
        match std::mem::replace(&mut self.overlay, Overlay::None) {
            Overlay::None => {}
            Overlay::NewGame(form) => return self.new_game_key(form, key, now),
            Overlay::Resume(saved) => return self.resume_key(*saved, key, now),
            Overlay::Promotion { from, to, choice } => {
                return self.promotion_key(from, to, choice, key, now);
            }
            Overlay::Confirm(question) => return self.confirm_key(question, key, now),
            Overlay::Help => {
                // Any key closes the help.
                return;
            }
            Overlay::GameOver => match key.code {
                KeyCode::Char('a') => return self.analyse_game(now),
                KeyCode::Char('n' | 's' | 'q' | 'u' | 'f' | '?') => {}
                _ => return,
            },
            Overlay::GameList => return self.game_list_key(key),
            Overlay::Open(dialog) => return self.open_key(dialog, key),
        }
        if self.input.is_some() {
            return self.input_key(key, now);
        }
        if self.analysis.is_some() && self.analysis_key(key, now) {
            return;
        }
        self.board_key(key, now);
    }

    fn board_key(&mut self, key: KeyEvent, now: Instant) {
        let (up, right): (i32, i32) = match key.code {
            KeyCode::Up | KeyCode::Char('k') => (1, 0),
            KeyCode::Down | KeyCode::Char('j') => (-1, 0),
            KeyCode::Left | KeyCode::Char('h') => (0, -1),
            KeyCode::Right | KeyCode::Char('l') => (0, 1),
            _ => (0, 0),
        };
        if (up, right) != (0, 0) {
            // Up is up the screen: towards rank 8, or rank 1 when flipped.
            let sign = if self.flipped { -1 } else { 1 };
            let file = (i32::from(self.cursor.file()) + right * sign).clamp(0, 7);
            let rank = (i32::from(self.cursor.rank()) + up * sign).clamp(0, 7);
            self.cursor = Square::from_coords(
                shakmaty::File::new(file as u32),
                shakmaty::Rank::new(rank as u32),
            );
            return;
        }
        match key.code {
            KeyCode::Enter | KeyCode::Char(' ') => self.activate(self.cursor, now),
            KeyCode::Esc => {
                self.selected = None;
                self.message = None;
            }
            KeyCode::Char(':' | '/') => self.input = Some(String::new()),
            KeyCode::Char('?') => self.overlay = Overlay::Help,
            KeyCode::Char('f') => self.flipped = !self.flipped,
            KeyCode::Char('e') => {
                self.engine_panel = !self.engine_panel;
                let state = if self.engine_panel { "shown" } else { "hidden" };
                self.say(format!("Engine panel {state}."), Tone::Info);
            }
            KeyCode::Char('u' | 'i' | 'd' | 'r') if self.analysis.is_some() => {
                self.say(
                    "That is for games; here Left goes back (:new starts a game).",
                    Tone::Info,
                );
            }
            KeyCode::Char('u') => self.takeback(now),
            KeyCode::Char('i') => self.ask_hint(now),
            KeyCode::Char('d') => self.offer_draw(now),
            KeyCode::Char('r') if self.end.is_none() && self.started => {
                self.overlay = Overlay::Confirm(Confirm::Resign);
            }
            KeyCode::Char('o') => self.open_dialog(),
            KeyCode::Char('g') => self.open_game_list(),
            KeyCode::Char('n') => {
                self.overlay = if self.in_progress() {
                    Overlay::Confirm(Confirm::Abandon)
                } else {
                    Overlay::NewGame(NewGameForm::new(&self.settings, None))
                };
            }
            KeyCode::Char('s') => self.save_pgn(now),
            KeyCode::Char('q') => {
                self.overlay = Overlay::Confirm(Confirm::Quit);
            }
            _ => {}
        }
    }

    fn input_key(&mut self, key: KeyEvent, now: Instant) {
        let Some(text) = &mut self.input else {
            return;
        };
        match key.code {
            KeyCode::Esc => self.input = None,
            KeyCode::Backspace if text.pop().is_none() => self.input = None,
            KeyCode::Backspace => {}
            KeyCode::Tab => {
                if let [only] = self.completions().as_slice() {
                    self.input = Some(only.clone());
                }
            }
            KeyCode::Enter => {
                let typed = text.trim().to_string();
                self.input = None;
                self.command(&typed, now);
            }
            KeyCode::Char(c) => text.push(c),
            _ => {}
        }
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

    /// What the command line asked for: a word command or a move.
    fn command(&mut self, typed: &str, now: Instant) {
        if self.analysis.is_some() && self.analysis_command(typed, now) {
            return;
        }
        if let Some(text) = typed.strip_prefix("fen ") {
            return match crate::game::fen::parse_fen(text.trim()) {
                Ok(position) if !self.in_progress() => {
                    self.load_tree(GameTree::new(position), now);
                }
                Ok(_) => self.say("Finish or leave the game first (n).", Tone::Error),
                Err(e) => self.say(format!("Not a FEN: {e}"), Tone::Error),
            };
        }
        if !self.in_progress() && self.load_text(typed, now) {
            return;
        }
        match typed {
            "" => {}
            "analyse" | "analyze" | "analysis" => self.analyse_game(now),
            "open" => self.open_dialog(),
            "games" => self.open_game_list(),
            "new" if self.unsaved() => {
                self.pending = Some(Pending::NewGame);
                self.overlay = Overlay::Confirm(Confirm::Discard);
            }
            "help" => self.overlay = Overlay::Help,
            "tables" => {
                self.wants_tables = true;
                self.say(
                    "Generating the missing endgame tables in the background.",
                    Tone::Info,
                );
            }
            "flip" => self.flipped = !self.flipped,
            "undo" | "takeback" => self.takeback(now),
            "hint" => self.ask_hint(now),
            "draw" => self.offer_draw(now),
            "resign" if self.end.is_none() && self.started => {
                self.overlay = Overlay::Confirm(Confirm::Resign);
            }
            "new" => self.board_key(KeyEvent::from(KeyCode::Char('n')), now),
            "save" => self.save_pgn(now),
            "fen" => {
                let fen = self.game.fen();
                self.requests.push(Request::Clipboard(fen.clone()));
                self.say(
                    format!("FEN: {fen} (copied, if the terminal allows)"),
                    Tone::Info,
                );
            }
            "quit" | "q" if self.unsaved() => {
                self.overlay = Overlay::Confirm(Confirm::QuitUnsaved);
            }
            "quit" | "q" => self.overlay = Overlay::Confirm(Confirm::Quit),
            _ if !self.human_to_move() => {
                let why = if self.end.is_some() {
                    "The game is over."
                } else {
                    "It is the engine's turn."
                };
                self.say(why, Tone::Error);
            }
            _ => match parse_move(self.game.position(), typed) {
                Ok(m) => {
                    self.message = None;
                    self.play(m, now);
                }
                Err(e) => self.say(e.to_string(), Tone::Error),
            },
        }
    }

    fn new_game_key(&mut self, mut form: NewGameForm, key: KeyEvent, now: Instant) {
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => form.move_field(-1),
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => form.move_field(1),
            KeyCode::Left | KeyCode::Char('h') => form.step(-1),
            KeyCode::Right | KeyCode::Char('l') | KeyCode::Char(' ') => form.step(1),
            KeyCode::Char(c @ '0'..='9') => form.digit(c.to_digit(10).unwrap_or(0)),
            KeyCode::Enter => return self.start_game(&form, now),
            KeyCode::Esc if self.started => return self.continue_game(now),
            KeyCode::Esc | KeyCode::Char('q') if !self.started => {
                self.quit = true;
                return;
            }
            _ => {}
        }
        self.overlay = Overlay::NewGame(form);
    }

    fn resume_key(&mut self, saved: SavedGame, key: KeyEvent, now: Instant) {
        match key.code {
            KeyCode::Char('y') | KeyCode::Enter => match saved.restore() {
                Ok((game, players, time_control)) => {
                    let times = (
                        Duration::from_millis(saved.white_ms),
                        Duration::from_millis(saved.black_ms),
                    );
                    self.begin(game, players, time_control, Some(times), now);
                    self.say("Game resumed.", Tone::Info);
                }
                Err(e) => {
                    self.say(format!("Cannot resume: {e}"), Tone::Error);
                    self.overlay = Overlay::NewGame(NewGameForm::new(&self.settings, None));
                }
            },
            KeyCode::Char('n') | KeyCode::Esc => {
                self.overlay = Overlay::NewGame(NewGameForm::new(&self.settings, None));
            }
            _ => self.overlay = Overlay::Resume(Box::new(saved)),
        }
    }

    fn promotion_key(
        &mut self,
        from: Square,
        to: Square,
        choice: usize,
        key: KeyEvent,
        now: Instant,
    ) {
        // Arrows move the choice round the four pieces (3 steps forward =
        // one back); other keys leave the dialog open as it is.
        let step = match key.code {
            KeyCode::Left | KeyCode::Char('h') | KeyCode::Up | KeyCode::Char('k') => 3,
            KeyCode::Right | KeyCode::Char('l') | KeyCode::Down | KeyCode::Char('j') => 1,
            _ => 0,
        };
        let pick = match key.code {
            KeyCode::Char('q') => Some(Role::Queen),
            KeyCode::Char('r') => Some(Role::Rook),
            KeyCode::Char('b') => Some(Role::Bishop),
            KeyCode::Char('n') => Some(Role::Knight),
            KeyCode::Enter | KeyCode::Char(' ') => Some(PROMOTION_ROLES[choice % 4]),
            KeyCode::Esc => {
                self.selected = None;
                None
            }
            _ => {
                self.overlay = Overlay::Promotion {
                    from,
                    to,
                    choice: (choice + step) % 4,
                };
                None
            }
        };
        if let Some(role) = pick {
            let m = self
                .moves_from(from)
                .into_iter()
                .find(|m| m.to() == to && m.promotion() == Some(role));
            if let Some(m) = m {
                self.play(m, now);
            }
        }
    }

    fn confirm_key(&mut self, question: Confirm, key: KeyEvent, now: Instant) {
        let yes = matches!(key.code, KeyCode::Char('y' | 'Y') | KeyCode::Enter);
        let no = matches!(key.code, KeyCode::Char('n' | 'N') | KeyCode::Esc);
        if !yes {
            if !no {
                self.overlay = Overlay::Confirm(question);
            } else if question == Confirm::DrawOffer {
                self.say("The draw offer is declined.", Tone::Info);
            } else if question == Confirm::Discard {
                self.pending = None;
            }
            return;
        }
        match question {
            Confirm::Quit | Confirm::QuitUnsaved => self.leave(now),
            Confirm::Discard => self.run_pending(now),
            Confirm::Delete => self.delete_here(now),
            Confirm::Abandon => {
                // The old game waits, clocks stopped, while the dialog is open.
                self.stop_search();
                if let Some(clock) = &mut self.clock {
                    clock.pause(now);
                }
                self.overlay = Overlay::NewGame(NewGameForm::new(&self.settings, None));
            }
            Confirm::Resign => {
                let resigner = match self.players {
                    Players::VsEngine { human, .. } => human,
                    Players::TwoHumans => self.game.position().turn(),
                };
                self.finish(GameEnd::Resignation { winner: !resigner }, now);
            }
            Confirm::DrawOffer => self.finish(GameEnd::Agreement, now),
        }
    }

    // ----- actions ------------------------------------------------------------

    /// Quit, saving the clocks as they stand so a resumed game does not
    /// give back the time thought since the last move.
    fn leave(&mut self, now: Instant) {
        if self.in_progress() {
            self.autosave(now);
        }
        self.quit = true;
    }

    /// Back from the new-game dialog to the game it interrupted.
    fn continue_game(&mut self, now: Instant) {
        if self.analysis.is_some() {
            return self.sync_board(now);
        }
        if self.end.is_some() {
            return;
        }
        if let Some(clock) = &mut self.clock
            && !self.game.is_empty()
        {
            clock.start(self.game.position().turn(), now);
        }
        self.engine_turn(now);
    }

    fn takeback(&mut self, now: Instant) {
        if self.game.is_empty() || !self.started {
            self.say("Nothing to take back.", Tone::Info);
            return;
        }
        if let Some(GameEnd::Time { .. }) = self.end {
            self.say("The game was decided on time; no takeback.", Tone::Error);
            return;
        }
        self.stop_search();
        self.end = None;
        let mut plies = 0;
        match self.players {
            Players::TwoHumans => {
                self.game.undo();
                plies = 1;
            }
            Players::VsEngine { human, .. } => {
                // Undo the engine's reply (if it came) and the player's move.
                while self.game.undo().is_some() {
                    plies += 1;
                    if self.game.position().turn() == human {
                        break;
                    }
                }
            }
        }
        // The side to move thinks on its own time again (also after a
        // finished game, whose clock was stopped); back at the start, the
        // first move is free as in a new game.
        if let Some(clock) = &mut self.clock {
            if self.game.is_empty() {
                clock.pause(now);
            } else {
                clock.start(self.game.position().turn(), now);
            }
        }
        self.selected = None;
        self.hint = None;
        self.thinking = None;
        self.engine_source = None;
        self.engine_score = None;
        self.overlay = Overlay::None;
        let s = if plies == 1 { "" } else { "s" };
        self.say(format!("Took back {plies} ply{s}."), Tone::Info);
        self.engine_turn(now);
        self.autosave(now);
    }

    fn ask_hint(&mut self, now: Instant) {
        if !self.human_to_move() {
            self.say("A hint is for your own move.", Tone::Info);
            return;
        }
        if self.search.is_some() {
            return;
        }
        let limits = Limits {
            movetime: Some(HINT_MOVETIME),
            ..Limits::default()
        };
        self.go(limits, Level::default(), Purpose::Hint, now);
        self.say("Looking for a hint...", Tone::Info);
    }

    fn offer_draw(&mut self, now: Instant) {
        if self.end.is_some() || !self.started {
            return;
        }
        match self.players {
            Players::TwoHumans => self.overlay = Overlay::Confirm(Confirm::DrawOffer),
            Players::VsEngine { .. } => {
                let accept = match self.engine_score {
                    Some(Score::Mate(n)) => n < 0,
                    Some(Score::Centipawns(cp)) => {
                        cp <= DRAW_ACCEPT_WORSE
                            || (cp <= DRAW_ACCEPT_LEVEL
                                && self.game.len() >= DRAW_ACCEPT_LEVEL_AFTER)
                    }
                    None => false,
                };
                if accept {
                    self.finish(GameEnd::Agreement, now);
                    self.say("kibitz accepts the draw.", Tone::Info);
                } else {
                    self.say("kibitz declines the draw and plays on.", Tone::Info);
                }
            }
        }
    }

    fn headers(&self) -> Headers {
        let result = self.end.map_or("*", GameEnd::result);
        let mut headers = Headers::new(
            &self.players.name(Color::White),
            &self.players.name(Color::Black),
            &self.date,
            result,
        );
        headers.set("TimeControl", self.time_control.pgn());
        if let Some(end) = self.end {
            headers.set("Termination", end.termination());
        }
        headers
    }

    fn save_pgn(&mut self, _now: Instant) {
        if !self.started {
            return;
        }
        let Some(dirs) = &self.dirs else {
            self.say("No data directory: nothing can be saved.", Tone::Error);
            return;
        };
        let (date, time) = date_and_time();
        let name = format!("kibitz-{}-{time}.pgn", date.replace('.', ""));
        let path: PathBuf = dirs.data.join("games").join(name);
        let result = self.end.map_or("*", GameEnd::result);
        let text = write_pgn(&self.game, &self.headers(), result);
        match crate::fsutil::write_atomic(&path, &text) {
            Ok(()) => self.say(format!("Saved {}", path.display()), Tone::Info),
            Err(e) => self.say(format!("Cannot save {}: {e}", path.display()), Tone::Error),
        }
    }

    fn autosave(&mut self, now: Instant) {
        let Some(dirs) = &self.dirs else {
            return;
        };
        // The autosave keeps games; the analysis board saves on request.
        if self.analysis.is_some() {
            return;
        }
        let times = match &self.clock {
            Some(clock) => (
                clock.remaining(Color::White, now),
                clock.remaining(Color::Black, now),
            ),
            None => (Duration::ZERO, Duration::ZERO),
        };
        let saved = SavedGame::new(
            &self.game,
            self.players,
            self.time_control,
            times,
            self.end.is_some(),
        );
        if let Err(e) = write_autosave(&dirs.data, &saved) {
            self.say(format!("Autosave failed: {e}"), Tone::Error);
        }
    }

    // ----- mouse -----------------------------------------------------------

    /// Clicks on the analysis panel: a move in the list goes there, an
    /// engine line plays its first move; the wheel steps through the line.
    fn analysis_mouse(&mut self, screen: &layout::Screen, mouse: MouseEvent, now: Instant) -> bool {
        let panel = screen.panel;
        let inside = panel.contains((mouse.column, mouse.row).into());
        match mouse.kind {
            MouseEventKind::Down(MouseButton::Left) if inside => {
                if let Some(node) =
                    super::analysis_ui::move_at(self, panel, mouse.column, mouse.row)
                {
                    self.goto(node, now);
                } else if let Some(index) =
                    super::analysis_ui::line_at(self, panel, mouse.column, mouse.row)
                {
                    self.play_line(index, now);
                }
                self.dirty = true;
                true
            }
            MouseEventKind::ScrollUp | MouseEventKind::ScrollDown if inside => {
                let code = if mouse.kind == MouseEventKind::ScrollUp {
                    KeyCode::Left
                } else {
                    KeyCode::Right
                };
                self.analysis_key(KeyEvent::from(code), now);
                true
            }
            _ => false,
        }
    }

    fn mouse(&mut self, mouse: MouseEvent, now: Instant) {
        let area = Rect::new(0, 0, self.size.0, self.size.1);
        let Some(screen) = layout::screen(area) else {
            return;
        };
        if self.overlay != Overlay::None || self.input.is_some() {
            return;
        }
        if self.analysis.is_some() && self.analysis_mouse(&screen, mouse, now) {
            return;
        }
        let square = screen
            .board
            .square_at(mouse.column, mouse.row, self.flipped);
        match mouse.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                let Some(square) = square else {
                    return;
                };
                self.cursor = square;
                self.dirty = true;
                let was_selected = self.selected;
                self.activate(square, now);
                // Pressing on a piece may begin a drag.
                if self.selected == Some(square) && was_selected != Some(square) {
                    self.drag_from = Some(square);
                }
            }
            MouseEventKind::Up(MouseButton::Left) => {
                if let (Some(from), Some(to)) = (self.drag_from.take(), square)
                    && from != to
                    && self.selected == Some(from)
                {
                    self.cursor = to;
                    if !self.try_move(from, to, now) {
                        self.selected = None;
                    }
                    self.dirty = true;
                }
            }
            MouseEventKind::Drag(MouseButton::Left) => {
                if let Some(square) = square
                    && square != self.cursor
                {
                    self.cursor = square;
                    self.dirty = true;
                }
            }
            _ => {}
        }
    }
}
