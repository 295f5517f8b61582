//! A position in plain words, for screen readers and the line mode: whose
//! turn it is, every piece by square, the last move, check, mate or
//! stalemate, castling rights, the clocks and the result. No drawing: the
//! board, the line mode and `kibitz describe` print the same lines.

use std::time::Duration;

use shakmaty::{Board, CastlingSide, Chess, Color, EnPassantMode, Move, Position, Role, Square};

use super::GameEnd;
use super::notation::{san_line, uci};

/// The pieces in the order a description lists them.
const ROLES: [Role; 6] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

/// "White" or "Black".
pub fn side_name(color: Color) -> &'static str {
    if color.is_white() { "White" } else { "Black" }
}

/// A piece's name in lower case: "knight".
pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::King => "king",
        Role::Queen => "queen",
        Role::Rook => "rook",
        Role::Bishop => "bishop",
        Role::Knight => "knight",
        Role::Pawn => "pawn",
    }
}

/// The name with its article: "a knight" (no piece's name needs "an").
fn with_article(role: Role) -> String {
    format!("a {}", role_name(role))
}

/// What a move does, in words, without the side that plays it: "knight
/// from g1 to f3", "pawn from e5 to d6, capturing the pawn on d5 en
/// passant", "pawn from e7 to e8, promoting to a queen", "castling
/// kingside".
pub fn move_words(m: Move) -> String {
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            let mut text = format!("{} from {from} to {to}", role_name(role));
            if let Some(taken) = capture {
                text.push_str(&format!(", capturing {}", with_article(taken)));
            }
            if let Some(new) = promotion {
                text.push_str(&format!(", promoting to {}", with_article(new)));
            }
            text
        }
        Move::EnPassant { from, to } => {
            // The captured pawn stands beside the mover, on the target's file.
            let taken = Square::from_coords(to.file(), from.rank());
            format!("pawn from {from} to {to}, capturing the pawn on {taken} en passant")
        }
        Move::Castle { .. } => format!("castling {}", castling_side(m)),
        Move::Put { role, to } => format!("{} dropped on {to}", role_name(role)),
    }
}

fn castling_side(m: Move) -> &'static str {
    match m.castling_side() {
        Some(CastlingSide::QueenSide) => "queenside",
        Some(CastlingSide::KingSide) | None => "kingside",
    }
}

/// A sentence (without the full stop) of `subject` playing `m`, with the
/// verbs for a move and for castling: `("White", "played", "castled")`
/// gives "White played knight from g1 to f3" or "White castled kingside".
pub fn move_sentence(subject: &str, play: &str, castle: &str, m: Move) -> String {
    if m.is_castle() {
        format!("{subject} {castle} {}", castling_side(m))
    } else {
        format!("{subject} {play} {}", move_words(m))
    }
}

/// How the position stands by the rules alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Normal,
    Check,
    Checkmate,
    Stalemate,
    /// Neither side has the material to mate.
    InsufficientMaterial,
}

impl Status {
    pub fn of(position: &Chess) -> Status {
        if position.is_checkmate() {
            Status::Checkmate
        } else if position.is_stalemate() {
            Status::Stalemate
        } else if position.is_check() {
            Status::Check
        } else if position.is_insufficient_material() {
            Status::InsufficientMaterial
        } else {
            Status::Normal
        }
    }

    /// The word for JSON: `normal`, `check`, `checkmate`, ...
    pub fn code(self) -> &'static str {
        match self {
            Status::Normal => "normal",
            Status::Check => "check",
            Status::Checkmate => "checkmate",
            Status::Stalemate => "stalemate",
            Status::InsufficientMaterial => "insufficient_material",
        }
    }
}

/// The move that led to the position described.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LastMove {
    pub mover: Color,
    pub san: String,
    pub uci: String,
    /// The move in words, with its side: "Black played knight from g8
    /// to f6", "White castled kingside".
    pub words: String,
}

impl LastMove {
    /// `m` played in `before`.
    pub fn new(before: &Chess, m: Move) -> LastMove {
        LastMove {
            mover: before.turn(),
            san: san_line(before, &[m]).join(""),
            uci: uci(m),
            words: move_sentence(side_name(before.turn()), "played", "castled", m),
        }
    }
}

/// One side's pieces: each kind present, with its squares.
pub type Army = Vec<(Role, Vec<Square>)>;

