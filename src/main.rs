use std::io::Write;
use std::process::ExitCode;

use anyhow::Context;

use kibitz::cli::CliError;
use kibitz::cli::board::{BoardError, Start};
use kibitz::cli::command_line::{Cli, Commands, misplaced_board_options};

/// mimalloc instead of the C library's allocator: reading a big PGN file
/// allocates on one thread and frees on another, and glibc's allocator
/// then spends a fifth of the time on its arena locks. It also gives the
/// transposition table 2 MiB pages where the system allows them (Linux's
/// transparent huge pages in `madvise` mode), where glibc's gives 4 KiB
/// ones: a table probe, a random read, then rarely misses the TLB, and
/// the search runs about 6% faster.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> anyhow::Result<ExitCode> {
    let started = std::time::Instant::now();
    let (cli, misplaced) = match parse_command_line() {
        Ok(parsed) => parsed,
        Err(code) => return Ok(code),
    };
    // `kibitz --syzygy DIR uci` would run without the tables: say so.
    if let Some(message) = misplaced {
        return Ok(failed(&CliError::BadInput(message)));
    }
    let ended = match cli.command {
        None => match cli.board.start() {
            Start::Plain(options) => {
                return to_stdout(|out| {
                    kibitz::cli::plain::run(options?, &mut std::io::stdin().lock(), out)
                });
            }
            Start::Board(loaded) => kibitz::cli::board::open(&cli.board, loaded, started, None),
        },
        Some(Commands::Teach(args)) => args.open(&cli.board, started),
        Some(Commands::Learn(args)) if args.opens_board() => args.open(&cli.board, started),
        Some(Commands::Db(command)) if command.opens_board() => {
            kibitz::cli::board::open_db_command(&command, &cli.board, started)
        }
        Some(Commands::Uci) => {
            kibitz::uci::run(std::io::stdin().lock()).context("UCI session")?;
            return Ok(ExitCode::SUCCESS);
        }
        Some(command) => return to_stdout(|out| command.run(out)),
    };
    match ended {
        Ok(None) => Ok(ExitCode::SUCCESS),
        // Ended by a signal: the shell's convention, 128 + the signal's number.
        Ok(Some(signal)) => Ok(ExitCode::from(u8::try_from(128 + signal).unwrap_or(1))),
        Err(BoardError::Refused(e)) => Ok(failed(&e)),
        Err(BoardError::Failed(e)) => Err(e),
    }
}

/// An error on stderr as one line, the input it repeats made safe to
/// print (control characters escaped, a huge token cut: see
/// [`kibitz::text::echo`]); its exit code: 2 for bad input, 130 for a
/// stop by Ctrl-C (said as it is, without "error:"), 1 for anything else.
fn failed(e: &CliError) -> ExitCode {
    if let CliError::Stopped(_) = e {
        eprintln!("{e}");
    } else {
        eprintln!("error: {}", kibitz::text::echo::echo(&e.to_string(), false));
    }
    ExitCode::from(e.exit_code() as u8)
}

/// The command line read, with a message for the board's options given
/// before a subcommand that would not read them (see
/// [`misplaced_board_options`]), or its error shown (a huge argument cut, as
/// in [`failed`]) with clap's exit code (2); `--help` and `--version` as
/// clap shows them.
fn parse_command_line() -> Result<(Cli, Option<String>), ExitCode> {
    use clap::error::ErrorKind;
    use clap::{CommandFactory, FromArgMatches};
    let parsed = Cli::command().try_get_matches().and_then(|matches| {
        let cli = Cli::from_arg_matches(&matches)?;
        Ok((cli, misplaced_board_options(&matches)))
    });
    match parsed {
        Ok(parsed) => Ok(parsed),
        Err(e) => {
            let help = matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion);
            // A board option before the subcommand is the first thing to
            // fix: clap's own complaint (`--pgn` missing, when it was
            // typed before `review`) would mislead.
            if !help
                && let Some(message) = Cli::command()
                    .ignore_errors(true)
                    .try_get_matches()
                    .ok()
                    .as_ref()
                    .and_then(misplaced_board_options)
            {
                return Err(failed(&CliError::BadInput(message)));
            }
            let text = e.to_string();
            let safe = kibitz::text::echo::echo(&text, true);
            if safe == text || help {
                e.exit();
            }
            eprint!("{safe}");
            Err(ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2)))
        }
    }
}

/// Run `work` with line-buffered stdout (so output streams as it comes);
/// its error is one line on stderr and the exit code. A closed pipe
/// (`kibitz trace ... | head`) is not an error worth a message.
fn to_stdout(
    work: impl FnOnce(&mut dyn Write) -> Result<(), CliError>,
) -> anyhow::Result<ExitCode> {
    let stdout = std::io::stdout();
    let mut out = std::io::LineWriter::new(stdout.lock());
    let result = work(&mut out);
    let flushed = out.flush();
    match result {
        Ok(()) => {
            flushed.context("writing output")?;
            Ok(ExitCode::SUCCESS)
        }
        Err(CliError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Ok(failed(&e)),
    }
}
