//! Criterion bench for probing the default opening book: the binary search
//! for the key, decoding and legality checks of the entries, merge and sort.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use kibitz::book::default_book;
use kibitz::game::notation::parse_uci;
use shakmaty::{Chess, Position};

fn after(moves: &str) -> Chess {
    let mut position = Chess::default();
    for uci in moves.split_whitespace() {
        let m = parse_uci(&position, uci).expect("legal");
        position.play_unchecked(m);
    }
    position
}

fn benches(c: &mut Criterion) {
    let book = default_book().expect("the built-in book loads");
    let cases = [
        ("start (8 moves)", after("")),
        ("after 1.e4 (9 moves)", after("e2e4")),
        (
            "Najdorf (4 moves)",
            after("e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3"),
        ),
        ("out of book", after("h2h4 h7h5 a2a4")),
    ];
    for (name, position) in &cases {
        c.bench_function(&format!("book probe: {name}"), |b| {
            b.iter(|| book.probe(black_box(position)))
        });
    }
}

criterion_group!(book, benches);
criterion_main!(book);
