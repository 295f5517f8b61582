//! UCI sessions against the real binary, as a chess GUI would hold them.
#![allow(clippy::unwrap_used)]

mod common;

use std::time::{Duration, Instant};

use common::uci_session::{LONG, Uci};

use kibitz::game::notation::parse_uci;
use shakmaty::{Chess, Position};

#[test]
fn handshake_lists_options() {
    let mut uci = Uci::start();
    uci.send("uci");
    let lines = uci.until(|l| l == "uciok", LONG);
    assert!(lines[0].starts_with("id name kibitz"));
    for option in [
        "option name Hash type spin",
        "option name MultiPV type spin",
        "option name Level type spin default 10 min 1 max 10",
        "option name Threads type spin default 1 min 1 max 256",
        "option name Clear Hash type button",
        "option name BookPolicy type combo default weighted var weighted var best var off",
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
        ("position fen not/a/fen w - - 0 1", "FEN field 1"),
        ("position sideways", "position: expected"),
        ("setoption name Hash value lots", "not a number"),
        ("setoption name Hash value 0", "out of range"),
        // No value after `value` is no value; a whole number too long for
        // any integer is still a number, out of range.
        ("setoption name Hash value ", "'Hash' needs a value"),
        (
            "setoption name Hash value 340282366920938463463374607431768211456",
            "340282366920938463463374607431768211456 is out of range (1 to ",
        ),
        ("setoption name Hash value -0x10", "'-0x10' is not a number"),
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

/// Option names are not case-sensitive, and a message names the option as
/// `uci` listed it, not as the GUI typed it.
#[test]
fn a_bad_value_names_the_option_as_uci_lists_it() {
    let mut uci = Uci::start();
    uci.send("uci");
    let lines = uci.until(|l| l == "uciok", LONG);
    let mut checked = 0;
    for line in &lines {
        let Some(rest) = line.strip_prefix("option name ") else {
            continue;
        };
        let Some((name, kind)) = rest.split_once(" type ") else {
            continue;
        };
        // A file or folder that is not there, or a word that is no value.
        let value = match kind.split(' ').next() {
            Some("button") => continue,
            Some("string") => "/no/such/path",
            _ => "bogus",
        };
        uci.send(&format!(
            "setoption name {} value {value}",
            name.to_ascii_lowercase()
        ));
        let replies = uci.until(|l| l.starts_with("info string"), LONG);
        let reply = replies.last().unwrap();
        assert!(
            reply.starts_with(&format!("info string option '{name}'")),
            "{name}: {reply}"
        );
        // The message repeats the value it refused.
        assert!(reply.contains(value), "{name}: {reply}");
        // No value is "needs a value" for every option that takes a word
        // or a number (an empty string is a string: the default).
        if !kind.starts_with("string") {
            uci.send(&format!("setoption name {name} value"));
            let replies = uci.until(|l| l.starts_with("info string"), LONG);
            assert_eq!(
                replies.last().unwrap(),
                &format!("info string option '{name}' needs a value")
            );
        }
        checked += 1;
    }
    // Every option but the one button (Clear Hash): eight spin, five
    // check, two combo and three string options.
    assert_eq!(checked, 18, "{lines:?}");
    // An empty combo value is no value; a check's value is read in any case.
    uci.send("setoption name BookPolicy value");
    let replies = uci.until(|l| l.starts_with("info string"), LONG);
    assert_eq!(
        replies.last().unwrap(),
        "info string option 'BookPolicy' needs a value"
    );
    uci.send("setoption name OwnBook value FALSE");
    uci.send("setoption name UCI_Chess960 value True");
    uci.send("setoption name BookPolicy value BEST");
    uci.send("isready");
    let replies = uci.until(|l| l == "readyok", LONG);
    assert!(
        !replies.iter().any(|l| l.starts_with("info string")),
        "{replies:?}"
    );
}

/// `SyzygyPath`: a file is not a folder, and the setting stays as it was;
/// an empty part of a path (`dir:`) is skipped; the tables found are
/// counted.
#[test]
fn syzygy_path_names_a_file_and_skips_empty_parts() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let mut uci = Uci::start();
    uci.send(&format!("setoption name SyzygyPath value {data}/README.md"));
    let replies = uci.until(|l| l.starts_with("info string"), LONG);
    assert_eq!(
        replies.last().unwrap(),
        &format!(
            "info string option 'SyzygyPath': '{data}/README.md' is not a folder; \
             the tablebases are unchanged"
        )
    );
    // The tables found are counted back: 35 in the test folder, none in a
    // folder of books.
    for (path, found) in [
        (format!("{data}/syzygy:"), "35 Syzygy tables found"),
        (format!(":{data}/syzygy::"), "35 Syzygy tables found"),
        (
            format!("{data}/books"),
            "no Syzygy tables (.rtbw files) found",
        ),
    ] {
        uci.send(&format!("setoption name SyzygyPath value {path}"));
        uci.send("isready");
        let replies = uci.until(|l| l == "readyok", LONG);
        let said: Vec<&String> = replies
            .iter()
            .filter(|l| l.starts_with("info string"))
            .collect();
        assert_eq!(
            said,
            [&format!("info string SyzygyPath: {found}")],
            "{path}"
        );
    }
}

/// A game-style `go` the tables answer: their verdict as a score at depth
/// 0, the move and the tables' reply as the line, and the reply to ponder.
#[test]
fn a_tablebase_move_comes_with_a_score_and_a_ponder_move() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
    let mut uci = Uci::start();
    uci.send("setoption name KibitzTables value false");
    uci.send(&format!("setoption name SyzygyPath value {data}"));
    // White's rook wins; Black, to move in the same ending, loses.
    for (fen, verdict, score) in [
        ("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", "win", "cp 20000"),
        ("8/8/8/4k3/8/8/8/R3K3 b - - 0 1", "loss", "cp -20000"),
    ] {
        // The tables load in the background: ask until they answer.
        let started = Instant::now();
        let lines = loop {
            uci.send(&format!("position fen {fen}"));
            uci.send("go wtime 60000 btime 60000");
            let (_, lines) = uci.best_move(LONG);
            if lines.iter().any(|l| l.starts_with("info string tablebase")) {
                break lines;
            }
            assert!(started.elapsed() < LONG, "no tablebase answer: {lines:?}");
            std::thread::sleep(Duration::from_millis(100));
        };
        assert!(
            lines.contains(&format!("info string tablebase {verdict}")),
            "{lines:?}"
        );
        let info = lines
            .iter()
            .find(|l| l.starts_with("info depth 0 "))
            .unwrap_or_else(|| panic!("no score line: {lines:?}"));
        assert!(info.contains(&format!(" score {score} ")), "{info}");
        let pv: Vec<&str> = info.split(" pv ").nth(1).unwrap().split(' ').collect();
        let best = lines.last().unwrap();
        assert_eq!(best, &format!("bestmove {} ponder {}", pv[0], pv[1]));
        // Both moves are legal in turn.
        let mut position: Chess = fen
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        for m in &pv {
            let m = parse_uci(&position, m).unwrap();
            position.play_unchecked(m);
        }
    }
}

