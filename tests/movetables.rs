//! Greer's move tables in the engine: what the search teaches them, that
//! they last for a game and go with a new game, that the ordering uses them
//! when asked, and that teach mode's replay rebuilds them exactly.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use kibitz::engine::heuristics::Heuristics;
use kibitz::engine::movetables::{Scope, TableId, TableLink, TableWeights};
use kibitz::engine::search;
use kibitz::engine::trace::{NoTrace, OrderReason, Recorder, TraceEvent, Tracer};
use kibitz::engine::tt::TranspositionTable;
use kibitz::engine::{Command, Engine, GoRequest, Limits, Report, SearchOptions};
use kibitz::game::fen::parse_fen;
use kibitz::teach::{self, Replay, Setup};
use shakmaty::Chess;

const MIDDLEGAME: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

/// One search in a context the caller keeps, as the engine thread does.
fn search_in<T: Tracer>(
    position: &Chess,
    depth: u32,
    options: SearchOptions,
    tt: &mut TranspositionTable,
    heuristics: &mut Heuristics,
    tracer: &mut T,
) -> u64 {
    search::search_kept(
        position,
        &[],
        &Limits::depth(depth),
        options,
        (tt, heuristics),
        &|| false,
        tracer,
    )
    .nodes
}

fn total(weights: &TableWeights) -> i64 {
    TableId::ALL
        .iter()
        .flat_map(|&id| weights.table(id).iter())
        .map(|&w| i64::from(w).abs())
        .sum()
}

#[test]
fn a_search_teaches_the_tables_of_the_pieces_that_moved_and_tracing_changes_nothing() {
    let position = parse_fen(MIDDLEGAME).unwrap();
    let weights = |trace: bool| {
        let mut tt = TranspositionTable::new(4);
        let mut heuristics = Box::<Heuristics>::default();
        if trace {
            let mut recorder = Recorder::new(usize::MAX);
            search_in(
                &position,
                5,
                SearchOptions::default(),
                &mut tt,
                &mut heuristics,
                &mut recorder,
            );
        } else {
            search_in(
                &position,
                5,
                SearchOptions::default(),
                &mut tt,
                &mut heuristics,
                &mut NoTrace,
            );
        }
        heuristics.tables.weights().clone()
    };
    let plain = weights(false);
    assert_eq!(plain, weights(true));
    assert!(!plain.is_empty());
    // Both sides' pieces were considered (the refuting lines alternate).
    for color in [shakmaty::Color::White, shakmaty::Color::Black] {
        assert!(
            TableId::ALL
                .iter()
                .filter(|id| id.color == color)
                .any(|&id| weights_nonzero(&plain, id)),
            "{color:?}"
        );
    }
    // A square no piece of that kind can start from or reach stays blank:
    // no white pawn ever stands on the first rank.
    let wp = TableId::new(shakmaty::Color::White, shakmaty::Role::Pawn);
    assert!(plain.table(wp)[..8].iter().all(|&w| w == 0));
}

fn weights_nonzero(weights: &TableWeights, id: TableId) -> bool {
    weights.table(id).iter().any(|&w| w != 0)
}

