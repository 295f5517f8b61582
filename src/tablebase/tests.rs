use super::*;
use crate::game::fen::parse_fen;
use std::sync::atomic::{AtomicBool, Ordering};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kibitz-tb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// KQvK and KRvK, made in memory and stored in `dir`.
fn two_tables(dir: &Path) -> Builtin {
    let mut builtin = Builtin::new();
    for name in ["KQvK", "KRvK"] {
        let material: Material = name.parse().expect("signature");
        let table = builtin
            .generate(&material, &mut |_| ControlFlow::Continue(()))
            .expect("generates");
        store::write(dir, table).expect("writes");
    }
    builtin
}

#[test]
fn tables_on_disk_are_read_when_a_position_first_needs_them() {
    let dir = temp_dir("lazy");
    let in_memory = Tablebases::new(two_tables(&dir));
    let mut problems = Vec::new();
    let lazy = Tablebases::new(Builtin::open(&dir, &mut problems));
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(lazy.builtin.len(), 2, "both tables are there");
    assert!(lazy.builtin.loaded().is_empty(), "and none is read yet");
    assert_eq!(lazy.max_pieces(), 4);

    // The start position and a five-piece one read nothing.
    let start = Chess::default();
    assert_eq!(lazy.probe(&start), None);
    let five = parse_fen("8/8/8/4k3/8/8/Q3P3/4K2R w - - 0 1").expect("fen");
    assert_eq!(lazy.probe(&five), None);
    assert!(lazy.builtin.loaded().is_empty());

    // A KRvK position (with Black's colours, too) reads exactly KRvK, and
    // the answers are the in-memory table's.
    let krk = parse_fen("8/8/8/4k3/8/8/8/R3K3 w - - 0 1").expect("fen");
    let probe = lazy.probe(&krk).expect("KRvK answers");
    assert_eq!(Some(&probe), in_memory.probe(&krk).as_ref());
    assert_eq!(probe.wdl, Wdl::Win);
    let loaded: Vec<String> = lazy
        .builtin
        .loaded()
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(loaded, ["KRvK"]);
    let kkr = parse_fen("r3k3/8/8/8/4K3/8/8/8 b - - 0 1").expect("fen");
    assert_eq!(lazy.probe(&kkr), in_memory.probe(&kkr));
    assert_eq!(lazy.probe_moves(&krk), in_memory.probe_moves(&krk));

    // A clone shares what was read; KQvK is read on its first probe.
    let clone = Tablebases::new(lazy.builtin.clone());
    assert_eq!(clone.builtin.loaded().len(), 1);
    let kqk = parse_fen("8/8/8/4k3/8/8/8/Q3K3 b - - 0 1").expect("fen");
    assert_eq!(clone.probe_wdl(&kqk), in_memory.probe_wdl(&kqk));
    assert_eq!(lazy.builtin.loaded().len(), 2);
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn a_damaged_file_is_left_out_not_trusted() {
    let dir = temp_dir("damaged");
    two_tables(&dir);
    let krk: Material = "KRvK".parse().expect("signature");
    let kqk: Material = "KQvK".parse().expect("signature");
    // KQvK cut short: its header says so at once.
    let path = store::path(&dir, &kqk);
    let bytes = std::fs::read(&path).expect("file");
    std::fs::write(&path, &bytes[..bytes.len() - 1]).expect("write");
    // KRvK with one entry changed: only reading it finds out.
    let path = store::path(&dir, &krk);
    let mut bytes = std::fs::read(&path).expect("file");
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&path, &bytes).expect("write");

    let mut problems = Vec::new();
    let builtin = Builtin::open(&dir, &mut problems);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("too short"), "{problems:?}");
    assert!(!builtin.contains(&kqk) && builtin.contains(&krk));
    assert!(builtin.get(&krk).is_none(), "the checksum is wrong");
    let problems = builtin.problems();
    assert!(problems[0].contains("checksum"), "{problems:?}");
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn warming_reads_the_tables_a_position_can_reach() {
    let dir = temp_dir("warm");
    two_tables(&dir);
    let builtin = Builtin::open(&dir, &mut Vec::new());
    // KRvKN: captures lead to KRvK and KNvK (not here); KQvK is not
    // reachable.
    builtin.warm(&"KRvKN".parse().expect("signature"));
    let loaded: Vec<String> = builtin.loaded().iter().map(|m| m.to_string()).collect();
    assert_eq!(loaded, ["KRvK"]);
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn a_table_whose_smaller_tables_are_missing_is_named_not_waited_for() {
    let materials: Vec<Material> = ["KRvK", "KQvKQ"]
        .iter()
        .map(|n| n.parse().expect("signature"))
        .collect();
    let mut builtin = Builtin::new();
    let mut finished = Vec::new();
    let error = builtin
        .generate_all(&materials, 2, &mut |t, _| {
            finished.push(t.layout.material.to_string())
        })
        .expect_err("KQvKQ needs KQvK");
    assert_eq!(error, "cannot generate KQvKQ: smaller tables missing");
    // What could be made was made and kept.
    assert_eq!(finished, ["KRvK"]);
    assert!(builtin.contains(&materials[0]));
}

#[test]
fn the_queue_makes_the_tables_one_thread_makes() {
    let materials: Vec<Material> = ["KQvK", "KRvK", "KQvKR", "KRvKR"]
        .iter()
        .map(|n| n.parse().expect("signature"))
        .collect();
    let mut alone = Builtin::new();
    for m in &materials {
        alone
            .generate(m, &mut |_| ControlFlow::Continue(()))
            .expect("generates");
    }
    let mut queued = Builtin::new();
    let mut order = Vec::new();
    queued
        .generate_all(&materials, 3, &mut |t, _| {
            order.push(t.layout.material.clone())
        })
        .expect("generates");
    for m in &materials {
        let (a, q) = (alone.get(m).expect("made"), queued.get(m).expect("made"));
        assert!(a.values == q.values, "{m} differs");
    }
    // Each table was reported after the tables it is made from.
    for (i, m) in order.iter().enumerate() {
        for child in m.children() {
            if materials.contains(&child) {
                assert!(order[..i].contains(&child), "{m} before {child}");
            }
        }
    }
}

#[test]
fn background_generation_lowers_its_threads_and_makes_way_for_the_search() {
    // The nice value is the thread's own: the caller keeps its own.
    let before = thread_nice();
    let lowered = std::thread::spawn(|| {
        lower_thread_priority();
        thread_nice()
    })
    .join()
    .expect("thread");
    if cfg!(target_os = "linux") {
        assert_eq!(lowered, Some(19));
        assert_eq!(thread_nice(), before);
    }

    // While the engine searches, the second generator waits; the first
    // goes on. (At normal priority here, so that the test's timing does
    // not depend on what else the machine runs.)
    let busy = Arc::new(AtomicBool::new(true));
    let pace = Pace {
        low_priority: false,
        busy: Some(Arc::clone(&busy)),
        stop: None,
    };
    // When the "search" ends, as seen by the thread that ends it. No
    // durations are compared: a loaded machine may be slow at anything.
    let released_at = Arc::new(std::sync::Mutex::new(None));
    let release = {
        let busy = Arc::clone(&busy);
        let released_at = Arc::clone(&released_at);
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_secs(1));
            *released_at.lock().expect("lock") = Some(std::time::Instant::now());
            busy.store(false, Ordering::Relaxed);
        })
    };
    let materials: Vec<Material> = ["KQvK", "KRvK"]
        .iter()
        .map(|n| n.parse().expect("signature"))
        .collect();
    let mut builtin = Builtin::new();
    let mut finished = Vec::new();
    builtin
        .generate_all_paced(
            &materials,
            2,
            &pace,
            &mut |t, _seconds| {
                finished.push((t.layout.material.to_string(), std::time::Instant::now()));
            },
            &mut |_, _| {},
        )
        .expect("generates");
    release.join().expect("thread");
    let released_at = released_at.lock().expect("lock").expect("released");
    // Which thread takes which table is the scheduler's choice.
    let mut names: Vec<&str> = finished.iter().map(|(n, _)| n.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["KQvK", "KRvK"]);
    // The second generator starts only once the search is over.
    assert!(
        finished[1].1 >= released_at,
        "the second generator did not wait for the search"
    );
    assert_eq!(builtin.len(), 2);
}
