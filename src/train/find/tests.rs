#![allow(clippy::unwrap_used)]
use super::*;
use crate::game::fen::parse_fen;
use crate::game::notation::parse_move;

/// A fixed depth: the same answer on any machine, in milliseconds.
fn options() -> FindOptions {
    FindOptions {
        movetime: Duration::from_millis(100),
        depth: Some(9),
        hash_mb: 16,
    }
}

/// The one game of `pgn`, read as a file's.
fn game(pgn: &str) -> GameTree {
    let mut trees = Vec::new();
    crate::game::import::read_games(pgn.as_bytes(), &mut |tree| {
        trees.push(tree);
        true
    })
    .unwrap();
    assert_eq!(trees.len(), 1);
    trees.remove(0)
}

/// The puzzles found in a game that starts at `fen` with `moves`.
fn puzzles(fen: &str, moves: &str) -> Vec<Puzzle> {
    let pgn = format!("[FEN \"{fen}\"]\n[SetUp \"1\"]\n\n{moves} *\n");
    let tree = game(&pgn);
    Finder::new(&options()).game(1, &tree, &|| false).unwrap()
}

/// The line `sans` from `fen` as moves.
fn line(fen: &str, sans: &[&str]) -> (Chess, Vec<Move>) {
    let start = parse_fen(fen).unwrap();
    let mut position = start.clone();
    let mut moves = Vec::new();
    for san in sans {
        let m = parse_move(&position, san).unwrap();
        position.play_unchecked(m);
        moves.push(m);
    }
    (start, moves)
}

/// Black's queen leaves the e-file (level before: Qe6 blocks it), and
/// White mates on the back rank: 2. Qe8+ Rxe8 3. Rxe8#, the only mate;
/// anything else is about level.
const BACK_RANK: &str = "3r2k1/5ppp/4q3/8/8/7P/4QPP1/4R1K1 b - - 0 1";

#[test]
fn a_blunder_that_allows_mate_in_two_makes_a_mate_puzzle() {
    let found = puzzles(BACK_RANK, "1... Qb6");
    assert_eq!(found.len(), 1, "{found:?}");
    let puzzle = &found[0];
    assert_eq!(puzzle.solution, ["e2e8", "d8e8", "e1e8"]);
    assert_eq!(puzzle.solution_san, ["Qe8+", "Rxe8", "Rxe8#"]);
    assert_eq!(puzzle.theme.as_deref(), Some("mate in 2, endgame"));
    assert_eq!((puzzle.game, puzzle.ply), (1, 1));
    assert_eq!(puzzle.after, "1... Qb6");
    assert_eq!(puzzle.fen, "3r2k1/5ppp/1q6/8/8/7P/4QPP1/4R1K1 w - - 1 2");
}

/// Black's queen goes to d5, where White's knight takes it and nothing
/// takes back: the one winning move; any other lets the queen go.
#[test]
fn a_hanging_queen_is_a_one_move_puzzle() {
    let found = puzzles(
        "r1bq1rk1/ppp2ppp/2n5/8/8/2N5/PPP1QPPP/R1B2RK1 b - - 0 1",
        "1... Qd5",
    );
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].solution, ["c3d5"]);
    assert_eq!(found[0].solution_san, ["Nxd5"]);
    assert_eq!(found[0].theme.as_deref(), Some("hanging piece"));
}

/// The same queen blunder with White's queen on d1: the knight and the
/// queen both take it, two winning moves, so no puzzle (though the
/// position is a candidate: the mistake is there).
#[test]
fn a_position_with_two_winning_moves_is_no_puzzle() {
    let fen = "r1bq1rk1/ppp2ppp/2n5/8/8/2N5/PPP2PPP/R1BQ1RK1 b - - 0 1";
    assert!(puzzles(fen, "1... Qd5").is_empty());
    let after = parse_fen("r1b2rk1/ppp2ppp/2n5/3q4/8/2N5/PPP2PPP/R1BQ1RK1 w - - 1 2").unwrap();
    let mut finder = Finder::new(&options());
    assert!(is_candidate(
        &after,
        Score::Centipawns(0),
        Score::Centipawns(600)
    ));
    assert_eq!(finder.solve(&after, &[], &|| false), Some(None));
    // The same search finds the one-winner version's answer, so the
    // rejection is the second winner's doing.
    let alone = parse_fen("r1b2rk1/ppp2ppp/2n5/3q4/8/2N5/PPP1QPPP/R1B2RK1 w - - 1 2").unwrap();
    let solved = finder.solve(&alone, &[], &|| false).unwrap().unwrap();
    assert_eq!(san_line(&alone, &solved), ["Nxd5"]);
}

#[test]
fn a_quiet_game_has_no_puzzle() {
    let tree = game("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n");
    let found = Finder::new(&options()).game(1, &tree, &|| false).unwrap();
    assert!(found.is_empty(), "{found:?}");
}

