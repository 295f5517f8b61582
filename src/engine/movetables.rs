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

use serde::Serialize;
use shakmaty::{Chess, Color, Move, Position, Role, Square};

/// One table per colour and piece type.
pub const TABLES: usize = 12;
/// Links kept per (table, square); the weakest is replaced when full.
const LINKS: usize = 4;
/// Ordering bonus of a move that a link from the previous move suggests:
/// larger than any square weight the search builds in one game's time, so a
/// linked move goes first among the table moves.
const LINK_BONUS: i64 = 1 << 40;

/// Which of the twelve tables: a colour and a piece type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TableId {
    pub color: Color,
    pub role: Role,
}

impl TableId {
    /// All twelve, white first, then in the order king, queen, rook,
    /// bishop, knight, pawn (the order a player names them in).
    pub const ALL: [TableId; TABLES] = {
        const ROLES: [Role; 6] = [
            Role::King,
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ];
        let mut all = [TableId {
            color: Color::White,
            role: Role::King,
        }; TABLES];
        let mut i = 0;
        while i < TABLES {
            all[i] = TableId {
                color: if i < 6 { Color::White } else { Color::Black },
                role: ROLES[i % 6],
            };
            i += 1;
        }
        all
    };

    pub fn new(color: Color, role: Role) -> TableId {
        TableId { color, role }
    }

    pub(crate) fn index(self) -> usize {
        self.color as usize * 6 + (self.role as usize - 1)
    }

    /// Two letters, colour then piece: "wn", "bk".
    pub fn code(self) -> String {
        format!("{}{}", self.color.char(), self.role.char())
    }

    /// Parses "wn", "BQ", "white knight".
    pub fn parse(text: &str) -> Option<TableId> {
        let text = text.trim().to_ascii_lowercase();
        let mut chars = text.chars();
        if text.len() == 2 {
            let color = Color::from_char(chars.next()?)?;
            let role = Role::from_char(chars.next()?)?;
            return Some(TableId { color, role });
        }
        let (color, role) = text.split_once(' ')?;
        let color = match color {
            "white" => Color::White,
            "black" => Color::Black,
            _ => return None,
        };
        let role = Role::ALL
            .into_iter()
            .find(|r| role_name(*r) == role.trim())?;
        Some(TableId { color, role })
    }

    /// "white knight".
    pub fn name(self) -> String {
        format!("{} {}", self.color_name(), self.piece_name())
    }

    /// "white" or "black".
    pub fn color_name(self) -> &'static str {
        color_name(self.color)
    }

    /// "knight".
    pub fn piece_name(self) -> &'static str {
        role_name(self.role)
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::King => "king",
        Role::Queen => "queen",
        Role::Rook => "rook",
        Role::Bishop => "bishop",
        Role::Knight => "knight",
        Role::Pawn => "pawn",
    }
}

/// The squares a move touches for its piece: where it starts and where it
/// lands. Castling is the king's move (to g1/c1, not onto the rook).
fn squares_of(m: Move) -> Option<(Square, Square)> {
    match m {
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => Some((from, to)),
        Move::Castle { king, rook } => {
            let side = if rook.file() > king.file() {
                shakmaty::CastlingSide::KingSide
            } else {
                shakmaty::CastlingSide::QueenSide
            };
            let color = if king.rank() == shakmaty::Rank::First {
                Color::White
            } else {
                Color::Black
            };
            Some((king, side.king_to(color)))
        }
        Move::Put { .. } => None,
    }
}

/// One scope's tables (the whole game's, or this search's): the net weight
/// of each square and how often the tables' rule touched it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counts {
    /// Net weight: gains minus losses.
    weights: [[i32; 64]; TABLES],
    /// Touches: gains plus losses, each +1 or -1 on the square counting
    /// one. A square never touched was never considered for that piece.
    touches: [[u32; 64]; TABLES],
}

impl Default for Counts {
    fn default() -> Counts {
        Counts {
            weights: [[0; 64]; TABLES],
            touches: [[0; 64]; TABLES],
        }
    }
}

impl Counts {
    pub fn table(&self, id: TableId) -> &[i32; 64] {
        &self.weights[id.index()]
    }

    pub fn weight(&self, id: TableId, square: Square) -> i32 {
        self.weights[id.index()][square.to_usize()]
    }

