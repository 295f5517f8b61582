//! `kibitz review --all`'s per-player report: spellings merged by case and
//! spacing, by `--alias` and by the config file's `[aliases]`; unknown
//! players never merged.
#![allow(clippy::unwrap_used)]

mod common;

use std::time::Duration;

const GAMES: &str = "[White \"Carlsen, Magnus\"]\n[Black \"Ann\"]\n\n1. e4 e5 *\n\n\
[White \"ann\"]\n[Black \"M. Carlsen\"]\n\n1. d4 d5 *\n\n\
[White \"DrNykterstein\"]\n[Black \"?\"]\n\n1. c4 c5 *\n\n\
[White \"?\"]\n[Black \"Bob\"]\n\n1. Nf3 Nf6 *\n";

/// The players' names and game counts of a `--json` report.
fn players(home: &common::TempHome, extra: &[&str]) -> (Vec<(String, u64)>, String) {
    let pgn = home.join("games.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    let mut args = vec![
        "review",
        "--pgn",
        pgn.to_str().unwrap(),
        "--all",
        "--movetime",
        "5",
        "--threads",
        "1",
        "--json",
    ];
    args.extend(extra);
    let out = home.run_within(&args, Duration::from_secs(60));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stderr}");
    let mut found: Vec<(String, u64)> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["type"] == "player")
        .map(|v| {
            (
                v["name"].as_str().unwrap().to_string(),
                v["games"].as_u64().unwrap(),
            )
        })
        .collect();
    found.sort();
    (found, stderr)
}

fn row(name: &str, games: u64) -> (String, u64) {
    (name.to_string(), games)
}

#[test]
fn aliases_from_the_flag_and_the_config_merge_a_players_spellings() {
    let home = common::TempHome::new("review-alias");
    // Without aliases: "ann" is Ann (case), the three Carlsens are three.
    let (plain, _) = players(&home, &[]);
    assert_eq!(
        plain,
        [
            row("? (game 3, Black)", 1),
            row("? (game 4, White)", 1),
            row("Ann", 2),
            row("Bob", 1),
            row("Carlsen, Magnus", 1),
            row("DrNykterstein", 1),
            row("M. Carlsen", 1),
        ]
    );
    // --alias, repeated: one Magnus Carlsen of three games.
    let (flagged, _) = players(
        &home,
        &[
            "--alias",
            "Magnus Carlsen=Carlsen, Magnus",
            "--alias",
            "Magnus Carlsen=M. Carlsen",
            "--alias",
            "Magnus Carlsen=DrNykterstein",
        ],
    );
    assert!(flagged.contains(&row("Magnus Carlsen", 3)), "{flagged:?}");
    assert_eq!(flagged.len(), 5, "{flagged:?}");
    // The config file's [aliases] table does the same; a wrong entry is a
    // warning and the others still count.
    let config = home.join("config/kibitz");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(
        config.join("config.toml"),
        "[aliases]\n\"Magnus Carlsen\" = [\"carlsen,magnus\", \"M. Carlsen\"]\n\"Bob\" = \"?\"\n",
    )
    .unwrap();
    let (configured, stderr) = players(&home, &["--alias", "M. Carlsen=DrNykterstein"]);
    assert!(
        configured.contains(&row("Magnus Carlsen", 3)),
        "{configured:?}"
    );
    assert!(configured.contains(&row("Bob", 1)), "{configured:?}");
    assert!(
        stderr.contains("\"Bob\" = \"?\"") && stderr.contains("names no one"),
        "{stderr}"
    );
    // A config file that does not parse loses its aliases: said, not silent.
    std::fs::write(
        config.join("config.toml"),
        "[aliases]\n\"Magnus Carlsen\" = [\"M. Carlsen\"\n",
    )
    .unwrap();
    let (broken, stderr) = players(&home, &[]);
    assert!(broken.contains(&row("M. Carlsen", 1)), "{broken:?}");
    assert!(
        stderr.contains("warning: config:") && stderr.contains("using all defaults"),
        "{stderr}"
    );
}

#[test]
fn an_alias_that_names_no_one_or_lacks_its_equals_sign_is_refused() {
    let home = common::TempHome::new("review-alias-bad");
    let pgn = home.join("games.pgn");
    std::fs::write(&pgn, GAMES).unwrap();
    for (alias, why) in [
        ("Bob=?", "names no one"),
        ("NN=Bob", "names no one"),
        ("Bob", "\"Name=Other Name\""),
    ] {
        let out = home.run_within(
            &[
                "review",
                "--pgn",
                pgn.to_str().unwrap(),
                "--all",
                "--alias",
                alias,
            ],
            Duration::from_secs(30),
        );
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{alias}: {stderr}");
        assert!(stderr.contains(why), "{alias}: {stderr}");
    }
    // Only with --all: one game's review has no per-player report.
    let out = home.run_within(
        &["review", "--pgn", pgn.to_str().unwrap(), "--alias", "A=B"],
        Duration::from_secs(30),
    );
    assert_eq!(out.status.code(), Some(2));
}
