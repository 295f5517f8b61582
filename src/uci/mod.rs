//! The Universal Chess Interface over stdin/stdout, on the same [`Engine`]
//! the other front ends use.
//!
//! Incoming lines are parsed into [`UciCommand`] with `FromStr`; the engine's
//! reports are printed by a second thread as they arrive, so `isready` and
//! `stop` are answered at once while a search runs. Anything malformed or
//! illegal is answered with an `info string` saying what was wrong, and the
//! engine carries on.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use shakmaty::{CastlingMode, Chess, Position};

use crate::book::BookOptions;
use crate::engine::level::{Level, MAX_LEVEL, MIN_LEVEL};
use crate::engine::movetables::Decrement;
use crate::engine::protocol::{
    DEFAULT_TABLE_MOVES, DEFAULT_TABLE_THRESHOLD, MAX_TABLE_MOVES, MAX_TABLE_THRESHOLD,
};
use crate::engine::{
    Command, DEFAULT_HASH_MB, Engine, GoRequest, Limits, MAX_HASH_MB, MAX_THREADS, MoveSource,
    Report, SearchOptions, position_key,
};
use crate::game::fen::{parse_fen, parse_fen_960};
use crate::game::notation::parse_uci;

/// The limit is the engine's; re-exported so `uci::MAX_MULTIPV` keeps working.
pub use crate::engine::MAX_MULTIPV;

mod options;
mod protocol;

use protocol::ends_by_itself;
pub use protocol::{FALLBACK_DEPTH, UciCommand, UciParseError, UciReport};

const ENGINE_NAME: &str = concat!("kibitz ", env!("CARGO_PKG_VERSION"));

/// The range of UCI `UCI_Elo`: the weakest and strongest measured levels.
const MIN_UCI_ELO: u32 = crate::engine::level::MEASURED_RATING[0];
const MAX_UCI_ELO: u32 = crate::engine::level::MEASURED_RATING[9];

/// The session state between commands.
struct Session {
    engine: Engine,
    position: Chess,
    history: Vec<u64>,
    multipv: usize,
    /// UCI `MoveTableMoves` and `MoveTableThreshold`.
    table_moves: u8,
    table_threshold: i32,
    /// UCI `MoveTableDecrement`: `tried` or `all`.
    table_decrement: Decrement,
    level: Level,
    /// UCI `UCI_LimitStrength` and `UCI_Elo`: play at the level nearest
    /// that rating.
    limit_strength: bool,
    elo: u32,
    /// UCI `OwnBook`: may the engine play from its book?
    own_book: bool,
    /// UCI `UCI_Chess960`: positions follow Chess960 castling rules and
    /// castling moves are written king takes rook (`e1h1`).
    chess960: bool,
    /// How the printer writes castling moves: Chess960 notation under
    /// `UCI_Chess960` or for a Chess960 position; set at each `go`.
    print_chess960: Arc<AtomicBool>,
    /// UCI `SyzygyPath`.
    syzygy: Option<std::path::PathBuf>,
    /// UCI `KibitzTables`: use the built-in tables found on disk.
    builtin_tables: bool,
    /// UCI `KibitzGenerateTables`: make the missing built-in tables (in the
    /// background, at the lowest priority). Off by default: a UCI engine
    /// does no unasked work beside the game.
    generating: bool,
    /// The generation thread was started (once per session).
    generation_started: bool,
    /// The tables the engine should have; background loads check it.
    tables_wanted: Arc<Mutex<TablesWanted>>,
    /// The book loaded from UCI `BookFile` (a path, or `builtin`).
    book: Option<Arc<crate::book::Book>>,
    book_options: BookOptions,
    next_search_id: u64,
    /// Searches sent and not yet answered with `bestmove` (the printer
    /// thread counts them down).
    searches_running: Arc<AtomicUsize>,
    next_ping: u64,
}

/// What the tablebase loaders should deliver; `epoch` grows with every change.
#[derive(Debug, Default)]
struct TablesWanted {
    epoch: u64,
    builtin: bool,
    syzygy: Option<std::path::PathBuf>,
}

/// Lock a mutex; a panicked holder left plain data, which is still usable.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn say(out: &mut impl Write, text: &str) -> std::io::Result<()> {
    writeln!(out, "{text}")?;
    out.flush()
}

/// `info string` with a message that may repeat what the GUI sent: its
/// control characters escaped (a NUL, an ESC or a line break would reach
/// the GUI's log or split the line) and a huge token cut.
fn info_string(text: &str) -> String {
    format!("info string {}", crate::text::echo::echo(text, false))
}