    /// How often the tables' rule touched `square` for `id`'s piece.
    pub fn touches(&self, id: TableId) -> &[u32; 64] {
        &self.touches[id.index()]
    }

    /// Whether `square` was ever considered for `id`'s piece (its weight
    /// may be 0 all the same, when gains and losses cancel).
    pub fn considered(&self, id: TableId, square: Square) -> bool {
        self.touches[id.index()][square.to_usize()] != 0
    }

    /// The squares considered for `id`'s piece: a bit per square, a1 = bit 0.
    pub fn considered_squares(&self, id: TableId) -> u64 {
        self.touches[id.index()]
            .iter()
            .enumerate()
            .filter(|&(_, &t)| t != 0)
            .fold(0, |mask, (i, _)| mask | 1 << i)
    }

    /// The squares considered for any piece.
    pub fn considered_by_any(&self) -> u64 {
        TableId::ALL
            .iter()
            .fold(0, |all, &id| all | self.considered_squares(id))
    }

    /// Whether nothing has been learned yet: no square ever considered.
    pub fn is_empty(&self) -> bool {
        self.touches.iter().flatten().all(|&t| t == 0)
    }

    /// Every table's gains and losses summed over the squares: a square's
    /// gains are (touches + weight) / 2, its losses (touches - weight) / 2.
    pub fn gains_and_losses(&self) -> (u64, u64) {
        let mut gains = 0u64;
        let mut losses = 0u64;
        for (weights, touches) in self.weights.iter().zip(&self.touches) {
            for (&w, &t) in weights.iter().zip(touches) {
                let (w, t) = (i64::from(w), i64::from(t));
                gains += ((t + w) / 2).unsigned_abs();
                losses += ((t - w) / 2).unsigned_abs();
            }
        }
        (gains, losses)
    }

    fn add(&mut self, id: TableId, m: Move, delta: i32) {
        if let Some((from, to)) = squares_of(m) {
            let index = id.index();
            for square in [from, to] {
                let slot = &mut self.weights[index][square.to_usize()];
                *slot = slot.saturating_add(delta);
                let touch = &mut self.touches[index][square.to_usize()];
                *touch = touch.saturating_add(1);
            }
        }
    }

    fn apply_moves(&mut self, color: Color, line: &[Move], others: &[Move]) {
        let mut side = color;
        for &m in line {
            self.add(TableId::new(side, m.role()), m, 1);
            side = !side;
        }
        for &m in others {
            self.add(TableId::new(color, m.role()), m, -1);
        }
    }

    /// A table as `view` shows it, a1..h8.
    pub fn view(&self, id: TableId, view: MapView) -> [i64; 64] {
        let mut out = [0i64; 64];
        let (weights, touches) = (&self.weights[id.index()], &self.touches[id.index()]);
        for (i, value) in out.iter_mut().enumerate() {
            *value = view.value(weights[i], touches[i]);
        }
        out
    }

    /// The combined view: for each square, the sum over the twelve tables
    /// of the view's value.
    pub fn combined(&self, view: MapView) -> [i64; 64] {
        let mut sum = [0i64; 64];
        for id in TableId::ALL {
            for (total, value) in sum.iter_mut().zip(self.view(id, view)) {
                *total += value;
            }
        }
        sum
    }
}

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

/// Which of the tables' two memories a map shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Scope {
    /// Everything learned since the game began (the tables the search
    /// orders by).
    #[default]
    Game,
    /// Only what the current (or last) search learned.
    Search,
}

impl Scope {
    pub fn name(self) -> &'static str {
        match self {
            Scope::Game => "game",
            Scope::Search => "search",
        }
    }
}

/// One link of the tables (Greer's Fig. 2): after a move of the `after`
/// piece from `after_from`, a move of the `answer` piece from `answer_from`
/// refuted it `weight` times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableLink {
    pub after: TableId,
    pub after_from: Square,
    pub answer: TableId,
    pub answer_from: Square,
    pub weight: i32,
}

impl TableLink {
    /// "after the black pawn leaves e7, the white knight from g1 answered
    /// it 37 times".
    pub fn words(&self) -> String {
        format!(
            "after the {} leaves {}, the {} from {} answered {}",
            self.after.name(),
            self.after_from,
            self.answer.name(),
            self.answer_from,
            match self.weight {
                1 => "once".to_string(),
                n => format!("{n} times"),
            }
        )
    }

