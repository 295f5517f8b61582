use super::*;
use shakmaty::uci::UciMove;

fn moves(position: &Chess, line: &str) -> Vec<Move> {
    let mut board = position.clone();
    line.split_whitespace()
        .map(|text| {
            let m = text.parse::<UciMove>().unwrap().to_move(&board).unwrap();
            board.play_unchecked(m);
            m
        })
        .collect()
}

#[test]
fn a_chain_is_kept_under_its_first_move_and_replaced_by_the_next() {
    let start = Chess::default();
    let mut chains = MoveChains::default();
    let first = moves(&start, "e2e4 e7e5 g1f3");
    assert!(chains.store(Color::White, &first));
    assert_eq!(chains.get(Color::White, first[0]), Some(&first[..]));
    // Black's e7e5 is another key: nothing is stored under it.
    assert_eq!(chains.get(Color::Black, first[1]), None);
    let second = moves(&start, "e2e4 c7c5");
    chains.store(Color::White, &second);
    assert_eq!(chains.len(), 1);
    assert_eq!(chains.get(Color::White, first[0]), Some(&second[..]));
    assert!(!chains.store(Color::White, &[]));
}

#[test]
fn a_long_line_is_cut_to_the_longest_chain_kept() {
    let start = Chess::default();
    let line = moves(&start, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6");
    let mut chains = MoveChains::default();
    chains.store(Color::White, &line);
    assert_eq!(
        chains.get(Color::White, line[0]).map(<[Move]>::len),
        Some(MAX_CHAIN)
    );
}

#[test]
fn a_chain_is_played_out_again_and_an_illegal_one_is_invalid() {
    let start = Chess::default();
    let line = moves(&start, "e2e4 e7e5 g1f3");
    let mut chains = MoveChains::default();
    chains.store(Color::White, &line);
    assert_eq!(chains.resolve(&start, line[0]), Chain::Valid(line.clone()));
    let mut blocked = start.clone();
    for m in moves(&start, "d2d3 e7e6 d3d4 e6e5") {
        blocked.play_unchecked(m);
    }
    // White's e2e4 is legal, but Black's e-pawn has left e7: e7e5 is not.
    assert_eq!(chains.resolve(&blocked, line[0]), Chain::Invalid);
    let nf3 = moves(&start, "g1f3")[0];
    assert_eq!(chains.resolve(&start, nf3), Chain::Absent);
    chains.remove(Color::White, line[0]);
    assert!(chains.is_empty());
}
