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

/// The table the engine always used: 0.75 + ln d ln m / 2.25.
#[test]
fn default_reductions_are_the_formula() {
    let table = SearchParams::default().reductions();
    assert_eq!(table[1][1], 0);
    assert_eq!(table[3][3], 1);
    assert_eq!(
        table[10][20],
        (0.75 + 10f64.ln() * 20f64.ln() / 2.25) as i32
    );
    assert_eq!(table[63][63], 8);
}
