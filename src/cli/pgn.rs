//! `kibitz pgn FILE`: what is in a PGN file, game by game.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use serde::Serialize;

use super::{CliError, printable};
use crate::game::fen::fen_of;
use crate::game::openings::Openings;
use crate::game::parallel::{default_workers, map_games};
use crate::game::tree::GameTree;

/// What `kibitz pgn` holds back while it has not yet seen a game: the
/// summaries of text that reads as no game are printed only once a game
/// follows, and past this many bytes the file is taken for one without games.
const MAX_HELD_BEFORE_GAME: usize = 1 << 20;

/// `kibitz pgn`: the file and the output.
#[derive(clap::Args, Debug)]
pub struct PgnArgs {
    /// The PGN file.
    pub file: std::path::PathBuf,
    #[command(flatten)]
    pub output: super::flags::JsonFlag,
}

impl PgnArgs {
    pub fn run(&self, mut out: &mut dyn Write) -> Result<(), CliError> {
        summary(&self.file, self.output.json, &mut out)
    }
}

/// Print a summary of every game in `path`. Errors inside games are
/// reported, not fatal; an unreadable file is, and so is a file in which no
/// game (no tag and no move) is found.
pub fn summary(path: &Path, json_output: bool, out: &mut impl Write) -> Result<(), CliError> {
    let file = crate::fsutil::open_regular(path).map_err(|e| CliError::BadInput(e.to_string()))?;
    let mut number = 0;
    let mut write_error = None;
    // Until the first game, summaries wait here.
    let mut held: Option<Vec<u8>> = Some(Vec::new());
    let mut gave_up = false;
    // Games are summarised on worker threads, each into its own text, and
    // come back here in file order.
    let summarise = |tree: GameTree, number| {
        let is_game = !tree.headers.0.is_empty() || tree.nodes.len() > 1;
        let mut text = Vec::new();
        let written = write_game(number, &tree, json_output, &mut text);
        (is_game, written.map(|()| text))
    };
    let read = map_games(file, default_workers(), &summarise, &mut |(
        is_game,
        text,
    )| {
        number += 1;
        let written = text.and_then(|text| match &mut held {
            Some(buffer) if !is_game => {
                buffer.extend_from_slice(&text);
                if buffer.len() > MAX_HELD_BEFORE_GAME {
                    gave_up = true;
                }
                Ok(())
            }
            Some(buffer) => {
                let earlier = std::mem::take(buffer);
                held = None;
                out.write_all(&earlier).and_then(|()| out.write_all(&text))
            }
            None => out.write_all(&text),
        });
        if gave_up {
            return false;
        }
        if let Err(e) = written {
            write_error = Some(e);
            return false;
        }
        true
    });
    if let Some(e) = write_error {
        return Err(e.into());
    }
    read.map_err(|e| CliError::BadInput(format!("cannot read {}: {e}", path.display())))?;
    if held.is_some() && (number > 0 || gave_up) {
        return Err(CliError::BadInput(format!(
            "{} holds no PGN game (no tag pair and no move{})",
            path.display(),
            if gave_up {
                " in its first megabyte"
            } else {
                ""
            }
        )));
    }
    if !json_output {
        writeln!(out, "{number} games")?;
    }
    Ok(())
}

/// One game in `kibitz pgn --json`: one JSON object per line.
#[derive(Serialize)]
struct GameJson<'a> {
    comments: usize,
    error: Option<String>,
    final_fen: &'a str,
    game: usize,
    /// By name; of a tag given twice, the last.
    headers: BTreeMap<&'a str, &'a str>,
    nags: usize,
    notes: &'a [String],
    opening: Option<OpeningJson<'a>>,
    plies: usize,
    result: &'a str,
    variations: usize,
}

#[derive(Serialize)]
struct OpeningJson<'a> {
    eco: &'a str,
    name: &'a str,
}

fn write_game(
    number: usize,
    tree: &GameTree,
    json_output: bool,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let line = tree.mainline();
    let (opening, last) = Openings::builtin().name_of_mainline(tree);
    let final_fen = fen_of(&last);
    let (variations, comments, nags) = tree.counts();
    let header = |name: &str| printable(tree.headers.get(name).unwrap_or("?")).into_owned();
    if json_output {
        // Written straight from the tree, borrowing its text: building a
        // `serde_json::Value` first copied every header of every game.
        // Keys are in sorted order, as the reader's first JSON had them.
        let value = GameJson {
            comments,
            error: tree.error.as_ref().map(ToString::to_string),
            final_fen: &final_fen,
            game: number,
            headers: tree
                .headers
                .0
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect(),
            nags,
            notes: &tree.notes,
            opening: opening.map(|o| OpeningJson {
                eco: &o.eco,
                name: &o.name,
            }),
            plies: line.len(),
            result: &tree.result,
            variations,
        };
        serde_json::to_writer(&mut *out, &value)?;
        out.write_all(b"\n")?;
        return Ok(());
    }
    writeln!(
        out,
        "game {number}: {} - {} {}  {} {}",
        header("White"),
        header("Black"),
        tree.result,
        header("Event"),
        header("Date"),
    )?;
    if let Some(o) = opening {
        writeln!(out, "  opening {} {}", o.eco, o.name)?;
    }
    writeln!(
        out,
        "  plies {}  variations {variations}  comments {comments}  nags {nags}",
        line.len()
    )?;
    writeln!(out, "  final {final_fen}")?;
    if let Some(error) = &tree.error {
        writeln!(out, "  error: {}", printable(&error.to_string()))?;
    }
    for note in &tree.notes {
        writeln!(out, "  note: {}", printable(note))?;
    }
    Ok(())
}
