//! The Engine API as a front end uses it: commands in, reports out, every
//! search ends with a legal best move, stale searches are told apart by id.
#![allow(clippy::unwrap_used)]

mod common;

use std::time::Duration;

use kibitz::engine::{Command, Engine, GoRequest, Limits, MoveSource, Report, SearchOptions};
use kibitz::game::notation::parse_uci;
use shakmaty::{Chess, Position};

fn go(id: u64, position: &Chess, limits: Limits) -> Command {
    Command::Go(Box::new(GoRequest {
        search_id: id,
        position: position.clone(),
        history: Vec::new(),
        limits,
        options: SearchOptions::default(),
        level: kibitz::engine::level::Level::default(),
        book: false,
        received: std::time::Instant::now(),
    }))
}

fn infinite() -> Limits {
    Limits {
        infinite: true,
        ..Limits::default()
    }
}

/// Reports until the best move of `id`; returns (infos of `id`, best move report).
fn wait_best(engine: &Engine, id: u64) -> (Vec<Report>, Report) {
    let mut infos = Vec::new();
    loop {
        let report = engine
            .reports()
            .recv_timeout(Duration::from_secs(30))
            .expect("a report");
        match &report {
            Report::BestMove { search_id, .. } if *search_id == id => return (infos, report),
            Report::Info(info) if info.search_id == id => infos.push(report),
            _ => {}
        }
    }
}

#[test]
fn a_stopped_search_still_ends_with_a_legal_move() {
    let engine = Engine::new(8).unwrap();
    let position = Chess::default();
    engine.send(go(1, &position, infinite()));
    engine.send(Command::Stop);
    let (_, best) = wait_best(&engine, 1);
    let Report::BestMove {
        best_move, source, ..
    } = best
    else {
        unreachable!()
    };
    assert!(position.is_legal(best_move.unwrap()));
    assert_eq!(source, MoveSource::Search);
}

#[test]
fn a_new_search_stops_the_old_one_and_reports_carry_their_id() {
    let engine = Engine::new(8).unwrap();
    let position = Chess::default();
    engine.send(go(1, &position, infinite()));
    std::thread::sleep(Duration::from_millis(100));
    let after_e4 = {
        let mut p = position.clone();
        p.play_unchecked(parse_uci(&p, "e2e4").unwrap());
        p
    };
    engine.send(go(2, &after_e4, Limits::depth(6)));
    // The first search ends (it was stopped) before the second reports its best move.
    let (_, first) = wait_best(&engine, 1);
    assert_eq!(first.search_id(), 1);
    let (infos, second) = wait_best(&engine, 2);
    let Report::BestMove {
        best_move, depth, ..
    } = second
    else {
        unreachable!()
    };
    assert!(after_e4.is_legal(best_move.unwrap()));
    assert_eq!(depth, 6);
    // One finished line per iteration, depth 1 to 6.
    let depths: Vec<u32> = infos
        .iter()
        .filter_map(|r| match r {
            Report::Info(i) if i.complete && i.bound == kibitz::engine::Bound::Exact => {
                Some(i.depth)
            }
            _ => None,
        })
        .collect();
    assert_eq!(depths, [1, 2, 3, 4, 5, 6]);
}

#[test]
fn long_iterations_send_heartbeats() {
    let engine = Engine::new(8).unwrap();
    let position = Chess::default();
    engine.send(go(
        7,
        &position,
        Limits {
            movetime: Some(Duration::from_millis(1500)),
            ..Limits::default()
        },
    ));
    let (infos, _) = wait_best(&engine, 7);
    let times: Vec<Duration> = infos
        .iter()
        .map(|r| match r {
            Report::Info(i) => i.elapsed,
            _ => unreachable!(),
        })
        .collect();
    // No silence longer than the 200 ms heartbeat (plus scheduling slack).
    let gaps = times.windows(2).map(|w| w[1].saturating_sub(w[0]));
    assert!(
        gaps.clone().all(|g| g < Duration::from_millis(400)),
        "{:?}",
        gaps.collect::<Vec<_>>()
    );
    assert!(times.last().unwrap() > &Duration::from_millis(1200));
}

fn best_and_score(request: GoRequest) -> (Option<shakmaty::Move>, kibitz::engine::Score) {
    let engine = Engine::new(8).unwrap();
    let id = request.search_id;
    engine.send(Command::Go(Box::new(request)));
    let (_, best) = wait_best(&engine, id);
    let Report::BestMove {
        best_move, score, ..
    } = best
    else {
        unreachable!()
    };
    (best_move, score)
}

