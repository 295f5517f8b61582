//! `kibitz review --pgn FILE --all`: every game of a file reviewed, games in
//! parallel (one search per thread), with a report per game and per player
//! (by the names in the PGN): the inaccuracies, mistakes and blunders, the
//! accuracy, and the positions worth studying. The file is streamed: a few
//! games are in memory at a time, however long it is. A stop (Ctrl-C) keeps
//! the games already finished and says so.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;

use super::review::ReviewArgs;
use super::{CliError, printable};
use crate::review::SideSummary;
use crate::review::batch::{self, Aliases, BatchOptions, Players, ReviewedGame};

fn summary_json(s: &SideSummary) -> serde_json::Value {
    json!({
        "moves": s.moves,
        "accuracy": s.accuracy().map(|a| (a * 10.0).round() / 10.0),
        "acpl": s.acpl().map(|a| (a * 10.0).round() / 10.0),
        "inaccuracies": s.inaccuracies,
        "mistakes": s.mistakes,
        "blunders": s.blunders,
    })
}

fn summary_text(s: &SideSummary) -> String {
    let accuracy = s.accuracy().map_or("-".to_string(), |a| format!("{a:.1}%"));
    let acpl = s.acpl().map_or("-".to_string(), |l| format!("{l:.0}"));
    format!(
        "accuracy {accuracy}, acpl {acpl}, {}, {}, {}",
        crate::core::counted(s.inaccuracies as u64, "inaccuracy", "inaccuracies"),
        crate::core::counted(s.mistakes as u64, "mistake", "mistakes"),
        crate::core::counted(s.blunders as u64, "blunder", "blunders"),
    )
}

/// Minutes and seconds: "3m20s".
fn duration_text(d: Duration) -> String {
    let s = d.as_secs();
    match s / 60 {
        0 => format!("{s}s"),
        m => format!("{m}m{:02}s", s % 60),
    }
}

/// The spellings merged in the per-player report: the config file's
/// `[aliases]` (a wrong entry is a warning, as any config problem), then
/// `--alias` (a wrong one is an error: it was just typed).
fn aliases(args: &ReviewArgs) -> Result<Aliases, CliError> {
    let mut aliases = Aliases::default();
    if let Some(dirs) = crate::config::Dirs::locate() {
        let (settings, problems) = crate::config::Settings::load(&dirs.config_file());
        // The aliases' own problems, and those that lose the whole file
        // (a syntax error, an unreadable file): the aliases go with it.
        let whole_file =
            |p: &str| p.ends_with("; using all defaults") || p.ends_with("; using defaults");
        for problem in problems
            .iter()
            .filter(|p| p.starts_with("config: aliases") || whole_file(p))
        {
            eprintln!("warning: {}", printable(problem));
        }
        for (name, other) in &settings.aliases {
            if let Err(why) = aliases.add(name, other) {
                eprintln!(
                    "warning: config: aliases: \"{}\" = \"{}\": {}; left out",
                    printable(name),
                    printable(other),
                    printable(&why)
                );
            }
        }
    }
    for text in &args.alias {
        aliases.add_flag(text).map_err(CliError::BadInput)?;
    }
    Ok(aliases)
}

