//! Polyglot books against the specification and real books: the key test
//! vectors, and every position along the book lines of two real books probed
//! and compared with a decoding of the raw file written here, independent of
//! the reader under test.
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::{BTreeMap, HashSet};

use kibitz::book::Book;
use kibitz::book::polyglot::polyglot_key;
use kibitz::game::fen::parse_fen;
use kibitz::game::notation::parse_uci;
use shakmaty::{Chess, Move, Position};

#[test]
fn the_nine_specification_keys_match() {
    let text = common::read_testdata("epd/polyglot-spec-keys.txt");
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split(';').collect();
        let (fen, key, moves) = (fields[0], fields[1], fields[2]);
        let expected = u64::from_str_radix(key, 16).unwrap();
        // By FEN ...
        let position = parse_fen(fen).unwrap();
        assert_eq!(polyglot_key(&position), expected, "{fen}");
        // ... and by playing the moves from the start, which must agree.
        let mut played = Chess::default();
        for uci in moves.trim_start_matches("moves").split_whitespace() {
            if uci == "(start)" {
                continue;
            }
            let m = parse_uci(&played, uci).unwrap();
            played.play_unchecked(m);
        }
        assert_eq!(polyglot_key(&played), expected, "{moves}");
        checked += 1;
    }
    assert_eq!(checked, 9);
}

/// The raw file decoded by hand: key -> (move as from-to text, weight) with
/// duplicates summed. Castling stays king-takes-rook as stored.
fn decode_by_hand(bytes: &[u8]) -> BTreeMap<u64, BTreeMap<String, u32>> {
    let mut out: BTreeMap<u64, BTreeMap<String, u32>> = BTreeMap::new();
    for chunk in bytes.chunks(16) {
        let key = u64::from_be_bytes(chunk[0..8].try_into().unwrap());
        let raw = u16::from_be_bytes([chunk[8], chunk[9]]);
        let weight = u16::from_be_bytes([chunk[10], chunk[11]]);
        let square = |file: u16, rank: u16| {
            format!("{}{}", (b'a' + (file & 7) as u8) as char, (rank & 7) + 1)
        };
        let promotion = ["", "n", "b", "r", "q", "", "", ""][usize::from((raw >> 12) & 7)];
        let text = format!(
            "{}{}{promotion}",
            square(raw >> 6, raw >> 9),
            square(raw, raw >> 3)
        );
        *out.entry(key).or_default().entry(text).or_default() += u32::from(weight);
    }
    out
}

/// A move written as the book stores it (castling: king to rook square).
fn as_stored(m: Move) -> String {
    let from = m.from().unwrap();
    let promotion = m
        .promotion()
        .map(|r| r.char().to_string())
        .unwrap_or_default();
    format!("{from}{}{promotion}", m.to())
}

/// Walk every line of the book from the start position to `depth` plies,
/// comparing the probe with the hand decoding at each position.
fn check_book(relative: &str, line: &str, depth: usize) -> (usize, usize) {
    let path = common::testdata(relative);
    let bytes = std::fs::read(&path).unwrap();
    let book = Book::open(&path).unwrap();
    assert_eq!(book.len(), bytes.len() / 16);
    let by_hand = decode_by_hand(&bytes);
    let mut seen = HashSet::new();
    // Start from the start position and from every position along `line`.
    let mut frontier = vec![Chess::default()];
    let mut position = Chess::default();
    for uci in line.split_whitespace() {
        let m = parse_uci(&position, uci).unwrap();
        position.play_unchecked(m);
        frontier.push(position.clone());
    }
    let mut checked = 0;
    let mut entries = 0;
    for _ in 0..depth {
        let mut next = Vec::new();
        for position in frontier {
            let key = polyglot_key(&position);
            if !seen.insert(key) {
                continue;
            }
            let probe = book.probe(&position);
            let from_reader: BTreeMap<String, u32> = probe
                .moves
                .iter()
                .map(|b| (as_stored(b.m), b.weight))
                .collect();
            let mut expected = by_hand.get(&key).cloned().unwrap_or_default();
            // Entries the reader skipped as illegal must be exactly the
            // ones that are not legal moves here.
            let legal: HashSet<String> =
                position.legal_moves().into_iter().map(as_stored).collect();
            let illegal = expected.keys().filter(|m| !legal.contains(*m)).count();
            expected.retain(|m, _| legal.contains(m));
            assert_eq!(from_reader, expected, "position {key:016x}");
            assert_eq!(probe.illegal, illegal);
            let total: u32 = expected.values().sum();
            for b in &probe.moves {
                let share = f64::from(b.weight) / f64::from(total.max(1));
                assert!((b.share - share).abs() < 1e-9);
            }
            assert!(probe.moves.windows(2).all(|w| w[0].weight >= w[1].weight));
            checked += 1;
            entries += expected.len() + illegal;
            for b in &probe.moves {
                let mut child = position.clone();
                child.play_unchecked(b.m);
                next.push(child);
            }
        }
        frontier = next;
    }
    (checked, entries)
}

