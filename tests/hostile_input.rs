//! Bad input on the command line, as the binary answers it: which FEN field
//! is wrong, a huge token repeated in a few dozen characters, limits beyond
//! the machine's memory refused (or capped) with the figure named.
#![allow(clippy::unwrap_used)]

mod common;

use std::time::Duration;

use common::TempHome;

const START_BOARD: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn castling_rights_for_too_many_rooks_name_field_3() {
    let home = TempHome::new("fen-castling");
    for castling in ["HAhaB", "ABCDEFGH"] {
        let fen = format!("{START_BOARD} w {castling} - 0 1");
        let output = home.run_within(
            &["trace", "--depth", "1", "--summary", "--fen", &fen],
            Duration::from_secs(20),
        );
        assert_eq!(output.status.code(), Some(2), "{castling}");
        let said = stderr(&output);
        assert!(
            said.starts_with(&format!("error: FEN field 3: '{castling}'")),
            "{castling}: {said}"
        );
    }
}

#[test]
fn a_huge_token_is_repeated_cut_with_its_length() {
    let home = TempHome::new("huge-token");
    let huge = "x".repeat(100_000);
    let fen = format!("{huge} w - - 0 1");
    let runs: [&[&str]; 3] = [
        // A 100 KB FEN, a 100 KB move, a 100 KB argument clap does not know.
        &["trace", "--depth", "1", "--fen", &fen],
        &["analyze", "--depth", "1", "--moves", "e2e4", &huge],
        &["trace", "--depth", "1", &huge],
    ];
    for args in runs {
        let output = home.run_within(args, Duration::from_secs(20));
        assert_eq!(output.status.code(), Some(2), "{}", &args[0]);
        let said = stderr(&output);
        assert!(
            said.len() < 1_000,
            "{} bytes: {}…",
            said.len(),
            &said[..300]
        );
        assert!(
            said.contains('…') && said.contains(" (100,000 characters)"),
            "{said}"
        );
    }
}

#[test]
fn a_trace_larger_than_memory_is_refused_before_the_search() {
    let home = TempHome::new("trace-memory");
    let output = home
        .command()
        .env("KIBITZ_MEMORY_MB", "1000")
        .args([
            "trace",
            "--depth",
            "1",
            "--summary",
            "--max-events",
            "18446744073709551615",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let said = stderr(&output);
    assert!(
        said.starts_with("error: --max-events 18446744073709551615 does not fit")
            && said.contains("of the 1000 MiB available"),
        "{said}"
    );
    assert!(output.stdout.is_empty(), "no search ran");
    // The default and a limit that fits run as before.
    for limit in [None, Some("1000000")] {
        let mut command = home.command();
        command
            .env("KIBITZ_MEMORY_MB", "1000")
            .args(["trace", "--depth", "2", "--summary"]);
        if let Some(limit) = limit {
            command.args(["--max-events", limit]);
        }
        let output = command.output().unwrap();
        assert!(output.status.success(), "{limit:?}: {}", stderr(&output));
    }
}

#[test]
fn a_hash_larger_than_memory_is_capped_and_said() {
    let home = TempHome::new("hash-memory");
    let output = home
        .command()
        .env("KIBITZ_MEMORY_MB", "600")
        .args(["analyze", "--depth", "2", "--hash", "65536"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stderr(&output),
        "note: --hash: a 65536 MiB hash table does not fit in this machine's memory: \
         using 300 MiB (half of the 600 MiB available)\n"
    );
}
