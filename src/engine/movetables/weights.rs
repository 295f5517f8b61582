//! What the move tables know at one moment, as the maps, teach mode and
//! `kibitz movetables` read it: the twelve tables by colour and piece
//! ([`TableId`]), each square's weight and touches ([`Counts`]) in the
//! game's and the search's scope, the links in words ([`TableLink`]), the
//! views a map draws ([`MapView`]), and one cutoff's update as a record
//! keeps it ([`TableUpdate`]). The live tables the search learns into and
//! orders by are in `movetables.rs`, which builds on this file.

use serde::Serialize;
use shakmaty::{Color, Move, Role, Square};

/// One table per colour and piece type.
pub const TABLES: usize = 12;
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
pub(super) fn squares_of(m: Move) -> Option<(Square, Square)> {
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
    pub(super) game: Counts,
    pub(super) search: Counts,
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

    pub(super) fn apply_moves(&mut self, color: Color, line: &[Move], others: &[Move]) {
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

pub(super) fn slot(id: TableId, square: Square) -> usize {
    id.index() * 64 + square.to_usize()
}