#[test]
fn table_moves_are_tried_only_when_asked_and_change_the_tree() {
    let position = parse_fen(MIDDLEGAME).unwrap();
    let mut tt = TranspositionTable::new(4);
    let mut heuristics = Box::<Heuristics>::default();
    // Learn first (tables only record with 0 table moves).
    search_in(
        &position,
        5,
        SearchOptions::default(),
        &mut tt,
        &mut heuristics,
        &mut NoTrace,
    );
    let learned = heuristics.clone();
    let tried_from_tables = |count: u8| {
        let mut heuristics = learned.clone();
        let mut tt = TranspositionTable::new(4);
        let mut recorder = Recorder::new(usize::MAX);
        let options = SearchOptions {
            table_moves: count,
            ..SearchOptions::default()
        };
        let nodes = search_in(
            &position,
            5,
            options,
            &mut tt,
            &mut heuristics,
            &mut recorder,
        );
        let table_moves = recorder
            .events()
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    TraceEvent::MoveTried {
                        reason: OrderReason::TableMove,
                        ..
                    }
                )
            })
            .count();
        (nodes, table_moves)
    };
    let (nodes_off, used_off) = tried_from_tables(0);
    let (nodes_on, used_on) = tried_from_tables(2);
    assert_eq!(used_off, 0);
    assert!(used_on > 0);
    assert_ne!(nodes_off, nodes_on);
    // A threshold above every weight leaves nothing to promote.
    let mut heuristics = learned.clone();
    let mut recorder = Recorder::new(usize::MAX);
    search_in(
        &position,
        5,
        SearchOptions {
            table_moves: 2,
            table_threshold: 1_000_000,
            ..SearchOptions::default()
        },
        &mut TranspositionTable::new(4),
        &mut heuristics,
        &mut recorder,
    );
    assert!(!recorder.events().iter().any(|e| matches!(
        e,
        TraceEvent::MoveTried {
            reason: OrderReason::TableMove,
            ..
        }
    )));
}

fn go(id: u64, position: &Chess, depth: u32) -> Command {
    Command::Go(Box::new(GoRequest {
        search_id: id,
        position: position.clone(),
        history: Vec::new(),
        limits: Limits::depth(depth),
        options: SearchOptions::default(),
        level: kibitz::engine::level::Level::default(),
        book: false,
        received: Instant::now(),
    }))
}

/// The tables reported at the end of search `id`.
fn final_tables(engine: &Engine, id: u64) -> Arc<TableWeights> {
    loop {
        let report = engine
            .reports()
            .recv_timeout(Duration::from_secs(30))
            .expect("a report");
        if let Report::Stats {
            search_id,
            tables,
            done: true,
            ..
        } = report
            && search_id == id
        {
            return tables;
        }
    }
}

#[test]
fn the_tables_last_between_the_moves_of_a_game_and_a_new_game_clears_them() {
    let start = Chess::default();
    let middlegame = parse_fen(MIDDLEGAME).unwrap();
    let fresh = {
        let engine = Engine::new(4).unwrap();
        engine.send(go(1, &start, 4));
        final_tables(&engine, 1)
    };
    assert!(!fresh.is_empty());
    let engine = Engine::new(4).unwrap();
    engine.send(go(1, &middlegame, 5));
    let after_first = final_tables(&engine, 1);
    engine.send(go(2, &start, 4));
    let kept = final_tables(&engine, 2);
    // The second search added to what the first learned.
    assert_ne!(*kept, *fresh);
    assert!(total(&kept) > total(&fresh));
    assert!(!after_first.is_empty());
    engine.send(Command::NewGame);
    engine.send(go(3, &start, 4));
    assert_eq!(*final_tables(&engine, 3), *fresh);
}

#[test]
fn the_replay_rebuilds_the_tables_the_search_built_step_by_step() {
    for (fen, depth) in [
        (MIDDLEGAME, 3),
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 4),
    ] {
        let position = parse_fen(fen).unwrap();
        let setup = Setup::new(position.clone(), depth);
        let replay = Replay::new(teach::record(&setup, 1_500_000, &|| false).unwrap());
        // The same search, in a context of our own, leaves these tables.
        let mut tt = TranspositionTable::new(16);
        let mut heuristics = Box::<Heuristics>::default();
        search_in(
            &position,
            depth,
            setup.options,
            &mut tt,
            &mut heuristics,
            &mut NoTrace,
        );
        let end = replay.step(replay.len());
        let maps = heuristics.maps();
        for scope in [Scope::Game, Scope::Search] {
            assert_eq!(end.tables.scope(scope), maps.scope(scope), "{fen}");
        }
        // The same links (the replay orders equals as they came, the
        // engine by square), and the history and counters at the end.
        let sorted = |links: &[TableLink]| {
            let mut links: Vec<_> = links
                .iter()
                .map(|l| {
                    (
                        l.after.code(),
                        l.after_from,
                        l.answer.code(),
                        l.answer_from,
                        l.weight,
                    )
                })
                .collect();
            links.sort();
            links
        };
        assert_eq!(sorted(&end.tables.links), sorted(&maps.links), "{fen}");
        assert_eq!(end.tables.history, maps.history, "{fen}");
        assert_eq!(end.tables.counters, maps.counters, "{fen}");
        // Before the first update the map is blank; each update changes it,
        // and stepping back past it restores the weights before.
        let first = replay
            .events()
            .iter()
            .position(|e| matches!(e, TraceEvent::MoveTables { .. }))
            .unwrap();
        assert!(replay.step(first).tables.is_empty());
        assert!(!replay.step(first + 1).tables.is_empty());
        let mut step = replay.step(replay.len());
        replay.seek(&mut step, first);
        assert!(step.tables.is_empty());
    }
}

