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

/// The file a long run (self-play, tuning) rewrites as it goes, from
/// several threads. A failed write does not stop the run, which may be
/// hours from its end: the first failure is kept and reported when the run
/// is over, after one last try.
pub struct RunFile<'a> {
    path: Option<&'a std::path::Path>,
    failed: std::sync::Mutex<Option<String>>,
}

impl<'a> RunFile<'a> {
    /// `None`: the run writes no file.
    pub fn new(path: Option<&'a std::path::Path>) -> RunFile<'a> {
        RunFile {
            path,
            failed: std::sync::Mutex::new(None),
        }
    }

    /// Writes through the safe write path; a failure is kept, not raised.
    pub fn save(&self, contents: impl AsRef<[u8]>) {
        if let Some(path) = self.path
            && let Err(e) = crate::fsutil::write_user_file(path, contents)
            && let Ok(mut slot) = self.failed.lock()
        {
            slot.get_or_insert(e);
        }
    }

    /// The first failure, if a write failed.
    pub fn finish(self) -> Result<(), CliError> {
        match self.failed.into_inner() {
            Ok(Some(e)) => Err(CliError::BadInput(e)),
            _ => Ok(()),
        }
    }
}
