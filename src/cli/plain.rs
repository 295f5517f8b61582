//! The line mode (`kibitz --plain`): a game against the engine in lines of
//! text instead of a board, for screen readers and plain terminals. It reads
//! a move (SAN or UCI) or a command from each line of input, answers in
//! whole sentences, and says the engine's move in words.
//!
//! The engine runs on its own thread as for the board; the line mode waits
//! for its move before reading the next line, so piped input is answered
//! in order.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use shakmaty::{Chess, Color, Move, Position};

use super::CliError;
use crate::book::{Book, BookOptions};
use crate::config::{Settings, TimeControl};
use crate::engine::draw_offer::accepts_draw;
use crate::engine::level::Level;
use crate::engine::{Command, Engine, GoRequest, Limits, MoveSource, Report, Score, SearchOptions};
use crate::game::archive::{date_and_time, game_headers, save_in_games, versus_engine_name};
use crate::game::describe::{Description, diagram, move_sentence, side_name};
use crate::game::fen::parse_fen;
use crate::game::notation::{MoveError, parse_move, san_line};
use crate::game::pgn::write_pgn;
use crate::game::{Game, GameEnd};

/// The engine's time for a move (lower levels stop sooner at their own
/// depth or node cap), as in an untimed game on the board.
const MOVETIME: Duration = Duration::from_secs(3);
/// The engine's time for a hint.
const HINT_MOVETIME: Duration = Duration::from_millis(1000);

/// How the line mode starts.
pub struct PlainOptions {
    pub start: Chess,
    /// The side the person plays.
    pub human: Color,
    pub level: Level,
    pub hash_mb: usize,
    pub book: Option<Arc<Book>>,
    pub book_options: BookOptions,
    /// Syzygy tables from `--syzygy` or the config's `syzygy`.
    pub tables: Option<Arc<crate::tablebase::Tablebases>>,
    /// Where `save` without a path writes (its `games/`); `None` when
    /// there is no home folder.
    pub data_dir: Option<PathBuf>,
}

/// The options from the command line and the settings: the start (`fen`,
/// default the standard one), the side, the level, the hash, the book and
/// the data folder.
/// A bad FEN is an error; so is a book that cannot be read, or a Syzygy
/// folder that is not one, when the command line named it (the config's
/// are only left out, with a note on stderr).
pub fn options(
    fen: Option<&str>,
    human: Color,
    settings: &Settings,
    (book_named, syzygy_named): (bool, bool),
    data_dir: Option<PathBuf>,
) -> Result<PlainOptions, CliError> {
    let start = match fen {
        Some(fen) => parse_fen(fen)?,
        None => Chess::default(),
    };
    let book = match crate::book::load(&settings.book) {
        Ok(book) => Some(Arc::new(book)),
        Err(e) if book_named => return Err(e.into()),
        Err(e) => {
            eprintln!("note: {e}; playing without a book");
            None
        }
    };
    let tables = match &settings.syzygy {
        None => None,
        Some(dir) => {
            let mut tables = crate::tablebase::Tablebases::default();
            match tables.add_syzygy(dir) {
                Ok(found) => {
                    if found == 0 {
                        eprintln!("note: no Syzygy tables found in {}", dir.display());
                    }
                    Some(Arc::new(tables))
                }
                Err(e) if syzygy_named => return Err(CliError::BadInput(e)),
                Err(e) => {
                    eprintln!("note: {e}; playing without Syzygy");
                    None
                }
            }
        }
    };
    Ok(PlainOptions {
        start,
        human,
        tables,
        level: settings.level,
        hash_mb: settings.hash_mb,
        book,
        book_options: settings.book_options,
        data_dir,
    })
}

const HELP: &[&str] = &[
    "Type a move as SAN (e4, Nf3, O-O, e8=Q) or UCI (e2e4, g1f3), or a command:",
    "describe: the position in words; describe off / describe on: after every move or not",
    "board: the board in letters, capitals for White",
    "moves: your legal moves",
    "takeback: take back your last move and kibitz's reply",
    "hint: the engine's suggestion",
    "level: kibitz's strength now; level N: set it, 1 to 10",
    "fen: the position in FEN",
    "draw: offer kibitz a draw; it accepts when it stands worse",
    "save: the game as PGN in kibitz's games folder; save PATH: to a new file PATH",
    "new: a new game; resign: give up this one",
    "help: this list; quit: leave (so does the end of the input)",
];

