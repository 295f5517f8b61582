//! `kibitz tune selfplay`, `fit`, `net`, `spsa` and `match`, run as a user runs them.

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
    // Seven copies: 56 games, so that the 50th is held out.
    let output = home
        .command()
        .args(["tune", "net", "--epochs", "3", "--batch", "256", "--json"])
        .args(["--threads", "2", "--out"])
        .arg(&net)
        .arg("--data")
        .args(std::iter::repeat_n(&data, 7))
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
        7 * positions,
        "every copy of the data is read"
    );
    assert!(
        result["held_out_positions"].as_u64().unwrap() > 0,
        "{result}"
    );
    let classical = result["classical_held_out_error"].as_f64().unwrap();
    assert!((0.0..0.25).contains(&classical), "{result}");
    let bytes = std::fs::read(&net).unwrap();
    kibitz::engine::nnue::Network::from_bytes(&bytes)
        .expect("the engine reads what tune net wrote");

    // Eight games hold none out: no held-out figure is made up.
    let output = home
        .command()
        .args(["tune", "net", "--epochs", "1", "--batch", "256", "--out"])
        .arg(&net)
        .arg("--data")
        .arg(&data)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("none held out"), "{text}");
    assert!(text.contains("held out -"), "{text}");
    assert!(!text.contains("0.000000"), "{text}");
}