    /// The same in the maps' table codes, for a line with little room:
    /// "bp e7→wn g1 ×37".
    pub fn short(&self) -> String {
        format!(
            "{} {}→{} {} ×{}",
            self.after.code(),
            self.after_from,
            self.answer.code(),
            self.answer_from,
            self.weight
        )
    }
}

/// The engine's move memory at one moment, for the maps and `kibitz
/// movetables`: Greer's tables in both scopes with their links, and beside
/// them the history heuristic and the counter-moves, the modern descendants
/// of the same idea that the search actually orders by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableWeights {
    game: Counts,
    search: Counts,
    /// The links with any weight since the game began, strongest first.
    pub links: Vec<TableLink>,
    /// The links this search made, strongest first.
    pub search_links: Vec<TableLink>,
    /// The history heuristic, by table (colour and moving piece) and
    /// destination square: what a quiet move of that piece to that square
    /// earned in cutoffs (bonuses, penalties, gravity; halved each search).
    pub history: [[i32; 64]; TABLES],
    /// By the table of the refuted move's piece and its destination: the
    /// quiet move that last refuted it (the counter-move).
    pub counters: Vec<Option<Move>>,
    /// The history and counters are those at the end of a search, not of
    /// the moment the tables show (teach mode's record follows the tables
    /// step by step, not these).
    pub history_at_end: bool,
}

impl Default for TableWeights {
    fn default() -> TableWeights {
        TableWeights {
            game: Counts::default(),
            search: Counts::default(),
            links: Vec::new(),
            search_links: Vec::new(),
            history: [[0; 64]; TABLES],
            counters: vec![None; TABLES * 64],
            history_at_end: false,
        }
    }
}

impl std::ops::Deref for TableWeights {
    type Target = Counts;

    /// The whole game's tables, which the search orders by.
    fn deref(&self) -> &Counts {
        &self.game
    }
}

impl TableWeights {
    /// The tables of `scope`.
    pub fn scope(&self, scope: Scope) -> &Counts {
        match scope {
            Scope::Game => &self.game,
            Scope::Search => &self.search,
        }
    }

    /// The links of `scope`, strongest first.
    pub fn links_in(&self, scope: Scope) -> &[TableLink] {
        match scope {
            Scope::Game => &self.links,
            Scope::Search => &self.search_links,
        }
    }

    /// The weight update of one cutoff (see [`TableUpdate`]), in both
    /// scopes.
    pub fn apply(&mut self, update: &TableUpdate) {
        self.apply_moves(update.color, &update.line, &update.others);
        // The links of the line, as `MoveTables::record` makes them (here
        // without its four-per-square limit: a replay's few updates).
        let mut color = update.color;
        for pair in update.line.windows(2) {
            if let (Some((from, _)), Some((next_from, _))) =
                (squares_of(pair[0]), squares_of(pair[1]))
            {
                let link = TableLink {
                    after: TableId::new(color, pair[0].role()),
                    after_from: from,
                    answer: TableId::new(!color, pair[1].role()),
                    answer_from: next_from,
                    weight: 1,
                };
                strengthen_link(&mut self.links, link);
                strengthen_link(&mut self.search_links, link);
            }
            color = !color;
        }
    }

    fn apply_moves(&mut self, color: Color, line: &[Move], others: &[Move]) {
        self.game.apply_moves(color, line, others);
        self.search.apply_moves(color, line, others);
    }

    /// The history heuristic's table for `id`, a1..h8 by destination.
    pub fn history_table(&self, id: TableId) -> &[i32; 64] {
        &self.history[id.index()]
    }

    /// The counter-move to a move of `refuted`'s piece that landed on `to`.
    pub fn counter(&self, refuted: TableId, to: Square) -> Option<Move> {
        self.counters.get(slot(refuted, to)).copied().flatten()
    }

    /// The strongest links since the game began where `id`'s piece moved
    /// first or answered, strongest first.
    pub fn links_of(&self, id: TableId) -> impl Iterator<Item = &TableLink> {
        self.links_of_in(Scope::Game, id)
    }

