//! Reading PGN games: [`read_games`] and [`read_game_at`] stream them, and
//! [`build`] makes a [`GameTree`] from a game's movetext tokens.
//!
//! The tree keeps the game exactly as written: every move becomes a node of
//! its own, so a variation that starts with the game's own move
//! (`5. Qh5+ (5. Qh5+ g6 6. Nxg6)`, as annotators write to show what would
//! follow) stays a variation beside the main line instead of merging into
//! it. Reading is linear in the length of the movetext however deep the
//! variations nest or however many null moves there are: the position is
//! carried along, never replayed from the start.

use std::io::{BufReader, Read};

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode};

use super::chess960;
use super::movetext::{MoveProblem, MoveText};
use super::pgn::Headers;
use super::pgn_lexer::{GameReader, RawGame, Token};
use super::tree::{GameTree, MoveError, Problem, pass};

/// Variations nested deeper than this are skipped (with a note): no real
/// annotation nests a tenth as deep, and each level costs a saved position.
pub const MAX_VARIATION_DEPTH: usize = 256;

/// A game stops growing at this many moves (main line and variations
/// together); the longest possible chess game has under 9,000 moves a side.
pub const MAX_NODES: usize = 500_000;

/// At most this many notes about skipped text are kept per game.
const MAX_NOTES: usize = 20;

/// Where the reader stands on one line of the game.
struct Line {
    /// The node new moves attach to.
    at: usize,
    /// The position at `at`.
    position: Chess,
    /// The position before `at`'s move, when known (a variation that
    /// replaces that move starts from it).
    before: Option<Chess>,
    /// Plies from the start to `at`.
    ply: usize,
    /// A variation whose first move is still to come: a comment here is
    /// said before that move (the variation's starting comment).
    opening: bool,
}

/// Read state of one game.
struct Builder {
    tree: GameTree,
    game: usize,
    line: Line,
    /// The lines to return to at each `)`.
    stack: Vec<Line>,
    /// Tokens are being skipped: how many `(` deep inside the skipped part
    /// (0 = the skip ends at the next `)`), and whether that `)` also ends a
    /// variation that was entered (a skip after an unreadable move) rather
    /// than one skipped whole at its `(`.
    skip: Option<(usize, bool)>,
    /// The main line hit an unreadable move: the rest is not read.
    stopped: bool,
    skipped_notes: usize,
    /// Comments at the start of a variation, for its first move.
    starting_comments: Vec<String>,
    /// The index of the token being read.
    index: usize,
    /// Where the main line stopped at an unreadable move: its token, the
    /// node before it and its ply. The rest of the movetext is kept there
    /// as a comment.
    unread: Option<Unread>,
    /// The same for the variation being skipped after an unreadable move.
    unread_variation: Option<Unread>,
}

/// Movetext the reader could not follow, from the token where it stopped.
#[derive(Debug, Clone, Copy)]
struct Unread {
    token: usize,
    node: usize,
    ply: usize,
}

/// What a comment holding movetext that could not be read starts with.
pub const UNREAD_PREFIX: &str = "kibitz could not read these moves, kept as text:";

impl Builder {
    /// Text of the game that is skipped: a note, and the tree records that
    /// it is not whole.
    fn drop_text(&mut self, text: String) {
        if self.tree.dropped.is_none() {
            self.tree.dropped = Some(text.clone());
        }
        self.note(text);
    }

    fn note(&mut self, text: String) {
        if self.tree.notes.len() < MAX_NOTES {
            self.tree.notes.push(text);
        } else {
            self.skipped_notes += 1;
        }
    }

    fn fail(&mut self, ply: usize, text: &str, problem: Problem) {
        let error = MoveError {
            game: self.game,
            ply,
            text: text.to_string(),
            problem,
        };
        // The first problem is the game's error; later ones are notes.
        match self.tree.error {
            None => self.tree.error = Some(error),
            Some(_) => self.note(error.to_string()),
        }
        let unread = Unread {
            token: self.index,
            node: self.line.at,
            ply,
        };
        if !self.in_variation() {
            self.stopped = true;
            self.unread.get_or_insert(unread);
        } else {
            // Only the rest of this variation is not read; the line it
            // hangs from goes on after its `)`.
            self.skip = Some((0, true));
            self.unread_variation = Some(unread);
        }
    }