/// `go searchmoves`: only those moves are searched (the book, which would
/// choose among all, stays out); moves not legal are said and dropped.
#[test]
fn searchmoves_restricts_the_root() {
    let mut uci = Uci::start();
    uci.send("setoption name MultiPV value 3");
    uci.send("position startpos");
    uci.send("go depth 6 searchmoves a2a3 h2h4");
    let (best, lines) = uci.best_move(LONG);
    assert!(["a2a3", "h2h4"].contains(&best.as_str()), "{best}");
    let first_moves: std::collections::BTreeSet<&str> = lines
        .iter()
        .filter_map(|l| l.split(" pv ").nth(1))
        .filter_map(|pv| pv.split(' ').next())
        .collect();
    assert_eq!(
        first_moves,
        ["a2a3", "h2h4"].into_iter().collect(),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains(" multipv 3 ")),
        "two moves, two lines: {lines:?}"
    );
    // A game-style go would play from the book; restricted, it searches.
    uci.send("setoption name MultiPV value 1");
    uci.send("go wtime 2000 btime 2000 searchmoves b1a3");
    let (best, lines) = uci.best_move(LONG);
    assert_eq!(best, "b1a3");
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    // Moves that are not legal are said; with none left, all are searched.
    uci.send("go depth 3 searchmoves e2e5 a7a6");
    let (best, lines) = uci.best_move(LONG);
    assert!(
        lines.contains(
            &"info string go: searchmoves: e2e5 a7a6 not legal here; searching every move".into()
        ),
        "{lines:?}"
    );
    assert!(parse_uci(&Chess::default(), &best).is_ok(), "{best}");
    // The keyword alone is said, and the search is the one asked for.
    uci.send("go depth 3 searchmoves");
    let (best, lines) = uci.best_move(LONG);
    assert!(
        lines.contains(&"info string go: searchmoves: no moves given; searching every move".into()),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3 ")),
        "{lines:?}"
    );
    assert!(parse_uci(&Chess::default(), &best).is_ok(), "{best}");
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
fn go_mate_finds_the_mate() {
    let mut uci = Uci::start();
    uci.send("position fen r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3");
    uci.send("go mate 1");
    let (best, lines) = uci.best_move(LONG);
    assert_eq!(best, "f3f7");
    assert!(lines.iter().any(|l| l.contains("score mate 1")));
}

