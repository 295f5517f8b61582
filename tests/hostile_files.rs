//! The command line against files that are not what they seem: other line
//! ends, FIFOs and symlinks as targets, pseudo-files that never end, text
//! with terminal control sequences, folders without tables.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

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
