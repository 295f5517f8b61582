//! PGN import against real-world files, and import -> export -> import.
#![allow(clippy::unwrap_used)]

mod common;

use kibitz::game::import::read_games;
use kibitz::game::tree::GameTree;
use proptest::prelude::*;
use shakmaty::{Chess, Position};

/// Every game of a PGN text.
fn parse(text: &[u8]) -> Vec<GameTree> {
    let mut games = Vec::new();
    read_games(text, &mut |g| {
        games.push(g);
        true
    })
    .unwrap();
    games
}

/// A test PGN, `tests/data/pgn/NAME`.
fn load(name: &str) -> Vec<GameTree> {
    parse(&std::fs::read(common::testdata(&format!("pgn/{name}"))).unwrap())
}

/// The tree's shape, independent of the order nodes were stored in: each
/// node's move, NAGs, comments and children, recursively.
fn shape(tree: &GameTree, node: usize) -> String {
    let n = &tree.nodes[node];
    let children: Vec<String> = n.children.iter().map(|&c| shape(tree, c)).collect();
    format!(
        "({} {:?} {:?} [{}])",
        n.san,
        n.nags,
        n.comments,
        children.join(" ")
    )
}

fn plies(tree: &GameTree) -> usize {
    tree.mainline().len()
}

#[test]
fn real_world_files_load_with_their_games_and_moves() {
    let games = load("kasparov-deep-blue-1997.pgn");
    assert_eq!(games.len(), 6);
    for g in &games {
        let count: usize = g.headers.get("PlyCount").unwrap().parse().unwrap();
        assert_eq!(plies(g), count, "{:?}", g.headers.get("Round"));
        assert!(g.error.is_none());
    }
    // A null move (Z0) in the main line: 41...Z0 42. Ke1 Qh1+.
    let games = load("anastasian-lewis.pgn");
    assert_eq!(games.len(), 1);
    assert!(games[0].error.is_none(), "{:?}", games[0].error);
    assert_eq!(plies(&games[0]), 84);
    let games = load("molinari-bordais-1979.pgn");
    assert_eq!(games.len(), 1);
    assert_eq!(plies(&games[0]), 10);
    assert!(
        games[0]
            .position(*games[0].mainline().last().unwrap())
            .is_checkmate()
    );
    // An empty line inside the game, and comments on every move.
    assert_eq!(plies(&load("chessbase-empty-line.pgn")[0]), 134);
    let learning = load("stockfish-learning.pgn");
    assert_eq!(plies(&learning[0]), 154);
    assert_eq!(learning[0].counts().1, 154, "every comment kept");
    // Movetext in UCI notation.
    let uci = load("uci-moves.pgn");
    assert_eq!(plies(&uci[0]), 113);
    // A byte-order mark and two empty games.
    let bom = load("utf8-bom.pgn");
    assert_eq!(bom.len(), 2);
    assert_eq!(bom[0].headers.get("Event"), Some("A"));
    assert!(bom.iter().all(|g| plies(g) == 0 && g.error.is_none()));
}

#[test]
fn an_unreadable_move_is_reported_with_game_and_ply_and_the_moves_before_stay() {
    let text = "[Event \"one\"]\n\n1. e4 e5 2. Nf3 *\n\n[Event \"two\"]\n\n1. d4 d5 2. Ke3 Nf6 *\n\n[Event \"three\"]\n\n1. c4 *\n";
    let games = parse(text.as_bytes());
    assert_eq!(games.len(), 3, "the other games load");
    let error = games[1].error.clone().unwrap();
    assert_eq!((error.game, error.ply, error.text.as_str()), (2, 3, "Ke3"));
    assert_eq!(plies(&games[1]), 2);
    assert!(games[2].error.is_none() && plies(&games[2]) == 1);
}

#[test]
fn variations_comments_and_nags_survive_a_round_trip() {
    let text = "[Event \"t\"]\n[Result \"*\"]\n\n{ start } 1. e4 $1 { best by test } e5 (1... c5 2. Nf3 (2. c3) d6) (1... e6) 2. Nf3 Nc6 $2 3. Bb5 *\n";
    let games = parse(text.as_bytes());
    let tree = &games[0];
    assert_eq!(tree.counts(), (3, 2, 2));
    let pgn = tree.to_pgn();
    let again = parse(pgn.as_bytes());
    assert_eq!(shape(&again[0], 0), shape(tree, 0), "{pgn}");
}

