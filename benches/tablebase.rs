//! Criterion benches for the built-in tablebases: a win/draw/loss probe (what
//! the search does after a capture into the tables) and a full probe with the
//! best move (what the engine does at the root), on KRvK and KBNvK.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use kibitz::game::fen::parse_fen;
use kibitz::tablebase::{Builtin, Tablebases};

fn benches(c: &mut Criterion) {
    let mut builtin = Builtin::new();
    for name in ["KRvK", "KBvK", "KNvK", "KBNvK"] {
        builtin
            .generate(&name.parse().expect("signature"), &mut |_| {
                std::ops::ControlFlow::Continue(())
            })
            .expect("generates");
    }
    let tables = Tablebases::new(builtin);
    for (name, fen) in [
        ("KRvK", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"),
        ("KBNvK", "8/8/8/4k3/8/8/8/1N2K1B1 w - - 0 1"),
    ] {
        let position = parse_fen(fen).expect("FEN");
        c.bench_function(&format!("tablebase wdl probe: {name}"), |b| {
            b.iter(|| tables.probe_wdl(black_box(&position)))
        });
        c.bench_function(&format!("tablebase probe with best move: {name}"), |b| {
            b.iter(|| tables.probe(black_box(&position)))
        });
    }
}

criterion_group!(tablebase, benches);
criterion_main!(tablebase);
