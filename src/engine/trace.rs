//! Recording what the search does, event by event, for teaching.
//!
//! The search is generic over a [`Tracer`]. Normal play uses [`NoTrace`],
//! whose `ENABLED` is `false`: every `if T::ENABLED { ... }` in the search is
//! then removed by the compiler, so tracing costs nothing when it is off.
//! [`Recorder`] keeps the events in a bounded log.

use serde::Serialize;
use shakmaty::Move;

/// Why the move picker tried a move where it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderReason {
    /// The best move stored in the transposition table for this position.
    HashMove,
    /// A capture that does not lose material by static exchange evaluation.
    GoodCapture,
    /// A quiet move that caused a beta cutoff at the same ply elsewhere.
    Killer,
    /// A quiet move ordered by its history score (how often it cut off).
    Quiet,
    /// A capture that loses material by static exchange evaluation.
    BadCapture,
    /// Move ordering is switched off: generation order.
    Unordered,
}

impl OrderReason {
    pub fn label(self) -> &'static str {
        match self {
            OrderReason::HashMove => "hash move",
            OrderReason::GoodCapture => "good capture",
            OrderReason::Killer => "killer",
            OrderReason::Quiet => "quiet",
            OrderReason::BadCapture => "bad capture",
            OrderReason::Unordered => "unordered",
        }
    }
}

/// The kind of bound a transposition table entry holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TtBound {
    Exact,
    /// The position is worth at least the stored value (it failed high).
    Lower,
    /// The position is worth at most the stored value (it failed low).
    Upper,
}

/// One step of the search. Scores are from the side to move at `ply`, in
/// the engine's internal units (centipawns; mates near +-30000).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum TraceEvent {
    /// Iterative deepening starts an iteration.
    Iteration { depth: i32 },
    /// A node is entered with its alpha-beta window.
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
    },
    TtStore {
        ply: u32,
        depth: i32,
        value: i32,
        bound: TtBound,
    },
    /// A move is about to be searched; `index` counts from 0.
    MoveTried {
        ply: u32,
        #[serde(serialize_with = "serialize_move")]
        mv: Move,
        index: u32,
        reason: OrderReason,
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
    /// The node's value, as returned to its parent.
    Return { ply: u32, value: i32 },
}

fn serialize_move<S: serde::Serializer>(m: &Move, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(&m.to_uci(shakmaty::CastlingMode::Standard))
}

/// Receives the search's events.
pub trait Tracer {
    /// `false` lets the compiler delete all tracing code from the search.
    const ENABLED: bool;
    fn record(&mut self, event: TraceEvent);
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
/// deep search cannot exhaust memory.
#[derive(Debug, Clone)]
pub struct Recorder {
    events: Vec<TraceEvent>,
    capacity: usize,
    dropped: u64,
}

impl Recorder {
    pub fn new(capacity: usize) -> Recorder {
        Recorder {
            events: Vec::new(),
            capacity,
            dropped: 0,
        }
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
}
