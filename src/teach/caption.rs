//! What each step of a recorded search did, and why, in a sentence or two
//! a learner can read.
//!
//! Values are always from the side to move at the node (the search is
//! negamax); the first time a child's value comes back to its parent, the
//! caption says why its sign flips.

use shakmaty::{Chess, Color, Move, Position};

use super::replay::Replay;
use super::step::{Bound, Frame, MoveStatus, Step, Via};
use super::values::{
    bound_text, no_lower_bound, no_upper_bound, side_value_text, unbounded, value_text,
    window_text, worth_text,
};
use crate::engine::protocol::SearchOptions;
use crate::engine::search::{INFINITY, MATE_BOUND};
use crate::engine::trace::{
    OrderReason, Pruning, ReSearchReason, Shortcut, TraceEvent, TtBound, TtEntry, WindowKind,
};

/// The first depth whose root gets an aspiration window (`root.rs`,
/// `aspiration`: `depth >= 4`).
const ASPIRATION_DEPTH: i32 = 4;

/// "White" or "Black" (on a hand-made tree, "MAX" or "MIN").
fn side(color: Color) -> &'static str {
    super::values::side_name(color)
}

/// "1 ply", "3 plies".
fn plies(n: i32) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

/// The start of an iteration (or, without iterative deepening, of the one
/// search).
fn iteration_caption(options: &SearchOptions, depth: i32) -> String {
    if !options.iterative_deepening {
        format!(
            "The search starts: one search, {} deep (iterative deepening is off).",
            plies(depth)
        )
    } else if depth <= 1 {
        "Iterative deepening: iteration 1 starts, one ply deep. Each later iteration searches one ply deeper, with the best moves found so far tried first.".to_string()
    } else {
        format!(
            "Iterative deepening: iteration {depth} starts. The earlier iterations filled the transposition table and put the best move first."
        )
    }
}

/// A move in SAN from `position`.
pub fn san(position: &Chess, m: Move) -> String {
    shakmaty::san::SanPlus::from_move(position.clone(), m).to_string()
}

/// A transposition-table entry in words: "a lower bound of +0.30 from a
/// search 2 plies deep".
pub fn entry_text(entry: &TtEntry, ply: u32) -> String {
    let value = value_text(entry.value, ply);
    let what = match entry.bound {
        TtBound::Exact => format!("an exact value of {value}"),
        TtBound::Lower => format!("a lower bound of {value} (it failed high)"),
        TtBound::Upper => format!("an upper bound of {value} (it failed low)"),
    };
    format!("{what} {}", searched_words(entry.depth))
}

/// How deep a stored value was searched: "from a search 2 plies deep",
/// or for quiescence search's entries (depth 0) "from quiescence search".
fn searched_words(depth: i32) -> String {
    if depth <= 0 {
        "from quiescence search".to_string()
    } else {
        format!("from a search {} deep", plies(depth))
    }
}

/// Why an entry the probe found did not settle the node: too shallow, a
/// bound on the wrong side of the window, or (principal-variation search)
/// a node with a full window, where the search goes on so the principal
/// variation stays whole.
pub fn unsettled_words(entry: &TtEntry, node: &Frame, pvs: bool) -> String {
    let needed = node.depth.max(0);
    if entry.depth < needed {
        format!(
            "Too shallow: this node needs {}, so the entry cannot answer it.",
            plies(needed)
        )
    } else if pvs && node.beta.saturating_sub(node.alpha) > 1 {
        "Deep enough, but principal-variation search does not take the transposition table's answers at full-window nodes: the search goes on so that the principal variation stays whole.".to_string()
    } else {
        match entry.bound {
            TtBound::Lower => format!(
                "Deep enough, but a lower bound answers a node only when it reaches beta = {}.",
                value_text(node.beta, node.ply)
            ),
            TtBound::Upper => format!(
                "Deep enough, but an upper bound answers a node only when it is at most alpha = {}.",
                value_text(node.alpha, node.ply)
            ),
            TtBound::Exact => "Deep enough, but principal-variation search does not take the transposition table's answers at full-window nodes.".to_string(),
        }
    }
}