#[test]
fn every_test_file_round_trips() {
    for name in [
        "anastasian-lewis.pgn",
        "chessbase-empty-line.pgn",
        "kasparov-deep-blue-1997.pgn",
        "molinari-bordais-1979.pgn",
        "stockfish-learning.pgn",
        "uci-moves.pgn",
        "utf8-bom.pgn",
        "hand-typed.pgn",
    ] {
        for tree in load(name) {
            let pgn = tree.to_pgn();
            let again = parse(pgn.as_bytes());
            assert_eq!(again.len(), 1, "{name}");
            assert_eq!(shape(&again[0], 0), shape(&tree, 0), "{name}");
            assert_eq!(again[0].result, tree.result, "{name}");
        }
    }
}

/// A random tree: random legal moves, random variations, comments and NAGs.
fn random_tree(seed: u64) -> GameTree {
    let mut rng = kibitz::engine::level::Rng::new(seed);
    let mut tree = GameTree::new(Chess::default());
    let mut frontier = vec![0usize];
    for _ in 0..40 {
        let at = frontier[(rng.next_u64() % frontier.len() as u64) as usize];
        let position = tree.position(at);
        let moves = position.legal_moves();
        if moves.is_empty() {
            continue;
        }
        let roll = rng.next_u64() % 10;
        let node = if roll == 0
            && let Some(passed) = kibitz::game::tree::pass(&position)
        {
            // A null move, where the side to move may pass.
            let _ = passed;
            tree.push_null_at(at)
        } else if roll == 1
            && let Some(&first) = tree.nodes[at].children.first()
            && let Some(m) = tree.nodes[first].m
        {
            // A variation that repeats the move already played here.
            tree.push_move_at(at, &position, m)
        } else {
            let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
            tree.add_move(at, m)
        };
        if rng.next_u64().is_multiple_of(4) {
            tree.nodes[node]
                .comments
                .push(format!("note {}", rng.next_u64() % 100));
        }
        if rng.next_u64().is_multiple_of(5) {
            tree.nodes[node].nags.push((1 + rng.next_u64() % 6) as u8);
        }
        frontier.push(node);
    }
    tree
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn generated_trees_round_trip(seed in any::<u64>()) {
        let tree = random_tree(seed);
        let pgn = tree.to_pgn();
        let again = parse(pgn.as_bytes());
        prop_assert_eq!(again.len(), 1);
        prop_assert_eq!(shape(&again[0], 0), shape(&tree, 0), "{}", pgn);
    }

    /// The same trees written the way hand-typed and old PGN writes them
    /// (`++`, promotions without `=`, castling with zeros, NAGs as glued
    /// `!?` marks, `Z0` for a null move) read back to the same tree.
    #[test]
    fn decorated_trees_read_back_the_same(seed in any::<u64>(), style in any::<u64>()) {
        let tree = random_tree(seed);
        let pgn = tree.to_pgn();
        let decorated = decorate(&pgn, style);
        let again = parse(decorated.as_bytes());
        prop_assert_eq!(again.len(), 1);
        prop_assert!(again[0].error.is_none(), "{:?}\n{}", again[0].error, decorated);
        prop_assert_eq!(shape(&again[0], 0), shape(&tree, 0), "{}", decorated);
    }

    /// Promoting and deleting keep a tree that writes and reads back the same,
    /// with no node lost or left over.
    #[test]
    fn edited_trees_stay_whole_and_round_trip(seed in any::<u64>(), pick in any::<usize>()) {
        let mut tree = random_tree(seed);
        let node = 1 + pick % (tree.nodes.len() - 1).max(1);
        if node < tree.nodes.len() {
            let was_main = tree.on_mainline(node);
            prop_assert_eq!(tree.promote(node), !was_main);
            // Promoting as often as it takes makes it the main line.
            while tree.promote(node) {}
            prop_assert!(tree.on_mainline(node));
            let reachable = |t: &GameTree| {
                let mut stack = vec![0];
                let mut count = 0;
                while let Some(n) = stack.pop() {
                    count += 1;
                    stack.extend(t.nodes[n].children.iter().copied());
                }
                count
            };
            prop_assert_eq!(reachable(&tree), tree.nodes.len());
            let subtree = {
                let mut stack = vec![node];
                let mut count = 0;
                while let Some(n) = stack.pop() {
                    count += 1;
                    stack.extend(tree.nodes[n].children.iter().copied());
                }
                count
            };
            let before = tree.nodes.len();
            let parent = tree.delete(node).unwrap();
            prop_assert_eq!(tree.nodes.len(), before - subtree);
            prop_assert_eq!(reachable(&tree), tree.nodes.len());
            prop_assert!(parent < tree.nodes.len());
        }
        let again = parse(tree.to_pgn().as_bytes());
        prop_assert_eq!(shape(&again[0], 0), shape(&tree, 0));
    }
}

