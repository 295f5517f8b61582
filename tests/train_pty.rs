//! `kibitz train` in a pseudo-terminal, as a person uses it: a puzzle
//! answered wrong then right, the next one left by Ctrl-C, which ends with
//! exit code 130, says so, and keeps every answer given. The home folder
//! is the test's own.
#![allow(clippy::unwrap_used)]

mod common;

use std::io::{Read, Write};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

const PUZZLES: &str = concat!(
    r#"{"fen":"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1","solution":["a1a8"],"solution_san":["Ra8#"],"theme":"mate in 1","game":1,"ply":41}"#,
    "\n",
    r#"{"fen":"rnb1kbnr/ppp1pppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR b KQkq - 1 3","solution":["d5a5"],"solution_san":["Qa5"],"theme":null,"game":2,"ply":6}"#,
    "\n"
);

#[test]
fn train_in_a_terminal_answers_then_ctrl_c_keeps_the_answers() {
    let home = common::TempHome::new("pty-train");
    let file = home.join("found.jsonl");
    std::fs::write(&file, PUZZLES).unwrap();
    let pty = native_pty_system()
        .openpty(PtySize {
            rows: 40,
            cols: 120,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut command = CommandBuilder::new(env!("CARGO_BIN_EXE_kibitz"));
    command.args(["train", "--puzzles", file.to_str().unwrap()]);
    for (key, value) in home.env() {
        command.env(key, value);
    }
    command.env("TERM", "xterm-256color");
    let mut child = pty.slave.spawn_command(command).unwrap();
    drop(pty.slave);
    let mut reader = pty.master.try_clone_reader().unwrap();
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut writer = pty.master.take_writer().unwrap();
    let mut seen = String::new();
    let wait_for = |what: &str, seen: &mut String| {
        let deadline = Instant::now() + Duration::from_secs(30);
        while !seen.contains(what) {
            assert!(Instant::now() < deadline, "no {what:?} in:\n{seen}");
            if let Ok(chunk) = rx.recv_timeout(Duration::from_millis(50)) {
                seen.push_str(&String::from_utf8_lossy(&chunk));
            }
        }
    };
    wait_for("White to play and win (mate in 1).", &mut seen);
    writer.write_all(b"Ra7\r").unwrap();
    wait_for("not right: Ra7 is not the solution", &mut seen);
    writer.write_all(b"Ra8\r").unwrap();
    wait_for("right: Ra8# is the solution", &mut seen);
    wait_for("Black to play and win.", &mut seen);
    // Ctrl-C while the program waits for an answer.
    writer.write_all(b"\x03").unwrap();
    wait_for("every answer is saved", &mut seen);
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "kibitz train did not exit");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.exit_code(), 130, "{seen}");
    assert!(
        seen.contains("stopped: 0 solved, 1 failed; next due: now (1 position)"),
        "{seen}"
    );
    // The first puzzle's wrong try is in the file; the second is untouched.
    let text = std::fs::read_to_string(home.join("data/kibitz/train.json")).unwrap();
    let file: serde_json::Value = serde_json::from_str(&text).unwrap();
    let cards = file["cards"].as_array().unwrap();
    assert_eq!(cards[0]["wrong"], 1);
    assert_eq!(cards[0]["streak"], 0);
    assert!(cards[1].get("last").is_none(), "{:?}", cards[1]);
}
