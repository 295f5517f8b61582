//! The command line against files that are not what they seem: other line
//! ends, FIFOs and symlinks as targets, pseudo-files that never end, text
//! with terminal control sequences, folders without tables.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;
use std::process::{Output, Stdio};
use std::time::Duration;

use common::TempHome;

fn run(home: &TempHome, args: &[&str]) -> Output {
    home.command()
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn path_str(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The Kasparov - Deep Blue file with its line ends turned to CR only.
fn cr_only_copy(home: &TempHome) -> std::path::PathBuf {
    let lf = std::fs::read(common::testdata("pgn/kasparov-deep-blue-1997.pgn")).unwrap();
    let cr: Vec<u8> = lf
        .iter()
        .map(|&b| if b == b'\n' { b'\r' } else { b })
        .collect();
    let path = home.join("cr.pgn");
    std::fs::write(&path, cr).unwrap();
    path
}

#[test]
fn pgn_reads_a_file_with_cr_only_line_ends() {
    let home = TempHome::new("cr");
    let path = cr_only_copy(&home);
    let out = run(&home, &["pgn", "--json", path_str(&path)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let plies: Vec<u64> = stdout(&out)
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["plies"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(plies, [89, 89, 95, 111, 98, 37]);
}

/// A writer's target kept what it was: a FIFO stays a FIFO and gets the
/// bytes, a symlink stays a symlink and its file gets them, a private file
/// stays private.
#[cfg(unix)]
#[test]
fn out_writes_through_fifos_and_symlinks_and_keeps_permissions() {
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};
    let home = TempHome::new("out-targets");
    let pgn = common::testdata("pgn/kasparov-deep-blue-1997.pgn");
    let build = |out: &Path| {
        run(
            &home,
            &[
                "book",
                "build",
                "--pgn",
                path_str(&pgn),
                "--out",
                path_str(out),
            ],
        )
    };
    // A plain file first: the book's bytes to compare with.
    let plain = home.join("plain.bin");
    let out = build(&plain);
    assert!(out.status.success(), "{}", stderr(&out));
    let book = std::fs::read(&plain).unwrap();
    assert!(!book.is_empty());

    // A symlink: the file it points to is written, the link stays.
    let real = home.join("real.bin");
    std::fs::write(&real, b"old").unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
    let link = home.join("link.bin");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let out = build(&link);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read(&real).unwrap(), book);
    let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "the file keeps its permissions");

    // A FIFO: the bytes go through it to its reader; it stays a FIFO.
    let fifo = home.join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    let out = build(&fifo);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(reader.join().unwrap(), book);
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );

    // A device: /dev/null takes the bytes and stays a device.
    let out = build(Path::new("/dev/null"));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    // No temporary file was left anywhere.
    let names: Vec<String> = std::fs::read_dir(home.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(names.is_empty(), "{names:?}");
}

#[cfg(unix)]
#[test]
fn out_refuses_a_socket_or_a_folder() {
    let home = TempHome::new("out-socket");
    let pgn = common::testdata("pgn/kasparov-deep-blue-1997.pgn");
    let socket_path = home.join("sock");
    let _socket = std::os::unix::net::UnixListener::bind(&socket_path).unwrap();
    let out = run(
        &home,
        &[
            "book",
            "build",
            "--pgn",
            path_str(&pgn),
            "--out",
            path_str(&socket_path),
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(stderr(&out).contains("socket"), "{}", stderr(&out));
    use std::os::unix::fs::FileTypeExt;
    assert!(
        std::fs::symlink_metadata(&socket_path)
            .unwrap()
            .file_type()
            .is_socket()
    );
}

/// Header text with terminal control sequences: a title change, a bell, a
/// carriage return that would overwrite the line.
const HOSTILE_HEADERS: &str = "[Event \"\x1b]0;pwned\x07\"]\n[White \"Ann\rEvil\"]\n[Black \"B\x1b[2J\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 *\n";

fn assert_no_control(text: &str) {
    let bad: Vec<char> = text
        .chars()
        .filter(|&c| c.is_control() && c != '\n')
        .collect();
    assert!(bad.is_empty(), "control characters {bad:?} in {text:?}");
}

#[test]
fn pgn_and_review_escape_control_characters_in_file_text() {
    let home = TempHome::new("control");
    let path = home.join("hostile.pgn");
    std::fs::write(&path, HOSTILE_HEADERS).unwrap();
    let out = run(&home, &["pgn", path_str(&path)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_no_control(&stdout(&out));
    assert!(stdout(&out).contains("pwned"), "the text is kept, escaped");
    let out = run(
        &home,
        &["review", "--pgn", path_str(&path), "--movetime", "5"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_no_control(&stdout(&out));
    assert_no_control(&stderr(&out));
    assert!(stdout(&out).contains("Ann"), "{}", stdout(&out));
}

#[test]
fn tb_verify_refuses_a_folder_without_syzygy_tables_for_the_material() {
    let home = TempHome::new("verify-empty");
    let empty = home.join("empty");
    std::fs::create_dir(&empty).unwrap();
    let tables = home.join("tables");
    for folder in [empty.as_path(), Path::new("/proc")] {
        let out = run(
            &home,
            &[
                "tb",
                "verify",
                "KQvK",
                "--syzygy",
                path_str(folder),
                "--dir",
                path_str(&tables),
            ],
        );
        assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
        let err = stderr(&out);
        assert!(
            err.contains("KQvK") && err.contains(path_str(folder)),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // With the tables there it checks positions.
    let syzygy = common::testdata("syzygy");
    let out = run(
        &home,
        &[
            "tb",
            "verify",
            "KQvK",
            "--syzygy",
            path_str(&syzygy),
            "--sample",
            "50",
            "--dir",
            path_str(&tables),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("50 positions checked"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn tb_probe_writes_tables_only_into_a_folder_for_them() {
    let home = TempHome::new("probe-dir");
    let fen = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
    // A folder of other files: nothing is written there.
    let other = home.join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("notes.txt"), "mine").unwrap();
    let out = run(
        &home,
        &["tb", "probe", "--fen", fen, "--dir", path_str(&other)],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(stderr(&out).contains(path_str(&other)), "{}", stderr(&out));
    let names: Vec<_> = std::fs::read_dir(&other).unwrap().collect();
    assert_eq!(names.len(), 1, "only the user's file is there");
    // A new folder is made and used; then it holds tables and is used again.
    let new = home.join("new");
    for _ in 0..2 {
        let out = run(
            &home,
            &["tb", "probe", "--fen", fen, "--dir", path_str(&new)],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            stdout(&out).starts_with("White to move: win"),
            "{}",
            stdout(&out)
        );
    }
    assert!(new.join("KQvK.ktb").is_file());
}

#[test]
fn tb_probe_names_the_syzygy_folder_that_lacks_the_table() {
    let home = TempHome::new("probe-syzygy");
    let syzygy = common::testdata("syzygy");
    let fen = "4k3/8/8/8/8/8/8/R2QK2R w - - 0 1";
    let out = run(
        &home,
        &["tb", "probe", "--fen", fen, "--syzygy", path_str(&syzygy)],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(!err.contains("needs --syzygy"), "{err}");
    assert!(
        err.contains(path_str(&syzygy)) && err.contains("KQRRvK"),
        "{err}"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn endless_pseudo_files_are_refused_quickly() {
    let home = TempHome::new("pagemap");
    let out = home.run_within(&["pgn", "/proc/self/pagemap"], Duration::from_secs(20));
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    let out = home.run_within(
        &["book", "probe", "--book", "/proc/self/pagemap"],
        Duration::from_secs(5),
    );
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
}

#[test]
fn a_file_without_a_game_is_an_error() {
    let home = TempHome::new("no-game");
    let toml = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let out = run(&home, &["pgn", path_str(&toml)]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert_eq!(stdout(&out), "");
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no PGN game"), "{err}");
    // A file of games without moves is still a PGN file.
    let bom = common::testdata("pgn/utf8-bom.pgn");
    assert!(run(&home, &["pgn", path_str(&bom)]).status.success());
}

#[test]
fn book_probe_defaults_to_the_built_in_book() {
    let home = TempHome::new("book-default");
    let out = run(&home, &["book", "probe"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let named = run(&home, &["book", "probe", "--book", "builtin"]);
    assert_eq!(stdout(&out), stdout(&named));
    assert!(
        stdout(&out).starts_with("key 463b96181691fc9c"),
        "{}",
        stdout(&out)
    );
}

fn read_all(bytes: &[u8]) -> Vec<kibitz::game::tree::GameTree> {
    let mut games = Vec::new();
    kibitz::game::import::read_games(bytes, &mut |g| {
        games.push(g);
        true
    })
    .unwrap();
    games
}

/// What `:save` does to the file a game came from.
#[test]
fn writing_a_game_back_keeps_the_file_or_refuses() {
    use kibitz::game::rewrite::replace_game;
    let home = TempHome::new("rewrite");
    // CR-only line ends: every game and move is written back.
    let cr = std::fs::read(cr_only_copy(&home)).unwrap();
    let games = read_all(&cr);
    let rewritten = replace_game(&cr, 2, &games[1]).unwrap();
    assert_eq!((rewritten.games, rewritten.number), (6, 2));
    let again: Vec<usize> = read_all(rewritten.text.as_bytes())
        .iter()
        .map(|g| g.mainline().len())
        .collect();
    assert_eq!(again, [89, 89, 95, 111, 98, 37]);
    // Text the reader skipped in another game: refused, saying which.
    let text = "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"] 1. d4 d5 *\n\n[Event \"c\"]\n\n1. c4 *\n";
    let games = read_all(text.as_bytes());
    let refused = replace_game(text.as_bytes(), 1, &games[0]).unwrap_err();
    assert!(
        refused.contains("game 2") && refused.contains("1. d4"),
        "{refused}"
    );
    // An unreadable word in another game: that game is written back with
    // the moves from there on kept as text, in a comment where it stops.
    let text = "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 Nf6Nc6 2. c4 *\n";
    let games = read_all(text.as_bytes());
    let rewritten = replace_game(text.as_bytes(), 1, &games[0]).unwrap();
    assert!(
        rewritten.text.contains(
            "1. d4 { kibitz could not read these moves, kept as text: 1... Nf6Nc6 2. c4 } *"
        ),
        "{}",
        rewritten.text
    );
}
