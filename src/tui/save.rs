//! The autosave: after every move the game in progress is written to the
//! board's own `autosave-ID.json` in the data directory (temp file +
//! rename), and the next start offers to resume it. Each running board
//! holds a lock on its `autosave-ID.lock`, so two boards never write one
//! file, and a board that starts offers every unfinished game of the
//! boards no longer running (the lock is free once a process ends, however
//! it ends). The single `autosave.json` of earlier versions is still read.
//! Saved PGNs go to `games/` beside it ([`crate::game::archive`]).

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

/// The single autosave of earlier versions (shared by every board): read
/// and offered; written only where a board has no slot of its own.
pub fn autosave_path(data_dir: &Path) -> PathBuf {
    data_dir.join("autosave.json")
}

/// Write `saved` to the autosave file at `path`.
pub fn write_autosave_to(path: &Path, saved: &SavedGame) -> std::io::Result<()> {
    let text = serde_json::to_string_pretty(saved).map_err(std::io::Error::other)?;
    write_atomic(path, &text)
}

/// Write `saved` to `autosave.json` in `data_dir` (as earlier versions
/// did: for tests and for reading back).
pub fn write_autosave(data_dir: &Path, saved: &SavedGame) -> std::io::Result<()> {
    write_autosave_to(&autosave_path(data_dir), saved)
}

/// A running board's own autosave file, `autosave-ID.json`, and the lock
/// on `autosave-ID.lock` that says the board runs (held until it is
/// dropped or the process ends).
#[derive(Debug)]
pub struct AutosaveSlot {
    path: PathBuf,
    lock_path: PathBuf,
    _lock: std::fs::File,
}

impl AutosaveSlot {
    /// A slot of this process's own in `data_dir` (made if missing): a
    /// name no autosave has, locked.
    pub fn claim(data_dir: &Path) -> std::io::Result<AutosaveSlot> {
        std::fs::create_dir_all(data_dir)?;
        let pid = std::process::id();
        for n in 0..1000 {
            let id = match n {
                0 => pid.to_string(),
                n => format!("{pid}-{n}"),
            };
            let path = data_dir.join(format!("autosave-{id}.json"));
            let lock_path = lock_of(&path);
            // A game of a board that ran before with this process number.
            if std::fs::symlink_metadata(&path).is_ok() {
                continue;
            }
            let Some(lock) = crate::fsutil::try_lock_file(&lock_path)? else {
                continue;
            };
            if std::fs::symlink_metadata(&path).is_ok() {
                continue;
            }
            return Ok(AutosaveSlot {
                path,
                lock_path,
                _lock: lock,
            });
        }
        Err(std::io::Error::other("no free autosave name"))
    }

    /// The autosave file (there once the first move is saved).
    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn write(&self, saved: &SavedGame) -> std::io::Result<()> {
        write_autosave_to(&self.path, saved)
    }

    /// Take up an unfinished game's file as this board's autosave: renamed
    /// to this slot's name (the game is never out of a file), and its old
    /// lock file removed.
    pub fn adopt(&self, unfinished: Unfinished) -> std::io::Result<()> {
        std::fs::rename(&unfinished.path, &self.path)?;
        unfinished.forget_lock();
        Ok(())
    }
}

impl Drop for AutosaveSlot {
    fn drop(&mut self) {
        // A board that ends with nothing saved leaves no lock file behind.
        if std::fs::symlink_metadata(&self.path).is_err() {
            let _ = std::fs::remove_file(&self.lock_path);
        }
    }
}

/// The lock file of the autosave at `path`.
fn lock_of(path: &Path) -> PathBuf {
    path.with_extension("lock")
}

/// An unfinished game left by a board that no longer runs, offered at the
/// start.
#[derive(Debug)]
pub struct Unfinished {
    pub saved: SavedGame,
    /// Its autosave file.
    pub path: PathBuf,
    /// The lock of its slot, held while it is offered (so another board
    /// starting now does not offer it too).
    held: Option<(PathBuf, std::fs::File)>,
}

impl Unfinished {
    /// Remove its lock file (its autosave file is gone or renamed).
    fn forget_lock(self) {
        if let Some((lock_path, _lock)) = self.held {
            let _ = std::fs::remove_file(lock_path);
        }
    }