/// Movetext rewritten in the spellings readers must accept; `style` picks
/// which tokens change.
fn decorate(pgn: &str, style: u64) -> String {
    let (headers, movetext) = pgn.split_once("\n\n").unwrap();
    let mut rng = kibitz::engine::level::Rng::new(style);
    let mut out: Vec<String> = Vec::new();
    for token in movetext.split_whitespace() {
        let coin = rng.next_u64().is_multiple_of(2);
        let nag = match token {
            "$1" => Some("!"),
            "$2" => Some("?"),
            "$3" => Some("!!"),
            "$4" => Some("??"),
            "$5" => Some("!?"),
            "$6" => Some("?!"),
            _ => None,
        };
        // Two glued marks would read as other ones (`?` + `??` is `???`).
        if let (Some(mark), true, Some(last)) = (nag, coin, out.last_mut())
            && !last.ends_with(['!', '?'])
        {
            last.push_str(mark);
            continue;
        }
        let mut word = token.to_string();
        if coin {
            if word.ends_with('+') {
                word.push('+');
            }
            word = word.replace('=', "");
            if word.starts_with("O-O") {
                word = word.replace('O', "0");
            }
            if word == "--" {
                word = "Z0".into();
            }
        }
        out.push(word);
    }
    format!("{headers}\n\n{}\n", out.join(" "))
}

#[test]
fn a_variation_that_repeats_the_games_move_stays_a_variation() {
    let games = load("hand-typed.pgn");
    assert_eq!(games.len(), 5);
    let legal = &games[0];
    // 5. Nxe5 (5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5#) 5... Bxd1?? 6. Bxf7++ Ke7
    // 7. Nd5#: the main line is the 13 moves played, not the variation's.
    let mainline: Vec<&str> = legal
        .mainline()
        .iter()
        .map(|&n| legal.nodes[n].san.as_str())
        .collect();
    assert_eq!(
        mainline,
        [
            "e4", "e5", "Nf3", "d6", "Bc4", "Bg4", "Nc3", "g6", "Nxe5", "Bxd1", "Bxf7+", "Ke7",
            "Nd5#"
        ]
    );
    let branch = legal.nodes[legal.mainline()[7]].children.clone();
    assert_eq!(branch.len(), 2, "the game's move and the variation's");
    assert_eq!(legal.nodes[branch[0]].san, legal.nodes[branch[1]].san);
    assert_eq!(legal.ply(legal.line_end(branch[1])), 13);
    assert_eq!(legal.nodes[legal.mainline()[9]].nags, [4], "5... Bxd1??");
    // Written and read again, it is the same tree.
    let again = parse(legal.to_pgn().as_bytes());
    assert_eq!(shape(&again[0], 0), shape(legal, 0));
}

