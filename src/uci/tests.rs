use super::*;
use std::time::Duration;

#[test]
fn parses_go_with_every_limit() {
    let cmd: UciCommand =
        "go wtime 1000 btime -5 winc 10 binc 20 movestogo 7 depth 9 nodes 100 mate 3 movetime 50"
            .parse()
            .unwrap();
    let UciCommand::Go {
        limits,
        ponder,
        ignored,
        problems,
        ..
    } = cmd
    else {
        panic!()
    };
    assert!(!ponder);
    assert!(ignored.is_empty() && problems.is_empty());
    assert_eq!(limits.white_time, Some(Duration::from_millis(1000)));
    assert_eq!(limits.black_time, Some(Duration::ZERO));
    assert_eq!(limits.black_increment, Some(Duration::from_millis(20)));
    assert_eq!(limits.moves_to_go, Some(7));
    assert_eq!(limits.depth, Some(9));
    assert_eq!(limits.nodes, Some(100));
    assert_eq!(limits.mate, Some(3));
    assert_eq!(limits.movetime, Some(Duration::from_millis(50)));
}

#[test]
fn parses_position_and_options() {
    assert_eq!(
        "position startpos moves e2e4 e7e5"
            .parse::<UciCommand>()
            .unwrap(),
        UciCommand::Position {
            fen: None,
            moves: vec!["e2e4".into(), "e7e5".into()]
        }
    );
    assert_eq!(
        "setoption name Clear Hash".parse::<UciCommand>().unwrap(),
        UciCommand::SetOption {
            name: "Clear Hash".into(),
            value: None
        }
    );
    let UciCommand::Go {
        limits, problems, ..
    } = "go depth x nodes 500 wtime movestogo 0".parse().unwrap()
    else {
        panic!()
    };
    assert_eq!(limits.nodes, Some(500), "the good value counts");
    assert_eq!(
        (limits.depth, limits.white_time, limits.moves_to_go),
        (None, None, None)
    );
    assert_eq!(
        problems,
        [
            "'depth x': not a valid number",
            "'wtime' needs a value",
            "'movestogo 0': must be at least 1"
        ]
    );
    let UciCommand::Go {
        limits,
        ignored,
        search_moves,
        ..
    } = "go searchmoves e2e4 d2d4 wtime 500 frob".parse().unwrap()
    else {
        panic!()
    };
    assert_eq!(limits.white_time, Some(Duration::from_millis(500)));
    assert_eq!(
        search_moves,
        Some(vec!["e2e4".to_string(), "d2d4".to_string()])
    );
    assert_eq!(ignored, ["frob"]);
    assert!("position".parse::<UciCommand>().is_err());
    assert!("xyzzy".parse::<UciCommand>().is_err());
}

#[test]
fn every_listed_option_is_known_in_any_case() {
    for option in options::listed() {
        let line = option.to_string();
        assert!(line.starts_with(&format!("option name {} type ", option.name)));
        for typed in [
            option.name.to_ascii_lowercase(),
            option.name.to_ascii_uppercase(),
        ] {
            assert_eq!(options::known_name(&typed), Some(option.name), "{line}");
        }
    }
    assert_eq!(options::known_name("ponder"), Some("Ponder"));
    assert_eq!(options::known_name("Frobnicate"), None);
    assert_eq!(options::known_name("Clear"), None, "a part is not a name");
}
