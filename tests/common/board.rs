//! The terminal board without a terminal, for the tests that drive it:
//! one `App` driven by messages at a time of the test's choosing, the
//! engine's reports and the background tasks' answers fed in by hand on
//! this thread (so every run is the same), and the screen drawn on
//! ratatui's `TestBackend`.
//!
//! Everything the tests do to `App` goes through here where it can: when
//! the interface's insides move, this file follows them, not every test.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use kibitz::book::{Book, BookOptions};
use kibitz::config::{Dirs, Settings, ThemeName, TimeControl};
use kibitz::engine::movetables::TableWeights;
use kibitz::engine::stats::SearchStats;
use kibitz::engine::{Bound, Command, MoveSource, Report, Score, SearchInfo};
use kibitz::game::fen::parse_fen;
use kibitz::game::import::read_game_at;
use kibitz::game::notation::parse_uci;
use kibitz::game::summary::summaries;
use kibitz::game::tree::GameTree;
use kibitz::review::batch;
use kibitz::teach::{self, TeachingPosition, compare};
use kibitz::tui::app::{App, ListEvent, Overlay, Request, Tone};
use kibitz::tui::layout::Screen;
use kibitz::tui::modes::Mode;
use kibitz::tui::modes::teach::Teach;
use kibitz::tui::msg::Msg;
use kibitz::tui::overlays::review_all::ReviewAllEvent;
use kibitz::tui::save::SavedGame;
use kibitz::tui::ui;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;
use ratatui::style::Color as Colour;
use shakmaty::{Chess, Move, Position, Square};

/// The search time a position `serve` gives the whole-file review.
const REVIEW_ALL_MOVETIME_MS: u64 = 60;

/// How `Board::screen` writes the screen as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Text {
    /// `TestBackend`'s own: each row whole, in quote marks.
    Quoted,
    /// Each row without its trailing blanks, the rows joined by newlines.
    Plain,
}

/// The figures of the engine lines `Board::info` and `Board::report` send,
/// beside their moves and score (they show on the engine panel).
#[derive(Debug, Clone, Copy)]
pub struct Figures {
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub nps: u64,
    pub hashfull: u32,
    pub elapsed: Duration,
}

impl Default for Figures {
    fn default() -> Figures {
        Figures {
            depth: 17,
            seldepth: 24,
            nodes: 2_000_000,
            nps: 1_500_000,
            hashfull: 100,
            elapsed: Duration::from_millis(1333),
        }
    }
}

/// What a `Board` starts with; `Board::options` makes one.
pub struct Options {
    size: (u16, u16),
    settings: Settings,
    dirs: Option<Dirs>,
    fen: Option<Chess>,
    resume: Option<SavedGame>,
    seed: Option<u64>,
    no_color: bool,
    text: Text,
    figures: Figures,
}

impl Options {
    /// The settings and seed of the play-mode tests: 5+3 (so the dialog's
    /// defaults are White, level 5, 5+3), the random choices seeded.
    pub fn blitz(mut self) -> Options {
        self.settings.time_control = TimeControl::fischer(300, 3);
        self.seed(1)
    }

    pub fn settings(mut self, settings: Settings) -> Options {
        self.settings = settings;
        self
    }

    pub fn theme(mut self, theme: ThemeName) -> Options {
        self.settings.theme = theme;
        self
    }

    /// Start from this position (given as on the command line).
    pub fn fen(mut self, fen: Option<&str>) -> Options {
        self.fen = fen.map(|f| parse_fen(f).unwrap());
        self
    }

    /// Folders for the config, data and cache (by default none: everything
    /// stays in memory).
    pub fn dirs(mut self, dirs: Dirs) -> Options {
        self.dirs = Some(dirs);
        self
    }

    /// An unfinished game to offer to resume.
    pub fn resume(mut self, saved: SavedGame) -> Options {
        self.resume = Some(saved);
        self
    }

    /// Seed the random choices (side "Random") for repeatable runs.
    pub fn seed(mut self, seed: u64) -> Options {
        self.seed = Some(seed);
        self
    }

