//! Time management: how long to think about one move.
//!
//! Two limits come out of the clock. The *soft* limit is what the engine
//! aims to spend: between iterations it stops when the next iteration would
//! probably not finish in time (each iteration costs a few times the one
//! before). The *hard* limit is checked inside the search and is never
//! crossed, whatever iteration is running, so the engine cannot lose on time
//! because one iteration exploded. Between iterations the soft limit is
//! stretched or shrunk by what the iterations so far say ([`time_scale`]):
//! less time for a best move that keeps coming back, more for one that
//! just changed or a value that fell.

use std::time::Duration;

use shakmaty::Color;

use super::protocol::Limits;

/// Kept back from every clock reading for the time the GUI and the operating
/// system take to pass the move along.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(30);
/// Kept back from a fixed `movetime` (at most a tenth of it).
const MOVETIME_MARGIN: Duration = Duration::from_millis(10);
/// When the GUI does not say how many moves remain, plan for this many.
/// (At 30, games at 8+0.08 ended with a sixth of the clock unused: about
/// 2.4 of the 13 seconds a 65-move game gives. 25 spent more of it in the
/// middlegame, where it decides most, and scored 53.8% against 30; 20
/// scored 53.4% against 25; 16 scored 44.7% over 114 games against 20.
/// Each move takes a twentieth of what is left, so the clock still shrinks
/// geometrically and the increment carries the endgame.
/// Planning up to 30% more while 20 to 30 pieces are on the board, in
/// proportion, which spent 13% more a move over the first ten moves out of
/// the opening and 4-7% less from move 21 on, scored +544 =926 -530, 50.4%,
/// +2 Elo (95% -9 to +14), over 2,000 games at 2+0.02 against the build
/// without it, with the network (five runs of 400 with different opening
/// orders: +22, +6, +9, +10, -36): not kept.)
const DEFAULT_MOVES_TO_GO: u32 = 20;
/// Never plan to spend more than this share of the remaining time on one move.
const MAX_SHARE_SOFT: f64 = 0.4;
const MAX_SHARE_HARD: f64 = 0.6;
/// The hard limit allows this many times the soft one for a move that needs it.
const HARD_FACTOR: u32 = 4;
/// Start another iteration only before this share of the soft limit is used:
/// the next one usually costs more than everything so far, and an iteration
/// cut off by the hard limit is mostly wasted. (At 0.55, games at 8+0.08
/// against Ethereal 12 and Stockfish ended with a median of 1.6 s of the
/// clock never below, where the opponents went down to 0.1-0.3 s: kibitz
/// spent 6.2 s on its first 30 moves, Ethereal 8.1 s. 0.70 scored +120
/// =190 -90, 53.8%, +26 +/- 25 Elo, over 400 games at 2+0.02 against 0.55;
/// 0.85 scored 49.4% against 0.70 after 175 games, and the run was stopped.)
pub const NEW_ITERATION_SHARE: f64 = 0.70;

