//! A game as a tree: the main line and its variations, with comments and
//! NAGs, read from PGN and written back.
//!
//! Nodes live in one vector; node 0 is the start position. Each node's first
//! child continues the line it belongs to, the others are variations.

use compact_str::CompactString;
use smallvec::SmallVec;

use shakmaty::san::{San, Suffix};
use shakmaty::{CastlingSide, Chess, EnPassantMode, FromSetup, Move, Position, Role};

use super::pgn::Headers;

/// A move's SAN with its check or mate sign, as shakmaty's `SanPlus`
/// writes it, but byte by byte into an inline string: reading a big file
/// writes one per move, and shakmaty's `Display`, a call per character,
/// was a tenth of the time.
pub fn san_text(san: San, suffix: Option<Suffix>) -> CompactString {
    // The longest SAN the syntax allows is `Na1xa1=Q` and a sign: nine bytes.
    let mut bytes = [0u8; 12];
    let mut len = 0;
    let mut put = |b: char| {
        // SAN is ASCII: each char is one byte.
        bytes[len] = b as u8;
        len += 1;
    };
    match san {
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            if role != Role::Pawn {
                put(role.upper_char());
            }
            if let Some(file) = file {
                put(file.char());
            }
            if let Some(rank) = rank {
                put(rank.char());
            }
            if capture {
                put('x');
            }
            put(to.file().char());
            put(to.rank().char());
            if let Some(promotion) = promotion {
                put('=');
                put(promotion.upper_char());
            }
        }
        San::Castle(CastlingSide::KingSide) => "O-O".chars().for_each(&mut put),
        San::Castle(CastlingSide::QueenSide) => "O-O-O".chars().for_each(&mut put),
        San::Put { role, to } => {
            if role != Role::Pawn {
                put(role.upper_char());
            }
            put('@');
            put(to.file().char());
            put(to.rank().char());
        }
        San::Null => "--".chars().for_each(&mut put),
    }
    match suffix {
        Some(Suffix::Check) => put('+'),
        Some(Suffix::Checkmate) => put('#'),
        None => {}
    }
    // Only ASCII was written, so the bytes are valid UTF-8.
    std::str::from_utf8(&bytes[..len])
        .map(CompactString::new)
        .unwrap_or_default()
}

/// One node: the move that leads to it (none at the root) and what is said
/// about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub parent: Option<usize>,
    /// The move; `None` at the root and for a null move (`--`, `Z0`: the
    /// side to move passes, as annotators write to show a threat).
    pub m: Option<Move>,
    /// The move in SAN with its check or mate sign; held inline, as a SAN
    /// is never longer than seven bytes (reading a big file makes one per
    /// move).
    pub san: CompactString,
    /// Comments after the move (at the root: before the first move).
    pub comments: Vec<String>,
    /// Comments before the move, where it starts a variation
    /// (`( {Also good:} 1... c5 )`).
    pub starting_comments: Vec<String>,
    pub nags: Vec<u8>,
    /// First child = the continuation; the rest are variations. Most nodes
    /// have one child, held inline.
    pub children: SmallVec<[usize; 1]>,
}

/// A move that could not be read, with where it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveError {
    /// 1-based game number in the file.
    pub game: usize,
    /// 1-based ply of the move along its line.
    pub ply: usize,
    /// The move as written (for [`Problem::BadStart`] and
    /// [`Problem::TooLarge`]: the reason).
    pub text: String,
    pub problem: Problem,
}

/// What went wrong with a game's movetext.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// The move is not legal there: the rest of its line is not read (the
    /// rest of the game, or of the variation).
    Illegal { in_variation: bool },
    /// More than one legal move fits the text.
    Ambiguous { in_variation: bool },
    /// A word that is neither a move, a move number, a result nor a NAG:
    /// the rest of its line is not read, since which side moves next is
    /// no longer known.
    NotAMove { in_variation: bool },
    /// The `FEN` tag cannot be read: no moves are read.
    BadStart,
    /// The game is beyond the reader's limits: it stops there.
    TooLarge,
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (game, ply, text) = (self.game, self.ply, &self.text);
        let rest = |in_variation: bool| {
            if in_variation {
                "the variation stops before it"
            } else {
                "the game stops before it"
            }
        };
        match self.problem {
            Problem::Illegal { in_variation } => write!(
                f,
                "game {game}, ply {ply}: '{text}' is not a legal move there; {}",
                rest(in_variation)
            ),
            Problem::Ambiguous { in_variation } => write!(
                f,
                "game {game}, ply {ply}: '{text}' is ambiguous there; {}",
                rest(in_variation)
            ),
            Problem::NotAMove { in_variation } => write!(
                f,
                "game {game}, ply {ply}: '{text}' is not a move; {}",
                rest(in_variation)
            ),
            Problem::BadStart => write!(
                f,
                "game {game}: the FEN tag cannot be read ({text}); its moves are not read"
            ),
            Problem::TooLarge => write!(f, "game {game}, ply {ply}: {text}; the game stops there"),
        }
    }
}

