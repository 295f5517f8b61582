use super::*;

fn game(number: usize) -> ReviewedGame {
    ReviewedGame {
        hash: [0; 16],
        number,
        white: "Ann".into(),
        black: "Bob".into(),
        result: "*".into(),
        plies: 0,
        sides: [SideSummary::default(); 2],
        study: [Vec::new(), Vec::new()],
        pgn: String::new(),
        error: None,
        kept_marks: Vec::new(),
        evals: Vec::new(),
        start_turn: shakmaty::Color::White,
    }
}

/// The time left is the pace so far for the games to come, counting
/// down between games; a review that ends early says it stopped.
#[test]
fn the_time_left_counts_down_and_a_stop_is_named() {
    let t0 = Instant::now();
    let at = |s: u64| t0 + Duration::from_secs(s);
    let mut review = ReviewAll::new("f.pgn".into(), 1, Duration::from_millis(300), 1, t0);
    review.event(ReviewAllEvent::Total(4), t0);
    assert_eq!(review.state(at(5)), "reviewing… 0 of 4 games");
    review.event(ReviewAllEvent::Game(Box::new(game(1))), at(10));
    assert_eq!(
        review.state(at(10)),
        "reviewing… 1 of 4 games, about 30s left"
    );
    assert_eq!(
        review.state(at(25)),
        "reviewing… 1 of 4 games, about 15s left"
    );
    review.event(ReviewAllEvent::Game(Box::new(game(2))), at(30));
    assert_eq!(
        review.state(at(30)),
        "reviewing… 2 of 4 games, about 30s left"
    );
    review.event(ReviewAllEvent::Done(Ok(None)), at(31));
    assert!(review.stopped());
    assert_eq!(review.state(at(31)), "2 of 4 games reviewed, stopped");
    assert_eq!(review.players.by_name().len(), 2);
}

/// With the games' lengths known (the game list's), the time left is
/// there from the start: every position's time on as many threads;
/// then the pace a position so far for the positions to come.
#[test]
fn the_time_left_is_estimated_from_the_start_and_refined() {
    let t0 = Instant::now();
    let at = |s: u64| t0 + Duration::from_secs(s);
    // 81 + 81 + 91 + 101 + 111 + 41 = 506 positions.
    let plies = vec![80, 80, 90, 100, 110, 40];
    let review = ReviewAll::new("f.pgn".into(), 1, Duration::from_millis(300), 2, t0);
    let mut review = review.with_plies(plies);
    // 506 × 0.3 s / 2 threads = 75.9 s.
    assert_eq!(
        review.state(t0),
        "reviewing… 0 of 6 games, about 1m15s left"
    );
    assert_eq!(
        review.state(at(10)),
        "reviewing… 0 of 6 games, about 1m05s left"
    );
    review.event(ReviewAllEvent::Total(6), at(11));
    let mut first = game(1);
    first.plies = 80;
    review.event(ReviewAllEvent::Game(Box::new(first)), at(27));
    // 27 s for 81 positions: 425 to come take 141.7 s.
    assert_eq!(
        review.state(at(27)),
        "reviewing… 1 of 6 games, about 2m21s left"
    );
}

/// The box's title: the estimate shortened, then "Review of" dropped, and
/// only then cut, after a whole word with "…".
#[test]
fn the_title_fits_its_box_without_cutting_a_token() {
    let state = "reviewing… 0 of 6 games, about 2m26s left";
    let name = "kasparov-deep-blue-1997.pgn";
    assert_eq!(
        fitted_title(name, state, 120),
        format!("Review of {name} · {state}")
    );
    assert_eq!(
        fitted_title(name, state, 82),
        format!("Review of {name} · reviewing… 0 of 6 games, ~2m26s left")
    );
    assert_eq!(
        fitted_title(name, state, 76),
        format!("{name} · reviewing… 0 of 6 games, ~2m26s left")
    );
    assert_eq!(
        fitted_title(name, state, 50),
        format!("{name} · reviewing… 0 of…")
    );
}

/// The config file's aliases merge a person's spellings in the players'
/// table as they do in `review --all`; an alias naming no one is left out.
#[test]
fn the_config_aliases_merge_players_in_the_table() {
    let t0 = Instant::now();
    let aliases = [
        ("Ann Smith".to_string(), "Ann".to_string()),
        ("Bob".to_string(), "?".to_string()),
    ];
    let mut review =
        ReviewAll::new("f.pgn".into(), 1, Duration::from_millis(300), 1, t0).with_aliases(&aliases);
    let mut second = game(2);
    second.white = "ann smith".into();
    review.event(ReviewAllEvent::Game(Box::new(game(1))), t0);
    review.event(ReviewAllEvent::Game(Box::new(second)), t0);
    let names: Vec<(&str, usize)> = review
        .players_sorted()
        .iter()
        .map(|p| (p.name.as_str(), p.games))
        .collect();
    assert_eq!(names, [("Ann Smith", 2), ("Bob", 2)]);
}
