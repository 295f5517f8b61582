//! Criterion benches for teach mode: recording a search and preparing its
//! replay (what the board runs when a setting changes), and reaching a step
//! of a long record (what every key press costs: a snapshot and at most
//! `SNAPSHOT_INTERVAL` events replayed).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use kibitz::teach::{self, Setup, positions};

fn never() -> bool {
    false
}

fn benches(c: &mut Criterion) {
    let curated = positions();
    let find = |name: &str| {
        curated
            .iter()
            .find(|p| p.name == name)
            .expect("a curated position")
    };

    let mut group = c.benchmark_group("record and replay, depth 3");
    group.sample_size(20);
    for name in ["start", "fork", "horizon", "move ordering"] {
        let setup = Setup::new(find(name).position.clone(), 3);
        group.bench_function(name, |b| {
            b.iter(|| {
                teach::record_replay(black_box(&setup), teach::MAX_EVENTS, &never)
                    .expect("recordable")
                    .len()
            })
        });
    }
    group.finish();

    // The largest record of the curated positions at their depths.
    let p = find("move ordering");
    let replay = teach::record_replay(
        &Setup::new(p.position.clone(), p.depth),
        teach::MAX_EVENTS,
        &never,
    )
    .expect("recordable");
    let len = replay.len() as u64;
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    c.bench_function(
        &format!("Replay::step at a random index of {len} events"),
        |b| {
            b.iter(|| {
                // xorshift: a different index each iteration, the same
                // sequence each run.
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let k = (state % (len + 1)) as usize;
                replay.step(black_box(k)).applied
            })
        },
    );
}

criterion_group!(teach_benches, benches);
criterion_main!(teach_benches);
