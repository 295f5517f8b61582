//! The heat map's state and bands, tested.

use super::*;
use crate::engine::movetables::TableUpdate;
use shakmaty::{Color, Move, Role, Square};

fn nonzero(values: &[i64; 64]) -> u64 {
    (0..64)
        .filter(|&i| values[i] != 0)
        .fold(0, |mask, i| mask | 1 << i)
}

#[test]
fn bands_go_by_rank_not_by_size() {
    let mut values = [0i64; 64];
    // One huge square and eleven small ones: the small ones still spread.
    values[0] = 1_000_000;
    for (i, v) in values.iter_mut().enumerate().skip(1).take(11) {
        *v = i as i64;
    }
    let bands = bands(&values, nonzero(&values));
    assert_eq!(bands[0], Some(0));
    assert_eq!(
        bands[11],
        Some(0),
        "the second largest of 12 is in the top sixth"
    );
    assert_eq!(bands[1], Some(5), "the smallest is in the last band");
    assert_eq!(bands[12], None, "a square not banded is blank");
    let used: std::collections::BTreeSet<_> = bands.iter().flatten().collect();
    assert_eq!(used.len(), BANDS);
}

#[test]
fn ties_share_a_band_and_one_value_is_the_top() {
    let mut values = [0i64; 64];
    values[3] = 5;
    values[4] = 5;
    values[5] = 1;
    let bands = bands(&values, nonzero(&values));
    assert_eq!(bands[3], bands[4]);
    assert_eq!(bands[3], Some(0), "the strongest share the top band");
    assert_eq!(bands[5], Some(4));
    let mut one = [0i64; 64];
    one[9] = -3;
    assert_eq!(super::bands(&one, nonzero(&one))[9], Some(0));
}

#[test]
fn one_square_above_many_equal_ones() {
    let mut values = [0i64; 64];
    values[..19].fill(1);
    values[6] = 2;
    let bands = bands(&values, nonzero(&values));
    assert_eq!(bands[6], Some(0));
    assert_eq!(bands[0], Some(3), "the eighteen share the middle");
    let all_equal = super::bands(&[7; 64], u64::MAX);
    assert!(all_equal.iter().all(|b| *b == all_equal[0]));
}

#[test]
fn numbers_fit_their_cells() {
    assert_eq!(compact(975, 4), "975");
    assert_eq!(compact(-975, 4), "-975");
    assert_eq!(compact(1234, 4), "1234");
    assert_eq!(compact(12_345, 4), "12k");
    assert_eq!(compact(123_456, 5), "123k");
    assert_eq!(compact(1234, 3), "1k");
    assert_eq!(compact(-12_345, 4), "-12k");
    assert_eq!(compact(-975, 3), "-1k");
    assert_eq!(compact(999_999, 4), "1.0M");
    assert_eq!(compact(5_600_000, 4), "5.6M");
    assert_eq!(compact(-123_456, 4), "-.1M", "not -0M");
    assert_eq!(compact(-12_345_678, 4), "-12M");
    assert_eq!(compact(-12_345, 3), "###", "not -0M");
    for v in [0, 7, -7, 99_999, -99_999, i64::MAX / 3, i64::MIN / 3] {
        for w in 3..8 {
            assert!(compact(v, w).len() <= w, "{v} in {w}: {}", compact(v, w));
        }
    }
}

#[test]
fn m_cycles_through_the_twelve_and_all_then_off() {
    let mut state = MapState::default();
    let mut seen = Vec::new();
    loop {
        state.cycle(None);
        match state.shown {
            Some(table) => seen.push(table),
            None => break,
        }
    }
    assert_eq!(seen.len(), 13);
    assert_eq!(
        seen[0],
        MapTable::One(TableId::new(Color::White, Role::King))
    );
    assert_eq!(
        seen[11],
        MapTable::One(TableId::new(Color::Black, Role::Pawn))
    );
    assert_eq!(seen[12], MapTable::All);
}

