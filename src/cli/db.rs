//! `kibitz db`: the game database. `import` stores PGN games in it once;
//! `explore` says what was played from a position and how it scored;
//! `games` finds games; `show` prints one; `info` says what it holds.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use clap::{Args, Subcommand};
use serde_json::json;
use shakmaty::{Chess, Position};

use super::CliError;
use super::flags::{JsonFlag, PositionArgs};
use crate::db::explore::{mean_rating, score_percent};
use crate::db::{Database, DbError, Filter, GameQuery, GameRow, ImportOptions, PlayerSide};
use crate::text::thousands;

/// `kibitz db`.
#[derive(Subcommand, Debug)]
pub enum DbCommand {
    /// Store the games of PGN files in the database (once: a game already there is not added again).
    Import(ImportArgs),
    /// The moves played from a position in the database's games, with their results.
    Explore(ExploreArgs),
    /// List the database's games that reached a position, or by player, opening, date, result, rating; most recent first.
    Games(GamesArgs),
    /// Print a game of the database as PGN.
    Show(ShowArgs),
    /// What the database holds: games, positions, size.
    Info(InfoArgs),
}

#[derive(Args, Clone, Debug, Default)]
pub struct DbArg {
    /// The database file (default: the config's `database`, else games.sqlite in the data folder).
    #[arg(long)]
    pub db: Option<PathBuf>,
}

impl DbArg {
    /// The database's path: `--db`, else the config file's `database`
    /// (as the board reads it), else the data folder's.
    pub fn path(&self) -> Result<PathBuf, CliError> {
        if let Some(path) = &self.db {
            return Ok(path.clone());
        }
        if let Some(dirs) = crate::config::Dirs::locate() {
            let (settings, _) = crate::config::Settings::load(&dirs.config_file());
            if let Some(path) = settings.database {
                let text = path.to_string_lossy();
                let home = directories::BaseDirs::new().map(|b| b.home_dir().to_path_buf());
                return Ok(match (text.strip_prefix("~/"), home) {
                    (Some(rest), Some(home)) => home.join(rest),
                    _ => path,
                });
            }
        }
        Ok(crate::db::default_path(&super::train::data_dir()?))
    }

    fn open(&self) -> Result<Database, CliError> {
        Database::open(&self.path()?, false).map_err(db_error)
    }
}

/// `kibitz db import`.
#[derive(Args, Debug)]
pub struct ImportArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// Threads reading games (default: one per processor).
    #[arg(long)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub output: JsonFlag,
    /// The PGN files.
    #[arg(required = true)]
    pub pgn: Vec<PathBuf>,
}

#[derive(Args, Clone, Debug, Default)]
pub struct FilterArgs {
    /// Only the games of this player (letter case and spacing do not matter).
    #[arg(long)]
    pub player: Option<String>,
    /// With --player: only the games where they had this colour (white or black).
    #[arg(long = "as", value_parser = super::flags::parse_color, requires = "player")]
    pub side: Option<shakmaty::Color>,
    /// Games played on or after this date: YYYY, YYYY.MM or YYYY.MM.DD.
    #[arg(long)]
    pub since: Option<String>,
    /// Games played on or before this date: YYYY, YYYY.MM or YYYY.MM.DD.
    #[arg(long)]
    pub until: Option<String>,
    /// Games with this result: 1-0, 0-1, 1/2-1/2 (or draw).
    #[arg(long)]
    pub result: Option<String>,
    /// Games whose players' mean rating is at least this.
    #[arg(long)]
    pub min_elo: Option<u32>,
    /// Games whose players' mean rating is at most this.
    #[arg(long)]
    pub max_elo: Option<u32>,
}

