use super::*;
use crate::game::notation::parse_move;

#[test]
fn autosave_round_trip_and_resume_offer() {
    let dir = std::env::temp_dir().join(format!("kibitz-save-test-{}", std::process::id()));
    let mut game = Game::default();
    for text in ["e4", "c5", "Nf3"] {
        let m = parse_move(game.position(), text).unwrap();
        game.play(m);
    }
    let players = Players::VsEngine {
        human: Color::Black,
        level: Level::new(4).unwrap(),
    };
    let tc = TimeControl::fischer(300, 3);
    let times = (Duration::from_millis(290_500), Duration::from_secs(301));
    let saved = SavedGame::new(&game, players, tc, times, false);
    write_autosave(&dir, &saved).unwrap();
    let read = read_autosave(&dir).unwrap().unwrap();
    assert_eq!(read, saved);
    let (back, back_players, back_tc) = read.restore().unwrap();
    assert_eq!(back.fen(), game.fen());
    assert_eq!((back_players, back_tc), (players, tc));
    // A finished game is not offered; a corrupt file is an error, not a panic.
    write_autosave(&dir, &SavedGame::new(&game, players, tc, times, true)).unwrap();
    assert_eq!(read_autosave(&dir), Ok(None));
    std::fs::write(autosave_path(&dir), "{ not json").unwrap();
    assert!(
        read_autosave(&dir)
            .unwrap_err()
            .contains("not a kibitz autosave")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The files in `dir` whose names start with `prefix`.
fn named(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
        })
        .collect()
}

