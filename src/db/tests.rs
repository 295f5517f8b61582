use super::*;

#[test]
fn the_index_key_is_polyglots_and_the_check_is_independent_of_it() {
    let start = Chess::default();
    let (key, check) = position_key(&start);
    assert_eq!(key, crate::book::polyglot::polyglot_key(&start));
    assert_eq!(key, 0x463b_9618_1691_fc9c);
    // The check comes from the hash's other half: positions with keys that
    // differ in their low 16 bits do not give checks equal to those bits.
    let e4 =
        crate::game::fen::parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
            .expect("a FEN");
    let (key2, check2) = position_key(&e4);
    assert_eq!(key2, 0x823c_9b50_fd11_4196);
    assert_ne!(check, key as u16);
    assert_ne!(check2, key2 as u16);
}

#[test]
fn a_file_that_is_not_a_database_is_refused_and_left_as_it_is() {
    let dir = tempdir();
    let text = dir.join("notes.txt");
    std::fs::write(
        &text,
        "not a database at all, just some words.\n".repeat(200),
    )
    .expect("write");
    let before = std::fs::read(&text).expect("read");
    let error = Database::open_or_create(&text).err().expect("refused");
    assert!(
        error.to_string().contains("not a kibitz game database"),
        "{error}"
    );
    assert_eq!(std::fs::read(&text).expect("read"), before);

    let empty = dir.join("empty.sqlite");
    std::fs::write(&empty, "").expect("write");
    let error = Database::open_or_create(&empty).err().expect("refused");
    assert!(error.to_string().contains("it is an empty file"), "{error}");
    assert_eq!(std::fs::metadata(&empty).expect("there").len(), 0);

    let other = dir.join("other.sqlite");
    {
        let conn = rusqlite::Connection::open(&other).expect("sqlite");
        conn.execute_batch("CREATE TABLE t(x); INSERT INTO t VALUES (1);")
            .expect("sql");
    }
    let error = Database::open(&other, false).err().expect("refused");
    assert!(
        error.to_string().contains("another program's SQLite file"),
        "{error}"
    );

    let missing = Database::open(&dir.join("none.sqlite"), false)
        .err()
        .expect("refused");
    assert!(
        missing.to_string().contains("kibitz db import"),
        "{missing}"
    );
    let folder = Database::open(&dir, false).err().expect("refused");
    assert!(folder.to_string().contains("not a file"), "{folder}");
}

#[test]
fn a_newer_database_is_refused() {
    let dir = tempdir();
    let path = dir.join("games.sqlite");
    drop(Database::open_or_create(&path).expect("made"));
    {
        let conn = rusqlite::Connection::open(&path).expect("sqlite");
        conn.execute("UPDATE meta SET value = '99' WHERE name = 'version'", [])
            .expect("sql");
    }
    let error = Database::open(&path, true).err().expect("refused");
    assert!(matches!(error, DbError::Newer { found: 99, .. }), "{error}");
}

/// A fresh folder for one test.
pub(crate) fn tempdir() -> std::path::PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "kibitz-db-test-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}
