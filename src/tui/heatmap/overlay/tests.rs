//! The overlay of two tables, on weights built by hand and counted by hand.

use shakmaty::{Color, Move, Role, Square};

use crate::engine::movetables::{MapView, Scope, TableId, TableUpdate, TableWeights};
use crate::tui::heatmap::{MapState, MapTable};

use super::*;

pub(in crate::tui::heatmap) const WN: TableId = TableId {
    color: Color::White,
    role: Role::Knight,
};
pub(in crate::tui::heatmap) const BQ: TableId = TableId {
    color: Color::Black,
    role: Role::Queen,
};

fn step(role: Role, from: Square, to: Square) -> Move {
    Move::Normal {
        role,
        from,
        capture: None,
        to,
        promotion: None,
    }
}

/// The white knight's and black queen's tables, counted by hand:
///
/// | update (times) | wn | bq |
/// |---|---|---|
/// | W line Ng1-f3, Qd8-f6 (2) | g1 +2, f3 +2 | d8 +2, f6 +2 |
/// | B line Qf6-f3 (3) | | f6 +3, f3 +3 |
/// | W others Nf3-e5 (1) | f3 -1, e5 -1 | |
/// | B line Qf6-e5 (1) | | f6 +1, e5 +1 |
/// | W line Nb1-c3, Qd8-a5 (1) | b1 +1, c3 +1 | d8 +1, a5 +1 |
/// | B line Qa5-a4, Nc3-d5 (1) | c3 +1, d5 +1 | a5 +1, a4 +1 |
/// | W line e2-e4, e7-e5 (1) | (pawns: wp e2 → bp e7, not wn or bq) | |
///
/// So wn: g1 2/2 (weight/touches), f3 1/3, e5 -1/1, b1 1/1, c3 2/2, d5
/// 1/1; bq: d8 3/3, f6 6/6, f3 3/3, e5 1/1, a5 2/2, a4 1/1. Both touched:
/// f3 and e5. Links: wn g1→bq d8 ×2, wn b1→bq d8 ×1, bq a5→wn c3 ×1 (3
/// between them) and wp e2→bp e7 ×1 (not theirs).
pub(in crate::tui::heatmap) fn hand_built() -> TableWeights {
    use Square::*;
    let (n, q, p) = (Role::Knight, Role::Queen, Role::Pawn);
    let mut weights = TableWeights::default();
    let mut teach = |color, line: Vec<Move>, others: Vec<Move>, times| {
        for _ in 0..times {
            weights.apply(&TableUpdate {
                color,
                line: line.clone(),
                others: others.clone(),
            });
        }
    };
    let (w, b) = (Color::White, Color::Black);
    teach(w, vec![step(n, G1, F3), step(q, D8, F6)], vec![], 2);
    teach(b, vec![step(q, F6, F3)], vec![], 3);
    teach(w, vec![], vec![step(n, F3, E5)], 1);
    teach(b, vec![step(q, F6, E5)], vec![], 1);
    teach(w, vec![step(n, B1, C3), step(q, D8, A5)], vec![], 1);
    teach(b, vec![step(q, A5, A4), step(n, C3, D5)], vec![], 1);
    teach(w, vec![step(p, E2, E4), step(p, E7, E5)], vec![], 1);
    weights
}

fn overlay_in(view: MapView) -> crate::tui::heatmap::HeatMap {
    let weights = hand_built();
    let mut state = MapState::default();
    state.command("wn+bq").unwrap();
    state.command(view.name()).unwrap();
    state.heat(Some(&weights), None).unwrap()
}

#[test]
fn the_hand_built_tables_are_as_counted() {
    let weights = hand_built();
    assert_eq!(weights.weight(WN, Square::F3), 1);
    assert_eq!(weights.touches(WN)[Square::F3.to_usize()], 3);
    assert_eq!(weights.weight(BQ, Square::F6), 6);
    assert_eq!(weights.weight(BQ, Square::D8), 3);
    assert_eq!(weights.links.len(), 4);
}

#[test]
fn an_overlay_marks_the_squares_both_tables_hold_with_the_smaller_value() {
    let heat = overlay_in(MapView::Touches);
    assert_eq!(heat.table, MapTable::Overlay(WN, BQ));
    let (f3, e5) = (Square::F3.to_usize(), Square::E5.to_usize());
    // f3: wn 3 touches, bq 3; e5: wn 1, bq 1.
    assert_eq!((heat.numbers[f3], heat.numbers[e5]), (3, 1));
    let marked: Vec<usize> = (0..64).filter(|&i| heat.bands[i].is_some()).collect();
    assert_eq!(marked, vec![f3, e5]);
    assert!(
        heat.numbers
            .iter()
            .enumerate()
            .all(|(i, &v)| v == 0 || marked.contains(&i))
    );
    // Two values ranked among two squares: places 0 and 1 of 2, bands 0
    // and 3 (1 and 4 in the legend's digits).
    assert_eq!((heat.bands[f3], heat.bands[e5]), (Some(0), Some(3)));
    let overlay = heat.overlay.as_ref().unwrap();
    assert_eq!(overlay.shared, 2);
    assert_eq!(overlay.links, Some(3), "g1→d8, b1→d8 and a5→c3; not e2→e7");
    assert_eq!(heat.link.as_deref(), Some("wn g1→bq d8 ×2"));
    assert_eq!(overlay.first[Square::G1.to_usize()], 2, "wn's own touches");
    assert_eq!(overlay.second[Square::F6.to_usize()], 6, "bq's own touches");
    assert!(heat.learned);
}