#[test]
fn go_mate_without_a_mate_ends_with_one_best_move() {
    // The start position has no mate in 2: the search ends by itself at
    // its mate depth (2 x 3 plies + 4), with exactly one bestmove.
    let mut uci = Uci::start();
    uci.send("position startpos");
    uci.send("go mate 2");
    let (best, lines) = uci.best_move(LONG);
    assert!(parse_uci(&Chess::default(), &best).is_ok());
    assert!(!lines.iter().any(|l| l.contains("score mate")), "{lines:?}");
    let deepest = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .filter_map(|l| l.split(' ').next()?.parse::<u32>().ok())
        .max();
    assert_eq!(deepest, Some(10), "{lines:?}");
    uci.send("isready");
    let after = uci.until(|l| l == "readyok", LONG);
    assert!(
        !after.iter().any(|l| l.starts_with("bestmove")),
        "{after:?}"
    );
}

/// The words after `key` in a UCI `info` line.
fn info_field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == key)?;
    words.get(at + 1).copied()
}

#[test]
fn the_last_line_counts_the_whole_search_and_leads_to_the_move_played() {
    // A node limit stops the search in the middle of an iteration, at the
    // same node every time: the lines sent as iterations finished count
    // fewer nodes than the search spent, and the unfinished iteration may
    // have found a better move. The last line must say what was searched
    // in all and lead with the move played.
    let mut uci = Uci::start();
    uci.send("setoption name OwnBook value false");
    for (position, limit) in [
        ("position startpos", 60_000u64),
        ("position startpos moves e2e4 c7c5 g1f3 d7d6", 90_000),
        (
            "position fen 8/5pk1/6p1/3R4/7P/6P1/r4PK1/8 w - - 0 40",
            120_000,
        ),
    ] {
        uci.send("ucinewgame");
        uci.send(position);
        uci.send(&format!("go nodes {limit}"));
        let (best, lines) = uci.best_move(LONG);
        let infos: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        let last = infos.last().unwrap();
        let nodes: u64 = info_field(last, "nodes").unwrap().parse().unwrap();
        assert!(
            nodes >= limit,
            "{position}: the last line counts {nodes} of at least {limit}: {last}"
        );
        assert_eq!(
            info_field(last, "pv"),
            Some(best.as_str()),
            "{position}: {last}"
        );
        let time = |l: &str| info_field(l, "time").unwrap().parse::<u64>().unwrap();
        assert!(
            infos.iter().all(|l| time(l) <= time(last)),
            "{position}: {infos:#?}"
        );
    }
}

