//! `kibitz review --pgn FILE --all`: every game of a file reviewed, games in
//! parallel (one search per thread), with a report per game and per player
//! (by the names in the PGN): the inaccuracies, mistakes and blunders, the
//! accuracy, and the positions worth studying. The file is streamed: a few
//! games are in memory at a time, however long it is. A stop (Ctrl-C) keeps
//! the games already finished and says so.

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;
use shakmaty::fen::Fen;
use shakmaty::{Color, EnPassantMode};

use super::review::ReviewArgs;
use super::{CliError, printable};
use crate::engine::Limits;
use crate::game::tree::{GameTree, read_games};
use crate::review::{self, Class, SideSummary};
use crate::tablebase::Tablebases;

/// A position worth studying: a mistake or blunder, with the better move.
struct Study {
    game: usize,
    ply: usize,
    fen: String,
    played: String,
    best: Option<String>,
    class: Class,
}

/// One reviewed game.
struct Reviewed {
    white: String,
    black: String,
    result: String,
    plies: usize,
    sides: [SideSummary; 2],
    study: [Vec<Study>; 2],
    /// The game with the review written into it.
    pgn: String,
    error: Option<String>,
}

/// A player over the file.
#[derive(Default)]
struct Player {
    games: usize,
    summary: SideSummary,
    study: Vec<Study>,
}

/// Review game `number` of the file.
fn review_game(
    number: usize,
    mut tree: GameTree,
    limits: &Limits,
    hash_mb: usize,
    tables: Option<&Tablebases>,
    stop: &dyn Fn() -> bool,
) -> Option<Reviewed> {
    let (evals, reviews) = review::review(&tree, limits, hash_mb, tables, stop, &mut |_, _| {});
    if stop() {
        // Unfinished: not reported.
        return None;
    }
    let positions = review::mainline_positions(&tree);
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
            fen: Fen::from_position(position, EnPassantMode::Legal).to_string(),
            played: r.san.clone(),
            best: r.better_line.first().cloned(),
            class,
        });
    }
    let name = |tag: &str| tree.headers.get(tag).unwrap_or("?").to_string();
    let (white, black) = (name("White"), name("Black"));
    let sides = [
        SideSummary::of(&reviews, Color::White),
        SideSummary::of(&reviews, Color::Black),
    ];
    let error = tree.error.as_ref().map(ToString::to_string);
    review::annotate(&mut tree, &reviews, &evals);
    Some(Reviewed {
        white,
        black,
        result: tree.result.clone(),
        plies: reviews.len(),
        sides,
        study,
        pgn: tree.to_pgn(),
        error,
    })
}

fn summary_json(s: &SideSummary) -> serde_json::Value {
    json!({
        "moves": s.moves,
        "accuracy": s.accuracy().map(|a| (a * 10.0).round() / 10.0),
        "inaccuracies": s.inaccuracies,
        "mistakes": s.mistakes,
        "blunders": s.blunders,
    })
}

