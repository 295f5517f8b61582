#![allow(clippy::unwrap_used)]
use super::*;
use crate::game::notation::parse_move;

fn exercise(kind: Kind, fen: &str, solution: &str) -> Exercise {
    Exercise {
        kind,
        fen: fen.to_string(),
        solution: vec![solution.to_string()],
        solution_san: Vec::new(),
        also: Vec::new(),
        played: None,
        margin_cp: None,
        theme: None,
        line: Vec::new(),
        source: "test".into(),
    }
}

fn answer(e: &Exercise, text: &str) -> Verdict {
    let m = parse_move(&position(e).unwrap(), text).unwrap();
    check(e, m).unwrap()
}

/// Two rooks, a king boxed in by its own pawns: Ra8# and Rb8# both mate.
const BACK_RANK: &str = "6k1/5ppp/8/8/8/8/8/RR4K1 w - - 0 1";

#[test]
fn a_puzzle_takes_its_move_and_any_other_mate_in_one_where_it_mates() {
    let e = exercise(Kind::Puzzle, BACK_RANK, "a1a8");
    let v = answer(&e, "Ra8");
    assert!(v.right, "{v:?}");
    assert_eq!(v.reason, "Ra8# is the solution");
    let v = answer(&e, "Rb8");
    assert!(v.right, "another mate at once counts: {v:?}");
    assert_eq!(v.reason, "Rb8# mates as well as Ra8#");
    let v = answer(&e, "Ra7");
    assert!(!v.right);
    assert_eq!(v.reason, "Ra7 is not the solution");
}

#[test]
fn a_puzzle_that_does_not_mate_at_once_takes_only_its_move() {
    // The solution wins a rook; Rb8# mates, but the puzzle asks for its
    // own move when that is not a mate.
    let e = exercise(Kind::Puzzle, BACK_RANK, "a1a7");
    assert!(answer(&e, "Ra7").right);
    assert!(!answer(&e, "Rb8").right);
}

#[test]
fn a_repertoire_position_takes_its_move_and_the_listed_others() {
    let mut e = exercise(
        Kind::Repertoire,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "e2e4",
    );
    e.also = vec!["d2d4".into()];
    assert!(answer(&e, "e4").right);
    let v = answer(&e, "d4");
    assert!(v.right);
    assert_eq!(v.reason, "d4 is in the repertoire too");
    let v = answer(&e, "c4");
    assert!(!v.right);
    assert_eq!(v.reason, "c4 is not in the repertoire, which plays e4");
}

/// After 1. e4 d5 2. exd5 Qxd5 3. Nc3 the queen is attacked and must move; in
/// the game Black played 3... Nf6?? and lost it to 4. Nxd5.
const HANGING_QUEEN: &str = "rnb1kbnr/ppp1pppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR b KQkq - 1 3";

fn hanging_queen() -> Exercise {
    let mut e = exercise(Kind::Mistake, HANGING_QUEEN, "d5a5");
    e.played = Some("g8f6".into());
    e.margin_cp = Some(150);
    e
}

#[test]
fn a_mistake_takes_any_move_that_saves_the_queen() {
    let e = hanging_queen();
    for saving in ["Qa5", "Qd8", "Qd6"] {
        let v = answer(&e, saving);
        assert!(v.right, "{saving}: {v:?}");
        assert!(
            v.reason.starts_with(saving)
                && (v.reason.contains("of the best")
                    || v.reason.contains("as good as the best")
                    || v.reason.contains("best move")),
            "{v:?}"
        );
    }
}

#[test]
fn a_mistake_never_takes_the_move_played_nor_one_that_loses_the_queen() {
    let e = hanging_queen();
    let v = answer(&e, "Nf6");
    assert!(!v.right);
    assert_eq!(v.reason, "that is the move played in the game");
    for losing in ["a6", "h6"] {
        let v = answer(&e, losing);
        assert!(!v.right, "{losing}: {v:?}");
    }
}

#[test]
fn a_wrong_answer_says_how_much_it_loses_from_the_movers_view() {
    let mut e = hanging_queen();
    e.played = None;
    let v = answer(&e, "a6");
    assert!(!v.right);
    // "a6 (-8.90) loses 8.20 against the best Qe5+ (-0.70)": Black's view,
    // so losing the queen is a large minus.
    assert!(v.reason.starts_with("a6 (-"), "{v:?}");
    let lost: f64 = v
        .reason
        .split("loses ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(lost > 5.0, "a queen is worth more than 5 pawns: {v:?}");
}

#[test]
fn a_mistake_in_which_mate_was_missed_says_so() {
    // White played Kh2?? where Ra8# mated at once.
    let mut e = exercise(Kind::Mistake, BACK_RANK, "a1a8");
    e.played = Some("g1h2".into());
    let v = answer(&e, "Rb8");
    assert!(v.right, "{v:?}");
    let v = answer(&e, "Rc1");
    assert!(!v.right);
    assert!(v.reason.contains("misses the mate of the best"), "{v:?}");
}

#[test]
fn hints_name_the_piece_then_the_square() {
    let e = hanging_queen();
    assert_eq!(
        hint(&e, 1).unwrap().as_deref(),
        Some("move the queen on d5")
    );
    assert_eq!(
        hint(&e, 2).unwrap().as_deref(),
        Some("the queen on d5 goes to a5")
    );
    assert_eq!(hint(&e, 3).unwrap(), None);
}

#[test]
fn an_illegal_answer_or_a_broken_exercise_is_an_error() {
    let e = hanging_queen();
    let pos = position(&e).unwrap();
    let white_move = parse_move(&Chess::default(), "e4").unwrap();
    assert!(!pos.legal_moves().contains(&white_move));
    assert!(matches!(check(&e, white_move), Err(CheckError::Illegal(_))));
    let broken = exercise(Kind::Puzzle, "not a fen", "e2e4");
    assert!(matches!(
        check(&broken, white_move),
        Err(CheckError::Position(_))
    ));
}

/// Scholar's mate threatened: 3... Nf6?? loses to Qxf7#; g6 holds. 3... d5
/// stops the mate too but gives away a pawn in a level position: more than
/// the review's mistake threshold in winning chance, so it is no answer
/// however wide the mistake's margin.
#[test]
fn a_move_the_review_would_call_a_mistake_is_no_answer() {
    let mut e = exercise(
        Kind::Mistake,
        "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3",
        "g7g6",
    );
    e.played = Some("g8f6".into());
    e.margin_cp = Some(150);
    let v = answer(&e, "d5");
    assert!(!v.right, "{v:?}");
    let v = answer(&e, "g6");
    assert!(v.right, "{v:?}");
}
