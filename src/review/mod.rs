//! Game review: the engine evaluates every position of a game's main line
//! at a fixed budget, and each move is judged by how much of the mover's
//! winning chances it gave away.
//!
//! Why winning chances and not centipawns: losing two pawns matters when
//! the game is level and hardly at all when you are a queen up. A
//! centipawn score `cp` (side to move's view) becomes a winning chance
//!
//! ```text
//!     win% = 50 + 50 * (2 / (1 + exp(-0.00368208 * cp)) - 1)
//! ```
//!
//! (the logistic fit lichess publishes for its own review), so +1.00 is
//! about 59 %, +3.00 about 75 %, a forced mate 100 %. A move then costs
//! `win% before - win% after` from the mover's side, and:
//!
//! | class       | lost winning chance | NAG  |
//! |-------------|---------------------|------|
//! | inaccuracy  | 5 points or more    | `?!` |
//! | mistake     | 10 points or more   | `?`  |
//! | blunder     | 15 points or more   | `??` |
//!
//! The engine's own first choice is never marked (the search before the
//! move and the one after it see different depths, and their noise is not
//! the player's fault), but it is not hidden either: its loss counts in
//! the accuracy as the evaluations say, and `review --json` flags it
//! (`engine_choice`). A forced move (the only legal one) is never marked.
//!
//! Where the endgame tables know a position, they judge it instead of the
//! search: a win is 100 %, a draw 50 %, a loss 0 %, so a win thrown away to
//! a draw is a blunder whatever a search would have scored.
//!
//! Two notes name what a number hides: "lost a forced mate" (a mate was
//! there before the move and is not after it) and "missed a win" (the
//! mover was winning, +3.00 or a table win, and is no longer better than
//! +1.00).
//!
//! A side's accuracy and average centipawn loss are computed from the
//! evaluations as lichess publishes them: see [`accuracy`].

pub mod accuracy;
pub mod batch;

use std::time::Instant;

use shakmaty::{Chess, Color, Move, Position};

use crate::core::position_key;
use crate::engine::heuristics::Heuristics;
use crate::engine::search::TB_WIN;
use crate::engine::search::{self, SearchContext};
use crate::engine::tt::TranspositionTable;
use crate::engine::{Limits, Score, SearchOptions};
use crate::game::annotations::{self, CommentEval};
use crate::game::notation::san_line;
use crate::game::tree::GameTree;
use crate::tablebase::{Tablebases, Wdl};

/// Lost winning-chance points (0-100 scale) from which a move is an
/// inaccuracy, a mistake, a blunder.
pub const INACCURACY: f64 = 5.0;
pub const MISTAKE: f64 = 10.0;
pub const BLUNDER: f64 = 15.0;

/// How many moves of the engine's better line go into an annotated game.
const BETTER_LINE_PLIES: usize = 6;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Class {
    pub fn name(self) -> &'static str {
        match self {
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }

    /// The PGN NAG: 6 = `?!`, 2 = `?`, 4 = `??`.
    pub fn nag(self) -> u8 {
        match self {
            Class::Inaccuracy => 6,
            Class::Mistake => 2,
            Class::Blunder => 4,
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            Class::Inaccuracy => "?!",
            Class::Mistake => "?",
            Class::Blunder => "??",
        }
    }

    fn of(lost: f64) -> Option<Class> {
        if lost >= BLUNDER {
            Some(Class::Blunder)
        } else if lost >= MISTAKE {
            Some(Class::Mistake)
        } else if lost >= INACCURACY {
            Some(Class::Inaccuracy)
        } else {
            None
        }
    }
}

/// The engine's view of one position.
#[derive(Debug, Clone, PartialEq)]
pub struct PositionEval {
    /// From White's point of view (0 when the game is over on the board).
    pub score: Score,
    /// The best line from here (empty when the game is over).
    pub pv: Vec<Move>,
    pub depth: u32,
    /// Legal moves in the position (1 = the move was forced).
    pub legal_moves: usize,
    /// The side checkmated in this position, if it is checkmate.
    pub mated: Option<Color>,
}

