use std::sync::atomic::AtomicBool;

use super::super::tests::tempdir;
use super::super::{Database, Filter, GameQuery};
use super::*;

const GAMES: &str = r#"[Event "A"]
[White "Ann"]
[Black "Bob"]
[WhiteElo "2000"]
[BlackElo "1800"]
[Date "2020.01.02"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0

[Event "B"]
[White "Bob"]
[Black "Ann"]
[Date "2021.??.??"]
[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nf6 3. Ng1 Ng8 4. Nf3 1/2-1/2

[Event "C"]
[White "Cy"]
[Black "Ann"]
[WhiteElo "1500"]
[Result "0-1"]

1. d4 d5 2. Nf3 Nf6 0-1

[Event "Bad"]
[White "X"]
[Black "Y"]
[Result "*"]

1. e4 e5 2. Ke3 *
"#;

fn import(db: &mut Database, text: &str) -> ImportReport {
    let dir = tempdir();
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, text).expect("write");
    let options = ImportOptions {
        workers: 1,
        batch_entries: 7,
    };
    let report = db
        .import(&pgn, &options, &AtomicBool::new(false), &mut |_| {})
        .expect("imported");
    db.rebuild_summary(false).expect("summary");
    report
}

#[test]
fn an_import_counts_each_position_once_per_game_and_again_adds_nothing() {
    let dir = tempdir();
    let mut db = Database::open_or_create(&dir.join("g.sqlite")).expect("made");
    let report = import(&mut db, GAMES);
    assert_eq!(
        (report.games_read, report.added, report.duplicates),
        (4, 3, 0)
    );
    assert_eq!(report.skipped, 1);
    assert!(
        report.bad_games[0].contains("Ke3"),
        "{:?}",
        report.bad_games
    );

    let start = shakmaty::Chess::default();
    let explorer = db.explore(&start, &Filter::default()).expect("explored");
    let summary: Vec<_> = explorer
        .moves
        .iter()
        .map(|m| {
            (
                m.uci.as_str(),
                m.games(),
                m.counts.white,
                m.counts.draws,
                m.counts.black,
            )
        })
        .collect();
    assert_eq!(summary, [("e2e4", 2, 1, 1, 0), ("d2d4", 1, 0, 0, 1)]);
    assert_eq!(explorer.games(), 3);

    // After 1. e4 e5 2. Nf3: game B comes back here after 3. Ng1 Ng8 4. Nf3
    // and counts once, with the move it played the first time (Nf6).
    let mut position = start.clone();
    for san in ["e4", "e5", "Nf3"] {
        let m: shakmaty::san::San = san.parse().expect("san");
        let m = m.to_move(&position).expect("legal");
        position.play_unchecked(m);
    }
    let explorer = db.explore(&position, &Filter::default()).expect("explored");
    let moves: Vec<_> = explorer
        .moves
        .iter()
        .map(|m| (m.san.as_str(), m.games()))
        .collect();
    assert_eq!(moves, [("Nc6", 1), ("Nf6", 1)]);
    // Game B also ended here, but its first time here counts, not its last.
    assert_eq!(explorer.ended.games(), 0);
    let nc6 = &explorer.moves[0];
    assert_eq!(super::super::explore::mean_rating(&nc6.counts), Some(1900));

    // Filters: Ann as Black played only game B's Nf6 (and C, not here).
    let as_black = Filter {
        player: Some("  ann ".into()),
        side: super::super::PlayerSide::Black,
        ..Filter::default()
    };
    let explorer = db.explore(&position, &as_black).expect("explored");
    let moves: Vec<_> = explorer
        .moves
        .iter()
        .map(|m| (m.san.as_str(), m.games()))
        .collect();
    assert_eq!(moves, [("Nf6", 1)]);

    // Importing again adds nothing.
    let again = import(&mut db, GAMES);
    assert_eq!((again.added, again.duplicates), (0, 3));
    assert_eq!(db.game_count().expect("count"), 3);
    assert_eq!(
        db.explore(&start, &Filter::default())
            .expect("explored")
            .games(),
        3
    );
}

#[test]
fn games_are_found_by_position_player_and_opening_most_recent_first() {
    let dir = tempdir();
    let mut db = Database::open_or_create(&dir.join("g.sqlite")).expect("made");
    import(&mut db, GAMES);
    let query = GameQuery {
        position: Some(shakmaty::Chess::default()),
        limit: 10,
        ..GameQuery::default()
    };
    let (rows, total) = db.games(&query).expect("found");
    assert_eq!(total, 3);
    let events: Vec<_> = rows
        .iter()
        .map(|r| r.event.as_deref().unwrap_or(""))
        .collect();
    // B (2021) before A (2020) before C (no date).
    assert_eq!(events, ["B", "A", "C"]);
    let (rows, _) = db
        .games(&GameQuery {
            filter: Filter {
                player: Some("cy".into()),
                ..Filter::default()
            },
            limit: 10,
            ..GameQuery::default()
        })
        .expect("found");
    assert_eq!(rows.len(), 1);
    let tree = db.load_game(rows[0].id).expect("loaded");
    assert_eq!(tree.mainline().len(), 4);
    assert_eq!(tree.headers.get("White"), Some("Cy"));
    assert!(
        db.game_pgn(rows[0].id)
            .expect("pgn")
            .contains("1. d4 d5 2. Nf3 Nf6 0-1")
    );
}

#[test]
fn dates_sort_as_numbers() {
    assert_eq!(day_number("2020.01.02"), 20200102);
    assert_eq!(day_number("2021.??.??"), 20210000);
    assert_eq!(day_number("????.??.??"), 0);
    assert_eq!(day_number("1999.13.01"), 19990001);
    assert_eq!(day_number("garbage"), 0);
}
