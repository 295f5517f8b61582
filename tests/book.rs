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