#[test]
fn level_option_limits_the_search_and_rejects_bad_values() {
    let mut uci = Uci::start();
    uci.send("uci");
    uci.until(|l| l == "uciok", LONG);
    uci.send("setoption name Level value 11");
    let lines = uci.until(|l| l.starts_with("info string"), LONG);
    assert!(lines.last().unwrap().contains("out of range"), "{lines:?}");
    // Level 2 searches two plies, whatever depth the GUI asks for.
    uci.send("setoption name Level value 2");
    uci.ready();
    uci.send("position startpos moves e2e4");
    uci.send("go depth 12");
    let (best, infos) = uci.best_move(LONG);
    assert!(!best.is_empty());
    assert!(
        infos
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .all(|l| l.starts_with("info depth 1 ") || l.starts_with("info depth 2 ")),
        "{infos:?}"
    );
}

#[test]
fn uci_elo_with_limit_strength_plays_the_nearest_level() {
    let mut uci = Uci::start();
    uci.send("uci");
    let lines = uci.until(|l| l == "uciok", LONG);
    assert!(
        lines
            .iter()
            .any(|l| l == "option name UCI_LimitStrength type check default false"),
        "{lines:?}"
    );
    // The range runs from level 1's measured rating to level 10's.
    let ratings = kibitz::engine::level::MEASURED_RATING;
    let elo_option = format!(
        "option name UCI_Elo type spin default {} min {} max {}",
        ratings[9], ratings[0], ratings[9]
    );
    assert!(lines.iter().any(|l| l == &elo_option), "{lines:?}");
    uci.send("setoption name UCI_Elo value 5000");
    let lines = uci.until(|l| l.starts_with("info string"), LONG);
    assert!(lines.last().unwrap().contains("out of range"), "{lines:?}");
    // A negative number is a number, out of range too.
    uci.send("setoption name UCI_Elo value -1");
    let lines = uci.until(|l| l.starts_with("info string"), LONG);
    let last = lines.last().unwrap();
    assert!(
        last.contains("-1 is out of range (600 to 3434)"),
        "{lines:?}"
    );
    // Level 2's measured rating picks level 2: two plies, whatever depth
    // is asked.
    uci.send(&format!("setoption name UCI_Elo value {}", ratings[1]));
    uci.send("setoption name UCI_LimitStrength value true");
    uci.ready();
    uci.send("position startpos moves e2e4");
    uci.send("go depth 12");
    let (_, infos) = uci.best_move(LONG);
    let depths = |infos: &[String]| -> Vec<String> {
        infos
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .map(|l| l.split_whitespace().nth(2).unwrap_or("").to_string())
            .collect()
    };
    assert!(
        depths(&infos).iter().all(|d| d == "1" || d == "2"),
        "{infos:?}"
    );
    // The limit off: full strength again.
    uci.send("setoption name UCI_LimitStrength value false");
    uci.ready();
    uci.send("go depth 4");
    let (_, infos) = uci.best_move(LONG);
    assert!(depths(&infos).iter().any(|d| d == "4"), "{infos:?}");
}

#[test]
fn game_play_uses_the_book_and_ownbook_false_searches() {
    let mut uci = Uci::start();
    uci.send("uci");
    uci.until(|l| l == "uciok", LONG);
    uci.ready();
    uci.send("position startpos moves e2e4");
    uci.send("go wtime 10000 btime 10000");
    let (best, lines) = uci.best_move(LONG);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("info string book move {best} weight "))),
        "{lines:?}"
    );
    uci.send("setoption name OwnBook value false");
    uci.send("setoption name BookFile value /no/such/book.bin");
    let lines = uci.until(|l| l.starts_with("info string"), LONG);
    assert!(
        lines.last().unwrap().contains("cannot read book"),
        "{lines:?}"
    );
    uci.ready();
    uci.send("position startpos moves e2e4");
    uci.send("go depth 3");
    let (_, lines) = uci.best_move(LONG);
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3")),
        "{lines:?}"
    );
}