/// Review every game of `args.pgn` (`--all`). `stop`, set by Ctrl-C, ends
/// the review keeping the games finished.
pub fn run(
    args: &ReviewArgs,
    stop: Option<Arc<AtomicBool>>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let tables = super::review::prepare(args)?;
    let aliases = aliases(args)?;
    let total = batch::count_games(&args.pgn).map_err(CliError::BadInput)?;
    if total == 0 {
        return Err(CliError::BadInput(format!(
            "{} has no games",
            args.pgn.display()
        )));
    }
    let options = BatchOptions {
        threads: args
            .threads
            .unwrap_or_else(batch::default_threads)
            .clamp(1, 64),
        hash_mb: super::review::HASH_MB,
        movetime: Duration::from_millis(args.movetime),
        skip: 0,
    };
    let threads = options.threads;
    let stop = stop.unwrap_or_else(|| Arc::new(AtomicBool::new(false)));
    let started = Instant::now();
    let mut players = Players::with_aliases(aliases);
    let mut annotated = String::new();
    let mut reviewed = 0;
    let mut write_error = None;
    let mut training = Vec::new();
    let database = match &args.db {
        Some(path) => Some(crate::db::Database::open(path, true).map_err(super::db::db_error)?),
        None => None,
    };
    let (mut stored, mut not_stored) = (0u64, 0u64);
    let when = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
        .to_string();
    let read_error = batch::review_file(&args.pgn, &options, tables, &stop, &mut |game| {
        reviewed += 1;
        if let Err(e) = report_game(args, &game, out) {
            write_error = Some(e);
            return false;
        }
        if args.train {
            training.extend(super::train::batch_mistakes(
                &args.pgn,
                &game,
                args.player.as_deref(),
                &players,
            ));
        }
        if let Some(db) = &database {
            let figures = crate::db::StoredReview {
                accuracy: [game.sides[0].accuracy(), game.sides[1].accuracy()],
                acpl: [game.sides[0].acpl(), game.sides[1].acpl()],
                movetime_ms: args.movetime,
                when: when.clone(),
            };
            match db.store_review(&game.hash, &figures) {
                Ok(true) => stored += 1,
                Ok(false) => not_stored += 1,
                Err(e) => {
                    write_error = Some(super::db::db_error(e));
                    return false;
                }
            }
        }
        annotated.push_str(&game.pgn);
        annotated.push('\n');
        players.add(&game);
        let elapsed = started.elapsed();
        let left = elapsed.mul_f64((total.saturating_sub(reviewed)) as f64 / reviewed as f64);
        eprintln!(
            "reviewed {reviewed} of {total} games, about {} left",
            duration_text(left)
        );
        true
    })
    .map_err(CliError::BadInput)?;
    if let Some(e) = write_error {
        return Err(e);
    }
    if let Some(e) = read_error {
        eprintln!("warning: {}", printable(&e));
    }
    let stopped = stop.load(Ordering::Relaxed);
    if let Some(path) = &args.db {
        let line = format!(
            "{} stored in {}{}",
            crate::core::counted(stored, "game's accuracy", "games' accuracy"),
            path.display(),
            if not_stored > 0 {
                format!(
                    "; {} not in it (`kibitz db import {}` first)",
                    crate::core::counted(not_stored, "game", "games"),
                    args.pgn.display()
                )
            } else {
                String::new()
            }
        );
        if args.output.json {
            eprintln!("{line}");
        } else {
            writeln!(out, "{line}")?;
        }
    }
    report_players(args, &players, out)?;
    if args.output.json {
        writeln!(
            out,
            "{}",
            json!({
                "type": "summary",
                "games": total,
                "reviewed": reviewed,
                "stopped": stopped,
                "threads": threads,
                "movetime_ms": args.movetime,
                "seconds": (started.elapsed().as_secs_f64() * 10.0).round() / 10.0,
                "db_stored": args.db.as_ref().map(|_| stored),
                "db_not_found": args.db.as_ref().map(|_| not_stored),
            })
        )?;
    } else {
        writeln!(
            out,
            "{reviewed} of {total} games reviewed in {} on {threads} thread(s), {} ms a position",
            duration_text(started.elapsed()),
            args.movetime
        )?;
    }
    // Stopped before any game was finished: nothing to write, and an
    // existing file is not replaced by an empty one.
    let out_path = args.out.as_ref().filter(|_| !(stopped && reviewed == 0));
    if let Some(path) = out_path {
        // Written whole or not at all (a temporary file renamed over the
        // target), the finished games only when stopped.
        crate::fsutil::write_user_file(path, annotated).map_err(CliError::BadInput)?;
        if !args.output.json {
            writeln!(out, "annotated games written to {}", path.display())?;
        }
    }
    if args.train {
        if let Some(name) = args.player.as_deref().filter(|n| players.get(n).is_none()) {
            eprintln!(
                "warning: no player named {} in the games reviewed",
                printable(name)
            );
        }
        // The finished games' mistakes are kept when stopped too.
        super::train::schedule_mistakes(training, args.output.json, out)?;
    }
    if stopped {
        let kept = match (&args.out, out_path) {
            (_, Some(path)) => format!(
                "; the report and {} hold those {}",
                path.display(),
                crate::core::counted(reviewed as u64, "game", "games")
            ),
            (Some(path), None) => format!("; {} is not written", path.display()),
            (None, None) => "; the report covers those".to_string(),
        };
        return Err(CliError::Stopped(format!(
            "stopped: {reviewed} of {total} games reviewed{kept}"
        )));
    }
    Ok(())
}

