//! Moves as text: parsing what a person or a GUI typed, printing lines in SAN.

use shakmaty::san::{San, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position, Square};
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
    let mut moves: Vec<String> = position.legal_moves().iter().map(|&m| uci(m)).collect();
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

/// A move in UCI or SAN notation, as a person types it: `Nf3`, `exd5`,
/// `O-O` (or `0-0`), `e8=Q` (or `e8Q`), `g1f3`, `e7e8q`, with or without
/// check marks and annotation. A lower-case piece letter is accepted where it
/// cannot be a pawn's file (`nf3`, `qxd7`; `b` stays the b-file).
///
/// An illegal move is answered with the legal moves it could have meant:
/// those to the same square or with the same piece (from the same square,
/// for UCI), else all.
pub fn parse_move(position: &Chess, text: &str) -> Result<Move, MoveError> {
    let text = text.trim();
    if let Ok(m) = parse_uci(position, text) {
        return Ok(m);
    }
    let mut cleaned = text
        .trim_end_matches(['+', '#', '!', '?'])
        .replace('0', "O");
    if let Some(first) = cleaned.chars().next()
        && matches!(first, 'n' | 'r' | 'q' | 'k')
    {
        cleaned.replace_range(0..1, &first.to_ascii_uppercase().to_string());
    }
    // `e8Q` -> `e8=Q`: a promotion piece right after a last-rank square.
    let bytes = cleaned.as_bytes();
    if let [.., rank @ (b'1' | b'8'), piece] = bytes
        && matches!(piece.to_ascii_uppercase(), b'Q' | b'R' | b'B' | b'N')
        && cleaned.len() >= 3
    {
        let (rank, piece) = (*rank as char, piece.to_ascii_uppercase() as char);
        cleaned.truncate(cleaned.len() - 2);
        cleaned.push_str(&format!("{rank}={piece}"));
    }
    let san: San = match cleaned.parse() {
        Ok(_) if text.parse::<UciMove>().is_ok() => {
            // `e2e5` reads as SAN too, but the person wrote UCI: answer in UCI.
            return Err(MoveError::Illegal {
                text: text.to_string(),
                legal: legal_list(position),
            });
        }
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
            legal: near_misses(position, &san),
        }),
    }
}

/// The legal moves (SAN) someone who typed `san` may have meant: those to the
/// same square and those of the same piece; if there are none, every move.
fn near_misses(position: &Chess, san: &San) -> String {
    let legal = position.legal_moves();
    let (role, to) = match san {
        San::Normal { role, to, .. } => (Some(*role), Some(*to)),
        San::Castle(_) => (Some(shakmaty::Role::King), None),
        San::Put { .. } | San::Null => (None, None),
    };
    let related: Vec<Move> = legal
        .iter()
        .filter(|m| to.is_some_and(|to| m.to() == to) || role.is_some_and(|r| m.role() == r))
        .copied()
        .collect();
    let chosen = if related.is_empty() {
        legal.to_vec()
    } else {
        related
    };
    if chosen.is_empty() {
        return "none (the game is over)".to_string();
    }
    chosen
        .iter()
        .map(|&m| SanPlus::from_move(position.clone(), m).to_string())
        .collect::<Vec<_>>()
        .join(" ")
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

/// The destination square a person thinks of for `m` (castling: the king's
/// square, not the rook's).
pub fn destination(m: Move) -> Square {
    match m.to_uci(CastlingMode::Standard) {
        UciMove::Normal { to, .. } => to,
        _ => m.to(),
    }
}

/// UCI text of a move: castling as `e1g1`, a Chess960 castling that
/// cannot be written so as king takes rook (see [`crate::core::uci_text`]).
pub fn uci(m: Move) -> String {
    crate::core::uci_text(m)
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
        for (typed, expected) in [
            ("nf3", "g1f3"),
            ("Nf3+", "g1f3"),
            ("e4!?", "e2e4"),
            (" d4 ", "d2d4"),
            ("b3", "b2b3"),
        ] {
            assert_eq!(uci(parse_move(&pos, typed).unwrap()), expected, "{typed}");
        }
        assert!(matches!(
            parse_move(&pos, "hello"),
            Err(MoveError::Unparsable { .. })
        ));
    }

    fn after(moves: &[&str]) -> Chess {
        moves.iter().fold(Chess::default(), |mut p, t| {
            let m = parse_uci(&p, t).unwrap();
            p.play_unchecked(m);
            p
        })
    }

    #[test]
    fn castling_and_promotion_spellings() {
        let pos = after(&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]);
        assert_eq!(uci(parse_move(&pos, "O-O").unwrap()), "e1g1");
        assert_eq!(uci(parse_move(&pos, "0-0").unwrap()), "e1g1");
        let fen = "8/4P1k1/8/8/8/8/6K1/8 w - - 0 1";
        let pos = crate::game::fen::parse_fen(fen).unwrap();
        for typed in ["e8=Q", "e8Q", "e8q", "e7e8q"] {
            assert_eq!(uci(parse_move(&pos, typed).unwrap()), "e7e8q", "{typed}");
        }
        assert_eq!(uci(parse_move(&pos, "e8=N").unwrap()), "e7e8n");
    }

    #[test]
    fn near_misses_name_what_was_meant() {
        // Nf4 is illegal at the start; no move goes to f4, so the knight moves are offered.
        let err = parse_move(&Chess::default(), "Nf4")
            .unwrap_err()
            .to_string();
        for meant in ["Na3", "Nc3", "Nf3", "Nh3", "f4"] {
            assert!(err.contains(meant), "{err}");
        }
        assert!(!err.contains("e4"), "{err}");
        // Qd5 after 1.e4 d5: the queen cannot go there; the capture on d5 and the queen's moves are offered.
        let pos = after(&["e2e4", "d7d5"]);
        let err = parse_move(&pos, "Qd5").unwrap_err().to_string();
        assert!(
            err.contains("exd5") && err.contains("Qh5") && !err.contains("Nf3"),
            "{err}"
        );
        // Two knights can reach d2: the message lists both.
        let pos = after(&["d2d4", "d7d5", "b1c3", "g8f6", "e2e3", "e7e6"]);
        let err = parse_move(&pos, "Ne2").unwrap_err();
        assert!(matches!(err, MoveError::Ambiguous { .. }), "{err}");
        assert!(err.to_string().contains("Nce2") && err.to_string().contains("Nge2"));
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

    #[test]
    fn chess960_castling_is_written_so_it_reads_back() {
        // White's king on g1 between rooks on b1 and h1, nothing between:
        // both castlings are legal, and `g1c1` would not say which piece.
        let position =
            crate::game::fen::parse_fen("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w KQkq - 0 1")
                .unwrap();
        let castles: Vec<Move> = position
            .legal_moves()
            .into_iter()
            .filter(|m| m.is_castle())
            .collect();
        assert_eq!(castles.len(), 2);
        for m in castles {
            let text = uci(m);
            assert!(text == "g1h1" || text == "g1b1", "{text}");
            assert_eq!(parse_uci(&position, &text).unwrap(), m, "{text}");
            assert_eq!(parse_move(&position, &text).unwrap(), m, "{text}");
        }
        // Standard castling stays e1g1 even in a Chess960 game.
        let standard = crate::game::chess960::standard_start();
        let m = Move::Castle {
            king: shakmaty::Square::E1,
            rook: shakmaty::Square::H1,
        };
        assert_eq!(uci(m), "e1g1");
        assert!(parse_uci(&standard, "e1g1").is_err(), "pieces in the way");
    }
}
