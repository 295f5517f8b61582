//! The autosave: after every move the game in progress is written to
//! `autosave.json` in the data directory (temp file + rename), and the next
//! start offers to resume it. Saved PGNs go to `games/` beside it
//! ([`crate::game::archive`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use shakmaty::{Chess, Color};

use crate::config::TimeControl;
use crate::engine::level::Level;
use crate::fsutil::write_atomic;
use crate::game::Game;
pub use crate::game::archive::date_and_time;
use crate::game::fen::{parse_fen, parse_fen_960};
use crate::game::notation::{parse_uci, uci};

/// Version of the autosave format; an autosave of another version is ignored.
const VERSION: u32 = 1;

/// Who plays whom.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Players {
    /// A person plays `human` against the engine at `level`.
    VsEngine { human: Color, level: Level },
    /// Two people share the board.
    TwoHumans,
}

impl Players {
    /// Whether the engine plays `color`.
    pub fn engine_plays(self, color: Color) -> bool {
        matches!(self, Players::VsEngine { human, .. } if human != color)
    }

    /// Name of the player of `color` for headers and the title.
    pub fn name(self, color: Color) -> String {
        match self {
            Players::VsEngine { human, level } => {
                crate::game::archive::versus_engine_name(human != color, level.get())
            }
            Players::TwoHumans => if color.is_white() { "White" } else { "Black" }.into(),
        }
    }
}

/// The autosave file's contents.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedGame {
    pub version: u32,
    /// `None` = the standard start position.
    pub start_fen: Option<String>,
    /// A Chess960 game (its start FEN may look standard: number 518).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub chess960: bool,
    pub moves: Vec<String>,
    /// "white", "black" (the human's colour) or "two".
    pub players: String,
    pub level: u8,
    /// As in the config file: "5+3" or "untimed".
    pub time_control: String,
    pub white_ms: u64,
    pub black_ms: u64,
    pub finished: bool,
}

impl SavedGame {
    pub fn new(
        game: &Game,
        players: Players,
        time_control: TimeControl,
        times: (Duration, Duration),
        finished: bool,
    ) -> SavedGame {
        let (players, level) = match players {
            Players::VsEngine { human, level } => (
                if human.is_white() { "white" } else { "black" }.to_string(),
                level.get(),
            ),
            Players::TwoHumans => ("two".to_string(), 0),
        };
        SavedGame {
            version: VERSION,
            start_fen: game.start_fen(),
            chess960: crate::game::chess960::is_chess960(game.start()),
            moves: game.moves().iter().map(|&m| uci(m)).collect(),
            players,
            level,
            time_control: time_control.to_string(),
            white_ms: u64::try_from(times.0.as_millis()).unwrap_or(u64::MAX),
            black_ms: u64::try_from(times.1.as_millis()).unwrap_or(u64::MAX),
            finished,
        }
    }

    /// Rebuild the game; `Err` says what is wrong with the file.
    pub fn restore(&self) -> Result<(Game, Players, TimeControl), String> {
        if self.version != VERSION {
            return Err(format!(
                "autosave version {} is not {VERSION}",
                self.version
            ));
        }
        let start = match &self.start_fen {
            Some(fen) if self.chess960 => parse_fen_960(fen).map_err(|e| e.to_string())?,
            Some(fen) => parse_fen(fen).map_err(|e| e.to_string())?,
            None if self.chess960 => crate::game::chess960::standard_start(),
            None => Chess::default(),
        };
        let mut game = Game::new(start);
        for (index, text) in self.moves.iter().enumerate() {
            let m =
                parse_uci(game.position(), text).map_err(|e| format!("move {}: {e}", index + 1))?;
            game.play(m);
        }
        let players = match self.players.as_str() {
            "two" => Players::TwoHumans,
            side @ ("white" | "black") => Players::VsEngine {
                human: if side == "white" {
                    Color::White
                } else {
                    Color::Black
                },
                level: Level::new(self.level).ok_or("bad level")?,
            },
            other => return Err(format!("unknown players '{other}'")),
        };
        let time_control: TimeControl = self.time_control.parse()?;
        if let TimeControl::Fischer { base, increment } = time_control {
            // A clock gains the increment once a move at most: more than
            // that is not a time this game can have left.
            let moves = u32::try_from(self.moves.len()).unwrap_or(u32::MAX);
            let most = base.saturating_add(increment.saturating_mul(moves.saturating_add(1)));
            for (side, ms) in [("white", self.white_ms), ("black", self.black_ms)] {
                if u128::from(ms) > most.as_millis() {
                    return Err(format!(
                        "{side}'s clock of {ms} ms is more than a {time_control} game can have left after {} moves ({} ms)",
                        self.moves.len(),
                        most.as_millis()
                    ));
                }
            }
        }
        Ok((game, players, time_control))
    }
}

pub fn autosave_path(data_dir: &Path) -> PathBuf {
    data_dir.join("autosave.json")
}

pub fn write_autosave(data_dir: &Path, saved: &SavedGame) -> std::io::Result<()> {
    let text = serde_json::to_string_pretty(saved).map_err(std::io::Error::other)?;
    write_atomic(&autosave_path(data_dir), &text)
}

/// The unfinished game from the last session, if there is one worth offering.
/// A file that cannot be used is moved aside, to
/// `autosave.corrupt-YYYYMMDD-HHMMSS.json` beside it, so the next autosave
/// does not overwrite it; the error says why and where it went.
pub fn read_autosave(data_dir: &Path) -> Result<Option<SavedGame>, String> {
    let path = autosave_path(data_dir);
    let checked = match crate::fsutil::read_text_capped(
        &path,
        crate::fsutil::MAX_AUTOSAVE_BYTES,
        "an autosave",
    ) {
        Ok(text) => check_autosave(&text),
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => Err(e.why.to_string()),
    };
    match checked {
        Ok(saved) => Ok((!saved.finished && !saved.moves.is_empty()).then_some(saved)),
        Err(why) => Err(match keep_aside(&path) {
            // Where it went first: a status line may cut the end off.
            Ok(kept) => format!("kept as {}: {why}", kept.display()),
            Err(e) => format!(
                "{}: {why}; it could not be moved aside ({e}) and the next autosave replaces it",
                path.display()
            ),
        }),
    }
}

/// An autosave from its text, checked: every move legal, every clock possible.
pub fn check_autosave(text: &str) -> Result<SavedGame, String> {
    let saved: SavedGame =
        serde_json::from_str(text).map_err(|e| format!("not a kibitz autosave: {e}"))?;
    saved.restore()?;
    Ok(saved)
}

/// Rename an unusable autosave to a name of its own beside it.
fn keep_aside(path: &Path) -> std::io::Result<PathBuf> {
    let (date, time) = date_and_time();
    let stamp = format!("{}-{time}", date.replace('.', ""));
    let dir = path.parent().unwrap_or(Path::new("."));
    for n in 0..100 {
        let name = match n {
            0 => format!("autosave.corrupt-{stamp}.json"),
            n => format!("autosave.corrupt-{stamp}-{n}.json"),
        };
        let target = dir.join(name);
        // Never replace an earlier kept file.
        if std::fs::symlink_metadata(&target).is_err() {
            std::fs::rename(path, &target)?;
            return Ok(target);
        }
    }
    Err(std::io::Error::other("too many kept autosaves this second"))
}

#[cfg(test)]
mod tests {
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
}
