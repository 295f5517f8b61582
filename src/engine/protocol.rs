//! The messages that cross the channel between a front end (TUI, UCI, CLI)
//! and the engine thread: one enum per direction, `Command` in and `Report`
//! out, plus the plain data they carry.

use std::fmt;
use std::time::{Duration, Instant};

use shakmaty::{Chess, Move, Position};

use std::sync::Arc;

use crate::book::{Book, BookOptions};
use crate::tablebase::{Tablebases, Wdl};

use super::movetables::{Decrement, TableWeights};
use super::stats::SearchStats;

/// The key lives in [`crate::core`]; re-exported here (and as
/// `engine::position_key`) because the search and most front ends (the board,
/// UCI, the CLI, tests) name it through the engine.
pub use crate::core::position_key;

/// What a front end asks of the engine thread.
#[derive(Debug, Clone)]
pub enum Command {
    /// Start a search. Ids must increase from one `Go` to the next: a new `Go`
    /// stops every older search still running, and reports name the id they
    /// answer so a front end can drop stale ones.
    Go(Box<GoRequest>),
    /// Stop the running search (and any queued one). The engine answers with
    /// `Report::BestMove` as always.
    Stop,
    /// A new game starts: forget the transposition table and move-ordering
    /// history so nothing learned in the old game leaks into the new one.
    NewGame,
    /// Resize the transposition table (MiB). Clears it.
    SetHashSize(usize),
    /// Empty the transposition table.
    ClearHash,
    /// Search on this many threads (Lazy SMP), 1 to `MAX_THREADS`. Searches
    /// at a strength level below the top stay on one thread.
    SetThreads(usize),
    /// Answered with `Report::Pong` carrying the same token once every
    /// command sent before it has been carried out (UCI `isready`).
    Ping(u64),
    /// The opening book the engine plays from (when a `Go` allows it), and
    /// how it chooses; `None` = no book.
    SetBook {
        book: Option<Arc<Book>>,
        options: BookOptions,
    },
    /// The endgame tables the engine uses at the root and in the search.
    SetTablebases(Option<Arc<Tablebases>>),
    /// The evaluation network full-strength searches use instead of the
    /// hand-written evaluation; `None` = the hand-written one.
    SetNetwork(Option<Arc<super::nnue::Network>>),
    /// End the engine thread.
    Quit,
}

/// Everything one search needs, carried by value: the engine thread shares no
/// state with the front end.
#[derive(Debug, Clone)]
pub struct GoRequest {
    pub search_id: u64,
    /// The position to search.
    pub position: Chess,
    /// Zobrist keys (see [`position_key`]) of the positions of the game before
    /// `position`, oldest first, so the search can see repetitions.
    pub history: Vec<u64>,
    pub limits: Limits,
    pub options: SearchOptions,
    /// Playing strength: below the top level the search is limited and the
    /// move is chosen among the near-best (see [`super::level`]).
    pub level: Level,
    /// May the engine answer from its opening book? (Game play: yes;
    /// analysis and pondering: no, they want the search.)
    pub book: bool,
    /// When the front end received the request: the clock runs from here,
    /// so time spent waiting in the queue counts against the budget.
    pub received: Instant,
}

/// The strongest level: the full engine, limited only by the clock.
pub const MAX_LEVEL: u8 = 10;
pub const MIN_LEVEL: u8 = 1;

/// A strength level, 1 (beginner) to 10 (full strength): plain data, as
/// the rest of a request is. What a level means for the search (its depth
/// or node limit, how it chooses among the near-best moves) is in
/// [`super::level`], which adds those methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Default for Level {
    fn default() -> Level {
        Level(MAX_LEVEL)
    }
}

impl Level {
    /// `None` outside 1..=10.
    pub fn new(level: u8) -> Option<Level> {
        (MIN_LEVEL..=MAX_LEVEL)
            .contains(&level)
            .then_some(Level(level))
    }

    pub fn get(self) -> u8 {
        self.0
    }

    pub fn is_full_strength(self) -> bool {
        self.0 == MAX_LEVEL
    }
}

/// When the search must stop. Every field left empty means "no limit of this
/// kind"; all empty (and not `infinite`) means search until stopped, as UCI's
/// bare `go` does.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub white_time: Option<Duration>,
    pub black_time: Option<Duration>,
    pub white_increment: Option<Duration>,
    pub black_increment: Option<Duration>,
    pub moves_to_go: Option<u32>,
    pub infinite: bool,
    /// Search for a mate in this many moves; stop as soon as one is found.
    pub mate: Option<u32>,
    /// The search chooses the move to play now in a game (the play mode's
    /// engine move, without a clock): a lone legal move is played after a
    /// quick look instead of searched for its score, as under a game clock
    /// (see [`Limits::plays_a_game`]).
    pub game_move: bool,
    /// Search only these moves at the root (UCI `searchmoves`); empty: all
    /// of them. Each must be legal in the position searched.
    pub search_moves: Vec<Move>,
}