#[test]
fn every_go_with_bad_values_ends_in_exactly_one_legal_bestmove() {
    let mut uci = Uci::start();
    // Out of the book: each answer comes from a search.
    uci.send("setoption name OwnBook value false");
    let mut position = Chess::default();
    for m in ["e2e4", "e7e5"] {
        let m = parse_uci(&position, m).unwrap();
        position.play_unchecked(m);
    }
    for (go, why) in [
        ("go depth 0", "'depth 0': must be at least 1"),
        ("go depth", "'depth' needs a value"),
        ("go nodes -5", "'nodes -5': not a valid number"),
        ("go wtime", "'wtime' needs a value"),
        ("go movestogo -1", "'movestogo -1': not a valid number"),
        ("go depth x", "'depth x': not a valid number"),
    ] {
        uci.send("position startpos moves e2e4 e7e5");
        uci.send(go);
        let (best, lines) = uci.best_move(LONG);
        let said = lines
            .iter()
            .find(|l| l.starts_with("info string go:"))
            .unwrap_or_else(|| panic!("{go}: no info string: {lines:?}"));
        assert!(said.contains(why), "{go}: {said}");
        assert!(said.contains("searching to depth"), "{go}: {said}");
        assert!(
            parse_uci(&position, &best).is_ok(),
            "{go}: {best} is not legal"
        );
        uci.send("isready");
        let after = uci.until(|l| l == "readyok", LONG);
        assert!(
            after.iter().all(|l| !l.starts_with("bestmove")),
            "{go}: a second best move: {after:?}"
        );
    }
    // A bad value beside a good one: the good one is searched.
    uci.send("go depth x depth 3");
    let (best, lines) = uci.best_move(LONG);
    assert!(parse_uci(&position, &best).is_ok());
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3 ")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("searching to depth")),
        "{lines:?}"
    );
    std::thread::sleep(Duration::from_millis(200));
    let late: Vec<String> = uci.lines.try_iter().collect();
    assert!(late.iter().all(|l| !l.starts_with("bestmove")), "{late:?}");
}

#[test]
fn a_book_file_that_is_not_a_regular_file_is_refused_and_the_engine_answers() {
    let mut uci = Uci::start();
    uci.send("setoption name BookFile value /dev/zero");
    let lines = uci.until(|l| l.starts_with("info string"), Duration::from_secs(10));
    assert!(
        lines
            .last()
            .unwrap()
            .contains("cannot read book /dev/zero: it is a character device"),
        "{lines:?}"
    );
    uci.ready();
    uci.send("setoption name BookFile value /tmp");
    let lines = uci.until(|l| l.starts_with("info string"), Duration::from_secs(10));
    assert!(lines.last().unwrap().contains("a directory"), "{lines:?}");
    // The built-in book is still in use.
    uci.send("position startpos");
    uci.send("go wtime 10000 btime 10000");
    let (_, lines) = uci.best_move(LONG);
    assert!(
        lines.iter().any(|l| l.starts_with("info string book move")),
        "{lines:?}"
    );
}

/// The session's built-in table files (in its own cache).
fn table_files(uci: &Uci) -> Vec<String> {
    let dir = uci.home.join("cache").join("kibitz").join("tablebases");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".ktb"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// The nice values of the engine's threads named `kibitz-tablebases`
/// (and the unnamed generators they start, which inherit the name).
fn table_threads(uci: &Uci) -> Vec<i32> {
    let tasks = format!("/proc/{}/task", uci.child.id());
    let Ok(entries) = std::fs::read_dir(tasks) else {
        return Vec::new();
    };
    entries
        .filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("stat")).ok())
        .filter(|stat| stat.contains("(kibitz-tablebas"))
        .filter_map(|stat| {
            let rest = stat.get(stat.rfind(')')? + 2..)?;
            rest.split(' ').nth(16)?.parse().ok()
        })
        .collect()
}

