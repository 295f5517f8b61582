//! The whole-file review's tables sort: the games by each column (`s`
//! takes the next, `r` reverses), the order named in the header, Enter
//! opening the game under the pointer in that order.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use kibitz::config::ThemeName;
use kibitz::review::SideSummary;
use kibitz::review::batch::ReviewedGame;
use kibitz::tui::overlays::review_all::{ReviewAll, ReviewAllEvent, ReviewAllKey};
use kibitz::tui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

fn game(number: usize, white: &str, black: &str, result: &str, blunders: usize) -> ReviewedGame {
    let side = |blunders| {
        let mut side = SideSummary::default();
        side.moves = 10;
        side.blunders = blunders;
        side
    };
    ReviewedGame {
        hash: [0; 16],
        number,
        white: white.into(),
        black: black.into(),
        result: result.into(),
        plies: 20,
        sides: [side(blunders), side(0)],
        study: [Vec::new(), Vec::new()],
        pgn: String::new(),
        error: None,
        kept_marks: Vec::new(),
        evals: Vec::new(),
        start_turn: shakmaty::Color::White,
    }
}

fn screen(review: &ReviewAll, now: Instant) -> String {
    let mut terminal = Terminal::new(TestBackend::new(100, 24)).unwrap();
    let theme = Theme::get(ThemeName::Classic);
    terminal
        .draw(|frame| review.draw(frame, frame.area(), &theme, now))
        .unwrap();
    let buffer = terminal.backend().buffer().clone();
    let area = buffer.area;
    (area.top()..area.bottom())
        .map(|y| {
            (area.left()..area.right())
                .map(|x| buffer[(x, y)].symbol())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The games' numbers in the order the table shows them.
fn order(review: &ReviewAll, now: Instant) -> Vec<usize> {
    screen(review, now)
        .lines()
        .filter_map(|l| {
            let row = l.trim_start_matches([' ', '│']);
            let row = row.trim_start_matches(['▶', ' ']);
            let first = row.split_whitespace().next()?;
            let with_name = l.contains("Cleo") || l.contains("Ann") || l.contains("Bob");
            first.parse().ok().filter(|_| with_name)
        })
        .collect()
}

fn press(review: &mut ReviewAll, c: char) -> ReviewAllKey {
    review.key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE), 10)
}

#[test]
fn the_games_table_sorts_by_each_column_and_says_so() {
    let now = Instant::now();
    let mut review = ReviewAll::new(
        PathBuf::from("club.pgn"),
        1,
        Duration::from_millis(300),
        1,
        now,
    );
    for g in [
        game(1, "Cleo", "Ann", "0-1", 1),
        game(2, "Ann", "Bob", "1-0", 3),
        game(3, "Bob", "Cleo", "1/2-1/2", 0),
    ] {
        review.event(ReviewAllEvent::Game(Box::new(g)), now);
    }
    review.event(ReviewAllEvent::Done(Ok(None)), now);
    review.key(KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE), 10);
    let shown = screen(&review, now);
    assert!(
        shown.contains("Games, by number · s sort · r reverse"),
        "{shown}"
    );
    assert_eq!(order(&review, now), [1, 2, 3]);
    press(&mut review, 's');
    assert!(screen(&review, now).contains("Games, by White ·"));
    assert_eq!(order(&review, now), [2, 3, 1], "Ann, Bob, Cleo");
    press(&mut review, 's');
    assert!(screen(&review, now).contains("Games, by Black ·"));
    assert_eq!(order(&review, now), [1, 2, 3], "Ann, Bob, Cleo");
    press(&mut review, 's');
    assert!(screen(&review, now).contains("Games, by result ·"));
    assert_eq!(order(&review, now), [2, 3, 1], "1-0, ½-½, 0-1");
    press(&mut review, 'r');
    assert!(screen(&review, now).contains("Games, by result (reversed) ·"));
    assert_eq!(order(&review, now), [1, 3, 2]);
    // Enter opens the game under the pointer in the order shown.
    assert_eq!(
        review.key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE), 10),
        ReviewAllKey::OpenGame(PathBuf::from("club.pgn"), 1)
    );
    for _ in 0..3 {
        press(&mut review, 's');
    }
    assert!(screen(&review, now).contains("Games, by blunders ·"));
    assert_eq!(order(&review, now), [2, 1, 3], "3, 1, 0 blunders");
    press(&mut review, 's');
    assert!(screen(&review, now).contains("Games, by number ·"));
    assert_eq!(order(&review, now), [1, 2, 3]);
    // The players' order is its own.
    review.key(KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE), 10);
    assert!(screen(&review, now).contains("Players, by name ·"));
}
