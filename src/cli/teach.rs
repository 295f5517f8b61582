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
    /// Greer's move-chain search instead of alpha-beta: moves that start a
    /// stored chain are searched, the others forward-pruned (the tree marks
    /// chain and table moves).
    #[arg(long, conflicts_with_all = ["no_alpha_beta", "pvs", "iterative", "selective", "game_tree"])]
    pub chains: bool,
    /// Search this many move-table moves first at each node (0 to 8).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=8))]
    pub table_moves: u8,
    /// Open the lesson at this step (as the header counts them; past the
    /// end: the last step).
    #[arg(long, conflicts_with = "played")]
    pub step: Option<usize>,
    /// The move played in the position (SAN or UCI): the lesson is about
    /// it and opens where the search tries it (as a review's study
    /// position does).
    #[arg(long, value_name = "MOVE", conflicts_with = "game_tree")]
    pub played: Option<String>,
    /// The better move (SAN or UCI), named beside the played one; without
    /// --depth, the lesson searches the smallest depth (up to 6) at which
    /// the played move falls short of it by --margin.
    #[arg(long, value_name = "MOVE", requires = "played")]
    pub better: Option<String>,
    /// With --better: the centipawns by which the played move must fall
    /// short at the lesson's depth (default 50; `kibitz review` gives each
    /// position's).
    #[arg(long, value_name = "CP", requires = "better")]
    pub margin: Option<i32>,
}

/// How long `--better` may search for the lesson's depth, as the board's
/// lessons of reviewed mistakes do.
const DEPTH_SEARCH_TIME: std::time::Duration = std::time::Duration::from_secs(1);

/// The margin `--better` looks for when none is given: the least a
/// review's lesson asks (`review::lesson_margin`).
pub const DEFAULT_MARGIN_CP: i32 = 50;

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
            move_chains: self.chains,
            table_moves: self.table_moves,
            // The chain search's tables learn by the paper's rule, as in
            // `kibitz movetables experiment`.
            table_decrement: if self.chains {
                crate::engine::movetables::Decrement::All
            } else {
                textbook.table_decrement
            },
            ..textbook
        }
    }

    /// The lesson: the position and depth checked before the terminal is
    /// taken over.
    pub fn setup(&self) -> Result<crate::teach::Setup, CliError> {
        self.lesson().map(|(setup, _)| setup)
    }

    /// The lesson and, with `--played`, the move it is about.
    pub fn lesson(&self) -> Result<(crate::teach::Setup, Option<crate::teach::Focus>), CliError> {
        if let Some(tree) = &self.game_tree {
            return self.tree_setup(tree).map(|setup| (setup, None));
        }
        if let Some(depth) = self.depth {
            check_depth(depth)?;
        }
        let (position, history) = self.position.setup()?;
        if position.legal_moves().is_empty() {
            return Err(CliError::BadInput(
                "the game is over in this position: there is no search to step through".into(),
            ));
        }
        let (depth, focus) = match &self.played {
            Some(played) => {
                let (depth, focus) = self.focus(&position, &history, played)?;
                (depth, Some(focus))
            }
            None => (self.depth.unwrap_or(crate::teach::DEFAULT_DEPTH), None),
        };
        let setup = crate::teach::Setup {
            position,
            tree: None,
            history,
            depth,
            options: self.options(),
        };
        Ok((setup, focus))
    }

    /// `--played` (and `--better`): the lesson's depth and what it says,
    /// in the words of the board's lessons of reviewed mistakes.
    fn focus(
        &self,
        position: &shakmaty::Chess,
        history: &[u64],
        played: &str,
    ) -> Result<(u32, crate::teach::Focus), CliError> {
        let read = |flag: &str, text: &str| {
            crate::game::notation::parse_move(position, text)
                .map_err(|e| CliError::BadInput(format!("{flag} {e}")))
        };
        let played = read("--played", played)?;
        let played_san = crate::teach::caption::san(position, played);
        let opens = format!("the lesson opens where it tries {played_san} (Home: the start)");
        let Some(better) = &self.better else {
            let depth = self.depth.unwrap_or(crate::teach::DEFAULT_DEPTH);
            let note = format!("In the game {played_san} was played; {opens}.");
            return Ok((depth, focus(position, &played_san, note)));
        };
        let better = read("--better", better)?;
        let better_san = crate::teach::caption::san(position, better);
        if better == played {
            return Err(CliError::BadInput(format!(
                "--better {better_san} is the move played: name a different move"
            )));
        }
        let margin = self.margin.unwrap_or(DEFAULT_MARGIN_CP);
        if !(1..=3000).contains(&margin) {
            return Err(CliError::BadInput(format!(
                "--margin {margin} is out of range 1..=3000 centipawns"
            )));
        }
        let (depth, sees) = match self.depth {
            Some(depth) => (depth, format!("The lesson searches depth {depth}")),
            None => match crate::review::refutation_depth(
                position,
                history,
                played,
                better,
                margin,
                MAX_DEPTH,
                DEPTH_SEARCH_TIME,
            ) {
                Some(depth) => (
                    depth,
                    format!(
                        "At depth {depth} the search already sees {played_san} fall short of {better_san}"
                    ),
                ),
                None => (
                    crate::teach::DEFAULT_DEPTH,
                    format!(
                        "No search up to depth {MAX_DEPTH} (in a second) showed {played_san} falling short of {better_san}; the lesson searches depth {}",
                        crate::teach::DEFAULT_DEPTH
                    ),
                ),
            },
        };
        let note = format!(
            "In the game {played_san} was played: the review prefers {better_san}. {sees}; {opens}."
        );
        Ok((depth, focus(position, &played_san, note)))
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
        let (setup, focus) = self.lesson()?;
        super::board::open(
            board,
            board.load(),
            started,
            Some((setup, self.step, focus)),
        )
    }
}

/// A lesson's depth a user gave: one the lesson can step through.
fn check_depth(depth: u32) -> Result<(), CliError> {
    if (MIN_DEPTH..=MAX_DEPTH).contains(&depth) {
        return Ok(());
    }
    let why = if depth < MIN_DEPTH {
        "the search looks at least one ply ahead"
    } else {
        "deeper searches are too large to step through"
    };
    Err(CliError::BadInput(format!(
        "depth {depth} is out of range {MIN_DEPTH}..={MAX_DEPTH}: {why}"
    )))
}

/// The lesson about `played_san` in `position`: titled by the move as a
/// game numbers it (`12... Nf6`), `note` above every caption, opening
/// where the search tries it.
fn focus(position: &shakmaty::Chess, played_san: &str, note: String) -> crate::teach::Focus {
    let dots = if position.turn().is_white() {
        "."
    } else {
        "..."
    };
    crate::teach::Focus {
        title: format!("{}{dots} {played_san} (played)", position.fullmoves()),
        note,
        goto: played_san.to_string(),
    }
}
