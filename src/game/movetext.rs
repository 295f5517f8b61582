//! Moves as PGN files write them: a lenient reader for one movetext word.
//! (`pgn_lexer` splits a file into games and words.)
//!
//! The PGN standard's export format is strict, but files in the wild are not:
//! checks written `++`, promotions without `=` (`d1Q`), castling with zeros,
//! `e.p.` after an en-passant capture, NAGs glued to the move (`Nf3!?`), an
//! `x` where nothing is captured, moves in UCI or long algebraic notation.
//! This reader accepts what python-chess accepts (the reference most tools
//! agree with): it reads the move from its piece, disambiguation, target
//! square and promotion, and ignores the decoration around them.
//!

use shakmaty::san::San;
use shakmaty::{CastlingSide, Chess, File, Move, MoveList, Position, Rank, Role, Square};

/// A move as written: what the reader took from the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveText {
    /// `--`, `Z0`, `0000`, `@@@@`: the side to move passes.
    Null,
    Castle(CastlingSide),
    Normal {
        /// `None` when no piece letter was written (a pawn, or a move given
        /// by both squares as in `g1f3`).
        role: Option<Role>,
        from_file: Option<File>,
        from_rank: Option<Rank>,
        to: Square,
        promotion: Option<Role>,
    },
}

/// Why a move could not be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveProblem {
    Illegal,
    Ambiguous,
}

impl MoveText {
    /// Read one movetext word (move number and results already removed).
    /// `None` when the word is not a move at all.
    pub fn parse(word: &str) -> Option<MoveText> {
        // Decoration after the move: check and mate marks in any number
        // (`++` is an old way to write double check) and an en passant
        // mark, in either order (`exf6ep+`, `exf6+e.p.`).
        let checks = ['+', '#', '\u{2020}', '\u{2021}'];
        let mut text = word.trim_end_matches(checks);
        for suffix in ["e.p.", "ep"] {
            if let Some(stripped) = text.strip_suffix(suffix)
                && stripped.len() >= 2
            {
                text = stripped.trim_end_matches(checks);
                break;
            }
        }
        match text {
            "--" | "Z0" | "0000" | "@@@@" => return Some(MoveText::Null),
            "O-O" | "0-0" | "o-o" => return Some(MoveText::Castle(CastlingSide::KingSide)),
            "O-O-O" | "0-0-0" | "o-o-o" => {
                return Some(MoveText::Castle(CastlingSide::QueenSide));
            }
            _ => {}
        }
        let bytes = text.as_bytes();
        let (role, mut rest) = match bytes.first()? {
            b'N' => (Some(Role::Knight), &bytes[1..]),
            b'B' => (Some(Role::Bishop), &bytes[1..]),
            b'R' => (Some(Role::Rook), &bytes[1..]),
            b'Q' => (Some(Role::Queen), &bytes[1..]),
            b'K' => (Some(Role::King), &bytes[1..]),
            b'P' => (Some(Role::Pawn), &bytes[1..]),
            _ => (None, bytes),
        };
        // A promotion at the end: `=Q`, `Q`, `q`, `(Q)`, `/Q`.
        let mut promotion = None;
        if let Some((&last, before)) = rest.split_last()
            && let Some(piece) = promotion_role(last)
        {
            let mut before = before;
            if let Some((&mark, earlier)) = before.split_last()
                && matches!(mark, b'=' | b'/')
            {
                before = earlier;
            }
            if matches!(before.last(), Some(b'1'..=b'8')) {
                promotion = Some(piece);
                rest = before;
            }
        } else if let [earlier @ .., b'(', piece, b')'] = rest
            && let Some(piece) = promotion_role(*piece)
        {
            promotion = Some(piece);
            rest = earlier;
            if let Some((b'=', earlier)) = rest.split_last() {
                rest = earlier;
            }
        }
        let [prefix @ .., file, rank] = rest else {
            return None;
        };
        let to = Square::from_coords(file_of(*file)?, rank_of(*rank)?);
        // Between the disambiguation and the target: `x`, `:` or `-`, or
        // nothing.
        let prefix = match prefix {
            [earlier @ .., b'x' | b':' | b'-'] => earlier,
            _ => prefix,
        };
        let (from_file, from_rank) = match prefix {
            [] => (None, None),
            [c] if file_of(*c).is_some() => (file_of(*c), None),
            [c] if rank_of(*c).is_some() => (None, rank_of(*c)),
            [f, r] => (Some(file_of(*f)?), Some(rank_of(*r)?)),
            _ => return None,
        };
        Some(MoveText::Normal {
            role,
            from_file,
            from_rank,
            to,
            promotion,
        })
    }

