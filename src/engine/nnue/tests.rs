//! Tests of `nnue.rs`.

use super::*;
use shakmaty::{Chess, Position, Role};

/// A network whose only weights make a white queen worth `value` for
/// White: one neuron of each view lights for "own queen", the output
/// reads it with opposite signs for the side to move and the other.
fn queen_counter() -> Network {
    let mut rows = zero_rows();
    for (square, bucket) in Square::ALL
        .into_iter()
        .flat_map(|s| (0..KING_BUCKETS).map(move |b| (s, b)))
    {
        let queen = input(
            Color::White,
            Piece {
                color: Color::White,
                role: Role::Queen,
            },
            square,
        );
        rows[feature(bucket, queen)][0] = QA as i16; // 1.0
    }
    let mut output = [0i16; 2 * HIDDEN];
    output[0] = QB as i16; // +1.0 for the side to move's own queen
    output[HIDDEN] = -(QB as i16);
    Network::from_parts(
        rows,
        [0; HIDDEN],
        Box::new([output; OUTPUT_BUCKETS]),
        [0; OUTPUT_BUCKETS],
    )
}

fn random_network(seed: u64) -> Network {
    let mut rng = crate::core::Rng::new(seed);
    let mut small = |_: usize| (rng.next_u64() % 61) as i16 - 30;
    // Every king bucket's rows differ, so a view made with the wrong
    // bucket's rows would show.
    let mut rows = zero_rows();
    for row in rows.iter_mut() {
        for w in row.iter_mut() {
            *w = small(0);
        }
    }
    let bias = std::array::from_fn(&mut small);
    let output = Box::new(std::array::from_fn(|_| std::array::from_fn(&mut small)));
    let output_bias = std::array::from_fn(|b| 77 - 11 * b as i32);
    Network::from_parts(rows, bias, output, output_bias)
}

/// A whole search with a network: every value the search takes from
/// the incremental sums is checked against sums made from nothing (the
/// check in `Stack::evaluate` under test), through null moves, captures,
/// castling, en passant and promotions in the tree.
#[test]
fn a_search_with_a_network_evaluates_every_node_as_from_nothing() {
    use crate::engine::heuristics::Heuristics;
    use crate::engine::search::{SearchContext, search};
    use crate::engine::trace::NoTrace;
    use crate::engine::tt::TranspositionTable;
    use crate::engine::{Limits, SearchOptions};
    let net = random_network(4);
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ] {
        let position: Chess = crate::game::fen::parse_fen(fen).unwrap();
        let tt = TranspositionTable::new(4);
        let mut heuristics = Box::<Heuristics>::default();
        let mut ignore = |_| {};
        let mut ctx = SearchContext {
            tt: &tt,
            heuristics: &mut heuristics,
            helpers: &mut [],
            stop: &|| false,
            on_info: &mut ignore,
            search_id: 0,
            clock_start: std::time::Instant::now(),
            tablebases: None,
            network: Some(&net),
        };
        let limits = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        let result = search(
            &position,
            &[],
            &limits,
            SearchOptions::default(),
            &mut ctx,
            &mut NoTrace,
        );
        assert!(result.best_move.is_some(), "{fen}");
        assert!(result.nodes > 1000, "{fen}: {}", result.nodes);
    }
}

/// Random networks: the incremental sums along random games equal the
/// sums made from nothing, for every kind of move.
#[test]
fn updating_the_sums_move_by_move_agrees_with_making_them_afresh() {
    let net = random_network(11);
    let starts = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "4k3/1P6/8/8/8/8/6p1/4K2R b K - 0 1",
    ];
    let mut kinds = [0usize; 5];
    let mut seed = 5u64;
    for fen in starts {
        for _ in 0..10 {
            let mut position: Chess = crate::game::fen::parse_fen(fen).unwrap();
            let mut stack = Stack::new(&net, position.board(), 40);
            for ply in 1..40 {
                let moves = position.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let m = moves[(seed >> 33) as usize % moves.len()];
                if Delta::of(position.turn(), m).moves_king_across_buckets() {
                    kinds[4] += 1;
                }
                kinds[match m {
                    Move::Castle { .. } => 0,
                    Move::EnPassant { .. } => 1,
                    Move::Normal {
                        promotion: Some(_), ..
                    } => 2,
                    _ => 3,
                }] += 1;
                stack.push(ply, Delta::of(position.turn(), m));
                position.play_unchecked(m);
                // Evaluate every third ply and about half the others, so that
                // updates chain over one to three moves.
                if ply % 3 == 0 || seed & (1 << 20) == 0 {
                    let turn = position.turn();
                    assert_eq!(
                        stack.evaluate(&net, ply, position.board(), turn),
                        net.evaluate(position.board(), turn),
                        "{fen} after {m:?}"
                    );
                }
            }
        }
    }
    assert!(
        kinds.iter().all(|&k| k > 0),
        "every kind of move (castling, en passant, promotion, other, a king to another bucket) was played: {kinds:?}"
    );
}

