//! Recording what the search does, event by event, for teaching.
//!
//! The search is generic over a [`Tracer`]. Normal play uses [`NoTrace`],
//! whose `ENABLED` is `false`: every `if T::ENABLED { ... }` in the search is
//! then removed by the compiler, so tracing costs nothing when it is off.
//! [`Recorder`] keeps the events in a bounded log.

use serde::Serialize;
use shakmaty::Move;

use super::movetables::TableUpdate;
/// The table's kind of bound, which the record names in its events (it
/// lives with the table, which does not know the record).
pub use super::tt::TtBound;

/// Why the move picker tried a move where it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderReason {
    /// The best move stored in the transposition table for this position.
    HashMove,
    /// At the root: the best move of the previous iteration.
    PreviousBest,
    /// At the root after the first iteration, behind its best move: in the
    /// previous iteration's order, by value; the moves that only failed low
    /// keep the order they had.
    PreviousIteration,
    /// A capture that does not lose material by static exchange evaluation.
    GoodCapture,
    /// One of the top moves by move-table weight (squares that kept
    /// refuting positions earlier in the game).
    TableMove,
    /// A quiet move that caused a beta cutoff at the same ply elsewhere.
    Killer,
    /// The quiet move that last refuted the opponent's previous move
    /// (same piece to the same square), wherever it was played.
    CounterMove,
    /// A quiet move ordered by its history score (how often it cut off).
    Quiet,
    /// A capture that loses material by static exchange evaluation.
    BadCapture,
    /// Move ordering is switched off: generation order.
    Unordered,
    /// In quiescence, the side to move is in check: every reply is tried.
    Evasion,
    /// On a hand-made game tree with the ordering switch on: the children
    /// by their true minimax values, best first (alpha-beta's best case,
    /// which no real search reaches; see `teach::game_tree`).
    BestFirst,
    /// Greer's move-chain search: a move that starts a chain stored
    /// earlier (a line that caused a cutoff), or the chain's next move in
    /// the line it forces (see `chain_search.rs`).
    MoveChain,
}

impl OrderReason {
    pub fn label(self) -> &'static str {
        match self {
            OrderReason::HashMove => "transposition table",
            OrderReason::PreviousBest => "best last iteration",
            OrderReason::PreviousIteration => "last iteration's order",
            OrderReason::GoodCapture => "good capture",
            OrderReason::TableMove => "move tables",
            OrderReason::Killer => "killer",
            OrderReason::CounterMove => "counter-move",
            OrderReason::Quiet => "quiet",
            OrderReason::BadCapture => "bad capture",
            OrderReason::Unordered => "unordered",
            OrderReason::Evasion => "check evasion",
            OrderReason::BestFirst => "best first",
            OrderReason::MoveChain => "move chain",
        }
    }
}

/// A transposition table entry as a probe found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TtEntry {
    /// The depth it was searched to.
    pub depth: i32,
    /// Its value, from the side to move at the probing node.
    pub value: i32,
    pub bound: TtBound,
    /// Whether it holds a best move (a node that failed low stores none).
    pub has_move: bool,
}

/// The window a move's subtree is searched with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WindowKind {
    /// The node's own window, negated: alpha-beta.
    Full,
    /// `(alpha, alpha + 1)`: principal-variation search only asks whether
    /// the move is better than alpha, which is cheaper to answer.
    Null,
    /// No window at all: plain minimax.
    Infinite,
}

impl WindowKind {
    pub fn label(self) -> &'static str {
        match self {
            WindowKind::Full => "full window",
            WindowKind::Null => "null window",
            WindowKind::Infinite => "no window (minimax)",
        }
    }
}

/// Why a move is searched a second (or third) time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReSearchReason {
    /// The reduced-depth search beat alpha: trust only a full-depth one.
    Reduced,
    /// The null-window test failed high: the move may be the new best, so
    /// its exact value needs the full window.
    FailedHigh,
}

/// Why a move was skipped without a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Pruning {
    /// Late-move pruning: enough quiet moves already failed near the horizon.
    LateMove,
    /// The capture loses material by static exchange evaluation.
    LosingCapture,
    /// Futility: too far below alpha for a quiet move to help.
    Futility,
    /// Delta pruning in quiescence: even winning the piece stays below alpha.
    Delta,
    /// Greer's move-chain search: the node's moves with a chain (and its
    /// table moves) are searched, the others forward-pruned unsearched.
    MoveChain,
}

impl Pruning {
    pub fn label(self) -> &'static str {
        match self {
            Pruning::LateMove => "late-move pruning",
            Pruning::LosingCapture => "losing capture",
            Pruning::Futility => "futility pruning",
            Pruning::Delta => "delta pruning",
            Pruning::MoveChain => "move-chain pruning",
        }
    }
}

