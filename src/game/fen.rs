//! Reading FEN with error messages that say which field is wrong and why.
//!
//! shakmaty parses FEN correctly, but its errors say only "invalid FEN" or
//! name a rule; a person who typed a FEN wants to know where the mistake is.
//! So the fields are checked here first, then shakmaty checks the position
//! itself (kings, checks, pawns on the back rank).
//!
//! Castling rights may be written as in standard FEN (`KQkq`), in X-FEN
//! (`KQkq` for the outermost rooks, a file letter for another one) or in
//! Shredder-FEN (file letters, `HAha`). A FEN whose castling rights make
//! sense only in Chess960 (a king off the e-file, a rook off the corner) is
//! read as a Chess960 position.

use shakmaty::fen::{Fen, ParseFenError};
use shakmaty::{CastlingMode, Chess, EnPassantMode, PositionErrorKinds};
use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    #[error("FEN is empty")]
    Empty,
    #[error(
        "FEN has {0} fields; expected 4 to 6 (board, side, castling, en passant, halfmoves, fullmoves)"
    )]
    FieldCount(usize),
    #[error("FEN field 1: {0}")]
    Board(String),
    #[error("FEN field 2: '{0}' is not a side to move (expected 'w' or 'b')")]
    Side(String),
    #[error(
        "FEN field 3: '{0}' is not castling rights (expected '-', letters from KQkq, or rook files A-H a-h for Chess960)"
    )]
    Castling(String),
    #[error(
        "FEN field 3: '{0}' gives one side more than two rooks to castle with (a king castles with at most one rook on each side)"
    )]
    CastlingRooks(String),
    #[error(
        "FEN field 4: '{0}' is not an en passant square (expected '-' or a square on rank 3 or 6)"
    )]
    EnPassant(String),
    #[error("FEN field {field}: '{text}' is not a move count")]
    Counter { field: usize, text: String },
    #[error("illegal position: {0}")]
    Position(String),
}

fn check_board(board: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::Board(format!(
            "'{board}' has {} ranks; expected 8 separated by '/'",
            ranks.len()
        )));
    }
    for (i, rank) in ranks.iter().enumerate() {
        let rank_name = 8 - i;
        let mut files = 0u32;
        for c in rank.chars() {
            match c {
                '1'..='8' => files += c.to_digit(10).unwrap_or(0),
                'p' | 'n' | 'b' | 'r' | 'q' | 'k' | 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' => files += 1,
                _ => {
                    return Err(FenError::Board(format!(
                        "rank {rank_name} ('{rank}'): '{c}' is not a piece letter or a digit"
                    )));
                }
            }
        }
        if files != 8 {
            return Err(FenError::Board(format!(
                "rank {rank_name} ('{rank}') covers {files} squares; expected 8"
            )));
        }
    }
    Ok(())
}

fn describe(kinds: PositionErrorKinds) -> String {
    let mut reasons = Vec::new();
    let named = [
        (PositionErrorKinds::EMPTY_BOARD, "the board is empty"),
        (PositionErrorKinds::MISSING_KING, "a side has no king"),
        (
            PositionErrorKinds::TOO_MANY_KINGS,
            "a side has more than one king",
        ),
        (
            PositionErrorKinds::PAWNS_ON_BACKRANK,
            "a pawn stands on the first or last rank",
        ),
        (
            PositionErrorKinds::INVALID_CASTLING_RIGHTS,
            "castling rights do not match the king and rook squares",
        ),
        (
            PositionErrorKinds::INVALID_EP_SQUARE,
            "the en passant square does not follow a double pawn push",
        ),
        (
            PositionErrorKinds::OPPOSITE_CHECK,
            "the side not to move is in check",
        ),
        (
            PositionErrorKinds::IMPOSSIBLE_CHECK,
            "the checks on the king cannot arise in a game",
        ),
        (
            PositionErrorKinds::TOO_MUCH_MATERIAL,
            "there is more material than a game can have",
        ),
    ];
    for (kind, text) in named {
        if kinds.contains(kind) {
            reasons.push(text);
        }
    }
    if reasons.is_empty() {
        "the position cannot arise in a game".to_string()
    } else {
        reasons.join("; ")
    }
}

/// Parse a FEN into a legal position: standard chess, or Chess960 when the
/// castling rights make sense only there. Accepts 4-field EPD style and a
/// full-move number of 0, both common in test files.
pub fn parse_fen(text: &str) -> Result<Chess, FenError> {
    parse_fen_in(text, None)
}

/// Parse a FEN as a Chess960 position whatever its castling rights look
/// like (a UCI GUI in Chess960 mode, a PGN with a Chess960 `Variant` tag).
pub fn parse_fen_960(text: &str) -> Result<Chess, FenError> {
    parse_fen_in(text, Some(CastlingMode::Chess960))
}

/// The castling rules a FEN's castling rights call for: Chess960 when they
/// name a king or rook that standard chess would not let castle but
/// Chess960 would.
pub fn castling_mode_of(fen: &Fen) -> CastlingMode {
    CastlingMode::detect(fen.as_setup())
}

