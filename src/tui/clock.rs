//! The chess clock: two countdowns, one running at a time, with a Fischer
//! increment added to a side's time when it completes a move.

use std::time::{Duration, Instant};

use shakmaty::Color;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clock {
    /// Time left for White and Black when their clock last stopped.
    remaining: [Duration; 2],
    increment: Duration,
    /// Whose clock runs, since when.
    running: Option<(Color, Instant)>,
}

fn index(color: Color) -> usize {
    if color.is_white() { 0 } else { 1 }
}

impl Clock {
    pub fn new(base: Duration, increment: Duration) -> Clock {
        Clock {
            remaining: [base, base],
            increment,
            running: None,
        }
    }

    /// A clock with given times left (to resume a saved game).
    pub fn with_remaining(white: Duration, black: Duration, increment: Duration) -> Clock {
        Clock {
            remaining: [white, black],
            increment,
            running: None,
        }
    }

    pub fn increment(&self) -> Duration {
        self.increment
    }

    /// Time left for `color` at `now`.
    pub fn remaining(&self, color: Color, now: Instant) -> Duration {
        let stored = self.remaining[index(color)];
        match self.running {
            Some((side, since)) if side == color => {
                stored.saturating_sub(now.saturating_duration_since(since))
            }
            _ => stored,
        }
    }

    pub fn running(&self) -> Option<Color> {
        self.running.map(|(side, _)| side)
    }

    /// Start `color`'s clock (stopping the other without an increment).
    pub fn start(&mut self, color: Color, now: Instant) {
        self.pause(now);
        self.running = Some((color, now));
    }

    /// Stop whichever clock runs, charging it the time used.
    pub fn pause(&mut self, now: Instant) {
        if let Some((side, _)) = self.running {
            self.remaining[index(side)] = self.remaining(side, now);
            self.running = None;
        }
    }

    /// `mover` completed a move at `now`: charge its time, add the increment,
    /// start the other side's clock.
    pub fn moved(&mut self, mover: Color, now: Instant) {
        self.pause(now);
        let left = &mut self.remaining[index(mover)];
        // A flag that fell stays fallen: no increment from zero.
        if !left.is_zero() {
            *left += self.increment;
        }
        self.running = Some((!mover, now));
    }

    /// The side whose time has run out, if any.
    pub fn flagged(&self, now: Instant) -> Option<Color> {
        let (side, _) = self.running?;
        self.remaining(side, now).is_zero().then_some(side)
    }
}

/// Clock text: `4:05` above ten seconds, `9.3` below (tenths matter then),
/// `1:02:03` above an hour.
pub fn format_clock(left: Duration) -> String {
    let millis = left.as_millis();
    if millis < 10_000 {
        return format!("{}.{}", millis / 1000, (millis % 1000) / 100);
    }
    crate::game::annotations::format_clock(left)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_one_side_and_adds_the_increment() {
        let t0 = Instant::now();
        let s = Duration::from_secs;
        let mut clock = Clock::new(s(60), s(2));
        clock.start(Color::White, t0);
        assert_eq!(clock.remaining(Color::White, t0 + s(10)), s(50));
        assert_eq!(clock.remaining(Color::Black, t0 + s(10)), s(60));
        clock.moved(Color::White, t0 + s(10));
        assert_eq!(clock.remaining(Color::White, t0 + s(30)), s(52));
        assert_eq!(clock.remaining(Color::Black, t0 + s(30)), s(40));
        assert_eq!(clock.running(), Some(Color::Black));
        assert_eq!(clock.flagged(t0 + s(69)), None);
        assert_eq!(clock.flagged(t0 + s(70)), Some(Color::Black));
        clock.pause(t0 + s(75));
        assert_eq!(clock.remaining(Color::Black, t0 + s(99)), Duration::ZERO);
        assert_eq!(
            clock.flagged(t0 + s(99)),
            None,
            "a paused clock does not flag"
        );
    }

    #[test]
    fn formats() {
        assert_eq!(format_clock(Duration::from_secs(245)), "4:05");
        assert_eq!(format_clock(Duration::from_millis(9_349)), "9.3");
        assert_eq!(format_clock(Duration::from_secs(3723)), "1:02:03");
        assert_eq!(format_clock(Duration::ZERO), "0.0");
    }
}