/// Why a move was tried where it was. `quiet_cutoffs`: whether a quiet
/// move has cut off before (only those teach the history scores that
/// order quiet moves; before the first, the piece-square gain decides).
fn reason_words(reason: OrderReason, quiet_cutoffs: bool) -> &'static str {
    match reason {
        OrderReason::Quiet if !quiet_cutoffs => {
            "a quiet move; no quiet move has caused a cutoff yet, so quiet moves are ordered by how much the moving piece gains on its new square (the piece-square tables)"
        }
        OrderReason::HashMove => "the transposition table's best move here, tried first",
        OrderReason::PreviousBest => "the previous iteration's best, tried first",
        OrderReason::PreviousIteration => {
            "in the previous iteration's order: higher scores first; the moves that only failed low there keep the order they had"
        }
        OrderReason::GoodCapture => "a capture that does not lose material",
        OrderReason::TableMove => {
            "a move-table move: its squares kept refuting positions earlier, so it is tried early"
        }
        OrderReason::Killer => "a killer: it caused a cutoff at this ply elsewhere",
        OrderReason::CounterMove => {
            "a counter-move: it refuted the same move by the opponent elsewhere in the tree"
        }
        OrderReason::Quiet => {
            "a quiet move; quiet moves are ordered by how often they caused cutoffs so far (the history heuristic), then by how much the moving piece gains on its new square"
        }
        OrderReason::BadCapture => "a capture that loses material, tried late",
        OrderReason::Unordered => "in generation order: move ordering is off",
        OrderReason::Evasion => "in check, every reply is tried",
        OrderReason::BestFirst => {
            "best first by its true value: the ordering switch shows alpha-beta's best case"
        }
        OrderReason::MoveChain => {
            "a move chain: a line that caused a cutoff earlier starts with this move (or goes on with it), so it is searched and moves without a chain are not"
        }
    }
}

fn pruning_words(reason: Pruning) -> &'static str {
    match reason {
        Pruning::LateMove => {
            "late-move pruning: near the horizon, enough quiet moves have already failed"
        }
        Pruning::LosingCapture => "it loses material by exchange, so it is not worth a search",
        Pruning::Futility => {
            "futility pruning: so far below alpha that a quiet move cannot make up the difference"
        }
        Pruning::Delta => "delta pruning: even winning the piece would not reach alpha",
        Pruning::MoveChain => {
            "move-chain pruning: other moves here start a stored chain, so a move without one is not searched (Greer's forward pruning)"
        }
    }
}

/// The best root move before the `AlphaRaised` at the root that step
/// `applied` shows, in the same search (iteration): its move and value.
fn previous_root_best(replay: &Replay, applied: usize) -> Option<(Move, i32)> {
    let before = applied.checked_sub(1)?;
    replay.events()[..before]
        .iter()
        .rev()
        .take_while(|e| {
            !matches!(
                e,
                TraceEvent::Iteration { .. } | TraceEvent::EnterNode { ply: 0, .. }
            )
        })
        .find_map(|e| match *e {
            TraceEvent::AlphaRaised { ply: 0, mv, value } => Some((mv, value)),
            _ => None,
        })
}

