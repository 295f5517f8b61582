#![allow(clippy::unwrap_used)]
use super::*;
use crate::train::Kind;

fn exercise(fen: &str) -> Exercise {
    Exercise {
        kind: Kind::Puzzle,
        fen: fen.to_string(),
        solution: vec!["e2e4".into()],
        solution_san: vec!["e4".into()],
        also: Vec::new(),
        played: None,
        margin_cp: None,
        theme: None,
        line: Vec::new(),
        source: "test".into(),
    }
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const OTHER: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kibitz-train-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn solved_positions_come_back_after_1_3_7_21_days_and_failed_ones_tomorrow() {
    let mut s = Schedule::default();
    let t0 = 1_000_000;
    assert!(s.add(exercise(START), t0));
    assert_eq!(s.due(t0), vec![0]);
    let mut now = t0;
    for days in [1, 3, 7, 21, 21] {
        s.record(0, true, now);
        assert_eq!(s.cards[0].due, now + days * DAY);
        assert!(s.due(now + days * DAY - 1).is_empty());
        now += days * DAY;
        assert_eq!(s.due(now), vec![0]);
    }
    assert!(s.cards[0].learned());
    s.record(0, false, now);
    assert_eq!(s.cards[0].due, now + DAY);
    assert_eq!(s.cards[0].streak, 0);
    assert_eq!((s.cards[0].right, s.cards[0].wrong), (5, 1));
    s.record(0, true, now + DAY);
    assert_eq!(
        s.cards[0].due,
        now + 2 * DAY,
        "the climb starts again at 1 day"
    );
}

#[test]
fn the_same_position_is_scheduled_once_whatever_its_move_counters() {
    let mut s = Schedule::default();
    assert!(s.add(exercise(START), 0));
    let later = START.replace(" 0 1", " 4 9");
    assert!(!s.add(exercise(&later), 5));
    let mut mistake = exercise(START);
    mistake.kind = Kind::Mistake;
    assert!(
        s.add(mistake, 5),
        "another kind of question is another card"
    );
}

#[test]
fn the_most_overdue_comes_first() {
    let mut s = Schedule::default();
    s.add(exercise(START), 10);
    s.add(exercise(OTHER), 5);
    assert_eq!(s.due(20), vec![1, 0]);
    assert_eq!(
        s.counts(20),
        Counts {
            total: 2,
            due: 2,
            learned: 0
        }
    );
    assert_eq!(s.counts(7).due, 1);
}

#[test]
fn a_schedule_survives_a_save_and_a_load() {
    let dir = temp_dir("roundtrip");
    let mut s = Schedule::default();
    s.add(exercise(START), 100);
    s.record(0, true, 200);
    s.save(&dir).unwrap();
    let (again, problem) = Schedule::load(&dir);
    assert_eq!(problem, None);
    assert_eq!(again.cards, s.cards);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_damaged_file_is_kept_aside_and_never_written_over() {
    let dir = temp_dir("damaged");
    let file = path(&dir);
    std::fs::write(&file, "{\"version\": 1, \"cards\": [").unwrap();
    let (mut s, problem) = Schedule::load(&dir);
    let problem = problem.unwrap();
    assert!(problem.contains("kept as"), "{problem}");
    assert!(s.cards.is_empty());
    let kept: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with("train.damaged-"))
        .collect();
    assert_eq!(kept.len(), 1);
    assert_eq!(
        std::fs::read_to_string(dir.join(&kept[0])).unwrap(),
        "{\"version\": 1, \"cards\": ["
    );
    s.add(exercise(START), 1);
    s.save(&dir).unwrap();
    assert_eq!(Schedule::load(&dir).0.cards.len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_newer_version_is_left_in_place_and_never_written_over() {
    let dir = temp_dir("version");
    let newer = "{\"version\": 2, \"cards\": [], \"more\": true}";
    std::fs::write(path(&dir), newer).unwrap();
    let (mut s, problem) = Schedule::load(&dir);
    let problem = problem.unwrap();
    assert!(problem.contains("newer kibitz (version 2"), "{problem}");
    s.add(exercise(START), 1);
    assert!(s.save(&dir).is_err());
    assert_eq!(std::fs::read_to_string(path(&dir)).unwrap(), newer);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_programs_training_at_once_lose_neither_answers() {
    let dir = temp_dir("merge");
    let mut first = Schedule::default();
    first.add(exercise(START), 1);
    first.save(&dir).unwrap();
    let (mut a, _) = Schedule::load(&dir);
    let (mut b, _) = Schedule::load(&dir);
    a.record(0, true, 50);
    a.save(&dir).unwrap();
    b.add(exercise(OTHER), 60);
    b.save(&dir).unwrap();
    let (merged, _) = Schedule::load(&dir);
    assert_eq!(merged.cards.len(), 2);
    let start = merged
        .cards
        .iter()
        .find(|c| c.exercise.fen == START)
        .unwrap();
    assert_eq!(start.right, 1, "the other program's answer is kept");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn many_added_at_once_are_added_as_one_by_one() {
    let mut s = Schedule::default();
    assert!(s.add(exercise(START), 5));
    let (added, already) = s.add_all(vec![exercise(OTHER), exercise(START), exercise(OTHER)], 9);
    assert_eq!((added, already), (1, 2));
    assert_eq!(s.cards.len(), 2);
    assert_eq!((s.cards[0].added, s.cards[1].added), (5, 9));
}