#[test]
fn tables_are_generated_only_when_asked_and_at_the_lowest_priority() {
    let mut uci = Uci::start();
    uci.send("uci");
    let lines = uci.until(|l| l == "uciok", LONG);
    assert!(
        lines
            .iter()
            .any(|l| l == "option name KibitzGenerateTables type check default false"),
        "{lines:?}"
    );
    // Five pieces, one capture from KRvKP and KRvK, no tables on disk: the
    // engine plays on what it has and makes none.
    uci.send("position fen r7/8/8/4k3/3p4/8/3R4/4K3 w - - 0 1");
    uci.send("go movetime 300");
    uci.best_move(LONG);
    uci.send("position fen 8/8/8/4k3/3p4/8/3R4/4K3 b - - 0 1");
    uci.send("go movetime 300");
    uci.best_move(LONG);
    std::thread::sleep(Duration::from_millis(700));
    uci.ready();
    assert_eq!(table_files(&uci), Vec::<String>::new());
    assert_eq!(table_threads(&uci), Vec::<i32>::new(), "no generator runs");

    // Asked, it makes them, its generating threads at nice 19.
    uci.send("setoption name KibitzGenerateTables value true");
    let started = Instant::now();
    while table_files(&uci).is_empty() {
        assert!(started.elapsed() < LONG, "no table made");
        std::thread::sleep(Duration::from_millis(10));
    }
    // All 35 take a minute or more: the generators are still at work.
    let nice = table_threads(&uci);
    assert!(
        !nice.is_empty() && nice.iter().all(|n| *n == 19),
        "{nice:?}"
    );
    uci.ready();
}

/// The nodes of the last `info depth` line before `bestmove`.
fn nodes_of(infos: &[String]) -> u64 {
    let line = infos
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "nodes").unwrap();
    words[at + 1].parse().unwrap()
}

#[test]
fn move_table_options_are_listed_checked_and_change_the_search() {
    let mut uci = Uci::start();
    uci.send("uci");
    let lines = uci.until(|l| l == "uciok", LONG);
    for option in [
        "option name MoveTableMoves type spin default 0 min 0 max 8",
        "option name MoveTableThreshold type spin default 0",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(option)), "{option}");
    }
    for (line, expect) in [
        ("setoption name MoveTableMoves value 9", "out of range"),
        ("setoption name MoveTableMoves value many", "not a number"),
        (
            "setoption name MoveTableThreshold value 2000000",
            "out of range",
        ),
        ("setoption name MoveTableThreshold value x", "not a number"),
    ] {
        uci.send(line);
        let lines = uci.until(|l| l.starts_with("info string"), LONG);
        assert!(lines.last().unwrap().contains(expect), "{line}: {lines:?}");
    }
    uci.send("setoption name OwnBook value false");
    let mut search = |moves: u8| {
        uci.send("ucinewgame");
        uci.send(&format!("setoption name MoveTableMoves value {moves}"));
        uci.ready();
        // One search to teach the tables, then the measured one.
        uci.send("position startpos moves e2e4 e7e5 g1f3");
        uci.send("go depth 6");
        uci.best_move(LONG);
        uci.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
        uci.send("go depth 7");
        let (best, infos) = uci.best_move(LONG);
        assert!(!best.is_empty());
        nodes_of(&infos)
    };
    let without = search(0);
    let with = search(2);
    // A new game forgets: the same setting gives the same search again.
    assert_eq!(search(0), without);
    assert_ne!(with, without);
}

#[test]
fn uci_chess960_reads_and_writes_castling_as_king_takes_rook() {
    let mut uci = Uci::start();
    uci.send("uci");
    let lines = uci.until(|l| l == "uciok", LONG);
    assert!(
        lines
            .iter()
            .any(|l| l == "option name UCI_Chess960 type check default false"),
        "{lines:?}"
    );
    uci.send("setoption name UCI_Chess960 value true");
    // White's only legal move is castling king-side with the king staying
    // on g1 (the rook goes to f1; f1, f2 and g2 are attacked, h2 is White's
    // own pawn): `g1h1` in Chess960 notation.
    uci.send("position fen k7/8/b7/8/8/7p/r6P/6KR w H - 0 1");
    uci.send("go depth 3");
    let (best, lines) = uci.best_move(LONG);
    assert_eq!(best, "g1h1", "{lines:?}");
    // The king on b1 takes its a1 rook: castling queen-side, the king to c1
    // and the rook to d1, which mates the king on d8 (the bishop covers c8,
    // the knight e8 and d7). `b1c1` is the king's ordinary step: no mate.
    let fen = "3k4/2p1p3/B4N2/8/8/8/8/RK6 w A - 0 1";
    uci.send(&format!("position fen {fen} moves b1a1"));
    uci.send("go depth 2");
    let (best, lines) = uci.best_move(LONG);
    assert_eq!(best, "0000", "Black is mated: {lines:?}");
    uci.send(&format!("position fen {fen} moves b1c1"));
    uci.send("go depth 2");
    let (best, lines) = uci.best_move(LONG);
    assert_ne!(best, "0000", "{lines:?}");
    let mut after_step = kibitz::game::fen::parse_fen(fen).unwrap();
    let step = parse_uci(&after_step, "b1c1").unwrap();
    assert!(!step.is_castle());
    after_step.play_unchecked(step);
    assert!(
        parse_uci(&after_step, &best).is_ok(),
        "{best} is legal after Kc1"
    );
    uci.send("quit");
}