    /// As with `NO_COLOR` set.
    pub fn no_color(mut self) -> Options {
        self.no_color = true;
        self
    }

    /// `screen` gives plain rows (`Text::Plain`).
    pub fn plain_text(mut self) -> Options {
        self.text = Text::Plain;
        self
    }

    pub fn figures(mut self, figures: Figures) -> Options {
        self.figures = figures;
        self
    }

    pub fn build(self) -> Board {
        let mut app = App::new(self.settings, self.dirs, self.fen, self.resume, self.size);
        if let Some(seed) = self.seed {
            app.seed(seed);
        }
        if self.no_color {
            app.cx.no_color = true;
        }
        Board {
            app,
            now: Instant::now(),
            size: self.size,
            left: Vec::new(),
            text: self.text,
            figures: self.figures,
        }
    }

    /// The board, on the analysis board chosen in the new-game dialog (its
    /// last choice but one).
    pub fn analysis(self) -> Board {
        let mut board = self.build();
        for _ in 0..4 {
            board.key(KeyCode::Right);
        }
        board.key(KeyCode::Enter);
        assert!(board.app.mode.analysis().is_some());
        board
    }

    /// The board in teach mode on `position` at `depth`, opened as `kibitz
    /// teach` opens it (Esc leads to the analysis board of the position);
    /// the record and the comparison are made.
    pub fn teach(self, position: Chess, depth: u32) -> Board {
        let mut board = self.build();
        board.analyse(position.clone());
        board.start_teach(position, depth);
        assert!(board.teaching(), "not in teach mode");
        board.serve();
        assert!(board.ready(), "no record: {:?}", board.teach_state().record);
        board
    }
}

/// A curated teaching position, by its name in `assets/teaching.txt`.
pub fn curated(name: &str) -> TeachingPosition {
    teach::positions()
        .into_iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no teaching position {name:?}"))
}

/// The board: the interface, its terminal and its time.
pub struct Board {
    pub app: App,
    /// The time the board is told: it moves only when the test moves it.
    pub now: Instant,
    /// The terminal's size, columns x rows (follows `Msg::Resize`).
    pub size: (u16, u16),
    /// Every request the board made that `serve` did not carry out.
    pub left: Vec<Request>,
    text: Text,
    figures: Figures,
}

impl Board {
    /// A board of `size` with the default settings, at the new-game dialog.
    pub fn new(size: (u16, u16)) -> Board {
        Board::options(size).build()
    }

    /// What a board of `size` starts with, to change before `build`.
    pub fn options(size: (u16, u16)) -> Options {
        Options {
            size,
            settings: Settings::default(),
            dirs: None,
            fen: None,
            resume: None,
            seed: None,
            no_color: false,
            text: Text::Quoted,
            figures: Figures::default(),
        }
    }

    /// A board of `size` for a 5+3 game (`Options::blitz`) from `fen`.
    pub fn blitz(size: (u16, u16), fen: Option<&str>) -> Board {
        Board::options(size).blitz().fen(fen).build()
    }

    /// The analysis board from the new-game dialog.
    pub fn analysis(size: (u16, u16)) -> Board {
        Board::options(size).analysis()
    }

    /// Teach mode on `position` at `depth` (`Options::teach`).
    pub fn teach(position: Chess, depth: u32, size: (u16, u16)) -> Board {
        Board::options(size).teach(position, depth)
    }

    /// A curated position at the depth its lesson is meant for.
    pub fn curated(name: &str, size: (u16, u16)) -> Board {
        let p = curated(name);
        Board::teach(p.position, p.depth, size)
    }

    // Input.

    pub fn update(&mut self, msg: Msg) {
        if let Msg::Resize(w, h) = msg {
            self.size = (w, h);
        }
        self.app.update(msg, self.now);
    }

    /// `ms` milliseconds go by, and the clock ticks.
    pub fn wait(&mut self, ms: u64) {
        self.now += Duration::from_millis(ms);
        self.update(Msg::Tick);
    }

    /// The terminal takes a new size.
    pub fn resize(&mut self, size: (u16, u16)) {
        self.update(Msg::Resize(size.0, size.1));
    }