/// How much of its usual time (the soft limit) a move under a clock gets,
/// from what the iterations so far say. A best move that has not changed
/// for several iterations is unlikely to change in the next: stopping
/// earlier banks the time for a move that needs it. A best move that just
/// changed, or a value that fell (the last iteration found a problem),
/// deserves another iteration. `stable` counts the iterations in a row that
/// kept the best move; `drop` is how far the value fell since the last
/// iteration, in centipawns (negative when it rose). The hard limit is
/// never moved.
///
/// (Scaling it also by the best move's share of the root's nodes over the
/// search so far, from 0.5 at 95% through 1 at 70% to 1.5 at 45% and
/// below, as many engines' clocks do, scored +94 =201 -105, -10 +/- 24
/// Elo, over 400 games at 2+0.02 against the build without it: not kept.)
pub fn time_scale(stable: u32, drop: Option<i32>) -> f64 {
    let stability = match stable {
        0 => 1.4,
        1 => 1.15,
        2 => 1.0,
        3 => 0.85,
        _ => 0.7,
    };
    // Up to half as much again when the value fell by a pawn or more.
    let falling = 1.0 + f64::from(drop.unwrap_or(0).clamp(0, 100)) / 200.0;
    stability * falling
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TimeBudget {
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
}

/// The budget for `side` under `limits`. No clock and no movetime = no
/// budget (search until depth, nodes or a stop).
pub fn budget(limits: &Limits, side: Color) -> TimeBudget {
    if limits.infinite {
        return TimeBudget::default();
    }
    if let Some(movetime) = limits.movetime {
        // The answer must arrive within movetime: keep back a little for
        // unwinding the search and passing the move on.
        let margin = MOVETIME_MARGIN.min(movetime / 10);
        let target = movetime
            .saturating_sub(margin)
            .max(Duration::from_millis(1));
        // The whole movetime is the GUI's to give: no soft limit that would
        // end the search early.
        return TimeBudget {
            soft: None,
            hard: Some(target),
        };
    }
    let (time, increment) = match side {
        Color::White => (limits.white_time, limits.white_increment),
        Color::Black => (limits.black_time, limits.black_increment),
    };
    let Some(time) = time else {
        return TimeBudget::default();
    };
    let increment = increment.unwrap_or_default();
    let remaining = time
        .saturating_sub(MOVE_OVERHEAD)
        .max(Duration::from_millis(1));
    let moves_to_go = limits
        .moves_to_go
        .unwrap_or(DEFAULT_MOVES_TO_GO)
        .clamp(1, 50);
    let planned = remaining / moves_to_go + increment * 3 / 4;
    let soft = planned.min(remaining.mul_f64(MAX_SHARE_SOFT));
    let hard = (soft * HARD_FACTOR).min(remaining.mul_f64(MAX_SHARE_HARD));
    TimeBudget {
        soft: Some(soft),
        hard: Some(hard.max(soft)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(ms: u64, inc: u64) -> Limits {
        Limits {
            white_time: Some(Duration::from_millis(ms)),
            black_time: Some(Duration::from_millis(ms)),
            white_increment: Some(Duration::from_millis(inc)),
            black_increment: Some(Duration::from_millis(inc)),
            ..Limits::default()
        }
    }

    /// A best move that keeps coming back gets less of the soft limit, one
    /// that just changed more; a fall in value adds time in proportion up
    /// to a pawn, a rise adds none.
    #[test]
    fn iterations_stretch_or_shrink_the_soft_limit() {
        let by_stability: Vec<f64> = (0..8).map(|stable| time_scale(stable, None)).collect();
        assert!(
            by_stability.windows(2).all(|pair| pair[1] <= pair[0]),
            "{by_stability:?}"
        );
        assert!(by_stability[0] > 1.0 && by_stability[7] < 1.0);
        assert_eq!(time_scale(2, None), 1.0);
        assert_eq!(time_scale(2, Some(-300)), time_scale(2, None));
        assert_eq!(time_scale(2, Some(50)), 1.25);
        assert_eq!(time_scale(2, Some(100)), time_scale(2, Some(900)));
        assert_eq!(time_scale(2, Some(100)), 1.5);
    }

    #[test]
    fn never_plans_beyond_the_clock() {
        for (ms, inc) in [
            (8000, 80),
            (100, 80),
            (40, 0),
            (1, 0),
            (300_000, 0),
            (500, 5000),
        ] {
            let b = budget(&clock(ms, inc), Color::White);
            let hard = b.hard.unwrap();
            assert!(
                hard <= Duration::from_millis(ms.max(1)),
                "{ms}+{inc}: {hard:?}"
            );
            assert!(b.soft.unwrap() <= hard);
        }
    }

    #[test]
    fn blitz_move_gets_a_sensible_share() {
        let b = budget(&clock(8000, 80), Color::Black);
        let soft = b.soft.unwrap();
        assert!(
            soft > Duration::from_millis(150) && soft < Duration::from_millis(600),
            "{soft:?}"
        );
    }

    #[test]
    fn movetime_and_infinite() {
        let movetime = Limits {
            movetime: Some(Duration::from_millis(250)),
            ..Limits::default()
        };
        // 10 ms are kept back for passing the move on.
        assert_eq!(
            budget(&movetime, Color::White).hard,
            Some(Duration::from_millis(240))
        );
        assert_eq!(
            budget(
                &Limits {
                    infinite: true,
                    ..clock(10, 0)
                },
                Color::White
            ),
            TimeBudget::default()
        );
    }
}