#[test]
fn the_shipped_network_reads_and_values_the_start_position_near_level() {
    let net = builtin().expect("assets/kibitz.nnue is a network this kibitz reads");
    let start = Chess::default();
    let value = net.evaluate(start.board(), Color::White);
    assert!((-10..=60).contains(&value), "{value}");
    // A queen up is far ahead for either side to move.
    let queen_up: Chess =
        crate::game::fen::parse_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            .unwrap();
    assert!(net.evaluate(queen_up.board(), Color::White) > 500);
    assert!(net.evaluate(queen_up.board(), Color::Black) < -500);
}

#[test]
fn inputs_are_the_same_for_either_side_seen_from_its_own_view() {
    let white_knight = Piece {
        color: Color::White,
        role: Role::Knight,
    };
    let black_knight = Piece {
        color: Color::Black,
        role: Role::Knight,
    };
    assert_eq!(
        input(Color::White, white_knight, Square::G1),
        input(Color::Black, black_knight, Square::G8)
    );
    assert_eq!(input(Color::White, white_knight, Square::A1), 64);
    assert_eq!(input(Color::Black, white_knight, Square::A1), 384 + 64 + 56);
    let king = Piece {
        color: Color::Black,
        role: Role::King,
    };
    assert_eq!(input(Color::White, king, Square::H8), 767);
}

#[test]
fn a_hand_made_network_counts_what_it_was_made_to() {
    let net = queen_counter();
    let white_queen: Chess = crate::game::fen::parse_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
    // White to move with its queen: +1.0 output = SCALE centipawns.
    assert_eq!(net.evaluate(white_queen.board(), Color::White), SCALE);
    assert_eq!(net.evaluate(white_queen.board(), Color::Black), -SCALE);
    let start = Chess::default();
    // Both sides have a queen: they cancel.
    assert_eq!(net.evaluate(start.board(), Color::White), 0);
}

#[test]
fn the_piece_count_chooses_the_output() {
    let buckets: Vec<usize> = [2, 5, 6, 9, 10, 29, 30, 32].map(output_bucket).into();
    assert_eq!(buckets, [0, 0, 1, 1, 2, 6, 7, 7]);
    // Two networks that differ only in the bias of the 3-piece bucket
    // disagree on a 3-piece board, by that bias, and nowhere else.
    let net = random_network(5);
    let mut biases = net.output_bias;
    biases[0] += QB; // +1.0 output: SCALE centipawns
    let other = Network::from_parts(net.rows.clone(), net.bias, net.output.clone(), biases);
    let three: Chess = crate::game::fen::parse_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
    let gap =
        other.evaluate(three.board(), Color::White) - net.evaluate(three.board(), Color::White);
    // Integer division may round the two values apart by one.
    assert!((SCALE - 1..=SCALE + 1).contains(&gap), "{gap}");
    let start = Chess::default();
    assert_eq!(
        other.evaluate(start.board(), Color::White),
        net.evaluate(start.board(), Color::White)
    );
}

/// The first layer with every king bucket's rows set to bucket 0's, as a
/// file without king buckets is read.
fn one_layer(net: &Network) -> Box<[[i16; HIDDEN]; ROWS]> {
    let mut rows = net.rows.clone();
    let (first, rest) = rows.split_at_mut(INPUTS);
    for bucket in rest.chunks_mut(INPUTS) {
        bucket.copy_from_slice(first);
    }
    rows
}

#[test]
fn each_view_chooses_its_rows_by_where_its_own_king_stands() {
    use Square::*;
    let white: Vec<usize> = [B1, D1, E1, G1, H2, C4, A8, H8]
        .map(|s| king_bucket(Color::White, s))
        .into();
    assert_eq!(white, [0, 2, 3, 1, 5, 6, 6, 7]);
    // Black's king is seen from Black's side: g8 is its g1.
    let black: Vec<usize> = [G8, E8, D7, A1]
        .map(|s| king_bucket(Color::Black, s))
        .into();
    assert_eq!(black, [1, 3, 4, 6]);
    // A network whose rows count a white queen only in one bucket sees it
    // only with White's king there.
    let mut rows = zero_rows();
    let queen = Piece {
        color: Color::White,
        role: Role::Queen,
    };
    for square in Square::ALL {
        rows[feature(1, input(Color::White, queen, square))][0] = QA as i16;
    }
    let mut output = [0i16; 2 * HIDDEN];
    output[0] = QB as i16;
    let net = Network::from_parts(
        rows,
        [0; HIDDEN],
        Box::new([output; OUTPUT_BUCKETS]),
        [0; OUTPUT_BUCKETS],
    );
    let castled: Chess = crate::game::fen::parse_fen("4k3/8/8/8/8/8/8/3Q2K1 w - - 0 1").unwrap();
    let central: Chess = crate::game::fen::parse_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
    assert_eq!(net.evaluate(castled.board(), Color::White), SCALE);
    assert_eq!(net.evaluate(central.board(), Color::White), 0);
}