#[test]
fn a_third_time_with_the_game_history_is_a_draw_and_a_second_is_not() {
    // Black is a queen down. 1... Kd8 reaches a position the game already
    // saw: if it saw it twice, that is the third time, a draw by
    // repetition, which the losing side takes.
    let position = kibitz::game::fen::parse_fen("4k3/8/8/8/8/8/8/Q3K3 b - - 10 60").unwrap();
    let after_kd8 = kibitz::game::fen::parse_fen("3k4/8/8/8/8/8/8/Q3K3 w - - 11 61").unwrap();
    let seen = kibitz::engine::position_key(&after_kd8);
    let request = |history: Vec<u64>| GoRequest {
        search_id: 1,
        position: position.clone(),
        history,
        limits: Limits::depth(4),
        options: SearchOptions::default(),
        level: kibitz::engine::level::Level::default(),
        book: false,
        received: std::time::Instant::now(),
    };
    // Eight and four plies back (the same side to move).
    let (best, score) = best_and_score(request(vec![seen, 1, 2, 3, seen, 5, 6]));
    assert_eq!(
        best.map(kibitz::game::notation::uci).as_deref(),
        Some("e8d8")
    );
    assert_eq!(score, kibitz::engine::Score::Centipawns(0));
    // Seen once, four plies back, Kd8 would be its second time: no draw,
    // and White plays on. The position is lost, and the score says so.
    // (The network values a bare queen ending at some four or five pawns,
    // not more: self-play games are adjudicated before they reach one, so
    // it has seen few. Clearly lost is what matters here.)
    let (_, score) = best_and_score(request(vec![seen, 1, 2]));
    assert!(
        matches!(score, kibitz::engine::Score::Centipawns(cp) if cp < -300),
        "{score:?}"
    );
    // And without that history, the same.
    let (_, score) = best_and_score(request(vec![1, 2, 3]));
    assert!(
        matches!(score, kibitz::engine::Score::Centipawns(cp) if cp < -300),
        "{score:?}"
    );
}

#[test]
fn a_perpetual_check_found_in_the_search_is_a_draw() {
    // White is a queen and a rook down, but Qh5+ Kg8 Qe8+ Kh7 Qh5+ ...
    // goes round for ever: the search meets its own line's position again
    // and scores the repetition as the draw it will be.
    let request = GoRequest {
        search_id: 1,
        position: kibitz::game::fen::parse_fen("7k/6p1/8/8/3q4/r7/4Q1PP/7K w - - 0 1").unwrap(),
        history: Vec::new(),
        limits: Limits::depth(8),
        options: SearchOptions::default(),
        level: kibitz::engine::level::Level::default(),
        book: false,
        received: std::time::Instant::now(),
    };
    let (best, score) = best_and_score(request);
    let best = best.map(kibitz::game::notation::uci);
    assert!(matches!(best.as_deref(), Some("e2h5" | "e2e8")), "{best:?}");
    assert_eq!(score, kibitz::engine::Score::Centipawns(0));
}

#[test]
fn the_fifty_move_rule_is_a_draw() {
    // A queen up, but the 100th half-move without capture or pawn move is
    // about to be played and no move mates.
    let request = |fen: &str| GoRequest {
        search_id: 1,
        position: kibitz::game::fen::parse_fen(fen).unwrap(),
        history: Vec::new(),
        limits: Limits::depth(4),
        options: SearchOptions::default(),
        level: kibitz::engine::level::Level::default(),
        book: false,
        received: std::time::Instant::now(),
    };
    let (_, score) = best_and_score(request("4k3/8/8/8/8/8/8/Q3K3 w - - 99 80"));
    assert_eq!(score, kibitz::engine::Score::Centipawns(0));
    // The same position with the count at zero: clearly won (see above
    // for why the network says some four or five pawns).
    let (_, score) = best_and_score(request("4k3/8/8/8/8/8/8/Q3K3 w - - 0 80"));
    assert!(
        matches!(score, kibitz::engine::Score::Centipawns(cp) if cp > 300),
        "{score:?}"
    );
}

#[test]
fn no_legal_move_gives_no_best_move() {
    let engine = Engine::new(8).unwrap();
    let mated = kibitz::game::fen::parse_fen(
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    )
    .unwrap();
    engine.send(go(3, &mated, Limits::depth(5)));
    let (_, best) = wait_best(&engine, 3);
    let Report::BestMove {
        best_move, source, ..
    } = best
    else {
        unreachable!()
    };
    assert_eq!(best_move, None);
    assert_eq!(source, MoveSource::NoMove);
}

