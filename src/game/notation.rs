//! Moves as text: parsing what a person or a GUI typed, printing lines in SAN.

use shakmaty::san::{San, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position};
use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error("'{text}' is not a move (expected UCI like e2e4 or SAN like Nf3)")]
    Unparsable { text: String },
    #[error("'{text}' is not legal here; legal moves: {legal}")]
    Illegal { text: String, legal: String },
    #[error("'{text}' is ambiguous; it could be: {candidates}")]
    Ambiguous { text: String, candidates: String },
}

fn legal_list(position: &Chess) -> String {
    let mut moves: Vec<String> = position
        .legal_moves()
        .iter()
        .map(|&m| m.to_uci(CastlingMode::Standard).to_string())
        .collect();
    moves.sort();
    if moves.is_empty() {
        "none (the game is over)".to_string()
    } else {
        moves.join(" ")
    }
}

/// A move in UCI notation (`e2e4`, `e7e8q`, `e1g1`), checked for legality.
pub fn parse_uci(position: &Chess, text: &str) -> Result<Move, MoveError> {
    let uci: UciMove = text.parse().map_err(|_| MoveError::Unparsable {
        text: text.to_string(),
    })?;
    uci.to_move(position).map_err(|_| MoveError::Illegal {
        text: text.to_string(),
        legal: legal_list(position),
    })
}

/// A move in UCI or SAN notation.
pub fn parse_move(position: &Chess, text: &str) -> Result<Move, MoveError> {
    if let Ok(m) = parse_uci(position, text) {
        return Ok(m);
    }
    let san: San = match text.trim_end_matches(['+', '#', '!', '?']).parse() {
        Ok(san) => san,
        Err(_) if text.parse::<UciMove>().is_ok() => {
            return Err(MoveError::Illegal {
                text: text.to_string(),
                legal: legal_list(position),
            });
        }
        Err(_) => {
            return Err(MoveError::Unparsable {
                text: text.to_string(),
            });
        }
    };
    match san.to_move(position) {
        Ok(m) => Ok(m),
        Err(shakmaty::san::SanError::AmbiguousSan) => {
            let candidates: Vec<String> = position
                .legal_moves()
                .iter()
                .filter(|&&m| san.matches(m))
                .map(|&m| SanPlus::from_move(position.clone(), m).to_string())
                .collect();
            Err(MoveError::Ambiguous {
                text: text.to_string(),
                candidates: candidates.join(", "),
            })
        }
        Err(_) => Err(MoveError::Illegal {
            text: text.to_string(),
            legal: legal_list(position),
        }),
    }
}

/// A line of moves from `position` in SAN with check marks. Stops at the
/// first move that is not legal (a PV is always legal; this is a guard).
pub fn san_line(position: &Chess, line: &[Move]) -> Vec<String> {
    let mut position = position.clone();
    let mut out = Vec::with_capacity(line.len());
    for &m in line {
        if !position.is_legal(m) {
            break;
        }
        out.push(SanPlus::from_move_and_play_unchecked(&mut position, m).to_string());
    }
    out
}

/// UCI text of a move.
pub fn uci(m: Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_uci_and_san() {
        let pos = Chess::default();
        assert_eq!(uci(parse_move(&pos, "e2e4").unwrap()), "e2e4");
        assert_eq!(uci(parse_move(&pos, "Nf3").unwrap()), "g1f3");
        let err = parse_move(&pos, "e2e5").unwrap_err().to_string();
        assert!(err.contains("not legal") && err.contains("e2e4"), "{err}");
        assert!(matches!(
            parse_move(&pos, "hello"),
            Err(MoveError::Unparsable { .. })
        ));
    }

    #[test]
    fn san_line_marks_checks() {
        let pos = Chess::default();
        let moves: Vec<Move> = ["f2f3", "e7e5", "g2g4", "d8h4"]
            .iter()
            .scan(pos.clone(), |p, t| {
                let m = parse_uci(p, t).unwrap();
                p.play_unchecked(m);
                Some(m)
            })
            .collect();
        assert_eq!(san_line(&pos, &moves), ["f3", "e5", "g4", "Qh4#"]);
    }
}
