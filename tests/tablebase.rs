//! The built-in tablebases: every table generated, compared with the Syzygy
//! tables by win/draw/loss (every position of the 3-piece tables, a fixed
//! random sample of each 4-piece table here; `kibitz tb verify` checks them
//! all), the known longest mates, and the engine mating in exactly the
//! distance the tables give.
//!
//! Generating the 35 tables is most of this file's time (about 100 s of
//! processor time). They are generated on both cores into a folder under
//! cargo's target directory named after a hash of this test binary, and
//! read from there by the later runs of the same binary: the same code makes
//! the same tables, and any change to the code (the generator's or this
//! file's) makes a new binary, so new tables. Folders of older binaries are
//! removed.
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::HashSet;
use std::hash::Hasher;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, SystemTime};

use kibitz::engine::level::Rng;
use kibitz::engine::{Command, Engine, GoRequest, Limits, MoveSource, Report, SearchOptions};
use kibitz::game::fen::parse_fen;
use kibitz::tablebase::material::Material;
use kibitz::tablebase::retro::{Layout, Table, Value};
use kibitz::tablebase::{Builtin, Tablebases, Wdl, chess_of, store};
use shakmaty::{Chess, Color, Position};

/// Threads for generating and comparing: the machine's cores, at least two.
fn threads() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().max(2))
}

/// The folder of this binary's generated tables:
/// `<target>/tmp/tablebases-<hash of this test binary>`. Folders of other
/// binaries left more than ten minutes ago are removed (about 280 MB each).
fn tables_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let bytes = std::fs::read(&exe).unwrap();
    let mut hasher = std::hash::DefaultHasher::new();
    hasher.write(&bytes);
    let name = format!("tablebases-{:016x}", hasher.finish());
    let parent = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    if let Ok(entries) = std::fs::read_dir(&parent) {
        let a_while_ago = SystemTime::now() - Duration::from_secs(600);
        for entry in entries.flatten() {
            let other = entry.file_name().to_string_lossy().into_owned();
            let old = entry
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| t < a_while_ago);
            if other.starts_with("tablebases-") && other != name && old {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    let dir = parent.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Generate into `dir` every table not there yet (or not readable), on
/// `threads` threads: each takes the largest table whose smaller tables are
/// all done, so both cores stay busy until the last table.
fn generate_missing(dir: &Path, threads: usize) {
    struct Plan {
        todo: Vec<Material>,
        done: HashSet<Material>,
        failed: Option<String>,
    }
    let there = Builtin::open(dir, &mut Vec::new());
    let (done, todo): (Vec<Material>, Vec<Material>) =
        Material::all().into_iter().partition(|m| there.contains(m));
    let mut todo = todo;
    todo.sort_by_key(|m| std::cmp::Reverse(Layout::new(m).size));
    let plan = Mutex::new(Plan {
        todo,
        done: done.into_iter().collect(),
        failed: None,
    });
    let changed = Condvar::new();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let material = {
                        let mut plan = plan.lock().unwrap();
                        loop {
                            if plan.failed.is_some() || plan.todo.is_empty() {
                                return;
                            }
                            let ready = plan
                                .todo
                                .iter()
                                .position(|m| m.children().iter().all(|c| plan.done.contains(c)));
                            if let Some(i) = ready {
                                break plan.todo.remove(i);
                            }
                            plan = changed.wait(plan).unwrap();
                        }
                    };
                    // The smaller tables are read from `dir` as needed.
                    let mut builtin = Builtin::open(dir, &mut Vec::new());
                    let result = builtin
                        .generate(&material, &mut |_| std::ops::ControlFlow::Continue(()))
                        .and_then(|table| store::write(dir, table).map_err(|e| e.to_string()));
                    let mut plan = plan.lock().unwrap();
                    match result {
                        Ok(_) => {
                            plan.done.insert(material);
                        }
                        Err(e) => plan.failed = Some(format!("{material}: {e}")),
                    }
                    changed.notify_all();
                }
            });
        }
    });
    let plan = plan.into_inner().unwrap();
    assert_eq!(plan.failed, None, "generating the tables failed");
}

/// The folder with all 35 tables, generated (once per test binary) if
/// they are not there yet.
fn dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tables_dir();
        generate_missing(&dir, threads());
        let mut problems = Vec::new();
        let builtin = Builtin::open(&dir, &mut problems);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(builtin.len(), 35);
        dir
    })
    .as_path()
}

/// All 35 tables, read from [`dir`] as needed, with the Syzygy tables.
fn tables() -> &'static Tablebases {
    static TABLES: OnceLock<Tablebases> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut tables = Tablebases::new(Builtin::open(dir(), &mut Vec::new()));
        tables.add_syzygy(&common::testdata("syzygy")).unwrap();
        tables
    })
}

/// `material`'s table; fails the test if it cannot be read.
fn table(material: &Material) -> &'static Table {
    tables().builtin.get(material).unwrap_or_else(|| {
        panic!(
            "{material}: table missing or unreadable in {} ({:?}); remove the folder to generate again",
            dir().display(),
            tables().builtin.problems()
        )
    })
}

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

/// Positions compared with Syzygy per 4-piece table (the 3-piece tables
/// are compared whole).
const SAMPLE: usize = 50_000;

