//! Teach mode's library: a recorded search replays the same step by step,
//! forwards, backwards or from a snapshot; the replay's state agrees with
//! the search it recorded; the jumps land where they say; captions speak in
//! words; records refuse what is too large; the comparison reaches one value
//! four ways.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;

use kibitz::engine::SearchOptions;
use kibitz::engine::search::MATE_BOUND;
use kibitz::engine::trace::{OrderReason, TraceEvent};
use kibitz::game::fen::parse_fen;
use kibitz::teach::caption::{caption, san};
use kibitz::teach::compare::{self, Outcome};
use kibitz::teach::replay::{Landmark, SNAPSHOT_INTERVAL};
use kibitz::teach::{
    self, MoveStatus, RecordError, Replay, Setup, Step, TeachingPosition, Via, positions,
};
use proptest::prelude::*;
use shakmaty::{Chess, Position};

/// A position reached by playing the move at each index (modulo the number
/// of legal moves) from the start; stops early at the end of a game.
fn random_position(choices: &[u16]) -> Chess {
    let mut position = Chess::default();
    for &choice in choices {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[usize::from(choice) % moves.len()];
        position.play_unchecked(m);
    }
    position
}

fn never() -> bool {
    false
}

fn setup(position: &Chess, depth: u32, options: SearchOptions) -> Setup {
    Setup {
        position: position.clone(),
        tree: None,
        history: Vec::new(),
        depth,
        options,
    }
}

fn replay_of(position: &Chess, depth: u32, options: SearchOptions) -> Replay {
    let recording = teach::record(&setup(position, depth, options), teach::MAX_EVENTS, &never)
        .unwrap_or_else(|e| panic!("{e}"));
    Replay::new(recording)
}

fn curated(name: &str) -> TeachingPosition {
    positions()
        .into_iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no teaching position '{name}'"))
}

/// Every curated position recorded at its depth, as teach mode records it.
fn curated_replays() -> Vec<(TeachingPosition, Replay)> {
    positions()
        .into_iter()
        .map(|p| {
            let replay = replay_of(&p.position, p.depth, SearchOptions::textbook());
            (p, replay)
        })
        .collect()
}

/// Walk the whole record one event at a time and check, at every `k` in
/// `at`, that the step reached from a snapshot, by seeking forward and by
/// seeking back from `k` to `k - 1` is the step walked to.
fn check_steps(replay: &Replay, at: &BTreeSet<usize>) -> Result<(), TestCaseError> {
    let mut walked = replay.step(0);
    prop_assert_eq!(walked.applied, 0);
    prop_assert!(walked.frames.is_empty());
    // A step kept elsewhere in the record, to seek from.
    let mut far = replay.step(replay.len());
    for (i, event) in replay.events().iter().enumerate() {
        let k = i + 1;
        let wanted = at.contains(&k);
        let before: Option<Step> = wanted.then(|| walked.clone());
        walked.apply(event);
        let Some(before) = before else { continue };
        prop_assert_eq!(walked.applied, k);
        prop_assert!(
            replay.step(k) == walked,
            "step({}) differs from the walk",
            k
        );
        prop_assert!(replay.step(k - 1) == before, "step({}) differs", k - 1);
        // Seek from wherever the learner was, to k, then one back.
        replay.seek(&mut far, k);
        prop_assert!(far == walked, "seek to {} differs from the walk", k);
        replay.seek(&mut far, k - 1);
        prop_assert!(far == before, "one step back from {} differs", k);
        replay.seek(&mut far, k);
        prop_assert!(far == walked, "forward again to {} differs", k);
    }
    Ok(())
}

/// Step counts on both sides of every snapshot, and the ends.
fn boundaries(len: usize) -> BTreeSet<usize> {
    let mut at: BTreeSet<usize> = [1, 2, len.saturating_sub(1), len].into();
    for b in (SNAPSHOT_INTERVAL..=len + 1).step_by(SNAPSHOT_INTERVAL) {
        at.extend([b - 1, b, b + 1]);
    }
    at.retain(|&k| (1..=len).contains(&k));
    at
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Any step reads the same however it is reached.
    #[test]
    fn a_step_is_the_same_walked_replayed_or_stepped_back_to(
        choices in proptest::collection::vec(any::<u16>(), 0..40),
        depth in 1u32..=3,
        table in any::<bool>(),
        quiescence in any::<bool>(),
        picks in proptest::collection::vec(any::<prop::sample::Index>(), 1..16),
    ) {
        let position = random_position(&choices);
        prop_assume!(!position.legal_moves().is_empty());
        let options = SearchOptions {
            transposition_table: table,
            quiescence,
            ..SearchOptions::textbook()
        };
        let recording = teach::record(&setup(&position, depth, options), teach::MAX_EVENTS, &never);
        prop_assume!(recording.is_ok());
        let replay = Replay::new(recording.unwrap());
        let mut at = boundaries(replay.len());
        at.extend(picks.iter().map(|i| 1 + i.index(replay.len())));
        check_steps(&replay, &at)?;
    }
}

#[test]
fn steps_across_every_snapshot_of_a_long_record_agree() {
    let p = curated("move ordering");
    let replay = replay_of(&p.position, 3, SearchOptions::textbook());
    assert!(replay.len() > 10 * SNAPSHOT_INTERVAL, "{}", replay.len());
    check_steps(&replay, &boundaries(replay.len())).unwrap();
    // Long jumps both ways land on the same steps as short ones.
    let mut step = replay.step(replay.len());
    for k in [3, replay.len() - 5, SNAPSHOT_INTERVAL * 3 + 7, 1, 0] {
        replay.seek(&mut step, k);
        assert!(step == replay.step(k), "seek to {k}");
        assert_eq!(step.applied, k);
    }
    // Beyond the end is the end.
    assert!(replay.step(replay.len() + 10) == replay.step(replay.len()));
}