#[test]
fn old_and_hand_typed_spellings_read_every_move() {
    // Plies and final positions as python-chess 1.11 reads the same file.
    let expected = [
        (
            13,
            "rn1q1bnr/ppp1kB1p/3p2p1/3NN3/4P3/8/PPPP1PPP/R1BbK2R b KQ - 2 7",
        ),
        (
            17,
            "r1bq1rk1/pp4pp/2nbpn2/2pp4/8/1PNB1N2/PBPP1PPP/R2Q1RK1 b - - 3 9",
        ),
        (1, "8/8/8/8/8/k7/8/K2q4 w - - 0 2"),
        (
            8,
            "r1bqk1nr/ppp2ppp/2np4/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK3 w Qkq - 0 5",
        ),
        (
            6,
            "rnbqkbnr/pppp1ppp/8/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R w KQkq - 0 4",
        ),
    ];
    let games = load("hand-typed.pgn");
    for (game, (plies_expected, fen)) in games.iter().zip(expected) {
        assert!(game.error.is_none(), "{:?}", game.error);
        assert_eq!(
            plies(game),
            plies_expected,
            "{:?}",
            game.headers.get("Event")
        );
        let last = game.mainline().last().copied().unwrap_or(0);
        assert_eq!(kibitz::game::fen::fen_of(&game.position(last)), fen);
    }
    // The odds game's impossible castling right is dropped, and said.
    assert_eq!(games[3].notes.len(), 1);
    assert!(games[3].notes[0].contains("'KQkq'") && games[3].notes[0].contains("'Qkq'"));
}

#[test]
fn an_illegal_move_in_a_variation_cuts_only_that_variation() {
    let games = parse(b"1. e4 e5 (1... c5 2. Ke3 Nc6) 2. Nf3 Nc6 *\n");
    let game = &games[0];
    assert_eq!(plies(game), 4, "the main line goes on after the variation");
    let error = game.error.clone().unwrap();
    assert_eq!((error.ply, error.text.as_str()), (3, "Ke3"));
    assert!(error.to_string().contains("the variation stops"), "{error}");
    assert_eq!(game.counts().0, 1, "the variation keeps 1... c5");
}

#[test]
fn null_moves_and_deep_nesting_read_in_linear_time_with_limits() {
    // 20,000 null moves (this never finished before the reader carried the
    // position along).
    let mut text = String::from("[Event \"passes\"]\n\n");
    for ply in 0..20_000 {
        if ply % 2 == 0 {
            text.push_str(&format!("{}. ", ply / 2 + 1));
        }
        text.push_str("-- ");
    }
    text.push('*');
    let games = parse(text.as_bytes());
    assert_eq!(plies(&games[0]), 20_000);
    assert!(games[0].error.is_none());
    let pgn = games[0].to_pgn();
    assert_eq!(plies(&parse(pgn.as_bytes())[0]), 20_000);
    // 50,000 levels of nested variations: the first 256 are read, the rest
    // skipped with a note, and the main line is whole.
    let levels = 50_000;
    let text = format!(
        "1. Nf3 Nf6 {}{} *",
        "Ng1 Ng8 ( Nh5 Nf3 Nf6 ".repeat(levels),
        ")".repeat(levels)
    );
    let games = parse(text.as_bytes());
    assert_eq!(plies(&games[0]), 4);
    assert_eq!(
        games[0].counts().0,
        kibitz::game::import::MAX_VARIATION_DEPTH
    );
    assert!(games[0].notes.iter().any(|n| n.contains("nested deeper")));
    let again = parse(games[0].to_pgn().as_bytes());
    assert_eq!(shape(&again[0], 0), shape(&games[0], 0));
}

#[test]
fn the_game_list_reads_every_test_file_in_batches() {
    for name in [
        "kasparov-deep-blue-1997.pgn",
        "anastasian-lewis.pgn",
        "utf8-bom.pgn",
        "uci-moves.pgn",
        "stockfish-learning.pgn",
    ] {
        let text = std::fs::read(common::testdata(&format!("pgn/{name}"))).unwrap();
        let games = parse(&text);
        let mut listed = Vec::new();
        let count = kibitz::game::summary::summaries(&text[..], 3, &mut |batch| {
            assert!(batch.len() <= 3);
            listed.extend(batch);
            true
        })
        .unwrap();
        assert_eq!(count, games.len(), "{name}");
        assert_eq!(listed.len(), games.len(), "{name}");
        for (i, (summary, game)) in listed.iter().zip(&games).enumerate() {
            assert_eq!(summary.number, i + 1);
            assert_eq!(summary.plies, plies(game), "{name} game {}", i + 1);
            assert_eq!(summary.result, game.result);
        }
        // Game N read alone is the same as game N read in order.
        let last = games.len();
        let alone = kibitz::game::import::read_game_at(&text[..], last)
            .unwrap()
            .unwrap();
        assert_eq!(shape(&alone, 0), shape(&games[last - 1], 0), "{name}");
        assert!(
            kibitz::game::import::read_game_at(&text[..], last + 1)
                .unwrap()
                .is_none()
        );
    }
    let listed = {
        let text = std::fs::read(common::testdata("pgn/kasparov-deep-blue-1997.pgn")).unwrap();
        let mut all = Vec::new();
        kibitz::game::summary::summaries(&text[..], 100, &mut |b| {
            all.extend(b);
            true
        })
        .unwrap();
        all
    };
    assert!(listed[0].matches("kasparov ibm"));
    assert!(!listed[0].matches("karpov"));
    assert!(
        listed[5].opening.contains("Caro-Kann"),
        "{}",
        listed[5].opening
    );
}

