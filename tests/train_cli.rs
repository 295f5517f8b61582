//! `kibitz train` and `review --train` from the command line, each run
//! with a home of its own (`TempHome`): the schedule they write is read
//! back from its data folder.
#![allow(clippy::unwrap_used)]

mod common;

use std::process::Output;

use common::TempHome;

fn run(home: &TempHome, args: &[&str]) -> Output {
    home.run_within(args, std::time::Duration::from_secs(120))
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The schedule's cards as JSON, read from the home's data folder.
fn cards(home: &TempHome) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(home.join("data/kibitz/train.json")).unwrap();
    let file: serde_json::Value = serde_json::from_str(&text).unwrap();
    file["cards"].as_array().unwrap().clone()
}

#[test]
fn review_train_puts_the_blunder_into_the_schedule_once() {
    let home = TempHome::new("review-train");
    let pgn = home.join("scholar.pgn");
    std::fs::write(
        &pgn,
        "[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n",
    )
    .unwrap();
    let args = [
        "review",
        "--pgn",
        pgn.to_str().unwrap(),
        "--movetime",
        "100",
        "--train",
    ];
    let out = run(&home, &args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("training: 1 position added to "), "{text}");
    let cards = cards(&home);
    assert_eq!(cards.len(), 1, "{cards:?}");
    let card = &cards[0];
    assert_eq!(card["kind"], "mistake");
    assert_eq!(
        card["fen"],
        "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3"
    );
    assert_eq!(card["played"], "g8f6");
    assert_ne!(card["solution"][0], "g8f6");
    assert_eq!(
        card["source"],
        "game 1 of scholar.pgn, 3... Nf6?? (Ann - Bob)"
    );
    // Again: nothing new, and said so.
    let again = run(&home, &args);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(
        stdout(&again).contains("training: 0 positions added (1 already there)"),
        "{}",
        stdout(&again)
    );
    assert_eq!(self::cards(&home).len(), 1);
}

#[test]
fn review_all_train_takes_every_players_mistakes_or_one_players() {
    let home = TempHome::new("review-all-train");
    let pgn = common::testdata("pgn/review-three.pgn");
    let syzygy = common::testdata("syzygy");
    let args = |player: Option<&'static str>| {
        let mut args = vec![
            "review".to_string(),
            "--pgn".into(),
            pgn.display().to_string(),
            "--all".into(),
            "--movetime".into(),
            "100".into(),
            "--threads".into(),
            "2".into(),
            "--syzygy".into(),
            syzygy.display().to_string(),
            "--json".into(),
            "--train".into(),
        ];
        if let Some(player) = player {
            args.extend(["--player".to_string(), player.to_string()]);
        }
        args
    };
    let bob = args(Some("Bob"));
    let bob: Vec<&str> = bob.iter().map(String::as_str).collect();
    let out = run(&home, &bob);
    assert!(out.status.success(), "{}", stderr(&out));
    // --json keeps stdout the review's: the count goes to stderr.
    assert!(
        stderr(&out).contains("training: 1 position added"),
        "{}",
        stderr(&out)
    );
    let only_bob = cards(&home);
    assert_eq!(only_bob.len(), 1);
    assert_eq!(only_bob[0]["played"], "g8f6");
    // Everyone's: Cleo's Kc5?? (a won table ending thrown away) joins.
    let all = args(None);
    let all: Vec<&str> = all.iter().map(String::as_str).collect();
    let out = run(&home, &all);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("training: 1 position added (1 already there)"),
        "{}",
        stderr(&out)
    );
    let cards = cards(&home);
    assert_eq!(cards.len(), 2);
    assert_eq!(cards[1]["fen"], "3k4/8/3K4/3P4/8/8/8/8 w - - 0 1");
    assert_eq!(cards[1]["played"], "d6c5");
    assert_eq!(
        cards[1]["source"],
        "game 3 of review-three.pgn, 1. Kc5?? (Cleo - Bob)"
    );
    // --player alone asks for nothing.
    let out = run(&home, &["review", "--pgn", "x.pgn", "--player", "Bob"]);
    assert_eq!(out.status.code(), Some(2));
}

const MATE_PUZZLE: &str = r#"{"fen":"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1","solution":["a1a8"],"solution_san":["Ra8#"],"theme":"mate in 1","game":3,"ply":41}"#;
/// After 1. e4 d5 2. exd5 Qxd5 3. Nc3 the queen is attacked: a puzzle whose
/// answer is Qa5 and no other (a puzzle takes its own move only).
const QUEEN_PUZZLE: &str = r#"{"fen":"rnb1kbnr/ppp1pppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR b KQkq - 1 3","solution":["d5a5"],"solution_san":["Qa5"],"theme":null,"game":1,"ply":6}"#;

fn train_with_input(home: &TempHome, args: &[&str], input: &str) -> Output {
    let args: Vec<&str> = std::iter::once("train")
        .chain(args.iter().copied())
        .collect();
    home.run_with_stdin(&args, input)
}