/// The replay agrees with the search, event by event, on every curated
/// position at its depth.
#[test]
fn the_replay_agrees_with_the_search() {
    for (p, replay) in curated_replays() {
        let name = p.name.as_str();
        let events = replay.events();
        let mut step = replay.step(0);
        // A node that just returned: its ply, value and how it was reached.
        let mut handed_up: Option<(u32, i32, Via)> = None;
        let mut cutoffs = 0;
        for (i, event) in events.iter().enumerate() {
            step.apply(event);
            if let TraceEvent::Iteration { depth } = *event {
                // Without iterative deepening: one search, at the depth.
                assert_eq!((i, depth), (0, p.depth as i32), "{name}");
                assert!(step.frames.is_empty());
                continue;
            }
            for (index, frame) in step.frames.iter().enumerate() {
                assert_eq!(frame.ply as usize, index, "{name}, event {i}");
            }
            let top = step.current().unwrap_or_else(|| panic!("{name}: no node"));
            if let Some(ply) = event.ply() {
                assert_eq!(top.ply, ply, "{name}, event {i}: {event:?}");
            }
            // The value handed up shows at the parent, sign flipped.
            if let Some((ply, value, via)) = handed_up.take() {
                let parent = &step.frames[ply as usize - 1];
                match via {
                    Via::Move(m) => {
                        let line = parent.moves.iter().find(|l| l.mv == m).unwrap();
                        assert_eq!(line.status, MoveStatus::Searched(-value), "{name}, {i}");
                    }
                    Via::Pass => assert_eq!(parent.null_move, Some(Some(-value))),
                    Via::Root => panic!("{name}: the root below the root"),
                    Via::Singular | Via::Verification => {}
                }
            }
            match *event {
                TraceEvent::Return { ply, value } => {
                    assert_eq!(top.returned, Some(value));
                    if ply > 0 {
                        handed_up = Some((ply, value, top.via));
                    }
                }
                TraceEvent::MoveTried { mv, .. } => {
                    let current = top.current.unwrap();
                    assert_eq!(top.moves[current].mv, mv);
                    assert_eq!(top.moves[current].status, MoveStatus::Searching);
                }
                TraceEvent::BetaCutoff {
                    mv,
                    value,
                    moves_left,
                    ..
                } => {
                    cutoffs += 1;
                    let reached = top.reached;
                    // The search's own count agrees, but after a cutoff by
                    // the table's move (see the test below).
                    if top.moves[reached - 1].reason != Some(OrderReason::HashMove) {
                        assert_eq!(
                            moves_left as usize,
                            top.moves.len() - reached,
                            "{name}, event {i}"
                        );
                    }
                    assert_eq!(top.moves[reached - 1].mv, mv, "{name}, {i}");
                    assert!(
                        top.moves[reached..]
                            .iter()
                            .all(|l| l.status == MoveStatus::CutOff),
                        "{name}, event {i}: a move after the cutoff is not cut off"
                    );
                    assert!(
                        top.moves[..reached]
                            .iter()
                            .all(|l| !matches!(l.status, MoveStatus::CutOff | MoveStatus::Pending)),
                        "{name}, event {i}"
                    );
                    let skipped = (top.moves.len() - reached) as u32;
                    assert_eq!(top.cutoff, Some((mv, value, skipped)));
                    assert!(value >= top.beta, "{name}, event {i}");
                }
                _ => {}
            }
        }
        // The end: the root, returned with the search's value.
        let recording = &replay.recording;
        assert_eq!(step.frames.len(), 1, "{name}");
        assert_eq!(step.frames[0].returned, Some(recording.value), "{name}");
        assert_eq!(step.counters, recording.stats.totals, "{name}");
        assert_eq!(step.applied, replay.len());
        assert!(step == replay.step(replay.len()));
        if recording.value.abs() < MATE_BOUND {
            assert!(cutoffs > 0, "{name}: no cutoff at all");
        }
        let best = recording.best_move.unwrap();
        assert_eq!(step.root_best.map(|(m, _)| m), Some(best), "{name}");
        assert_eq!(
            step.root_best.map(|(_, v)| v),
            Some(recording.value),
            "{name}"
        );
    }
}

/// The engine reports no moves left after a cutoff by the table's move (it
/// has not generated the others yet); the replay counts them itself.
#[test]
fn a_cutoff_by_the_table_move_still_counts_the_moves_it_spared() {
    let p = curated("move ordering");
    let replay = replay_of(&p.position, 4, SearchOptions::textbook());
    let mut step = replay.step(0);
    let mut seen = 0;
    let mut tried = Vec::new();
    for event in replay.events() {
        step.apply(event);
        if let TraceEvent::MoveTried { ply, reason, .. } = *event {
            tried.resize(tried.len().max(ply as usize + 1), None);
            tried[ply as usize] = Some(reason);
        }
        if let TraceEvent::BetaCutoff { ply, mv, .. } = *event
            && tried[ply as usize] == Some(OrderReason::HashMove)
        {
            let top = step.current().unwrap();
            let legal = top.position.legal_moves().len();
            assert!(!top.quiescence);
            assert_eq!(top.cutoff.unwrap().2 as usize, legal - 1);
            let text = caption(&replay, &step);
            assert!(text.contains(&san(&top.position, mv)), "{text}");
            if legal > 2 {
                assert!(
                    text.contains(&format!("the {} remaining moves", legal - 1)),
                    "{text}"
                );
            }
            seen += 1;
        }
    }
    assert!(seen > 0, "no cutoff by a table move");
}

/// Step over a move: the next event of the same node, after the move's
/// subtree. Step out: the node's return.
#[test]
fn step_over_and_step_out_land_where_they_say() {
    for (p, replay) in curated_replays() {
        let name = p.name.as_str();
        let events = replay.events();
        let mut step = replay.step(0);
        for (i, event) in events.iter().enumerate() {
            step.apply(event);
            let k = i + 1;
            let Some(top) = step.current() else {
                assert_eq!(k, 1, "{name}: no node after step {k}");
                continue;
            };
            if let TraceEvent::MoveTried { ply, .. } = *event {
                let over = replay.over(&step);
                assert!(over > k + 1, "{name}, {k}");
                assert_eq!(events[over - 1].ply(), Some(ply), "{name}, {k}");
                assert!(
                    matches!(events[over - 2], TraceEvent::Return { ply: p, .. } if p == ply + 1),
                    "{name}, {k}: over lands after {:?}",
                    events[over - 2]
                );
                let landed = replay.step(over);
                assert_eq!(landed.current().unwrap().ply, ply);
                assert_eq!(landed.frames.len(), step.frames.len());
            }
            let out = replay.out(&step);
            let ply = if top.returned.is_some() {
                top.ply.checked_sub(1)
            } else {
                Some(top.ply)
            };
            match ply {
                Some(ply) => {
                    assert!(
                        matches!(events[out - 1], TraceEvent::Return { ply: p, .. } if p == ply),
                        "{name}, {k}: out lands on {:?}",
                        events[out - 1]
                    );
                    assert!(
                        !events[k..out - 1]
                            .iter()
                            .any(|e| matches!(e, TraceEvent::Return { ply: p, .. } if *p == ply)),
                        "{name}, {k}: out skips the node's return"
                    );
                    assert!(out > k);
                }
                // From the root's return: the end.
                None => assert_eq!(out, replay.len()),
            }
        }
    }
}

