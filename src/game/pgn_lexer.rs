//! Reading PGN as people and old programs write it: a streaming reader that
//! splits a file into games, each into its tag pairs and its movetext
//! tokens (moves are read by [`MoveText`]).
//!
//! Every limit is explicit: a game larger than [`MAX_GAME_BYTES`] is cut
//! there and says so, and a line is never held beyond [`MAX_LINE_BYTES`], so a
//! file without newlines or a game of millions of moves cannot exhaust memory.

use std::borrow::Cow;
use std::io::BufRead;

use super::movetext::MoveText;

/// A game's movetext beyond this many bytes is not read (the game keeps what
/// came before and says where it was cut). Real games, even heavily
/// annotated ones, stay far below a megabyte.
pub const MAX_GAME_BYTES: usize = 32 << 20;

/// A line is read up to this many bytes; the rest of the line is skipped.
pub const MAX_LINE_BYTES: usize = 4 << 20;

/// A stream that holds this many bytes of binary data (NUL and other control
/// bytes) before its first tag or move is not PGN, and reading stops.
pub const MAX_NON_TEXT_BEFORE_GAME: usize = 1 << 20;

/// A game's movetext beyond this many tokens is not read either: a token
/// costs memory even when its text is two bytes (`--`).
pub const MAX_GAME_TOKENS: usize = 1 << 20;

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
    /// Text of the game that was not read, and why (the game's moves may be
    /// incomplete; writing it back would lose that text).
    pub dropped: Vec<String>,
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

