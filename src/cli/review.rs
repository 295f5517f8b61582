//! `kibitz review --pgn FILE`: the engine judges every move of one game.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use serde_json::json;
use shakmaty::Color;

use super::flags::JsonFlag;
use super::{CliError, printable};
use crate::engine::{Limits, Score};
use crate::game::annotations::mark_symbol;
use crate::game::tree::GameTree;
use crate::review::{self, Class, MoveReview, PositionEval};
use crate::tablebase::Tablebases;
use crate::text::score_text_white;

/// `kibitz review`: the file, which game (or `--all`), the time per
/// position, where the annotated game goes, the tables.
#[derive(Args, Debug)]
pub struct ReviewArgs {
    /// The PGN file.
    #[arg(long)]
    pub pgn: PathBuf,
    /// Which game of the file (1 = the first).
    #[arg(long, default_value_t = 1)]
    pub game: usize,
    /// Thinking time per position, milliseconds.
    #[arg(long, default_value_t = 300)]
    pub movetime: u64,
    /// Write the game with the review in it ([%eval], ?! ? ??, better lines) here
    /// (with --all: every game reviewed).
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub output: JsonFlag,
    /// Review every game of the file, with a report per game and per player.
    #[arg(long, conflicts_with = "game")]
    pub all: bool,
    /// With --all: games reviewed at once (default: all cores but one).
    #[arg(long, requires = "all")]
    pub threads: Option<usize>,
    /// Syzygy tables: the positions they cover are judged by them.
    #[arg(long)]
    pub syzygy: Option<PathBuf>,
    /// Add the mistakes and blunders to the training schedule (`kibitz train` serves them).
    #[arg(long)]
    pub train: bool,
    /// With --all --train: only this player's mistakes (the name as the report gives it).
    #[arg(long, requires_all = ["all", "train"])]
    pub player: Option<String>,
    /// With --all: another spelling of a player's name, one player in the
    /// per-player report ("Name=Other Name"; repeatable; the config file's
    /// [aliases] too).
    #[arg(long, requires = "all", value_name = "NAME=OTHER")]
    pub alias: Vec<String>,
    /// With --all: keep each game's accuracy and acpl in this game database
    /// (`kibitz db`), beside the same game imported from the file.
    #[arg(long, requires = "all")]
    pub db: Option<PathBuf>,
}

/// Transposition table of each search, MiB.
pub(crate) const HASH_MB: usize = crate::engine::DEFAULT_HASH_MB;

fn score_json(score: Score) -> serde_json::Value {
    match score {
        Score::Centipawns(cp) => json!({"cp": cp}),
        Score::Mate(n) => json!({"mate": n}),
    }
}

/// The evaluations of the main line, the start and after each ply, White's
/// view, as far as the review got: `{"cp": n}`, `{"mate": n}`, or
/// `{"mate": 0, "mated": side}` for a checkmate on the board.
pub(crate) fn evals_json(evals: &[Option<PositionEval>]) -> Vec<serde_json::Value> {
    evals
        .iter()
        .map_while(|e| e.as_ref())
        .map(|e| eval_json(review::eval_of(e)))
        .collect()
}

pub(crate) fn eval_json(eval: review::accuracy::Eval) -> serde_json::Value {
    match eval {
        review::accuracy::Eval::Mated(mated) => json!({"mate": 0, "mated": side(mated)}),
        review::accuracy::Eval::Score(score) => score_json(score),
    }
}

pub(crate) fn side(color: Color) -> &'static str {
    if color.is_white() { "white" } else { "black" }
}

/// Counts of inaccuracies, mistakes and blunders by one side.
fn tally(reviews: &[MoveReview], color: Color) -> [usize; 3] {
    let mut counts = [0; 3];
    for r in reviews.iter().filter(|r| r.mover == color) {
        match r.class {
            Some(Class::Inaccuracy) => counts[0] += 1,
            Some(Class::Mistake) => counts[1] += 1,
            Some(Class::Blunder) => counts[2] += 1,
            None => {}
        }
    }
    counts
}

