//! Greer's move-chain search from the command line: `kibitz movetables
//! experiment` (the paper's Table 1 reproduced) and the chain search in
//! `kibitz trace`.
#![allow(clippy::unwrap_used)]

mod common;

use common::{TempHome, run_kibitz};
use serde_json::Value;

fn json_lines(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8(stdout.to_vec())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn the_experiment_reports_every_setting_on_the_98_positions() {
    let out = run_kibitz(&["movetables", "experiment", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = run_kibitz(&["movetables", "experiment"]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    let lines = json_lines(&out.stdout);
    let (rows, total) = lines.split_at(lines.len() - 1);
    let total = &total[0];
    assert_eq!(total["type"], "total");
    assert_eq!(total["positions"], 98);
    assert_eq!(total["depth"], 5);
    assert_eq!(total["decrement"], "all");
    let counts: Vec<u64> = rows
        .iter()
        .map(|r| r["table_moves"].as_u64().unwrap())
        .collect();
    assert_eq!(counts, [0, 1, 2, 4]);
    let paper: Vec<u64> = rows
        .iter()
        .map(|r| r["paper_mean_nodes"].as_u64().unwrap())
        .collect();
    assert_eq!(paper, [545, 13_367, 12_117, 12_550]);
    let alone = &rows[0];
    // The chains alone search no table move and agree with themselves.
    assert_eq!(alone["table_share"], 0.0);
    assert_eq!(alone["table_moves_searched"], 0);
    assert_eq!(alone["same_move"], 98);
    assert_eq!(alone["ratio"], 1.0);
    for row in rows {
        let nodes = row["nodes"].as_u64().unwrap();
        let mean = row["mean_nodes"].as_f64().unwrap();
        assert!((mean - nodes as f64 / 98.0).abs() < 0.05, "{row}");
        let ratio = row["ratio"].as_f64().unwrap();
        let base = alone["mean_nodes"].as_f64().unwrap();
        assert!((ratio - mean / base).abs() < 0.002, "{row}");
        assert!(
            row["pruned"].as_u64().unwrap() > 0,
            "the chains prune: {row}"
        );
        assert!(row["engine_move"].as_u64().unwrap() <= 98, "{row}");
    }
    // With tables, some nodes search a table move.
    assert!(rows[1]["table_moves_searched"].as_u64().unwrap() > 0);
    // The same every run: the figures the docs quote can be pinned.
    let again = run_kibitz(&["movetables", "experiment", "--json"]);
    assert_eq!(again.stdout, out.stdout);
}

#[test]
fn the_experiment_takes_positions_from_an_epd_file() {
    let home = TempHome::new("movechains-epd");
    let epd = home.join("three.epd");
    std::fs::write(
        &epd,
        "\u{feff}# three positions, a byte-order mark first\n\
         rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"one\";\n\
         \n\
         r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4\n\
         6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - -\n\
         3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - -\n",
    )
    .unwrap();
    let epd = epd.to_str().unwrap();
    let out = run_kibitz(&[
        "movetables",
        "experiment",
        "--epd",
        epd,
        "--depth",
        "3",
        "--table-moves",
        "2,2,0",
        "--threshold",
        "-5",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len(), 3, "chains alone, 2 table moves (once), total");
    assert_eq!(lines[1]["table_moves"], 2);
    // The mated position has nothing to search: left out and counted.
    assert_eq!(lines[2]["positions"], 3);
    assert_eq!(lines[2]["skipped"], 1);
    assert_eq!(lines[2]["depth"], 3);
    assert_eq!(lines[2]["threshold"], -5);
    // Not the paper's positions or depth: its figures are not set beside.
    assert!(lines[0]["paper_mean_nodes"].is_null());
    assert!(lines[0]["same_move"].as_u64().unwrap() <= 3);
    // The text table names the file and both settings.
    let text = run_kibitz(&["movetables", "experiment", "--epd", epd, "--depth", "3"]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("three.epd") && text.contains("move chains alone"),
        "{text}"
    );
    assert!(
        // (The title is wrapped at a word: read it as one line.)
        text.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .contains("1 position with no legal move skipped."),
        "{text}"
    );
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
}

#[test]
fn bad_experiment_input_is_refused_with_exit_2() {
    let home = TempHome::new("movechains-bad");
    let bad = home.join("bad.epd");
    std::fs::write(&bad, "not a position at all\n").unwrap();
    let empty = home.join("empty.epd");
    std::fs::write(&empty, "# nothing\n\n").unwrap();
    let cases: [(Vec<&str>, &str); 5] = [
        (vec!["--epd", bad.to_str().unwrap()], "line 1"),
        (vec!["--epd", empty.to_str().unwrap()], "no position"),
        (vec!["--epd", home.path().to_str().unwrap()], "cannot read"),
        (vec!["--depth", "0"], "out of range"),
        (vec!["--table-moves", "9"], "out of range"),
    ];
    for (args, words) in cases {
        let mut all = vec!["movetables", "experiment"];
        all.extend(args.iter().copied());
        let out = run_kibitz(&all);
        assert_eq!(out.status.code(), Some(2), "{all:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(words), "{all:?}: {stderr}");
    }
    // The chain search has no selective rules to switch on.
    let out = run_kibitz(&["trace", "--chains", "--selective", "--depth", "2"]);
    assert_eq!(out.status.code(), Some(2));
    // The plain command still wants its depth, and still works with it.
    assert_eq!(run_kibitz(&["movetables"]).status.code(), Some(2));
    assert!(run_kibitz(&["movetables", "--depth", "2"]).status.success());
}

#[test]
fn a_chain_trace_marks_chain_moves_and_their_pruning() {
    let args = [
        "trace",
        "--chains",
        "--table-moves",
        "1",
        "--depth",
        "3",
        "--moves",
        "e4",
        "e5",
        "Nf3",
        "Nc6",
    ];
    let out = run_kibitz(&[&args[..], &["--json"]].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = json_lines(&out.stdout);
    let reasons = |kind: &str| {
        lines
            .iter()
            .filter(|e| e["event"] == kind)
            .filter_map(|e| e["reason"].as_str().map(str::to_string))
            .collect::<Vec<_>>()
    };
    let tried = reasons("move_tried");
    assert!(tried.iter().any(|r| r == "move_chain"), "{tried:?}");
    assert!(tried.iter().any(|r| r == "table_move"), "{tried:?}");
    assert!(reasons("move_pruned").iter().any(|r| r == "move_chain"));
    let summary = lines.last().unwrap();
    assert_eq!(summary["options"]["move_chains"], true);
    let chains = &summary["stats"]["chains"];
    assert!(chains["chain_nodes"].as_u64().unwrap() > 0, "{summary}");
    // The outline marks them too, and the summary counts them.
    let tree = String::from_utf8(run_kibitz(&[&args[..], &["--tree"]].concat()).stdout).unwrap();
    assert!(
        tree.contains("move chain") && tree.contains("table move"),
        "{tree}"
    );
    let summary =
        String::from_utf8(run_kibitz(&[&args[..], &["--summary"]].concat()).stdout).unwrap();
    assert!(summary.contains("Greer's move-chain search"), "{summary}");
    assert!(summary.contains("chains applied at"), "{summary}");
}

#[test]
fn teach_mode_steps_the_chain_search_and_says_why_moves_were_pruned() {
    use kibitz::engine::SearchOptions;
    use kibitz::engine::trace::Pruning;
    use kibitz::teach::caption::caption;
    use kibitz::teach::{self, MoveStatus, Replay, Setup};

    let position = kibitz::game::fen::parse_fen(
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    )
    .unwrap();
    let options = SearchOptions {
        move_chains: true,
        table_moves: 1,
        ..SearchOptions::textbook()
    };
    assert_eq!(
        teach::algorithm_text(options),
        "move chains + tables + ordering + quiescence"
    );
    let setup = Setup {
        position,
        tree: None,
        history: Vec::new(),
        depth: 3,
        options,
    };
    let replay = Replay::new(teach::record(&setup, teach::MAX_EVENTS, &|| false).unwrap());
    let mut step = replay.step(0);
    let mut pruned_seen = false;
    let mut chain_caption = false;
    for k in 0..=replay.len() {
        replay.seek(&mut step, k);
        pruned_seen |= step.frames.iter().any(|frame| {
            frame
                .moves
                .iter()
                .any(|line| line.status == MoveStatus::Pruned(Pruning::MoveChain))
        });
        chain_caption |= caption(&replay, &step).contains("move chain");
    }
    assert!(pruned_seen, "a frame lists a move the chains pruned");
    assert!(chain_caption, "a caption names a move chain");
    // The tree view marks where the chains and the tables led.
    let tree = kibitz::teach::tree::build(&setup.position, &options, replay.events());
    let outline = tree.outline_text(kibitz::teach::tree::Values::Negamax);
    assert!(
        outline.contains("move chain") && outline.contains("table move"),
        "{outline}"
    );
}

#[test]
fn a_game_can_be_walked_by_the_chain_search_with_its_chains_kept() {
    let pgn = common::testdata("pgn/molinari-bordais-1979.pgn");
    let pgn = pgn.to_str().unwrap();
    let walk = |chains: bool| {
        let mut args = vec!["movetables", "--pgn", pgn, "--depth", "3", "--json"];
        if chains {
            args.push("--chains");
        }
        let out = run_kibitz(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        json_lines(&out.stdout)
    };
    let (plain, chained) = (walk(false), walk(true));
    assert_eq!(plain.len(), chained.len());
    // The chain search prunes: fewer nodes over the game, other tables.
    let nodes = |lines: &[Value]| {
        lines
            .iter()
            .map(|l| l["nodes"].as_u64().unwrap())
            .sum::<u64>()
    };
    assert!(nodes(&chained) < nodes(&plain));
    assert_ne!(
        plain.last().unwrap()["tables"],
        chained.last().unwrap()["tables"]
    );
    // Each snapshot names its settings; the chain search's default rule is
    // the paper's, and its counts come along.
    let last = chained.last().unwrap();
    assert_eq!(last["decrement"], "all");
    assert_eq!(last["depth"], 3);
    assert!(last["chains"]["interior"].as_u64().unwrap() > 0, "{last}");
    assert_eq!(plain.last().unwrap()["decrement"], "tried");
    assert!(plain.last().unwrap().get("chains").is_none());
    let text = run_kibitz(&["movetables", "--pgn", pgn, "--depth", "3", "--chains"]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("by Greer's move-chain search"), "{text}");
    // Without a game there is nothing to walk.
    assert_eq!(
        run_kibitz(&["movetables", "--depth", "3", "--chains"])
            .status
            .code(),
        Some(2)
    );
}
