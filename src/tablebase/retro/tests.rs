use super::*;

fn kvk(_: &Placement, _: Color) -> Value {
    Value::Draw
}

#[test]
fn indices_round_trip_and_mirror_images_share_one() {
    let layout = Layout::new(&"KRvK".parse().unwrap());
    let pos = Pos {
        sq: [Square::B2, Square::G7, Square::E4, Square::A1],
        stm: Color::Black,
        ep: false,
    };
    let index = layout.index(&pos);
    assert!(layout.is_valid(index));
    let mirrored = Pos {
        sq: [Square::G2, Square::B7, Square::D4, Square::A1],
        ..pos
    };
    assert_eq!(layout.index(&mirrored), index);
    let rotated = Pos {
        sq: [Square::G7, Square::B2, Square::D5, Square::A1],
        ..pos
    };
    assert_eq!(layout.index(&rotated), index);
}

#[test]
fn krk_longest_mate_is_sixteen_moves() {
    let material: Material = "KRvK".parse().unwrap();
    let table = generate(&material, &kvk, &mut |_| ControlFlow::Continue(())).unwrap();
    let (longest, counts) = table.summary();
    assert_eq!(longest, 31, "KRvK: mate in 16 moves = 31 plies");
    assert!(counts[0] > 0 && counts[2] > 0);
}