/// Any mating move solves a mate in one: two of them do not make it
/// ambiguous, as long as every move that does not mate is clearly worse.
#[test]
fn a_mate_in_one_with_two_mating_moves_is_kept() {
    // Ra8# and Rb8# both mate (the king is boxed in by its pawns, the
    // queen cannot cover the back rank); any other move leaves two rooks
    // against a queen, about level.
    let start = parse_fen("6k1/5ppp/8/7q/8/8/RR3PPP/6K1 w - - 0 1").unwrap();
    let mut finder = Finder::new(&options());
    let solved = finder.solve(&start, &[], &|| false).unwrap();
    let line = solved.expect("a mate in one");
    assert_eq!(line.len(), 1);
    let mut after = start.clone();
    after.play_unchecked(line[0]);
    assert!(after.is_checkmate());
}

#[test]
fn a_stop_gives_nothing() {
    let tree = game("1. e4 e5 2. Nf3 Nc6 *\n");
    assert_eq!(Finder::new(&options()).game(1, &tree, &|| true), None);
}

#[test]
fn themes_name_a_fork_that_wins_the_rook() {
    let (start, moves) = line("r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", &["Nc7+", "Kd7", "Nxa8"]);
    assert_eq!(themes::themes(&start, &moves), ["fork", "endgame"]);
    // The same knight check that wins nothing is no fork.
    let (start, moves) = line("4k3/8/8/1N6/8/8/r7/4K3 w - - 0 1", &["Nc7+"]);
    assert!(!themes::themes(&start, &moves).contains(&"fork".to_string()));
}

#[test]
fn themes_name_a_promotion_and_a_defended_capture_is_not_hanging() {
    let (start, moves) = line("8/P6k/8/8/8/8/8/K7 w - - 0 1", &["a8=Q"]);
    assert_eq!(themes::themes(&start, &moves), ["promotion", "endgame"]);
    // Bxf6 takes a knight the g7 pawn defends: not a hanging piece.
    let fen = "r1bqkb1r/pppppp1p/5np1/8/8/1P6/PBPPPPPP/RN1QKBNR w KQkq - 0 1";
    let (start, moves) = line(fen, &["Bxf6"]);
    assert!(themes::themes(&start, &moves).is_empty());
}

#[test]
fn a_puzzle_line_reads_back_checked() {
    let (start, moves) = line(BACK_RANK, &["Qb6"]);
    let mut after = start.clone();
    after.play_unchecked(moves[0]);
    let (_, solution) = line(&puzzle::fen_of(&after), &["Qe8+", "Rxe8", "Rxe8#"]);
    let puzzle = puzzle_of(&after, &solution, 3, 41, "21... Qb6".into());
    let text = puzzle.to_json_line();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let keys: Vec<&str> = value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    // serde_json's map keeps its keys sorted.
    assert_eq!(
        keys,
        ["fen", "game", "ply", "solution", "solution_san", "theme"]
    );
    let back = Puzzle::from_json_line(&text).unwrap();
    assert_eq!(back.solution, puzzle.solution);
    assert_eq!((back.game, back.ply), (3, 41));
    let exercise = back.to_exercise("club.jsonl");
    assert_eq!(exercise.kind, crate::train::Kind::Puzzle);
    assert_eq!(exercise.solution_san, ["Qe8+", "Rxe8", "Rxe8#"]);
    assert_eq!(exercise.theme.as_deref(), Some("mate in 2, endgame"));
    assert_eq!(exercise.source, "game 3, ply 41 of club.jsonl");
}

#[test]
fn a_puzzle_line_that_lies_is_refused() {
    let fen = "3r2k1/5ppp/1q6/8/8/7P/4QPP1/4R1K1 w - - 1 2";
    let with = |solution: &str, san: &str| {
        format!(
            r#"{{"fen":"{fen}","solution":{solution},"solution_san":{san},"theme":null,"game":1,"ply":1}}"#
        )
    };
    let even = with(r#"["e2e8","d8e8"]"#, r#"["Qe8+","Rxe8"]"#);
    assert_eq!(Puzzle::from_json_line(&even), Err(PuzzleError::Even(2)));
    let illegal = with(r#"["e2e9"]"#, r#"["Qe8+"]"#);
    assert!(matches!(
        Puzzle::from_json_line(&illegal),
        Err(PuzzleError::Illegal { index: 1, .. })
    ));
    let wrong_san = with(r#"["e2e8"]"#, r#"["Qe7"]"#);
    assert!(matches!(
        Puzzle::from_json_line(&wrong_san),
        Err(PuzzleError::SanMismatch { index: 1, .. })
    ));
    assert!(Puzzle::from_json_line(&with("[]", "[]")) == Err(PuzzleError::Empty));
    assert!(matches!(
        Puzzle::from_json_line("{}"),
        Err(PuzzleError::Json(_))
    ));
    // Check marks may be missing: the moves are what counts.
    let plain = with(r#"["e2e8","d8e8","e1e8"]"#, r#"["Qe8","Rxe8","Rxe8"]"#);
    let read = Puzzle::from_json_line(&plain).unwrap();
    assert_eq!(read.solution_san, ["Qe8+", "Rxe8", "Rxe8#"]);
}
