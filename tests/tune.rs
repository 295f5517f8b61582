//! `kibitz tune selfplay` and `kibitz tune fit`, run as a user runs them.

mod common;

use common::TempHome;
use serde_json::Value;

fn json_lines(bytes: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}")))
        .collect()
}

#[test]
fn selfplay_writes_labelled_quiet_positions_and_a_seed_repeats_the_games() {
    let home = TempHome::new("tune-selfplay");
    let run = |name: &str, threads: &str| {
        let out = home.join(name);
        let output = home
            .command()
            .args(["tune", "selfplay", "--games", "3", "--nodes", "300"])
            .args(["--threads", threads, "--seed", "5", "--json", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        let summary = json_lines(&output.stdout).pop().unwrap();
        (std::fs::read_to_string(&out).unwrap(), summary)
    };
    let (data, summary) = run("a.txt", "1");
    assert_eq!(summary["type"], "selfplay");
    let games = summary["games"].as_u64().unwrap();
    assert_eq!(games + summary["thrown_away"].as_u64().unwrap(), 3);
    let wdl: u64 = ["white_wins", "draws", "black_wins"]
        .iter()
        .map(|k| summary[k].as_u64().unwrap())
        .sum();
    assert_eq!(wdl, games);
    let positions: Vec<&str> = data.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(
        positions.len() as u64,
        summary["positions"].as_u64().unwrap()
    );
    for line in &positions {
        let fields: Vec<&str> = line.split(';').collect();
        let [fen, result, score] = fields[..] else {
            panic!("{line}: expected FEN;result;score")
        };
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&result), "{line}");
        let score: i32 = score.parse().unwrap();
        assert!(
            score.abs() < 20_000,
            "{line}: a quiet position's score, never a mate"
        );
        let position = kibitz::game::fen::parse_fen(fen).unwrap();
        assert!(!shakmaty::Position::is_check(&position), "{line}");
    }
    let (again, _) = run("b.txt", "2");
    assert_eq!(data, again, "the same seed plays the same games, in order");
}

#[test]
fn fit_lowers_the_error_and_prints_the_weights() {
    let home = TempHome::new("tune-fit");
    let data = home.join("data.txt");
    let output = home
        .command()
        .args([
            "tune", "selfplay", "--games", "6", "--nodes", "300", "--out",
        ])
        .arg(&data)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let output = home
        .command()
        .args(["tune", "fit", "--passes", "2", "--json", "--data"])
        .arg(&data)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let lines = json_lines(&output.stdout);
    let result = lines.last().unwrap();
    assert_eq!(result["type"], "result");
    let error = result["training_error"].as_array().unwrap();
    assert!(error[1].as_f64().unwrap() <= error[0].as_f64().unwrap());
    assert!(
        result["params"]
            .as_str()
            .unwrap()
            .starts_with("EvalParams {")
    );
    let passes = lines.iter().filter(|l| l["type"] == "pass").count();
    assert!((1..=2).contains(&passes), "{passes} passes");
}

#[test]
fn net_trains_a_network_the_engine_reads_and_compares_it_with_the_hand_written_evaluation() {
    let home = TempHome::new("tune-net");
    let data = home.join("data.txt");
    let output = home
        .command()
        .args(["tune", "selfplay", "--games", "8", "--nodes", "300"])
        .args(["--seed", "2", "--out"])
        .arg(&data)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let net = home.join("kibitz.nnue");
    let output = home
        .command()
        .args(["tune", "net", "--epochs", "3", "--batch", "256", "--json"])
        .args(["--threads", "2", "--out"])
        .arg(&net)
        .arg("--data")
        .arg(&data)
        .arg(&data)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let lines = json_lines(&output.stdout);
    let epochs: Vec<&Value> = lines.iter().filter(|l| l["type"] == "epoch").collect();
    assert_eq!(epochs.len(), 3);
    let result = lines.last().unwrap();
    assert_eq!(result["type"], "result");
    let positions = data_positions(&data);
    assert_eq!(
        result["training_positions"].as_u64().unwrap()
            + result["held_out_positions"].as_u64().unwrap(),
        2 * positions,
        "both copies of the data are read"
    );
    let classical = result["classical_held_out_error"].as_f64().unwrap();
    assert!((0.0..0.25).contains(&classical), "{result}");
    let bytes = std::fs::read(&net).unwrap();
    kibitz::engine::nnue::Network::from_bytes(&bytes)
        .expect("the engine reads what tune net wrote");
}