    /// Keep the tokens from `unread.token` up to `end` as a comment on the
    /// node where reading stopped, written back as movetext (move numbers
    /// included), so that writing the game back loses none of it.
    fn keep_unread(&mut self, raw: &RawGame, unread: Unread, end: usize) {
        let tokens = raw.tokens.get(unread.token..end).unwrap_or_default();
        // A `}` would end the comment: it is written `)`, as the tree
        // writes any comment (so that the game reads back the same).
        // Trimmed as any comment is when read (a move word may end in a
        // vertical tab, which PGN's lexer keeps but `trim` takes off).
        let text = movetext_of(raw, tokens, &self.tree.start, unread.ply)
            .trim()
            .replace('}', ")");
        if !text.is_empty() {
            self.tree.nodes[unread.node]
                .comments
                .push(format!("{UNREAD_PREFIX} {text}"));
        }
    }

    fn in_variation(&self) -> bool {
        !self.stack.is_empty()
    }

    fn play(&mut self, text: &str, san: MoveText) {
        let ply = self.line.ply + 1;
        if self.tree.nodes.len() >= MAX_NODES {
            self.fail(
                ply,
                &format!("more than {MAX_NODES} moves"),
                Problem::TooLarge,
            );
            self.stopped = true;
            return;
        }
        let in_variation = self.in_variation();
        // The position before the move is kept (a variation replacing the
        // move starts from it) and the move is played in place: one copy
        // of the position per move.
        let next = match san {
            MoveText::Null => pass(&self.line.position).map(|passed| {
                let before = std::mem::replace(&mut self.line.position, passed);
                self.line.before = Some(before);
                self.tree.push_null_at(self.line.at)
            }),
            _ => match san.to_move_and_san(&self.line.position) {
                Ok((m, san)) => {
                    match &mut self.line.before {
                        Some(before) => before.clone_from(&self.line.position),
                        None => self.line.before = Some(self.line.position.clone()),
                    }
                    Some(
                        self.tree
                            .push_played_san(self.line.at, &mut self.line.position, m, san),
                    )
                }
                Err(MoveProblem::Ambiguous) => {
                    self.fail(ply, text, Problem::Ambiguous { in_variation });
                    return;
                }
                Err(MoveProblem::Illegal) => None,
            },
        };
        match next {
            Some(node) => {
                self.line.at = node;
                self.line.ply = ply;
                self.line.opening = false;
                self.tree.nodes[node].starting_comments =
                    std::mem::take(&mut self.starting_comments);
            }
            None => self.fail(ply, text, Problem::Illegal { in_variation }),
        }
    }

    fn open(&mut self) {
        if self.line.at == 0 {
            self.drop_text(format!(
                "ply {}: a variation before the first move was skipped",
                self.line.ply
            ));
            self.skip = Some((0, false));
            return;
        }
        if self.stack.len() >= MAX_VARIATION_DEPTH {
            self.drop_text(format!(
                "ply {}: variations nested deeper than {MAX_VARIATION_DEPTH} levels were skipped",
                self.line.ply
            ));
            self.skip = Some((0, false));
            return;
        }
        // A variation replaces the last move: it starts from that move's
        // parent, in the position before it.
        let parent = self.tree.nodes[self.line.at].parent.unwrap_or(0);
        let position = match &self.line.before {
            Some(before) => before.clone(),
            // Only when a `(` follows a `(` with no move between: rare, and
            // bounded by the nesting limit.
            None => self.tree.position(parent),
        };
        let line = Line {
            at: parent,
            position,
            before: None,
            ply: self.line.ply.saturating_sub(1),
            opening: true,
        };
        self.keep_starting_comments();
        self.stack.push(std::mem::replace(&mut self.line, line));
    }

    /// Starting comments of a variation that ended (or held another one)
    /// before its first move stay as comments where it branched.
    fn keep_starting_comments(&mut self) {
        let comments = std::mem::take(&mut self.starting_comments);
        self.tree.nodes[self.line.at].comments.extend(comments);
    }

    fn close(&mut self) {
        self.keep_starting_comments();
        if let Some(line) = self.stack.pop() {
            self.line = line;
        }
    }

