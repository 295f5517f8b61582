//! The search statistics as `kibitz analyze` prints them: one line per
//! finished iteration, and in JSON one `stats` object per iteration whose
//! list of iterations is complete up to that depth.
#![allow(clippy::unwrap_used)]

mod common;

fn kibitz(args: &[&str]) -> std::process::Output {
    common::run_kibitz(args)
}

const MIDDLEGAME: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

#[test]
fn analyze_prints_a_statistics_line_per_iteration() {
    let out = kibitz(&["analyze", "--fen", MIDDLEGAME, "--depth", "6"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let stats: Vec<&str> = text
        .lines()
        .filter(|l| l.trim_start().starts_with("depth ") && l.contains("branching factor"))
        .collect();
    assert_eq!(stats.len(), 6, "{text}");
    for (index, line) in stats.iter().enumerate() {
        let depth = index + 1;
        assert!(
            line.trim_start().starts_with(&format!("depth {depth}:")),
            "{line}"
        );
        for word in ["nodes", "cutoffs", "TT hits", "seldepth", "nodes/s"] {
            assert!(line.contains(word), "{word} missing: {line}");
        }
        // N(d)/N(d-1) from depth 2 on; the d-th root always.
        assert_eq!(
            line.contains(&format!("N{depth}/N{}", depth - 1)),
            depth > 1,
            "{line}"
        );
        assert!(line.contains(&format!("(all nodes)^(1/{depth})")), "{line}");
    }
}

#[test]
fn analyze_json_stats_cover_every_finished_iteration() {
    let out = kibitz(&["analyze", "--fen", MIDDLEGAME, "--depth", "6", "--json"]);
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // The exact line of each depth carries the statistics of every iteration
    // up to and including that depth (they lagged one iteration behind).
    let exact: Vec<&serde_json::Value> = lines
        .iter()
        .filter(|l| l["type"] == "info" && l["bound"] == "exact")
        .collect();
    assert_eq!(exact.len(), 6);
    for (index, line) in exact.iter().enumerate() {
        let depth = index as u64 + 1;
        assert_eq!(line["depth"], depth);
        let s = &line["stats"];
        let iterations = s["iterations"].as_array().unwrap();
        assert_eq!(
            iterations.len() as u64,
            depth,
            "the list reaches this depth"
        );
        assert_eq!(iterations.last().unwrap()["depth"], depth);
        // The effective branching factor is this iteration's nodes over the
        // previous one's.
        let nodes =
            |i: &serde_json::Value| i["main"].as_u64().unwrap() + i["quiescence"].as_u64().unwrap();
        if depth > 1 {
            let expected = nodes(&iterations[index]) as f64 / nodes(&iterations[index - 1]) as f64;
            let ebf = s["effective_branching_factor"].as_f64().unwrap();
            assert!((ebf - expected).abs() < 1e-9, "{ebf} vs {expected}");
        } else {
            assert!(s["effective_branching_factor"].is_null());
        }
        let total: u64 = iterations.iter().map(nodes).sum();
        let all = s["main_nodes"].as_u64().unwrap() + s["quiescence_nodes"].as_u64().unwrap();
        assert_eq!(total, all, "every node belongs to a finished iteration");
    }
}
