//! The move generator under the engine (shakmaty, driven by our perft)
//! against the published perft counts of the chess programming wiki.
#![allow(clippy::unwrap_used)]

mod common;

use kibitz::game::fen::parse_fen;
use kibitz::perft::{divide, perft};

/// Depths whose expected count is above this are skipped to keep the suite fast.
const MAX_NODES: u64 = 200_000_000;

#[test]
fn perft_matches_the_published_counts() {
    let text = common::read_testdata("epd/cpw-perft-results.epd");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut fields = line.split(';');
        let fen = fields.next().unwrap().trim();
        let position = parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for field in fields {
            let (depth, expected) = field
                .trim()
                .trim_start_matches('D')
                .split_once(' ')
                .unwrap();
            let depth: u32 = depth.parse().unwrap();
            let expected: u64 = expected.trim().parse().unwrap();
            if expected > MAX_NODES {
                continue;
            }
            assert_eq!(perft(&position, depth), expected, "{fen} depth {depth}");
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} counts checked");
}

#[test]
fn divide_sums_to_perft() {
    let position =
        parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
    let split = divide(&position, 3);
    assert_eq!(split.len(), 48);
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 97_862);
}