#[test]
fn landmarks_find_what_they_say() {
    for (p, replay) in curated_replays() {
        let name = p.name.as_str();
        for landmark in [Landmark::Cutoff, Landmark::RootBest, Landmark::TableHit] {
            let expected: Vec<usize> = replay
                .events()
                .iter()
                .enumerate()
                .filter(|(_, e)| landmark.matches(e))
                .map(|(i, _)| i + 1)
                .collect();
            let mut found = Vec::new();
            let mut at = 0;
            while let Some(next) = replay.find_forward(at, |e| landmark.matches(e)) {
                assert!(next > at);
                let step = replay.step(next);
                let top = step.current().unwrap();
                match (landmark, replay.event_at(next).unwrap()) {
                    (Landmark::Cutoff, TraceEvent::BetaCutoff { mv, .. }) => {
                        assert_eq!(top.cutoff.map(|c| c.0), Some(*mv));
                    }
                    (Landmark::RootBest, TraceEvent::AlphaRaised { mv, value, .. }) => {
                        assert_eq!(top.ply, 0);
                        assert_eq!(step.root_best, Some((*mv, *value)));
                    }
                    (Landmark::TableHit, TraceEvent::TtProbe { .. }) => {
                        assert!(top.table.unwrap().hit);
                    }
                    (landmark, event) => panic!("{name}: {landmark:?} found {event:?}"),
                }
                // Back from here finds the one before.
                assert_eq!(
                    replay.find_backward(next, |e| landmark.matches(e)),
                    found.last().copied(),
                    "{name} {landmark:?}"
                );
                found.push(next);
                at = next;
            }
            assert_eq!(found, expected, "{name} {landmark:?}");
            if landmark == Landmark::RootBest {
                assert!(!found.is_empty(), "{name}: no best root move");
            }
        }
    }
}

/// Every caption of a record, step by step.
fn captions(replay: &Replay) -> Vec<String> {
    let mut step = replay.step(0);
    (0..=replay.len())
        .map(|k| {
            replay.seek(&mut step, k);
            caption(replay, &step)
        })
        .collect()
}

const SIGN_FLIP: &str = "a value changes sign on its way up";

#[test]
fn captions_speak_in_words() {
    let fork = curated("fork");
    let mate = curated("mate in 1");
    let mate2 = curated("mate in 2");
    let records = [
        replay_of(&mate.position, 1, SearchOptions::textbook()),
        replay_of(&mate2.position, 3, SearchOptions::textbook()),
        replay_of(&fork.position, 3, SearchOptions::textbook()),
        replay_of(&mate.position, 2, SearchOptions::minimax()),
        // The engine's own search: null windows, re-searches, pruning,
        // iterations, aspiration.
        replay_of(&fork.position, 5, SearchOptions::default()),
        replay_of(&mate2.position, 4, SearchOptions::default()),
    ];
    for replay in &records {
        let texts = captions(replay);
        for (k, text) in texts.iter().enumerate() {
            assert!(!text.trim().is_empty(), "step {k} has no caption");
            for raw in ["29999", "30000", "32000", "-32000"] {
                assert!(!text.contains(raw), "step {k}: {text}");
            }
            // No engine-internal number of any kind: four digits in a row.
            assert!(
                !text
                    .as_bytes()
                    .windows(4)
                    .any(|w| w.iter().all(u8::is_ascii_digit)),
                "step {k}: {text}"
            );
            assert!(!text.contains("1 plies"), "step {k}: {text}");
        }
        let flips = texts.iter().filter(|t| t.contains(SIGN_FLIP)).count();
        assert_eq!(flips, 1, "the sign flip is explained {flips} times");
        // It is explained at the first value handed up.
        let first_return = replay
            .events()
            .iter()
            .position(|e| matches!(e, TraceEvent::Return { ply, .. } if *ply > 0))
            .unwrap();
        assert!(texts[first_return + 1].contains(SIGN_FLIP));
    }
    // The mate in one ends by saying so.
    let last = captions(&records[0]).pop().unwrap();
    assert!(last.contains("White mates in 1"), "{last}");
    assert!(last.contains("Rd8#"), "{last}");
}

#[test]
fn a_cutoff_caption_names_the_move_and_what_it_skips() {
    let fork = curated("fork");
    let replay = replay_of(&fork.position, 3, SearchOptions::textbook());
    let mut step = replay.step(0);
    let mut seen = 0;
    for k in 1..=replay.len() {
        replay.seek(&mut step, k);
        if let Some(&TraceEvent::BetaCutoff { mv, .. }) = replay.event_at(k) {
            let top = step.current().unwrap();
            let skipped = top
                .moves
                .iter()
                .filter(|l| l.status == MoveStatus::CutOff)
                .count();
            let text = caption(&replay, &step);
            assert!(
                text.starts_with(&format!("Cutoff: {} scores", san(&top.position, mv))),
                "{text}"
            );
            let count = match skipped {
                0 => "nothing is skipped".to_string(),
                1 => "the 1 remaining move need not".to_string(),
                n => format!("the {n} remaining moves need not"),
            };
            assert!(text.contains(&count), "{skipped} skipped: {text}");
            seen += 1;
        }
    }
    assert!(seen > 10);
}

