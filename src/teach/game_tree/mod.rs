//! Hand-made game trees: the small trees with chosen leaf values that every
//! course on minimax starts with, such as `((3 12 8) (2 4 6) (14 5 2))`
//! (minimax value 3; alpha-beta skips two leaves).
//!
//! A tree is read from bracket notation ([`parse`]), its nodes get the
//! names textbooks give them (the root A, inner nodes B, C, D… in
//! breadth-first order, a leaf by its parent and its place: `B2` is B's
//! second child), and [`search`] runs minimax, alpha-beta, principal
//! variation search and iterative deepening over it, recording the same
//! trace events as the chess search. Teach mode's replay, tree view,
//! captions and export then work on a hand-made tree as on a chess
//! position.
//!
//! How a tree travels in the record: a trace event names a move as a chess
//! move, so the tree's child `i` is written as a placeholder move,
//! [`child_move`], and read back with [`child_index`]. No chess position
//! ever plays it; every place that shows a move asks the tree for its name.

pub mod diagram;
pub mod parse;
pub mod search;

use std::path::Path;

use shakmaty::{Move, Role, Square};

pub use parse::{MAX_CHILDREN, MAX_NODES, MAX_PLIES, MAX_VALUE, ParseError};

/// One node of a tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    pub parent: Option<usize>,
    pub children: Vec<usize>,
    /// Plies below the root.
    pub ply: u32,
    /// A leaf's value, for the root's side (MAX).
    pub leaf: Option<i32>,
    /// An inner node's estimate, as written (`5:(…)`).
    pub estimate: Option<i32>,
    /// Its textbook name.
    pub name: String,
}

impl Node {
    fn leaf(parent: Option<usize>, ply: u32, value: i32) -> Node {
        Node {
            parent,
            children: Vec::new(),
            ply,
            leaf: Some(value),
            estimate: None,
            name: String::new(),
        }
    }

    fn inner(parent: Option<usize>, ply: u32, estimate: Option<i32>) -> Node {
        Node {
            parent,
            children: Vec::new(),
            ply,
            leaf: None,
            estimate,
            name: String::new(),
        }
    }

    pub fn is_leaf(&self) -> bool {
        self.leaf.is_some()
    }
}

/// A hand-made game tree. Node 0 is the root; the side to move there is
/// MAX, and MAX and MIN alternate by ply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameTree {
    nodes: Vec<Node>,
    /// The text it was read from, without comments and with single
    /// spaces: the form `--game-tree` takes back.
    text: String,
}

/// Why a `--game-tree` argument could not be read.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{0}")]
    Parse(#[from] ParseError),
    #[error("cannot read the game tree file '{path}': {reason}")]
    File { path: String, reason: String },
}

impl GameTree {
    /// Read a tree from its bracket notation.
    pub fn parse(text: &str) -> Result<GameTree, ParseError> {
        parse::parse(text)
    }

    /// Read a `--game-tree` argument: the tree itself, or `@FILE` for a
    /// file holding it. The file is read through the same checks as any
    /// file a user gives (a directory, a FIFO or a device is refused).
    pub fn load(argument: &str) -> Result<GameTree, LoadError> {
        match argument.strip_prefix('@') {
            Some("") => Err(LoadError::File {
                path: String::new(),
                reason: "@ needs a file name after it, as in @tree.txt".into(),
            }),
            Some(path) => {
                let text = crate::fsutil::read_text_capped(
                    Path::new(path),
                    MAX_FILE_BYTES,
                    "a game tree file",
                )
                .map_err(|e| LoadError::File {
                    path: path.to_string(),
                    reason: e.why.to_string(),
                })?;
                Ok(GameTree::parse(&text)?)
            }
            None => Ok(GameTree::parse(argument)?),
        }
    }

    fn from_nodes(mut nodes: Vec<Node>, _source: &str) -> GameTree {
        name_nodes(&mut nodes);
        let mut tree = GameTree {
            nodes,
            text: String::new(),
        };
        tree.text = tree.write(0);
        tree
    }

    /// The tree in bracket notation, as it reads back.
    pub fn text(&self) -> &str {
        &self.text
    }

    fn write(&self, id: usize) -> String {
        let node = &self.nodes[id];
        if let Some(value) = node.leaf {
            return value.to_string();
        }
        let children: Vec<String> = node.children.iter().map(|&c| self.write(c)).collect();
        let estimate = node.estimate.map(|e| format!("{e}:")).unwrap_or_default();
        format!("{estimate}({})", children.join(" "))
    }

    pub fn node(&self, id: usize) -> &Node {
        &self.nodes[id]
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// How many leaves the tree has.
    pub fn leaves(&self) -> usize {
        self.nodes.iter().filter(|n| n.is_leaf()).count()
    }

    /// The deepest leaf's ply: the depth a full search of the tree needs.
    pub fn height(&self) -> u32 {
        self.nodes.iter().map(|n| n.ply).max().unwrap_or(0)
    }

    /// The node reached from `id` by its child `index`.
    pub fn child(&self, id: usize, index: usize) -> Option<usize> {
        self.nodes.get(id)?.children.get(index).copied()
    }

    /// The name of the move (the child) `mv` at node `id`: the child's
    /// textbook name.
    pub fn move_name(&self, id: usize, mv: Move) -> String {
        child_index(mv)
            .and_then(|index| self.child(id, index))
            .map_or_else(|| "?".to_string(), |child| self.nodes[child].name.clone())
    }

    /// The moves (child indices) from the root to the node named `name`
    /// (`C`, `C2`; case does not matter), or the names of a line of them
    /// from the root (`C C2`): the last one's path, if the others are on it.
    pub fn path_named(&self, text: &str) -> Option<Vec<usize>> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let last = words.last()?;
        let mut id = self
            .nodes
            .iter()
            .position(|n| n.name.eq_ignore_ascii_case(last))?;
        let mut path = Vec::new();
        let mut on_path = vec![id];
        while let Some(parent) = self.nodes[id].parent {
            path.push(self.nodes[parent].children.iter().position(|&c| c == id)?);
            on_path.push(parent);
            id = parent;
        }
        path.reverse();
        let named_on_path = words[..words.len() - 1].iter().all(|word| {
            on_path
                .iter()
                .any(|&n| self.nodes[n].name.eq_ignore_ascii_case(word))
        });
        named_on_path.then_some(path)
    }

