//! The terminal user interface: terminal setup and restore (also on panic),
//! and the event loop.
//!
//! Threads: an input thread blocks on the terminal and turns events into
//! `Msg`s; the engine runs on its own thread; this thread runs one
//! `select_biased!` loop over input first, then engine reports, then the
//! clock tick, so a busy engine can never starve the keyboard. The screen is
//! drawn only when something visible changed.

pub mod app;
pub mod clock;
pub mod db_worker;
pub mod engine_line;
pub mod engine_link;
pub mod heatmap;
pub mod layout;
pub mod modes;
pub mod msg;
pub mod overlays;
pub mod save;
pub mod shared;
pub mod tasks;
pub mod theme;
pub mod ui;
pub mod widgets;

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, never, select_biased, tick, unbounded};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{
    self, DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
    Event,
};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use shakmaty::Chess;

use crate::config::{Dirs, Settings};
use crate::engine::Engine;

use app::App;
use msg::Msg;

/// How often the clocks are looked at while one runs.
const TICK: Duration = Duration::from_millis(100);

/// What `kibitz` (no subcommand) was started with.
pub struct Options {
    pub settings: Settings,
    pub dirs: Option<Dirs>,
    pub fen: Option<Chess>,
    /// Problems found while starting (config file), shown in the status line.
    pub messages: Vec<String>,
    /// When the process started, for the time-to-first-frame figure.
    pub started: Instant,
    /// Write frame timings here on exit (`KIBITZ_FRAME_LOG`).
    pub frame_log: Option<PathBuf>,
    /// Open this PGN file on the analysis board (a game number, or the list).
    pub pgn: Option<(PathBuf, Option<usize>)>,
    /// Start on the analysis board (with `fen`, or the start position).
    pub analyse: bool,
    /// Open games of the game database as the game list (`kibitz db games
    /// --open`): the database, the games found and how many matched.
    pub db_games: Option<(PathBuf, Vec<crate::db::GameRow>, u64)>,
    /// Start in teach mode: the lesson, the step to open it at, and the
    /// move it is about (opened there once recorded).
    pub teach: Option<(
        crate::teach::Setup,
        Option<usize>,
        Option<crate::teach::Focus>,
    )>,
    /// Start on the course screen (`kibitz learn`), where the learner
    /// stopped.
    pub course: bool,
}

/// Put the terminal back as it was: raw mode off, main screen, no mouse
/// capture, cursor visible. Safe to call more than once.
fn restore_terminal() {
    let _ = disable_raw_mode();
    let mut out = std::io::stdout();
    let _ = execute!(
        out,
        DisableBracketedPaste,
        DisableMouseCapture,
        LeaveAlternateScreen,
        ratatui::crossterm::cursor::Show
    );
    let _ = out.flush();
}

/// Restores the terminal when dropped: on return, on `?` errors and while
/// unwinding from a panic.
struct TerminalGuard;

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

/// Timings of drawn frames, for `KIBITZ_FRAME_LOG`.
#[derive(Default)]
struct FrameLog {
    first_frame: Option<Duration>,
    /// (key to frame on screen, draw time), microseconds.
    frames: Vec<(Option<u128>, u128)>,
    /// From asking for a position's analysis to its first line on screen.
    analysis: Vec<u128>,
}

impl FrameLog {
    fn write(&self, path: &std::path::Path) -> std::io::Result<()> {
        let mut text = String::new();
        if let Some(first) = self.first_frame {
            text.push_str(&format!("first_frame_us {}\n", first.as_micros()));
        }
        for (latency, draw) in &self.frames {
            match latency {
                Some(latency) => text.push_str(&format!("frame key_us {latency} draw_us {draw}\n")),
                None => text.push_str(&format!("frame draw_us {draw}\n")),
            }
        }
        for latency in &self.analysis {
            text.push_str(&format!("analysis_first_line_us {latency}\n"));
        }
        crate::fsutil::write_user_file(path, text).map_err(std::io::Error::other)
    }
}