/// The maps' search scope has links of its own: after a second search
/// they are that search's alone (fewer than the game's, none stronger).
#[test]
fn the_search_scope_keeps_its_own_links() {
    let mut tt = TranspositionTable::new(16);
    let mut heuristics = Box::<Heuristics>::default();
    let options = SearchOptions::default();
    let start = Chess::default();
    search_in(&start, 9, options, &mut tt, &mut heuristics, &mut NoTrace);
    let first = heuristics.maps();
    assert!(!first.links.is_empty(), "a depth-9 search makes links");
    assert_eq!(first.links_in(Scope::Search), first.links_in(Scope::Game));
    let position = parse_fen(MIDDLEGAME).unwrap();
    search_in(
        &position,
        5,
        options,
        &mut tt,
        &mut heuristics,
        &mut NoTrace,
    );
    let maps = heuristics.maps();
    let weight = |links: &[TableLink]| -> i64 { links.iter().map(|l| i64::from(l.weight)).sum() };
    assert!(weight(&maps.search_links) < weight(&maps.links));
    for link in &maps.search_links {
        let game = maps.links.iter().find(|l| {
            (l.after, l.after_from, l.answer, l.answer_from)
                == (link.after, link.after_from, link.answer, link.answer_from)
        });
        assert!(game.is_some_and(|g| g.weight >= link.weight), "{link:?}");
    }
}

/// `kibitz movetables --json`: per table the touches and Greer's
/// importance (the absolute weight) beside the weights, and the gains and
/// losses summed, which the text output says too.
#[test]
fn movetables_json_gives_touches_greers_importance_gains_and_losses() {
    use kibitz::engine::movetables::Decrement;
    for decrement in [Decrement::Tried, Decrement::All] {
        let mut out = Vec::new();
        kibitz::cli::movetables::movetables(None, &[], 6, decrement, true, &mut out).unwrap();
        let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let (mut gains, mut losses) = (0i64, 0i64);
        for table in json["tables"].as_array().unwrap() {
            let numbers = |key: &str| -> Vec<i64> {
                table[key]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_i64().unwrap())
                    .collect()
            };
            let (weights, touches, importance) = (
                numbers("weights"),
                numbers("touches"),
                numbers("importance"),
            );
            for i in 0..64 {
                assert_eq!(importance[i], weights[i].abs());
                gains += (touches[i] + weights[i]) / 2;
                losses += (touches[i] - weights[i]) / 2;
            }
        }
        assert!(gains > 0 && losses > 0);
        assert_eq!(json["gains"].as_i64(), Some(gains));
        assert_eq!(json["losses"].as_i64(), Some(losses));
        assert_eq!(json["decrement"].as_str(), Some(decrement.name()));
        let mut text = Vec::new();
        kibitz::cli::movetables::movetables(None, &[], 6, decrement, false, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(
            text.contains(&format!("Gains {gains}, losses {losses} (")),
            "{text}"
        );
    }
}
