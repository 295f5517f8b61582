//! Chess960 (Fischer random chess): the 960 start positions by their
//! standard (Scharnagl) numbers, and how a PGN names the variant.
//!
//! A position knows its own castling rules: shakmaty keeps a
//! [`CastlingMode`] in every position's castling rights, and moves played
//! from a Chess960 start stay Chess960. So a game is a Chess960 game exactly
//! when its start position is in [`CastlingMode::Chess960`]; nothing else
//! records it.

use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, File, FromSetup, Piece, Position, Rank, Role,
    Setup, Square,
};
use thiserror::Error;

/// How many start positions there are (numbered 0 to 959).
pub const POSITIONS: u16 = 960;

/// The number of the standard start position (`RNBQKBNR`).
pub const STANDARD_NUMBER: u16 = 518;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Chess960Error {
    #[error("Chess960 start positions are numbered 0 to 959; {0} is not one")]
    NoSuchNumber(u32),
}

/// Where the two knights stand among the five squares left after the
/// bishops and the queen, indexed by the number's last digit (0 to 9).
const KNIGHTS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// White's back rank, a-file first, of start position `number`.
///
/// The numbering is Scharnagl's: divide by 4, the remainder puts the
/// light-squared bishop on b, d, f or h; divide by 4 again, the remainder
/// puts the dark-squared bishop on a, c, e or g; divide by 6, the remainder
/// is the queen's place among the six empty squares; the quotient (0 to 9)
/// places the knights on the five squares left ([`KNIGHTS`]); rook, king and
/// rook take the last three in that order.
pub fn back_rank(number: u16) -> Result<[Role; 8], Chess960Error> {
    if number >= POSITIONS {
        return Err(Chess960Error::NoSuchNumber(u32::from(number)));
    }
    let mut rank: [Option<Role>; 8] = [None; 8];
    let n = usize::from(number);
    rank[(n % 4) * 2 + 1] = Some(Role::Bishop);
    rank[(n / 4 % 4) * 2] = Some(Role::Bishop);
    let n = n / 16;
    let empty = |rank: &[Option<Role>; 8]| -> Vec<usize> {
        (0..8).filter(|&file| rank[file].is_none()).collect()
    };
    let queen = empty(&rank)[n % 6];
    rank[queen] = Some(Role::Queen);
    let (first, second) = KNIGHTS[n / 6];
    let free = empty(&rank);
    rank[free[first]] = Some(Role::Knight);
    rank[free[second]] = Some(Role::Knight);
    for (file, role) in empty(&rank)
        .into_iter()
        .zip([Role::Rook, Role::King, Role::Rook])
    {
        rank[file] = Some(role);
    }
    // Every square got a piece: 2 bishops, a queen, 2 knights and the last
    // three, eight in all.
    Ok(rank.map(|role| role.unwrap_or(Role::Pawn)))
}

/// Start position `number` as a position under Chess960 castling rules,
/// both sides with both castling rights.
pub fn start_position(number: u16) -> Result<Chess, Chess960Error> {
    let roles = back_rank(number)?;
    let mut board = Board::empty();
    for (file, role) in roles.into_iter().enumerate() {
        let file = File::new(file as u32);
        for (color, back, pawns) in [
            (Color::White, Rank::First, Rank::Second),
            (Color::Black, Rank::Eighth, Rank::Seventh),
        ] {
            board.set_piece_at(Square::from_coords(file, back), Piece { color, role });
            board.set_piece_at(
                Square::from_coords(file, pawns),
                Piece {
                    color,
                    role: Role::Pawn,
                },
            );
        }
    }
    let mut setup = Setup::empty();
    setup.castling_rights = board.rooks() & (Bitboard::from(Rank::First) | Rank::Eighth);
    setup.board = board;
    // Every numbered position has the king between its rooks and the
    // bishops on both colours (the tests check all 960), so shakmaty takes
    // it; a refusal would be a bug in `back_rank`, answered as a bad number.
    Chess::from_setup(setup, CastlingMode::Chess960)
        .map_err(|_| Chess960Error::NoSuchNumber(u32::from(number)))
}

