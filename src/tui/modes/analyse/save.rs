//! Saving the analysis board's game: back into the file it came from (the
//! other games as they were read), alone to a path, or into the data folder.
//! A file that another program has changed since kibitz read or wrote it
//! is not written over unless `:save!` says so.

use std::path::{Path, PathBuf};

use crate::fsutil::Fingerprint;
use crate::tui::shared::{Shared, Tone};

use super::{Analysis, GameSource};

/// A save done: the file, its number of games, the game's number in it,
/// and the file as written.
type Saved = (PathBuf, usize, usize, Option<Fingerprint>);

impl Analysis {
    /// Save the game. `path`: this game alone to that file (refusing to
    /// overwrite another file unless `force`); none: back into the file it
    /// came from (the whole file, the other games as they were read;
    /// refused when another program changed the file since, unless
    /// `force`), or a new file in the data folder.
    pub fn save_analysis(&mut self, cx: &mut Shared, path: Option<PathBuf>, force: bool) {
        // The review goes into the game first, so that the file keeps its
        // marks and evaluations (as after `:annotate`).
        let reviewed = self.write_review();
        let source = self.source.clone();
        let result: Result<Saved, String> = match (path, &source) {
            (Some(path), Some(src)) if crate::fsutil::same_file(&path, &src.path) => {
                self.save_into(src, force)
            }
            (Some(path), _) => {
                if let Err(why) = crate::fsutil::check_board_target(&path) {
                    cx.say(format!("Not saved: {why}"), Tone::Error);
                    return;
                }
                if crate::fsutil::replaces_a_file(&path) && !force {
                    cx.say(
                        format!(
                            "{} exists: :save! {} overwrites it",
                            path.display(),
                            path.display()
                        ),
                        Tone::Error,
                    );
                    return;
                }
                let text = self.tree.to_pgn();
                crate::fsutil::write_user_file(&path, &text).map(|()| {
                    let seen = Fingerprint::of_written(&path, text.as_bytes());
                    (path, 1, 1, seen)
                })
            }
            (None, Some(src)) => self.save_into(src, force),
            (None, None) => {
                let Some(dirs) = &cx.services.dirs else {
                    cx.say("No data folder: save with :save PATH", Tone::Error);
                    return;
                };
                let text = self.tree.to_pgn();
                crate::game::archive::save_in_games(&dirs.data, "analysis", &text)
                    .map(|path| {
                        let seen = Fingerprint::of_written(&path, text.as_bytes());
                        (path, 1, 1, seen)
                    })
                    .map_err(|e| e.source.to_string())
            }
        };
        match result {
            Ok((path, games, number, seen)) => {
                self.modified = false;
                // A device written into (`/dev/null`) is no file to save
                // into again.
                if crate::fsutil::replaces_a_file(&path) {
                    self.source = Some(GameSource {
                        path: path.clone(),
                        number,
                        seen,
                    });
                }
                let of = if games > 1 {
                    format!("game {number} of {games} in ")
                } else {
                    String::new()
                };
                let with = match reviewed {
                    Some(marks) => format!(
                        ", with the review ({})",
                        crate::core::counted(marks as u64, "mark", "marks")
                    ),
                    None => String::new(),
                };
                cx.say(format!("Saved {of}{}{with}", path.display()), Tone::Info);
            }
            Err(e) => cx.say(format!("Not saved: {e}"), Tone::Error),
        }
    }

    /// Write the file of `source` again with its game replaced by the tree
    /// on the board. Refuses when a game of the file has text the reader
    /// skipped, since writing it back would lose it (moves after an
    /// unreadable one are kept as a comment where the game stops), and when
    /// another program has changed the file since kibitz read or wrote it
    /// (unless `force`), since the change would be lost or the wrong game
    /// replaced.
    pub fn save_into(&self, source: &GameSource, force: bool) -> Result<Saved, String> {
        let (path, number) = (&source.path, source.number);
        if let Some(dropped) = &self.tree.dropped {
            return Err(format!(
                "{dropped}; writing it back would lose that text (save it alone with :save PATH)"
            ));
        }
        let bytes = crate::fsutil::read_capped(path, crate::fsutil::MAX_PGN_BYTES, "a PGN file")
            .map_err(|e| format!("{}: {}", path.display(), e.why))?;
        let changed = source
            .seen
            .as_ref()
            .is_some_and(|seen| seen.changed(path, &bytes));
        if changed && !force {
            return Err(changed_since(path, number));
        }
        // Another program may have put games before this one or taken it
        // away: its number in the file is found again, never assumed.
        let number = if changed {
            crate::game::rewrite::find_game(&bytes, number, &self.tree)
                .map_err(|why| format!("{}: {why} (:save PATH elsewhere)", path.display()))?
        } else {
            number
        };
        let rewritten =
            crate::game::rewrite::replace_game(&bytes, number, &self.tree).map_err(|why| {
                format!(
                    "{}: {why} (save this game alone with :save PATH)",
                    path.display()
                )
            })?;
        crate::fsutil::write_atomic(path, &rewritten.text)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let seen = Fingerprint::of_written(path, rewritten.text.as_bytes());
        Ok((path.clone(), rewritten.games, rewritten.number, seen))
    }
}

/// Why a file is not written into: it changed since it was read.
fn changed_since(path: &Path, number: usize) -> String {
    // The file's name, not its path, so that the way on fits the line.
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    format!(
        "another program changed {name}: :save! writes game {number} anyway, :save PATH elsewhere"
    )
}
