use super::*;

fn options(tuned: &[&str], iterations: u64) -> SpsaOptions {
    SpsaOptions {
        iterations,
        nodes: 200,
        tuned: tuned
            .iter()
            .map(|name| TUNABLE.iter().position(|t| t.name == *name).unwrap())
            .collect(),
        start: SearchParams::default(),
        learning_rate: 0.002,
        seed: 3,
        network: None,
    }
}

/// A probe is the same for the same iteration and seed, and its two sides
/// lie one step either side of the current values, inside the ranges.
#[test]
fn probes_are_symmetric_and_reproducible() {
    let options = options(&["rfp_margin", "lmr_base", "null_base"], 100);
    let state = SpsaState::new(&options);
    let first = probe(&options, &state, 7);
    let again = probe(&options, &state, 7);
    assert_eq!(first.plus, again.plus);
    assert_eq!(first.opening_seed, again.opening_seed);
    for (index, &i) in options.tuned.iter().enumerate() {
        let t = &TUNABLE[i];
        let (plus, minus) = ((t.get)(&first.plus), (t.get)(&first.minus));
        assert!((t.min..=t.max).contains(&plus) && (t.min..=t.max).contains(&minus));
        // Rounded, the two sides straddle the default by about the step.
        let mid = f64::from(plus + minus) / 2.0;
        assert!(
            (mid - f64::from(t.default)).abs() <= 1.0,
            "{t:?} {plus} {minus}"
        );
        assert_eq!(plus > minus, first.signs[index] > 0.0, "{t:?}");
    }
    // The steps shrink over the run and end at each parameter's `step`.
    let last = probe(&options, &state, 100);
    for (index, &i) in options.tuned.iter().enumerate() {
        assert!(last.c[index] < first.c[index]);
        assert!((last.c[index] - TUNABLE[i].step).abs() < 1e-9);
    }
    // Parameters not tuned stay at the start.
    assert_eq!(
        first.plus.futility_margin,
        SearchParams::default().futility_margin
    );
}

/// SPSA climbs: against a made-up judge that lets the side whose margin is
/// nearer 130 win, the margin moves from 80 towards 130, and a parameter
/// the judge ignores stays near where it started.
#[test]
fn spsa_finds_the_better_value_of_a_noisy_judge() {
    let mut options = options(&["rfp_margin", "aspiration_window"], 3000);
    options.learning_rate = 0.02;
    let mut state = SpsaState::new(&options);
    let mut noise = Rng::new(11);
    for k in 1..=options.iterations {
        let p = probe(&options, &state, k);
        let distance = |params: &SearchParams| (params.rfp_margin - 130).abs();
        // A noisy judge: the nearer side wins three games in four.
        let mut game = || {
            let nearer = distance(&p.plus) < distance(&p.minus);
            let lucky = !noise.next_u64().is_multiple_of(4);
            match (distance(&p.plus) == distance(&p.minus), nearer == lucky) {
                (true, _) => 0.5,
                (false, true) => 1.0,
                (false, false) => 0.0,
            }
        };
        let games = [game(), game()];
        update(&options, &mut state, &p, games);
    }
    let tuned = state.params(&options);
    assert!(
        (tuned.rfp_margin - 130).abs() <= 12,
        "rfp_margin {}",
        tuned.rfp_margin
    );
    assert!(
        (tuned.aspiration_window - 25).abs() <= 12,
        "aspiration_window {}",
        tuned.aspiration_window
    );
    assert_eq!(state.iterations, 3000);
    assert_eq!(state.plus.iter().sum::<u64>(), 6000);
}

/// A real pair of games at a few hundred nodes a move ends with results
/// the update can take, from a balanced opening.
#[test]
fn a_pair_of_games_is_played() {
    let options = options(&["rfp_margin"], 10);
    let mut state = SpsaState::new(&options);
    let p = probe(&options, &state, 1);
    let (position, keys) = opening(Rng::new(p.opening_seed), None);
    assert_eq!(keys.len(), OPENING_PLIES as usize);
    assert!(!position.legal_moves().is_empty());
    let games = play_pair(&options, &p, &|| false);
    for game in games {
        assert!([0.0, 0.5, 1.0].contains(&game), "{games:?}");
    }
    update(&options, &mut state, &p, games);
    assert_eq!(state.iterations, 1);
    // A stop ends a game at once, as a draw.
    assert_eq!(
        play(&p.plus, &p.minus, &(position, keys), 200, None, &|| true).score,
        0.5
    );
}

/// The Elo figures of a few hand-checked scores: 50% is level, 75% is
/// +191 (400 log10 3), and more pairs narrow the interval.
#[test]
fn match_scores_and_their_intervals() {
    assert_eq!(elo_of(0.5), 0.0);
    assert!((elo_of(0.75) - 190.85).abs() < 0.01);
    let level = match_score(&[1.0, 2.0, 0.0, 1.0]);
    assert_eq!(level.score, 0.5);
    assert!(level.low < 0.0 && level.high > 0.0);
    let many: Vec<f64> = [1.0, 2.0, 0.0, 1.0].repeat(25);
    let narrow = match_score(&many);
    assert!(narrow.high - narrow.low < (level.high - level.low) / 4.0);
    let won = match_score(&[2.0, 1.5, 1.0, 2.0]);
    assert!((won.score - 0.8125).abs() < 1e-12 && won.elo > 200.0 && won.low > 0.0);
}