/// The signals that end the board the way Ctrl-C does: the game is
/// autosaved and the terminal put back before the process exits with
/// 128 + the signal's number. These are all the signals whose default
/// action ends the process and that can be caught. SIGINT is among them:
/// in raw mode Ctrl-C is a key, but `kill -INT` still arrives as a signal.
/// Left out: SIGKILL and SIGSTOP (cannot be caught); SIGILL, SIGFPE,
/// SIGSEGV, SIGBUS, SIGTRAP, SIGSYS and SIGABRT (a fault or `abort()` in
/// this process: returning from the handler would run the faulting code
/// again, and the panic hook already restores the terminal); SIGPIPE (Rust
/// ignores it, so a closed pipe is an error to handle, not an end).
const ENDING_SIGNALS: [i32; 12] = [
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
    signal_hook::consts::SIGQUIT,
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGUSR1,
    signal_hook::consts::SIGUSR2,
    signal_hook::consts::SIGALRM,
    signal_hook::consts::SIGVTALRM,
    signal_hook::consts::SIGPROF,
    signal_hook::consts::SIGXCPU,
    signal_hook::consts::SIGXFSZ,
    signal_hook::consts::SIGIO,
];

/// [`ENDING_SIGNALS`] and, on Linux, its own ending signals: SIGPWR,
/// SIGSTKFLT and the real-time ones that the C library leaves free.
fn ending_signals() -> Vec<i32> {
    let mut signals = ENDING_SIGNALS.to_vec();
    #[cfg(target_os = "linux")]
    {
        signals.extend([libc::SIGPWR, libc::SIGSTKFLT]);
        signals.extend(libc::SIGRTMIN()..=libc::SIGRTMAX());
    }
    signals
}

/// Catch [`ending_signals`] on a thread of their own and pass them on.
fn spawn_signals() -> std::io::Result<(Receiver<i32>, signal_hook::iterator::Handle)> {
    let mut signals = signal_hook::iterator::Signals::new(ending_signals())?;
    let handle = signals.handle();
    let (tx, rx) = unbounded();
    std::thread::Builder::new()
        .name("kibitz-signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                if tx.send(signal).is_err() {
                    return;
                }
            }
        })?;
    Ok((rx, handle))
}

