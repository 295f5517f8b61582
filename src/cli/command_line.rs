//! The command line's grammar: the board's options and the subcommands,
//! each with the arguments type of its own file, and the headless ones run
//! from here. `main` reads it and turns the outcome into an exit code.

use std::io::Write;

use clap::{CommandFactory, Parser, Subcommand};

use super::CliError;
use super::analyze::AnalyzeArgs;
use super::bench::BenchArgs;
use super::board::BoardArgs;
use super::book::BookCommand;
use super::completions::{CompletionsArgs, ManArgs};
use super::db::DbCommand;
use super::describe::DescribeArgs;
use super::learn::LearnArgs;
use super::movetables::MovetablesArgs;
use super::perft::PerftArgs;
use super::pgn::PgnArgs;
use super::puzzles::PuzzlesArgs;
use super::review::ReviewArgs;
use super::tb::TbCommand;
use super::teach::TeachArgs;
use super::trace::TraceArgs;
use super::train::TrainArgs;
use super::tune::TuneCommand;

/// `kibitz --version`: the version and the commit it was built from
/// (`unknown` where the build had no git to ask).
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("KIBITZ_COMMIT"),
    ")"
);

/// kibitz: chess in the terminal, with an engine that shows its thinking.
#[derive(Parser, Debug)]
#[command(name = "kibitz", version = VERSION, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Commands>,
    #[command(flatten)]
    pub board: BoardArgs,
}

#[derive(Subcommand, Debug)]
pub enum Commands {
    /// Speak UCI on stdin/stdout, for chess GUIs and match tools.
    Uci,
    /// Analyse a position and stream the engine's lines.
    #[command(visible_alias = "analyse")]
    Analyze(AnalyzeArgs),
    /// Search a fixed set of positions; the last line is `nodes N nps M`.
    Bench(BenchArgs),
    /// Print the twelve move tables (one per colour and piece) after a search, or after each move of a game (--pgn).
    Movetables(MovetablesArgs),
    /// Count the leaf nodes of the move tree (move generator test).
    Perft(PerftArgs),
    /// Print every step of a search: windows, moves tried, re-searches, cutoffs, table use. Always one thread: the same trace every run.
    Trace(TraceArgs),
    /// Step through the engine's search on the board, node by node.
    Teach(TeachArgs),
    /// A course on how the engine searches: nine chapters of text, lessons and exercises.
    Learn(LearnArgs),
    /// Polyglot opening books: look a position up, or build a book from games.
    #[command(subcommand)]
    Book(BookCommand),
    /// Summarise the games of a PGN file: headers, opening, plies, result, errors.
    Pgn(PgnArgs),
    /// Endgame tablebases: generate kibitz's own, check them, probe a position.
    #[command(subcommand)]
    Tb(TbCommand),
    /// Tune the evaluation's weights to game results (Texel's method).
    #[command(subcommand)]
    Tune(TuneCommand),
    /// Describe a position in words: turn, pieces, last move, check, castling.
    Describe(DescribeArgs),
    /// Review a game: evaluate every position, mark inaccuracies, mistakes, blunders.
    Review(ReviewArgs),
    /// Train: the positions due from your reviews' mistakes, puzzles and repertoire, with spaced repetition.
    Train(TrainArgs),
    /// Find puzzles in a PGN file's games: a mistake, then one move that wins clearly.
    Puzzles(PuzzlesArgs),
    /// The game database: import PGN once, explore openings, find games.
    #[command(subcommand)]
    Db(DbCommand),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(CompletionsArgs),
    /// Print the manual page (roff, for `man -l -`), or a subcommand's.
    Man(ManArgs),
}

/// The board's options that set up a session, which the subcommands that
/// open the board (`teach`, the course, `db games --open`) read too; the
/// others (`--fen`, `--pgn`, `--plain`, ...) choose how the plain board
/// starts.
const SESSION_OPTIONS: [&str; 7] = [
    "config",
    "ascii",
    "book",
    "book_policy",
    "book_depth",
    "syzygy",
    "level",
];

/// A message for the board's options given before a subcommand that would
/// not read them (`kibitz --fen FEN analyze`), or `None`. They are named in
/// the order typed; where the subcommand has an option of the same name,
/// the message says to put it after the subcommand.
pub fn misplaced_board_options(matches: &clap::ArgMatches) -> Option<String> {
    use clap::Args;
    // Without a subcommand, they are the board's to read.
    matches.subcommand()?;
    let read = board_options_read(matches);
    let mut typed: Vec<(usize, String)> = BoardArgs::augment_args(clap::Command::new("board"))
        .get_arguments()
        .filter(|arg| {
            let id = arg.get_id().as_str();
            !read.contains(&id)
                && matches.value_source(id) == Some(clap::parser::ValueSource::CommandLine)
        })
        .filter_map(|arg| {
            let index = matches.index_of(arg.get_id().as_str())?;
            Some((index, arg.get_long()?.to_string()))
        })
        .collect();
    if typed.is_empty() {
        return None;
    }
    typed.sort();
    // The subcommand down to the one that runs (`tb probe`), and its options.
    let mut path = Vec::new();
    let mut leaf = Cli::command();
    let mut at = matches;
    while let Some((name, sub)) = at.subcommand() {
        path.push(name.to_string());
        leaf = leaf.find_subcommand(name)?.clone();
        at = sub;
    }
    let path = path.join(" ");
    let names: Vec<String> = typed.iter().map(|(_, long)| format!("--{long}")).collect();
    let own: Vec<String> = typed
        .iter()
        .filter(|(_, long)| {
            leaf.get_arguments()
                .any(|arg| arg.get_long() == Some(long.as_str()))
        })
        .map(|(_, long)| format!("--{long}"))
        .collect();
    let (what, it) = match names.len() {
        1 => ("is an option", "it"),
        _ => ("are options", "them"),
    };
    let mut message = format!(
        "{} {what} of the board, not of `kibitz {path}`",
        names.join(", ")
    );
    if own.is_empty() {
        message.push_str(&format!(" (see kibitz {path} --help)"));
    } else {
        let it = if own.len() == 1 { "it" } else { it };
        message.push_str(&format!(
            "; `kibitz {path}` has its own {}: put {it} after `{path}`",
            own.join(", ")
        ));
    }
    Some(message)
}