impl FilterArgs {
    pub fn filter(&self) -> Result<Filter, CliError> {
        let date = |text: &Option<String>, end: bool| -> Result<Option<u32>, CliError> {
            text.as_deref().map(|t| parse_date(t, end)).transpose()
        };
        Ok(Filter {
            player: self
                .player
                .as_deref()
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(str::to_string),
            side: match self.side {
                None => PlayerSide::Any,
                Some(shakmaty::Color::White) => PlayerSide::White,
                Some(shakmaty::Color::Black) => PlayerSide::Black,
            },
            since: date(&self.since, false)?,
            until: date(&self.until, true)?,
            result: self.result.as_deref().map(parse_result).transpose()?,
            min_elo: self.min_elo,
            max_elo: self.max_elo,
        })
    }
}

/// A date bound as the database's day number: `2020` is 20200000 as a
/// start and 20209999 as an end, so that each takes in the whole year.
pub fn parse_date(text: &str, end: bool) -> Result<u32, CliError> {
    let bad = || {
        CliError::BadInput(format!(
            "'{text}' is not a date: write YYYY, YYYY.MM or YYYY.MM.DD"
        ))
    };
    let parts: Vec<&str> = text.trim().split(['.', '-', '/']).collect();
    let number = |i: usize, digits: usize, max: u32| -> Result<Option<u32>, CliError> {
        match parts.get(i) {
            None => Ok(None),
            Some(p) if p.len() == digits && p.bytes().all(|b| b.is_ascii_digit()) => {
                let v: u32 = p.parse().map_err(|_| bad())?;
                if v == 0 && i > 0 || v > max {
                    Err(bad())
                } else {
                    Ok(Some(v))
                }
            }
            Some(_) => Err(bad()),
        }
    };
    if parts.len() > 3 {
        return Err(bad());
    }
    let year = number(0, 4, 9999)?.ok_or_else(bad)?;
    let fill = if end { 99 } else { 0 };
    let month = number(1, 2, 12)?.unwrap_or(fill);
    let day = number(2, 2, 31)?.unwrap_or(fill);
    Ok(year * 10000 + month * 100 + day)
}

fn parse_result(text: &str) -> Result<u8, CliError> {
    match text.trim() {
        "1-0" | "white" => Ok(0),
        "1/2-1/2" | "½-½" | "draw" => Ok(1),
        "0-1" | "black" => Ok(2),
        other => Err(CliError::BadInput(format!(
            "'{other}' is not a result: write 1-0, 0-1 or 1/2-1/2 (or draw)"
        ))),
    }
}

/// `kibitz db explore`.
#[derive(Args, Debug)]
pub struct ExploreArgs {
    #[command(flatten)]
    pub db: DbArg,
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub filter: FilterArgs,
    #[command(flatten)]
    pub output: JsonFlag,
}

/// `kibitz db games`.
#[derive(Args, Debug)]
pub struct GamesArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// Only the games that reached this position (FEN).
    #[arg(long)]
    pub fen: Option<String>,
    /// Only the games that reached the position after these moves (SAN or UCI, from --fen or the start).
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
    /// Only games whose ECO code starts with this (B9 finds B90 to B99).
    #[arg(long)]
    pub eco: Option<String>,
    /// Only games whose opening's name has these words.
    #[arg(long)]
    pub opening: Option<String>,
    #[command(flatten)]
    pub filter: FilterArgs,
    /// How many games to list.
    #[arg(long, default_value_t = 50)]
    pub limit: usize,
    /// Skip this many games first (the next page).
    #[arg(long, default_value_t = 0)]
    pub offset: usize,
    /// Open the games on the board as a game list instead of printing them.
    #[arg(long)]
    pub open: bool,
    #[command(flatten)]
    pub output: JsonFlag,
}

impl GamesArgs {
    /// The query the flags make.
    pub fn query(&self) -> Result<GameQuery, CliError> {
        let position = if self.fen.is_some() || !self.moves.is_empty() {
            Some(position_of(self.fen.as_deref(), &self.moves)?)
        } else {
            None
        };
        if !(1..=100_000).contains(&self.limit) {
            return Err(CliError::BadInput(format!(
                "limit {} is out of range 1..=100000",
                self.limit
            )));
        }
        Ok(GameQuery {
            position,
            eco: self.eco.clone(),
            opening: self.opening.clone(),
            filter: self.filter.filter()?,
            limit: self.limit,
            offset: self.offset,
        })
    }
}