/// A game tree.
#[derive(Debug, Clone, PartialEq)]
pub struct GameTree {
    pub headers: Headers,
    pub start: Chess,
    pub nodes: Vec<Node>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// The first unreadable move, if any (the game keeps what came before;
    /// the movetext from there on is kept, as text, in a comment where the
    /// line stops, so that writing the game loses none of it).
    pub error: Option<MoveError>,
    /// What the reader changed or skipped without losing a move: castling
    /// rights dropped from a FEN tag, words that are not moves, variations
    /// beyond the nesting limit.
    pub notes: Vec<String>,
    /// The first text of the game the reader skipped (tags' line remainder,
    /// a variation it could not place): the tree is not the whole game, and
    /// writing it back over its file would lose that text.
    pub dropped: Option<String>,
}

impl GameTree {
    pub fn new(start: Chess) -> GameTree {
        GameTree {
            headers: Headers(Vec::new()),
            start,
            nodes: vec![Node {
                parent: None,
                m: None,
                san: CompactString::default(),
                comments: Vec::new(),
                starting_comments: Vec::new(),
                nags: Vec::new(),
                children: SmallVec::new(),
            }],
            result: "*".into(),
            error: None,
            notes: Vec::new(),
            dropped: None,
        }
    }

    /// The position at `node`.
    pub fn position(&self, node: usize) -> Chess {
        let mut path = Vec::new();
        let mut at = Some(node);
        while let Some(i) = at {
            if self.nodes[i].parent.is_some() {
                path.push(self.nodes[i].m);
            }
            at = self.nodes[i].parent;
        }
        let mut position = self.start.clone();
        for m in path.into_iter().rev() {
            match m {
                Some(m) => position.play_unchecked(m),
                // A null move was only added where passing is legal.
                None => {
                    if let Some(passed) = pass(&position) {
                        position = passed;
                    }
                }
            }
        }
        position
    }

    /// Add `m` after `node` (or return the existing child with that move).
    pub fn add_move(&mut self, node: usize, m: Move) -> usize {
        let position = self.position(node);
        self.add_move_at(node, &position, m)
    }

    /// `add_move` when the caller already has the position at `node`
    /// (reading a game move by move stays linear, not quadratic).
    pub fn add_move_at(&mut self, node: usize, position: &Chess, m: Move) -> usize {
        if let Some(&existing) = self.nodes[node]
            .children
            .iter()
            .find(|&&c| self.nodes[c].m == Some(m))
        {
            return existing;
        }
        self.push_move_at(node, position, m)
    }

    /// Add `m` after `node` as a new child even when the same move is there
    /// already: a file's variation that repeats the game's move stays a
    /// variation. `position` is the position at `node`.
    pub fn push_move_at(&mut self, node: usize, position: &Chess, m: Move) -> usize {
        let mut position = position.clone();
        self.push_played(node, &mut position, m)
    }

    /// `push_move_at` that plays `m` on `position` (the position at `node`)
    /// as it goes: a reader walking a line needs the position after the move
    /// anyway, and so makes one copy per move, not two.
    pub fn push_played(&mut self, node: usize, position: &mut Chess, m: Move) -> usize {
        let san = San::from_move(position, m);
        self.push_played_san(node, position, m, san)
    }

    /// `push_played` when the caller has the move's SAN (`San::from_move`
    /// of `m` in `position`).
    pub fn push_played_san(
        &mut self,
        node: usize,
        position: &mut Chess,
        m: Move,
        san: San,
    ) -> usize {
        position.play_unchecked(m);
        // What `SanPlus::from_move_and_play_unchecked` writes, without the
        // full game outcome it computes after every move: only a position
        // in check can be mate, so legal moves are generated only then.
        let suffix = if !position.is_check() {
            None
        } else if position.legal_moves().is_empty() {
            Some(Suffix::Checkmate)
        } else {
            Some(Suffix::Check)
        };
        self.push_child(node, Some(m), san_text(san, suffix))
    }