/// The caption of `step` (the event applied last, in its context).
pub fn caption(replay: &Replay, step: &Step) -> String {
    let setup = &replay.recording.setup;
    let Some(event) = replay.event_at(step.applied) else {
        return format!(
            "{} to move. The search looks {} ahead. Press Right (l) to take it one step at a time.",
            side(setup.position.turn()),
            plies(setup.depth as i32)
        );
    };
    let Some(top) = step.current() else {
        return match event {
            TraceEvent::Iteration { depth } => iteration_caption(&setup.options, *depth),
            _ => String::new(),
        };
    };
    let mover = side(top.position.turn());
    let opponent = side(!top.position.turn());
    let ply = top.ply;
    match *event {
        TraceEvent::Iteration { depth } => iteration_caption(&setup.options, depth),
        TraceEvent::EnterNode {
            depth,
            alpha,
            beta,
            quiescence,
            ..
        } => enter_caption(&setup.options, step, top, depth, alpha, beta, quiescence),
        TraceEvent::TtProbe {
            hit, cutoff, entry, ..
        } => match (hit, cutoff) {
            (false, _) => "The transposition table has not seen this position.".to_string(),
            (true, false) => {
                let mut text = match entry {
                    Some(entry) => format!(
                        "The transposition table has seen this position: {}. {}",
                        entry_text(&entry, ply),
                        unsettled_words(&entry, top, setup.options.pvs)
                    ),
                    None => "The transposition table has seen this position, but its entry does not settle this node.".to_string(),
                };
                // Its move is tried first when it has one and ordering is on:
                // then the node's next event is that move.
                if let Some(&TraceEvent::MoveTried {
                    mv,
                    reason: OrderReason::HashMove,
                    ..
                }) = replay.events().get(step.applied)
                {
                    text.push_str(&format!(
                        " Its best move, {}, is tried first.",
                        top.move_name(mv)
                    ));
                } else if entry.is_some_and(|entry| !entry.has_move) {
                    text.push_str(" It holds no move to try first: it failed low, so no move was proven best.");
                }
                text
            }
            (true, true) => match entry {
                Some(entry) => format!(
                    "The transposition table answers: {}, deep enough for this node{}, and {}. No search needed.",
                    entry_text(&entry, ply),
                    if top.depth > 0 {
                        format!(" (it needs {})", plies(top.depth))
                    } else {
                        String::new()
                    },
                    match entry.bound {
                        TtBound::Exact => "an exact value settles any window",
                        TtBound::Lower => "a lower bound at or above beta is enough for a cutoff",
                        TtBound::Upper => "an upper bound at or below alpha shows the node fails low",
                    }
                ),
                None => "The transposition table answers: this position was searched before, at least as deep, and the stored bound settles the window. No search needed.".to_string(),
            },
        },
        TraceEvent::TtStore {
            depth, value, bound, ..
        } => format!(
            "The transposition table keeps {} for this position, {}, as {}.",
            value_text(value, ply),
            searched_words(depth),
            match bound {
                TtBound::Exact => "an exact value",
                TtBound::Lower => "a lower bound (it failed high: the true value may be higher)",
                TtBound::Upper => "an upper bound (it failed low: the true value may be lower)",
            }
        ),
        TraceEvent::MoveTried {
            mv,
            index,
            reason,
            window,
            reduction,
            ..
        } => {
            // History scores are learnt from quiet moves' cutoffs only.
            let quiet_cutoffs = setup.options.history_heuristic
                && replay
                    .find_backward(step.applied, |e| {
                        matches!(e, TraceEvent::BetaCutoff { mv, .. } if !mv.is_capture() && !mv.is_promotion())
                    })
                    .is_some();
            let words = match (reason, &top.tree) {
                (OrderReason::Unordered, Some(_)) => "in the tree's order",
                (OrderReason::PreviousBest, Some(_)) => {
                    "best in the previous iteration, so tried first"
                }
                _ => reason_words(reason, quiet_cutoffs),
            };
            // In check, every move is a reply to the check, whatever class
            // the picker put it in.
            let words = if top.position.is_check() && reason != OrderReason::Evasion {
                format!("{mover} is in check, so every move is an evasion; this is {words}")
            } else {
                words.to_string()
            };
            let mut text = format!(
                "{mover} tries {} (move {}: {words}).",
                top.move_name(mv),
                index + 1,
            );
            let leaf = top
                .tree
                .as_ref()
                .zip(super::game_tree::child_index(mv))
                .and_then(|((tree, id), i)| tree.child(*id, i))
                .is_some_and(|child| {
                    top.tree.as_ref().is_some_and(|(tree, _)| tree.node(child).is_leaf())
                });
            match window {
                // A leaf has no replies: its value is read.
                WindowKind::Full if leaf => text.push_str(" It is a leaf: its value is read, not searched."),
                WindowKind::Full => text.push_str(&format!(
                    " {opponent}'s replies are searched with the window turned round, {}: what is good for one side is bad for the other.",
                    window_text(-top.beta, -top.alpha, ply + 1, !top.position.turn())
                )),
                WindowKind::Null => text.push_str(&format!(
                    " Principal-variation search: a null window only asks whether it beats alpha = {}, which is cheaper than finding its value.",
                    value_text(top.alpha, ply)
                )),
                WindowKind::Infinite => {
                    text.push_str(" Minimax: no window, so every reply will be searched.")
                }
            }
            if reduction > 0 {
                text.push_str(&format!(
                    " As a late move it is searched {} shallower first.",
                    plies(i32::from(reduction))
                ));
            }
            text
        }
        TraceEvent::ReSearch { mv, reason, .. } => format!(
            "{} again: {}",
            top.move_name(mv),
            match reason {
                ReSearchReason::Reduced => {
                    "the shallower search beat alpha, so only a full-depth search can be trusted."
                }
                ReSearchReason::FailedHigh => {
                    "the null-window test says it beats alpha, so it may be the new best: the full window finds its value."
                }
            }
        ),
        TraceEvent::MovePruned { mv, reason, .. } => {
            format!("{} is skipped: {}.", top.move_name(mv), pruning_words(reason))
        }
        TraceEvent::NullMove { reduction, .. } => format!(
            "Null move: {mover} passes. If {opponent}, moving twice in a row, still cannot bring the value below beta, a real move would do even better; the reply is searched {} shallower.",
            plies(i32::from(reduction))
        ),
        TraceEvent::Shortcut { reason, value, .. } => shortcut_caption(top, reason, value),
        TraceEvent::StandPat { value, .. } => {
            let mut text = format!(
                "Stand pat: {mover} need not capture, so the static evaluation {} is a floor for this position.",
                value_text(value, ply)
            );
            if setup.options.alpha_beta && value >= top.beta {
                text.push_str(" It already reaches beta: the node is done.");
            }
            // Only the selective search gets here in a stalemate (see
            // `qsearch.rs`): say what the position really is.
            if top.position.legal_moves().is_empty() {
                text.push_str(" In fact this is stalemate, a draw: the selective search does not test for it in quiescence search, to save time, and misjudges it here.");
            }
            text
        }
        TraceEvent::LeafEval { value, .. } if top.tree.is_some() => {
            let leaf = top
                .tree
                .as_ref()
                .is_some_and(|(tree, id)| tree.node(*id).is_leaf());
            let what = if leaf {
                "A leaf: its value, as the tree gives it"
            } else {
                "The depth limit: this node's estimate stands for its value"
            };
            format!(
                "{what}: {}.",
                side_value_text(value, ply, top.position.turn())
            )
        }
        TraceEvent::LeafEval { value, .. } => format!(
            "The static evaluation: {}. No captures are looked at{}.",
            side_value_text(value, ply, top.position.turn()),
            if setup.options.quiescence {
                ""
            } else {
                ": quiescence is off, so a piece left hanging counts as safe (the horizon effect)"
            }
        ),
        TraceEvent::AlphaRaised { mv, value, .. } => {
            let san = top.move_name(mv);
            if ply == 0 {
                let worth = worth_text(value, 0, top.position.turn());
                match previous_root_best(replay, step.applied) {
                    // Why the best move changed: a later move came back
                    // better than the one that held the place.
                    Some((before, was)) => format!(
                        "New best move at the root: {san}, worth {worth}. It beats {}, the best until now at {}: the root keeps the best value any move proves, so {san} takes its place{}.",
                        top.move_name(before),
                        value_text(was, 0),
                        if setup.options.alpha_beta {
                            " and alpha rises to its value"
                        } else {
                            ""
                        }
                    ),
                    None => format!(
                        "New best move at the root: {san}, worth {worth}: the first move searched fully, so it is the best so far."
                    ),
                }
            } else if setup.options.alpha_beta {
                format!(
                    "{san} is worth {}, more than alpha: the best move so far, and alpha rises to it.",
                    value_text(value, ply)
                )
            } else {
                format!("{san} is worth {}: the best move so far.", value_text(value, ply))
            }
        }
        TraceEvent::BetaCutoff { mv, value, .. } => {
            // The replay's count of the moves skipped (see `Frame::cutoff`).
            let skipped = top.cutoff.map_or(0, |(_, _, skipped)| skipped);
            // At exactly beta the opponent's other choice is as good, not
            // better: allowing this position gains it nothing.
            let elsewhere = if value > top.beta {
                format!("{opponent} is already sure of a better result elsewhere and will never allow this position")
            } else {
                format!("{opponent} is already sure of as good a result elsewhere and gains nothing by allowing this position")
            };
            format!(
                "Cutoff: {} scores {}, {} beta = {}. {elsewhere}, {}",
                top.move_name(mv),
                value_text(value, ply),
                if value > top.beta { "above" } else { "exactly" },
                value_text(top.beta, ply),
                match skipped {
                    0 => "but it was the last move here, so nothing is skipped.".to_string(),
                    1 => "so the 1 remaining move need not be searched.".to_string(),
                    n => format!("so the {n} remaining moves need not be searched."),
                }
            )
        }
        TraceEvent::MoveTables { ref update, .. } => {
            let others = match (setup.options.table_decrement, update.others.len()) {
                (crate::engine::movetables::Decrement::Tried, 0) => "No other move was tried here, so no square loses weight.".to_string(),
                (crate::engine::movetables::Decrement::Tried, 1) => "The 1 move tried before it loses weight on its squares: it did not refute the position.".to_string(),
                (crate::engine::movetables::Decrement::Tried, n) => format!("The {n} moves tried before it lose weight on their squares: they did not refute the position."),
                // Greer's rule (move_table_decrement = "all").
                (crate::engine::movetables::Decrement::All, 0) => "It was the only legal move, so no square loses weight.".to_string(),
                (crate::engine::movetables::Decrement::All, 1) => "The 1 other legal move loses weight on its squares, tried or not (Greer's rule, move_table_decrement = \"all\").".to_string(),
                (crate::engine::movetables::Decrement::All, n) => format!("The {n} other legal moves lose weight on their squares, tried or not (Greer's rule, move_table_decrement = \"all\")."),
            };
            format!(
                "The move tables learn from this cutoff: the refuting line {} gains weight on its 'from' and 'to' squares, in each piece's own move table. {others} The move tables are kept for the whole game.",
                crate::game::notation::san_line(&top.position, &update.line).join(" "),
            )
        }
        TraceEvent::Return { value, .. } => return_caption(replay, step, top, value),
    }
}