    pub fn key(&mut self, code: KeyCode) {
        self.update(Msg::Key(KeyEvent::from(code), self.now));
    }

    /// Ctrl and `c` together.
    pub fn ctrl(&mut self, c: char) {
        let key = KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
        self.update(Msg::Key(key, self.now));
    }

    pub fn char(&mut self, c: char) {
        self.key(KeyCode::Char(c));
    }

    /// Each character of `text` as a key.
    pub fn keys(&mut self, text: &str) {
        for c in text.chars() {
            self.char(c);
        }
    }

    /// Type `text` on the command line and press Enter.
    pub fn typed(&mut self, text: &str) {
        self.char(':');
        self.keys(text);
        self.key(KeyCode::Enter);
    }

    pub fn mouse(&mut self, kind: MouseEventKind, column: u16, row: u16) {
        self.update(Msg::Mouse(MouseEvent {
            kind,
            column,
            row,
            modifiers: KeyModifiers::NONE,
        }));
    }

    /// A left click (the button going down) on a cell.
    pub fn click(&mut self, column: u16, row: u16) {
        self.mouse(MouseEventKind::Down(MouseButton::Left), column, row);
    }

    /// The mouse on `square` (the second cell of its top row).
    pub fn mouse_on(&mut self, kind: MouseEventKind, square: Square) {
        let rect = self.square_rect(square);
        self.mouse(kind, rect.x + 1, rect.y);
    }

    /// Start a game from the dialog (the defaults: White, level 5, with
    /// `Options::blitz` 5+3).
    pub fn start(&mut self) {
        self.key(KeyCode::Enter);
        assert_eq!(self.app.cx.overlay, Overlay::None);
    }

    /// `position` on the analysis board.
    pub fn analyse(&mut self, position: Chess) {
        self.app.analyse_position(position, self.now);
    }

    /// Teach mode on `position` at `depth`; its record is asked for, not
    /// made (see `serve`).
    pub fn start_teach(&mut self, position: Chess, depth: u32) {
        self.app.teach(position, Vec::new(), depth, self.now);
    }

    /// The analysis board's cursor to `node`.
    pub fn goto(&mut self, node: usize) {
        let app = &mut self.app;
        let analysis = app.mode.analysis_mut().expect("the analysis board");
        analysis.goto(&mut app.cx, node, self.now);
    }

    pub fn set_book(&mut self, book: Arc<Book>) {
        self.app.set_book(Some(book), BookOptions::default());
    }

    pub fn set_cursor(&mut self, square: Square) {
        self.app.cx.board.cursor = square;
    }

    pub fn set_no_color(&mut self, no_color: bool) {
        self.app.cx.no_color = no_color;
    }

    // The engine, played by the test.

    /// The search ids of the `Go` commands sent since the last call.
    pub fn searches(&mut self) -> Vec<u64> {
        self.go_requests().into_iter().map(|(id, ..)| id).collect()
    }

    /// The `Go` commands sent since the last call: (id, multipv, infinite).
    pub fn go_requests(&mut self) -> Vec<(u64, usize, bool)> {
        self.app
            .take_commands()
            .into_iter()
            .filter_map(|c| match c {
                Command::Go(r) => Some((r.search_id, r.options.multipv, r.limits.infinite)),
                _ => None,
            })
            .collect()
    }

    /// The id of the last search asked for since the last call.
    pub fn last_search(&mut self) -> u64 {
        self.searches().last().copied().expect("a search")
    }

    /// The moves of `uci` from the position on the board.
    pub fn line(&self, uci: &[&str]) -> Vec<Move> {
        let mut position: Chess = self.app.cx.board.game.position().clone();
        let mut moves = Vec::new();
        for text in uci {
            let m = parse_uci(&position, text).unwrap();
            position.play_unchecked(m);
            moves.push(m);
        }
        moves
    }