/// `kibitz db show`.
#[derive(Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    pub db: DbArg,
    /// The game's number (the first column of `kibitz db games`).
    pub id: i64,
}

/// `kibitz db info`.
#[derive(Args, Debug)]
pub struct InfoArgs {
    #[command(flatten)]
    pub db: DbArg,
    #[command(flatten)]
    pub output: JsonFlag,
}

impl DbCommand {
    /// Whether the command opens the board (`games --open`).
    pub fn opens_board(&self) -> bool {
        matches!(self, DbCommand::Games(args) if args.open)
    }

    pub fn run(&self, stop: Option<Arc<AtomicBool>>, out: &mut dyn Write) -> Result<(), CliError> {
        match self {
            DbCommand::Import(args) => import(args, stop, out),
            DbCommand::Explore(args) => explore(args, out),
            DbCommand::Games(args) => games(args, out),
            DbCommand::Show(args) => {
                let db = args.db.open()?;
                let pgn = db.game_pgn(args.id).map_err(db_error)?;
                writeln!(out, "{}", pgn.trim_end())?;
                Ok(())
            }
            DbCommand::Info(args) => info(args, out),
        }
    }
}

/// A database error as the command line says it: a file that is not a
/// database, missing or newer is bad input (exit 2).
pub fn db_error(e: DbError) -> CliError {
    match e {
        DbError::Open { .. }
        | DbError::Foreign { .. }
        | DbError::Newer { .. }
        | DbError::Input(_) => CliError::BadInput(e.to_string()),
        DbError::Damaged(_) | DbError::Sql(_) => CliError::Io(std::io::Error::other(e.to_string())),
    }
}

/// The position `--fen` and `--moves` give; a `--moves` word may hold
/// several moves (`--moves "e4 e5 Nf3"`).
fn position_of(fen: Option<&str>, moves: &[String]) -> Result<Chess, CliError> {
    let words: Vec<String> = moves
        .iter()
        .flat_map(|m| m.split_whitespace())
        .map(str::to_string)
        .collect();
    Ok(PositionArgs::new(fen.map(str::to_string), words).setup()?.0)
}

