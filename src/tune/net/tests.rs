//! Tests of `net.rs`.

use super::*;

fn data(lines: &str) -> Vec<NetSample> {
    let dir = std::env::temp_dir().join(format!("kibitz-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{}.txt", lines.len()));
    std::fs::write(&path, lines).unwrap();
    let mut samples = Vec::new();
    read_data(&path, &mut samples).unwrap();
    std::fs::remove_file(&path).unwrap();
    samples
}

#[test]
fn flipping_an_input_is_the_black_view() {
    for index in 0..INPUTS {
        let i = index as u16;
        assert_eq!(flip(flip(i)), i);
        let color = if index < 384 {
            Color::White
        } else {
            Color::Black
        };
        let role = shakmaty::Role::ALL[(index % 384) / 64];
        let square = Square::new((index % 64) as u32);
        let piece = Piece { color, role };
        assert_eq!(usize::from(flip(i)), input(Color::Black, piece, square));
    }
}

#[test]
fn a_byte_order_mark_is_not_data() {
    let text = "# kibitz tune selfplay: FEN;result;score\n# game 1\n4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1-0;900\n";
    let plain = data(text);
    let marked = data(&format!("\u{feff}{text}"));
    assert_eq!(marked.len(), 1);
    assert_eq!(marked.len(), plain.len());
    // A mark before a first line that is data.
    let first = data("\u{feff}4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1-0;900\n");
    assert_eq!(first.len(), 1);
    assert_eq!(
        crate::tune::parse_data(&format!("\u{feff}{text}"))
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn bad_lines_are_named_with_their_file_and_number() {
    let dir = std::env::temp_dir().join(format!("kibitz-net-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.txt");
    for (text, line) in [
        ("# game 1\n4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1-0\n", 2),
        (
            "4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1-0;90\nnot a fen;1-0;3\n",
            2,
        ),
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1;2-0;5\n", 1),
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1-0;many\n", 1),
    ] {
        std::fs::write(&path, text).unwrap();
        let mut samples = Vec::new();
        match read_data(&path, &mut samples) {
            Err(NetDataError::BadLine { line: l, .. }) => assert_eq!(l, line, "{text}"),
            other => panic!("{text}: {:?}", other.map(|_| ())),
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_network_learns_that_an_extra_queen_wins_and_rounds_close_to_its_floats() {
    // Positions where White has an extra queen are scored +900 and
    // won; the same with Black's extra queen, -900 and lost; bare
    // kings, 0 and drawn; on 40 squares, with either side to move.
    let mut text = String::new();
    let mut game = 0;
    for square in (8..48).map(Square::new) {
        for (extra, result, score) in [
            (Some(Color::White), "1-0", 900),
            (Some(Color::Black), "0-1", -900),
            (None, "1/2-1/2", 0),
        ] {
            game += 1;
            let mut setup = shakmaty::Setup::empty();
            let king = |color| Piece {
                color,
                role: shakmaty::Role::King,
            };
            setup.board.set_piece_at(Square::E1, king(Color::White));
            setup.board.set_piece_at(Square::E8, king(Color::Black));
            if let Some(color) = extra {
                let queen = Piece {
                    color,
                    role: shakmaty::Role::Queen,
                };
                setup.board.set_piece_at(square, queen);
            }
            for turn in Color::ALL {
                setup.turn = turn;
                let fen = Fen::try_from_setup(setup.clone()).unwrap();
                text.push_str(&format!("# game {game}\n{fen};{result};{score}\n"));
            }
        }
    }
    let samples = data(&text);
    assert_eq!(samples.len(), 40 * 3 * 2);
    let options = TrainOptions {
        epochs: 40,
        batch: 40,
        learning_rate: 0.01,
        lambda: 1.0,
        threads: 2,
        seed: 3,
        mirror: false,
        one_output: false,
        init: None,
    };
    let mut errors = Vec::new();
    let trained = train(samples.clone(), &options, &mut |e| {
        errors.push(e.training_error)
    })
    .unwrap();
    assert!(errors.last().unwrap() < &(errors[0] / 4.0), "{errors:?}");
    let net = trained.net.quantize();
    let value = |fen: &str| {
        let setup = Fen::from_ascii(fen.as_bytes()).unwrap().into_setup();
        net.evaluate(&setup.board, setup.turn)
    };
    // The integer network, like the float one, says who is a queen up,
    // with either side to move.
    for fen in ["4k3/8/8/8/3Q4/8/8/4K3", "4k3/8/8/2Q5/8/8/8/4K3"] {
        assert!(value(&format!("{fen} w - - 0 1")) > 300, "{fen}");
        assert!(value(&format!("{fen} b - - 0 1")) < -300, "{fen}");
        let black = fen.replace('Q', "q");
        assert!(value(&format!("{black} w - - 0 1")) < -300, "{black}");
    }
    assert!(value("4k3/8/8/8/8/8/8/4K3 w - - 0 1").abs() < 100);
    assert!(trained.rounding_error < 5.0, "{}", trained.rounding_error);
}

#[test]
fn a_network_read_back_into_floats_rounds_to_the_same_integers() {
    let network = FloatNet::random(&mut Rng::new(5), OUTPUT_BUCKETS).quantize();
    let again = FloatNet::from_network(&network).quantize();
    assert_eq!(again.to_bytes(), network.to_bytes());
}

#[test]
fn fine_tuning_reports_the_starting_network_as_epoch_0_and_keeps_it_unless_beaten() {
    let text: String = (0..200)
        .map(|g| {
            let (result, score) = if g % 3 != 0 {
                ("1-0", 900)
            } else {
                ("1/2-1/2", 0)
            };
            let fen = if g % 3 != 0 {
                "4k3/8/8/8/3Q4/8/8/4K3 w - - 0 1"
            } else {
                "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
            };
            format!("# game {g}\n{fen};{result};{score}\n")
        })
        .collect();
    let samples = data(&text);
    let start = FloatNet::random(&mut Rng::new(9), OUTPUT_BUCKETS).quantize();
    let options = TrainOptions {
        epochs: 3,
        batch: 16,
        learning_rate: 0.01,
        threads: 1,
        init: Some(std::sync::Arc::new(start)),
        ..TrainOptions::default()
    };
    let mut numbers = Vec::new();
    let trained = train(samples.clone(), &options, &mut |e| numbers.push(e.number)).unwrap();
    assert_eq!(numbers, [0, 1, 2, 3]);
    let held_out: Vec<f64> = trained.epochs.iter().map(|e| e.held_out_error).collect();
    // Random weights predict a queen up badly: training improves on them,
    // and the kept epoch is the best held-out one, epoch 0 included.
    assert!(held_out[3] < held_out[0], "{held_out:?}");
    let best = held_out
        .iter()
        .enumerate()
        .min_by(|a, b| a.1.total_cmp(b.1))
        .map(|(i, _)| i as u32)
        .unwrap();
    assert_eq!(trained.best_epoch, best);
    // A step size too small to move anything: epoch 0 stays the best, and
    // the network comes back as it went in, its eight outputs too, even
    // when one output is asked for.
    let options = TrainOptions {
        learning_rate: 1e-12,
        epochs: 1,
        one_output: true,
        ..options
    };
    let start = options.init.clone().unwrap();
    let trained = train(samples, &options, &mut |_| {}).unwrap();
    assert_eq!(trained.best_epoch, 0);
    assert_eq!(trained.net.quantize().to_bytes(), start.to_bytes());
}
