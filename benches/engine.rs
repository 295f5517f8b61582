//! Criterion benches for the engine's hot paths: move generation (perft),
//! static evaluation, exchange evaluation and a fixed-depth search, plus the
//! same search through the recording tracer to show what tracing costs when
//! it is on (with `NoTrace` it costs nothing; see `kibitz bench`).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use kibitz::cli::bench::bench_positions;
use kibitz::engine::eval::evaluate;
use kibitz::engine::search;
use kibitz::engine::see::see;
use kibitz::engine::trace::{NoTrace, Recorder, Tracer};
use kibitz::engine::{Limits, SearchOptions};
use kibitz::perft::perft;
use shakmaty::{Chess, Position};

fn positions() -> Vec<Chess> {
    bench_positions().expect("the built-in bench positions parse")
}

fn search_all<T: Tracer>(positions: &[Chess], depth: u32, tracer: &mut T) -> u64 {
    positions
        .iter()
        .map(|p| {
            search::search_fresh(
                p,
                &[],
                &Limits::depth(depth),
                SearchOptions::default(),
                4,
                tracer,
            )
            .nodes
        })
        .sum()
}

fn benches(c: &mut Criterion) {
    let positions = positions();
    let kiwipete = &positions[22];

    c.bench_function("perft kiwipete depth 3", |b| {
        b.iter(|| perft(black_box(kiwipete), 3))
    });

    c.bench_function("evaluate 40 positions", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| evaluate(black_box(p)))
                .sum::<i32>()
        })
    });

    let captures: Vec<(Chess, shakmaty::Move)> = positions
        .iter()
        .flat_map(|p| {
            p.legal_moves()
                .into_iter()
                .filter(|m| m.is_capture())
                .map(move |m| (p.clone(), m))
        })
        .collect();
    c.bench_function("static exchange evaluation, all captures", |b| {
        b.iter(|| {
            captures
                .iter()
                .map(|(p, m)| see(black_box(p), *m))
                .sum::<i32>()
        })
    });

    let sample = &positions[..8];
    let mut group = c.benchmark_group("search 8 positions depth 6");
    group.sample_size(10);
    group.bench_function("NoTrace", |b| {
        b.iter(|| search_all(sample, 6, &mut NoTrace))
    });
    group.bench_function("Recorder (keeps nothing)", |b| {
        b.iter(|| search_all(sample, 6, &mut Recorder::new(0)))
    });
    group.finish();
}

criterion_group!(engine, benches);
criterion_main!(engine);