impl PositionEval {
    /// `side`'s winning chance here (0-100).
    pub fn chance_for(&self, side: Color) -> f64 {
        match self.mated {
            Some(mated) if mated == side => 0.0,
            Some(_) => 100.0,
            None => win_chance(self.score.for_white(side)),
        }
    }
}

/// One judged move of the main line.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveReview {
    /// The tree node of the move.
    pub node: usize,
    /// 1-based ply.
    pub ply: usize,
    /// The move's number as written (`12.` / `12...`).
    pub move_number: u32,
    pub mover: Color,
    pub san: String,
    /// Evaluations before and after the move, White's view.
    pub before: Score,
    pub after: Score,
    /// The move gave checkmate.
    pub mates: bool,
    /// Winning-chance points the mover gave away (0 or more).
    pub lost: f64,
    pub class: Option<Class>,
    /// The engine's choice, when it differs from the move played.
    pub better: Option<Move>,
    /// The engine's line from before the move, in SAN.
    pub better_line: Vec<String>,
    /// The move-quality mark (NAG 1-6: `!`, `?`, `!!`, `??`, `!?`, `?!`)
    /// the game already had on this move: a person's, which an annotated
    /// game keeps instead of the review's.
    pub file_mark: Option<u8>,
    /// The move is the engine's own first choice (never marked).
    pub engine_choice: bool,
    /// What the loss means, where a number hides it.
    pub note: Option<Note>,
}

/// A note on a move beside its mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Note {
    /// A forced mate was there before the move and is not after it.
    LostForcedMate,
    /// The mover was winning and is not after the move.
    MissedWin,
}

impl Note {
    pub fn text(self) -> &'static str {
        match self {
            Note::LostForcedMate => "lost a forced mate",
            Note::MissedWin => "missed a win",
        }
    }

    /// The note on a move from `before` to `after` (White's view) by
    /// `mover`, which did not mate.
    pub fn of(mover: Color, before: Score, after: Score) -> Option<Note> {
        // Scores as the mover sees them (`for_white` turns a side's view
        // into the other's, so it serves both ways).
        let (before, after) = (before.for_white(mover), after.for_white(mover));
        let mate = |s: Score| matches!(s, Score::Mate(n) if n > 0);
        let at_least = |s: Score, cp: i32| match s {
            Score::Mate(n) => n > 0,
            Score::Centipawns(c) => c >= cp,
        };
        if mate(before) && !mate(after) {
            Some(Note::LostForcedMate)
        } else if at_least(before, WINNING_CP) && !at_least(after, BETTER_CP + 1) {
            Some(Note::MissedWin)
        } else {
            None
        }
    }
}

/// A side "is winning" from +3.00 (a table win is far above), and "no
/// longer better" at +1.00 or less: between the two, an advantage usually
/// still wins with care.
pub const WINNING_CP: i32 = 300;
pub const BETTER_CP: i32 = 100;

impl MoveReview {
    /// The mark the annotated game carries on this move: the file's own,
    /// or else the review's class.
    pub fn mark(&self) -> Option<u8> {
        self.file_mark.or(self.class.map(Class::nag))
    }

    /// The file's own mark, where the review judged the move otherwise and
    /// kept it (the report says so).
    pub fn kept_mark(&self) -> Option<u8> {
        self.file_mark
            .filter(|&nag| self.class.is_some_and(|class| class.nag() != nag))
    }
}

/// The first move-quality mark (NAG 1-6) among `nags`.
pub fn quality_mark(nags: &[u8]) -> Option<u8> {
    nags.iter().copied().find(|n| (1..=6).contains(n))
}

/// The mover's winning chance (0-100) for a score from its own side.
pub fn win_chance(score: Score) -> f64 {
    match score {
        Score::Mate(n) if n > 0 => 100.0,
        Score::Mate(_) => 0.0,
        Score::Centipawns(cp) => {
            50.0 + 50.0 * (2.0 / (1.0 + (-0.003_682_08 * f64::from(cp)).exp()) - 1.0)
        }
    }
}

