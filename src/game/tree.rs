//! A game as a tree: the main line and its variations, with comments and
//! NAGs, read from PGN and written back.
//!
//! Nodes live in one vector; node 0 is the start position. Each node's first
//! child continues the line it belongs to, the others are variations.

use std::io::Read;
use std::ops::ControlFlow;

use pgn_reader::{Nag, Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus as ShakSanPlus;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};

use super::pgn::Headers;

/// One node: the move that leads to it (none at the root) and what is said
/// about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub parent: Option<usize>,
    /// The move; `None` at the root and for a null move (`--`, `Z0`: the
    /// side to move passes, as annotators write to show a threat).
    pub m: Option<Move>,
    pub san: String,
    /// Comments after the move (at the root: before the first move).
    pub comments: Vec<String>,
    pub nags: Vec<u8>,
    /// First child = the continuation; the rest are variations.
    pub children: Vec<usize>,
}

/// A move that could not be read, with where it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveError {
    /// 1-based game number in the file.
    pub game: usize,
    /// 1-based ply of the move along its line.
    pub ply: usize,
    pub text: String,
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "game {}, ply {}: '{}' is not a legal move there; the game stops before it",
            self.game, self.ply, self.text
        )
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
    /// The first unreadable move, if any (the game keeps what came before).
    pub error: Option<MoveError>,
}

