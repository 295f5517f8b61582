use std::path::PathBuf;

use shakmaty::{Chess, Position};

use super::*;

fn after_e4() -> Chess {
    let start = Chess::default();
    let e4 = "e4"
        .parse::<shakmaty::san::San>()
        .unwrap()
        .to_move(&start)
        .unwrap();
    start.play(e4).unwrap()
}

#[test]
fn a_stale_answer_never_shows() {
    let mut panel = ExplorerPanel::new(Some(PathBuf::from("games.sqlite")), false);
    assert_eq!(panel.refresh(&Chess::default()), None, "hidden: no query");
    panel.shown = true;
    let Some(DbRequest::Explore {
        generation: first, ..
    }) = panel.refresh(&Chess::default())
    else {
        panic!("no query");
    };
    assert_eq!(panel.refresh(&Chess::default()), None, "asked already");
    let Some(DbRequest::Explore {
        generation: second, ..
    }) = panel.refresh(&after_e4())
    else {
        panic!("no query for the new position");
    };
    assert!(panel.waiting);
    // The start position's answer arrives after the board moved on.
    assert!(!panel.reply(first, Ok(Explorer::default())));
    assert!(panel.answer.is_none() && panel.waiting);
    assert!(panel.reply(second, Ok(Explorer::default())));
    assert!(!panel.waiting);
    assert!(panel.about(&after_e4()).is_some());
    assert!(panel.about(&Chess::default()).is_none());
    assert_eq!(
        panel.picked(&Chess::default()),
        Err("The explorer is still looking at this position.")
    );
}

#[test]
fn filters_are_typed_as_words() {
    let mut panel = ExplorerPanel::default();
    assert_eq!(
        panel.command("player Carlsen, Magnus white"),
        Ok("Explorer: Carlsen, Magnus as White.".to_string())
    );
    assert_eq!(panel.filter.side, PlayerSide::White);
    panel.command("since 2015").unwrap();
    panel.command("until 2016.06").unwrap();
    panel.command("result draw").unwrap();
    panel.command("elo 2400-2700").unwrap();
    assert_eq!(panel.filter.since, Some(20_150_000));
    assert_eq!(panel.filter.until, Some(20_160_631));
    assert_eq!(panel.filter.result, Some(1));
    assert_eq!(
        (panel.filter.min_elo, panel.filter.max_elo),
        (Some(2400), Some(2700))
    );
    assert_eq!(
        panel.filter_text(),
        "Carlsen, Magnus as White, since 2015, until 2016.06, draws, Elo 2400-2700"
    );
    assert!(panel.command("since 15").is_err());
    assert!(panel.command("result maybe").is_err());
    assert!(panel.command("colour white").is_err());
    assert_eq!(
        panel.command("clear"),
        Ok("Explorer: all games.".to_string())
    );
    assert!(panel.filter.is_empty());
}

#[test]
fn dates_left_open_cover_their_year_or_month() {
    assert_eq!(parse_day("2015", false), Some(20_150_000));
    assert_eq!(parse_day("2015", true), Some(20_151_231));
    assert_eq!(parse_day("2015-03-09", true), Some(20_150_309));
    assert_eq!(parse_day("2015.13", false), None);
    assert_eq!(parse_day("2015.1.2.3", false), None);
}

#[test]
fn naming_the_same_database_again_asks_again() {
    let path = PathBuf::from("games.sqlite");
    let mut panel = ExplorerPanel::new(Some(path.clone()), true);
    panel.shown = true;
    let Some(DbRequest::Explore { generation, .. }) = panel.refresh(&Chess::default()) else {
        panic!("no query");
    };
    assert!(panel.reply(generation, Ok(Explorer::default())));
    // `:db games.sqlite` after the file was rebuilt: the old answer goes
    // and the position is asked about again (never "Asking…" for good).
    panel.set_database(&path);
    assert!(panel.answer.is_none());
    assert!(panel.refresh(&Chess::default()).is_some());
}

#[test]
fn the_players_side_is_read_in_any_case_and_a_quoted_name_keeps_its_words() {
    let mut panel = ExplorerPanel::default();
    assert_eq!(
        panel.command("player cancer0707 White"),
        Ok("Explorer: cancer0707 as White.".to_string())
    );
    assert_eq!(panel.filter.side, PlayerSide::White);
    assert_eq!(
        panel.command("player cancer0707 BLACK"),
        Ok("Explorer: cancer0707 as Black.".to_string())
    );
    assert_eq!(
        panel.command("player \"Barry White\""),
        Ok("Explorer: Barry White.".to_string())
    );
    assert_eq!(panel.filter.player.as_deref(), Some("Barry White"));
    assert_eq!(panel.filter.side, PlayerSide::Any);
    assert_eq!(
        panel.command("player \"Barry White\" black"),
        Ok("Explorer: Barry White as Black.".to_string())
    );
    assert!(panel.command("player \"Barry White").is_err());
}

#[test]
fn an_end_date_shows_as_given_and_empty_ranges_are_refused() {
    let mut panel = ExplorerPanel::default();
    assert_eq!(
        panel.command("until 2016.06"),
        Ok("Explorer: until 2016.06.".to_string())
    );
    assert_eq!(
        panel.command("until 2016"),
        Ok("Explorer: until 2016.".to_string())
    );
    let refused = panel.command("since 2017.03").unwrap_err();
    assert!(refused.contains("after until 2016"), "{refused}");
    assert_eq!(panel.filter.since, None, "the filter is left as it was");
    let refused = panel.command("elo 1400-1200").unwrap_err();
    assert!(refused.contains("1200-1400"), "{refused}");
    assert_eq!(panel.filter.min_elo, None);
}
