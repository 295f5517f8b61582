//! Nothing lost, nothing hangs: the binary refuses files it cannot read
//! safely (devices, FIFOs, directories), refuses to write where the user's
//! folder is missing, and says so in one line with exit status 2.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// A fresh folder of its own for a test: the program's home, config, data
/// and cache live in it, and the test's files.
struct Home(common::TempHome);

impl Home {
    fn new(name: &str) -> Home {
        Home(common::TempHome::new(&format!("safety-{name}")))
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    fn fifo(&self, name: &str) -> PathBuf {
        let path = self.path(name);
        let made = Command::new("mkfifo").arg(&path).status().unwrap();
        assert!(made.success(), "mkfifo {}", path.display());
        path
    }

    /// Run kibitz with `args`; a run longer than 20 s is killed and fails
    /// the test (the bug this file guards against is a read without end).
    fn run(&self, args: &[&str]) -> (i32, String, String) {
        let out = self.0.run_within(args, Duration::from_secs(20));
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// Run and expect exit 2 with one line on stderr that contains `expect`.
    fn refused(&self, args: &[&str], expect: &str) -> String {
        let (code, stdout, stderr) = self.run(args);
        assert_eq!(code, 2, "{args:?}: stdout {stdout} stderr {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: one line: {stderr}");
        assert!(stderr.contains(expect), "{args:?}: {stderr}");
        stderr
    }
}

fn pgn() -> PathBuf {
    common::testdata("pgn/kasparov-deep-blue-1997.pgn")
}

fn text(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn a_book_that_is_not_a_regular_file_is_refused() {
    let home = Home::new("book");
    let fifo = home.fifo("book.fifo");
    let folder = home.path("books");
    std::fs::create_dir_all(&folder).unwrap();
    for (book, kind) in [
        ("/dev/zero", "a character device"),
        (text(&fifo), "a FIFO"),
        (text(&folder), "a directory"),
    ] {
        let why = home.refused(&["book", "probe", "--book", book], kind);
        assert!(why.contains(&format!("cannot read book {book}")), "{why}");
        // The board checks its book before it needs a terminal.
        home.refused(&["--book", book], kind);
    }
}

#[test]
fn a_pgn_that_is_not_a_regular_file_is_refused() {
    let home = Home::new("pgn");
    let fifo = home.fifo("games.fifo");
    let folder = home.path("games");
    std::fs::create_dir_all(&folder).unwrap();
    let book = home.path("book.bin");
    for (file, kind) in [(text(&fifo), "a FIFO"), (text(&folder), "a directory")] {
        let expect = format!("cannot read {file}: it is {kind}");
        home.refused(&["pgn", file], &expect);
        home.refused(&["review", "--pgn", file], &expect);
        home.refused(
            &["book", "build", "--pgn", file, "--out", text(&book)],
            &expect,
        );
        // The board refuses it before the terminal is touched.
        home.refused(&["--pgn", file], &expect);
        home.refused(&["--pgn", file, "--game", "1"], &expect);
    }
    assert!(!book.exists());
}

#[test]
fn an_out_file_in_a_missing_folder_is_refused_and_no_folder_made() {
    let home = Home::new("out");
    let pgn = pgn();
    let missing = home.path("no/such");
    let book = missing.join("book.bin");
    home.refused(
        &["book", "build", "--pgn", text(&pgn), "--out", text(&book)],
        &format!(
            "cannot write {}: {}: no such folder",
            text(&book),
            text(&missing)
        ),
    );
    let annotated = missing.join("review.pgn");
    home.refused(
        &[
            "review",
            "--pgn",
            text(&pgn),
            "--movetime",
            "1",
            "--out",
            text(&annotated),
        ],
        "no such folder",
    );
    assert!(!home.path("no").exists(), "no folder was created");
    // Where the folder is there, both write.
    let (code, _, stderr) = home.run(&[
        "book",
        "build",
        "--pgn",
        text(&pgn),
        "--out",
        text(&home.path("book.bin")),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(home.path("book.bin").is_file());
}

#[test]
fn tb_generate_into_a_folder_it_cannot_write_fails() {
    let home = Home::new("tb");
    // A folder below a plain file can never be made (permissions would not
    // stop the tests when they run as root).
    let file = home.path("plain");
    std::fs::write(&file, "x").unwrap();
    let dir = file.join("tables");
    let (code, stdout, stderr) = home.run(&["tb", "generate", "KQvK", "--dir", text(&dir)]);
    assert_eq!(code, 2, "stdout {stdout} stderr {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(&format!("cannot write to {}", text(&dir))),
        "{stderr}"
    );
    assert!(!stdout.contains("tables ready"), "{stdout}");
}

/// The input file's bytes, to show it unchanged.
fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

#[test]
fn an_output_that_is_an_input_is_refused_and_the_input_kept() {
    let home = Home::new("same");
    let games = home.path("games.pgn");
    std::fs::copy(pgn(), &games).unwrap();
    let before = bytes(&games);
    let link = home.path("link.pgn");
    std::os::unix::fs::symlink(&games, &link).unwrap();
    let hard = home.path("hard.pgn");
    std::fs::hard_link(&games, &hard).unwrap();
    for out in [&games, &link, &hard] {
        for all in [&["--all"][..], &[]] {
            let mut args = vec!["review", "--pgn", text(&games), "--movetime", "1"];
            args.extend(all);
            args.extend(["--out", text(out)]);
            let why = home.refused(&args, "it is the input file");
            assert!(
                why.contains(&format!("cannot write {}", text(out))),
                "{why}"
            );
        }
        home.refused(
            &["book", "build", "--pgn", text(&games), "--out", text(out)],
            "it is the input file",
        );
        home.refused(
            &["tune", "net", "--data", text(&games), "--out", text(out)],
            "it is the input file",
        );
        home.refused(
            &[
                "tune",
                "selfplay",
                "--games",
                "1",
                "--eval",
                text(&games),
                "--out",
                text(out),
            ],
            "it is the input file",
        );
    }
    // A second data file, the one written: also refused.
    let other = home.path("other.txt");
    std::fs::write(&other, "x").unwrap();
    home.refused(
        &[
            "tune",
            "net",
            "--data",
            text(&other),
            "--data",
            text(&hard),
            "--out",
            text(&link),
        ],
        "it is the input file",
    );
    assert_eq!(bytes(&games), before, "the input is as it was");
}

#[test]
fn an_output_that_cannot_be_written_is_refused_before_the_work() {
    let home = Home::new("unwritable");
    let pgn = pgn();
    // A folder below a plain file can never be made, even by root.
    let plain = home.path("plain");
    std::fs::write(&plain, "x").unwrap();
    let dangling = home.path("dangling.pgn");
    std::os::unix::fs::symlink(plain.join("sub/out.pgn"), &dangling).unwrap();
    for (out, why) in [
        ("/dev/full", "No space left on device"),
        ("/proc/version", "it is read-only"),
        (text(&dangling), "no such folder"),
    ] {
        // A review of six games at two seconds a position would run for
        // minutes: refused at once instead, with nothing reviewed.
        let args = [
            "review",
            "--pgn",
            text(&pgn),
            "--all",
            "--movetime",
            "2000",
            "--out",
            out,
        ];
        let said = home.refused(&args, why);
        assert!(said.contains(&format!("cannot write {out}")), "{said}");
        home.refused(
            &[
                "review",
                "--pgn",
                text(&pgn),
                "--movetime",
                "2000",
                "--out",
                out,
            ],
            why,
        );
        home.refused(&["book", "build", "--pgn", text(&pgn), "--out", out], why);
    }
    // /dev/null takes what is written.
    let (code, _, stderr) = home.run(&["book", "build", "--pgn", text(&pgn), "--out", "/dev/null"]);
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn an_interrupted_write_leaves_the_old_file_whole() {
    let home = Home::new("interrupted");
    let pgn = pgn();
    let book = home.path("book.bin");
    let old = vec![7u8; 2000];
    std::fs::write(&book, &old).unwrap();
    // A file-size limit of 1 KiB: the write of the new book (more than
    // that) is stopped part-way by SIGXFSZ, as a crash or a full disk would.
    let status = Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 1; exec \"$0\" book build --pgn \"$1\" --out \"$2\"")
        .arg(env!("CARGO_BIN_EXE_kibitz"))
        .arg(&pgn)
        .arg(&book)
        .envs(home.0.env())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(!status.success(), "the write was stopped");
    assert_eq!(bytes(&book), old, "the old book is whole");
    let left: Vec<_> = std::fs::read_dir(home.0.path())
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("book.bin."))
        .collect();
    // The temporary file of a killed process stays (nothing can remove it),
    // but it is never the book.
    assert!(left.iter().all(|n| n.ends_with(".tmp")), "{left:?}");
}
