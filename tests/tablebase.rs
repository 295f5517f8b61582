//! The built-in tablebases: every table generated, compared position by
//! position (a random sample per table here; `kibitz tb verify` checks them
//! all) with the Syzygy tables by win/draw/loss, the known longest mates, and
//! the engine mating in exactly the distance the tables give.
#![allow(clippy::unwrap_used)]

mod common;

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use kibitz::engine::level::Rng;
use kibitz::engine::{Command, Engine, GoRequest, Limits, MoveSource, Report, SearchOptions};
use kibitz::game::fen::parse_fen;
use kibitz::tablebase::material::Material;
use kibitz::tablebase::retro::Value;
use kibitz::tablebase::{Builtin, Tablebases, Wdl, chess_of};
use shakmaty::{Chess, Color, Position};

/// A search request at full strength, without the book.
fn go(id: u64, position: Chess, limits: Limits) -> Command {
    Command::Go(Box::new(GoRequest {
        search_id: id,
        position,
        history: Vec::new(),
        limits,
        options: SearchOptions::default(),
        level: Default::default(),
        book: false,
        received: std::time::Instant::now(),
    }))
}

/// The engine's `BestMove` report for search `id`.
fn best_move_of(engine: &Engine, id: u64) -> Report {
    loop {
        let report = engine
            .reports()
            .recv_timeout(Duration::from_secs(20))
            .unwrap();
        if matches!(report, Report::BestMove { search_id, .. } if search_id == id) {
            return report;
        }
    }
}

/// All 35 tables, generated once for this test binary.
fn tables() -> &'static Tablebases {
    static TABLES: OnceLock<Tablebases> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut builtin = Builtin::new();
        builtin
            .generate_all(&Material::all(), 2, &mut |_, _| {})
            .unwrap();
        assert_eq!(builtin.len(), 35);
        let mut tables = Tablebases::new(builtin);
        tables.add_syzygy(&common::testdata("syzygy")).unwrap();
        tables
    })
}

#[test]
fn every_table_agrees_with_syzygy_on_a_sample() {
    use shakmaty_syzygy::Tablebase;
    let mut syzygy = Tablebase::<Chess>::new();
    syzygy.add_directory(common::testdata("syzygy")).unwrap();
    let all = Material::all();
    assert_eq!(all.len(), 35);
    let mut rng = Rng::new(2026);
    for material in all {
        let table = tables().builtin.get(&material).unwrap();
        let layout = &table.layout;
        let mut checked = 0;
        let mut tries = 0;
        while checked < 3000 && tries < 1_000_000 {
            tries += 1;
            let index = (rng.next_u64() % layout.size as u64) as usize;
            let Some(value) = table.value(index) else {
                continue;
            };
            let pos = layout.decode(index);
            if pos.ep {
                continue;
            }
            let placement = layout.pieces.iter().copied().zip(pos.sq).collect();
            let Some(chess) = chess_of(&placement, pos.stm) else {
                continue;
            };
            let wdl = syzygy.probe_wdl_after_zeroing(&chess).unwrap();
            assert_eq!(
                value.outcome(),
                kibitz::tablebase::syzygy_wdl(wdl).outcome(),
                "{material}: {} kibitz {value:?} Syzygy {wdl:?}",
                shakmaty::fen::Fen::from_position(&chess, shakmaty::EnPassantMode::Legal)
            );
            checked += 1;
        }
        assert_eq!(checked, 3000, "{material}: too few valid positions found");
    }
}

#[test]
fn the_longest_mates_are_the_known_ones() {
    for (name, plies) in [("KQvK", 19), ("KRvK", 31), ("KBNvK", 65), ("KQvKR", 69)] {
        let material: Material = name.parse().unwrap();
        let (longest, _) = tables().builtin.get(&material).unwrap().summary();
        assert_eq!(longest, plies, "{name}");
    }
}

/// The winning position of `material` with the longest mate, White to move.
fn longest_win(material: &str) -> (Chess, i32) {
    let material: Material = material.parse().unwrap();
    let table = tables().builtin.get(&material).unwrap();
    let layout = &table.layout;
    let mut best: Option<(usize, u8)> = None;
    for index in 0..layout.size {
        if let Some(Value::Win(n)) = table.value(index)
            && layout.decode(index).stm == Color::White
            && !layout.decode(index).ep
            && best.is_none_or(|(_, b)| n > b)
        {
            best = Some((index, n));
        }
    }
    let (index, n) = best.unwrap();
    let pos = layout.decode(index);
    let placement = layout.pieces.iter().copied().zip(pos.sq).collect();
    (chess_of(&placement, pos.stm).unwrap(), i32::from(n))
}