#[test]
fn captions_say_only_what_happened() {
    // Without iterative deepening there are no earlier iterations.
    let fork = curated("fork");
    let replay = replay_of(&fork.position, 3, SearchOptions::textbook());
    let texts = captions(&replay);
    assert!(texts[0].contains("3 plies ahead"), "{}", texts[0]);
    assert!(
        texts[1].contains("iterative deepening is off"),
        "{}",
        texts[1]
    );
    assert!(!texts.iter().any(|t| t.contains("earlier iterations")));
    // Mate-distance pruning narrows the windows below the root to what a
    // line can score at all: that is no bound, and reads as infinite.
    assert!(
        !texts.iter().any(|t| t.contains("[checkmated")),
        "a window reads [checkmated, ...]"
    );
    // A search one ply deep says "1 ply".
    let mate = curated("mate in 1");
    let one = replay_of(&mate.position, 1, SearchOptions::textbook());
    let texts = captions(&one);
    assert!(texts[0].contains("1 ply ahead"), "{}", texts[0]);
    assert!(texts[2].contains("1 ply to search"), "{}", texts[2]);
    // A checkmated node did not fail low: it had no move to search.
    let mated = one
        .events()
        .iter()
        .position(|e| matches!(e, TraceEvent::Shortcut { .. }))
        .unwrap();
    let returned = &texts[mated + 2];
    assert!(
        returned.starts_with("This node returns checkmated"),
        "{returned}"
    );
    assert!(!returned.contains("failed low"), "{returned}");

    // With iterative deepening, the first iteration makes no claim about
    // earlier ones and later ones do.
    let options = SearchOptions {
        iterative_deepening: true,
        ..SearchOptions::textbook()
    };
    let deepening = replay_of(&fork.position, 3, options);
    let texts = captions(&deepening);
    assert!(texts[1].contains("iteration 1 starts"), "{}", texts[1]);
    assert!(!texts[1].contains("earlier iterations"), "{}", texts[1]);
    assert!(texts.iter().any(|t| t.contains("iteration 3 starts")));

    // A table hit names the move it puts first, and only when it does.
    let mut step = deepening.step(0);
    let mut named = 0;
    for k in 1..=deepening.len() {
        deepening.seek(&mut step, k);
        if let Some(TraceEvent::TtProbe {
            hit: true,
            cutoff: false,
            ..
        }) = deepening.event_at(k)
        {
            let text = caption(&deepening, &step);
            match deepening.events().get(k) {
                Some(&TraceEvent::MoveTried {
                    mv,
                    reason: OrderReason::HashMove,
                    ..
                }) => {
                    let top = step.current().unwrap();
                    let expected =
                        format!("Its best move, {}, is tried first.", san(&top.position, mv));
                    assert!(text.contains(&expected), "{text}");
                    named += 1;
                }
                _ => assert!(!text.contains("tried first"), "{text}"),
            }
        }
    }
    assert!(named > 0);
}

#[test]
fn too_large_cancelled_and_finished_games_are_refused() {
    let start = Chess::default();
    let setup = setup(&start, 3, SearchOptions::textbook());
    let refused = teach::record(&setup, 100, &never).unwrap_err();
    assert!(
        matches!(
            refused,
            RecordError::TooLarge {
                max: 100,
                depth: 3,
                ..
            }
        ),
        "{refused:?}"
    );
    let message = refused.to_string();
    assert!(message.contains("too large"), "{message}");
    assert!(message.contains("lower the depth"), "{message}");
    assert!(message.contains("switch quiescence off"), "{message}");
    // Without alpha-beta, the advice is to switch it on.
    let minimax = Setup {
        options: SearchOptions::minimax(),
        ..setup.clone()
    };
    let message = teach::record(&minimax, 100, &never)
        .unwrap_err()
        .to_string();
    assert!(message.contains("switch alpha-beta on"), "{message}");

    // A search that fills the record exactly fits; one event less does not.
    let whole = teach::record(&setup, teach::MAX_EVENTS, &never).unwrap();
    let n = whole.events.len();
    let exact = teach::record(&setup, n, &never).unwrap();
    assert_eq!(exact.events, whole.events);
    assert_eq!(exact.value, whole.value);
    assert!(matches!(
        teach::record(&setup, n - 1, &never),
        Err(RecordError::TooLarge { .. })
    ));

    let stop = || true;
    assert_eq!(
        teach::record(&setup, teach::MAX_EVENTS, &stop).unwrap_err(),
        RecordError::Cancelled
    );
    assert!(matches!(
        teach::record_replay(&setup, teach::MAX_EVENTS, &stop),
        Err(RecordError::Cancelled)
    ));

    for fen in [
        // Fool's mate: White is checkmated.
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        // Stalemate.
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    ] {
        let over = Setup::new(parse_fen(fen).unwrap(), 3);
        assert_eq!(
            teach::record(&over, teach::MAX_EVENTS, &never).unwrap_err(),
            RecordError::NoMoves
        );
    }

    // What the board runs: the replay of the whole record.
    let replay = teach::record_replay(&setup, teach::MAX_EVENTS, &never).unwrap();
    assert_eq!(replay.len(), n);
    assert_eq!(replay.recording.setup, setup);
}

#[test]
fn setup_new_is_the_textbook_search_within_the_offered_depths() {
    let start = Chess::default();
    assert_eq!(
        Setup::new(start.clone(), 3).options,
        SearchOptions::textbook()
    );
    assert_eq!(Setup::new(start.clone(), 0).depth, teach::MIN_DEPTH);
    assert_eq!(Setup::new(start, 40).depth, teach::MAX_DEPTH);
}

/// Minimax trees smaller than this are lessons to predict by hand.
const TINY_TREE: u64 = 30;

#[test]
fn the_four_methods_without_quiescence_agree_and_alpha_beta_is_cheaper() {
    let methods = compare::methods();
    assert_eq!(methods[4].options, SearchOptions::textbook());
    for method in &methods[..4] {
        assert!(!method.options.quiescence, "{}", method.label);
        assert!(
            !method.options.pvs && !method.options.selective,
            "{}",
            method.label
        );
    }
    for p in positions() {
        let depth = p.depth.min(3);
        let outcomes: Vec<(i32, u64, u64)> = methods
            .iter()
            .map(|method| {
                match compare::run(&p.position, &[], depth, method, compare::NODE_CAP, &never) {
                    Outcome::Done {
                        value,
                        nodes,
                        leaves,
                    } => (value, nodes, leaves),
                    other => panic!("{} {}: {other:?}", p.name, method.label),
                }
            })
            .collect();
        let minimax = outcomes[0];
        for (method, outcome) in methods.iter().zip(&outcomes).take(4) {
            assert_eq!(outcome.0, minimax.0, "{}: {}", p.name, method.label);
            assert!(outcome.2 <= minimax.2, "{}: {}", p.name, method.label);
        }
        // On a tree small enough to predict by hand (the stalemate trap),
        // unordered alpha-beta can meet every best reply last and save
        // nothing; ordering is what saves there.
        let tiny = minimax.1 < TINY_TREE;
        if depth >= 2 && tiny {
            assert!(outcomes[1].1 <= minimax.1, "{}", p.name);
            assert!(outcomes[2].1 < minimax.1, "{}: ordering saves", p.name);
        } else if depth >= 2 {
            assert!(
                outcomes[1].1 < minimax.1,
                "{}: alpha-beta {} nodes, minimax {}",
                p.name,
                outcomes[1].1,
                minimax.1
            );
        }
    }
    // Depth 3 on every position, where alpha-beta always saves.
    for p in positions() {
        let nodes = |method: &compare::Method| match compare::run(
            &p.position,
            &[],
            3,
            method,
            compare::NODE_CAP,
            &never,
        ) {
            Outcome::Done { nodes, .. } => nodes,
            other => panic!("{}: {other:?}", p.name),
        };
        let (minimax, alpha_beta) = (nodes(&methods[0]), nodes(&methods[1]));
        if minimax < TINY_TREE {
            assert!(alpha_beta <= minimax, "{}", p.name);
            assert!(nodes(&methods[2]) < minimax, "{}: ordering saves", p.name);
            continue;
        }
        assert!(
            alpha_beta < minimax,
            "{}: {alpha_beta} >= {minimax}",
            p.name
        );
    }
}