struct Session<'a> {
    options: PlainOptions,
    engine: Engine,
    game: Game,
    end: Option<GameEnd>,
    /// Print the description after every move.
    auto_describe: bool,
    /// The score of kibitz's last searched move, from its side: it decides
    /// on a draw offer by it.
    engine_score: Option<Score>,
    /// The day the game began, for its PGN.
    date: String,
    next_search: u64,
    out: &'a mut dyn Write,
}

/// Play in lines from `input` to `out` until `quit` or the end of the input.
pub fn run(
    options: PlainOptions,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    if let (_, Some(cap)) = crate::engine::tt::hash_size(options.hash_mb) {
        eprintln!("note: hash_mb: {cap}");
    }
    let engine = Engine::new(options.hash_mb).map_err(CliError::Thread)?;
    engine.send(Command::SetBook {
        book: options.book.clone(),
        options: options.book_options,
    });
    if let Some(tables) = &options.tables {
        engine.send(Command::SetTablebases(Some(Arc::clone(tables))));
    }
    let game = Game::new(options.start.clone());
    let mut session = Session {
        options,
        engine,
        game,
        end: None,
        auto_describe: true,
        engine_score: None,
        date: date_and_time().0,
        next_search: 0,
        out,
    };
    session.welcome()?;
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            writeln!(session.out, "Goodbye.")?;
            break;
        }
        if !session.command(line.trim())? {
            break;
        }
        session.out.flush()?;
    }
    Ok(())
}

