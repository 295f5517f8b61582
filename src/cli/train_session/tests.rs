#![allow(clippy::unwrap_used)]
use super::*;
use crate::train::schedule::DAY;

#[test]
fn times_from_now_read_as_minutes_hours_and_days() {
    assert_eq!(until(0), "now");
    assert_eq!(until(30), "in 1 minute");
    assert_eq!(until(40 * 60), "in 40 minutes");
    assert_eq!(until(5 * 3600), "in 5 hours");
    assert_eq!(until(DAY - 5), "in 1 day");
    assert_eq!(until(3 * DAY), "in 3 days");
}

#[test]
fn lines_are_numbered_from_where_they_start() {
    let moves: Vec<String> = ["Qa5", "d4", "Nf6"].iter().map(|s| s.to_string()).collect();
    assert_eq!(numbered_line(&moves, 3, false), "3... Qa5 4. d4 Nf6");
    assert_eq!(numbered_line(&moves, 1, true), "1. Qa5 d4 2. Nf6");
}