    /// The legal move this text names in `position`.
    ///
    /// As python-chess reads SAN: with a piece letter, that piece's moves to
    /// the square; without one, a move given by both squares (`g1f3`,
    /// `e1g1` for castling) whatever the piece; otherwise a pawn, which
    /// captures only when its file is written (`exd5`, not `d5`). Whether an
    /// `x` was written is not checked.
    pub fn to_move(self, position: &Chess) -> Result<Move, MoveProblem> {
        self.to_move_and_san(position).map(|(m, _)| m)
    }

    /// [`MoveText::to_move`], with the move's SAN as `San::from_move` writes
    /// it: for a piece move, from the candidate moves already generated to
    /// read the text, rather than generating them a second time.
    pub fn to_move_and_san(self, position: &Chess) -> Result<(Move, San), MoveProblem> {
        let with_san = |m: Move| (m, San::from_move(position, m));
        match self {
            MoveText::Null => Err(MoveProblem::Illegal),
            MoveText::Castle(side) => position
                .legal_moves()
                .into_iter()
                .find(|m| m.castling_side() == Some(side))
                .map(with_san)
                .ok_or(MoveProblem::Illegal),
            MoveText::Normal {
                role: None,
                from_file: Some(file),
                from_rank: Some(rank),
                to,
                promotion,
            } => {
                let from = Square::from_coords(file, rank);
                let king_moves_two = position.board().role_at(from) == Some(Role::King)
                    && from.distance(to) == 2
                    && from.rank() == to.rank();
                position
                    .legal_moves()
                    .into_iter()
                    .find(|m| {
                        m.from() == Some(from)
                            && m.promotion() == promotion
                            && match m {
                                // `e1g1` is castling; so is `e1h1`, the king
                                // taking its own rook as UCI's Chess960 form
                                // writes it.
                                Move::Castle { king, rook } => {
                                    *rook == to
                                        || (king_moves_two
                                            && *king == from
                                            && castle_target(m) == Some(to))
                                }
                                _ => m.to() == to,
                            }
                    })
                    .map(with_san)
                    .ok_or(MoveProblem::Illegal)
            }
            MoveText::Normal {
                role,
                from_file,
                from_rank,
                to,
                promotion,
            } => {
                let role = role.unwrap_or(Role::Pawn);
                let mut found = None;
                // Only the moves of that piece to that square are generated.
                let candidates = position.san_candidates(role, to);
                for &m in &candidates {
                    let from = m.from();
                    let fits = !m.is_castle()
                        && m.role() == role
                        && m.to() == to
                        && m.promotion() == promotion
                        && from_file.is_none_or(|f| from.is_some_and(|s| s.file() == f))
                        && from_rank.is_none_or(|r| from.is_some_and(|s| s.rank() == r))
                        && (role != Role::Pawn
                            || from_file.is_some()
                            || from.is_some_and(|s| s.file() == to.file()));
                    if fits {
                        if found.is_some() {
                            return Err(MoveProblem::Ambiguous);
                        }
                        found = Some(m);
                    }
                }
                let m = found.ok_or(MoveProblem::Illegal)?;
                // `San::from_move` disambiguates a piece move among these
                // same candidates (that piece's moves to that square) and
                // a pawn move among none.
                let san = match m {
                    Move::Normal { role, .. } if role != Role::Pawn => {
                        San::disambiguate(m, &candidates)
                    }
                    _ => San::disambiguate(m, &MoveList::new()),
                };
                Ok((m, san))
            }
        }
    }
}

/// The square the king lands on when castling.
fn castle_target(m: &Move) -> Option<Square> {
    let side = m.castling_side()?;
    let king = m.from()?;
    Some(Square::from_coords(side.king_to_file(), king.rank()))
}

fn promotion_role(byte: u8) -> Option<Role> {
    match byte.to_ascii_uppercase() {
        b'Q' => Some(Role::Queen),
        b'R' => Some(Role::Rook),
        b'B' => Some(Role::Bishop),
        b'N' => Some(Role::Knight),
        b'K' => Some(Role::King),
        _ => None,
    }
}

fn file_of(byte: u8) -> Option<File> {
    matches!(byte, b'a'..=b'h').then(|| File::new(u32::from(byte - b'a')))
}

