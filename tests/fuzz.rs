//! Fuzzing every parser on stable Rust: proptest mutates the seed inputs in
//! `tests/fuzz_corpus/` and each parser must answer, a value or an error,
//! without panicking. The budget is fixed so the suite stays quick;
//! `KIBITZ_FUZZ_CASES=N` runs N cases per target instead, and
//! `KIBITZ_FUZZ_SEED=random` draws new cases (see `seed`).
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::str::FromStr;

use kibitz::book::Book;
use kibitz::config::Settings;
use kibitz::game::fen::parse_fen;
use kibitz::game::import::read_games;
use kibitz::game::movetext::MoveText;
use kibitz::game::notation::parse_move;
use kibitz::game::tree::GameTree;
use kibitz::uci::UciCommand;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use shakmaty::{Chess, Position};

/// Cases per target: enough to run in a second or two each.
const DEFAULT_CASES: u32 = 3_000;

fn cases() -> u32 {
    std::env::var("KIBITZ_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_CASES)
}

/// The random seed: fixed, so that the suite answers the same on every
/// run (a red CI names a bug, not a lucky draw); `KIBITZ_FUZZ_SEED=N`
/// explores with another, `KIBITZ_FUZZ_SEED=random` with a fresh one.
fn seed() -> RngSeed {
    match std::env::var("KIBITZ_FUZZ_SEED").ok().as_deref() {
        Some("random") => RngSeed::Random,
        Some(n) => RngSeed::Fixed(n.parse().unwrap_or(FIXED_SEED)),
        None => RngSeed::Fixed(FIXED_SEED),
    }
}

const FIXED_SEED: u64 = 0x6b69_6269_747a;

/// Every seed of a target: the files of its folder, and for `.txt` files
/// each line as a seed of its own.
fn corpus(target: &str) -> Vec<Vec<u8>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz_corpus")
        .join(target);
    let mut seeds = Vec::new();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    paths.sort();
    for path in paths {
        let bytes = std::fs::read(&path).unwrap();
        if path.extension().is_some_and(|e| e == "txt") {
            seeds.extend(
                bytes
                    .split(|&b| b == b'\n')
                    .filter(|l| !l.is_empty())
                    .map(<[u8]>::to_vec),
            );
        } else {
            seeds.push(bytes);
        }
    }
    assert!(!seeds.is_empty(), "no seeds in {}", dir.display());
    seeds
}

/// One change to an input.
#[derive(Debug, Clone)]
enum Mutation {
    /// Flip bits of the byte at a position.
    Flip(usize, u8),
    /// Insert a piece of the format's own punctuation.
    Insert(usize, usize),
    /// Delete a run of bytes.
    Delete(usize, usize),
    /// Copy a slice somewhere else (repetition, nesting).
    Duplicate(usize, usize, usize),
    /// Set a byte to an extreme value.
    Extreme(usize, u8),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1u8..=255).prop_map(|(at, bits)| Mutation::Flip(at, bits)),
        (any::<usize>(), any::<usize>()).prop_map(|(at, piece)| Mutation::Insert(at, piece)),
        (any::<usize>(), 1usize..64).prop_map(|(at, len)| Mutation::Delete(at, len)),
        (any::<usize>(), 1usize..256, any::<usize>())
            .prop_map(|(from, len, to)| Mutation::Duplicate(from, len, to)),
        (
            any::<usize>(),
            prop_oneof![Just(0u8), Just(0xFF), Just(0x80), Just(b'\n')]
        )
            .prop_map(|(at, b)| Mutation::Extreme(at, b)),
    ]
}

