//! The exported map, byte for byte, of tables built and counted by hand
//! (see `overlay::tests::hand_built`).

use super::*;
use crate::tui::heatmap::MapState;
use crate::tui::heatmap::overlay::tests::hand_built;

fn heat_of(words: &[&str]) -> HeatMap {
    let mut state = MapState::default();
    for w in words {
        state.command(w).unwrap();
    }
    state.heat(Some(&hand_built()), None).unwrap()
}

#[test]
fn the_diagram_of_an_overlay() {
    let expected = "\
Move-table map: white knight ∩ black queen · touches · since the game began
Values: where wn and bq are both nonzero, the smaller of the two (times considered). Blank (.): where either is 0.
2 squares shared; 3 links between wn and bq, the strongest wn g1→bq d8 ×2.
  a b c d e f g h
8 . . . . . . . .
7 . . . . . . . .
6 . . . . . . . .
5 . . . . 1 . . .
4 . . . . . . . .
3 . . . . . 3 . .
2 . . . . . . . .
1 . . . . . . . .
  a b c d e f g h
";
    assert_eq!(diagram(&heat_of(&["wn+bq"])), expected);
}

/// One table in the net view: a column as wide as "-1", signs kept.
#[test]
fn the_diagram_of_one_table_aligns_its_numbers() {
    let expected = "\
Move-table map: white knight · net · since the game began
Values: gains - losses. Blank (.): 0 or never considered.
   a  b  c  d  e  f  g  h
8  .  .  .  .  .  .  .  .
7  .  .  .  .  .  .  .  .
6  .  .  .  .  .  .  .  .
5  .  .  .  1 -1  .  .  .
4  .  .  .  .  .  .  .  .
3  .  .  2  .  .  1  .  .
2  .  .  .  .  .  .  .  .
1  .  1  .  .  .  .  2  .
   a  b  c  d  e  f  g  h
";
    assert_eq!(diagram(&heat_of(&["wn", "net"])), expected);
    let importance = diagram(&heat_of(&["bq", "importance", "scope search"]));
    assert!(
        importance.starts_with(
            "Move-table map: black queen · importance (Greer's) · this search\n\
             Values: |gains - losses|. Blank (.): 0, never considered or back to 0.\n"
        ),
        "{importance}"
    );
}

/// The CSV of the overlay: every square a1..h8, its value and band, what
/// the map is, and each table's own touches (wn: g1 2, f3 3, e5 1, b1 1,
/// c3 2, d5 1; bq: d8 3, f6 6, f3 3, e5 1, a5 2, a4 1).
#[test]
fn the_csv_of_an_overlay() {
    let own = |square: &str| -> (&str, i32, i32) {
        match square {
            "f3" => ("3,1", 3, 3),
            "e5" => ("1,4", 1, 1),
            "g1" => ("0,", 2, 0),
            "c3" => ("0,", 2, 0),
            "b1" | "d5" => ("0,", 1, 0),
            "d8" => ("0,", 0, 3),
            "f6" => ("0,", 0, 6),
            "a5" => ("0,", 0, 2),
            "a4" => ("0,", 0, 1),
            _ => ("0,", 0, 0),
        }
    };
    let mut expected = String::from("square,value,band,table,view,scope,source,wn,bq\n");
    for rank in 1..=8 {
        for file in 'a'..='h' {
            let square = format!("{file}{rank}");
            let (value_band, wn, bq) = own(&square);
            expected.push_str(&format!(
                "{square},{value_band},wn+bq,touches,game,tables,{wn},{bq}\n"
            ));
        }
    }
    assert_eq!(csv(&heat_of(&["wn+bq"])), expected);
}

/// One table in the net view: bands are the signed marks; the history
/// and counter maps have no scope; the counter's squares are "to" and
/// "from".
#[test]
fn the_csv_names_the_bands_as_the_board_marks_them() {
    let net = csv(&heat_of(&["wn", "net"]));
    assert!(
        net.starts_with("square,value,band,table,view,scope,source\n"),
        "{net}"
    );
    assert!(net.contains("\ng1,2,+3,wn,net,game,tables\n"), "{net}");
    assert!(net.contains("\ne5,-1,-3,wn,net,game,tables\n"), "{net}");
    assert!(net.contains("\nh8,0,,wn,net,game,tables\n"), "{net}");
    assert_eq!(net.lines().count(), 65);
    let history = csv(&heat_of(&["history"]));
    assert!(
        history.contains("\na1,0,,all,|score|,,history\n"),
        "{history}"
    );
}