/// A format-3 file (output buckets, one first layer: the sixth shipped
/// network's) is read with its first layer serving every king bucket.
#[test]
fn a_file_without_king_buckets_is_read_for_every_bucket() {
    let net = random_network(7);
    let mut old = Vec::new();
    old.extend_from_slice(MAGIC);
    old.extend_from_slice(&VERSION_ONE_LAYER.to_le_bytes());
    old.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
    old.extend_from_slice(&(OUTPUT_BUCKETS as u32).to_le_bytes());
    let weights = net.rows[..INPUTS]
        .iter()
        .flatten()
        .chain(&net.bias)
        .chain(net.output.iter().flatten());
    for w in weights {
        old.extend_from_slice(&w.to_le_bytes());
    }
    for b in &net.output_bias {
        old.extend_from_slice(&b.to_le_bytes());
    }
    let sum = checksum(&old);
    old.extend_from_slice(&sum.to_le_bytes());
    assert_eq!(old.len(), file_bytes(INPUTS, OUTPUT_BUCKETS, 16));
    let read = Network::from_bytes(&old).unwrap();
    let same = Network::from_parts(
        one_layer(&net),
        net.bias,
        net.output.clone(),
        net.output_bias,
    );
    assert_eq!(read.to_bytes(), same.to_bytes());
}

/// A format-2 file (one output, as the first shipped network was
/// written) is read with its output serving every bucket.
#[test]
fn a_one_output_file_is_read_for_every_bucket() {
    let net = random_network(6);
    let mut old = Vec::new();
    old.extend_from_slice(MAGIC);
    old.extend_from_slice(&VERSION_ONE_OUTPUT.to_le_bytes());
    old.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
    for w in net.rows[..INPUTS]
        .iter()
        .flatten()
        .chain(&net.bias)
        .chain(&net.output[2])
    {
        old.extend_from_slice(&w.to_le_bytes());
    }
    old.extend_from_slice(&net.output_bias[2].to_le_bytes());
    let sum = checksum(&old);
    old.extend_from_slice(&sum.to_le_bytes());
    assert_eq!(old.len(), FILE_BYTES_ONE_OUTPUT);
    let read = Network::from_bytes(&old).unwrap();
    let same = Network::from_parts(
        one_layer(&net),
        net.bias,
        Box::new([net.output[2]; OUTPUT_BUCKETS]),
        [net.output_bias[2]; OUTPUT_BUCKETS],
    );
    assert_eq!(read.to_bytes(), same.to_bytes());
    assert!(builtin().is_some(), "the shipped network reads");
}

#[test]
fn a_network_survives_its_file_and_a_damaged_file_is_refused() {
    let net = queen_counter();
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), FILE_BYTES);
    let again = Network::from_bytes(&bytes).unwrap();
    assert_eq!(again.to_bytes(), bytes);
    let mut damaged = bytes.clone();
    damaged[100] ^= 1;
    assert_eq!(
        Network::from_bytes(&damaged).err(),
        Some(NetworkError::Checksum)
    );
    assert_eq!(
        Network::from_bytes(&bytes[..bytes.len() - 1]).err(),
        Some(NetworkError::Size(FILE_BYTES - 1, FILE_BYTES))
    );
    assert_eq!(
        Network::from_bytes(b"PK\x03\x04").err(),
        Some(NetworkError::NotANetwork)
    );
    assert_eq!(Network::from_bytes(b"").err(), Some(NetworkError::Empty));
    for cut in [2, 4, 10] {
        assert_eq!(
            Network::from_bytes(&bytes[..cut]).err(),
            Some(NetworkError::Size(cut, FILE_BYTES)),
            "cut after {cut} bytes"
        );
    }
    let mut other = bytes.clone();
    other[8] = 0;
    assert_eq!(
        Network::from_bytes(&other).err(),
        Some(NetworkError::Hidden(0))
    );
    let mut other = bytes.clone();
    other[12] = 1;
    assert_eq!(
        Network::from_bytes(&other).err(),
        Some(NetworkError::Outputs(1))
    );
    let mut other = bytes.clone();
    other[16] = 2;
    assert_eq!(
        Network::from_bytes(&other).err(),
        Some(NetworkError::KingBuckets(2))
    );
    let mut other = bytes.clone();
    other[4] = 9;
    assert_eq!(
        Network::from_bytes(&other).err(),
        Some(NetworkError::Version(9))
    );
}
