#![allow(clippy::unwrap_used)]
use std::path::PathBuf;

use super::*;
use crate::game::fen::{fen_of, parse_fen};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kibitz-rep-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn testdata(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(relative)
}

const LINES: &str = "[Event \"my lines\"]\n\n\
1. e4 e5 (1... c5 2. Nf3 d6) 2. Nf3 Nc6 3. Bb5 *\n\n\
[Event \"queen's pawn\"]\n\n1. d4 d5 2. c4 *\n\n\
[Event \"another try\"]\n\n1. e4 e5 2. Bc4 Nf6 3. d3 *\n";

fn write(dir: &Path, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

/// The position after `line` (SAN) from the start.
fn after(line: &[String]) -> String {
    let mut position = Chess::default();
    for san in line {
        let m = san
            .parse::<shakmaty::san::San>()
            .unwrap()
            .to_move(&position)
            .unwrap();
        position.play_unchecked(m);
    }
    fen_of(&position)
}

fn summary(exercises: &[Exercise]) -> Vec<(String, String, Vec<String>)> {
    exercises
        .iter()
        .map(|e| (numbered(&e.line), e.solution_san.join(" "), e.also.clone()))
        .collect()
}

#[test]
fn a_pgn_gives_the_players_moves_of_every_line_and_game_in_line_order() {
    let dir = temp_dir("pgn");
    let path = write(&dir, "lines.pgn", LINES);
    let white = exercises(&path, Color::White).unwrap();
    let s = |a: &str, b: &str, c: &[&str]| {
        (
            a.to_string(),
            b.to_string(),
            c.iter().map(|x| x.to_string()).collect::<Vec<_>>(),
        )
    };
    assert_eq!(
        summary(&white),
        vec![
            // The start: 1. e4 first (game 1), 1. d4 (game 2) also counts.
            s("", "e4", &["d2d4"]),
            // 2. Nf3 first, 2. Bc4 of the third game also counts.
            s("1. e4 e5", "Nf3", &["f1c4"]),
            s("1. e4 e5 2. Nf3 Nc6", "Bb5", &[]),
            // The variation after the main line it leaves.
            s("1. e4 c5", "Nf3", &[]),
            s("1. d4 d5", "c4", &[]),
            s("1. e4 e5 2. Bc4 Nf6", "d3", &[]),
        ]
    );
    for e in &white {
        assert_eq!(e.kind, Kind::Repertoire);
        assert_eq!(e.fen, after(&e.line), "{e:?}");
        assert_eq!(e.solution.len(), 1);
        assert_eq!(e.solution_san.len(), 1);
        assert!(e.played.is_none() && e.margin_cp.is_none());
    }
    assert_eq!(white[0].solution, vec!["e2e4"]);
    assert_eq!(white[0].source, "repertoire lines.pgn, the start position");
    assert_eq!(white[1].source, "repertoire lines.pgn, 1. e4 e5");

    let black = exercises(&path, Color::Black).unwrap();
    assert_eq!(
        summary(&black),
        vec![
            s("1. e4", "e5", &["c7c5"]),
            s("1. e4 e5 2. Nf3", "Nc6", &[]),
            s("1. e4 c5 2. Nf3", "d6", &[]),
            s("1. d4", "d5", &[]),
            s("1. e4 e5 2. Bc4", "Nf6", &[]),
        ]
    );
    assert_eq!(black[1].source, "repertoire lines.pgn, 1. e4 e5 2. Nf3");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_transposition_is_asked_once_and_a_set_up_game_gives_its_position() {
    let dir = temp_dir("transpose");
    let text = "1. Nf3 d5 2. d4 Nf6 *\n\n1. d4 d5 2. Nf3 Nf6 3. c4 *\n\n\
[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 Kd7 2. Kd2 *\n";
    let path = write(&dir, "t.pgn", text);
    let black = exercises(&path, Color::Black).unwrap();
    let lines: Vec<String> = black.iter().map(|e| numbered(&e.line)).collect();
    // After 1. Nf3 d5 2. d4 and 1. d4 d5 2. Nf3: one position, one question.
    assert_eq!(lines, vec!["1. Nf3", "1. Nf3 d5 2. d4", "1. d4", ""]);
    let set_up = &black[3];
    assert_eq!(set_up.fen, "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
    assert_eq!(set_up.solution, vec!["e8d7"]);
    assert_eq!(
        set_up.source,
        "repertoire t.pgn, game 3, from its set-up position"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_one_sided_polyglot_book_gives_the_whole_lasker_trap_for_black() {
    let black = exercises(&testdata("books/lasker-trap.bin"), Color::Black).unwrap();
    let answers: Vec<String> = black.iter().map(|e| e.solution_san.join(" ")).collect();
    assert_eq!(
        answers,
        ["d5", "e5", "d4", "Bb4+", "dxe3", "exf2+", "fxg1=N+"]
    );
    assert_eq!(black[6].solution, vec!["f2g1n"]);
    assert_eq!(
        numbered(&black[6].line),
        "1. d4 d5 2. c4 e5 3. dxe5 d4 4. e3 Bb4+ 5. Bd2 dxe3 6. Bxb4 exf2+ 7. Ke2"
    );
    assert_eq!(
        black[0].source, "repertoire lasker-trap.bin, 1. d4",
        "{black:?}"
    );
    for e in &black {
        assert_eq!(e.fen, after(&e.line));
    }
    // It has no move for White.
    let err = exercises(&testdata("books/lasker-trap.bin"), Color::White).unwrap_err();
    assert!(matches!(err, RepertoireError::NoPositions { .. }), "{err}");
    assert!(
        err.to_string().contains("no position with White to move"),
        "{err}"
    );
}

#[test]
fn a_big_book_is_walked_to_the_depth_and_cap_with_the_books_favourite_first() {
    let path = testdata("books/performance.bin");
    let book = crate::book::Book::open(&path).unwrap();
    for color in [Color::White, Color::Black] {
        let found = exercises(&path, color).unwrap();
        assert!(
            (10..=BOOK_POSITIONS).contains(&found.len()),
            "{color:?}: {}",
            found.len()
        );
        for e in &found {
            assert!(e.line.len() < BOOK_DEPTH, "{e:?}");
            let position = parse_fen(&e.fen).unwrap();
            assert_eq!(position.turn(), color);
            assert_eq!(e.fen, after(&e.line));
            // The answer is the book's favourite, the others above the cut
            // are accepted, and nothing under it.
            let probe = book.probe(&position);
            assert_eq!(e.solution[0], crate::core::uci_text(probe.moves[0].m));
            let counted: Vec<String> = probe
                .moves
                .iter()
                .skip(1)
                .filter(|b| b.weight > 0 && b.share >= MIN_SHARE)
                .map(|b| crate::core::uci_text(b.m))
                .collect();
            assert_eq!(e.also, counted, "{e:?}");
            // The opponent's last move was one of the book's, above the
            // cut, or the book has no move for the opponent there.
            if let Some((_, before)) = e.line.split_last() {
                let previous = parse_fen(&after(before)).unwrap();
                let replies: Vec<String> = previous
                    .san_moves(&book)
                    .into_iter()
                    .filter(|(_, share)| *share >= MIN_SHARE)
                    .map(|(san, _)| san)
                    .collect();
                assert!(
                    replies.contains(e.line.last().unwrap()) || replies.is_empty(),
                    "{e:?}"
                );
            }
        }
        // Line order: what follows an exercise's line comes right after it.
        for (i, e) in found.iter().enumerate() {
            let within = |f: &Exercise| f.line.starts_with(&e.line);
            let block = found[i..].iter().take_while(|f| within(f)).count();
            let later = found[i..].iter().filter(|f| within(f)).count();
            assert_eq!(block, later, "the lines under {:?} are split", e.line);
        }
    }
}

/// The book's moves at a position in SAN with their shares.
trait BookSan {
    fn san_moves(&self, book: &crate::book::Book) -> Vec<(String, f64)>;
}

impl BookSan for Chess {
    fn san_moves(&self, book: &crate::book::Book) -> Vec<(String, f64)> {
        book.probe(self)
            .moves
            .iter()
            .filter(|b| b.weight > 0)
            .map(|b| {
                (
                    crate::game::notation::san_line(self, &[b.m]).join(""),
                    b.share,
                )
            })
            .collect()
    }
}

#[test]
fn a_file_is_told_a_book_or_a_pgn_by_its_content_not_its_name() {
    let dir = temp_dir("sniff");
    let book = write(
        &dir,
        "looks-like.pgn",
        std::fs::read(testdata("books/lasker-trap.bin")).unwrap(),
    );
    assert_eq!(exercises(&book, Color::Black).unwrap().len(), 7);
    let pgn = write(&dir, "looks-like.bin", LINES);
    assert_eq!(exercises(&pgn, Color::White).unwrap().len(), 6);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_built_in_book_is_a_repertoire_too() {
    let found = exercises(Path::new("builtin"), Color::White).unwrap();
    assert!(found.len() > 10, "{}", found.len());
    assert!(
        found[0]
            .source
            .starts_with("repertoire the built-in book, ")
    );
}

#[test]
fn bad_input_gets_a_clear_error() {
    let dir = temp_dir("bad");
    let message = |path: &Path, color| exercises(path, color).unwrap_err().to_string();

    let missing = message(&dir.join("nowhere.pgn"), Color::White);
    assert!(
        missing.contains("nowhere.pgn") && missing.contains("No such file"),
        "{missing}"
    );
    let folder = message(&dir, Color::White);
    assert!(folder.contains("it is a directory"), "{folder}");
    #[cfg(unix)]
    {
        let fifo = dir.join("pipe");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let piped = message(&fifo, Color::White);
        assert!(piped.contains("FIFO"), "{piped}");
    }
    // Binary, so a book, but not a whole number of entries.
    let mut bytes = std::fs::read(testdata("books/lasker-trap.bin")).unwrap();
    bytes.pop();
    let corrupt = message(&write(&dir, "corrupt.bin", &bytes), Color::Black);
    assert!(
        corrupt.contains("truncated") && corrupt.contains("Polyglot book"),
        "{corrupt}"
    );
    let no_moves = message(
        &write(&dir, "empty.pgn", "[Event \"nothing\"]\n\n*\n"),
        Color::White,
    );
    assert!(no_moves.contains("has no moves"), "{no_moves}");
    let nothing = message(&write(&dir, "nothing.pgn", ""), Color::White);
    assert!(nothing.contains("has no moves"), "{nothing}");
    // A line for White only (it ends after White's move).
    let one_side = message(&write(&dir, "e4.pgn", "1. e4 *\n"), Color::Black);
    assert!(
        one_side.contains("no position with Black to move")
            && one_side.contains("repertoire for White"),
        "{one_side}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_shipped_books_pgn_files_are_repertoires_for_both_sides() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("books");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "pgn") {
            continue;
        }
        files += 1;
        for color in [Color::White, Color::Black] {
            let found = exercises(&path, color).unwrap();
            assert!(found.len() > 5, "{}: {}", path.display(), found.len());
            for e in found.iter().take(200) {
                assert_eq!(e.fen, after(&e.line), "{e:?}");
                assert_eq!(parse_fen(&e.fen).unwrap().turn(), color);
            }
        }
    }
    assert!(files >= 5, "{files}");
}

#[test]
fn the_book_walk_keeps_the_shallowest_positions_at_its_cap_and_depth() {
    let book = crate::book::Book::open(&testdata("books/performance.bin")).unwrap();
    let walked = |depth, cap| {
        let mut collector = Collector::new("performance.bin", Color::Black);
        book::walk_within(&book, Color::Black, &mut collector, depth, cap);
        collector.exercises
    };
    let all = walked(BOOK_DEPTH, BOOK_POSITIONS);
    // Black's answers to 1. e4, 1. d4 and 1. c4 come before any deeper one.
    let capped = walked(BOOK_DEPTH, 3);
    let lines: Vec<String> = capped.iter().map(|e| numbered(&e.line)).collect();
    assert_eq!(lines, ["1. e4", "1. d4", "1. c4"]);
    // Two plies deep: the same three questions, the cap not reached.
    assert_eq!(walked(2, BOOK_POSITIONS), capped);
    let shallow = walked(4, BOOK_POSITIONS);
    assert!(shallow.iter().all(|e| e.line.len() <= 3));
    assert!(
        shallow.len() > 3 && shallow.len() < all.len(),
        "{}",
        shallow.len()
    );
    // Every capped walk is a part of the whole one, in the same order.
    let keys: Vec<String> = all.iter().map(Exercise::key).collect();
    let positions: Vec<usize> = shallow
        .iter()
        .map(|e| keys.iter().position(|k| *k == e.key()).unwrap())
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{positions:?}");
}

#[test]
fn a_move_that_is_not_legal_ends_its_line_with_a_warning() {
    let dir = temp_dir("illegal");
    let pgn = write(
        &dir,
        "najdorf.pgn",
        "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd5 Nf6 5. Nc3 a6 *\n",
    );
    let read = read(&pgn, Color::White).unwrap();
    // 1. e4, 2. Nf3, 3. d4: the line stops before 4. Nxd5.
    assert_eq!(read.exercises.len(), 3);
    assert_eq!(read.warnings.len(), 1);
    assert!(
        read.warnings[0].contains("'Nxd5' is not a legal move there"),
        "{:?}",
        read.warnings
    );
    let _ = std::fs::remove_dir_all(&dir);
}