#[test]
fn m_starts_at_the_table_with_the_most_weight_and_goes_round() {
    let knight = |from, to| Move::Normal {
        role: Role::Knight,
        from,
        capture: None,
        to,
        promotion: None,
    };
    let mut weights = TableWeights::default();
    for _ in 0..3 {
        weights.apply(&TableUpdate {
            color: Color::White,
            line: vec![knight(Square::G1, Square::F3)],
            others: vec![],
        });
    }
    let mut state = MapState::default();
    let mut seen = Vec::new();
    loop {
        state.cycle(Some(&weights));
        match state.shown {
            Some(MapTable::One(id)) => seen.push(id),
            Some(MapTable::All) => break,
            None | Some(MapTable::Overlay(..)) => panic!("off or an overlay before all tables"),
        }
    }
    let wn = TableId::new(Color::White, Role::Knight);
    assert_eq!(seen[0], wn);
    assert_eq!(seen[1], TableId::new(Color::White, Role::Pawn));
    assert_eq!(seen[2], TableId::new(Color::Black, Role::King));
    assert_eq!(seen.len(), 12, "each table once: {seen:?}");
    state.cycle(Some(&weights));
    assert_eq!(state.shown, None);
    // A table named with :map: m goes on from it.
    state.command("bq").unwrap();
    state.cycle(Some(&weights));
    assert_eq!(
        state.shown,
        Some(MapTable::One(TableId::new(Color::Black, Role::Rook)))
    );
}

#[test]
fn map_words() {
    let mut state = MapState::default();
    assert!(
        state
            .command("wn")
            .unwrap()
            .contains("white knight · touches")
    );
    assert!(
        state
            .command("importance")
            .unwrap()
            .contains("white knight · importance (Greer's)")
    );
    assert_eq!(state.view, MapView::Importance);
    assert!(state.command("touches").unwrap().contains("touches"));
    assert_eq!(state.view, MapView::Touches);
    assert!(state.command("best").unwrap().contains("best"));
    assert_eq!(state.view, MapView::Best);
    assert!(state.command("all").unwrap().contains("all tables"));
    assert!(state.command("numbers").unwrap().contains("numbers"));
    assert!(state.numbers);
    state.command("numbers off").unwrap();
    assert!(!state.numbers);
    assert!(state.command("black queen").is_ok());
    assert_eq!(
        state.shown,
        Some(MapTable::One(TableId::new(Color::Black, Role::Queen)))
    );
    let error = state.command("zz").unwrap_err();
    assert!(error.contains("':map zz' is not a table"), "{error}");
    // It fits the status line of 80 columns, and says where the words
    // are.
    assert!(error.chars().count() <= 78, "{error}");
    assert!(error.contains(":map alone lists"), "{error}");
    assert!(state.command("off").unwrap().contains("off"));
    assert_eq!(state.shown, None);
}

#[test]
fn a_single_table_shows_signed_weights_in_importance() {
    let state = MapState {
        shown: Some(MapTable::One(TableId::new(Color::White, Role::Knight))),
        ..MapState::default()
    };
    let heat = state.heat(None, None).unwrap();
    assert!(!heat.learned);
    assert!(heat.bands.iter().all(Option::is_none));
}

/// The net view: gains in bands 0-2, losses in 3-5 (the most lost in
/// 5), zero blank; labels +3..+1 and -1..-3.
#[test]
fn the_net_view_diverges_around_zero() {
    let mut values = [0i64; 64];
    values[0] = 50;
    values[1] = 5;
    values[2] = -4;
    values[3] = -400;
    let bands = diverging_bands(&values);
    assert_eq!(bands[0], Some(0));
    assert!(matches!(bands[1], Some(0..=2)));
    assert!(matches!(bands[2], Some(3..=5)));
    assert_eq!(bands[3], Some(5));
    assert_eq!(bands[4], None);
    let heat = MapState {
        shown: Some(MapTable::All),
        view: MapView::Net,
        ..MapState::default()
    }
    .heat(None, None)
    .unwrap();
    assert_eq!(heat.band_label(0), "+3");
    assert_eq!(heat.band_label(5), "-3");
}

/// Greer's importance is the absolute weight, blank at 0; kibitz's
/// touches count every change, so a square back at 0 still shows.
#[test]
fn greers_importance_is_the_absolute_weight_and_touches_are_kibitzs() {
    let knight = |from, to| Move::Normal {
        role: Role::Knight,
        from,
        capture: None,
        to,
        promotion: None,
    };
    let mut weights = TableWeights::default();
    let nf3 = vec![knight(Square::G1, Square::F3)];
    let na3 = vec![knight(Square::B1, Square::A3)];
    // g1-f3 refutes once and fails once: back at 0, touched twice;
    // b1-a3 fails three times: -3, touched three times.
    for (line, others) in [
        (nf3.clone(), vec![]),
        (vec![], nf3),
        (vec![], na3.clone()),
        (vec![], na3.clone()),
        (vec![], na3),
    ] {
        weights.apply(&TableUpdate {
            color: Color::White,
            line,
            others,
        });
    }
    let wn = TableId::new(Color::White, Role::Knight);
    let heat = |view: MapView| {
        MapState {
            shown: Some(MapTable::One(wn)),
            view,
            ..MapState::default()
        }
        .heat(Some(&weights), None)
        .unwrap()
    };
    let g1 = Square::G1.to_usize();
    let a3 = Square::A3.to_usize();
    let touches = heat(MapView::Touches);
    assert_eq!((touches.numbers[g1], touches.numbers[a3]), (2, 3));
    assert!(touches.bands[g1].is_some() && touches.bands[a3].is_some());
    let importance = heat(MapView::Importance);
    assert_eq!((importance.numbers[g1], importance.numbers[a3]), (0, 3));
    assert_eq!(importance.bands[g1], None, "|0| is blank in Greer's view");
    // b1 and a3 lost three times each: 3 and 3, one band.
    assert!(importance.bands[a3].is_some());
    assert_eq!(
        importance.bands[a3],
        importance.bands[Square::B1.to_usize()]
    );
}

