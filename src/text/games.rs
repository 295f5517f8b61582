//! One game of a PGN file, read for whichever front end asked (the
//! `review` command, the board's game list).

use std::path::Path;

use crate::game::import::read_game_at;
use crate::game::tree::GameTree;

/// Why a game could not be read; the text says which file and why.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct LoadError(pub String);

/// Read game `number` (1-based) of a PGN file.
pub fn load_game(path: &Path, number: usize) -> Result<GameTree, LoadError> {
    if number == 0 {
        return Err(LoadError("games are numbered from 1".into()));
    }
    let file = crate::fsutil::open_regular(path).map_err(|e| LoadError(e.to_string()))?;
    match read_game_at(std::io::BufReader::new(file), number) {
        Ok(Some(tree)) => Ok(tree),
        Ok(None) => Err(LoadError(format!(
            "{} has no game {number}",
            path.display()
        ))),
        Err(e) => Err(LoadError(format!("cannot read {}: {e}", path.display()))),
    }
}