/// The board's options (by id) the subcommand reads when given before it:
/// those that set up a session, where it opens the board (`db games
/// --open` has its own `--db`; teach and the course read the board's).
/// Read from the parsed words, so it works on a command line that clap
/// refused for another reason too.
fn board_options_read(matches: &clap::ArgMatches) -> Vec<&'static str> {
    use clap::parser::ValueSource;
    let given =
        |m: &clap::ArgMatches, id: &str| m.value_source(id) == Some(ValueSource::CommandLine);
    let with_db = || [&SESSION_OPTIONS[..], &["db"]].concat();
    match matches.subcommand() {
        Some(("teach", _)) => with_db(),
        // The course opens the board unless it is asked for text.
        Some(("learn", learn))
            if !["list", "chapter", "export"]
                .iter()
                .any(|id| given(learn, id)) =>
        {
            with_db()
        }
        Some(("db", db)) => match db.subcommand() {
            Some(("games", games)) if given(games, "open") => SESSION_OPTIONS.to_vec(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

impl Commands {
    /// Run a command that writes to `out`: every one but `uci` and `teach`,
    /// which `main` starts itself (`uci` prints from two threads, `teach`
    /// opens the board).
    pub fn run(&self, out: &mut dyn Write) -> Result<(), CliError> {
        match self {
            Commands::Uci | Commands::Teach(_) => Err(CliError::BadInput(
                "uci and teach do not write to a stream".into(),
            )),
            Commands::Analyze(args) => super::analyze::analyze(args, out),
            Commands::Bench(args) => args.run(out),
            Commands::Movetables(args) => args.run(out),
            Commands::Perft(args) => args.run(out),
            Commands::Trace(args) => super::trace::trace(args, out),
            Commands::Learn(args) if args.opens_board() => Err(CliError::BadInput(
                "the course opens the board: it does not write to a stream".into(),
            )),
            Commands::Learn(args) => args.run(out),
            Commands::Book(command) => command.run(out),
            Commands::Pgn(args) => args.run(out),
            Commands::Tb(command) => command.run(out),
            Commands::Tune(command) => {
                let stop = matches!(
                    command,
                    super::tune::TuneCommand::Spsa(_) | super::tune::TuneCommand::Match(_)
                )
                .then(stop_on_interrupt)
                .flatten();
                command.run(stop, out)
            }
            Commands::Describe(args) => args.run(out),
            Commands::Review(args) if args.all => {
                super::review_all::run(args, stop_on_interrupt(), out)
            }
            Commands::Review(args) => super::review::run(args, out),
            Commands::Train(args) => args.run(stop_on_interrupt(), out),
            Commands::Puzzles(args) => super::puzzles::run(args, stop_on_interrupt(), out),
            Commands::Db(command) if command.opens_board() => Err(CliError::BadInput(
                "`db games --open` opens the board: it does not write to a stream".into(),
            )),
            Commands::Db(command) => command.run(stop_on_interrupt(), out),
            Commands::Completions(args) => args.run(Cli::command(), out),
            Commands::Man(args) => args.run(Cli::command(), out),
        }
    }
}

/// A flag the first Ctrl-C (or a polite kill, SIGTERM) sets instead of
/// ending the process, for the commands that keep what they finished when
/// stopped; a second one ends the process at once (130 after Ctrl-C, 143
/// after SIGTERM, as a shell reports them).
#[cfg(feature = "tui")]
fn stop_on_interrupt() -> Option<std::sync::Arc<std::sync::atomic::AtomicBool>> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    for (signal, code) in [(SIGINT, 130), (SIGTERM, 143)] {
        signal_hook::flag::register_conditional_shutdown(
            signal,
            code,
            std::sync::Arc::clone(&flag),
        )
        .ok()?;
        signal_hook::flag::register(signal, std::sync::Arc::clone(&flag)).ok()?;
    }
    Some(flag)
}

/// Without the `tui` feature there is no signal handling: Ctrl-C ends the
/// process as usual.
#[cfg(not(feature = "tui"))]
fn stop_on_interrupt() -> Option<std::sync::Arc<std::sync::atomic::AtomicBool>> {
    None
}