#[test]
fn pgn_command_summarises_and_exits_2_on_an_unreadable_file() {
    let out = common::run_kibitz(&[
        "pgn",
        "--json",
        common::testdata("pgn/kasparov-deep-blue-1997.pgn")
            .to_str()
            .unwrap(),
    ]);
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[0]["plies"], 89);
    assert_eq!(lines[0]["opening"]["eco"], "A07");
    let out = common::run_kibitz(&["pgn", "/no/such/file.pgn"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}

#[test]
fn cr_only_and_mixed_line_endings_read_every_game_and_move() {
    let lf = std::fs::read(common::testdata("pgn/kasparov-deep-blue-1997.pgn")).unwrap();
    let expected: Vec<usize> = parse(&lf).iter().map(plies).collect();
    assert_eq!(expected.len(), 6);
    let cr: Vec<u8> = lf
        .iter()
        .map(|&b| if b == b'\n' { b'\r' } else { b })
        .collect();
    let crlf: Vec<u8> = lf
        .iter()
        .flat_map(|&b| {
            if b == b'\n' {
                vec![b'\r', b'\n']
            } else {
                vec![b]
            }
        })
        .collect();
    for (name, bytes) in [("CR", cr), ("CRLF", crlf)] {
        let games = parse(&bytes);
        let read: Vec<usize> = games.iter().map(plies).collect();
        assert_eq!(read, expected, "{name}");
        assert_eq!(games[5].headers.get("Round"), Some("?"), "{name}");
        assert!(games.iter().all(|g| g.notes.is_empty()), "{name}");
    }
}

#[test]
fn a_comment_that_starts_a_variation_stays_at_its_start() {
    let text = "1. e4 e5 ({Also good:} 1... c5 2. Nf3) 2. Nf3 *\n";
    let tree = &parse(text.as_bytes())[0];
    let pgn = tree.to_pgn();
    let movetext = pgn.split("\n\n").nth(1).unwrap().trim();
    assert_eq!(
        movetext,
        "1. e4 e5 ( { Also good: } 1... c5 2. Nf3 ) 2. Nf3 *"
    );
    let again = parse(pgn.as_bytes());
    assert_eq!(again[0].to_pgn(), pgn);
}

#[test]
fn en_passant_marks_before_check_marks_are_read() {
    // Black's d-pawn has just passed e5: exd6 takes it en passant.
    let before = "[FEN \"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2\"]\n[SetUp \"1\"]\n\n";
    for written in ["exd6ep+", "exd6e.p.+", "exd6ep#", "exd6+e.p."] {
        let text = format!("{before}2. {written} Kd8 3. Kd2 *\n");
        let tree = &parse(text.as_bytes())[0];
        assert!(tree.error.is_none(), "{written}: {:?}", tree.error);
        assert_eq!(plies(tree), 3, "{written}");
    }
}

#[test]
fn an_unreadable_word_stops_the_line_with_an_error() {
    let text = "1. e4 e5 2. Nf3Nc6 3. Bb5 a6 *\n";
    let tree = &parse(text.as_bytes())[0];
    assert_eq!(plies(tree), 2, "nothing read after the unreadable word");
    let error = tree.error.clone().expect("an error, not only a note");
    assert_eq!((error.ply, error.text.as_str()), (3, "Nf3Nc6"));
    // In a variation only the variation stops.
    let text = "1. e4 e5 (1... c5 2. Nf3Nc6 3. Bb5) 2. Nf3 Nc6 *\n";
    let tree = &parse(text.as_bytes())[0];
    assert_eq!(plies(tree), 4);
    assert_eq!(tree.counts().0, 1);
    assert!(tree.error.is_some());
}

#[test]
fn a_byte_order_mark_inside_a_file_starts_the_next_game() {
    let one = "\u{feff}[Event \"One\"]\n\n1. e4 e5 *\n\n";
    let two = "\u{feff}[Event \"Two\"]\n\n1. d4 *\n";
    let games = parse(format!("{one}{two}").as_bytes());
    let events: Vec<_> = games.iter().map(|g| g.headers.get("Event")).collect();
    assert_eq!(events, [Some("One"), Some("Two")]);
    assert_eq!(plies(&games[1]), 1);
}

#[test]
fn quotes_inside_a_tag_value_are_kept() {
    let text = "[Event \"\"Tageblatt\",\"]\n[Site \"a \"b\" c\"]\n\n1. e4 *\n";
    let games = parse(text.as_bytes());
    let tree = &games[0];
    assert_eq!(tree.headers.get("Event"), Some("\"Tageblatt\","));
    assert_eq!(tree.headers.get("Site"), Some("a \"b\" c"));
    let again = parse(tree.to_pgn().as_bytes());
    for name in ["Event", "Site"] {
        assert_eq!(again[0].headers.get(name), tree.headers.get(name));
    }
}

#[test]
fn a_chess960_game_keeps_its_castling_and_round_trips() {
    let games = load("chess960.pgn");
    let game = &games[0];
    assert!(game.error.is_none(), "{:?}", game.error);
    assert!(game.notes.is_empty(), "{:?}", game.notes);
    assert!(kibitz::game::chess960::is_chess960(&game.start));
    assert_eq!(plies(game), 19, "the whole game, past both castlings");
    let sans: Vec<&str> = game
        .mainline()
        .iter()
        .map(|&n| game.nodes[n].san.as_str())
        .collect();
    assert_eq!(sans[8], "O-O");
    assert_eq!(sans[15], "O-O-O");
    let last = *game.mainline().last().unwrap();
    assert_eq!(
        kibitz::game::fen::fen_of(&game.position(last)),
        "2kr3r/ppp1qppp/2np1n2/2b1p3/2B1P3/2PP1N1P/PP2QPP1/R1B2RK1 b - - 0 10"
    );
    // Written and read again: the same game, still Chess960.
    let written = game.to_pgn();
    assert!(written.contains("[Variant \"Chess960\"]\n"), "{written}");
    let again = parse(written.as_bytes());
    assert_eq!(shape(&again[0], 0), shape(game, 0));
    assert!(kibitz::game::chess960::is_chess960(&again[0].start));
}

#[test]
fn chess960_tags_spellings_and_shredder_fen_are_read_and_written_as_x_fen() {
    // Position 0 (`BBQNNRKR`, the king on g1) in Shredder-FEN, and the
    // variant spelled as some programs do. White castles queen-side: the
    // king g1 to c1, the f1 rook to d1.
    let text = "[Variant \"fischerandom\"]\n[SetUp \"1\"]\n\
        [FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n\
        1. Nc3 Nc6 2. Nf3 Nf6 3. d4 d5 4. Qd2 Qd7 5. O-O-O *\n";
    let games = parse(text.as_bytes());
    let game = &games[0];
    assert!(game.error.is_none(), "{:?}", game.error);
    assert_eq!(plies(game), 9);
    let last = *game.mainline().last().unwrap();
    // Black keeps both rights: its rooks stand outermost, so X-FEN `kq`.
    assert_eq!(
        kibitz::game::fen::fen_of(&game.position(last)),
        "bb3rkr/pppqpppp/2n2n2/3p4/3P4/2N2N2/PPPQPPPP/BBKR3R b kq - 3 5"
    );
    // A tree from that start writes its FEN in X-FEN and names the variant.
    let fresh = GameTree::new(game.start.clone());
    let written = fresh.to_pgn();
    assert!(
        written.contains("[Variant \"Chess960\"]\n[SetUp \"1\"]\n"),
        "{written}"
    );
    assert!(
        written.contains("[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]"),
        "{written}"
    );
}

#[test]
fn without_the_variant_tag_a_chess960_game_was_cut_at_castling_and_now_is_not() {
    // The same game as chess960.pgn without its Variant tag: the FEN's
    // castling rights (king on d1) make sense only in Chess960.
    let text = std::fs::read_to_string(common::testdata("pgn/chess960.pgn")).unwrap();
    let untagged = text.replace("[Variant \"Chess960\"]\n", "");
    let games = parse(untagged.as_bytes());
    assert!(games[0].error.is_none(), "{:?}", games[0].error);
    assert_eq!(plies(&games[0]), 19);
    assert!(games[0].to_pgn().contains("[Variant \"Chess960\"]"));
}

/// A stream that fails after `good` bytes, as a file on a failing disk.
struct FailsAfter<'a> {
    text: &'a [u8],
    good: usize,
}