/// Whether every reply of the side to move in `position` can be answered
/// by a checkmate.
fn every_reply_is_mated(position: &Chess) -> bool {
    let replies = position.legal_moves();
    !replies.is_empty()
        && replies.iter().all(|&reply| {
            let mut after = position.clone();
            after.play_unchecked(reply);
            after.legal_moves().iter().any(|&m| {
                let mut mated = after.clone();
                mated.play_unchecked(m);
                mated.is_checkmate()
            })
        })
}

#[test]
fn two_threads_find_a_mate_in_two() {
    // The first mate in 2 of the suite (tests/mates.rs).
    let fen = "8/1p3Qb1/p5pk/P1p1p1p1/1P2P1P1/2P1N2n/5P1P/4qB1K w - - 1 0";
    let mut uci = Uci::start();
    uci.send("setoption name Threads value 2");
    uci.send(&format!("position fen {fen}"));
    uci.send("go depth 8");
    let (best, lines) = uci.best_move(LONG);
    let position: Chess = fen
        .parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap();
    let m = parse_uci(&position, &best).unwrap();
    let mut after = position.clone();
    after.play_unchecked(m);
    assert!(every_reply_is_mated(&after), "{best} does not mate in 2");
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth 8 "))
        .unwrap();
    assert!(last.contains("score mate 2"), "{last}");
}

#[test]
fn threads_option_is_checked() {
    let mut uci = Uci::start();
    for (line, expect) in [
        ("setoption name Threads value 0", "out of range (1 to 256)"),
        (
            "setoption name Threads value 257",
            "out of range (1 to 256)",
        ),
    ] {
        uci.send(line);
        let lines = uci.until(|l| l.starts_with("info string"), LONG);
        assert!(lines.last().unwrap().contains(expect), "{line}: {lines:?}");
    }
    uci.send("setoption name Threads value 3");
    uci.send("go depth 4");
    let (best, _) = uci.best_move(LONG);
    assert!(parse_uci(&Chess::default(), &best).is_ok());
}

/// The last `score cp N` of a search's reports.
fn last_cp(lines: &[String]) -> i32 {
    lines
        .iter()
        .rev()
        .find_map(|l| {
            let rest = l.split(" score cp ").nth(1)?;
            rest.split_whitespace().next()?.parse().ok()
        })
        .unwrap_or_else(|| panic!("no score in {lines:?}"))
}