    /// The node reached from the root by these moves (child indices).
    pub fn node_at(&self, path: &[usize]) -> Option<usize> {
        path.iter().try_fold(0, |id, &index| self.child(id, index))
    }

    /// A node's value from the root's side (MAX), as minimax defines it.
    pub fn minimax(&self, id: usize) -> i32 {
        let node = &self.nodes[id];
        match node.leaf {
            Some(value) => value,
            None => {
                let values = node.children.iter().map(|&c| self.minimax(c));
                if node.ply.is_multiple_of(2) {
                    values.max().unwrap_or(0)
                } else {
                    values.min().unwrap_or(0)
                }
            }
        }
    }

    /// What a search stopping at node `id` takes for its value, for MAX: a
    /// leaf's value; an inner node's written estimate; without one, the
    /// estimate of its first child (a quick look down the first line).
    pub fn estimate(&self, id: usize) -> i32 {
        let node = &self.nodes[id];
        match (node.leaf, node.estimate, node.children.first()) {
            (Some(value), _, _) | (None, Some(value), _) => value,
            (None, None, Some(&first)) => self.estimate(first),
            (None, None, None) => 0,
        }
    }

    /// Whether MAX moves at this node (the root and every second ply).
    pub fn max_to_move(&self, id: usize) -> bool {
        self.nodes[id].ply.is_multiple_of(2)
    }

    /// The names of the leaves under `id`, in the tree's order.
    pub fn leaves_under(&self, id: usize) -> Vec<usize> {
        let node = &self.nodes[id];
        if node.is_leaf() {
            return vec![id];
        }
        node.children
            .iter()
            .flat_map(|&c| self.leaves_under(c))
            .collect()
    }
}

/// The switches a lesson on a tree starts with: textbook alpha-beta in
/// the order the tree was written in (the ordering switch would sort the
/// children by their true values; see [`search`]).
pub fn default_options() -> crate::engine::protocol::SearchOptions {
    crate::engine::protocol::SearchOptions {
        alpha_beta: true,
        move_ordering: false,
        transposition_table: false,
        quiescence: false,
        pvs: false,
        iterative_deepening: false,
        selective: false,
        aspiration: false,
        ..crate::engine::protocol::SearchOptions::textbook()
    }
}

/// The record's stand-in position with the other side to move: a tree's
/// record plays MAX as White and MIN as Black (the start position, which
/// is never in check, so passing the turn cannot fail).
pub fn turn_passed(position: &shakmaty::Chess) -> shakmaty::Chess {
    use shakmaty::Position;
    position
        .clone()
        .swap_turn()
        .unwrap_or_else(|_| position.clone())
}

/// The largest tree file read, bytes.
const MAX_FILE_BYTES: u64 = 1 << 20;

/// Textbook names: the root A, inner nodes B, C… in breadth-first order
/// (after Z: AA, AB…), a leaf by its parent's name and its place among the
/// parent's children, counted from 1 (`B2`; under a node named `AB`,
/// `AB.2`, so that a name never reads as two).
fn name_nodes(nodes: &mut [Node]) {
    let mut queue = std::collections::VecDeque::from([0usize]);
    let mut letters = 0usize;
    while let Some(id) = queue.pop_front() {
        if nodes[id].is_leaf() {
            continue;
        }
        nodes[id].name = letter_name(letters);
        letters += 1;
        let children = nodes[id].children.clone();
        for (place, &child) in children.iter().enumerate() {
            if nodes[child].is_leaf() {
                let parent = &nodes[id].name;
                nodes[child].name = if parent.len() > 1 {
                    format!("{parent}.{}", place + 1)
                } else {
                    format!("{parent}{}", place + 1)
                };
            } else {
                queue.push_back(child);
            }
        }
    }
}

/// A, B, …, Z, AA, AB, …
fn letter_name(mut n: usize) -> String {
    let mut name = Vec::new();
    loop {
        name.push(b'A' + (n % 26) as u8);
        if n < 26 {
            break;
        }
        n = n / 26 - 1;
    }
    name.reverse();
    String::from_utf8_lossy(&name).into_owned()
}

/// The placeholder move that stands for a tree's child `index` in a trace
/// event (see the module's comment). Indices run below [`MAX_CHILDREN`],
/// one square each.
pub fn child_move(index: usize) -> Move {
    Move::Put {
        role: Role::Pawn,
        to: Square::ALL[index.min(MAX_CHILDREN - 1)],
    }
}

/// The child index a placeholder move stands for.
pub fn child_index(mv: Move) -> Option<usize> {
    match mv {
        Move::Put {
            role: Role::Pawn,
            to,
        } => Some(usize::from(to)),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
