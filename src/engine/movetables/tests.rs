//! Tests of `movetables.rs`.

use super::*;
use shakmaty::Role;
use shakmaty::uci::UciMove;

fn moves(position: &Chess, line: &[&str]) -> Vec<Move> {
    let mut position = position.clone();
    line.iter()
        .map(|uci| {
            let m = uci.parse::<UciMove>().unwrap().to_move(&position).unwrap();
            position.play_unchecked(m);
            m
        })
        .collect()
}

fn at(name: &str) -> Square {
    name.parse().unwrap()
}

#[test]
fn a_cutoff_raises_its_sequence_and_lowers_the_other_moves() {
    let start = Chess::default();
    let line = moves(&start, &["e2e4", "e7e5", "g1f3"]);
    let others: Vec<Move> = moves(&start, &["d2d4"])
        .into_iter()
        .chain(moves(&start, &["e2e3"]))
        .collect();
    let mut tables = MoveTables::default();
    tables.record(Color::White, &line, &others);
    let w = tables.weights();
    let wp = TableId::new(Color::White, Role::Pawn);
    let bp = TableId::new(Color::Black, Role::Pawn);
    let wn = TableId::new(Color::White, Role::Knight);
    // e2 gained one for e2-e4 and lost one for e2-e3.
    assert_eq!(w.weight(wp, at("e2")), 0);
    assert_eq!(w.weight(wp, at("e4")), 1);
    assert_eq!(w.weight(wp, at("e3")), -1);
    assert_eq!(w.weight(wp, at("d2")), -1);
    assert_eq!(w.weight(wp, at("d4")), -1);
    assert_eq!(w.weight(bp, at("e7")), 1);
    assert_eq!(w.weight(bp, at("e5")), 1);
    assert_eq!(w.weight(wn, at("g1")), 1);
    assert_eq!(w.weight(wn, at("f3")), 1);
    // Nothing else moved (e2 is back at 0 but was considered: +1 -1).
    let touched: usize = TableId::ALL
        .iter()
        .map(|&id| w.table(id).iter().filter(|&&x| x != 0).count())
        .sum();
    assert_eq!(touched, 8);
    // The chain: white pawn e2 -> black pawn e7 -> white knight g1.
    assert_eq!(tables.links_from(wp, at("e2")), vec![(bp, at("e7"), 1)]);
    assert_eq!(tables.links_from(bp, at("e7")), vec![(wn, at("g1"), 1)]);
    assert!(tables.links_from(wn, at("g1")).is_empty());
}

#[test]
fn the_threshold_gates_table_moves_and_links_go_first() {
    let start = Chess::default();
    let mut tables = MoveTables::default();
    for _ in 0..3 {
        tables.record(Color::White, &moves(&start, &["d2d4"]), &[]);
    }
    tables.record(Color::White, &moves(&start, &["e2e4", "e7e5"]), &[]);
    // d2-d4 scores 6, e2-e4 scores 2.
    let d4 = moves(&start, &["d2d4"])[0];
    let e4 = moves(&start, &["e2e4"])[0];
    assert_eq!(tables.score(Color::White, d4, 0), Some(6));
    assert_eq!(tables.score(Color::White, e4, 0), Some(2));
    assert_eq!(tables.score(Color::White, e4, 2), None);
    // The tables hold squares, not moves: d2-d3 shares d2's weight (3),
    // e2-e3 shares e2's (1).
    let d3 = moves(&start, &["d2d3"])[0];
    let e3 = moves(&start, &["e2e3"])[0];
    assert_eq!(tables.top_moves(&start, None, 8, 0), vec![d4, d3, e4, e3]);
    assert_eq!(tables.top_moves(&start, None, 8, 2), vec![d4, d3]);
    assert_eq!(tables.top_moves(&start, None, 1, 0), vec![d4]);
    assert_eq!(tables.top_moves(&start, None, 1, 10), Vec::<Move>::new());
    // After 1. e4, the link from e2 puts ...e7-e5 first for Black.
    let after = {
        let mut p = start.clone();
        p.play_unchecked(e4);
        p
    };
    let e5 = moves(&after, &["e7e5"])[0];
    assert!(tables.linked(Color::Black, Some(e4), e5));
    assert_eq!(tables.top_moves(&after, Some(e4), 1, 0), vec![e5]);
    // A new game forgets.
    tables.clear();
    assert!(tables.weights().is_empty());
    assert!(
        tables
            .links_from(TableId::new(Color::White, Role::Pawn), at("e2"))
            .is_empty()
    );
}