#[test]
fn performance_book_probes_match_an_independent_decoding() {
    let (positions, entries) = check_book("books/performance.bin", "", 40);
    eprintln!("performance.bin: {positions} positions, {entries} distinct moves checked");
    assert!(entries > 2000, "only {entries} moves");
}

#[test]
fn lasker_trap_book_probes_match_an_independent_decoding() {
    // The Lasker trap in the Albin Counter-Gambit.
    let line = "d2d4 d7d5 c2c4 e7e5 d4e5 d5d4 e2e3 f8b4 c1d2 d4e3 d2b4 e3f2 e1e2 f2g1n";
    let (positions, entries) = check_book("books/lasker-trap.bin", line, 20);
    eprintln!("lasker-trap.bin: {positions} positions, {entries} moves checked");
    assert_eq!(
        entries, 7,
        "every entry of the book is found along the line"
    );
}

/// `kibitz ARGS` with a fresh home of its own.
fn kibitz(args: &[&str]) -> std::process::Output {
    common::run_kibitz(args)
}

#[test]
fn probe_refuses_missing_empty_truncated_and_unsorted_books() {
    // A folder of the test's own, removed when the test ends.
    let dir = common::TempHome::new("book-probe");
    let empty = dir.join("empty.bin");
    std::fs::write(&empty, b"").unwrap();
    let truncated = dir.join("truncated.bin");
    let real = std::fs::read(common::testdata("books/performance.bin")).unwrap();
    std::fs::write(&truncated, &real[..16 * 10 + 5]).unwrap();
    let unsorted = dir.join("unsorted.bin");
    let mut swapped = real[..16 * 4].to_vec();
    swapped.rotate_left(16);
    std::fs::write(&unsorted, &swapped).unwrap();
    for (path, expected) in [
        (dir.join("missing.bin"), "cannot read book"),
        (empty, "is empty"),
        (truncated, "truncated: 165 bytes"),
        (unsorted, "not sorted: entry 3"),
    ] {
        let out = kibitz(&["book", "probe", "--book", path.to_str().unwrap()]);
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.starts_with("error: ") && err.contains(expected),
            "{err}"
        );
    }
}

