//! Tests of the game tree: SAN text, kept lines.

use super::*;
use shakmaty::san::SanPlus;

/// `san_text` writes what shakmaty writes, for every legal move of
/// positions with castling both ways, promotions with and without
/// capture, ambiguous knights and rooks, en passant, check and mate.
#[test]
fn san_text_is_shakmatys_san() {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r1n1k2r/1P4P1/8/8/8/8/1p4p1/R1N1K2R w KQkq - 0 1",
        "r1n1k2r/1P4P1/8/8/8/8/1p4p1/R1N1K2R b KQkq - 0 1",
        "N6N/8/8/3k4/8/8/8/4K2N w - - 0 1",
        "R6R/8/8/2k5/8/8/8/4K2R w K - 0 1",
        "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    ];
    let mut checked = 0;
    for fen in fens {
        let position = crate::game::fen::parse_fen(fen).unwrap();
        for m in position.legal_moves() {
            let plus = SanPlus::from_move(position.clone(), m);
            assert_eq!(san_text(plus.san, plus.suffix), plus.to_string(), "{fen}");
            checked += 1;
        }
    }
    assert!(checked > 150, "{checked}");
    assert_eq!(san_text(San::Null, None), "--");
}

fn uci_line(position: &Chess, uci: &[&str]) -> Vec<Move> {
    let mut position = position.clone();
    let mut out = Vec::new();
    for text in uci {
        let m = crate::game::notation::parse_uci(&position, text).unwrap();
        position.play_unchecked(m);
        out.push(m);
    }
    out
}

fn tree_of(uci: &[&str]) -> GameTree {
    let mut tree = GameTree::new(Chess::default());
    let moves = uci_line(&Chess::default(), uci);
    let mut at = 0;
    for m in moves {
        at = tree.add_move(at, m);
    }
    tree.result = "1-0".into();
    tree
}

#[test]
fn a_kept_line_never_extends_the_line_it_follows() {
    let mut tree = tree_of(&["e2e4", "e7e5", "g1f3"]);
    let main = tree.mainline();
    // From the first move, a line that follows the game to its end and
    // goes on: the game keeps its three moves.
    let line = uci_line(&tree.position(main[0]), &["e7e5", "g1f3", "b8c6", "f1b5"]);
    let kept = tree.keep_line(main[0], &line);
    assert_eq!(tree.mainline(), main, "{}", tree.to_pgn());
    assert!(kept.repeated);
    assert_eq!(kept.added, 3);
    assert_eq!(
        tree.to_pgn().lines().last().unwrap(),
        "1. e4 e5 2. Nf3 ( 2. Nf3 Nc6 3. Bb5 ) 1-0"
    );
    // Kept again: it is there.
    assert_eq!(tree.keep_line(main[0], &line).first_new, None);
    // A line that leaves the game before its end is a plain variation.
    let line = uci_line(&Chess::default(), &["e2e4", "c7c5", "g1f3"]);
    let kept = tree.keep_line(0, &line);
    assert!(!kept.repeated);
    assert_eq!(kept.added, 2);
    assert_eq!(tree.mainline(), main);
    assert!(tree.to_pgn().contains("1. e4 e5 ( 1... c5 2. Nf3 ) 2. Nf3"));
    // A line with an illegal move is kept up to it.
    let mut bad = uci_line(&Chess::default(), &["d2d4"]);
    bad.push(line[0]);
    assert_eq!(tree.keep_line(0, &bad).added, 1);
    // An empty game takes the line as its moves.
    let mut empty = GameTree::new(Chess::default());
    let kept = empty.keep_line(0, &line);
    assert_eq!(kept.added, 3);
    assert_eq!(empty.mainline().len(), 3);
}