    /// The engine answers search `id` with `uci`, at `depth` after `nodes`,
    /// scored `score` for itself.
    pub fn best_move(&mut self, id: u64, uci: &str, score: Score, depth: u32, nodes: u64) {
        let m = self.line(&[uci])[0];
        self.update(Msg::Engine(Report::BestMove {
            search_id: id,
            best_move: Some(m),
            ponder: None,
            score,
            bound: Bound::Exact,
            depth,
            nodes,
            source: MoveSource::Search,
        }));
    }

    /// The engine answers search `id` with `uci` (+0.20 for itself).
    pub fn engine_plays(&mut self, id: u64, uci: &str) {
        self.best_move(id, uci, Score::Centipawns(20), 10, 100_000);
    }

    /// The engine answers search `id` with `uci`, scored `cp` for itself.
    pub fn engine_plays_scored(&mut self, id: u64, uci: &str, cp: i32) {
        self.best_move(id, uci, Score::Centipawns(cp), 6, 20_000);
    }

    /// The engine answers its last search with `uci` (a search of depth 1).
    pub fn engine_answers(&mut self, uci: &str) {
        let id = self.last_search();
        self.best_move(id, uci, Score::Centipawns(0), 1, 1);
    }

    /// Engine line `multipv` of search `id`: `pv` in UCI, `cp` for the side
    /// to move, finished, at the board's `Figures`.
    pub fn info(&mut self, id: u64, multipv: usize, cp: i32, pv: &[&str]) {
        let depth = self.figures.depth;
        self.report(id, multipv, depth, cp, Bound::Exact, true, pv);
    }

    /// Any line of search `id`: a finished one (`complete`, `Exact`), an
    /// aspiration failure (`Lower` / `Upper`) or a heartbeat.
    #[allow(clippy::too_many_arguments)]
    pub fn report(
        &mut self,
        id: u64,
        multipv: usize,
        depth: u32,
        cp: i32,
        bound: Bound,
        complete: bool,
        pv: &[&str],
    ) {
        let f = self.figures;
        let info = SearchInfo {
            search_id: id,
            multipv,
            depth,
            seldepth: f.seldepth,
            score: Score::Centipawns(cp),
            bound,
            pv: self.line(pv),
            nodes: f.nodes,
            nps: f.nps,
            hashfull: f.hashfull,
            elapsed: f.elapsed,
            complete,
        };
        self.update(Msg::Engine(Report::Info(Box::new(info))));
    }

    /// The search statistics of search `id` (and no move tables).
    pub fn stats(&mut self, id: u64, stats: SearchStats) {
        self.update(Msg::Engine(Report::Stats {
            search_id: id,
            stats: Arc::new(stats),
            tables: Arc::default(),
            done: false,
        }));
    }

    /// The move tables of search `id` (and empty statistics).
    pub fn move_tables(&mut self, id: u64, tables: TableWeights) {
        self.update(Msg::Engine(Report::Stats {
            search_id: id,
            stats: Arc::new(SearchStats::default()),
            tables: Arc::new(tables),
            done: false,
        }));
    }

    // The background tasks, carried out on this thread.

    /// Carry out the board's requests as the background tasks would, until
    /// it asks for no more: file reads, teach mode's records and
    /// comparisons. The others are returned (and kept in `left`).
    pub fn serve(&mut self) -> Vec<Request> {
        self.carry_out(true)
    }

    /// As `serve`, but teach mode's comparisons are not made.
    pub fn serve_records(&mut self) -> Vec<Request> {
        self.carry_out(false)
    }

