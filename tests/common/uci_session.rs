//! A UCI session with the real binary, as a GUI holds it.
#![allow(dead_code, clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

pub const LONG: Duration = Duration::from_secs(30);

pub struct Uci {
    pub child: Child,
    stdin: ChildStdin,
    pub lines: Receiver<String>,
    /// The session's own home (config, data and cache), removed at the end.
    pub home: super::TempHome,
}

impl Uci {
    /// A session with a home of its own (never the user's cache or config).
    pub fn start() -> Uci {
        Uci::start_with(&[])
    }

    /// A session with these environment variables besides its home.
    pub fn start_with(env: &[(&str, &str)]) -> Uci {
        let home = super::TempHome::new("uci");
        let mut child = home
            .command()
            .envs(env.iter().copied())
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        Uci {
            child,
            stdin,
            lines,
            home,
        }
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that satisfies `done`.
    pub fn until(&mut self, done: impl Fn(&str) -> bool, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let stop = done(&line);
                    seen.push(line);
                    if stop {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("timed out; got {seen:#?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("engine exited; got {seen:#?}"),
            }
        }
    }

    pub fn best_move(&mut self, timeout: Duration) -> (String, Vec<String>) {
        let lines = self.until(|l| l.starts_with("bestmove"), timeout);
        let best = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        (best, lines)
    }

    pub fn ready(&mut self) {
        self.send("isready");
        self.until(|l| l == "readyok", Duration::from_secs(10));
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        // The home goes with the field, after the process is gone.
    }
}