impl Session<'_> {
    fn say(&mut self, text: impl AsRef<str>) -> Result<(), CliError> {
        writeln!(self.out, "{}", text.as_ref())?;
        Ok(())
    }

    fn welcome(&mut self) -> Result<(), CliError> {
        let human = side_name(self.options.human);
        let level = self.options.level.get();
        self.say(format!(
            "kibitz, line mode. You play {human} against kibitz level {level}. Type help for the commands."
        ))?;
        self.start_game()
    }

    /// The game from its start: describe it, and the engine moves first
    /// when it has White.
    fn start_game(&mut self) -> Result<(), CliError> {
        self.describe()?;
        self.engine_turn()
    }

    fn describe(&mut self) -> Result<(), CliError> {
        for line in self.description().lines() {
            self.say(line)?;
        }
        Ok(())
    }

    /// The start of the description: whose move it is and the last move.
    fn say_turn(&mut self) -> Result<(), CliError> {
        for line in self.description().turn_lines() {
            self.say(line)?;
        }
        Ok(())
    }

    fn description(&self) -> Description {
        let mut description = Description::new(self.game.position());
        let moves = self.game.moves();
        if let (Some(&m), Some(before)) = (
            moves.last(),
            moves
                .len()
                .checked_sub(1)
                .and_then(|i| self.game.position_at(i)),
        ) {
            description = description.with_last_move(before, m);
        }
        description.with_end(self.end)
    }

    /// One line of input; false to leave.
    fn command(&mut self, typed: &str) -> Result<bool, CliError> {
        let mut words = typed.split_whitespace();
        let (word, rest) = (words.next().unwrap_or(""), words.next());
        let extra = words.next().is_some();
        // All the line after the first word: a path may have spaces.
        let after_word = typed.trim_start()[word.len()..].trim();
        match (word.to_ascii_lowercase().as_str(), rest) {
            ("", _) => {}
            ("quit" | "exit" | "q", None) => {
                self.say("Goodbye.")?;
                return Ok(false);
            }
            ("help" | "?", None) => {
                for line in HELP {
                    self.say(line)?;
                }
            }
            ("describe", None) => self.describe()?,
            ("describe", Some(switch @ ("on" | "off"))) => {
                self.auto_describe = switch == "on";
                self.say(format!("Description after every move {switch}."))?;
            }
            ("board", None) => {
                let text = diagram(self.game.position(), self.options.human == Color::Black);
                write!(self.out, "{text}")?;
            }
            ("fen", None) => {
                let fen = self.game.fen();
                self.say(fen)?;
            }
            ("moves", None) => self.list_moves()?,
            ("takeback" | "undo", None) => self.takeback()?,
            ("hint", None) => self.hint()?,
            ("draw", None) => self.offer_draw()?,
            ("level", None) => {
                let level = self.options.level.get();
                self.say(format!("kibitz plays at level {level}."))?;
            }
            ("save", _) => self.save(after_word)?,
            ("level", Some(n)) if !extra => match n.parse::<u8>().ok().and_then(Level::new) {
                Some(level) => {
                    self.options.level = level;
                    self.say(format!("kibitz plays at level {}.", level.get()))?;
                }
                None => self.say(format!("'{n}' is not a level: level takes 1 to 10."))?,
            },
            ("new", None) => {
                self.game = Game::new(self.options.start.clone());
                self.end = None;
                self.engine_score = None;
                self.date = date_and_time().0;
                self.engine.send(Command::NewGame);
                let human = side_name(self.options.human);
                self.say(format!("New game. You play {human}."))?;
                self.start_game()?;
            }
            ("resign", None) => match self.end {
                Some(_) => self.say("The game is over already.")?,
                None => {
                    let end = GameEnd::Resignation {
                        winner: !self.options.human,
                    };
                    self.end = Some(end);
                    self.say(format!("You resign. {}.", end.describe()))?;
                }
            },
            _ => self.human_move(typed)?,
        }
        Ok(true)
    }

    fn list_moves(&mut self) -> Result<(), CliError> {
        if self.end.is_some() {
            return self.say("The game is over: no moves.");
        }
        let position = self.game.position();
        let mut sans: Vec<String> = position
            .legal_moves()
            .iter()
            .map(|&m| san_line(position, &[m]).join(""))
            .collect();
        sans.sort();
        self.say(format!("Legal moves: {}.", sans.join(", ")))
    }

    fn human_move(&mut self, typed: &str) -> Result<(), CliError> {
        if self.end.is_some() {
            return self.say("The game is over: type new for another, or quit.");
        }
        let m = match parse_move(self.game.position(), typed) {
            Ok(m) => m,
            // Neither a move nor a command: say where the commands are.
            Err(e @ MoveError::Unparsable { .. }) => {
                return self.say(format!("{e}. Type help for commands."));
            }
            Err(e) => return self.say(format!("{e}.")),
        };
        self.play(m, "You", "play", "castle")?;
        self.engine_turn()
    }

    /// Play `m` and say it, with check, mate or the end of the game.
    fn play(&mut self, m: Move, who: &str, play: &str, castle: &str) -> Result<(), CliError> {
        let sentence = move_sentence(who, play, castle, m);
        self.game.play(m);
        self.say(format!("{sentence}."))?;
        self.end = self.game.rules_end();
        match self.end {
            Some(GameEnd::Checkmate { winner }) => {
                self.say(format!("Checkmate, {} wins.", side_name(winner)))
            }
            Some(end) => self.say(format!("{}.", end.describe())),
            None if self.game.position().is_check() => self.say("Check."),
            None => Ok(()),
        }
    }

    /// If kibitz is to move, let it search and play, then describe.
    fn engine_turn(&mut self) -> Result<(), CliError> {
        if self.end.is_some() || self.game.position().turn() == self.options.human {
            return Ok(());
        }
        let limits = Limits {
            movetime: Some(MOVETIME),
            game_move: true,
            ..Limits::default()
        };
        let (best_move, score) = self.search(limits, self.options.level, true)?;
        // A book move has no score: keep the last searched one, as the
        // board does.
        if score.is_some() {
            self.engine_score = score;
        }
        if let Some(m) = best_move {
            self.play(m, "kibitz", "plays", "castles")?;
        }
        if self.auto_describe {
            self.describe()?;
        }
        Ok(())
    }

    fn hint(&mut self) -> Result<(), CliError> {
        if self.end.is_some() {
            return self.say("The game is over: no hint.");
        }
        let limits = Limits {
            movetime: Some(HINT_MOVETIME),
            ..Limits::default()
        };
        let full = Level::new(crate::engine::level::MAX_LEVEL).unwrap_or_default();
        match self.search(limits, full, false)?.0 {
            Some(m) => {
                let san = san_line(self.game.position(), &[m]).join("");
                let words = move_sentence("Hint: you could", "play", "castle", m);
                self.say(format!("{words} ({san})."))
            }
            None => self.say("There is no move to suggest."),
        }
    }

    /// Search the position on the board; the engine's move, if it has one,
    /// and its score when it searched (not from the book).
    fn search(
        &mut self,
        limits: Limits,
        level: Level,
        book: bool,
    ) -> Result<(Option<Move>, Option<Score>), CliError> {
        self.next_search += 1;
        let search_id = self.next_search;
        self.engine.send(Command::Go(Box::new(GoRequest {
            search_id,
            position: self.game.position().clone(),
            history: self.game.history_keys(),
            limits,
            options: SearchOptions::default(),
            level,
            book,
            received: Instant::now(),
        })));
        loop {
            match self.engine.reports().recv() {
                Ok(Report::BestMove {
                    search_id: id,
                    best_move,
                    score,
                    source,
                    ..
                }) if id == search_id => {
                    let searched = !matches!(source, MoveSource::Book { .. });
                    return Ok((best_move, searched.then_some(score)));
                }
                Ok(_) => {}
                Err(_) => {
                    return Err(CliError::Io(std::io::Error::other(
                        "the engine thread stopped unexpectedly",
                    )));
                }
            }
        }
    }

    fn takeback(&mut self) -> Result<(), CliError> {
        if self.game.is_empty() {
            return self.say("Nothing to take back.");
        }
        let human = self.options.human;
        let mut plies = 0;
        while self.game.undo().is_some() {
            plies += 1;
            if self.game.position().turn() == human {
                break;
            }
        }
        // Its score was for a position no longer on the board.
        self.engine_score = None;
        self.end = None;
        // Back at a start where kibitz moves first: nothing of yours to undo.
        if self.game.position().turn() != human {
            self.say("Taken back to the start.")?;
            self.engine_turn()?;
        } else {
            let what = if plies == 1 {
                "one move"
            } else {
                "your move and kibitz's reply"
            };
            self.say(format!("Took back {what}. Your move."))?;
            if self.auto_describe {
                self.describe()?;
            }
        }
        // The description says it too; without one, still say whose move
        // it is and what the last move now is.
        if !self.auto_describe {
            self.say_turn()?;
        }
        Ok(())
    }

    /// Offer kibitz a draw: it decides as on the board, by the score of
    /// its last searched move.
    fn offer_draw(&mut self) -> Result<(), CliError> {
        if self.end.is_some() {
            return self.say("The game is over already.");
        }
        if accepts_draw(self.engine_score, self.game.len()) {
            let end = GameEnd::Agreement;
            self.end = Some(end);
            self.say(format!("kibitz accepts the draw. {}.", end.describe()))
        } else {
            self.say("kibitz declines the draw and plays on.")
        }
    }

    /// The game as PGN, with its result so far.
    fn pgn(&self) -> String {
        let human = self.options.human;
        let level = self.options.level.get();
        let name = |color: Color| versus_engine_name(color != human, level);
        let mut headers = game_headers(
            &name(Color::White),
            &name(Color::Black),
            &self.date,
            self.end,
            &TimeControl::Untimed.pgn(),
        );
        // The opening's tags, as the board's `s` writes them.
        if let Some(opening) = crate::game::openings::opening_of(&self.game) {
            headers.set("ECO", opening.eco.clone());
            headers.set("Opening", opening.name.clone());
        }
        write_pgn(&self.game, &headers, self.end.map_or("*", GameEnd::result))
    }

    /// Save the game as PGN: with no path to the data folder's `games/`,
    /// as the board's `s` does; else to `path`, a new file.
    fn save(&mut self, path: &str) -> Result<(), CliError> {
        let text = self.pgn();
        if path.is_empty() {
            let Some(data_dir) = self.options.data_dir.clone() else {
                return self.say("There is no data folder: save with save PATH.");
            };
            return match save_in_games(&data_dir, "kibitz", &text) {
                Ok(saved) => self.say(format!("Saved as {}", saved.display())),
                Err(e) => self.say(format!("Not saved: {e}.")),
            };
        }
        let path = Path::new(path);
        // A file of the person's own may hold other games: never replaced.
        if std::fs::symlink_metadata(path).is_ok() {
            return self.say(format!(
                "{} exists already: not saved; give a new name.",
                path.display()
            ));
        }
        match crate::fsutil::write_user_file(path, &text) {
            Ok(()) => self.say(format!("Saved as {}", path.display())),
            Err(e) => self.say(format!("Not saved: {e}.")),
        }
    }
}