fn enter_caption(
    options: &SearchOptions,
    step: &Step,
    top: &Frame,
    depth: i32,
    alpha: i32,
    beta: i32,
    quiescence: bool,
) -> String {
    let mut text = enter_words(options, step, top, depth, alpha, beta, quiescence);
    if top.ply > 0 {
        text.push_str(&mate_bound_words(step, top, alpha, beta));
    }
    text
}

/// What a mate bound of the window means: a mate already found elsewhere
/// (a bound is not the position's state, though "Black mated" reads like
/// one).
fn mate_bound_words(step: &Step, top: &Frame, alpha: i32, beta: i32) -> String {
    let ply = top.ply;
    let turn = top.position.turn();
    let mover = side(turn);
    let opponent = side(!turn);
    let is_mate = |v: i32| v.abs() >= MATE_BOUND && v.abs() < INFINITY;
    let mut text = String::new();
    if is_mate(beta) && !no_upper_bound(beta, ply) {
        // The move that found it, when it is the parent's best so far.
        let parent = step.frames.len().checked_sub(2).map(|i| &step.frames[i]);
        let with = parent
            .and_then(|p| p.best().filter(|&(_, v)| -v == beta).map(|(m, _)| (p, m)))
            .map(|(p, m)| format!(" with {}", p.move_name(m)))
            .unwrap_or_default();
        text.push_str(&format!(
            " beta = {}: {opponent} already has {}{with}, so this position matters only if it is even better for {opponent}.",
            bound_text(beta, ply, turn),
            value_text(-beta, ply - 1)
        ));
    }
    if is_mate(alpha) && !no_lower_bound(alpha, ply) {
        text.push_str(&format!(
            " alpha = {}: {mover} already has {} elsewhere, so only a quicker mate improves on it.",
            bound_text(alpha, ply, turn),
            value_text(alpha, ply)
        ));
    }
    text
}

