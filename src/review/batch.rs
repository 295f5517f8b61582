//! Every game of a PGN file reviewed, games in parallel (one search per
//! thread), with what a report needs per game and per player (by the names
//! in the PGN): the inaccuracies, mistakes and blunders, the accuracy and
//! the positions worth studying. The file is streamed: a reader thread hands
//! the games out through a small queue, so only a few are in memory at a
//! time however long the file is. Games come back in the file's order. A
//! stop keeps the games already finished. (That walk through the file is
//! `game::file_jobs`, which `kibitz puzzles` shares.)
//!
//! The command line (`kibitz review --pgn FILE --all`) and the game list's
//! "review all" both use this.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use shakmaty::fen::Fen;
use shakmaty::{Color, EnPassantMode};

use super::{Class, SideSummary};
use crate::engine::Limits;
use crate::game::tree::GameTree;
use crate::tablebase::Tablebases;

/// The smallest hash table a review thread gets, in MiB.
const MIN_HASH_MB: usize = 4;

/// A position worth studying: a mistake or blunder, with the better move.
#[derive(Debug, Clone, PartialEq)]
pub struct Study {
    /// The game's number in the file, from 1.
    pub game: usize,
    /// The ply of the move (1 = White's first).
    pub ply: usize,
    /// The move's number as written (`12.` / `12...`).
    pub move_number: u32,
    /// The position before the move.
    pub fen: String,
    pub played: String,
    pub best: Option<String>,
    /// The engine's line from the position (SAN), `best` first: the
    /// solution of the position as a training exercise.
    pub better_line: Vec<String>,
    pub class: Class,
    /// What a lesson on the move looks for (`review::lesson_margin`).
    pub margin_cp: i32,
}

/// One reviewed game.
#[derive(Debug, Clone)]
pub struct ReviewedGame {
    /// The game's number in the file, from 1.
    pub number: usize,
    pub white: String,
    pub black: String,
    pub result: String,
    pub plies: usize,
    /// White's and Black's figures.
    pub sides: [SideSummary; 2],
    /// White's and Black's positions to study.
    pub study: [Vec<Study>; 2],
    /// The game with the review written into it (`[%eval]`, marks, lines).
    pub pgn: String,
    /// Why the game was read only in part, if it was.
    pub error: Option<String>,
    /// Moves on which the annotated game keeps the file's own mark where
    /// the review judged otherwise.
    pub kept_marks: Vec<KeptMark>,
    /// The main line's evaluations, the start and after each ply (White's
    /// view), as far as the review got.
    pub evals: Vec<super::accuracy::Eval>,
    /// The side to move at the start (who made the first move).
    pub start_turn: Color,
    /// The game's identity in a game database (`kibitz db`), from its
    /// tags and moves as read.
    pub hash: [u8; 16],
}

/// A person's mark the annotated game keeps over the review's.
#[derive(Debug, Clone, PartialEq)]
pub struct KeptMark {
    pub ply: usize,
    /// The move as numbered SAN (`12... Nf6`).
    pub san: String,
    /// The file's mark (`?`, `!?`, ...).
    pub mark: &'static str,
    /// The review's judgement.
    pub class: Class,
}

/// A player over the file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Player {
    pub name: String,
    pub games: usize,
    pub summary: SideSummary,
    pub study: Vec<Study>,
}

/// The players of the reviewed games, by the names in the PGN: spellings
/// that differ only in case or spacing are one player (see [`fold`]), and
/// [`Aliases`] merge other spellings of one person.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Players {
    /// By the folded name.
    by_name: HashMap<String, Player>,
    aliases: Aliases,
}

impl Players {
    /// No players yet; `aliases` merge spellings as the games come.
    pub fn with_aliases(aliases: Aliases) -> Players {
        Players {
            by_name: HashMap::new(),
            aliases,
        }
    }

