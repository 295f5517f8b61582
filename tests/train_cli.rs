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
