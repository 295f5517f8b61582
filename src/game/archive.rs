//! Games kept as PGN files of their own in the data folder's `games/`,
//! written safely (a temporary file renamed over the target, see
//! [`crate::fsutil`]). The board's `s` key, the analysis board's `:save`
//! and the line mode's `save` all save here.

use std::path::{Path, PathBuf};

use thiserror::Error;

use super::GameEnd;
use super::pgn::Headers;

/// A game that could not be written, and where it was going.
#[derive(Debug, Error)]
#[error("cannot save {}: {source}", path.display())]
pub struct SaveError {
    pub path: PathBuf,
    pub source: std::io::Error,
}

/// The folder of saved games in the data folder `data_dir`.
pub fn games_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("games")
}

/// Write `pgn` to a new file `games/PREFIX-YYYYMMDD-HHMMSS.pgn` in the
/// data folder (created if missing), `...-HHMMSS-2.pgn` and on when a game
/// was saved there the same second: a saved game is never replaced. The
/// path written.
pub fn save_in_games(data_dir: &Path, prefix: &str, pgn: &str) -> Result<PathBuf, SaveError> {
    let (date, time) = date_and_time();
    let stem = format!("{prefix}-{}-{time}", date.replace('.', ""));
    let dir = games_dir(data_dir);
    for n in 1..=1000 {
        let path = match n {
            1 => dir.join(format!("{stem}.pgn")),
            n => dir.join(format!("{stem}-{n}.pgn")),
        };
        match crate::fsutil::write_new(&path, pgn) {
            Ok(true) => return Ok(path),
            Ok(false) => {}
            Err(source) => return Err(SaveError { path, source }),
        }
    }
    Err(SaveError {
        path: dir.join(format!("{stem}.pgn")),
        source: std::io::Error::other("a thousand games were saved this second"),
    })
}

/// The name a player has in a game against the engine: "You", or
/// "kibitz level N" for the engine.
pub fn versus_engine_name(is_engine: bool, level: u8) -> String {
    if is_engine {
        format!("kibitz level {level}")
    } else {
        "You".into()
    }
}

/// The headers of a game played in kibitz: the players, the date it
/// started, its result and how it ended, and the time control as PGN
/// writes it ("-" untimed, "300+3").
pub fn game_headers(
    white: &str,
    black: &str,
    date: &str,
    end: Option<GameEnd>,
    time_control: &str,
) -> Headers {
    let mut headers = Headers::new(white, black, date, end.map_or("*", GameEnd::result));
    headers.set("TimeControl", time_control);
    if let Some(end) = end {
        headers.set("Termination", end.termination());
    }
    headers
}

/// Today's date and the time, `YYYY.MM.DD` and `HHMMSS`, from the system
/// clock (UTC): for PGN headers and file names.
pub fn date_and_time() -> (String, String) {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    let (y, m, d) = civil_from_days(days);
    let rest = secs % 86_400;
    (
        format!("{y:04}.{m:02}.{d:02}"),
        format!("{:02}{:02}{:02}", rest / 3600, rest / 60 % 60, rest % 60),
    )
}

/// Days since 1970-01-01 to a (year, month, day) of the proleptic Gregorian
/// calendar (the well-known era-based conversion).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_778), (2026, 11, 21));
    }

    #[test]
    fn games_saved_the_same_second_are_all_kept() {
        let dir = std::env::temp_dir().join(format!("kibitz-archive-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let games = ["1. e4 *\n", "1. d4 *\n", "1. c4 *\n"];
        let paths: Vec<PathBuf> = games
            .iter()
            .map(|pgn| save_in_games(&dir, "test", pgn).unwrap())
            .collect();
        // Each its own file, each with its own game (three saves run well
        // inside two seconds, so at least two shared a second's name).
        for (path, pgn) in paths.iter().zip(games) {
            assert_eq!(std::fs::read_to_string(path).unwrap(), pgn, "{path:?}");
        }
        let files = std::fs::read_dir(games_dir(&dir)).unwrap().count();
        assert_eq!(files, 3, "no temporary file left, none replaced");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
