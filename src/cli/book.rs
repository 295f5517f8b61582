//! `kibitz book probe` and `kibitz book build`.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand};
use serde_json::json;
use shakmaty::Color;

use super::flags::{JsonFlag, PositionArgs, parse_color};
use super::{CliError, setup};
use crate::book::Book;
use crate::book::build::{BuildOptions, Builder};
use crate::game::notation::{san_line, uci};

/// `kibitz book`: look a position up, or build a book.
#[derive(Subcommand, Debug)]
pub enum BookCommand {
    /// Print a position's key and its book moves with weights, best first.
    Probe(ProbeArgs),
    /// Build a Polyglot book from PGN games (win 2, draw 1, loss 0 per move).
    Build(BuildArgs),
}

impl BookCommand {
    pub fn run(&self, mut out: &mut dyn Write) -> Result<(), CliError> {
        match self {
            BookCommand::Probe(args) => probe(
                &args.book,
                args.position.fen(),
                &args.position.moves,
                args.output.json,
                &mut out,
            ),
            BookCommand::Build(args) => build(args, out),
        }
    }
}

/// `kibitz book probe`: the book, the position, the output.
#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// The Polyglot book file, or `builtin` for the book built in.
    #[arg(long, default_value = "builtin")]
    pub book: PathBuf,
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub output: JsonFlag,
}

/// Print what `book` holds for the position: the key, then the moves, best
/// first, with weight and share.
pub fn probe(
    book_path: &Path,
    fen: Option<&str>,
    moves: &[String],
    json_output: bool,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let (position, _) = setup(fen, moves)?;
    // `builtin` names the book compiled in, as in the settings and UCI.
    let book = match book_path.to_str() {
        Some(name) if name == crate::book::BUILTIN => crate::book::load(name)?,
        _ => Book::open(book_path)?,
    };
    let probe = book.probe(&position);
    let rows: Vec<(String, String, u32, f64)> = probe
        .moves
        .iter()
        .map(|b| {
            (
                san_line(&position, &[b.m]).join(""),
                uci(b.m),
                b.weight,
                b.share,
            )
        })
        .collect();
    if json_output {
        let moves: Vec<_> = rows
            .iter()
            .map(|(san, uci, weight, share)| {
                json!({"san": san, "uci": uci, "weight": weight, "share": share})
            })
            .collect();
        let line = json!({
            "key": format!("{:016x}", probe.key),
            "moves": moves,
            "illegal_entries": probe.illegal,
        });
        writeln!(out, "{line}")?;
        return Ok(());
    }
    writeln!(out, "key {:016x}", probe.key)?;
    if rows.is_empty() {
        writeln!(out, "no book moves for this position")?;
    }
    for (san, uci, weight, share) in &rows {
        writeln!(
            out,
            "{san:<8} {uci:<6} weight {weight:>6}  {:>5.1}%",
            share * 100.0
        )?;
    }
    if probe.illegal > 0 {
        writeln!(
            out,
            "({} entries skipped: their moves are not legal here)",
            probe.illegal
        )?;
    }
    Ok(())
}

/// `kibitz book build`: the games, the book to write, what to count.
#[derive(Args, Debug)]
#[command(mut_arg("json", |a| a.help("One JSON object: counts, skipped games, the file written")))]
pub struct BuildArgs {
    /// PGN files to read.
    #[arg(long, num_args = 1.., required = true)]
    pub pgn: Vec<PathBuf>,
    /// The book file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Count moves up to this many plies into each game.
    #[arg(long, default_value_t = 20)]
    pub max_ply: u32,
    /// Keep moves played in at least this many games.
    #[arg(long, default_value_t = 1)]
    pub min_games: u32,
    /// Only the moves of one side: white or black.
    #[arg(long, value_parser = parse_color)]
    pub only_color: Option<Color>,
    #[command(flatten)]
    pub output: JsonFlag,
}

/// Build a book from PGN files and write it. Reports games read, games
/// skipped (with the first few reasons), the book's size and the speed;
/// progress goes to stderr when it is a terminal.
pub fn build(args: &BuildArgs, out: &mut dyn Write) -> Result<(), CliError> {
    if args.max_ply == 0 {
        return Err(CliError::BadInput("--max-ply must be at least 1".into()));
    }
    let inputs: Vec<&std::path::Path> = args.pgn.iter().map(PathBuf::as_path).collect();
    crate::fsutil::check_output(&args.out, &inputs).map_err(CliError::BadInput)?;
    let started = Instant::now();
    let mut builder = Builder::new(BuildOptions {
        max_ply: args.max_ply,
        min_games: args.min_games.max(1),
        only_color: args.only_color,
    });
    let show_progress = std::io::stderr().is_terminal();
    for path in &args.pgn {
        let mut progress = |games: usize| {
            if show_progress {
                eprint!("\r{}: {games} games", path.display());
            }
        };
        builder.add_file(path, &mut progress)?;
        if show_progress {
            eprintln!();
        }
    }
    let book = builder.finish();
    if book.is_empty() {
        return Err(CliError::BadInput(format!(
            "no moves to put in the book ({} games read, {} skipped)",
            builder.games,
            builder.skipped.len()
        )));
    }
    crate::fsutil::write_user_file(&args.out, book.to_bytes()).map_err(CliError::BadInput)?;
    let seconds = started.elapsed().as_secs_f64();
    if args.output.json {
        let skipped: Vec<_> = builder
            .skipped
            .iter()
            .map(|s| json!({"file": s.file.display().to_string(), "game": s.game, "reason": s.reason}))
            .collect();
        writeln!(
            out,
            "{}",
            json!({
                "games": builder.games,
                "skipped": skipped,
                "entries": book.len(),
                "positions": book.positions(),
                "bytes": book.len() * crate::book::polyglot::ENTRY_SIZE,
                "seconds": seconds,
                "out": args.out.display().to_string(),
            })
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "games {} skipped {} entries {} positions {} bytes {} seconds {seconds:.2} games/s {:.0}",
        builder.games,
        builder.skipped.len(),
        book.len(),
        book.positions(),
        book.len() * crate::book::polyglot::ENTRY_SIZE,
        (builder.games + builder.skipped.len()) as f64 / seconds.max(1e-9),
    )?;
    for skipped in builder.skipped.iter().take(10) {
        writeln!(
            out,
            "skipped {} game {}: {}",
            skipped.file.display(),
            skipped.game,
            skipped.reason
        )?;
    }
    if builder.skipped.len() > 10 {
        writeln!(out, "... and {} more skipped", builder.skipped.len() - 10)?;
    }
    writeln!(out, "wrote {}", args.out.display())?;
    Ok(())
}