    /// The strongest links of `scope` where `id`'s piece moved first or
    /// answered, strongest first.
    pub fn links_of_in(&self, scope: Scope, id: TableId) -> impl Iterator<Item = &TableLink> {
        self.links_in(scope)
            .iter()
            .filter(move |l| l.after == id || l.answer == id)
    }
}

/// One more time for `link` in `links` (strongest first); a stable sort
/// keeps the first made first among equals.
fn strengthen_link(links: &mut Vec<TableLink>, link: TableLink) {
    let same = |l: &&mut TableLink| {
        l.after == link.after
            && l.after_from == link.after_from
            && l.answer == link.answer
            && l.answer_from == link.answer_from
    };
    match links.iter_mut().find(same) {
        Some(found) => found.weight += 1,
        None => links.push(link),
    }
    links.sort_by_key(|l| std::cmp::Reverse(l.weight));
}

/// Which picture of a table to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum MapView {
    /// kibitz's own view: how often the square was considered, the
    /// touches (gains plus losses). Blank really means never considered.
    #[default]
    Touches,
    /// Greer's importance: the absolute accumulated weight, |gains -
    /// losses|. Blank: 0, never considered or back to 0.
    Importance,
    /// The net weight, signed: gains minus losses.
    Net,
    /// Greer's best: only the positive net weights, squares of moves that
    /// kept working.
    Best,
}

impl MapView {
    /// A square as this view shows it, from its net weight and touches.
    pub fn value(self, weight: i32, touches: u32) -> i64 {
        match self {
            MapView::Touches => i64::from(touches),
            MapView::Importance => i64::from(weight).abs(),
            MapView::Net => i64::from(weight),
            MapView::Best => i64::from(weight.max(0)),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            MapView::Touches => "touches",
            MapView::Importance => "importance",
            MapView::Net => "net",
            MapView::Best => "best",
        }
    }

    /// The name as the map's title shows it: Greer's two views say whose
    /// they are.
    pub fn title(self) -> &'static str {
        match self {
            MapView::Touches => "touches",
            MapView::Importance => "importance (Greer's)",
            MapView::Net => "net",
            MapView::Best => "best (Greer's)",
        }
    }

    /// The next view, for the `M` key.
    pub fn next(self) -> MapView {
        match self {
            MapView::Touches => MapView::Importance,
            MapView::Importance => MapView::Net,
            MapView::Net => MapView::Best,
            MapView::Best => MapView::Touches,
        }
    }
}

/// What one cutoff teaches the tables: the refuting sequence (the move that
/// cut off and the line the search expects after it, colours alternating
/// from `color`) and the moves tried before it at that node, by `color`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TableUpdate {
    #[serde(serialize_with = "serialize_color")]
    pub color: Color,
    #[serde(serialize_with = "serialize_moves")]
    pub line: Vec<Move>,
    #[serde(serialize_with = "serialize_moves")]
    pub others: Vec<Move>,
}

fn serialize_color<S: serde::Serializer>(c: &Color, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(color_name(*c))
}