/// The links the map names come from the scope it shows: a search that
/// made none has none, whatever the game's.
#[test]
fn the_link_follows_the_scope() {
    use crate::engine::movetables::MoveTables;
    let start = shakmaty::Chess::default();
    let line: Vec<Move> = {
        let mut position = start.clone();
        ["e2e4", "e7e5"]
            .iter()
            .map(|uci| {
                let m = uci
                    .parse::<shakmaty::uci::UciMove>()
                    .unwrap()
                    .to_move(&position)
                    .unwrap();
                shakmaty::Position::play_unchecked(&mut position, m);
                m
            })
            .collect()
    };
    let mut tables = MoveTables::default();
    tables.record(Color::White, &line, &[]);
    tables.new_search();
    tables.record(Color::White, &line[..1], &[]);
    let weights = tables.snapshot();
    let heat = |scope: Scope, table: MapTable| {
        MapState {
            shown: Some(table),
            scope,
            ..MapState::default()
        }
        .heat(Some(&weights), None)
        .unwrap()
    };
    let wp = MapTable::One(TableId::new(Color::White, Role::Pawn));
    for table in [wp, MapTable::All] {
        assert_eq!(heat(Scope::Search, table).link, None, "{table:?}");
        assert_eq!(
            heat(Scope::Game, table).link.as_deref(),
            Some("wp e2→bp e7 ×1")
        );
    }
    assert!(heat(Scope::Search, wp).learned);
}

/// The counter map marks two squares and has no numbers to write: `#`
/// there writes nothing (it wrote a 0 on each).
#[test]
fn the_counter_map_writes_no_numbers() {
    let mut state = MapState::default();
    state.command("counter").unwrap();
    let answer = state.command("numbers").unwrap();
    assert!(answer.contains("no numbers"), "{answer}");
    let heat = state.heat(None, None).unwrap();
    assert!(!heat.show_numbers);
    state.command("tables").unwrap();
    assert!(state.heat(None, None).unwrap().show_numbers);
}

/// The history heuristic has no touches: its "touches" is |score|,
/// named importance.
#[test]
fn history_shows_its_score_in_place_of_touches() {
    let mut state = MapState::default();
    state.command("history").unwrap();
    assert_eq!(state.shown_view(), MapView::Importance);
    let words = state.describe();
    assert!(words.contains("all tables · |score|."), "{words}");
    // M goes on to a view that looks different.
    state.key('M', None).unwrap().unwrap();
    assert_eq!(state.shown_view(), MapView::Net);
    state.key('M', None).unwrap().unwrap();
    state.key('M', None).unwrap().unwrap();
    assert_eq!(state.shown_view(), MapView::Importance);
    state.key('M', None).unwrap().unwrap();
    assert_eq!(state.shown_view(), MapView::Net);
}

/// `:map` words for the scope, the sources and the views.
#[test]
fn map_words_for_scope_history_counter_and_net() {
    let mut state = MapState::default();
    assert!(state.command("net").is_ok());
    assert_eq!(state.view, MapView::Net);
    assert!(state.command("scope search").is_ok());
    assert_eq!(state.scope, Scope::Search);
    assert!(state.command("scope week").is_err());
    assert!(state.command("history").unwrap().starts_with("History map"));
    assert_eq!(state.source, MapSource::History);
    assert!(state.shown.is_some(), "history shows the map");
    assert!(state.command("counter").is_ok());
    assert_eq!(state.source, MapSource::Counter);
    assert!(state.command("tables").unwrap().contains("this search"));
    assert_eq!(state.source, MapSource::Tables);
}