#[test]
fn net_fine_tunes_a_network_from_epoch_0_and_never_writes_over_it() {
    let home = TempHome::new("tune-net-init");
    let data = home.join("data.txt");
    let output = home
        .command()
        .args(["tune", "selfplay", "--games", "6", "--nodes", "300"])
        .args(["--seed", "4", "--out"])
        .arg(&data)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let tuned = home.join("tuned.nnue");
    let output = home
        .command()
        .args(["tune", "net", "--epochs", "2", "--batch", "256", "--json"])
        .args(["--threads", "1", "--init", "builtin", "--out"])
        .arg(&tuned)
        .arg("--data")
        .arg(&data)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let numbers: Vec<u64> = json_lines(&output.stdout)
        .iter()
        .filter(|l| l["type"] == "epoch")
        .map(|l| l["epoch"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [0, 1, 2], "epoch 0 is the network started from");
    let before = std::fs::read(&tuned).unwrap();
    kibitz::engine::nnue::Network::from_bytes(&before).expect("a network the engine reads");
    // Starting from a file and writing over it is refused; so is starting
    // from the hand-written evaluation.
    for (init, expected) in [
        (tuned.clone().into_os_string(), "it is the input file"),
        ("handwritten".into(), "--init"),
        (home.join("none.nnue").into_os_string(), "--init"),
    ] {
        let output = home
            .command()
            .args(["tune", "net", "--epochs", "1", "--init"])
            .arg(&init)
            .arg("--out")
            .arg(&tuned)
            .arg("--data")
            .arg(&data)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{init:?}: {stderr}");
        assert!(stderr.contains(expected), "{init:?}: {stderr}");
    }
    assert_eq!(
        std::fs::read(&tuned).unwrap(),
        before,
        "the network is left as it was"
    );
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

/// `tune spsa`: a short run moves the parameters it tunes and no other,
/// the same seed on one thread plays the same run, the state file holds
/// what the run printed, and `--start` takes that back.
#[test]
fn spsa_tunes_the_parameters_named_and_a_seed_repeats_the_run() {
    let home = TempHome::new("tune-spsa");
    let run = |name: &str| {
        let out = home.join(name);
        let output = home
            .command()
            .args(["tune", "spsa", "--iterations", "6", "--nodes", "300"])
            .args(["--params", "rfp_margin,lmr_base", "--learning-rate", "0.5"])
            .args(["--threads", "1", "--seed", "9", "--json", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        let summary = json_lines(&output.stdout).pop().unwrap();
        let saved: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
        (summary, saved)
    };
    let (summary, saved) = run("a.json");
    assert_eq!(summary["type"], "spsa");
    assert_eq!(summary["iterations"], 6);
    let games: u64 = ["plus_wins", "draws", "plus_losses"]
        .iter()
        .map(|k| summary[k].as_u64().unwrap())
        .sum();
    assert_eq!(games, 12);
    let values = summary["values"].as_object().unwrap();
    assert_eq!(
        values.keys().collect::<Vec<_>>(),
        ["lmr_base", "rfp_margin"],
        "only the parameters named are tuned"
    );
    assert_eq!(saved["values"], summary["values"]);
    let (again, _) = run("b.json");
    assert_eq!(
        again["values"], summary["values"],
        "the same seed, the same run"
    );
    // The printed start is the rounded values, and `--start` takes it.
    let start = summary["start"].as_str().unwrap().to_string();
    for pair in start.split(',').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap();
        let tuned = values[name].as_f64().unwrap();
        assert_eq!(value.parse::<f64>().unwrap(), tuned.round(), "{pair}");
    }
    let listed = home
        .command()
        .args(["tune", "spsa", "--list", "--start"])
        .arg(if start.is_empty() {
            "rfp_margin=81"
        } else {
            &start
        })
        .output()
        .unwrap();
    assert!(listed.status.success(), "{listed:?}");
    let text = String::from_utf8_lossy(&listed.stdout);
    assert!(text.contains("(the engine's: "), "{text}");
    assert!(
        text.lines().any(|l| l.starts_with("probcut_margin")),
        "{text}"
    );
}

/// `tune match`: the pairs add up, identical sides are level within the
/// interval, and bad parameters exit 2 with the reason.
#[test]
fn match_reports_the_score_and_bad_parameters_exit_2() {
    let home = TempHome::new("tune-match");
    let output = home
        .command()
        .args(["tune", "match", "--pairs", "4"])
        .args(["--nodes", "300", "--threads", "2", "--json"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let summary = json_lines(&output.stdout).pop().unwrap();
    assert_eq!(summary["type"], "match");
    let games: u64 = ["wins", "draws", "losses"]
        .iter()
        .map(|k| summary[k].as_u64().unwrap())
        .sum();
    assert_eq!(games, 8);
    // The same parameters on both sides (the engine's) play the same moves
    // from the same opening: each pair is split evenly.
    assert_eq!(summary["score"], 0.5, "{summary}");
    assert_eq!(summary["same_games"], 4, "{summary}");
    assert!(summary["elo_low"].as_f64().unwrap() <= 0.0);
    assert!(summary["elo_high"].as_f64().unwrap() >= 0.0);
    // In text the tie is said to be no measurement at all; a setting that
    // changes the moves is not said to play alike.
    let text = |a: &str| {
        let output = home
            .command()
            .args(["tune", "match", "--pairs", "2", "--nodes", "300"])
            .args(["--threads", "1", "--a", a])
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    assert!(text("").contains("A and B are the same settings"));
    // rfp_depth 10 against 6: only nodes deeper than a 300-node search
    // reaches would see it.
    assert!(text("rfp_depth=10").contains("Both played the same moves in every game"));
    let changed = text("lmr_base=0,rfp_margin=200");
    assert!(!changed.contains("same moves in every game"), "{changed}");
    for (args, says) in [
        (vec!["match", "--a", "rfp_margin=5"], "out of range"),
        (vec!["match", "--b", "nonsense=1"], "no search parameter"),
        (vec!["match", "--pairs", "0"], "--pairs 0"),
        (vec!["spsa", "--params", "lmr_base,nope"], "`nope`"),
        (vec!["spsa", "--learning-rate", "0"], "--learning-rate"),
        (vec!["spsa", "--start", "lmr_base"], "name=value"),
    ] {
        let output = home.command().arg("tune").args(&args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

/// Stopped by SIGTERM (as Ctrl-C), `tune match` prints the score of the
/// pairs played, says it stopped, and exits 130.
#[test]
fn a_stopped_match_keeps_its_score_and_exits_130() {
    let home = TempHome::new("tune-match-stop");
    let child = home
        .command()
        .args(["tune", "match", "--pairs", "100000", "--nodes", "500"])
        .args(["--threads", "1"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let status = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stdout}\n{stderr}");
    assert!(stdout.contains("(stopped)"), "{stdout}");
    assert!(!stdout.contains("-0 Elo"), "{stdout}");
    assert!(stderr.contains("game pairs played"), "{stderr}");
}