impl Limits {
    /// Does the request ask for a search as such? `go infinite` waits for a
    /// stop and wants analysis; a depth, node or mate limit asks for a search
    /// of that size, and `searchmoves` a search of those moves. Only a game-style request (a clock, a move time, or
    /// nothing) may be answered from the book or the endgame tables.
    pub fn wants_search(&self) -> bool {
        self.infinite
            || self.depth.is_some()
            || self.nodes.is_some()
            || self.mate.is_some()
            // The book and the tables would choose among all the moves.
            || !self.search_moves.is_empty()
    }

    /// Is this a move to play in a game, where time matters more than the
    /// score? Yes under a game clock (UCI's `wtime`/`btime`) or when the
    /// caller says so (`game_move`); no for analysis: `go infinite`, a
    /// depth or mate limit, or a bare move time (`kibitz analyze`, review,
    /// the analysis board, UCI `go movetime`), where the score is shown or
    /// written and must be searched as any other. (A node limit may come
    /// from a weaker level's own limits, in a game too: it does not say.)
    pub fn plays_a_game(&self) -> bool {
        !self.infinite
            && self.depth.is_none()
            && self.mate.is_none()
            && (self.game_move || self.white_time.is_some() || self.black_time.is_some())
    }

    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }
}

/// Switches for the parts of the search, so a learner can take them away one
/// at a time and see what each buys. The defaults are the full engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchOptions {
    /// Alpha-beta pruning. Off = plain minimax: every node gets an infinite
    /// window and every move is searched.
    pub alpha_beta: bool,
    /// Move ordering (TT move, captures by value, killers, history). Off =
    /// moves in generation order.
    pub move_ordering: bool,
    /// The transposition table: probes, cutoffs and stores.
    pub transposition_table: bool,
    /// Quiescence search at the horizon. Off = static evaluation at depth 0.
    pub quiescence: bool,
    /// Principal-variation search: after the first move, prove each later
    /// move worse with a null window and re-search only when the proof
    /// fails. Off = every move gets the full window (textbook alpha-beta).
    pub pvs: bool,
    /// Search depth 1, 2, 3, ... up to the limit. Off = one search at the
    /// limit's depth (which must then be given).
    pub iterative_deepening: bool,
    /// Selective search: null move, late-move reductions, futility, delta
    /// and late-move pruning, and the check extension. These change the
    /// tree's value, not just its size. Quiescence search also leaves the
    /// transposition table alone then (see `qsearch.rs`).
    pub selective: bool,
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// Number of principal variations to report (MultiPV), at least 1.
    pub multipv: usize,
    /// The history heuristic orders quiet moves (off = quiet moves after
    /// the killers in generation order; for measuring what it is worth).
    pub history_heuristic: bool,
    /// Move tables: how many of the top table moves to search first, after
    /// the hash move (0 = the tables learn, for display, but do not order).
    pub table_moves: u8,
    /// A move is a table move only if its two squares' weights add up to
    /// more than this.
    pub table_threshold: i32,
    /// Which moves lose table weight at a cutoff: the ones tried before it,
    /// or (Greer's rule) every other legal move.
    pub table_decrement: Decrement,
    /// Greer's move-chain search (`chain_search.rs`) in place of the
    /// engine's: a forward-pruned, fixed-depth alpha-beta for research and
    /// teaching, never for play (it is not offered over UCI or in the
    /// settings).
    pub move_chains: bool,
    /// The selective rules' margins, depths and reductions (`params.rs`),
    /// tuned in games by `kibitz tune spsa`.
    pub params: super::params::SearchParams,
}

/// Table moves searched first by default (measured: see CHANGELOG.md).
pub const DEFAULT_TABLE_MOVES: u8 = 0;
/// The most table moves the options accept.
pub const MAX_TABLE_MOVES: u8 = 8;
pub const DEFAULT_TABLE_THRESHOLD: i32 = 0;
/// The threshold's range is -this..=this.
pub const MAX_TABLE_THRESHOLD: i32 = 1_000_000;

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            alpha_beta: true,
            move_ordering: true,
            transposition_table: true,
            quiescence: true,
            pvs: true,
            iterative_deepening: true,
            selective: true,
            aspiration: true,
            multipv: 1,
            history_heuristic: true,
            table_moves: DEFAULT_TABLE_MOVES,
            table_threshold: DEFAULT_TABLE_THRESHOLD,
            table_decrement: Decrement::default(),
            move_chains: false,
            params: super::params::SearchParams::default(),
        }
    }
}

impl SearchOptions {
    /// Plain minimax with quiescence and nothing else: the reference a
    /// learner compares alpha-beta against.
    pub fn minimax() -> SearchOptions {
        SearchOptions {
            alpha_beta: false,
            move_ordering: false,
            transposition_table: false,
            ..SearchOptions::textbook()
        }
    }

    /// The textbook search a learner starts from: one full-window
    /// alpha-beta search at a fixed depth, with move ordering, the table and
    /// quiescence; no principal-variation search, no iterative deepening,
    /// no selective pruning or extensions, no aspiration windows.
    pub fn textbook() -> SearchOptions {
        SearchOptions {
            pvs: false,
            iterative_deepening: false,
            selective: false,
            aspiration: false,
            ..SearchOptions::default()
        }
    }
}