/// What both reviews check before the first search: the time per
/// position, the output file, the Syzygy folder (read into the tables).
pub(crate) fn prepare(args: &ReviewArgs) -> Result<Option<Arc<Tablebases>>, CliError> {
    if !(1..=60_000).contains(&args.movetime) {
        return Err(CliError::BadInput(format!(
            "movetime {} ms is out of range 1..=60000",
            args.movetime
        )));
    }
    if let Some(path) = &args.out {
        crate::fsutil::check_output(path, &[&args.pgn]).map_err(CliError::BadInput)?;
    }
    match &args.syzygy {
        Some(dir) => {
            let mut tables = Tablebases::new(crate::tablebase::Builtin::new());
            tables
                .add_syzygy(dir)
                .map_err(|e| CliError::BadInput(format!("--syzygy {}: {e}", dir.display())))?;
            Ok(Some(Arc::new(tables)))
        }
        None => Ok(None),
    }
}

/// Review one game (`--game N`); `--all` is [`super::review_all::run`].
pub fn run(args: &ReviewArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let tables = prepare(args)?;
    let mut tree =
        crate::text::games::load_game(&args.pgn, args.game).map_err(|e| CliError::BadInput(e.0))?;
    if tree.headers.0.is_empty() && tree.nodes.len() == 1 {
        // No tag and no move: a file that is not PGN (refused as `kibitz
        // pgn` refuses it), or a stretch of text between games.
        crate::review::batch::count_games(&args.pgn).map_err(CliError::BadInput)?;
        return Err(CliError::BadInput(format!(
            "game {} of {} has no tag pair and no move: nothing to review",
            args.game,
            args.pgn.display()
        )));
    }
    if let Some(error) = &tree.error {
        eprintln!(
            "warning: {}; reviewing the moves before it",
            printable(&error.to_string())
        );
    }
    if let Some(ply) = review::null_move_ply(&tree) {
        eprintln!("warning: a null move (a pass) at ply {ply}; reviewing the moves before it");
    }
    let limits = Limits {
        movetime: Some(Duration::from_millis(args.movetime)),
        ..Limits::default()
    };
    let never = || false;
    let (evals, reviews) = review::review(
        &tree,
        &limits,
        (HASH_MB, 1),
        tables.as_deref(),
        &never,
        &mut |_, _| {},
    );
    let header = |name: &str| tree.headers.get(name).unwrap_or("?").to_string();
    if args.output.json {
        let moves: Vec<_> = reviews
            .iter()
            .map(|r| {
                json!({
                    "ply": r.ply,
                    "san": r.san,
                    "uci": tree.nodes[r.node].m.map(crate::game::notation::uci),
                    "mover": side(r.mover),
                    "eval_before": score_json(r.before),
                    "eval_after": if r.mates { json!({"mated": side(!r.mover)}) } else { score_json(r.after) },
                    "lost": (r.lost * 10.0).round() / 10.0,
                    "class": r.class.map(Class::name),
                    "best": r.better_line.first(),
                    "best_line": r.better_line,
                    "mark": r.mark().and_then(mark_symbol),
                    "kept_file_mark": r.kept_mark().and_then(mark_symbol),
                    "engine_choice": r.engine_choice,
                    "note": r.note.map(review::Note::text),
                })
            })
            .collect();
        let counts = |c| {
            let [i, m, b] = tally(&reviews, c);
            let summary = review::SideSummary::of(&reviews, c);
            let tenth = |x: f64| (x * 10.0).round() / 10.0;
            json!({"inaccuracies": i, "mistakes": m, "blunders": b,
                "accuracy": summary.accuracy().map(tenth), "acpl": summary.acpl().map(tenth)})
        };
        let value = json!({
            "game": args.game,
            "white": header("White"),
            "black": header("Black"),
            "result": tree.result,
            "movetime_ms": args.movetime,
            "thresholds": {"inaccuracy": review::INACCURACY, "mistake": review::MISTAKE, "blunder": review::BLUNDER},
            "start_fen": shakmaty::fen::Fen::from_position(&tree.start, shakmaty::EnPassantMode::Legal).to_string(),
            "start_turn": side(shakmaty::Position::turn(&tree.start)),
            "evals": evals_json(&evals),
            "moves": moves,
            "summary": {"white": counts(Color::White), "black": counts(Color::Black)},
            "error": tree.error.as_ref().map(ToString::to_string),
        });
        writeln!(out, "{value}")?;
    } else {
        write_text(args, &tree, &evals, &reviews, out)?;
    }
    if args.train {
        let exercises = super::train::game_mistakes((&args.pgn, args.game), &tree, &reviews);
        super::train::schedule_mistakes(exercises, args.output.json, out)?;
    }
    if let Some(path) = &args.out {
        review::annotate(&mut tree, &reviews, &evals);
        crate::fsutil::write_user_file(path, tree.to_pgn()).map_err(CliError::BadInput)?;
        if !args.output.json {
            writeln!(out, "annotated game written to {}", path.display())?;
        }
    }
    Ok(())
}