    fn push_child(&mut self, node: usize, m: Option<Move>, san: CompactString) -> usize {
        let index = self.nodes.len();
        self.nodes.push(Node {
            parent: Some(node),
            m,
            san,
            comments: Vec::new(),
            starting_comments: Vec::new(),
            nags: Vec::new(),
            children: SmallVec::new(),
        });
        self.nodes[node].children.push(index);
        index
    }

    /// Keep `moves` (a line from the position at `node`, as an engine gives
    /// it) in the tree without rewriting any line already there: the moves
    /// the tree already has are followed, and the rest becomes a new
    /// variation where the line leaves them. Where that is the end of a line
    /// (the end of the game, say), the line is never added as its
    /// continuation: the variation branches off at the line's last move,
    /// repeating it (`19. c4 1-0` becomes `19. c4 ( 19. c4 ... ) 1-0`), so the game's
    /// moves and result stay as they were. Only a tree with no moves at all
    /// takes the line as its moves, as there is no game to rewrite. The
    /// moves are kept up to the first that is not legal.
    pub fn keep_line(&mut self, node: usize, moves: &[Move]) -> KeptLine {
        let (mut at, mut position, mut rest) = self.follow(node, self.position(node), moves);
        // At the end of a line, a variation kept before repeats its last
        // move: follow it rather than add the line twice.
        if let (Some(&next), Some(parent)) = (rest.first(), self.nodes[at].parent)
            && self.nodes[at].children.is_empty()
            && let Some(&again) = self.nodes[parent].children.iter().find(|&&c| {
                c != at
                    && self.nodes[c].m == self.nodes[at].m
                    && self.nodes[c]
                        .children
                        .iter()
                        .any(|&g| self.nodes[g].m == Some(next))
            })
        {
            (at, position, rest) = self.follow(again, position, rest);
        }
        let legal = rest
            .iter()
            .scan(position.clone(), |pos, &m| {
                pos.is_legal(m).then(|| pos.play_unchecked(m))
            })
            .count();
        let rest = &rest[..legal];
        let Some((&first, tail)) = rest.split_first() else {
            return KeptLine {
                first_new: None,
                added: 0,
                repeated: false,
            };
        };
        let before = self.nodes.len();
        let mut repeated = false;
        let mut branch = at;
        if self.nodes[at].children.is_empty()
            && let Some(parent) = self.nodes[at].parent
        {
            // The end of a line: branch off before its last move and play
            // that move again, so that the kept moves are a variation.
            let mut before_last = self.position(parent);
            branch = match self.nodes[at].m {
                Some(last) => self.push_played(parent, &mut before_last, last),
                None => self.push_null_at(parent),
            };
            repeated = true;
        }
        let first_new = self.push_played(branch, &mut position, first);
        let mut end = first_new;
        for &m in tail {
            end = self.push_played(end, &mut position, m);
        }
        KeptLine {
            first_new: Some(first_new),
            added: self.nodes.len() - before,
            repeated,
        }
    }

