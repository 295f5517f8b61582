//! UCI as text: the lines a GUI sends, parsed with `FromStr` into
//! [`UciCommand`], and the engine's reports printed with `Display` as `info`
//! and `bestmove` lines.

use std::str::FromStr;
use std::time::Duration;

use shakmaty::CastlingMode;

use crate::engine::{Bound, Limits, Report, SearchInfo};

const GO_KEYWORDS: [&str; 12] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movetime",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
];

/// One line from the GUI.
#[derive(Debug, Clone, PartialEq)]
pub enum UciCommand {
    Uci,
    Debug,
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    NewGame,
    /// `fen` is `None` for `startpos`; moves are still text, checked when applied.
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    /// `ignored` lists tokens that were not understood and skipped;
    /// `problems` says why each bad value of a known keyword was skipped.
    Go {
        limits: Limits,
        ponder: bool,
        ignored: Vec<String>,
        problems: Vec<String>,
        /// `searchmoves`, as typed: moves are read against the position
        /// when the search starts. `None` when the keyword is absent,
        /// empty when it came with no moves.
        search_moves: Option<Vec<String>>,
    },
    Stop,
    PonderHit,
    Quit,
}

/// Why a line was not understood; sent back as `info string`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UciParseError(pub String);

fn parse_millis(token: Option<&str>, name: &str) -> Result<Duration, UciParseError> {
    let text = token.ok_or_else(|| UciParseError(format!("'{name}' needs a value")))?;
    // Some GUIs send a negative remaining time after a slow move; treat it as zero.
    let ms: i64 = text
        .parse()
        .map_err(|_| UciParseError(format!("'{name} {text}': not a number of milliseconds")))?;
    Ok(Duration::from_millis(ms.max(0) as u64))
}

/// A count of at least 1 (depth, nodes, mate, movestogo).
fn parse_count<T: FromStr + Default + PartialEq>(
    token: Option<&str>,
    name: &str,
) -> Result<T, UciParseError> {
    let text = token.ok_or_else(|| UciParseError(format!("'{name}' needs a value")))?;
    let n: T = text
        .parse()
        .map_err(|_| UciParseError(format!("'{name} {text}': not a valid number")))?;
    if n == T::default() {
        return Err(UciParseError(format!(
            "'{name} {text}': must be at least 1"
        )));
    }
    Ok(n)
}

/// The value after a `go` keyword: the next token, unless it is another
/// keyword (`go wtime depth 5` lacks the time and keeps the depth).
fn go_value<'a>(
    tokens: &mut std::iter::Peekable<std::str::SplitWhitespace<'a>>,
) -> Option<&'a str> {
    match tokens.peek() {
        Some(next) if !GO_KEYWORDS.contains(next) => tokens.next(),
        _ => None,
    }
}

/// The depth searched when a `go` had bad values and nothing is left that
/// would end the search: a quick answer rather than a GUI waiting forever.
pub const FALLBACK_DEPTH: u32 = 4;

/// Whether a search under `limits` ends without a `stop` from the GUI
/// (`infinite` waits for one but was asked for).
pub(super) fn ends_by_itself(limits: &Limits, side: shakmaty::Color) -> bool {
    let clock = match side {
        shakmaty::Color::White => limits.white_time,
        shakmaty::Color::Black => limits.black_time,
    };
    limits.infinite
        || limits.depth.is_some()
        || limits.nodes.is_some()
        || limits.mate.is_some()
        || limits.movetime.is_some()
        || clock.is_some()
}

impl FromStr for UciCommand {
    type Err = UciParseError;

