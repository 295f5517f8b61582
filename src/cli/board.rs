//! `kibitz` without a subcommand: the terminal board, or the line mode
//! (`--plain`). The board's options are read here, and a file, position or
//! book that cannot be used is refused before the terminal is taken over.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use shakmaty::Color;

use super::CliError;
use super::flags::parse_color;
use crate::config::{Dirs, Settings};

// No doc comment: clap would take it for the program's about text.
#[derive(Args, Debug)]
// Without the board, its options are parsed (so scripts keep working) but unread.
#[cfg_attr(not(feature = "tui"), allow(dead_code))]
pub struct BoardArgs {
    /// Start the board from this position (FEN).
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// Draw pieces as letters instead of chess symbols.
    #[arg(long)]
    pub ascii: bool,
    /// Read settings from this file instead of the config directory's config.toml.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Opening book for the board: a Polyglot file, or `builtin`.
    #[arg(long, value_name = "FILE")]
    pub book: Option<String>,
    /// How the engine picks book moves: weighted, best or off.
    #[arg(long, value_name = "POLICY")]
    pub book_policy: Option<crate::book::Policy>,
    /// Play book moves up to this ply.
    #[arg(long, value_name = "PLIES")]
    pub book_depth: Option<u32>,
    /// A folder of Syzygy endgame tables.
    #[arg(long, value_name = "DIR")]
    pub syzygy: Option<PathBuf>,
    /// Open a PGN file on the analysis board (the game list, or --game N).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Which game of the --pgn file to open (1 = the first).
    #[arg(long, value_name = "N", requires = "pgn")]
    pub game: Option<usize>,
    /// The game database for the analysis board's explorer (x) [default: the
    /// config's `database`, else games.sqlite in the data folder].
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// Start on the analysis board (from --fen, or the start position).
    #[arg(long, visible_alias = "analyze")]
    pub analyse: bool,
    /// Play in lines of text instead of on the board (for screen readers):
    /// moves and commands in, the position and the engine's moves in words out.
    #[arg(long)]
    pub plain: bool,
    /// The engine's level, 1-10 (the new-game dialog's default; the line mode's level).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=10))]
    pub level: Option<u8>,
    /// Your side in the line mode: white or black.
    #[arg(long, value_parser = parse_color, default_value = "white")]
    pub color: Color,
}

/// The settings from the config file with the command line's options over
/// them, the problems found (for the status line), and the folders.
pub struct Loaded {
    pub settings: Settings,
    pub messages: Vec<String>,
    pub dirs: Option<Dirs>,
}

/// What `kibitz` without a subcommand opens.
pub enum Start {
    /// The line mode on stdin and stdout, or why it cannot start.
    Plain(Result<super::plain::PlainOptions, CliError>),
    /// The terminal board.
    Board(Loaded),
}

/// Why the board did not open, or ended badly.
#[derive(Debug)]
pub enum BoardError {
    /// Refused before the terminal was taken over (a position, file or
    /// book that cannot be used, no terminal): one line, exit code 2.
    Refused(CliError),
    /// The board itself failed.
    Failed(anyhow::Error),
}

impl From<CliError> for BoardError {
    fn from(e: CliError) -> BoardError {
        BoardError::Refused(e)
    }
}

impl BoardArgs {
    /// The settings, with these options over the config file's.
    pub fn load(&self) -> Loaded {
        let dirs = Dirs::locate();
        let config_path = self
            .config
            .clone()
            .or_else(|| dirs.as_ref().map(Dirs::config_file));
        let (mut settings, mut messages) = match &config_path {
            Some(path) => Settings::load(path),
            None => (Settings::default(), Vec::new()),
        };
        // A file named with --config that is not there is a typo to point
        // out; the default file may be missing (defaults, no complaint).
        if let Some(path) = &self.config
            && !path.exists()
        {
            messages.push(format!(
                "config: {} does not exist; using the defaults",
                path.display().to_string().escape_debug()
            ));
        }
        if dirs.is_none() {
            messages.push("no home directory: games are not autosaved".into());
        }
        if self.ascii {
            settings.pieces = crate::config::PieceStyle::Ascii;
        }
        if let Some(book) = &self.book {
            settings.book = book.clone();
        }
        if let Some(policy) = self.book_policy {
            settings.book_options.policy = policy;
        }
        if let Some(depth) = self.book_depth {
            settings.book_options.max_plies = depth;
        }
        if let Some(db) = &self.db {
            settings.database = Some(db.clone());
        }
        if let Some(dir) = &self.syzygy {
            settings.syzygy = Some(dir.clone());
        }
        if let Some(level) = self.level.and_then(crate::engine::level::Level::new) {
            settings.level = level;
        }
        Loaded {
            settings,
            messages,
            dirs,
        }
    }

    /// The line mode (`--plain`, or `plain = true` in the config where no
    /// file or analysis board was asked for), or the board. The config's
    /// problems are notes on stderr in the line mode.
    pub fn start(&self) -> Start {
        let loaded = self.load();
        let plain_by_config = loaded.settings.plain && self.pgn.is_none() && !self.analyse;
        if !(self.plain || plain_by_config) {
            return Start::Board(loaded);
        }
        for message in &loaded.messages {
            eprintln!("note: {}", crate::text::echo::echo(message, false));
        }
        Start::Plain(super::plain::options(
            self.fen.as_deref(),
            self.color,
            &loaded.settings,
            (self.book.is_some(), self.syzygy.is_some()),
            loaded.dirs.map(|d| d.data),
        ))
    }
}

