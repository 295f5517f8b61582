//! Writing one game back into the PGN file it came from: every other game
//! is written as it was read, so the file may only be rewritten when the
//! reader kept all of it. Moves after an unreadable one are kept (as text,
//! in a comment where the game stops: see `import`), so such a game is
//! written back with nothing lost; text the reader skipped is not kept, and
//! a file with any is not rewritten.

use super::tree::{GameTree, read_games};

/// A file's text with one game replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewritten {
    pub text: String,
    /// Games in the new text.
    pub games: usize,
    /// The replaced game's number in it (1-based).
    pub number: usize,
}

/// The PGN file `bytes` with game `number` (1-based) replaced by `game`, or
/// appended when the file has fewer games. Refused, with the reason, when a
/// game of the file has text the reader skipped: writing it back would lose
/// it.
pub fn replace_game(bytes: &[u8], number: usize, game: &GameTree) -> Result<Rewritten, String> {
    if std::str::from_utf8(bytes).is_err() {
        return Err(
            "the file is not UTF-8 text; writing it back would change the other games' names"
                .into(),
        );
    }
    let mut text = String::new();
    let mut count = 0;
    let mut problem = None;
    read_games(bytes, &mut |tree| {
        count += 1;
        if count == number {
            text.push_str(&game.to_pgn());
        } else if let Some(dropped) = &tree.dropped {
            problem = Some(format!(
                "game {count}: {dropped}; writing the file back would lose it"
            ));
            return false;
        } else {
            text.push_str(&tree.to_pgn());
        }
        text.push('\n');
        true
    })
    .map_err(|e| e.to_string())?;
    if let Some(problem) = problem {
        return Err(problem);
    }
    let mut at = number;
    if count < number {
        // The game is new to the file (or the file shrank): append it.
        text.push_str(&game.to_pgn());
        text.push('\n');
        count += 1;
        at = count;
    }
    Ok(Rewritten {
        text,
        games: count,
        number: at,
    })
}
