//! The curated positions for learning how the search works, shipped in
//! `assets/teaching.txt`: each with the depth its lesson is meant for and a
//! line saying what it shows.

use std::sync::Arc;

use shakmaty::Chess;

use super::{GameTree, Setup};
use crate::engine::protocol::SearchOptions;
use crate::game::fen::parse_fen;

const POSITIONS: &str = include_str!("../../assets/teaching.txt");

/// One teaching position.
#[derive(Debug, Clone)]
pub struct TeachingPosition {
    pub name: String,
    pub depth: u32,
    pub fen: String,
    pub position: Chess,
    /// A hand-made game tree in place of the position (`tree (...)` in
    /// the file).
    pub tree: Option<Arc<GameTree>>,
    /// One line: what the position shows.
    pub description: String,
    /// The switches the lesson starts with.
    pub options: SearchOptions,
}

impl TeachingPosition {
    /// The lesson's setup: its position or tree, depth and switches.
    pub fn setup(&self) -> Setup {
        Setup {
            position: self.position.clone(),
            tree: self.tree.clone(),
            history: Vec::new(),
            depth: self.depth,
            options: self.options,
        }
    }
}

/// The switches a lesson line names, over its defaults; `None` for a word
/// that is no switch.
fn switches(defaults: SearchOptions, words: &str) -> Option<SearchOptions> {
    words
        .split(',')
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .try_fold(defaults, |o, word| {
            Some(match word {
                "best-first" => SearchOptions {
                    move_ordering: true,
                    ..o
                },
                "pvs" => SearchOptions { pvs: true, ..o },
                "iterative" => SearchOptions {
                    iterative_deepening: true,
                    ..o
                },
                "minimax" => SearchOptions {
                    alpha_beta: false,
                    ..o
                },
                _ => return None,
            })
        })
}

/// The curated positions, in the file's order. A line that cannot be read
/// is a fault of the shipped file, caught by the tests, and left out.
pub fn positions() -> Vec<TeachingPosition> {
    POSITIONS
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .filter_map(|line| {
            let mut fields = line.splitn(5, '|').map(str::trim);
            let name = fields.next()?.to_string();
            let depth = fields.next()?.parse().ok()?;
            let fen = fields.next()?.to_string();
            let description = fields.next()?.to_string();
            let (position, tree, defaults) = match fen.strip_prefix("tree ") {
                Some(text) => (
                    Chess::default(),
                    Some(Arc::new(GameTree::parse(text).ok()?)),
                    super::game_tree::default_options(),
                ),
                None => (parse_fen(&fen).ok()?, None, SearchOptions::textbook()),
            };
            let options = switches(defaults, fields.next().unwrap_or(""))?;
            Some(TeachingPosition {
                name,
                depth,
                fen,
                position,
                tree,
                description,
                options,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_the_file_reads() {
        let lines = POSITIONS
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .count();
        let positions = positions();
        assert_eq!(
            positions.len(),
            lines,
            "a line of assets/teaching.txt is broken"
        );
        assert!(positions.len() >= 8);
        for p in &positions {
            let deepest = p.tree.as_ref().map_or(6, |t| t.height());
            assert!((1..=deepest).contains(&p.depth), "{}", p.name);
            assert!(!p.description.is_empty(), "{}", p.name);
        }
    }
}