fn mutate(seed: &[u8], mutations: &[Mutation], pieces: &[&str]) -> Vec<u8> {
    let mut data = seed.to_vec();
    for m in mutations {
        let len = data.len().max(1);
        match *m {
            Mutation::Flip(at, bits) => {
                if let Some(b) = data.get_mut(at % len) {
                    *b ^= bits;
                }
            }
            Mutation::Insert(at, piece) => {
                let at = at % (data.len() + 1);
                let piece = pieces[piece % pieces.len()].as_bytes();
                data.splice(at..at, piece.iter().copied());
            }
            Mutation::Delete(at, n) => {
                let at = at % len;
                let end = (at + n).min(data.len());
                if at < end {
                    data.drain(at..end);
                }
            }
            Mutation::Duplicate(from, n, to) => {
                let from = from % len;
                let end = (from + n).min(data.len());
                let slice = data.get(from..end).unwrap_or_default().to_vec();
                let to = to % (data.len() + 1);
                data.splice(to..to, slice);
            }
            Mutation::Extreme(at, b) => {
                if let Some(x) = data.get_mut(at % len) {
                    *x = b;
                }
            }
        }
    }
    data
}

/// Run `check` on mutated seeds of `target`.
fn fuzz(target: &str, pieces: &[&str], check: impl Fn(&[u8])) {
    let seeds = corpus(target);
    let mut runner = TestRunner::new(Config {
        cases: cases(),
        failure_persistence: None,
        rng_seed: seed(),
        ..Config::default()
    });
    let strategy = (0..seeds.len(), proptest::collection::vec(mutation(), 0..6));
    runner
        .run(&strategy, |(seed, mutations)| {
            let input = mutate(&seeds[seed], &mutations, pieces);
            check(&input);
            Ok(())
        })
        .unwrap();
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn fen() {
    fuzz(
        "fen",
        &["/", " ", "-", "8", "K", "k", "KQkq", "e3", "0"],
        |input| {
            if let Ok(position) = parse_fen(&text(input)) {
                // A position that parsed is one the engine can use.
                let _ = position.legal_moves();
            }
        },
    );
}

#[test]
fn move_text() {
    let position = Chess::default();
    let promotion = parse_fen("8/3P4/8/8/8/k7/8/K7 w - - 0 1").unwrap();
    fuzz(
        "moves",
        &[
            "+", "#", "=", "x", "-", "0", "O", "e.p.", "!", "?", "Q", "8",
        ],
        |input| {
            let word = text(input);
            for p in [&position, &promotion] {
                if let Ok(m) = parse_move(p, &word) {
                    assert!(p.is_legal(m), "{word}: {m:?}");
                }
                if let Some(san) = MoveText::parse(&word)
                    && let Ok(m) = san.to_move(p)
                {
                    assert!(p.is_legal(m), "{word}: {m:?}");
                }
            }
        },
    );
}

fn shape(tree: &GameTree, node: usize) -> String {
    let mut out = String::new();
    let mut stack = vec![(node, 0usize)];
    while let Some((n, depth)) = stack.pop() {
        let node = &tree.nodes[n];
        out.push_str(&format!(
            "{depth} {} {:?} {:?};",
            node.san, node.nags, node.comments
        ));
        for &child in node.children.iter().rev() {
            stack.push((child, depth + 1));
        }
    }
    out
}

#[test]
fn pgn() {
    fuzz(
        "pgn",
        &[
            "(", ")", "{", "}", "[", "]", "\"", "\n\n", ";", "%", "$", "!?", "--", "++", "1-0",
            "*", "12.", "\\", "\r\n",
        ],
        |input| {
            let mut games = Vec::new();
            read_games(input, &mut |tree| {
                games.push(tree);
                true
            })
            .unwrap();
            // What kibitz writes, it reads back as the same game.
            for game in games.iter().filter(|g| g.nodes.len() < 2_000) {
                let written = game.to_pgn();
                let mut again = Vec::new();
                read_games(written.as_bytes(), &mut |tree| {
                    again.push(tree);
                    true
                })
                .unwrap();
                assert_eq!(again.len(), 1, "{written}");
                assert_eq!(shape(&again[0], 0), shape(game, 0), "{written}");
            }
        },
    );
}

#[test]
fn polyglot_book() {
    fuzz("book", &["\0\0\0\0\0\0\0\0", "\u{ff}"], |input| {
        if let Ok(book) = Book::from_bytes(input, "fuzz") {
            // Whatever the entries say, a probe only offers legal moves.
            let probe = book.probe(&Chess::default());
            for m in probe.moves {
                assert!(Chess::default().is_legal(m.m));
            }
        }
    });
}

#[test]
fn config() {
    fuzz(
        "config",
        &[
            "=",
            "\"",
            "[",
            "]",
            "\n",
            "-1",
            "99999999999999999999",
            "level",
            "hash_mb",
            "true",
        ],
        |input| {
            let (settings, _problems) = Settings::parse(&text(input));
            // Every value that came through is one the program can use.
            assert!(
                (1..=kibitz::engine::MAX_HASH_MB).contains(&settings.hash_mb),
                "{settings:?}"
            );
        },
    );
}

#[test]
fn autosave() {
    fuzz(
        "autosave",
        &[
            "\"",
            ",",
            ":",
            "null",
            "18446744073709551615",
            "-1",
            "\"e7e8q\"",
            "[",
            "]",
        ],
        |input| {
            if let Ok(saved) = kibitz::tui::save::check_autosave(&text(input)) {
                assert!(saved.restore().is_ok());
            }
        },
    );
}

#[test]
fn uci_line() {
    fuzz(
        "uci",
        &[
            " ",
            "value",
            "name",
            "moves",
            "depth",
            "-",
            "0",
            "18446744073709551616",
            "\t",
        ],
        |input| {
            let _ = UciCommand::from_str(&text(input));
        },
    );
}

/// FNV-1a 64 of the table entries, as the file format's checksum is made.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

#[test]
fn tablebase_file() {
    use kibitz::tablebase::material::Material;
    use kibitz::tablebase::{Builtin, Tablebases, store};

    // The committed seeds are headers; a whole table is made here (KRvK
    // takes milliseconds) and written the way kibitz writes it.
    let material: Material = "KRvK".parse().unwrap();
    let made = std::env::temp_dir().join(format!("kibitz-fuzz-tb-{}", std::process::id()));
    std::fs::create_dir_all(&made).unwrap();
    let mut builtin = Builtin::new();
    let table = builtin
        .generate(&material, &mut |_| std::ops::ControlFlow::Continue(()))
        .unwrap()
        .clone();
    let whole = std::fs::read(store::write(&made, &table).unwrap()).unwrap();
    let mut seeds = corpus("tablebase");
    seeds.push(whole);
    let positions: Vec<Chess> = [
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
        "8/8/8/4k3/8/8/8/R3K3 b - - 0 1",
        "k7/8/1K6/8/8/8/8/7R w - - 0 1",
        "7k/8/8/8/8/8/1K6/7r b - - 0 1",
    ]
    .iter()
    .map(|f| parse_fen(f).unwrap())
    .collect();
    let dir = made.join("fuzz");
    std::fs::create_dir_all(&dir).unwrap();
    let mut runner = TestRunner::new(Config {
        // Each case writes and reads a table of 82 KB.
        cases: (cases() / 10).max(1),
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = (
        0..seeds.len(),
        proptest::collection::vec(mutation(), 0..6),
        any::<bool>(),
    );
    // Header fields: magic 8, version 4, name length 1, "KRvK", count 8, checksum 8.
    let entries_at = 8 + 4 + 1 + 4 + 8 + 8;
    runner
        .run(&strategy, |(seed, mutations, fix_checksum)| {
            let mut bytes = mutate(&seeds[seed], &mutations, &["\0", "\u{ff}", "KRvK"]);
            // Corrupt entries under a checksum that matches them: the probe
            // itself must cope with values no generator wrote.
            if fix_checksum && bytes.len() > entries_at {
                let sum = fnv1a(&bytes[entries_at..]).to_le_bytes();
                bytes[entries_at - 8..entries_at].copy_from_slice(&sum);
            }
            std::fs::write(store::path(&dir, &material), &bytes).unwrap();
            let _ = store::read(&dir, &material);
            let mut problems = Vec::new();
            let tables = Tablebases::new(Builtin::open(&dir, &mut problems));
            for position in &positions {
                if let Some(probe) = tables.probe(position)
                    && let Some(m) = probe.best_move
                {
                    assert!(position.is_legal(m));
                }
                let _ = tables.probe_wdl(position);
            }
            Ok(())
        })
        .unwrap();
    let _ = std::fs::remove_dir_all(&made);
}
