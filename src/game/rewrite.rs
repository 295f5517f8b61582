//! Writing one game back into the PGN file it came from: every other game
//! is written as it was read, so the file may only be rewritten when the
//! reader kept all of it. Moves after an unreadable one are kept (as text,
//! in a comment where the game stops: see `import`), so such a game is
//! written back with nothing lost; text the reader skipped is not kept, and
//! a file with any is not rewritten.

use super::import::read_games;
use super::tree::GameTree;

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

/// The tags that tell one game of a file from another.
const IDENTITY: [&str; 6] = ["Event", "Site", "Date", "Round", "White", "Black"];

/// Where game `game`, read as game `number` of a file that has changed
/// since, now stands in the file `bytes`: the same number when the game
/// there has its tags (Event, Site, Date, Round, White, Black), else the one
/// game that has them (another program put games before it), else past the
/// last game (it is no longer there: appending loses nothing). Refused when
/// several games have them, since any choice could replace the wrong one.
pub fn find_game(bytes: &[u8], number: usize, game: &GameTree) -> Result<usize, String> {
    let identity = |tree: &GameTree| IDENTITY.map(|tag| tree.headers.get(tag).map(str::to_owned));
    let wanted = identity(game);
    // The numbers (1-based) of the games with the tags.
    let mut numbers = Vec::new();
    let mut at = 0;
    let count = read_games(bytes, &mut |tree| {
        at += 1;
        if identity(&tree) == wanted {
            numbers.push(at);
        }
        true
    })
    .map_err(|e| e.to_string())?;
    match numbers.as_slice() {
        _ if numbers.contains(&number) => Ok(number),
        [] => Ok(count + 1),
        [one] => Ok(*one),
        several => Err(format!(
            "games {} of the file all have this game's tags, and another program changed the file: which one is this game is unknown",
            several
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(white: &str, black: &str) -> String {
        format!(
            "[Event \"E\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"*\"]\n\n1. e4 *\n\n"
        )
    }

    fn tree_of(text: &str) -> GameTree {
        let mut first = None;
        read_games(text.as_bytes(), &mut |tree| {
            first = Some(tree);
            false
        })
        .unwrap();
        first.unwrap()
    }

    #[test]
    fn a_game_moved_by_another_program_is_found_by_its_tags() {
        let board = tree_of(&game("Kasparov", "Deep Blue"));
        let before = format!("{}{}", game("A", "B"), game("Kasparov", "Deep Blue"));
        assert_eq!(find_game(before.as_bytes(), 2, &board), Ok(2));
        // A game put in front: the board's game is now game 3, not game 2.
        let prepended = format!("{}{before}", game("New", "Game"));
        assert_eq!(find_game(prepended.as_bytes(), 2, &board), Ok(3));
        // Gone from the file: appended, nothing replaced.
        let gone = format!("{}{}", game("A", "B"), game("C", "D"));
        assert_eq!(find_game(gone.as_bytes(), 2, &board), Ok(3));
        // Two games with its tags: no guess.
        let twice = format!(
            "{}{}{}",
            game("New", "Game"),
            game("Kasparov", "Deep Blue"),
            game("Kasparov", "Deep Blue")
        );
        assert!(find_game(twice.as_bytes(), 1, &board).is_err());
    }
}
