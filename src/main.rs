use std::io::Write;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};

use kibitz::cli::{self, AnalyzeArgs, CliError, TraceArgs};

/// mimalloc instead of the C library's allocator: reading a big PGN file
/// allocates on one thread and frees on another, and glibc's allocator
/// then spends a fifth of the time on its arena locks. It also gives the
/// transposition table 2 MiB pages where the system allows them (Linux's
/// transparent huge pages in `madvise` mode), where glibc's gives 4 KiB
/// ones: a table probe, a random read, then rarely misses the TLB, and
/// the search runs about 6% faster.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// kibitz: chess in the terminal, with an engine that shows its thinking.
#[derive(Parser)]
// Without the board, its options are parsed (so scripts keep working) but unread.
#[cfg_attr(not(feature = "tui"), allow(dead_code))]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Commands>,
    /// Start the board from this position (FEN).
    #[arg(long, value_name = "FEN")]
    fen: Option<String>,
    /// Draw pieces as letters instead of chess symbols.
    #[arg(long)]
    ascii: bool,
    /// Read settings from this file instead of the config directory's config.toml.
    #[arg(long, value_name = "FILE")]
    config: Option<std::path::PathBuf>,
    /// Opening book for the board: a Polyglot file, or `builtin`.
    #[arg(long, value_name = "FILE")]
    book: Option<String>,
    /// How the engine picks book moves: weighted, best or off.
    #[arg(long, value_name = "POLICY")]
    book_policy: Option<kibitz::book::Policy>,
    /// Play book moves up to this ply.
    #[arg(long, value_name = "PLIES")]
    book_depth: Option<u32>,
    /// A folder of Syzygy endgame tables.
    #[arg(long, value_name = "DIR")]
    syzygy: Option<std::path::PathBuf>,
    /// Open a PGN file on the analysis board (the game list, or --game N).
    #[arg(long, value_name = "FILE")]
    pgn: Option<std::path::PathBuf>,
    /// Which game of the --pgn file to open (1 = the first).
    #[arg(long, value_name = "N", requires = "pgn")]
    game: Option<usize>,
    /// Start on the analysis board (from --fen, or the start position).
    #[arg(long, visible_alias = "analyze")]
    analyse: bool,
    /// Play in lines of text instead of on the board (for screen readers):
    /// moves and commands in, the position and the engine's moves in words out.
    #[arg(long)]
    plain: bool,
    /// The engine's level, 1-10 (the new-game dialog's default; the line mode's level).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=10))]
    level: Option<u8>,
    /// Your side in the line mode: white or black.
    #[arg(long, value_parser = parse_color, default_value = "white")]
    color: shakmaty::Color,
}

