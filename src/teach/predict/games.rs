//! Predict mode on hand-made game trees: a node's exact value, and which
//! leaves alpha-beta will never evaluate. A tree's values are shown as the
//! tree is written, for MAX (the root's side), so these answers are too;
//! the record's values are negamax (for the side to move), and MIN's are
//! turned round here.

use super::{Answer, Kind, Question};
use crate::teach::game_tree::child_index;
use crate::teach::replay::Replay;
use crate::teach::step::{Bound, Via};
use crate::teach::tree::NodeId;

/// A node's textbook name (`A`, `C`, `B2`).
pub(super) fn node_name(replay: &Replay, id: NodeId) -> Option<String> {
    let tree = replay.tree.game_tree.as_ref()?;
    let at = replay.tree.tree_node(id)?;
    Some(tree.node(at).name.clone())
}

/// The question for a node of a tree that has children to search: which
/// of its leaves will be skipped where a cutoff can skip some (it is not
/// its parent's first child, and its children are leaves), else its
/// value.
pub(super) fn inner_kind(replay: &Replay, id: NodeId, first: bool, research: bool) -> Kind {
    let leaves_below = replay.tree.game_tree.as_ref().is_some_and(|tree| {
        replay.tree.tree_node(id).is_some_and(|at| {
            tree.node(at)
                .children
                .iter()
                .all(|&c| tree.node(c).is_leaf())
        })
    }) || replay.tree.node(id).depth <= 1;
    if !first && !research && leaves_below {
        Kind::Skipped
    } else {
        Kind::Value
    }
}

/// Whether MAX moves at a node of this ply.
fn max_moves(ply: u32) -> bool {
    ply.is_multiple_of(2)
}

/// A node's value and bound as the record has them, for MAX.
fn for_max(replay: &Replay, id: NodeId) -> Option<(i32, Bound)> {
    let node = replay.tree.node(id);
    let (value, bound) = node.value?;
    Some(if max_moves(node.ply) {
        (value, bound)
    } else {
        (-value, bound.flipped())
    })
}

/// The value node `id` returns, for MAX.
pub(super) fn value(replay: &Replay, id: NodeId) -> Option<i32> {
    for_max(replay, id).map(|(value, _)| value)
}

/// The node's true minimax value in the tree, for MAX (what a bound
/// returned by alpha-beta stands for).
pub(super) fn true_value(replay: &Replay, id: NodeId) -> Option<i32> {
    let tree = replay.tree.game_tree.as_ref()?;
    Some(tree.minimax(replay.tree.tree_node(id)?))
}

/// The value of the first leaf under the node, for MAX: what someone
/// typing the first number they see under it would say.
pub(super) fn first_leaf(replay: &Replay, id: NodeId) -> Option<i32> {
    let tree = replay.tree.game_tree.as_ref()?;
    let at = replay.tree.tree_node(id)?;
    let leaf = *tree.leaves_under(at).first()?;
    tree.node(leaf).leaf
}

/// The node's children in the tree, by place: (index, name, searched).
fn children(replay: &Replay, id: NodeId) -> Vec<(usize, String, bool)> {
    let (Some(tree), Some(at)) = (replay.tree.game_tree.as_ref(), replay.tree.tree_node(id)) else {
        return Vec::new();
    };
    let searched: Vec<usize> = replay
        .tree
        .node(id)
        .children
        .iter()
        .filter_map(|&c| match replay.tree.node(c).via {
            Via::Move(m) => child_index(m),
            _ => None,
        })
        .collect();
    tree.node(at)
        .children
        .iter()
        .enumerate()
        .map(|(i, &c)| (i, tree.node(c).name.clone(), searched.contains(&i)))
        .collect()
}

/// The node's children never searched, as bits by place.
pub(super) fn skipped(replay: &Replay, id: NodeId) -> u64 {
    children(replay, id)
        .iter()
        .filter(|(_, _, searched)| !searched)
        .fold(0, |bits, &(i, _, _)| bits | (1u64 << i))
}

