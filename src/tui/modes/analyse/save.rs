//! Saving the analysis board's game: back into the file it came from (the
//! other games as they were read), alone to a path, or into the data folder.

use std::path::{Path, PathBuf};

use crate::game::tree::read_games;
use crate::tui::shared::{Shared, Tone};

use super::{Analysis, GameSource};

impl Analysis {
    /// Save the game. `path`: this game alone to that file (refusing to
    /// overwrite another file unless `force`); none: back into the file it
    /// came from (the whole file, the other games as they were read), or a
    /// new file in the data folder.
    pub fn save_analysis(&mut self, cx: &mut Shared, path: Option<PathBuf>, force: bool) {
        let analysis = &*self;
        let source = analysis.source.clone();
        let result = match (path, &source) {
            (Some(path), Some(src)) if same_file(&path, &src.path) => self
                .save_into(&src.path, src.number)
                .map(|(n, at)| (src.path.clone(), n, at)),
            (Some(path), _) => {
                if path.exists() && !force {
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
                crate::fsutil::write_atomic(&path, analysis.tree.to_pgn())
                    .map(|()| (path, 1, 1))
                    .map_err(|e| e.to_string())
            }
            (None, Some(src)) => self
                .save_into(&src.path, src.number)
                .map(|(n, at)| (src.path.clone(), n, at)),
            (None, None) => {
                let Some(dirs) = &cx.dirs else {
                    cx.say("No data folder: save with :save PATH", Tone::Error);
                    return;
                };
                crate::game::archive::save_in_games(&dirs.data, "analysis", &analysis.tree.to_pgn())
                    .map(|path| (path, 1, 1))
                    .map_err(|e| e.source.to_string())
            }
        };
        match result {
            Ok((path, games, number)) => {
                {
                    let analysis = &mut *self;
                    analysis.modified = false;
                    analysis.source = Some(GameSource {
                        path: path.clone(),
                        number,
                    });
                }
                let of = if games > 1 {
                    format!("game {number} of {games} in ")
                } else {
                    String::new()
                };
                cx.say(format!("Saved {of}{}", path.display()), Tone::Info);
            }
            Err(e) => cx.say(format!("Not saved: {e}"), Tone::Error),
        }
    }

    /// Write the file at `path` again with game `number` replaced by the
    /// tree on the board. Refuses when another game of the file has an
    /// unreadable move, since writing it back would cut that game short.
    /// Returns the number of games written and the game's number in them.
    pub fn save_into(&self, path: &Path, number: usize) -> Result<(usize, usize), String> {
        let analysis = self;
        if let Some(error) = &analysis.tree.error {
            return Err(format!(
                "{error}; writing it back would drop the moves after it (save it alone with :save PATH)"
            ));
        }
        let bytes = crate::fsutil::read_capped(path, crate::fsutil::MAX_PGN_BYTES, "a PGN file")
            .map_err(|e| format!("{}: {}", path.display(), e.why))?;
        if std::str::from_utf8(&bytes).is_err() {
            return Err(format!(
                "{} is not UTF-8 text; writing it back would change the other games' names (save this game alone with :save PATH)",
                path.display()
            ));
        }
        let mut text = String::new();
        let mut count = 0;
        let mut problem = None;
        read_games(&bytes[..], &mut |tree| {
            count += 1;
            if count == number {
                text.push_str(&analysis.tree.to_pgn());
            } else if let Some(error) = &tree.error {
                problem = Some(format!(
                    "{error}; writing the file back would lose the rest of that game (save this game alone with :save PATH)"
                ));
                return false;
            } else {
                text.push_str(&tree.to_pgn());
            }
            text.push('\n');
            true
        })
        .map_err(|e| format!("{}: {e}", path.display()))?;
        if let Some(problem) = problem {
            return Err(problem);
        }
        let mut at = number;
        if count < number {
            // The game is new to the file (or the file shrank): append it.
            text.push_str(&analysis.tree.to_pgn());
            text.push('\n');
            count += 1;
            at = count;
        }
        crate::fsutil::write_atomic(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok((count, at))
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}