/// The standard start position under Chess960 castling rules (number 518):
/// what a Chess960 game without a `FEN` starts from.
pub fn standard_start() -> Chess {
    let setup = Setup::initial();
    // The standard start is legal under either castling rules.
    Chess::from_setup(setup, CastlingMode::Chess960).unwrap_or_default()
}

/// The number of a Chess960 start position whose back ranks stand as at
/// the start (the other pieces are not looked at), if White's is one of
/// the 960 and Black's mirrors it.
pub fn number_of(position: &Chess) -> Option<u16> {
    let board = position.board();
    let white: Vec<Option<Role>> = File::ALL
        .iter()
        .map(|&file| board.role_at(Square::from_coords(file, Rank::First)))
        .collect();
    let black: Vec<Option<Role>> = File::ALL
        .iter()
        .map(|&file| board.role_at(Square::from_coords(file, Rank::Eighth)))
        .collect();
    if white != black {
        return None;
    }
    (0..POSITIONS).find(|&n| {
        back_rank(n).is_ok_and(|roles| roles.iter().zip(&white).all(|(r, w)| Some(*r) == *w))
    })
}

/// Whether a PGN `Variant` tag names Chess960: `Chess960`, `chess 960`,
/// `Fischerandom`, `Fischer Random` and the like, in any case.
pub fn is_chess960_variant(tag: &str) -> bool {
    let name: String = tag
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    matches!(
        name.as_str(),
        "chess960" | "960" | "fischerandom" | "fischerrandom" | "fischerrandomchess" | "frc"
    )
}

/// Whether a position (and so a game from it) plays by Chess960's castling
/// rules.
pub fn is_chess960(position: &Chess) -> bool {
    position.castles().mode().is_chess960()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letters(number: u16) -> String {
        back_rank(number)
            .unwrap()
            .iter()
            .map(|role| role.char())
            .collect()
    }

    #[test]
    fn scharnagl_numbers_of_known_positions() {
        assert_eq!(letters(518), "rnbqkbnr");
        assert_eq!(letters(0), "bbqnnrkr");
        assert_eq!(letters(959), "rkrnnqbb");
        assert!(back_rank(960).is_err());
        let standard = start_position(STANDARD_NUMBER).unwrap();
        assert_eq!(standard, Chess::default());
        assert!(is_chess960(&standard));
    }

    #[test]
    fn all_960_are_distinct_and_legal() {
        let mut seen = std::collections::HashSet::new();
        for number in 0..POSITIONS {
            let roles = back_rank(number).unwrap();
            assert!(seen.insert(roles), "{number} repeats an earlier position");
            let files = |role: Role| -> Vec<usize> {
                (0..8).filter(|&f| roles[f] == role).collect::<Vec<_>>()
            };
            let (bishops, rooks, king) =
                (files(Role::Bishop), files(Role::Rook), files(Role::King));
            assert_eq!(bishops.len(), 2, "{number}");
            assert_ne!(
                bishops[0] % 2,
                bishops[1] % 2,
                "{number}: bishops on one colour"
            );
            assert_eq!(files(Role::Knight).len(), 2, "{number}");
            assert_eq!(files(Role::Queen).len(), 1, "{number}");
            assert!(rooks[0] < king[0] && king[0] < rooks[1], "{number}");
            let position = start_position(number).unwrap();
            assert_eq!(position.castles().castling_rights().count(), 4, "{number}");
            assert_eq!(number_of(&position), Some(number));
        }
        assert_eq!(seen.len(), 960);
    }

    #[test]
    fn variant_tag_spellings() {
        for tag in [
            "Chess960",
            "chess 960",
            "Fischerandom",
            "FischeRandom",
            "Fischer Random",
        ] {
            assert!(is_chess960_variant(tag), "{tag}");
        }
        for tag in ["Standard", "Crazyhouse", ""] {
            assert!(!is_chess960_variant(tag), "{tag}");
        }
    }
}
