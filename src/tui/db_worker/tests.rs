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
