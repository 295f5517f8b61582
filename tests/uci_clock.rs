//! Time limits, checked against a wall clock. These tests are kept in their
//! own test binary, one test function, so no other test competes for the
//! processor while an engine is on the clock.
#![allow(clippy::unwrap_used)]

mod common;

use std::time::{Duration, Instant};

use common::uci_session::{LONG, Uci};
use kibitz::game::notation::parse_uci;
use shakmaty::{Chess, Position};

#[test]
fn the_clock_is_respected() {
    movetime_and_clock_are_respected();
    plays_a_whole_game_on_the_clock();
}

fn movetime_and_clock_are_respected() {
    let mut uci = Uci::start();
    // The book would answer at once: this is about the search's clock.
    uci.send("setoption name OwnBook value false");
    uci.send("position startpos moves e2e4 c7c5");
    let started = Instant::now();
    uci.send("go movetime 300");
    uci.best_move(LONG);
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(250) && took < Duration::from_millis(800),
        "{took:?}"
    );

    let started = Instant::now();
    uci.send("go wtime 300 btime 300");
    uci.best_move(LONG);
    assert!(
        started.elapsed() < Duration::from_millis(300),
        "{:?}",
        started.elapsed()
    );
}

/// Two engine processes play a whole game at a fast clock. Every move must
/// be legal and arrive before the mover's clock runs out, as measured here.
fn plays_a_whole_game_on_the_clock() {
    let mut players = [Uci::start(), Uci::start()];
    for p in players.iter_mut() {
        p.send("uci");
        p.until(|l| l == "uciok", LONG);
        // Generating tables in the background would compete for the clock.
        p.send("setoption name KibitzTables value false");
        p.send("ucinewgame");
        p.ready();
    }
    let increment = Duration::from_millis(20);
    let mut clocks = [Duration::from_millis(2000); 2];
    let mut position = Chess::default();
    let mut moves: Vec<String> = Vec::new();
    while !position.is_game_over() && moves.len() < 160 {
        let side = moves.len() % 2;
        let player = &mut players[side];
        player.send(&format!("position startpos moves {}", moves.join(" ")));
        player.send(&format!(
            "go wtime {} btime {} winc {} binc {}",
            clocks[0].as_millis(),
            clocks[1].as_millis(),
            increment.as_millis(),
            increment.as_millis()
        ));
        let started = Instant::now();
        let (best, _) = player.best_move(LONG);
        let used = started.elapsed();
        assert!(
            used < clocks[side],
            "lost on time at ply {}: used {used:?} of {:?}",
            moves.len(),
            clocks[side]
        );
        clocks[side] = clocks[side] - used + increment;
        let m = parse_uci(&position, &best).unwrap_or_else(|e| panic!("ply {}: {e}", moves.len()));
        position.play_unchecked(m);
        moves.push(best);
    }
    assert!(moves.len() >= 20, "game too short: {moves:?}");
}
