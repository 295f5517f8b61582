//! Tables away from the game's critical path: reading ahead the tables a
//! position can reach, and generating the missing ones in the background at
//! a pace that leaves the engine its processor.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use shakmaty::{Chess, Position};

use super::material::Material;
use super::retro::Table;
use super::{Builtin, Tablebases, store};

/// Read, on a thread of its own, every built-in table a game at `position`
/// can reach (see [`Builtin::warm`]).
pub fn warm_in_background(tables: Arc<Tablebases>, position: &Chess) {
    let material = Material::from_board(position.board());
    let _ = std::thread::Builder::new()
        .name("kibitz-tables-warm".into())
        .spawn(move || tables.builtin.warm(&material));
}

/// Whether the board generates missing tables when a game nears them (the
/// `tablebase_generation` setting).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Generation {
    /// In the background, at the lowest priority, on one thread while the
    /// engine searches.
    #[default]
    Background,
    /// Never: only the tables already on disk are used.
    Off,
    /// Say that tables are missing and generate them when asked (`:tables`).
    Ask,
}

impl Generation {
    pub fn name(self) -> &'static str {
        match self {
            Generation::Background => "background",
            Generation::Off => "off",
            Generation::Ask => "ask",
        }
    }
}

impl std::str::FromStr for Generation {
    type Err = String;
    fn from_str(text: &str) -> Result<Generation, String> {
        [Generation::Background, Generation::Off, Generation::Ask]
            .into_iter()
            .find(|g| g.name() == text)
            .ok_or_else(|| format!("'{text}' is not a generation mode (background, off, ask)"))
    }
}

/// How table generation shares the machine with a game.
#[derive(Debug, Clone, Default)]
pub struct Pace {
    /// Run the generating threads at the lowest priority (nice 19; Linux).
    pub low_priority: bool,
    /// Set while the engine searches: then the first generating thread goes
    /// on and the others wait, so the engine keeps a processor to itself.
    pub busy: Option<Arc<AtomicBool>>,
    /// Set to stop generating: the threads leave the tables they are making
    /// (nothing of them is written) within a fraction of a second.
    pub stop: Option<Arc<AtomicBool>>,
}

impl Pace {
    /// For a game in progress: lowest priority, one thread while `busy`.
    pub fn background(busy: Arc<AtomicBool>) -> Pace {
        Pace {
            low_priority: true,
            busy: Some(busy),
            stop: None,
        }
    }

    /// Whether generating was asked to stop.
    pub fn stopped(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Called by generator `worker` as it goes: waits while it should, and
    /// says whether to go on.
    pub(super) fn wait_turn(&self, worker: usize) -> ControlFlow<()> {
        if worker > 0
            && let Some(busy) = &self.busy
        {
            while busy.load(Ordering::Relaxed) && !self.stopped() {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
        }
        if self.stopped() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// Give the calling thread the lowest priority (nice 19): it then gets only
/// the processor time other threads leave. Linux only, where the nice value
/// belongs to a thread (elsewhere it would lower the whole process); if the
/// system refuses, the thread runs on as it was.
pub fn lower_thread_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid and setpriority take and return plain numbers and
    // touch no memory.
    unsafe {
        let thread = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, thread as libc::id_t, 19);
    }
}

/// The calling thread's nice value (Linux), for tests.
pub fn thread_nice() -> Option<i32> {
    #[cfg(target_os = "linux")]
    {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
        // The fields after the command name (in parentheses): nice is the 19th field overall.
        let rest = stat.get(stat.rfind(')')? + 2..)?;
        rest.split(' ').nth(16)?.parse().ok()
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// How often [`load_in_background`] tells of its progress at most.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// Open the built-in tables in `dir` (each is read when first needed) and,
/// with `generate_missing`, generate the others there, in dependency order,
/// at the pace given. `ready` gets the set each time it grew (first the
/// tables found, then after generating). `progress` hears while generating,
/// at most four times a second, of the table being made and the fraction of
/// the whole work done. A generation stopped by the pace is no problem to
/// report: the tables finished are kept, the ones being made are left.
/// Meant for a background thread: the caller never waits for it.
pub fn load_in_background(
    dir: PathBuf,
    syzygy: Option<PathBuf>,
    generate_missing: Option<&Pace>,
    ready: &dyn Fn(Arc<Tablebases>),
    progress: &dyn Fn(&Material, f64),
) -> Vec<String> {
    if generate_missing.is_some_and(|pace| pace.low_priority) {
        lower_thread_priority();
    }
    let mut problems = Vec::new();
    let mut builtin = Builtin::open(&dir, &mut problems);
    let fate = if generate_missing.is_some() {
        "generating it again"
    } else {
        "left out"
    };
    let mut messages: Vec<String> = problems.iter().map(|p| format!("{p}; {fate}")).collect();
    let mut missing: Vec<Material> = Material::all()
        .into_iter()
        .filter(|m| !builtin.contains(m))
        .collect();
    let with_syzygy = |builtin: Builtin, messages: &mut Vec<String>| {
        let mut tables = Tablebases::new(builtin);
        if let Some(dir) = &syzygy
            && let Err(e) = tables.add_syzygy(dir)
        {
            messages.push(format!("{e}; running without Syzygy"));
        }
        Arc::new(tables)
    };
    if let Some(pace) = generate_missing
        && !missing.is_empty()
    {
        // The tables found go to the engine at once (they share memory).
        ready(with_syzygy(builtin.clone(), &mut messages));
        // Generating reads the smaller tables: one that fails its checksum
        // is made again too.
        for m in Material::all() {
            if builtin.contains(&m) && missing.iter().any(|w| w.depends_on(&m)) {
                builtin.get(&m);
            }
        }
        for (m, why) in builtin.take_failed() {
            messages.push(format!("{why}; generating it again"));
            missing.push(m);
        }
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        let mut stored = true;
        let mut report = |table: &Table, _seconds: f64| {
            if let Err(e) = store::write(&dir, table) {
                stored = false;
                messages.push(format!("{e}; the table stays in memory only"));
            }
        };
        let mut told: Option<std::time::Instant> = None;
        let mut step = |table: &Material, fraction: f64| {
            if told.is_none_or(|t| t.elapsed() >= PROGRESS_EVERY) {
                told = Some(std::time::Instant::now());
                progress(table, fraction);
            }
        };
        let generated = builtin.generate_all_paced(&missing, threads, pace, &mut report, &mut step);
        if let Err(e) = generated
            && !pace.stopped()
        {
            messages.push(e);
        }
        // The new tables are on disk: let them be read again when needed
        // rather than keep every one in memory.
        if stored {
            builtin = builtin.reopen(&dir);
        }
    }
    ready(with_syzygy(builtin, &mut messages));
    messages
}
