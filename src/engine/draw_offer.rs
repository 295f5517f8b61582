//! Whether kibitz accepts a draw its opponent offers: on the board (`d`)
//! and in the line mode (`draw`) alike. It judges by the score of its own
//! last searched move, from its own side.

use super::protocol::Score;

/// The engine accepts a draw when it thinks it stands this badly or worse
/// (centipawns, its own view)...
const DRAW_ACCEPT_WORSE: i32 = -30;
/// ...or, after this many plies, when the position is about level.
const DRAW_ACCEPT_LEVEL_AFTER: usize = 60;
const DRAW_ACCEPT_LEVEL: i32 = 15;

/// Whether the engine takes a draw, given the score of its last searched
/// move (`None`: it has not searched one this game) and the plies played.
pub fn accepts_draw(score: Option<Score>, plies: usize) -> bool {
    match score {
        Some(Score::Mate(n)) => n < 0,
        Some(Score::Centipawns(cp)) => {
            cp <= DRAW_ACCEPT_WORSE || (cp <= DRAW_ACCEPT_LEVEL && plies >= DRAW_ACCEPT_LEVEL_AFTER)
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worse_or_level_late_is_a_draw() {
        assert!(!accepts_draw(None, 100));
        assert!(accepts_draw(Some(Score::Mate(-3)), 0));
        assert!(!accepts_draw(Some(Score::Mate(3)), 100));
        assert!(accepts_draw(Some(Score::Centipawns(-30)), 0));
        assert!(!accepts_draw(Some(Score::Centipawns(0)), 59));
        assert!(accepts_draw(Some(Score::Centipawns(0)), 60));
        assert!(!accepts_draw(Some(Score::Centipawns(16)), 100));
    }
}
