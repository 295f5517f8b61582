//! Reading PGN as people and old programs write it: a streaming reader that
//! splits a file into games, each into its tag pairs and its movetext
//! tokens, and a lenient move reader for the movetext.
//!
//! The PGN standard's export format is strict, but files in the wild are not:
//! checks written `++`, promotions without `=` (`d1Q`), castling with zeros,
//! `e.p.` after an en-passant capture, NAGs glued to the move (`Nf3!?`), an
//! `x` where nothing is captured, moves in UCI or long algebraic notation.
//! This reader accepts what python-chess accepts (the reference most tools
//! agree with): it reads the move from its piece, disambiguation, target
//! square and promotion, and ignores the decoration around them.
//!
//! Every limit is explicit: a game larger than [`MAX_GAME_BYTES`] is cut
//! there and says so, and a line is never held beyond [`MAX_LINE_BYTES`], so a
//! file without newlines or a game of millions of moves cannot exhaust memory.

use std::io::BufRead;

use shakmaty::{CastlingSide, Chess, File, Move, Position, Rank, Role, Square};

/// A game's movetext beyond this many bytes is not read (the game keeps what
/// came before and says where it was cut). Real games, even heavily
/// annotated ones, stay far below a megabyte.
pub const MAX_GAME_BYTES: usize = 32 << 20;

/// A line is read up to this many bytes; the rest of the line is skipped.
pub const MAX_LINE_BYTES: usize = 4 << 20;