#[test]
fn the_comparison_stops_at_its_cap_and_when_told() {
    let methods = compare::methods();
    let start = Chess::default();
    assert_eq!(
        compare::run(&start, &[], 4, &methods[0], 1_000, &never),
        Outcome::TooLarge { cap: 1_000 }
    );
    let stop = || true;
    assert_eq!(
        compare::run(&start, &[], 4, &methods[0], compare::NODE_CAP, &stop),
        Outcome::Cancelled
    );
}

/// Every child value handed up to its parent in `replay`: the child node
/// just before it was popped, and the parent's line for its move after.
fn handed_up(replay: &Replay) -> Vec<(teach::Frame, teach::MoveLine)> {
    let mut out = Vec::new();
    let mut step = replay.step(0);
    for k in 1..=replay.len() {
        let child = step
            .current()
            .filter(|f| f.returned.is_some() && f.ply > 0)
            .cloned();
        replay.seek(&mut step, k);
        let Some(child) = child else { continue };
        let Via::Move(mv) = child.via else { continue };
        let Some(parent) = step.frames.iter().rev().find(|f| f.ply + 1 == child.ply) else {
            continue;
        };
        let line = *parent.moves.iter().find(|l| l.mv == mv).unwrap();
        out.push((child, line));
    }
    out
}

#[test]
fn only_values_alpha_beta_proved_bounds_are_marked_as_bounds() {
    use kibitz::engine::trace::{Shortcut, TtBound};
    use kibitz::teach::replay::Bound;
    let horizon = curated("horizon");
    let mate = curated("mate in 1");
    let mate2 = curated("mate in 2");
    let no_quiescence = SearchOptions {
        quiescence: false,
        ..SearchOptions::textbook()
    };
    let replays = [
        // The case: at depth 1 without quiescence every root move
        // is a static evaluation, exact whatever the window.
        replay_of(&horizon.position, 1, no_quiescence),
        replay_of(&horizon.position, 4, no_quiescence),
        replay_of(&horizon.position, horizon.depth, SearchOptions::textbook()),
        replay_of(&mate.position, 2, SearchOptions::textbook()),
        replay_of(&mate2.position, 3, SearchOptions::textbook()),
        replay_of(&mate2.position, 4, SearchOptions::default()),
    ];
    let (mut exact, mut bounds) = (0, 0);
    for replay in &replays {
        for (child, line) in handed_up(replay) {
            let value = child.returned.unwrap();
            // A checkmate, a draw, a static evaluation or an exact table
            // entry is the value itself, whatever the window.
            let settled = child.leaf_eval.is_some()
                || matches!(
                    child.shortcut,
                    Some((
                        Shortcut::Checkmate | Shortcut::Stalemate | Shortcut::Draw,
                        _
                    ))
                )
                || child.table.is_some_and(|t| {
                    t.cutoff && t.entry.is_some_and(|e| e.bound == TtBound::Exact)
                });
            if settled {
                assert_eq!(line.bound, Bound::Exact, "{child:?}");
                exact += 1;
            }
            // From the parent's view, "at most" means the child failed high
            // (it cut off or stood pat at beta, or the table or a pruning
            // rule said so), "at least" that it failed low.
            match line.bound {
                Bound::AtMost => {
                    assert!(value >= child.entry_beta, "{child:?}");
                    bounds += 1;
                }
                Bound::AtLeast => {
                    assert!(value <= child.entry_alpha, "{child:?}");
                    bounds += 1;
                }
                Bound::Exact => {}
            }
        }
    }
    assert!(
        exact > 100 && bounds > 100,
        "{exact} exact, {bounds} bounds"
    );
}

/// Issue 32's pawn race.
const PAWN_RACE: &str = "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1";

#[test]
fn alpha_beta_off_is_plain_minimax_the_comparison_row() {
    // Ordering, the table and quiescence stay switched on, but without
    // alpha-beta they do not apply: the record is the comparison's first row.
    let position = parse_fen(PAWN_RACE).unwrap();
    let options = SearchOptions {
        alpha_beta: false,
        ..SearchOptions::textbook()
    };
    let recording =
        teach::record(&setup(&position, 4, options), teach::MAX_EVENTS, &never).unwrap();
    assert_eq!(recording.setup.options, compare::plain_minimax());
    assert_eq!(teach::effective_options(options), compare::plain_minimax());
    let row = compare::run(
        &position,
        &[],
        4,
        &compare::methods()[0],
        compare::NODE_CAP,
        &never,
    );
    let Outcome::Done { value, nodes, .. } = row else {
        panic!("{row:?}")
    };
    assert_eq!(recording.value, value);
    let totals = recording.stats.totals;
    assert_eq!(totals.main + totals.quiescence, nodes);
    assert_eq!(totals.quiescence, 0);
    assert_eq!(totals.tt_probes, 0);
    // Alpha-beta on: the switches are taken as they are.
    assert_eq!(
        teach::effective_options(SearchOptions::textbook()),
        SearchOptions::textbook()
    );
}

/// After Kg1, Black is stalemated.
const STALEMATE_AFTER_KG1: &str = "k7/8/1Q6/8/8/8/8/7K w - - 0 1";