/// One side's review: its moves, how many were inaccuracies, mistakes and
/// blunders, its accuracy and average centipawn loss. Summaries add up (a
/// player over a file): the accuracy is then the mean of the games'
/// accuracies, the loss the mean over all the moves.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SideSummary {
    pub moves: usize,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    games: usize,
    accuracy_sum: f64,
    loss_sum: f64,
    loss_moves: usize,
}

impl SideSummary {
    /// `color`'s moves of a reviewed game.
    pub fn of(reviews: &[MoveReview], color: Color) -> SideSummary {
        let mut summary = SideSummary::default();
        for r in reviews.iter().filter(|r| r.mover == color) {
            summary.moves += 1;
            match r.class {
                Some(Class::Inaccuracy) => summary.inaccuracies += 1,
                Some(Class::Mistake) => summary.mistakes += 1,
                Some(Class::Blunder) => summary.blunders += 1,
                None => {}
            }
        }
        if let Some(first) = reviews.first() {
            let figures = accuracy::game_figures(&evals_of(reviews), first.mover);
            let side = figures[usize::from(color.is_black())];
            if let (Some(a), Some(l)) = (side.accuracy, side.acpl) {
                summary.games = 1;
                summary.accuracy_sum = a;
                summary.loss_sum = l * side.moves as f64;
                summary.loss_moves = side.moves;
            }
        }
        summary
    }

    /// The game accuracy (the mean of the games' over a file), if there
    /// are moves.
    pub fn accuracy(&self) -> Option<f64> {
        (self.games > 0).then(|| self.accuracy_sum / self.games as f64)
    }

    /// The average centipawn loss per move, if there are moves.
    pub fn acpl(&self) -> Option<f64> {
        (self.loss_moves > 0).then(|| self.loss_sum / self.loss_moves as f64)
    }

    pub fn add(&mut self, other: &SideSummary) {
        self.moves += other.moves;
        self.inaccuracies += other.inaccuracies;
        self.mistakes += other.mistakes;
        self.blunders += other.blunders;
        self.games += other.games;
        self.accuracy_sum += other.accuracy_sum;
        self.loss_sum += other.loss_sum;
        self.loss_moves += other.loss_moves;
    }
}

/// The evaluations of a judged line, the start and after each move, as far
/// as the moves follow each other without a gap.
pub fn evals_of(reviews: &[MoveReview]) -> Vec<accuracy::Eval> {
    let mut evals = Vec::new();
    for (i, r) in reviews.iter().enumerate() {
        if i > 0 && r.ply != reviews[i - 1].ply + 1 {
            break;
        }
        if i == 0 {
            evals.push(accuracy::Eval::Score(r.before));
        }
        evals.push(if r.mates {
            accuracy::Eval::Mated(!r.mover)
        } else {
            accuracy::Eval::Score(r.after)
        });
    }
    evals
}

/// A position's evaluation for the accuracy (and `review --json`).
pub fn eval_of(e: &PositionEval) -> accuracy::Eval {
    match e.mated {
        Some(side) => accuracy::Eval::Mated(side),
        None => accuracy::Eval::Score(e.score),
    }
}

/// The margin a lesson on a reviewed move looks for, in centipawns from
/// the mover's side: half of what the move gave away by the review's
/// scores (a mate counts as 30 pawns), between half a pawn and three. Half
/// is enough to show the difference at a depth a learner can step through.
pub fn lesson_margin(mover: Color, before: Score, after: Score) -> i32 {
    let mover_cp = |score: Score| {
        let cp = match score {
            Score::Centipawns(cp) => cp,
            Score::Mate(n) if n > 0 => 3000,
            Score::Mate(_) => -3000,
        };
        if mover.is_white() { cp } else { -cp }
    };
    ((mover_cp(before) - mover_cp(after)) / 2).clamp(50, 300)
}