/// Everything a description says, before it is put into words.
#[derive(Debug, Clone, PartialEq)]
pub struct Description {
    pub side_to_move: Color,
    /// The move number (1 at the start, up by one after Black moves).
    pub move_number: u32,
    pub white: Army,
    pub black: Army,
    pub last_move: Option<LastMove>,
    pub status: Status,
    /// Castling rights still held (not whether castling is legal now).
    pub castling: Vec<(Color, CastlingSide)>,
    /// The square a pawn may capture en passant now.
    pub en_passant: Option<Square>,
    /// The clocks (White, Black), when the game is timed.
    pub clocks: Option<(Duration, Duration)>,
    /// How the game ended, when it did.
    pub end: Option<GameEnd>,
}

/// A side's pieces by kind, each kind's squares by file, then rank.
fn army(board: &Board, color: Color) -> Army {
    ROLES
        .iter()
        .filter_map(|&role| {
            let mut squares: Vec<Square> = board.by_piece(role.of(color)).into_iter().collect();
            squares.sort_by_key(|s| (s.file(), s.rank()));
            (!squares.is_empty()).then_some((role, squares))
        })
        .collect()
}

impl Description {
    /// The position alone; add the last move, clocks and end with the
    /// builder methods.
    pub fn new(position: &Chess) -> Description {
        let board = position.board();
        let castles = position.castles();
        let castling = [Color::White, Color::Black]
            .into_iter()
            .flat_map(|color| {
                [CastlingSide::KingSide, CastlingSide::QueenSide]
                    .into_iter()
                    .filter(move |&side| castles.has(color, side))
                    .map(move |side| (color, side))
            })
            .collect();
        Description {
            side_to_move: position.turn(),
            move_number: position.fullmoves().get(),
            white: army(board, Color::White),
            black: army(board, Color::Black),
            last_move: None,
            status: Status::of(position),
            castling,
            en_passant: position.ep_square(EnPassantMode::Legal),
            clocks: None,
            end: None,
        }
    }

    /// The move `m`, played in `before`, led here.
    pub fn with_last_move(mut self, before: &Chess, m: Move) -> Description {
        self.last_move = Some(LastMove::new(before, m));
        self
    }

    pub fn with_clocks(mut self, clocks: Option<(Duration, Duration)>) -> Description {
        self.clocks = clocks;
        self
    }

    pub fn with_end(mut self, end: Option<GameEnd>) -> Description {
        self.end = end;
        self
    }