fn enter_words(
    options: &SearchOptions,
    step: &Step,
    top: &Frame,
    depth: i32,
    alpha: i32,
    beta: i32,
    quiescence: bool,
) -> String {
    let mover = side(top.position.turn());
    let opponent = side(!top.position.turn());
    let ply = top.ply;
    let reached = match (top.via, step.frames.len().checked_sub(2)) {
        (Via::Move(m), Some(parent)) => {
            format!("After {}, ", step.frames[parent].move_name(m))
        }
        (Via::Pass, _) => "After the pass, ".to_string(),
        _ => String::new(),
    };
    if ply == 0 {
        // Without iterative deepening the one search still starts with an
        // `Iteration` event: only a later iteration of deepening knows an
        // earlier value.
        let later_iteration = options.iterative_deepening && step.iteration.is_some_and(|i| i > 1);
        return if unbounded(alpha, beta, 0) && later_iteration {
            // A later iteration knows the previous one's value; say why the
            // root does not bet on it (see `root.rs`, `aspiration`).
            let why = if !options.aspiration {
                "without aspiration windows (they are off) the root's window stays infinite"
            } else if depth < ASPIRATION_DEPTH {
                "aspiration windows start at depth 4, so the root's window stays infinite"
            } else {
                "the root searches the whole range here (an aspiration window is not set around a mate, and is given up after failing several times)"
            };
            format!(
                "The root: {mover} to move, {} to search, window {}. The previous iteration's value is known, but {why}; its best move is tried first.",
                plies(depth),
                window_text(alpha, beta, 0, top.position.turn())
            )
        } else if unbounded(alpha, beta, 0) {
            format!(
                "The root: {mover} to move, {} to search, window {}. Nothing is known yet, so alpha and beta are infinite.",
                plies(depth),
                window_text(alpha, beta, 0, top.position.turn())
            )
        } else {
            format!(
                "The root: {mover} to move, {} to search, window {}: an aspiration window around the previous iteration's value. If the value falls outside it, the root is searched again with a wider one.",
                plies(depth),
                window_text(alpha, beta, 0, top.position.turn())
            )
        };
    }
    if quiescence && top.position.is_check() {
        return format!(
            "{reached}the horizon is reached with {mover} in check: standing pat is not allowed, so quiescence search tries every reply to the check, window {}.",
            window_text(alpha, beta, ply, top.position.turn())
        );
    }
    if quiescence {
        return format!(
            "{reached}the horizon is reached, but the position may not be quiet: quiescence search looks at {mover}'s captures only, window {}.",
            window_text(alpha, beta, ply, top.position.turn())
        );
    }
    if let Some((tree, id)) = &top.tree {
        if tree.node(*id).is_leaf() {
            return format!("{reached}a leaf: the tree gives its value.");
        }
        if depth <= 0 {
            return format!(
                "{reached}the depth limit: no plies left, so this node takes its estimate instead of searching its children."
            );
        }
    }
    if depth <= 0 {
        return format!(
            "{reached}the horizon: no plies left and quiescence is off, so this position will be scored by the static evaluation."
        );
    }
    if top.via == Via::Singular {
        return format!(
            "The singular test: this same position searched again, {} deep, without the table's move, window {}. If no other move reaches it, the table's move is the only good one and is searched a ply deeper; if others reach beta too, the node is cut off (multi-cut).",
            plies(depth),
            window_text(alpha, beta, ply, top.position.turn())
        );
    }
    if top.via == Via::Verification {
        return format!(
            "The null move held, but it is checked: where zugzwang can hide (at most one piece besides king and pawns, or a deep node), passing may be better for {mover} than any real move, and then the null move lies. So {mover}'s real moves are searched {} deep, with no null move for {mover} below, window {}: the cutoff stands only if they reach beta too.",
            plies(depth),
            window_text(alpha, beta, ply, top.position.turn())
        );
    }
    let window = if beta.saturating_sub(alpha) == 1 {
        format!(
            "a null window around {}: the search only asks whether {mover} can reach beta",
            value_text(beta, ply)
        )
    } else if unbounded(alpha, beta, ply) {
        "the whole range: no bound is known yet".to_string()
    } else {
        format!(
            "{}: alpha is what {mover} is already sure of elsewhere, beta what {opponent} is",
            window_text(alpha, beta, ply, top.position.turn())
        )
    };
    format!(
        "{reached}{mover} to move, {} left, window {window}.",
        plies(depth)
    )
}

