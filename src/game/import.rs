//! Building a [`GameTree`] from a game's movetext tokens.
//!
//! The tree keeps the game exactly as written: every move becomes a node of
//! its own, so a variation that starts with the game's own move
//! (`5. Qh5+ (5. Qh5+ g6 6. Nxg6)`, as annotators write to show what would
//! follow) stays a variation beside the main line instead of merging into
//! it. Reading is linear in the length of the movetext however deep the
//! variations nest or however many null moves there are: the position is
//! carried along, never replayed from the start.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode};

use super::chess960;
use super::movetext::{MoveProblem, MoveText};
use super::pgn::Headers;
use super::pgn_lexer::{RawGame, Token};
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
}

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
        if !self.in_variation() {
            self.stopped = true;
        } else {
            // Only the rest of this variation is lost; the line it hangs
            // from goes on after its `)`.
            self.skip = Some((0, true));
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
    };
    for dropped in &raw.dropped {
        builder.drop_text(dropped.clone());
    }
    for token in &raw.tokens {
        builder.token(&raw, token);
    }
    builder.keep_starting_comments();
    if let Some(reason) = &raw.truncated {
        let ply = builder.line.ply;
        builder.fail(ply, reason, Problem::TooLarge);
    }
    if builder.skipped_notes > 0 {
        let more = builder.skipped_notes;
        builder.tree.notes.push(format!("and {more} more notes"));
    }
    builder.tree
}