fn write_text(
    args: &ReviewArgs,
    tree: &GameTree,
    _evals: &[Option<PositionEval>],
    reviews: &[MoveReview],
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let header = |name: &str| printable(tree.headers.get(name).unwrap_or("?")).into_owned();
    writeln!(
        out,
        "game {}: {} - {} {}  ({} plies, {} ms a position)",
        args.game,
        header("White"),
        header("Black"),
        tree.result,
        reviews.len(),
        args.movetime
    )?;
    writeln!(
        out,
        "thresholds (winning chance lost): inaccuracy {}, mistake {}, blunder {}",
        review::INACCURACY,
        review::MISTAKE,
        review::BLUNDER
    )?;
    for r in reviews {
        let number = r.move_number;
        let dots = if r.mover.is_white() { "." } else { "..." };
        let after = if r.mates {
            "mate".to_string()
        } else {
            score_text_white(r.after, Color::White)
        };
        // The mark is the one the annotated game carries: the file's own
        // where it had one.
        let mark = r.mark().and_then(mark_symbol).unwrap_or("");
        let mut line = format!(
            "{:>4}{dots:<3} {:<8} {:>7}",
            number,
            format!("{}{mark}", r.san),
            after
        );
        if let Some(class) = r.class {
            line.push_str(&format!(
                "  {}, {:.0}% of winning chance lost; best {}",
                class.name(),
                r.lost,
                r.better_line
                    .iter()
                    .take(4)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
            if let Some(kept) = r.kept_mark().and_then(mark_symbol) {
                line.push_str(&format!("; the file's own mark {kept} kept"));
            }
        } else if r.file_mark.is_some() {
            line.push_str("  the file's own mark");
        }
        if let Some(note) = r.note {
            line.push_str(&format!("  ({})", note.text()));
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    for color in [Color::White, Color::Black] {
        let [i, m, b] = tally(reviews, color);
        let summary = review::SideSummary::of(reviews, color);
        let accuracy = summary
            .accuracy()
            .map_or("-".to_string(), |a| format!("{a:.1}%"));
        let acpl = summary
            .acpl()
            .map_or("-".to_string(), |l| format!("{l:.0}"));
        writeln!(
            out,
            "{}: accuracy {accuracy}, average centipawn loss {acpl}, {}, {}, {}",
            side(color),
            crate::core::counted(i as u64, "inaccuracy", "inaccuracies"),
            crate::core::counted(m as u64, "mistake", "mistakes"),
            crate::core::counted(b as u64, "blunder", "blunders"),
        )?;
    }
    Ok(())
}