    fn token(&mut self, raw: &RawGame, token: &Token) {
        if let Some((depth, entered)) = self.skip {
            match token {
                Token::Open => self.skip = Some((depth + 1, entered)),
                Token::Close if depth == 0 => {
                    self.skip = None;
                    if entered {
                        if let Some(unread) = self.unread_variation.take() {
                            self.keep_unread(raw, unread, self.index);
                        }
                        self.close();
                    }
                }
                Token::Close => self.skip = Some((depth - 1, entered)),
                Token::Result(result) => self.tree.result = (*result).to_string(),
                _ => {}
            }
            return;
        }
        if self.stopped {
            if let Token::Result(result) = token {
                self.tree.result = (*result).to_string();
            }
            return;
        }
        match token {
            Token::Move { text, san } => self.play(raw.slice(text), *san),
            Token::Unknown(text) => {
                // Reading on after it would give the next move to the wrong
                // side (`2. Nf3Nc6 3. Bb5` would read as 2. Bb5): the line
                // stops here, as at an illegal move.
                let in_variation = self.in_variation();
                self.fail(
                    self.line.ply + 1,
                    raw.slice(text),
                    Problem::NotAMove { in_variation },
                );
            }
            Token::Nag(nag) => {
                if self.line.at != 0 {
                    self.tree.nodes[self.line.at].nags.push(*nag);
                }
            }
            Token::Comment(text) => {
                let text = raw.slice(text).trim();
                if text.is_empty() {
                    return;
                }
                if self.line.opening {
                    self.starting_comments.push(text.to_string());
                } else {
                    self.tree.nodes[self.line.at]
                        .comments
                        .push(text.to_string());
                }
            }
            Token::Open => self.open(),
            Token::Close => self.close(),
            Token::Result(result) => self.tree.result = (*result).to_string(),
        }
    }
}

/// The start position a `FEN` tag names. A FEN whose castling rights name a
/// rook that is not there (odds games are often written with `KQkq` and a
/// rook removed) is read without those rights, and an impossible en-passant
/// square without it; `Ok` then carries a note saying so.
///
/// `chess960`: the game's `Variant` tag says Chess960, so castling follows
/// Chess960 rules. Without it, castling rights that make sense only in
/// Chess960 (Shredder-FEN `HAha`, a king off the e-file) are read so too.
pub fn start_from_fen(text: &str, chess960: bool) -> Result<(Chess, Option<String>), String> {
    let fen: Fen = text.parse().map_err(|e| format!("'{text}': {e}"))?;
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        super::fen::castling_mode_of(&fen)
    };
    match fen.into_position::<Chess>(mode) {
        Ok(position) => Ok((position, None)),
        Err(error) => {
            let reason = error.to_string();
            // Both relaxations leave a legal position: only the claim about
            // castling or en passant was wrong, never a piece.
            match error
                .ignore_invalid_castling_rights()
                .or_else(shakmaty::PositionError::ignore_invalid_ep_square)
            {
                Ok(position) => {
                    let field = |fen: &str, n: usize| {
                        fen.split_whitespace().nth(n).unwrap_or("-").to_string()
                    };
                    let read = Fen::from_position(&position, EnPassantMode::Legal).to_string();
                    let (castling, read_castling) = (field(text, 2), field(&read, 2));
                    let note = if castling == read_castling {
                        format!(
                            "FEN tag: en-passant square '{}' is impossible there; read without it",
                            field(text, 3)
                        )
                    } else {
                        format!(
                            "FEN tag: castling rights '{castling}' name a king or rook that is not on its square; read as '{read_castling}'"
                        )
                    };
                    Ok((position, Some(note)))
                }
                Err(_) => Err(format!("'{text}': {reason}")),
            }
        }
    }
}

/// Movetext tokens written back as PGN movetext, numbered: the first is
/// ply `ply` of the game from `start`. A comment among them is written in
/// square brackets (the text goes inside another comment, and PGN has no
/// way to nest braces); `[%` becomes `[ %`, so that no `[%eval]` of a move
/// that was not read is taken for the game's.
fn movetext_of(raw: &RawGame, tokens: &[Token], start: &Chess, ply: usize) -> String {
    use shakmaty::Position;
    let offset = usize::from(start.turn().is_black());
    let first_move = start.fullmoves().get() as usize;
    let mut words: Vec<String> = Vec::new();
    let mut ply = ply.max(1);
    let mut plies = Vec::new();
    let mut need_number = true;
    let number = |ply: usize, need: bool, words: &mut Vec<String>| {
        let index = ply - 1 + offset;
        let n = first_move + index / 2;
        if index.is_multiple_of(2) {
            words.push(format!("{n}."));
        } else if need {
            words.push(format!("{n}..."));
        }
    };
    for token in tokens {
        match token {
            Token::Move { text, .. } | Token::Unknown(text) => {
                number(ply, need_number, &mut words);
                words.push(raw.slice(text).to_string());
                ply += 1;
                need_number = false;
            }
            Token::Nag(nag) => words.push(format!("${nag}")),
            Token::Comment(text) => {
                let text = raw.slice(text).trim();
                match text.strip_prefix(UNREAD_PREFIX) {
                    // Kept before (a start that still cannot be read): as
                    // it is, so that writing and reading again keep it the
                    // same.
                    Some(kept) => words.push(kept.trim().to_string()),
                    None => words.push(format!("[{}]", text.replace("[%", "[ %"))),
                }
                need_number = true;
            }
            Token::Open => {
                plies.push(ply);
                ply = ply.saturating_sub(1).max(1);
                words.push("(".into());
                need_number = true;
            }
            Token::Close => {
                if let Some(back) = plies.pop() {
                    ply = back;
                }
                words.push(")".into());
                need_number = true;
            }
            Token::Result(_) => {}
        }
    }
    words.join(" ")
}