    fn carry_out(&mut self, compare: bool) -> Vec<Request> {
        let mut left = Vec::new();
        loop {
            let requests = self.app.take_requests();
            if requests.is_empty() {
                self.left.extend(left.iter().cloned());
                return left;
            }
            for request in requests {
                match request {
                    Request::ListGames { path, id } => {
                        let file = std::fs::File::open(&path).unwrap();
                        let mut batches = Vec::new();
                        let count = summaries(file, 2, &mut |b| {
                            batches.push(b);
                            true
                        })
                        .unwrap();
                        for batch in batches {
                            self.update(Msg::GameList {
                                id,
                                event: ListEvent::Games(batch),
                            });
                        }
                        self.update(Msg::GameList {
                            id,
                            event: ListEvent::Done(Ok(count)),
                        });
                    }
                    Request::LoadGame { path, number } => {
                        let file = std::fs::File::open(&path).unwrap();
                        let tree = read_game_at(file, number)
                            .unwrap()
                            .map(Box::new)
                            .ok_or("no game".to_string());
                        self.update(Msg::GameLoaded {
                            path,
                            number,
                            result: tree,
                        });
                    }
                    Request::ReviewAll {
                        id,
                        path,
                        threads,
                        skip,
                        ..
                    } => {
                        // As the background thread does, but at a shorter
                        // time a position than the one asked for (the
                        // games are small and their mistakes clear).
                        let total = batch::count_games(&path).unwrap();
                        self.update(Msg::ReviewAll {
                            id,
                            event: ReviewAllEvent::Total(total),
                        });
                        let options = batch::BatchOptions {
                            threads,
                            hash_mb: 16,
                            movetime: Duration::from_millis(REVIEW_ALL_MOVETIME_MS),
                            skip,
                        };
                        let mut games = Vec::new();
                        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
                        let result = batch::review_file(&path, &options, None, &stop, &mut |g| {
                            games.push(g);
                            true
                        });
                        for game in games {
                            self.update(Msg::ReviewAll {
                                id,
                                event: ReviewAllEvent::Game(Box::new(game)),
                            });
                        }
                        self.update(Msg::ReviewAll {
                            id,
                            event: ReviewAllEvent::Done(result),
                        });
                    }
                    Request::Record { id, setup } => {
                        let result = teach::record_replay(&setup, teach::MAX_EVENTS, &|| false);
                        self.update(Msg::Recorded { id, result });
                    }
                    Request::Compare {
                        id,
                        position,
                        history,
                        depth,
                    } if compare => {
                        for (index, method) in compare::methods().iter().enumerate() {
                            let outcome = compare::run(
                                &position,
                                &history,
                                depth,
                                method,
                                compare::NODE_CAP,
                                &|| false,
                            );
                            self.update(Msg::Compared { id, index, outcome });
                        }
                    }
                    Request::Db(request) => {
                        // As the database's worker thread answers.
                        let reply = kibitz::tui::db_worker::DbWorker::default().answer(request);
                        self.update(Msg::Db(Box::new(reply)));
                    }
                    other => left.push(other),
                }
            }
        }
    }

    /// Open a PGN file as the event loop would (`serve` reads it).
    pub fn open(&mut self, path: &Path, number: Option<usize>) {
        self.app.open_path(path.to_path_buf(), number);
        self.serve();
    }

    // What the board is in.

    /// The analysis board's cursor (a node of its tree).
    pub fn cursor(&self) -> usize {
        self.app.mode.analysis().unwrap().cursor
    }

    /// The analysis board's game.
    pub fn tree(&self) -> &GameTree {
        &self.app.mode.analysis().unwrap().tree
    }

    /// Plies from the start to the analysis board's cursor.
    pub fn ply(&self) -> usize {
        self.tree().ply(self.cursor())
    }

    pub fn teaching(&self) -> bool {
        matches!(self.app.mode, Mode::Teach(_))
    }

    pub fn teach_state(&self) -> &Teach {
        self.app.mode.teach().expect("teach mode")
    }

    /// Teach mode has its record.
    pub fn ready(&self) -> bool {
        self.teach_state().ready().is_some()
    }

    /// Events of the record applied so far.
    pub fn step(&self) -> usize {
        self.teach_state().applied()
    }

    /// Steps in the record.
    pub fn steps(&self) -> usize {
        self.teach_state().ready().unwrap().0.len()
    }

    /// The status line's message and its tone, if any.
    pub fn status(&self) -> Option<(String, Tone)> {
        self.app.cx.message.clone()
    }

    // The screen.

    /// The screen drawn at the terminal's size.
    fn draw(&self) -> Terminal<TestBackend> {
        let mut terminal = Terminal::new(TestBackend::new(self.size.0, self.size.1)).unwrap();
        terminal
            .draw(|frame| ui::draw(frame, &self.app, self.now))
            .unwrap();
        terminal
    }