#[test]
fn built_book_gives_back_the_games_moves_with_their_scores() {
    // Games written here, with results; one with an illegal move that must be
    // skipped and reported, and a variation that must not count.
    let games = [
        ("1-0", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"),
        ("0-1", "e2e4 e7e5 g1f3 g8f6 f3e5 d7d6"),
        ("1/2-1/2", "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4"),
        ("1-0", "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6"),
        ("0-1", "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7"),
        ("1-0", "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5"),
    ];
    let mut pgn = String::new();
    // Expected: (position key, move) -> summed score, computed here.
    let mut expected: BTreeMap<u64, BTreeMap<String, u32>> = BTreeMap::new();
    for (index, (result, line)) in games.iter().enumerate() {
        let mut position = Chess::default();
        let mut movetext = String::new();
        for (ply, uci) in line.split_whitespace().enumerate() {
            let m = parse_uci(&position, uci).unwrap();
            let san = shakmaty::san::San::from_move(&position, m).to_string();
            if ply % 2 == 0 {
                movetext.push_str(&format!("{}. ", ply / 2 + 1));
            }
            movetext.push_str(&san);
            movetext.push(' ');
            if ply == 1 {
                movetext.push_str("(2. Qh5 Nc6) ");
            }
            let white = position.turn().is_white();
            let score = match *result {
                "1-0" if white => 2,
                "0-1" if !white => 2,
                "1/2-1/2" => 1,
                _ => 0,
            };
            *expected
                .entry(polyglot_key(&position))
                .or_default()
                .entry(as_stored(m))
                .or_default() += score;
            position.play_unchecked(m);
        }
        pgn.push_str(&format!(
            "[Event \"test {index}\"]\n[Result \"{result}\"]\n\n{movetext}{result}\n\n"
        ));
    }
    pgn.push_str("[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n");
    let dir = common::TempHome::new("book-build");
    let pgn_path = dir.join("games.pgn");
    std::fs::write(&pgn_path, pgn).unwrap();
    let book_path = dir.join("built.bin");
    let out = kibitz(&[
        "book",
        "build",
        "--pgn",
        pgn_path.to_str().unwrap(),
        "--out",
        book_path.to_str().unwrap(),
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    assert!(text.starts_with("games 6 skipped 1 "), "{text}");
    assert!(text.contains("game 7: ply 3: illegal move Ke3"), "{text}");

    let book = Book::open(&book_path).unwrap();
    assert_eq!(book.positions(), expected.len());
    // Walk every game again and compare each position's book moves.
    for (_, line) in games {
        let mut position = Chess::default();
        for uci in line.split_whitespace() {
            let got: BTreeMap<String, u32> = book
                .probe(&position)
                .moves
                .iter()
                .map(|b| (as_stored(b.m), b.weight))
                .collect();
            assert_eq!(&got, &expected[&polyglot_key(&position)]);
            let m = parse_uci(&position, uci).unwrap();
            position.play_unchecked(m);
        }
    }
    // And the command-line probe prints the same, best first.
    let out = kibitz(&[
        "book",
        "probe",
        "--book",
        book_path.to_str().unwrap(),
        "--moves",
        "e2e4",
        "e7e5",
        "g1f3",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // Black lost both games with 3...Nc6 and won the one with 3...Nf6.
    assert_eq!(lines[1], "Nf6      g8f6   weight      2  100.0%", "{text}");
    assert_eq!(lines[2], "Nc6      b8c6   weight      0    0.0%", "{text}");
}

/// The PGN sources of the default book, in a fixed order.
fn book_sources() -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("books");
    let mut sources: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    sources.sort();
    sources
}

#[test]
fn the_default_book_rebuilds_byte_for_byte_from_its_sources() {
    let sources = book_sources();
    assert!(sources.len() >= 5, "{sources:?}");
    let dir = common::TempHome::new("book-rebuild");
    let out = dir.join("rebuilt.bin");
    let mut args = vec![
        "book".to_string(),
        "build".into(),
        "--max-ply".into(),
        "16".into(),
        "--pgn".into(),
    ];
    args.extend(sources.iter().map(|p| p.display().to_string()));
    args.extend(["--out".into(), out.display().to_string()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = kibitz(&args);
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let text = String::from_utf8(result.stdout).unwrap();
    assert!(text.contains(" skipped 0 "), "{text}");
    let rebuilt = std::fs::read(&out).unwrap();
    let shipped =
        std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("books/kibitz.bin"))
            .unwrap();
    assert!(
        rebuilt == shipped,
        "books/kibitz.bin differs from a rebuild of books/*.pgn ({} vs {} bytes)",
        shipped.len(),
        rebuilt.len()
    );
    assert_eq!(
        kibitz::book::DEFAULT_BOOK,
        shipped.as_slice(),
        "the binary embeds the shipped book"
    );
}

#[test]
fn the_default_book_is_broad_and_answers_the_main_openings() {
    let book = kibitz::book::default_book().unwrap();
    assert!(book.positions() >= 5000, "{}", book.positions());
    for line in [
        "",
        "e2e4",
        "d2d4",
        "c2c4",
        "g1f3",
        "e2e4 e7e5 g1f3 b8c6",
        "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3",
        "e2e4 e7e6 d2d4 d7d5",
        "e2e4 c7c6 d2d4 d7d5",
        "d2d4 d7d5 c2c4",
        "d2d4 g8f6 c2c4 e7e6 b1c3",
        "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4",
    ] {
        let mut position = Chess::default();
        for uci in line.split_whitespace() {
            let m = parse_uci(&position, uci).unwrap();
            position.play_unchecked(m);
        }
        let probe = book.probe(&position);
        assert!(!probe.moves.is_empty(), "no book move after '{line}'");
        assert_eq!(probe.illegal, 0);
        assert!(probe.moves[0].weight > 0, "after '{line}'");
    }
}
