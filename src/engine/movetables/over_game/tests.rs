//! Tests of `over_game.rs`.

use std::cell::Cell;

use shakmaty::uci::UciMove;

use super::*;

/// The start and the position after each move of `moves` (UCI).
fn line(moves: &[&str]) -> Vec<Chess> {
    let mut position = Chess::default();
    let mut line = vec![position.clone()];
    for uci in moves {
        let m = uci.parse::<UciMove>().unwrap().to_move(&position).unwrap();
        position.play_unchecked(m);
        line.push(position.clone());
    }
    line
}

/// Molinari - Bordais 1979: ten plies, the last a mate.
const MOLINARI: [&str; 10] = [
    "e2e4", "c7c5", "c2c4", "b8c6", "g1e2", "g8f6", "b1c3", "c6b4", "g2g3", "b4d3",
];

fn walk(
    line: &[Chess],
    depth: u32,
    stop: &dyn Fn() -> bool,
) -> (Vec<(usize, u64, TableWeights)>, Walked) {
    let mut tt = TranspositionTable::new(1);
    let mut heuristics = Box::<Heuristics>::default();
    let mut seen = Vec::new();
    let walked = learn_over_game(
        line,
        depth,
        SearchOptions::default(),
        (&mut tt, &mut heuristics),
        stop,
        &mut |ply, result, heuristics| seen.push((ply, result.nodes, heuristics.maps())),
    );
    (seen, walked)
}

use crate::engine::movetables::TableWeights;

#[test]
fn every_position_a_move_was_played_from_is_searched_in_order() {
    let game = line(&MOLINARI);
    let (seen, walked) = walk(&game, 2, &|| false);
    let plies: Vec<usize> = seen.iter().map(|s| s.0).collect();
    assert_eq!(plies, (0..10).collect::<Vec<_>>());
    assert_eq!(
        walked,
        Walked {
            searched: 10,
            stopped: false
        }
    );
}

#[test]
fn the_walk_is_a_game_searched_move_by_move_with_its_memory_kept() {
    // By hand: one table and one set of heuristics for the whole game, the
    // repetition history the positions before, as a playing engine has.
    let game = line(&MOLINARI);
    let mut tt = TranspositionTable::new(1);
    let mut heuristics = Box::<Heuristics>::default();
    let mut keys = Vec::new();
    let mut by_hand = Vec::new();
    for position in &game[..game.len() - 1] {
        let result = search_kept(
            position,
            &keys,
            &Limits::depth(3),
            SearchOptions::default(),
            (&mut tt, &mut heuristics),
            &|| false,
            &mut NoTrace,
        );
        by_hand.push((result.nodes, heuristics.maps()));
        keys.push(position_key(position));
    }
    let (seen, _) = walk(&game, 3, &|| false);
    assert_eq!(seen.len(), by_hand.len());
    for ((ply, nodes, maps), (hand_nodes, hand_maps)) in seen.iter().zip(&by_hand) {
        assert_eq!(nodes, hand_nodes, "nodes at ply {ply}");
        assert!(maps == hand_maps, "tables at ply {ply}");
    }
    // Kept, not restarted: the last tables hold more than one search's.
    let last = &seen[seen.len() - 1].2;
    let (gains, _) = last.gains_and_losses();
    let (search_gains, _) = last
        .scope(crate::engine::movetables::Scope::Search)
        .gains_and_losses();
    assert!(gains > search_gains, "{gains} {search_gains}");
}

#[test]
fn a_position_with_no_move_is_skipped_and_the_last_is_never_searched() {
    // Fool's mate in the middle of the line (an edited line can hold one),
    // then the start twice: only the first start is searched.
    let mate = line(&["f2f3", "e7e5", "g2g4", "d8h4"]).pop().unwrap();
    let game = vec![mate, Chess::default(), Chess::default()];
    let (seen, walked) = walk(&game, 2, &|| false);
    assert_eq!(seen.iter().map(|s| s.0).collect::<Vec<_>>(), vec![1]);
    assert_eq!(walked.searched, 1);
}

#[test]
fn a_stop_ends_the_walk_between_searches() {
    let game = line(&MOLINARI);
    let reported = Cell::new(0usize);
    let mut tt = TranspositionTable::new(1);
    let mut heuristics = Box::<Heuristics>::default();
    let walked = learn_over_game(
        &game,
        2,
        SearchOptions::default(),
        (&mut tt, &mut heuristics),
        &|| reported.get() >= 3,
        &mut |_, _, _| reported.set(reported.get() + 1),
    );
    assert_eq!(reported.get(), 3);
    assert_eq!(
        walked,
        Walked {
            searched: 3,
            stopped: true
        }
    );
}

#[test]
fn a_search_cut_short_by_a_stop_is_not_reported() {
    let game = line(&MOLINARI);
    // The whole search of the start to depth 5 polls the stop (once
    // every 1,024 nodes)...
    let (full, _) = walk(&game[..2], 5, &|| false);
    assert!(full[0].1 > 1024, "{}", full[0].1);
    // ...so a stop that says yes at its second question (the walk asks
    // once before the search) ends the first search half way.
    let asked = Cell::new(0u32);
    let stop = || {
        asked.set(asked.get() + 1);
        asked.get() >= 2
    };
    let (seen, walked) = walk(&game, 5, &stop);
    assert!(
        seen.is_empty(),
        "{:?}",
        seen.iter().map(|s| s.0).collect::<Vec<_>>()
    );
    assert_eq!(
        walked,
        Walked {
            searched: 0,
            stopped: true
        }
    );
}