    /// Count a reviewed game for both its players. A name that names no
    /// one (`?`, `NN`, `-`, none) is never merged with another game's: each
    /// such side is a player of its own, named after its game.
    pub fn add(&mut self, game: &ReviewedGame) {
        let names = [(&game.white, Color::White), (&game.black, Color::Black)]
            .map(|(tag, color)| self.name_of(tag, game.number, color));
        for ((name, side), study) in names.into_iter().zip(&game.sides).zip(&game.study) {
            let player = self.by_name.entry(fold(&name)).or_insert_with(|| Player {
                name,
                ..Player::default()
            });
            player.games += 1;
            player.summary.add(side);
            player.study.extend(study.iter().cloned());
        }
    }

    /// The name the report gives the player of this tag: the alias's name,
    /// else the tag (trimmed); unknown players by game and side.
    fn name_of(&self, tag: &str, game: usize, color: Color) -> String {
        if is_unknown_name(tag) {
            return player_name(tag, game, color);
        }
        match self.aliases.resolve(tag) {
            Some(name) => name.to_string(),
            // The first spelling met names a player whose other spellings
            // differ only in case or spaces.
            None => match self.by_name.get(&fold(tag)) {
                Some(player) => player.name.clone(),
                None => tag.trim().to_string(),
            },
        }
    }

    /// The players in name order.
    pub fn by_name(&self) -> Vec<&Player> {
        let mut players: Vec<&Player> = self.by_name.values().collect();
        // Case aside, as the games table sorts names ("de Legal" among
        // the d's).
        players.sort_by(|a, b| (fold(&a.name), &a.name).cmp(&(fold(&b.name), &b.name)));
        players
    }

    /// The player of this name (any of its spellings), if they played.
    pub fn get(&self, name: &str) -> Option<&Player> {
        let name = self.aliases.resolve(name).unwrap_or(name);
        self.by_name.get(&fold(name))
    }

    /// Whether the side `color` of game `game`, whose name tag is `tag`, is
    /// the player the report calls `name`: the same after aliases, case and
    /// spacing; a name that names no one only as the report names it
    /// ("? (game 3, White)").
    pub fn is(&self, name: &str, tag: &str, game: usize, color: Color) -> bool {
        if is_unknown_name(tag) {
            return player_name(tag, game, color) == name;
        }
        let canonical = |n: &str| fold(self.aliases.resolve(n).unwrap_or(n));
        canonical(tag) == canonical(name)
    }

    /// Whether aliases merge spellings here.
    pub fn has_aliases(&self) -> bool {
        !self.aliases.is_empty()
    }

    pub fn len(&self) -> usize {
        self.by_name.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }
}

/// A name as compared: trimmed, lower case, runs of spaces as one, and a
/// comma followed by one space ("Carlsen,Magnus", "carlsen ,  magnus" and
/// "Carlsen, Magnus" are one name). Letters, accents and dots are kept:
/// "M. Carlsen" and "Carlsen, Magnus" are two names until an alias says
/// they are one.
pub fn fold(name: &str) -> String {
    let spaced = name.replace(',', ", ");
    let mut out = String::with_capacity(spaced.len());
    for word in spaced.split_whitespace() {
        if !out.is_empty() && word != "," && !word.starts_with(',') {
            out.push(' ');
        }
        out.extend(word.chars().flat_map(char::to_lowercase));
    }
    out
}

/// Other spellings of players' names: each maps to the name the report
/// uses. `--alias "Magnus Carlsen=Carlsen, M."` and the config file's
/// `[aliases]` table fill it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Aliases {
    /// Folded spelling -> the name shown.
    to: HashMap<String, String>,
}

