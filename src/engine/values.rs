//! The scale the search counts in: what a mate, a draw and a tablebase win
//! are worth, and the deepest line it can hold.
//!
//! These numbers are shared by the search, the transposition table (which
//! stores mate and tablebase values relative to the node) and the move
//! ordering (which keeps a killer slot per ply). They live in a file of
//! their own, importing nothing, so that each of those can use them
//! without importing the others.

/// The deepest ply the search can reach (the quiescence search included).
pub const MAX_PLY: usize = 128;

/// The value of delivering mate now; mate in `n` plies is `MATE - n`.
pub const MATE: i32 = 30_000;
/// Values beyond this are mates (no line is longer than `MAX_PLY`).
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Larger than any value.
pub const INFINITY: i32 = 32_000;
pub const DRAW: i32 = 0;
/// A position the tablebases call won: above any evaluation, below every
/// mate the search can prove, so a found mate is still preferred and the
/// shorter road into a won table ending wins ties.
pub const TB_WIN: i32 = 20_000;
/// Values beyond this are tablebase wins or mates: both count plies from the
/// root, so the transposition table stores them relative to the node.
pub const TB_BOUND: i32 = TB_WIN - MAX_PLY as i32;