#[test]
fn every_level_plays_legal_moves_and_takes_a_mate_in_one() {
    use kibitz::engine::level::Level;
    // White mates with Qh7# (the queen is guarded by the knight on g5); any
    // other move lets Black live. Every level's choice cap is far below a
    // mate's value, so even the beginner takes it.
    let mate =
        kibitz::game::fen::parse_fen("r1b2rk1/pp3ppp/2n5/6N1/8/3Q4/PPP2PPP/R3K2R w KQ - 0 1")
            .unwrap();
    let engine = Engine::new(16).unwrap();
    for (id, level) in (1..=10).filter_map(Level::new).enumerate() {
        let id = id as u64 + 1;
        let request = GoRequest {
            search_id: id,
            position: mate.clone(),
            history: Vec::new(),
            limits: Limits {
                movetime: Some(Duration::from_millis(500)),
                ..Limits::default()
            },
            options: SearchOptions::default(),
            level,
            book: false,
            received: std::time::Instant::now(),
        };
        engine.send(Command::Go(Box::new(request)));
        let (_, best) = wait_best(&engine, id);
        let Report::BestMove { best_move, .. } = best else {
            unreachable!()
        };
        assert_eq!(
            best_move.map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string()),
            Some("d3h7".to_string()),
            "level {}",
            level.get()
        );
    }
}