/// Run the interface until the user quits. Returns the signal that ended
/// it, if one did (the caller exits with 128 + its number).
pub fn run(options: Options) -> anyhow::Result<Option<i32>> {
    // This board's own autosave, claimed before the others are looked at
    // (so no board starting at the same time offers it), and the
    // unfinished games of boards that no longer run.
    let mut problems = Vec::new();
    let slot = options
        .dirs
        .as_ref()
        .and_then(|dirs| match save::AutosaveSlot::claim(&dirs.data) {
            Ok(slot) => Some(slot),
            Err(e) => {
                problems.push(format!(
                    "no autosave of this board's own ({e}): autosave.json is written"
                ));
                None
            }
        });
    let unfinished = match &options.dirs {
        Some(dirs)
            if options.fen.is_none()
                && options.pgn.is_none()
                && options.db_games.is_none()
                && !options.analyse =>
        {
            let (unfinished, why) = save::read_unfinished(&dirs.data);
            problems.extend(why);
            unfinished
        }
        _ => Vec::new(),
    };
    let engine = Engine::new(options.settings.hash_mb)?;
    // A table larger than the machine's memory is made smaller (see
    // `tt::hash_size`); the status line says so.
    let hash_cap = crate::engine::tt::hash_size(options.settings.hash_mb).1;
    engine.send(crate::engine::Command::SetThreads(
        options.settings.search_threads(),
    ));

    // Restore the terminal before the panic message is printed, so it is
    // readable and the shell is usable afterwards.
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore_terminal();
        previous_hook(info);
    }));
    // Caught from before the terminal is changed, so it is always put back.
    let (signals, signals_handle) = spawn_signals()?;
    enable_raw_mode()?;
    let _guard = TerminalGuard;
    execute!(
        std::io::stdout(),
        EnterAlternateScreen,
        EnableMouseCapture,
        EnableBracketedPaste
    )?;
    let mut terminal = Terminal::new(CrosstermBackend::new(std::io::stdout()))?;
    // No `terminal.clear()`: it asks the terminal for the cursor position,
    // which not every terminal answers; the alternate screen starts blank.
    let size = terminal.size()?;

    let mut app = App::new(
        options.settings.clone(),
        options.dirs.clone(),
        options.fen.clone(),
        unfinished.first().map(|u| u.saved.clone()),
        (size.width, size.height),
    );
    app.cx.services.autosave = slot;
    app.cx.services.unfinished = unfinished.into();
    // NO_COLOR (set and not empty, as no-color.org says): the map draws
    // its bands as digits, without colour. Read once, here; tests set the
    // field instead.
    app.cx.no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    app.cx.true_colour = theme::true_colour_from(std::env::var("COLORTERM").ok().as_deref());
    let mut messages = options.messages.clone();
    messages.extend(problems);
    messages.extend(hash_cap.map(|cap| format!("hash_mb: {cap}")));
    match crate::book::load(&options.settings.book) {
        Ok(book) => app.set_book(
            Some(std::sync::Arc::new(book)),
            options.settings.book_options,
        ),
        Err(e) => messages.push(format!("{e}; playing without a book")),
    }
    let now = Instant::now();
    if let Some((setup, step, focus)) = &options.teach {
        // Esc leads from teach mode to the analysis board of the position.
        app.analyse_position(setup.position.clone(), now);
        app.teach_lesson(setup.clone(), *step, now);
        if let Some(focus) = focus {
            app.focus_lesson(focus.clone());
        }
    } else if options.course {
        app.open_course(now);
    } else if let Some((path, number)) = &options.pgn {
        app.open_path(path.clone(), *number);
    } else if let Some((path, rows, total)) = &options.db_games {
        app.open_db_list(path.clone(), rows, *total);
    } else if options.analyse {
        app.analyse_position(options.fen.clone().unwrap_or_default(), now);
    }
    if !messages.is_empty() {
        app.cx.show_problems(messages);
    }

    let input = spawn_input()?;
    // Endgame tables: the ones on disk are opened at once and read when a
    // position needs them; missing ones are generated as the
    // `tablebase_generation` setting says (by default in the background, at
    // the lowest priority, when a game comes near them). The board never waits.
    let (tables_tx, tables_rx) = unbounded::<Msg>();
    let tables_dir = options.dirs.as_ref().map(|d| d.cache.join("tablebases"));
    let syzygy = options.settings.syzygy.clone();
    let busy = engine.searching();
    // `stop`: the flag that stops generating (with none, only the tables on
    // disk are opened).
    let spawn_tables = |stop: Option<Arc<std::sync::atomic::AtomicBool>>| {
        let Some(dir) = tables_dir.clone() else {
            return;
        };
        let tx = tables_tx.clone();
        let syzygy = syzygy.clone();
        let pace = stop.map(|stop| crate::tablebase::Pace {
            stop: Some(stop),
            ..crate::tablebase::Pace::background(Arc::clone(&busy))
        });
        let _ = std::thread::Builder::new()
            .name("kibitz-tablebases".into())
            .spawn(move || {
                let stopped = || pace.as_ref().is_some_and(crate::tablebase::Pace::stopped);
                let last = std::cell::RefCell::new(String::new());
                let messages = crate::tablebase::load_in_background(
                    dir,
                    syzygy,
                    pace.as_ref(),
                    &|tables| {
                        let _ = tx.send(Msg::Tablebases(tables));
                    },
                    &|table, fraction| {
                        *last.borrow_mut() = table.to_string();
                        if !stopped() {
                            let _ = tx.send(Msg::TableProgress {
                                table: table.to_string(),
                                fraction,
                            });
                        }
                    },
                );
                if pace.is_some() && !stopped() {
                    let _ = tx.send(Msg::TableProgress {
                        table: last.take(),
                        fraction: 1.0,
                    });
                }
                if !messages.is_empty() {
                    let _ = tx.send(Msg::Notice(messages.join("; ")));
                }
            });
    };
    spawn_tables(None);
    let mut warmed: usize = 0;
    let ticker = tick(TICK);
    let no_ticks: Receiver<Instant> = never();
    let reports = engine.reports().clone();
    let mut log = FrameLog::default();
    let mut pending_key: Option<Instant> = None;
    let mut stops = tasks::Stops::default();
    let mut timed_search: Option<u64> = None;
    let background = tables_tx.clone();
    let mut ended_by = None;
    for command in app.take_commands() {
        engine.send(command);
    }

    loop {
        if app.take_dirty() {
            let before = Instant::now();
            let drawn = terminal.draw(|frame| ui::draw(frame, &app, before))?.area;
            let after = Instant::now();
            // The terminal was resized again before its event arrived: the
            // frame (drawn at the real size) says so first. The board takes
            // the size now, so that the mouse and the panels follow it.
            if (drawn.width, drawn.height) != app.cx.size {
                app.update(Msg::Resize(drawn.width, drawn.height), after);
            }
            if log.first_frame.is_none() {
                log.first_frame = Some(after.duration_since(options.started));
            }
            if options.frame_log.is_some() {
                let latency = pending_key
                    .take()
                    .map(|k| after.duration_since(k).as_micros());
                log.frames
                    .push((latency, after.duration_since(before).as_micros()));
                // The first frame that shows an analysis line of a new
                // position: the delay from the move to its analysis.
                if let Some(a) = app.mode.analysis()
                    && let (Some(id), Some(asked)) = (a.search, a.asked_at)
                    && !a.lines.shown.is_empty()
                    && timed_search != Some(id)
                {
                    timed_search = Some(id);
                    log.analysis
                        .push(after.saturating_duration_since(asked).as_micros());
                }
            }
        }
        if app.cx.quit {
            break;
        }
        let ticks = if app.needs_ticks() {
            &ticker
        } else {
            &no_ticks
        };
        let msg = select_biased! {
            recv(signals) -> signal => {
                if let Ok(signal) = signal {
                    ended_by = Some(signal);
                }
                Msg::Terminate
            },
            recv(input) -> msg => match msg {
                Ok(msg) => msg,
                // The input thread ended: the terminal is gone. Keep the
                // game, as for a signal.
                Err(_) => Msg::Terminate,
            },
            recv(reports) -> report => match report {
                Ok(report) => Msg::Engine(report),
                Err(_) => anyhow::bail!("the engine thread stopped"),
            },
            recv(tables_rx) -> msg => match msg {
                Ok(msg) => msg,
                Err(_) => continue,
            },
            recv(ticks) -> _ => Msg::Tick,
        };
        if let Msg::Key(_, at) = &msg {
            pending_key.get_or_insert(*at);
        }
        if let Msg::Terminate = msg {
            // Autosave and leave without drawing again: the terminal may be
            // gone (SIGHUP).
            app.update(msg, Instant::now());
            break;
        }
        app.update(msg, Instant::now());
        for command in app.take_commands() {
            engine.send(command);
        }
        for request in app.take_requests() {
            let tables = app.cx.services.tablebases.clone();
            tasks::background_request(request, &background, &mut stops, tables);
        }
        if let Some(stop) = app.cx.services.start_tables() {
            spawn_tables(Some(stop));
        }
        // Near the tables, read the ones the game can reach before the
        // search needs them (again for each new set of tables).
        if app.cx.services.near_tables
            && let Some(tables) = &app.cx.services.tablebases
            && Arc::as_ptr(tables) as usize != warmed
        {
            warmed = Arc::as_ptr(tables) as usize;
            crate::tablebase::warm_in_background(Arc::clone(tables), app.cx.board.game.position());
        }
    }
    drop(terminal);
    drop(_guard);
    signals_handle.close();
    if let Some(path) = &options.frame_log {
        log.write(path)?;
    }
    Ok(ended_by)
}

/// The input thread: blocks on terminal events and forwards them.
fn spawn_input() -> std::io::Result<Receiver<Msg>> {
    let (tx, rx) = unbounded();
    std::thread::Builder::new()
        .name("kibitz-input".into())
        .spawn(move || {
            loop {
                let msg = match event::read() {
                    Ok(Event::Key(key)) => Msg::Key(key, Instant::now()),
                    Ok(Event::Mouse(mouse)) => Msg::Mouse(mouse),
                    Ok(Event::Resize(w, h)) => Msg::Resize(w, h),
                    Ok(Event::Paste(text)) => Msg::Paste(text),
                    Ok(_) => continue,
                    Err(_) => return,
                };
                if tx.send(msg).is_err() {
                    return;
                }
            }
        })?;
    Ok(rx)
}
