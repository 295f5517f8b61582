//! A hand-made tree drawn as textbooks draw it: one row per ply, the root
//! on top, each node centred over its children, every value from MAX's
//! view, and at each step of the record what the search knows: the values
//! returned so far (with `≤`/`≥` where alpha-beta proved only a bound),
//! the nodes still to come, the one being searched, and the ones skipped.
//!
//! Only the layout and the states are made here; teach mode draws them.

use super::GameTree;
use crate::teach::replay::Replay;
use crate::teach::tree::NodeId;

/// What the search knows of a node at a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Not reached yet (a leaf shows its given value, an inner node `?`).
    Pending,
    /// On the path from the root to the node being searched.
    Open,
    /// The node the search is at.
    Current,
    /// Searched: its value (or bound) is known.
    Done,
    /// Never to be searched in this iteration: a cutoff above it skipped
    /// it.
    Skipped,
    /// Past the depth limit of this iteration.
    Beyond,
}

/// One node's place and text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    /// Its column, counted in characters from the left.
    pub column: usize,
    pub text: String,
    pub state: State,
}

/// The drawing: `rows[ply]` holds that ply's cells, left to right.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Diagram {
    pub rows: Vec<Vec<Cell>>,
    pub width: usize,
}

impl Diagram {
    /// The rows as plain text (a skipped node is marked `✗` in its own
    /// text): for exports and tests.
    pub fn text(&self) -> Vec<String> {
        self.rows
            .iter()
            .map(|cells| {
                let mut line = String::new();
                for cell in cells {
                    while line.chars().count() < cell.column {
                        line.push(' ');
                    }
                    line.push_str(&cell.text);
                }
                line.trim_end().to_string()
            })
            .collect()
    }
}

/// The texts, before placing: a node's label at a step.
fn label(tree: &GameTree, id: usize, value: Option<String>, state: State) -> String {
    let node = tree.node(id);
    match (node.leaf, state) {
        (_, State::Skipped) if node.is_leaf() => format!("{}✗", node.leaf.unwrap_or(0)),
        (Some(v), _) => value.unwrap_or_else(|| v.to_string()),
        (None, State::Skipped) => format!("{}:✗", node.name),
        (None, _) => format!("{}:{}", node.name, value.unwrap_or_else(|| "?".into())),
    }
}

/// The diagram of `replay`'s tree at step `applied` (the number of events
/// applied). `None` when the record is not of a hand-made tree.
pub fn diagram(replay: &Replay, applied: usize) -> Option<Diagram> {
    let search = &replay.tree;
    let tree = search.game_tree.as_ref()?;
    // The iteration on show: the last root entered by this step.
    let root = search
        .roots
        .iter()
        .rev()
        .copied()
        .find(|&r| search.node(r).seen(applied))
        .or_else(|| search.roots.first().copied());
    let limit = root.map_or(tree.height() as i32, |r| search.node(r).depth);
    // The search's node for each tree node in this iteration.
    let mut found: Vec<Option<NodeId>> = vec![None; tree.len()];
    if let Some(root) = root {
        let mut stack = vec![root];
        while let Some(id) = stack.pop() {
            if let Some(at) = search.tree_node(id) {
                found[at] = Some(id);
            }
            stack.extend(search.node(id).children.iter().copied());
        }
    }
    let current = search.current(applied);
    let open: Vec<NodeId> = current.map(|c| search.path(c)).unwrap_or_default();
    let mut states = vec![State::Pending; tree.len()];
    let mut texts = vec![String::new(); tree.len()];
    for id in 0..tree.len() {
        let node = tree.node(id);
        let state = if node.ply as i32 > limit {
            State::Beyond
        } else {
            match found[id] {
                Some(s) if !search.node(s).seen(applied) => {
                    skipped_or_pending(tree, &found, search, id, applied)
                }
                Some(s) if Some(s) == current && search.node(s).value_at(applied).is_none() => {
                    State::Current
                }
                Some(s) if search.node(s).value_at(applied).is_some() => State::Done,
                Some(s) if open.contains(&s) => State::Open,
                Some(_) => State::Pending,
                None => skipped_or_pending(tree, &found, search, id, applied),
            }
        };
        let value = found[id]
            .and_then(|s| search.node(s).value_at(applied))
            .map(|(value, bound)| {
                // Values are kept from the node's side to move; MAX's
                // view turns MIN's around, bound and all.
                if node.ply % 2 == 0 {
                    format!("{}{value}", bound.sign().trim_end())
                } else {
                    format!("{}{}", bound.flipped().sign().trim_end(), -value)
                }
            });
        states[id] = state;
        texts[id] = label(tree, id, value, state);
    }
    Some(layout(tree, &texts, &states))
}

