//! `kibitz trace` tells a learner only what is true: the search it names is
//! the search that ran, a finished game is refused, a search too large to
//! follow is stopped with advice (issue 32). Run through the binary.
#![allow(clippy::unwrap_used)]

mod common;

use std::process::Output;
use std::time::{Duration, Instant};

fn kibitz(args: &[&str]) -> Output {
    let mut all = vec!["trace"];
    all.extend_from_slice(args);
    common::run_kibitz(&all)
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

const PAWN_RACE: &str = "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1";
const MATE_IN_TWO: &str = "8/1p3Qb1/p5pk/P1p1p1p1/1P2P1P1/2P1N2n/5P1P/4qB1K w - - 1 1";
const MIDDLEGAME: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn summary_json(args: &[&str]) -> serde_json::Value {
    let out = kibitz(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    let text = stdout(&out);
    serde_json::from_str(text.lines().last().unwrap()).unwrap()
}

#[test]
fn no_pruning_is_plain_minimax_whatever_else_is_on() {
    let json = summary_json(&[
        "--fen",
        PAWN_RACE,
        "--depth",
        "4",
        "--no-pruning",
        "--summary",
        "--json",
    ]);
    let options = &json["options"];
    assert_eq!(options["alpha_beta"], false);
    assert_eq!(options["move_ordering"], false);
    assert_eq!(options["transposition_table"], false);
    assert_eq!(options["quiescence"], false);
    assert!(
        json["search"]
            .as_str()
            .unwrap()
            .starts_with("plain minimax, moves in generation order, static evaluation"),
        "{json}"
    );
    // Minimax never probes a table and has no cutoffs.
    assert_eq!(json["stats"]["tt_probes"], 0, "{json}");
    assert_eq!(json["beta_cutoffs"], 0);
    // And it visits more than alpha-beta for the same value.
    let pruned = summary_json(&[
        "--fen",
        PAWN_RACE,
        "--depth",
        "4",
        "--no-quiescence",
        "--summary",
        "--json",
    ]);
    assert_eq!(pruned["value"], json["value"]);
    assert!(
        pruned["nodes"].as_u64() < json["nodes"].as_u64(),
        "{pruned} {json}"
    );
    // A flag that asks for what minimax cannot do says it had no effect.
    let out = kibitz(&["--depth", "2", "--no-pruning", "--iterative", "--summary"]);
    assert!(
        stdout(&out).contains("note: --iterative had no effect"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_finished_game_is_refused_with_its_name() {
    let out = kibitz(&["--fen", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "--depth", "2"]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("Black is checkmated"),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("no move to search"),
        "{}",
        stderr(&out)
    );
    let out = kibitz(&[
        "--fen",
        "k7/8/1Q6/8/8/8/8/6K1 b - - 0 1",
        "--depth",
        "1",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("Black is stalemated"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_search_too_large_to_follow_stops_with_teach_modes_advice() {
    let started = Instant::now();
    let out = kibitz(&["--fen", MIDDLEGAME, "--depth", "4", "--no-pruning"]);
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let text = stderr(&out);
    assert!(text.contains("too large to follow"), "{text}");
    assert!(text.contains("over 1,500,000 steps at depth 4"), "{text}");
    assert!(
        text.contains("switch alpha-beta on, or lower the depth"),
        "{text}"
    );
    // The curated mate in two at depth 3 with minimax (no quiescence now)
    // fits, and finds the mate.
    let out = kibitz(&[
        "--fen",
        MATE_IN_TWO,
        "--depth",
        "3",
        "--no-pruning",
        "--summary",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("White mates in 2"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn counts_and_depth_limits_read_as_people_say_them() {
    let out = kibitz(&["--depth", "3", "--moves", "e2e4", "e7e5"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(!text.contains(" 1 moves"), "{text}");
    assert!(text.contains("transposition table: "), "{text}");
    // Teach's depth: 0 is not "too large".
    let out = common::run_kibitz(&["teach", "--depth", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("at least one ply"),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains("too large"), "{}", stderr(&out));
}

#[test]
fn in_check_every_move_tried_is_an_evasion() {
    let out = kibitz(&["--fen", "4k3/8/8/8/8/8/8/r3K3 w - - 0 1", "--depth", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let tries: Vec<&str> = text.lines().filter(|l| l.starts_with("try #")).collect();
    assert!(tries.len() >= 3, "{text}");
    for line in tries {
        assert!(line.contains("(check evasion, "), "{line}");
    }
}

#[test]
fn the_tree_outline_is_the_recorded_tree() {
    let fen = "8/8/8/4k3/8/4K3/4P3/8 w - - 0 1";
    let out = kibitz(&["--fen", fen, "--depth", "2", "--tree"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let (tree, summary) = text.split_once("-- summary --").unwrap();
    // A node's line has its kind letter, its value and its size; the
    // moves it skipped come under it without them.
    let lines: Vec<&str> = tree
        .lines()
        .skip(1)
        .filter(|l| l.contains(" node"))
        .collect();
    // One line a node: the summary counts them.
    let nodes: usize = summary
        .lines()
        .find_map(|l| l.strip_prefix("nodes "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert_eq!(lines.len(), nodes, "{text}");
    // Each line starts with the step that enters the node, in order.
    let steps: Vec<usize> = lines
        .iter()
        .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    assert!(steps.windows(2).all(|w| w[0] < w[1]), "{steps:?}");
    assert!(tree.contains("cut by Kf4, 7 skipped"), "{tree}");
    assert!(
        tree.contains("P Kf3  +0.92  [+0.91, +inf]  PV  7 nodes"),
        "{tree}"
    );
    // The tree and JSON are two different outputs.
    let both = kibitz(&["--fen", fen, "--depth", "2", "--tree", "--json"]);
    assert_eq!(both.status.code(), Some(2));
}

#[test]
fn a_null_moves_verification_is_named_as_such_not_as_a_singular_test() {
    // White has one piece besides its king: a null move that holds is
    // verified by a search of White's real moves at the same ply. The tree
    // must name that search for what it is, right after the pass it checks.
    let out = kibitz(&[
        "--tree",
        "--selective",
        "--pvs",
        "--iterative",
        "--fen",
        "8/5k2/8/3K4/8/8/4R3/8 w - - 0 1",
        "--depth",
        "6",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let indent = |line: &str| {
        let body = line.trim_start().split_once(' ').map_or("", |(_, b)| b);
        body.len() - body.trim_start().len()
    };
    let mut verified = 0;
    for (i, line) in lines.iter().enumerate() {
        if line.contains("null move verified") {
            verified += 1;
            let pass = lines[..i]
                .iter()
                .rev()
                .find(|l| indent(l) <= indent(line))
                .unwrap();
            assert_eq!(indent(pass), indent(line), "{pass}\n{line}");
            assert!(
                pass.contains(" pass "),
                "a verification follows the pass it checks:\n{pass}\n{line}"
            );
        }
        if line.contains("singular test") {
            let before = lines[..i]
                .iter()
                .rev()
                .find(|l| indent(l) <= indent(line))
                .unwrap();
            assert!(
                !(before.contains(" pass ") && before.contains("A pass")),
                "a search right after a pass that held is its verification:\n{before}\n{line}"
            );
        }
    }
    assert!(verified > 0, "no verification in:\n{text}");
}

/// The text tree's nodes with their subtree sizes and depth: (indent,
/// size), one a node line, in order.
fn tree_sizes(tree: &str) -> Vec<(usize, u64)> {
    tree.lines()
        .filter_map(|line| {
            let (_, body) = line.trim_start().split_once(' ')?;
            let indent = body.len() - body.trim_start().len();
            let size = body.split("  ").find_map(|part| {
                let count = part
                    .strip_suffix(" nodes")
                    .or_else(|| part.strip_suffix(" node"))?;
                count.replace(',', "").parse().ok()
            })?;
            Some((indent, size))
        })
        .collect()
}

#[test]
fn the_tree_names_what_a_cutoff_skipped_and_sizes_add_up() {
    let fen = "8/8/8/4k3/8/4K3/4P3/8 w - - 0 1";
    let out = kibitz(&["--fen", fen, "--depth", "2", "--tree"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let (tree, summary) = text.split_once("-- summary --").unwrap();
    // Kd2 is refuted by Kf4: the seven king moves not tried are named.
    let kd2 = tree.find("C Kd2").unwrap();
    let after = &tree[kd2..];
    assert!(after.contains("7 skipped: cut off by Kf4\n"), "{tree}");
    // A quiescence node says its stand-pat, from the mover's view as its
    // value; without quiescence a horizon leaf says its static value.
    assert!(
        tree.contains("A Kf4  -0.83  [-inf, -0.92]  quiescence, stand pat -0.83"),
        "{tree}"
    );
    let plain = stdout(&kibitz(&[
        "--fen",
        fen,
        "--depth",
        "2",
        "--tree",
        "--no-quiescence",
    ]));
    assert!(
        plain.contains("A Kf4  -0.83  [-inf, -0.92]  static -0.83"),
        "{plain}"
    );
    for skipped in ["Kd4", "Ke4", "Kd5", "Kf5", "Kd6", "Ke6", "Kf6"] {
        assert!(
            after.contains(&format!("{skipped}  cut off by Kf4 (beta reached)")),
            "{skipped}: {tree}"
        );
    }
    // Every node's size is 1 + its children's (the lines one column of
    // indent deeper up to the next line as shallow), the root's is the
    // search's node count.
    let sizes = tree_sizes(tree);
    for (i, &(indent, size)) in sizes.iter().enumerate() {
        let children: u64 = sizes[i + 1..]
            .iter()
            .take_while(|&&(deeper, _)| deeper > indent)
            .filter(|&&(deeper, _)| deeper == indent + 2)
            .map(|&(_, s)| s)
            .sum();
        assert_eq!(size, 1 + children, "line {i}: {tree}");
    }
    let nodes: u64 = summary
        .lines()
        .find_map(|l| l.strip_prefix("nodes "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert_eq!(sizes[0].1, nodes, "{text}");
}

#[test]
fn futility_and_delta_pruning_show_the_bound_they_compared_with_alpha() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let out = kibitz(&[
        "--fen",
        fen,
        "--depth",
        "4",
        "--selective",
        "--iterative",
        "--pvs",
        "--tree",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let pawns = |s: &str| -> f64 { s.trim().parse().unwrap() };
    let (mut futility, mut delta) = (0, 0);
    for line in text.lines() {
        let Some((rule, sum)) = line
            .split_once("pruned: futility pruning: static ")
            .map(|(_, s)| ("futility", s))
            .or_else(|| {
                line.split_once("pruned: delta pruning: stand pat ")
                    .map(|(_, s)| ("delta", s))
            })
        else {
            continue;
        };
        // "A [+ capture G] + margin M = B ≤ alpha C": the sum is right and
        // the bound is not above alpha, as the rule requires.
        let (terms, rest) = sum.split_once(" = ").unwrap();
        let (bound, alpha) = rest.split_once(" ≤ alpha ").unwrap();
        let total: f64 = terms
            .split(" + ")
            .map(|t| {
                pawns(
                    t.trim_start_matches("capture ")
                        .trim_start_matches("margin "),
                )
            })
            .sum();
        assert!((total - pawns(bound)).abs() < 0.001, "{line}");
        assert!(pawns(bound) <= pawns(alpha), "{line}");
        match rule {
            "futility" => futility += 1,
            _ => delta += 1,
        }
    }
    assert!(futility > 0 && delta > 0, "{futility} {delta}: {text}");
    assert!(text.contains("skipped: "), "{text}");
}

#[test]
fn the_summary_has_a_row_per_iteration_that_adds_up_to_the_totals() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let args = ["--fen", fen, "--depth", "4", "--iterative", "--summary"];
    let json = summary_json(&[&args[..], &["--json"]].concat());
    let rows = json["per_iteration"].as_array().unwrap();
    let depths: Vec<u64> = rows.iter().map(|r| r["depth"].as_u64().unwrap()).collect();
    assert_eq!(depths, [1, 2, 3, 4], "{json}");
    let sum = |key: &str| -> u64 { rows.iter().map(|r| r[key].as_u64().unwrap()).sum() };
    assert_eq!(sum("nodes"), json["nodes"].as_u64().unwrap(), "{json}");
    assert_eq!(sum("leaves"), json["leaves"].as_u64().unwrap(), "{json}");
    assert_eq!(sum("beta_cutoffs"), json["beta_cutoffs"].as_u64().unwrap());
    assert_eq!(sum("tt_hits"), json["stats"]["tt_hits"].as_u64().unwrap());
    // The deepest ply of the whole search is the deepest iteration's.
    let deepest = rows
        .iter()
        .map(|r| r["deepest_ply"].as_u64().unwrap())
        .max();
    assert_eq!(deepest, json["stats"]["selective_depth"].as_u64());
    // The old fields stay.
    assert!(json["stats"]["iterations"].is_array(), "{json}");
    // The text says the same, a line per depth.
    let out = kibitz(&args);
    let text = stdout(&out);
    let (_, table) = text.split_once("per iteration: depth").unwrap();
    let nodes: Vec<u64> = table
        .lines()
        .skip(1)
        .take(4)
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect();
    let json_nodes: Vec<u64> = rows.iter().map(|r| r["nodes"].as_u64().unwrap()).collect();
    assert_eq!(nodes, json_nodes, "{text}");
}

#[test]
fn on_a_hand_made_tree_the_outline_names_the_skipped_leaves_and_sizes_add_up() {
    let out = kibitz(&["--game-tree", "((3 12 8) (2 4 6) (14 5 2))", "--tree"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let (tree, _) = text.split_once("-- summary --").unwrap();
    // C1 = 2 refutes C (MAX already has 3 from B): C2 and C3 are never
    // looked at, and the outline says which and why.
    assert!(tree.contains("2 skipped: cut off by C1\n"), "{tree}");
    assert!(tree.contains("C2  cut off by C1 (beta reached)"), "{tree}");
    assert!(tree.contains("C3  cut off by C1 (beta reached)"), "{tree}");
    // Nothing of quiescence or futility: leaves say their value.
    assert!(
        !tree.contains("pruned:") && !tree.contains("stand pat"),
        "{tree}"
    );
    assert!(tree.contains("static 12"), "{tree}");
    let sizes = tree_sizes(tree);
    // The root, B, C, D and the 7 leaves evaluated.
    assert_eq!(sizes[0].1, 11, "{tree}");
    for (i, &(indent, size)) in sizes.iter().enumerate() {
        let children: u64 = sizes[i + 1..]
            .iter()
            .take_while(|&&(deeper, _)| deeper > indent)
            .filter(|&&(deeper, _)| deeper == indent + 2)
            .map(|&(_, s)| s)
            .sum();
        assert_eq!(size, 1 + children, "line {i}: {tree}");
    }
}