/// The counter map over an overlay: two squares, no values, and as many
/// columns in each row as in the header.
#[test]
fn the_counter_map_exports_its_two_squares() {
    use shakmaty::{Color, Move, Role, Square};
    let mut weights = hand_built();
    let played = Move::Normal {
        role: Role::Pawn,
        from: Square::E2,
        capture: None,
        to: Square::E4,
        promotion: None,
    };
    let reply = Move::Normal {
        role: Role::Knight,
        from: Square::G8,
        capture: None,
        to: Square::F6,
        promotion: None,
    };
    // The counter slot of the white pawn's move to e4: by the refuted
    // move's table, then its destination.
    let wp = crate::engine::movetables::TableId::new(Color::White, Role::Pawn);
    weights.counters[wp.index() * 64 + Square::E4.to_usize()] = Some(reply);
    let mut state = MapState::default();
    state.command("wn+bq").unwrap();
    state.command("counter").unwrap();
    let heat = state
        .heat(Some(&weights), Some((Color::White, played)))
        .unwrap();
    let text = csv(&heat);
    assert!(
        text.starts_with("square,value,band,table,view,scope,source\n"),
        "{text}"
    );
    assert!(text.lines().all(|l| l.matches(',').count() == 6), "{text}");
    // No table or view: the counter map shows neither.
    assert!(text.contains("\nf6,,to,,,,counter\n"), "{text}");
    assert!(text.contains("\ng8,,from,,,,counter\n"), "{text}");
    let diagram = diagram(&heat);
    assert!(
        diagram.starts_with(
            "Counter-move map: white pawn to e4: last refuted by the black knight to f6\n"
        ),
        "{diagram}"
    );
    assert!(
        diagram.contains("\n8    .    .    .    .    .    . from    .\n"),
        "{diagram}"
    );
}

#[test]
fn the_name_says_the_format() {
    assert_eq!(Format::of(Path::new("map.csv")), Format::Csv);
    assert_eq!(Format::of(Path::new("/tmp/MAP.CSV")), Format::Csv);
    assert_eq!(Format::of(Path::new("map.txt")), Format::Diagram);
    assert_eq!(Format::of(Path::new("csv")), Format::Diagram);
}

#[test]
fn no_map_no_export() {
    let why = write(None, Path::new("never-written.csv"), false).unwrap_err();
    assert!(why.starts_with("No map is shown"), "{why}");
    assert!(!Path::new("never-written.csv").exists());
}

/// What follows `:map export`: `!` apart or joined, one pair of quotes off.
#[test]
fn the_file_words() {
    assert_eq!(file_words(" map.csv"), (false, "map.csv"));
    assert_eq!(file_words("! y.csv"), (true, "y.csv"));
    assert_eq!(file_words(" ! y.csv"), (true, "y.csv"));
    assert_eq!(file_words("!y.csv"), (true, "y.csv"));
    assert_eq!(
        file_words(" \"quoted name.csv\""),
        (false, "quoted name.csv")
    );
    assert_eq!(file_words("! 'a b.txt'"), (true, "a b.txt"));
    assert_eq!(file_words(" \"\""), (false, "\"\""));
}

/// A long folder is cut in the middle, its last parts kept.
#[test]
fn a_long_folder_is_cut_in_the_middle() {
    assert_eq!(short_folder("/tmp/maps", 24), "/tmp/maps");
    assert_eq!(
        short_folder("/home/someone/very/long/path/of/kibitz/maps", 24),
        "/home/…/of/kibitz/maps"
    );
    assert_eq!(
        short_folder("/home/a-folder-name-longer-than-the-room", 12),
        "…an-the-room"
    );
}

/// The overlay's net view says its values have no sign, in the diagram
/// and the legend's words alike; no links is said as the legend says it.
#[test]
fn the_overlay_net_view_says_it_has_no_sign() {
    let heat = heat_of(&["wn+bq", "net"]);
    assert_eq!(
        words::shown_counts(&heat),
        "gains - losses, without its sign"
    );
    assert!(
        diagram(&heat).contains("(gains - losses, without its sign)"),
        "{}",
        diagram(&heat)
    );
    let none = diagram(&heat_of(&["wn+wb"]));
    assert!(none.contains("; no links between wn and wb."), "{none}");
}

/// `~` alone is the home folder (refused as a folder when written), not a
/// file named "~"; `~/x` is in it.
#[test]
fn a_tilde_is_the_home_folder() {
    let home = std::ffi::OsStr::new("/home/someone");
    assert_eq!(path_of("~", Some(home)), Path::new("/home/someone"));
    assert_eq!(
        path_of("~/maps/a.csv", Some(home)),
        Path::new("/home/someone/maps/a.csv")
    );
    assert_eq!(path_of("a~.csv", Some(home)), Path::new("a~.csv"));
    let folder = std::env::temp_dir();
    let why = write(
        Some(&heat_of(&["wn"])),
        &path_of("~", Some(folder.as_os_str())),
        false,
    )
    .unwrap_err();
    assert!(why.contains("directory"), "{why}");
}
