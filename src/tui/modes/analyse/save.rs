//! Saving the analysis board's game: back into the file it came from (the
//! other games as they were read), alone to a path, or into the data folder.

use std::path::{Path, PathBuf};

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
                let Some(dirs) = &cx.services.dirs else {
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
    /// tree on the board. Refuses when a game of the file has text the
    /// reader skipped, since writing it back would lose it. (Moves after an
    /// unreadable one are kept as a comment where the game stops.)
    /// Returns the number of games written and the game's number in them.
    pub fn save_into(&self, path: &Path, number: usize) -> Result<(usize, usize), String> {
        let analysis = self;
        if let Some(dropped) = &analysis.tree.dropped {
            return Err(format!(
                "{dropped}; writing it back would lose that text (save it alone with :save PATH)"
            ));
        }
        let bytes = crate::fsutil::read_capped(path, crate::fsutil::MAX_PGN_BYTES, "a PGN file")
            .map_err(|e| format!("{}: {}", path.display(), e.why))?;
        let rewritten = crate::game::rewrite::replace_game(&bytes, number, &analysis.tree)
            .map_err(|why| {
                format!(
                    "{}: {why} (save this game alone with :save PATH)",
                    path.display()
                )
            })?;
        crate::fsutil::write_atomic(path, rewritten.text)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok((rewritten.games, rewritten.number))
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}