/// Splits a PGN stream into games. A UTF-8 byte-order mark at the start of a
/// line is skipped (files joined with `cat` carry one in the middle); lines
/// may end in LF, CRLF or CR alone (old Mac files); `%` escape lines and `;`
/// comments are accepted.
pub struct GameReader<R> {
    source: R,
    /// A line read past the end of the previous game (the next one's first
    /// tag line).
    pending: Option<Vec<u8>>,
    line: Vec<u8>,
    /// The last line ended with a CR: an LF right after it belongs to it.
    after_cr: bool,
    /// A tag or a move has been read: the stream is PGN.
    found_game: bool,
    /// Bytes that are not text (NUL and other control bytes) read before
    /// any game was found.
    non_text: usize,
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
            after_cr: false,
            found_game: false,
            non_text: 0,
        }
    }

    /// Skip the LF of a CRLF whose CR ended the last line.
    fn skip_lf_after_cr(&mut self) -> std::io::Result<()> {
        if !std::mem::take(&mut self.after_cr) {
            return Ok(());
        }
        loop {
            match self.source.fill_buf() {
                Ok(buffer) => {
                    if buffer.first() == Some(&b'\n') {
                        self.source.consume(1);
                    }
                    return Ok(());
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Count the non-text bytes of `chunk` while no game has been found,
    /// and give up when there are too many: a binary file or a pseudo-file
    /// such as `/proc/self/pagemap` would otherwise be read without end.
    fn check_text(found_game: bool, non_text: &mut usize, chunk: &[u8]) -> std::io::Result<()> {
        if found_game {
            return Ok(());
        }
        *non_text += chunk
            .iter()
            .filter(|&&b| (b < 0x20 && !b.is_ascii_whitespace() && b != 0x0b) || b == 0x7f)
            .count();
        if *non_text > MAX_NON_TEXT_BEFORE_GAME {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "no PGN game in its first {} MiB of binary data; it is not a PGN file",
                    MAX_NON_TEXT_BEFORE_GAME >> 20
                ),
            ));
        }
        Ok(())
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
        self.skip_lf_after_cr()?;
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
            let end = available.iter().position(|&b| b == b'\n' || b == b'\r');
            let (chunk, used, done) = match end {
                Some(at) => {
                    self.after_cr = available[at] == b'\r';
                    (&available[..at], at + 1, true)
                }
                None => (available, available.len(), false),
            };
            let room = MAX_LINE_BYTES.saturating_sub(self.line.len());
            if chunk.len() > room {
                cut = true;
            }
            self.line.extend_from_slice(&chunk[..chunk.len().min(room)]);
            let counted = Self::check_text(self.found_game, &mut self.non_text, chunk);
            self.source.consume(used);
            counted?;
            if done {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        if self.line.starts_with(&[0xEF, 0xBB, 0xBF]) {
            self.line.drain(..3);
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
                        let rest = parse_tags(line, &mut tags);
                        if !tags.is_empty() {
                            self.found_game = true;
                        }
                        if !rest.iter().all(u8::is_ascii_whitespace) {
                            let rest = lossy(rest);
                            let shown: String = rest.trim().chars().take(40).collect();
                            game.dropped.push(if tags.is_empty() {
                                format!("'{shown}' is not a tag pair and was not read")
                            } else {
                                format!("text after the tags on their line was not read: '{shown}'")
                            });
                        }
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
            self.found_game |= lexer.seen_move;
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

/// Bytes as text, invalid UTF-8 replaced. Most PGN is valid UTF-8, and
/// checking that is several times faster than the lossy conversion's own
/// walk, which is then needed only for the rest.
fn lossy(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// `[Name "value"]` pairs on one line (there may be several); `\"` and `\\`
/// are escapes inside the value. A quote that is not followed by the `]`
/// that closes the pair is part of the value when a closing quote and `]`
/// come later (`[Event ""Tageblatt","]`, as some programs write). Returns
/// what follows the last pair on the line.
fn parse_tags<'a>(line: &'a [u8], tags: &mut Vec<(String, String)>) -> &'a [u8] {
    let mut rest = line;
    loop {
        let start = rest.iter().position(|b| !b.is_ascii_whitespace());
        match start {
            Some(at) if rest[at] == b'[' => rest = &rest[at + 1..],
            _ => return rest,
        }
        let name_end = rest
            .iter()
            .position(|b| b.is_ascii_whitespace() || *b == b'"' || *b == b']')
            .unwrap_or(rest.len());
        // Tag names are letters, digits and `_+#=:-`, as the standard
        // says: `[package]` or `[target.'cfg(unix)']` is not a tag.
        let name = &rest[..name_end];
        let valid = name.first().is_some_and(u8::is_ascii_alphanumeric)
            && name
                .iter()
                .all(|&b| b.is_ascii_alphanumeric() || b"_+#=:-".contains(&b));
        if !valid {
            return line.get(line.len() - rest.len() - 1..).unwrap_or(&[]);
        }
        let name = lossy(name).into_owned();
        rest = &rest[name_end..];
        let Some(quote) = rest.iter().position(|&b| b == b'"') else {
            return &[];
        };
        rest = &rest[quote + 1..];
        // Found once per pair, so a line of many quotes stays linear.
        let last_close = last_closing_quote(rest);
        let mut value = Vec::new();
        let mut closed = false;
        let mut i = 0;
        while i < rest.len() {
            match rest[i] {
                b'\\' if i + 1 < rest.len() => {
                    value.push(rest[i + 1]);
                    i += 2;
                }
                b'"' if last_close.is_some_and(|at| i < at) && !closes_pair(&rest[i + 1..]) => {
                    value.push(b'"');
                    i += 1;
                }
                b'"' => {
                    closed = true;
                    i += 1;
                    // The pair's `]`.
                    let after = rest[i..]
                        .iter()
                        .take_while(|b| b.is_ascii_whitespace())
                        .count();
                    if rest.get(i + after) == Some(&b']') {
                        i += after + 1;
                    }
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
            tags.push((name, lossy(&value).into_owned()));
        }
        if !closed {
            return &[];
        }
    }
}

/// Whether `after` (the text after a quote) begins with the `]` that closes
/// a tag pair.
fn closes_pair(after: &[u8]) -> bool {
    after.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b']')
}

/// Where the last quote of `text` that is followed by `]` is.
fn last_closing_quote(text: &[u8]) -> Option<usize> {
    let bracket = text.iter().rposition(|&b| b == b']')?;
    let quote = text[..bracket]
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())?;
    (text[quote] == b'"').then_some(quote)
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
    /// Whether a word that reads as a move was seen.
    seen_move: bool,
}

impl Lexer {
    fn line(&mut self, line: &[u8], game: &mut RawGame) {
        // The line is made text once (its invalid bytes replaced), not
        // each word and comment on its own: checking UTF-8 word by word was
        // a sixth of the lexer's time. Every delimiter is ASCII, so the
        // words and comments cut from the text are those cut from the
        // bytes (cut at ASCII, always a character boundary), and their
        // invalid bytes are replaced as they were.
        let text = lossy(line);
        let text: &str = &text;
        let line = text.as_bytes();
        let mut i = 0;
        if let Some(start) = self.comment {
            match line.iter().position(|&b| b == b'}') {
                Some(end) => {
                    game.text.push_str(text.get(..end).unwrap_or_default());
                    game.tokens.push(Token::Comment(start..game.text.len()));
                    self.comment = None;
                    i = end + 1;
                }
                None => {
                    game.text.push_str(text);
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
                                .push_str(text.get(i + 1..i + 1 + len).unwrap_or_default());
                            game.tokens.push(Token::Comment(start..game.text.len()));
                            i += len + 2;
                        }
                        None => {
                            game.text.push_str(text.get(i + 1..).unwrap_or_default());
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
                    self.word(text.get(i..i + len).unwrap_or_default(), game);
                    i += len;
                }
            }
        }
    }

    /// A word of movetext: a move number, a result, a move, or something
    /// else (kept as unknown).
    fn word(&mut self, word: &str, game: &mut RawGame) {
        let mut text: &str = word;
        match text {
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
        // A move number, alone (`12.`, `12...`, `12`) or glued (`12.e4`);
        // `0000` is a null move, not a number.
        let digits = text.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && text != "0000" {
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
            Some(san) => {
                self.seen_move = true;
                Token::Move { text: range, san }
            }
            None => Token::Unknown(range),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// Invalid UTF-8 (a Latin-1 file) in a comment, a comment that runs
    /// over lines, a move and an unknown word is replaced character by
    /// character, and the words around it are read as ever.
    #[test]
    fn invalid_utf8_in_movetext_is_replaced_where_it_is() {
        let mut bytes = b"[Event \"x\"]\n\n1. e4 {caf\xe9} e5 {Sch\xe4fer\nzug\xfc} ".to_vec();
        bytes.extend_from_slice(b"2. Nf3 \xff\xfe 3. Bb5\xe9 *\n");
        let mut reader = GameReader::new(&bytes[..]);
        let game = reader.next_game().unwrap().unwrap();
        assert_eq!(
            words(&game),
            [
                "e4",
                "{caf\u{fffd}}",
                "e5",
                "{Sch\u{fffd}fer\nzug\u{fffd}}",
                "Nf3",
                "?\u{fffd}\u{fffd}",
                "?Bb5\u{fffd}",
                "*"
            ]
        );
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