/// A game's movetext beyond this many tokens is not read either: a token
/// costs memory even when its text is two bytes (`--`).
pub const MAX_GAME_TOKENS: usize = 1 << 20;

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
        let mut text = word;
        // Decoration after the move: en passant marks, then check and mate
        // marks in any number (`++` is an old way to write double check).
        for suffix in ["e.p.", "ep"] {
            if let Some(stripped) = text.strip_suffix(suffix)
                && stripped.len() >= 2
            {
                text = stripped;
                break;
            }
        }
        text = text.trim_end_matches(['+', '#', '\u{2020}', '\u{2021}']);
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
        match self {
            MoveText::Null => Err(MoveProblem::Illegal),
            MoveText::Castle(side) => position
                .legal_moves()
                .into_iter()
                .find(|m| m.castling_side() == Some(side))
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
                for m in position.san_candidates(role, to) {
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
                found.ok_or(MoveProblem::Illegal)
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

/// One movetext token. Text is kept as a range into [`RawGame::text`], so a
/// game costs one string however many moves it has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Token {
    /// A move: how it was written and what was read from it.
    Move {
        text: std::ops::Range<usize>,
        san: MoveText,
    },
    /// A word that is not a move, a move number or a result (kept so the
    /// reader can say it skipped it).
    Unknown(std::ops::Range<usize>),
    Nag(u8),
    Comment(std::ops::Range<usize>),
    /// `(`: a variation begins.
    Open,
    /// `)`: it ends.
    Close,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    Result(&'static str),
}

/// One game as read: tag pairs in order and movetext tokens.
#[derive(Debug, Clone, Default)]
pub struct RawGame {
    pub tags: Vec<(String, String)>,
    pub tokens: Vec<Token>,
    /// The text of moves and comments; tokens point into it.
    pub text: String,
    /// Set when the game was cut at [`MAX_GAME_BYTES`] or a line at
    /// [`MAX_LINE_BYTES`].
    pub truncated: Option<String>,
}

impl RawGame {
    pub fn slice(&self, range: &std::ops::Range<usize>) -> &str {
        self.text.get(range.clone()).unwrap_or("")
    }

    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Splits a PGN stream into games. A UTF-8 byte-order mark at the start is
/// skipped; CRLF line ends, `%` escape lines and `;` comments are accepted.
pub struct GameReader<R> {
    source: R,
    /// A line read past the end of the previous game (the next one's first
    /// tag line).
    pending: Option<Vec<u8>>,
    line: Vec<u8>,
    started: bool,
}

/// Where the reader is inside a game.
#[derive(PartialEq, Eq)]
enum Phase {
    /// Nothing of the game seen yet.
    Before,
    Tags,
    Movetext,
}

impl<R: BufRead> GameReader<R> {
    pub fn new(source: R) -> GameReader<R> {
        GameReader {
            source,
            pending: None,
            line: Vec::new(),
            started: false,
        }
    }

    /// Read one line into `self.line` (without its end), at most
    /// [`MAX_LINE_BYTES`] of it. Returns false at the end of the stream and
    /// whether the line was cut.
    fn next_line(&mut self) -> std::io::Result<Option<bool>> {
        self.line.clear();
        if let Some(line) = self.pending.take() {
            self.line = line;
            return Ok(Some(false));
        }
        let mut cut = false;
        let mut any = false;
        loop {
            let available = match self.source.fill_buf() {
                Ok(buffer) => buffer,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                break;
            }
            any = true;
            let (chunk, used, done) = match available.iter().position(|&b| b == b'\n') {
                Some(at) => (&available[..at], at + 1, true),
                None => (available, available.len(), false),
            };
            let room = MAX_LINE_BYTES.saturating_sub(self.line.len());
            if chunk.len() > room {
                cut = true;
            }
            self.line.extend_from_slice(&chunk[..chunk.len().min(room)]);
            self.source.consume(used);
            if done {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        if !self.started {
            self.started = true;
            if self.line.starts_with(&[0xEF, 0xBB, 0xBF]) {
                self.line.drain(..3);
            }
        }
        if self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        Ok(Some(cut))
    }

    /// The next game, or `None` at the end of the stream.
    pub fn next_game(&mut self) -> std::io::Result<Option<RawGame>> {
        let mut game = RawGame::default();
        let mut phase = Phase::Before;
        let mut lexer = Lexer::default();
        // Past the game's size limit: lines are read to find its end, not
        // kept.
        let mut full = false;
        let mut blank_after_tags = false;
        while let Some(cut) = self.next_line()? {
            if cut && game.truncated.is_none() {
                game.truncated = Some(format!(
                    "a line longer than {} MiB was cut there",
                    MAX_LINE_BYTES >> 20
                ));
            }
            let line = &self.line;
            if lexer.comment.is_none() {
                if line.first() == Some(&b'%') {
                    continue;
                }
                let blank = line.iter().all(u8::is_ascii_whitespace);
                let tag_line = line.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[');
                match phase {
                    Phase::Before | Phase::Tags if blank => {
                        blank_after_tags = phase == Phase::Tags;
                        continue;
                    }
                    Phase::Before | Phase::Tags if tag_line => {
                        let mut tags = Vec::new();
                        parse_tags(line, &mut tags);
                        // After a blank line, a tag the game already has
                        // begins the next game (a game without movetext,
                        // then the next one's tags).
                        if blank_after_tags && tags.iter().any(|(name, _)| game.tag(name).is_some())
                        {
                            self.pending = Some(std::mem::take(&mut self.line));
                            break;
                        }
                        game.tags.extend(tags);
                        phase = Phase::Tags;
                        continue;
                    }
                    Phase::Movetext if tag_line => {
                        self.pending = Some(std::mem::take(&mut self.line));
                        break;
                    }
                    Phase::Movetext if blank && lexer.seen_content => break,
                    _ => phase = Phase::Movetext,
                }
            }
            if full {
                continue;
            }
            lexer.line(line, &mut game);
            if game.text.len() >= MAX_GAME_BYTES || game.tokens.len() >= MAX_GAME_TOKENS {
                full = true;
                game.truncated = Some(format!(
                    "the game is larger than {} MiB or {} tokens; the rest was not read",
                    MAX_GAME_BYTES >> 20,
                    MAX_GAME_TOKENS
                ));
            }
        }
        if let Some(comment) = lexer.comment.take() {
            // A comment left open at the end keeps its text.
            game.tokens.push(Token::Comment(comment..game.text.len()));
        }
        if phase == Phase::Before {
            return Ok(None);
        }
        Ok(Some(game))
    }

    /// Skip one game without keeping it; false at the end of the stream.
    pub fn skip_game(&mut self) -> std::io::Result<bool> {
        Ok(self.next_game()?.is_some())
    }
}

/// `[Name "value"]` pairs on one line (there may be several); `\"` and `\\`
/// are escapes inside the value.
fn parse_tags(line: &[u8], tags: &mut Vec<(String, String)>) {
    let mut rest = line;
    while let Some(open) = rest.iter().position(|&b| b == b'[') {
        rest = &rest[open + 1..];
        let name_end = rest
            .iter()
            .position(|b| b.is_ascii_whitespace() || *b == b'"' || *b == b']')
            .unwrap_or(rest.len());
        let name = String::from_utf8_lossy(&rest[..name_end]).into_owned();
        rest = &rest[name_end..];
        let Some(quote) = rest.iter().position(|&b| b == b'"') else {
            break;
        };
        rest = &rest[quote + 1..];
        let mut value = Vec::new();
        let mut closed = false;
        let mut i = 0;
        while i < rest.len() {
            match rest[i] {
                b'\\' if i + 1 < rest.len() => {
                    value.push(rest[i + 1]);
                    i += 2;
                }
                b'"' => {
                    closed = true;
                    i += 1;
                    break;
                }
                b => {
                    value.push(b);
                    i += 1;
                }
            }
        }
        rest = &rest[i..];
        if !name.is_empty() {
            tags.push((name, String::from_utf8_lossy(&value).into_owned()));
        }
        if !closed {
            break;
        }
    }
}

/// Movetext state that lasts across lines: an open comment.
#[derive(Default)]
struct Lexer {
    /// Start (in the game's text) of a comment still open at the end of a
    /// line.
    comment: Option<usize>,
    /// Whether any movetext token was seen (a blank line ends the movetext
    /// only after it began).
    seen_content: bool,
}

impl Lexer {
    fn line(&mut self, line: &[u8], game: &mut RawGame) {
        let mut i = 0;
        if let Some(start) = self.comment {
            match line.iter().position(|&b| b == b'}') {
                Some(end) => {
                    game.text.push_str(&String::from_utf8_lossy(&line[..end]));
                    game.tokens.push(Token::Comment(start..game.text.len()));
                    self.comment = None;
                    i = end + 1;
                }
                None => {
                    game.text.push_str(&String::from_utf8_lossy(line));
                    game.text.push('\n');
                    return;
                }
            }
        }
        while i < line.len() {
            let b = line[i];
            match b {
                b'{' => {
                    self.seen_content = true;
                    let start = game.text.len();
                    match line[i + 1..].iter().position(|&c| c == b'}') {
                        Some(len) => {
                            game.text
                                .push_str(&String::from_utf8_lossy(&line[i + 1..i + 1 + len]));
                            game.tokens.push(Token::Comment(start..game.text.len()));
                            i += len + 2;
                        }
                        None => {
                            game.text.push_str(&String::from_utf8_lossy(&line[i + 1..]));
                            game.text.push('\n');
                            self.comment = Some(start);
                            return;
                        }
                    }
                }
                b';' => return,
                b'(' => {
                    self.seen_content = true;
                    game.tokens.push(Token::Open);
                    i += 1;
                }
                b')' => {
                    game.tokens.push(Token::Close);
                    i += 1;
                }
                b'*' => {
                    self.seen_content = true;
                    game.tokens.push(Token::Result("*"));
                    i += 1;
                }
                b'$' => {
                    let digits = line[i + 1..]
                        .iter()
                        .take_while(|c| c.is_ascii_digit())
                        .count();
                    let number = std::str::from_utf8(&line[i + 1..i + 1 + digits])
                        .ok()
                        .and_then(|d| d.parse::<u8>().ok());
                    if let Some(nag) = number {
                        game.tokens.push(Token::Nag(nag));
                    }
                    i += 1 + digits;
                }
                b'!' | b'?' => {
                    let second = line.get(i + 1).copied();
                    let (nag, len) = match (b, second) {
                        (b'!', Some(b'!')) => (3, 2),
                        (b'?', Some(b'?')) => (4, 2),
                        (b'!', Some(b'?')) => (5, 2),
                        (b'?', Some(b'!')) => (6, 2),
                        (b'!', _) => (1, 1),
                        _ => (2, 1),
                    };
                    game.tokens.push(Token::Nag(nag));
                    i += len;
                }
                _ if b.is_ascii_whitespace() => i += 1,
                _ => {
                    let len = line[i..]
                        .iter()
                        .position(|&c| {
                            c.is_ascii_whitespace()
                                || matches!(
                                    c,
                                    b'{' | b'}' | b'(' | b')' | b'$' | b';' | b'!' | b'?' | b'*'
                                )
                        })
                        .unwrap_or(line.len() - i);
                    let len = len.max(1);
                    self.word(&line[i..i + len], game);
                    i += len;
                }
            }
        }
    }

    /// A word of movetext: a move number, a result, a move, or something
    /// else (kept as unknown).
    fn word(&mut self, word: &[u8], game: &mut RawGame) {
        let word = String::from_utf8_lossy(word);
        let mut text: &str = &word;
        match text {
            "0000" => {
                // A null move, not a move number.
                self.seen_content = true;
                let start = game.text.len();
                game.text.push_str(text);
                let text = start..game.text.len();
                game.tokens.push(Token::Move {
                    text,
                    san: MoveText::Null,
                });
                return;
            }
            "1-0" | "0-1" | "1/2-1/2" | "\u{bd}-\u{bd}" => {
                self.seen_content = true;
                let result = match text {
                    "1-0" => "1-0",
                    "0-1" => "0-1",
                    _ => "1/2-1/2",
                };
                game.tokens.push(Token::Result(result));
                return;
            }
            _ => {}
        }
        // A move number, alone (`12.`, `12...`, `12`) or glued (`12.e4`).
        let digits = text.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 {
            let after = &text[digits..];
            let dots = after.bytes().take_while(|&c| c == b'.').count();
            if after.is_empty() || dots > 0 {
                text = &after[dots..];
            }
        }
        let text = text.trim_start_matches(['.', '\u{2026}']);
        if text.is_empty() {
            return;
        }
        self.seen_content = true;
        let start = game.text.len();
        game.text.push_str(text);
        let range = start..game.text.len();
        game.tokens.push(match MoveText::parse(text) {
            Some(san) => Token::Move { text: range, san },
            None => Token::Unknown(range),
        });
    }
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

    fn games(text: &str) -> Vec<RawGame> {
        let mut reader = GameReader::new(text.as_bytes());
        let mut out = Vec::new();
        while let Some(game) = reader.next_game().unwrap() {
            out.push(game);
        }
        out
    }

    fn words(game: &RawGame) -> Vec<String> {
        game.tokens
            .iter()
            .map(|t| match t {
                Token::Move { text, .. } => game.slice(text).to_string(),
                Token::Unknown(r) => format!("?{}", game.slice(r)),
                Token::Nag(n) => format!("${n}"),
                Token::Comment(r) => format!("{{{}}}", game.slice(r)),
                Token::Open => "(".into(),
                Token::Close => ")".into(),
                Token::Result(r) => (*r).to_string(),
            })
            .collect()
    }

    #[test]
    fn tokens_of_hand_written_movetext() {
        let text = "\u{feff}[Event \"a \\\"b\\\"\"] [Site \"x\"]\r\n\r\n1.e4 e5!? 2. Nf3?? {a\n\nb} (2. Qh5+ ; rest\n% escape\n2...Nc6) 3.Bb5 $14 1-0\n\n[Event \"two\"]\n1. d4 *\n";
        let games = games(text);
        assert_eq!(games.len(), 2);
        assert_eq!(
            games[0].tags,
            vec![
                ("Event".into(), "a \"b\"".into()),
                ("Site".into(), "x".into())
            ]
        );
        assert_eq!(
            words(&games[0]),
            [
                "e4", "e5", "$5", "Nf3", "$4", "{a\n\nb}", "(", "Qh5+", "Nc6", ")", "Bb5", "$14",
                "1-0"
            ]
        );
        assert_eq!(words(&games[1]), ["d4", "*"]);
    }

    #[test]
    fn game_boundaries_blank_lines_and_empty_games() {
        // A blank line inside the tags does not end the game; one after the
        // movetext does; a tag line right after movetext starts a new game.
        let text = "[Event \"A\"]\n\n[Round \"1\"]\n\n1. e4\n\n[Event \"B\"]\n\n[Event \"C\"]\n1. d4\n[Event \"D\"]\n1. c4\n";
        let games = games(text);
        let events: Vec<_> = games.iter().map(|g| g.tag("Event").unwrap_or("")).collect();
        assert_eq!(events, ["A", "B", "C", "D"]);
        assert_eq!(games[0].tag("Round"), Some("1"));
        assert_eq!(words(&games[1]), Vec::<String>::new());
        assert_eq!(words(&games[2]), ["d4"]);
        assert!(
            super::GameReader::new(&b""[..])
                .next_game()
                .unwrap()
                .is_none()
        );
        assert!(
            super::GameReader::new(&b"\n\n  \n"[..])
                .next_game()
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn an_unclosed_comment_keeps_its_text_and_a_huge_line_is_cut() {
        let games = games("1. e4 { never closed\nstill comment");
        assert_eq!(words(&games[0]), ["e4", "{ never closed\nstill comment\n}"]);
        let long = format!("1. e4 {}", "a".repeat(MAX_LINE_BYTES + 10));
        let mut reader = GameReader::new(long.as_bytes());
        let game = reader.next_game().unwrap().unwrap();
        assert!(game.truncated.is_some());
        assert!(game.text.len() <= MAX_LINE_BYTES);
    }
}