#[test]
fn a_corrupt_autosave_is_kept_beside_the_next_one() {
    let dir = std::env::temp_dir().join(format!("kibitz-corrupt-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for round in 0..2 {
        std::fs::write(autosave_path(&dir), format!("{{ not json {round}")).unwrap();
        let why = read_autosave(&dir).unwrap_err();
        let kept = named(&dir, "autosave.corrupt-");
        assert_eq!(kept.len(), round + 1, "{kept:?}");
        let newest = kept
            .iter()
            .find(|p| std::fs::read_to_string(p).unwrap() == format!("{{ not json {round}"))
            .unwrap();
        assert!(
            why.contains(&format!("kept as {}", newest.display())),
            "{why}"
        );
        let name = newest.file_name().unwrap().to_string_lossy().into_owned();
        // autosave.corrupt-YYYYMMDD-HHMMSS.json (and -N the same second).
        assert!(name.ends_with(".json") && name.len() >= 37, "{name}");
        // The next move's autosave does not touch it.
        let saved = SavedGame::new(
            &Game::default(),
            Players::TwoHumans,
            TimeControl::Untimed,
            (Duration::ZERO, Duration::ZERO),
            false,
        );
        write_autosave(&dir, &saved).unwrap();
        assert_eq!(
            std::fs::read_to_string(newest).unwrap(),
            format!("{{ not json {round}")
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

fn game_of(moves: &[&str]) -> SavedGame {
    let mut game = Game::default();
    for text in moves {
        let m = parse_move(game.position(), text).unwrap();
        game.play(m);
    }
    SavedGame::new(
        &game,
        Players::TwoHumans,
        TimeControl::Untimed,
        (Duration::ZERO, Duration::ZERO),
        false,
    )
}

#[test]
fn two_boards_keep_two_autosaves_and_each_is_offered_once_they_end() {
    let dir = std::env::temp_dir().join(format!("kibitz-slots-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // The single file of earlier versions, left by an upgrade.
    write_autosave(&dir, &game_of(&["c4"])).unwrap();
    let one = AutosaveSlot::claim(&dir).unwrap();
    let two = AutosaveSlot::claim(&dir).unwrap();
    assert_ne!(one.path(), two.path());
    one.write(&game_of(&["e4"])).unwrap();
    two.write(&game_of(&["d4"])).unwrap();
    // While both run, neither is offered to a third; the old file is.
    let (offered, problems) = read_unfinished(&dir);
    assert!(problems.is_empty(), "{problems:?}");
    let moves: Vec<_> = offered.iter().map(|u| u.saved.moves.clone()).collect();
    assert_eq!(moves, [vec!["c2c4".to_string()]]);
    drop(offered);
    // Both end (a crash or a kill frees the lock as well).
    let (one_path, two_path) = (one.path().to_path_buf(), two.path().to_path_buf());
    drop(one);
    drop(two);
    let (offered, _) = read_unfinished(&dir);
    let mut moves: Vec<_> = offered.iter().map(|u| u.saved.moves[0].clone()).collect();
    moves.sort();
    assert_eq!(moves, ["c2c4", "d2d4", "e2e4"]);
    // While one board offers them, another starting does not.
    assert!(read_unfinished(&dir).0.is_empty());
    // One is resumed: its file becomes the new board's autosave.
    let three = AutosaveSlot::claim(&dir).unwrap();
    let mut offered = offered.into_iter();
    let first = offered.next().unwrap();
    let first_moves = first.saved.moves.clone();
    three.adopt(first).unwrap();
    let adopted = check_autosave(&std::fs::read_to_string(three.path()).unwrap()).unwrap();
    assert_eq!(adopted.moves, first_moves);
    // One is declined: kept as a PGN, not offered again.
    let second = offered.next().unwrap();
    let second_path = second.path.clone();
    let kept = second.keep_as_pgn(&dir).unwrap();
    assert!(std::fs::read_to_string(&kept).unwrap().contains("1. "));
    assert!(!second_path.exists());
    drop(offered);
    drop(three);
    // The third, untouched, is offered again with the adopted one.
    let (again, _) = read_unfinished(&dir);
    assert_eq!(again.len(), 2, "{again:?}");
    assert!(!one_path.exists() || !two_path.exists());
    drop(again);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_finished_autosave_of_an_ended_board_is_removed_not_offered() {
    let dir = std::env::temp_dir().join(format!("kibitz-slot-done-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let slot = AutosaveSlot::claim(&dir).unwrap();
    let mut done = game_of(&["e4"]);
    done.finished = true;
    slot.write(&done).unwrap();
    let path = slot.path().to_path_buf();
    drop(slot);
    // A board that ended before any move leaves nothing.
    drop(AutosaveSlot::claim(&dir).unwrap());
    assert!(read_unfinished(&dir).0.is_empty());
    assert!(!path.exists());
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn clocks_out_of_range_are_refused() {
    let mut game = Game::default();
    let m = parse_move(game.position(), "e4").unwrap();
    game.play(m);
    let tc = TimeControl::fischer(300, 3);
    let mut saved = SavedGame::new(
        &game,
        Players::TwoHumans,
        tc,
        (Duration::from_secs(290), Duration::from_secs(300)),
        false,
    );
    assert!(saved.restore().is_ok());
    // 300 s plus two increments is the most after one move.
    saved.black_ms = 306_000;
    assert!(saved.restore().is_ok());
    saved.black_ms = 306_001;
    assert!(saved.restore().unwrap_err().contains("black's clock"));
    saved.black_ms = u64::MAX;
    let why = saved.restore().unwrap_err();
    assert!(why.contains("18446744073709551615 ms"), "{why}");
    // Through the file: refused with the path, and kept aside.
    let dir = std::env::temp_dir().join(format!("kibitz-clock-test-{}", std::process::id()));
    write_autosave(&dir, &saved).unwrap();
    let why = read_autosave(&dir).unwrap_err();
    assert!(
        why.contains("black's clock of 18446744073709551615 ms"),
        "{why}"
    );
    assert!(why.contains("kept as"), "{why}");
    // A huge clock is saved as the most a u64 holds, never wrapped.
    let huge = SavedGame::new(
        &game,
        Players::TwoHumans,
        tc,
        (Duration::MAX, Duration::ZERO),
        false,
    );
    assert_eq!(huge.white_ms, u64::MAX);
    std::fs::remove_dir_all(&dir).unwrap();
}