    /// Follow `moves` from `node` (where the position is `position`) as far
    /// as the tree has them: the node reached, its position, and the moves
    /// left.
    fn follow<'m>(
        &self,
        node: usize,
        mut position: Chess,
        moves: &'m [Move],
    ) -> (usize, Chess, &'m [Move]) {
        let mut at = node;
        let mut rest = moves;
        while let Some((&m, tail)) = rest.split_first() {
            let Some(&child) = self.nodes[at]
                .children
                .iter()
                .find(|&&c| self.nodes[c].m == Some(m))
            else {
                break;
            };
            position.play_unchecked(m);
            at = child;
            rest = tail;
        }
        (at, position, rest)
    }

    /// Add a null move after `node`, if the side to move may pass (it is not
    /// in check).
    pub fn add_null(&mut self, node: usize) -> Option<usize> {
        if let Some(&existing) = self.nodes[node]
            .children
            .iter()
            .find(|&&c| self.nodes[c].m.is_none())
        {
            return Some(existing);
        }
        pass(&self.position(node))?;
        Some(self.push_null_at(node))
    }

    /// Add a null move after `node` as a new child; the caller has checked
    /// that the side to move may pass.
    pub fn push_null_at(&mut self, node: usize) -> usize {
        self.push_child(node, None, "--".into())
    }

    /// The positions along the main line: the start, then the position
    /// after each move (linear in the length of the game).
    pub fn mainline_positions(&self) -> Vec<Chess> {
        let mut out = Vec::new();
        self.walk_mainline(|position| out.push(position.clone()));
        out
    }

    /// Show `visit` each position of the main line in turn (those of
    /// [`GameTree::mainline_positions`]) and return the last one, without
    /// keeping the others.
    pub fn walk_mainline(&self, mut visit: impl FnMut(&Chess)) -> Chess {
        let mut position = self.start.clone();
        visit(&position);
        let mut at = 0;
        while let Some(&node) = self.nodes[at].children.first() {
            match self.nodes[node].m {
                Some(m) => position.play_unchecked(m),
                None => match pass(&position) {
                    Some(passed) => position = passed,
                    None => break,
                },
            }
            visit(&position);
            at = node;
        }
        position
    }

    /// The reader's notes in one line for a status bar: the first, and how
    /// many more there are.
    pub fn notes_summary(&self) -> Option<String> {
        let first = self.notes.first()?;
        Some(match self.notes.len() - 1 {
            0 => first.clone(),
            more => format!("{first} (and {more} more notes; `kibitz pgn` lists them)"),
        })
    }

    /// The main line's nodes after the root.
    pub fn mainline(&self) -> Vec<usize> {
        let mut out = Vec::new();
        let mut at = 0;
        while let Some(&next) = self.nodes[at].children.first() {
            out.push(next);
            at = next;
        }
        out
    }

    /// The nodes from the first move to `node` (the root is not included).
    pub fn path(&self, node: usize) -> Vec<usize> {
        let mut path = Vec::new();
        let mut at = node;
        while let Some(parent) = self.nodes[at].parent {
            path.push(at);
            at = parent;
        }
        path.reverse();
        path
    }

    /// Whether `node` lies on the main line.
    pub fn on_mainline(&self, node: usize) -> bool {
        self.path(node).iter().all(|&n| {
            self.nodes[n]
                .parent
                .is_some_and(|p| self.nodes[p].children[0] == n)
        })
    }

    /// The end of the line `node` is on: follow first children.
    pub fn line_end(&self, node: usize) -> usize {
        let mut at = node;
        while let Some(&next) = self.nodes[at].children.first() {
            at = next;
        }
        at
    }

    /// Promote the variation `node` is in by one level: at the nearest
    /// branch point above it, its line becomes the first child (the
    /// continuation) and the line that was there becomes a variation.
    /// Returns false when `node` is already on the main line.
    pub fn promote(&mut self, node: usize) -> bool {
        let mut at = node;
        while let Some(parent) = self.nodes[at].parent {
            let children = &mut self.nodes[parent].children;
            if let Some(index) = children.iter().position(|&c| c == at)
                && index > 0
            {
                let moved = children.remove(index);
                children.insert(0, moved);
                return true;
            }
            at = parent;
        }
        false
    }

    /// Delete `node` and everything after it. The arena is compacted; the
    /// returned index is where `node`'s parent now is. The root cannot be
    /// deleted (`None`).
    pub fn delete(&mut self, node: usize) -> Option<usize> {
        let parent = self.nodes.get(node)?.parent?;
        self.nodes[parent].children.retain(|c| *c != node);
        // Keep every node still reachable from the root, in order, and
        // renumber them.
        let mut keep = vec![false; self.nodes.len()];
        let mut stack = vec![0];
        while let Some(n) = stack.pop() {
            keep[n] = true;
            stack.extend(self.nodes[n].children.iter().copied());
        }
        let mut new_index = vec![usize::MAX; self.nodes.len()];
        let mut next = 0;
        for (old, kept) in keep.iter().enumerate() {
            if *kept {
                new_index[old] = next;
                next += 1;
            }
        }
        let old_nodes = std::mem::take(&mut self.nodes);
        for (old, mut n) in old_nodes.into_iter().enumerate() {
            if !keep[old] {
                continue;
            }
            n.parent = n.parent.map(|p| new_index[p]);
            for c in &mut n.children {
                *c = new_index[*c];
            }
            self.nodes.push(n);
        }
        Some(new_index[parent])
    }

    /// Number of plies from the start to `node`.
    pub fn ply(&self, node: usize) -> usize {
        self.path(node).len()
    }

    /// Counts of variations (extra children), comments and NAGs.
    pub fn counts(&self) -> (usize, usize, usize) {
        let variations = self
            .nodes
            .iter()
            .map(|n| n.children.len().saturating_sub(1))
            .sum();
        let comments = self
            .nodes
            .iter()
            .map(|n| n.comments.len() + n.starting_comments.len())
            .sum();
        let nags = self.nodes.iter().map(|n| n.nags.len()).sum();
        (variations, comments, nags)
    }

    /// The tree as PGN.
    pub fn to_pgn(&self) -> String {
        let mut headers = self.headers.clone();
        headers.set("Result", self.result.clone());
        super::pgn::set_start_headers(&mut headers, &self.start);
        let mut tokens = Vec::new();
        for comment in &self.nodes[0].comments {
            tokens.push(format!("{{ {} }}", comment_text(comment)));
        }
        let start = MoveNumber {
            fullmoves: self.start.fullmoves().get(),
            white_to_move: self.start.turn().is_white(),
        };
        self.write_line(0, start, &mut tokens, true);
        tokens.push(self.result.clone());
        super::pgn::assemble(&headers, &tokens)
    }

    /// Movetext of the line continuing from `node` (where `number` is the
    /// move number and side to move): its first child, then that child's
    /// siblings as variations, and on. The numbers are carried along, so
    /// writing is linear in the size of the tree.
    fn write_line(
        &self,
        node: usize,
        mut number: MoveNumber,
        tokens: &mut Vec<String>,
        mut need_number: bool,
    ) {
        let mut at = node;
        while let Some((&first, rest)) = self.nodes[at].children.split_first() {
            self.write_move(first, number, tokens, need_number);
            need_number = !self.nodes[first].comments.is_empty();
            for &variation in rest {
                tokens.push("(".into());
                self.write_move(variation, number, tokens, true);
                self.write_line(
                    variation,
                    number.next(),
                    tokens,
                    !self.nodes[variation].comments.is_empty(),
                );
                tokens.push(")".into());
                need_number = true;
            }
            number = number.next();
            at = first;
        }
    }

    fn write_move(
        &self,
        node: usize,
        number: MoveNumber,
        tokens: &mut Vec<String>,
        force_number: bool,
    ) {
        let starting = &self.nodes[node].starting_comments;
        for comment in starting {
            tokens.push(format!("{{ {} }}", comment_text(comment)));
        }
        let n = number.fullmoves;
        if number.white_to_move {
            tokens.push(format!("{n}."));
        } else if force_number || !starting.is_empty() {
            tokens.push(format!("{n}..."));
        }
        tokens.push(self.nodes[node].san.to_string());
        for nag in &self.nodes[node].nags {
            tokens.push(format!("${nag}"));
        }
        for comment in &self.nodes[node].comments {
            tokens.push(format!("{{ {} }}", comment_text(comment)));
        }
    }
}

