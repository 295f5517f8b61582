//! `kibitz db`: the game database, run as a user runs it.
#![allow(clippy::unwrap_used)]

mod common;

use std::io::Write;
use std::process::Output;
use std::time::Duration;

use common::TempHome;

const LIMIT: Duration = Duration::from_secs(60);

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn json(output: &Output) -> serde_json::Value {
    serde_json::from_str(stdout(output).trim())
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", stdout(output), stderr(output)))
}

fn run(home: &TempHome, args: &[&str]) -> Output {
    home.run_within(args, LIMIT)
}

/// Three games by hand: a transposition (1. Nf3 d5 2. d4 and 1. d4 d5
/// 2. Nf3), a game that comes back to a position, ratings on some.
const HAND: &str = r#"[Event "T1"]
[White "Ann"]
[Black "Bob"]
[WhiteElo "2000"]
[BlackElo "1900"]
[Date "2024.03.01"]
[Result "1-0"]

1. Nf3 d5 2. d4 Nf6 1-0

[Event "T2"]
[White "Bob"]
[Black "Ann"]
[Date "2025.01.01"]
[Result "0-1"]

1. d4 d5 2. Nf3 Nf6 3. Ng1 Ng8 4. Nf3 c6 0-1

[Event "T3"]
[White "Cy"]
[Black "Ann"]
[WhiteElo "1500"]
[BlackElo "1700"]
[Date "2023.06.06"]
[Result "1/2-1/2"]

1. d4 d5 2. Nf3 Nf6 3. c4 1/2-1/2

[Event "Broken"]
[White "X"]
[Black "Y"]
[Result "*"]

1. e4 e5 2. Ke3 *
"#;