/// Whether a game's `Variant` tag says Chess960.
pub fn is_chess960_game(raw: &RawGame) -> bool {
    raw.tag("Variant")
        .is_some_and(chess960::is_chess960_variant)
}

/// The tree of game number `game` (1-based) from its raw tokens.
pub fn build(mut raw: RawGame, game: usize) -> GameTree {
    let chess960 = is_chess960_game(&raw);
    let mut start = if chess960 {
        chess960::standard_start()
    } else {
        Chess::default()
    };
    let mut notes = Vec::new();
    let mut error = None;
    if let Some(fen) = raw.tag("FEN") {
        match start_from_fen(fen.trim(), chess960) {
            Ok((position, note)) => {
                start = position;
                notes.extend(note);
            }
            Err(reason) => {
                error = Some(MoveError {
                    game,
                    ply: 0,
                    text: reason,
                    problem: Problem::BadStart,
                });
            }
        }
    }
    let mut tree = GameTree::new(start.clone());
    // One node per move at most: reserving them at once spares the copies
    // of a growing vector (a tenth of the time of reading a big file).
    let moves = raw
        .tokens
        .iter()
        .filter(|t| matches!(t, Token::Move { .. }))
        .count();
    tree.nodes.reserve_exact(moves.min(MAX_NODES));
    tree.headers = Headers(std::mem::take(&mut raw.tags));
    // The tag's result counts when it is one; the movetext's result token,
    // if any, has the last word.
    if let Some(result) = tree.headers.get("Result")
        && let Some(known) = ["1-0", "0-1", "1/2-1/2", "*"]
            .into_iter()
            .find(|r| *r == result.trim())
    {
        tree.result = known.to_string();
    }
    tree.notes = notes;
    let stopped = error.is_some();
    tree.error = error;
    let mut builder = Builder {
        tree,
        game,
        line: Line {
            at: 0,
            position: start,
            before: None,
            ply: 0,
            opening: false,
        },
        stack: Vec::new(),
        skip: None,
        stopped,
        skipped_notes: 0,
        starting_comments: Vec::new(),
        index: 0,
        unread: None,
        unread_variation: None,
    };
    for dropped in &raw.dropped {
        builder.drop_text(dropped.clone());
    }
    if stopped {
        // No move can be read (the start is unknown): all are kept as text.
        builder.unread = Some(Unread {
            token: 0,
            node: 0,
            ply: 1,
        });
    }
    for (index, token) in raw.tokens.iter().enumerate() {
        builder.index = index;
        builder.token(&raw, token);
    }
    builder.keep_starting_comments();
    if let Some(unread) = builder.unread_variation.take() {
        // A variation left open at the end of the game.
        builder.keep_unread(&raw, unread, raw.tokens.len());
    }
    if let Some(unread) = builder.unread.take() {
        builder.keep_unread(&raw, unread, raw.tokens.len());
    }
    if let Some(reason) = &raw.truncated {
        let ply = builder.line.ply;
        builder.fail(ply, reason, Problem::TooLarge);
        // The text after the cut was never read: the tree is not the whole
        // game, and writing it back over its file would lose that text.
        builder.tree.dropped.get_or_insert_with(|| reason.clone());
        builder.unread = None;
    }
    if builder.skipped_notes > 0 {
        let more = builder.skipped_notes;
        builder.tree.notes.push(format!("and {more} more notes"));
    }
    builder.tree
}

/// Read every game of a PGN stream, one at a time, handing each to `each`
/// (return `false` to stop). A byte-order mark at the start is skipped.
pub fn read_games(
    source: impl Read,
    each: &mut dyn FnMut(GameTree) -> bool,
) -> std::io::Result<usize> {
    let mut reader = GameReader::new(BufReader::new(source));
    let mut count = 0;
    while let Some(raw) = reader.next_game()? {
        count += 1;
        if !each(build(raw, count)) {
            break;
        }
    }
    Ok(count)
}

/// Game `number` (1-based) of a PGN stream, skipping the games before it
/// without reading their moves; `None` when the stream has fewer games.
pub fn read_game_at(source: impl Read, number: usize) -> std::io::Result<Option<GameTree>> {
    let mut reader = GameReader::new(BufReader::new(source));
    for _ in 1..number {
        if !reader.skip_game()? {
            return Ok(None);
        }
    }
    Ok(reader.next_game()?.map(|raw| build(raw, number)))
}