fn import(
    args: &ImportArgs,
    stop: Option<Arc<AtomicBool>>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let path = args.db.path()?;
    let inputs: Vec<&std::path::Path> = args.pgn.iter().map(PathBuf::as_path).collect();
    if inputs
        .iter()
        .any(|input| crate::fsutil::same_file(input, &path))
    {
        return Err(CliError::BadInput(format!(
            "{} is one of the PGN files: the database must be another file",
            path.display()
        )));
    }
    // The data folder is kibitz's to make; a folder the user named is not.
    if let Some(parent) = args
        .db
        .db
        .as_ref()
        .and_then(|p| p.parent())
        .filter(|p| !p.as_os_str().is_empty())
        && !parent.is_dir()
    {
        return Err(CliError::BadInput(format!(
            "{}: the folder {} does not exist",
            path.display(),
            parent.display()
        )));
    }
    for input in &inputs {
        let mut file =
            crate::fsutil::open_regular(input).map_err(|e| CliError::BadInput(e.to_string()))?;
        let mut head = vec![0u8; 8192];
        let n = std::io::Read::read(&mut file, &mut head)?;
        if head[..n].contains(&0) {
            return Err(CliError::BadInput(format!(
                "{} is not a PGN file: it holds binary data (a compressed file, a database?)",
                input.display()
            )));
        }
    }
    if let Some(threads) = args.threads
        && !(1..=64).contains(&threads)
    {
        return Err(CliError::BadInput(format!(
            "threads {threads} is out of range 1..=64"
        )));
    }
    let options = ImportOptions {
        workers: args
            .threads
            .map_or_else(|| ImportOptions::default().workers, |t| t - 1),
        ..ImportOptions::default()
    };
    let mut db = Database::open_or_create(&path).map_err(db_error)?;
    let stop = stop.unwrap_or_else(|| Arc::new(AtomicBool::new(false)));
    let started = Instant::now();
    let live = std::io::stderr().is_terminal();
    let mut files = Vec::new();
    let mut stopped = false;
    for input in &inputs {
        let name = input.display().to_string();
        // The progress line is redrawn in place, so it must fit one line
        // of a narrow terminal: the file's own name, cut.
        let short = crate::text::cut_words(
            &input
                .file_name()
                .map_or(name.clone(), |n| n.to_string_lossy().into_owned()),
            24,
        );
        let mut progress = |p: &crate::db::ImportProgress| {
            if live {
                let share = if p.bytes_total > 0 {
                    format!(
                        " ({:.0}%)",
                        p.bytes_read as f64 * 100.0 / p.bytes_total as f64
                    )
                } else {
                    String::new()
                };
                eprint!(
                    "\r{short}: {} games{share}, {} added, {} games/s   ",
                    thousands(p.games_read),
                    thousands(p.added),
                    thousands((p.games_read as f64 / p.seconds.max(1e-9)) as u64)
                );
            }
        };
        let report = db
            .import(input, &options, &stop, &mut progress)
            .map_err(db_error)?;
        if live {
            eprintln!();
        }
        for bad in &report.bad_games {
            eprintln!(
                "skipped: {}",
                crate::text::cut_words(&super::printable(bad), 200)
            );
        }
        if report.skipped > report.bad_games.len() as u64 {
            let more = report.skipped - report.bad_games.len() as u64;
            eprintln!(
                "skipped: {} more bad {}, not named",
                thousands(more),
                if more == 1 { "game" } else { "games" }
            );
        }
        if let Some(e) = &report.read_error {
            eprintln!("warning: {}", super::printable(e));
        }
        if !args.output.json {
            writeln!(
                out,
                "{name}: {} read, {} added, {} already there, {} skipped; {} positions in {:.1} s ({} games/s)",
                thousands(report.games_read),
                thousands(report.added),
                thousands(report.duplicates),
                thousands(report.skipped),
                thousands(report.positions),
                report.seconds,
                thousands((report.games_read as f64 / report.seconds.max(1e-9)) as u64),
            )?;
        }
        stopped = report.stopped;
        files.push(json!({
            "file": name,
            "games_read": report.games_read,
            "added": report.added,
            "duplicates": report.duplicates,
            "skipped": report.skipped,
            "bad_games": report.bad_games,
            "positions": report.positions,
            "seconds": report.seconds,
            "stopped": report.stopped,
        }));
        if stopped {
            break;
        }
    }
    if !stopped {
        let summary_started = Instant::now();
        db.rebuild_summary(false).map_err(db_error)?;
        if !args.output.json {
            writeln!(
                out,
                "explorer summary rebuilt in {:.1} s",
                summary_started.elapsed().as_secs_f64()
            )?;
        }
    }
    let info = db.info().map_err(db_error)?;
    if args.output.json {
        writeln!(
            out,
            "{}",
            json!({
                "db": path.display().to_string(),
                "files": files,
                "games": info.games,
                "positions": info.positions,
                "bytes": info.bytes,
                "seconds": started.elapsed().as_secs_f64(),
                "stopped": stopped,
            })
        )?;
    } else {
        writeln!(
            out,
            "{}: {} games, {} positions, {:.1} MB",
            path.display(),
            thousands(info.games),
            thousands(info.positions),
            info.bytes as f64 / 1e6
        )?;
    }
    if stopped {
        return Err(CliError::Stopped(
            "stopped: the games read before the stop are in the database; the explorer's summary is rebuilt by the next import".into(),
        ));
    }
    Ok(())
}