fn parse_fen_in(text: &str, mode: Option<CastlingMode>) -> Result<Chess, FenError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.is_empty() {
        return Err(FenError::Empty);
    }
    if !(4..=6).contains(&fields.len()) {
        return Err(FenError::FieldCount(fields.len()));
    }
    check_board(fields[0])?;
    if !matches!(fields[1], "w" | "b") {
        return Err(FenError::Side(fields[1].to_string()));
    }
    let castling = fields[2];
    if castling != "-"
        && (castling.is_empty() || !castling.chars().all(|c| "KQkqABCDEFGHabcdefgh".contains(c)))
    {
        return Err(FenError::Castling(castling.to_string()));
    }
    let ep = fields[3];
    let ep_ok = ep == "-"
        || (ep.len() == 2
            && matches!(ep.as_bytes()[0], b'a'..=b'h')
            && matches!(ep.as_bytes()[1], b'3' | b'6'));
    if !ep_ok {
        return Err(FenError::EnPassant(ep.to_string()));
    }
    for (field, text) in fields.iter().enumerate().skip(4) {
        if text.parse::<u32>().is_err() {
            return Err(FenError::Counter {
                field: field + 1,
                text: text.to_string(),
            });
        }
    }
    // shakmaty wants a full-move number of at least 1.
    let mut normalised: Vec<&str> = fields.clone();
    if normalised.len() == 6 && normalised[5] == "0" {
        normalised[5] = "1";
    }
    // What shakmaty refuses beyond the checks above, named by its field.
    let fen: Fen = normalised.join(" ").parse().map_err(|e| match e {
        ParseFenError::InvalidTurn => FenError::Side(fields[1].to_string()),
        ParseFenError::InvalidCastling => FenError::CastlingRooks(castling.to_string()),
        ParseFenError::InvalidEpSquare => FenError::EnPassant(ep.to_string()),
        ParseFenError::InvalidHalfmoveClock => FenError::Counter {
            field: 5,
            text: fields.get(4).copied().unwrap_or_default().to_string(),
        },
        ParseFenError::InvalidFullmoves => FenError::Counter {
            field: 6,
            text: fields.get(5).copied().unwrap_or_default().to_string(),
        },
        _ => FenError::Board(format!("{e}")),
    })?;
    let mode = mode.unwrap_or_else(|| castling_mode_of(&fen));
    fen.into_position(mode)
        .map_err(|e| FenError::Position(describe(e.kinds())))
}

/// The FEN of a position.
pub fn fen_of(position: &Chess) -> String {
    Fen::from_position(position, EnPassantMode::Legal).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_standard_and_epd_style() {
        assert!(parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").is_ok());
        assert!(parse_fen("8/8/8/8/8/8/8/K6k w - -").is_ok());
        assert!(parse_fen("8/1p3Qb1/p5pk/P1p1p1p1/1P2P1P1/2P1N2n/5P1P/4qB1K w - - 1 0").is_ok());
    }

    #[test]
    fn says_which_field_is_wrong() {
        let e = |fen: &str| parse_fen(fen).unwrap_err().to_string();
        assert!(e("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1").contains("7 ranks"));
        assert!(e("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").contains("'x'"));
        assert!(
            e("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
                .starts_with("FEN field 1")
        );
        assert!(
            e("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1")
                .starts_with("FEN field 2")
        );
        assert!(e("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1").contains("'e9'"));
        assert!(
            e("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1")
                .starts_with("FEN field 5")
        );
        assert!(e("8/8/8/8/8/8/8/K7 w - - 0 1").contains("no king"));
        assert_eq!(e(""), "FEN is empty");
    }

    #[test]
    fn chess960_castling_rights_read_as_chess960() {
        use crate::game::chess960::is_chess960;
        use shakmaty::Position;
        let standard =
            parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        assert!(!is_chess960(&standard));
        // Position 0 in Shredder-FEN and in X-FEN: the king on g1, the rooks
        // on f1 and h1.
        for castling in ["HFhf", "KQkq"] {
            let fen = format!("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w {castling} - 0 1");
            let position = parse_fen(&fen).unwrap();
            assert!(is_chess960(&position), "{castling}");
            assert_eq!(
                position.castles().castling_rights().count(),
                4,
                "{castling}"
            );
            // X-FEN out: the outermost rooks are K and Q.
            assert_eq!(
                fen_of(&position),
                "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
            );
        }
        // A rook between the king and the corner rook needs its file letter.
        let inner = parse_fen("4k3/8/8/8/8/8/8/1R2K1RR w G - 0 1").unwrap();
        assert!(is_chess960(&inner));
        assert_eq!(fen_of(&inner), "4k3/8/8/8/8/8/8/1R2K1RR w G - 0 1");
        // The standard start forced to Chess960 rules.
        let forced =
            parse_fen_960("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        assert!(is_chess960(&forced));
        assert!(parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1").is_err());
    }

    #[test]
    fn castling_rights_for_too_many_rooks_are_field_3() {
        for castling in ["HAhaB", "ABCDEFGH", "abc"] {
            let e = parse_fen(&format!(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w {castling} - 0 1"
            ))
            .unwrap_err()
            .to_string();
            assert!(e.starts_with("FEN field 3: "), "{castling}: {e}");
            assert!(e.contains(&format!("'{castling}'")), "{castling}: {e}");
        }
    }
}