    /// The first lines of [`Description::lines`]: the move number and
    /// whose move it is, and the last move if there is one.
    pub fn turn_lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        lines.push(match self.end {
            Some(_) => format!("Move {}. The game is over.", self.move_number),
            None => format!(
                "Move {}, {} to move.",
                self.move_number,
                side_name(self.side_to_move)
            ),
        });
        if let Some(last) = &self.last_move {
            lines.push(format!("Last move: {} ({}).", last.words, last.san));
        }
        lines
    }

    /// The description as plain lines, to be read top to bottom.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = self.turn_lines();
        let turn = side_name(self.side_to_move);
        lines.push(format!("White: {}.", army_words(&self.white)));
        lines.push(format!("Black: {}.", army_words(&self.black)));
        match self.status {
            Status::Normal => {}
            Status::Check => lines.push(format!("{turn} is in check.")),
            Status::Checkmate => lines.push(format!(
                "Checkmate: {} wins.",
                side_name(!self.side_to_move)
            )),
            Status::Stalemate => lines.push(format!("Stalemate: {turn} has no legal move.")),
            Status::InsufficientMaterial => {
                lines.push("Neither side has the material to mate.".into());
            }
        }
        if let Some(square) = self.en_passant {
            lines.push(format!("En passant capture possible on {square}."));
        }
        if !self.castling.is_empty() {
            lines.push(format!("Castling rights: {}.", self.castling_words()));
        }
        if let Some((white, black)) = self.clocks {
            lines.push(format!(
                "Clocks: White {}, Black {}.",
                duration_words(white),
                duration_words(black)
            ));
        }
        if let Some(end) = self.end {
            lines.push(format!("Result: {}, {}.", end.result(), end.describe()));
        }
        lines
    }

    /// The sides `color` may still castle to: "kingside", "queenside".
    pub fn castling_sides(&self, color: Color) -> Vec<&'static str> {
        self.castling
            .iter()
            .filter(|(c, _)| *c == color)
            .map(|(_, side)| match side {
                CastlingSide::KingSide => "kingside",
                CastlingSide::QueenSide => "queenside",
            })
            .collect()
    }

    /// "White kingside and queenside, Black kingside".
    pub fn castling_words(&self) -> String {
        [Color::White, Color::Black]
            .into_iter()
            .filter_map(|color| {
                let sides = self.castling_sides(color);
                (!sides.is_empty()).then(|| format!("{} {}", side_name(color), sides.join(" and ")))
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// "king g1, queen d1, rooks a1 f1, pawns a2 b2"; "no pieces" for none.
pub fn army_words(army: &Army) -> String {
    if army.is_empty() {
        return "no pieces".into();
    }
    army.iter()
        .map(|(role, squares)| {
            let name = role_name(*role);
            let plural = if squares.len() > 1 { "s" } else { "" };
            let squares: Vec<String> = squares.iter().map(ToString::to_string).collect();
            format!("{name}{plural} {}", squares.join(" "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A clock reading in words: "4 minutes 32 seconds", "59.5 seconds" under
/// a minute (where tenths matter), "1 hour 2 minutes".
pub fn duration_words(time: Duration) -> String {
    let unit = |n: u64, word: &str| {
        let plural = if n == 1 { "" } else { "s" };
        format!("{n} {word}{plural}")
    };
    let total = time.as_secs();
    if total < 60 {
        let tenths = time.as_millis() / 100;
        return if tenths.is_multiple_of(10) {
            unit(total, "second")
        } else {
            format!("{}.{} seconds", tenths / 10, tenths % 10)
        };
    }
    let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60);
    let mut parts = Vec::new();
    if hours > 0 {
        parts.push(unit(hours, "hour"));
    }
    if minutes > 0 {
        parts.push(unit(minutes, "minute"));
    }
    if seconds > 0 {
        parts.push(unit(seconds, "second"));
    }
    parts.join(" ")
}

/// The board as text with letters (upper case White, `.` empty), rank 8 at
/// the top, or rank 1 when `flipped`, with file and rank labels.
pub fn diagram(position: &Chess, flipped: bool) -> String {
    let board = position.board();
    let files: Vec<u32> = if flipped {
        (0..8).rev().collect()
    } else {
        (0..8).collect()
    };
    let ranks: Vec<u32> = if flipped {
        (0..8).collect()
    } else {
        (0..8).rev().collect()
    };
    let letters: String = files
        .iter()
        .map(|&f| format!(" {}", char::from(b'a' + f as u8)))
        .collect();
    let mut text = String::new();
    for &rank in &ranks {
        text.push_str(&format!("{} ", rank + 1));
        for &file in &files {
            let square = Square::from_coords(shakmaty::File::new(file), shakmaty::Rank::new(rank));
            let c = board.piece_at(square).map_or('.', |p| p.char());
            text.push(' ');
            text.push(c);
        }
        text.push('\n');
    }
    text.push_str(&format!("  {letters}\n"));
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::fen::parse_fen;
    use crate::game::notation::parse_move;

    fn after(fen: Option<&str>, moves: &str) -> (Chess, Option<(Chess, Move)>) {
        let mut position = fen.map_or_else(Chess::default, |f| parse_fen(f).unwrap());
        let mut last = None;
        for text in moves.split_whitespace() {
            let m = parse_move(&position, text).unwrap();
            last = Some((position.clone(), m));
            position.play_unchecked(m);
        }
        (position, last)
    }

    fn describe(fen: Option<&str>, moves: &str) -> Vec<String> {
        let (position, last) = after(fen, moves);
        let mut description = Description::new(&position);
        if let Some((before, m)) = last {
            description = description.with_last_move(&before, m);
        }
        description.lines()
    }

    #[test]
    fn the_start_position() {
        let lines = describe(None, "");
        assert_eq!(
            lines,
            [
                "Move 1, White to move.",
                "White: king e1, queen d1, rooks a1 h1, bishops c1 f1, knights b1 g1, pawns a2 b2 c2 d2 e2 f2 g2 h2.",
                "Black: king e8, queen d8, rooks a8 h8, bishops c8 f8, knights b8 g8, pawns a7 b7 c7 d7 e7 f7 g7 h7.",
                "Castling rights: White kingside and queenside, Black kingside and queenside.",
            ]
        );
    }

    #[test]
    fn a_capture_and_whose_turn() {
        let lines = describe(None, "e4 d5 exd5 Nf6");
        assert_eq!(lines[0], "Move 3, White to move.");
        assert_eq!(
            lines[1],
            "Last move: Black played knight from g8 to f6 (Nf6)."
        );
        let (position, last) = after(None, "e4 d5 exd5");
        let (_, m) = last.unwrap();
        assert_eq!(move_words(m), "pawn from e4 to d5, capturing a pawn");
        assert_eq!(Description::new(&position).side_to_move, Color::Black);
    }

    #[test]
    fn check_and_checkmate() {
        let lines = describe(None, "e4 f5 Qh5+");
        assert!(
            lines.contains(&"Black is in check.".to_string()),
            "{lines:?}"
        );
        let lines = describe(None, "f3 e5 g4 Qh4#");
        assert!(
            lines.contains(&"Checkmate: Black wins.".to_string()),
            "{lines:?}"
        );
        assert!(
            lines[1].ends_with("queen from d8 to h4 (Qh4#)."),
            "{lines:?}"
        );
        let mate = after(None, "f3 e5 g4 Qh4#").0;
        assert_eq!(Status::of(&mate), Status::Checkmate);
    }

    #[test]
    fn stalemate_and_bare_kings() {
        let lines = describe(Some("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), "");
        assert!(
            lines.contains(&"Stalemate: Black has no legal move.".to_string()),
            "{lines:?}"
        );
        assert!(!lines.iter().any(|l| l.starts_with("Castling")));
        let lines = describe(Some("8/8/4k3/8/8/3K4/8/8 w - - 0 1"), "");
        assert_eq!(lines[1], "White: king d3.");
        assert!(lines.contains(&"Neither side has the material to mate.".to_string()));
    }

    #[test]
    fn castling_en_passant_and_promotion_in_words() {
        let (_, last) = after(Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"), "O-O");
        let (_, m) = last.unwrap();
        assert_eq!(move_words(m), "castling kingside");
        assert_eq!(
            move_sentence("kibitz", "plays", "castles", m),
            "kibitz castles kingside"
        );
        let lines = describe(Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"), "O-O-O");
        assert_eq!(lines[1], "Last move: White castled queenside (O-O-O).");
        assert!(lines.contains(&"Castling rights: Black kingside and queenside.".to_string()));

        let (position, _) = after(None, "e4 a6 e5 d5");
        let lines = Description::new(&position).lines();
        assert!(lines.contains(&"En passant capture possible on d6.".to_string()));
        let (_, last_ep) = after(None, "e4 a6 e5 d5 exd6");
        let (_, m) = last_ep.unwrap();
        assert_eq!(
            move_words(m),
            "pawn from e5 to d6, capturing the pawn on d5 en passant"
        );

        let (_, last) = after(Some("1r5k/P7/8/8/8/8/8/K7 w - - 0 1"), "axb8=Q");
        let (_, m) = last.unwrap();
        assert_eq!(
            move_words(m),
            "pawn from a7 to b8, capturing a rook, promoting to a queen"
        );
    }

    #[test]
    fn clocks_and_result() {
        let (position, _) = after(None, "f3 e5 g4 Qh4#");
        let lines = Description::new(&position)
            .with_clocks(Some((
                Duration::from_secs(272),
                Duration::from_millis(9_500),
            )))
            .with_end(Some(GameEnd::Checkmate {
                winner: Color::Black,
            }))
            .lines();
        assert_eq!(lines[0], "Move 3. The game is over.");
        assert!(
            lines.contains(&"Clocks: White 4 minutes 32 seconds, Black 9.5 seconds.".to_string())
        );
        assert_eq!(
            lines.last().unwrap(),
            "Result: 0-1, Black wins by checkmate."
        );
        assert_eq!(
            duration_words(Duration::from_secs(3720)),
            "1 hour 2 minutes"
        );
        assert_eq!(duration_words(Duration::from_secs(60)), "1 minute");
        assert_eq!(duration_words(Duration::ZERO), "0 seconds");
    }

    #[test]
    fn a_diagram_with_letters() {
        let (position, _) = after(None, "e4");
        let text = diagram(&position, false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "8  r n b q k b n r");
        assert_eq!(lines[4], "4  . . . . P . . .");
        assert_eq!(lines[8], "   a b c d e f g h");
        let flipped = diagram(&position, true);
        assert!(flipped.starts_with("1  R N B K Q B N R"), "{flipped}");
        assert!(flipped.ends_with("   h g f e d c b a\n"));
    }
}
