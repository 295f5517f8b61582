#![allow(clippy::unwrap_used)]
use super::*;

/// Scholar's mate threatened; 3... Nf6?? was played, g6 holds.
fn nf6() -> Exercise {
    Exercise {
        kind: Kind::Mistake,
        fen: "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3".into(),
        solution: vec!["g7g6".into()],
        solution_san: vec!["g6".into()],
        also: Vec::new(),
        played: Some("g8f6".into()),
        margin_cp: Some(150),
        theme: None,
        line: Vec::new(),
        source: "game 1 of scholar.pgn, 3... Nf6??".into(),
    }
}

#[test]
fn a_mistake_s_lesson_command_names_the_played_and_the_better_move() {
    assert_eq!(
        teach_command(&nf6(), 2),
        "kibitz teach --fen 'r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3' \
         --played Nf6 --better g6 --margin 150 --depth 2"
    );
    let mut puzzle = nf6();
    puzzle.kind = Kind::Puzzle;
    assert!(!teach_command(&puzzle, 2).contains("--played"));
}