#[test]
fn a_square_whose_gains_and_losses_cancel_was_still_considered() {
    let start = Chess::default();
    let mut weights = TableWeights::default();
    let nf3 = moves(&start, &["g1f3"]);
    weights.apply_moves(Color::White, &nf3, &[]);
    weights.apply_moves(Color::White, &[], &nf3);
    let wn = TableId::new(Color::White, Role::Knight);
    assert_eq!(weights.weight(wn, at("g1")), 0);
    assert!(weights.considered(wn, at("g1")));
    assert!(weights.considered(wn, at("f3")));
    assert!(!weights.considered(wn, at("b1")));
    assert!(!weights.is_empty());
    assert_eq!(
        weights.considered_by_any(),
        (1 << at("g1").to_usize()) | (1 << at("f3").to_usize())
    );
}

#[test]
fn castling_is_the_kings_move_to_its_castled_square() {
    let position: Chess = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
        .parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap();
    let castle = moves(&position, &["e1g1"]);
    let mut tables = MoveTables::default();
    tables.record(Color::White, &castle, &[]);
    let wk = TableId::new(Color::White, Role::King);
    assert_eq!(tables.weights().weight(wk, at("e1")), 1);
    assert_eq!(tables.weights().weight(wk, at("g1")), 1);
    assert_eq!(tables.weights().weight(wk, at("h1")), 0);
}

#[test]
fn table_names_parse_both_ways() {
    for id in TableId::ALL {
        assert_eq!(TableId::parse(&id.code()), Some(id));
        assert_eq!(TableId::parse(&id.name()), Some(id));
    }
    assert_eq!(
        TableId::parse("WN").map(|t| t.name()),
        Some("white knight".into())
    );
    assert_eq!(TableId::parse("wx"), None);
    assert_eq!(TableId::parse("green knight"), None);
    assert_eq!(TableId::ALL[0].code(), "wk");
    assert_eq!(TableId::ALL[11].code(), "bp");
}

#[test]
fn views_show_touches_the_signed_weight_or_its_gain() {
    // A square gained 3 and lost 978 times: net -975, touched 981.
    assert_eq!(MapView::Touches.value(-975, 981), 981);
    // Greer's importance: the absolute weight.
    assert_eq!(MapView::Importance.value(-975, 981), 975);
    assert_eq!(MapView::Net.value(-975, 981), -975);
    assert_eq!(MapView::Best.value(-975, 981), 0);
    assert_eq!(MapView::Best.value(12, 12), 12);
    assert_eq!(MapView::Touches.next(), MapView::Importance);
    assert_eq!(MapView::Importance.next(), MapView::Net);
    assert_eq!(MapView::Best.next(), MapView::Touches);
    assert_eq!(MapView::Importance.title(), "importance (Greer's)");
}

/// A cancelled square keeps its touches; the search scope starts empty
/// at each search while the game's goes on.
#[test]
fn touches_count_gains_and_losses_and_the_search_scope_restarts() {
    let start = Chess::default();
    let e4 = moves(&start, &["e2e4"]);
    let e3 = moves(&start, &["e2e3"]);
    let mut tables = MoveTables::default();
    tables.record(Color::White, &e4, &e3);
    let wp = TableId::new(Color::White, Role::Pawn);
    let w = tables.weights();
    assert_eq!(w.weight(wp, at("e2")), 0);
    assert_eq!(w.touches(wp)[at("e2").to_usize()], 2);
    assert!(w.considered(wp, at("e2")));
    assert_eq!(w.scope(Scope::Search).touches(wp)[at("e2").to_usize()], 2);
    tables.new_search();
    tables.record(Color::White, &e4, &[]);
    let w = tables.weights();
    assert_eq!(w.scope(Scope::Game).weight(wp, at("e4")), 2);
    assert_eq!(w.scope(Scope::Search).weight(wp, at("e4")), 1);
    assert_eq!(w.scope(Scope::Search).weight(wp, at("e3")), 0);
    assert!(!w.scope(Scope::Search).considered(wp, at("e3")));
}

#[test]
fn links_come_out_strongest_first_in_words() {
    let start = Chess::default();
    let mut tables = MoveTables::default();
    for _ in 0..3 {
        tables.record(Color::White, &moves(&start, &["e2e4", "e7e5", "g1f3"]), &[]);
    }
    tables.record(Color::White, &moves(&start, &["d2d4", "d7d5"]), &[]);
    let snapshot = tables.snapshot();
    assert_eq!(snapshot.links.len(), 3);
    assert_eq!(snapshot.links[0].weight, 3);
    assert_eq!(snapshot.links[2].weight, 1);
    let bp = TableId::new(Color::Black, Role::Pawn);
    let words: Vec<String> = snapshot.links_of(bp).map(TableLink::words).collect();
    assert!(
        words.contains(
            &"after the black pawn leaves e7, the white knight from g1 answered 3 times"
                .to_string()
        ),
        "{words:?}"
    );
    assert_eq!(Decrement::parse(" ALL "), Some(Decrement::All));
    assert_eq!(Decrement::parse("some"), None);
}
