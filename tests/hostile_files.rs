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

/// Run with a deadline: a command that would read forever fails the test
/// instead of hanging it.
fn run_within(home: &TempHome, args: &[&str], limit: Duration) -> Output {
    let mut child = home
        .command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("kibitz {args:?} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
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

#[cfg(target_os = "linux")]
#[test]
fn endless_pseudo_files_are_refused_quickly() {
    let home = TempHome::new("pagemap");
    let out = run_within(
        &home,
        &["pgn", "/proc/self/pagemap"],
        Duration::from_secs(20),
    );
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    let out = run_within(
        &home,
        &["book", "probe", "--book", "/proc/self/pagemap"],
        Duration::from_secs(5),
    );
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
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