impl Aliases {
    /// `other` is another spelling of `name`: the report shows `name`. A
    /// chain merges: after `A=B` and `B=C`, C is A too. A name that names
    /// no one (`?`, `NN`, `-`, empty) is refused: unknown players are never
    /// merged.
    pub fn add(&mut self, name: &str, other: &str) -> Result<(), String> {
        for text in [name, other] {
            if is_unknown_name(text) {
                return Err(format!(
                    "'{}' names no one and is never merged with another player",
                    text.trim()
                ));
            }
        }
        let shown = self
            .resolve(name)
            .map_or_else(|| name.trim().to_string(), str::to_string);
        let (name, other) = (fold(name), fold(other));
        // Whatever went by `other`'s name goes by `shown` now.
        let old = self.to.get(&other).map(|n| fold(n));
        for target in self.to.values_mut() {
            let folded = fold(target);
            if folded == other || Some(&folded) == old.as_ref() {
                *target = shown.clone();
            }
        }
        self.to.insert(other, shown.clone());
        self.to.entry(name).or_insert(shown);
        Ok(())
    }

    /// Read `--alias`'s `Name=Other Name` and add it.
    pub fn add_flag(&mut self, text: &str) -> Result<(), String> {
        let (name, other) = text
            .split_once('=')
            .ok_or_else(|| format!("--alias '{text}': write it as \"Name=Other Name\""))?;
        self.add(name, other)
            .map_err(|why| format!("--alias '{text}': {why}"))
    }

    /// The name the report uses for `tag`, if an alias names it.
    pub fn resolve(&self, tag: &str) -> Option<&str> {
        self.to.get(&fold(tag)).map(String::as_str)
    }

    pub fn is_empty(&self) -> bool {
        self.to.is_empty()
    }
}

/// Whether a player's tag names no one: empty, `?`, `-`, `NN` or `N.N.`
/// (the PGN standard's and the databases' "unknown").
pub fn is_unknown_name(name: &str) -> bool {
    let name = name.trim();
    name.is_empty()
        || ["?", "-", "nn", "n.n.", "n. n."]
            .iter()
            .any(|unknown| name.eq_ignore_ascii_case(unknown))
}

/// The name a player goes by in a file's report: the tag, or, where it
/// names no one, the tag with the game and side (`? (game 3, White)`), so
/// that unknown players are never taken for one.
pub fn player_name(tag: &str, game: usize, color: Color) -> String {
    if !is_unknown_name(tag) {
        return tag.to_string();
    }
    let side = if color.is_white() { "White" } else { "Black" };
    match tag.trim() {
        "" => format!("no name (game {game}, {side})"),
        unknown => format!("{unknown} (game {game}, {side})"),
    }
}

/// How a file is reviewed.
#[derive(Debug, Clone)]
pub struct BatchOptions {
    /// Games reviewed at once, one search each.
    pub threads: usize,
    /// The hash table of all threads together, in MiB.
    pub hash_mb: usize,
    /// The search time per position.
    pub movetime: Duration,
    /// Games at the start of the file reviewed before (a stopped review
    /// taken up again): read past, not reviewed again; the numbers go on
    /// from there.
    pub skip: usize,
}

/// Threads for a review when none are asked for: every core but one, so
/// the machine stays usable (and at least one).
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1))
}

/// Count the games of the file at `path` (a quick pass), for the progress
/// and the time left. A file in which nothing reads as a game (no tag pair
/// and no move: a binary or a text that is not PGN) is refused, as
/// `kibitz pgn` refuses it.
pub fn count_games(path: &Path) -> Result<usize, String> {
    let file = crate::fsutil::open_regular(path).map_err(|e| e.to_string())?;
    let mut games = 0;
    let is_game = |tree: GameTree, _| !tree.headers.0.is_empty() || tree.nodes.len() > 1;
    let total = crate::game::parallel::map_games(
        std::io::BufReader::new(file),
        crate::game::parallel::default_workers(),
        &is_game,
        &mut |game| {
            games += usize::from(game);
            true
        },
    )
    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if games == 0 {
        return Err(no_game(path));
    }
    Ok(total)
}