    pub fn buffer(&self) -> Buffer {
        self.draw().backend().buffer().clone()
    }

    /// The screen's text, as the board's `Text` writes it.
    pub fn screen(&self) -> String {
        match self.text {
            Text::Quoted => self.draw().backend().to_string(),
            Text::Plain => {
                let buffer = self.buffer();
                let area = buffer.area;
                (area.top()..area.bottom())
                    .map(|y| {
                        let line: String = (area.left()..area.right())
                            .map(|x| buffer[(x, y)].symbol())
                            .collect();
                        line.trim_end().to_string()
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
            }
        }
    }

    /// The row of the screen that holds `text` ("" if none does).
    pub fn row_with(&self, text: &str) -> String {
        self.screen()
            .lines()
            .find(|line| line.contains(text))
            .unwrap_or_default()
            .to_string()
    }

    /// The last row: the legend while the map is on, else the key line.
    pub fn legend(&self) -> String {
        self.screen().lines().last().unwrap_or("").to_string()
    }

    /// The layout of the screen for the terminal's size and the mode.
    pub fn layout(&self) -> Screen {
        self.app.screen().unwrap()
    }

    /// Where `square` is drawn.
    pub fn square_rect(&self, square: Square) -> Rect {
        self.layout()
            .board
            .square_rect(square, self.app.cx.board.flipped)
    }

    /// The text of a square's middle row (where the piece and its marks are).
    pub fn square_text(&self, square: Square) -> String {
        let rect = self.square_rect(square);
        let buffer = self.buffer();
        let y = rect.y + rect.height / 2;
        (rect.x..rect.right())
            .map(|x| buffer[(x, y)].symbol().to_string())
            .collect()
    }

    /// Cells of the board with a colour of their own.
    pub fn coloured_board_cells(&self) -> usize {
        let board = self.layout().board_area;
        let buffer = self.buffer();
        let mut count = 0;
        for y in board.y..board.bottom() {
            for x in board.x..board.right() {
                let cell = &buffer[(x, y)];
                if cell.fg != Colour::Reset || cell.bg != Colour::Reset {
                    count += 1;
                }
            }
        }
        count
    }

    /// Each square's band on the move-table map, rank 8 first, as its
    /// top-left cell's background says: R O Y G C B (red ... dark blue),
    /// '.' for no band colour.
    pub fn bands(&self) -> String {
        let buffer = self.buffer();
        let mut grid = String::new();
        for rank in (0..8).rev() {
            for file in 0..8 {
                let square =
                    Square::from_coords(shakmaty::File::new(file), shakmaty::Rank::new(rank));
                let rect = self.square_rect(square);
                grid.push(band_letter(buffer[(rect.x, rect.y)].bg));
            }
            grid.push('\n');
        }
        grid
    }

    /// Squares drawn in a band colour.
    pub fn coloured(&self) -> usize {
        self.bands()
            .chars()
            .filter(|c| c.is_ascii_uppercase())
            .count()
    }
}

fn band_letter(bg: Colour) -> char {
    match bg {
        Colour::Indexed(196) | Colour::Red => 'R',
        Colour::Indexed(208) | Colour::LightRed => 'O',
        Colour::Indexed(226) | Colour::Yellow => 'Y',
        Colour::Indexed(46) | Colour::Green => 'G',
        Colour::Indexed(117) | Colour::LightCyan => 'C',
        Colour::Indexed(21) | Colour::Blue => 'B',
        _ => '.',
    }
}

/// The status line's message as text, "" when there is none. (The tests
/// read the message two ways; each imports the trait of its way.)
pub trait MessageText {
    fn message(&self) -> String;
}

impl MessageText for Board {
    fn message(&self) -> String {
        self.status().map(|m| m.0).unwrap_or_default()
    }
}

/// The status line's message and whether it is an error (there must be one).
pub trait MessageTone {
    fn message(&self) -> (String, bool);
}

impl MessageTone for Board {
    fn message(&self) -> (String, bool) {
        let (text, tone) = self.status().expect("a message");
        (text, tone == Tone::Error)
    }
}
