//! `kibitz teach`: the lesson's position, depth, techniques and first step,
//! so a teacher can hand out the command that opens the same lesson.

use std::time::Instant;

use clap::Args;
use shakmaty::Position;

use super::CliError;
use super::board::{BoardArgs, BoardError};
use super::flags::PositionArgs;
use crate::engine::SearchOptions;
use crate::teach::{MAX_DEPTH, MIN_DEPTH};

/// `kibitz teach`: the position, the depth, the techniques switched on or
/// off from the lesson's defaults, the step to open at.
#[derive(Args, Debug)]
pub struct TeachArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// A hand-made game tree instead of a position, in bracket notation:
    /// '((3 12 8) (2 4 6) (14 5 2))', or @FILE to read it from a file.
    #[arg(long, value_name = "TREE", conflicts_with_all = ["fen", "moves"])]
    pub game_tree: Option<String>,
    /// Search depth (plies), 1 to 6 (default 3; on a game tree, its height).
    #[arg(long)]
    pub depth: Option<u32>,
    /// On a game tree: search each node's children best first, by their
    /// true values (alpha-beta's best case).
    #[arg(long, requires = "game_tree")]
    pub best_first: bool,
    /// Plain minimax: no alpha-beta (the other techniques then do not apply).
    #[arg(long, visible_alias = "no-pruning")]
    pub no_alpha_beta: bool,
    /// Search moves in generation order.
    #[arg(long)]
    pub no_ordering: bool,
    /// No transposition table.
    #[arg(long, visible_alias = "no-tt")]
    pub no_table: bool,
    /// Evaluate at the horizon without quiescence search.
    #[arg(long)]
    pub no_quiescence: bool,
    /// Principal-variation search: later moves get a null-window test first.
    #[arg(long)]
    pub pvs: bool,
    /// Iterative deepening: depth 1, 2, ... up to --depth.
    #[arg(long)]
    pub iterative: bool,
    /// Selective search: null move, reductions, futility pruning, extensions.
    #[arg(long)]
    pub selective: bool,
    /// Open the lesson at this step (as the header counts them; past the
    /// end: the last step).
    #[arg(long)]
    pub step: Option<usize>,
}

impl TeachArgs {
    /// The techniques switched on, from the lesson's defaults.
    pub fn options(&self) -> SearchOptions {
        let textbook = SearchOptions::textbook();
        SearchOptions {
            alpha_beta: !self.no_alpha_beta,
            move_ordering: textbook.move_ordering && !self.no_ordering,
            transposition_table: textbook.transposition_table && !self.no_table,
            quiescence: textbook.quiescence && !self.no_quiescence,
            pvs: textbook.pvs || self.pvs,
            iterative_deepening: textbook.iterative_deepening || self.iterative,
            selective: textbook.selective || self.selective,
            ..textbook
        }
    }

    /// The lesson: the position and depth checked before the terminal is
    /// taken over.
    pub fn setup(&self) -> Result<crate::teach::Setup, CliError> {
        if let Some(tree) = &self.game_tree {
            return self.tree_setup(tree);
        }
        let depth = self.depth.unwrap_or(crate::teach::DEFAULT_DEPTH);
        if !(MIN_DEPTH..=MAX_DEPTH).contains(&depth) {
            let why = if depth < MIN_DEPTH {
                "the search looks at least one ply ahead"
            } else {
                "deeper searches are too large to step through"
            };
            return Err(CliError::BadInput(format!(
                "depth {depth} is out of range {MIN_DEPTH}..={MAX_DEPTH}: {why}"
            )));
        }
        let (position, history) = self.position.setup()?;
        if position.legal_moves().is_empty() {
            return Err(CliError::BadInput(
                "the game is over in this position: there is no search to step through".into(),
            ));
        }
        Ok(crate::teach::Setup {
            position,
            tree: None,
            history,
            depth,
            options: self.options(),
        })
    }

    /// A lesson on a hand-made tree: read and checked as `trace
    /// --game-tree` reads it, with teach's own flags.
    fn tree_setup(&self, text: &str) -> Result<crate::teach::Setup, CliError> {
        let meaningless = [
            (self.no_ordering, "--no-ordering"),
            (self.no_table, "--no-table"),
            (self.no_quiescence, "--no-quiescence"),
            (self.selective, "--selective"),
        ];
        super::trace_tree::setup(&super::trace_tree::TreeTrace {
            tree: text,
            depth: self.depth,
            alpha_beta: !self.no_alpha_beta,
            pvs: self.pvs,
            iterative: self.iterative,
            best_first: self.best_first,
            meaningless: super::trace_tree::flags_given(&meaningless),
            json: false,
            summary_only: false,
            outline: false,
        })
    }

    /// Open the board in teach mode on the lesson, with the board's options.
    pub fn open(&self, board: &BoardArgs, started: Instant) -> Result<Option<i32>, BoardError> {
        let setup = self.setup()?;
        super::board::open(board, board.load(), started, Some((setup, self.step)))
    }
}
