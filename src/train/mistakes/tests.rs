#![allow(clippy::unwrap_used)]
use std::path::PathBuf;

use super::*;
use crate::game::fen::parse_fen;

/// After 1. e4 d5 2. exd5 Qxd5 3. Nc3, Black to move: 3... Nf6?? loses the
/// queen.
const HANGING_QUEEN: &str = "rnb1kbnr/ppp1pppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR b KQkq - 1 3";

fn line() -> Vec<String> {
    vec!["Qa5".into(), "d4".into(), "Nf6".into()]
}

fn source(file: &Path) -> GameSource<'_> {
    GameSource {
        file,
        game: 2,
        white: "Ann",
        black: "Bob",
    }
}

#[test]
fn a_blunder_becomes_the_position_before_it_with_the_engines_line() {
    let position = parse_fen(HANGING_QUEEN).unwrap();
    let better = line();
    let file = PathBuf::from("/games/club.pgn");
    let mistake = Reviewed {
        position: &position,
        played: "Nf6",
        better_line: &better,
        move_number: 3,
        class: Class::Blunder,
        lesson_margin_cp: 300,
    };
    let e = exercise(&mistake, &source(&file)).unwrap();
    assert_eq!(e.kind, Kind::Mistake);
    assert_eq!(e.fen, HANGING_QUEEN);
    assert_eq!(e.solution, vec!["d5a5", "d2d4", "g8f6"]);
    assert_eq!(e.solution_san, better);
    assert_eq!(e.played.as_deref(), Some("g8f6"));
    assert_eq!(
        e.margin_cp,
        Some(MAX_MARGIN_CP),
        "capped at a pawn and a half"
    );
    assert_eq!(e.source, "game 2 of club.pgn, 3... Nf6?? (Ann - Bob)");
}

#[test]
fn inaccuracies_and_moves_without_a_better_line_are_left_out() {
    let position = parse_fen(HANGING_QUEEN).unwrap();
    let better = line();
    let file = PathBuf::from("club.pgn");
    let mut mistake = Reviewed {
        position: &position,
        played: "Nf6",
        better_line: &better,
        move_number: 3,
        class: Class::Inaccuracy,
        lesson_margin_cp: 10,
    };
    assert!(exercise(&mistake, &source(&file)).is_none());
    mistake.class = Class::Mistake;
    let e = exercise(&mistake, &source(&file)).unwrap();
    assert_eq!(e.margin_cp, Some(MIN_MARGIN_CP));
    assert!(e.source.ends_with("3... Nf6? (Ann - Bob)"), "{}", e.source);
    let empty = Vec::new();
    mistake.better_line = &empty;
    assert!(exercise(&mistake, &source(&file)).is_none());
}

fn study(fen: &str, played: &str, line: &[&str]) -> Study {
    Study {
        game: 2,
        ply: 6,
        move_number: 3,
        fen: fen.into(),
        played: played.into(),
        best: line.first().map(|s| s.to_string()),
        better_line: line.iter().map(|s| s.to_string()).collect(),
        class: Class::Blunder,
        margin_cp: 120,
    }
}

#[test]
fn a_whole_file_reviews_positions_come_in_and_a_player_can_be_picked() {
    let file = PathBuf::from("club.pgn");
    let mut white = study("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 30", "Kf1", &["Ra8#"]);
    white.move_number = 30;
    let black = study(HANGING_QUEEN, "Nf6", &["Qa5"]);
    let studies = [vec![white], vec![black]];
    let all = of_studies(&studies, &source(&file), None);
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].solution, vec!["a1a8"]);
    assert_eq!(all[0].source, "game 2 of club.pgn, 30. Kf1?? (Ann - Bob)");
    let is = |name: &'static str| move |tag: &str, _: Color| tag == name;
    let bob = is("Bob");
    let bobs = of_studies(&studies, &source(&file), Some(&bob));
    assert_eq!(bobs.len(), 1);
    assert_eq!(bobs[0].played.as_deref(), Some("g8f6"));
    let cleo = is("Cleo");
    assert!(of_studies(&studies, &source(&file), Some(&cleo)).is_empty());

    let mut schedule = Schedule::default();
    assert_eq!(
        add_all(&mut schedule, all.clone(), 100),
        Added {
            added: 2,
            already: 0
        }
    );
    assert_eq!(
        add_all(&mut schedule, all, 200),
        Added {
            added: 0,
            already: 2
        }
    );
    assert_eq!(schedule.due(100).len(), 2);
}

#[test]
fn a_long_engine_line_is_kept_to_its_first_eight_moves() {
    let position = parse_fen(HANGING_QUEEN).unwrap();
    let better: Vec<String> = "Qa5 d4 Nf6 Nf3 Nc6 Bd2 Bg4 Be2 e6 O-O"
        .split(' ')
        .map(str::to_string)
        .collect();
    let file = PathBuf::from("club.pgn");
    let mistake = Reviewed {
        position: &position,
        played: "Nf6",
        better_line: &better,
        move_number: 3,
        class: Class::Blunder,
        lesson_margin_cp: 300,
    };
    let e = exercise(&mistake, &source(&file)).unwrap();
    assert_eq!(e.solution.len(), SOLUTION_PLIES);
    assert_eq!(e.solution_san, better[..SOLUTION_PLIES].to_vec());
}