/// A score from the side to move's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns: 100 = one pawn up.
    Centipawns(i32),
    /// Mate in this many moves (not plies); negative = the side to move is
    /// mated.
    Mate(i32),
}

impl Score {
    /// The same score from the other side's point of view.
    pub fn negate(self) -> Score {
        match self {
            Score::Centipawns(cp) => Score::Centipawns(-cp),
            Score::Mate(n) => Score::Mate(-n),
        }
    }

    /// The score from White's point of view, given who was to move.
    pub fn for_white(self, side_to_move: shakmaty::Color) -> Score {
        if side_to_move.is_white() {
            self
        } else {
            self.negate()
        }
    }
}

impl fmt::Display for Score {
    /// UCI form: `cp 34` or `mate -3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Centipawns(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Whether a reported score is exact or only a bound (an aspiration window
/// failed and the search is about to widen it, or the search stopped in
/// the middle of an iteration).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true score is at least this (fail high).
    Lower,
    /// The true score is at most this (fail low).
    Upper,
}

impl Bound {
    /// The bound from White's point of view, given who was to move (as
    /// [`Score::for_white`] turns the score): a lower bound for Black is
    /// an upper bound for White.
    pub fn for_white(self, side_to_move: shakmaty::Color) -> Bound {
        match (self, side_to_move) {
            (Bound::Lower, shakmaty::Color::Black) => Bound::Upper,
            (Bound::Upper, shakmaty::Color::Black) => Bound::Lower,
            (bound, _) => bound,
        }
    }

    /// What the screens write before a score that is this bound: nothing,
    /// `≥ ` or `≤ `.
    pub fn mark(self) -> &'static str {
        match self {
            Bound::Exact => "",
            Bound::Lower => "≥ ",
            Bound::Upper => "≤ ",
        }
    }
}

/// One progress report: a finished iteration for one PV line, or (with
/// `complete == false`) a heartbeat during a long iteration that repeats the
/// last known line with fresh node counts.
#[derive(Debug, Clone)]
pub struct SearchInfo {
    pub search_id: u64,
    /// 1-based index of the line (MultiPV).
    pub multipv: usize,
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub bound: Bound,
    pub pv: Vec<Move>,
    pub nodes: u64,
    pub nps: u64,
    /// Transposition table fill, per mille.
    pub hashfull: u32,
    pub elapsed: Duration,
    pub complete: bool,
}

/// Where the chosen move came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveSource {
    Search,
    /// The position had exactly one legal move; it was played at once after
    /// a short search for a score.
    OnlyMove,
    /// No legal move: the game is over.
    NoMove,
    /// The opening book: the move's weight and the total weight of the
    /// position's book moves.
    Book {
        weight: u32,
        total: u32,
    },
    /// The endgame tables: their verdict and (kibitz's own tables) the
    /// distance to mate in plies, signed for the side to move.
    Tablebase {
        wdl: Wdl,
        dtm: Option<i32>,
    },
}

/// What the engine thread sends back.
#[derive(Debug, Clone)]
pub enum Report {
    Info(Box<SearchInfo>),
    /// Ends every search, even a stopped one. `best_move` is a legal move
    /// whenever one exists.
    BestMove {
        search_id: u64,
        best_move: Option<Move>,
        ponder: Option<Move>,
        score: Score,
        /// What `score` is: exact, or the bound a line of an iteration cut
        /// short in the middle proved (its move is then played on that
        /// bound). Book and tablebase moves are exact.
        bound: Bound,
        /// The depth of the search that gave `score` (for a bound, the
        /// iteration cut short; 0 for book and tablebase moves).
        depth: u32,
        nodes: u64,
        source: MoveSource,
    },
    /// The search's statistics: after each finished iteration
    /// (`done == false`; a slow reader may miss one, and the next carries
    /// everything) and once at the end, just before `BestMove` (`done ==
    /// true`, never dropped). Shared, not copied, on its way to the reader.
    Stats {
        search_id: u64,
        stats: Arc<SearchStats>,
        /// The move tables' weights at that moment (kept between the
        /// searches of a game, cleared by `NewGame`).
        tables: Arc<TableWeights>,
        done: bool,
    },
    /// The answer to `Command::Ping`.
    Pong(u64),
}

impl Report {
    /// The search a report answers (for `Pong`, the ping's token).
    pub fn search_id(&self) -> u64 {
        match self {
            Report::Info(info) => info.search_id,
            Report::BestMove { search_id, .. } | Report::Stats { search_id, .. } => *search_id,
            Report::Pong(token) => *token,
        }
    }
}

/// Play `moves` from `start`; returns the final position and the keys of all
/// positions before it, ready for a [`GoRequest`]. Fails on the first illegal
/// move, giving its index.
pub fn replay(start: Chess, moves: &[Move]) -> Result<(Chess, Vec<u64>), usize> {
    let mut history = Vec::with_capacity(moves.len());
    let mut position = start;
    for (index, &m) in moves.iter().enumerate() {
        if !position.is_legal(m) {
            return Err(index);
        }
        history.push(position_key(&position));
        position.play_unchecked(m);
    }
    Ok((position, history))
}