/// The smallest search depth (1 to `max_depth`) at which a search of
/// `position` sees `played` worse than `best` by at least `margin`
/// centipawns: the depth a lesson needs to show why the move fails. Every
/// root move is searched to its exact value (as many lines as moves), the
/// way teach mode's textbook search runs; deeper searches stop once
/// `budget` has passed. `None`: no depth searched showed it (the deepest
/// tried is then the lesson's best chance).
pub fn refutation_depth(
    position: &Chess,
    history: &[u64],
    played: Move,
    best: Move,
    margin: i32,
    max_depth: u32,
    budget: std::time::Duration,
) -> Option<u32> {
    let started = Instant::now();
    let options = SearchOptions {
        multipv: position.legal_moves().len().max(1),
        ..SearchOptions::textbook()
    };
    for depth in 1..=max_depth {
        let result = search::search_fresh(
            position,
            history,
            &Limits::depth(depth),
            options,
            16,
            &mut crate::engine::trace::NoTrace,
        );
        let value_of = |m: Move| {
            result
                .lines
                .iter()
                .find(|line| line.pv.first() == Some(&m))
                .map(|line| line.value)
        };
        if let (Some(p), Some(b)) = (value_of(played), value_of(best))
            && b - p >= margin
        {
            return Some(depth);
        }
        if started.elapsed() > budget {
            return None;
        }
    }
    None
}

/// Evaluates positions one after the other, keeping its hash table and
/// move-ordering history between them (neighbouring positions of a game
/// share most of their trees).
pub struct Reviewer {
    tt: TranspositionTable,
    heuristics: Box<Heuristics>,
    /// The helper threads' move-ordering memory (Lazy SMP), one each.
    helpers: Vec<Heuristics>,
}

impl Reviewer {
    pub fn new(hash_mb: usize) -> Reviewer {
        Reviewer::with_threads(hash_mb, 1)
    }

    /// A reviewer whose searches run on `threads` threads.
    pub fn with_threads(hash_mb: usize, threads: usize) -> Reviewer {
        let mut helpers = Vec::new();
        helpers.resize_with(
            threads.clamp(1, crate::engine::MAX_THREADS) - 1,
            Heuristics::default,
        );
        Reviewer {
            tt: TranspositionTable::new(hash_mb),
            heuristics: Box::default(),
            helpers,
        }
    }

    /// Evaluate `position` (reached after the positions in `history`)
    /// within `limits`; `stop` ends the search early.
    pub fn evaluate(
        &mut self,
        position: &Chess,
        history: &[u64],
        limits: &Limits,
        stop: &dyn Fn() -> bool,
        tablebases: Option<&Tablebases>,
    ) -> PositionEval {
        let legal_moves = position.legal_moves().len();
        let turn = position.turn();
        if legal_moves == 0 {
            let mated = position.is_check().then_some(turn);
            return PositionEval {
                score: Score::Centipawns(0),
                pv: Vec::new(),
                depth: 0,
                legal_moves,
                mated,
            };
        }
        // The tables know the result: they judge, not a search.
        if let Some(probe) = tablebases.and_then(|t| t.probe(position)) {
            let value = match probe.wdl {
                Wdl::Win => TB_WIN,
                Wdl::Loss => -TB_WIN,
                // A cursed win or blessed loss is a draw under the
                // fifty-move rule.
                Wdl::CursedWin | Wdl::Draw | Wdl::BlessedLoss => 0,
            };
            return PositionEval {
                score: Score::Centipawns(value).for_white(turn),
                pv: probe.best_move.into_iter().collect(),
                depth: 0,
                legal_moves,
                mated: None,
            };
        }
        if position.is_insufficient_material() {
            return PositionEval {
                score: Score::Centipawns(0),
                pv: Vec::new(),
                depth: 0,
                legal_moves,
                mated: None,
            };
        }
        let mut ignore = |_: search::Progress| {};
        let mut ctx = SearchContext {
            tt: &self.tt,
            heuristics: &mut self.heuristics,
            helpers: &mut self.helpers,
            stop,
            on_info: &mut ignore,
            search_id: 0,
            clock_start: Instant::now(),
            tablebases,
            network: None,
        };
        let result = search::search(
            position,
            history,
            limits,
            SearchOptions::default(),
            &mut ctx,
            &mut crate::engine::trace::NoTrace,
        );
        let pv = result
            .lines
            .first()
            .map(|line| line.pv.clone())
            .or_else(|| result.best_move.map(|m| vec![m]))
            .unwrap_or_default();
        PositionEval {
            score: result.score.for_white(turn),
            pv,
            depth: result.depth,
            legal_moves,
            mated: None,
        }
    }
}