impl Session {
    /// Set an option; `Ok(Some(note))` when it was set otherwise than
    /// asked (a hash table larger than the machine's memory), and why.
    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<Option<String>, String> {
        // Option names are not case-sensitive; a message names the option
        // as `uci` lists it, whatever case the GUI sent.
        let name = options::known_name(name).unwrap_or(name);
        // Any whole number is a number: one outside the option's range
        // (a negative Hash, say, or one too long for any integer type) is
        // out of range, not "not a number". An empty value is no value.
        let text = value.map(str::trim).filter(|text| !text.is_empty());
        let given = || text.ok_or_else(|| format!("option '{name}' needs a value"));
        let whole = |min: i128, max: i128| -> Result<i128, String> {
            let text = given()?;
            let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
            let is_whole = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
            match text.parse::<i128>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                Err(_) if !is_whole => Err(format!("option '{name}': '{text}' is not a number")),
                _ => Err(format!(
                    "option '{name}': {text} is out of range ({min} to {max})"
                )),
            }
        };
        // A check option's value: `true` or `false`, in any case.
        let check = || -> Result<bool, String> {
            match given()? {
                text if text.eq_ignore_ascii_case("true") => Ok(true),
                text if text.eq_ignore_ascii_case("false") => Ok(false),
                text => Err(format!("option '{name}': '{text}' is not true or false")),
            }
        };
        let spin = |min: usize, max: usize| -> Result<usize, String> {
            let n = whole(min as i128, max as i128)?;
            // In range, so it fits.
            Ok(usize::try_from(n).unwrap_or(min))
        };
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                let asked = spin(1, MAX_HASH_MB)?;
                let (mb, cap) = crate::engine::tt::hash_size(asked);
                self.engine.send(Command::SetHashSize(mb));
                return Ok(cap.map(|cap| format!("Hash: {cap}")));
            }
            "multipv" => self.multipv = spin(1, MAX_MULTIPV)?,
            "movetablemoves" => {
                let n = spin(0, MAX_TABLE_MOVES.into())?;
                self.table_moves = u8::try_from(n).unwrap_or(DEFAULT_TABLE_MOVES);
            }
            "movetablethreshold" => {
                let n = whole((-MAX_TABLE_THRESHOLD).into(), MAX_TABLE_THRESHOLD.into())?;
                // In range, so it fits.
                self.table_threshold = i32::try_from(n).unwrap_or_default();
            }
            "movetabledecrement" => {
                let text = given()?;
                self.table_decrement = Decrement::parse(text)
                    .ok_or_else(|| format!("option '{name}': '{text}' is not tried or all"))?;
            }
            "level" => {
                let level = spin(MIN_LEVEL.into(), MAX_LEVEL.into())?;
                self.level = u8::try_from(level)
                    .ok()
                    .and_then(Level::new)
                    .unwrap_or_default();
            }
            // The GUI's strength limit: the level whose measured rating is
            // nearest the asked one, while the limit is on.
            "uci_limitstrength" => {
                self.limit_strength = check()?;
            }
            "uci_elo" => {
                let elo = spin(MIN_UCI_ELO as usize, MAX_UCI_ELO as usize)?;
                self.elo = u32::try_from(elo).unwrap_or(MAX_UCI_ELO);
            }
            "clear hash" => self.engine.send(Command::ClearHash),
            "threads" => {
                let threads = spin(1, MAX_THREADS)?;
                self.engine.send(Command::SetThreads(threads));
            }
            "ponder" => {}
            "kibitzgeneratetables" => {
                self.generating = check()?;
                if self.generating && !self.generation_started {
                    self.load_tablebases();
                }
            }
            "kibitztables" => {
                self.builtin_tables = check()?;
                self.load_tablebases();
            }
            "evalfile" => {
                let net = crate::engine::nnue::choose(value.unwrap_or(""))
                    .map_err(|e| format!("option '{name}': {e}; the evaluation is unchanged"))?;
                self.engine.send(Command::SetNetwork(net));
            }
            "syzygypath" => {
                let path = value.unwrap_or("").trim();
                // A folder that is not there leaves the tablebases as they
                // were, as a bad book or network file does. Empty parts are
                // skipped; a path of none is no tablebases.
                let folders = if path == "<empty>" {
                    Vec::new()
                } else {
                    crate::tablebase::syzygy_folders(path.as_ref()).map_err(|why| {
                        format!("option '{name}': {why}; the tablebases are unchanged")
                    })?
                };
                self.syzygy = (!folders.is_empty())
                    .then(|| std::env::join_paths(&folders).ok())
                    .flatten()
                    .map(std::path::PathBuf::from);
                self.load_tablebases();
                // Say what was found, so a path to the wrong folder shows.
                if !folders.is_empty() {
                    return Ok(Some(
                        match crate::tablebase::count_syzygy_tables(&folders) {
                            0 => format!("{name}: no Syzygy tables (.rtbw files) found"),
                            1 => format!("{name}: 1 Syzygy table found"),
                            n => format!("{name}: {n} Syzygy tables found"),
                        },
                    ));
                }
            }
            "uci_chess960" => {
                self.chess960 = check()?;
            }
            "ownbook" => {
                self.own_book = check()?;
            }
            "bookfile" => {
                let file = value.unwrap_or("").trim();
                let book = crate::book::load(file)
                    .map_err(|why| format!("option '{name}': {why}; the book is unchanged"))?;
                self.book = Some(Arc::new(book));
                self.send_book();
            }
            "bookpolicy" => {
                let text = given()?;
                self.book_options.policy = text
                    .parse()
                    .map_err(|why| format!("option '{name}': {why}"))?;
                self.send_book();
            }
            "bookdepth" => {
                self.book_options.max_plies = spin(0, options::MAX_BOOK_DEPTH as usize)? as u32;
                self.send_book();
            }
            _ => return Err(format!("unknown option '{name}'")),
        }
        Ok(None)
    }

    /// Open the built-in tables found in the cache (each is read when first
    /// needed; with `KibitzGenerateTables`, generate the missing ones first)
    /// and Syzygy on a background thread, which hands them to the engine
    /// when ready. The engine never waits for them.
    fn load_tablebases(&mut self) {
        let generate = self.generating && !self.generation_started;
        let pace = crate::tablebase::Pace::background(self.engine.searching());
        self.generation_started |= generate;
        {
            let mut wanted = lock(&self.tables_wanted);
            wanted.epoch += 1;
            wanted.builtin = self.builtin_tables;
            wanted.syzygy = self.syzygy.clone();
        }
        let wanted = Arc::clone(&self.tables_wanted);
        let feeder = self.engine.feeder();
        let _ = std::thread::Builder::new()
            .name("kibitz-tablebases".into())
            .spawn(move || {
                let dir = crate::config::Dirs::locate().map(|d| d.tablebases());
                if generate && let Some(dir) = &dir {
                    // Make the missing files; what to send is decided below,
                    // from the settings as they are when this is done.
                    for message in crate::tablebase::load_in_background(
                        dir.clone(),
                        None,
                        Some(&pace),
                        &|_| {},
                        &|_, _| {},
                    ) {
                        println!("{}", info_string(&message));
                    }
                }
                let (epoch, builtin, syzygy) = {
                    let w = lock(&wanted);
                    (w.epoch, w.builtin, w.syzygy.clone())
                };
                let loaded = std::cell::RefCell::new(None);
                match dir.filter(|_| builtin) {
                    Some(dir) => {
                        for message in crate::tablebase::load_in_background(
                            dir,
                            syzygy,
                            None,
                            &|t| *loaded.borrow_mut() = Some(t),
                            &|_, _| {},
                        ) {
                            println!("{}", info_string(&message));
                        }
                    }
                    None => {
                        let mut tables = crate::tablebase::Tablebases::default();
                        if let Some(dir) = &syzygy {
                            let _ = tables.add_syzygy(dir);
                        }
                        *loaded.borrow_mut() = Some(Arc::new(tables));
                    }
                }
                // Only the newest settings reach the engine: an older load
                // that finishes late is dropped. The lock is held while
                // sending so two loads cannot pass each other here.
                let w = lock(&wanted);
                if w.epoch == epoch
                    && let Some(tables) = loaded.into_inner()
                {
                    let _ = feeder.send(Command::SetTablebases(Some(tables)));
                }
            });
    }

    /// Hand the loaded book and the book options to the engine.
    fn send_book(&mut self) {
        self.engine.send(Command::SetBook {
            book: self.book.clone(),
            options: self.book_options,
        });
    }

    /// Set up a position; on an illegal move, keep the moves before it and say so.
    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), String> {
        let start = match fen {
            Some(fen) if self.chess960 => {
                parse_fen_960(fen).map_err(|e| format!("position not changed: {e}"))?
            }
            // Without the option, a FEN whose castling rights make sense
            // only in Chess960 is still read as Chess960.
            Some(fen) => parse_fen(fen).map_err(|e| format!("position not changed: {e}"))?,
            None if self.chess960 => crate::game::chess960::standard_start(),
            None => Chess::default(),
        };
        let mut position = start;
        let mut history = Vec::with_capacity(moves.len());
        let mut error = None;
        for (index, text) in moves.iter().enumerate() {
            match parse_uci(&position, text) {
                Ok(m) => {
                    history.push(position_key(&position));
                    position.play_unchecked(m);
                }
                Err(e) => {
                    error = Some(format!(
                        "move {} {e}; position set up to the move before",
                        index + 1
                    ));
                    break;
                }
            }
        }
        self.position = position;
        self.history = history;
        error.map_or(Ok(()), Err)
    }

    fn go(&mut self, mut limits: Limits, ponder: bool, received: Instant) {
        if ponder {
            // Pondering: search until the GUI says stop or ponderhit.
            limits.infinite = true;
        }
        self.next_search_id += 1;
        self.print_chess960.store(
            self.chess960 || crate::game::chess960::is_chess960(&self.position),
            Ordering::SeqCst,
        );
        self.engine.send(Command::Go(Box::new(GoRequest {
            search_id: self.next_search_id,
            position: self.position.clone(),
            history: self.history.clone(),
            limits,
            options: SearchOptions {
                multipv: self.multipv,
                table_moves: self.table_moves,
                table_threshold: self.table_threshold,
                table_decrement: self.table_decrement,
                ..SearchOptions::default()
            },
            level: if self.limit_strength {
                crate::engine::level::level_for_rating(self.elo)
            } else {
                self.level
            },
            book: self.own_book && !ponder,
            received,
        })));
        self.searches_running.fetch_add(1, Ordering::SeqCst);
    }
}