/// A typed value or list of leaves read.
pub(super) fn parse(question: &Question, replay: &Replay, typed: &str) -> Result<Answer, String> {
    if question.kind == Kind::Value {
        return typed
            .trim_start_matches('+')
            .parse::<i32>()
            .map(Answer::Value)
            .map_err(|_| question.expected().to_string());
    }
    if typed.eq_ignore_ascii_case("none") {
        return Ok(Answer::Leaves(0));
    }
    let children = children(replay, question.node);
    let mut bits = 0u64;
    for word in typed.split([' ', ',']).filter(|w| !w.is_empty()) {
        match children
            .iter()
            .find(|(_, name, _)| name.eq_ignore_ascii_case(word))
        {
            Some(&(i, _, _)) => bits |= 1u64 << i,
            None => {
                let names: Vec<&str> = children.iter().map(|(_, n, _)| n.as_str()).collect();
                return Err(format!(
                    "{word} is not a leaf under {}: its leaves are {}.",
                    question.name,
                    names.join(", ")
                ));
            }
        }
    }
    Ok(Answer::Leaves(bits))
}

/// "B2" / "B2 and B3" / "B1, B2 and B3".
fn listed(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Why the node returned what it did.
pub(super) fn value_words(question: &Question, replay: &Replay) -> String {
    let id = question.node;
    let node = replay.tree.node(id);
    let name = &question.name;
    let Some((value, bound)) = for_max(replay, id) else {
        return format!("the record does not say what {name} returned.");
    };
    let side = if max_moves(node.ply) { "MAX" } else { "MIN" };
    let unsearched: Vec<String> = children(replay, id)
        .into_iter()
        .filter(|(_, _, searched)| !searched)
        .map(|(_, name, _)| name)
        .collect();
    if let Some((_, by, _)) = node.cutoff {
        let cutter = replay.tree.move_name(id, by);
        let skipped = match unsearched.len() {
            0 => String::new(),
            1 => format!(", so {} was never searched", listed(&unsearched)),
            _ => format!(", so {} were never searched", listed(&unsearched)),
        };
        // The bound the cutoff reached, for MAX: MIN's beta is MAX's alpha.
        let (limit, other, below) = if max_moves(node.ply) {
            (node.beta, "MIN", "at or above")
        } else {
            (-node.beta, "MAX", "at or below")
        };
        return format!(
            "{name} returns {}{value} for MAX: {cutter} gave {value}, {below} {limit}, what {other} is already sure of elsewhere, so {other} never lets play reach {name}: a cutoff{skipped}. The true value is {} {value}.",
            bound.sign(),
            if max_moves(node.ply) {
                "at least"
            } else {
                "at most"
            },
        );
    }
    if bound != Bound::Exact {
        return format!(
            "{name} returns {}{value} for MAX, a bound: none of its children came back better for {side} than alpha, the best {side} already had elsewhere, so {name} will not be chosen.",
            bound.sign()
        );
    }
    // The children's values are not listed: later questions ask them.
    format!(
        "{name} returns {value} for MAX: {side} takes the {} of its children's values.",
        if max_moves(node.ply) {
            "largest"
        } else {
            "smallest"
        }
    )
}

/// Which leaves were never evaluated, and why.
pub(super) fn skipped_words(question: &Question, replay: &Replay) -> String {
    let id = question.node;
    let node = replay.tree.node(id);
    let name = &question.name;
    let unsearched: Vec<String> = children(replay, id)
        .into_iter()
        .filter(|(_, _, searched)| !searched)
        .map(|(_, name, _)| name)
        .collect();
    let cut = node.cutoff.map(|(_, by, _)| {
        let leaf = replay.tree.move_name(id, by);
        let value = replay
            .tree
            .node(id)
            .children
            .iter()
            .find(|&&c| replay.tree.node(c).via == Via::Move(by))
            .and_then(|&c| value(replay, c))
            .map_or(String::new(), |v| format!(" ({v} for MAX)"));
        (leaf, value)
    });
    match (unsearched.len(), cut) {
        (0, Some((leaf, value))) => format!(
            "every leaf under {name} was evaluated: {leaf}{value} cut {name} off, but no leaf was left after it."
        ),
        (0, None) => format!(
            "every leaf under {name} was evaluated: none was good enough for {} to cut {name} off early.",
            if max_moves(node.ply) { "MAX" } else { "MIN" }
        ),
        (n, Some((leaf, value))) => format!(
            "{} {} never evaluated: {leaf}{value} already cut {name} off, since {} had a better choice elsewhere.",
            listed(&unsearched),
            if n == 1 { "was" } else { "were" },
            if max_moves(node.ply) { "MIN" } else { "MAX" }
        ),
        (n, None) => format!(
            "{} {} never evaluated.",
            listed(&unsearched),
            if n == 1 { "was" } else { "were" }
        ),
    }
}