/// The ply of the main line's first null move (a pass, `--` or `Z0`), if
/// it has one: the review stops before it, since a pass is no move to
/// judge and the moves after it were played in a game that is no longer
/// the one on the board.
pub fn null_move_ply(tree: &GameTree) -> Option<usize> {
    tree.mainline()
        .iter()
        .position(|&n| tree.nodes[n].m.is_none())
        .map(|i| i + 1)
}

/// The main line's positions and their history keys, from the start, up
/// to the first null move.
pub fn mainline_positions(tree: &GameTree) -> Vec<(Chess, Vec<u64>)> {
    let mut keys = Vec::new();
    let count = null_move_ply(tree).unwrap_or(usize::MAX);
    tree.mainline_positions()
        .into_iter()
        .take(count)
        .map(|position| {
            let history = keys.clone();
            keys.push(position_key(&position));
            (position, history)
        })
        .collect()
}

/// Judge the main line's moves from the evaluations known so far:
/// `evals[i]` is the position after `i` plies (`evals[0]` the start). Moves
/// whose two positions are not both evaluated yet are left out.
pub fn judge(tree: &GameTree, evals: &[Option<PositionEval>]) -> Vec<MoveReview> {
    let mainline = tree.mainline();
    let positions = mainline_positions(tree);
    let mut out = Vec::new();
    for (index, &node) in mainline.iter().enumerate() {
        let (Some(Some(before)), Some(Some(after))) = (evals.get(index), evals.get(index + 1))
        else {
            continue;
        };
        let Some(m) = tree.nodes[node].m else {
            continue;
        };
        let Some((position, _)) = positions.get(index) else {
            continue;
        };
        let mover = position.turn();
        let best = before.pv.first().copied();
        let engine_choice = best == Some(m);
        let lost = (before.chance_for(mover) - after.chance_for(mover)).max(0.0);
        let class = if before.legal_moves > 1 && !engine_choice {
            Class::of(lost)
        } else {
            None
        };
        let mates = after.mated.is_some();
        let note = if engine_choice || mates || before.legal_moves < 2 {
            None
        } else {
            Note::of(mover, before.score, after.score)
        };
        out.push(MoveReview {
            node,
            ply: index + 1,
            move_number: position.fullmoves().get(),
            mover,
            san: tree.nodes[node].san.to_string(),
            before: before.score,
            after: after.score,
            mates,
            lost,
            class,
            better: best.filter(|&b| b != m),
            better_line: san_line(position, &before.pv),
            file_mark: quality_mark(&tree.nodes[node].nags),
            engine_choice,
            note,
        });
    }
    out
}

/// A score (White's view) as `[%eval]` writes it.
pub fn comment_eval(score: Score) -> CommentEval {
    match score {
        Score::Centipawns(cp) => CommentEval::Centipawns(cp),
        Score::Mate(n) => CommentEval::Mate(n),
    }
}