/// Why a file with no game is refused: `kibitz pgn`'s words.
pub fn no_game(path: &Path) -> String {
    format!(
        "{} holds no PGN game (no tag pair and no move)",
        path.display()
    )
}

/// Review every game of the file at `path` (after the first
/// `options.skip`), handing each to `on_game` in the file's order as soon
/// as it and those before it are done. `on_game` returns false to stop.
/// Setting `stop` stops too; the game being reviewed then is dropped (and
/// any after it), the ones handed out stay. `Ok` carries a warning when
/// the file could not be read to its end.
pub fn review_file(
    path: &Path,
    options: &BatchOptions,
    tables: Option<Arc<Tablebases>>,
    stop: &Arc<AtomicBool>,
    on_game: &mut dyn FnMut(ReviewedGame) -> bool,
) -> Result<Option<String>, String> {
    let threads = options.threads.clamp(1, 64);
    let hash_mb = (options.hash_mb / threads).max(MIN_HASH_MB);
    let limits = Limits {
        movetime: Some(options.movetime),
        ..Limits::default()
    };
    let work = |number: usize, tree: GameTree, stopped: &dyn Fn() -> bool| {
        review_game(number, tree, &limits, hash_mb, tables.as_deref(), stopped)
    };
    crate::game::file_jobs::each_game(path, threads, options.skip, stop, &work, on_game)
}

/// Review game `number` of the file; `None` when stopped before the end.
fn review_game(
    number: usize,
    mut tree: GameTree,
    limits: &Limits,
    hash_mb: usize,
    tables: Option<&Tablebases>,
    stop: &dyn Fn() -> bool,
) -> Option<ReviewedGame> {
    let (evals, reviews) = super::review(&tree, limits, (hash_mb, 1), tables, stop, &mut |_, _| {});
    if stop() {
        return None;
    }
    let positions = super::mainline_positions(&tree);
    let mut study: [Vec<Study>; 2] = [Vec::new(), Vec::new()];
    for r in &reviews {
        let Some(class) = r.class.filter(|c| *c >= Class::Mistake) else {
            continue;
        };
        let Some((position, _)) = positions.get(r.ply - 1) else {
            continue;
        };
        study[usize::from(r.mover.is_black())].push(Study {
            game: number,
            ply: r.ply,
            move_number: r.move_number,
            fen: Fen::from_position(position, EnPassantMode::Legal).to_string(),
            played: r.san.clone(),
            best: r.better_line.first().cloned(),
            better_line: r.better_line.clone(),
            class,
            margin_cp: super::lesson_margin(r.mover, r.before, r.after),
        });
    }
    let name = |tag: &str| tree.headers.get(tag).unwrap_or("?").to_string();
    let (white, black) = (name("White"), name("Black"));
    let sides = [
        SideSummary::of(&reviews, Color::White),
        SideSummary::of(&reviews, Color::Black),
    ];
    let error = tree.error.as_ref().map(ToString::to_string);
    let kept_marks = reviews
        .iter()
        .filter_map(|r| {
            let mark = crate::game::annotations::mark_symbol(r.kept_mark()?)?;
            let dots = if r.mover.is_white() { "." } else { "..." };
            Some(KeptMark {
                ply: r.ply,
                san: format!("{}{dots} {}", r.move_number, r.san),
                mark,
                class: r.class?,
            })
        })
        .collect();
    let hash = crate::db::import::game_hash(&tree);
    super::annotate(&mut tree, &reviews, &evals);
    Some(ReviewedGame {
        hash,
        number,
        white,
        black,
        result: tree.result.clone(),
        plies: reviews.len(),
        sides,
        study,
        pgn: tree.to_pgn(),
        error,
        kept_marks,
        evals: evals
            .iter()
            .map_while(|e| e.as_ref().map(super::eval_of))
            .collect(),
        start_turn: shakmaty::Position::turn(&tree.start),
    })
}

#[cfg(test)]
mod tests;