/// Games of the database to open as the game list: the file, the games,
/// how many matched.
type DbGames = (PathBuf, Vec<crate::db::GameRow>, u64);

/// What teach mode opens on: the lesson and the step to open it at.
pub type TeachStart = (
    crate::teach::Setup,
    Option<usize>,
    Option<crate::teach::Focus>,
);

/// The terminal board, after checking what it is to open (see
/// `open_board`). Returns the signal that ended it, if one did.
pub fn open(
    args: &BoardArgs,
    loaded: Loaded,
    started: Instant,
    teach: Option<TeachStart>,
) -> Result<Option<i32>, BoardError> {
    open_board(args, loaded, started, teach, false, None)
}

/// The board with games of the game database at `db` as its game list
/// (`kibitz db games --open`): the games found, most recent first, and how
/// many matched in all. Enter opens one on the analysis board.
pub fn open_db_games(
    args: &BoardArgs,
    loaded: Loaded,
    started: Instant,
    db: PathBuf,
    games: (Vec<crate::db::GameRow>, u64),
) -> Result<Option<i32>, BoardError> {
    let mut loaded = loaded;
    // The explorer reads the database the games came from.
    loaded.settings.database = Some(db.clone());
    open_board(
        args,
        loaded,
        started,
        None,
        false,
        Some((db, games.0, games.1)),
    )
}

/// `kibitz db games --open`: the games the query finds, as the board's
/// game list. A database that cannot be read, or a bad query, is refused
/// before the terminal is taken over.
pub fn open_db_command(
    command: &super::db::DbCommand,
    args: &BoardArgs,
    started: Instant,
) -> Result<Option<i32>, BoardError> {
    let super::db::DbCommand::Games(games) = command else {
        return Err(
            CliError::BadInput("only `kibitz db games --open` opens the board".into()).into(),
        );
    };
    let path = games.db.path()?;
    let query = games.query()?;
    let db = crate::db::Database::open(&path, false).map_err(super::db::db_error)?;
    let found = db.games(&query).map_err(super::db::db_error)?;
    open_db_games(args, args.load(), started, path, found)
}

/// The board on the course screen (`kibitz learn`), where the learner
/// stopped.
pub fn open_course(
    args: &BoardArgs,
    loaded: Loaded,
    started: Instant,
) -> Result<Option<i32>, BoardError> {
    open_board(args, loaded, started, None, true, None)
}

/// No subcommand, in a build without the `tui` feature: there is no board.
#[cfg(not(feature = "tui"))]
fn open_board(
    _args: &BoardArgs,
    _loaded: Loaded,
    _started: Instant,
    _teach: Option<TeachStart>,
    _course: bool,
    _db_games: Option<DbGames>,
) -> Result<Option<i32>, BoardError> {
    Err(BoardError::Refused(CliError::BadInput(
        "this kibitz was built without the terminal board (the `tui` feature); use a subcommand (see kibitz --help)".into(),
    )))
}

/// The terminal board, after checking what it is to open. Returns the
/// signal that ended it, if one did.
#[cfg(feature = "tui")]
fn open_board(
    args: &BoardArgs,
    loaded: Loaded,
    started: Instant,
    teach: Option<TeachStart>,
    course: bool,
    db_games: Option<DbGames>,
) -> Result<Option<i32>, BoardError> {
    use std::io::IsTerminal;
    let fen = match &args.fen {
        Some(text) => Some(crate::game::fen::parse_fen(text).map_err(CliError::from)?),
        None => None,
    };
    if let Some(path) = &args.pgn {
        // Refuse an unreadable file or a missing game before the terminal is
        // taken over.
        match args.game {
            Some(number) => crate::text::games::load_game(path, number)
                .map(|_| ())
                .map_err(|e| CliError::BadInput(e.0))?,
            None => crate::fsutil::open_regular(path)
                .map(|_| ())
                .map_err(|e| CliError::BadInput(e.to_string()))?,
        }
    }
    if let Some(book) = &args.book {
        // Refuse a bad book before the terminal is taken over.
        crate::book::load(book).map_err(CliError::from)?;
    }
    if let Some(dir) = &args.syzygy {
        // And Syzygy folders that are not there.
        crate::tablebase::syzygy_folders(dir)
            .map_err(|why| CliError::BadInput(format!("Syzygy {why}")))?;
    }
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        return Err(BoardError::Refused(CliError::BadInput(
            "the board needs a terminal; for scripts use a subcommand (see kibitz --help), for a game in lines of text --plain".into(),
        )));
    }
    crate::tui::run(crate::tui::Options {
        settings: loaded.settings,
        dirs: loaded.dirs,
        fen,
        messages: loaded.messages,
        started,
        frame_log: std::env::var_os("KIBITZ_FRAME_LOG").map(Into::into),
        pgn: args.pgn.clone().map(|path| (path, args.game)),
        analyse: args.analyse,
        db_games,
        teach,
        course,
    })
    .map_err(BoardError::Failed)
}
