//! `kibitz puzzles`: puzzles found in a file's games, as text, as JSON
//! lines, in a file; bad input refused; Ctrl-C keeps what was found.
#![allow(clippy::unwrap_used)]

mod common;

use std::process::Output;

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

/// Three games: Black's queen leaves the e-file and allows a mate in two
/// on the back rank (2. Qe8+ Rxe8 3. Rxe8#); Black's queen goes where a
/// knight takes it (2. Nxd5); a quiet opening with no mistake.
const GAMES: &str = r#"[White "A"]
[Black "B"]
[FEN "3r2k1/5ppp/4q3/8/8/7P/4QPP1/4R1K1 b - - 0 1"]
[SetUp "1"]

1... Qb6 *

[White "C"]
[Black "D"]
[FEN "r1bq1rk1/ppp2ppp/2n5/8/8/2N5/PPP1QPPP/R1B2RK1 b - - 0 1"]
[SetUp "1"]

1... Qd5 *

[White "E"]
[Black "F"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *
"#;

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Check one JSON line: exactly the six fields, the solution legal from
/// the FEN (an odd number of plies, the first by the side to move) and
/// its SAN the same moves. Returns the object.
fn checked(line: &str) -> serde_json::Value {
    let value: serde_json::Value = serde_json::from_str(line).unwrap();
    let mut keys: Vec<&str> = value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        ["fen", "game", "ply", "solution", "solution_san", "theme"],
        "{line}"
    );
    let fen: Fen = value["fen"].as_str().unwrap().parse().unwrap();
    let mut position: Chess = fen.into_position(CastlingMode::Standard).unwrap();
    let solution = value["solution"].as_array().unwrap();
    let san = value["solution_san"].as_array().unwrap();
    assert_eq!(solution.len() % 2, 1, "{line}");
    assert_eq!(solution.len(), san.len(), "{line}");
    for (uci, san) in solution.iter().zip(san) {
        let uci: UciMove = uci.as_str().unwrap().parse().unwrap();
        let m = uci.to_move(&position).unwrap();
        let written = SanPlus::from_move(position.clone(), m).to_string();
        assert_eq!(written, san.as_str().unwrap(), "{line}");
        position.play_unchecked(m);
    }
    assert!(value["game"].as_u64().unwrap() >= 1);
    value
}

