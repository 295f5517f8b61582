//! Flags that several commands take, defined once and flattened into each
//! command's arguments (`#[command(flatten)]`). A command whose flag means a
//! little more says so in its own help (`mut_arg`), with the same name and
//! value.

use clap::Args;
use shakmaty::{Chess, Color, Move};

use super::CliError;

// No doc comment on these structs: clap would take it for the about text
// of every command that flattens them.

#[derive(Args, Clone, Debug, Default)]
pub struct FenArg {
    /// Position in FEN (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
}

#[derive(Args, Clone, Debug, Default)]
pub struct PositionArgs {
    #[command(flatten)]
    pub start: FenArg,
    /// Moves (SAN or UCI) played from the position first.
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
}

impl PositionArgs {
    /// `--fen` and `--moves` from a FEN (`None`: the start position).
    pub fn new(fen: Option<String>, moves: Vec<String>) -> PositionArgs {
        PositionArgs {
            start: FenArg { fen },
            moves,
        }
    }

    pub fn fen(&self) -> Option<&str> {
        self.start.fen.as_deref()
    }

    /// The position reached and the history keys (see [`super::setup`]).
    pub fn setup(&self) -> Result<(Chess, Vec<u64>), CliError> {
        super::setup(self.fen(), &self.moves)
    }

    /// The position reached and each move with the position before it (see
    /// [`super::play_line`]).
    pub fn play_line(&self) -> Result<(Chess, Vec<(Chess, Move)>), CliError> {
        super::play_line(self.fen(), &self.moves)
    }
}

#[derive(Args, Clone, Copy, Debug, Default)]
pub struct JsonFlag {
    /// Print JSON (one object per line) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `white` or `black`, for `--color` and `--only-color`.
pub fn parse_color(text: &str) -> Result<Color, String> {
    match text {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        _ => Err(format!("'{text}' is not a colour (white or black)")),
    }
}

/// The number of cores, for the thread counts that default to it.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// `value` inside `range`, or the message that names the flag.
pub fn in_range<T: PartialOrd + std::fmt::Display>(
    flag: &str,
    value: T,
    range: std::ops::RangeInclusive<T>,
) -> Result<(), CliError> {
    if range.contains(&value) {
        Ok(())
    } else {
        Err(CliError::BadInput(format!(
            "{flag} {value} is out of range {}..={}",
            range.start(),
            range.end()
        )))
    }
}
