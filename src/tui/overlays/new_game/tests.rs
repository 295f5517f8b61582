//! The new-game dialog's level ratings and remembered choices.

use super::*;

#[test]
fn the_levels_ratings_rise_with_the_level() {
    let mut form = NewGameForm::new(&Settings::default(), None);
    let mut last = 0;
    for level in 1..=10 {
        form.level = level;
        let text = form.value(1);
        let rating: u32 = text
            .split("about ")
            .nth(1)
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("level {level}: no rating in {text:?}"));
        assert!(rating > last, "level {level}: {text:?} after {last}");
        last = rating;
    }
    form.level = 1;
    assert!(form.value(1).contains("below 790"), "{}", form.value(1));
}

#[test]
fn the_choices_are_read_back_and_a_bad_file_is_none() {
    let choices = Choices {
        side: 1,
        level: 8,
        time: TimeControl::presets().len(),
        custom_seconds: 900,
        custom_increment: 10,
        start: StartChoice::Chess960(518),
    };
    assert_eq!(Choices::parse(&choices.to_text()), Some(choices));
    let random = Choices {
        start: StartChoice::Chess960Random,
        ..choices
    };
    assert_eq!(Choices::parse(&random.to_text()), Some(random));
    for bad in [
        "",
        "not toml at all [",
        "side = 9\nlevel = 8\ntime = 0\ncustom_seconds = 300\ncustom_increment = 3\nstart = \"standard\"",
        "side = 0\nlevel = 0\ntime = 0\ncustom_seconds = 300\ncustom_increment = 3\nstart = \"standard\"",
        "side = 0\nlevel = 5\ntime = 0\ncustom_seconds = 300\ncustom_increment = 3\nstart = \"chess960 960\"",
    ] {
        assert_eq!(Choices::parse(bad), None, "{bad:?}");
    }
    // A remembered given position without one is the standard start.
    let given = Choices {
        start: StartChoice::Given,
        ..choices
    };
    let form = NewGameForm::remembered(&Settings::default(), None, Some(&given));
    assert_eq!(
        (form.side, form.level, form.start),
        (1, 8, StartChoice::Standard)
    );
}