#[test]
fn puzzles_json_lines_hold_legal_solutions_and_the_out_file_the_same() {
    let home = common::TempHome::new("puzzles-json");
    let pgn = home.join("games.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    let jsonl = home.join("found.jsonl");
    let out = home.run_within(
        &[
            "puzzles",
            "--pgn",
            pgn.to_str().unwrap(),
            "--movetime",
            "150",
            "--threads",
            "2",
            "--json",
            "--out",
            jsonl.to_str().unwrap(),
        ],
        std::time::Duration::from_secs(60),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let puzzles: Vec<serde_json::Value> = text.lines().map(checked).collect();
    assert_eq!(puzzles.len(), 2, "{text}");
    assert_eq!(puzzles[0]["game"], 1);
    assert_eq!(puzzles[0]["ply"], 1);
    assert_eq!(
        puzzles[0]["solution"],
        serde_json::json!(["e2e8", "d8e8", "e1e8"])
    );
    assert_eq!(puzzles[0]["theme"], "mate in 2, endgame");
    assert_eq!(puzzles[1]["game"], 2);
    assert_eq!(puzzles[1]["solution_san"], serde_json::json!(["Nxd5"]));
    assert_eq!(puzzles[1]["theme"], "hanging piece");
    // The file holds the same lines, each one a puzzle train reads back.
    let written = std::fs::read_to_string(&jsonl).unwrap();
    assert_eq!(written, text);
    for line in written.lines() {
        kibitz::train::find::Puzzle::from_json_line(line).unwrap();
    }
    // `kibitz train --puzzles` takes the file as it is.
    let exercises = kibitz::train::import::puzzles(&written, &jsonl).unwrap();
    assert_eq!(exercises.len(), 2);
    assert_eq!(exercises[0].solution_san, ["Qe8+", "Rxe8", "Rxe8#"]);
    assert_eq!(exercises[1].theme.as_deref(), Some("hanging piece"));
    // Progress on stderr: games done of the total, puzzles, games a minute.
    let progress = stderr(&out);
    assert!(progress.contains("3 of 3 games, 2 puzzles, "), "{progress}");
    assert!(progress.contains("games a minute"), "{progress}");
}

#[test]
fn puzzles_text_names_the_game_the_move_the_theme_and_the_solution() {
    let home = common::TempHome::new("puzzles-text");
    let pgn = home.join("games.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    let out = home.run_within(
        &[
            "puzzles",
            "--pgn",
            pgn.to_str().unwrap(),
            "--movetime",
            "150",
        ],
        std::time::Duration::from_secs(60),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(
            "game 1, ply 1, after 1... Qb6: mate in 2, endgame\n  \
             fen 3r2k1/5ppp/1q6/8/8/7P/4QPP1/4R1K1 w - - 1 2\n  \
             solution Qe8+ Rxe8 Rxe8#\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("game 2, ply 1, after 1... Qd5: hanging piece"),
        "{text}"
    );
    assert!(text.contains("2 puzzles in 3 of 3 games"), "{text}");
}

#[test]
fn puzzles_refuses_bad_input_and_writes_nothing() {
    let home = common::TempHome::new("puzzles-bad");
    let pgn = home.join("games.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    let not_pgn = home.join("notes.txt");
    std::fs::write(&not_pgn, [0u8, 159, 146, 150, 0, 1, 2]).unwrap();
    let fifo = home.join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let jsonl = home.join("found.jsonl");
    let path = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec![path(&home.join("missing.pgn"))], "cannot read"),
        (
            vec![path(home.path())],
            "it is a directory, not a regular file",
        ),
        (
            vec![path(&fifo)],
            "it is a FIFO (named pipe), not a regular file",
        ),
        (vec![path(&not_pgn)], "holds no PGN game"),
        (
            vec![path(&pgn), "--movetime".into(), "0".into()],
            "movetime 0 ms is out of range",
        ),
        (
            vec![path(&pgn), "--threads".into(), "0".into()],
            "threads 0 is out of range",
        ),
        (
            vec![path(&pgn), "--out".into(), path(&pgn)],
            "it is the input file",
        ),
    ];
    for (args, says) in cases {
        let mut all = vec!["puzzles".to_string(), "--pgn".into()];
        all.extend(args);
        all.extend(["--out".to_string(), path(&jsonl)]);
        // `--out` given twice is clap's error: give the case's own.
        if all.iter().filter(|a| *a == "--out").count() > 1 {
            all.truncate(all.len() - 2);
        }
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        let out = home.run_within(&all, std::time::Duration::from_secs(20));
        assert_eq!(out.status.code(), Some(2), "{all:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{all:?}: {}", stderr(&out));
        assert!(!jsonl.exists(), "{all:?} wrote {}", jsonl.display());
        assert_eq!(std::fs::read_to_string(&pgn).unwrap(), GAMES);
    }
}

/// Ctrl-C keeps the games finished: their puzzles in `--out`, exit 130,
/// and stderr says how far it got.
#[test]
fn puzzles_stopped_by_ctrl_c_keep_what_was_found() {
    use std::io::{BufRead, BufReader};
    let home = common::TempHome::new("puzzles-stop");
    let pgn = common::testdata("pgn/kasparov-deep-blue-1997.pgn");
    let jsonl = home.join("found.jsonl");
    let mut child = home
        .command()
        .args(["puzzles", "--pgn", pgn.to_str().unwrap(), "--threads", "1"])
        .args(["--movetime", "10", "--json", "--out"])
        .arg(&jsonl)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.starts_with("1 of 6 games") {
        line.clear();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "no progress");
    }
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let mut rest = String::new();
    for l in stderr.lines() {
        rest.push_str(&l.unwrap());
        rest.push('\n');
    }
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{rest}");
    let done: usize = rest
        .split("stopped: ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{rest}"));
    assert!((1..6).contains(&done), "{rest}");
    assert!(
        rest.contains(&format!(
            "stopped: {done} of 6 games searched; {} holds their puzzles",
            jsonl.display()
        )),
        "{rest}"
    );
    // The file holds what stdout showed, each a checked puzzle.
    let written = std::fs::read_to_string(&jsonl).unwrap();
    assert_eq!(written, stdout(&output));
    for line in written.lines() {
        let puzzle = checked(line);
        assert!(puzzle["game"].as_u64().unwrap() <= done as u64);
    }
}
