//! The line mode (`kibitz --plain`) and `kibitz describe`, driven as a user
//! would: the real binary with piped input, a temporary home of its own.
#![allow(clippy::unwrap_used)]

mod common;

use std::process::{Output, Stdio};

use common::{TempHome, run_kibitz};

/// Run `kibitz ARGS` with `input` on stdin to the end.
fn run_with_input(args: &[&str], input: &str) -> Output {
    run_in(&TempHome::new("plain"), args, input)
}

/// [`run_with_input`] with `home` as the home folder.
fn run_in(home: &TempHome, args: &[&str], input: &str) -> Output {
    home.run_with_stdin(args, input)
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Whether `line` is the engine's move in words: "kibitz plays knight from
/// g8 to f6." or "kibitz castles kingside.".
fn engine_move_in_words(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("kibitz plays ") else {
        return line.starts_with("kibitz castles ");
    };
    let words: Vec<&str> = rest.trim_end_matches('.').split([' ', ',']).collect();
    matches!(
        words.as_slice(),
        [piece, "from", from, "to", to, ..]
            if ["king", "queen", "rook", "bishop", "knight", "pawn"].contains(piece)
                && from.len() == 2
                && to.len() == 2
    )
}

#[test]
fn a_short_game_in_lines() {
    let out = run_with_input(
        &["--plain", "--level", "1"],
        "e4\nNf3\ndescribe\nboard\nquit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("kibitz, line mode. You play White against kibitz level 1."),
        "{text}"
    );
    // The description at the start, then each move in words.
    assert!(lines.contains(&"Move 1, White to move."), "{text}");
    assert!(lines.contains(&"You play pawn from e2 to e4."), "{text}");
    assert!(lines.contains(&"You play knight from g1 to f3."), "{text}");
    let engine_moves: Vec<&&str> = lines.iter().filter(|l| l.starts_with("kibitz ")).collect();
    assert_eq!(engine_moves.len(), 2, "{text}");
    assert!(
        engine_moves.iter().all(|l| engine_move_in_words(l)),
        "{text}"
    );
    // After the engine's move the description follows: White to move again.
    assert!(lines.contains(&"Move 3, White to move."), "{text}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("White: king e1, queen d1,") && l.contains("knights b1 f3")),
        "{text}"
    );
    // The board in letters, White's pawn on e4 (the fifth square of rank
    // 4's row; level 1 plays at random, so Black may have a pawn there too).
    let rank_4 = lines
        .iter()
        .find(|l| l.starts_with("4  "))
        .unwrap_or_else(|| panic!("{text}"));
    assert_eq!(rank_4.split(' ').nth(6), Some("P"), "{text}");
    assert_eq!(lines.last(), Some(&"Goodbye."));
}

#[test]
fn illegal_and_unreadable_moves_get_one_line_and_play_goes_on() {
    let out = run_with_input(
        &["--plain", "--level", "1"],
        "e5\nhello there\nlevel 11\ne4\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let illegal = lines
        .iter()
        .find(|l| l.starts_with("'e5' is not legal here"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(illegal.contains("legal moves:"), "{illegal}");
    assert!(
        lines.contains(
            &"'hello there' is not a move (expected UCI like e2e4 or SAN like Nf3). Type help for commands."
        ),
        "{text}"
    );
    assert!(
        lines.contains(&"'11' is not a level: level takes 1 to 10."),
        "{text}"
    );
    assert!(lines.contains(&"You play pawn from e2 to e4."), "{text}");
    assert!(!stderr(&out).contains("panicked"));
}

#[test]
fn the_end_of_the_input_ends_cleanly() {
    let out = run_with_input(&["--plain", "--level", "1"], "");
    assert!(out.status.success());
    assert_eq!(stdout(&out).lines().last(), Some("Goodbye."));
    // Without a newline after the last line, too.
    let out = run_with_input(&["--plain", "--level", "1"], "d4");
    assert!(out.status.success());
    assert!(stdout(&out).contains("You play pawn from d2 to d4."));
}

#[test]
fn check_and_mate_are_announced() {
    // The person gives check, then mates.
    let out = run_with_input(
        &[
            "--plain",
            "--level",
            "1",
            "--fen",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        ],
        "Ra8#\ndescribe\ne4\nquit\n",
    );
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(
        text.contains("You play rook from a1 to a8.\nCheckmate, White wins.\n"),
        "{text}"
    );
    assert!(
        text.contains("Result: 1-0, White wins by checkmate."),
        "{text}"
    );
    assert!(
        text.contains("The game is over: type new for another, or quit."),
        "{text}"
    );

    // kibitz has White and mates at once.
    let out = run_with_input(
        &[
            "--plain",
            "--level",
            "3",
            "--color",
            "black",
            "--fen",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        ],
        "",
    );
    let text = stdout(&out);
    assert!(text.contains("You play Black"), "{text}");
    assert!(
        text.contains("kibitz plays rook from a1 to a8.\nCheckmate, White wins.\n"),
        "{text}"
    );

    // A check that is not mate.
    let out = run_with_input(
        &[
            "--plain",
            "--level",
            "1",
            "--fen",
            "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        ],
        "Ra8+\n",
    );
    let text = stdout(&out);
    assert!(
        text.contains("You play rook from a1 to a8.\nCheck.\n"),
        "{text}"
    );
    assert!(text.lines().any(engine_move_in_words), "{text}");
}

#[test]
fn takeback_resign_and_new() {
    let out = run_with_input(
        &["--plain", "--level", "1"],
        "takeback\ne4\ntakeback\nresign\ne4\nnew\nhelp\n",
    );
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("Nothing to take back."), "{text}");
    assert!(
        text.contains("Took back your move and kibitz's reply. Your move."),
        "{text}"
    );
    assert!(
        text.contains("You resign. Black wins: White resigned."),
        "{text}"
    );
    assert!(text.contains("The game is over: type new for another, or quit."));
    assert!(text.contains("New game. You play White."), "{text}");
    assert!(
        text.contains("takeback: take back your last move"),
        "{text}"
    );
}

/// The PGN files in the data folder's `games/`.
fn saved_games(home: &TempHome) -> Vec<std::path::PathBuf> {
    match std::fs::read_dir(home.join("data/kibitz/games")) {
        Ok(dir) => dir.map(|e| e.unwrap().path()).collect(),
        Err(_) => Vec::new(),
    }
}

#[test]
fn save_writes_the_game_as_pgn() {
    let home = TempHome::new("plain-save");
    let mine = home.join("mine.pgn");
    let missing = home.join("no/such/game.pgn");
    let input = format!(
        "e4\nsave\nsave {}\nsave {}\nsave {}\n",
        mine.display(),
        mine.display(),
        missing.display()
    );
    let out = run_in(&home, &["--plain", "--level", "1"], &input);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // Where the board's `s` saves: games/kibitz-YYYYMMDD-HHMMSS.pgn.
    let saved = saved_games(&home);
    assert_eq!(saved.len(), 1, "{saved:?}\n{text}");
    let name = saved[0].file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with("kibitz-") && name.ends_with(".pgn"),
        "{name}"
    );
    assert!(
        text.contains(&format!("Saved as {}", saved[0].display())),
        "{text}"
    );
    let pgn = std::fs::read_to_string(&saved[0]).unwrap();
    assert!(pgn.contains("[White \"You\"]"), "{pgn}");
    assert!(pgn.contains("[Black \"kibitz level 1\"]"), "{pgn}");
    assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
    assert!(pgn.contains("1. e4 "), "{pgn}");
    // The opening's tags, as the board writes them (1. e4 is named at
    // least as the King's Pawn Game, whatever the engine answered).
    assert!(pgn.contains("[ECO \""), "{pgn}");
    assert!(pgn.contains("[Opening \""), "{pgn}");
    // To a path: the same game; an existing file is not replaced.
    assert!(
        text.contains(&format!("Saved as {}", mine.display())),
        "{text}"
    );
    assert_eq!(std::fs::read_to_string(&mine).unwrap(), pgn);
    assert!(
        text.contains(&format!("{} exists already", mine.display())),
        "{text}"
    );
    // A folder that is not there is not made.
    assert!(text.contains("no such folder"), "{text}");
    assert!(!home.join("no").exists());
    let names: Vec<_> = std::fs::read_dir(home.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(names.is_empty(), "no temporary file left: {names:?}");
}

#[test]
fn a_draw_offer_is_decided_by_the_engine() {
    // Before kibitz has searched a move it has no reason to stop.
    let out = run_with_input(&["--plain", "--level", "1"], "draw\ne4\n");
    let text = stdout(&out);
    assert!(
        text.contains("kibitz declines the draw and plays on."),
        "{text}"
    );
    assert!(text.contains("You play pawn from e2 to e4."), "{text}");

    // Two queens against a bare king: kibitz is lost and takes the draw.
    let home = TempHome::new("plain-draw");
    let out = run_in(
        &home,
        &[
            "--plain",
            "--level",
            "3",
            "--fen",
            "4k3/8/8/8/8/8/8/QQ2K3 w - - 0 1",
        ],
        "Qa7\ndraw\ne4\nsave\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("kibitz accepts the draw."), "{text}");
    assert!(
        text.contains("The game is over: type new for another, or quit."),
        "{text}"
    );
    let saved = saved_games(&home);
    assert_eq!(saved.len(), 1, "{text}");
    let pgn = std::fs::read_to_string(&saved[0]).unwrap();
    assert!(pgn.contains("[Result \"1/2-1/2\"]"), "{pgn}");
}

#[test]
fn fen_level_alone_and_unknown_words() {
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let out = run_with_input(
        &["--plain", "--level", "4", "--fen", fen],
        "fen\nlevel\nfrobnicate\nhelp\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.contains(&fen), "{text}");
    assert!(lines.contains(&"kibitz plays at level 4."), "{text}");
    assert!(
        lines.contains(
            &"'frobnicate' is not a move (expected UCI like e2e4 or SAN like Nf3). Type help for commands."
        ),
        "{text}"
    );
    for word in ["save", "draw", "fen"] {
        assert!(
            lines.iter().any(|l| l.starts_with(word)),
            "help has {word}: {text}"
        );
    }
}

/// The line after the first line that starts with `prefix`, and the one
/// after that.
fn two_after<'a>(lines: &[&'a str], prefix: &str) -> (Option<&'a str>, Option<&'a str>) {
    match lines.iter().position(|l| l.starts_with(prefix)) {
        Some(at) => (lines.get(at + 1).copied(), lines.get(at + 2).copied()),
        None => (None, None),
    }
}

#[test]
fn a_takeback_says_whose_move_it_is_and_the_last_move() {
    let out = run_with_input(
        &["--plain", "--level", "1"],
        "describe off\ne4\nd4\ntakeback\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let (turn, last) = two_after(&lines, "Took back your move and kibitz's reply.");
    assert_eq!(turn, Some("Move 2, White to move."), "{text}");
    assert!(
        last.is_some_and(|l| l.starts_with("Last move: Black played ")),
        "{text}"
    );
}

#[test]
fn plain_from_the_config_file_and_a_bad_fen() {
    let home = TempHome::new("plain-config");
    let config = home.join("kibitz.toml");
    std::fs::write(&config, "plain = true\nlevel = 2\n").unwrap();
    let out = home
        .command()
        .args(["--config", config.to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("kibitz, line mode. You play White against kibitz level 2."));

    let out = run_with_input(&["--plain", "--fen", "8/8/8 w - - 0 1"], "");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    assert!(stderr(&out).starts_with("error: "));
}

#[test]
fn describe_command_prints_the_words_and_json() {
    let out = run_kibitz(&["describe", "--moves", "e4", "d5", "exd5", "Nf6"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("Move 3, White to move.\n"), "{text}");
    assert!(text.contains("Last move: Black played knight from g8 to f6 (Nf6).\n"));
    assert!(text.contains("White: king e1,"));

    let out = run_kibitz(&[
        "describe",
        "--fen",
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        "--moves",
        "a1a8",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let value: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(value["status"], "checkmate");
    assert_eq!(value["side_to_move"], "black");
    assert_eq!(value["last_move"]["san"], "Ra8#");
    assert_eq!(value["last_move"]["uci"], "a1a8");
    assert_eq!(value["pieces"]["white"]["rook"][0], "a8");
    assert_eq!(
        value["pieces"]["black"]["pawn"].as_array().unwrap().len(),
        3
    );
    assert!(
        value["lines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l == "Checkmate: White wins.")
    );

    for args in [
        vec!["describe", "--fen", "not a fen"],
        vec!["describe", "--moves", "e5"],
    ] {
        let out = run_kibitz(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            stderr(&out).lines().count(),
            1,
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(stdout(&out).is_empty());
    }
}

#[test]
fn a_config_file_named_but_missing_is_said() {
    let home = TempHome::new("plain-missing-config");
    let missing = home.join("no-such-config.toml");
    let out = run_in(
        &home,
        &["--config", missing.to_str().unwrap(), "--plain"],
        "quit\n",
    );
    assert!(out.status.success());
    assert!(
        stderr(&out).contains("does not exist; using the defaults"),
        "{}",
        stderr(&out)
    );
    // The default file may be missing without a word.
    let out = run_in(&home, &["--plain"], "quit\n");
    assert!(!stderr(&out).contains("does not exist"), "{}", stderr(&out));
}

/// `--syzygy` in the line mode: a file named as the folder is refused with
/// exit code 2; a real folder (an empty part of the path skipped) gives the
/// engine the tables, and it plays on; the config's bad folder is a note.
#[test]
fn the_line_mode_reads_syzygy_and_refuses_a_file_named_as_one() {
    let data = common::testdata("syzygy");
    let readme = common::testdata("README.md");
    let out = run_with_input(&["--syzygy", readme.to_str().unwrap(), "--plain"], "quit\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("is not a folder"), "{}", stderr(&out));
    let folder = format!("{}:", data.display());
    let out = run_with_input(
        &[
            "--syzygy",
            &folder,
            "--plain",
            "--fen",
            "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
            "--color",
            "black",
        ],
        "quit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).lines().any(engine_move_in_words),
        "{}",
        stdout(&out)
    );
    assert!(
        !stderr(&out).contains("no Syzygy tables"),
        "{}",
        stderr(&out)
    );
    // A folder without tables is read, and said to hold none.
    let books = common::testdata("books");
    let out = run_with_input(&["--syzygy", books.to_str().unwrap(), "--plain"], "quit\n");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("note: no Syzygy tables found in"),
        "{}",
        stderr(&out)
    );
    let home = TempHome::new("plain-bad-syzygy");
    let config = home.join("config.toml");
    std::fs::write(&config, format!("syzygy = \"{}\"\n", readme.display())).unwrap();
    let out = run_in(
        &home,
        &["--config", config.to_str().unwrap(), "--plain"],
        "quit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("is not a folder; playing without Syzygy"),
        "{}",
        stderr(&out)
    );
}