/// Run a UCI session until `quit` or the end of input.
pub fn run(input: impl BufRead) -> std::io::Result<()> {
    let engine = Engine::new(DEFAULT_HASH_MB)?;
    let reports = engine.reports().clone();
    let searches_running = Arc::new(AtomicUsize::new(0));
    let running = Arc::clone(&searches_running);
    let print_chess960 = Arc::new(AtomicBool::new(false));
    let printing_chess960 = Arc::clone(&print_chess960);
    let printer = std::thread::Builder::new()
        .name("kibitz-uci-out".into())
        .spawn(move || {
            let stdout = std::io::stdout();
            for report in reports.iter() {
                let mode = CastlingMode::from_chess960(printing_chess960.load(Ordering::SeqCst));
                let text = match &report {
                    Report::Pong(_) => "readyok".to_string(),
                    Report::BestMove {
                        best_move: Some(m),
                        source: MoveSource::Book { weight, total },
                        ..
                    } => {
                        running.fetch_sub(1, Ordering::SeqCst);
                        let share = f64::from(*weight) * 100.0 / f64::from((*total).max(1));
                        format!(
                            "info string book move {} weight {weight} ({share:.0}%)\n{}",
                            m.to_uci(mode),
                            UciReport(&report, mode)
                        )
                    }
                    Report::BestMove {
                        source: MoveSource::Tablebase { wdl, dtm },
                        best_move,
                        ponder,
                        score,
                        ..
                    } => {
                        running.fetch_sub(1, Ordering::SeqCst);
                        let distance = dtm
                            .filter(|d| *d != 0)
                            .map(|d| format!(" dtm {d} plies"))
                            .unwrap_or_default();
                        // The tables' verdict as a score a GUI shows, with
                        // depth 0: nothing was searched.
                        let pv: String = best_move
                            .iter()
                            .chain(ponder)
                            .map(|m| format!(" {}", m.to_uci(mode)))
                            .collect();
                        format!(
                            "info string tablebase {}{distance}\ninfo depth 0 score {score} nodes 0 time 0 pv{pv}\n{}",
                            wdl.name(),
                            UciReport(&report, mode)
                        )
                    }
                    Report::BestMove { .. } => {
                        running.fetch_sub(1, Ordering::SeqCst);
                        UciReport(&report, mode).to_string()
                    }
                    Report::Info(_) => UciReport(&report, mode).to_string(),
                    Report::Stats { .. } => continue,
                };
                if say(&mut stdout.lock(), &text).is_err() {
                    break;
                }
            }
        })?;
    let mut session = Session {
        engine,
        position: Chess::default(),
        history: Vec::new(),
        multipv: 1,
        table_moves: DEFAULT_TABLE_MOVES,
        table_threshold: DEFAULT_TABLE_THRESHOLD,
        table_decrement: Decrement::default(),
        level: Level::default(),
        limit_strength: false,
        elo: MAX_UCI_ELO,
        own_book: true,
        chess960: false,
        print_chess960,
        book: None,
        syzygy: None,
        builtin_tables: true,
        generating: false,
        generation_started: false,
        tables_wanted: Arc::default(),
        book_options: BookOptions::default(),
        next_search_id: 0,
        searches_running,
        next_ping: 0,
    };
    let stdout = std::io::stdout();
    match crate::book::default_book() {
        Ok(book) => session.book = Some(Arc::new(book)),
        Err(why) => say(&mut stdout.lock(), &info_string(&why.to_string()))?,
    }
    session.send_book();
    session.load_tablebases();
    for line in input.lines() {
        let received = Instant::now();
        let line = match line {
            Ok(line) => line,
            // Not UTF-8: say so and read on.
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                say(
                    &mut stdout.lock(),
                    "info string input line is not valid UTF-8",
                )?;
                continue;
            }
            Err(e) => return Err(e),
        };
        if line.trim().is_empty() {
            continue;
        }
        let command = match line.parse::<UciCommand>() {
            Ok(command) => command,
            Err(UciParseError(why)) => {
                say(&mut stdout.lock(), &info_string(&why))?;
                continue;
            }
        };
        match command {
            UciCommand::Uci => {
                let mut out = stdout.lock();
                say(&mut out, &format!("id name {ENGINE_NAME}"))?;
                say(&mut out, "id author the kibitz developers")?;
                for option in options::listed() {
                    say(&mut out, &option.to_string())?;
                }
                say(&mut out, "uciok")?;
            }
            UciCommand::Debug => {}
            UciCommand::IsReady => {
                if session.searches_running.load(Ordering::SeqCst) > 0 {
                    // Searching: the GUI only checks that we are alive.
                    say(&mut stdout.lock(), "readyok")?;
                } else {
                    // Idle: answer once queued work (a table resize or clear) is done.
                    session.next_ping += 1;
                    session.engine.send(Command::Ping(session.next_ping));
                }
            }
            UciCommand::SetOption { name, value } => {
                match session.set_option(&name, value.as_deref()) {
                    Ok(None) => {}
                    Ok(Some(note)) | Err(note) => say(&mut stdout.lock(), &info_string(&note))?,
                }
            }
            UciCommand::NewGame => session.engine.send(Command::NewGame),
            UciCommand::Position { fen, moves } => {
                if let Err(why) = session.set_position(fen.as_deref(), &moves) {
                    say(&mut stdout.lock(), &info_string(&why))?;
                }
            }
            UciCommand::Go {
                mut limits,
                ponder,
                ignored,
                problems,
                search_moves,
            } => {
                let mut notes = problems;
                // `searchmoves`: the legal ones restrict the root; with none
                // legal, every move is searched.
                let given_none = search_moves.as_ref().is_some_and(Vec::is_empty);
                let (legal, illegal): (Vec<_>, Vec<_>) = search_moves
                    .iter()
                    .flatten()
                    .map(|text| (text, parse_uci(&session.position, text)))
                    .partition(|(_, m)| m.is_ok());
                limits.search_moves = legal.into_iter().filter_map(|(_, m)| m.ok()).collect();
                if !illegal.is_empty() {
                    let names: Vec<&str> = illegal.iter().map(|(t, _)| t.as_str()).collect();
                    notes.push(format!(
                        "searchmoves: {} not legal here{}",
                        names.join(" "),
                        if limits.search_moves.is_empty() {
                            "; searching every move"
                        } else {
                            ""
                        }
                    ));
                }
                if !ignored.is_empty() {
                    notes.push(format!("ignored '{}'", ignored.join(" ")));
                }
                // Every `go` ends in a best move: when what was skipped left
                // nothing that ends the search, a shallow search answers.
                if !notes.is_empty() && !ponder && !ends_by_itself(&limits, session.position.turn())
                {
                    limits.depth = Some(FALLBACK_DEPTH);
                    notes.push(format!(
                        "nothing valid is left, searching to depth {FALLBACK_DEPTH}"
                    ));
                }
                // Said, but not a problem: a bare `searchmoves` leaves the
                // command as it would be without it.
                if given_none {
                    notes.push("searchmoves: no moves given; searching every move".to_string());
                }
                if !notes.is_empty() {
                    say(
                        &mut stdout.lock(),
                        &info_string(&format!("go: {}", notes.join("; "))),
                    )?;
                }
                session.go(limits, ponder, received);
            }
            UciCommand::Stop | UciCommand::PonderHit => session.engine.send(Command::Stop),
            UciCommand::Quit => break,
        }
    }
    // Dropping the engine stops and joins its thread, which closes the
    // report channel and ends the printer after the last best move.
    drop(session);
    let _ = printer.join();
    Ok(())
}

#[cfg(test)]
mod tests;