fn summary_text(s: &SideSummary) -> String {
    let accuracy = s.accuracy().map_or("-".to_string(), |a| format!("{a:.1}%"));
    format!(
        "accuracy {accuracy}, {}, {}, {}",
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

pub fn run_all(
    args: &ReviewArgs,
    tables: Option<Arc<Tablebases>>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let open = || {
        crate::fsutil::open_regular(&args.pgn)
            .map(std::io::BufReader::new)
            .map_err(|e| CliError::BadInput(e.to_string()))
    };
    // A first pass counts the games, for the progress and the time left.
    let total = crate::game::summary::summaries(open()?, 1000, &mut |_| true)
        .map_err(|e| CliError::BadInput(format!("cannot read {}: {e}", args.pgn.display())))?;
    if total == 0 {
        return Err(CliError::BadInput(format!(
            "{} has no games",
            args.pgn.display()
        )));
    }
    let threads = args
        .threads
        .unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1))
        })
        .clamp(1, 64);
    let hash_mb = (args.hash_mb / threads).max(4);
    let limits = Limits {
        movetime: Some(Duration::from_millis(args.movetime)),
        ..Limits::default()
    };
    let stop = args
        .stop
        .clone()
        .unwrap_or_else(|| Arc::new(AtomicBool::new(false)));
    let (jobs_tx, jobs_rx) = crossbeam_channel::bounded::<(usize, GameTree)>(threads * 2);
    let (done_tx, done_rx) = crossbeam_channel::unbounded::<(usize, Option<Reviewed>)>();
    let started = Instant::now();
    let mut players: HashMap<String, Player> = HashMap::new();
    let mut annotated = String::new();
    let mut reviewed = 0;
    let mut read_error = None;
    std::thread::scope(|scope| -> Result<(), CliError> {
        let reader_stop = Arc::clone(&stop);
        let path = args.pgn.clone();
        let reader = scope.spawn(move || {
            let file = crate::fsutil::open_regular(&path).map_err(|e| e.to_string())?;
            let mut number = 0;
            read_games(std::io::BufReader::new(file), &mut |tree| {
                number += 1;
                !reader_stop.load(Ordering::Relaxed) && jobs_tx.send((number, tree)).is_ok()
            })
            .map_err(|e| format!("cannot read {}: {e}", path.display()))
        });
        for _ in 0..threads {
            let jobs = jobs_rx.clone();
            let done = done_tx.clone();
            let stop = Arc::clone(&stop);
            let tables = tables.clone();
            let limits = limits.clone();
            scope.spawn(move || {
                let stopped = || stop.load(Ordering::Relaxed);
                for (number, tree) in jobs.iter() {
                    let result =
                        review_game(number, tree, &limits, hash_mb, tables.as_deref(), &stopped);
                    if done.send((number, result)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done_tx);
        drop(jobs_rx);
        // Results come in any order; the report goes in the file's order.
        let mut waiting: BTreeMap<usize, Option<Reviewed>> = BTreeMap::new();
        let mut next = 1;
        for (number, result) in done_rx.iter() {
            waiting.insert(number, result);
            while let Some(result) = waiting.remove(&next) {
                next += 1;
                let Some(game) = result else {
                    continue;
                };
                reviewed += 1;
                if let Err(e) = report_game(args, next - 1, &game, out) {
                    // The threads see the stop and end.
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
                annotated.push_str(&game.pgn);
                annotated.push('\n');
                let Reviewed {
                    white,
                    black,
                    sides,
                    study,
                    ..
                } = game;
                for ((name, side), study) in [white, black].into_iter().zip(sides).zip(study) {
                    let player = players.entry(name).or_default();
                    player.games += 1;
                    player.summary.add(&side);
                    player.study.extend(study);
                }
                let elapsed = started.elapsed();
                let left = elapsed.mul_f64((total - reviewed) as f64 / reviewed as f64);
                eprintln!(
                    "reviewed {reviewed} of {total} games, about {} left",
                    duration_text(left)
                );
            }
        }
        read_error = reader.join().ok().and_then(Result::err);
        Ok(())
    })?;
    if let Some(e) = read_error {
        eprintln!("warning: {}", printable(&e));
    }
    let stopped = stop.load(Ordering::Relaxed);
    if stopped {
        eprintln!(
            "stopped: {reviewed} of {total} games reviewed; the report{} covers those",
            if args.out.is_some() {
                " and the annotated file"
            } else {
                ""
            }
        );
    }
    report_players(args, &players, out)?;
    if args.json {
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
    if let Some(path) = &args.out {
        crate::fsutil::write_user_file(path, annotated).map_err(CliError::BadInput)?;
        if !args.json {
            writeln!(out, "annotated games written to {}", path.display())?;
        }
    }
    Ok(())
}

fn report_game(
    args: &ReviewArgs,
    number: usize,
    game: &Reviewed,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    if args.json {
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
                "summary": {
                    "white": summary_json(&game.sides[0]),
                    "black": summary_json(&game.sides[1]),
                },
                "error": game.error,
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
    }
    Ok(())
}

/// Most positions to study listed a player in the text report.
const STUDY_SHOWN: usize = 5;

fn report_players(
    args: &ReviewArgs,
    players: &HashMap<String, Player>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let mut names: Vec<&String> = players.keys().collect();
    names.sort();
    if !args.json {
        writeln!(out, "players (by the names in the PGN):")?;
    }
    for name in names {
        let player = &players[name];
        if args.json {
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
                "  {}: {} game(s), {} moves, {}",
                printable(name),
                player.games,
                player.summary.moves,
                summary_text(&player.summary)
            )?;
            for s in player.study.iter().take(STUDY_SHOWN) {
                writeln!(
                    out,
                    "    study game {} ply {}: {} ({}), better {}; kibitz teach --fen '{}'",
                    s.game,
                    s.ply,
                    s.played,
                    s.class.name(),
                    s.best.as_deref().unwrap_or("-"),
                    s.fen
                )?;
            }
        }
    }
    Ok(())
}