/// Where [`GameTree::keep_line`] put a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeptLine {
    /// The node of the first move of the line the tree did not have
    /// (`None`: the tree had the whole line).
    pub first_new: Option<usize>,
    /// Nodes added, a repeated move included.
    pub added: usize,
    /// The line's last move was played again to start the variation (the
    /// line went on from the end of a line).
    pub repeated: bool,
}

/// The move number and side to move before a move, for writing movetext.
#[derive(Debug, Clone, Copy)]
struct MoveNumber {
    fullmoves: u32,
    white_to_move: bool,
}

impl MoveNumber {
    /// After one move (a null move counts as one).
    fn next(self) -> MoveNumber {
        MoveNumber {
            fullmoves: self.fullmoves + u32::from(!self.white_to_move),
            white_to_move: !self.white_to_move,
        }
    }
}

/// The position after the side to move passes (a null move): the other side
/// is to move, the en-passant square is gone and the clocks go on as after a
/// move. `None` when the side to move is in check and may not pass.
pub fn pass(position: &Chess) -> Option<Chess> {
    if position.is_check() {
        return None;
    }
    let mut setup = position.to_setup(EnPassantMode::Legal);
    let black_passed = setup.turn.is_black();
    setup.swap_turn();
    setup.halfmoves = setup.halfmoves.saturating_add(1);
    if black_passed {
        setup.fullmoves = setup.fullmoves.saturating_add(1);
    }
    Chess::from_setup(setup, position.castles().mode()).ok()
}

/// A comment as it can stand between braces: PGN has no escape, so a `}`
/// inside would end the comment early and lose the rest; it becomes `)`.
fn comment_text(comment: &str) -> String {
    comment.trim().replace('}', ")")
}

#[cfg(test)]
mod tests;