#[test]
fn in_the_net_view_the_value_is_the_smaller_magnitude_ranked_one_to_six() {
    let heat = overlay_in(MapView::Net);
    let (f3, e5) = (Square::F3.to_usize(), Square::E5.to_usize());
    // f3: wn +1, bq +3 → 1; e5: wn -1, bq +1 → 1 (no sign).
    assert_eq!((heat.numbers[f3], heat.numbers[e5]), (1, 1));
    assert_eq!(heat.bands[f3], heat.bands[e5]);
    assert!(!heat.diverging());
    assert_eq!(heat.band_label(0), "1", "not the net view's +3");
    // Greer's best: e5 is a loss for the knight, so only f3 is in both.
    let best = overlay_in(MapView::Best);
    assert_eq!(best.overlay.as_ref().unwrap().shared, 1);
    assert_eq!(best.numbers[f3], 1);
    assert_eq!(best.bands[e5], None);
}

#[test]
fn intersect_takes_the_smaller_magnitude_where_both_are_nonzero() {
    let mut a = [0i64; 64];
    let mut b = [0i64; 64];
    (a[0], b[0]) = (5, -2);
    (a[1], b[1]) = (-7, 9);
    (a[2], b[2]) = (4, 0);
    (a[3], b[3]) = (i64::MIN, i64::MIN);
    let (values, bands) = intersect(&a, &b);
    assert_eq!(&values[..4], &[2, 7, 0, i64::MAX]);
    assert_eq!(bands[2], None);
    assert_eq!(bands.iter().flatten().count(), 3);
    assert!(bands[3] < bands[1] && bands[1] < bands[0]);
}

#[test]
fn the_words_of_an_overlay() {
    assert_eq!(parse("wn+bq"), Ok(Some((WN, BQ))));
    assert_eq!(parse("overlay wn bq"), Ok(Some((WN, BQ))));
    assert_eq!(
        parse("overlay white knight black queen"),
        Ok(Some((WN, BQ)))
    );
    assert_eq!(parse("wn"), Ok(None));
    assert!(parse("wn+wn").unwrap_err().contains("two different tables"));
    assert!(parse("wn+xq").unwrap_err().contains("'xq' is not a table"));
    assert!(parse("overlay wn").is_err());
    let mut state = MapState::default();
    let said = state.command("overlay wn bq").unwrap();
    assert_eq!(
        said,
        "Move-table map: white knight ∩ black queen · touches."
    );
    assert!(state.command("wn+zz").is_err());
    assert_eq!(state.shown, Some(MapTable::Overlay(WN, BQ)), "kept");
}

/// The trial's mistyped overlays: each is read, or answered with what is
/// wrong.
#[test]
fn mistyped_overlays_are_read_or_named() {
    let err = |text: &str| parse(text).unwrap_err();
    assert!(
        err("wn+").contains("a second table is missing"),
        "{}",
        err("wn+")
    );
    assert!(
        err("+bq").contains("the first table is missing"),
        "{}",
        err("+bq")
    );
    assert!(
        err("overlay wn").contains("a second table is missing"),
        "{}",
        err("overlay wn")
    );
    assert!(
        err("overlay white knight bq").contains("the same way"),
        "{}",
        err("overlay white knight bq")
    );
    assert_eq!(parse("overlay wn+bq"), Ok(Some((WN, BQ))));
    assert_eq!(parse("wn ∩ bq"), Ok(Some((WN, BQ))));
    assert_eq!(
        parse("overlay white knights black queens"),
        Ok(Some((WN, BQ)))
    );
    assert_eq!(parse("white knights+bq"), Ok(Some((WN, BQ))));
    let mut state = MapState::default();
    assert!(state.command("wn ∩ bq").is_ok());
    assert_eq!(state.shown, Some(MapTable::Overlay(WN, BQ)));
    assert!(state.command("black queens").is_ok());
    assert_eq!(state.shown, Some(MapTable::One(BQ)));
}

#[test]
fn m_and_all_leave_the_overlay() {
    let mut state = MapState::default();
    state.command("wn+bq").unwrap();
    state.cycle(None);
    assert_eq!(state.shown, Some(MapTable::One(WN)));
    state.cycle(None);
    assert_ne!(state.shown, Some(MapTable::One(WN)), "m goes on from there");
    state.command("wn+bq").unwrap();
    state.command("all").unwrap();
    assert_eq!(state.shown, Some(MapTable::All));
}

#[test]
fn the_search_scope_has_its_own_links() {
    use crate::engine::movetables::MoveTables;
    use Square::*;
    let mut tables = MoveTables::default();
    let line = [step(Role::Knight, G1, F3), step(Role::Queen, D8, F3)];
    tables.record(Color::White, &line, &[]);
    tables.new_search();
    // This search: the knight alone.
    tables.record(Color::White, &line[..1], &[]);
    let weights = tables.snapshot();
    let heat = |scope: Scope| {
        let mut state = MapState::default();
        state.command("wn+bq").unwrap();
        state.scope = scope;
        state.heat(Some(&weights), None).unwrap()
    };
    let game = heat(Scope::Game);
    let overlay = game.overlay.unwrap();
    assert_eq!((overlay.shared, overlay.links), (1, Some(1)), "f3; g1→d8");
    let search = heat(Scope::Search);
    let overlay = search.overlay.unwrap();
    assert_eq!((overlay.shared, overlay.links), (0, Some(0)));
    assert!(search.learned, "the knight's table holds something");
}