/// Write a review into the tree: an `[%eval]` in the comment of every
/// judged move, the NAG of each inaccuracy, mistake and blunder (unless the
/// move already carries a move-quality NAG), and the engine's better line
/// as a variation.
pub fn annotate(tree: &mut GameTree, reviews: &[MoveReview], evals: &[Option<PositionEval>]) {
    let positions = mainline_positions(tree);
    for review in reviews {
        // Nothing to evaluate after a mating move.
        if !review.mates {
            let eval = comment_eval(review.after);
            let node = &mut tree.nodes[review.node];
            annotations::set_eval(&mut node.comments, eval);
        }
        let Some(class) = review.class else {
            continue;
        };
        // NAGs 1-6 are the move-quality marks; keep a human's own (the
        // review's `kept_mark` tells the report).
        if quality_mark(&tree.nodes[review.node].nags).is_none() {
            tree.nodes[review.node].nags.push(class.nag());
        }
        let Some(parent) = tree.nodes[review.node].parent else {
            continue;
        };
        let Some(Some(before)) = evals.get(review.ply - 1) else {
            continue;
        };
        if review.better.is_none() {
            continue;
        }
        let Some((position, _)) = positions.get(review.ply - 1) else {
            continue;
        };
        let mut at = parent;
        let mut pos = position.clone();
        for (i, &m) in before.pv.iter().take(BETTER_LINE_PLIES).enumerate() {
            if !pos.is_legal(m) {
                break;
            }
            at = tree.add_move_at(at, &pos, m);
            pos.play_unchecked(m);
            if i == 0 && tree.nodes[at].comments.is_empty() {
                let eval = comment_eval(before.score);
                tree.nodes[at]
                    .comments
                    .push(annotations::with_eval("", eval));
            }
        }
    }
}

/// Review a whole main line, each position searched on `threads` threads
/// with a table of `hash_mb` MiB: `progress(ply, eval)` is told each
/// position as it is done (the start is ply 0).
pub fn review(
    tree: &GameTree,
    limits: &Limits,
    (hash_mb, threads): (usize, usize),
    tablebases: Option<&Tablebases>,
    stop: &dyn Fn() -> bool,
    progress: &mut dyn FnMut(usize, &PositionEval),
) -> (Vec<Option<PositionEval>>, Vec<MoveReview>) {
    let mut reviewer = Reviewer::with_threads(hash_mb, threads);
    let mut evals = Vec::new();
    for (ply, (position, history)) in mainline_positions(tree).iter().enumerate() {
        if stop() {
            break;
        }
        let eval = reviewer.evaluate(position, history, limits, stop, tablebases);
        progress(ply, &eval);
        evals.push(Some(eval));
    }
    let reviews = judge(tree, &evals);
    (evals, reviews)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn notes_name_a_lost_mate_and_a_missed_win() {
        use Score::{Centipawns as Cp, Mate};
        let w = Color::White;
        assert_eq!(Note::of(w, Mate(3), Cp(800)), Some(Note::LostForcedMate));
        assert_eq!(Note::of(w, Mate(3), Mate(5)), None, "a longer mate is kept");
        assert_eq!(Note::of(w, Cp(450), Cp(60)), Some(Note::MissedWin));
        assert_eq!(Note::of(w, Cp(450), Cp(250)), None, "still better");
        assert_eq!(Note::of(w, Cp(200), Cp(-300)), None, "was not winning");
        // Black's view: White's -4.50 is Black's +4.50.
        let b = Color::Black;
        assert_eq!(Note::of(b, Cp(-450), Cp(0)), Some(Note::MissedWin));
        assert_eq!(Note::of(b, Mate(-2), Cp(-900)), Some(Note::LostForcedMate));
        assert_eq!(
            Note::of(b, Mate(2), Cp(0)),
            None,
            "White's mate is not Black's"
        );
    }

    #[test]
    fn winning_chances_follow_the_fit() {
        assert!((win_chance(Score::Centipawns(0)) - 50.0).abs() < 1e-9);
        let plus_one = win_chance(Score::Centipawns(100));
        assert!((59.0..60.0).contains(&plus_one), "{plus_one}");
        let minus_one = win_chance(Score::Centipawns(-100));
        assert!((plus_one + minus_one - 100.0).abs() < 1e-9);
        assert_eq!(win_chance(Score::Mate(3)), 100.0);
        assert_eq!(win_chance(Score::Mate(-1)), 0.0);
    }

    #[test]
    fn thresholds_make_the_classes() {
        assert_eq!(Class::of(4.9), None);
        assert_eq!(Class::of(5.0), Some(Class::Inaccuracy));
        assert_eq!(Class::of(10.0), Some(Class::Mistake));
        assert_eq!(Class::of(15.0), Some(Class::Blunder));
        assert_eq!(Class::of(80.0), Some(Class::Blunder));
    }
}