fn data_positions(path: &std::path::Path) -> u64 {
    std::fs::read_to_string(path)
        .expect("the data file tune selfplay wrote")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .count() as u64
}

#[test]
fn bad_data_and_bad_targets_exit_2_with_the_reason() {
    let home = TempHome::new("tune-bad");
    let bad = home.join("bad.txt");
    std::fs::write(&bad, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1-0\n8/8/8 w;0-1\n").unwrap();
    let cases: Vec<(Vec<std::ffi::OsString>, &str)> = vec![
        (
            vec![
                "tune".into(),
                "fit".into(),
                "--data".into(),
                bad.clone().into(),
            ],
            "line 2",
        ),
        (
            vec![
                "tune".into(),
                "fit".into(),
                "--data".into(),
                home.path().into(),
            ],
            "not a regular file",
        ),
        (
            vec![
                "tune".into(),
                "fit".into(),
                "--data".into(),
                home.join("missing.txt").into(),
            ],
            "missing.txt",
        ),
        (
            vec![
                "tune".into(),
                "selfplay".into(),
                "--games".into(),
                "1".into(),
                "--out".into(),
                home.join("no/such/folder/x.txt").into(),
            ],
            "no such folder",
        ),
        (
            vec![
                "tune".into(),
                "selfplay".into(),
                "--nodes".into(),
                "5".into(),
                "--out".into(),
                home.join("x.txt").into(),
            ],
            "--nodes",
        ),
        (
            vec![
                "tune".into(),
                "net".into(),
                "--data".into(),
                bad.clone().into(),
                "--out".into(),
                home.join("x.nnue").into(),
            ],
            "line 1: expected FEN;result;score",
        ),
        (
            vec![
                "tune".into(),
                "net".into(),
                "--lambda".into(),
                "2".into(),
                "--data".into(),
                bad.clone().into(),
                "--out".into(),
                home.join("x.nnue").into(),
            ],
            "--lambda",
        ),
    ];
    for (args, expected) in cases {
        let output = home.command().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
    assert_eq!(
        std::fs::read_to_string(&bad).unwrap(),
        "4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1-0\n8/8/8 w;0-1\n",
        "the data file is left as it was"
    );
}

#[test]
fn selfplay_plays_with_the_evaluation_named_and_refuses_a_bad_network_file() {
    let home = TempHome::new("tune-selfplay-eval");
    let run = |name: &str, eval: &str| {
        let out = home.join(name);
        let output = home
            .command()
            .args(["tune", "selfplay", "--games", "2", "--nodes", "300"])
            .args(["--threads", "1", "--seed", "3", "--eval", eval, "--out"])
            .arg(&out)
            .output()
            .unwrap();
        (output, std::fs::read_to_string(&out).unwrap_or_default())
    };
    let (output, handwritten) = run("hand.txt", "handwritten");
    assert!(output.status.success(), "{output:?}");
    let (output, network) = run("net.txt", "builtin");
    assert!(output.status.success(), "{output:?}");
    assert!(network.starts_with("# kibitz tune selfplay") && network.contains("--eval builtin"));
    let scores = |data: &str| -> Vec<String> {
        data.lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.rsplit(';').next().unwrap().to_string())
            .collect()
    };
    assert!(!scores(&network).is_empty());
    assert_ne!(
        scores(&handwritten),
        scores(&network),
        "the network's searches score the games differently"
    );

    let junk = home.join("junk.nnue");
    std::fs::write(&junk, b"not a network").unwrap();
    let (output, written) = run("bad.txt", junk.to_str().unwrap());
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--eval") && stderr.contains("junk.nnue"),
        "{stderr}"
    );
    assert!(
        written.is_empty(),
        "nothing is written for a refused network"
    );
}
