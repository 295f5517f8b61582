//! The time each move of a game took, from the `[%clk]` comments lichess,
//! chess.com and most servers write (the clock of the side that moved,
//! after the move) and the `TimeControl` tag (`300+2`: five minutes and two
//! seconds a move).
//!
//! A move took the mover's clock before it, plus the increment, minus the
//! clock after it. A side's first move is measured from the starting time
//! of `TimeControl` where the tag gives one; otherwise it is not known.

use std::time::Duration;

use super::annotations::clock;
use super::tree::GameTree;

/// The starting time and increment of a `TimeControl` tag: `base+inc`,
/// `base`, or the first period of `moves/base:...` (no increment). `-`, `?`
/// and anything else give none.
pub fn time_control(tag: &str) -> Option<(Duration, Duration)> {
    let first = tag.split(':').next()?.trim();
    let first = first.split_once('/').map_or(first, |(_, base)| base);
    let (base, inc) = first.split_once('+').unwrap_or((first, "0"));
    let seconds = |s: &str| {
        let v: f64 = s.trim().parse().ok()?;
        (v.is_finite() && (0.0..1e7).contains(&v)).then(|| Duration::from_secs_f64(v))
    };
    Some((seconds(base)?, seconds(inc)?))
}

/// The time each main-line move took (`times[i]` for ply `i + 1`), where the
/// clocks tell it; `None` when the game has fewer than two clocks.
pub fn move_times(tree: &GameTree) -> Option<Vec<Option<Duration>>> {
    let mainline = tree.mainline();
    let clocks: Vec<Option<Duration>> = mainline
        .iter()
        .map(|&n| tree.nodes[n].comments.iter().find_map(|c| clock(c)))
        .collect();
    if clocks.iter().flatten().count() < 2 {
        return None;
    }
    let control = tree.headers.get("TimeControl").and_then(time_control);
    let increment = control.map_or(Duration::ZERO, |(_, inc)| inc);
    let times = (0..clocks.len())
        .map(|i| {
            let after = clocks[i]?;
            // The mover's clock before this move: after its previous move,
            // or the starting time for its first.
            let before = match i.checked_sub(2) {
                Some(j) => clocks[j]?,
                None => control?.0,
            };
            Some((before + increment).saturating_sub(after))
        })
        .collect();
    Some(times)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn game(text: &str) -> GameTree {
        let mut games = Vec::new();
        crate::game::import::read_games(text.as_bytes(), &mut |t| {
            games.push(t);
            true
        })
        .unwrap();
        games.remove(0)
    }

    #[test]
    fn time_controls_read_as_servers_write_them() {
        let s = Duration::from_secs;
        assert_eq!(time_control("300+2"), Some((s(300), s(2))));
        assert_eq!(time_control("600"), Some((s(600), s(0))));
        assert_eq!(time_control("40/7200:3600"), Some((s(7200), s(0))));
        assert_eq!(time_control("-"), None);
        assert_eq!(time_control("?"), None);
        assert_eq!(time_control("1e300"), None);
    }

    #[test]
    fn a_move_took_the_clock_before_plus_the_increment_minus_the_clock_after() {
        let tree = game(
            "[TimeControl \"300+2\"]\n\n1. e4 { [%clk 0:04:58] } e5 { [%clk 0:05:01] } \
             2. Nf3 { [%clk 0:04:30] } Nc6 { [%clk 0:05:03] } *\n",
        );
        let s = |n: u64| Some(Duration::from_secs(n));
        assert_eq!(move_times(&tree).unwrap(), vec![s(4), s(1), s(30), s(0)]);
    }

    #[test]
    fn without_a_time_control_the_first_moves_are_unknown() {
        let tree =
            game("1. e4 { [%clk 0:04:58] } e5 { [%clk 0:05:00] } 2. Nf3 { [%clk 0:04:30] } *\n");
        let times = move_times(&tree).unwrap();
        assert_eq!(times, vec![None, None, Some(Duration::from_secs(28))]);
        assert_eq!(move_times(&game("1. e4 e5 *\n")), None);
    }
}