fn report_game(
    args: &ReviewArgs,
    game: &ReviewedGame,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let number = game.number;
    if args.output.json {
        writeln!(
            out,
            "{}",
            json!({
                "type": "game",
                "game": number,
                "white": game.white,
                "black": game.black,
                "result": game.result,
                "plies": game.plies,
                "start_turn": super::review::side(game.start_turn),
                "evals": game.evals.iter().map(|&e| super::review::eval_json(e)).collect::<Vec<_>>(),
                "summary": {
                    "white": summary_json(&game.sides[0]),
                    "black": summary_json(&game.sides[1]),
                },
                "error": game.error,
                "kept_marks": game.kept_marks.iter().map(|k| json!({
                    "ply": k.ply,
                    "san": k.san,
                    "mark": k.mark,
                    "class": k.class.name(),
                })).collect::<Vec<_>>(),
            })
        )?;
    } else {
        writeln!(
            out,
            "game {number}: {} - {} {} ({} plies)\n  {}: {}\n  {}: {}",
            printable(&game.white),
            printable(&game.black),
            game.result,
            game.plies,
            printable(&game.white),
            summary_text(&game.sides[0]),
            printable(&game.black),
            summary_text(&game.sides[1]),
        )?;
        // As `kibitz pgn` says it: the moves from there on are not reviewed.
        if let Some(error) = &game.error {
            writeln!(out, "  error: {}", printable(error))?;
        }
        for kept in &game.kept_marks {
            writeln!(
                out,
                "  {}{}: the file's own mark kept (the review: {})",
                kept.san,
                kept.mark,
                kept.class.name()
            )?;
        }
    }
    Ok(())
}

/// The command that opens a position to study as the board's report does:
/// the lesson about the move played, at the depth where the search sees it
/// fall short of the better one by the review's margin, opening where the
/// search tries it. SAN needs no quoting (`#` starts no shell comment
/// inside a word).
fn teach_command(s: &batch::Study) -> String {
    let mut command = format!("kibitz teach --fen '{}' --played {}", s.fen, s.played);
    if let Some(best) = &s.best {
        command.push_str(&format!(" --better {best} --margin {}", s.margin_cp));
    }
    command
}

/// Most positions to study listed a player in the text report.
const STUDY_SHOWN: usize = 5;

fn report_players(
    args: &ReviewArgs,
    players: &Players,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    if !args.output.json {
        let aliased = if players.has_aliases() {
            " and the aliases given"
        } else {
            ""
        };
        writeln!(
            out,
            "players (by the names in the PGN, case and spacing aside{aliased}):"
        )?;
    }
    for player in players.by_name() {
        let name = &player.name;
        if args.output.json {
            let study: Vec<_> = player
                .study
                .iter()
                .map(|s| {
                    json!({
                        "game": s.game,
                        "ply": s.ply,
                        "fen": s.fen,
                        "played": s.played,
                        "best": s.best,
                        "class": s.class.name(),
                    })
                })
                .collect();
            let mut value = summary_json(&player.summary);
            value["type"] = json!("player");
            value["name"] = json!(name);
            value["games"] = json!(player.games);
            value["study"] = json!(study);
            writeln!(out, "{value}")?;
        } else {
            writeln!(
                out,
                "  {}: {}, {}, {}",
                printable(name),
                crate::core::counted(player.games as u64, "game", "games"),
                crate::core::counted(player.summary.moves as u64, "move", "moves"),
                summary_text(&player.summary)
            )?;
            for s in player.study.iter().take(STUDY_SHOWN) {
                writeln!(
                    out,
                    "    study game {} ply {}: {} ({}), better {}; {}",
                    s.game,
                    s.ply,
                    s.played,
                    s.class.name(),
                    s.best.as_deref().unwrap_or("-"),
                    teach_command(s)
                )?;
            }
        }
    }
    Ok(())
}