fn hand_db(home: &TempHome) -> (String, String) {
    let pgn = home.join("hand.pgn");
    std::fs::write(&pgn, HAND).unwrap();
    let db = home.join("hand.sqlite");
    let output = run(
        home,
        &[
            "db",
            "import",
            "--db",
            db.to_str().unwrap(),
            pgn.to_str().unwrap(),
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    (
        db.to_str().unwrap().to_string(),
        pgn.to_str().unwrap().to_string(),
    )
}

fn moves_of(value: &serde_json::Value) -> Vec<(String, u64, u64, u64, u64)> {
    value["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["san"].as_str().unwrap().to_string(),
                m["games"].as_u64().unwrap(),
                m["white"].as_u64().unwrap(),
                m["draws"].as_u64().unwrap(),
                m["black"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn explore_counts_transpositions_and_each_game_once_at_its_first_time() {
    let home = TempHome::new("db-explore");
    let (db, _) = hand_db(&home);
    // After 1. d4 d5 2. Nf3 (or 1. Nf3 d5 2. d4): all three games, T2
    // with its first move from here (Nf6), not the c6 of its second visit
    // (3. Ng1 Ng8 4. Nf3 came back).
    let output = run(
        &home,
        &[
            "db",
            "explore",
            "--db",
            &db,
            "--moves",
            "Nf3 d5 d4",
            "--json",
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let value = json(&output);
    assert_eq!(value["games"], 3);
    assert_eq!(moves_of(&value), [("Nf6".to_string(), 3, 1, 1, 1)]);
    // Ratings: T1 (2000, 1900) and T3 (1500, 1700), none in T2: mean
    // 1775. Black to move: a win, a draw and a loss for Black, 50%.
    let nf6 = &value["moves"][0];
    assert_eq!(nf6["rating"], 1775);
    assert_eq!(nf6["score"], 50.0);
    // The start: the broken game is not in the database.
    let output = run(&home, &["db", "explore", "--db", &db, "--json"]);
    let value = json(&output);
    assert_eq!(value["games"], 3);
    assert_eq!(
        moves_of(&value),
        [
            ("d4".to_string(), 2, 0, 1, 1),
            ("Nf3".to_string(), 1, 1, 0, 0)
        ]
    );
    // A position no game reached, in words.
    let output = run(&home, &["db", "explore", "--db", &db, "--moves", "h4"]);
    assert!(output.status.success());
    assert!(
        stdout(&output).contains("no game reached this position"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn filters_narrow_the_explorer_to_a_player_dates_results_and_ratings() {
    let home = TempHome::new("db-filter");
    let (db, _) = hand_db(&home);
    let explore = |extra: &[&str]| {
        let mut args = vec![
            "db",
            "explore",
            "--db",
            db.as_str(),
            "--moves",
            "d4 d5 Nf3",
            "--json",
        ];
        args.extend_from_slice(extra);
        let output = run(&home, &args);
        assert!(output.status.success(), "{}", stderr(&output));
        moves_of(&json(&output))
    };
    assert_eq!(
        explore(&["--player", "ANN", "--as", "black"]),
        [("Nf6".to_string(), 2, 0, 1, 1)]
    );
    assert_eq!(
        explore(&["--player", "ann", "--as", "white"]),
        [("Nf6".to_string(), 1, 1, 0, 0)]
    );
    assert_eq!(
        explore(&["--since", "2024"])
            .iter()
            .map(|m| m.1)
            .sum::<u64>(),
        2
    );
    assert_eq!(
        explore(&["--until", "2023.12"]),
        [("Nf6".to_string(), 1, 0, 1, 0)]
    );
    assert_eq!(
        explore(&["--result", "0-1"]),
        [("Nf6".to_string(), 1, 0, 0, 1)]
    );
    assert_eq!(
        explore(&["--min-elo", "1800"]),
        [("Nf6".to_string(), 1, 1, 0, 0)]
    );
    for (flag, value) in [
        ("--since", "20x4"),
        ("--result", "win"),
        ("--until", "2024.13"),
    ] {
        let output = run(&home, &["db", "explore", "--db", &db, flag, value]);
        assert_eq!(output.status.code(), Some(2), "{flag} {value}");
        assert!(!stderr(&output).is_empty());
    }
}

#[test]
fn import_is_idempotent_names_bad_games_and_reports_in_json() {
    let home = TempHome::new("db-import");
    let (db, pgn) = hand_db(&home);
    let output = run(&home, &["db", "import", "--db", &db, &pgn, "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let value = json(&output);
    let file = &value["files"][0];
    assert_eq!(file["games_read"], 4);
    assert_eq!(file["added"], 0);
    assert_eq!(file["duplicates"], 3);
    assert_eq!(value["games"], 3);
    assert!(
        stderr(&output).contains("'Ke3' is not a legal move"),
        "{}",
        stderr(&output)
    );
    let info = json(&run(&home, &["db", "info", "--db", &db, "--json"]));
    assert_eq!(info["games"], 3);
    // 5 + 9 + 6 positions; T2 comes back to two positions, each counted
    // once: 7.
    assert_eq!(info["positions"], 5 + 7 + 6);
}

#[test]
fn games_are_listed_most_recent_first_and_shown_as_pgn() {
    let home = TempHome::new("db-games");
    let (db, _) = hand_db(&home);
    let output = run(
        &home,
        &[
            "db", "games", "--db", &db, "--moves", "d4", "d5", "Nf3", "--json",
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let value = json(&output);
    assert_eq!(value["total"], 3);
    let events: Vec<_> = value["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["event"].as_str().unwrap())
        .collect();
    assert_eq!(events, ["T2", "T1", "T3"]);
    let output = run(&home, &["db", "games", "--db", &db, "--player", "cy"]);
    let text = stdout(&output);
    assert!(
        text.contains("Cy (1500)") && text.contains("1 of 1 games"),
        "{text}"
    );
    let id = value["games"][0]["id"].as_i64().unwrap().to_string();
    let output = run(&home, &["db", "show", "--db", &db, &id]);
    assert!(
        stdout(&output).contains("1. d4 d5 2. Nf3 Nf6 3. Ng1 Ng8 4. Nf3 c6 0-1"),
        "{}",
        stdout(&output)
    );
    let output = run(&home, &["db", "show", "--db", &db, "999"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("no game 999"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn the_default_database_lives_in_the_data_folder() {
    let home = TempHome::new("db-default");
    let pgn = home.join("hand.pgn");
    std::fs::write(&pgn, HAND).unwrap();
    let output = run(&home, &["db", "import", pgn.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let made = home.join("data/kibitz/games.sqlite");
    assert!(made.is_file(), "{}", stdout(&output));
    let value = json(&run(&home, &["db", "explore", "--json"]));
    assert_eq!(value["games"], 3);
}

#[test]
fn a_file_that_is_not_a_database_is_refused_and_kept_as_it_was() {
    let home = TempHome::new("db-foreign");
    let pgn = home.join("hand.pgn");
    std::fs::write(&pgn, HAND).unwrap();
    let p = pgn.to_str().unwrap();
    // The PGN given as the database, and as both.
    let before = std::fs::read(&pgn).unwrap();
    for args in [
        vec!["db", "import", "--db", p, p],
        vec!["db", "explore", "--db", p],
        vec!["db", "games", "--db", p],
    ] {
        let output = run(&home, &args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(!stderr(&output).contains("panicked"));
    }
    assert_eq!(std::fs::read(&pgn).unwrap(), before);
    let text = home.join("notes.txt");
    std::fs::write(&text, "some notes\n".repeat(500)).unwrap();
    let output = run(&home, &["db", "explore", "--db", text.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("is not a kibitz game database"),
        "{}",
        stderr(&output)
    );
    // No database at all.
    let output = run(
        &home,
        &[
            "db",
            "explore",
            "--db",
            home.join("none.sqlite").to_str().unwrap(),
        ],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("kibitz db import"),
        "{}",
        stderr(&output)
    );
    // A database in a folder that does not exist: refused, nothing made.
    let nowhere = home.join("nowhere/g.sqlite");
    let output = run(
        &home,
        &["db", "import", "--db", nowhere.to_str().unwrap(), p],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("does not exist"),
        "{}",
        stderr(&output)
    );
    assert!(!home.join("nowhere").exists());
    // A folder, and a FIFO, as the PGN: refused at once.
    let db = home.join("g.sqlite");
    let output = run(
        &home,
        &[
            "db",
            "import",
            "--db",
            db.to_str().unwrap(),
            home.path().to_str().unwrap(),
        ],
    );
    assert_eq!(output.status.code(), Some(2));
    #[cfg(unix)]
    {
        let fifo = home.join("pipe.pgn");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let output = run(
            &home,
            &[
                "db",
                "import",
                "--db",
                db.to_str().unwrap(),
                fifo.to_str().unwrap(),
            ],
        );
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    }
}

#[test]
fn a_damaged_database_gets_a_message_not_a_panic() {
    let home = TempHome::new("db-damaged");
    let (db, _) = hand_db(&home);
    let mut bytes = std::fs::read(&db).unwrap();
    // Every page after the first overwritten: the schema page survives,
    // the tables do not.
    for (i, b) in bytes.iter_mut().enumerate().skip(4096) {
        *b = (i * 7 + 3) as u8;
    }
    std::fs::write(&db, &bytes).unwrap();
    for args in [
        vec!["db", "explore", "--db", db.as_str()],
        vec!["db", "games", "--db", db.as_str()],
        vec!["db", "info", "--db", db.as_str()],
        vec!["db", "show", "--db", db.as_str(), "1"],
    ] {
        let output = run(&home, &args);
        assert!(!output.status.success(), "{args:?}");
        assert_ne!(
            output.status.code(),
            Some(101),
            "{args:?} panicked: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).starts_with("error:"),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn ctrl_c_keeps_the_games_read_and_the_next_import_adds_the_rest() {
    stop_keeps_the_games_read("-INT");
}

/// A kill (SIGTERM, as `kill` and `timeout` send) stops as Ctrl-C does.
#[test]
fn a_kill_keeps_the_games_read_as_ctrl_c_does() {
    stop_keeps_the_games_read("-TERM");
}

fn stop_keeps_the_games_read(signal: &str) {
    let home = TempHome::new("db-stop");
    let pgn = home.join("many.pgn");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&pgn).unwrap());
    let total = 200_000;
    for n in 0..total {
        writeln!(
            file,
            "[Event \"{n}\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n"
        )
        .unwrap();
    }
    drop(file);
    let db = home.join("many.sqlite");
    let (db, pgn) = (db.to_str().unwrap(), pgn.to_str().unwrap());
    let child = home
        .command()
        .args(["db", "import", "--db", db, pgn, "--json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(400));
    let sent = std::process::Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("stopped: the games read before the stop are in the database")
    );
    let kept = json(&output)["games"].as_u64().unwrap();
    assert!(kept > 0 && kept < total, "{kept} games kept");
    // Consistent: every game kept has its positions (the start position
    // counts each game once).
    let start = json(&run(&home, &["db", "explore", "--db", db, "--json"]));
    assert_eq!(start["games"].as_u64().unwrap(), kept);
    let again = run(&home, &["db", "import", "--db", db, pgn, "--json"]);
    assert!(again.status.success(), "{}", stderr(&again));
    let value = json(&again);
    assert_eq!(value["files"][0]["added"].as_u64().unwrap(), total - kept);
    assert_eq!(value["games"].as_u64().unwrap(), total);
}

#[test]
fn the_config_files_database_is_the_default() {
    let home = TempHome::new("db-config");
    let pgn = home.join("hand.pgn");
    std::fs::write(&pgn, HAND).unwrap();
    std::fs::create_dir_all(home.join("config/kibitz")).unwrap();
    std::fs::write(
        home.join("config/kibitz/config.toml"),
        "database = \"~/chess.sqlite\"\n",
    )
    .unwrap();
    let output = run(&home, &["db", "import", pgn.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(home.join("chess.sqlite").is_file(), "{}", stdout(&output));
    assert!(!home.join("data/kibitz/games.sqlite").exists());
    assert_eq!(json(&run(&home, &["db", "info", "--json"]))["games"], 3);
}

#[test]
fn trial_findings_binary_files_empty_ranges_and_80_columns() {
    let home = TempHome::new("db-trial");
    let (db, _) = hand_db(&home);
    // A database given as the PGN: refused, nothing written.
    let other = home.join("other.sqlite");
    let output = run(
        &home,
        &["db", "import", "--db", other.to_str().unwrap(), &db],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("is not a PGN file: it holds binary data"),
        "{}",
        stderr(&output)
    );
    assert!(!other.exists());
    // Ranges that hold nothing are said to be so.
    for args in [
        ["--since", "2020", "--until", "2019"],
        ["--min-elo", "2000", "--max-elo", "1000"],
    ] {
        let mut all = vec!["db", "explore", "--db", db.as_str()];
        all.extend_from_slice(&args);
        let output = run(&home, &all);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&output).contains("no game could be in between"),
            "{}",
            stderr(&output)
        );
    }
    // Long names and events stay within 80 columns.
    let long = home.join("long.pgn");
    let name = "Bartholomew Maximilian Featherstonehaugh-Cholmondeley";
    std::fs::write(
        &long,
        format!(
            "[Event \"{}\"]\n[White \"{name}\"]\n[Black \"{name} Junior\"]\n[Result \"*\"]\n\n1. e4 *\n",
            "A very long event name ".repeat(20)
        ),
    )
    .unwrap();
    let output = run(
        &home,
        &["db", "import", "--db", &db, long.to_str().unwrap()],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let output = run(&home, &["db", "games", "--db", &db]);
    for line in stdout(&output).lines() {
        assert!(
            line.chars().count() <= 80,
            "{} columns: {line}",
            line.chars().count()
        );
    }
    assert!(stdout(&output).contains('…'));
    let output = run(
        &home,
        &[
            "db",
            "explore",
            "--db",
            &db,
            "--player",
            name,
            "--since",
            "2001.01.01",
        ],
    );
    let header = stdout(&output).lines().nth(1).unwrap().to_string();
    assert!(
        header.starts_with("0 games reached this position ("),
        "{header}"
    );
    assert!(
        header.chars().count() <= 80 && header.ends_with('…'),
        "{header}"
    );
}