#[test]
fn the_engine_mates_in_exactly_the_table_distance() {
    let tables: Arc<Tablebases> = Arc::new(Tablebases::new({
        let mut builtin = Builtin::new();
        for name in ["KQvK", "KRvK", "KBvK", "KNvK", "KBNvK"] {
            builtin.insert(
                tables()
                    .builtin
                    .get(&name.parse().unwrap())
                    .unwrap()
                    .clone(),
            );
        }
        builtin
    }));
    let engine = Engine::new(16).unwrap();
    engine.send(Command::SetTablebases(Some(Arc::clone(&tables))));
    let mut id = 0;
    let mut rng = Rng::new(7);
    for name in ["KQvK", "KRvK", "KBNvK"] {
        let (start, dtm) = longest_win(name);
        for random_defence in [false, true] {
            let mut position = start.clone();
            let mut plies = 0;
            while !position.is_checkmate() {
                assert!(!position.is_game_over(), "{name}: the win slipped away");
                let m = if position.turn() == Color::White {
                    id += 1;
                    let limits = Limits {
                        movetime: Some(Duration::from_millis(200)),
                        ..Limits::default()
                    };
                    engine.send(go(id, position.clone(), limits));
                    let Report::BestMove {
                        best_move, source, ..
                    } = best_move_of(&engine, id)
                    else {
                        unreachable!()
                    };
                    assert!(matches!(
                        source,
                        MoveSource::Tablebase { wdl: Wdl::Win, .. }
                    ));
                    best_move.unwrap()
                } else if random_defence {
                    let moves = position.legal_moves();
                    moves[(rng.next_u64() % moves.len() as u64) as usize]
                } else {
                    tables.probe(&position).unwrap().best_move.unwrap()
                };
                position.play_unchecked(m);
                plies += 1;
            }
            if random_defence {
                assert!(
                    plies <= dtm,
                    "{name}: {plies} plies against a random defence, table says {dtm}"
                );
            } else {
                assert_eq!(plies, dtm, "{name}: mate against the best defence");
            }
        }
    }
}

#[test]
fn probe_reports_distance_best_move_and_every_moves_outcome() {
    let position = parse_fen("8/8/8/4k3/8/8/8/KQ6 w - - 0 1").unwrap();
    let probe = tables().probe(&position).unwrap();
    assert_eq!(probe.wdl, Wdl::Win);
    assert_eq!(probe.dtm, Some(17));
    let moves = tables().probe_moves(&position).unwrap();
    assert_eq!(moves.len(), position.legal_moves().len());
    assert_eq!(moves[0].1.dtm, Some(17), "the best keeps the distance");
    assert!(
        moves
            .iter()
            .all(|(_, p)| p.dtm.unwrap() >= 17 || p.wdl != Wdl::Win)
    );
}

#[test]
fn syzygy_alone_answers_with_wdl_dtz_and_a_move() {
    let mut syzygy_only = Tablebases::default();
    let found = syzygy_only.add_syzygy(&common::testdata("syzygy")).unwrap();
    assert!(found >= 70, "{found}");
    // KRvK, White to move and win: Syzygy gives the verdict, a distance to
    // zeroing and a winning move; no distance to mate.
    let position = parse_fen("8/8/8/4k3/8/8/8/R3K3 w - - 0 1").unwrap();
    let probe = syzygy_only.probe(&position).unwrap();
    assert_eq!(probe.source, kibitz::tablebase::TbSource::Syzygy);
    assert_eq!(probe.wdl, Wdl::Win);
    assert!(probe.dtm.is_none() && probe.dtz.is_some_and(|d| d > 0));
    let mut after = position.clone();
    after.play_unchecked(probe.best_move.unwrap());
    assert_eq!(
        syzygy_only.probe_wdl(&after),
        Some(Wdl::Loss),
        "the move keeps the win"
    );
    // A missing folder is a clear error, not a panic.
    let err = Tablebases::default()
        .add_syzygy(std::path::Path::new("/no/such/folder"))
        .unwrap_err();
    assert!(err.contains("does not exist"), "{err}");
}

#[test]
fn the_search_scores_a_capture_into_the_tables_by_them() {
    // Five pieces: after Qxd8+ the queen against king and pawn is a won
    // table ending; the search sees it at once as a tablebase win.
    let position = parse_fen("3r2k1/p7/8/8/8/8/8/K2Q4 w - - 0 1").unwrap();
    let all: &'static Tablebases = tables();
    let mut builtin = Builtin::new();
    for m in Material::all() {
        builtin.insert(all.builtin.get(&m).unwrap().clone());
    }
    let engine = Engine::new(16).unwrap();
    engine.send(Command::SetTablebases(Some(Arc::new(Tablebases::new(
        builtin,
    )))));
    engine.send(go(1, position, Limits::depth(3)));
    let Report::BestMove {
        best_move,
        score,
        source,
        ..
    } = best_move_of(&engine, 1)
    else {
        unreachable!()
    };
    assert_eq!(
        source,
        MoveSource::Search,
        "a depth limit asks for a search"
    );
    assert_eq!(
        best_move.map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string()),
        Some("d1d8".to_string())
    );
    match score {
        kibitz::engine::Score::Centipawns(cp) => {
            assert!(cp > kibitz::engine::search::TB_BOUND, "{cp}");
        }
        other => panic!("expected a tablebase win value, got {other:?}"),
    }
}