/// Compare `table` with Syzygy: every position of a 3-piece table, a fixed
/// random sample of [`SAMPLE`] positions of a 4-piece one. Returns how many
/// positions were compared.
fn compare_with_syzygy(
    table: &Table,
    syzygy: &shakmaty_syzygy::Tablebase<Chess>,
    seed: u64,
) -> usize {
    let layout = &table.layout;
    let material = &layout.material;
    let whole = material.count() == 3;
    let size = layout.size as u64;
    let mut rng = Rng::new(seed);
    let indices: Box<dyn Iterator<Item = usize>> = if whole {
        Box::new(0..layout.size)
    } else {
        Box::new(std::iter::repeat_with(move || (rng.next_u64() % size) as usize).take(10_000_000))
    };
    let mut checked = 0;
    for index in indices {
        if !whole && checked == SAMPLE {
            break;
        }
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
    if whole {
        let (_, [won, drawn, lost]) = table.summary();
        assert_eq!(checked, won + drawn + lost, "{material}: every position");
    } else {
        assert_eq!(checked, SAMPLE, "{material}: too few valid positions found");
    }
    checked
}

#[test]
fn every_table_agrees_with_syzygy() {
    let all = Material::all();
    assert_eq!(all.len(), 35);
    let next = AtomicUsize::new(0);
    let counts = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads() {
            scope.spawn(|| {
                let mut syzygy = shakmaty_syzygy::Tablebase::<Chess>::new();
                syzygy.add_directory(common::testdata("syzygy")).unwrap();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(material) = all.get(i) else {
                        return;
                    };
                    let checked = compare_with_syzygy(table(material), &syzygy, 2026 + i as u64);
                    counts.lock().unwrap().push((material.clone(), checked));
                }
            });
        }
    });
    let counts = counts.into_inner().unwrap();
    assert_eq!(counts.len(), 35, "every table compared");
    let three: Vec<usize> = counts
        .iter()
        .filter(|(m, _)| m.count() == 3)
        .map(|(_, n)| *n)
        .collect();
    assert_eq!(three.len(), 5, "the five 3-piece tables, compared whole");
    let whole: usize = three.iter().sum();
    let total: usize = counts.iter().map(|(_, n)| n).sum();
    eprintln!("compared with Syzygy: {total} positions ({whole} of the 3-piece tables, all)");
}

#[test]
fn the_longest_mates_are_the_known_ones() {
    for (name, plies) in [("KQvK", 19), ("KRvK", 31), ("KBNvK", 65), ("KQvKR", 69)] {
        let material: Material = name.parse().unwrap();
        let (longest, _) = table(&material).summary();
        assert_eq!(longest, plies, "{name}");
    }
}

/// The winning position of `material` with the longest mate, White to move.
fn longest_win(material: &str) -> (Chess, i32) {
    let material: Material = material.parse().unwrap();
    let table = table(&material);
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
            builtin.insert(table(&name.parse().unwrap()).clone());
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
    // The built-in tables alone, read as needed.
    let builtin = Builtin::open(dir(), &mut Vec::new());
    assert_eq!(builtin.len(), 35);
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

/// Background table making tells how far it is, and stops when asked: at
/// once, keeping the tables it finished (whole, readable files) and leaving
/// no part of the ones it was making.
#[test]
fn background_generation_reports_progress_and_stops_when_asked() {
    use kibitz::tablebase::{Pace, load_in_background};
    use std::sync::atomic::AtomicBool;
    let home = common::TempHome::new("tables-stop");
    let dir = home.join("cache/kibitz/tablebases");
    let stop = Arc::new(AtomicBool::new(false));
    let pace = Pace {
        low_priority: false,
        busy: None,
        stop: Some(Arc::clone(&stop)),
    };
    let told: Mutex<Vec<(String, f64)>> = Mutex::new(Vec::new());
    let stopped_at: Mutex<Option<std::time::Instant>> = Mutex::new(None);
    let last_ready: Mutex<Option<Arc<Tablebases>>> = Mutex::new(None);
    let messages = load_in_background(
        dir.clone(),
        None,
        Some(&pace),
        &|tables| *last_ready.lock().unwrap() = Some(tables),
        &|table, fraction| {
            let mut told = told.lock().unwrap();
            told.push((table.to_string(), fraction));
            // Stop once a 4-piece table is being made (the 3-piece ones
            // take a fraction of a second).
            if table.count() == 4 && stopped_at.lock().unwrap().is_none() {
                *stopped_at.lock().unwrap() = Some(std::time::Instant::now());
                stop.store(true, Ordering::Relaxed);
            }
        },
    );
    let returned = std::time::Instant::now();
    let told = told.into_inner().unwrap();
    let stopped_at = stopped_at
        .into_inner()
        .unwrap()
        .unwrap_or_else(|| panic!("no 4-piece table was reported: {told:?}"));
    let waited = returned.duration_since(stopped_at);
    assert!(waited < Duration::from_secs(1), "stopping took {waited:?}");
    assert!(messages.is_empty(), "a stop is no problem: {messages:?}");
    assert!(
        told.iter().all(|(_, f)| (0.0..=1.0).contains(f)),
        "{told:?}"
    );
    assert!(
        told.windows(2).all(|w| w[0].1 <= w[1].1),
        "progress goes forward: {told:?}"
    );
    assert!(told.iter().all(|(t, _)| t.parse::<Material>().is_ok()));
    // Only whole tables are on disk: every file is a table that reads back
    // with its checksum, and the tables being made left nothing.
    let mut on_disk = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let material: Material = name
            .strip_suffix(".ktb")
            .unwrap_or_else(|| panic!("a file that is no table: {name}"))
            .parse()
            .unwrap();
        store::read(&dir, &material).unwrap_or_else(|e| panic!("{name}: {e}"));
        on_disk.push(material);
    }
    assert!(
        on_disk.len() < Material::all().len(),
        "stopped before the end"
    );
    let tables = last_ready
        .into_inner()
        .unwrap()
        .expect("tables handed over");
    assert_eq!(tables.builtin.len(), on_disk.len());
}