/// A node the search has not entered: skipped if its parent is done with
/// its children (it returned, or a cutoff ended its loop), else pending.
fn skipped_or_pending(
    tree: &GameTree,
    found: &[Option<NodeId>],
    search: &crate::teach::tree::SearchTree,
    id: usize,
    applied: usize,
) -> State {
    let Some(parent) = tree.node(id).parent else {
        return State::Pending;
    };
    match found[parent] {
        Some(p) => {
            let node = search.node(p);
            let cut = node
                .cutoff
                .is_some_and(|(at, _, _)| (at as usize) < applied);
            if cut || node.value_at(applied).is_some() {
                State::Skipped
            } else {
                State::Pending
            }
        }
        // The parent itself was never searched: whatever skipped it
        // skipped its subtree.
        None => skipped_or_pending(tree, found, search, parent, applied),
    }
}

/// Place every node: leaves left to right with two spaces between, each
/// inner node centred over its children, a subtree as wide as its label if
/// that is wider than its children. Each label is given the room its
/// widest form needs (a bound sign, a `✗`), so nothing moves from step to
/// step.
fn layout(tree: &GameTree, texts: &[String], states: &[State]) -> Diagram {
    let mut room = vec![0usize; tree.len()];
    let mut digits = vec![0usize; tree.len()];
    let mut widths = vec![0usize; tree.len()];
    // Children come after their parent in the node list (read in order),
    // so a reverse walk sizes every child before its parent.
    for id in (0..tree.len()).rev() {
        let node = tree.node(id);
        let children = &node.children;
        let own_digits = node
            .leaf
            .or(node.estimate)
            .map_or(0, |v| v.to_string().len());
        digits[id] = children
            .iter()
            .map(|&c| digits[c])
            .fold(own_digits, usize::max);
        room[id] = if node.is_leaf() {
            digits[id] + 1
        } else {
            node.name.chars().count() + 2 + digits[id]
        };
        let below = if children.is_empty() {
            0
        } else {
            children.iter().map(|&c| widths[c]).sum::<usize>() + (children.len() - 1)
        };
        widths[id] = room[id].max(below);
    }
    let rows = tree.height() as usize + 1;
    let mut diagram = Diagram {
        rows: vec![Vec::new(); rows],
        width: widths[0],
    };
    let mut stack = vec![(0usize, 0usize)];
    while let Some((id, left)) = stack.pop() {
        let node = tree.node(id);
        // The label's room centred in the subtree, the text at its left.
        diagram.rows[node.ply as usize].push(Cell {
            column: left + (widths[id] - room[id]) / 2,
            text: texts[id].clone(),
            state: states[id],
        });
        let children = &node.children;
        if children.is_empty() {
            continue;
        }
        let below = children.iter().map(|&c| widths[c]).sum::<usize>() + (children.len() - 1);
        let mut at = left + (widths[id] - below) / 2;
        for &child in children {
            stack.push((child, at));
            at += widths[child] + 1;
        }
    }
    for row in &mut diagram.rows {
        row.sort_by_key(|cell| cell.column);
    }
    diagram
}
