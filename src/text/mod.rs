//! Words and figures that the command line and the terminal board both
//! write or read: scores and their order (here), tablebase verdicts
//! (`tablebase`), a game of a PGN file (`games`), and input written back
//! in a message (`echo`). One place, so that
//! both front ends say the same thing and neither leans on the other.

pub mod echo;
pub mod games;
pub mod tablebase;

use std::cmp::Ordering;

use crate::engine::Score;
use crate::engine::search::TB_BOUND;

/// `text` in at most `width` characters: whole, or cut after a whole word
/// with `…` (a single word longer than the width is cut inside it).
pub fn cut_words(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let room: String = text.chars().take(width - 1).collect();
    let kept = match room.rfind(' ') {
        Some(space) if space > 0 => room[..space].trim_end(),
        _ => room.as_str(),
    };
    format!("{kept}…")
}

/// A count with thousands separated: `12,345`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A score as people read it: `+1.25` (pawns), `+M7` (mate in 7 moves),
/// `-M3` (mated in 3), `+TB` / `-TB` (won or lost by the endgame tables,
/// with no distance to mate known). The sign is the caller's: give it a
/// score from the point of view the reader expects (usually White's).
pub fn score_text(score: Score) -> String {
    match score {
        // The engine scores a won table ending above every evaluation
        // (`TB_WIN` less the plies to reach it): not a number of pawns.
        Score::Centipawns(cp) if cp >= TB_BOUND => "+TB".to_string(),
        Score::Centipawns(cp) if cp <= -TB_BOUND => "-TB".to_string(),
        Score::Centipawns(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        Score::Mate(n) if n > 0 => format!("+M{n}"),
        Score::Mate(n) => format!("-M{}", -n),
    }
}

/// A number that grows with how good `score` is for the side it is from:
/// mates beat every evaluation, a shorter mate beats a longer one, and
/// being mated later is better than being mated sooner.
pub fn score_rank(score: Score) -> i64 {
    const MATE: i64 = 1_000_000;
    match score {
        Score::Centipawns(cp) => i64::from(cp),
        Score::Mate(n) if n > 0 => MATE - i64::from(n),
        Score::Mate(n) => -MATE - i64::from(n),
    }
}

/// A score from the side to move's point of view, written from White's.
pub fn score_text_white(score: Score, side_to_move: shakmaty::Color) -> String {
    score_text(score.for_white(side_to_move))
}

/// Compare two scores from the same point of view: `Greater` when `a` is
/// better for that side.
pub fn score_order(a: Score, b: Score) -> Ordering {
    score_rank(a).cmp(&score_rank(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mates_order_around_evaluations() {
        let mut scores = vec![
            Score::Mate(-1),
            Score::Centipawns(300),
            Score::Mate(3),
            Score::Mate(-4),
            Score::Centipawns(-50),
            Score::Mate(1),
        ];
        scores.sort_by(|a, b| score_order(*b, *a));
        assert_eq!(
            scores,
            vec![
                Score::Mate(1),
                Score::Mate(3),
                Score::Centipawns(300),
                Score::Centipawns(-50),
                Score::Mate(-4),
                Score::Mate(-1),
            ]
        );
        assert_eq!(score_text(Score::Mate(-4)), "-M4");
        assert_eq!(score_text(Score::Centipawns(-7)), "-0.07");
        assert_eq!(score_text(Score::Centipawns(TB_BOUND + 3)), "+TB");
        assert_eq!(score_text(Score::Centipawns(-TB_BOUND)), "-TB");
    }
}