#[test]
fn the_engine_answers_from_its_book_when_allowed() {
    use kibitz::book::{BookOptions, Policy, default_book};
    use std::sync::Arc;
    let engine = Engine::new(16).unwrap();
    let book = Arc::new(default_book().unwrap());
    engine.send(Command::SetBook {
        book: Some(Arc::clone(&book)),
        options: BookOptions {
            policy: Policy::Best,
            max_plies: 24,
        },
    });
    let start = Chess::default();
    let request = |id: u64, use_book: bool, position: &Chess| {
        let limits = Limits {
            movetime: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        let mut command = go(id, position, limits);
        if let Command::Go(request) = &mut command {
            request.book = use_book;
        }
        command
    };
    engine.send(request(1, true, &start));
    let (infos, best) = wait_best(&engine, 1);
    let Report::BestMove {
        best_move,
        source,
        depth,
        ..
    } = best
    else {
        unreachable!()
    };
    let expected = book.probe(&start).moves[0];
    assert_eq!(best_move, Some(expected.m), "the best-weighted move");
    assert_eq!(
        source,
        MoveSource::Book {
            weight: expected.weight,
            total: book.probe(&start).moves.iter().map(|b| b.weight).sum()
        }
    );
    assert!(
        infos.is_empty() && depth == 0,
        "no search behind a book move"
    );
    // A depth limit asks for a search, book or not.
    let mut deep = go(4, &start, Limits::depth(3));
    if let Command::Go(request) = &mut deep {
        request.book = true;
    }
    engine.send(deep);
    let (_, best) = wait_best(&engine, 4);
    assert!(matches!(
        best,
        Report::BestMove {
            source: MoveSource::Search,
            ..
        }
    ));
    // Not allowed (analysis): the engine searches.
    engine.send(request(2, false, &start));
    let (_, best) = wait_best(&engine, 2);
    assert!(matches!(
        best,
        Report::BestMove {
            source: MoveSource::Search,
            ..
        }
    ));
    // Out of book: searches.
    let odd = parse_fen_or_panic("rnbqkbnr/pppppppp/8/8/8/7P/PPPPPPP1/RNBQKBNR b KQkq - 0 1");
    engine.send(request(3, true, &odd));
    let (_, best) = wait_best(&engine, 3);
    assert!(matches!(
        best,
        Report::BestMove {
            source: MoveSource::Search,
            ..
        }
    ));
}

fn parse_fen_or_panic(fen: &str) -> Chess {
    kibitz::game::fen::parse_fen(fen).unwrap()
}

/// Below full strength a level may play another move than its best line;
/// the panel sets the two side by side, so the last exact first line a
/// search reports must be at least as good for the side to move as the
/// move it plays (both from the same iteration).
#[test]
fn a_weaker_levels_move_is_never_better_than_the_best_line_it_reports() {
    use kibitz::engine::level::Level;
    use kibitz::text::score_rank;
    let suite = std::fs::read_to_string(common::testdata("epd/bratko-kopec.epd")).unwrap();
    let engine = Engine::new(16).unwrap();
    let mut id = 0;
    for record in suite.lines().take(12) {
        let fen: Vec<&str> = record.split_whitespace().take(4).collect();
        let position = kibitz::game::fen::parse_fen(&format!("{} 0 1", fen.join(" "))).unwrap();
        for level in [2, 3, 5].into_iter().filter_map(Level::new) {
            id += 1;
            engine.send(Command::Go(Box::new(GoRequest {
                search_id: id,
                position: position.clone(),
                history: Vec::new(),
                limits: Limits {
                    movetime: Some(Duration::from_millis(60)),
                    ..Limits::default()
                },
                options: SearchOptions::default(),
                level,
                book: false,
                received: std::time::Instant::now(),
            })));
            let (infos, best) = wait_best(&engine, id);
            let Report::BestMove { score, .. } = best else {
                unreachable!()
            };
            let line = infos.iter().rev().find_map(|r| match r {
                Report::Info(i)
                    if i.multipv == 1 && i.complete && i.bound == kibitz::engine::Bound::Exact =>
                {
                    Some(i.score)
                }
                _ => None,
            });
            let Some(line) = line else { continue };
            assert!(
                score_rank(line) >= score_rank(score),
                "{record}: level {} played {score:?} beside a best line of {line:?}",
                level.get()
            );
        }
    }
}

/// Lazy SMP through the front ends' door: with two threads the answer is
/// still a legal move with a legal line, reported by the main thread alone;
/// `nodes` counts both threads, the statistics the main thread's tree.
#[test]
fn two_threads_answer_with_a_legal_move_and_line() {
    let engine = Engine::new(16).unwrap();
    engine.send(Command::SetThreads(2));
    let position =
        parse_fen_or_panic("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8");
    engine.send(go(1, &position, Limits::depth(9)));
    let mut main_thread_nodes = None;
    let mut helpers = None;
    let mut last_line = None;
    let (best_move, nodes, depth) = loop {
        let report = engine
            .reports()
            .recv_timeout(Duration::from_secs(60))
            .expect("a report");
        match report {
            Report::Info(info) if info.complete => last_line = Some(info.pv.clone()),
            Report::Stats {
                stats, done: true, ..
            } => {
                main_thread_nodes = Some(stats.nodes());
                helpers = Some(stats.helper_threads);
            }
            Report::BestMove {
                best_move,
                nodes,
                depth,
                ..
            } => break (best_move.unwrap(), nodes, depth),
            _ => {}
        }
    };
    assert_eq!(depth, 9);
    assert!(position.is_legal(best_move));
    let pv = last_line.expect("a finished line");
    assert_eq!(pv.first(), Some(&best_move));
    let mut walk = position.clone();
    for m in &pv {
        assert!(walk.is_legal(*m), "{m:?} in {pv:?}");
        walk.play_unchecked(*m);
    }
    assert_eq!(helpers, Some(1));
    assert!(
        nodes > main_thread_nodes.unwrap(),
        "the helper's nodes are counted: {nodes} vs {main_thread_nodes:?}"
    );
}

/// The strength levels were measured on one thread and must play as they
/// were measured: asking for more threads changes nothing below the top
/// level (a level's node count is the same with 1 and with 4 threads).
#[test]
fn weaker_levels_stay_on_one_thread() {
    let nodes_with = |threads: usize| {
        let engine = Engine::new(8).unwrap();
        engine.send(Command::SetThreads(threads));
        let Command::Go(mut request) = go(1, &Chess::default(), Limits::default()) else {
            unreachable!()
        };
        request.level = kibitz::engine::level::Level::new(3).unwrap();
        engine.send(Command::Go(request));
        let (_, best) = wait_best(&engine, 1);
        let Report::BestMove { nodes, .. } = best else {
            unreachable!()
        };
        nodes
    };
    assert_eq!(nodes_with(1), nodes_with(4));
}

/// Positions where both sides can trade evenly all over the board: the
/// quiescence search once tried every order of every trade (the 32-rook
/// position took 16 M nodes for one ply and never finished two). Each must
/// finish a three-ply search well inside a node budget; the budget is
/// also the search's limit, so a search that explodes ends short of depth 3
/// instead of running on.
#[test]
fn many_equal_captures_finish_a_small_depth_within_a_node_budget() {
    const BUDGET: u64 = 1_500_000;
    for fen in [
        "rnbqkbnr/rrrrrrrr/8/8/8/8/RRRRRRRR/RNBQKBNR w KQkq - 0 1",
        "r1bqkb1r/rrrrrrrr/8/8/8/8/RRRRRRRR/R1BQKB1R b KQkq - 0 1",
        "k7/rrrrrrrr/8/8/8/8/RRRRRRRR/K7 w - - 0 1",
        "rnbqkbnr/8/qqqqqqqq/QQQQQQQQ/8/8/8/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/8/bnbnbnbn/NBNBNBNB/8/8/8/RNBQKBNR w KQkq - 0 1",
    ] {
        let position = parse_fen_or_panic(fen);
        let limits = Limits {
            depth: Some(3),
            nodes: Some(BUDGET),
            ..Limits::default()
        };
        let result = common::search(&position, &limits, SearchOptions::default());
        assert_eq!(
            result.depth, 3,
            "{fen}: depth 3 not finished within {BUDGET} nodes"
        );
        assert!(result.nodes < BUDGET, "{fen}: {} nodes", result.nodes);
        assert!(result.best_move.is_some(), "{fen}");
    }
}

/// Black's only legal move, 1... Nxf7, loses the queen to 2. Ne6 (Stockfish:
/// +4.31 for White). A two-ply look sees only the piece won.
const ONE_LEGAL_MOVE: &str = "r1bqkb1r/pppnpB1p/3p2pn/6N1/4P3/8/PPPP1PPP/RNBQK2R b KQkq - 0 5";

/// Where the score is what the search is for (`kibitz analyze --movetime`,
/// a review's evaluations, UCI `go movetime`), a lone legal move is
/// searched like any other: it once stopped at depth 2 with -1.86.
#[test]
fn a_lone_legal_move_is_scored_by_a_real_search_when_analysing() {
    let position = parse_fen_or_panic(ONE_LEGAL_MOVE);
    assert_eq!(position.legal_moves().len(), 1);
    let limits = Limits {
        movetime: Some(Duration::from_millis(500)),
        ..Limits::default()
    };
    let result = common::search(&position, &limits, SearchOptions::default());
    assert!(result.depth > 2, "depth {}", result.depth);
    // Black's view: White is more than two pawns up.
    let kibitz::engine::Score::Centipawns(cp) = result.score else {
        panic!("{:?}", result.score)
    };
    assert!(cp < -200, "Black's score {cp}");
}

/// In a game (a clock, or the play mode's untimed move) the lone move is
/// still played after a quick look: the time is better kept.
#[test]
fn a_lone_legal_move_in_a_game_is_played_at_once() {
    let position = parse_fen_or_panic(ONE_LEGAL_MOVE);
    let clock = Limits {
        white_time: Some(Duration::from_secs(60)),
        black_time: Some(Duration::from_secs(60)),
        ..Limits::default()
    };
    let untimed = Limits {
        movetime: Some(Duration::from_secs(3)),
        game_move: true,
        ..Limits::default()
    };
    for limits in [clock, untimed] {
        let result = common::search(&position, &limits, SearchOptions::default());
        // A fixed, short depth (not the whole budget), and a score that is
        // true enough to show: White is winning (Black to move).
        assert_eq!(result.depth, 10, "{limits:?}");
        assert!(result.best_move.is_some());
        let kibitz::engine::Score::Centipawns(cp) = result.score else {
            panic!("{:?}", result.score)
        };
        assert!(cp < -200, "Black's score {cp}");
    }
}

/// A search stopped by its node budget in the middle of an iteration may
/// answer with that iteration's best line so far, a lower bound: the depth
/// beside the score is then that iteration's, as in the last line reported
/// (not the last finished depth, whose search never gave this score).
#[test]
fn a_bound_from_an_iteration_cut_short_names_that_iterations_depth() {
    let engine = Engine::new(8).unwrap();
    let position = Chess::default();
    let mut bounds = 0;
    for (id, nodes) in (1..).zip((4_000..60_000).step_by(4_000)) {
        engine.send(Command::NewGame);
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        engine.send(go(id, &position, limits));
        let (infos, best) = wait_best(&engine, id);
        let Report::BestMove {
            score,
            bound,
            depth,
            ..
        } = best
        else {
            unreachable!()
        };
        let Some(Report::Info(last)) = infos.last() else {
            panic!("{nodes} nodes: no line reported");
        };
        assert_eq!((last.depth, last.score), (depth, score), "{nodes} nodes");
        assert_eq!(last.bound, bound, "{nodes} nodes");
        bounds += usize::from(bound != kibitz::engine::Bound::Exact);
    }
    assert!(bounds > 0, "no budget cut an iteration with a line found");
}