fn serialize_moves<S: serde::Serializer>(moves: &[Move], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(moves.iter().map(|m| crate::core::uci_text(*m)))
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

fn slot(id: TableId, square: Square) -> usize {
    id.index() * 64 + square.to_usize()
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
mod tests {
    use super::*;
    use shakmaty::uci::UciMove;

    fn moves(position: &Chess, line: &[&str]) -> Vec<Move> {
        let mut position = position.clone();
        line.iter()
            .map(|uci| {
                let m = uci.parse::<UciMove>().unwrap().to_move(&position).unwrap();
                position.play_unchecked(m);
                m
            })
            .collect()
    }

    fn at(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn a_cutoff_raises_its_sequence_and_lowers_the_other_moves() {
        let start = Chess::default();
        let line = moves(&start, &["e2e4", "e7e5", "g1f3"]);
        let others: Vec<Move> = moves(&start, &["d2d4"])
            .into_iter()
            .chain(moves(&start, &["e2e3"]))
            .collect();
        let mut tables = MoveTables::default();
        tables.record(Color::White, &line, &others);
        let w = tables.weights();
        let wp = TableId::new(Color::White, Role::Pawn);
        let bp = TableId::new(Color::Black, Role::Pawn);
        let wn = TableId::new(Color::White, Role::Knight);
        // e2 gained one for e2-e4 and lost one for e2-e3.
        assert_eq!(w.weight(wp, at("e2")), 0);
        assert_eq!(w.weight(wp, at("e4")), 1);
        assert_eq!(w.weight(wp, at("e3")), -1);
        assert_eq!(w.weight(wp, at("d2")), -1);
        assert_eq!(w.weight(wp, at("d4")), -1);
        assert_eq!(w.weight(bp, at("e7")), 1);
        assert_eq!(w.weight(bp, at("e5")), 1);
        assert_eq!(w.weight(wn, at("g1")), 1);
        assert_eq!(w.weight(wn, at("f3")), 1);
        // Nothing else moved (e2 is back at 0 but was considered: +1 -1).
        let touched: usize = TableId::ALL
            .iter()
            .map(|&id| w.table(id).iter().filter(|&&x| x != 0).count())
            .sum();
        assert_eq!(touched, 8);
        // The chain: white pawn e2 -> black pawn e7 -> white knight g1.
        assert_eq!(tables.links_from(wp, at("e2")), vec![(bp, at("e7"), 1)]);
        assert_eq!(tables.links_from(bp, at("e7")), vec![(wn, at("g1"), 1)]);
        assert!(tables.links_from(wn, at("g1")).is_empty());
    }

    #[test]
    fn the_threshold_gates_table_moves_and_links_go_first() {
        let start = Chess::default();
        let mut tables = MoveTables::default();
        for _ in 0..3 {
            tables.record(Color::White, &moves(&start, &["d2d4"]), &[]);
        }
        tables.record(Color::White, &moves(&start, &["e2e4", "e7e5"]), &[]);
        // d2-d4 scores 6, e2-e4 scores 2.
        let d4 = moves(&start, &["d2d4"])[0];
        let e4 = moves(&start, &["e2e4"])[0];
        assert_eq!(tables.score(Color::White, d4, 0), Some(6));
        assert_eq!(tables.score(Color::White, e4, 0), Some(2));
        assert_eq!(tables.score(Color::White, e4, 2), None);
        // The tables hold squares, not moves: d2-d3 shares d2's weight (3),
        // e2-e3 shares e2's (1).
        let d3 = moves(&start, &["d2d3"])[0];
        let e3 = moves(&start, &["e2e3"])[0];
        assert_eq!(tables.top_moves(&start, None, 8, 0), vec![d4, d3, e4, e3]);
        assert_eq!(tables.top_moves(&start, None, 8, 2), vec![d4, d3]);
        assert_eq!(tables.top_moves(&start, None, 1, 0), vec![d4]);
        assert_eq!(tables.top_moves(&start, None, 1, 10), Vec::<Move>::new());
        // After 1. e4, the link from e2 puts ...e7-e5 first for Black.
        let after = {
            let mut p = start.clone();
            p.play_unchecked(e4);
            p
        };
        let e5 = moves(&after, &["e7e5"])[0];
        assert!(tables.linked(Color::Black, Some(e4), e5));
        assert_eq!(tables.top_moves(&after, Some(e4), 1, 0), vec![e5]);
        // A new game forgets.
        tables.clear();
        assert!(tables.weights().is_empty());
        assert!(
            tables
                .links_from(TableId::new(Color::White, Role::Pawn), at("e2"))
                .is_empty()
        );
    }

    #[test]
    fn a_square_whose_gains_and_losses_cancel_was_still_considered() {
        let start = Chess::default();
        let mut weights = TableWeights::default();
        let nf3 = moves(&start, &["g1f3"]);
        weights.apply_moves(Color::White, &nf3, &[]);
        weights.apply_moves(Color::White, &[], &nf3);
        let wn = TableId::new(Color::White, Role::Knight);
        assert_eq!(weights.weight(wn, at("g1")), 0);
        assert!(weights.considered(wn, at("g1")));
        assert!(weights.considered(wn, at("f3")));
        assert!(!weights.considered(wn, at("b1")));
        assert!(!weights.is_empty());
        assert_eq!(
            weights.considered_by_any(),
            (1 << at("g1").to_usize()) | (1 << at("f3").to_usize())
        );
    }

    #[test]
    fn castling_is_the_kings_move_to_its_castled_square() {
        let position: Chess = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        let castle = moves(&position, &["e1g1"]);
        let mut tables = MoveTables::default();
        tables.record(Color::White, &castle, &[]);
        let wk = TableId::new(Color::White, Role::King);
        assert_eq!(tables.weights().weight(wk, at("e1")), 1);
        assert_eq!(tables.weights().weight(wk, at("g1")), 1);
        assert_eq!(tables.weights().weight(wk, at("h1")), 0);
    }

    #[test]
    fn table_names_parse_both_ways() {
        for id in TableId::ALL {
            assert_eq!(TableId::parse(&id.code()), Some(id));
            assert_eq!(TableId::parse(&id.name()), Some(id));
        }
        assert_eq!(
            TableId::parse("WN").map(|t| t.name()),
            Some("white knight".into())
        );
        assert_eq!(TableId::parse("wx"), None);
        assert_eq!(TableId::parse("green knight"), None);
        assert_eq!(TableId::ALL[0].code(), "wk");
        assert_eq!(TableId::ALL[11].code(), "bp");
    }

    #[test]
    fn views_show_touches_the_signed_weight_or_its_gain() {
        // A square gained 3 and lost 978 times: net -975, touched 981.
        assert_eq!(MapView::Touches.value(-975, 981), 981);
        // Greer's importance: the absolute weight.
        assert_eq!(MapView::Importance.value(-975, 981), 975);
        assert_eq!(MapView::Net.value(-975, 981), -975);
        assert_eq!(MapView::Best.value(-975, 981), 0);
        assert_eq!(MapView::Best.value(12, 12), 12);
        assert_eq!(MapView::Touches.next(), MapView::Importance);
        assert_eq!(MapView::Importance.next(), MapView::Net);
        assert_eq!(MapView::Best.next(), MapView::Touches);
        assert_eq!(MapView::Importance.title(), "importance (Greer's)");
    }

    /// A cancelled square keeps its touches; the search scope starts empty
    /// at each search while the game's goes on.
    #[test]
    fn touches_count_gains_and_losses_and_the_search_scope_restarts() {
        let start = Chess::default();
        let e4 = moves(&start, &["e2e4"]);
        let e3 = moves(&start, &["e2e3"]);
        let mut tables = MoveTables::default();
        tables.record(Color::White, &e4, &e3);
        let wp = TableId::new(Color::White, Role::Pawn);
        let w = tables.weights();
        assert_eq!(w.weight(wp, at("e2")), 0);
        assert_eq!(w.touches(wp)[at("e2").to_usize()], 2);
        assert!(w.considered(wp, at("e2")));
        assert_eq!(w.scope(Scope::Search).touches(wp)[at("e2").to_usize()], 2);
        tables.new_search();
        tables.record(Color::White, &e4, &[]);
        let w = tables.weights();
        assert_eq!(w.scope(Scope::Game).weight(wp, at("e4")), 2);
        assert_eq!(w.scope(Scope::Search).weight(wp, at("e4")), 1);
        assert_eq!(w.scope(Scope::Search).weight(wp, at("e3")), 0);
        assert!(!w.scope(Scope::Search).considered(wp, at("e3")));
    }

    #[test]
    fn links_come_out_strongest_first_in_words() {
        let start = Chess::default();
        let mut tables = MoveTables::default();
        for _ in 0..3 {
            tables.record(Color::White, &moves(&start, &["e2e4", "e7e5", "g1f3"]), &[]);
        }
        tables.record(Color::White, &moves(&start, &["d2d4", "d7d5"]), &[]);
        let snapshot = tables.snapshot();
        assert_eq!(snapshot.links.len(), 3);
        assert_eq!(snapshot.links[0].weight, 3);
        assert_eq!(snapshot.links[2].weight, 1);
        let bp = TableId::new(Color::Black, Role::Pawn);
        let words: Vec<String> = snapshot.links_of(bp).map(TableLink::words).collect();
        assert!(
            words.contains(
                &"after the black pawn leaves e7, the white knight from g1 answered 3 times"
                    .to_string()
            ),
            "{words:?}"
        );
        assert_eq!(Decrement::parse(" ALL "), Some(Decrement::All));
        assert_eq!(Decrement::parse("some"), None);
    }
}