#[test]
fn train_serves_the_due_puzzles_checks_answers_and_keeps_the_schedule() {
    let home = TempHome::new("train-puzzles");
    let file = home.join("found.jsonl");
    std::fs::write(&file, format!("{MATE_PUZZLE}\n{QUEEN_PUZZLE}\n")).unwrap();
    // The mate first try (solved); the queen: a wrong try, then right
    // (failed: it comes back tomorrow).
    let out = train_with_input(
        &home,
        &["--puzzles", file.to_str().unwrap()],
        "Ra8\nnonsense\nQd8\nh\nQa5\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("puzzles: 2 positions added"), "{text}");
    assert!(
        text.contains("White to move. White to play and win (mate in 1)."),
        "{text}"
    );
    assert!(
        text.contains("right: Ra8# is the solution; it comes back in 1 day"),
        "{text}"
    );
    assert!(text.contains("'nonsense' is not a move"), "{text}");
    assert!(
        text.contains("not right: Qd8 is not the solution"),
        "{text}"
    );
    assert!(text.contains("hint: move the queen on d5"), "{text}");
    assert!(text.contains("right: Qa5 is the solution\n"), "{text}");
    assert!(
        text.contains("1 solved, 1 failed; next due: in 1 day (2 positions)"),
        "{text}"
    );
    // The answers are in the file: the mate's streak is 1, the queen's 0.
    let cards = cards(&home);
    assert_eq!(
        (cards[0]["streak"].as_u64(), cards[0]["right"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(
        (cards[1]["streak"].as_u64(), cards[1]["wrong"].as_u64()),
        (Some(0), Some(1))
    );
    // Nothing is due now, and a second import adds nothing.
    let again = train_with_input(&home, &["--puzzles", file.to_str().unwrap()], "");
    assert!(again.status.success(), "{}", stderr(&again));
    let text = stdout(&again);
    assert!(
        text.contains("puzzles: 0 positions added (2 already there)"),
        "{text}"
    );
    assert!(
        text.contains("nothing is due; next due: in 1 day (2 positions)"),
        "{text}"
    );
    // --list shows both, --json one object each.
    let list = run(&home, &["train", "--list"]);
    let text = stdout(&list);
    assert!(
        text.contains("in 1 day       puzzle           1  game 3, ply 41 of found.jsonl"),
        "{text}"
    );
    assert!(text.contains("2 positions, 0 due now, 0 learned"), "{text}");
    let json = run(&home, &["train", "--list", "--json"]);
    let lines: Vec<serde_json::Value> = stdout(&json)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["kind"], "puzzle");
}

#[test]
fn the_end_of_the_input_and_q_keep_every_answer_given() {
    let home = TempHome::new("train-eof");
    let file = home.join("found.jsonl");
    std::fs::write(&file, format!("{MATE_PUZZLE}\n{QUEEN_PUZZLE}\n")).unwrap();
    let out = train_with_input(
        &home,
        &["--puzzles", file.to_str().unwrap(), "--limit", "1"],
        "s\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("1 position to train"), "{text}");
    assert!(text.contains("solution: 1. Ra8#"), "{text}");
    assert!(
        text.contains("0 solved, 1 failed; next due: now (1 position)"),
        "{text}"
    );
    // The input ends in the middle of the next position: nothing lost.
    let out = train_with_input(&home, &[], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("0 solved, 0 failed; next due: now (1 position)"),
        "{}",
        stdout(&out)
    );
    let out = train_with_input(&home, &[], "q\n");
    assert!(out.status.success());
    assert_eq!(cards(&home)[0]["wrong"], 1);
}

#[test]
fn a_bad_puzzles_file_is_refused_by_line_and_adds_nothing() {
    let home = TempHome::new("train-bad-puzzles");
    let file = home.join("bad.jsonl");
    std::fs::write(
        &file,
        format!(
            "{MATE_PUZZLE}\n{{\"fen\":\"x\",\"solution\":[\"e2e4\"],\"solution_san\":[\"e4\"],\"theme\":null,\"game\":1,\"ply\":1}}\n"
        ),
    )
    .unwrap();
    let out = run(&home, &["train", "--puzzles", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("bad.jsonl line 2: bad fen"),
        "{}",
        stderr(&out)
    );
    assert!(!home.join("data/kibitz/train.json").exists());
    let out = run(&home, &["train", "--puzzles", "/nonexistent/p.jsonl"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&home, &["train", "--json"]);
    assert_eq!(out.status.code(), Some(2), "--json without --list");
}

#[test]
fn a_damaged_schedule_is_kept_aside_and_training_starts_afresh() {
    let home = TempHome::new("train-damaged");
    let data = home.join("data/kibitz");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("train.json"), "{\"version\": 1, \"cards\": [").unwrap();
    let out = run(&home, &["train"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("the training schedule was damaged"),
        "{}",
        stderr(&out)
    );
    assert!(
        stdout(&out).contains("the training schedule is empty"),
        "{}",
        stdout(&out)
    );
    let kept: Vec<_> = std::fs::read_dir(&data)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("train.damaged-")
        })
        .collect();
    assert_eq!(kept.len(), 1);
    assert_eq!(
        std::fs::read_to_string(kept[0].path()).unwrap(),
        "{\"version\": 1, \"cards\": ["
    );
}