/// What a pruning rule that bets on the static evaluation compared with
/// alpha: the move could have scored at most `static_eval + gain +
/// margin`, and that was not above alpha, so searching it could not have
/// changed the node's value. With it a learner can check the rule by hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Estimate {
    /// The node's static evaluation (in quiescence, its stand-pat), from
    /// its side to move.
    pub static_eval: i32,
    /// Delta pruning: what the capture wins by static exchange (futility
    /// pruning: 0, a quiet move wins nothing).
    pub gain: i16,
    /// The rule's safety margin: what a move might win beyond the estimate.
    pub margin: i16,
}

impl Estimate {
    /// The most the move could have scored, as far as the rule knows.
    pub fn bound(self) -> i32 {
        self.static_eval + i32::from(self.gain) + i32::from(self.margin)
    }
}

/// Why a node returned before searching its moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Shortcut {
    /// A repetition, the fifty-move rule or too little material.
    Draw,
    /// The endgame tables know the result.
    Tablebase,
    /// A shorter mate is already known elsewhere in the tree.
    MateDistance,
    /// Reverse futility: the static evaluation is far above beta.
    ReverseFutility,
    /// Null move: even after passing, the side stays above beta.
    NullMove,
    /// Multi-cut: in a singular-extension test, moves other than the
    /// table's best also reach beta.
    MultiCut,
    /// ProbCut: a capture stays far above beta in a shallower search.
    ProbCut,
    /// No legal move, in check.
    Checkmate,
    /// No legal move, not in check.
    Stalemate,
}

impl Shortcut {
    pub fn label(self) -> &'static str {
        match self {
            Shortcut::Draw => "draw",
            Shortcut::Tablebase => "tablebase",
            Shortcut::MateDistance => "mate-distance pruning",
            Shortcut::ReverseFutility => "reverse futility",
            Shortcut::NullMove => "null-move cutoff",
            Shortcut::MultiCut => "multi-cut",
            Shortcut::ProbCut => "ProbCut",
            Shortcut::Checkmate => "checkmate",
            Shortcut::Stalemate => "stalemate",
        }
    }
}

/// One step of the search. Scores are from the side to move at `ply`, in
/// the engine's internal units (centipawns; mates near +-30000).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum TraceEvent {
    /// Iterative deepening starts an iteration.
    Iteration { depth: i32 },
    /// A node is entered with its alpha-beta window. A node with
    /// `quiescence: false` and `depth <= 0` is a horizon leaf of a search
    /// without quiescence.
    EnterNode {
        ply: u32,
        depth: i32,
        alpha: i32,
        beta: i32,
        quiescence: bool,
    },
    /// The transposition table was asked about this node.
    TtProbe {
        ply: u32,
        hit: bool,
        /// The stored entry was deep enough and its bound answered the node.
        cutoff: bool,
        /// What the entry held, on a hit: a learner needs it to see why the
        /// entry did or did not answer.
        entry: Option<TtEntry>,
    },
    TtStore {
        ply: u32,
        depth: i32,
        value: i32,
        bound: TtBound,
    },
    /// A move is about to be searched; `index` counts from 0. `reduction`
    /// plies are taken off its depth (late-move reductions).
    MoveTried {
        ply: u32,
        #[serde(serialize_with = "serialize_move")]
        mv: Move,
        index: u32,
        reason: OrderReason,
        window: WindowKind,
        reduction: u8,
    },
    /// The move just searched is searched again.
    ReSearch {
        ply: u32,
        #[serde(serialize_with = "serialize_move")]
        mv: Move,
        window: WindowKind,
        reason: ReSearchReason,
    },
    /// A move skipped without a search. `estimate`: for futility and
    /// delta pruning, the bound the rule compared with alpha.
    MovePruned {
        ply: u32,
        #[serde(serialize_with = "serialize_move")]
        mv: Move,
        reason: Pruning,
        estimate: Option<Estimate>,
    },
    /// The side to move passes (null-move pruning) and the opponent's reply
    /// is searched `reduction` plies shallower, with a null window at beta.
    NullMove { ply: u32, reduction: u8 },
    /// The node ends before (or instead of) searching its moves.
    Shortcut {
        ply: u32,
        reason: Shortcut,
        value: i32,
    },
    /// In quiescence, the static evaluation already reaches beta (or is the
    /// best the side can do by not capturing).
    StandPat { ply: u32, value: i32 },
    /// The static evaluation of a horizon position.
    LeafEval { ply: u32, value: i32 },
    /// A move improved the best score of the node above alpha.
    AlphaRaised {
        ply: u32,
        #[serde(serialize_with = "serialize_move")]
        mv: Move,
        value: i32,
    },
    /// A move reached beta: the opponent will avoid this node, so the
    /// remaining moves need not be searched.
    BetaCutoff {
        ply: u32,
        #[serde(serialize_with = "serialize_move")]
        mv: Move,
        value: i32,
        moves_left: u32,
    },
    /// A cutoff taught the move tables: the refuting line's squares gain
    /// weight, the other moves tried at the node lose it.
    MoveTables { ply: u32, update: Box<TableUpdate> },
    /// The node's value, as returned to its parent.
    Return { ply: u32, value: i32 },
}

