#![allow(clippy::unwrap_used)]
use super::*;

fn cp(n: i32) -> Eval {
    Eval::Score(Score::Centipawns(n))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.05
}

#[test]
fn a_game_without_a_drop_is_100_percent_with_no_loss() {
    let evals = vec![cp(20); 41];
    let [white, black] = game_figures(&evals, Color::White);
    assert_eq!(white.accuracy, Some(100.0));
    assert_eq!(black.accuracy, Some(100.0));
    assert_eq!((white.acpl, black.acpl), (Some(0.0), Some(0.0)));
    assert_eq!((white.moves, black.moves), (20, 20));
}

#[test]
fn one_move_each_is_its_own_accuracy() {
    // White gives away a pawn: 50 % to 40.90 %, 9.10 points lost, so
    // 103.1668 * exp(-0.04354 * 9.10) - 3.1669 + 1 = 67.24 (by hand).
    let [white, black] = game_figures(&[cp(0), cp(-100), cp(-100)], Color::White);
    assert!(close(white.accuracy.unwrap(), 67.24), "{white:?}");
    assert_eq!(white.acpl, Some(100.0));
    assert_eq!(black.accuracy, Some(100.0));
    assert_eq!(black.acpl, Some(0.0));
}

#[test]
fn black_moving_first_is_judged_from_black_s_side() {
    // From a position with Black to move, Black's first move gives away a
    // pawn: the same loss seen from the other side.
    let [white, black] = game_figures(&[cp(0), cp(100), cp(100)], Color::Black);
    assert!(close(black.accuracy.unwrap(), 67.24), "{black:?}");
    assert_eq!(black.acpl, Some(100.0));
    assert_eq!(white.acpl, Some(0.0));
}

#[test]
fn mates_count_as_the_ceiling() {
    assert_eq!(Eval::Score(Score::Mate(3)).ceiled_cp(), 1000);
    assert_eq!(Eval::Score(Score::Mate(-1)).ceiled_cp(), -1000);
    assert_eq!(Eval::Mated(Color::Black).ceiled_cp(), 1000);
    assert_eq!(cp(5000).ceiled_cp(), 1000);
    assert!(close(
        Eval::Score(Score::Mate(2)).white_win_percent(),
        cp(1000).white_win_percent()
    ));
    // Throwing away a mate for a level position loses 1000 centipawns.
    let [white, _] = game_figures(&[Eval::Score(Score::Mate(2)), cp(0), cp(0)], Color::White);
    assert_eq!(white.acpl, Some(1000.0));
}

#[test]
fn the_accuracy_curve_has_the_published_points() {
    assert_eq!(move_accuracy(60.0, 60.0), 100.0);
    assert_eq!(move_accuracy(60.0, 70.0), 100.0);
    // 0 points lost but for rounding: the uncertainty bonus is held to 100.
    assert_eq!(move_accuracy(60.0, 59.999), 100.0);
    assert!(
        close(move_accuracy(60.0, 50.0), 64.56),
        "{}",
        move_accuracy(60.0, 50.0)
    );
    assert_eq!(move_accuracy(100.0, 0.0), 0.0);
}

#[test]
fn one_blunder_costs_more_than_its_share_of_an_average() {
    // Twenty level moves each, then White drops a rook.
    let mut evals = vec![cp(0); 41];
    evals.push(cp(-500));
    evals.push(cp(-500));
    let [white, _] = game_figures(&evals, Color::White);
    let plain_mean = (20.0 * 100.0 + move_accuracy(50.0, cp(-500).white_win_percent())) / 21.0;
    let accuracy = white.accuracy.unwrap();
    assert!(accuracy < plain_mean - 1.0, "{accuracy} vs {plain_mean}");
}

#[test]
fn there_is_one_weight_a_move_held_to_its_bounds() {
    for plies in [1, 2, 5, 19, 20, 79, 80, 200] {
        let wins: Vec<f64> = (0..=plies).map(|i| ((i * 37) % 100) as f64).collect();
        let weights = volatility_weights(&wins, plies);
        assert_eq!(weights.len(), plies, "{plies}");
        assert!(weights.iter().all(|w| (0.5..=12.0).contains(w)));
    }
    // A quiet stretch weighs the least.
    assert_eq!(volatility_weights(&[50.0; 30], 29), vec![0.5; 29]);
}
