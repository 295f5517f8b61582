#![allow(clippy::unwrap_used)]
use super::*;

fn game(number: usize, white: &str, black: &str) -> ReviewedGame {
    let side = SideSummary {
        moves: 10,
        blunders: 1,
        ..SideSummary::default()
    };
    ReviewedGame {
        hash: [0; 16],
        number,
        white: white.into(),
        black: black.into(),
        result: "*".into(),
        plies: 20,
        sides: [side, side],
        study: [Vec::new(), Vec::new()],
        pgn: String::new(),
        error: None,
        kept_marks: Vec::new(),
        evals: Vec::new(),
        start_turn: shakmaty::Color::White,
    }
}

fn names(players: &Players) -> Vec<(String, usize)> {
    players
        .by_name()
        .iter()
        .map(|p| (p.name.clone(), p.games))
        .collect()
}

fn row(name: &str, games: usize) -> (String, usize) {
    (name.to_string(), games)
}

#[test]
fn case_and_spacing_do_not_split_a_player_and_the_first_spelling_names_them() {
    let mut players = Players::default();
    players.add(&game(1, "Carlsen, Magnus", "Ann"));
    players.add(&game(2, "carlsen,magnus", " ann "));
    players.add(&game(3, "CARLSEN ,  Magnus", "M. Carlsen"));
    assert_eq!(
        names(&players),
        [
            row("Ann", 2),
            row("Carlsen, Magnus", 3),
            row("M. Carlsen", 1)
        ]
    );
    assert_eq!(players.get("carlsen, MAGNUS").unwrap().games, 3);
    assert_eq!(players.get("Carlsen, Magnus").unwrap().summary.blunders, 3);
}

#[test]
fn aliases_merge_spellings_under_the_name_given_even_in_chains() {
    let mut aliases = Aliases::default();
    aliases.add_flag("Magnus Carlsen=Carlsen, Magnus").unwrap();
    aliases.add_flag("Magnus Carlsen=M. Carlsen").unwrap();
    // A chain: DrNykterstein is Carlsen too, through another alias.
    aliases.add_flag("M. Carlsen=DrNykterstein").unwrap();
    let mut players = Players::with_aliases(aliases);
    players.add(&game(1, "Carlsen, Magnus", "Ann"));
    players.add(&game(2, "Ann", "m. carlsen"));
    players.add(&game(3, "DrNykterstein", "Bob"));
    players.add(&game(4, "Magnus Carlsen", "Bob"));
    assert_eq!(
        names(&players),
        [row("Ann", 2), row("Bob", 2), row("Magnus Carlsen", 4)]
    );
    assert_eq!(players.get("DrNykterstein").unwrap().games, 4);
    assert!(players.has_aliases());
}

#[test]
fn unknown_names_never_merge_even_by_alias() {
    let mut aliases = Aliases::default();
    for text in [
        "Bob=?",
        "?=Bob",
        "NN=Bob",
        "Bob=-",
        "Bob=",
        "=Bob",
        "Bob= n.n. ",
    ] {
        let why = aliases.add_flag(text).unwrap_err();
        assert!(why.contains("names no one"), "{text}: {why}");
    }
    let why = aliases.add_flag("Bob").unwrap_err();
    assert!(why.contains("\"Name=Other Name\""), "{why}");
    assert!(aliases.is_empty());
    let mut players = Players::with_aliases(aliases);
    players.add(&game(1, "?", "NN"));
    players.add(&game(2, "?", "nn"));
    assert_eq!(players.len(), 4, "{:?}", names(&players));
}

#[test]
fn names_fold_case_spaces_and_commas_only() {
    assert_eq!(fold("  Carlsen,Magnus "), "carlsen, magnus");
    assert_eq!(fold("carlsen ,  MAGNUS"), "carlsen, magnus");
    assert_eq!(fold("Ánna  Ölund"), "ánna ölund");
    assert_ne!(fold("M. Carlsen"), fold("M.Carlsen"));
}
