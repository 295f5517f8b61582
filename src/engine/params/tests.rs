use super::*;

#[test]
fn defaults_lie_in_their_ranges_and_round_trip() {
    let defaults = SearchParams::default();
    for t in TUNABLE {
        assert!((t.min..=t.max).contains(&t.default), "{t:?}");
        assert_eq!((t.get)(&defaults), t.default);
        assert!(t.step > 0.0 && t.step < f64::from(t.max - t.min), "{t:?}");
    }
    assert!(defaults.changed().is_empty());
    let mut other = defaults;
    other.apply("rfp_margin=90, lmr_base=60").unwrap();
    assert_eq!(other.changed(), ["lmr_base=60", "rfp_margin=90"]);
    let mut again = defaults;
    again.apply(&other.changed().join(",")).unwrap();
    assert_eq!(again, other);
    assert!(again.apply("rfp_margin=9999").is_err());
    assert!(again.apply("no_such=1").is_err());
    assert!(again.apply("rfp_margin").is_err());
}

/// The table is `base + ln d * ln m / divisor`, in hundredths: checked
/// against the formula written out, and against the table the engine
/// used before the parameters were tuned (0.75 and 2.25).
#[test]
fn reductions_are_the_formula() {
    let params = SearchParams::default();
    let table = params.reductions();
    let formula =
        |d: f64, m: f64, base: f64, divisor: f64| (base + d.ln() * m.ln() / divisor) as i32;
    let (base, divisor) = (
        f64::from(params.lmr_base) / 100.0,
        f64::from(params.lmr_divisor) / 100.0,
    );
    for (d, m) in [(1, 1), (3, 3), (10, 20), (63, 63), (8, 40)] {
        assert_eq!(
            table[d][m],
            formula(d as f64, m as f64, base, divisor),
            "{d} {m}"
        );
    }
    assert_eq!(table[0][5], 0);
    assert_eq!(table[5][0], 0);
    let old = SearchParams {
        lmr_base: 75,
        lmr_divisor: 225,
        ..params
    }
    .reductions();
    assert_eq!(old[3][3], 1);
    assert_eq!(old[63][63], 8);
}