impl GameTree {
    pub fn new(start: Chess) -> GameTree {
        GameTree {
            headers: Headers(Vec::new()),
            start,
            nodes: vec![Node {
                parent: None,
                m: None,
                san: String::new(),
                comments: Vec::new(),
                nags: Vec::new(),
                children: Vec::new(),
            }],
            result: "*".into(),
            error: None,
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
                    if let Ok(passed) = position.clone().swap_turn() {
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
        let mut position = position.clone();
        let san = ShakSanPlus::from_move_and_play_unchecked(&mut position, m).to_string();
        let index = self.nodes.len();
        self.nodes.push(Node {
            parent: Some(node),
            m: Some(m),
            san,
            comments: Vec::new(),
            nags: Vec::new(),
            children: Vec::new(),
        });
        self.nodes[node].children.push(index);
        index
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
        self.position(node).swap_turn().ok()?;
        let index = self.nodes.len();
        self.nodes.push(Node {
            parent: Some(node),
            m: None,
            san: "--".into(),
            comments: Vec::new(),
            nags: Vec::new(),
            children: Vec::new(),
        });
        self.nodes[node].children.push(index);
        Some(index)
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
        self.nodes[parent].children.retain(|&c| c != node);
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
        let comments = self.nodes.iter().map(|n| n.comments.len()).sum();
        let nags = self.nodes.iter().map(|n| n.nags.len()).sum();
        (variations, comments, nags)
    }

    /// The tree as PGN.
    pub fn to_pgn(&self) -> String {
        let mut headers = self.headers.clone();
        headers.set("Result", self.result.clone());
        let mut tokens = Vec::new();
        for comment in &self.nodes[0].comments {
            tokens.push(format!("{{ {} }}", comment_text(comment)));
        }
        self.write_line(0, &mut tokens, true);
        tokens.push(self.result.clone());
        super::pgn::assemble(&headers, &tokens)
    }

    /// Movetext of the line continuing from `node`: its first child, then
    /// that child's siblings as variations, and on.
    fn write_line(&self, node: usize, tokens: &mut Vec<String>, mut need_number: bool) {
        let mut at = node;
        while let Some((&first, rest)) = self.nodes[at].children.split_first() {
            self.write_move(first, tokens, need_number);
            need_number = !self.nodes[first].comments.is_empty();
            for &variation in rest {
                tokens.push("(".into());
                self.write_move(variation, tokens, true);
                self.write_line(
                    variation,
                    tokens,
                    !self.nodes[variation].comments.is_empty(),
                );
                tokens.push(")".into());
                need_number = true;
            }
            at = first;
        }
    }

    fn write_move(&self, node: usize, tokens: &mut Vec<String>, force_number: bool) {
        let parent = self.nodes[node].parent.unwrap_or(0);
        let before = self.position(parent);
        let number = before.fullmoves().get();
        if before.turn().is_white() {
            tokens.push(format!("{number}."));
        } else if force_number {
            tokens.push(format!("{number}..."));
        }
        tokens.push(self.nodes[node].san.clone());
        for nag in &self.nodes[node].nags {
            tokens.push(format!("${nag}"));
        }
        for comment in &self.nodes[node].comments {
            tokens.push(format!("{{ {} }}", comment_text(comment)));
        }
    }
}

/// A comment as it can stand between braces: PGN has no escape, so a `}`
/// inside would end the comment early and lose the rest; it becomes `)`.
fn comment_text(comment: &str) -> String {
    comment.trim().replace('}', ")")
}

/// Per-game state while reading.
struct Builder {
    tree: GameTree,
    /// The node new moves attach to.
    at: usize,
    /// Where each open variation started from (to return on `)`).
    stack: Vec<usize>,
    ply_at: Vec<usize>,
    /// The position at `at`.
    position: Chess,
    /// Set after an illegal move: ignore the rest of the game.
    stopped: bool,
}

struct TreeVisitor {
    game: usize,
}

impl Visitor for TreeVisitor {
    type Tags = (Headers, Option<Result<Chess, String>>);
    type Movetext = Builder;
    type Output = GameTree;

    fn begin_tags(&mut self) -> ControlFlow<GameTree, Self::Tags> {
        self.game += 1;
        ControlFlow::Continue((Headers(Vec::new()), None))
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<GameTree> {
        let name = String::from_utf8_lossy(name).to_string();
        let value = value.decode_utf8_lossy().to_string();
        if name == "FEN" {
            tags.1 = Some(
                value
                    .parse::<Fen>()
                    .map_err(|e| e.to_string())
                    .and_then(|f| {
                        f.into_position(CastlingMode::Standard)
                            .map_err(|e| e.to_string())
                    }),
            );
        }
        tags.0.0.push((name, value));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<GameTree, Builder> {
        let (headers, fen) = tags;
        let (start, error) = match fen {
            None => (Chess::default(), None),
            Some(Ok(position)) => (position, None),
            Some(Err(e)) => (
                Chess::default(),
                Some(MoveError {
                    game: self.game,
                    ply: 0,
                    text: format!("FEN tag: {e}"),
                }),
            ),
        };
        let mut tree = GameTree::new(start);
        tree.headers = headers;
        if let Some(result) = tree.headers.get("Result") {
            tree.result = result.to_string();
        }
        let stopped = error.is_some();
        tree.error = error;
        ControlFlow::Continue(Builder {
            position: tree.start.clone(),
            tree,
            at: 0,
            stack: Vec::new(),
            ply_at: vec![0],
            stopped,
        })
    }

    fn san(&mut self, b: &mut Builder, san: SanPlus) -> ControlFlow<GameTree> {
        if b.stopped {
            return ControlFlow::Continue(());
        }
        let position = b.position.clone();
        let ply = b.ply_at.last().copied().unwrap_or(0) + 1;
        // Movetext in UCI notation (`g1f3`) reads as SAN with a from-square;
        // when that is not legal, try it as UCI.
        if matches!(san.san, shakmaty::san::San::Null)
            && let Some(node) = b.tree.add_null(b.at)
        {
            b.at = node;
            b.position = b.tree.position(node);
            if let Some(last) = b.ply_at.last_mut() {
                *last = ply;
            }
            return ControlFlow::Continue(());
        }
        let parsed = san
            .san
            .to_move(&position)
            .ok()
            .or_else(|| crate::game::notation::parse_uci(&position, &san.to_string()).ok());
        match parsed {
            Some(m) => {
                b.at = b.tree.add_move_at(b.at, &position, m);
                b.position.play_unchecked(m);
                if let Some(last) = b.ply_at.last_mut() {
                    *last = ply;
                }
            }
            None => {
                b.tree.error = Some(MoveError {
                    game: self.game,
                    ply,
                    text: san.to_string(),
                });
                b.stopped = true;
            }
        }
        ControlFlow::Continue(())
    }

    fn nag(&mut self, b: &mut Builder, nag: Nag) -> ControlFlow<GameTree> {
        if !b.stopped && b.at != 0 {
            b.tree.nodes[b.at].nags.push(nag.0);
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, b: &mut Builder, comment: RawComment<'_>) -> ControlFlow<GameTree> {
        if !b.stopped {
            let text = String::from_utf8_lossy(comment.as_bytes())
                .trim()
                .to_string();
            if !text.is_empty() {
                b.tree.nodes[b.at].comments.push(text);
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, b: &mut Builder) -> ControlFlow<GameTree, Skip> {
        if b.stopped || b.at == 0 {
            return ControlFlow::Continue(Skip(true));
        }
        // A variation replaces the last move: it starts from that move's parent.
        b.stack.push(b.at);
        b.at = b.tree.nodes[b.at].parent.unwrap_or(0);
        b.position = b.tree.position(b.at);
        let ply = b.ply_at.last().copied().unwrap_or(1);
        b.ply_at.push(ply.saturating_sub(1));
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, b: &mut Builder) -> ControlFlow<GameTree> {
        if let Some(back) = b.stack.pop() {
            b.at = back;
            b.position = b.tree.position(back);
            b.ply_at.pop();
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, b: &mut Builder, outcome: Outcome) -> ControlFlow<GameTree> {
        b.tree.result = outcome.to_string();
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, b: Builder) -> GameTree {
        b.tree
    }
}

/// A PGN reader over `source` that skips a UTF-8 byte-order mark.
fn pgn_reader<R: Read>(
    mut source: R,
) -> std::io::Result<Reader<std::io::Chain<std::io::Cursor<Vec<u8>>, R>>> {
    let mut head = [0u8; 3];
    let mut filled = 0;
    while filled < 3 {
        match source.read(&mut head[filled..])? {
            0 => break,
            n => filled += n,
        }
    }
    let prefix = if head[..filled] == [0xEF, 0xBB, 0xBF] {
        Vec::new()
    } else {
        head[..filled].to_vec()
    };
    Ok(Reader::new(std::io::Cursor::new(prefix).chain(source)))
}

/// Read every game of a PGN stream, one at a time, handing each to `each`
/// (return `false` to stop). A byte-order mark at the start is skipped.
pub fn read_games(
    source: impl Read,
    each: &mut dyn FnMut(GameTree) -> bool,
) -> std::io::Result<usize> {
    let mut reader = pgn_reader(source)?;
    let mut visitor = TreeVisitor { game: 0 };
    let mut count = 0;
    while let Some(tree) = reader.read_game(&mut visitor)? {
        count += 1;
        if !each(tree) {
            break;
        }
    }
    Ok(count)
}

/// Game `number` (1-based) of a PGN stream, skipping the games before it
/// without reading their moves; `None` when the stream has fewer games.
pub fn read_game_at(source: impl Read, number: usize) -> std::io::Result<Option<GameTree>> {
    let mut reader = pgn_reader(source)?;
    for _ in 1..number {
        if !reader.skip_game()? {
            return Ok(None);
        }
    }
    let mut visitor = TreeVisitor {
        game: number.saturating_sub(1),
    };
    reader.read_game(&mut visitor)
}

/// The FEN of a position.
pub fn fen_of(position: &Chess) -> String {
    Fen::from_position(position, EnPassantMode::Legal).to_string()
}