#[test]
fn eval_file_loads_a_network_and_a_bad_one_leaves_the_evaluation_alone() {
    use kibitz::engine::nnue::{HIDDEN, Network, OUTPUT_BUCKETS, zero_rows};
    let mut uci = Uci::start();
    // A network with every weight zero values every position at 0: with
    // it, Black's missing queen is worth nothing.
    let blank = Network::from_parts(
        zero_rows(),
        [0; HIDDEN],
        Box::new([[0; 2 * HIDDEN]; OUTPUT_BUCKETS]),
        [0; OUTPUT_BUCKETS],
    );
    let net = uci.home.join("blank.nnue");
    std::fs::write(&net, blank.to_bytes()).unwrap();
    let mut damaged = blank.to_bytes();
    damaged[1000] ^= 4;
    let bad = uci.home.join("damaged.nnue");
    std::fs::write(&bad, damaged).unwrap();
    uci.send("uci");
    let lines = uci.until(|l| l == "uciok", LONG);
    let default = if kibitz::engine::nnue::BY_DEFAULT {
        "builtin"
    } else {
        "handwritten"
    };
    assert!(
        lines
            .iter()
            .any(|l| *l == format!("option name EvalFile type string default {default}")),
        "{lines:?}"
    );
    uci.send("setoption name OwnBook value false");
    uci.send("setoption name EvalFile value handwritten");
    uci.send("position fen rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let search = |uci: &mut Uci| {
        uci.ready();
        uci.send("go depth 3");
        last_cp(&uci.best_move(LONG).1)
    };
    assert!(
        search(&mut uci) > 600,
        "the hand-written evaluation counts the queen"
    );
    uci.send(&format!("setoption name EvalFile value {}", net.display()));
    assert_eq!(search(&mut uci), 0, "the blank network sees nothing");
    uci.send(&format!("setoption name EvalFile value {}", bad.display()));
    let lines = uci.until(|l| l.starts_with("info string"), LONG);
    assert!(
        lines.last().unwrap().contains("damaged") && lines.last().unwrap().contains("unchanged"),
        "{lines:?}"
    );
    assert_eq!(search(&mut uci), 0, "still the blank network");
    uci.send("setoption name EvalFile value /dev/zero");
    let lines = uci.until(|l| l.starts_with("info string"), LONG);
    assert!(
        lines.last().unwrap().contains("character device"),
        "{lines:?}"
    );
    uci.send("setoption name EvalFile value <empty>");
    assert!(
        search(&mut uci) > 600,
        "back to the hand-written evaluation"
    );
    uci.send(&format!("setoption name EvalFile value {}", net.display()));
    assert_eq!(search(&mut uci), 0);
    uci.send("setoption name EvalFile value builtin");
    assert!(
        search(&mut uci) > 600,
        "the shipped network counts the queen"
    );
}

#[test]
fn a_hash_larger_than_the_machine_is_capped_and_said() {
    // A machine with 600 MiB to spare: a 64 GiB table would be killed
    // when its pages are written; it gets half of what there is.
    let mut uci = Uci::start_with(&[("KIBITZ_MEMORY_MB", "600")]);
    uci.send("setoption name Hash value 65536");
    let lines = uci.until(|l| l.starts_with("info string"), LONG);
    assert_eq!(
        lines.last().unwrap(),
        "info string Hash: a 65536 MiB hash table does not fit in this machine's memory: \
         using 300 MiB (half of the 600 MiB available)"
    );
    // The engine made its table and answers.
    uci.ready();
    uci.send("position startpos");
    uci.send("go depth 3");
    let (best, _) = uci.best_move(LONG);
    assert_eq!(best.len(), 4, "{best}");
    // A size that fits is taken as asked, without a word.
    uci.send("setoption name Hash value 200");
    uci.send("isready");
    let lines = uci.until(|l| l == "readyok", LONG);
    assert_eq!(lines, ["readyok"]);
    uci.send("quit");
    assert!(uci.child.wait().unwrap().success());
}

#[test]
fn option_values_are_echoed_without_control_characters_and_cut_when_huge() {
    let mut uci = Uci::start();
    uci.send("setoption name Hash value 1\u{0}2\u{1b}[2J");
    let lines = uci.until(|l| l.starts_with("info string"), LONG);
    let said = lines.last().unwrap();
    assert!(said.contains("not a number"), "{said}");
    assert!(
        !said.chars().any(|c| c.is_control()),
        "control characters passed on: {said:?}"
    );
    assert!(
        said.contains("\\u{0}") && said.contains("\\u{1b}"),
        "{said}"
    );

    // A 100 KB move: named, cut, with its length.
    let huge = "x".repeat(100_000);
    uci.send(&format!("position startpos moves e2e4 {huge}"));
    let lines = uci.until(|l| l.starts_with("info string"), LONG);
    let said = lines.last().unwrap();
    assert!(said.len() < 300, "{} bytes: {}…", said.len(), &said[..200]);
    assert!(
        said.contains("move 2") && said.contains("100,000 characters"),
        "{said}"
    );
    uci.ready();
    uci.send("quit");
    assert!(uci.child.wait().unwrap().success());
}
