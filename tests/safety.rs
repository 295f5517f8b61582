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
