//! Search values in words a learner reads: pawns, "mate in 2", "-inf";
//! never the engine's internal numbers.
//!
//! Inside the search every value is from the side to move at its node
//! (negamax), and mate values count plies from the root: mate delivered at
//! ply `n` is worth `MATE - n`, so a quicker mate is worth more. Shown at a
//! node, a mate is always counted in moves from that node (one convention,
//! which the checkmate caption states): "mate in 1" at ply 2 and at the root
//! both mean a mate with the side to move's next move.

use std::cell::Cell;

use shakmaty::Color;

use crate::engine::search::{INFINITY, MATE, MATE_BOUND, TB_BOUND};

thread_local! {
    /// Whether the values being written are a hand-made tree's.
    static POINTS: Cell<bool> = const { Cell::new(false) };
}

/// Run `f` with every value written as a hand-made game tree's: plain
/// numbers (`3`, `-12`), not pawns, and the sides named MAX (the root's)
/// and MIN, not White and Black. Whatever shows a record of a tree (the
/// teach mode's panels, `trace`, the export) writes inside this, so that
/// the text functions here serve both kinds of record without every
/// caller passing the kind along.
pub fn in_points<R>(points: bool, f: impl FnOnce() -> R) -> R {
    let before = POINTS.with(|p| p.replace(points));
    let result = f();
    POINTS.with(|p| p.set(before));
    result
}

/// While it lives, values are written as a hand-made tree's (or not), as
/// in [`in_points`]; dropped, the way they were before comes back. For a
/// function with many exits: `let _points = PointsGuard::new(is_tree);`.
#[must_use]
pub struct PointsGuard(bool);

impl PointsGuard {
    pub fn new(points: bool) -> PointsGuard {
        PointsGuard(POINTS.with(|p| p.replace(points)))
    }
}

impl Drop for PointsGuard {
    fn drop(&mut self) {
        let before = self.0;
        POINTS.with(|p| p.set(before));
    }
}

/// Whether values are written as a hand-made tree's (see [`in_points`]).
pub fn points() -> bool {
    POINTS.with(Cell::get)
}

/// The name of a side: White or Black, or on a hand-made tree MAX (the
/// root's side, which the tree's record plays as White) or MIN.
pub fn side_name(color: Color) -> &'static str {
    match (points(), color.is_white()) {
        (false, true) => "White",
        (false, false) => "Black",
        (true, true) => "MAX",
        (true, false) => "MIN",
    }
}

/// A value at a node of ply `ply`, from its side to move's view:
/// `+1.25`, `-0.40`, `0.00`, `mate in 2`, `mated in 1`, `+inf`, `-inf`.
pub fn value_text(value: i32, ply: u32) -> String {
    let ply = ply as i32;
    if value >= INFINITY {
        "+inf".into()
    } else if value <= -INFINITY {
        "-inf".into()
    } else if value >= MATE_BOUND {
        let plies = (MATE - value - ply).max(1);
        format!("mate in {}", (plies + 1) / 2)
    } else if value <= -MATE_BOUND {
        let plies = (MATE + value - ply).max(0);
        if plies == 0 {
            "checkmated".into()
        } else {
            format!("mated in {}", (plies + 1) / 2)
        }
    } else if points() {
        value.to_string()
    } else if value >= TB_BOUND {
        "tablebase win".into()
    } else if value <= -TB_BOUND {
        "tablebase loss".into()
    } else {
        pawns(value)
    }
}

/// The same value from White's view, where the side to move is `turn`:
/// `+1.25` (good for White), `White mates in 2`, `Black mates in 1`.
pub fn white_view_text(value: i32, ply: u32, turn: Color) -> String {
    let white = if turn.is_white() { value } else { -value };
    let winner = |good_for_white: bool| if good_for_white { "White" } else { "Black" };
    if value.abs() >= INFINITY {
        return value_text(white, ply);
    }
    if value.abs() >= MATE_BOUND {
        let plies = (MATE - value.abs() - ply as i32).max(0);
        if plies == 0 {
            return format!("{} is checkmated", turn);
        }
        let mover_wins = value > 0;
        return format!(
            "{} mates in {}",
            winner(mover_wins == turn.is_white()),
            (plies + 1) / 2
        );
    }
    value_text(white, ply)
}

/// A value with the side it is for, and White's view only where it
/// differs: `+0.50 for White`, `-0.50 for Black (+0.50 from White's
/// view)`, `White mates in 2`.
pub fn side_value_text(value: i32, ply: u32, turn: Color) -> String {
    let white = white_view_text(value, ply, turn);
    if white.starts_with("White") || white.starts_with("Black") {
        white
    } else if turn.is_white() {
        format!("{} for {}", value_text(value, ply), side_name(turn))
    } else {
        format!(
            "{} for {} ({white} from {}'s view)",
            value_text(value, ply),
            side_name(turn),
            side_name(!turn)
        )
    }
}

/// What a value is worth, to follow "worth" or "returns": `+0.50 for
/// White`, or for a mate, which names its side already, `a mate (White
/// mates in 1)` (never "worth White mates in 1").
pub fn worth_text(value: i32, ply: u32, turn: Color) -> String {
    let text = side_value_text(value, ply, turn);
    if text.starts_with("White") || text.starts_with("Black") {
        format!("a mate ({text})")
    } else {
        text
    }
}

