use std::path::PathBuf;

use shakmaty::Chess;

use super::*;

fn explore(generation: u64) -> DbRequest {
    DbRequest::Explore {
        generation,
        path: PathBuf::from("games.sqlite"),
        position: Box::new(Chess::default()),
        filter: Filter::default(),
    }
}

#[test]
fn only_the_last_explorer_query_in_the_queue_is_answered() {
    let (tx, rx) = unbounded();
    let load = DbRequest::LoadGame {
        path: PathBuf::from("games.sqlite"),
        id: 7,
        at: None,
    };
    tx.send(explore(2)).unwrap();
    tx.send(load.clone()).unwrap();
    tx.send(explore(3)).unwrap();
    let kept = latest(explore(1), &rx);
    assert_eq!(kept, vec![load, explore(3)]);
}

#[test]
fn a_missing_or_foreign_file_is_said_not_panicked_on() {
    let dir = std::env::temp_dir().join(format!("kibitz-dbworker-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut worker = DbWorker::default();
    let missing = dir.join("none.sqlite");
    let reply = worker.answer(DbRequest::Explore {
        generation: 1,
        path: missing.clone(),
        position: Box::new(Chess::default()),
        filter: Filter::default(),
    });
    assert_eq!(
        reply,
        DbReply::Explored {
            generation: 1,
            result: Err(DbProblem::Missing(missing))
        }
    );
    let foreign = dir.join("notes.sqlite");
    std::fs::write(&foreign, "these are not games, just some words").unwrap();
    let reply = worker.answer(DbRequest::LoadGame {
        path: foreign,
        id: 1,
        at: None,
    });
    let DbReply::GameLoaded {
        result: Err(DbProblem::Failed(why)),
        ..
    } = reply
    else {
        panic!("{reply:?}");
    };
    assert!(why.contains("notes.sqlite"), "{why}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A database at `path` of the games in `pgn`.
fn database_of(dir: &std::path::Path, path: &std::path::Path, pgn: &str) {
    let source = dir.join("source.pgn");
    std::fs::write(&source, pgn).unwrap();
    let mut db = Database::open_or_create(path).unwrap();
    let options = crate::db::ImportOptions {
        workers: 1,
        ..crate::db::ImportOptions::default()
    };
    db.import(
        &source,
        &options,
        &std::sync::atomic::AtomicBool::new(false),
        &mut |_| {},
    )
    .unwrap();
    db.rebuild_summary(true).unwrap();
}

fn games_at_start(worker: &mut DbWorker, path: &std::path::Path) -> u64 {
    let reply = worker.answer(DbRequest::Explore {
        generation: 1,
        path: path.to_path_buf(),
        position: Box::new(Chess::default()),
        filter: Filter::default(),
    });
    let DbReply::Explored {
        result: Ok(explorer),
        ..
    } = reply
    else {
        panic!("{reply:?}");
    };
    explorer.games()
}

#[test]
fn a_database_replaced_on_disk_is_read_again() {
    let dir = std::env::temp_dir().join(format!("kibitz-dbworker-re-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.sqlite");
    database_of(&dir, &path, "[Result \"1-0\"]\n\n1. e4 e5 1-0\n");
    let mut worker = DbWorker::default();
    assert_eq!(games_at_start(&mut worker, &path), 1);
    // A rebuilt database moved over the one open (`mv new.sqlite
    // games.sqlite`): the next question reads the new file, not the old
    // one the open handle still holds.
    let rebuilt = dir.join("new.sqlite");
    database_of(
        &dir,
        &rebuilt,
        "[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n",
    );
    std::fs::rename(&rebuilt, &path).unwrap();
    assert_eq!(games_at_start(&mut worker, &path), 2);
    let _ = std::fs::remove_dir_all(&dir);
}
