//! Every mate-in-1 and mate-in-2 of the shared suites is found with the
//! right mate score at depth <= 6, and the move found really mates: an
//! independent brute-force solver (no evaluation, no pruning) checks it.
#![allow(clippy::unwrap_used)]

mod common;

use kibitz::engine::{Limits, Score, SearchOptions};
use kibitz::game::fen::parse_fen;
use shakmaty::{Chess, Move, Position};

fn play(position: &Chess, m: Move) -> Chess {
    let mut child = position.clone();
    child.play_unchecked(m);
    child
}

/// Can the side to move force checkmate within `moves` moves?
fn forces_mate(position: &Chess, moves: u32) -> bool {
    moves > 0
        && position.legal_moves().iter().any(|&m| {
            let child = play(position, m);
            child.is_checkmate()
                || (moves > 1
                    && !child.is_stalemate()
                    && child
                        .legal_moves()
                        .iter()
                        .all(|&reply| forces_mate(&play(&child, reply), moves - 1)))
        })
}

/// After `m`, does every defence still lose within `moves - 1` more moves?
fn move_mates_within(position: &Chess, m: Move, moves: u32) -> bool {
    let child = play(position, m);
    child.is_checkmate()
        || (moves > 1
            && child
                .legal_moves()
                .iter()
                .all(|&reply| forces_mate(&play(&child, reply), moves - 1)))
}

fn check_suite(file: &str, n: i32, max_depth: u32) {
    let text = common::read_testdata(file);
    let mut solved = 0;
    for fen in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let position = parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        // The puzzle's own claim, checked independently of the engine.
        assert!(
            forces_mate(&position, n as u32),
            "suite position is not a mate in {n}: {fen}"
        );
        let shorter = (1..n).find(|&k| forces_mate(&position, k as u32));
        let expected = shorter.unwrap_or(n);
        let mut found = None;
        for depth in 1..=max_depth {
            let result = common::search(&position, &Limits::depth(depth), SearchOptions::default());
            if result.score == Score::Mate(expected) {
                found = Some(result);
                break;
            }
        }
        let result = found
            .unwrap_or_else(|| panic!("mate in {expected} not found by depth {max_depth}: {fen}"));
        let best = result.best_move.unwrap();
        assert!(
            move_mates_within(&position, best, expected as u32),
            "{fen}: {best:?} scored mate in {expected} but does not force it"
        );
        solved += 1;
    }
    assert!(solved > 0, "{file} is empty");
}

#[test]
fn solves_every_mate_in_one() {
    check_suite("epd/mate1.fen", 1, 6);
}

#[test]
fn solves_every_mate_in_two() {
    check_suite("epd/mate2.fen", 2, 6);
}

#[test]
fn mated_side_sees_its_fate() {
    // Fool's mate delivered: White to move has no move and is mated.
    let position =
        parse_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3").unwrap();
    let result = common::search(&position, &Limits::depth(3), SearchOptions::default());
    assert_eq!(result.best_move, None);
    // Black to move mates in one; White, one ply later, is mated in one.
    let before =
        parse_fen("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2").unwrap();
    let result = common::search(&before, &Limits::depth(3), SearchOptions::default());
    assert_eq!(result.score, Score::Mate(1));
}

#[test]
fn solves_every_mate_in_three() {
    // Three of these (1.Bh8, 1.Rd6, 1.Rxc5) need a quiet first move against
    // a side short of moves: null-move pruning on a mate-range window once
    // hid them behind a mate in four.
    // The selective search reduces quiet first moves, so a quiet key move
    // (1.a5 in one of them) may need a nominal depth well beyond 5 plies.
    check_suite("epd/mate3.fen", 3, 20);
}

/// Under a clock the search stops early once a mate is proven; it must not
/// stop on a longer mate when a shorter one exists.
#[test]
fn a_timed_search_does_not_settle_for_a_longer_mate() {
    use std::time::Duration;
    for fen in [
        "4R3/1k6/bp6/1p1P4/1K6/8/1B6/3Q4 w - - 0 1",
        "8/4p3/7R/n7/rp6/kp5Q/8/1K6 w - - 0 1",
        "K1R5/1P1r1n2/1pR3N1/2p1p2r/1BpkBp1N/1bp2Q2/2P2P2/1n2b3 w - - 0 1",
    ] {
        let position = parse_fen(fen).unwrap();
        let limits = Limits {
            movetime: Some(Duration::from_secs(20)),
            ..Limits::default()
        };
        let result = common::search(&position, &limits, SearchOptions::default());
        assert_eq!(result.score, Score::Mate(3), "{fen}");
        let best = result.best_move.unwrap();
        assert!(move_mates_within(&position, best, 3), "{fen}: {best:?}");
    }
}

/// Mates in 2 whose key move is quiet and leaves the defender, far ahead in
/// material, in zugzwang: every move it has allows mate. Passing would
/// hold, so the defender's null move cut the key move off at every depth
/// (both scored 0.00 even at depth 40) until null moves were verified.
#[test]
fn finds_mates_in_two_behind_a_zugzwang() {
    for (fen, key) in [
        ("7Q/8/P7/5N2/8/4ppp1/3prqp1/3Kbbk1 w - - 0 1", "f5h4"),
        ("8/8/8/1B1R3p/5p1P/2p2p2/1prb1P2/1Rnk1K2 w - - 0 1", "b5d3"),
    ] {
        let position = parse_fen(fen).unwrap();
        assert!(forces_mate(&position, 2), "{fen}");
        let found = (1..=20).find_map(|depth| {
            let result = common::search(&position, &Limits::depth(depth), SearchOptions::default());
            (result.score == Score::Mate(2)).then_some(result)
        });
        let result = found.unwrap_or_else(|| panic!("mate in 2 not found by depth 20: {fen}"));
        let best = result.best_move.unwrap();
        assert_eq!(
            best.to_uci(shakmaty::CastlingMode::Standard).to_string(),
            key,
            "{fen}"
        );
        assert!(move_mates_within(&position, best, 2), "{fen}: {best:?}");
    }
}