fn shortcut_caption(top: &Frame, reason: Shortcut, value: i32) -> String {
    let mover = side(top.position.turn());
    let ply = top.ply;
    match reason {
        Shortcut::Draw => "A draw (a repetition, the fifty-move rule or too little material to mate): worth 0.00 whatever the pieces say.".to_string(),
        Shortcut::Tablebase => format!("The endgame tables know this position: {}.", value_text(value, ply)),
        Shortcut::MateDistance => "A shorter mate is already known elsewhere: nothing here can beat it, so the node is not searched.".to_string(),
        Shortcut::ReverseFutility => format!(
            "Reverse futility: the static evaluation (corrected by what the search has learnt about this pawn structure) is so far above beta that {mover} is trusted to stay there; the node returns {}.",
            value_text(value, ply)
        ),
        Shortcut::NullMove => "The null move held: even after passing, the value stays at or above beta, so the node is cut off.".to_string(),
        Shortcut::MultiCut => "Multi-cut: besides the transposition table's best move, other moves also reach beta in a shallower search, so the node is cut off.".to_string(),
        Shortcut::ProbCut => format!(
            "ProbCut: a capture keeps {mover} well above beta even in a search a few plies shallower, so the full search is trusted to stay above beta too; the node returns {}.",
            value_text(value, ply)
        ),
        Shortcut::Checkmate => format!(
            "{mover} is in check with no legal move: checkmate, the worst value. Inside the search a mate is scored by its distance from the root, so a quicker mate is worth more; every node shows it counted in moves from that node (\"mate in 1\": the side to move mates with its next move)."
        ),
        Shortcut::Stalemate => format!("{mover} has no legal move and is not in check: stalemate, a draw."),
    }
}