#[test]
fn a_stalemate_at_the_horizon_is_a_draw_and_a_check_there_is_no_capture_search() {
    // After Kg1 Black is stalemated at the horizon: 0.00, called stalemate.
    let position = parse_fen(STALEMATE_AFTER_KG1).unwrap();
    let replay = replay_of(&position, 1, SearchOptions::textbook());
    let texts = captions(&replay);
    let mut step = replay.step(0);
    let mut found = false;
    for (k, text) in texts.iter().enumerate().skip(1) {
        replay.seek(&mut step, k);
        let Some(top) = step.current() else { continue };
        if top.ply == 1 && top.position.legal_moves().is_empty() && !top.position.is_check() {
            assert!(top.stand_pat.is_none(), "{text}");
            if let Some(TraceEvent::Return { value, .. }) = replay.event_at(k) {
                assert_eq!(*value, 0);
                found = true;
            }
        }
        assert!(!text.contains("-10.00 is a floor"), "{text}");
    }
    assert!(found);
    assert!(texts.iter().any(|t| t.contains("stalemate")));
    // In check at the horizon every reply is searched, not only captures.
    let mate = curated("mate in 1");
    let replay = replay_of(&mate.position, 1, SearchOptions::textbook());
    let texts = captions(&replay);
    let mut step = replay.step(0);
    let mut checked = 0;
    for (k, text) in texts.iter().enumerate().skip(1) {
        replay.seek(&mut step, k);
        if let Some(TraceEvent::EnterNode {
            quiescence: true, ..
        }) = replay.event_at(k)
            && step.current().unwrap().position.is_check()
        {
            assert!(!text.contains("captures only"), "{text}");
            assert!(text.contains("every reply"), "{text}");
            checked += 1;
        }
    }
    assert!(checked > 0);
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn table_captions_give_the_entry_and_why_it_did_not_settle_the_node() {
    let options = SearchOptions {
        iterative_deepening: true,
        ..SearchOptions::textbook()
    };
    let fork = curated("fork");
    let race = curated("transpositions");
    let (mut shallow, mut unfit, mut stores) = (0, 0, 0);
    for replay in [
        replay_of(&fork.position, 4, options),
        replay_of(&race.position, 5, options),
        replay_of(&race.position, 6, SearchOptions::textbook()),
        replay_of(&Chess::default(), 4, SearchOptions::textbook()),
        replay_of(&parse_fen(KIWIPETE).unwrap(), 3, SearchOptions::textbook()),
    ] {
        let texts = captions(&replay);
        for (k, text) in texts.iter().enumerate() {
            match replay.event_at(k) {
                Some(TraceEvent::TtProbe {
                    hit: true,
                    cutoff: false,
                    entry: Some(entry),
                    ..
                }) => {
                    let depth = if entry.depth <= 0 {
                        "quiescence search".to_string()
                    } else {
                        format!("search {} pl", entry.depth)
                    };
                    assert!(text.contains(&depth), "{text}");
                    assert!(text.contains("bound") || text.contains("exact"), "{text}");
                    if text.contains("Too shallow") {
                        shallow += 1;
                    } else {
                        assert!(text.contains("Deep enough, but"), "{text}");
                        unfit += 1;
                    }
                    if !entry.has_move {
                        assert!(!text.contains("is tried first"), "{text}");
                    }
                }
                Some(TraceEvent::TtStore { depth, .. }) => {
                    let searched = if *depth <= 0 {
                        "from quiescence search".to_string()
                    } else {
                        format!("from a search {depth} pl")
                    };
                    assert!(text.contains(&searched), "{text}");
                    stores += 1;
                }
                _ => {}
            }
        }
    }
    assert!(
        shallow > 0 && unfit > 0 && stores > 0,
        "{shallow} {unfit} {stores}"
    );
}

#[test]
fn captions_say_each_thing_once_and_only_what_is_known() {
    let options = SearchOptions {
        iterative_deepening: true,
        ..SearchOptions::textbook()
    };
    let fork = curated("fork");
    let replay = replay_of(&fork.position, 3, options);
    let texts = captions(&replay);
    let mut later_roots = 0;
    for (k, text) in texts.iter().enumerate() {
        // White's view is given only where it differs from the side's own.
        assert!(!text.contains("for White ("), "{text}");
        // "Table" alone could be either: the transposition table or the
        // move tables.
        let rest = text
            .replace("transposition table", "")
            .replace("piece-square table", "")
            .replace("move table", "")
            .replace("move-table", "")
            .replace("tablebase", "")
            .replace("endgame tables", "");
        assert!(!rest.contains("table"), "{text}");
        if let Some(TraceEvent::EnterNode { ply: 0, .. }) = replay.event_at(k)
            && !text.contains("iteration 1")
            && replay.step(k).iteration.is_some_and(|i| i > 1)
        {
            // A later iteration knows the previous one's result.
            assert!(!text.contains("Nothing is known yet"), "{text}");
            later_roots += 1;
        }
    }
    assert_eq!(later_roots, 2);
}

#[test]
fn pending_moves_are_listed_in_the_order_the_search_takes_them() {
    // The next move a node reaches is always the first of its pending ones.
    let mut checked = 0;
    for (p, replay) in curated_replays() {
        let mut step = replay.step(0);
        for k in 0..replay.len() {
            replay.seek(&mut step, k);
            let event = &replay.events()[k];
            let (TraceEvent::MoveTried { ply, mv, .. } | TraceEvent::MovePruned { ply, mv, .. }) =
                *event
            else {
                continue;
            };
            let node = step.frames.iter().rev().find(|f| f.ply == ply).unwrap();
            // A move already reached (a re-search) is not pending.
            if node.moves[..node.reached].iter().any(|l| l.mv == mv) {
                continue;
            }
            assert_eq!(
                node.moves[node.reached].mv, mv,
                "{}: step {k}, ply {ply}",
                p.name
            );
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn ordering_reasons_say_what_ordered_the_move() {
    // Before any quiet move has cut off, quiet moves go by the piece-square
    // gain, not by a history of cutoffs there was none of.
    let fork = curated("fork");
    let replay = replay_of(&fork.position, 3, SearchOptions::textbook());
    let texts = captions(&replay);
    let first_quiet = (1..=replay.len())
        .find(|&k| {
            matches!(
                replay.event_at(k),
                Some(TraceEvent::MoveTried {
                    reason: OrderReason::Quiet,
                    ..
                })
            )
        })
        .unwrap();
    let text = &texts[first_quiet];
    assert!(
        text.contains("no quiet move has caused a cutoff yet"),
        "{text}"
    );
    assert!(text.contains("piece-square"), "{text}");
    assert!(
        texts
            .iter()
            .any(|t| t.contains("ordered by how often they caused cutoffs so far"))
    );
    // At a root in check every move is an evasion, a king move included.
    let checked = parse_fen("4k3/8/8/8/8/8/8/r3K3 w - - 0 1").unwrap();
    let replay = replay_of(&checked, 2, SearchOptions::textbook());
    let texts = captions(&replay);
    let mut evasions = 0;
    for (k, text) in texts.iter().enumerate() {
        if let Some(TraceEvent::MoveTried { ply: 0, .. }) = replay.event_at(k) {
            assert!(
                text.contains("White is in check, so every move is an evasion"),
                "{text}"
            );
            evasions += 1;
        }
    }
    assert!(evasions >= 3, "{evasions}");
}

#[test]
fn mate_bounds_say_what_they_mean_and_mates_count_from_their_node() {
    let mate = curated("mate in 1");
    let mut meant = 0;
    for depth in 1..=2 {
        let replay = replay_of(&mate.position, depth, SearchOptions::textbook());
        let texts = captions(&replay);
        for text in &texts {
            // A bound is not the position's state.
            assert!(!text.contains("checkmated]"), "{text}");
            assert!(!text.contains(", checkmated"), "{text}");
            if text.contains("beta = Black mated: White already has mate in 1 with Rd8#") {
                meant += 1;
            }
        }
        // One convention for mates, said where a mate is first scored.
        let mated = texts
            .iter()
            .find(|t| t.contains("checkmate, the worst value"))
            .unwrap();
        assert!(mated.contains("counted in moves from that node"), "{mated}");
    }
    assert!(meant > 0);
}

#[test]
fn the_last_caption_says_in_words_what_the_comparison_shows() {
    let fork = curated("fork");
    let replay = replay_of(&fork.position, 3, SearchOptions::textbook());
    let last = caption(&replay, &replay.step(replay.len()));
    assert!(last.contains("change the cost, never the result"), "{last}");
    assert!(last.contains("b^d") && last.contains("b^(d/2)"), "{last}");
}

#[test]
fn with_pvs_a_full_window_node_says_why_the_table_does_not_answer() {
    let options = SearchOptions {
        pvs: true,
        ..SearchOptions::textbook()
    };
    let mut seen = 0;
    for (position, depth) in [
        (curated("transpositions").position, 6),
        (Chess::default(), 5),
        (parse_fen(KIWIPETE).unwrap(), 4),
    ] {
        let replay = replay_of(&position, depth, options);
        let mut step = replay.step(0);
        for k in 1..=replay.len() {
            replay.seek(&mut step, k);
            if let Some(TraceEvent::TtProbe {
                hit: true,
                cutoff: false,
                entry: Some(entry),
                ..
            }) = replay.event_at(k)
            {
                let node = step.current().unwrap();
                if node.beta - node.alpha > 1 && entry.depth >= node.depth.max(0) {
                    let text = caption(&replay, &step);
                    assert!(
                        text.contains("principal-variation search does not take"),
                        "{text}"
                    );
                    assert!(!text.contains("plies this node"), "{text}");
                    seen += 1;
                }
            }
        }
    }
    assert!(seen > 0);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// The tree view's tree has a node for every node the search entered,
    /// and each node's value and bound are what the replay shows at its
    /// return; the outline lists every node once.
    #[test]
    fn the_tree_has_the_records_nodes_and_values(
        choices in proptest::collection::vec(any::<u16>(), 0..40),
        depth in 1u32..=3,
        alpha_beta in any::<bool>(),
        table in any::<bool>(),
        quiescence in any::<bool>(),
        deepening in any::<bool>(),
        pvs in any::<bool>(),
    ) {
        let position = random_position(&choices);
        prop_assume!(!position.legal_moves().is_empty());
        let options = SearchOptions {
            alpha_beta,
            transposition_table: table,
            quiescence,
            iterative_deepening: deepening,
            pvs,
            ..SearchOptions::textbook()
        };
        let recording = teach::record(&setup(&position, depth, options), teach::MAX_EVENTS, &never);
        prop_assume!(recording.is_ok());
        let replay = Replay::new(recording.unwrap());
        let tree = &replay.tree;
        let entered = replay
            .events()
            .iter()
            .filter(|e| matches!(e, TraceEvent::EnterNode { .. }))
            .count();
        prop_assert_eq!(tree.len(), entered);
        let totals = &replay.recording.stats.totals;
        prop_assert_eq!(tree.len() as u64, totals.main + totals.quiescence);
        for (id, node) in tree.nodes.iter().enumerate() {
            let end = node.end.expect("every node of a finished search returns") as usize;
            let TraceEvent::Return { value, .. } = replay.events()[end] else {
                panic!("node {id} ends on {:?}", replay.events()[end]);
            };
            let (tree_value, bound) = node.value.expect("a returned node has its value");
            prop_assert_eq!(tree_value, value);
            // The replay of a step costs up to a snapshot's worth of events:
            // 64 nodes spread over the tree are compared with it.
            if id % tree.len().div_ceil(64) != 0 {
                continue;
            }
            let step = replay.step(end + 1);
            let frame = step.current().expect("the node is on the step of its return");
            prop_assert_eq!(frame.returned, Some(value));
            prop_assert_eq!(frame.ply, node.ply);
            prop_assert_eq!(frame.value_bound(value, alpha_beta), bound);
            prop_assert_eq!(tree.current(end + 1), Some(id as u32));
        }
        let last_root = *tree.roots.last().expect("a root");
        prop_assert_eq!(tree.node(last_root).value.map(|(v, _)| v), Some(replay.recording.value));
        let rows = tree.rows(usize::MAX, &|_| true);
        let nodes = rows.iter().filter(|r| matches!(r, kibitz::teach::tree::Row::Node(_))).count();
        prop_assert_eq!(nodes, tree.len());
        // Subtree sizes add up: a node is 1 plus its children, and the
        // roots (one per iteration) hold every node of the record.
        for node in &tree.nodes {
            let children: u32 = node.children.iter().map(|&c| tree.node(c).size).sum();
            prop_assert_eq!(node.size, 1 + children);
        }
        let roots: u32 = tree.roots.iter().map(|&r| tree.node(r).size).sum();
        prop_assert_eq!(roots as usize, tree.len());
        // Every move a cutoff skipped is named, none twice, none searched
        // or pruned at the node, each legal there.
        for (id, node) in tree.nodes.iter().enumerate() {
            let id = id as u32;
            let cut = tree.cut_off(id);
            prop_assert_eq!(cut.len() as u32, node.cutoff.map_or(0, |(_, _, n)| n));
            let position = tree.position(id);
            for (i, m) in cut.iter().enumerate() {
                prop_assert!(position.is_legal(*m), "{:?}", m);
                prop_assert!(!cut[..i].contains(m));
                prop_assert!(!tree.pruned(id).iter().any(|p| p.mv == *m));
                prop_assert!(!node.children.iter().any(|&c| tree.node(c).via == kibitz::teach::Via::Move(*m)));
            }
        }
    }
}

/// When the best move at the root changes, the caption says which move it
/// beats and why the place changes hands.
#[test]
fn a_new_best_root_move_says_what_it_beats() {
    let position = parse_fen("8/8/8/4k3/8/4K3/4P3/8 w - - 0 1").unwrap();
    let replay = replay_of(&position, 2, SearchOptions::textbook());
    let raises: Vec<usize> = replay
        .events()
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, TraceEvent::AlphaRaised { ply: 0, .. }))
        .map(|(i, _)| i + 1)
        .collect();
    assert!(raises.len() >= 2, "{raises:?}");
    let first = caption(&replay, &replay.step(raises[0]));
    assert!(first.contains("the first move searched fully"), "{first}");
    let second = caption(&replay, &replay.step(raises[1]));
    assert!(
        second.contains("New best move at the root: Kf3")
            && second.contains("It beats Kd3, the best until now at +0.91"),
        "{second}"
    );
}

/// The outline's letters and marks say what is true of every node, under
/// every set of switches: `P` only where the value fell strictly inside the
/// window the node was entered with (the one the outline shows), never
/// beside "cut by" (under the selective search a move can reach a beta
/// that mate-distance pruning narrowed); a node whose position is
/// checkmate or stalemate says so whatever ended it; a node that failed
/// low with more than any of its moves scored shows the futility bound.
#[test]
fn the_tree_letters_and_marks_are_true_under_every_switch() {
    use kibitz::teach::tree::{Row, Values};
    let mut options = Vec::new();
    for (pvs, selective, deepening) in [
        (false, false, false),
        (true, true, true),
        (false, true, false),
        (true, false, true),
    ] {
        options.push(SearchOptions {
            pvs,
            selective,
            iterative_deepening: deepening,
            ..SearchOptions::textbook()
        });
    }
    let mut positions: Vec<Chess> = positions().into_iter().map(|p| p.position).collect();
    let mut seed = 0x9e37_79b9_u32;
    for _ in 0..12 {
        let choices: Vec<u16> = (0..24)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                (seed % 997) as u16
            })
            .collect();
        positions.push(random_position(&choices));
    }
    // Endings where the selective search meets mates and stalemates.
    for fen in [
        "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",
        "k7/8/1K6/8/8/8/8/2R5 w - - 0 1",
        "8/8/8/8/8/5k2/5p2/5K2 b - - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    ] {
        positions.push(parse_fen(fen).unwrap());
    }
    let (mut pv_nodes, mut game_over, mut futility) = (0, 0, 0);
    for position in positions.iter().filter(|p| !p.legal_moves().is_empty()) {
        for &o in &options {
            let replay = replay_of(position, 3, o);
            let tree = &replay.tree;
            let pv = tree.best_line(usize::MAX);
            for (i, node) in tree.nodes.iter().enumerate() {
                let id = i as u32;
                let Some((value, bound)) = node.value else {
                    continue;
                };
                let row = tree.row_text(Row::Node(id), usize::MAX, Values::Negamax, &pv);
                let line = row.line();
                let (alpha, beta) = (node.alpha, node.beta);
                if row.kind == 'P' {
                    pv_nodes += 1;
                    assert!(
                        alpha < value && value < beta && bound == teach::replay::Bound::Exact,
                        "P outside its window [{alpha}, {beta}]: {line}"
                    );
                    assert!(!row.marks.contains("cut by"), "P beside a cutoff: {line}");
                }
                let at = tree.position(id);
                if at.legal_moves().is_empty() {
                    game_over += 1;
                    let what = if at.is_check() {
                        "checkmate"
                    } else {
                        "stalemate"
                    };
                    assert!(row.marks.contains(what), "{what} unmarked: {line}");
                }
                // Failed low above every move it searched: the futility bound.
                let best_child = node
                    .children
                    .iter()
                    .filter(|&&c| matches!(tree.node(c).via, Via::Move(_)))
                    .filter_map(|&c| tree.node(c).value.map(|(v, _)| -v))
                    .max();
                // (A quiescence node's floor is its stand-pat value.)
                if row.kind == 'A'
                    && !node.quiescence
                    && !node.children.is_empty()
                    && best_child.is_some_and(|best| best < value)
                {
                    futility += 1;
                    assert!(
                        row.marks.contains("futility"),
                        "an all node above its moves, unexplained: {line}"
                    );
                }
            }
        }
    }
    assert!(pv_nodes > 100, "{pv_nodes} P nodes");
    assert!(game_over > 0, "no mate or stalemate met");
    assert!(futility > 0, "no futility bound met");
}

