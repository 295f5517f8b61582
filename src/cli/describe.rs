//! `kibitz describe`: a position in plain words, or as one JSON object.

use std::io::Write;

use clap::Args;
use serde_json::{Map, Value, json};
use shakmaty::Color;

use super::CliError;
use super::flags::{JsonFlag, PositionArgs};
use crate::game::describe::{Army, Description, role_name};

/// `kibitz describe`: the position (the last move is described) and the
/// output.
#[derive(Args, Debug)]
#[command(
    mut_arg("moves", |a| a.help("Moves (SAN or UCI) played from the position first; the last one is described")),
    mut_arg("json", |a| a.help("One JSON object: side to move, pieces, last move, status, castling, lines")),
)]
pub struct DescribeArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    #[command(flatten)]
    pub output: JsonFlag,
}

impl DescribeArgs {
    pub fn run(&self, out: &mut dyn Write) -> Result<(), CliError> {
        run(
            self.position.fen(),
            &self.position.moves,
            self.output.json,
            out,
        )
    }
}

/// Describe `fen` (default: the start position) after `moves` (SAN or UCI).
pub fn run(
    fen: Option<&str>,
    moves: &[String],
    json: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let (position, line) = super::play_line(fen, moves)?;
    let last = line.last();
    let mut description = Description::new(&position);
    if let Some((before, m)) = last {
        description = description.with_last_move(before, *m);
    }
    if json {
        writeln!(out, "{}", to_json(&description))?;
    } else {
        for line in description.lines() {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

fn colour_code(color: Color) -> &'static str {
    if color.is_white() { "white" } else { "black" }
}

fn army_json(army: &Army) -> Value {
    let mut map = Map::new();
    for (role, squares) in army {
        let squares: Vec<String> = squares.iter().map(ToString::to_string).collect();
        map.insert(role_name(*role).to_string(), json!(squares));
    }
    Value::Object(map)
}

/// The description as one object: the facts, and `lines` as printed.
pub fn to_json(description: &Description) -> Value {
    json!({
        "side_to_move": colour_code(description.side_to_move),
        "move_number": description.move_number,
        "pieces": {
            "white": army_json(&description.white),
            "black": army_json(&description.black),
        },
        "last_move": description.last_move.as_ref().map(|last| json!({
            "side": colour_code(last.mover),
            "san": last.san,
            "uci": last.uci,
            "text": last.words,
        })),
        "status": description.status.code(),
        "castling": {
            "white": description.castling_sides(Color::White),
            "black": description.castling_sides(Color::Black),
        },
        "en_passant": description.en_passant.map(|s| s.to_string()),
        "lines": description.lines(),
    })
}
