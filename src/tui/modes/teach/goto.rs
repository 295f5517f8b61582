//! Teach mode's `:goto`: the step where the search first reaches a line
//! of moves from the root (or, on a hand-made tree, a node by its name).

use shakmaty::Position;

use crate::tui::shared::{Shared, Tone};

use super::Teach;

impl Teach {
    /// `:goto e4 e5 Nf3`: the first step where the search reaches the node
    /// after these moves from the root.
    pub(super) fn goto_line(&mut self, cx: &mut Shared, text: &str) {
        let Some((replay, _)) = self.ready() else {
            cx.say("The search is still being recorded.", Tone::Info);
            return;
        };
        if text.is_empty() {
            cx.say(":goto takes moves from the root, e.g. :goto e4 e5 Nf3", Tone::Error);
            return;
        }
        let mut position = self.setup.position.clone();
        let mut moves = Vec::new();
        if let Some(tree) = &self.setup.tree {
            // A tree's nodes by name: `:goto C2` (or `:goto C C2`).
            let Some(path) = tree.path_named(text) else {
                cx.say(format!(":goto {text}: no node of this tree has that name"), Tone::Error);
                return;
            };
            moves.extend(path.into_iter().map(crate::teach::game_tree::child_move));
        }
        for word in text.split_whitespace().filter(|_| self.setup.tree.is_none()) {
            match crate::game::notation::parse_move(&position, word) {
                Ok(m) => {
                    position.play_unchecked(m);
                    moves.push(m);
                }
                Err(e) => {
                    cx.say(format!(":goto {word}: {e}"), Tone::Error);
                    return;
                }
            }
        }
        let tree = &replay.tree;
        // Every node reached by these moves, in any iteration or re-search:
        // the first one entered wins.
        let mut level: Vec<u32> = tree.roots.clone();
        for &m in &moves {
            level = level
                .iter()
                .flat_map(|&id| tree.node(id).children.iter().copied())
                .filter(|&child| tree.node(child).via == crate::teach::Via::Move(m))
                .collect();
        }
        match level.iter().map(|&id| tree.node(id).enter).min() {
            Some(enter) => {
                let target = enter as usize + 1;
                self.playing = None;
                self.seek(target);
                self.tree_view.follow();
                cx.say(
                    format!("Step {}: the search reaches {text}.", crate::teach::values::count_text(target as u64)),
                    Tone::Info,
                );
            }
            None => cx.say(format!("The search never reaches {text}."), Tone::Info),
        }
    }
}
