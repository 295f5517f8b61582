//! Move tables: a long-term memory of which squares matter to each piece.
//!
//! The idea is Kieran Greer's ("Dynamic Move Chains and Move Tables in
//! Computer Chess"). A transposition table remembers *positions*; a move
//! table remembers *moves*, and only by square, so what it learns in one
//! position still says something in the next, which differs by a move or
//! two. There are twelve tables, one per colour and piece type, each a
//! board of 64 weights:
//!
//! - When a move sequence refutes a position (a beta cutoff), the 'from'
//!   and 'to' squares of each of its moves gain weight in their piece's
//!   table; the other moves tried at that node, which did not refute it,
//!   lose weight on their squares.
//! - Consecutive moves of the sequence are linked: the white pawn's e2 links
//!   to the black pawn's e7 if ...e7-e5 answered e2-e4, so after a move the
//!   link suggests which piece, from which square, answered it before.
//! - The search may try the top `x` table moves first (after the hash move),
//!   those whose weight is above a threshold; then the normal order goes on.
//! - The tables are small (12 x 64 weights plus the links) and are kept for
//!   the whole game: each search adds to what the earlier ones learned. A new
//!   game clears them.
//!
//! Greer draws two views of the weights. *Best*: the positive weights, the
//! squares of moves that kept working. *Importance*: the absolute weight,
//! how much the search had to think about a square for that piece, whether
//! the moves there worked or not. A square's weight can come back to 0 when
//! its gains and losses cancel, so kibitz also counts each square's
//! *touches* (gains plus losses): how often it was considered at all, its
//! own view beside Greer's two.

use shakmaty::{Chess, Color, Move, Position, Square};

pub mod over_game;
mod weights;

pub use weights::{Counts, MapView, Scope, TABLES, TableId, TableLink, TableUpdate, TableWeights};
use weights::{slot, squares_of};

/// Links kept per (table, square); the weakest is replaced when full.
const LINKS: usize = 4;
/// Ordering bonus of a move that a link from the previous move suggests:
/// larger than any square weight the search builds in one game's time, so a
/// linked move goes first among the table moves.
const LINK_BONUS: i64 = 1 << 40;

/// Which moves lose weight at a cutoff.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Decrement {
    /// The moves searched before the one that cut off: kibitz's first
    /// rule. About 85% of cutoffs come from the first move, so little is
    /// ever decremented and Greer's importance map looks like the best one.
    #[default]
    Tried,
    /// Every other legal move at the node, searched or not: the paper's
    /// rule ("All other moves can have the weight value decremented").
    All,
}