#[test]
fn the_root_caption_says_what_is_known_with_and_without_deepening() {
    let p = curated("fork");
    let root_captions = |options: SearchOptions| -> Vec<String> {
        let replay = replay_of(&p.position, 3, options);
        (1..=replay.len())
            .filter(|&at| {
                matches!(
                    replay.event_at(at),
                    Some(TraceEvent::EnterNode { ply: 0, .. })
                )
            })
            .map(|at| caption(&replay, &replay.step(at)))
            .collect()
    };
    // One search: nothing earlier is known, and aspiration windows are
    // not the reason for anything.
    let one = root_captions(SearchOptions::textbook());
    assert_eq!(one.len(), 1);
    assert!(one[0].contains("Nothing is known yet"), "{}", one[0]);
    assert!(!one[0].contains("aspiration"), "{}", one[0]);
    assert!(!one[0].contains("previous iteration"), "{}", one[0]);
    // Deepening without aspiration windows: the later iterations say so.
    let deepening = root_captions(SearchOptions {
        iterative_deepening: true,
        ..SearchOptions::textbook()
    });
    assert_eq!(deepening.len(), 3);
    assert!(
        deepening[0].contains("Nothing is known yet"),
        "{}",
        deepening[0]
    );
    for later in &deepening[1..] {
        assert!(
            later.contains("without aspiration windows (they are off)"),
            "{later}"
        );
    }
}