fn rank_of(byte: u8) -> Option<Rank> {
    matches!(byte, b'1'..=b'8').then(|| Rank::new(u32::from(byte - b'1')))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::fen::parse_fen;

    fn play(fen: &str, text: &str) -> Result<String, MoveProblem> {
        let position = parse_fen(fen).unwrap();
        let m = MoveText::parse(text)
            .ok_or(MoveProblem::Illegal)?
            .to_move(&position)?;
        Ok(m.to_uci(shakmaty::CastlingMode::Standard).to_string())
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn reads_the_decorated_forms_python_chess_accepts() {
        assert_eq!(play(START, "e4").unwrap(), "e2e4");
        assert_eq!(play(START, "e2-e4").unwrap(), "e2e4");
        assert_eq!(play(START, "e2e4").unwrap(), "e2e4");
        assert_eq!(play(START, "Ng1f3").unwrap(), "g1f3");
        assert_eq!(play(START, "g1f3").unwrap(), "g1f3");
        assert_eq!(
            play(START, "Nxf3").unwrap(),
            "g1f3",
            "an x without a capture"
        );
        assert_eq!(play(START, "Nf3++").unwrap(), "g1f3");
        assert_eq!(play(START, "Nf3#").unwrap(), "g1f3");
        // `d5` is not `exd5`: a pawn captures only with its file written.
        let open = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        assert_eq!(play(open, "exd5").unwrap(), "e4d5");
        assert_eq!(play(open, "ed5").unwrap(), "e4d5");
        assert_eq!(play(open, "e:d5").unwrap(), "e4d5");
        assert_eq!(play(open, "d5"), Err(MoveProblem::Illegal));
    }

    #[test]
    fn promotions_castling_and_en_passant_in_old_forms() {
        let promote = "8/3P4/8/8/8/8/4k3/K7 w - - 0 1";
        for text in ["d8=Q", "d8Q", "d8q", "d8(Q)", "d8/Q", "d7d8q", "d8=Q+"] {
            assert_eq!(play(promote, text).unwrap(), "d7d8q", "{text}");
        }
        assert_eq!(play(promote, "d8=N").unwrap(), "d7d8n");
        assert_eq!(
            play(promote, "d8"),
            Err(MoveProblem::Illegal),
            "no piece named"
        );
        let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        for (text, uci) in [
            ("O-O", "e1h1"),
            ("0-0", "e1h1"),
            ("0-0+", "e1h1"),
            ("O-O-O", "e1a1"),
            ("0-0-0", "e1a1"),
            ("e1g1", "e1h1"),
            ("e1c1", "e1a1"),
        ] {
            let position = parse_fen(castle).unwrap();
            let m = MoveText::parse(text).unwrap().to_move(&position).unwrap();
            assert_eq!(
                m.to_uci(shakmaty::CastlingMode::Chess960).to_string(),
                uci,
                "{text}"
            );
        }
        let passant = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
        for text in ["exd6", "exd6e.p.", "exd6ep", "exd6+"] {
            assert_eq!(play(passant, text).unwrap(), "e5d6", "{text}");
        }
    }

    #[test]
    fn ambiguity_and_non_moves() {
        let knights = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
        assert_eq!(play(knights, "Nd2"), Err(MoveProblem::Ambiguous));
        assert_eq!(play(knights, "Nbd2").unwrap(), "b1d2");
        assert_eq!(play(knights, "N1d2"), Err(MoveProblem::Ambiguous));
        for word in ["xyz", "Nz9", "e9", "", "Q", "ex", "Nbbd2"] {
            assert_eq!(MoveText::parse(word), None, "{word}");
        }
        assert_eq!(MoveText::parse("--"), Some(MoveText::Null));
        assert_eq!(MoveText::parse("Z0"), Some(MoveText::Null));
    }
    #[test]
    fn the_san_read_with_a_move_is_the_san_shakmaty_writes() {
        // Two knights and two rooks reach the same squares; pawns capture,
        // promote and take en passant; both sides may castle.
        let fens = [
            START,
            "r3k2r/1P3ppp/8/3pP3/8/1N3N2/R6R/R3K2R w KQkq d6 0 1",
            "4k3/8/2N1N3/8/2N1N3/8/8/4K3 w - - 0 1",
            "r3k2r/8/8/3Q1Q2/8/3Q1Q2/8/R3K2R w KQkq - 0 1",
        ];
        for fen in fens {
            let position = parse_fen(fen).unwrap();
            for m in position.legal_moves() {
                let written = San::from_move(&position, m);
                for text in [
                    written.to_string(),
                    m.to_uci(shakmaty::CastlingMode::Standard).to_string(),
                ] {
                    let read = MoveText::parse(&text).unwrap().to_move_and_san(&position);
                    assert_eq!(read, Ok((m, written)), "{fen}: {text}");
                }
            }
        }
    }
}
