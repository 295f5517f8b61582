//! One node of the tree below the root: negamax with alpha-beta, in stages.
//!
//! Every node goes through the same stages, in this order, and most nodes
//! end in one of the early ones; that is where the search saves its time.
//!
//! 1. The horizon: with no depth left, the quiescence search gives the
//!    value ([`Searcher::horizon`]).
//! 2. Settled without a search: a draw by the rules, a position the
//!    endgame tables know ([`Searcher::settled`]), or a window that no
//!    line from here can reach ([`Searcher::mate_distance`]).
//! 3. The transposition table: an entry from a deep enough search answers
//!    the node; any entry's move will be tried first
//!    ([`Searcher::consult_table`]).
//! 4. Before any move: the static evaluation, and the rules of
//!    `selective.rs` that end the node (reverse futility, the null move)
//!    or change its depth (internal iterative reduction, the singular
//!    extension) ([`Searcher::before_moves`]).
//! 5. The move loop: the picker (`ordering.rs`) hands out the moves best
//!    first, and each is skipped by a selective rule or searched with the
//!    window `pvs.rs` gives it, until one fails high
//!    ([`Searcher::search_moves`]).
//! 6. The result: without a legal move, mate or stalemate; otherwise the
//!    value goes into the table and teaches the correction history
//!    ([`Searcher::conclude`]).
//!
//! (See `search.rs` for the glossary and for why each piece is there.)

use arrayvec::ArrayVec;
use shakmaty::{Chess, Move, Position};

use super::eval::evaluate;
use super::movetables::{Decrement, TableUpdate};
use super::ordering::{MovePicker, TableChoice};
use super::searcher::{NO_EVAL, Searcher};
use super::selective::{MoveFacts, Singular};
use super::trace::{OrderReason, Shortcut, TraceEvent, Tracer};
use super::tt::TtHit;
use super::values::{DRAW, INFINITY, MATE, MAX_PLY, TB_BOUND, TB_WIN};

/// Internal iterative reduction from this depth on.
const IIR_MIN_DEPTH: i32 = 4;

/// What the stages learn about a node, handed from one to the next.
struct Node {
    key: u64,
    ply: u32,
    /// The depth left, after the check extension and internal iterative
    /// reduction: what the moves are searched with and the table stores.
    depth: i32,
    /// The window, after mate-distance pruning narrowed it: the bounds the
    /// node's value is judged (and stored) against.
    alpha: i32,
    beta: i32,
    /// Whether the node is expected to fail high (see [`Searcher::negamax`]).
    cut_node: bool,
    in_check: bool,
    /// The move a singular-extension test leaves out of this node (see
    /// `selective.rs`).
    excluded: Option<Move>,
    /// The table's entry for the position, and its move if legal here.
    hit: Option<TtHit>,
    hash_move: Option<Move>,
    /// Whether the selective rules may prune here: alpha-beta with
    /// selectivity on, at a null-window node not in check and not under a
    /// singular test.
    selective: bool,
    /// The static evaluation, and the same corrected by the correction
    /// history; worked out only with the selective search and not in
    /// check, since only the selective rules, the correction history and
    /// the improving test two plies down read them.
    raw_eval: i32,
    static_eval: i32,
    /// Plies the table's move is searched deeper (or shallower): the
    /// singular extension.
    hash_move_extension: i32,
}

/// What the move loop found.
struct Outcome {
    /// The best value; when the node failed low, a bound that also covers
    /// the moves pruned unsearched.
    best: i32,
    best_move: Option<Move>,
    /// The legal moves met, searched or pruned (not the left-out one).
    legal_moves: usize,
}

/// The moves the loop searched, for what a cutoff teaches: the history
/// punishes the quiet moves and captures tried before the one that cut
/// off, the move tables every move tried before it. Each list keeps the
/// first moves up to its capacity, on the stack: no allocation per node.
struct Tried {
    quiets: ArrayVec<Move, 64>,
    captures: ArrayVec<Move, 32>,
    /// Every move searched here, for the move tables' decrement.
    all: ArrayVec<Move, 64>,
}

impl Tried {
    fn new() -> Tried {
        Tried {
            quiets: ArrayVec::new(),
            captures: ArrayVec::new(),
            all: ArrayVec::new(),
        }
    }