impl TraceEvent {
    /// The ply of the node the event belongs to (none for an iteration).
    pub fn ply(&self) -> Option<u32> {
        match *self {
            TraceEvent::Iteration { .. } => None,
            TraceEvent::EnterNode { ply, .. }
            | TraceEvent::TtProbe { ply, .. }
            | TraceEvent::TtStore { ply, .. }
            | TraceEvent::MoveTried { ply, .. }
            | TraceEvent::ReSearch { ply, .. }
            | TraceEvent::MovePruned { ply, .. }
            | TraceEvent::NullMove { ply, .. }
            | TraceEvent::Shortcut { ply, .. }
            | TraceEvent::StandPat { ply, .. }
            | TraceEvent::LeafEval { ply, .. }
            | TraceEvent::AlphaRaised { ply, .. }
            | TraceEvent::BetaCutoff { ply, .. }
            | TraceEvent::MoveTables { ply, .. }
            | TraceEvent::Return { ply, .. } => Some(ply),
        }
    }
}

fn serialize_move<S: serde::Serializer>(m: &Move, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(&crate::core::uci_text(*m))
}

/// What one kept event costs, bytes: its own size three times over, for
/// the list's growth (a `Vec` doubles its room when full) and what is made
/// from the list (the tree, the narration). Measured: 75.7 M events of
/// `trace --max-events` without a limit took 5.5 GB, 73 bytes each.
pub const EVENT_BYTES: u64 = 3 * std::mem::size_of::<TraceEvent>() as u64;

/// The most events a record may keep on this machine, and the memory
/// available (MiB) that allows it: half of it, at [`EVENT_BYTES`] an
/// event. `None` where the available memory cannot be read.
pub fn max_events_in_memory() -> Option<(u64, u64)> {
    let available = super::tt::available_memory()?;
    Some((available / 2 / EVENT_BYTES, available / (1024 * 1024)))
}

/// Receives the search's events.
pub trait Tracer {
    /// `false` lets the compiler delete all tracing code from the search.
    const ENABLED: bool;
    fn record(&mut self, event: TraceEvent);
    /// `true` stops the search: the record is as large as allowed.
    fn is_full(&self) -> bool {
        false
    }
}

/// The tracer of normal play: records nothing and costs nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoTrace;

impl Tracer for NoTrace {
    const ENABLED: bool = false;
    #[inline(always)]
    fn record(&mut self, _event: TraceEvent) {}
}

/// Keeps up to `capacity` events; later ones are counted, not kept, so a
/// deep search cannot exhaust memory. A bounded recorder stops the search
/// instead, so that what it keeps is a whole search.
#[derive(Debug, Clone)]
pub struct Recorder {
    events: Vec<TraceEvent>,
    capacity: usize,
    dropped: u64,
    stop_when_full: bool,
    /// Stop the search once this many events happened, kept or not.
    stop_after: Option<u64>,
}

impl Recorder {
    pub fn new(capacity: usize) -> Recorder {
        Recorder {
            events: Vec::new(),
            capacity,
            dropped: 0,
            stop_when_full: false,
            stop_after: None,
        }
    }

    /// A recorder that keeps up to `capacity` events and stops the search
    /// after `stop_after` events in all: a search too large to follow ends
    /// in moments instead of running on for minutes.
    pub fn capped(capacity: usize, stop_after: u64) -> Recorder {
        Recorder {
            stop_after: Some(stop_after),
            ..Recorder::new(capacity)
        }
    }

    /// Whether the search was stopped at the cap of [`Recorder::capped`].
    pub fn capped_out(&self) -> bool {
        self.stop_after
            .is_some_and(|cap| self.events.len() as u64 + self.dropped >= cap)
    }

    /// A recorder that stops the search once `capacity` events are kept.
    pub fn bounded(capacity: usize) -> Recorder {
        Recorder {
            stop_when_full: true,
            ..Recorder::new(capacity)
        }
    }

    /// Whether the search was stopped because the record was full.
    pub fn overflowed(&self) -> bool {
        self.stop_when_full && self.events.len() >= self.capacity
    }

    pub fn into_events(self) -> Vec<TraceEvent> {
        self.events
    }

    pub fn events(&self) -> &[TraceEvent] {
        &self.events
    }

    /// Events that did not fit.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }
}

impl Tracer for Recorder {
    const ENABLED: bool = true;
    fn record(&mut self, event: TraceEvent) {
        if self.events.len() < self.capacity {
            self.events.push(event);
        } else {
            self.dropped += 1;
        }
    }

    fn is_full(&self) -> bool {
        self.overflowed() || self.capped_out()
    }
}