    /// Keep the game as a PGN in the data folder's `games/` and remove its
    /// autosave: the path of the PGN.
    pub fn keep_as_pgn(self, data_dir: &Path) -> Result<PathBuf, String> {
        let (game, players, time_control) = self.saved.restore()?;
        let (date, _) = date_and_time();
        let headers = crate::game::archive::game_headers(
            &players.name(Color::White),
            &players.name(Color::Black),
            &date,
            None,
            &time_control.pgn(),
        );
        let text = crate::game::pgn::write_pgn_clocked(&game, &headers, "*", &[]);
        let kept = crate::game::archive::save_in_games(data_dir, "unfinished", &text)
            .map_err(|e| e.to_string())?;
        std::fs::remove_file(&self.path).map_err(|e| format!("{}: {e}", self.path.display()))?;
        self.forget_lock();
        Ok(kept)
    }
}

/// Every unfinished game of the boards that no longer run, newest first,
/// and what went wrong on the way (an unusable file is kept aside, see
/// [`read_autosave`]). Boards still running are left alone; a finished or
/// empty autosave of one that ended is removed (nothing to offer).
pub fn read_unfinished(data_dir: &Path) -> (Vec<Unfinished>, Vec<String>) {
    let mut found = Vec::new();
    let mut problems = Vec::new();
    let Ok(entries) = std::fs::read_dir(data_dir) else {
        return (Vec::new(), problems);
    };
    let mut names: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                n.starts_with("autosave-") && (n.ends_with(".json") || n.ends_with(".lock"))
            })
        })
        .collect();
    names.sort();
    for path in names {
        let is_json = path.extension().is_some_and(|e| e == "json");
        let lock_path = lock_of(&path);
        if !is_json && std::fs::symlink_metadata(path.with_extension("json")).is_ok() {
            continue; // its autosave's turn
        }
        let lock = match crate::fsutil::try_lock_file(&lock_path) {
            Ok(Some(lock)) => lock,
            // A board that runs, or a lock that cannot be had: left alone.
            Ok(None) | Err(_) => continue,
        };
        if !is_json {
            // A lock file alone, of a board that ended before a move.
            let _ = std::fs::remove_file(&lock_path);
            continue;
        }
        match read_one(&path) {
            Ok(Some(saved)) => found.push((
                modified(&path),
                Unfinished {
                    saved,
                    path,
                    held: Some((lock_path, lock)),
                },
            )),
            Ok(None) => {
                if std::fs::remove_file(&path).is_ok() {
                    let _ = std::fs::remove_file(&lock_path);
                }
            }
            Err(why) => {
                problems.push(format!("autosave ignored: {why}"));
                let _ = std::fs::remove_file(&lock_path);
            }
        }
    }
    // The file of earlier versions, locked as the others while it is
    // offered (`autosave.lock`).
    let legacy = autosave_path(data_dir);
    let legacy_lock = lock_of(&legacy);
    if std::fs::symlink_metadata(&legacy).is_ok()
        && let Ok(Some(lock)) = crate::fsutil::try_lock_file(&legacy_lock)
    {
        match read_autosave(data_dir) {
            Ok(Some(saved)) => found.push((
                modified(&legacy),
                Unfinished {
                    saved,
                    path: legacy,
                    held: Some((legacy_lock, lock)),
                },
            )),
            Ok(None) => {}
            Err(why) => problems.push(format!("autosave ignored: {why}")),
        }
    }
    found.sort_by_key(|(modified, _)| std::cmp::Reverse(*modified));
    (found.into_iter().map(|(_, u)| u).collect(), problems)
}

fn modified(path: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The unfinished game from the last session, if there is one worth offering.
/// A file that cannot be used is moved aside, to
/// `autosave.corrupt-YYYYMMDD-HHMMSS.json` beside it, so the next autosave
/// does not overwrite it; the error says why and where it went.
pub fn read_autosave(data_dir: &Path) -> Result<Option<SavedGame>, String> {
    read_one(&autosave_path(data_dir))
}

/// [`read_autosave`] of the autosave file at `path`.
fn read_one(path: &Path) -> Result<Option<SavedGame>, String> {
    let path = path.to_path_buf();
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
mod tests;