    fn record(&mut self, m: Move, quiet: bool) {
        if quiet && !self.quiets.is_full() {
            self.quiets.push(m);
        }
        if !quiet && !self.captures.is_full() {
            self.captures.push(m);
        }
        if !self.all.is_full() {
            self.all.push(m);
        }
    }
}

impl<T: Tracer> Searcher<'_, '_, T> {
    /// Negamax alpha-beta search of a node below the root.
    ///
    /// `cut_node`: whether the node is expected to fail high (Knuth and
    /// Moore's node types). Below a PV node, the first move leads to a PV
    /// node and the others to cut nodes; below a cut node, the refuting
    /// move leads to an all node (every reply fails low), and below an all
    /// node, every move leads to a cut node. The kinds alternate, so a
    /// null-window child gets the opposite of its parent's.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax(
        &mut self,
        position: &Chess,
        key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: u32,
        null_allowed: bool,
        cut_node: bool,
        in_check: bool,
    ) -> i32 {
        debug_assert_eq!(in_check, position.is_check());
        self.pv[ply as usize].clear();
        if depth <= 0 || ply as usize >= MAX_PLY - 1 {
            return self.horizon(position, key, alpha, beta, ply, in_check);
        }
        if !self.enter(ply, depth, alpha, beta, false) {
            return 0;
        }
        if let Some(value) = self.settled(position, ply) {
            return value;
        }
        let mut node = Node {
            key,
            ply,
            depth,
            alpha,
            beta,
            cut_node,
            in_check,
            excluded: self.excluded[ply as usize],
            hit: None,
            hash_move: None,
            selective: false,
            raw_eval: 0,
            static_eval: 0,
            hash_move_extension: 0,
        };
        if let Some(value) = self.mate_distance(&mut node) {
            return value;
        }
        // Check extension (part of the selective search: it makes some lines
        // deeper than others, so the tree is no longer a fixed-depth one).
        // A side in check has few replies and the line is forcing: a ply
        // more keeps mates from hiding behind the horizon.
        if node.in_check && self.options.selective && self.options.params.check_extension > 0 {
            node.depth += 1;
        }
        if let Some(value) = self.consult_table(position, &mut node) {
            return value;
        }
        if let Some(value) = self.before_moves(position, &mut node, null_allowed) {
            return value;
        }
        let Some(outcome) = self.search_moves(position, &node) else {
            // Stopped: the value is never used.
            return 0;
        };
        self.conclude(position, &node, outcome)
    }

    /// Stage 1, the horizon. A repetition there is still a draw, whatever
    /// the captures say; otherwise the quiescence search plays the captures
    /// out (or, without it, the static evaluation is the value).
    pub(super) fn horizon(
        &mut self,
        position: &Chess,
        key: u64,
        alpha: i32,
        beta: i32,
        ply: u32,
        in_check: bool,
    ) -> i32 {
        if self.is_draw(position) {
            if !self.enter(ply, 0, alpha, beta, false) {
                return 0;
            }
            return self.shortcut(ply, Shortcut::Draw, DRAW);
        }
        if !self.options.quiescence {
            return self.horizon_leaf(position, ply, alpha, beta);
        }
        self.quiescence(position, key, alpha, beta, ply, in_check, 0, None)
    }

    /// A horizon position of a search without quiescence: its static
    /// evaluation is its value, captures pending or not. A game that is
    /// over is still over: checkmate and stalemate are scored as such.
    fn horizon_leaf(&mut self, position: &Chess, ply: u32, alpha: i32, beta: i32) -> i32 {
        if !self.enter(ply, 0, alpha, beta, false) {
            return 0;
        }
        if position.legal_moves().is_empty() {
            return if position.is_check() {
                self.shortcut(ply, Shortcut::Checkmate, -MATE + ply as i32)
            } else {
                self.shortcut(ply, Shortcut::Stalemate, DRAW)
            };
        }
        self.stats.totals.leaves += 1;
        let value = evaluate(position);
        if T::ENABLED {
            self.tracer.record(TraceEvent::LeafEval { ply, value });
        }
        self.leave(ply, value)
    }

    /// Stage 2: the rules of the game and the endgame tables settle some
    /// nodes with no search at all. `Some(value)` ends the node.
    pub(super) fn settled(&mut self, position: &Chess, ply: u32) -> Option<i32> {
        if self.is_draw(position) {
            return Some(self.shortcut(ply, Shortcut::Draw, DRAW));
        }
        let value = self.tablebase_value(position, ply)?;
        Some(self.shortcut(ply, Shortcut::Tablebase, value))
    }

    /// Is the current node a draw by repetition or the fifty-move rule?
    fn is_draw(&self, position: &Chess) -> bool {
        if position.halfmoves() >= 100 {
            // Checkmate on the hundredth half-move still wins.
            return !(position.is_check() && position.legal_moves().is_empty());
        }
        if position.is_insufficient_material() {
            return true;
        }
        // Same side to move, so look back two plies at a time, and only as
        // far as the last capture or pawn move (nothing before it can repeat).
        //
        // A position seen once before is not a draw by the rules: only the
        // third time is. The search still scores a repetition of a position
        // from its own line, after the root, as a draw: the side that
        // steered back into it can steer back again, and waiting for the
        // third time would only make the tree deeper. But a position the
        // game saw before the search began (the root included) repeats
        // only once on reaching it again, and the opponent need not play
        // on into the third time: scored as a draw, it let a lost side
        // believe one repeated move saved it (0.00 at depth 48 a queen
        // and rook for a bishop down, then mated), and a winning side believe
        // the opponent could escape that way. So it counts only when the
        // game had it twice already.
        let current = self.path.len() - 1;
        let reach = (position.halfmoves() as usize).min(current);
        let key = self.path[current];
        let mut before_root = 0;
        for earlier in (4..=reach).step_by(2).map(|back| current - back) {
            if self.path[earlier] != key {
                continue;
            }
            if earlier > self.root_index {
                return true;
            }
            before_root += 1;
            if before_root == 2 {
                return true;
            }
        }
        false
    }

    /// The endgame tables' value of the node, when a capture or pawn move
    /// just brought the position into them: their verdict replaces the
    /// whole subtree. (Only then: the fifty-move count is zero, so
    /// win/draw/loss is exact.)
    fn tablebase_value(&self, position: &Chess, ply: u32) -> Option<i32> {
        use crate::tablebase::Wdl;
        if ply > 0
            && position.halfmoves() == 0
            && let Some(tables) = self.ctx.tablebases
            && !(position.is_check() && position.legal_moves().is_empty())
            && position.board().occupied().count() <= tables.max_pieces()
            && let Some(wdl) = tables.probe_wdl(position)
        {
            // Wins and losses count plies from the root, as mates do, so
            // the shorter road into a won ending is preferred.
            Some(match wdl {
                Wdl::Win => TB_WIN - ply as i32,
                Wdl::Loss => -TB_WIN + ply as i32,
                // Won or lost, but the fifty-move rule makes it a draw.
                Wdl::CursedWin => 1,
                Wdl::BlessedLoss => -1,
                Wdl::Draw => DRAW,
            })
        } else {
            None
        }
    }

    /// Stage 2, mate-distance pruning: even mating at once cannot beat a
    /// shorter mate already found, nor be worse than being mated now, so
    /// the window shrinks to what a mate from here can score, and a window
    /// left empty ends the node. (It keeps the value but narrows every
    /// window to mate bounds, so the textbook search, with `selective` off,
    /// goes without.)
    fn mate_distance(&mut self, node: &mut Node) -> Option<i32> {
        if !(self.options.alpha_beta && self.options.selective) {
            return None;
        }
        let ply = node.ply as i32;
        node.alpha = node.alpha.max(-MATE + ply);
        node.beta = node.beta.min(MATE - ply - 1);
        (node.alpha >= node.beta)
            .then(|| self.shortcut(node.ply, Shortcut::MateDistance, node.alpha))
    }

    /// Stage 3, the transposition table: an entry deep enough, with a bound
    /// that settles the window, answers the node (`Some(value)`); any
    /// entry's move (if legal here) is kept, to be tried first.
    fn consult_table(&mut self, position: &Chess, node: &mut Node) -> Option<i32> {
        let (hit, cutoff) = self.probe_table(node.key, node.ply, node.depth, node.alpha, node.beta);
        node.hit = hit;
        node.hash_move = hit.and_then(|hit| hit.best_move.unpack(position, node.in_check));
        // A singular-extension test searches this same position without one
        // move: the table's entry (for the whole position) neither answers
        // it (`probe_table` gives no cutoff) nor may be overwritten by it.
        let value = cutoff?;
        // The stored move starts this node's line of the PV.
        self.pv[node.ply as usize].extend(node.hash_move);
        Some(self.leave(node.ply, value))
    }

    /// Stage 4, before any move is searched: the static evaluation, then
    /// the rules that bet the node is decided already (reverse futility,
    /// the null move: `Some(value)` ends it) and those that change its
    /// depth (internal iterative reduction, the singular extension).
    fn before_moves(
        &mut self,
        position: &Chess,
        node: &mut Node,
        null_allowed: bool,
    ) -> Option<i32> {
        let selective_search = self.options.selective && self.options.alpha_beta;
        // At a PV node the exact value matters, and a side in check has too
        // few moves to skip any: no pruning there (see `selective.rs`).
        let pv_node = node.beta - node.alpha > 1;
        node.selective = selective_search && !pv_node && !node.in_check && node.excluded.is_none();
        // The static evaluation is also kept at PV nodes, so that the node
        // two plies down can tell whether its side is improving (see
        // `Searcher::improving`). A singular test searches the same
        // position at the same ply: its evaluation is already there.
        let ply = node.ply as usize;
        if node.excluded.is_some() {
            node.static_eval = self.evals[ply];
        } else if selective_search && !node.in_check {
            self.static_evaluation(position, node);
            self.evals[ply] = node.static_eval;
        } else {
            self.evals[ply] = NO_EVAL;
        }
        if node.selective
            && let Some(value) = self.prune_node(
                position,
                node.key,
                node.depth,
                node.beta,
                node.ply,
                node.static_eval,
                null_allowed,
                node.cut_node,
                node.hit,
            )
        {
            return Some(value);
        }
        if !selective_search {
            return None;
        }
        // Internal iterative reduction: a node the table knows no move for
        // was never searched deeply; searching it a ply shallower first is
        // cheap, and the next iteration finds it with a move to try first.
        if node.depth >= IIR_MIN_DEPTH && node.hash_move.is_none() && !node.in_check {
            node.depth -= 1;
        }
        // Is the table's move the only good one? Then it is searched a ply
        // deeper (or, if several moves beat beta, the node ends here).
        match self.singular_test(
            position,
            node.key,
            node.depth,
            node.beta,
            node.ply,
            node.hit,
            node.hash_move,
            node.cut_node,
            node.in_check,
        ) {
            Singular::Extend(plies) => {
                node.hash_move_extension = plies;
                None
            }
            Singular::Return(value) => Some(value),
        }
    }

    /// The static evaluation the selective rules judge by. (The static
    /// evaluation only: using a table value in its place when the entry's
    /// bound points past it cost short mates. A shallow entry that thought
    /// the defender safe let reverse futility cut the mating line, so a
    /// mate in 2 surfaced only at depth 8.) The rules use it corrected by
    /// the evaluation's average error in this pawn structure so far
    /// (`correction.rs`); the raw value is kept to teach that correction.
    fn static_evaluation(&mut self, position: &Chess, node: &mut Node) {
        let raw = self.evaluate(position, node.key, node.ply);
        let corrections = &self.ctx.heuristics.corrections;
        node.raw_eval = raw;
        node.static_eval = corrections.correct(position.board(), position.turn(), raw);
    }

    /// Stage 5, the move loop: the picker hands out the moves best first;
    /// each is skipped by a selective rule or searched, until one fails
    /// high. `None` when the search was stopped on the way.
    fn search_moves(&mut self, position: &Chess, node: &Node) -> Option<Outcome> {
        let ply = node.ply;
        // The opponent's move that led here (none at the root or after a
        // null move): its counter-move is tried right after the killers.
        let previous = self.played.get(ply as usize).copied().flatten();
        let mut picker = MovePicker::new(
            node.hash_move,
            node.in_check,
            self.options.move_ordering,
            self.ctx.heuristics,
            ply,
            TableChoice {
                previous,
                count: self.options.table_moves,
                threshold: self.options.table_threshold,
                no_history: !self.options.history_heuristic,
                continuation: self.options.params.continuation,
            },
        );
        let mut alpha = node.alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut index = 0usize;
        let mut legal_moves = 0usize;
        let mut tried = Tried::new();
        // The most a futility-pruned move could have scored.
        let mut pruned_bound = -INFINITY;
        loop {
            let next = picker.next(position, self.ctx.heuristics);
            // What the pruning rules know here, for a quiet move.
            let facts = MoveFacts {
                ply,
                depth: node.depth,
                alpha,
                static_eval: node.static_eval,
                best,
                index,
                quiets_tried: tried.quiets.len(),
                reason: OrderReason::Quiet,
                quiet: true,
            };
            // The quiet moves the picker left out (see below) before this
            // one: skipped as they would have been one by one, by the same
            // rule, counted the same.
            let skipped = picker.take_skipped();
            if skipped > 0 {
                let rule = self.quiet_rule(&facts);
                debug_assert!(rule.is_some(), "a quiet rule, once it holds, keeps holding");
                if let Some((_, bound)) = rule {
                    pruned_bound = pruned_bound.max(bound);
                }
                legal_moves += skipped;
                index += skipped;
            }
            let Some((m, reason)) = next else {
                break;
            };
            if Some(m) == node.excluded {
                continue;
            }
            legal_moves += 1;
            let quiet = !m.is_capture() && !m.is_promotion();
            // Late-move pruning, losing captures and futility may skip it.
            if node.selective
                && let Some(bound) = self.prune_move(
                    position,
                    m,
                    &MoveFacts {
                        index,
                        reason,
                        quiet,
                        ..facts
                    },
                )
            {
                // From here on those rules skip every quiet move but a
                // check: the picker need not hand the others out one by
                // one. A trace shows each move skipped, so it gets them all.
                if quiet && !T::ENABLED {
                    picker.only_quiet_checks();
                }
                pruned_bound = pruned_bound.max(bound);
                index += 1;
                continue;
            }
            // Quiet moves may be searched shallower (see `pvs.rs`). (Losing
            // captures too, which are ordered after the quiet moves: 47.5%,
            // -17 +/- 25 Elo, over 400 games at 2+0.02 against the build
            // without it: not kept. Quiet moves a ply more where the
            // table's move is a capture: 51.1%, +8 +/- 24, the same way:
            // not beyond the error bar, not kept.)
            let reducible = quiet;
            let extension = if Some(m) == node.hash_move {
                node.hash_move_extension
            } else {
                0
            };
            let value = self.search_child(
                position,
                node.key,
                m,
                reason,
                node.depth + extension,
                alpha,
                node.beta,
                ply,
                index,
                node.in_check,
                reducible,
                node.cut_node,
            );
            if self.stopped {
                return None;
            }
            tried.record(m, quiet);
            if value > best {
                best = value;
                best_move = Some(m);
                if value > alpha {
                    alpha = value;
                    self.extend_pv(ply, m);
                    if T::ENABLED {
                        self.tracer
                            .record(TraceEvent::AlphaRaised { ply, mv: m, value });
                    }
                    if self.options.alpha_beta && value >= node.beta {
                        // A beta cutoff: the opponent will not allow this
                        // position, so the other moves need no search.
                        self.learn_from_cutoff(position, node, m, index, &tried, previous);
                        if T::ENABLED {
                            self.tracer.record(TraceEvent::BetaCutoff {
                                ply,
                                mv: m,
                                value,
                                moves_left: picker.remaining(position) as u32,
                            });
                        }
                        self.teach_tables(ply, position, &tried.all);
                        break;
                    }
                }
            }
            index += 1;
        }
        Some(Outcome {
            // A fail-low bound must cover the moves futility skipped
            // unsearched.
            best: best.max(pruned_bound),
            best_move,
            legal_moves,
        })
    }

    /// A move raised alpha: the node's line becomes that move followed by
    /// the line found below it (the triangular PV table).
    pub(super) fn extend_pv(&mut self, ply: u32, m: Move) {
        let ply_index = ply as usize;
        let (head, tail) = self.pv.split_at_mut(ply_index + 1);
        let line = &mut head[ply_index];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    /// A beta cutoff teaches the move ordering: the move that refuted the
    /// position gains history (and, if quiet, becomes a killer and the
    /// counter to the opponent's last move); the moves tried before it,
    /// which wasted the search's time, lose history.
    fn learn_from_cutoff(
        &mut self,
        position: &Chess,
        node: &Node,
        m: Move,
        index: usize,
        tried: &Tried,
        previous: Option<Move>,
    ) {
        self.stats.totals.beta_cutoffs += 1;
        if index == 0 {
            self.stats.totals.first_move_cutoffs += 1;
        }
        let color = position.turn();
        if self.options.history_heuristic {
            self.ctx
                .heuristics
                .record_capture_cutoff(color, node.depth, m, &tried.captures);
        }
        if !m.is_capture() && !m.is_promotion() {
            self.ctx.heuristics.record_cutoff(
                color,
                node.ply,
                node.depth,
                m,
                &tried.quiets,
                previous,
            );
            if let Some(previous) = previous
                && self.options.params.continuation > 0
            {
                self.ctx.heuristics.record_continuation(
                    color,
                    node.depth,
                    m,
                    &tried.quiets,
                    previous,
                );
            }
        }
    }

    /// A beta cutoff teaches the move tables: the refuting line (the move
    /// that cut off and the line expected after it, now `pv[ply]`) gains
    /// weight on its squares; the other moves lose weight: those tried
    /// before it, or under Greer's own rule every other legal move, tried
    /// or not (it takes a move generation per cutoff, which is its cost).
    pub(super) fn teach_tables(&mut self, ply: u32, position: &Chess, tried: &[Move]) {
        let color = position.turn();
        let line = &self.pv[ply as usize];
        let mut all_others;
        let others = match self.options.table_decrement {
            Decrement::Tried => tried.split_last().map_or(&[][..], |(_, before)| before),
            Decrement::All => {
                let cutoff = tried.last().copied();
                all_others = position.legal_moves();
                all_others.retain(|m| Some(*m) != cutoff);
                &all_others[..]
            }
        };
        self.ctx.heuristics.tables.record(color, line, others);
        if T::ENABLED {
            self.tracer.record(TraceEvent::MoveTables {
                ply,
                update: Box::new(TableUpdate {
                    color,
                    line: line.clone(),
                    others: others.to_vec(),
                }),
            });
        }
    }

    /// Stage 6, the result. A node where no move was legal is over;
    /// otherwise its value goes into the table for the searches that meet
    /// the position again, and teaches the correction history.
    fn conclude(&mut self, position: &Chess, node: &Node, outcome: Outcome) -> i32 {
        let ply = node.ply;
        if outcome.legal_moves == 0 {
            // In a singular-extension test the left-out move was the only
            // one: nothing else reaches alpha. Otherwise there is no legal
            // move: checkmate (scored by its distance from the root, so
            // that a quicker mate is worth more) or stalemate.
            return if node.excluded.is_some() {
                self.leave(ply, node.alpha)
            } else if node.in_check {
                self.shortcut(ply, Shortcut::Checkmate, -MATE + ply as i32)
            } else {
                self.shortcut(ply, Shortcut::Stalemate, DRAW)
            };
        }
        if node.excluded.is_none() {
            self.store(
                node.key,
                ply,
                node.depth,
                outcome.best,
                node.alpha,
                node.beta,
                outcome.best_move,
            );
        }
        self.learn_correction(position, node, &outcome);
        self.leave(ply, outcome.best)
    }

    /// What this node's search says about its static evaluation teaches
    /// the correction history: an exact value, or a bound that lies on the
    /// far side of the evaluation. (Not when a capture or promotion was
    /// best: then the material changed, and the error is the search's
    /// tactics, not the evaluation's judgement.)
    fn learn_correction(&mut self, position: &Chess, node: &Node, outcome: &Outcome) {
        let best = outcome.best;
        // With `correction_pv`, an evaluated PV node teaches it as well.
        let evaluated_pv = || {
            node.beta - node.alpha > 1
                && node.excluded.is_none()
                && self.evals[node.ply as usize] != NO_EVAL
        };
        if (node.selective || (self.options.params.correction_pv > 0 && evaluated_pv()))
            && best.abs() < TB_BOUND
            && outcome
                .best_move
                .is_none_or(|m| !m.is_capture() && !m.is_promotion())
            && !(best >= node.beta && best <= node.static_eval)
            && !(best <= node.alpha && best >= node.static_eval)
        {
            self.ctx.heuristics.corrections.update(
                position.board(),
                position.turn(),
                node.depth,
                node.raw_eval,
                best,
            );
        }
    }
}