#[test]
fn a_cutoff_at_exactly_beta_is_as_good_not_better() {
    let (mut equal, mut above) = (0, 0);
    for (p, replay) in curated_replays() {
        for at in 1..=replay.len() {
            let Some(&TraceEvent::BetaCutoff { value, .. }) = replay.event_at(at) else {
                continue;
            };
            let step = replay.step(at);
            let beta = step.current().unwrap().beta;
            let words = caption(&replay, &step);
            if value == beta {
                equal += 1;
                assert!(!words.contains("better"), "{}: {words}", p.name);
                assert!(words.contains("exactly beta"), "{}: {words}", p.name);
            } else {
                above += 1;
                assert!(words.contains("above beta"), "{}: {words}", p.name);
            }
        }
    }
    assert!(equal > 0 && above > 0, "{equal} at beta, {above} above");
}

#[test]
fn a_mate_is_never_worth_a_side() {
    let mut mates = 0;
    for (p, replay) in curated_replays() {
        for at in 1..=replay.len() {
            let words = caption(&replay, &replay.step(at));
            for side in ["White", "Black"] {
                assert!(
                    !words.contains(&format!("worth {side}")),
                    "{}: {words}",
                    p.name
                );
                assert!(
                    !words.contains(&format!("returns {side}")),
                    "{}: {words}",
                    p.name
                );
            }
            mates += usize::from(words.contains("a mate ("));
        }
    }
    assert!(mates > 0);
}