impl std::io::Read for FailsAfter<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.good == 0 {
            return Err(std::io::Error::other("the disk failed"));
        }
        let n = buf.len().min(self.good).min(self.text.len());
        buf[..n].copy_from_slice(&self.text[..n]);
        self.text = &self.text[n..];
        self.good -= n;
        Ok(n)
    }
}

/// Reading on worker threads gives what the one-thread reader gives, game
/// for game and in file order: the whole trees (moves, SAN, comments,
/// variations, errors, notes) of every test file (errors, a BOM, CR line
/// ends, comments and variations among them), of all of them joined many
/// times, and of a stream that fails part way.
#[test]
fn worker_threads_read_what_one_thread_reads() {
    use kibitz::game::parallel::map_games;
    use kibitz::game::summary::{GameSummary, summaries};

    let mut paths: Vec<_> = std::fs::read_dir(common::testdata("pgn"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    paths.sort();
    let mut texts: Vec<Vec<u8>> = paths.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let joined: Vec<u8> = texts.join(&b"\n"[..]);
    texts.push(joined.repeat(40));
    texts.push(b"1. e4 e5 2. Nf3 {open\n\n[Event \"x\"]\n1. Qxx9 )) ( d4".to_vec());
    texts.push(b"\r[Event \"cr\"]\r\r1. e4 (1. d4 d5 (1... Nf6)) e5 2. Ke3 *\r".to_vec());
    for text in &texts {
        let sequential = parse(text);
        for workers in [0, 1, 2, 5] {
            let mut threaded = Vec::new();
            let count = map_games(
                &text[..],
                workers,
                &|tree, number| (number, tree),
                &mut |r| {
                    threaded.push(r);
                    true
                },
            )
            .unwrap();
            assert_eq!(count, sequential.len());
            let numbers: Vec<usize> = threaded.iter().map(|(n, _)| *n).collect();
            assert_eq!(numbers, (1..=sequential.len()).collect::<Vec<_>>());
            let trees: Vec<GameTree> = threaded.into_iter().map(|(_, t)| t).collect();
            assert!(trees == sequential, "{workers} workers");
        }
        let mut listed = Vec::new();
        let count = summaries(&text[..], 7, &mut |batch| {
            assert!(!batch.is_empty() && batch.len() <= 7);
            listed.extend(batch);
            true
        })
        .unwrap();
        let expected: Vec<GameSummary> = sequential
            .iter()
            .enumerate()
            .map(|(i, tree)| GameSummary::of(i + 1, tree))
            .collect();
        assert_eq!(count, expected.len());
        assert_eq!(listed, expected);
    }
    // A stream that fails: the games before the failure, then the error.
    let big = texts[texts.len() - 3].clone();
    let good = big.len() / 2;
    let mut before = Vec::new();
    let failed = read_games(FailsAfter { text: &big, good }, &mut |g| {
        before.push(g);
        true
    });
    assert!(failed.is_err());
    for workers in [0, 2] {
        let mut threaded = Vec::new();
        let failed = map_games(
            FailsAfter { text: &big, good },
            workers,
            &|tree, _| tree,
            &mut |t| {
                threaded.push(t);
                true
            },
        );
        assert_eq!(failed.unwrap_err().to_string(), "the disk failed");
        assert!(threaded == before, "{workers} workers");
    }
}