impl Decrement {
    pub fn name(self) -> &'static str {
        match self {
            Decrement::Tried => "tried",
            Decrement::All => "all",
        }
    }

    pub fn parse(text: &str) -> Option<Decrement> {
        match text.trim().to_ascii_lowercase().as_str() {
            "tried" => Some(Decrement::Tried),
            "all" => Some(Decrement::All),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Link {
    /// `table * 64 + square` of the piece that answered.
    target: u16,
    weight: i32,
}

const NO_LINK: Link = Link {
    target: u16::MAX,
    weight: 0,
};

/// The twelve tables with their links: the engine's long-term memory.
#[derive(Debug, Clone)]
pub struct MoveTables {
    weights: TableWeights,
    /// For each (table, from-square): the pieces, by table and from-square,
    /// that answered a move from there in a refuting sequence, strongest
    /// first.
    links: Box<LinkTable>,
    /// The same, for this search alone (for the maps' search scope).
    search_links: Box<LinkTable>,
}

type LinkTable = [[Link; LINKS]; TABLES * 64];

impl Default for MoveTables {
    fn default() -> MoveTables {
        MoveTables {
            weights: TableWeights::default(),
            links: Box::new([[NO_LINK; LINKS]; TABLES * 64]),
            search_links: Box::new([[NO_LINK; LINKS]; TABLES * 64]),
        }
    }
}

impl MoveTables {
    /// A new game: forget everything.
    pub fn clear(&mut self) {
        *self = MoveTables::default();
    }

    pub fn weights(&self) -> &TableWeights {
        &self.weights
    }

    /// A new search: the search scope starts empty (the game's goes on).
    pub fn new_search(&mut self) {
        self.weights.search = Counts::default();
        self.search_links.fill([NO_LINK; LINKS]);
    }

    /// The tables as the maps show them: both scopes and every link with
    /// weight, strongest first. (History and counter-moves are the
    /// heuristics', which add them: see `Heuristics::maps`.)
    pub fn snapshot(&self) -> TableWeights {
        TableWeights {
            links: listed(&self.links),
            search_links: listed(&self.search_links),
            ..self.weights.clone()
        }
    }

    /// Learn from one cutoff: raise the refuting sequence's squares, lower
    /// the other tried moves' squares, and link each move of the sequence
    /// to the reply after it.
    /// `line` starts with `color`'s move; `others` are `color`'s moves.
    pub fn record(&mut self, color: Color, line: &[Move], others: &[Move]) {
        self.weights.apply_moves(color, line, others);
        let mut color = color;
        for pair in line.windows(2) {
            if let (Some((from, _)), Some((next_from, _))) =
                (squares_of(pair[0]), squares_of(pair[1]))
            {
                let source = slot(TableId::new(color, pair[0].role()), from);
                let target = slot(TableId::new(!color, pair[1].role()), next_from) as u16;
                strengthen(&mut self.links[source], target);
                strengthen(&mut self.search_links[source], target);
            }
            color = !color;
        }
    }

    /// Whether a link from `previous` (played by the other side just before)
    /// points at the piece and square `m` starts from.
    pub fn linked(&self, color: Color, previous: Option<Move>, m: Move) -> bool {
        let (Some(previous), Some((from, _))) = (previous, squares_of(m)) else {
            return false;
        };
        let Some((previous_from, _)) = squares_of(previous) else {
            return false;
        };
        let source = slot(TableId::new(!color, previous.role()), previous_from);
        let target = slot(TableId::new(color, m.role()), from) as u16;
        self.links[source]
            .iter()
            .any(|l| l.target == target && l.weight > 0)
    }

    /// The links from one (table, square), strongest first: `(table,
    /// square, weight)`.
    pub fn links_from(&self, id: TableId, square: Square) -> Vec<(TableId, Square, i32)> {
        self.links_at(id, square).collect()
    }

    fn links_at(
        &self,
        id: TableId,
        square: Square,
    ) -> impl Iterator<Item = (TableId, Square, i32)> + '_ {
        links_at(&self.links, id, square)
    }

    /// A move's table score: the weights of its two squares in its piece's
    /// table. `None` when it is not above `threshold`.
    pub fn score(&self, color: Color, m: Move, threshold: i32) -> Option<i64> {
        let (from, to) = squares_of(m)?;
        let id = TableId::new(color, m.role());
        let score =
            i64::from(self.weights.weight(id, from)) + i64::from(self.weights.weight(id, to));
        (score > i64::from(threshold)).then_some(score)
    }

    /// The ordering key of `m` among the table moves: linked moves first,
    /// then by score. `None` if the move does not qualify.
    pub fn key(
        &self,
        color: Color,
        previous: Option<Move>,
        m: Move,
        threshold: i32,
    ) -> Option<i64> {
        let score = self.score(color, m, threshold)?;
        Some(if self.linked(color, previous, m) {
            score.saturating_add(LINK_BONUS)
        } else {
            score
        })
    }

    /// The top `count` table moves of `position` (for display and tests;
    /// the search picks them while ordering).
    pub fn top_moves(
        &self,
        position: &Chess,
        previous: Option<Move>,
        count: usize,
        threshold: i32,
    ) -> Vec<Move> {
        let color = position.turn();
        let mut keyed: Vec<(i64, Move)> = position
            .legal_moves()
            .into_iter()
            .filter_map(|m| Some((self.key(color, previous, m, threshold)?, m)))
            .collect();
        keyed.sort_by_key(|a| std::cmp::Reverse(a.0));
        keyed.into_iter().take(count).map(|(_, m)| m).collect()
    }
}

/// One more time for the link to `target` among `links` (a source's four),
/// replacing the weakest when it is new.
fn strengthen(links: &mut [Link; LINKS], target: u16) {
    let index = match links.iter().position(|l| l.target == target) {
        Some(i) => i,
        None => {
            // Replace the weakest link (an empty one is weakest).
            let weakest = (0..LINKS)
                .min_by_key(|&i| (links[i].target != u16::MAX, links[i].weight))
                .unwrap_or(LINKS - 1);
            links[weakest] = Link { target, weight: 0 };
            weakest
        }
    };
    links[index].weight = links[index].weight.saturating_add(1);
    // Keep the strongest first, so a reader can stop at the first match.
    let mut i = index;
    while i > 0 && links[i].weight > links[i - 1].weight {
        links.swap(i, i - 1);
        i -= 1;
    }
}

/// The links from one (table, square) of `links`, strongest first.
fn links_at(
    links: &LinkTable,
    id: TableId,
    square: Square,
) -> impl Iterator<Item = (TableId, Square, i32)> + '_ {
    links[slot(id, square)]
        .iter()
        .filter(|l| l.target != u16::MAX)
        .filter_map(|l| {
            let index = usize::from(l.target) / 64;
            let table = TableId::ALL.iter().find(|t| t.index() == index)?;
            let square = Square::new(u32::from(l.target % 64));
            Some((*table, square, l.weight))
        })
}

/// Every link of `links` with weight, strongest first.
fn listed(links: &LinkTable) -> Vec<TableLink> {
    let mut out: Vec<TableLink> = Vec::new();
    for after in TableId::ALL {
        for square in Square::ALL {
            for (answer, answer_from, weight) in links_at(links, after, square) {
                if weight > 0 {
                    out.push(TableLink {
                        after,
                        after_from: square,
                        answer,
                        answer_from,
                        weight,
                    });
                }
            }
        }
    }
    out.sort_by_key(|l| std::cmp::Reverse(l.weight));
    out
}

#[cfg(test)]
mod tests;