/// A filter in words, for the text output.
pub fn filter_text(filter: &Filter) -> String {
    let mut parts = Vec::new();
    if let Some(player) = &filter.player {
        parts.push(match filter.side {
            PlayerSide::Any => player.clone(),
            PlayerSide::White => format!("{player} as White"),
            PlayerSide::Black => format!("{player} as Black"),
        });
    }
    let day = |d: u32| {
        let (y, m, dd) = (d / 10000, d / 100 % 100, d % 100);
        match (m, dd) {
            (0 | 99, _) => format!("{y}"),
            (_, 0 | 99) => format!("{y}.{m:02}"),
            _ => format!("{y}.{m:02}.{dd:02}"),
        }
    };
    if let Some(since) = filter.since {
        parts.push(format!("since {}", day(since)));
    }
    if let Some(until) = filter.until {
        parts.push(format!("until {}", day(until)));
    }
    if let Some(result) = filter.result {
        parts.push(["1-0", "1/2-1/2", "0-1"][usize::from(result.min(2))].to_string());
    }
    match (filter.min_elo, filter.max_elo) {
        (Some(a), Some(b)) => parts.push(format!("rating {a}-{b}")),
        (Some(a), None) => parts.push(format!("rating ≥ {a}")),
        (None, Some(b)) => parts.push(format!("rating ≤ {b}")),
        (None, None) => {}
    }
    parts.join(", ")
}

fn explore(args: &ExploreArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let position = position_of(args.position.fen(), &args.position.moves)?;
    let filter = args.filter.filter()?;
    let db = args.db.open()?;
    let explorer = db.explore(&position, &filter).map_err(db_error)?;
    let side = position.turn();
    let fen = crate::game::fen::fen_of(&position);
    if args.output.json {
        let moves: Vec<_> = explorer
            .moves
            .iter()
            .map(|m| {
                json!({
                    "uci": m.uci,
                    "san": m.san,
                    "games": m.games(),
                    "white": m.counts.white,
                    "draws": m.counts.draws,
                    "black": m.counts.black,
                    "unknown": m.counts.unknown,
                    "score": score_percent(&m.counts, side).map(|s| (s * 10.0).round() / 10.0),
                    "rating": mean_rating(&m.counts),
                })
            })
            .collect();
        let e = &explorer.ended;
        writeln!(
            out,
            "{}",
            json!({
                "fen": fen,
                "games": explorer.games(),
                "ended": {"games": e.games(), "white": e.white, "draws": e.draws, "black": e.black, "unknown": e.unknown},
                "moves": moves,
            })
        )?;
        return Ok(());
    }
    let filter_words = filter_text(&filter);
    writeln!(out, "{fen}")?;
    let header = format!(
        "{} {} this position{}",
        thousands(explorer.games()),
        if explorer.games() == 1 {
            "game reached"
        } else {
            "games reached"
        },
        if filter_words.is_empty() {
            String::new()
        } else {
            format!(" ({filter_words})")
        }
    );
    writeln!(out, "{}", crate::text::cut_words(&header, 80))?;
    if explorer.moves.is_empty() {
        if explorer.games() == 0 {
            writeln!(out, "no game reached this position")?;
        }
    } else {
        writeln!(
            out,
            "{:<8} {:>9} {:>6} {:>6} {:>6} {:>6} {:>6}",
            "move", "games", "white", "draws", "black", "score", "rating"
        )?;
        for m in &explorer.moves {
            let share = |n: u64| {
                let decided = m.counts.white + m.counts.draws + m.counts.black;
                if decided == 0 {
                    "-".to_string()
                } else {
                    format!("{:.0}%", n as f64 * 100.0 / decided as f64)
                }
            };
            writeln!(
                out,
                "{:<8} {:>9} {:>6} {:>6} {:>6} {:>6} {:>6}",
                m.san,
                thousands(m.games()),
                share(m.counts.white),
                share(m.counts.draws),
                share(m.counts.black),
                score_percent(&m.counts, side).map_or("-".into(), |s| format!("{s:.0}%")),
                mean_rating(&m.counts).map_or("-".into(), |r| r.to_string()),
            )?;
        }
    }
    if explorer.ended.games() > 0 {
        writeln!(
            out,
            "{} ended here",
            crate::core::counted(explorer.ended.games(), "game", "games")
        )?;
    }
    writeln!(
        out,
        "score: the side to move's points per game (a draw ½), over games with a result"
    )?;
    Ok(())
}