    fn from_str(line: &str) -> Result<UciCommand, UciParseError> {
        let mut tokens = line.split_whitespace();
        let Some(head) = tokens.next() else {
            return Err(UciParseError("empty line".into()));
        };
        match head {
            "uci" => Ok(UciCommand::Uci),
            "debug" => Ok(UciCommand::Debug),
            "isready" => Ok(UciCommand::IsReady),
            "ucinewgame" => Ok(UciCommand::NewGame),
            "stop" => Ok(UciCommand::Stop),
            "ponderhit" => Ok(UciCommand::PonderHit),
            "quit" => Ok(UciCommand::Quit),
            "setoption" => {
                let rest: Vec<&str> = tokens.collect();
                if rest.first() != Some(&"name") {
                    return Err(UciParseError(
                        "setoption: expected 'setoption name <id> [value <x>]'".into(),
                    ));
                }
                let value_at = rest.iter().position(|&t| t == "value");
                let name = rest[1..value_at.unwrap_or(rest.len())].join(" ");
                if name.is_empty() {
                    return Err(UciParseError(
                        "setoption: the option name is missing".into(),
                    ));
                }
                let value = value_at.map(|i| rest[i + 1..].join(" "));
                Ok(UciCommand::SetOption { name, value })
            }
            "position" => {
                let rest: Vec<&str> = tokens.collect();
                let moves_at = rest.iter().position(|&t| t == "moves");
                let setup = &rest[..moves_at.unwrap_or(rest.len())];
                let moves = moves_at
                    .map(|i| rest[i + 1..].iter().map(|s| s.to_string()).collect())
                    .unwrap_or_default();
                let fen = match setup {
                    ["startpos"] => None,
                    ["fen", fields @ ..] if !fields.is_empty() => Some(fields.join(" ")),
                    _ => {
                        return Err(UciParseError(
                            "position: expected 'position startpos|fen <fen> [moves ...]'".into(),
                        ));
                    }
                };
                Ok(UciCommand::Position { fen, moves })
            }
            "go" => {
                let mut limits = Limits::default();
                let mut ponder = false;
                let mut ignored = Vec::new();
                let mut problems = Vec::new();
                let mut search_moves: Option<Vec<String>> = None;
                let mut tokens = tokens.peekable();
                while let Some(token) = tokens.next() {
                    // A bad value is reported and skipped; the rest of the
                    // line still counts.
                    let outcome = match token {
                        "wtime" | "btime" | "winc" | "binc" | "movetime" => {
                            parse_millis(go_value(&mut tokens), token).map(|d| {
                                *match token {
                                    "wtime" => &mut limits.white_time,
                                    "btime" => &mut limits.black_time,
                                    "winc" => &mut limits.white_increment,
                                    "binc" => &mut limits.black_increment,
                                    _ => &mut limits.movetime,
                                } = Some(d);
                            })
                        }
                        "movestogo" => parse_count(go_value(&mut tokens), token)
                            .map(|n| limits.moves_to_go = Some(n)),
                        "depth" => parse_count(go_value(&mut tokens), token)
                            .map(|n| limits.depth = Some(n)),
                        "nodes" => parse_count(go_value(&mut tokens), token)
                            .map(|n| limits.nodes = Some(n)),
                        "mate" => {
                            parse_count(go_value(&mut tokens), token).map(|n| limits.mate = Some(n))
                        }
                        "infinite" => {
                            limits.infinite = true;
                            Ok(())
                        }
                        "ponder" => {
                            ponder = true;
                            Ok(())
                        }
                        // The moves up to the next keyword, read against the
                        // position when the search starts.
                        "searchmoves" => {
                            let moves = search_moves.get_or_insert_with(Vec::new);
                            while let Some(&next) = tokens.peek() {
                                if GO_KEYWORDS.contains(&next) {
                                    break;
                                }
                                moves.push(next.to_string());
                                tokens.next();
                            }
                            Ok(())
                        }
                        other => {
                            ignored.push(other.to_string());
                            Ok(())
                        }
                    };
                    if let Err(UciParseError(why)) = outcome {
                        problems.push(why);
                    }
                }
                Ok(UciCommand::Go {
                    limits,
                    ponder,
                    ignored,
                    problems,
                    search_moves,
                })
            }
            other => Err(UciParseError(format!("unknown command '{other}'"))),
        }
    }
}

/// Formats a report as UCI `info` / `bestmove` text, castling moves in the
/// given notation: `e1g1` in standard chess, king takes rook (`e1h1`) under
/// `UCI_Chess960`.
pub struct UciReport<'a>(pub &'a Report, pub CastlingMode);

impl std::fmt::Display for UciReport<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mode = self.1;
        match self.0 {
            Report::Info(info) => write_info(f, info, mode),
            // UCI has no message for the search's statistics.
            Report::Stats { .. } => Ok(()),
            Report::Pong(_) => write!(f, "readyok"),
            Report::BestMove {
                best_move, ponder, ..
            } => {
                let best =
                    best_move.map_or_else(|| "0000".to_string(), |m| m.to_uci(mode).to_string());
                write!(f, "bestmove {best}")?;
                if let Some(ponder) = ponder {
                    write!(f, " ponder {}", ponder.to_uci(mode))?;
                }
                Ok(())
            }
        }
    }
}

fn write_info(
    f: &mut std::fmt::Formatter<'_>,
    info: &SearchInfo,
    mode: CastlingMode,
) -> std::fmt::Result {
    write!(f, "info depth {} seldepth {}", info.depth, info.seldepth)?;
    if info.complete {
        write!(f, " multipv {} score {}", info.multipv, info.score)?;
        match info.bound {
            Bound::Exact => {}
            Bound::Lower => write!(f, " lowerbound")?,
            Bound::Upper => write!(f, " upperbound")?,
        }
    }
    write!(
        f,
        " nodes {} nps {} hashfull {} time {}",
        info.nodes,
        info.nps,
        info.hashfull,
        info.elapsed.as_millis()
    )?;
    if info.complete && !info.pv.is_empty() {
        write!(f, " pv")?;
        for m in &info.pv {
            write!(f, " {}", m.to_uci(mode))?;
        }
    }
    Ok(())
}