/// Why a node that failed low returns more than any move it searched:
/// the moves futility pruning skipped could score up to the static
/// evaluation plus a margin, and a fail-low bound must cover them too.
fn futility_words(top: &Frame, value: i32) -> Option<String> {
    let futility = top.moves[..top.reached]
        .iter()
        .any(|line| line.status == MoveStatus::Pruned(Pruning::Futility));
    let searched = top.moves[..top.reached]
        .iter()
        .filter_map(|line| match line.status {
            MoveStatus::Searched(v) => Some(v),
            _ => None,
        })
        .max();
    (futility && searched.is_none_or(|best| best < value)).then(|| {
        format!(
            " Here that is {}, more than any move searched{}: it covers the moves futility pruning skipped, which could score up to the static evaluation plus a margin.",
            value_text(value, top.ply),
            match searched {
                Some(best) => format!(" (best {})", value_text(best, top.ply)),
                None => String::new(),
            }
        )
    })
}

fn return_caption(replay: &Replay, step: &Step, top: &Frame, value: i32) -> String {
    let ply = top.ply;
    let mover = side(top.position.turn());
    let opponent = side(!top.position.turn());
    if ply == 0 {
        let recording = &replay.recording;
        let best = recording
            .best_move
            .map(|m| top.move_name(m))
            .unwrap_or_default();
        let last = step.applied == replay.len();
        return format!(
            "The root returns {}{}{}",
            worth_text(value, 0, top.position.turn()),
            if best.is_empty() || !last {
                ".".to_string()
            } else {
                format!(": the search chooses {best}.")
            },
            match (last, &top.tree) {
                // The comparison runs full searches; the chains prune moves
                // unsearched, so their value is theirs alone.
                (true, None) if recording.setup.options.move_chains =>
                    " The comparison beside it runs full searches, which leave no move unsearched. The move chains pruned moves without a search, so their value can differ from the full searches': set it beside the comparison's last row (the same quiescence, every move searched). That is the whole search: Home watches it again.",
                // The comparison of methods is on screen beside this: what
                // its numbers show, in words.
                (true, None) =>
                    " In the comparison, move ordering and the transposition table change the cost, never the result: the same value from fewer nodes. Minimax visits about b^d leaves (b moves a position, d plies), alpha-beta with perfect ordering about b^(d/2). That is the whole search: Home watches it again.",
                (true, Some(_)) =>
                    " In the comparison, alpha-beta and the best-first order change the cost, never the result: the same value from fewer leaves. Minimax evaluates every leaf, about b^d (b children a node, d plies), alpha-beta in the best order about b^(d/2). That is the whole search: Home watches it again.",
                (false, _) => "",
            }
        );
    }
    let mut text = format!(
        "This node returns {} for {mover}; its parent sees {} for {opponent}.",
        value_text(value, ply),
        value_text(-value, ply - 1)
    );
    // Only what alpha-beta proved as a bound is called one (see
    // `Frame::value_bound`): a checkmate, a draw or a static evaluation is
    // the value itself, whatever the window.
    let answered = top.table.is_some_and(|probe| probe.cutoff);
    let bound = top.value_bound(value, replay.recording.setup.options.alpha_beta);
    // A bound turns round with the sign: say both sides' view, so that the
    // "≥" the tree and the parent's list show for the mover is seen to be
    // this "at most" (and the other way round).
    let both = |at: &str, turned: &str| {
        format!(
            " {at} {} for {mover} is {turned} {} for {opponent}, as the tree and the parent's list show it.",
            value_text(value, ply),
            value_text(-value, ply - 1)
        )
    };
    match bound {
        Bound::AtMost if answered => text.push_str(" The transposition table's entry is an upper bound, so this is only an upper bound too."),
        Bound::AtLeast if answered => text.push_str(" The transposition table's entry is a lower bound, so this is only a lower bound too."),
        Bound::AtMost => {
            text.push_str(" No move reached alpha (it failed low), so this is only an upper bound: the search is fail-soft and returns the best it found, not alpha itself.");
            if let Some(futility) = futility_words(top, value) {
                text.push_str(&futility);
            }
        }
        Bound::AtLeast => text.push_str(" It reached beta (it failed high), so this is only a lower bound."),
        Bound::Exact => {}
    }
    match bound {
        Bound::AtMost => text.push_str(&both("At most", "at least")),
        Bound::AtLeast => text.push_str(&both("At least", "at most")),
        Bound::Exact => {}
    }
    // The first value handed up explains the sign flip.
    let first = replay
        .events()
        .iter()
        .position(|e| matches!(e, TraceEvent::Return { ply, .. } if *ply > 0))
        .map(|i| i + 1);
    if first == Some(step.applied) {
        text.push_str(" Values are always from the side to move (negamax), so a value changes sign on its way up.");
    }
    text
}