fn player_text(name: &str, elo: Option<u32>) -> String {
    match elo {
        Some(elo) => format!("{name} ({elo})"),
        None => name.to_string(),
    }
}

fn games(args: &GamesArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let query = args.query()?;
    let db = args.db.open()?;
    let (rows, total) = db.games(&query).map_err(db_error)?;
    if args.output.json {
        writeln!(out, "{}", json!({"total": total, "games": rows}))?;
        return Ok(());
    }
    if rows.is_empty() {
        writeln!(out, "no game found ({} in all)", thousands(total))?;
        return Ok(());
    }
    // One line a game, in 80 columns: the players cut to 15 characters,
    // the accuracies and the event in what is left (all of it in --json).
    let width = |f: &dyn Fn(&GameRow) -> usize| rows.iter().map(f).max().unwrap_or(0);
    let id_w = width(&|r| r.id.to_string().len());
    let white_w = width(&|r| player_text(&r.white, r.white_elo).chars().count()).min(15);
    let black_w = width(&|r| player_text(&r.black, r.black_elo).chars().count()).min(15);
    let date_w = width(&|r| r.date.chars().count()).min(10);
    let result_w = width(&|r| r.result.len()).min(7);
    let eco_w = width(&|r| r.eco.as_deref().map_or(0, |e| e.chars().count())).min(3);
    let used = id_w + date_w + white_w + black_w + result_w + eco_w + 3 + 6 * 2;
    let room = 80usize.saturating_sub(used + 2);
    for r in &rows {
        let cut = |s: &str, w: usize| crate::text::cut_words(s, w);
        let accuracy = match (r.white_accuracy, r.black_accuracy) {
            (None, None) => String::new(),
            (w, b) => {
                let a = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{x:.1}"));
                format!("acc {}/{} ", a(w), a(b))
            }
        };
        let tail = format!("{accuracy}{}", r.event.as_deref().unwrap_or(""));
        let line = format!(
            "{:>id_w$}  {:<date_w$}  {:<white_w$}  {:<black_w$}  {:<result_w$}  {:<eco_w$}  {:>3}  {}",
            r.id,
            cut(&r.date, date_w),
            cut(&player_text(&r.white, r.white_elo), white_w),
            cut(&player_text(&r.black, r.black_elo), black_w),
            cut(&r.result, result_w),
            cut(r.eco.as_deref().unwrap_or(""), eco_w),
            r.plies,
            cut(&tail, room),
        );
        writeln!(out, "{}", line.trim_end())?;
    }
    writeln!(
        out,
        "{} of {} games (most recent first){}",
        thousands(rows.len() as u64),
        thousands(total),
        if (query.offset + rows.len()) < total as usize {
            format!("; --offset {} for more", query.offset + rows.len())
        } else {
            String::new()
        }
    )?;
    Ok(())
}

fn info(args: &InfoArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let db = args.db.open()?;
    let info = db.info().map_err(db_error)?;
    if args.output.json {
        let mut value =
            serde_json::to_value(&info).map_err(|e| CliError::BadInput(e.to_string()))?;
        value["db"] = json!(db.path().display().to_string());
        writeln!(out, "{value}")?;
        return Ok(());
    }
    writeln!(out, "{}", db.path().display())?;
    writeln!(out, "games      {}", thousands(info.games))?;
    writeln!(
        out,
        "positions  {} (each game's, each once)",
        thousands(info.positions)
    )?;
    writeln!(out, "reviewed   {}", thousands(info.reviewed))?;
    writeln!(out, "size       {:.1} MB", info.bytes as f64 / 1e6)?;
    writeln!(
        out,
        "index      {}, {} summary rows",
        crate::core::counted(info.segments, "segment", "segments"),
        thousands(info.summary_rows)
    )?;
    Ok(())
}
