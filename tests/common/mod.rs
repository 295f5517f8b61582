//! Shared helpers for the integration tests.
#![allow(dead_code, clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use kibitz::engine::search::{self, SearchResult};
use kibitz::engine::trace::NoTrace;
use kibitz::engine::{Limits, SearchOptions};
use shakmaty::Chess;

/// A file of the tests' data, `tests/data/RELATIVE` in the repository
/// (origins and licences in `tests/data/README.md`). Panics with the path
/// when it is missing: these tests must not pass silently without their data.
pub fn testdata(relative: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(relative);
    assert!(path.exists(), "test data missing: {}", path.display());
    path
}

/// A fresh, empty folder of a test's own under the system's temporary
/// folder, removed when dropped. As the home of the `kibitz` processes a
/// test starts it holds their config, data and cache folders, so that no
/// test reads or writes the real ones; the test may keep its files there too.
pub struct TempHome(PathBuf);

impl TempHome {
    pub fn new(name: &str) -> TempHome {
        static MADE: AtomicUsize = AtomicUsize::new(0);
        let n = MADE.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("kibitz-test-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)
            .unwrap_or_else(|e| panic!("cannot make {}: {e}", dir.display()));
        TempHome(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn join(&self, name: impl AsRef<Path>) -> PathBuf {
        self.0.join(name)
    }

    /// The environment that puts a `kibitz` process's home, config, data,
    /// state and cache folders in here (`~/` in typed paths too).
    pub fn env(&self) -> Vec<(&'static str, PathBuf)> {
        vec![
            ("HOME", self.0.clone()),
            ("XDG_CONFIG_HOME", self.join("config")),
            ("XDG_DATA_HOME", self.join("data")),
            ("XDG_STATE_HOME", self.join("state")),
            ("XDG_CACHE_HOME", self.join("cache")),
        ]
    }

    /// The `kibitz` binary, to run with this folder as its home (and no
    /// frame log from the caller's environment).
    pub fn command(&self) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_kibitz"));
        command.envs(self.env()).env_remove("KIBITZ_FRAME_LOG");
        command
    }

    /// Run `kibitz ARGS` here with `input` on stdin to the end. A run that
    /// exits before reading its input (a refused argument, exit code 2) is
    /// the behaviour under test, not a failure: the broken pipe is ignored.
    pub fn run_with_stdin(&self, args: &[&str], input: &str) -> Output {
        use std::io::Write;
        let mut child = self
            .command()
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        if let Err(e) = child.stdin.take().unwrap().write_all(input.as_bytes()) {
            assert_eq!(
                e.kind(),
                std::io::ErrorKind::BrokenPipe,
                "writing stdin: {e}"
            );
        }
        child.wait_with_output().unwrap()
    }

    /// Run `kibitz ARGS` here with no input and a deadline: a run longer
    /// than `limit` is killed and fails the test (for the bugs that read
    /// without end), instead of hanging it.
    pub fn run_within(&self, args: &[&str], limit: std::time::Duration) -> Output {
        let mut child = self
            .command()
            .args(args)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > limit {
                let _ = child.kill();
                let _ = child.wait();
                panic!("kibitz {args:?} still running after {limit:?}");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        child.wait_with_output().unwrap()
    }
}

impl Drop for TempHome {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The `kibitz` binary with a fresh home of its own, and that home (the
/// folder is removed when the `TempHome` is dropped, so keep it until the
/// process is done).
pub fn kibitz_command() -> (Command, TempHome) {
    let home = TempHome::new("run");
    (home.command(), home)
}

/// Run `kibitz ARGS` to the end with a fresh home of its own.
pub fn run_kibitz<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    let (mut command, _home) = kibitz_command();
    command
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("the kibitz binary does not run: {e}"))
}

pub fn read_testdata(relative: &str) -> String {
    let path = testdata(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// One search on this thread with a fresh 16 MiB table.
pub fn search(position: &Chess, limits: &Limits, options: SearchOptions) -> SearchResult {
    search::search_fresh(position, &[], limits, options, 16, &mut NoTrace)
}
#[cfg(feature = "tui")]
pub mod board;
pub mod uci_session;