/// A node's window as it stands: `[alpha, beta]`, or once alpha has
/// reached beta (a cutoff) what that means, since `[+0.60, +0.20]` reads as
/// nonsense.
pub fn node_window_text(alpha: i32, beta: i32, ply: u32, turn: Color) -> String {
    if alpha >= beta {
        let bound = bound_text(beta, ply, turn);
        if bound.contains("mate") {
            format!("cut off at beta ({bound})")
        } else {
            format!("cut off at beta {bound}")
        }
    } else {
        window_text(alpha, beta, ply, turn)
    }
}

/// A window bound at ply `ply`, where `turn` moves. A mate bound names
/// the side that mates, counted from this node like every value here:
/// `White mates in 2`, or at distance 0 `Black mated` (the opponent
/// already has a mate that ends at this very ply). The value alone would
/// read "checkmated", as if the position were mate.
pub fn bound_text(value: i32, ply: u32, turn: Color) -> String {
    if value.abs() >= INFINITY || value.abs() < MATE_BOUND {
        return value_text(value, ply);
    }
    let plies = (MATE - value.abs() - ply as i32).max(0);
    let winner = if value > 0 { turn } else { !turn };
    let name = |color: Color| if color.is_white() { "White" } else { "Black" };
    if plies == 0 {
        format!("{} mated", name(!winner))
    } else {
        format!("{} mates in {}", name(winner), (plies + 1) / 2)
    }
}

/// A window `[alpha, beta]` at ply `ply`. A bound no value at the node can
/// pass (being mated there, or mating with the next move: mate-distance
/// pruning narrows an infinite window to these) reads as infinite.
pub fn window_text(alpha: i32, beta: i32, ply: u32, turn: Color) -> String {
    let low = if no_lower_bound(alpha, ply) {
        "-inf".to_string()
    } else {
        bound_text(alpha, ply, turn)
    };
    let high = if no_upper_bound(beta, ply) {
        "+inf".to_string()
    } else {
        bound_text(beta, ply, turn)
    };
    format!("[{low}, {high}]")
}

/// Whether `alpha` at ply `ply` excludes nothing: no value there is below
/// being checkmated at that ply.
pub fn no_lower_bound(alpha: i32, ply: u32) -> bool {
    alpha <= -MATE + ply as i32
}

/// Whether `beta` at ply `ply` excludes nothing: no value there is above
/// mating with the next move.
pub fn no_upper_bound(beta: i32, ply: u32) -> bool {
    beta >= MATE - ply as i32 - 1
}

/// Whether the window `[alpha, beta]` at ply `ply` is the whole range.
pub fn unbounded(alpha: i32, beta: i32, ply: u32) -> bool {
    no_lower_bound(alpha, ply) && no_upper_bound(beta, ply)
}

/// Centipawns as pawns with a sign: `+1.25`.
pub fn pawns(centipawns: i32) -> String {
    if centipawns == 0 {
        "0.00".into()
    } else {
        format!("{:+.2}", f64::from(centipawns) / 100.0)
    }
}

/// A count with its noun, singular for one: `1 probe`, `12,345 probes`.
pub fn count_of(n: u64, singular: &str, plural: &str) -> String {
    format!(
        "{} {}",
        count_text(n),
        if n == 1 { singular } else { plural }
    )
}

/// A count with thousands separated: `12,345`.
pub fn count_text(n: u64) -> String {
    crate::text::thousands(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_as_people_say_them() {
        assert_eq!(value_text(125, 0), "+1.25");
        assert_eq!(value_text(-40, 3), "-0.40");
        assert_eq!(value_text(0, 0), "0.00");
        assert_eq!(value_text(INFINITY, 0), "+inf");
        assert_eq!(value_text(-INFINITY, 2), "-inf");
        // Mate delivered at ply 3, seen from the root: mate in 2 moves.
        assert_eq!(value_text(MATE - 3, 0), "mate in 2");
        // The same mate seen from ply 2 (its side to move mates next move).
        assert_eq!(value_text(MATE - 3, 2), "mate in 1");
        // Seen from ply 1, the side to move there is mated in 1 move.
        assert_eq!(value_text(-(MATE - 3), 1), "mated in 1");
        assert_eq!(value_text(-(MATE - 3), 3), "checkmated");
        assert_eq!(
            white_view_text(MATE - 3, 0, Color::Black),
            "Black mates in 2"
        );
        assert_eq!(
            white_view_text(-(MATE - 3), 1, Color::Black),
            "White mates in 1"
        );
        assert_eq!(white_view_text(150, 1, Color::Black), "-1.50");
        assert_eq!(window_text(-INFINITY, 30, 0, Color::White), "[-inf, +0.30]");
        // Mate-distance pruning's bounds at ply 2 (being mated there,
        // mating on ply 3) exclude nothing: they read as infinite.
        assert_eq!(
            window_text(-(MATE - 2), MATE - 3, 2, Color::White),
            "[-inf, +inf]"
        );
        assert!(unbounded(-(MATE - 2), MATE - 3, 2));
        // One ply less than that is a real bound: a mate in 1 is excluded.
        // Mate bounds name the side that mates: the value alone would read
        // like the position's state ("checkmated").
        assert_eq!(
            window_text(-(MATE - 3), MATE - 4, 2, Color::White),
            "[Black mates in 1, White mates in 1]"
        );
        assert_eq!(
            node_window_text(0, -(MATE - 1), 1, Color::Black),
            "cut off at beta (Black mated)"
        );
        assert_eq!(
            window_text(-INFINITY, -(MATE - 1), 1, Color::Black),
            "[-inf, Black mated]"
        );
        assert!(!unbounded(-INFINITY, MATE - 4, 2));
        assert_eq!(count_text(1_234_567), "1,234,567");
        assert_eq!(count_text(999), "999");
    }
}
