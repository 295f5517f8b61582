//! UCI sessions against the real binary, as a chess GUI would hold them.
#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use kibitz::game::notation::parse_uci;
use shakmaty::{Chess, Position};

struct Uci {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Uci {
    fn start() -> Uci {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kibitz"))
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
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that satisfies `done`.
    fn until(&mut self, done: impl Fn(&str) -> bool, timeout: Duration) -> Vec<String> {
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

    fn best_move(&mut self, timeout: Duration) -> (String, Vec<String>) {
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

    fn ready(&mut self) {
        self.send("isready");
        self.until(|l| l == "readyok", Duration::from_secs(10));
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

const LONG: Duration = Duration::from_secs(30);

#[test]
fn handshake_lists_options() {
    let mut uci = Uci::start();
    uci.send("uci");
    let lines = uci.until(|l| l == "uciok", LONG);
    assert!(lines[0].starts_with("id name kibitz"));
    for option in [
        "option name Hash type spin",
        "option name MultiPV type spin",
        "option name Clear Hash type button",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(option)), "{option}");
    }
    uci.ready();
    uci.send("quit");
    let started = Instant::now();
    while uci.child.try_wait().unwrap().is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "quit did not end the engine"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(uci.child.wait().unwrap().success());
}

#[test]
fn garbage_gets_an_info_string_and_the_engine_carries_on() {
    let mut uci = Uci::start();
    for (line, expect) in [
        ("xyzzy", "unknown command 'xyzzy'"),
        ("go depth x", "not a valid number"),
        ("position fen not/a/fen w - - 0 1", "FEN field 1"),
        ("position sideways", "position: expected"),
        ("setoption name Hash value lots", "not a number"),
        ("setoption name Hash value 0", "out of range"),
        ("setoption name Frobnicate value 3", "unknown option"),
        (
            "position startpos moves e2e4 e7e4",
            "move 2 'e7e4' is not legal",
        ),
    ] {
        uci.send(line);
        let lines = uci.until(|l| l.starts_with("info string"), LONG);
        assert!(lines.last().unwrap().contains(expect), "{line}: {lines:?}");
    }
    uci.ready();
    // The illegal move was dropped; the position is after 1. e4, Black to move.
    uci.send("go depth 3");
    let (best, _) = uci.best_move(LONG);
    let mut position = Chess::default();
    position.play_unchecked(parse_uci(&position, "e2e4").unwrap());
    assert!(
        parse_uci(&position, &best).is_ok(),
        "{best} is not a legal Black reply to 1. e4"
    );
}

#[test]
fn multipv_gives_that_many_lines() {
    let mut uci = Uci::start();
    uci.send("setoption name MultiPV value 3");
    uci.send("position startpos moves d2d4");
    uci.send("go depth 6");
    let (_, lines) = uci.best_move(LONG);
    let at_depth_6: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 6 ") && l.contains(" pv ") && !l.contains("bound"))
        .collect();
    for k in 1..=3 {
        assert!(
            at_depth_6
                .iter()
                .any(|l| l.contains(&format!(" multipv {k} "))),
            "no line {k}: {at_depth_6:#?}"
        );
    }
}

#[test]
fn infinite_waits_for_stop_and_stop_is_prompt() {
    let mut uci = Uci::start();
    uci.send("position startpos");
    uci.send("go infinite");
    std::thread::sleep(Duration::from_millis(400));
    uci.ready(); // answered during the search
    let early: Vec<String> = uci.lines.try_iter().collect();
    assert!(
        early.iter().all(|l| !l.starts_with("bestmove")),
        "{early:?}"
    );
    let stopped = Instant::now();
    uci.send("stop");
    let (best, _) = uci.best_move(LONG);
    assert!(
        stopped.elapsed() < Duration::from_secs(1),
        "stop took {:?}",
        stopped.elapsed()
    );
    assert!(parse_uci(&Chess::default(), &best).is_ok());
}

#[test]
fn movetime_and_clock_are_respected() {
    let mut uci = Uci::start();
    uci.send("position startpos moves e2e4 c7c5");
    let started = Instant::now();
    uci.send("go movetime 300");
    uci.best_move(LONG);
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(250) && took < Duration::from_millis(800),
        "{took:?}"
    );

    let started = Instant::now();
    uci.send("go wtime 300 btime 300");
    uci.best_move(LONG);
    assert!(
        started.elapsed() < Duration::from_millis(300),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn go_mate_finds_the_mate() {
    let mut uci = Uci::start();
    uci.send("position fen r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3");
    uci.send("go mate 1");
    let (best, lines) = uci.best_move(LONG);
    assert_eq!(best, "f3f7");
    assert!(lines.iter().any(|l| l.contains("score mate 1")));
}

/// Two engine processes play a whole game at a fast clock. Every move must
/// be legal and arrive before the mover's clock runs out, as measured here.
#[test]
fn plays_a_whole_game_on_the_clock() {
    let mut players = [Uci::start(), Uci::start()];
    for p in players.iter_mut() {
        p.send("uci");
        p.until(|l| l == "uciok", LONG);
        p.send("ucinewgame");
        p.ready();
    }
    let increment = Duration::from_millis(20);
    let mut clocks = [Duration::from_millis(2000); 2];
    let mut position = Chess::default();
    let mut moves: Vec<String> = Vec::new();
    while !position.is_game_over() && moves.len() < 160 {
        let side = moves.len() % 2;
        let player = &mut players[side];
        player.send(&format!("position startpos moves {}", moves.join(" ")));
        player.send(&format!(
            "go wtime {} btime {} winc {} binc {}",
            clocks[0].as_millis(),
            clocks[1].as_millis(),
            increment.as_millis(),
            increment.as_millis()
        ));
        let started = Instant::now();
        let (best, _) = player.best_move(LONG);
        let used = started.elapsed();
        assert!(
            used < clocks[side],
            "lost on time at ply {}: used {used:?} of {:?}",
            moves.len(),
            clocks[side]
        );
        clocks[side] = clocks[side] - used + increment;
        let m = parse_uci(&position, &best).unwrap_or_else(|e| panic!("ply {}: {e}", moves.len()));
        position.play_unchecked(m);
        moves.push(best);
    }
    assert!(moves.len() >= 20, "game too short: {moves:?}");
}
