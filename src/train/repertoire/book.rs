//! A Polyglot book as a repertoire.
//!
//! The book is walked from the start position. Where it is the player's
//! turn, the book's moves for that side are the answer: the highest weight
//! is the `solution` and the line goes on along it; the others (above the
//! cut) go in `also`, accepted but not followed, so the drill stays one
//! repertoire rather than every line the book knows. Where it is the
//! opponent's turn, every book reply above the cut is followed: the player
//! must know an answer to each. A book made for one side only (as a
//! repertoire book often is) has no moves for the other: there the
//! opponent's replies are the legal moves after which the book knows the
//! position.
//!
//! The cut ([`MIN_SHARE`]): a move with less than a tenth of its
//! position's book weight (or weight 0, which Polyglot uses for "never
//! play") is neither asked nor accepted nor played as a reply. Books built
//! from games list every move anyone once played there; a move one game in
//! fifty chose is noise, not a line to drill.
//!
//! The walk stops at [`BOOK_DEPTH`] plies and at [`BOOK_POSITIONS`] asked
//! positions. The positions kept are the shallowest ones (the walk goes
//! breadth first), so a big book gives every first move's answer before
//! any deep line; they are then handed out in line order.

use std::collections::{HashSet, VecDeque};

use shakmaty::{Chess, Move, Position};

use super::Collector;
use crate::book::polyglot::polyglot_key;
use crate::book::{Book, BookMove};

/// Plies from the start position the walk looks at: the positions asked
/// are within the first sixteen plies (eight moves each), deep enough for
/// an opening trap to reach its point (the Lasker trap's 7... fxg1=N+ is
/// ply 14).
pub const BOOK_DEPTH: usize = 16;
/// At most this many positions are asked from a book.
pub const BOOK_POSITIONS: usize = 1_000;
/// The least share of its position's book weight a move needs to count.
pub const MIN_SHARE: f64 = 0.10;

/// One position of the walk.
struct Node {
    parent: Option<usize>,
    /// The move that led here from the parent.
    m: Option<Move>,
    position: Chess,
    /// The player's moves here (the first is the book's choice), if the
    /// player is to move and the book has a move above the cut.
    ask: Vec<Move>,
    children: Vec<usize>,
}

/// The moves of `probe` that pass the cut, best first.
fn counted(moves: &[BookMove]) -> Vec<Move> {
    moves
        .iter()
        .filter(|b| b.weight > 0 && b.share >= MIN_SHARE)
        .map(|b| b.m)
        .collect()
}

/// The book's positions for `color`, within [`BOOK_DEPTH`] and
/// [`BOOK_POSITIONS`], into `collector` in line order.
pub(super) fn walk(book: &Book, color: shakmaty::Color, collector: &mut Collector) {
    walk_within(book, color, collector, BOOK_DEPTH, BOOK_POSITIONS);
}

/// [`walk`] within `max_depth` plies and `max_positions` positions asked.
pub(super) fn walk_within(
    book: &Book,
    color: shakmaty::Color,
    collector: &mut Collector,
    max_depth: usize,
    max_positions: usize,
) {
    let mut nodes = vec![Node {
        parent: None,
        m: None,
        position: Chess::default(),
        ask: Vec::new(),
        children: Vec::new(),
    }];
    // Breadth first: the shallowest positions are kept when the cap is hit;
    // a position met again (a transposition) is not walked twice.
    let mut seen = HashSet::from([polyglot_key(&Chess::default())]);
    let mut queue = VecDeque::from([(0usize, 0usize)]);
    let mut asked = 0;
    while let Some((at, depth)) = queue.pop_front() {
        if depth >= max_depth || asked >= max_positions {
            continue;
        }
        let position = nodes[at].position.clone();
        let moves = counted(&book.probe(&position).moves);
        let follow = if position.turn() == color {
            if moves.is_empty() {
                continue;
            }
            asked += 1;
            nodes[at].ask = moves.clone();
            moves.into_iter().take(1).collect()
        } else if moves.is_empty() {
            // A book made for one side (a repertoire book) has no moves
            // for the other: the opponent's replies are then the legal
            // moves after which the book knows the position.
            position
                .legal_moves()
                .into_iter()
                .filter(|&m| {
                    let mut next = position.clone();
                    next.play_unchecked(m);
                    !book.entries_for(polyglot_key(&next)).is_empty()
                })
                .collect()
        } else {
            moves
        };
        for m in follow {
            let mut next = position.clone();
            next.play_unchecked(m);
            if !seen.insert(polyglot_key(&next)) {
                continue;
            }
            let child = nodes.len();
            nodes.push(Node {
                parent: Some(at),
                m: Some(m),
                position: next,
                ask: Vec::new(),
                children: Vec::new(),
            });
            nodes[at].children.push(child);
            queue.push_back((child, depth + 1));
        }
    }
    // Then in line order: depth first, the book's favourite reply first.
    let mut stack = vec![0usize];
    while let Some(at) = stack.pop() {
        let node = &nodes[at];
        if !node.ask.is_empty() {
            let line = line_to(&nodes, at);
            collector.add(&node.position, &node.ask, Some(line), "");
        }
        stack.extend(node.children.iter().rev());
    }
}

/// The SAN moves from the start to `at`.
fn line_to(nodes: &[Node], at: usize) -> Vec<String> {
    let mut moves = Vec::new();
    let mut i = at;
    while let (Some(parent), Some(m)) = (nodes[i].parent, nodes[i].m) {
        moves.push(m);
        i = parent;
    }
    moves.reverse();
    crate::game::notation::san_line(&Chess::default(), &moves)
}
