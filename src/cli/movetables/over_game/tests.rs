//! Tests of `over_game.rs`.

use shakmaty::{Color, Move, Role};

use super::*;
use crate::engine::movetables::TableUpdate;

#[test]
fn a_csv_snapshot_is_a_row_per_table_and_square_with_greers_importance() {
    let nf3 = Move::Normal {
        role: Role::Knight,
        from: Square::G1,
        capture: None,
        to: Square::F3,
        promotion: None,
    };
    let nc3 = Move::Normal {
        role: Role::Knight,
        from: Square::B1,
        capture: None,
        to: Square::C3,
        promotion: None,
    };
    let mut maps = TableWeights::default();
    // Nf3 refuted twice, Nc3 failed three times.
    for _ in 0..2 {
        maps.apply(&TableUpdate {
            color: Color::White,
            line: vec![nf3],
            others: vec![],
        });
    }
    for _ in 0..3 {
        maps.apply(&TableUpdate {
            color: Color::White,
            line: vec![],
            others: vec![nc3],
        });
    }
    let snapshot = Snapshot {
        ply: 7,
        san: "Nxe5+",
        fen: String::new(),
        nodes: 0,
        maps: &maps,
        depth: 3,
        decrement: Decrement::Tried,
        chains: None,
    };
    let mut out = Vec::new();
    snapshot.write(Format::Csv, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 12 * 64);
    assert!(rows.contains(&"7,Nxe5+,wn,f3,2,2,2"), "{text}");
    assert!(rows.contains(&"7,Nxe5+,wn,c3,-3,3,3"), "{text}");
    assert!(rows.contains(&"7,Nxe5+,bq,d8,0,0,0"), "{text}");
    // Columns as the header names them, a1 first in each table.
    assert_eq!(CSV_HEADER.split(',').count(), rows[0].split(',').count());
    assert!(rows[0].starts_with("7,Nxe5+,wk,a1,"), "{}", rows[0]);
}