#[derive(Subcommand)]
enum Commands {
    /// Speak UCI on stdin/stdout, for chess GUIs and match tools.
    Uci,
    /// Analyse a position and stream the engine's lines.
    #[command(visible_alias = "analyse")]
    Analyze(AnalyzeCommand),
    /// Search a fixed set of positions; the last line is `nodes N nps M`.
    Bench {
        /// Search depth per position (default 9; 6 with --movetables).
        #[arg(long)]
        depth: Option<u32>,
        /// One JSON object per line.
        #[arg(long)]
        json: bool,
        /// Instead: Greer's Table 1, nodes to --depth (default 6) over every position of real games for each number of table moves, as in 0,1,2,4.
        #[arg(long, value_delimiter = ',', num_args = 1..)]
        movetables: Option<Vec<u8>>,
        /// The games for --movetables (default: Kasparov - Deep Blue 1997, built in).
        #[arg(long, requires = "movetables")]
        pgn: Option<std::path::PathBuf>,
        /// Search threads, 1-256 (default 1). nps counts every thread; with
        /// more than one the node count differs from run to run.
        #[arg(long, default_value_t = 1, conflicts_with = "movetables")]
        threads: usize,
        /// The evaluation: handwritten (the default, whose node count is the
        /// search's signature), builtin (the shipped network) or a network file.
        #[arg(long, default_value = "handwritten", conflicts_with = "movetables")]
        eval: String,
    },
    /// Print the twelve move tables (one per colour and piece) after a search.
    Movetables {
        /// Position in FEN (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves (SAN or UCI) played from the position first.
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// Search depth (plies), 1 to 20.
        #[arg(long)]
        depth: u32,
        /// JSON: 12 tables, each with colour, piece, 64 weights and 64
        /// touches a1..h8; the links; the history heuristic's 12 tables.
        #[arg(long)]
        json: bool,
        /// Which moves lose weight at a cutoff: `tried` (the moves searched
        /// before the cutoff) or `all` (every other legal move, Greer's rule).
        #[arg(long, default_value = "tried", value_parser = parse_decrement)]
        decrement: kibitz::engine::movetables::Decrement,
    },
    /// Count the leaf nodes of the move tree (move generator test).
    Perft {
        /// Position in FEN (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Depth in plies: count the move sequences this long.
        #[arg(long)]
        depth: u32,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Print JSON (one object per line) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Print every step of a search: windows, moves tried, re-searches, cutoffs, table use. Always one thread: the same trace every run.
    Trace(TraceCommand),
    /// Step through the engine's search on the board, node by node.
    Teach(TeachCommand),
    /// Polyglot opening books: look a position up, or build a book from games.
    #[command(subcommand)]
    Book(BookCommand),
    /// Summarise the games of a PGN file: headers, opening, plies, result, errors.
    Pgn {
        /// The PGN file.
        file: std::path::PathBuf,
        /// Print JSON (one object per line) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Endgame tablebases: generate kibitz's own, check them, probe a position.
    #[command(subcommand)]
    Tb(TbCommand),
    /// Tune the evaluation's weights to game results (Texel's method).
    #[command(subcommand)]
    Tune(TuneCommand),
    /// Describe a position in words: turn, pieces, last move, check, castling.
    Describe {
        /// Position in FEN (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves (SAN or UCI) played from the position first; the last one is described.
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// One JSON object: side to move, pieces, last move, status, castling, lines.
        #[arg(long)]
        json: bool,
    },
    /// Review a game: evaluate every position, mark inaccuracies, mistakes, blunders.
    Review {
        /// The PGN file.
        #[arg(long)]
        pgn: std::path::PathBuf,
        /// Which game of the file (1 = the first).
        #[arg(long, default_value_t = 1)]
        game: usize,
        /// Thinking time per position, milliseconds.
        #[arg(long, default_value_t = 300)]
        movetime: u64,
        /// Write the game with the review in it ([%eval], ?! ? ??, better lines) here
        /// (with --all: every game reviewed).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
        /// Print JSON (one object per line) instead of text.
        #[arg(long)]
        json: bool,
        /// Review every game of the file, with a report per game and per player.
        #[arg(long, conflicts_with = "game")]
        all: bool,
        /// With --all: games reviewed at once (default: all cores but one).
        #[arg(long, requires = "all")]
        threads: Option<usize>,
        /// Syzygy tables: the positions they cover are judged by them.
        #[arg(long)]
        syzygy: Option<std::path::PathBuf>,
    },
}

/// `kibitz teach`: the lesson's position, depth, techniques and first step,
/// so a teacher can hand out the command that opens the same lesson.
#[derive(clap::Args)]
struct TeachCommand {
    /// Position in FEN (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Moves (SAN or UCI) played from the position first.
    #[arg(long, num_args = 1..)]
    moves: Vec<String>,
    /// Search depth (plies), 1 to 6.
    #[arg(long, default_value_t = kibitz::teach::DEFAULT_DEPTH)]
    depth: u32,
    /// Plain minimax: no alpha-beta (the other techniques then do not apply).
    #[arg(long)]
    no_alpha_beta: bool,
    /// Search moves in generation order.
    #[arg(long)]
    no_ordering: bool,
    /// No transposition table.
    #[arg(long)]
    no_table: bool,
    /// Evaluate at the horizon without quiescence search.
    #[arg(long)]
    no_quiescence: bool,
    /// Principal-variation search: later moves get a null-window test first.
    #[arg(long)]
    pvs: bool,
    /// Iterative deepening: depth 1, 2, ... up to --depth.
    #[arg(long)]
    iterative: bool,
    /// Selective search: null move, reductions, futility pruning, extensions.
    #[arg(long)]
    selective: bool,
    /// Open the lesson at this step (as the header counts them; past the
    /// end: the last step).
    #[arg(long)]
    step: Option<usize>,
}

impl TeachCommand {
    /// The techniques switched on, from the lesson's defaults.
    fn options(&self) -> kibitz::engine::SearchOptions {
        let textbook = kibitz::engine::SearchOptions::textbook();
        kibitz::engine::SearchOptions {
            alpha_beta: !self.no_alpha_beta,
            move_ordering: textbook.move_ordering && !self.no_ordering,
            transposition_table: textbook.transposition_table && !self.no_table,
            quiescence: textbook.quiescence && !self.no_quiescence,
            pvs: textbook.pvs || self.pvs,
            iterative_deepening: textbook.iterative_deepening || self.iterative,
            selective: textbook.selective || self.selective,
            ..textbook
        }
    }
}

#[derive(Subcommand)]
enum TuneCommand {
    /// Play kibitz against itself and write its quiet positions, each with
    /// its game's result (`FEN;result` lines), for `tune fit`.
    Selfplay {
        /// Games to play.
        #[arg(long, default_value_t = 1000)]
        games: u64,
        /// Nodes searched per move.
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        /// Games played at once (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
        /// Seed of the random openings: the same seed, the same games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The evaluation both sides play with: handwritten, builtin (the
        /// shipped network) or a network file.
        #[arg(long, default_value = "handwritten")]
        eval: String,
        /// The data file to write.
        #[arg(long)]
        out: std::path::PathBuf,
        /// Print JSON (one object per line) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Fit the evaluation's weights to a data file and print them.
    Fit {
        /// `FEN;result` lines, as `tune selfplay` writes them.
        #[arg(long)]
        data: std::path::PathBuf,
        /// At most this many passes over the weights.
        #[arg(long, default_value_t = 100)]
        passes: u32,
        /// Tune only these weights (names or prefixes, e.g. threat_by_pawn,passed_pawn).
        #[arg(long, value_delimiter = ',', num_args = 1..)]
        weights: Vec<String>,
        /// Threads evaluating (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
        /// Print JSON (one object per line) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Train the evaluation network on `tune selfplay` data (FEN;result;score lines) and write it.
    Net {
        /// Data files, as `tune selfplay` writes them (one or more).
        #[arg(long, num_args = 1.., required = true)]
        data: Vec<std::path::PathBuf>,
        /// The network file to write.
        #[arg(long)]
        out: std::path::PathBuf,
        /// Passes over the data.
        #[arg(long, default_value_t = 30)]
        epochs: u32,
        /// Weight of the search's score in the target, 0-1 (the rest: the game's result).
        #[arg(long, default_value_t = 0.75)]
        lambda: f32,
        /// Adam's step size (a tenth of it for the last third of the epochs).
        #[arg(long, default_value_t = 0.001)]
        learning_rate: f32,
        /// Positions per step.
        #[arg(long, default_value_t = 4096)]
        batch: usize,
        /// Threads (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
        /// Seed of the starting weights and the order of the positions.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Also learn from left-right mirror images of half the positions.
        #[arg(long)]
        mirror: bool,
        /// One output for every position instead of one per material stage
        /// (eight, chosen by the number of pieces).
        #[arg(long)]
        one_output: bool,
        /// Print JSON (one object per line) instead of text.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
enum TbCommand {
    /// Generate distance-to-mate tables (3 and 4 pieces) into the cache folder.
    Generate {
        /// Signatures like KQvK or KRPvKR (their dependencies come along).
        signatures: Vec<String>,
        /// All 35 tables (the default without signatures).
        #[arg(long)]
        all: bool,
        /// Folder for the tables (default: the cache folder's tablebases/).
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
        /// Generate again even if a valid file is there.
        #[arg(long)]
        force: bool,
        /// Print JSON (one object per line) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// What the tables say about a position: win/draw/loss, distance, best move.
    Probe {
        /// The position (FEN).
        #[arg(long)]
        fen: String,
        /// A Syzygy folder, for positions the built-in tables do not cover.
        #[arg(long)]
        syzygy: Option<std::path::PathBuf>,
        /// Also list every legal move and what it leads to.
        #[arg(long)]
        moves: bool,
        /// Folder of the built-in tables.
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
        /// Print JSON (one object per line) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Compare the built-in tables with Syzygy tables by win/draw/loss.
    Verify {
        /// Signatures to check (default: all).
        signatures: Vec<String>,
        /// The Syzygy folder.
        #[arg(long)]
        syzygy: std::path::PathBuf,
        /// Check this many random positions per table instead of all.
        #[arg(long)]
        sample: Option<usize>,
        /// Folder of the built-in tables.
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
        /// One JSON object per table, then the total.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
enum BookCommand {
    /// Print a position's key and its book moves with weights, best first.
    Probe {
        /// The Polyglot book file, or `builtin` for the book built in.
        #[arg(long, default_value = "builtin")]
        book: std::path::PathBuf,
        /// Position in FEN (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves (SAN or UCI) played from the position first.
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// Print JSON (one object per line) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Build a Polyglot book from PGN games (win 2, draw 1, loss 0 per move).
    Build {
        /// PGN files to read.
        #[arg(long, num_args = 1.., required = true)]
        pgn: Vec<std::path::PathBuf>,
        /// The book file to write.
        #[arg(long)]
        out: std::path::PathBuf,
        /// Count moves up to this many plies into each game.
        #[arg(long, default_value_t = 20)]
        max_ply: u32,
        /// Keep moves played in at least this many games.
        #[arg(long, default_value_t = 1)]
        min_games: u32,
        /// Only the moves of one side: white or black.
        #[arg(long, value_parser = parse_color)]
        only_color: Option<shakmaty::Color>,
        /// One JSON object: counts, skipped games, the file written.
        #[arg(long)]
        json: bool,
    },
}

fn parse_color(text: &str) -> Result<shakmaty::Color, String> {
    match text {
        "white" => Ok(shakmaty::Color::White),
        "black" => Ok(shakmaty::Color::Black),
        _ => Err(format!("'{text}' is not a colour (white or black)")),
    }
}

#[derive(Args)]
struct AnalyzeCommand {
    /// Position in FEN (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Moves (SAN or UCI) played from the position first.
    #[arg(long, num_args = 1..)]
    moves: Vec<String>,
    #[command(flatten)]
    limit: AnalyzeLimit,
    /// Number of lines to show.
    #[arg(long, default_value_t = 1)]
    multipv: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = kibitz::engine::DEFAULT_HASH_MB)]
    hash: usize,
    /// Print JSON (one object per line) instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
#[group(required = true, multiple = false)]
struct AnalyzeLimit {
    /// Search to this depth (plies).
    #[arg(long)]
    depth: Option<u32>,
    /// Search for this many milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// Search this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
}

#[derive(Args)]
struct TraceCommand {
    /// Position in FEN (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Moves (SAN or UCI) played from the position first.
    #[arg(long, num_args = 1..)]
    moves: Vec<String>,
    /// Search depth (plies), 1 to 10.
    #[arg(long)]
    depth: u32,
    /// Plain minimax: no alpha-beta cutoffs.
    #[arg(long)]
    no_pruning: bool,
    /// Search moves in generation order.
    #[arg(long)]
    no_ordering: bool,
    /// No transposition table.
    #[arg(long)]
    no_tt: bool,
    /// Evaluate at the horizon without quiescence search.
    #[arg(long)]
    no_quiescence: bool,
    /// Also use null-move pruning, late-move reductions, futility pruning and the check extension.
    #[arg(long)]
    selective: bool,
    /// Principal-variation search: later moves get a null-window test, re-searched on failing high.
    #[arg(long)]
    pvs: bool,
    /// Iterative deepening: search depth 1, 2, ... up to --depth (default: one search at --depth).
    #[arg(long)]
    iterative: bool,
    /// Keep at most this many events (the rest are counted).
    #[arg(long, default_value_t = 200_000)]
    max_events: usize,
    /// Print only the summary.
    #[arg(long, visible_alias = "summary-only")]
    summary: bool,
    /// Moves in coordinates (e2e4) instead of SAN.
    #[arg(long)]
    uci: bool,
    /// One JSON object per event and a summary object, with the engine's raw values.
    #[arg(long)]
    json: bool,
    /// The explored tree as an outline (one line a node, with the step that
    /// enters it, as teach mode's tree view shows it) instead of the events.
    #[arg(long, conflicts_with = "json")]
    tree: bool,
}

fn run(command: Commands, out: &mut dyn Write) -> Result<(), CliError> {
    match command {
        // Handled in main: it prints from two threads; the board.
        Commands::Uci | Commands::Teach(_) => {}
        Commands::Analyze(a) => cli::analyze(
            &AnalyzeArgs {
                fen: a.fen,
                moves: a.moves,
                depth: a.limit.depth,
                movetime: a.limit.movetime,
                nodes: a.limit.nodes,
                multipv: a.multipv,
                hash_mb: a.hash,
                json: a.json,
            },
            out,
        )?,
        Commands::Bench {
            depth,
            json,
            movetables: Some(counts),
            pgn,
            ..
        } => cli::bench_movetables(
            &counts,
            depth.unwrap_or(cli::DEFAULT_TABLE_BENCH_DEPTH),
            pgn.as_deref(),
            json,
            out,
        )?,
        Commands::Bench {
            depth,
            json,
            threads,
            eval,
            ..
        } => cli::bench(
            depth.unwrap_or(cli::DEFAULT_BENCH_DEPTH),
            threads,
            &eval,
            json,
            out,
        )?,
        Commands::Movetables {
            fen,
            moves,
            depth,
            json,
            decrement,
        } => cli::movetables(fen.as_deref(), &moves, depth, decrement, json, out)?,
        Commands::Pgn { file, json } => cli::pgn::summary(&file, json, &mut &mut *out)?,
        Commands::Describe { fen, moves, json } => {
            cli::describe::run(fen.as_deref(), &moves, json, out)?
        }
        Commands::Review {
            pgn,
            game,
            movetime,
            out: annotated,
            json,
            all,
            threads,
            syzygy,
        } => cli::review::run(
            &cli::review::ReviewArgs {
                pgn,
                game,
                movetime,
                json,
                out: annotated,
                hash_mb: kibitz::engine::DEFAULT_HASH_MB,
                all,
                threads,
                syzygy,
                stop: if all { stop_on_interrupt() } else { None },
            },
            out,
        )?,
        Commands::Tb(TbCommand::Generate {
            signatures,
            all,
            dir,
            force,
            json,
        }) => cli::tb::generate(&signatures, all, dir, force, json, &mut &mut *out)?,
        Commands::Tune(TuneCommand::Selfplay {
            games,
            nodes,
            threads,
            seed,
            eval,
            out: data,
            json,
        }) => cli::tune::selfplay(
            &cli::tune::SelfPlayArgs {
                games,
                nodes,
                threads: threads.unwrap_or_else(cores),
                seed,
                eval: &eval,
                out: &data,
                json,
            },
            out,
        )?,
        Commands::Tune(TuneCommand::Fit {
            data,
            passes,
            weights,
            threads,
            json,
        }) => cli::tune::fit(
            &cli::tune::FitArgs {
                data: &data,
                weights: &weights,
                passes,
                threads: threads.unwrap_or_else(cores),
                json,
            },
            out,
        )?,
        Commands::Tune(TuneCommand::Net {
            data,
            out: network,
            epochs,
            lambda,
            learning_rate,
            batch,
            threads,
            seed,
            mirror,
            one_output,
            json,
        }) => cli::tune::net(
            &cli::tune::NetArgs {
                data: &data,
                out: &network,
                options: kibitz::tune::net::TrainOptions {
                    epochs,
                    batch,
                    learning_rate,
                    lambda,
                    threads: threads.unwrap_or_else(cores),
                    seed,
                    mirror,
                    one_output,
                },
                json,
            },
            out,
        )?,
        Commands::Tb(TbCommand::Probe {
            fen,
            syzygy,
            moves,
            dir,
            json,
        }) => cli::tb::probe(&fen, syzygy.as_deref(), dir, moves, json, &mut &mut *out)?,
        Commands::Tb(TbCommand::Verify {
            signatures,
            syzygy,
            sample,
            dir,
            json,
        }) => {
            let disagreements =
                cli::tb::verify(&signatures, &syzygy, sample, dir, json, &mut &mut *out)?;
            if disagreements > 0 {
                return Err(CliError::BadInput(format!(
                    "{disagreements} positions disagree with Syzygy"
                )));
            }
        }
        Commands::Book(BookCommand::Probe {
            book,
            fen,
            moves,
            json,
        }) => cli::book::probe(&book, fen.as_deref(), &moves, json, &mut &mut *out)?,
        Commands::Book(BookCommand::Build {
            pgn,
            out: book_out,
            max_ply,
            min_games,
            only_color,
            json,
        }) => cli::book::build(
            &cli::book::BuildArgs {
                pgn,
                out: book_out,
                max_ply,
                min_games,
                only_color,
                json,
            },
            &mut &mut *out,
        )?,
        Commands::Perft {
            fen,
            depth,
            divide,
            json,
        } => cli::perft_command(fen.as_deref(), depth, divide, json, out)?,
        Commands::Trace(t) => cli::trace(
            &TraceArgs {
                fen: t.fen,
                moves: t.moves,
                depth: t.depth,
                no_pruning: t.no_pruning,
                no_ordering: t.no_ordering,
                no_tt: t.no_tt,
                no_quiescence: t.no_quiescence,
                selective: t.selective,
                pvs: t.pvs,
                iterative: t.iterative,
                max_events: t.max_events,
                summary_only: t.summary,
                json: t.json,
                uci: t.uci,
                tree: t.tree,
            },
            out,
        )?,
    }
    Ok(())
}

/// A flag the first Ctrl-C sets (instead of ending the process), for the
/// commands that keep what they finished when stopped; a second Ctrl-C
/// ends the process at once.
#[cfg(feature = "tui")]
fn stop_on_interrupt() -> Option<std::sync::Arc<std::sync::atomic::AtomicBool>> {
    use signal_hook::consts::SIGINT;
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    signal_hook::flag::register_conditional_shutdown(SIGINT, 130, std::sync::Arc::clone(&flag))
        .ok()?;
    signal_hook::flag::register(SIGINT, std::sync::Arc::clone(&flag)).ok()?;
    Some(flag)
}

/// Without the `tui` feature there is no signal handling: Ctrl-C ends the
/// process as usual.
#[cfg(not(feature = "tui"))]
fn stop_on_interrupt() -> Option<std::sync::Arc<std::sync::atomic::AtomicBool>> {
    None
}

/// `kibitz teach`: check the position and depth before the terminal is
/// taken over, then open the board in teach mode.
fn teach(cli: &Cli, started: std::time::Instant, args: &TeachCommand) -> anyhow::Result<ExitCode> {
    let (fen, moves, depth) = (args.fen.as_deref(), &args.moves[..], args.depth);
    use kibitz::teach::{MAX_DEPTH, MIN_DEPTH};
    use shakmaty::Position;
    if !(MIN_DEPTH..=MAX_DEPTH).contains(&depth) {
        let why = if depth < MIN_DEPTH {
            "the search looks at least one ply ahead"
        } else {
            "deeper searches are too large to step through"
        };
        eprintln!("error: depth {depth} is out of range {MIN_DEPTH}..={MAX_DEPTH}: {why}");
        return Ok(ExitCode::from(2));
    }
    let (position, history) = match cli::setup(fen, moves) {
        Ok(found) => found,
        Err(e) => {
            error(&e);
            return Ok(ExitCode::from(e.exit_code() as u8));
        }
    };
    if position.legal_moves().is_empty() {
        eprintln!("error: the game is over in this position: there is no search to step through");
        return Ok(ExitCode::from(2));
    }
    let setup = kibitz::teach::Setup {
        position,
        history,
        depth,
        options: args.options(),
    };
    tui(cli, started, Some((setup, args.step)))
}

/// What teach mode opens on: the lesson and the step to open it at.
type TeachStart = (kibitz::teach::Setup, Option<usize>);

/// No subcommand, in a build without the `tui` feature: there is no board.
#[cfg(not(feature = "tui"))]
fn tui(
    _cli: &Cli,
    _started: std::time::Instant,
    _teach: Option<TeachStart>,
) -> anyhow::Result<ExitCode> {
    eprintln!(
        "error: this kibitz was built without the terminal board (the `tui` feature); use a subcommand (see kibitz --help)"
    );
    Ok(ExitCode::from(2))
}

/// No subcommand: the terminal board.
#[cfg(feature = "tui")]
fn tui(
    cli: &Cli,
    started: std::time::Instant,
    teach: Option<TeachStart>,
) -> anyhow::Result<ExitCode> {
    use std::io::IsTerminal;
    let fen = match &cli.fen {
        Some(text) => match kibitz::game::fen::parse_fen(text) {
            Ok(position) => Some(position),
            Err(e) => {
                error(&e);
                return Ok(ExitCode::from(2));
            }
        },
        None => None,
    };
    if let Some(path) = &cli.pgn {
        // Refuse an unreadable file or a missing game before the terminal is
        // taken over.
        let checked = match cli.game {
            Some(number) => kibitz::text::games::load_game(path, number)
                .map(|_| ())
                .map_err(|e| CliError::BadInput(e.0)),
            None => kibitz::fsutil::open_regular(path)
                .map(|_| ())
                .map_err(|e| CliError::BadInput(e.to_string())),
        };
        if let Err(e) = checked {
            error(&e);
            return Ok(ExitCode::from(2));
        }
    }
    if let Some(book) = &cli.book
        && let Err(e) = kibitz::book::load(book)
    {
        // Refuse a bad book before the terminal is taken over.
        error(&e);
        return Ok(ExitCode::from(2));
    }
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        eprintln!(
            "error: the board needs a terminal; for scripts use a subcommand (see kibitz --help), for a game in lines of text --plain"
        );
        return Ok(ExitCode::from(2));
    }
    let (settings, messages, dirs) = load_settings(cli);
    let ended_by = kibitz::tui::run(kibitz::tui::Options {
        settings,
        dirs,
        fen,
        messages,
        started,
        frame_log: std::env::var_os("KIBITZ_FRAME_LOG").map(Into::into),
        pgn: cli.pgn.clone().map(|path| (path, cli.game)),
        analyse: cli.analyse,
        teach,
    })?;
    // Ended by a signal: the shell's convention, 128 + the signal's number.
    Ok(match ended_by {
        Some(signal) => ExitCode::from(u8::try_from(128 + signal).unwrap_or(1)),
        None => ExitCode::SUCCESS,
    })
}

/// The settings from the config file with the command line's options over
/// them, the problems found, and the folders.
fn load_settings(
    cli: &Cli,
) -> (
    kibitz::config::Settings,
    Vec<String>,
    Option<kibitz::config::Dirs>,
) {
    let dirs = kibitz::config::Dirs::locate();
    let config_path = cli
        .config
        .clone()
        .or_else(|| dirs.as_ref().map(kibitz::config::Dirs::config_file));
    let (mut settings, mut messages) = match &config_path {
        Some(path) => kibitz::config::Settings::load(path),
        None => (kibitz::config::Settings::default(), Vec::new()),
    };
    if dirs.is_none() {
        messages.push("no home directory: games are not autosaved".into());
    }
    if cli.ascii {
        settings.pieces = kibitz::config::PieceStyle::Ascii;
    }
    if let Some(book) = &cli.book {
        settings.book = book.clone();
    }
    if let Some(policy) = cli.book_policy {
        settings.book_options.policy = policy;
    }
    if let Some(depth) = cli.book_depth {
        settings.book_options.max_plies = depth;
    }
    if let Some(dir) = &cli.syzygy {
        settings.syzygy = Some(dir.clone());
    }
    if let Some(level) = cli.level.and_then(kibitz::engine::level::Level::new) {
        settings.level = level;
    }
    (settings, messages, dirs)
}

/// `kibitz --plain` (or `plain = true` in the config): the line mode on
/// stdin and stdout.
fn plain(
    cli: &Cli,
    settings: &kibitz::config::Settings,
    messages: &[String],
    dirs: Option<kibitz::config::Dirs>,
) -> anyhow::Result<ExitCode> {
    for message in messages {
        eprintln!("note: {}", kibitz::text::echo::echo(message, false));
    }
    let options = cli::plain::options(
        cli.fen.as_deref(),
        cli.color,
        settings,
        cli.book.is_some(),
        dirs.map(|d| d.data),
    );
    to_stdout(|out| cli::plain::run(options?, &mut std::io::stdin().lock(), out))
}

/// An error on stderr as one line, the input it repeats made safe to
/// print (control characters escaped, a huge token cut: see
/// [`kibitz::text::echo`]).
fn error(e: &dyn std::fmt::Display) {
    eprintln!("error: {}", kibitz::text::echo::echo(&e.to_string(), false));
}

/// The command line read, or its error shown (a huge argument cut, as in
/// [`error`]) with clap's exit code; `--help` and `--version` as clap
/// shows them.
fn parse_command_line() -> Result<Cli, ExitCode> {
    use clap::error::ErrorKind;
    match Cli::try_parse() {
        Ok(cli) => Ok(cli),
        Err(e) => {
            let text = e.to_string();
            let safe = kibitz::text::echo::echo(&text, true);
            if safe == text
                || matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
            {
                e.exit();
            }
            eprint!("{safe}");
            Err(ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2)))
        }
    }
}

/// Run `work` with line-buffered stdout (so output streams as it comes);
/// its error is one line on stderr and the exit code.
fn to_stdout(
    work: impl FnOnce(&mut dyn Write) -> Result<(), CliError>,
) -> anyhow::Result<ExitCode> {
    let stdout = std::io::stdout();
    let mut out = std::io::LineWriter::new(stdout.lock());
    let result = work(&mut out);
    // A closed pipe (`kibitz trace ... | head`) is not an error worth a message.
    let flushed = out.flush();
    match result {
        Ok(()) => {
            flushed.context("writing output")?;
            Ok(ExitCode::SUCCESS)
        }
        Err(CliError::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e @ CliError::Stopped(_)) => {
            eprintln!("{e}");
            Ok(ExitCode::from(e.exit_code() as u8))
        }
        Err(e) => {
            error(&e);
            Ok(ExitCode::from(e.exit_code() as u8))
        }
    }
}

fn main() -> anyhow::Result<ExitCode> {
    let started = std::time::Instant::now();
    let mut cli = match parse_command_line() {
        Ok(cli) => cli,
        Err(code) => return Ok(code),
    };
    let Some(command) = cli.command.take() else {
        let (settings, messages, dirs) = load_settings(&cli);
        // The config's `plain` asks for the line mode where no file or
        // analysis board was asked for.
        let plain_by_config = settings.plain && cli.pgn.is_none() && !cli.analyse;
        if cli.plain || plain_by_config {
            return plain(&cli, &settings, &messages, dirs);
        }
        return tui(&cli, started, None);
    };
    if let Commands::Teach(args) = &command {
        return teach(&cli, started, args);
    }
    if let Commands::Uci = command {
        kibitz::uci::run(std::io::stdin().lock()).context("UCI session")?;
        return Ok(ExitCode::SUCCESS);
    }
    to_stdout(|out| run(command, out))
}

/// The number of cores, for commands whose thread count defaults to it.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// `--decrement tried|all`.
fn parse_decrement(text: &str) -> Result<kibitz::engine::movetables::Decrement, String> {
    kibitz::engine::movetables::Decrement::parse(text)
        .ok_or_else(|| format!("'{text}' is not a decrement rule: tried or all"))
}
