use super::*;
use shakmaty::CastlingMode;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;

/// The staged picker generates captures, killers and quiet moves
/// separately; together they must still be every legal move, once.
/// Walk a few hundred positions from the perft suite (promotions, en
/// passant, castling, checks), with killers and a counter-move taken
/// from the position before (so sometimes legal here, sometimes not,
/// sometimes a capture now) and the hash move one of the legal moves.
#[test]
fn staged_picker_hands_out_exactly_the_legal_moves() {
    let text = include_str!("../../../tests/data/epd/cpw-perft-results.epd");
    let mut walked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fen = line.split(';').next().unwrap().trim();
        let mut pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let mut heuristics = Heuristics::default();
        let mut previous: Option<Move> = None;
        for step in 0..60usize {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let hash = (step % 3 != 0).then(|| legal[step % legal.len()]);
            let mut picker = MovePicker::new(
                hash,
                pos.is_check(),
                true,
                &heuristics,
                0,
                TableChoice {
                    previous,
                    ..TableChoice::default()
                },
            );
            let mut seen = Vec::new();
            while let Some((m, _)) = picker.next(&pos, &heuristics) {
                seen.push(format!("{m:?}"));
            }
            let mut expected: Vec<String> = legal.iter().map(|m| format!("{m:?}")).collect();
            seen.sort();
            expected.sort();
            assert_eq!(
                seen,
                expected,
                "{}",
                shakmaty::fen::Epd::from_position(&pos, shakmaty::EnPassantMode::Legal)
            );
            walked += 1;
            // Killers and a counter from this position, for the next.
            let quiets: Vec<Move> = legal.iter().copied().filter(|&m| is_quiet(m)).collect();
            if let Some(&k) = quiets.get(step % quiets.len().max(1)) {
                heuristics.record_cutoff(pos.turn(), 0, 3, k, &[k], previous);
                heuristics.record_cutoff(!pos.turn(), 0, 3, k, &[k], previous);
            }
            let m = legal[(step * 7 + 3) % legal.len()];
            previous = Some(m);
            pos.play_unchecked(m);
        }
    }
    assert!(walked > 200, "{walked}");
}

#[test]
fn picker_hands_out_every_legal_move_once_hash_move_first() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let pos: Chess = fen
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let heuristics = Heuristics::default();
    let hash = "e2a6".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
    let mut picker = MovePicker::new(
        Some(hash),
        pos.is_check(),
        true,
        &heuristics,
        0,
        TableChoice::default(),
    );
    let mut seen = Vec::new();
    while let Some((m, reason)) = picker.next(&pos, &heuristics) {
        if seen.is_empty() {
            assert_eq!((m, reason), (hash, OrderReason::HashMove));
        }
        seen.push(m);
    }
    assert_eq!(seen.len(), pos.legal_moves().len());
    seen.sort_by_key(|m| format!("{m:?}"));
    seen.dedup();
    assert_eq!(seen.len(), 48);
}

/// Two quiet moves with the same history: the one that refuted the
/// opponent's last move before is tried first, and which one that is
/// follows the last move.
#[test]
fn continuation_history_orders_the_answer_to_the_last_move_first() {
    let pos = Chess::default();
    let mv = |text: &str, pos: &Chess| text.parse::<UciMove>().unwrap().to_move(pos).unwrap();
    let (nf3, nc3) = (mv("g1f3", &pos), mv("b1c3", &pos));
    // Black's last moves, as seen from a position where they are legal.
    let black: Chess = Chess::default().play(nf3).unwrap();
    let (e5, d5) = (mv("e7e5", &black), mv("d7d5", &black));
    let mut heuristics = Heuristics::default();
    // Nf3 refuted ...e5 and Nc3 refuted ...d5, as often and as deep:
    // their plain histories stay level.
    for _ in 0..4 {
        heuristics.record_continuation(Color::White, 6, nf3, &[nc3, nf3], e5);
        heuristics.record_continuation(Color::White, 6, nc3, &[nf3, nc3], d5);
    }
    assert_eq!(
        heuristics.history(Color::White, nf3),
        heuristics.history(Color::White, nc3)
    );
    assert!(heuristics.continuation(Color::White, Some(e5), nf3) > 0);
    assert!(heuristics.continuation(Color::White, Some(e5), nc3) < 0);
    assert_eq!(heuristics.continuation(Color::White, None, nf3), 0);
    let first_of = |previous: Move, weight: i32| {
        let mut picker = MovePicker::new(
            None,
            false,
            true,
            &heuristics,
            0,
            TableChoice {
                previous: Some(previous),
                continuation: weight,
                ..TableChoice::default()
            },
        );
        let mut order = Vec::new();
        while let Some((m, _)) = picker.next(&pos, &heuristics) {
            order.push(m);
        }
        let at = |m: Move| order.iter().position(|&x| x == m).unwrap();
        if at(nf3) < at(nc3) { nf3 } else { nc3 }
    };
    assert_eq!(first_of(e5, 8), nf3);
    assert_eq!(first_of(d5, 8), nc3);
    // Switched off, the last move makes no difference.
    assert_eq!(first_of(e5, 0), first_of(d5, 0));
}
